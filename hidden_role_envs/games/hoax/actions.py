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

from functools import lru_cache
from itertools import product

import numpy as np

from hidden_role_envs.core.definition import ActionTable
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, RESOURCES
from hidden_role_envs.games.hoax.privileges import CharacterSheet, claim_action_name, option_choices

# Decisions, in the order of the action groups above.
PICK, TURN, HOAX_CALL, VOTE, IMMUNITY = range(5)
DECISIONS = (
    "pick a starting resource",
    "play the turn",
    "call Hoax or not",
    "vote on the claim",
    "answer the privilege with an immunity or not",
)

# What an action does: meaning[id] = (decision, verb, arguments).
PICK_RESOURCE, CLAIM, INVESTIGATE, ACCUSE, END_TURN = "pick", "claim", "investigate", "accuse", "end turn"
CALL, NO_CALL, THUMBS_UP, THUMBS_DOWN = "call hoax", "no hoax", "thumbs up", "thumbs down"
IMMUNE, NO_IMMUNITY = "immune", "no immunity"


class HoaxActions(ActionTable):
    """Names, ids and meanings, plus the masks the rules hand out, built once per table.

    `meaning[id]` is `(decision, verb, arguments)`: `(r,)` for a pick;
    `(character, option, named type or None, offset or None)` for a claim;
    `(offset,)` for an investigation; `(offset, character)` for an
    accusation; `(character,)` for an immunity; `()` otherwise.

    What a turn allows depends only on whether the claim and the accusation
    are made, whether the actor can pay for an investigation, which other
    seats are still in and the actor's impostor tokens, so every turn mask
    is built here once: `turn_masks[claimed, accused, can_pay, others_in]`
    for an actor without impostor tokens (bit k-1 of `others_in` set when
    the seat k places to its left is in), and `claimable[tokens]` (keyed by
    the actor's impostor tokens, a tuple of bools by character) clears the
    claims those tokens forbid. The masks are shared and read-only.
    """

    def __init__(self, num_players: int, sheet: CharacterSheet):
        n = num_players
        self.num_players = num_players
        self.sheet = sheet
        others = range(1, n)
        entries: list[tuple[str, int, str, tuple]] = []
        for r, resource in enumerate(RESOURCES):
            entries.append((f"pick {resource}", PICK, PICK_RESOURCE, (r,)))
        for c, character in enumerate(sheet.characters):
            for o, option in enumerate(character.options):
                for resource, offset in option_choices(option, n):
                    name = claim_action_name(character.name, option.label, resource, offset)
                    entries.append((name, TURN, CLAIM, (c, o, resource, offset)))
        for k in others:
            entries.append((f"investigate +{k}", TURN, INVESTIGATE, (k,)))
        for k in others:
            for c, name in enumerate(sheet.names):
                entries.append((f"accuse +{k} as {name}", TURN, ACCUSE, (k, c)))
        entries.append(("end turn", TURN, END_TURN, ()))
        entries.append(("call hoax", HOAX_CALL, CALL, ()))
        entries.append(("no hoax", HOAX_CALL, NO_CALL, ()))
        entries.append(("thumbs up", VOTE, THUMBS_UP, ()))
        entries.append(("thumbs down", VOTE, THUMBS_DOWN, ()))
        for c, name in enumerate(sheet.names):
            entries.append((f"immune as {name}", IMMUNITY, IMMUNE, (c,)))
        entries.append(("no immunity", IMMUNITY, NO_IMMUNITY, ()))
        super().__init__([name for name, _, _, _ in entries])
        self.meaning = tuple((decision, verb, args) for _, decision, verb, args in entries)

        def ids(verb: str) -> np.ndarray:
            return np.array([a for a, (_, v, _) in enumerate(self.meaning) if v == verb], dtype=np.intp)

        self.pick_ids = ids(PICK_RESOURCE)
        self.claim_ids = ids(CLAIM)
        self.claim_character = np.array([self.meaning[a][2][0] for a in self.claim_ids], dtype=np.intp)
        self.claim_offset = np.array([self.meaning[a][2][3] or 0 for a in self.claim_ids], dtype=np.intp)
        self.investigate_ids = ids(INVESTIGATE)  # by offset 1..n-1
        self.accuse_ids = ids(ACCUSE)
        self.accuse_offset = np.array([self.meaning[a][2][0] for a in self.accuse_ids], dtype=np.intp)
        self.end_turn = self.ids["end turn"]
        self.immune_ids = ids(IMMUNE)  # by character
        self.no_immunity = self.ids["no immunity"]
        self.of_decision = {d: [a for a, m in enumerate(self.meaning) if m[0] == d] for d in range(len(DECISIONS))}
        self.none_legal = np.zeros(len(self), dtype=np.int8)  # once the game is over
        self.none_legal.flags.writeable = False
        self.fixed_masks = {}  # decisions whose actions are always all legal (read-only, shared)
        for decision in (PICK, HOAX_CALL, VOTE):
            mask = np.zeros(len(self), dtype=np.int8)
            mask[self.of_decision[decision]] = 1
            mask.flags.writeable = False
            self.fixed_masks[decision] = mask
        self.turn_masks = {
            (claimed, accused, can_pay, others_in): self._turn_mask(claimed, accused, can_pay, others_in, n)
            for claimed, accused, can_pay in product((False, True), repeat=3)
            for others_in in range(2 ** (n - 1))
        }
        self.claimable = {}
        for tokens in product((False, True), repeat=NUM_CHARACTERS):
            mask = np.ones(len(self), dtype=np.int8)
            mask[self.claim_ids] = ~np.array(tokens)[self.claim_character]
            mask.flags.writeable = False
            self.claimable[tokens] = mask

    # Never modified after it is built: copies share it and a pickle finds or rebuilds it.
    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (action_table, (self.num_players, self.sheet))

    def _turn_mask(self, claimed: bool, accused: bool, can_pay: bool, others_in: int, n: int) -> np.ndarray:
        in_game = np.array([True] + [bool(others_in >> (k - 1) & 1) for k in range(1, n)])  # by offset from the actor
        mask = np.zeros(len(self), dtype=np.int8)
        if not claimed:
            mask[self.claim_ids] = in_game[self.claim_offset]  # offset 0: the claim names nobody
        if can_pay:
            mask[self.investigate_ids] = in_game[1:]
        if not accused:
            mask[self.accuse_ids] = in_game[self.accuse_offset]
        if claimed:
            mask[self.end_turn] = 1
        mask.flags.writeable = False
        return mask


@lru_cache(maxsize=64)
def action_table(num_players: int, sheet: CharacterSheet) -> HoaxActions:
    """One action table per configuration, shared by its games (a sheet is one configuration per object)."""
    return HoaxActions(num_players, sheet)
