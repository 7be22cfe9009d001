"""Named blocks of a flat observation vector.

Every game's observation is one float32 vector made of named blocks
(`observation_fields` maps each name to its slice), so a network sees a flat
vector while people and scripted players read blocks by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from gymnasium import spaces


@dataclass(frozen=True)
class Block:
    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    doc: str


class ObservationLayout:
    """The ordered blocks of one game configuration's observation."""

    def __init__(self, blocks: list[Block]):
        self.blocks = blocks
        self.fields: dict[str, slice] = {}
        start = 0
        for block in blocks:
            if block.name in self.fields:
                raise ValueError(f"duplicate observation block {block.name!r}")
            size = prod(block.shape)
            self.fields[block.name] = slice(start, start + size)
            start += size
        self.size = start
        self.low = np.concatenate([np.full(prod(b.shape), b.low, np.float32) for b in blocks])
        self.high = np.concatenate([np.full(prod(b.shape), b.high, np.float32) for b in blocks])

    def box(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Each block of `vector` as a view in its own shape (writes go through)."""
        return {b.name: vector[self.fields[b.name]].reshape(b.shape) for b in self.blocks}
