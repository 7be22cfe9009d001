"""Observations: one float32 vector per seat, made of named blocks.

A game declares its blocks once, as a `Schema`: each `Block` has a name, a
shape whose entries may name the configuration's dimensions (`("n", 8)`,
`("n+1", 3)`), bounds, a one-line doc and a group (what kind of fact it
holds). The schema gives each configuration its `Layout` (the slices of
`observation_fields`, the Box bounds) and the game's docs their observation
table, so the blocks are written down in one place.

An `Observer` keeps each seat's vector in a buffer and writes it two ways,
the one pattern every game follows:

- at event time, its handlers (one per kind of event, see `ByKind`) write
  what an event tells the seats that saw it: facts that stay (the record,
  what a seat knows, the screens), into every seeing seat's row at once
  through `blocks[name]`, the (seats, *shape) view of that block;
- at encode time, `refresh(seat)` writes the blocks that are read off the
  public table or computed only when asked (the decision in progress, the
  beliefs, which change often and matter only to the seat encoded).

`encode(seat)` returns the seat's buffer; the adapter copies it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class Block:
    name: str
    shape: tuple[Dim, ...]
    low: float | str
    high: float | str
    doc: str
    group: str = "table"

    def __post_init__(self):
        if self.group not in GROUPS:
            raise ValueError(f"block {self.name}: unknown group {self.group!r}")

    def resolved(self, dims: Mapping[str, int]) -> Block:
        return replace(
            self,
            shape=tuple(int(_resolve(d, dims)) for d in self.shape),
            low=float(_resolve(self.low, dims)),
            high=float(_resolve(self.high, dims)),
        )

    @property
    def shape_text(self) -> str:
        shape = ", ".join(str(d).replace("+", " + ") if "+" in str(d) else str(d) for d in self.shape)
        return f"({shape},)" if len(self.shape) == 1 else f"({shape})"


class Schema:
    """The ordered blocks of a game's observation, for every configuration."""

    def __init__(self, blocks: Iterable[Block]):
        self.blocks = tuple(blocks)
        names = [b.name for b in self.blocks]
        duplicates = {name for name in names if names.count(name) > 1}
        if duplicates:
            raise ValueError(f"duplicate observation block(s) {sorted(duplicates)}")

    def layout(self, dims: Mapping[str, int], skip: Iterable[str] = ()) -> Layout:
        """The layout of one configuration; blocks named in `skip` (a zero-sized option) are left out."""
        skip = set(skip)
        return Layout([b.resolved(dims) for b in self.blocks if b.name not in skip])

    def table(self) -> str:
        """The docs' observation table: one row per block."""
        rows = ["| block | shape | group | meaning |", "|---|---|---|---|"]
        rows += [f"| `{b.name}` | {b.shape_text} | {b.group} | {b.doc} |" for b in self.blocks]
        return "\n".join(rows)


class Layout:
    """The blocks of one configuration, tiling one vector."""

    def __init__(self, blocks: list[Block]):
        self.blocks = blocks
        self.fields: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        start = 0
        for block in blocks:
            size = prod(block.shape)
            self.fields[block.name] = slice(start, start + size)
            self.shapes[block.name] = block.shape
            start += size
        self.size = start
        self.groups = {b.name: b.group for b in blocks}
        self.low = np.concatenate([np.full(prod(b.shape), b.low, np.float32) for b in blocks])
        self.high = np.concatenate([np.full(prod(b.shape), b.high, np.float32) for b in blocks])

    def box(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Each block of `vector` as a view in its own shape (writes go through)."""
        return {name: vector[where].reshape(self.shapes[name]) for name, where in self.fields.items()}

    def span(self, first: str, last: str) -> slice:
        """The slice covering the blocks from `first` to `last`, adjacent in the vector."""
        return slice(self.fields[first].start, self.fields[last].stop)


class Observer:
    """Each seat's knowledge, built only from the public table and the events it saw.

    Subclasses set `self.on`, a `ByKind` table of handlers, and write
    `start` (a new game), `refresh` (the encode-time blocks) and `describe`.
    """

    on: ByKind

    def __init__(self, layout: Layout, num_seats: int):
        self.layout = layout
        self.num_seats = num_seats
        self.rows = np.zeros((num_seats, layout.size), dtype=np.float32)
        self._view_rows()
        self.table: Any = None

    def _view_rows(self) -> None:
        n = self.num_seats
        # views[seat][name]: one seat's block; blocks[name]: every seat's copy of it, (seats, *shape)
        self.views = [self.layout.views(row) for row in self.rows]
        self.blocks = {
            name: self.rows[:, where].reshape((n, *self.layout.shapes[name])) for name, where in self.layout.fields.items()
        }
        for name, block in self.blocks.items():  # reshape copies when it cannot view: writes would be lost
            if block.size and not np.shares_memory(block, self.rows):
                raise RuntimeError(f"block {name} is not a view of the observation buffers")

    # Views do not survive copying (a copied view is a separate array), so they are made again.
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["views"], state["blocks"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._view_rows()

    def reset(self, table: Any, events: list) -> None:
        self.table = table
        self.rows.fill(0)
        self.start()
        self.update(events)

    def update(self, events: list) -> None:
        on = self.on
        for event in events:
            handler = on[type(event)]
            if handler is not None:
                handler(event)

    def encode(self, seat: int) -> np.ndarray:
        """The seat's observation (its buffer, reused: copy it to keep it)."""
        self.refresh(seat)
        return self.rows[seat]

    def start(self) -> None:
        """A new game begins: set what the deal's events do not."""

    def refresh(self, seat: int) -> None:
        """Write the seat's encode-time blocks."""

    def describe(self, seat: int) -> str:
        """The seat's private view in words, for the text render."""
        return ""
