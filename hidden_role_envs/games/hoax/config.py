"""The configuration of a Hoax table: its constructor arguments, checked."""

from __future__ import annotations

from dataclasses import dataclass

from hidden_role_envs.core.definition import Argument
from hidden_role_envs.games.hoax.privileges import CharacterSheet
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET

DEFAULT_MAX_TURNS = 1000  # RULING: the rulebook has none; about three times the longest natural game measured

ARGUMENTS = (
    Argument(
        "character_sheet", None, "None: the house sheet below; or a sheet in the format of `games/hoax/sheet.py`"
    ),
)

HOUSE = CharacterSheet(HOUSE_SHEET)
# Equal sheets are one object, so the tables shared per configuration (actions, masks) are built once for them.
_SHEETS = {(HOUSE.names, HOUSE.characters): HOUSE}


@dataclass(frozen=True)
class HoaxConfig:
    num_players: int
    sheet: CharacterSheet = HOUSE

    @property
    def dims(self) -> dict[str, int]:
        """The sizes the observation's blocks are declared in."""
        return {"n": self.num_players, "options": self.sheet.max_options}


def configure(num_players: int, character_sheet=None) -> HoaxConfig:
    """`character_sheet` is checked by `CharacterSheet`, whose errors say which row is wrong and how."""
    if character_sheet is None:
        return HoaxConfig(num_players)
    sheet = CharacterSheet(character_sheet)
    sheet = _SHEETS.setdefault((sheet.names, sheet.characters), sheet)
    return HoaxConfig(num_players, sheet)
