"""Per-seat beliefs about which character lies at each card place.

The model: a seat learns the cards only from what it saw, and takes every
swap-or-not it watched (another player's turn, Spy or Fool) to be a swap
with probability 1/2 (ABSTRACTION: it has no way to read the other
player's choice):

- the deal is open: every seat starts knowing every card exactly;
- a look or a reveal pins the place to the character seen;
- a swap-or-not the seat made itself it knows: swapped or not;
- a swap-or-not it only watched is "swap p and q, or swap nothing", each
  as likely.

`card_beliefs(config)` gives the tables' beliefs; `marginals(seat)`, a
(places x 12 characters) matrix of P(place holds character), is what the
seat's `knowledge` block holds.

## Up to 7 cards in play: the exact posterior

Every table of 2 to 7 players has 6 or 7 cards in play (unless extra
centre cards make more), so at most 7! = 5,040 deals: `DealPosterior` keeps
one weight per deal and per seat (`core.knowledge.DealBeliefs`): a look or
a reveal rules out the deals that disagree (`see`), a swap the seat made
permutes them (`swap`), a watched one averages each deal with its swapped
twin (`swap_one_of` with "swap p and q" and "swap nothing"). The marginals
are those of that posterior, exactly (to float rounding).

## More than 7 cards: an approximation

13 places can hold 13! deals, so `PlaceBeliefs` keeps only the matrix of
marginals: a look or a reveal sets the place's row to the character seen,
a swap the seat made swaps two rows, a watched one mixes the two rows half
and half. Mixing keeps every row summing to 1 and every character's column
summing to its number of copies, but pinning a row does not. After pins
the matrix is brought back to "each place holds one card, each character
lies in as many places as it has copies" by two exact steps and an
approximate one:

1. a character whose copies are all at places known for certain is struck
   from every other place, and a character with as many possible places
   left as copies left is put at them (repeated while new certainties
   appear);
2. the rows are renormalised;
3. Sinkhorn passes (scale the columns to the copy counts, then the rows to
   1) spread the remaining correction. Each seat's matrix is corrected on
   its own, so how long another seat's takes to converge cannot show in it.

What it guarantees:

- it equals the exact posterior's marginals until the seat sees (looks
  at, or is shown) a card it was not certain of: mixing and known swaps
  are linear in the marginals, so up to then nothing is approximated;
- its support holds the exact support: a character the exact posterior
  gives a chance at a place has a chance here too, so the true character
  of a place never has probability 0, and a place it is certain of the
  exact posterior is certain of too (the reverse need not hold: it may
  leave a chance where the exact posterior has none);
- every row sums to 1; every column ends within 1e-6 of its copy count,
  or after 50 Sinkhorn passes, whichever comes first.

How close, measured against the exact posterior (enumerated for these
tables, the approximation fed the same events) over every seat's matrix
after every step of 40 random games per table; `exact` is the share of
matrices equal to the exact ones, the errors are the largest difference
over a matrix (its mean, 99th percentile and largest), `spurious entries`
the share of entries given a chance where the exact posterior has none,
`columns off by` the largest gap between a column's sum and its copies.
Measured, from the repository root, with
`python -m tests.games.mascarade.knowledge_error`:

| cards | table | exact | mean error | 99th percentile | largest | spurious entries | columns off by |
|---|---|---|---|---|---|---|---|
| 6 | 2 players | 81% | 0.008 | 0.16 | 0.33 | 0.02% | 0.01 |
| 6 | 5 players | 92% | 0.005 | 0.13 | 0.55 | 0.04% | 0.01 |
| 7 | 7 players | 94% | 0.003 | 0.09 | 0.41 | 0.02% | 0.01 |
| 8 | 6 players + 2 centre | 89% | 0.006 | 0.15 | 0.52 | 0.06% | 0.01 |
| 8 | 8 players | 82% | 0.015 | 0.33 | 0.71 | 0.18% | 0.02 |

The errors come from watched swaps whose correlations a matrix of
marginals cannot keep; they grow with the cards in play, where they cannot
be measured (9! deals and more).

The sightings of one step are corrected together, once the step is over
(`end_step`), and lazily: when the seat's matrix is next read or changed.
Every seat waiting then is corrected in the same pass (its cost is NumPy's
per-call price, whatever the number of seats), which gives each seat the
same matrix as a correction at the end of every step.

Nothing here reads the true cards: callers feed it only the events a seat
saw, so a belief cannot depend on what the seat did not see.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from hidden_role_envs.core.knowledge import DealBeliefs, DealTable

EXACT_PLACES = 7  # up to this many cards in play the beliefs are the exact posterior (7! = 5,040 deals)
SINKHORN_PASSES = 50
TOLERANCE = 1e-6


def card_beliefs(config):
    """Every seat's beliefs at the start of a game of this table (the deal, seen by all, comes as an event)."""
    kind = DealPosterior if config.num_places <= EXACT_PLACES else PlaceBeliefs
    return kind(config.counts, config.num_places, config.num_players)


