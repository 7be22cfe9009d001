"""Seats: numbers 0..n-1 in turn order, and how each seat sees the others.

Engines speak of seats only. The adapter names seat s `player_s`
(`agent_name`); observations and actions name a seat relative to the seat
that observes or acts: 0 is itself, k the seat k places to its left (the
k-th next in turn order), so one observation entry or action id means the
same thing from every seat.
"""

from __future__ import annotations

from functools import cache

import numpy as np

NOBODY = -1  # "no seat": no target yet, the game is over, a token in the centre


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class Seating:
    """Seat arithmetic of one table size, worked out once and shared (see `seating`)."""

    def __init__(self, num_players: int):
        n = num_players
        self.num_players = n
        self.everyone = tuple(range(n))
        # others[s]: every seat but s, in seat order (the audience of what s alone does not see)
        self.others = tuple(tuple(o for o in range(n) if o != s) for s in range(n))
        # after[s]: every seat but s, in turn order from s's left
        self.after = tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n))
        # rotation[o, k]: the seat k places to the left of observer o (row o lists the seats as o sees them)
        self.rotation = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
        self.rotation.flags.writeable = False
        # relative[o][s]: how observer o names seat s; a list of lists for fast single reads
        self.relative = [[(s - o) % n for s in range(n)] for o in range(n)]
        self.relative_array = np.array(self.relative, dtype=np.intp)
        self.relative_array.flags.writeable = False

    def offset(self, seat: int, k: int) -> int:
        """The seat k places to the left of `seat`."""
        return (seat + k) % self.num_players

    def rotate(self, values, observer: int) -> list:
        """Per-seat `values` in `observer`'s order: its own first, then its left neighbour's, ..."""
        values = list(values)
        return values[observer:] + values[:observer]


@cache
def seating(num_players: int) -> Seating:
    return Seating(num_players)
