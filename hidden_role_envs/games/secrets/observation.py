"""What a Secrets seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine is never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n). Places of identity tokens
are those seats in the same order, then the centre.
"""

from __future__ import annotations

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
from hidden_role_envs.games.secrets.rules import NOBODY, SecretsConfig, SecretsTable

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


class SecretsObserver(Observer):
    def __init__(self, config: SecretsConfig):
        n = config.num_players
        super().__init__(secrets_layout(n), n)
        self.num_players = n
        self.rotations = relative_order(n)
        # place order as seen by each seat: relative seats, then the centre (place n)
        self.place_order = np.concatenate([self.rotations, np.full((n, 1), n)], axis=1)
        self.table: SecretsTable | None = None

    def reset(self, table: SecretsTable, events: list[Event]) -> None:
        n = self.num_players
        self.table = table
        self.beliefs = TokenBeliefs(TOKENS_BY_PLAYERS[n], n)
        self.known_offer = [NOBODY] * n  # the Offer's card, as each seat knows it
        self.bullet_in_hand = [None] * n
        self.bullets_given = np.zeros((n, n, len(BULLET_VALUES)), dtype=np.float32)  # giver, receiver, value
        self.bullet_givers = np.zeros((n, n), dtype=np.float32)  # receiver, giver: public
        self.update(events)

    def update(self, events: list[Event]) -> None:
        for kind, seen_by, data in events:
            if kind == "looked":
                _, place, identity = data
                self.beliefs.see(seen_by, place, identity)
            elif kind == "swapped":
                _, p, q = data
                self.beliefs.swap(seen_by, p, q)
            elif kind == "swapped_one_of":
                _, alternatives = data
                self.beliefs.swap_one_of(seen_by, alternatives)
            elif kind == "drawn":
                revealed = data[2]
                card = revealed[0] if len(revealed) == 1 else NOBODY
                for s in seen_by:
                    self.known_offer[s] = card
            elif kind in ("card_chosen", "card_revealed"):
                _, card = data
                for s in seen_by:
                    self.known_offer[s] = card
            elif kind == "bullet_drawn":
                seat, value = data
                self.bullet_in_hand[seat] = value
            elif kind == "bullet_given":
                giver, receiver = data
                self.bullet_givers[receiver, giver] += 1
            elif kind == "bullet_value":
                giver, receiver, value = data
                self.bullet_in_hand[giver] = None
                self.bullets_given[giver, receiver, BULLET_VALUES.index(value)] = 1.0

    def encode(self, seat: int) -> np.ndarray:
        table = self.table
        order = self.rotations[seat]
        v = self._views[seat]
        v["face_up"][:] = [table.face_up[s] for s in order]
        v["face_down"][:] = [table.face_down[s] for s in order]
        v["bullets_received"][:] = [table.bullets[s] for s in order]
        v["bullet_givers"][:] = self.bullet_givers[np.ix_(order, order)]
        _one_hot_seat(v["active_player"], table.active, seat, self.num_players)
        v["revealed"][:] = 0
        for card in table.revealed:
            v["revealed"][card] = 1
        _one_hot(v["offered_card"], self.known_offer[seat])
        _one_hot_seat(v["offer_target"], table.offer_target, seat, self.num_players)
        _one_hot(v["claim"], table.claim)
        v["un_holder"][:] = 0
        if table.un_holder == NOBODY:
            v["un_holder"][-1] = 1
        else:
            v["un_holder"][(table.un_holder - seat) % self.num_players] = 1
        _one_hot(v["decision"], table.decision)
        _one_hot_seat(v["to_act"], table.to_act, seat, self.num_players)
        in_hand = self.bullet_in_hand[seat]
        _one_hot(v["bullet_in_hand"], NOBODY if in_hand is None else BULLET_VALUES.index(in_hand))
        v["bullets_given"][:] = self.bullets_given[seat][order]
        v["identity"][:] = self.beliefs.marginals(seat)[self.place_order[seat]]
        v["teammate"][:] = self.beliefs.same_kind(seat, seat, TEAMS)[order]
        return self._buffers[seat]

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
            given = [BULLET_VALUES[i] for i in np.flatnonzero(self.bullets_given[seat, receiver])]
            if given:
                lines.append(f"  you gave player_{receiver} Bullet(s) worth {given}")
        return "\n".join(lines)


def _one_hot(view: np.ndarray, index: int) -> None:
    view[:] = 0
    if index != NOBODY:
        view[index] = 1


def _one_hot_seat(view: np.ndarray, seat: int, observer: int, num_players: int) -> None:
    view[:] = 0
    if seat != NOBODY:
        view[(seat - observer) % num_players] = 1
