"""The configuration of a Spyfall table: its constructor arguments, checked."""

from __future__ import annotations

from dataclasses import dataclass

from hidden_role_envs.core.checks import check_int
from hidden_role_envs.core.definition import Argument
from hidden_role_envs.games.spyfall.locations import ATTRIBUTES, DEFAULT_LOCATIONS, LocationSet

ARGUMENTS = (
    Argument("num_rounds", 1, "1 to the number of locations (the rulebook suggests 5)"),
    Argument("question_limit", 16, "positive int: questions in a round (the clock, ~8 minutes at 30 s an exchange)"),
    Argument("locations", None, "None for the 26 of the box, or a sequence of `Location(name, roles, attributes)`"),
    Argument("attributes", None, "None for the 23 default ones, or the names the `locations` use (in action and block "
             "order)"),
)


@dataclass(frozen=True)
class SpyfallConfig:
    num_players: int
    num_rounds: int
    question_limit: int
    places: LocationSet  # the locations and the attributes questions ask about


def configure(num_players: int, num_rounds: int = 1, question_limit: int = 16, locations=None,
              attributes=None) -> SpyfallConfig:
    places = LocationSet(
        DEFAULT_LOCATIONS if locations is None else locations,
        ATTRIBUTES if attributes is None else attributes,
        num_players,
    )
    return SpyfallConfig(
        num_players=num_players,
        num_rounds=check_int("num_rounds", num_rounds, 1, len(places)),
        question_limit=check_int("question_limit", question_limit, 1),
        places=places,
    )