class OpenDealBeliefs(DealBeliefs):
    """The core's exact posterior, which can also start from a deal every seat saw whole."""

    def know(self, seats, deal: int) -> None:
        """The seats saw every card: deal `deal` is the one."""
        for r in seats:
            self.weights[r] = 0.0
            self.weights[r, deal] = 1.0


@cache
def _place_kind_pairs(table: DealTable) -> np.ndarray:
    """[deal, place]: the entry `place * kinds + kind` of the flattened marginals that the deal adds to."""
    pairs = table.deals.astype(np.intp) + table.num_kinds * np.arange(table.num_places)
    pairs.flags.writeable = False
    return pairs


class DealPosterior:
    """The exact posterior over the deals of the cards in play, one weight per deal and per seat."""

    def __init__(self, counts: tuple[int, ...], num_places: int, num_seats: int):
        self.kinds = [c for c, copies in enumerate(counts) if copies]  # the characters in play, in the deals' order
        self.kind_of = {c: k for k, c in enumerate(self.kinds)}
        table = DealTable.of(tuple(counts[c] for c in self.kinds))
        self.deals = OpenDealBeliefs(table, num_seats)
        self._pairs = None if table.indicator is not None else _place_kind_pairs(table)
        self.probs = np.zeros((num_seats, num_places, len(counts)))
        # [place * kinds in play + kind]: the entry of a seat's flattened `probs` (characters in play only)
        self._in_play = (len(counts) * np.arange(num_places)[:, None] + np.array(self.kinds)).ravel()
        self._stale = [True] * num_seats  # `probs[seat]` to recompute before it is read

    def _changed(self, seats) -> None:
        for seat in seats:
            self._stale[seat] = True

    def see_all(self, seats: tuple[int, ...], cards) -> None:
        """The open deal: every card seen, so one deal holds all the weight (`see` at every place, at once)."""
        dealt = np.array([self.kind_of[c] for c in cards], dtype=self.deals.table.deals.dtype)
        self.deals.know(seats, int(np.flatnonzero((self.deals.table.deals == dealt).all(axis=1))[0]))
        self._changed(seats)

    def see(self, seats: tuple[int, ...], place: int, character: int) -> None:
        self.deals.see(seats, place, self.kind_of[character])
        self._changed(seats)

    def swap(self, seats: tuple[int, ...], p: int, q: int) -> None:
        self.deals.swap(seats, p, q)
        self._changed(seats)

    def swap_or_not(self, seats: tuple[int, ...], p: int, q: int) -> None:
        self.deals.swap_one_of(seats, [(p, q), (p, p)])
        self._changed(seats)

    def end_step(self) -> None:
        """Nothing waits: every event is taken in exactly when it comes."""

    def marginals(self, seat: int) -> np.ndarray:
        """(places, characters): P(place holds character) for `seat` (read-only).

        With 6 cards, one product with the deal table's indicator matrix; with 7, where the table has none, a
        sum over the deals the seat has not ruled out only: after the open deal they are few (a handful most
        of the time, rarely hundreds of the 5,040).
        """
        if self._stale[seat]:
            weights = self.deals.weights[seat]
            table = self.deals.table
            places, kinds = table.num_places, table.num_kinds
            if self._pairs is None:
                flat = weights @ table.indicator
                total = weights.sum()
            else:
                possible = np.flatnonzero(weights)
                kept = weights[possible]
                flat = np.bincount(self._pairs[possible].ravel(), np.repeat(kept, places), places * kinds)
                total = kept.sum()
            flat /= total
            self.probs[seat].reshape(-1)[self._in_play] = flat
            self._stale[seat] = False
        return self.probs[seat]


