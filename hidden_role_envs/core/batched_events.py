"""The event history in the batched engine: the reference's `history` block (`history_length=K`), in JAX.

A game's batched `init` and `step` tell the events they make, in the order
the reference's rules emit them, to a `StepEvents` (each event: whether it
happened in this game, who saw it, and its fields). Every event is encoded
once, in the absolute frame (as seat 0 encodes it: seats are seat numbers),
with the columns of `core.history.EventEncoding`; `Histories` keeps each
seat's last K events in a ring and turns them to the seat's own side (its
`observer_columns`) when the seat is observed. So the block is the
reference's, row for row, which the parity tests check.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from hidden_role_envs.core.events import FlagField, NumberField
from hidden_role_envs.core.history import EventEncoding


class StepEvents:
    """The events of one game's step (or deal), in order, as the game tells them.

    `add(kind, when, seen_by, **fields)`: `when` is whether the event
    happened (a bool, traced or not); `seen_by` a bool per seat (None: every
    seat); a field is given as the reference's value where it is one number
    (a seat, a name's index, a flag, a number; -1 for none) and as its
    encoding where it is several (a `NamesField`'s counts, a `SeatsField`'s
    0/1 per seat, a `PerSeatField`'s values, a game's own field's columns),
    always in the absolute frame.
    """

    def __init__(self, encoding: EventEncoding):
        self.encoding = encoding
        self.num_players = encoding.context.num_players
        self._rows: list[jax.Array] = []
        self._seen: list[jax.Array] = []

    def add(self, kind: type, when, seen_by=None, **fields) -> None:
        encoding = self.encoding
        if kind not in encoding.index:
            raise TypeError(f"{getattr(kind, 'kind', kind)!r} is not a kind of event of this game")
        placed = encoding.layout[kind]
        expected = {name for name, _, _ in placed}
        if set(fields) != expected:
            raise TypeError(f"event {kind.kind!r} has the fields {sorted(expected)}; got {sorted(fields)}")
        row = jnp.zeros(encoding.width, jnp.float32).at[encoding.index[kind]].set(1.0)
        for name, field, start in placed:
            columns = _absolute(field, fields[name], field.width(encoding.context))
            row = row.at[start : start + columns.shape[0]].set(columns)
        seen = jnp.ones(self.num_players, bool) if seen_by is None else jnp.asarray(seen_by, bool)
        self._rows.append(row)
        self._seen.append(seen & jnp.asarray(when, bool))

    def arrays(self) -> tuple[jax.Array, jax.Array]:
        """(events, width) rows and (events, seats) who saw each (False where it did not happen)."""
        if not self._rows:
            return jnp.zeros((0, self.encoding.width), jnp.float32), jnp.zeros((0, self.num_players), bool)
        return jnp.stack(self._rows), jnp.stack(self._seen)


def _absolute(field, value, width: int) -> jax.Array:
    value = jnp.asarray(value)
    if isinstance(field, (FlagField, NumberField)):
        return value.astype(jnp.float32).reshape(1)
    if value.ndim == 0:  # the hot column (-1: none)
        return (jnp.arange(width) == value).astype(jnp.float32)
    if value.shape != (width,):
        raise TypeError(f"a {type(field).__name__} takes one number or its {width} columns; got shape {value.shape}")
    return value.astype(jnp.float32)


class Histories:
    """Each seat's last `length` events: a ring of rows per seat, in the absolute frame, and how many it saw."""

    def __init__(self, encoding: EventEncoding, length: int):
        self.encoding = encoding
        self.length = length
        self.num_players = encoding.context.num_players
        self._columns = jnp.asarray(encoding.observer_columns, jnp.int32)  # (seats, width)

    def new(self) -> tuple[jax.Array, jax.Array]:
        return (jnp.zeros((self.num_players, self.length, self.encoding.width), jnp.float32),
                jnp.zeros(self.num_players, jnp.int32))

    def record(self, rings: jax.Array, seen: jax.Array, events: StepEvents,
               kept=True) -> tuple[jax.Array, jax.Array]:
        """The rings and counts after the events (if `kept`), each written into the ring of every seat that saw
        it. Rows past a seat's count are never read, so a new game reuses the rings with its counts at 0."""
        rows, saw = events.arrays()
        if rows.shape[0] == 0:
            return rings, seen
        saw = saw & jnp.asarray(kept, bool)
        order = jnp.cumsum(saw, axis=0) - 1  # (events, seats): the event's place among those the seat saw now
        count = saw.sum(axis=0)
        written = saw & (order >= count - self.length)  # the last `length` of them: no two share a slot
        slot = jnp.where(written, (seen[None, :] + order) % self.length, self.length)  # out of range: dropped
        seats = jnp.broadcast_to(jnp.arange(self.num_players), slot.shape)
        values = jnp.broadcast_to(rows[:, None, :], slot.shape + rows.shape[1:])
        return rings.at[seats, slot].set(values, mode="drop"), seen + count

    def view(self, rings: jax.Array, seen: jax.Array, seat: jax.Array) -> jax.Array:
        """(length, width): the seat's last events, the most recent first, as the seat encodes them."""
        back = jnp.arange(self.length)
        rows = rings[seat][(seen[seat] - 1 - back) % self.length]
        rows = jnp.where((back < seen[seat])[:, None], rows, 0.0)
        return rows[:, self._columns[seat]]
