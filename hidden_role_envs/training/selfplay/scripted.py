"""The game's scripted player at the batched engine's table, inside the compiled rollout.

A game whose folder has a JAX twin of its scripted player
(`GameDefinition.batched_scripted`, `batched_bots.py`: Secrets, Spyfall) is
played by it, compiled into the rollout with the rest, so the scripted games
run at the batched engine's speed; the twin decides as the Python player does
(its parity test), breaking ties with the rollout's key.

The other scripted players are Python (they read the observation vector and
the mask, as `env().observe` gives them), so they cannot be compiled into
the batch. The rollout hands them, once per move, the observations and masks
of the games where one of their seats is to move
(`jax.experimental.io_callback`) and plays the actions they return. The
batched engine's observation is `env()`'s, checked move for move, so they
play here exactly as in `env()`. While they decide, the compiled rollout
waits, so the decisions are shared out between this process and
`processes - 1` helper processes, each with its own scripted player (seeded
apart, so a run stays reproducible).
"""

from __future__ import annotations

import importlib
import multiprocessing

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from hidden_role_envs.core import registry
from hidden_role_envs.core.batched import BatchedEnv


def _twin(definition) -> tuple:
    """(module, name of its function) of the game's JAX twin (`GameDefinition.batched_scripted`,
    "module:function"); (None, None) where the game has none."""
    if not definition.batched_scripted:
        return None, None
    module, function = definition.batched_scripted.split(":")
    return importlib.import_module(module), function


def twin_of(env: BatchedEnv):
    """The JAX twin of the game's scripted player for the env's table, `decide(observation, mask, key)`; None where
    the game has none."""
    module, function = _twin(env.definition)
    return None if module is None else getattr(module, function)(env.config)


def has_scores(definition) -> bool:
    """Whether the game's twin gives the scores it ranks the actions by (`batched_scripted_scores`, `best_actions`,
    `best_of`): what the scripted prior needs."""
    return _scoring(definition) is not None


def _scoring(definition):
    module, _ = _twin(definition)
    return module if hasattr(module, "batched_scripted_scores") else None


class ScriptedPrior:
    """What the scripted player thinks of each action, as the policy's logits read it (`network`'s scripted prior).

    Per action, two features of the twin's scores: 1 where the action is
    among those it would play (within its tie margin of the best), else 0;
    and its score's distance below the best, as a share of the spread
    between the best and the worst it considers (0 for the best, -1 for the
    worst and for the actions it does not consider). Shares rather than raw
    scores, since the raw ones are win chances for some decisions and
    entropies for the Detective's look.
    """

    def __init__(self, definition, config):
        twin = _scoring(definition)
        if twin is None:
            raise ValueError(f"{definition.name}'s scripted player gives no scores: no scripted prior")
        self._scores = jax.vmap(twin.batched_scripted_scores(config))
        self._best_actions = twin.best_actions
        self._best_of = jax.vmap(twin.best_of)

    def scores(self, observations: jax.Array, masks: jax.Array) -> jax.Array:
        """(games, actions) of a batch of one observation per game."""
        return self._scores(observations, masks)

    def best(self, scores: jax.Array, key: jax.Array) -> jax.Array:
        """The twin's action in each game, from its `scores`, ties drawn with `key`."""
        return self._best_of(scores, jax.random.split(key, scores.shape[0]))

    def features(self, observations: jax.Array, masks: jax.Array) -> jax.Array:
        """(games, actions, network.PRIOR_FEATURES)."""
        return self.features_of(self.scores(observations, masks))

    def features_of(self, scores: jax.Array) -> jax.Array:
        """The features from the twin's scores (-inf where it does not consider an action), over the last axis."""
        considered = jnp.isfinite(scores)
        best = jnp.max(scores, axis=-1, keepdims=True)
        worst = jnp.min(jnp.where(considered, scores, jnp.inf), axis=-1, keepdims=True)
        spread = jnp.maximum(best - worst, 1e-6)  # all it considers tie: no share to take
        below = jnp.where(considered, (scores - best) / spread, -1.0)
        top = self._best_actions(scores).astype(jnp.float32)
        return jnp.stack([top, below], axis=-1)  # network.PRIOR_FEATURES of them


class ScriptedSeats:
    def __init__(self, env: BatchedEnv, seed: int, processes: int = 1):
        twin = twin_of(env)
        if twin:
            self._twin = jax.vmap(twin)
            self._helpers = []
            return
        self._twin = None
        self.player = env.definition.scripted_player(env.config, seed)
        self._helpers = [_Helper(env.definition.name, env.config, seed + 1 + i) for i in range(processes - 1)]

    def actions(self, observations: jax.Array, masks: jax.Array, to_move: jax.Array, key: jax.Array) -> jax.Array:
        """The scripted player's action in each game where `to_move` (traceable); the twin's ties are drawn with
        `key`. Elsewhere 0, or the twin's choice for that seat, which the rollout does not play."""
        if self._twin is not None:
            return self._twin(observations, masks, jax.random.split(key, to_move.shape[0]))
        result = jax.ShapeDtypeStruct(to_move.shape, jnp.int32)
        return io_callback(self._play, result, observations, masks, to_move, ordered=True)

    def close(self) -> None:
        for helper in self._helpers:
            helper.close()
        self._helpers = []

    def _play(self, observations, masks, to_move) -> np.ndarray:
        # the callback gets JAX arrays: each index into one would be a dispatch of its own
        observations, masks = np.asarray(observations), np.asarray(masks)
        actions = np.zeros(to_move.shape, np.int32)
        here, *shares = np.array_split(np.flatnonzero(np.asarray(to_move)), len(self._helpers) + 1)
        for helper, games in zip(self._helpers, shares):
            helper.ask(observations[games], masks[games])
        actions[here] = decide(self.player, observations[here], masks[here])
        for helper, games in zip(self._helpers, shares):
            actions[games] = helper.answer()
        return actions


def decide(player, observations: np.ndarray, masks: np.ndarray) -> list[int]:
    return [player({"observation": o, "action_mask": m}) for o, m in zip(observations, masks)]


class _Helper:
    """A process with a scripted player of its own, deciding the games it is sent."""

    def __init__(self, game: str, config, seed: int):
        context = multiprocessing.get_context("spawn")  # a fork would copy JAX's threads
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs, game, config, seed), daemon=True)
        self._process.start()
        theirs.close()

    def ask(self, observations: np.ndarray, masks: np.ndarray) -> None:
        self._connection.send((observations, masks))

    def answer(self) -> list[int]:
        return self._connection.recv()

    def close(self) -> None:
        self._connection.send(None)
        self._process.join(timeout=10)
        self._connection.close()


def _serve(connection, game: str, config, seed: int) -> None:
    player = registry.game(game).scripted_player(config, seed)
    while (request := connection.recv()) is not None:
        connection.send(decide(player, *request))
