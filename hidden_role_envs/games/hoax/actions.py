"""Hoax action ids and their names.

Seats in actions are RELATIVE to the seat that acts: `+1` is its left
neighbour (the next in turn order), `+2` the one after, and so on. Claims
are generated from the character sheet, so their names and number depend
on it. With the house sheet and 5 players the 88 ids are:

| ids   | name                                  | decision                                   |
|-------|---------------------------------------|--------------------------------------------|
| 0-2   | `pick Cash`                           | the opening pick of one resource           |
| 3-42  | `claim Chef Cash +2`                  | the turn: the claim and its choices         |
| 43-46 | `investigate +3`                      | the turn: pay one of each type, investigate |
| 47-74 | `accuse +1 as Lover`                  | the turn: the accusation                    |
| 75    | `end turn`                            | the turn: end it (after the claim)          |
| 76-77 | `call hoax`, `no hoax`                | whether to call Hoax on a claim             |
| 78-79 | `thumbs up`, `thumbs down`            | the secret vote                             |
| 80-87 | `immune as Gardener`, `no immunity`   | answering a privilege that takes from you   |

A claim is `claim <character>[ <option label>][ <named type>][ +k]`:
`claim Butler +2` (take 1 Cash, the player two seats to the left takes 1
Prestige), `claim Son-in-Law Evidence`, `claim Ex-Wife Cash`, `claim
Ex-Wife neighbours Prestige`, `claim Lover Evidence`, `claim Distant Cousin
Prestige`, `claim Chef Cash +1` (swap all Cash with the left neighbour),
`claim Gardener Prestige +3` (take 1 Evidence, and 1 Prestige from the
player three seats to the left).

Examples (5 players, house sheet): `string_to_action("claim Chef Cash +2")`
is 20 and `action_to_string(20)` gives it back; `accuse +1 as Butler` is 47.
"""

from __future__ import annotations

from hidden_role_envs.core.actions import Action, ActionTable
from hidden_role_envs.games.hoax.cards import RESOURCES
from hidden_role_envs.games.hoax.privileges import CharacterSheet, claim_action_name, option_choices

# The decisions a seat is asked, in the order of the action groups above.
PICK, TURN, HOAX_CALL, VOTE, IMMUNITY = range(5)
DECISIONS = (
    "pick a starting resource",
    "play the turn",
    "call Hoax or not",
    "vote on the claim",
    "answer the privilege with an immunity or not",
)

# What an action does (its kind), and its args:
PICK_RESOURCE = 0  # the resource
CLAIM = 1  # (character, option, named type or None, offset of the named player or None)
INVESTIGATE = 2  # the target's offset
ACCUSE = 3  # (the target's offset, character)
END_TURN = 4
CALL = 5
NO_CALL = 6
CAST_VOTE = 7  # +1 thumbs up, -1 thumbs down
IMMUNE = 8  # the character claimed
NO_IMMUNITY = 9


class HoaxActions(ActionTable):
    """`HoaxActions.of(num_players, sheet)`: one table per configuration (a sheet is one configuration per object)."""

    def actions(self, num_players: int, sheet: CharacterSheet):
        others = range(1, num_players)
        for r, resource in enumerate(RESOURCES):
            yield Action(f"pick {resource}", PICK_RESOURCE, r)
        for c, character in enumerate(sheet.characters):
            for o, option in enumerate(character.options):
                for resource, offset in option_choices(option, num_players):
                    yield Action(claim_action_name(character.name, option.label, resource, offset), CLAIM,
                                 (c, o, resource, offset))
        for k in others:
            yield Action(f"investigate +{k}", INVESTIGATE, k)
        for k in others:
            for c, name in enumerate(sheet.names):
                yield Action(f"accuse +{k} as {name}", ACCUSE, (k, c))
        yield Action("end turn", END_TURN)
        yield Action("call hoax", CALL)
        yield Action("no hoax", NO_CALL)
        yield Action("thumbs up", CAST_VOTE, 1)
        yield Action("thumbs down", CAST_VOTE, -1)
        for c, name in enumerate(sheet.names):
            yield Action(f"immune as {name}", IMMUNE, c)
        yield Action("no immunity", NO_IMMUNITY)


def hoax_actions(config) -> HoaxActions:
    """The action table of a configuration, shared by its games."""
    return HoaxActions.of(config.num_players, config.sheet)
