"""What every rules engine offers the adapter, and the outcome of a game.

A rules engine is plain Python: state, the legal-action mask of the seat to
act, and `apply`. It knows nothing of PettingZoo or Gymnasium, and speaks of
seats, never of agent names: where an outcome names seats (winners, every
seat's identity), it marks them (`PerSeat`, `SeatList`, `SeatText`) and
the adapter names them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hidden_role_envs.core.seats import NOBODY, agent_name


class PerSeat(tuple):
    """One value per seat, shown to users as {agent: value}."""


class SeatList(tuple):
    """Seats, shown to users as a list of agent names."""


class SeatRef(int):
    """A seat, shown to users as its agent name (NOBODY as None)."""


@dataclass(frozen=True)
class SeatText:
    """A sentence naming seats: `template` has `{0}`, `{1}`, ... where `seats` go, or `{all}` for all of them."""

    template: str
    seats: tuple[int, ...] = ()


def named(value: Any) -> Any:
    """`value` with every marked seat replaced by its agent name, through dicts, lists and tuples."""
    rename = _RENAME.get(type(value))  # by exact type: a plain leaf (str, int, float) is one lookup
    return value if rename is None else rename(value)


def _named_each(values) -> list:
    """`named` of each value, its lookup inlined: an outcome has many leaves, most of them plain."""
    find = _RENAME.get
    return [value if (rename := find(type(value))) is None else rename(value) for value in values]


def _text(value: SeatText) -> str:
    names = [agent_name(s) for s in value.seats]
    return value.template.format(*names, all=" and ".join(names))


_RENAME: dict[type, Callable[[Any], Any]] = {
    PerSeat: lambda value: dict(zip(map(agent_name, range(len(value))), _named_each(value))),
    SeatList: lambda value: [agent_name(s) for s in value],
    SeatRef: lambda value: None if value == NOBODY else agent_name(value),
    SeatText: _text,
    dict: lambda value: dict(zip(value, _named_each(value.values()))),
    list: _named_each,
    tuple: lambda value: tuple(_named_each(value)),
}


@dataclass
class Outcome:
    """The end of a game, told to everyone once it is over.

    `info` holds what the end reveals to every seat (marked seats are named
    by the adapter); `own` holds each seat's own facts, one `PerSeat` per
    key, which reach only that seat's info.
    """

    winners: tuple[int, ...]
    rewards: tuple[float, ...]
    info: dict[str, Any] = field(default_factory=dict)
    own: dict[str, PerSeat] = field(default_factory=dict)


class RulesEngine(ABC):
    """One game in progress. Subclasses hold their own state and rules.

    By convention the public `table` has `to_act` (the seat asked to decide)
    and `turn` (turns completed), and the engine sets `over` when the game
    ends; the three properties below read them, and an engine that counts
    differently overrides them. Likewise `apply` plays an action by the rule
    of its kind: `actions.kind` and `actions.args` per action id, `RULES`
    a table of the class from a kind to its rule.
    """

    num_players: int
    table: Any  # the public state: everything on it is seen by everyone
    over: bool = False

    @abstractmethod
    def start(self) -> list:
        """Deal and begin; return the opening events (early looks, first draw)."""

    @property
    def current_player(self) -> int:
        """The seat whose decision is asked, or NOBODY once the game is over."""
        return NOBODY if self.over else self.table.to_act

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def turns_played(self) -> int:
        """Completed turns, the unit of the `max_turns` truncation."""
        return self.table.turn

    def _ask(self, decision: int, seat: int) -> None:
        """Ask `seat` to decide: an engine whose table names the decision asked (`decision`) moves on with this."""
        self.table.decision = decision
        self.table.to_act = seat

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """int8 mask over all action ids for `current_player` (a shared buffer: do not keep it)."""

    @abstractmethod
    def illegal_reason(self, action: int) -> str:
        """Why `action` is not legal now, in words for an error message."""

    RULES: dict[int, Callable]  # by convention: an action's kind -> its rule, rule(engine, actor, args, events)

    def apply(self, action: int) -> list:
        """Play a legal action for `current_player` by the rule of its kind (`RULES`); return what happened."""
        events: list = []
        self.RULES[self.actions.kind[action]](self, self.table.to_act, self.actions.args[action], events)
        return events

    @abstractmethod
    def outcome(self, reward_mode: str) -> Outcome:
        """Winners, final rewards and the revealed facts, once `is_over`.

        Final rewards go to the seats still playing; a seat eliminated
        earlier got its reward through `pop_rewards` when it went out.
        """

    @abstractmethod
    def reveal(self) -> Outcome:
        """What the end of a game shows everyone (identities, cards, coins, scores), now, without winners.

        The adapter tells it to every seat when the turn limit stops a game,
        as the end of a game does; `outcome` adds the winners and rewards.
        """

    def pop_rewards(self) -> dict[int, float]:
        """Rewards earned during the last `apply` before the end (e.g. per round); cleared on reading."""
        return {}

    def pop_told(self) -> dict:
        """Facts the last `apply` (or `start`) told every seat, for their infos (e.g. a finished round); each key
        stays in every seat's info until a later step tells it anew. Cleared on reading; marked seats are named."""
        return {}

    def pop_eliminated(self) -> list[int]:
        """Seats knocked out during the last `apply`; their episodes end there. Cleared on reading."""
        return []

