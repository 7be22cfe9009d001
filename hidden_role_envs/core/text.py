"""Words for the text render: seats as a viewer names them, and beliefs in words.

The text of an event is what that event tells its viewer, from the
viewer's side of the table: `you` for the viewer itself, `player_k` for the
others. Each game extends `Words` with its own phrases (card places, the
centre token...), and its event kinds use them.
"""

from __future__ import annotations

from collections.abc import Sequence

from hidden_role_envs.core.seats import NOBODY, agent_name


class Words:
    """Phrases as `viewer` says them; `vocab` holds the game's names by kind (characters, resources, ...)."""

    def __init__(self, viewer: int, vocab: dict[str, Sequence[str]]):
        self.viewer = viewer
        self.vocab = vocab

    def seat(self, seat: int) -> str:
        if seat == NOBODY:
            return "nobody"
        return "you" if seat == self.viewer else agent_name(seat)

    def seats(self, seats: Sequence[int]) -> str:
        return " and ".join(self.seat(s) for s in seats) or "nobody"

    def does(self, seat: int, verb: str) -> str:
        """`you take` or `player_2 takes` (`apply`: `applies`)."""
        if seat == self.viewer:
            return f"you {verb}"
        third_person = verb[:-1] + "ies" if verb.endswith("y") and verb[-2:-1] not in "aeiou" else verb + "s"
        return f"{agent_name(seat)} {third_person}"

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.viewer else f"{agent_name(seat)}'s"

    def name(self, kind: str, index: int) -> str:
        return self.vocab[kind][index]

    def names(self, kind: str, indices) -> str:
        return ", ".join(self.vocab[kind][i] for i in indices)


def belief_text(probs: Sequence[float], names: Sequence[str], most: int | None = None) -> str:
    """One place's probabilities in words: the name alone when certain, else each possible name with its chance."""
    ranked = sorted(range(len(names)), key=lambda i: -probs[i])
    if probs[ranked[0]] > 0.999:
        return names[ranked[0]]
    shown = [i for i in ranked if probs[i] > 0.005][:most]
    return ", ".join(f"{names[i]} {probs[i]:.0%}" for i in shown)
