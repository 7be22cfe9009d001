"""Reading a `setup`: the part of a deal a user fixes through `reset(options={"setup": {...}})`.

Scenarios and tests fix the cards; what a setup leaves out is drawn from
the seed. `Setup` checks the entries the same way for every game: the
setup is a dict, its keys are the game's, and each entry has the type and
length the game asks for; every error names the entry.
"""

from __future__ import annotations

from typing import Any

from hidden_role_envs.core.checks import check_mapping, check_sequence, index_of, is_int


class Setup:
    def __init__(self, setup: Any, allowed: tuple[str, ...]):
        if setup is None:  # the usual case: a game of random deals, which every reset makes
            self.entries = {}
            return
        setup = check_mapping("setup", setup)
        unknown = set(setup) - set(allowed)
        if unknown:
            raise ValueError(f"unknown setup key(s) {sorted(map(str, unknown))}; allowed: {', '.join(allowed)}")
        self.entries = dict(setup)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def get(self, key: str, default: Any = None) -> Any:
        return self.entries.get(key, default)

    def seat(self, key: str, num_players: int) -> int | None:
        """A seat number, or None when the entry is left out (or None)."""
        value = self.entries.get(key)
        if value is None:
            return None
        if not is_int(value) or not 0 <= value < num_players:
            raise ValueError(f"setup {key} must be a seat from 0 to {num_players - 1}; got {value!r}")
        return int(value)

    def items(self, key: str, names: tuple[str, ...], length: int | None = None, longest: int | None = None) -> list[int] | None:
        """A list of items, each given by name or by index in `names`; None when left out."""
        if key not in self.entries:
            return None
        items = check_sequence(f"setup {key}", self.entries[key], length=length, longest=longest)
        return [index_of(f"setup {key}", item, names) for item in items]

    def seats(self, key: str, num_players: int, longest: int | None = None) -> list[int] | None:
        if key not in self.entries:
            return None
        items = check_sequence(f"setup {key}", self.entries[key], longest=longest)
        for item in items:
            if not is_int(item) or not 0 <= item < num_players:
                raise ValueError(f"setup {key} must be seats from 0 to {num_players - 1}; got {item!r}")
        return [int(item) for item in items]

    def sequence(self, key: str, length: int | None = None, longest: int | None = None) -> list | None:
        if key not in self.entries:
            return None
        return check_sequence(f"setup {key}", self.entries[key], length=length, longest=longest)
