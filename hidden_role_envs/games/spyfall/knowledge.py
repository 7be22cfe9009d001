"""What a Spyfall seat believes of a round's hidden cards: the location, and who holds the spy card.

Both beliefs read the answers of the round under one model of how players
answer: a non-spy answers truthfully with probability 1 - LIE_RATE (0.9);
the spy, who does not know the place, says yes or no with probability 1/2
each. Each seat's evidence is kept as log-weights, updated from the events
it saw only:

- `see(seat, location)`: its own card, the location (a non-spy, who then
  knows the place) or NOBODY (the spy card);
- `hear(seat, attribute, yes)`: an answer, heard by everyone. For the spy it
  weighs each location by 0.9 if the answer is true there, 0.1 if not (its
  own answers say nothing and are left out); for a non-spy, who knows which
  answers were true, each true answer multiplies the answerer's odds of
  being the spy by 0.5 / 0.9, each false one by 0.5 / 0.1;
- `see_revealed(spy, location)`: the round is over and its cards are shown
  to everyone.

`write(seat, location, spy, false_share)` fills the seat's three rows,
P(location), P(seat is the spy) and the share of the others' answers that
are false at each location, by location and by seat number: for the spy, the
posterior over the locations not yet played in this game (uniform at the
deal) and a one-hot on itself; for a non-spy, a one-hot on its location and
the posterior over the other seats (uniform at the deal); once the cards are
revealed, one-hots on the revealed location and spy. The false share is
the model's own check: when the others answer at random the posterior
still names one location sharply, but that location's share stays far
above the model's 0.1 (it is 0 before any answer, and is kept after the
reveal). Nothing here reads the hidden cards: callers feed it only the
events a seat saw.
"""

from __future__ import annotations

import math

import numpy as np

from hidden_role_envs.core.seats import NOBODY, seating
from hidden_role_envs.games.spyfall.locations import LocationSet

LIE_RATE = 0.1  # the knowledge model: how often a non-spy's answer is false

_LOG_LIE_ODDS = math.log(LIE_RATE / (1 - LIE_RATE))  # what each answer false at a location adds to its log-weight
# log of how much one answer multiplies a seat's odds of being the spy (spy: 1/2 either way)
_SPY_ODDS_TRUE, _SPY_ODDS_LIE = math.log(0.5 / (1 - LIE_RATE)), math.log(0.5 / LIE_RATE)


class RoundBeliefs:
    """Every seat's beliefs of one round, from the deal to the reveal."""

    def __init__(self, places: LocationSet, num_players: int):
        n = num_players
        self.num_players = n
        self.num_locations = len(places)
        self.matrix = places.matrix
        holds = places.matrix.T[:, None, :] == np.array([0, 1])[None, :, None]  # [attribute, yes, location]
        self.answer_false = (~holds).astype(float)  # [attribute, yes]: 1 at each location where that answer is false
        seats = seating(n)
        self.others = seats.others
        self.order = seats.rotation.tolist()  # [seat]: the seats from its own in turn order, as the seat's block lists them
        self.deal(np.ones(self.num_locations))

    def deal(self, unplayed: np.ndarray) -> None:
        """A new round: `unplayed` is 1 for each location the round may be at, 0 for those of earlier rounds."""
        n = self.num_players
        self.unplayed = unplayed
        self.card = [NOBODY] * n  # the location on each seat's card (NOBODY: the spy card)
        self.card_row = np.zeros(n, dtype=np.intp)  # the same, 0 for the spy card (whose row is never read)
        self.revealed: tuple[int, int] | None = None
        self.spy_logodds = np.zeros((n, n))  # a non-spy's evidence about each seat, per seat
        self.false_heard = np.zeros((n, self.num_locations))  # per seat: the others' answers false at each location
        self.answered = [0] * n  # per seat: its own answers
        self.answers = 0  # everyone's

    def see(self, seat: int, location: int) -> None:
        self.card[seat] = location
        self.card_row[seat] = max(location, 0)

    def hear(self, seat: int, attribute: int, yes: bool) -> None:
        false_at = self.answer_false[attribute, int(yes)]
        self.false_heard += false_at  # written once per answer, read at every encoding: kept per seat
        self.false_heard[seat] -= false_at
        self.answered[seat] += 1
        self.answers += 1
        truth = self.matrix[self.card_row, attribute] == yes  # was the answer true at each seat's location?
        self.spy_logodds[:, seat] += np.where(truth, _SPY_ODDS_TRUE, _SPY_ODDS_LIE)

    def see_revealed(self, spy: int, location: int) -> None:
        self.revealed = (spy, location)

    def write(self, seat: int, location: np.ndarray, spy: np.ndarray, false_share: np.ndarray) -> None:
        """Write the seat's P(location), P(each seat is the spy) and the false share of each location into the
        three rows given (its blocks)."""
        np.multiply(self.false_heard[seat], 1 / max(self.answers - self.answered[seat], 1), out=false_share)
        if self.revealed is not None:
            revealed_spy, revealed_location = self.revealed
            _one_hot(location, revealed_location)
            _one_hot(spy, revealed_spy)
        elif self.card[seat] == NOBODY:  # the spy
            # each answer weighs a location by 0.9 where it is true and 0.1 where false: relative to the
            # location with the fewest false answers, (0.1 / 0.9) per false answer beyond them
            false_heard = self.false_heard[seat]
            weights = np.exp((false_heard - false_heard.min()) * _LOG_LIE_ODDS)
            weights *= self.unplayed
            np.divide(weights, weights.sum(), out=location)
            _one_hot(spy, seat)
        else:  # a handful of seats: plain Python costs less than NumPy's calls here
            odds = self.spy_logodds[seat].tolist()
            top = max([odds[other] for other in self.others[seat]])
            weights = [math.exp(value - top) for value in odds]
            weights[seat] = 0.0
            total = sum([weights[other] for other in self.order[seat]])  # in the order the seat's block lists them
            _one_hot(location, self.card[seat])
            spy[:] = [weight / total for weight in weights]


def _one_hot(row: np.ndarray, index: int) -> None:
    row.fill(0)
    row[index] = 1