class PlaceBeliefs:
    """One (places x characters) probability matrix per seat: the approximation above 7 cards."""

    def __init__(self, counts: tuple[int, ...], num_places: int, num_seats: int):
        self.counts = np.array(counts, dtype=np.float64)
        self.probs = np.zeros((num_seats, num_places, len(counts)))
        self._sighted = np.zeros(num_seats, dtype=bool)  # saw a card during the step in progress
        self._any_sighted = False  # the same, for every seat at once, without a NumPy call
        self._waiting = np.zeros(num_seats, dtype=bool)  # saw a card in a step that is over: to correct before use
        self._any_waiting = False
        self._seat_arrays: dict[tuple[int, ...], np.ndarray] = {}

    def _seats(self, seats: tuple[int, ...]) -> np.ndarray:
        array = self._seat_arrays.get(seats)
        if array is None:
            array = self._seat_arrays[seats] = np.array(seats, dtype=np.int64)
        return array

    def see_all(self, seats: tuple[int, ...], cards) -> None:
        """The seats saw every card (the open deal): `cards[p]` is at place p."""
        rows = self._seats(seats)
        self.probs[rows] = 0.0
        self.probs[rows[:, None], np.arange(len(cards)), list(cards)] = 1.0
        self._sighted[rows] = self._waiting[rows] = False
        self._any_sighted = bool(np.count_nonzero(self._sighted))
        self._any_waiting = bool(np.count_nonzero(self._waiting))

    def see(self, seats: tuple[int, ...], place: int, character: int) -> None:
        """The seats saw `character` at `place`."""
        if self._any_waiting:
            self._correct_waiting()
        observers = self._seats(seats)
        changed = self.probs[observers, place, character] < 1.0
        if np.count_nonzero(changed):
            who = observers[changed]
            self.probs[who, place] = 0.0
            self.probs[who, place, character] = 1.0
            self._sighted[who] = True
            self._any_sighted = True

    def swap(self, seats: tuple[int, ...], p: int, q: int) -> None:
        """The seats know the cards at p and q swapped."""
        if self._any_waiting:
            self._correct_waiting()
        for seat in seats:
            rows = self.probs[seat]
            kept = rows[p].copy()
            rows[p] = rows[q]
            rows[q] = kept

    def swap_or_not(self, seats: tuple[int, ...], p: int, q: int) -> None:
        """The seats saw p and q handled, swapped or not, unseen: each as likely."""
        if self._any_waiting:
            self._correct_waiting()
        observers = self._seats(seats)
        mixed = 0.5 * (self.probs[observers, p] + self.probs[observers, q])
        self.probs[observers, p] = mixed
        self.probs[observers, q] = mixed

    def end_step(self) -> None:
        """The events of a step are in: its sightings are corrected together, when next needed."""
        if self._any_sighted:
            self._waiting |= self._sighted
            self._any_waiting = True
            self._sighted[:] = False
            self._any_sighted = False

    def marginals(self, seat: int) -> np.ndarray:
        """(places, characters): P(place holds character) for `seat`, once its step is over (read-only)."""
        if self._any_waiting:
            self._correct_waiting()
        return self.probs[seat]

    def _correct_waiting(self) -> None:
        """Restore the row and column sums of every seat whose sightings wait for it."""
        self._correct(self._waiting.nonzero()[0])
        self._waiting[:] = False
        self._any_waiting = False

    def _correct(self, observers: np.ndarray) -> None:
        """Each seat's matrix is corrected on its own (how far another seat's needs correcting must not matter).

        `m` holds the matrices of the seats still being corrected (`active`);
        it is written back to `probs` before a seat leaves it and at the end.
        (`np.count_nonzero` tests the per-seat flags: on arrays this small it
        costs a fraction of `.any()` and `.all()`.)
        """
        if not len(observers):
            return
        counts = self.counts
        active = observers
        m = self.probs[active]
        for _ in range(m.shape[1]):  # exact deductions, repeated while they find something
            support = m > 0
            open_places = support & (support.sum(axis=2) > 1)[:, :, None]  # the places not known for certain
            open_count = open_places.sum(axis=1)
            missing = counts - (support.sum(axis=1) - open_count)  # copies not at a place known for certain
            # a character whose every copy is located is at no other place
            strike_columns = missing <= 0
            # a character with as many possible places left as copies left is at all of them
            settle_columns = (open_count == missing) & ~strike_columns
            found = ((strike_columns & (open_count > 0)) | settle_columns).any(axis=1)
            still = np.count_nonzero(found)
            if not still:
                break
            if still < len(found):
                self.probs[active] = m
                m, open_places, active = m[found], open_places[found], active[found]
                strike_columns, settle_columns = strike_columns[found], settle_columns[found]
            strike = open_places & strike_columns[:, None, :]
            settled = open_places & settle_columns[:, None, :]
            m[strike] = 0.0
            rows = settled.any(axis=2)
            m[rows] = settled[rows]
            m /= m.sum(axis=2, keepdims=True)
        if len(active) < len(observers):  # some left the deductions early: take every seat again
            self.probs[active] = m
            active = observers
            m = self.probs[active]
        for _ in range(SINKHORN_PASSES):
            columns = m.sum(axis=1)
            off = np.abs(columns - counts).max(axis=1) >= TOLERANCE
            still = np.count_nonzero(off)
            if not still:
                break
            if still < len(off):
                self.probs[active] = m
                m, columns, active = m[off], columns[off], active[off]
            m *= np.divide(counts, columns, out=np.zeros_like(columns), where=columns > 0)[:, None, :]
            m /= m.sum(axis=2, keepdims=True)
        self.probs[active] = m
