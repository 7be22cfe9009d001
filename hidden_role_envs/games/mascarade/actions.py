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
| Fool: two cards | `fool swap +1 and +3`, `fool no swap +2 and centre 1` | `fool swap A and +1 B`, ... (not the Fool's own card) |
| Inquisitor: target | `inquisitor +k` | (8+ players only) |
| the target's guess | `guess <Character>` | (8+ players only) |
| Witch: target | `witch +k` | same |

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

import numpy as np

from hidden_role_envs.core.definition import ActionTable
from hidden_role_envs.games.mascarade.characters import CHARACTERS, MascaradeConfig

# Decisions, in the order of the table above.
TURN, CLAIM, SPY_LOOK, SPY_SWAP, BISHOP_CHOICE, FOOL_SWAP, INQUISITOR_TARGET, GUESS, WITCH_TARGET = range(9)
DECISIONS = (
    "take a turn: swap or not, look, or announce",
    "claim the announced character or pass",
    "Spy: choose the other card to look at",
    "Spy: swap the two cards or not",
    "Bishop: choose among the richest",
    "Fool: choose two cards and swap them or not",
    "Inquisitor: choose the player to question",
    "name the character you believe you are",
    "Witch: choose whose fortune to take",
)
# What a turn action does.
SWAP, LOOK, ANNOUNCE = range(3)


def place_name(relative: int, num_players: int, hand: int) -> str:
    """The name of a card place seen from a seat: `self`/`+k` (`A`/`+k B` at two cards each) or `centre j`."""
    if relative >= num_players * hand:
        return f"centre {relative - num_players * hand + 1}"
    offset, card = divmod(relative, hand)
    seat = "self" if offset == 0 else f"+{offset}"
    if hand == 1:
        return seat
    return "AB"[card] if offset == 0 else f"{seat} {'AB'[card]}"


class MascaradeActions(ActionTable):
    """Names, ids and meanings: `meaning[id]` is `(decision, op, argument)`.

    Card places in arguments are relative places (0 = the actor's first
    card, then its other card at 2-3 players, then the next seats' cards,
    then the centre); seats are offsets (1 = left neighbour).
    """

    def __init__(self, config: MascaradeConfig):
        n, hand, places = config.num_players, config.hand, config.num_places
        self.config = config
        name = [place_name(r, n, hand) for r in range(places)]
        own = range(hand)
        others = range(1, n)
        entries: list[tuple[str, int, int, object]] = []

        def swap_name(prefix: str, o: int, x: int) -> str:
            return f"{prefix} {name[x]}" if hand == 1 else f"{prefix} {name[o]} with {name[x]}"

        for o in own:
            for x in range(places):
                if x != o and (hand == 2 or x >= hand):
                    entries.append((swap_name("swap", o, x), TURN, SWAP, (o, x, True)))
                    entries.append((swap_name("no swap", o, x), TURN, SWAP, (o, x, False)))
        for o in own:
            entries.append(("look" if hand == 1 else f"look {name[o]}", TURN, LOOK, o))
        for c, character in enumerate(CHARACTERS):
            for o in own:
                label = f"announce {character}" if hand == 1 else f"announce {character} with {name[o]}"
                entries.append((label, TURN, ANNOUNCE, (c, o)))
        for o in own:
            entries.append(("claim" if hand == 1 else f"claim with {name[o]}", CLAIM, CLAIM, o))
        entries.append(("pass", CLAIM, CLAIM, None))
        targets = range(1 if hand == 1 else 0, places)  # at two cards each, the other own card may be chosen
        for x in targets:
            entries.append((f"spy {name[x]}", SPY_LOOK, SPY_LOOK, x))
        entries.append(("spy swap", SPY_SWAP, SPY_SWAP, True))
        entries.append(("spy no swap", SPY_SWAP, SPY_SWAP, False))
        for k in others:
            entries.append((f"bishop +{k}", BISHOP_CHOICE, BISHOP_CHOICE, k))
        for a, b in combinations(targets, 2):
            entries.append((f"fool swap {name[a]} and {name[b]}", FOOL_SWAP, FOOL_SWAP, (a, b, True)))
            entries.append((f"fool no swap {name[a]} and {name[b]}", FOOL_SWAP, FOOL_SWAP, (a, b, False)))
        for k in others:
            entries.append((f"inquisitor +{k}", INQUISITOR_TARGET, INQUISITOR_TARGET, k))
        for c, character in enumerate(CHARACTERS):
            entries.append((f"guess {character}", GUESS, GUESS, c))
        for k in others:
            entries.append((f"witch +{k}", WITCH_TARGET, WITCH_TARGET, k))

        super().__init__([label for label, _, _, _ in entries])
        self.meaning = tuple((decision, op, arg) for _, decision, op, arg in entries)
        self.masks = self._fixed_masks()
        self.bishop_ids = {arg: a for a, (d, _, arg) in enumerate(self.meaning) if d == BISHOP_CHOICE}

    def _fixed_masks(self) -> dict:
        """The masks that depend on the configuration only, keyed by decision (and the power's own card)."""
        in_play = self.config.counts

        def mask_of(keep) -> np.ndarray:
            mask = np.zeros(len(self.meaning), dtype=np.int8)
            for action, meaning in enumerate(self.meaning):
                if keep(*meaning):
                    mask[action] = 1
            return mask

        masks = {
            "turn": mask_of(lambda d, op, arg: d == TURN and (op != ANNOUNCE or in_play[arg[0]] > 0)),
            "turn forced": mask_of(lambda d, op, arg: d == TURN and op == SWAP),
            GUESS: mask_of(lambda d, op, arg: d == GUESS and in_play[arg] > 0),
        }
        for decision in (CLAIM, SPY_SWAP, INQUISITOR_TARGET, WITCH_TARGET):
            masks[decision] = mask_of(lambda d, op, arg, decision=decision: d == decision)
        for own in range(self.config.hand):  # the card the Spy or the Fool power comes from
            masks[SPY_LOOK, own] = mask_of(lambda d, op, arg, own=own: d == SPY_LOOK and arg != own)
            masks[FOOL_SWAP, own] = mask_of(lambda d, op, arg, own=own: d == FOOL_SWAP and own not in arg[:2])
        return masks
