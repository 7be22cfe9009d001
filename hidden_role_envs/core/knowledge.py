"""Exact per-seat beliefs over hidden cards that move between places.

The games hide a small multiset of cards (identity tokens, characters) in a
few places (the players, the centre). A seat's knowledge is the set of
deals (assignments of cards to places) consistent with everything it has
seen, with the chance each has under what it saw: the posterior, kept
exactly as one weight per deal and per seat. The tables of deals are small
(Secrets: at most 630; Mascarade with 7 cards: 5,040) and shared.

The vocabulary every game's knowledge uses, exact or not:

- `see(seats, place, kind)`: the seats saw that `place` holds `kind`: deals
  that disagree are ruled out;
- `see_not` / `see_one_of`: the place does not hold a kind / holds one of
  some kinds;
- `swap(seats, p, q)`: the seats saw the cards at p and q swapped: what they
  knew moves with the cards (the deals are permuted);
- `swap_one_of(seats, swaps)`: the seats know one of `swaps` happened, each
  as likely, and not which (a swap-or-not is "swap p and q, or swap
  nothing"): the weights are the average of the permuted ones;
- `marginals(seat)`: (places, kinds), P(place holds kind) for that seat, what
  observations encode.

Nothing here reads the true cards: callers feed it only the events a seat
saw, so a belief cannot depend on anything the seat did not see.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from hidden_role_envs.core.shared import Shared

# Up to this many (deal, place, kind) entries the marginals are one product with an indicator matrix;
# above it (Mascarade's 7 cards) that matrix would take megabytes, and a weighted count is used instead.
INDICATOR_ENTRIES = 1 << 17


class DealTable(Shared):
    """Every distinct deal of a multiset of cards to places: `deals[d, p]` is the kind at place p.

    Built once per multiset (`DealTable.of(counts)`: copies of each kind), shared and never changed.
    """

    def __init__(self, counts: tuple[int, ...]):
        self.counts = counts
        self.num_kinds = len(counts)
        self.num_places = sum(counts)
        self.deals = _arrangements(counts)
        codes = self._codes(self.deals)
        self._order = np.argsort(codes)
        self._sorted_codes = codes[self._order]
        places, kinds = self.num_places, self.num_kinds
        if len(self.deals) * places * kinds <= INDICATOR_ENTRIES:
            holds = np.stack([self.deals[:, p] == k for p in range(places) for k in range(kinds)])
            self.indicator = np.ascontiguousarray(holds.T, dtype=np.float64)  # (deals, places*kinds): marginals = weights @ indicator
            self._holding = holds.view(np.uint8)  # (places*kinds, deals): the same 0/1, a contiguous row each
            self.pairs = None
        else:
            self.indicator = self._holding = None
            self.pairs = (self.deals.astype(np.intp) + kinds * np.arange(places)).ravel()  # (deal, place) -> place*K+kind
        self._swaps: dict[tuple[int, int], np.ndarray] = {}
        self._agreements: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def _codes(self, deals: np.ndarray) -> np.ndarray:
        powers = self.num_kinds ** np.arange(self.num_places, dtype=np.int64)
        return deals.astype(np.int64) @ powers

    def swap_permutation(self, p: int, q: int) -> np.ndarray:
        """Index array `perm`: after swapping places p and q, new_weights = weights[perm]."""
        key = (min(p, q), max(p, q))
        perm = self._swaps.get(key)
        if perm is None:
            swapped = self.deals.copy()
            swapped[:, [p, q]] = swapped[:, [q, p]]
            perm = self._order[np.searchsorted(self._sorted_codes, self._codes(swapped))]
            perm.flags.writeable = False
            self._swaps[key] = perm
        return perm

    def holding(self, place: int, kind: int) -> np.ndarray:
        """(deals,) 0/1: the deals with `kind` at `place`; a contiguous row where the table has one, which
        multiplies the weights with the same products as the indicator's column, at half the cost."""
        if self._holding is not None:
            return self._holding[place * self.num_kinds + kind]
        return self.deals[:, place] == kind

    def agreement(self, anchor: int, kinds: tuple[int, ...]) -> np.ndarray:
        """(deals, places) 0/1: the place holds the anchor's kind, and that kind is one of `kinds`."""
        key = (anchor, kinds)
        table = self._agreements.get(key)
        if table is None:
            at_anchor = self.deals[:, [anchor]]
            table = ((self.deals == at_anchor) & np.isin(at_anchor, kinds)).astype(np.float64)
            self._agreements[key] = table
        return table

    def marginals(self, weights: np.ndarray) -> np.ndarray:
        """(places, kinds) probabilities under `weights` (one per deal, any positive scale)."""
        if self.indicator is not None:
            flat = weights @ self.indicator
        else:
            flat = np.bincount(self.pairs, weights=np.repeat(weights, self.num_places), minlength=self.num_places * self.num_kinds)
        flat /= weights.sum()
        return flat.clip(0.0, 1.0, out=flat).reshape(self.num_places, self.num_kinds)  # rounding must not leave [0, 1]


