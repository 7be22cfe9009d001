"""Checks of user input that every game shares, worded the same way everywhere.

Each raises `ValueError` (a value out of range) or `TypeError` (a value of
the wrong kind) whose message starts with the name of what was wrong, so a
user knows which argument, setup entry or option to fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np


def is_int(value: Any) -> bool:
    """An integer, NumPy's included, and not a bool (True is an int to Python, never a seat or a count here)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int within [low, high] (either bound may be None)."""
    if not is_int(value) or (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            wanted = f"an integer from {low} to {high}"
        elif low is not None:
            wanted = "a positive integer" if low == 1 else f"an integer of at least {low}"
        else:
            wanted = "an integer"
        raise ValueError(f"{name} must be {wanted}; got {value!r}")
    return int(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_choice(name: str, value: Any, allowed: Iterable) -> Any:
    allowed = tuple(allowed)
    if not any(value is option or (type(value) is type(option) and value == option) for option in allowed):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def check_mapping(name: str, value: Any) -> Mapping:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict; got {type(value).__name__} {value!r}")
    return value


def check_sequence(name: str, value: Any, length: int | None = None, longest: int | None = None) -> list:
    """A list or tuple (not a string, a set or a dict, whose order or meaning would be a guess), as a list."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a list; got {type(value).__name__} {value!r}")
    items = list(value)
    if length is not None and len(items) != length:
        raise ValueError(f"{name} must have {length} entries; got {len(items)}")
    if longest is not None and len(items) > longest:
        raise ValueError(f"{name} must have at most {longest} entries; got {len(items)}")
    return items


def check_seed(seed: Any) -> int | None:
    """A seed for `reset`: None or a non-negative integer (what NumPy's generators accept)."""
    if seed is None:
        return None
    if not is_int(seed):
        raise TypeError(f"seed must be None or a non-negative integer; got {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be None or a non-negative integer; got {seed!r}")
    return int(seed)


def index_of(name: str, value: Any, names: tuple[str, ...]) -> int:
    """An item given by its name or by its index in `names`."""
    if isinstance(value, str):
        if value not in names:
            raise ValueError(f"{name}: unknown name {value!r}; expected one of {', '.join(names)}")
        return names.index(value)
    if is_int(value) and 0 <= value < len(names):
        return int(value)
    raise ValueError(f"{name}: {value!r} is neither a name in ({', '.join(names)}) nor an index from 0 to {len(names) - 1}")
