"""Exact per-seat beliefs over hidden tokens that move between places.

Games like Secrets hide a small multiset of tokens (identities) in a few
places (each player and the centre). A seat's knowledge is the set of
assignments of tokens to places consistent with everything it has seen. With
at most nine places and three kinds of token there are at most a few hundred
assignments, so the posterior is kept exactly: one weight per assignment and
per observer.

- a look ("place p holds kind k") keeps only the assignments that agree;
- a public swap of two places permutes the assignments;
- a swap the observer knows only as "one of these swaps" mixes the permuted
  weights, each alternative equally likely (the observer cannot see the
  choice, so it has no reason to prefer one).

The marginal probability of each kind at each place is what observations
encode. Nothing here reads the true tokens: callers feed it only the events
a seat saw, so a belief cannot leak what the seat did not see.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np


class AssignmentTable:
    """Every distinct way to lay a multiset of tokens on places (immutable, shared)."""

    def __init__(self, counts: tuple[int, ...]):
        self.counts = counts
        self.num_places = sum(counts)
        self.num_kinds = len(counts)
        self.assignments = _enumerate_assignments(counts)  # (A, places) int8
        codes = self._codes(self.assignments)
        self._order = np.argsort(codes)
        self._sorted_codes = codes[self._order]
        # holds[p, k] is a 0/1 vector over assignments: "place p holds kind k".
        self.holds = np.stack(
            [np.stack([(self.assignments[:, p] == k) for k in range(self.num_kinds)]) for p in range(self.num_places)]
        ).astype(np.float64)
        # marginals = weights @ indicator, reshaped to (places, kinds).
        self.indicator = self.holds.reshape(self.num_places * self.num_kinds, -1).T.copy()
        self._swap_cache: dict[tuple[int, int], np.ndarray] = {}
        self._agreement_cache: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def _codes(self, assignments: np.ndarray) -> np.ndarray:
        powers = self.num_kinds ** np.arange(self.num_places, dtype=np.int64)
        return assignments.astype(np.int64) @ powers

    def swap_permutation(self, p: int, q: int) -> np.ndarray:
        """Index array `perm` with new_weights = weights[perm] after swapping places p and q."""
        key = (min(p, q), max(p, q))
        perm = self._swap_cache.get(key)
        if perm is None:
            swapped = self.assignments.copy()
            swapped[:, [p, q]] = swapped[:, [q, p]]
            positions = np.searchsorted(self._sorted_codes, self._codes(swapped))
            perm = self._order[positions]
            self._swap_cache[key] = perm
        return perm

    def agreement(self, anchor: int, kinds: tuple[int, ...]) -> np.ndarray:
        """(assignments, places) 0/1: the place holds the anchor's kind, and that kind is in `kinds`."""
        key = (anchor, kinds)
        table = self._agreement_cache.get(key)
        if table is None:
            at_anchor = self.assignments[:, [anchor]]
            table = ((self.assignments == at_anchor) & np.isin(at_anchor, kinds)).astype(np.float64)
            self._agreement_cache[key] = table
        return table

    # The table is immutable and cached: copies share it.
    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (assignment_table, (self.counts,))


def _enumerate_assignments(counts: tuple[int, ...]) -> np.ndarray:
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


@lru_cache(maxsize=None)
def assignment_table(counts: tuple[int, ...]) -> AssignmentTable:
    return AssignmentTable(tuple(counts))


class TokenBeliefs:
    """One exact posterior per observer over the token assignments of a table.

    Summaries (marginals, same-kind probabilities) are computed when asked
    and kept until the observer's posterior changes.
    """

    def __init__(self, counts: tuple[int, ...], num_observers: int):
        self.table = assignment_table(tuple(counts))
        self.weights = np.ones((num_observers, len(self.table.assignments)))
        self._summaries: list[dict] = [{} for _ in range(num_observers)]

    # Each update works on one observer's row at a time: a handful of observers
    # and a few hundred weights make NumPy's per-call cost, not the arithmetic,
    # the price, and fancy-indexing several rows at once costs more than it saves.

    def see(self, observers, place: int, kind: int) -> None:
        """The observers saw that `place` holds `kind`."""
        holds = self.table.holds[place, kind]
        for r in observers:
            updated = self.weights[r] * holds
            total = updated.sum()
            if not total > 0:
                raise ValueError(f"place {place} holding kind {kind} contradicts what observer {r} saw")
            np.divide(updated, total, out=self.weights[r])
            self._summaries[r].clear()

    def swap(self, observers, p: int, q: int) -> None:
        """The observers saw the tokens at places p and q swapped."""
        perm = self.table.swap_permutation(p, q)
        for r in observers:
            self.weights[r] = self.weights[r][perm]
            self._summaries[r].clear()

    def swap_one_of(self, observers, swaps) -> None:
        """The observers know one of `swaps` happened, each equally likely, not which."""
        perms = [self.table.swap_permutation(p, q) for p, q in swaps]
        for r in observers:
            w = self.weights[r]
            w[:] = sum(w[perm] for perm in perms) / len(swaps)
            self._summaries[r].clear()

    def _summary(self, observer: int, key, matrix: np.ndarray) -> np.ndarray:
        cached = self._summaries[observer].get(key)
        if cached is None:
            w = self.weights[observer]
            cached = ((w @ matrix) / w.sum()).clip(0.0, 1.0)  # rounding must not leave [0, 1]
            self._summaries[observer][key] = cached
        return cached

    def same_kind(self, observer: int, anchor: int, kinds: tuple[int, ...]) -> np.ndarray:
        """P(each place holds the same kind as place `anchor`, that kind being one of `kinds`).

        With teams as kinds, this is "is that seat on my team?", which the
        marginals alone cannot tell: it needs the joint posterior.
        """
        return self._summary(observer, (anchor, kinds), self.table.agreement(anchor, kinds))

    def marginals(self, observer: int) -> np.ndarray:
        """(places, kinds) probabilities for one observer (read-only)."""
        flat = self._summary(observer, "marginals", self.table.indicator)
        return flat.reshape(self.table.num_places, self.table.num_kinds)
