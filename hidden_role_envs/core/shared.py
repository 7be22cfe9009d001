"""Tables built once per configuration and shared by every game of it.

Action tables, legal-action masks, deal tables: each game of a configuration
reads the same ones and none changes them, so building them once saves time
and memory. A copy of a game (`copy.deepcopy`, pickling) must keep sharing
them rather than carry a private copy.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np


class Shared:
    """Base of the shared tables: `Table.of(*key)` builds one per key and returns it ever after.

    `copy.deepcopy` returns the table itself; pickling stores only the key,
    and unpickling finds (or builds) the table of that key again.
    """

    _instances: ClassVar[dict]
    _key: tuple

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._instances = {}

    @classmethod
    def of(cls, *key: Any):
        table = cls._instances.get(key)
        if table is None:
            table = cls(*key)
            table._key = key
            cls._instances[key] = table
        return table

    def __deepcopy__(self, memo: dict):
        return self

    def __reduce__(self):
        return (type(self).of, self._key)


def frozen_mask(size: int, ids=()) -> np.ndarray:
    """An int8 legal-action mask with `ids` set, read-only so that a shared one cannot be changed by mistake."""
    mask = np.zeros(size, dtype=np.int8)
    mask[list(ids)] = 1
    mask.flags.writeable = False
    return mask
