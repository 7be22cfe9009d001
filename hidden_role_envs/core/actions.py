"""Action ids, their names and their meanings.

Every game numbers its actions once per configuration and names each one
(`offer +2 as Scientist`); `action_to_string` and `string_to_action` are
exact inverses. Each action has a `kind` (what it does: offer, claim,
vote...) and `args` (its choices), which the rules read as
`table.kind[a]`, `table.args[a]`, and dispatch on by kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from hidden_role_envs.core.checks import is_int
from hidden_role_envs.core.shared import Shared, frozen_mask


class Action(NamedTuple):
    name: str
    kind: int
    args: Any = None


class ActionTable(Shared):
    """The actions of one configuration. Subclasses build their list in `actions(*key)`."""

    def __init__(self, *key: Any):
        actions = list(self.actions(*key))
        names = [action.name for action in actions]
        if len(set(names)) != len(names):
            raise ValueError("action names must be unique")
        self.names = tuple(names)
        self.ids = {name: i for i, name in enumerate(names)}
        self.kind = tuple(action.kind for action in actions)
        self.args = tuple(action.args for action in actions)
        self.meaning = tuple(zip(self.kind, self.args))
        of_kind: dict[int, list[int]] = {}
        for action, kind in enumerate(self.kind):
            of_kind.setdefault(kind, []).append(action)
        self.of_kind = {kind: tuple(ids) for kind, ids in of_kind.items()}

    def actions(self, *key: Any) -> Iterable[Action]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.names)

    def id_of(self, kind: int, args: Any = None) -> int:
        """The id of the action of `kind` with these `args`."""
        return self._by_meaning[kind, args]

    @property
    def _by_meaning(self) -> dict:
        table = self.__dict__.get("_meanings")
        if table is None:
            table = self.__dict__["_meanings"] = {meaning: a for a, meaning in enumerate(self.meaning)}
        return table

    def mask(self, ids: Iterable[int] = ()) -> np.ndarray:
        """A read-only mask over this table with `ids` legal."""
        return frozen_mask(len(self), ids)

    def mask_of_kinds(self, *kinds: int) -> np.ndarray:
        return self.mask([a for kind in kinds for a in self.of_kind.get(kind, ())])

    def to_string(self, action: Any) -> str:
        if not is_int(action):
            raise TypeError(f"action must be an integer id; got {type(action).__name__} {action!r}")
        if not 0 <= action < len(self.names):
            raise ValueError(f"action {action} is out of range 0..{len(self.names) - 1}")
        return self.names[action]

    def from_string(self, name: Any) -> int:
        if not isinstance(name, str):
            raise TypeError(f"an action name must be a string; got {type(name).__name__} {name!r}")
        action = self.ids.get(name)
        if action is None:
            raise ValueError(f"unknown action {name!r}; actions look like {self.names[0]!r} or {self.names[-1]!r}")
        return action
