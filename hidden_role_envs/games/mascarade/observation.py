"""What a Mascarade seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The cards in the engine are never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: entry 0 is the observer, entry k the
seat k places to its left (seat (observer + k) mod n). Card places are
those seats' cards in the same order (two per seat at 2-3 players, the
observer's `A` then `B`), then the centre cards.
"""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.definition import Observer
from hidden_role_envs.core.game import Event
from hidden_role_envs.core.observation import Block, ObservationLayout
from hidden_role_envs.games.mascarade.actions import DECISIONS, place_name
from hidden_role_envs.games.mascarade.characters import CHARACTERS, NUM_CHARACTERS, WINNING_COINS, MascaradeConfig
from hidden_role_envs.games.mascarade.knowledge import PlaceBeliefs
from hidden_role_envs.games.mascarade.rules import NOBODY, MascaradeTable

# The bank is unlimited, so coins have no natural upper bound; the coin blocks are clipped here, where
# nothing a decision needs is lost: 13 coins or more has won, and while the game runs every seat has at
# least 1 coin, so a courthouse of 12 or more makes any Judge win.
COIN_CAP = WINNING_COINS


def mascarade_layout(config: MascaradeConfig) -> ObservationLayout:
    n, places, k = config.num_players, config.num_places, NUM_CHARACTERS
    return ObservationLayout(
        [
            Block("coins", (n,), 0, COIN_CAP, "coins of each seat, clipped at 13 (13 or more has won)"),
            Block("courthouse", (1,), 0, COIN_CAP, "coins in the courthouse, clipped at 13 (12 or more: a Judge wins)"),
            Block("active_player", (n,), 0, 1, "one-hot: whose turn it is"),
            Block("to_act", (n,), 0, 1, "one-hot: the seat asked to decide"),
            Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision being asked"),
            Block("preparation", (1,), 0, 1, "1 during the four preparation turns"),
            Block("forced_swap", (1,), 0, 1, "1 when the active player may only swap or not"),
            Block("in_play", (k,), 0, 2, "copies of each character in play"),
            Block("announcement", (k,), 0, 1, "one-hot: the character announced this turn"),
            Block("announcer", (n,), 0, 1, "one-hot: who announced it"),
            Block("claimants", (n,), 0, 1, "the other seats who claimed to be it too"),
            Block("claimed_cards", (places,), 0, 1, "the cards announced and claimed with"),
            Block("revealed", (places, k), 0, 1, "one-hot per place: the cards revealed this turn"),
            Block("power_cards", (places,), 0, 1, "the cards the power in progress handles (Spy, Inquisitor)"),
            Block("knowledge", (places, k), 0, 1, "P(place holds character) given what this seat saw"),
        ]
    )


class MascaradeObserver(Observer):
    def __init__(self, config: MascaradeConfig):
        n = config.num_players
        super().__init__(mascarade_layout(config), n)
        self.config = config
        self.num_players = n
        self.place_order = config.relative_places()  # relative place -> absolute, per seat
        self.relative_place = np.argsort(self.place_order, axis=1).tolist()  # absolute place -> relative, per seat
        self._seat_arrays: dict[tuple[int, ...], np.ndarray] = {}
        self.table: MascaradeTable | None = None
        # Runs of adjacent blocks that encode() clears at once before setting the entries that are on.
        fields = self.layout.fields
        self._turn_blocks = slice(fields["active_player"].start, fields["decision"].stop)
        self._announcement_blocks = slice(fields["announcement"].start, fields["power_cards"].stop)

    def reset(self, table: MascaradeTable, events: list[Event]) -> None:
        self.table = table
        self.beliefs = PlaceBeliefs(self.config.counts, self.config.num_places, self.num_players)
        for v in self._views:
            v["in_play"][:] = self.config.counts
        self.update(events)

    def _seats(self, seen_by: tuple[int, ...]) -> np.ndarray:
        seats = self._seat_arrays.get(seen_by)
        if seats is None:
            seats = self._seat_arrays[seen_by] = np.array(seen_by, dtype=np.int64)
        return seats

    def update(self, events: list[Event]) -> None:
        beliefs = self.beliefs
        for kind, seen_by, data in events:
            if kind == "handled":
                _, p, q = data
                beliefs.mix(self._seats(seen_by), p, q)
            elif kind == "swapped":
                actor, p, q = data
                beliefs.swap(actor, p, q)
            elif kind in ("looked", "revealed"):
                _, place, character = data
                beliefs.pin(self._seats(seen_by), place, character)
            elif kind == "dealt":
                beliefs.deal(data)
        beliefs.settle()

    def encode(self, seat: int) -> np.ndarray:
        table = self.table
        n = self.num_players
        buffer = self._buffers[seat]
        v = self._views[seat]
        coins = table.coins[seat:] + table.coins[:seat]  # from the observer leftwards
        v["coins"][:] = coins if max(coins) <= COIN_CAP else [min(c, COIN_CAP) for c in coins]
        v["courthouse"][0] = min(table.courthouse, COIN_CAP)
        buffer[self._turn_blocks] = 0
        v["active_player"][(table.active - seat) % n] = 1
        if table.to_act != NOBODY:
            v["to_act"][(table.to_act - seat) % n] = 1
            v["decision"][table.decision] = 1
        v["preparation"][0] = table.preparation
        v["forced_swap"][0] = table.forced
        buffer[self._announcement_blocks] = 0
        if table.announcement != NOBODY:
            self._encode_announcement(seat, v)
        v["knowledge"][:] = self.beliefs.probs[seat].take(self.place_order[seat], axis=0)
        return buffer

    def _encode_announcement(self, seat: int, v: dict[str, np.ndarray]) -> None:
        """The entries that are on in the blocks of the announcement in progress (cleared by the caller)."""
        table = self.table
        n = self.num_players
        to_relative = self.relative_place[seat]
        v["announcement"][table.announcement] = 1
        v["announcer"][(table.announcer - seat) % n] = 1
        for claimant in table.claimants:
            v["claimants"][(claimant - seat) % n] = 1
        for place in table.claim_places:
            v["claimed_cards"][to_relative[place]] = 1
        for place, character in table.revealed.items():
            v["revealed"][to_relative[place], character] = 1
        for place in table.power_places:
            v["power_cards"][to_relative[place]] = 1

    def describe(self, seat: int) -> str:
        config = self.config
        probs = self.beliefs.probs[seat]
        lines = []
        for relative, place in enumerate(self.place_order[seat]):
            row = probs[place]
            likely = np.argsort(-row)[:3]
            if row[likely[0]] > 0.999:
                text = CHARACTERS[likely[0]]
            else:
                text = ", ".join(f"{CHARACTERS[c]} {row[c]:.0%}" for c in likely if row[c] > 0.005)
            label = place_name(relative, config.num_players, config.hand)
            owner = config.owner(int(place))
            who = "" if owner < 0 or owner == seat else f" (player_{owner})"
            lines.append(f"  card {label}{who}: {text}")
        return "\n".join(lines)
