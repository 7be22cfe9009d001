"""Many games of one seat each, stepped together by the batched engine: a vector env for NumPy and torch users.

    from hidden_role_envs.wrappers.batched_vector import BatchedSingleSeatEnv
    envs = BatchedSingleSeatEnv("secrets", num_envs=256, num_players=5)
    observations, infos = envs.reset(seed=0)
    observations, rewards, terminated, truncated, infos = envs.step(actions)   # NumPy in and out
    masks = envs.action_masks()                                                  # (num_envs, actions) bool

It is a Gymnasium `VectorEnv` (`gymnasium.vector`), the batched twin of
`SingleSeatEnv`: in each game the learner plays one seat (a random one each
episode, or `seat=`), and the other seats are played inside the same batch,
in the same compiled step, by `opponents`: uniformly random legal play by
default, or any JAX function `(observation, mask, key) -> action` of one seat
(a policy network's greedy action, say), vmapped over the batch. Rewards are
the learner's, summed from its decision to its next one. A game that ends is
dealt again in the same step (Gymnasium's same-step autoreset): the returned
observation is the new game's, and `infos["final_observation"]` holds the
last one of the game that ended, with `infos["_final_observation"]` marking
which games did.

`Sb3VecEnv(envs)` presents it as a Stable-Baselines3 `VecEnv` with
`action_masks`, which sb3-contrib's MaskablePPO reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from hidden_role_envs import batched
from hidden_role_envs.core.batched import random_legal_actions, replaced_where
from hidden_role_envs.core.checks import check_int

# A seat whose decisions this many opponent moves in a row never come (a bug, or a game where the learner
# never acts) is a game to deal again rather than a loop without end.
MAX_OPPONENT_MOVES = 10_000
MAX_DEALS = 100


def random_opponent(observation: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
    """Uniform over the legal actions (one draw, whatever their number)."""
    return random_legal_actions(key, mask)


class BatchedSingleSeatEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        seat: int | None = None,
        opponents: Callable[[jax.Array, jax.Array, jax.Array], jax.Array] = random_opponent,
        **env_kwargs: Any,
    ):
        self.num_envs = check_int("num_envs", num_envs, 1)
        self.engine = batched.make(game, **env_kwargs)
        n = self.engine.num_players
        if seat is not None:
            check_int("seat", seat, 0, n - 1)
        self.fixed_seat = seat
        self.opponents = opponents
        low, high = self.engine.observation_low, self.engine.observation_high
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._reset_all = jax.jit(jax.vmap(self._new_game))
        self._step_all = jax.jit(self._step_batch)
        self._games = None
        self._key = jax.random.PRNGKey(0)

    # --- one game, as JAX functions (vmapped above) ------------------------------------

    def _new_game(self, key: jax.Array):
        """A deal and the other seats' moves up to the learner's first decision (a deal that ends before it
        holds nothing to learn from: it is dealt again, as `SingleSeatEnv` does)."""

        def deal(key):
            seat_key, game_key, play_key = jax.random.split(key, 3)
            n = self.engine.num_players
            seat = jax.random.randint(seat_key, (), 0, n) if self.fixed_seat is None else jnp.int32(self.fixed_seat)
            alone = jax.tree_util.tree_map(lambda leaf: leaf[None], (self.engine.init(game_key), seat, play_key))
            state, paid = jax.tree_util.tree_map(lambda leaf: leaf[0], self._play_others(*alone))  # a batch of one
            return state, seat, paid

        def ended(carry):
            (state, _, _), _, tries = carry
            return (state.terminated | state.truncated) & (tries < MAX_DEALS)

        def again(carry):
            _, key, tries = carry
            key, deal_key = jax.random.split(key)
            return deal(deal_key), key, tries + 1

        key, first = jax.random.split(key)
        (state, seat, paid), _, _ = jax.lax.while_loop(ended, again, (deal(first), key, jnp.int32(1)))
        return state.replace(observation=self.engine.observe(state, seat)), seat, paid  # the learner's, once

    # --- the whole batch -----------------------------------------------------------------

    def _play_others(self, states, seats, keys):
        """In every game the other seats play until the learner must decide or the game is over; what that paid
        each learner.

        One loop for the batch, in which every game still waiting moves (`BatchedEnv.move_batch`: a game's
        settling is done for the games that need it only), until the last game's wait is over. The states'
        observations are left to the caller (the learner's, once): each opponent gets its own through `observe`,
        which XLA leaves out where the opponent reads only the mask (`random_opponent`)."""
        games = jnp.arange(seats.shape[0])

        def waiting(states, moves):
            over = states.terminated | states.truncated
            return ~over & (states.current_player != seats) & (moves < MAX_OPPONENT_MOVES)

        def anyone_waiting(carry):
            states, _, _, moves = carry
            return waiting(states, moves).any()

        def one_move(carry):
            states, keys, paid, moves = carry
            playing = waiting(states, moves)
            next_keys, act_keys, step_keys = jnp.moveaxis(jax.vmap(lambda key: jax.random.split(key, 3))(keys), 1, 0)
            actions = jax.vmap(lambda state, key: self.opponents(
                self.engine.observe(state, state.current_player), state.legal_action_mask, key))(states, act_keys)
            states = self.engine.move_batch(states, actions, step_keys, moving=playing)
            paid = paid + jnp.where(playing, states.rewards[games, seats], 0.0)
            return states, next_keys, paid, moves + 1  # (a game that stops waiting never waits again)

        start = (states, keys, jnp.zeros(seats.shape, jnp.float32), jnp.zeros(seats.shape, jnp.int32))
        states, _, paid, _ = jax.lax.while_loop(anyone_waiting, one_move, start)
        return states, paid

    def _step_batch(self, states, seats, actions, keys):
        """Every game's learner move and the others' up to its next decision, then a new game (`_new_game`) where
        one ended, dealt for those games only: a deal plays the others up to the learner's first decision, as
        costly as a move or more. Also what the step paid each learner and its last observation, ends included
        (the final observation where the game ended)."""
        step_keys, play_keys, deal_keys = jnp.moveaxis(jax.vmap(lambda key: jax.random.split(key, 3))(keys), 1, 0)
        states = self.engine.move_batch(states, actions, step_keys)
        rewards = states.rewards[jnp.arange(seats.shape[0]), seats]
        states, paid = self._play_others(states, seats, play_keys)
        observations = jax.vmap(self.engine.observe)(states, seats)
        states = states.replace(observation=observations)
        final = (observations, states.terminated, states.truncated)
        over = states.terminated | states.truncated
        states, seats = replaced_where(over, lambda key: self._new_game(key)[:2], (deal_keys,),
                                       (states, seats))
        return states, seats, rewards + paid, final

    # --- the Gymnasium VectorEnv API ---------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:
            raise ValueError("the batched single-seat env takes no reset options (fixed deals: use the engine)")
        if seed is not None:
            self._key = jax.random.PRNGKey(check_int("seed", seed, 0))
        self._key, key = jax.random.split(self._key)
        self._games, self._seats, _ = self._reset_all(jax.random.split(key, self.num_envs))
        return self._observations(), {"seat": np.asarray(self._seats)}

    def step(self, actions):
        if self._games is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integer action ids; got shape {actions.shape} of "
                             f"{actions.dtype}")
        self._key, key = jax.random.split(self._key)
        self._games, self._seats, rewards, (final, terminated, truncated) = self._step_all(
            self._games, self._seats, jnp.asarray(actions, jnp.int32), jax.random.split(key, self.num_envs)
        )
        terminated, truncated = np.asarray(terminated), np.asarray(truncated)
        ended = terminated | truncated
        infos = {"seat": np.asarray(self._seats), "final_observation": np.asarray(final), "_final_observation": ended}
        return self._observations(), np.asarray(rewards, np.float32), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) bool: the learner's legal actions in each game (MaskablePPO reads them)."""
        return np.array(self._games.legal_action_mask)

    def _observations(self) -> np.ndarray:
        return np.array(self._games.observation)  # a writable copy: torch refuses read-only arrays


def sb3_vec_env(envs: BatchedSingleSeatEnv):
    """`envs` as a Stable-Baselines3 VecEnv (needs the `train` extra), with `action_masks` for MaskablePPO."""
    from stable_baselines3.common.vec_env import VecEnv

    class Sb3VecEnv(VecEnv):
        def __init__(self):
            super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
            self._actions = None

        def reset(self):
            observations, _ = envs.reset(seed=self._seeds[0] if getattr(self, "_seeds", None) else None)
            return observations

        def step_async(self, actions):
            self._actions = actions

        def step_wait(self):
            observations, rewards, terminated, truncated, infos = envs.step(np.asarray(self._actions, np.int64))
            dones = terminated | truncated
            per_env = [
                {"terminal_observation": infos["final_observation"][i], "TimeLimit.truncated": bool(truncated[i])}
                if dones[i] else {}
                for i in range(envs.num_envs)
            ]
            return observations, rewards, dones, per_env

        def close(self):
            envs.close()

        def get_attr(self, attr_name, indices=None):
            return [getattr(envs, attr_name)] * len(self._indices(indices))

        def set_attr(self, attr_name, value, indices=None):
            raise AttributeError("the batched env's attributes are shared by every game; none can be set per game")

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
            if method_name != "action_masks":
                raise AttributeError(f"the batched env has no per-game method {method_name!r}")
            return list(envs.action_masks()[self._indices(indices)])

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * len(self._indices(indices))

        def has_attr(self, attr_name):
            return attr_name == "action_masks" or hasattr(envs, attr_name)

        def seed(self, seed=None):
            self._seeds = [seed]
            return [seed]

        def _indices(self, indices):
            if indices is None:
                return list(range(envs.num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

    return Sb3VecEnv()