def _arrangements(counts: tuple[int, ...]) -> np.ndarray:
    rows: list[list[int]] = []

    def place(kind: int, free: list[int], row: list[int]) -> None:
        if kind == len(counts) - 1:
            for p in free:
                row[p] = kind
            rows.append(row.copy())
            return
        for chosen in combinations(free, counts[kind]):
            for p in chosen:
                row[p] = kind
            rest = [p for p in free if p not in chosen]
            place(kind + 1, rest, row)

    total = sum(counts)
    place(0, list(range(total)), [0] * total)
    return np.array(rows, dtype=np.int8)


class DealBeliefs:
    """One exact posterior per seat over the deals of a `DealTable`.

    Summaries (marginals, same-kind probabilities) are computed when asked:
    the observers that read them every step keep their own copy, stale
    until the seat's posterior changes. A handful of seats and a
    few hundred weights make NumPy's per-call cost, not the arithmetic, the
    price, so a sighting that every seat saw, and a swap seen by most seats
    (the rows of those that did not see it are put back), are made on every
    row at once; the others row by row. The numbers are the same either way.
    (A sighting seen by some seats only stays row by row: on the whole
    matrix it could divide by zero in the rows of seats that saw otherwise.)
    """

    def __init__(self, table: DealTable, num_seats: int):
        self.table = table
        self.weights = np.ones((num_seats, len(table.deals)))
        self._left_out: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _unaware(self, seats: tuple[int, ...]) -> tuple[int, ...]:
        """The seats that did not see an update."""
        left_out = self._left_out.get(seats)
        if left_out is None:
            left_out = self._left_out[seats] = tuple(r for r in range(len(self.weights)) if r not in seats)
        return left_out

    def _keep(self, seats, kept: np.ndarray, what: str) -> None:
        seats = tuple(seats)
        if self._unaware(seats):
            for r in seats:
                updated = self.weights[r] * kept
                total = updated.sum()
                if not total > 0:
                    raise ValueError(f"{what} contradicts what seat {r} saw")
                np.divide(updated, total, out=self.weights[r])
        else:
            updated = self.weights * kept
            totals = updated.sum(axis=1, keepdims=True)
            if not totals.min() > 0:
                raise ValueError(f"{what} contradicts what seat {int(np.argmin(totals))} saw")
            np.divide(updated, totals, out=self.weights)

    def see(self, seats, place: int, kind: int) -> None:
        self._keep(seats, self.table.holding(place, kind), f"place {place} holding kind {kind}")

    def see_not(self, seats, place: int, kind: int) -> None:
        self._keep(seats, self.table.deals[:, place] != kind, f"place {place} not holding kind {kind}")

    def see_one_of(self, seats, place: int, kinds) -> None:
        kept = np.isin(self.table.deals[:, place], list(kinds))
        self._keep(seats, kept, f"place {place} holding one of kinds {sorted(kinds)}")

    def swap(self, seats, p: int, q: int) -> None:
        perm = self.table.swap_permutation(p, q)
        for r in seats:
            self.weights[r] = self.weights[r][perm]

    def swap_one_of(self, seats, swaps) -> None:
        """One of `swaps` happened, each as likely; a swap (p, p) stands for "no swap".

        The new weights are the average of the permuted ones, summed into the old rows in place.
        """
        seats = tuple(seats)
        perms = [self.table.swap_permutation(p, q) for p, q in swaps if p != q]
        stays = len(swaps) - len(perms)  # the "no swap" alternatives, which leave the weights where they are
        unaware = self._unaware(seats)
        if len(unaware) < len(seats):
            kept_back = [self.weights[r].copy() for r in unaware]
            self._average(self.weights, [self.weights.take(perm, axis=1) for perm in perms], stays)
            for r, row in zip(unaware, kept_back):
                self.weights[r] = row
        else:
            for r in seats:
                self._average(self.weights[r], [self.weights[r][perm] for perm in perms], stays)

    @staticmethod
    def _average(weights: np.ndarray, moved: list[np.ndarray], stays: int) -> None:
        if stays != 1:
            weights *= stays
        for permuted in moved:
            weights += permuted
        alternatives = stays + len(moved)
        if alternatives == 2:  # a swap-or-not: halving by a multiply gives the same bits as a division, faster
            weights *= 0.5
        else:
            weights /= alternatives

    def marginals(self, seat: int) -> np.ndarray:
        """(places, kinds) probabilities for one seat."""
        return self.table.marginals(self.weights[seat])

    def same_kind(self, seat: int, anchor: int, kinds: tuple[int, ...]) -> np.ndarray:
        """P(each place holds the same kind as place `anchor`, that kind being one of `kinds`).

        With teams as kinds, this is "is that seat on my team?", which the
        marginals alone cannot tell: it needs the joint posterior.
        """
        w = self.weights[seat]
        same = w @ self.table.agreement(anchor, kinds)
        same /= w.sum()
        return same.clip(0.0, 1.0, out=same)
