"""Reading a character sheet (see `sheet.py` for its format) into what the rules engine plays.

`CharacterSheet(rows)` checks every row and raises `ValueError` naming the
row and what is wrong; once built it holds each character's options as
parsed `Effect`s and the immunity relation as a matrix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from hidden_role_envs.games.hoax.cards import MAX_PLAYERS, NUM_CHARACTERS, RESOURCES

NAMED = -1  # an effect's resource when it is the type named with the claim

# Effect kinds
TAKE = "take"  # the claimant takes from the supply
GIVE = "give"  # the named player takes from the supply
TAKE_FROM = "take from"  # the claimant takes from players
SWAP = "swap"  # the claimant swaps a type with the named player

# Whom a TAKE_FROM takes from
EACH_OTHER, EACH_NEIGHBOUR, NAMED_PLAYER = "each other player", "each neighbour", "named player"

_RESOURCE = "(?P<r>Cash|Evidence|Prestige|named type)"
_GRAMMAR = (
    (re.compile(f"^take {_RESOURCE}$"), TAKE, None),
    (re.compile(f"^named player takes {_RESOURCE}$"), GIVE, NAMED_PLAYER),
    (re.compile(f"^take {_RESOURCE} from each other player$"), TAKE_FROM, EACH_OTHER),
    (re.compile(f"^take {_RESOURCE} from each neighbour$"), TAKE_FROM, EACH_NEIGHBOUR),
    (re.compile(f"^take {_RESOURCE} from named player$"), TAKE_FROM, NAMED_PLAYER),
    (re.compile(f"^swap {_RESOURCE} with named player$"), SWAP, NAMED_PLAYER),
)
EFFECT_FORMS = (
    "take R",
    "named player takes R",
    "take R from each other player",
    "take R from each neighbour",
    "take R from named player",
    "swap R with named player",
)


@dataclass(frozen=True)
class Effect:
    kind: str  # TAKE, GIVE, TAKE_FROM or SWAP
    resource: int  # a resource index, or NAMED
    whom: str | None  # for TAKE_FROM: EACH_OTHER, EACH_NEIGHBOUR or NAMED_PLAYER; NAMED_PLAYER for GIVE and SWAP

    @property
    def targets_players(self) -> bool:
        """Takes from or swaps with players, who may answer with an immunity."""
        return self.kind in (TAKE_FROM, SWAP)


@dataclass(frozen=True)
class Option:
    label: str
    effects: tuple[Effect, ...]
    names_type: bool  # the claim names a resource type
    names_player: bool  # the claim names another player


@dataclass(frozen=True)
class Character:
    name: str
    options: tuple[Option, ...]
    immune_to: tuple[int, ...]  # characters whose privilege this one is immune to


def parse_effect(text: object) -> Effect:
    if isinstance(text, str):
        for pattern, kind, whom in _GRAMMAR:
            match = pattern.match(text)
            if match:
                r = match.group("r")
                return Effect(kind, NAMED if r == "named type" else RESOURCES.index(r), whom)
    raise ValueError(
        f"unknown effect {text!r}; an effect is one of {', '.join(repr(f) for f in EFFECT_FORMS)}, "
        "where R is Cash, Evidence, Prestige or named type"
    )


def claim_action_name(character: str, label: str, resource: int | None, offset: int | None) -> str:
    """`claim <character>[ <label>][ <named type>][ +<offset>]`, e.g. `claim Chef Cash +2`."""
    parts = ["claim", character]
    if label:
        parts.append(label)
    if resource is not None:
        parts.append(RESOURCES[resource])
    if offset is not None:
        parts.append(f"+{offset}")
    return " ".join(parts)


def option_choices(option: Option, num_players: int) -> list[tuple[int | None, int | None]]:
    """Every (named type, named player offset) a claim of `option` can make, None where it names none."""
    types = list(range(len(RESOURCES))) if option.names_type else [None]
    offsets = list(range(1, num_players)) if option.names_player else [None]
    return [(t, k) for t in types for k in offsets]


class CharacterSheet:
    """A checked character sheet: `characters[c]` with its options and immunities."""

    def __init__(self, rows: object):
        if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
            raise ValueError(
                f"character_sheet must be a sequence of {NUM_CHARACTERS} rows (name, privilege, immune_to); "
                f"got {type(rows).__name__}"
            )
        if len(rows) != NUM_CHARACTERS:
            raise ValueError(
                f"character_sheet must have {NUM_CHARACTERS} rows, one per character card; got {len(rows)}"
            )
        names = [self._name(i, row) for i, row in enumerate(rows)]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"character_sheet: the name {name!r} appears more than once")
        self.names = tuple(names)
        self.characters = tuple(self._character(name, row[1], row[2]) for name, row in zip(names, rows))
        # immune[x, y]: character x is immune to the privilege of character y
        self.immune = np.zeros((NUM_CHARACTERS, NUM_CHARACTERS), dtype=bool)
        for x, character in enumerate(self.characters):
            self.immune[x, list(character.immune_to)] = True
        self._immune_to = tuple(tuple(np.flatnonzero(self.immune[:, y]).tolist()) for y in range(NUM_CHARACTERS))
        self.max_options = max(len(c.options) for c in self.characters)
        self._check_action_names()

    @staticmethod
    def _name(index: int, row: object) -> str:
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 3:
            raise ValueError(f"character_sheet row {index}: expected (name, privilege, immune_to); got {row!r}")
        name = row[0]
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"character_sheet row {index}: the name must be a non-empty string; got {name!r}")
        return name

    def _character(self, name: str, privilege: object, immune_to: object) -> Character:
        where = f"character_sheet, {name}"
        if not isinstance(privilege, Mapping) or not privilege:
            raise ValueError(
                f"{where}: the privilege must be a non-empty mapping {{option label: effects}}; got {privilege!r}"
            )
        options = []
        for label, effects in privilege.items():
            if not isinstance(label, str):
                raise ValueError(f"{where}: option labels must be strings; got {label!r}")
            if len(privilege) > 1 and not label.strip():
                raise ValueError(f"{where}: a privilege with several options needs a non-empty label for each")
            if isinstance(effects, (str, bytes)) or not isinstance(effects, Sequence) or not effects:
                raise ValueError(
                    f"{where}, option {label!r}: effects must be a non-empty tuple of effects; got {effects!r}"
                )
            try:
                parsed = tuple(parse_effect(e) for e in effects)
            except ValueError as error:
                raise ValueError(f"{where}, option {label!r}: {error}") from None
            options.append(
                Option(
                    label=label,
                    effects=parsed,
                    names_type=any(e.resource == NAMED for e in parsed),
                    names_player=any(e.whom == NAMED_PLAYER for e in parsed),
                )
            )
        if isinstance(immune_to, (str, bytes)) or not isinstance(immune_to, Sequence):
            raise ValueError(f"{where}: immune_to must be a tuple of character names; got {immune_to!r}")
        unknown = [x for x in immune_to if x not in self.names]
        if unknown:
            raise ValueError(
                f"{where}: immune_to names unknown character {unknown[0]!r}; the characters are {self.names}"
            )
        return Character(name, tuple(options), tuple(sorted({self.names.index(x) for x in immune_to})))

    def _check_action_names(self) -> None:
        """Every claim must have its own action name (names for fewer players are a subset of these)."""
        seen: dict[str, str] = {}
        for character in self.characters:
            for option in character.options:
                where = f"{character.name} option {option.label!r}"
                for resource, offset in option_choices(option, MAX_PLAYERS):
                    name = claim_action_name(character.name, option.label, resource, offset)
                    if name in seen:
                        raise ValueError(
                            f"character_sheet: {seen[name]} and {where} would both be played as {name!r}; "
                            "give them distinct labels"
                        )
                    seen[name] = where

    def immune_characters(self, privilege: int) -> tuple[int, ...]:
        """The characters immune to the privilege of `privilege`."""
        return self._immune_to[privilege]
