"""How a game plugs into the shared adapter."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from hidden_role_envs.core.game import Event, RulesEngine
from hidden_role_envs.core.observation import ObservationLayout


class ActionTable:
    """Action ids and their human-readable names, exact inverses of each other."""

    def __init__(self, names: list[str]):
        if len(set(names)) != len(names):
            raise ValueError("action names must be unique")
        self.names = tuple(names)
        self.ids = {name: i for i, name in enumerate(names)}

    def __len__(self) -> int:
        return len(self.names)

    def to_string(self, action: int) -> str:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action must be an integer id, got {action!r}")
        if not 0 <= action < len(self.names):
            raise ValueError(f"action {action} is out of range 0..{len(self.names) - 1}")
        return self.names[action]

    def from_string(self, name: str) -> int:
        action = self.ids.get(name)
        if action is None:
            raise ValueError(f"unknown action {name!r}; actions look like {self.names[0]!r} or {self.names[-1]!r}")
        return action


class Observer(ABC):
    """Each seat's knowledge, built only from the public table and the events it saw.

    It keeps one observation buffer per seat, with a view per named block, so
    encoding writes in place instead of building a new vector every step.
    """

    def __init__(self, layout: ObservationLayout, num_seats: int):
        self.layout = layout
        self._buffers = np.zeros((num_seats, layout.size), dtype=np.float32)
        self._views = [layout.views(row) for row in self._buffers]

    # Views do not survive copying (a copied view is a separate array), so rebuild them.
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_views"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views = [self.layout.views(row) for row in self._buffers]

    @abstractmethod
    def reset(self, table: Any, events: list[Event]) -> None: ...

    @abstractmethod
    def update(self, events: list[Event]) -> None: ...

    @abstractmethod
    def encode(self, seat: int) -> np.ndarray:
        """The seat's observation vector (a buffer the observer reuses: copy to keep)."""

    @abstractmethod
    def describe(self, seat: int) -> str:
        """The seat's private view in words, for the text render."""


class GameDefinition(ABC):
    """Everything the adapter needs to know about one game."""

    name: str  # "secrets"
    version: int
    min_players: int
    max_players: int
    default_players: int
    reward_modes: tuple[str, ...] = ("win",)

    @abstractmethod
    def configure(self, num_players: int, **options: Any) -> Any:
        """Validate the game's own constructor arguments; raise ValueError naming the bad one."""

    @abstractmethod
    def action_table(self, config: Any) -> ActionTable: ...

    @abstractmethod
    def new_game(self, config: Any, rng: np.random.Generator, setup: dict | None) -> RulesEngine: ...

    @abstractmethod
    def new_observer(self, config: Any) -> Observer: ...

    @abstractmethod
    def describe_table(self, engine: RulesEngine) -> str:
        """The public table in words (nothing hidden)."""

    @abstractmethod
    def describe_event(self, event: Event, viewer: int, engine: RulesEngine) -> str | None:
        """One event as `viewer` saw it, or None if it is not worth a line.

        `engine` gives the configuration (names of cards, places, ...); the
        text must say only what the event tells `viewer`.
        """
