"""Events: what happened, and which seats saw it.

The rules engine emits an event for every change of state that someone
could see. Each game declares its kinds of event once (`event_kind`), each a
small typed record whose first field, `seen_by`, lists the seats that saw
it; the other fields are what those seats learned, each with a `Field`
saying what it holds (a seat, a character, a flag...). A seat's knowledge,
its text render and its history are built from the events it saw, so
nothing reaches a seat unless an event addressed to it carries it.

Tables keyed by kind (`ByKind`) dispatch events to the observer's handlers
and to the texts; a table that lacks a kind fails when it is built, not
silently at play.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.core.text import Words


class Field:
    """What an event field holds: how a readable record shows it, how text says it, and how the
    history block encodes it (`width` entries, seats relative to the observer)."""

    def readable(self, value: Any, vocab: Mapping[str, Sequence[str]]) -> Any:
        return value

    def text(self, value: Any, words: Words) -> str:
        return str(value)

    @property
    def slot(self) -> Any:
        """Fields of the same slot share the history's columns (one kind's first seat, another's, ...)."""
        return type(self).__name__

    def width(self, context: EncodingContext) -> int:
        raise NotImplementedError(f"{type(self).__name__} has no history encoding")

    def encode(self, value: Any, observer: int, out, context: EncodingContext) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no history encoding")

    def bounds(self, context: EncodingContext) -> tuple[float, float]:
        return 0.0, 1.0

    def observer_columns(self, observer: int, context: EncodingContext) -> list[int]:
        """For each of the field's columns as `observer` encodes it, the column that holds the same entry when
        seat 0 encodes it (the absolute frame, where seats are seat numbers). The batched engine encodes every
        event once, absolutely, and turns it to each observer with these."""
        return list(range(self.width(context)))


def rotated(num_seats: int, observer: int, width: int, per_seat: int = 1) -> list[int]:
    """`observer_columns` of a field whose first `num_seats * per_seat` columns are seats relative to the
    observer (`per_seat` columns each), the rest not."""
    seat_columns = [((k // per_seat + observer) % num_seats) * per_seat + k % per_seat
                    for k in range(num_seats * per_seat)]
    return seat_columns + list(range(num_seats * per_seat, width))


class EncodingContext:
    """What field encodings need to know of a configuration: the seats and the sizes of the name lists."""

    def __init__(self, num_players: int, vocab: Mapping[str, Sequence[str]]):
        self.num_players = num_players
        self.vocab = vocab

    def relative(self, seat: int, observer: int) -> int:
        return (seat - observer) % self.num_players


class SeatField(Field):
    """A seat (NOBODY: none); encoded one-hot, relative to the observer."""

    def readable(self, value, vocab):
        return None if value == NOBODY else agent_name(value)

    def text(self, value, words):
        return words.seat(value)

    def width(self, context):
        return context.num_players

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, context.num_players)

    def encode(self, value, observer, out, context):
        if value != NOBODY:
            out[context.relative(value, observer)] = 1


class SeatsField(Field):
    """Some seats, in order; encoded as which seats, relative to the observer."""

    def readable(self, value, vocab):
        return [agent_name(s) for s in value]

    def text(self, value, words):
        return words.seats(value)

    def width(self, context):
        return context.num_players

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, context.num_players)

    def encode(self, value, observer, out, context):
        for seat in value:
            out[context.relative(seat, observer)] = 1


class PerSeatField(Field):
    """One number per seat, by seat number; encoded relative to the observer."""

    def __init__(self, low: float = -1.0, high: float = 1.0):
        self.low, self.high = low, high

    def readable(self, value, vocab):
        return {agent_name(s): v for s, v in enumerate(value)}

    def width(self, context):
        return context.num_players

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, context.num_players)

    def encode(self, value, observer, out, context):
        for seat, v in enumerate(value):
            out[context.relative(seat, observer)] = v

    def bounds(self, context):
        return self.low, self.high


