"""Observations: one float32 vector per seat, made of named blocks.

A game declares its blocks once, as a `Schema`: each `Block` has a name, a
shape whose entries may name the configuration's dimensions (`("n", 8)`,
`("n+1", 3)`), bounds, a one-line doc, a group (what kind of fact it holds)
and the axes that list seats (`rotate`). The schema gives each
configuration its `Layout` (the slices of `observation_fields`, the Box
bounds) and the game's docs their observation table, so the blocks are
written down in one place.

Every observer follows one pattern. It keeps what the seats know in one
state, in ABSOLUTE seat order: each public block once, each private block
(groups `own`, `belief`, `history`) once per seat. It writes the state at
three moments:

- at event time, its handlers (a `ByKind` table) write what an event tells
  the seats that saw it, into `known[name]` (a private block has a leading
  axis of seats: `known[name][seat]`); a public block, which every seat
  reads, is written only from facts every seat knows;
- after the events of a step, `after_update` writes what is read off the
  public table (the decision in progress), once for every seat;
- at encode time, `refresh(seat)` writes what is worth computing only for
  the seat encoded (its beliefs, when they changed).

A seat's observation is then one gather of the state (`Layout.gather`),
built once per configuration from the blocks' `rotate` axes: its own
private blocks, and every seat axis turned to its own order (row 0 itself,
row k the seat k places to its left). So handlers never rotate anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from math import prod
from typing import Any

import numpy as np
from gymnasium import spaces

from hidden_role_envs.core.events import ByKind

# What a block holds, for the docs and for users who pick blocks.
GROUPS = {
    "table": "the public table now",
    "turn": "the decision in progress",
    "own": "what only this seat holds or saw",
    "record": "the public record of the game so far",
    "belief": "a probability, computed from what this seat saw (see Knowledge)",
    "history": "the last events this seat saw",
}

Dim = int | str


def _resolve(value: Dim | float, dims: Mapping[str, int]) -> Any:
    if isinstance(value, str):
        return eval(value, {"__builtins__": {}}, dict(dims))  # a formula of the dims: "n+1", "4*rounds"
    return value


PRIVATE_GROUPS = ("own", "belief", "history")


@dataclass(frozen=True)
class Block:
    name: str
    shape: tuple[Dim, ...]
    low: float | str
    high: float | str
    doc: str
    group: str = "table"
    # axes whose entries are seats, in seat order (then, on that axis, anything else: the centre);
    # an axis may give how many entries each seat has there: {axis: entries per seat}
    rotate: tuple[int, ...] | dict = ()

    def __post_init__(self):
        if self.group not in GROUPS:
            raise ValueError(f"block {self.name}: unknown group {self.group!r}")
        if not isinstance(self.rotate, dict):
            object.__setattr__(self, "rotate", {axis: 1 for axis in self.rotate})

    @property
    def private(self) -> bool:
        """One copy per seat (what that seat alone knows), rather than one for the table."""
        return self.group in PRIVATE_GROUPS

    def resolved(self, dims: Mapping[str, int]) -> Block:
        return replace(
            self,
            shape=tuple(int(_resolve(d, dims)) for d in self.shape),
            low=float(_resolve(self.low, dims)),
            high=float(_resolve(self.high, dims)),
            rotate={axis: int(_resolve(per, dims)) for axis, per in self.rotate.items()},
        )

    @property
    def shape_text(self) -> str:
        shape = ", ".join(str(d).replace("+", " + ") if "+" in str(d) else str(d) for d in self.shape)
        return f"({shape},)" if len(self.shape) == 1 else f"({shape})"


class Schema:
    """The ordered blocks of a game's observation, for every configuration."""

    def __init__(self, blocks: Iterable[Block]):
        self._layouts: dict = {}
        self.blocks = tuple(blocks)
        names = [b.name for b in self.blocks]
        duplicates = {name for name in names if names.count(name) > 1}
        if duplicates:
            raise ValueError(f"duplicate observation block(s) {sorted(duplicates)}")

    def layout(self, dims: Mapping[str, int], skip: Iterable[str] = ()) -> Layout:
        """The layout of one configuration (`dims["n"]` seats); blocks named in `skip` are left out."""
        key = (tuple(sorted(dims.items())), frozenset(skip))
        layout = self._layouts.get(key)
        if layout is None:  # one per configuration, shared by its observers (and their gather table)
            layout = self._layouts[key] = Layout([b.resolved(dims) for b in self.blocks if b.name not in skip], dims["n"])
        return layout

    def table(self) -> str:
        """The docs' observation table: one row per block."""
        rows = ["| block | shape | group | meaning |", "|---|---|---|---|"]
        rows += [f"| `{b.name}` | {b.shape_text} | {b.group} | {b.doc} |" for b in self.blocks]
        return "\n".join(rows)


