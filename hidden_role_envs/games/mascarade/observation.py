"""What a Mascarade seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The cards in the engine are never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: entry 0 is the observer, entry k the
seat k places to its left (seat (observer + k) mod n). Card places are
those seats' cards in the same order (two per seat at 2-3 players, the
observer's `A` then `B`), then the centre cards: the place axes list seats
`h` cards at a time (`rotate={0: "h"}`).

The `record` blocks are public: each is written once, at event time, from
events that together every seat saw (a look or a swap-or-not reaches the
actor as `looked` or `swapped` and every other seat as `looked_unseen` or
`handled`, so the latter, handled once, stand for the public fact).
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
PLACES_1 = {1: "h"}  # the same, as the second axis (seats, then places)
RECORD_CAP = 50  # counts and ages of the record are clipped here, so the observation space is bounded
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
        Block("power_cards", ("P",), 0, 1, "the cards the power in progress handles (the Spy's two, the questioned "
              "card)", "turn", rotate=PLACES),
        Block("knowledge", ("P", K), 0, 1, "this seat's probability that each place holds each character", "belief",
              rotate=PLACES),
        Block("revealed", ("P", K), 0, 1, "one-hot per place: the card last shown there (dealt face up, revealed by "
              "a claim or the Inquisitor), until a swap-or-not handles that place", "record", rotate=PLACES),
        Block("handled", ("P",), 0, RECORD_CAP, "swaps-or-not that handled each place since its card was last shown",
              "record", rotate=PLACES),
        Block("swaps", ("n", "P"), 0, RECORD_CAP, "swaps-or-not made by each seat (row: turns, Spy, Fool), by place "
              "handled (column)", "record", rotate={0: 1, **PLACES_1}),
        Block("looks", ("n", "P"), 0, RECORD_CAP, "looks by each seat (row: its own card, the Spy's two) at each place "
              "(column)", "record", rotate={0: 1, **PLACES_1}),
        Block("still_known", ("n", "P"), 0, 1, "1 where that seat (row) looked at that place (column) and no "
              "swap-or-not has moved the card since (a seat that saw both cards it handles still knows both)",
              "record", rotate={0: 1, **PLACES_1}),
        Block("look_age", ("n", "P"), 0, RECORD_CAP, f"turns since each seat (row) last looked at each place (column): "
              f"0 this turn, {RECORD_CAP} never (or that long ago)", "record", rotate={0: 1, **PLACES_1}),
        Block("announcement_age", ("n",), 0, RECORD_CAP, f"turns since each seat's last announcement: 0 this turn, "
              f"{RECORD_CAP} never (or that long ago)", "record", rotate=(0,)),
        Block("announcements", ("n", K, 3), 0, RECORD_CAP, "each seat's announcements by character: made, shown "
              "true, shown false (a claim makes every claimant reveal)", "record", rotate=(0,)),
        Block("claims", ("n", K, 3), 0, RECORD_CAP, "each seat's claims of another's announcement, by character: "
              "made, shown true, shown false", "record", rotate=(0,)),
        Block("last_announcement", ("n", K), 0, 1, "one-hot per seat: the character it announced last", "record",
              rotate=(0,)),
        Block("last_claimants", ("n", "n"), 0, 1, "who (column) claimed each seat's last announcement (row)",
              "record", rotate=(0, 1)),
        Block("questioned", ("n", "n"), 0, RECORD_CAP, "how often each Inquisitor (row) questioned each seat "
              "(column)", "record", rotate=(0, 1)),
        Block("guesses", ("n", K, 2), 0, RECORD_CAP, "the characters each questioned seat named: right, wrong",
              "record", rotate=(0,)),
    ]
)
# The first and last of two runs of adjacent public blocks, each cleared at once after a step before the
# entries that are on are set: the turn's, and the announcement's.
TURN_BLOCKS = ("active_player", "forced_swap")
ANNOUNCEMENT_BLOCKS = ("announcement", "power_cards")
MADE, SHOWN_TRUE, SHOWN_FALSE = range(3)  # the columns of `announcements` and `claims`
RIGHT, WRONG = range(2)  # the columns of `guesses`


def mascarade_layout(config: MascaradeConfig):
    return SCHEMA.layout(config.dims)


class MascaradeObserver(Observer):
    """The beliefs and the record change at event time; the table's blocks are written after every step; a
    seat's `knowledge` block when it is encoded (its beliefs corrected then, if a sighting waits)."""

    def __init__(self, config: MascaradeConfig):
        super().__init__(mascarade_layout(config))
        self.config = config
        self.num_players = config.num_players
        self._at = self.layout.at
        where = self.layout.state_fields
        self._turn_blocks, self._announcement_blocks = (slice(where[first].start, where[last].stop)
                                                        for first, last in (TURN_BLOCKS, ANNOUNCEMENT_BLOCKS))
        self._places = config.num_places
        self._seats_places = config.num_players * config.num_places
        # the look ages then the announcement ages (adjacent blocks), and the turn each counts from
        self._ages = slice(where["look_age"].start, where["announcement_age"].stop)
        self._age_from = np.zeros(self._ages.stop - self._ages.start, dtype=np.float32)
        self.on = ByKind(
            "MascaradeObserver",
            ev.EVENTS,
            {
                ev.Dealt: self._dealt,
                ev.Turn: self._turn,
                ev.Swapped: self._swapped,
                ev.Handled: self._handled,
                ev.Looked: self._looked,
                ev.LookedUnseen: self._looked_unseen,
                ev.Announced: self._announced,
                ev.Claimed: self._claimed,
                ev.Revealed: self._revealed,
                ev.Questioned: self._questioned,
                ev.Guessed: self._guessed,
                ev.NotSwapped: None,
                ev.Passed: None,
                ev.Power: None,
                ev.Paid: None,
                ev.FortunesSwapped: None,
                ev.FortunesKept: None,
                ev.GameOver: None,
            },
        )

    def start(self) -> None:
        config = self.config
        self.beliefs = card_beliefs(config)
        self.known["in_play"][:] = config.counts
        self.state[self._ages] = RECORD_CAP
        self._age_from[:] = -RECORD_CAP
        self._turns = -1  # turns started before the one in progress
        self._announcement_shown = False  # entries of the announcement blocks are on in the state
        self._announced = (NOBODY, NOBODY)  # the announcement being resolved: announcer, character
        self._guess = (NOBODY, NOBODY)  # the questioned seat and the character it named, until its card is revealed

    # --- event time -------------------------------------------------------
    # The record is written into the state at flat offsets (`self._at[block] + index`): a handful of entries per
    # event, each at the price of one Python index rather than a NumPy call.

    def _dealt(self, e) -> None:
        """The open deal: every seat sees every card, so the record shows them all until they move."""
        self.beliefs.see_all(e.seen_by, e.cards)
        revealed = self._at["revealed"]
        for place, character in enumerate(e.cards):
            self.state[revealed + place * K + character] = 1

    def _turn(self, e) -> None:
        self._turns += 1
        ages = self.state[self._ages]
        np.subtract(self._turns, self._age_from, out=ages)
        np.minimum(ages, RECORD_CAP, out=ages)

    def _swapped(self, e) -> None:
        self.beliefs.swap(e.seen_by, e.p, e.q)

    def _handled(self, e) -> None:
        """A swap-or-not, watched by every seat but the actor: with the actor's own, a public fact."""
        self.beliefs.swap_or_not(e.seen_by, e.p, e.q)
        state, at, places = self.state, self._at, self._places
        p, q, actor = e.p, e.q, e.actor
        for place in (p, q):
            start = at["revealed"] + place * K
            state[start : start + K] = 0
            _count(state, at["handled"] + place)
            _count(state, at["swaps"] + actor * places + place)
        known = at["still_known"]
        mine = known + actor * places
        saw_both = state[mine + p] and state[mine + q]
        state[known + p : known + self._seats_places : places] = 0
        state[known + q : known + self._seats_places : places] = 0
        if saw_both:
            state[mine + p] = state[mine + q] = 1

    def _looked(self, e) -> None:
        self.beliefs.see(e.seen_by, e.place, e.character)

    def _looked_unseen(self, e) -> None:
        """A look every other seat watched: with the looker's own, a public fact."""
        state, at = self.state, self._at
        entry = e.looker * self._places + e.place
        _count(state, at["looks"] + entry)
        state[at["still_known"] + entry] = 1
        state[self._ages.start + entry] = 0
        self._age_from[entry] = self._turns

    def _announced(self, e) -> None:
        state, at, n = self.state, self._at, self.num_players
        announcer, character = e.announcer, e.character
        self._announced = (announcer, character)
        _count(state, at["announcements"] + (announcer * K + character) * 3 + MADE)
        last = at["last_announcement"] + announcer * K
        state[last : last + K] = 0
        state[last + character] = 1
        claimants = at["last_claimants"] + announcer * n
        state[claimants : claimants + n] = 0
        entry = self._seats_places + announcer  # the announcement ages follow the look ages
        state[self._ages.start + entry] = 0
        self._age_from[entry] = self._turns

    def _claimed(self, e) -> None:
        state, at = self.state, self._at
        announcer, character = self._announced
        _count(state, at["claims"] + (e.claimant * K + character) * 3 + MADE)
        state[at["last_claimants"] + announcer * self.num_players + e.claimant] = 1

    def _questioned(self, e) -> None:
        _count(self.state, self._at["questioned"] + e.inquisitor * self.num_players + e.target)

    def _guessed(self, e) -> None:
        self._guess = (e.seat, e.character)

    def _revealed(self, e) -> None:
        """A card shown to everyone: a claim's, or the one the Inquisitor's target named."""
        self.beliefs.see(e.seen_by, e.place, e.character)
        state, at = self.state, self._at
        start = at["revealed"] + e.place * K
        state[start : start + K] = 0
        state[start + e.character] = 1
        state[at["handled"] + e.place] = 0
        questioned, named = self._guess
        if questioned == e.seat:
            _count(state, at["guesses"] + (e.seat * K + named) * 2 + (RIGHT if named == e.character else WRONG))
            self._guess = (NOBODY, NOBODY)
            return
        announcer, announced = self._announced
        shown = SHOWN_TRUE if e.character == announced else SHOWN_FALSE
        block = "announcements" if e.seat == announcer else "claims"
        _count(state, at[block] + (e.seat * K + announced) * 3 + shown)

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


def _count(state: np.ndarray, entry: int) -> None:
    """One more in a count of the record, which stops at the cap."""
    if state[entry] < RECORD_CAP:
        state[entry] += 1
