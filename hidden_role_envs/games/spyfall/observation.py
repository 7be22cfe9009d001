"""What a Spyfall seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw
(its own card, and the public questions, answers, accusations, votes and
round results). The spy, the location and the other seats' cards are never
read here, so an observation cannot depend on anything its seat has not
seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n).

KNOWLEDGE. Both beliefs read the answers of this round under one model of
how players answer: a non-spy answers truthfully with probability
1 - LIE_RATE (0.1); the spy, who does not know the place, says yes or no
with probability 1/2 each.

- `location_belief`: for the spy, P(location | the answers of the other
  seats), starting uniform over the locations not yet played in this game;
  its own answers say nothing and are left out. A non-spy knows the place:
  a one-hot.
- `spy_belief`: for a non-spy, P(seat is the spy | the answers), starting
  uniform over the other seats. Knowing the place, it sees which answers
  were true: each true answer of a seat multiplies its odds of being the spy
  by 0.5 / 0.9, each false one by 0.5 / 0.1. The spy knows: a one-hot on
  itself.

Once a round is over its cards are revealed to everyone, and both beliefs
become one-hots on the revealed spy and location until the next round is
dealt.
"""

from __future__ import annotations

import math

import numpy as np

from hidden_role_envs.core.definition import Observer
from hidden_role_envs.core.game import Event, relative_order
from hidden_role_envs.core.observation import Block, ObservationLayout
from hidden_role_envs.games.spyfall.rules import DECISIONS, NO, NOBODY, YES, SpyfallConfig, SpyfallTable

HISTORY = 8  # exchanges kept in the history blocks, the most recent first
LIE_RATE = 0.1  # the knowledge model: how often a non-spy's answer is false

_LOG_TRUE, _LOG_LIE = math.log(1 - LIE_RATE), math.log(LIE_RATE)
# log of how much one answer multiplies a seat's odds of being the spy (spy: 1/2 either way)
_SPY_ODDS_TRUE, _SPY_ODDS_LIE = math.log(0.5 / (1 - LIE_RATE)), math.log(0.5 / LIE_RATE)


def spyfall_layout(config: SpyfallConfig) -> ObservationLayout:
    n = config.num_players
    places = config.places
    a, locations = len(places.attributes), len(places)
    q = config.question_limit
    return ObservationLayout(
        [
            Block("is_spy", (1,), 0, 1, "1 if this seat holds the spy card this round"),
            Block("location", (locations,), 0, 1, "one-hot: the location on this seat's card (zeros for the spy)"),
            Block("role", (places.max_roles,), 0, 1, "one-hot: this seat's role, by its index in the location's roles"),
            Block("history_asker", (HISTORY, n), 0, 1, "the last exchanges, most recent first: who asked"),
            Block("history_target", (HISTORY, n), 0, 1, "... who was asked"),
            Block("history_attribute", (HISTORY, a), 0, 1, "... about which attribute"),
            Block("history_answer", (HISTORY, 2), 0, 1, "... and the answer (yes, no)"),
            Block("answers", (n, a, 2), 0, q, "this round's answers by seat and attribute: yes count, no count"),
            Block("question", (2, n), 0, 1, "the question waiting for its answer: asker, target"),
            Block("question_attribute", (a,), 0, 1, "one-hot: the attribute of the question waiting for its answer"),
            Block("cannot_ask", (n,), 0, 1, "one-hot: the seat that just asked the asker (it may not be asked back)"),
            Block("accusation", (2, n), 0, 1, "the vote in progress: accuser, accused"),
            Block("votes_cast", (n,), 0, 1, "who has voted in the vote in progress (what they voted is secret)"),
            Block("my_vote", (2,), 0, 1, "this seat's vote in the vote in progress (yes, no)"),
            Block("last_vote", (4, n), 0, 1, "the last finished vote of this round: accuser, accused, yes, no"),
            Block("accusation_used", (n,), 0, 1, "seats that used their accusation of this round"),
            Block("clock", (2,), 0, q, "questions left, 1 once time is up"),
            Block("scores", (n,), 0, 4 * config.num_rounds, "points so far"),
            Block("round", (2,), 0, config.num_rounds, "this round's number (from 1), rounds in the game"),
            Block("dealer", (n,), 0, 1, "one-hot: the dealer of this round"),
            Block("played", (locations,), 0, 1, "locations of the finished rounds (never drawn again)"),
            Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision being asked"),
            Block("to_act", (n,), 0, 1, "one-hot: the seat asked to decide"),
            Block("location_belief", (locations,), 0, 1, "P(location) given what this seat saw (see KNOWLEDGE)"),
            Block("spy_belief", (n,), 0, 1, "P(seat is the spy) given what this seat saw (see KNOWLEDGE)"),
        ]
    )


