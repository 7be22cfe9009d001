"""What a Hoax seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine (the characters, the ballots of a vote in
progress, the suspicion cards shown to others) is never read here, so an
observation cannot depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain

import numpy as np

from hidden_role_envs.core.definition import Observer
from hidden_role_envs.core.game import Event, relative_order
from hidden_role_envs.core.observation import Block, ObservationLayout
from hidden_role_envs.games.hoax.actions import DECISIONS
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, NUM_RESOURCES, RESOURCES, SUPPLY_PER_TYPE
from hidden_role_envs.games.hoax.knowledge import CharacterBeliefs
from hidden_role_envs.games.hoax.privileges import CharacterSheet
from hidden_role_envs.games.hoax.rules import NOBODY, HoaxConfig, HoaxTable


def hoax_layout(num_players: int, sheet: CharacterSheet) -> ObservationLayout:
    n, m = num_players, NUM_CHARACTERS
    return ObservationLayout(
        [
            Block("resources", (n, NUM_RESOURCES), 0, SUPPLY_PER_TYPE, "each seat's Cash, Evidence and Prestige"),
            Block("supply", (NUM_RESOURCES,), 0, SUPPLY_PER_TYPE, "Cash, Evidence and Prestige left in the supply"),
            Block("impostor", (n, m), 0, 1, "impostor tokens: the characters each seat may no longer claim"),
            Block("eliminated", (n,), 0, 1, "seats out of the game"),
            Block("hoax_holder", (n + 1,), 0, 1, "one-hot: who holds the Hoax card, last entry = the centre"),
            Block("active_player", (n,), 0, 1, "one-hot: whose turn it is"),
            Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision being asked"),
            Block("to_act", (n,), 0, 1, "one-hot: the seat asked to decide"),
            Block("turn_progress", (2,), 0, 1, "this turn's claim made, this turn's accusation made"),
            Block("claimant", (n,), 0, 1, "one-hot: who made the privilege claim being resolved"),
            Block("claim_character", (m,), 0, 1, "one-hot: the character claimed"),
            Block("claim_option", (sheet.max_options,), 0, 1, "one-hot: the privilege option chosen"),
            Block("claim_type", (NUM_RESOURCES,), 0, 1, "one-hot: the resource type named with the claim"),
            Block("claim_player", (n,), 0, 1, "one-hot: the player named with the claim"),
            Block("immunity_claimant", (n,), 0, 1, "one-hot: who claims an immunity to that privilege"),
            Block("immunity_character", (m,), 0, 1, "one-hot: the character whose immunity is claimed"),
            Block("votes", (n, 2), 0, 1, "the last revealed vote of each seat: thumbs up, thumbs down"),
            Block("character", (m,), 0, 1, "one-hot: this seat's own character"),
            Block("knowledge", (n, m), 0, 1, "P(seat holds character) given what this seat saw"),
        ]
    )


# Public blocks whose rows are seats (hoax_holder has one more row, the centre, which stays last).
SEAT_BLOCKS = {
    "resources",
    "impostor",
    "eliminated",
    "hoax_holder",
    "active_player",
    "to_act",
    "claimant",
    "claim_player",
    "immunity_claimant",
    "votes",
}
LAST_PUBLIC_BLOCK = "votes"  # the blocks up to it are public; `character` and `knowledge` are the seat's own


@lru_cache(maxsize=64)
def _gather_indices(num_players: int, sheet: CharacterSheet) -> np.ndarray:
    """gather[seat][i]: where element i of `seat`'s public blocks sits in seat 0's (table order).

    Seat 0 sees the seats in table order, so its public blocks are the
    public state itself, and every other seat's are a rotation of them.
    Built once per configuration.
    """
    n = num_players
    layout = hoax_layout(n, sheet)
    fields = layout.fields
    gather = np.empty((n, fields[LAST_PUBLIC_BLOCK].stop), dtype=np.intp)
    for block in layout.blocks:
        at = fields[block.name]
        in_table_order = np.arange(at.start, at.stop).reshape(block.shape)
        for seat in range(n):
            rows = list(range(block.shape[0]))
            if block.name in SEAT_BLOCKS:
                rows[:n] = [(seat + k) % n for k in range(n)]
            gather[seat, at] = in_table_order[rows].ravel()
        if block.name == LAST_PUBLIC_BLOCK:
            break
    gather.flags.writeable = False
    return gather


class HoaxObserver(Observer):
    """Encodes in place: the public blocks are built once per call in table order (as seat 0 sees
    them) and gathered into the seat's buffer in its own seat order with one index array; a seat's
    `character` block is written once per game and its `knowledge` block only when what it knows
    changes."""

    def __init__(self, config: HoaxConfig):
        n = config.num_players
        super().__init__(hoax_layout(n, config.sheet), n)
        self.num_players = n
        self.sheet = config.sheet
        fields = self.layout.fields
        self._at = {name: block.start for name, block in fields.items()}
        self._counts = slice(0, fields["eliminated"].stop)  # resources, supply, impostor, eliminated
        self._votes = fields["votes"]
        self._gather = _gather_indices(n, config.sheet)
        self._public_size = self._gather.shape[1]
        self.rotations = relative_order(n)
        self.table: HoaxTable | None = None

    def reset(self, table: HoaxTable, events: list[Event]) -> None:
        n = self.num_players
        self.table = table
        self.beliefs = CharacterBeliefs(n, NUM_CHARACTERS, n)
        self.own = [NOBODY] * n
        self._buffers[:] = 0
        self._knowledge_changed = [True] * n
        self.update(events)

    def update(self, events: list[Event]) -> None:
        beliefs = self.beliefs
        for kind, seen_by, data in events:
            if kind == "dealt":
                seat, character = data
                self.own[seat] = character
                self._views[seat]["character"][character] = 1
                beliefs.holds(seen_by, seat, character)
            elif kind == "shown":
                _, target, cards = data
                beliefs.among(seen_by, target, cards)
            elif kind == "impostor":
                seat, character = data
                beliefs.not_holds(seen_by, seat, character)
            elif kind == "accused":
                _, target, character, right = data
                if right:
                    beliefs.holds(seen_by, target, character)
                else:
                    beliefs.not_holds(seen_by, target, character)
            elif kind == "claim_checked" and data[2]:
                seat, character, _ = data
                beliefs.holds(seen_by, seat, character)
            else:
                continue
            for s in seen_by:
                self._knowledge_changed[s] = True

    def encode(self, seat: int) -> np.ndarray:
        buf = self._buffers[seat]
        buf[: self._public_size] = np.frombuffer(self._public_bytes(), dtype=np.uint8)[self._gather[seat]]
        if self._knowledge_changed[seat]:
            self._views[seat]["knowledge"][:] = self.beliefs.marginals(seat)[self.rotations[seat]]
            self._knowledge_changed[seat] = False
        return buf

    def _public_bytes(self) -> bytearray:
        """The public blocks in table order, read afresh from the table.

        They are built as bytes (every public value is a count up to 27 or a
        0/1), which Python writes several times faster than a float array.
        """
        table = self.table
        n = self.num_players
        public = bytearray(self._public_size)
        at = self._at
        public[self._counts] = [
            *chain.from_iterable(table.resources),
            *table.supply,
            *chain.from_iterable(table.impostor),
            *table.eliminated,
        ]
        holder = table.hoax_holder
        public[at["hoax_holder"] + (n if holder == NOBODY else holder)] = 1
        if table.to_act != NOBODY:  # the game is on
            public[at["active_player"] + table.active] = 1
            public[at["decision"] + table.decision] = 1
            public[at["to_act"] + table.to_act] = 1
        public[at["turn_progress"]] = table.claimed
        public[at["turn_progress"] + 1] = table.accused
        claim = table.claim
        if claim is not None:
            public[at["claimant"] + claim.claimant] = 1
            public[at["claim_character"] + claim.character] = 1
            public[at["claim_option"] + claim.option] = 1
            if claim.resource != NOBODY:
                public[at["claim_type"] + claim.resource] = 1
            if claim.player != NOBODY:
                public[at["claim_player"] + claim.player] = 1
            immunity = table.immunity
            if immunity is not None:
                public[at["immunity_claimant"] + immunity.claimant] = 1
                public[at["immunity_character"] + immunity.character] = 1
        public[self._votes] = [x for vote in table.votes for x in (vote > 0, vote < 0)]
        return public

    def describe(self, seat: int) -> str:
        names = self.sheet.names
        lines = [f"  you are the {names[self.own[seat]]}"]
        marginals = self.beliefs.marginals(seat)
        for other in range(self.num_players):
            if other == seat:
                continue
            probs = marginals[other]
            ranked = sorted(range(NUM_CHARACTERS), key=lambda c: -probs[c])
            if probs[ranked[0]] > 0.999:
                text = names[ranked[0]]
            else:
                text = ", ".join(f"{names[c]} {probs[c]:.0%}" for c in ranked if probs[c] > 0)
            lines.append(f"  player_{other}: {text}")
        held = self.table.resources[seat]
        lines.append("  you hold " + ", ".join(f"{int(k)} {r}" for k, r in zip(held, RESOURCES)))
        return "\n".join(lines)
