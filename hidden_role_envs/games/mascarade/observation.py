"""What a Mascarade seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The cards in the engine are never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: entry 0 is the observer, entry k the
seat k places to its left (seat (observer + k) mod n). Card places are
those seats' cards in the same order (two per seat at 2-3 players, the
observer's `A` then `B`), then the centre cards: the place axes list seats
`h` cards at a time (`rotate={0: "h"}`).
"""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.events import ByKind
from hidden_role_envs.core.observation import Block, Observer, Schema
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.mascarade import events as ev
from hidden_role_envs.games.mascarade.actions import place_name
from hidden_role_envs.games.mascarade.characters import CHARACTERS, NUM_CHARACTERS, WINNING_COINS
from hidden_role_envs.games.mascarade.config import MascaradeConfig
from hidden_role_envs.games.mascarade.knowledge import card_beliefs
from hidden_role_envs.games.mascarade.rules import DECISIONS

# The bank is unlimited, so coins have no natural upper bound; the coin blocks are clipped here, where
# nothing a decision needs is lost: 13 coins or more has won, and while the game runs every seat has at
# least 1 coin, so a courthouse of 12 or more makes any Judge win.
COIN_CAP = WINNING_COINS

K = NUM_CHARACTERS
PLACES = {0: "h"}  # a place axis: each seat's h cards, then the centre
SCHEMA = Schema(
    [
        Block("coins", ("n",), 0, COIN_CAP, "coins of each seat, clipped at 13 (see below)", rotate=(0,)),
        Block("courthouse", (1,), 0, COIN_CAP, "coins in the courthouse, clipped at 13 (see below)"),
        Block("active_player", ("n",), 0, 1, "one-hot: whose turn it is", "turn", rotate=(0,)),
        Block("to_act", ("n",), 0, 1, "one-hot: the seat asked to decide", "turn", rotate=(0,)),
        Block("decision", (len(DECISIONS),), 0, 1, "one-hot: turn, claim, Spy's card, Spy's swap, Bishop, Fool, "
              "Inquisitor, guess, Witch", "turn"),
        Block("preparation", (1,), 0, 1, "1 during the four preparation turns", "turn"),
        Block("forced_swap", (1,), 0, 1, "1 when the active player may only swap or not", "turn"),
        Block("in_play", (K,), 0, 2, "copies of each character in play"),
        Block("announcement", (K,), 0, 1, "one-hot: the character announced this turn", "turn"),
        Block("announcer", ("n",), 0, 1, "one-hot: who announced it", "turn", rotate=(0,)),
        Block("claimants", ("n",), 0, 1, "the other seats who claimed it too", "turn", rotate=(0,)),
        Block("claimed_cards", ("P",), 0, 1, "the cards announced and claimed with", "turn", rotate=PLACES),
        Block("revealed", ("P", K), 0, 1, "one-hot per place: the cards revealed this turn", "turn", rotate=PLACES),
        Block("power_cards", ("P",), 0, 1, "the cards the power in progress handles (the Spy's two, the questioned "
              "card)", "turn", rotate=PLACES),
        Block("knowledge", ("P", K), 0, 1, "this seat's probability that each place holds each character", "belief",
              rotate=PLACES),
    ]
)
# The first and last of two runs of adjacent public blocks, each cleared at once after a step before the
# entries that are on are set: the turn's, and the announcement's.
TURN_BLOCKS = ("active_player", "forced_swap")
ANNOUNCEMENT_BLOCKS = ("announcement", "power_cards")


def mascarade_layout(config: MascaradeConfig):
    return SCHEMA.layout(config.dims)