class SpyfallObserver(Observer):
    def __init__(self, config: SpyfallConfig):
        n = config.num_players
        super().__init__(spyfall_layout(config), n)
        self.config = config
        self.num_players = n
        self.matrix = config.places.matrix
        self.rotations = relative_order(n)
        # relative[observer][seat]: the seat's entry in the observer's blocks; NOBODY (index -1) stays NOBODY
        self.relative = [[(s - observer) % n for s in range(n)] + [NOBODY] for observer in range(n)]
        self.eye = np.eye(n, dtype=np.float32)
        # Runs of adjacent blocks that encode() clears at once before setting the entries that are on.
        fields = self.layout.fields
        self._exchange_blocks = slice(fields["question"].start, fields["votes_cast"].stop)
        self._decision_blocks = slice(fields["decision"].start, fields["to_act"].stop)
        # log-likelihood of each location given one answer (attribute, yes) under the knowledge model
        self.answer_loglik = np.where(self.matrix.T[:, None, :] == np.array([0, 1])[None, :, None], _LOG_TRUE, _LOG_LIE)
        self._all = self._every_seats_blocks()
        self.table: SpyfallTable | None = None

    def _every_seats_blocks(self) -> dict[str, np.ndarray]:
        """Every seat's copy of a block at once (views): public events update all seats in one operation."""
        n = self.num_players
        return {b.name: self._buffers[:, self.layout.fields[b.name]].reshape((n, *b.shape)) for b in self.layout.blocks}

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._all = self._every_seats_blocks()

    def __getstate__(self) -> dict:
        state = super().__getstate__()
        del state["_all"]
        return state

    # --- knowledge from events -----------------------------------------

    def reset(self, table: SpyfallTable, events: list[Event]) -> None:
        self.table = table
        self._buffers[:] = 0
        self._all["round"][:, 1] = self.config.num_rounds
        self.update(events)

    def update(self, events: list[Event]) -> None:
        """Public events (seen by everyone) update every seat; a card or a vote only the seats that saw it."""
        for kind, seen_by, data in events:
            if kind == "answered":
                self._answered(*data)
            elif kind == "asked":
                self.last_asker = data[0]
            elif kind == "dealt":
                _, location, role = data
                for seat in seen_by:
                    self.card_location[seat] = location
                    v = self._views[seat]
                    v["is_spy"][0] = location == NOBODY
                    if location != NOBODY:
                        v["location"][location] = 1
                        v["role"][role] = 1
            elif kind == "voted":
                _, yes = data
                for seat in seen_by:
                    self._views[seat]["my_vote"][0 if yes else 1] = 1
            elif kind == "vote_result":
                self._vote_result(*data)
            elif kind == "round_started":
                self._new_round()
            elif kind == "round_over":
                _, spy, location, _, _ = data
                self.revealed = (spy, location)
                self._all["played"][:, location] = 1
                self.stale[:] = True

    def _new_round(self) -> None:
        n = self.num_players
        for name in ("is_spy", "location", "role", "history_asker", "history_target", "history_attribute",
                     "history_answer", "answers", "my_vote", "last_vote"):
            self._all[name][:] = 0
        self.card_location = [NOBODY] * n
        self.last_asker = NOBODY
        self.revealed: tuple[int, int] | None = None
        self.location_loglik = np.zeros((n, len(self.config.places)))  # the spy's evidence, per observer
        self.spy_logodds = np.zeros((n, n))  # a non-spy's evidence about each seat, per observer
        self.stale = np.ones(n, dtype=bool)

    def _answered(self, seat: int, attribute: int, yes: bool) -> None:
        n = self.num_players
        everyone = np.arange(n)
        a = self._all
        for name in ("history_asker", "history_target", "history_attribute", "history_answer"):
            a[name][:, 1:] = a[name][:, :-1]
            a[name][:, 0] = 0
        a["history_asker"][everyone, 0, (self.last_asker - everyone) % n] = 1
        a["history_target"][everyone, 0, (seat - everyone) % n] = 1
        a["history_attribute"][:, 0, attribute] = 1
        a["history_answer"][:, 0, 0 if yes else 1] = 1
        a["answers"][everyone, (seat - everyone) % n, attribute, 0 if yes else 1] += 1
        # the spy's evidence: every other seat's answer
        loglik = self.answer_loglik[attribute, int(yes)]
        self.location_loglik += loglik
        self.location_loglik[seat] -= loglik
        # a non-spy's evidence: was the answer true at its location? (the spy's row is never read)
        locations = np.array(self.card_location)
        truth = self.matrix[np.maximum(locations, 0), attribute] == yes
        self.spy_logodds[:, seat] += np.where(truth, _SPY_ODDS_TRUE, _SPY_ODDS_LIE)
        self.stale[:] = True

    def _vote_result(self, accuser: int, accused: int, votes: tuple[int, ...], convicted: bool) -> None:
        n = self.num_players
        a = self._all
        a["my_vote"][:] = 0
        last = a["last_vote"]
        last[:] = 0
        order = self.rotations
        votes = np.array(votes)
        last[:, 0] = self.eye[(accuser - np.arange(n)) % n]
        last[:, 1] = self.eye[(accused - np.arange(n)) % n]
        last[:, 2] = (votes == YES)[order]
        last[:, 3] = (votes == NO)[order]

    # --- encoding -------------------------------------------------------

    def encode(self, seat: int) -> np.ndarray:
        table = self.table
        buffer = self._buffers[seat]
        v = self._views[seat]
        rel = self.relative[seat]
        buffer[self._exchange_blocks] = 0
        if table.attribute != NOBODY:  # a question waits for its answer
            v["question"][0, rel[table.asker]] = 1
            v["question"][1, rel[table.target]] = 1
            v["question_attribute"][table.attribute] = 1
        if table.cannot_ask != NOBODY:
            v["cannot_ask"][rel[table.cannot_ask]] = 1
        if table.accuser != NOBODY:  # a vote is in progress
            v["accusation"][0, rel[table.accuser]] = 1
            v["accusation"][1, rel[table.accused]] = 1
            for voter in table.voters[: table.votes_cast]:
                v["votes_cast"][rel[voter]] = 1
        v["accusation_used"][:] = table.accusation_used[seat:] + table.accusation_used[:seat]
        clock = v["clock"]
        clock[0] = self.config.question_limit - table.questions
        clock[1] = table.time_up
        v["scores"][:] = table.scores[seat:] + table.scores[:seat]
        v["round"][0] = table.round + 1
        _one_hot(v["dealer"], rel[table.dealer])
        buffer[self._decision_blocks] = 0
        if table.to_act != NOBODY:
            v["decision"][table.decision] = 1
            v["to_act"][rel[table.to_act]] = 1
        if self.stale[seat]:
            self._encode_beliefs(seat, v)
            self.stale[seat] = False
        return buffer

    def _encode_beliefs(self, seat: int, v: dict[str, np.ndarray]) -> None:
        location_belief, spy_belief = v["location_belief"], v["spy_belief"]
        location_belief[:] = 0
        spy_belief[:] = 0
        if self.revealed is not None:
            spy, location = self.revealed
            location_belief[location] = 1
            spy_belief[(spy - seat) % self.num_players] = 1
        elif self.card_location[seat] == NOBODY:  # the spy
            spy_belief[0] = 1
            evidence = self.location_loglik[seat]
            weights = np.exp(evidence - evidence.max()) * (1 - v["played"])
            location_belief[:] = weights / weights.sum()
        else:
            location_belief[self.card_location[seat]] = 1
            odds = self.spy_logodds[seat][self.rotations[seat]]
            weights = np.exp(odds - odds[1:].max())
            weights[0] = 0
            spy_belief[:] = weights / weights.sum()

    def describe(self, seat: int) -> str:
        self.encode(seat)
        v = self._views[seat]
        places = self.config.places
        n = self.num_players
        if self.card_location[seat] == NOBODY:
            lines = ["  your card: SPY"]
        else:
            location = places.locations[self.card_location[seat]]
            lines = [f"  your card: {location.name}, {location.roles[int(np.argmax(v['role']))]}"]
        belief = v["location_belief"]
        top = [i for i in np.argsort(-belief, kind="stable")[:3] if belief[i] > 0]
        lines.append("  location: " + ", ".join(f"{places.names[i]} {belief[i]:.0%}" for i in top))
        lines.append(
            "  spy: " + ", ".join(
                f"{'you' if k == 0 else f'player_{(seat + k) % n}'} {v['spy_belief'][k]:.0%}"
                for k in range(n) if v["spy_belief"][k] > 0
            )
        )
        return "\n".join(lines)


def _one_hot(view: np.ndarray, index: int) -> None:
    view.fill(0)
    if index != NOBODY:
        view[index] = 1