def _gather(layout: Layout, compact: bool) -> np.ndarray:
    """gather[seat]: where each entry of the seat's observation lies in the state (with every seat's private
    blocks), or in a compact state that holds only that seat's (`compact`, the batched engine's)."""
    n = layout.num_seats
    gather = np.empty((n, layout.size), dtype=np.intp)
    fields = layout.compact_fields if compact else layout.state_fields
    for block in layout.blocks:
        base = fields[block.name].start
        size = prod(block.shape)
        for seat in range(n):
            own = seat * size if block.private and not compact else 0
            index = np.arange(size).reshape(block.shape) + base + own
            for axis, per in block.rotate.items():
                seats = [(seat + k) % n for k in range(n)]
                order = [s * per + j for s in seats for j in range(per)]
                order += list(range(n * per, block.shape[axis]))
                index = index.take(order, axis=axis)
            gather[seat, layout.fields[block.name]] = index.ravel()
    gather.flags.writeable = False
    return gather


class Layout:
    """The blocks of one configuration, tiling one vector; and the observers' state behind it."""

    def __init__(self, blocks: list[Block], num_seats: int):
        self.blocks = blocks
        self.num_seats = num_seats
        self.fields: dict[str, slice] = {}  # where each block lies in an observation
        self.state_fields: dict[str, slice] = {}  # where it lies in the observers' state (private: n copies)
        self.shapes: dict[str, tuple[int, ...]] = {}
        start = state = 0
        for block in blocks:
            size = prod(block.shape)
            self.fields[block.name] = slice(start, start + size)
            copies = num_seats if block.private else 1
            self.state_fields[block.name] = slice(state, state + copies * size)
            self.shapes[block.name] = block.shape
            start += size
            state += copies * size
        self.size = start
        self.state_size = state
        self.groups = {b.name: b.group for b in blocks}
        self.low = np.concatenate([np.full(prod(b.shape), b.low, np.float32) for b in blocks])
        self.high = np.concatenate([np.full(prod(b.shape), b.high, np.float32) for b in blocks])

    def __deepcopy__(self, memo: dict) -> Layout:
        return self  # never changed once built: copies of a game share it

    @cached_property
    def box(self) -> spaces.Box:
        """The observation space (built once: a Box costs milliseconds, and envs of a configuration share it)."""
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Each block of an observation `vector` as a view in its own shape (writes go through)."""
        return {name: vector[where].reshape(self.shapes[name]) for name, where in self.fields.items()}

    def state_views(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Each block of the observers' `state` in its shape, private ones with a leading axis of seats."""
        views = {}
        for block in self.blocks:
            shape = (self.num_seats, *block.shape) if block.private else block.shape
            views[block.name] = state[self.state_fields[block.name]].reshape(shape)
        return views

    @cached_property
    def gather(self) -> np.ndarray:
        """gather[seat]: where each entry of that seat's observation lies in the state (shared, read-only)."""
        return _gather(self, compact=False)

    @cached_property
    def compact_fields(self) -> dict[str, slice]:
        """Where each block lies in a state that holds one seat's private blocks only (the blocks' own order)."""
        fields, start = {}, 0
        for block in self.blocks:
            size = prod(block.shape)
            fields[block.name] = slice(start, start + size)
            start += size
        return fields

    @cached_property
    def compact_gather(self) -> np.ndarray:
        """gather[seat] into the compact state of that seat: the batched engine builds that state, then gathers."""
        return _gather(self, compact=True)

    def entries(self, names) -> np.ndarray:
        """Where every entry of the named PUBLIC blocks lies in the state, to clear them with one assignment."""
        return np.concatenate([np.arange(self.state_fields[n].start, self.state_fields[n].stop) for n in names])

    @property
    def at(self) -> dict[str, int]:
        """Where each block starts in the state: entry k of a public one-hot is `at[name] + k`."""
        return {name: where.start for name, where in self.state_fields.items()}




class Observer:
    """Each seat's knowledge, built only from the public table and the events it saw.

    Subclasses set `self.on`, a `ByKind` table of handlers, and write
    `start` (a new game), and as needed `after_update`, `refresh` and
    `describe` (see the module docs).
    """

    on: ByKind

    def __init__(self, layout: Layout):
        self.layout = layout
        self.num_seats = layout.num_seats
        self.state = np.zeros(layout.state_size, dtype=np.float32)
        self.gather = layout.gather
        self.known = layout.state_views(self.state)
        self.table: Any = None

    # Views do not survive copying (a copied view is a separate array), so they are made again.
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["known"], state["gather"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.known = self.layout.state_views(self.state)
        self.gather = self.layout.gather

    def reset(self, table: Any, events: list) -> None:
        self.table = table
        self.state.fill(0)
        self.start()
        self.update(events)

    def update(self, events: list) -> None:
        on = self.on
        for event in events:
            handler = on[type(event)]
            if handler is not None:
                handler(event)
        self.after_update()

    def encode(self, seat: int) -> np.ndarray:
        """The seat's observation: a new array, the caller's to keep."""
        self.refresh(seat)
        return self.state[self.gather[seat]]

    def start(self) -> None:
        """A new game begins: set what the deal's events do not."""

    def after_update(self) -> None:
        """Write the public blocks read off the table, once the events of a step are in."""

    def refresh(self, seat: int) -> None:
        """Write the seat's blocks that are computed only when it is encoded."""

    def describe(self, seat: int) -> str:
        """The seat's private view in words, for the text render."""
        return ""
