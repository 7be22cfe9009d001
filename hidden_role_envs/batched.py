"""The batched engine of every game that has one (JAX): `make`, and the helpers of `core.batched`.

    import jax, hidden_role_envs.batched as batched
    env = batched.make("secrets", num_players=5)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 1024))

See `hidden_role_envs.core.batched` for the API; it needs the `jax` extra.
"""

from __future__ import annotations

import importlib
from typing import Any

from hidden_role_envs.core import registry
from hidden_role_envs.core.aec import DEFAULT
from hidden_role_envs.core.batched import BatchedEnv, State, auto_reset, stack

__all__ = ["BatchedEnv", "State", "auto_reset", "available", "make", "stack"]


def available() -> list[str]:
    """The games that have a batched engine."""
    return [name for name, game in registry.GAMES.items() if game.batched]


def make(name: str, num_players: int | None = None, max_turns: Any = DEFAULT, reward: str | None = None,
         **arguments: Any) -> BatchedEnv:
    """A game's batched engine, with the arguments of its `env()` (checked the same way)."""
    game = registry.game(name)
    if game.batched is None:
        raise ValueError(f"{game.title} has no batched engine yet; games with one: {', '.join(available())}")
    if arguments.get("illegal", "penalize") != "penalize":
        raise ValueError("the batched engine always penalizes an illegal action (illegal='penalize'): it ends that "
                         "game with -1 for the mover")
    reference = game.raw_env(num_players=num_players, max_turns=max_turns, reward=reward, **arguments)
    module, cls = game.batched.split(":")
    engine = getattr(importlib.import_module(module), cls)(reference.config, reference.reward_mode)
    return BatchedEnv(game, reference.config, engine, reference.max_turns, reference.history_length)
