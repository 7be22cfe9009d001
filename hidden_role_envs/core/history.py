"""The event history: the last events a seat saw, each as one fixed-width vector.

For recurrent and attention policies, like OpenSpiel's information-state
tensor. A game's kinds of event are declared with typed fields
(`core.events`), so their encoding needs no code of its own: a vector is the
kind, one-hot, then columns for the fields. Fields that hold the same sort
of thing share columns (a `slot`): a kind's first seat goes to the first
seat slot, its second seat to the second, and so on, so the width is the
kinds plus, per sort, as many slots as the kind with the most such fields
uses. Seats are relative to the observer; an empty slot stays zero.

`history_length=K` adds the block `history` (K, width), the most recent
event first, zero-padded before K events were seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from hidden_role_envs.core.events import EncodingContext
from hidden_role_envs.core.observation import Block


class EventEncoding:
    """Where each field of each kind of event goes in a history vector, for one configuration."""

    def __init__(self, kinds: Sequence[type], num_players: int, vocab: Mapping[str, Sequence[str]]):
        self.kinds = tuple(kinds)
        self.context = EncodingContext(num_players, vocab)
        self.index = {kind: i for i, kind in enumerate(self.kinds)}
        slots_needed: dict = {}
        for kind in self.kinds:
            for slot, count in Counter(field.slot for field in kind.fields.values()).items():
                slots_needed[slot] = max(slots_needed.get(slot, 0), count)
        start = len(self.kinds)
        self.slot_columns: dict = {}  # slot -> the start of each of its columns groups
        example: dict = {}
        for kind in self.kinds:
            for field in kind.fields.values():
                example.setdefault(field.slot, field)
        self.columns: list[tuple[str, int, int]] = [("kind", 0, start)]  # (what, start, stop) for the docs
        lows, highs = [0.0], [1.0]
        for slot, count in slots_needed.items():
            width = example[slot].width(self.context)
            low, high = example[slot].bounds(self.context)
            lows.append(low)
            highs.append(high)
            self.slot_columns[slot] = [start + i * width for i in range(count)]
            for i in range(count):
                self.columns.append((f"{_slot_name(slot)} {i + 1}", start, start + width))
                start += width
        self.width = start
        self.low, self.high = min(lows), max(highs)
        # [observer, column]: the column of the absolute encoding (as seat 0 encodes) that the observer reads there
        self.observer_columns = np.tile(np.arange(self.width), (num_players, 1))
        for slot, starts in self.slot_columns.items():
            for first in starts:
                for observer in range(num_players):
                    columns = example[slot].observer_columns(observer, self.context)
                    self.observer_columns[observer, first : first + len(columns)] = np.add(columns, first)
        self.observer_columns.flags.writeable = False
        # layout[kind]: (field name, field, start) for each field of the kind
        self.layout = {}
        for kind in self.kinds:
            used: Counter = Counter()
            placed = []
            for name, field in kind.fields.items():
                placed.append((name, field, self.slot_columns[field.slot][used[field.slot]]))
                used[field.slot] += 1
            self.layout[kind] = tuple(placed)

    def encode(self, event, observer: int, out: np.ndarray) -> None:
        """Write `event` as `observer` saw it into `out` (width entries, zero on entry)."""
        out[self.index[type(event)]] = 1
        context = self.context
        for name, field, start in self.layout[type(event)]:
            field.encode(getattr(event, name), observer, out[start : start + field.width(context)], context)

    def block(self, length: int) -> Block:
        return Block("history", (length, self.width), self.low, self.high,
                     "the last events this seat saw, most recent first (see History)", "history")



def _slot_name(slot) -> str:
    """`seat`, `character`, `characters` (counts), `token place`..."""
    if isinstance(slot, tuple):
        kind, vocab = slot
        return vocab if kind == "NameField" else f"{vocab}s"
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in slot.removesuffix("Field")).strip()
    return words


def kinds_table(kinds: Sequence[type]) -> str:
    """Which slot each field of each kind fills, for the game's docs."""
    rows = ["| kind | fields, in their slots |", "|---|---|"]
    for kind in kinds:
        used: Counter = Counter()
        cells = []
        for name, field in kind.fields.items():
            used[field.slot] += 1
            cells.append(f"`{name}`: {_slot_name(field.slot)} {used[field.slot]}")
        rows.append(f"| `{kind.kind}` | {', '.join(cells) or '-'} |")
    return "\n".join(rows)


class SeatHistories:
    """The last `length` events each seat saw, as vectors, in a ring per seat."""

    def __init__(self, encoding: EventEncoding, num_seats: int, length: int):
        self.encoding = encoding
        self.length = length
        self.rings = np.zeros((num_seats, length, encoding.width), dtype=np.float32)
        self.seen = [0] * num_seats  # events seen so far by each seat
        self.pending: list[list] = [[] for _ in range(num_seats)]  # seen, not yet encoded

    def reset(self) -> None:
        self.rings.fill(0)
        self.seen = [0] * len(self.seen)
        for pending in self.pending:
            pending.clear()

    def add(self, events: Iterable) -> None:
        for event in events:
            for seat in event.seen_by:
                self.pending[seat].append(event)

    def write(self, seat: int, out: np.ndarray) -> None:
        """The seat's history block, most recent first, into `out` (length, width)."""
        ring = self.rings[seat]
        length = self.length
        pending = self.pending[seat]
        self.seen[seat] += max(0, len(pending) - length)  # older than the last `length`: never shown
        for event in pending[-length:]:
            row = ring[self.seen[seat] % length]
            row.fill(0)
            self.encoding.encode(event, seat, row)
            self.seen[seat] += 1
        pending.clear()
        newest = self.seen[seat]
        count = min(newest, length)
        order = [(newest - 1 - k) % length for k in range(count)]
        out[:count] = ring[order]
        out[count:] = 0

