"""The games registered in PettingZoo's registry under the `hidden_roles` namespace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pettingzoo

NAMESPACE = "hidden_roles"
VERSION = 0


@dataclass(frozen=True)
class RegisteredGame:
    module: str  # the versioned public module, with env() and raw_env
    scripted_player: str  # "module:Class", called as Class(num_players, seed=...)


GAMES = {
    "secrets": RegisteredGame("hidden_role_envs.secrets_v0", "hidden_role_envs.games.secrets.bots:SecretsScriptedPlayer"),
    "mascarade": RegisteredGame(
        "hidden_role_envs.mascarade_v0", "hidden_role_envs.games.mascarade.bots:MascaradeScriptedPlayer"
    ),
    "hoax": RegisteredGame("hidden_role_envs.hoax_v0", "hidden_role_envs.games.hoax.bots:HoaxScriptedPlayer"),
    "spyfall": RegisteredGame("hidden_role_envs.spyfall_v0", "hidden_role_envs.games.spyfall.bots:SpyfallScriptedPlayer"),
}


def env_id(game: str) -> str:
    return f"{NAMESPACE}/{game}-v{VERSION}"


def register_games() -> None:
    for game, entry in GAMES.items():
        if env_id(game) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id(game), entry_point=f"{entry.module}:env")


def available_envs() -> list[str]:
    """The registered ids, e.g. `hidden_roles/secrets-v0`."""
    return sorted(env_id(game) for game in GAMES)


def game_name(name: str) -> str:
    """The game a name means: an id (`hidden_roles/secrets-v0`), a module (`secrets_v0`) or a game (`secrets`)."""
    key = str(name).removeprefix(f"{NAMESPACE}/").replace("_v", "-v").split("-v")[0].lower()
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    return key


def game(name: str) -> RegisteredGame:
    return GAMES[game_name(name)]


def make(name: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """Make a game's AEC env by id, module name or game name (see `game_name`)."""
    return pettingzoo.make("aec", env_id(game_name(name)), **kwargs)
