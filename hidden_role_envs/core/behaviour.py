"""How a seat played, beside whether it won: its claims, its bluffs and its challenges.

A win rate says how well a policy does, not how: two policies that win as
often may get there one by honest claims, the other by bluffing and
calling every bluff. These counts tell them apart: how often a policy claims
falsely (bluffs) and how often its false claims are caught, how often it
challenges another's claim and how often it is right to. Each game's
`behaviour.tally` says what a claim and a challenge are in that game and
counts them, per seat, from the whole record of an episode (hidden events
included: the truth of a claim is there).
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Behaviour:
    """A seat's counts over one game, or a policy's over many (`+` adds them; `Behaviour()` counts nothing)."""

    claims: int = 0
    false_claims: int = 0  # claims that were not true when made: bluffs
    false_claims_caught: int = 0  # bluffs that failed (what failing is, each game says)
    challenges: int = 0
    challenges_right: int = 0  # challenges of a claim that was false

    def __add__(self, other: Behaviour) -> Behaviour:
        return Behaviour(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def false_claim_share(self) -> float | None:
        return _share(self.false_claims, self.claims)

    @property
    def caught_share(self) -> float | None:
        """The share of false claims that were caught."""
        return _share(self.false_claims_caught, self.false_claims)

    @property
    def right_share(self) -> float | None:
        """The share of challenges that were right."""
        return _share(self.challenges_right, self.challenges)

    def counts(self) -> tuple[int, ...]:
        """The five counts, in the order above."""
        return tuple(getattr(self, f.name) for f in fields(self))


class Tally:
    """The counts of every seat while a game's tally reads the events of an episode."""

    def __init__(self, num_players: int):
        self._seats = [Behaviour()] * num_players

    def claim(self, seat: int, false: bool) -> None:
        self._seats[seat] += Behaviour(claims=1, false_claims=int(false))

    def caught(self, seat: int, false_claims: int = 1) -> None:
        """That many of the seat's false claims were caught."""
        self._seats[seat] += Behaviour(false_claims_caught=false_claims)

    def challenge(self, seat: int, right: bool) -> None:
        self._seats[seat] += Behaviour(challenges=1, challenges_right=int(right))

    def seats(self) -> list[Behaviour]:
        return list(self._seats)


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None
