"""Per-seat beliefs about which character lies at each card place.

Exact beliefs (the set of deals consistent with what a seat saw, as in
`hidden_role_envs.core.knowledge`) do not scale here: 13 places hold up to
13 distinct characters, 13! assignments. So each seat keeps a (places x
characters) matrix of probabilities instead, updated from what it saw:

- the deal is open: every seat starts knowing every card exactly
  (`see_all`);
- a look or a reveal pins the place: its row becomes that character
  (`see`);
- a swap-or-not the seat made itself (its own turn, its Spy or Fool power)
  it knows: the two rows swap (`swap`), or nothing happens;
- a swap-or-not it only watched mixes the two rows half and half
  (`swap_or_not`, the core's `swap_one_of` with "swap p and q, or swap
  nothing"; ABSTRACTION: the watcher assumes a swap with probability 1/2,
  having no way to read the other player's choice).

`marginals(seat)` is the seat's matrix, what its `knowledge` block holds.

Mixing two rows keeps every row summing to 1 and every character's column
summing to its number of copies, but pinning a row does not. After pins the
matrix is brought back to "each place holds one card, each character lies
in as many places as it has copies" by two exact steps and an approximate
one:

1. a character whose copies are all at places known for certain is struck
   from every other place, and a character with as many possible places
   left as copies left is put at them (repeated while new certainties
   appear);
2. the rows are renormalised;
3. Sinkhorn passes (scale the columns to the copy counts, then the rows to
   1) spread the remaining correction (APPROXIMATION: this is the closest
   matrix with the right sums to the one before, not the exact posterior,
   whose marginals would need the 13! assignments). Each seat's matrix is
   corrected on its own, so how long another seat's takes to converge
   cannot show in it.

The sightings of one step are corrected together, once the step is over
(`end_step`), and lazily: when the seat's matrix is next read or changed.
Every seat waiting then is corrected in the same pass (its cost is NumPy's
per-call price, whatever the number of seats), which gives each seat the
same matrix as a correction at the end of every step.

How close: against the exact posterior (enumerated over the 720 deals of
6 places, with the same 1/2 for watched swaps), in random games at 2, 4 and
5 players, the largest error over a seat's matrix is 0 most of the time,
0.01 on average and about 0.2 at the 99th percentile (it comes from
watched swaps whose correlations a matrix of marginals cannot keep). The
columns end within a few hundredths of the copy counts (the Sinkhorn
passes stop at 1e-6 or after 50 passes); the rows sum to 1 exactly.
`tests/games/mascarade/test_knowledge.py` checks this.

Nothing here reads the true cards: callers feed it only the events a seat
saw, so a belief cannot depend on what the seat did not see. The support
(the non-zero entries) is exact, so the true character of a place never has
probability 0.
"""

from __future__ import annotations

import numpy as np

SINKHORN_PASSES = 50
TOLERANCE = 1e-6


class PlaceBeliefs:
    """One (places x characters) probability matrix per seat."""

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
