"""What every rules engine offers the adapter, and the events it emits.

A rules engine is plain Python: state, the legal-action mask of the seat to
act, and `apply`. It knows nothing of PettingZoo or Gymnasium. Every change
of state that someone could see is emitted as an `Event` naming the seats
that see it; each game's observer builds a seat's knowledge from the events
that seat saw and nothing else.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np


class Event(NamedTuple):
    """Something that happened, and who saw it.

    `kind` names what happened, `seen_by` lists the seats that saw it and
    `data` carries the details those seats learned.
    """

    kind: str
    seen_by: tuple[int, ...]
    data: tuple = ()


# `new_event((kind, seen_by, data))` builds the same Event as `Event(kind, seen_by, data)`
# without NamedTuple's Python-level constructor, a third cheaper: for engines that emit
# several events every step.
new_event = partial(tuple.__new__, Event)


@dataclass
class Outcome:
    """The end of a game, told to everyone once it is over."""

    winners: tuple[int, ...]
    rewards: tuple[float, ...]
    info: dict[str, Any] = field(default_factory=dict)
    per_seat_info: tuple[dict[str, Any], ...] = ()


class RulesEngine(ABC):
    """One game in progress. Subclasses hold their own state and rules.

    By convention the public `table` has `to_act` (the seat asked to decide)
    and `turn` (turns completed), and the engine sets `over` when the game
    ends; the three properties below read them, and an engine that counts
    differently overrides them.
    """

    num_players: int
    table: Any  # the public state: everything on it is seen by everyone
    over: bool = False

    @abstractmethod
    def start(self) -> list[Event]:
        """Deal and begin; return the opening events (early looks, first draw)."""

    @property
    def current_player(self) -> int:
        """The seat whose decision is asked, or -1 once the game is over."""
        return -1 if self.over else self.table.to_act

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def turns_played(self) -> int:
        """Completed turns, the unit of the `max_turns` truncation."""
        return self.table.turn

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """int8 mask over all action ids for `current_player` (a shared buffer: do not keep it)."""

    @abstractmethod
    def illegal_reason(self, action: int) -> str:
        """Why `action` is not legal now, in words for an error message."""

    @abstractmethod
    def apply(self, action: int) -> list[Event]:
        """Play a legal action for `current_player`; return what happened."""

    @abstractmethod
    def outcome(self, reward_mode: str) -> Outcome:
        """Winners, final rewards and the revealed facts, once `is_over`.

        Final rewards go to the seats still playing; a seat eliminated
        earlier got its reward through `pop_rewards` when it went out.
        """

    def pop_rewards(self) -> dict[int, float]:
        """Rewards earned during the last `apply` before the end (e.g. per round); cleared on reading."""
        return {}

    def pop_eliminated(self) -> list[int]:
        """Seats knocked out during the last `apply`; their episodes end there. Cleared on reading."""
        return []


def relative_order(num_players: int) -> np.ndarray:
    """rotations[s] lists the seats as seat s sees them: itself, its left neighbour, ..."""
    return (np.arange(num_players)[:, None] + np.arange(num_players)[None, :]) % num_players