class MascaradeObserver(Observer):
    """The beliefs change at event time; the table's blocks are written after every step; a seat's
    `knowledge` block when it is encoded (its beliefs corrected then, if a sighting waits)."""

    def __init__(self, config: MascaradeConfig):
        super().__init__(mascarade_layout(config))
        self.config = config
        self.num_players = config.num_players
        self._at = self.layout.at
        where = self.layout.state_fields
        self._turn_blocks, self._announcement_blocks = (slice(where[first].start, where[last].stop)
                                                        for first, last in (TURN_BLOCKS, ANNOUNCEMENT_BLOCKS))
        self.on = ByKind(
            "MascaradeObserver",
            ev.EVENTS,
            {
                ev.Dealt: self._dealt,
                ev.Swapped: self._swapped,
                ev.Handled: self._handled,
                ev.Looked: self._seen,
                ev.Revealed: self._seen,
                ev.Turn: None,
                ev.NotSwapped: None,
                ev.LookedUnseen: None,
                ev.Announced: None,
                ev.Claimed: None,
                ev.Passed: None,
                ev.Power: None,
                ev.Paid: None,
                ev.Questioned: None,
                ev.Guessed: None,
                ev.FortunesSwapped: None,
                ev.FortunesKept: None,
                ev.GameOver: None,
            },
        )

    def start(self) -> None:
        config = self.config
        self.beliefs = card_beliefs(config)
        self.known["in_play"][:] = config.counts
        self._announcement_shown = False  # entries of the announcement blocks are on in the state

    # --- event time -------------------------------------------------------

    def _dealt(self, e) -> None:
        self.beliefs.see_all(e.seen_by, e.cards)

    def _swapped(self, e) -> None:
        self.beliefs.swap(e.seen_by, e.p, e.q)

    def _handled(self, e) -> None:
        self.beliefs.swap_or_not(e.seen_by, e.p, e.q)

    def _seen(self, e) -> None:
        self.beliefs.see(e.seen_by, e.place, e.character)

    # --- after a step, and at encode time -------------------------------------

    def after_update(self) -> None:
        """The table's blocks, from the public table; the step's sightings wait to be corrected."""
        self.beliefs.end_step()
        table = self.table
        at = self._at
        state = self.state
        coins = table.coins
        self.known["coins"][:] = coins if max(coins) <= COIN_CAP else [min(c, COIN_CAP) for c in coins]
        state[at["courthouse"]] = min(table.courthouse, COIN_CAP)
        state[self._turn_blocks] = 0
        state[at["active_player"] + table.active] = 1
        if table.to_act != NOBODY:
            state[at["to_act"] + table.to_act] = 1
            state[at["decision"] + table.decision] = 1
        state[at["preparation"]] = table.preparation
        state[at["forced_swap"]] = table.forced
        if self._announcement_shown:
            state[self._announcement_blocks] = 0
        self._announcement_shown = table.announcement != NOBODY
        if self._announcement_shown:
            self._write_announcement()

    def _write_announcement(self) -> None:
        """The entries that are on in the blocks of the announcement in progress (cleared before)."""
        table = self.table
        at = self._at
        state = self.state
        state[at["announcement"] + table.announcement] = 1
        state[at["announcer"] + table.announcer] = 1
        for seat in table.claimants:
            state[at["claimants"] + seat] = 1
        for place in table.claim_places:
            state[at["claimed_cards"] + place] = 1
        revealed = at["revealed"]
        for place, character in table.revealed.items():
            state[revealed + place * K + character] = 1
        for place in table.power_places:
            state[at["power_cards"] + place] = 1

    def refresh(self, seat: int) -> None:
        self.known["knowledge"][seat] = self.beliefs.marginals(seat)

    def describe(self, seat: int) -> str:
        config = self.config
        probs = self.beliefs.marginals(seat)
        lines = []
        for relative, place in enumerate(config.place_called[seat]):
            row = probs[place]
            likely = np.argsort(-row)[:3]
            if row[likely[0]] > 0.999:
                text = CHARACTERS[likely[0]]
            else:
                text = ", ".join(f"{CHARACTERS[c]} {row[c]:.0%}" for c in likely if row[c] > 0.005)
            label = place_name(relative, config.num_players, config.hand)
            owner = config.owner(place)
            who = "" if owner < 0 or owner == seat else f" ({agent_name(owner)})"
            lines.append(f"  card {label}{who}: {text}")
        return "\n".join(lines)
