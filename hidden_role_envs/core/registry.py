"""The registered games, under the `hidden_roles` namespace of PettingZoo's and Gymnasium's registries.

A game joins with one line, `register(GAME)`: its PettingZoo id
(`hidden_roles/secrets-v1`) and its single-seat Gymnasium id
(`hidden_roles/Secrets-v1`) are registered, and every tool that lists the
games (`available_envs`, the command line, the benchmarks) sees it.
"""

from __future__ import annotations

import importlib
from typing import Any

import pettingzoo

from hidden_role_envs.core.definition import NAMESPACE, GameDefinition

GAMES: dict[str, GameDefinition] = {}


def register(definition: GameDefinition) -> GameDefinition:
    from hidden_role_envs.wrappers.single_seat import register_single_seat_env  # the wrapper reads this module

    if GAMES.get(definition.name, definition) is not definition:
        raise ValueError(f"another game is registered as {definition.name!r}")
    GAMES[definition.name] = definition
    if definition.env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", definition.env_id, entry_point=definition.env)
    register_single_seat_env(definition)
    return definition


def load(package: str) -> GameDefinition:
    """The game that `package` declares, registered if it is not yet (in a new process, a game from outside
    the package, such as a test's, is registered by its own module's import, or here)."""
    definition = importlib.import_module(package).GAME
    return GAMES.get(definition.name) or register(definition)


def available_envs() -> list[str]:
    """The registered ids, e.g. `hidden_roles/secrets-v1`."""
    return sorted(game.env_id for game in GAMES.values())


def game_name(name: Any) -> str:
    """The game a name means: an id (`hidden_roles/secrets-v1`), a module (`secrets_v1`) or a game (`secrets`)."""
    key = str(name).removeprefix(f"{NAMESPACE}/").replace("_v", "-v").split("-v")[0].lower()
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    return key


def game(name: Any) -> GameDefinition:
    return GAMES[game_name(name)]


def make(name: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """Make a game's AEC env by id, module name or game name (see `game_name`)."""
    return pettingzoo.make("aec", game(name).env_id, **kwargs)
