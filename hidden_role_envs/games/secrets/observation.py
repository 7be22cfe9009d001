"""What a Secrets seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine is never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n). Places of identity tokens
are those seats in the same order, then the centre.
"""

from __future__ import annotations

from functools import lru_cache
from math import prod

import numpy as np

from hidden_role_envs.core.definition import Observer
from hidden_role_envs.core.game import Event, relative_order
from hidden_role_envs.core.knowledge import TokenBeliefs
from hidden_role_envs.core.observation import Block, ObservationLayout
from hidden_role_envs.games.secrets.actions import DECISIONS
from hidden_role_envs.games.secrets.cards import (
    BULLET_VALUES,
    CIA,
    KGB,
    CARD_COPIES,
    CHARACTERS,
    IDENTITIES,
    NUM_CHARACTERS,
    NUM_IDENTITIES,
    TOKENS_BY_PLAYERS,
)
from hidden_role_envs.games.secrets.rules import GAME_OVER, NOBODY, SecretsConfig, SecretsTable

TEAMS = (CIA, KGB)  # Hippies are on no team


def secrets_layout(num_players: int) -> ObservationLayout:
    n = num_players
    most = max(CARD_COPIES)
    return ObservationLayout(
        [
            Block("face_up", (n, NUM_CHARACTERS), 0, most, "face-up characters on each screen, by character"),
            Block("face_down", (n,), 0, 29, "face-down cards on each screen"),
            Block("bullets_received", (n,), 0, 4, "Bullets on each screen"),
            Block("bullet_givers", (n, n), 0, 4, "Bullets on each screen (row) by who gave them (column)"),
            Block("active_player", (n,), 0, 1, "one-hot: whose turn it is"),
            Block("revealed", (NUM_CHARACTERS,), 0, 1, "the character(s) drawn and shown this turn"),
            Block("offered_card", (NUM_CHARACTERS,), 0, 1, "one-hot: the card of the Offer, if this seat knows it"),
            Block("offer_target", (n,), 0, 1, "one-hot: the target of the Offer in progress"),
            Block("claim", (NUM_CHARACTERS,), 0, 1, "one-hot: what the active player said the card is"),
            Block("un_holder", (n + 1,), 0, 1, "one-hot: the UN player, last entry = the token is in the centre"),
            Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision being asked"),
            Block("to_act", (n,), 0, 1, "one-hot: the seat asked to decide"),
            Block("bullet_in_hand", (len(BULLET_VALUES),), 0, 1, "one-hot value of the Bullet this seat drew and holds"),
            Block("bullets_given", (n, len(BULLET_VALUES)), 0, 1, "Bullets this seat gave, by receiver and value"),
            Block("identity", (n + 1, NUM_IDENTITIES), 0, 1, "P(place holds CIA/KGB/Hippie) given what this seat saw"),
            Block("teammate", (n,), 0, 1, "P(seat is on this seat's team, CIA or KGB) given what this seat saw"),
        ]
    )


TURN_BLOCKS = ("active_player", "revealed", "offer_target", "claim", "un_holder", "decision", "to_act")


def _state_blocks(num_players: int) -> dict[str, tuple[int, ...]]:
    """What the observer keeps, with seats in ABSOLUTE order (seat 0 first), one flat vector.

    The table's facts come first (public: the same for every seat), then what
    each seat knows privately, one row per seat.
    """
    n = num_players
    return {
        # public: the screens
        "face_up": (n, NUM_CHARACTERS),
        "face_down": (n,),
        "bullets_received": (n,),
        "bullet_givers": (n, n),  # receiver, giver
        # public: the turn (TURN_BLOCKS, together), one-hot; all rewritten after every step
        "active_player": (n,),
        "revealed": (NUM_CHARACTERS,),
        "offer_target": (n,),
        "claim": (NUM_CHARACTERS,),
        "un_holder": (n + 1,),  # last entry: the token is in the centre
        "decision": (len(DECISIONS),),
        "to_act": (n,),
        # private, per seat
        "offered_card": (n, NUM_CHARACTERS),
        "bullet_in_hand": (n, len(BULLET_VALUES)),
        "bullets_given": (n, n, len(BULLET_VALUES)),  # giver, receiver, value
        "identity": (n, n + 1, NUM_IDENTITIES),  # observer, place, kind
        "teammate": (n, n),  # observer, seat
    }


