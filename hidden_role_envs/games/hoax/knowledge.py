"""Exact beliefs about who holds which character, one per observing seat.

The characters are unique: a deal is an injective assignment of the 7
characters to the n seats (the rest unused), at most 7*6*5*4*3*2 = 5040 of
them. Every deal is equally likely before anything is seen, and every fact
a seat can see either keeps a deal or rules it out:

- its own character card: `see`;
- an investigation: the target's own suspicion card plus three drawn at
  random from the six others. Whatever the deal, each set of four holding
  the target's card is shown with the same chance (1 in 20), so seeing a
  set only rules out the deals where the target's character is not in it:
  `see_one_of`;
- an impostor token: the claim was false, the seat is not that character:
  `see_not`;
- its own accusation (only the accuser and the target see the character
  named): right, the target is that character (`see`); wrong, it is not
  (`see_not`); a claim a vote found true: `see`.

So the exact posterior is uniform over the deals still consistent, and it
is fully described by one set of ruled-out characters per seat. The
marginal P(seat s holds character c), `marginals(seat)`, is the share of
consistent deals with s -> c, counted over every deal (bit masks and a
bincount, tens of microseconds at 6 players) whenever what the seat knows
changes. Renaming the seats only permutes the answer, so the count is made
for the seats in a canonical order (sorted by what is ruled out) and
remembered for the last 1024 distinct cases, which seats and games share.
Nothing else is taken as evidence (claims and votes are choices of
players, not facts). Characters never move, so there is no `swap`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, permutations
from math import prod

import numpy as np

from hidden_role_envs.core.shared import Shared


class InjectiveDeals(Shared):
    """Every injective assignment of characters to seats, as bit codes, for fast counting.

    `InjectiveDeals.of(seats, characters)`. Pair (seat s, character c) is
    number s*m + c and bit s*m + c. `pairs[d]` lists the n pairs of deal d
    and `codes[d]` sets their bits. Shared and never modified.
    """

    def __init__(self, num_seats: int, num_characters: int):
        n, m = num_seats, num_characters
        assert n * m < 63, "the bit codes must fit in an int64"
        count = prod(range(m - n + 1, m + 1))
        deals = np.fromiter(chain.from_iterable(permutations(range(m), n)), dtype=np.int8, count=count * n)
        self.pairs = deals.reshape(count, n) + (m * np.arange(n)).astype(np.int8)  # (D, n)
        self.codes = np.zeros(count, dtype=np.int64)
        for s in range(n):
            self.codes |= np.int64(1) << self.pairs[:, s].astype(np.int64)


@lru_cache(maxsize=1024)
def _count(num_characters: int, ruled_out: tuple[int, ...]) -> np.ndarray | None:
    """(seats, characters) marginals given each seat's bit mask of ruled-out characters; None if no deal is left."""
    n, m = len(ruled_out), num_characters
    table = InjectiveDeals.of(n, m)
    code = sum(row << (s * m) for s, row in enumerate(ruled_out))
    consistent = (table.codes & code) == 0
    total = np.count_nonzero(consistent)
    if total == 0:
        return None
    counts = np.bincount(table.pairs[consistent].ravel(), minlength=n * m)  # deals giving each character to each seat
    marginals = (counts.astype(np.float32) / np.float32(total)).reshape(n, m)
    marginals.flags.writeable = False
    return marginals


class CharacterBeliefs:
    """`ruled_out[o][s]`: bit c set when observer o has ruled out that seat s holds character c."""

    def __init__(self, num_seats: int, num_characters: int, num_observers: int):
        self.num_seats = num_seats
        self.num_characters = num_characters
        self._every_character = (1 << num_characters) - 1
        self.ruled_out = [[0] * num_seats for _ in range(num_observers)]
        self._marginals: list[np.ndarray | None] = [None] * num_observers  # None: to count again

    def see(self, seats, seat: int, character: int) -> None:
        """`seats` saw that `seat` holds `character`."""
        self._rule_out(seats, seat, self._every_character & ~(1 << character))

    def see_one_of(self, seats, seat: int, characters) -> None:
        """`seats` saw that `seat` holds one of `characters`."""
        kept = 0
        for character in characters:
            kept |= 1 << character
        self._rule_out(seats, seat, self._every_character & ~kept)

    def see_not(self, seats, seat: int, character: int) -> None:
        """`seats` saw that `seat` does not hold `character`."""
        self._rule_out(seats, seat, 1 << character)

    def _rule_out(self, seats, seat: int, characters: int) -> None:
        for o in seats:
            self.ruled_out[o][seat] |= characters
            self._marginals[o] = None

    def marginals(self, seat: int) -> np.ndarray:
        """(seats, characters) probabilities for one observing seat; a cached array, do not modify."""
        marginals = self._marginals[seat]
        if marginals is None:
            ruled_out = self.ruled_out[seat]
            order = sorted(range(self.num_seats), key=ruled_out.__getitem__)
            counted = _count(self.num_characters, tuple(ruled_out[s] for s in order))
            if counted is None:
                raise ValueError(f"what observer {seat} saw rules out every deal")
            marginals = np.empty(counted.shape)  # float64, as the counts' float32 values sum more exactly
            marginals[order] = counted
            self._marginals[seat] = marginals
        return marginals