class SeatOrPlace(Field):
    """A seat, or one of `places` other places (the centre, the supply, the bank...); encoded one-hot: the
    seats relative to the observer, then the other places in order. `place_column` says which other place a
    value is (None: a seat)."""

    places = 1

    def place_column(self, value: int, context: EncodingContext) -> int | None:
        raise NotImplementedError

    def width(self, context):
        return context.num_players + self.places

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, self.width(context))

    def encode(self, value, observer, out, context):
        place = self.place_column(value, context)
        out[context.relative(value, observer) if place is None else context.num_players + place] = 1


class NameField(Field):
    """An index into one of the game's lists of names (characters, resources...); NOBODY: none. One-hot."""

    def __init__(self, vocab: str):
        self.vocab = vocab

    def readable(self, value, vocab):
        return None if value == NOBODY else vocab[self.vocab][value]

    def text(self, value, words):
        return "none" if value == NOBODY else words.name(self.vocab, value)

    @property
    def slot(self):
        return (type(self).__name__, self.vocab)

    def width(self, context):
        return len(context.vocab[self.vocab])

    def encode(self, value, observer, out, context):
        if value != NOBODY:
            out[value] = 1


class NamesField(NameField):
    """Several indices into one list of names; encoded as counts."""

    def readable(self, value, vocab):
        return [vocab[self.vocab][v] for v in value]

    def text(self, value, words):
        return ", ".join(words.name(self.vocab, v) for v in value)

    def encode(self, value, observer, out, context):
        for v in value:
            out[v] += 1

    def bounds(self, context):
        return 0.0, float(len(context.vocab[self.vocab]) * 4)


class FlagField(Field):
    def readable(self, value, vocab):
        return bool(value)

    def width(self, context):
        return 1

    def encode(self, value, observer, out, context):
        out[0] = bool(value)


class NumberField(Field):
    """A whole number within declared bounds, encoded as it is."""

    def __init__(self, low: float = -100.0, high: float = 100.0):
        self.low, self.high = low, high

    def readable(self, value, vocab):
        return int(value)

    def width(self, context):
        return 1

    def encode(self, value, observer, out, context):
        out[0] = value

    def bounds(self, context):
        return self.low, self.high


SEAT, SEATS, FLAG, NUMBER = SeatField(), SeatsField(), FlagField(), NumberField()
PER_SEAT = PerSeatField()

Text = Callable[[Any, Words], "str | None"]


def event_kind(kind: str, text: str | Text | None, **fields: Field) -> type:
    """Declare a kind of event: a named tuple `(seen_by, *fields)`.

    `text` is what the event tells a viewer: a template naming the fields
    (`"{looker} looked at {place}"`, each said by its `Field` from the
    viewer's side), a function `(event, words) -> str`, or None for an
    event that is not worth a line of its own.
    """
    name = "".join(part.capitalize() for part in kind.split("_"))
    module = sys._getframe(1).f_globals["__name__"]  # where pickles find the class: bind it to a name `name` there
    cls = namedtuple(name, ("seen_by", *fields), module=module)
    cls.kind = kind
    cls.fields = dict(fields)
    if isinstance(text, str):
        template = text

        def text(event, words, _template=template, _fields=cls.fields):
            return _template.format(**{name: field.text(getattr(event, name), words) for name, field in _fields.items()})

    cls.text = staticmethod(text) if text is not None else None
    return cls


class ByKind(dict):
    """A table with one entry per kind of event (None: nothing to do), checked complete when built."""

    def __init__(self, owner: str, kinds: Iterable[type], entries: Mapping[type, Any]):
        kinds = tuple(kinds)
        missing = [k.kind for k in kinds if k not in entries]
        foreign = [getattr(k, "kind", repr(k)) for k in entries if k not in kinds]
        if missing or foreign:
            raise TypeError(f"{owner}: no entry for event kind(s) {missing}" if missing else f"{owner}: unknown event kind(s) {foreign}")
        super().__init__(entries)
        self.owner = owner

    def __missing__(self, kind: type):
        raise TypeError(f"{self.owner} does not handle events of kind {getattr(kind, 'kind', kind)!r}")


def readable(event: Any, vocab: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """An event as a plain dict with readable names: its kind and each field but `seen_by`."""
    return {"kind": event.kind, **{name: field.readable(getattr(event, name), vocab) for name, field in event.fields.items()}}


def describe(event: Any, words: Words) -> str | None:
    return None if event.text is None else event.text(event, words)