def _carve(vector: np.ndarray, shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """Consecutive views of `vector`, one per named shape."""
    views, start = {}, 0
    for name, shape in shapes.items():
        views[name] = vector[start : start + prod(shape)].reshape(shape)
        start += prod(shape)
    return views


def _turn_span(shapes: dict[str, tuple[int, ...]]) -> slice:
    """Where the turn's blocks lie, together, in the state."""
    names = list(shapes)
    first = names.index(TURN_BLOCKS[0])
    assert tuple(names[first : first + len(TURN_BLOCKS)]) == TURN_BLOCKS
    start = sum(prod(shapes[name]) for name in names[:first])
    return slice(start, start + sum(prod(shapes[name]) for name in TURN_BLOCKS))


@lru_cache(maxsize=None)
def _gather_indices(num_players: int) -> np.ndarray:
    """gather[seat][i]: where element i of `seat`'s observation sits in the observer's state.

    Seat-relative order is a fixed permutation of absolute order, so an
    observation is one `np.take` of the state; built once per player count.
    """
    n = num_players
    shapes = _state_blocks(n)
    at = _carve(np.arange(sum(prod(shape) for shape in shapes.values())), shapes)
    layout = secrets_layout(n)
    gather = np.empty((n, layout.size), dtype=np.intp)
    for seat in range(n):
        order = relative_order(n)[seat]  # seat k places to the left of `seat`
        places = np.append(order, n)  # then the centre
        block = {
            "face_up": at["face_up"][order],
            "face_down": at["face_down"][order],
            "bullets_received": at["bullets_received"][order],
            "bullet_givers": at["bullet_givers"][np.ix_(order, order)],
            "active_player": at["active_player"][order],
            "revealed": at["revealed"],
            "offered_card": at["offered_card"][seat],
            "offer_target": at["offer_target"][order],
            "claim": at["claim"],
            "un_holder": at["un_holder"][places],
            "decision": at["decision"],
            "to_act": at["to_act"][order],
            "bullet_in_hand": at["bullet_in_hand"][seat],
            "bullets_given": at["bullets_given"][seat][order],
            "identity": at["identity"][seat][places],
            "teammate": at["teammate"][seat][order],
        }
        for name, where in layout.fields.items():
            gather[seat, where] = block[name].ravel()
    gather.flags.writeable = False
    return gather


class SecretsObserver(Observer):
    """Keeps every seat's knowledge in one state vector, updated in place from the events.

    The state holds each fact once, in absolute seat order; `encode` picks a
    seat's observation out of it with a precomputed index (`_gather_indices`).
    Two rows are written only when their seat is encoded: the beliefs about
    the tokens (summarised only if that seat's posterior changed) and the
    Offer's card, which changes hands several times a turn.
    """

    def __init__(self, config: SecretsConfig):
        n = config.num_players
        super().__init__(secrets_layout(n), n)
        self.num_players = n
        self._gather = _gather_indices(n)
        self._state = np.zeros(sum(prod(shape) for shape in _state_blocks(n).values()), dtype=np.float32)
        self._view_state()
        self.table: SecretsTable | None = None

    def _view_state(self) -> None:
        shapes = _state_blocks(self.num_players)
        self._known = _carve(self._state, shapes)
        self._turn = self._state[_turn_span(shapes)]

    # Views do not survive copying, so rebuild them (as Observer does).
    def __getstate__(self) -> dict:
        state = super().__getstate__()
        del state["_known"], state["_turn"]
        return state

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._view_state()

    def reset(self, table: SecretsTable, events: list[Event]) -> None:
        n = self.num_players
        self.table = table
        self.beliefs = TokenBeliefs(TOKENS_BY_PLAYERS[n], n)
        self._stale_beliefs = [True] * n  # the identity and teammate rows to recompute before encoding
        self.known_offer = [NOBODY] * n  # the Offer's card, as each seat knows it
        self.bullet_in_hand = [None] * n
        self._state[:] = 0
        self.update(events)

    def update(self, events: list[Event]) -> None:
        known = self._known
        for kind, seen_by, data in events:
            if kind == "looked":
                _, place, identity = data
                self.beliefs.see(seen_by, place, identity)
                self._beliefs_changed(seen_by)
            elif kind == "swapped":
                _, p, q = data
                self.beliefs.swap(seen_by, p, q)
                self._beliefs_changed(seen_by)
            elif kind == "swapped_one_of":
                _, alternatives = data
                self.beliefs.swap_one_of(seen_by, alternatives)
                self._beliefs_changed(seen_by)
            elif kind == "drawn":
                revealed = data[2]
                card = revealed[0] if len(revealed) == 1 else NOBODY
                for s in seen_by:
                    self.known_offer[s] = card
            elif kind in ("card_chosen", "card_revealed"):
                _, card = data
                for s in seen_by:
                    self.known_offer[s] = card
            elif kind in ("card_added", "pair_turned_down", "scientists_flipped"):
                seat = data[0]
                known["face_up"][seat] = self.table.face_up[seat]
                known["face_down"][seat] = self.table.face_down[seat]
            elif kind == "bullet_drawn":
                seat, value = data
                self.bullet_in_hand[seat] = value
                known["bullet_in_hand"][seat, BULLET_VALUES.index(value)] = 1
            elif kind == "bullet_given":
                giver, receiver = data
                known["bullets_received"][receiver] = self.table.bullets[receiver]
                known["bullet_givers"][receiver, giver] += 1
            elif kind == "bullet_value":
                giver, receiver, value = data
                self.bullet_in_hand[giver] = None
                known["bullet_in_hand"][giver] = 0
                known["bullets_given"][giver, receiver, BULLET_VALUES.index(value)] = 1
        self._copy_turn(self.table)

    def encode(self, seat: int) -> np.ndarray:
        _one_hot(self._known["offered_card"][seat], self.known_offer[seat])
        if self._stale_beliefs[seat]:
            self._known["identity"][seat] = self.beliefs.marginals(seat)
            same_team = self.beliefs.same_kind(seat, seat, TEAMS)
            self._known["teammate"][seat] = same_team[: self.num_players]  # the seats, not the centre
            self._stale_beliefs[seat] = False
        return self._state[self._gather[seat]]  # a new array: fancy indexing beats take(out=...) here

    def _beliefs_changed(self, seats) -> None:
        for s in seats:
            self._stale_beliefs[s] = True

    def _copy_turn(self, table: SecretsTable) -> None:
        """The turn's one-hot blocks, from the public table."""
        known = self._known
        self._turn.fill(0)
        known["active_player"][table.active] = 1
        for card in table.revealed:
            known["revealed"][card] = 1
        if table.offer_target != NOBODY:
            known["offer_target"][table.offer_target] = 1
        if table.claim != NOBODY:
            known["claim"][table.claim] = 1
        known["un_holder"][self.num_players if table.un_holder == NOBODY else table.un_holder] = 1
        if table.decision != GAME_OVER:
            known["decision"][table.decision] = 1
        if table.to_act != NOBODY:
            known["to_act"][table.to_act] = 1

    def describe(self, seat: int) -> str:
        n = self.num_players
        marginals = self.beliefs.marginals(seat)
        lines = []
        for place in list(range(n)) + [n]:
            name = "centre" if place == n else ("you" if place == seat else f"player_{place}")
            probs = marginals[place]
            known = [IDENTITIES[k] for k in range(NUM_IDENTITIES) if probs[k] > 0.999]
            if known:
                text = known[0]
            else:
                text = ", ".join(f"{IDENTITIES[k]} {probs[k]:.0%}" for k in range(NUM_IDENTITIES) if probs[k] > 0)
            lines.append(f"  token of {name}: {text}")
        if self.known_offer[seat] != NOBODY and self.table.card_in_play == NOBODY:
            lines.append(f"  the card of the Offer is {CHARACTERS[self.known_offer[seat]]}")
        if self.bullet_in_hand[seat] is not None:
            lines.append(f"  the Bullet in your hand is worth {self.bullet_in_hand[seat]}")
        for receiver in range(n):
            given = [BULLET_VALUES[i] for i in np.flatnonzero(self._known["bullets_given"][seat, receiver])]
            if given:
                lines.append(f"  you gave player_{receiver} Bullet(s) worth {given}")
        return "\n".join(lines)


def _one_hot(view: np.ndarray, index: int) -> None:
    view.fill(0)
    if index != NOBODY:
        view[index] = 1

