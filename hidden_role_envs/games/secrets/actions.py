"""Secrets action ids and their names.

Seats in actions are RELATIVE to the seat that acts: `+1` is its left
neighbour (the next seat in turn order), `+2` the one after, and so on, so
one id means the same thing from every seat. For 5 players the ids are:

| ids   | name                              | decision                              |
|-------|-----------------------------------|---------------------------------------|
| 0-7   | `choose Scientist`                | which of the two shown cards to offer |
| 8-43  | `offer +2`, `offer +2 as Diplomat` | target of the Offer and the claim     |
| 44-45 | `intercept`, `let pass`           | the UN player on someone's Offer      |
| 46-47 | `accept`, `refuse`                | the target of the Offer               |
| 48-53 | `psychiatrist +1 +3`              | the two other tokens to swap          |
| 54-57 | `politician +2`                   | whose screen gets the Politician      |
| 58-59 | `diplomat left`, `diplomat right` | which neighbour swaps with the centre |
| 60-65 | `detective self`, `detective +3`, `detective centre` | which token to look at |
| 66-69 | `assassin +1`                     | who receives the Bullet               |

`offer +k` makes no claim; `offer +k as <Character>` also says, publicly
and perhaps falsely, that the card is that character. With `claims=False`
only the plain offers are legal. For n players there are
8 + 9(n-1) + 4 + C(n-1, 2) + (n-1) + 2 + (n+1) + (n-1) ids.

Examples (5 players): `string_to_action("offer +2 as Scientist")` is
8 + 1*9 + 6 = 23 and `action_to_string(23)` gives it back.
"""

from __future__ import annotations

from itertools import combinations

from hidden_role_envs.core.actions import Action, ActionTable
from hidden_role_envs.games.secrets.cards import CHARACTERS

# The decisions, in the order of the action groups above; each action's kind is the decision it answers.
CHOOSE, OFFER, UN_CHOICE, ANSWER, PSYCHIATRIST_SWAP, POLITICIAN_TARGET, DIPLOMAT_SIDE, DETECTIVE_LOOK, ASSASSIN_TARGET = (
    range(9)
)
DECISIONS = (
    "choose the card to offer",
    "make the Offer",
    "intercept the Offer (UN)",
    "accept or refuse the Offer",
    "Psychiatrist: swap two tokens",
    "Politician: choose the screen",
    "Diplomat: choose the side",
    "Detective: choose the token",
    "Assassin: choose who gets the Bullet",
)
CENTRE = -1  # the detective target meaning the centre token
LEFT, RIGHT = 1, -1


class SecretsActions(ActionTable):
    """`SecretsActions.of(num_players)`; `args` are seat offsets (and the claimed character of an Offer)."""

    def actions(self, num_players: int):
        others = range(1, num_players)
        for c, name in enumerate(CHARACTERS):
            yield Action(f"choose {name}", CHOOSE, c)
        for k in others:
            yield Action(f"offer +{k}", OFFER, (k, None))
            for c, name in enumerate(CHARACTERS):
                yield Action(f"offer +{k} as {name}", OFFER, (k, c))
        yield Action("intercept", UN_CHOICE, True)
        yield Action("let pass", UN_CHOICE, False)
        yield Action("accept", ANSWER, True)
        yield Action("refuse", ANSWER, False)
        for a, b in combinations(others, 2):
            yield Action(f"psychiatrist +{a} +{b}", PSYCHIATRIST_SWAP, (a, b))
        for k in others:
            yield Action(f"politician +{k}", POLITICIAN_TARGET, k)
        yield Action("diplomat left", DIPLOMAT_SIDE, LEFT)
        yield Action("diplomat right", DIPLOMAT_SIDE, RIGHT)
        yield Action("detective self", DETECTIVE_LOOK, 0)
        for k in others:
            yield Action(f"detective +{k}", DETECTIVE_LOOK, k)
        yield Action("detective centre", DETECTIVE_LOOK, CENTRE)
        for k in others:
            yield Action(f"assassin +{k}", ASSASSIN_TARGET, k)


def secrets_actions(config) -> SecretsActions:
    """The action table of a configuration (one per player count, shared)."""
    return SecretsActions.of(config.num_players)


def secrets_belief_links(config) -> list[tuple[str, int, str, int]]:
    """An Offer, the Politician and the Bullet each land on one seat: they act on the seat's belief that it is a
    teammate (with or without a claim, an Offer is one kind; whether it should go to a teammate depends on the card,
    which the trainer's `--link-gates` lets the gain read)."""
    table = secrets_actions(config)
    links = [("offer", a, "teammate", table.args[a][0]) for a in table.of_kind[OFFER]]
    links += [("politician", a, "teammate", table.args[a]) for a in table.of_kind[POLITICIAN_TARGET]]
    return links + [("assassin", a, "teammate", table.args[a]) for a in table.of_kind[ASSASSIN_TARGET]]
