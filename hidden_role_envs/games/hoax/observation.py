"""What a Hoax seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine (the characters, the ballots of a vote in
progress, the suspicion cards shown to others) is never read here, so an
observation cannot depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n).
"""

from __future__ import annotations

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


class HoaxObserver(Observer):
    """Encodes in place: the one-hot and claim blocks are cleared as one slice, then set entry by
    entry; a seat's `character` block is written once per game and its `knowledge` block only when
    what it knows changes."""

    def __init__(self, config: HoaxConfig):
        n = config.num_players
        super().__init__(hoax_layout(n, config.sheet), n)
        self.num_players = n
        self.sheet = config.sheet
        self.rotations = relative_order(n).tolist()
        fields = self.layout.fields
        self._at = {name: block.start for name, block in fields.items()}
        self._flags = slice(fields["hoax_holder"].start, fields["immunity_character"].stop)
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
        table = self.table
        n = self.num_players
        order = self.rotations[seat]
        buf = self._buffers[seat]
        v = self._views[seat]
        at = self._at
        v["resources"][:] = [table.resources[s] for s in order]
        v["supply"][:] = table.supply
        v["impostor"][:] = [table.impostor[s] for s in order]
        v["eliminated"][:] = [table.eliminated[s] for s in order]
        buf[self._flags] = 0
        holder = table.hoax_holder
        buf[at["hoax_holder"] + (n if holder == NOBODY else (holder - seat) % n)] = 1
        if table.to_act != NOBODY:  # the game is on
            buf[at["active_player"] + (table.active - seat) % n] = 1
            buf[at["decision"] + table.decision] = 1
            buf[at["to_act"] + (table.to_act - seat) % n] = 1
        buf[at["turn_progress"]] = table.claimed
        buf[at["turn_progress"] + 1] = table.accused
        claim = table.claim
        if claim is not None:
            buf[at["claimant"] + (claim.claimant - seat) % n] = 1
            buf[at["claim_character"] + claim.character] = 1
            buf[at["claim_option"] + claim.option] = 1
            if claim.resource != NOBODY:
                buf[at["claim_type"] + claim.resource] = 1
            if claim.player != NOBODY:
                buf[at["claim_player"] + (claim.player - seat) % n] = 1
            immunity = table.immunity
            if immunity is not None:
                buf[at["immunity_claimant"] + (immunity.claimant - seat) % n] = 1
                buf[at["immunity_character"] + immunity.character] = 1
        v["votes"][:] = [(table.votes[s] > 0, table.votes[s] < 0) for s in order]
        if self._knowledge_changed[seat]:
            v["knowledge"][:] = self.beliefs.marginals(seat)[order]
            self._knowledge_changed[seat] = False
        return buf

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
