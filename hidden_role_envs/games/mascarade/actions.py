"""Mascarade action ids and their names.

Cards are named RELATIVE to the seat that acts: `+k` is the card of the
player k seats to its left (`+1` = the left neighbour, the next in turn
order), `centre j` the j-th centre card. At 2-3 players every seat has two
cards, `A` and `B`: its own are `A` and `B`, another player's `+k A` and
`+k B`. One id means the same thing from every seat.

| decision | names (4+ players) | names (2-3 players) |
|---|---|---|
| the turn | `swap +k`, `no swap +k`, `swap centre j`, `no swap centre j`, `look`, `announce <Character>` | `swap A with +k B`, `no swap B with A`, ..., `look A`, `announce <Character> with B` |
| claim or pass | `claim`, `pass` | `claim with A`, `claim with B`, `pass` |
| Spy: the other card | `spy +k`, `spy centre j` | `spy +k A`, `spy B`, ... (not the Spy's own card) |
| Spy: swap or not | `spy swap`, `spy no swap` | same |
| Bishop: which richest | `bishop +k` | same |
| Fool: two other players' cards | `fool swap +1 and +3`, `fool no swap +2 and +4` | `fool swap +1 A and +2 B`, ... |
| Inquisitor: target | `inquisitor +k` | (8+ players only) |
| the target's guess | `guess <Character>` | (8+ players only) |
| Witch: target, or none | `witch +k`, `witch no swap` | same |

A swap-or-not is one action: where, and whether the cards really swap
(nobody else sees which). The Fool's two cards and its swap decision are
one action too; the Spy decides to swap after looking, so that is a second
decision.

Examples at 5 players (4 places besides one's own: `+1`..`+4`, `centre 1`):
`string_to_action("swap +1")` is 0, `"no swap +1"` is 1, `"no swap centre 1"`
is 9, `"look"` is 10 and `"announce Judge"` is 11.
"""

from __future__ import annotations

from itertools import combinations

from hidden_role_envs.core.actions import Action, ActionTable
from hidden_role_envs.games.mascarade.characters import CHARACTERS, cards_per_seat

# What an action does (its kind); which kinds answer which decision is the rules' (rules.DECISION_KINDS).
SWAP, LOOK, ANNOUNCE, CLAIM, PASS, SPY_LOOK, SPY_SWAP, BISHOP_TAKE, FOOL_SWAP, QUESTION, GUESS, WITCH_SWAP = range(12)


def place_name(relative: int, num_players: int, hand: int) -> str:
    """The name of a card place seen from a seat: `self`/`+k` (`A`/`+k B` at two cards each) or `centre j`."""
    if relative >= num_players * hand:
        return f"centre {relative - num_players * hand + 1}"
    offset, card = divmod(relative, hand)
    seat = "self" if offset == 0 else f"+{offset}"
    if hand == 1:
        return seat
    return "AB"[card] if offset == 0 else f"{seat} {'AB'[card]}"


def fool_pairs(num_players: int, hand: int) -> list[tuple[int, int]]:
    """The Fool's two cards, relative to the Fool: one card of each of two other players ("las cartas de otros dos
    jugadores"); at 2 players, where there is one other player, that player's two cards (RULING)."""
    if num_players == 2:
        return [(hand, hand + 1)]
    others = range(hand, num_players * hand)
    return [(a, b) for a, b in combinations(others, 2) if a // hand != b // hand]


class MascaradeActions(ActionTable):
    """`MascaradeActions.of(num_players, num_places)`.

    `args` name card places relative to the actor (0 = its first card, then
    its other card at 2-3 players, then the next seats' cards, then the
    centre) and seats as offsets (1 = left neighbour): a swap-or-not is
    `(own, other, swapped)`, an announcement `(character, own)`, a claim
    `own`, a Fool's swap `(a, b, swapped)`.
    """

    def actions(self, num_players: int, num_places: int):
        n, hand, places = num_players, cards_per_seat(num_players), num_places
        name = [place_name(r, n, hand) for r in range(places)]
        own = range(hand)
        others = range(1, n)

        def with_own(prefix: str, o: int, x: int) -> str:
            return f"{prefix} {name[x]}" if hand == 1 else f"{prefix} {name[o]} with {name[x]}"

        for o in own:
            for x in range(places):
                if x != o and (hand == 2 or x >= hand):
                    yield Action(with_own("swap", o, x), SWAP, (o, x, True))
                    yield Action(with_own("no swap", o, x), SWAP, (o, x, False))
        for o in own:
            yield Action("look" if hand == 1 else f"look {name[o]}", LOOK, o)
        for c, character in enumerate(CHARACTERS):
            for o in own:
                yield Action(f"announce {character}" if hand == 1 else f"announce {character} with {name[o]}",
                             ANNOUNCE, (c, o))
        for o in own:
            yield Action("claim" if hand == 1 else f"claim with {name[o]}", CLAIM, o)
        yield Action("pass", PASS)
        targets = range(1 if hand == 1 else 0, places)  # at two cards each, the other own card may be chosen
        for x in targets:
            yield Action(f"spy {name[x]}", SPY_LOOK, x)
        yield Action("spy swap", SPY_SWAP, True)
        yield Action("spy no swap", SPY_SWAP, False)
        for k in others:
            yield Action(f"bishop +{k}", BISHOP_TAKE, k)
        for a, b in fool_pairs(n, hand):
            yield Action(f"fool swap {name[a]} and {name[b]}", FOOL_SWAP, (a, b, True))
            yield Action(f"fool no swap {name[a]} and {name[b]}", FOOL_SWAP, (a, b, False))
        for k in others:
            yield Action(f"inquisitor +{k}", QUESTION, k)
        for c, character in enumerate(CHARACTERS):
            yield Action(f"guess {character}", GUESS, c)
        for k in others:
            yield Action(f"witch +{k}", WITCH_SWAP, k)
        yield Action("witch no swap", WITCH_SWAP, 0)  # she may keep her own fortune


def mascarade_actions(config) -> MascaradeActions:
    """The action table of a configuration (one per player count and number of card places, shared)."""
    return MascaradeActions.of(config.num_players, config.num_places)
