"""Secrets: see `hidden_role_envs.games.secrets` (this module's docs are filled in from it)."""

from hidden_role_envs.games.secrets import GAME

__doc__ = GAME.reference
raw_env = GAME.raw_env
env = GAME.env
