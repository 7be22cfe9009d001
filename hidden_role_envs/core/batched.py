"""The batched engine: a game's rules as pure JAX functions of fixed-shape arrays, thousands of games at once.

The PettingZoo env is the readable reference; each game's batched twin
(`games/<game>/batched.py`) reproduces it move for move: the same deal and
the same actions give the same observation (the same layout, every block),
mask, rewards and ends, which the parity tests check. The API is Pgx's
(`pgx.core.Env`), so code written for Pgx runs on it:

    env = hidden_role_envs.batched.make("secrets", num_players=5)
    state = jax.vmap(env.init)(keys)                   # one game per key
    state = jax.vmap(env.step)(state, actions, keys)   # one action per game
    observation = jax.vmap(env.observe, (0, None))(state, seat)

A `State` carries `current_player`, `observation` (the current player's),
`legal_action_mask` (bool), `rewards` (one per seat, this step's),
`terminated`, `truncated`, and the game's own arrays in `game`. With
`history_length=K` the observation ends with the reference's `history`
block (the last K events the seat saw), kept in `history` and
`history_seen` (`core.batched_events`).

`step` is one template for every game, as in Pgx: a game already over
stays as it is with zero rewards; an illegal action ends the game with -1
for the mover and 0 for everyone else (`illegal="penalize"` of `env()`); the
turn limit truncates. Unlike Pgx, the mask of a finished game is all False,
as `env()`'s is. `auto_reset` deals a new game where one ended;
`env.step_or_deal_batch` steps a whole batch so, dealing only the games that
ended and doing the rare long work of a step (a game's `settling`) only for
the games that need it (the trainer's and the benchmark's step). `env.move` is `step`
without the observation, for loops that observe once at their end, and
`env.move_batch` the same for a whole batch, settling as the batch step does.

Fixed deals come from the Python side: `env.setup({...})` reads the same
`setup` as `env().reset(options={"setup": ...})` (checked the same way) into
arrays, and `env.init(key, setup)` deals it; `stack` batches several.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("the batched engine needs JAX: pip install 'hidden_role_envs[jax]'") from error

from hidden_role_envs.core.batched_events import Histories, StepEvents
from hidden_role_envs.core.history import EventEncoding
from hidden_role_envs.core.observation import Layout
from hidden_role_envs.core.seats import NOBODY


def pytree(cls):
    """A frozen dataclass that JAX sees as a tree of arrays (so it goes through jit, vmap and scan)."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    jax.tree_util.register_dataclass(cls, data_fields=names, meta_fields=[])
    cls.replace = dataclasses.replace
    return cls


@pytree
class State:
    current_player: jax.Array
    observation: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    _step_count: jax.Array
    game: Any
    history: jax.Array  # (seats, K, width): each seat's last K events (K = 0 without an event history)
    history_seen: jax.Array  # (seats,) events each seat saw


class BatchedGame(ABC):
    """A game's twin: its rules as pure functions of its state (a `pytree`), for one game; vmap makes many."""

    def __init__(self, config: Any, reward_mode: str, layout: Layout, actions: Any):
        """What every twin holds: the reference's configuration, reward mode, layout (so the observation is the
        same vector) and action table's size."""
        self.config = config
        self.num_players = config.num_players
        self.reward_mode = reward_mode
        self.layout = layout
        self.num_actions = len(actions)

    @abstractmethod
    def setup(self, setup: dict) -> dict:
        """The arrays of a fixed deal, read and checked at the Python boundary (no tracing here)."""

    @abstractmethod
    def init(self, key: jax.Array, deal: dict, events: StepEvents | None = None) -> Any:
        """A new game: the fixed parts of `deal`, the rest drawn with `key`. Given `events` (with an event
        history), it tells them every event of the deal, in the reference's order (`core.batched_events`)."""

    @abstractmethod
    def step(self, game: Any, action: jax.Array, key: jax.Array,
             events: StepEvents | None = None) -> tuple[Any, jax.Array]:
        """Apply a legal action; the new state and this step's rewards (one per seat). Given `events`, it tells
        them every event of the step, in the reference's order."""

    @abstractmethod
    def legal_mask(self, game: Any) -> jax.Array:
        """bool[num_actions] for the seat to act (all False once over)."""

    # By convention a state has `over`, `to_act` (the seat asked to decide) and `turn` (turns completed), as the
    # reference's table has; a game whose state counts differently overrides these three.

    def current_player(self, game: Any) -> jax.Array:
        """The seat asked to decide, or NOBODY once the game is over."""
        return jnp.where(game.over, NOBODY, game.to_act)

    def is_over(self, game: Any) -> jax.Array:
        return game.over

    def turns_played(self, game: Any) -> jax.Array:
        """What `max_turns` counts."""
        return game.turn

    @abstractmethod
    def blocks(self, game: Any, seat: jax.Array) -> dict[str, jax.Array]:
        """Every block of `seat`'s observation in absolute seat order (its own private blocks only)."""

    def settling(self) -> tuple[tuple[Callable[[Any], jax.Array], Callable[[Any], Any]], ...]:
        """Work a step leaves to its end, in stages, each a pair: whether a game needs it, the game with it done.

        One game's `move` does every stage; a batch's step (`step_or_deal_batch`) does each for the games that
        need it only (`replaced_where`), the same work game for game. It is for work that few steps need and
        that runs long under `vmap`, where a loop lasts until the slowest game of the batch is done (Mascarade's
        correction of its beliefs after a sighting). Most games have none.
        """
        return ()

    seats_leave: bool = False  # a seat can be out before the game ends (`out_of_play`)

    def out_of_play(self, game: Any) -> jax.Array:
        """bool[num_players]: seats that will not decide again and whose reward is paid (put out early)."""
        return jnp.zeros(self.num_players, bool)

    critic_size: int = 0

    def critic_view(self, game: Any, seat: jax.Array) -> jax.Array:
        """The hidden roles as `seat` would name them (seats relative to it), for a critic in training only:
        a value estimate may use what the policy must not see. Games without one return nothing."""
        return jnp.zeros(0, jnp.float32)


class BatchedEnv:
    """A game's batched engine with Pgx's API (see the module docs)."""

    def __init__(self, definition, config, game: BatchedGame, max_turns: int | None, history_length: int = 0):
        self.definition = definition
        self.config = config
        self.game = game
        self.max_turns = max_turns
        self.layout = game.layout
        self.observation_fields = dict(self.layout.fields)
        self.action_names = definition.actions(config).names
        self._gather = jnp.asarray(self.layout.compact_gather, dtype=jnp.int32)
        self._order = [b.name for b in self.layout.blocks]
        self._shapes = dict(self.layout.shapes)
        self.history_length = history_length
        self.histories = None
        # the bounds of every entry of the observation, as env()'s observation space has them
        self.observation_low, self.observation_high = self.layout.low, self.layout.high
        if history_length:
            encoding = EventEncoding(definition.events, game.num_players, definition.words(config, 0).vocab)
            self.histories = Histories(encoding, history_length)
            block = encoding.block(history_length)
            size = history_length * encoding.width
            self.observation_fields["history"] = slice(self.layout.size, self.layout.size + size)
            self.observation_low = np.concatenate([self.observation_low, np.full(size, block.low, np.float32)])
            self.observation_high = np.concatenate([self.observation_high, np.full(size, block.high, np.float32)])
        self._observation_size = len(self.observation_low)

    # --- Pgx's properties -------------------------------------------------------

    @property
    def id(self) -> str:
        return self.definition.name

    @property
    def version(self) -> str:
        return f"v{self.definition.version}"

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def num_actions(self) -> int:
        return self.game.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self._observation_size,)

    # --- the API ------------------------------------------------------------------

    def setup(self, setup: dict | None) -> dict:
        """A `setup` dict (as `env().reset(options={"setup": ...})` takes it) as arrays for `init`."""
        return {} if not setup else self.game.setup(setup)

    def init(self, key: jax.Array, setup: dict | None = None) -> State:
        return self._observed(self._deal(key, setup))

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        return self._observed(self.move(state, action, key))

    def step_or_deal(self, state: State, action: jax.Array, key: jax.Array) -> State:
        """`step`, then a new game where this one ended (`auto_reset`), the observation computed once.

        A game dealt here keeps the ends and rewards of the step that ended the last one (Pgx's way), so
        they are cleared when it plays its first move.
        """
        step_key, deal_key = jax.random.split(key)
        state = self.move(_cleared(state), action, step_key, keep_unplayed=False)
        over = state.terminated | state.truncated
        return self._observed(_where(over, self._redealt(deal_key, *_last_step(state)), state))

    def step_or_deal_batch(self, states: State, actions: jax.Array, keys: jax.Array) -> State:
        """`jax.vmap(step_or_deal)` over a batch, game for game the same states, dealing only the games that ended.

        Under `vmap` every game would compute a new deal at every step and keep it where its game ended; in a
        batch a few games end per step (one in 50 for Secrets at 5 players), so this deals only those that
        ended (`replaced_where`). The game's `settling` is done the same way, for the games that need it only
        (its floats may round apart from the `vmap`'s in the last bit: XLA compiles the same arithmetic for
        another batch). It takes the batch itself (`states` with a leading axis of B games, `actions` (B,), `keys`
        one per game, as `jax.random.split` gives them), not one game: do not vmap it.
        """
        actions = jnp.asarray(actions)
        batch = actions.shape[0] if actions.ndim == 1 else None
        if batch is None or jnp.shape(keys)[:1] != (batch,) or jnp.shape(states.current_player) != (batch,):
            raise ValueError(f"step_or_deal_batch takes a batch: states, actions (B,) and keys (B, ...) of the same "
                             f"B games; got actions of shape {jnp.shape(actions)}, keys of shape {jnp.shape(keys)} "
                             f"and states of {jnp.shape(states.current_player)} games")
        step_keys, deal_keys = jnp.moveaxis(jax.vmap(jax.random.split)(keys), 1, 0)
        states = self.move_batch(jax.vmap(_cleared)(states), actions, step_keys, keep_unplayed=False)
        over = states.terminated | states.truncated
        states = replaced_where(over, self._redealt, (deal_keys, *_last_step(states)), states)
        return jax.vmap(self._observed)(states)

    def _redealt(self, key: jax.Array, terminated: jax.Array, truncated: jax.Array, rewards: jax.Array,
                 history: jax.Array, history_seen: jax.Array) -> State:
        """The new game that follows one that has ended (`_last_step` of it), with that step's ends and rewards
        (Pgx's way); its observation is left to compute."""
        game, events = self._new_game(key, {})
        if self.histories is not None:  # the new game's events go into the same rings: counts from 0
            history, history_seen = self.histories.record(history, jnp.zeros_like(history_seen), events)
        return self._dealt(game, history, history_seen).replace(terminated=terminated, truncated=truncated,
                                                                rewards=rewards)

    def _new_game(self, key: jax.Array, setup: dict) -> tuple[Any, StepEvents | None]:
        """A new game's arrays, and the events of its deal where there is an event history."""
        if self.histories is None:
            return self.game.init(key, setup), None
        events = StepEvents(self.histories.encoding)
        return self.game.init(key, setup, events=events), events

    def _deal(self, key: jax.Array, setup: dict | None = None) -> State:
        game, events = self._new_game(key, {} if setup is None else setup)
        if self.histories is None:
            rings, seen = jnp.zeros((self.num_players, 0, 0), jnp.float32), jnp.zeros(self.num_players, jnp.int32)
        else:
            rings, seen = self.histories.record(*self.histories.new(), events)
        return self._dealt(game, rings, seen)

    def _dealt(self, game: Any, rings: jax.Array, seen: jax.Array) -> State:
        return State(
            current_player=self.game.current_player(game),
            observation=jnp.zeros(self._observation_size, jnp.float32),
            legal_action_mask=self.game.legal_mask(game),
            rewards=jnp.zeros(self.num_players, jnp.float32),
            terminated=self.game.is_over(game),
            truncated=jnp.bool_(False),
            _step_count=jnp.int32(0),
            game=game,
            history=rings,
            history_seen=seen,
        )

    def move(self, state: State, action: jax.Array, key: jax.Array | None = None, keep_unplayed: bool = True) -> State:
        """`step` without the observation: `state.observation` is left as it was. For loops of many moves that
        need the observation once at the end (`observe` reads the state, not that field).

        A move not played (an illegal action, or a game already over) leaves the game as it was. Without
        `keep_unplayed` the game is what the step made of it even then, which saves a select of the whole game
        for callers that deal every such game anew (the auto-reset steps: after `_cleared` a move not played is
        an illegal one, which ends its game).
        """
        state = self._move(state, action, key, keep_unplayed)
        for _, finish in self.game.settling():
            state = state.replace(game=finish(state.game))
        return state

    def move_batch(self, states: State, actions: jax.Array, keys: jax.Array, moving: jax.Array | None = None,
                   keep_unplayed: bool = True) -> State:
        """`jax.vmap(move)` over a batch (not under `vmap`), doing the game's settling (`BatchedGame.settling`)
        for the games that need it only. Where `moving` (B,) is False a game stays as it is, at no settling cost.
        `keep_unplayed` as in `move`.
        """
        moved = jax.vmap(lambda *row: self._move(*row, keep_unplayed))(states, actions, keys)
        if moving is not None:
            moved = jax.vmap(_where)(moving, moved, states)
        for needs, finish in self.game.settling():
            games = moved.game
            moved = moved.replace(game=replaced_where(jax.vmap(needs)(games), finish, (games,), games))
        return moved

    def _move(self, state: State, action: jax.Array, key: jax.Array | None, keep_unplayed: bool = True) -> State:
        """`move`, its game's settling (`BatchedGame.settling`) left to do."""
        key = jax.random.PRNGKey(0) if key is None else key
        action = jnp.asarray(action, jnp.int32)
        done = state.terminated | state.truncated
        in_range = (action >= 0) & (action < self.num_actions)
        legal = in_range & state.legal_action_mask[jnp.clip(action, 0, self.num_actions - 1)]
        moved = legal & ~done
        if self.histories is None:
            game, rewards = self.game.step(state.game, jnp.where(legal, action, 0), key)
            rings, seen = state.history, state.history_seen
        else:  # only the events of a move played are kept (the rings are written in place, never copied whole)
            events = StepEvents(self.histories.encoding)
            game, rewards = self.game.step(state.game, jnp.where(legal, action, 0), key, events=events)
            rings, seen = self.histories.record(state.history, state.history_seen, events, moved)
        mover = state.current_player
        penalty = jnp.zeros(self.num_players, jnp.float32).at[mover].set(-1.0)
        played = game
        if keep_unplayed:
            played = jax.tree_util.tree_map(lambda new, old: jnp.where(moved, new, old), game, state.game)
        terminated = jnp.where(done, state.terminated, jnp.where(legal, self.game.is_over(game), True))
        turns = self.game.turns_played(played)
        limit = jnp.int32(2**30 if self.max_turns is None else self.max_turns)
        truncated = jnp.where(done, state.truncated, ~terminated & (turns >= limit))
        over = terminated | truncated
        new = State(
            current_player=self.game.current_player(played),
            observation=state.observation,
            legal_action_mask=jnp.where(over, False, self.game.legal_mask(played)),
            rewards=jnp.where(done, 0.0, jnp.where(legal, rewards, penalty)).astype(jnp.float32),
            terminated=terminated,
            truncated=truncated,
            _step_count=state._step_count + jnp.where(done, 0, 1),
            game=played,
            history=rings,
            history_seen=seen,
        )
        return new

    def observe(self, state: State, seat: jax.Array) -> jax.Array:
        """`seat`'s observation, the vector `env().observe(f"player_{seat}")["observation"]` gives.

        (`state.observation` is the current player's; once the game is over, seat 0's.)
        """
        seat = jnp.maximum(jnp.asarray(seat, jnp.int32), 0)
        blocks = self.game.blocks(state.game, seat)
        compact = jnp.concatenate([jnp.ravel(blocks[name]).astype(jnp.float32) for name in self._order])
        observation = compact[self._gather[seat]]
        if self.histories is None:
            return observation
        rows = self.histories.view(state.history, state.history_seen, seat)
        return jnp.concatenate([observation, rows.ravel()])

    def _observed(self, state: State) -> State:
        return state.replace(observation=self.observe(state, state.current_player))


def replaced_where(over: jax.Array, fresh: Callable, args: tuple, current):
    """`current` (a batch of B) with each row where `over` replaced by `fresh(*that row of args)`, computing
    `fresh` for those rows only.

    Under `vmap` every row would compute `fresh` and keep it where `over`; when a few rows are over (games that
    ended, in a batch where one game in 10 to 50 ends per step) this gathers them into room for `ceil(B / 32)`
    rows, else `ceil(B / 8)`, and computes all B only where more are over. Gathering and scattering cost too,
    hence the sizes. Row for row the result is that of the `vmap`.
    """
    batch = over.shape[0]
    rooms = sorted({-(-batch // 32), -(-batch // 8)} - {batch})

    def some(room: int):
        def replace(current):
            (rows,) = jnp.nonzero(over, size=room, fill_value=batch)  # `batch`: no row, dropped below
            picked = jnp.minimum(rows, batch - 1)
            new = jax.vmap(fresh)(*(jax.tree_util.tree_map(lambda leaf: leaf[picked], arg) for arg in args))
            return jax.tree_util.tree_map(lambda a, b: a.at[rows].set(b, mode="drop"), current, new)
        return replace

    def every(current):
        return jax.vmap(_where)(over, jax.vmap(fresh)(*args), current)

    smallest_room = jnp.searchsorted(jnp.asarray(rooms, jnp.int32), over.sum(), side="left")
    return jax.lax.switch(smallest_room, [some(room) for room in rooms] + [every], current)


def _cleared(state: State) -> State:
    """The state with no end marked: the ends and rewards a step reports are that step's."""
    return state.replace(terminated=jnp.zeros_like(state.terminated), truncated=jnp.zeros_like(state.truncated))


def _last_step(state: State) -> tuple[jax.Array, ...]:
    """What a new game keeps of the one it follows (`BatchedEnv._redealt`): not the game's own arrays."""
    return state.terminated, state.truncated, state.rewards, state.history, state.history_seen


def _where(condition: jax.Array, a, b):
    """`a` where `condition`, else `b`, leaf by leaf."""
    return jax.tree_util.tree_map(lambda x, y: jnp.where(condition, x, y), a, b)


def auto_reset(step, init):
    """`step` that deals a new game (`init(key)`) where one ended, keeping that step's rewards and ends (Pgx's).

    Given a BatchedEnv's own `step` and `init`, it is that env's `step_or_deal`, which computes the
    observation once instead of twice.
    """
    env = getattr(step, "__self__", None)
    if isinstance(env, BatchedEnv) and getattr(init, "__self__", None) is env:
        return env.step_or_deal

    def stepped(state: State, action: jax.Array, key: jax.Array) -> State:
        step_key, init_key = jax.random.split(key)
        state = step(_cleared(state), action, step_key)
        fresh = init(init_key).replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards)
        return _where(state.terminated | state.truncated, fresh, state)

    return stepped


def stack(setups: list[dict]) -> dict:
    """Several arrays from `setup` (one per game, the same keys) as one batch for `jax.vmap(env.init)`."""
    if not setups:
        return {}
    keys = setups[0].keys()
    if any(s.keys() != keys for s in setups):
        raise ValueError("stacked setups must fix the same parts of the deal")
    return {key: jnp.asarray(np.stack([np.asarray(s[key]) for s in setups])) for key in keys}


def shuffle(bits: jax.Array, items: jax.Array) -> jax.Array:
    """`items` in a uniformly random order, given one random uint32 per item (`jax.random.bits`).

    Each item is ranked by its number (ties broken by position); a sort would cost four times as much
    on a CPU. (26 random bits each: a tie, and its tiny bias, needs two equal draws of 26 bits.)
    """
    numbers = (bits >> 6) * 64 + jnp.arange(items.shape[0], dtype=jnp.uint32)
    rank = (numbers[None, :] < numbers[:, None]).sum(axis=1)
    return jnp.zeros_like(items).at[rank].set(items)


def random_legal_actions(key: jax.Array, masks: jax.Array) -> jax.Array:
    """A uniformly random legal action for each mask (over the last axis), from one uniform draw per mask: the
    k-th legal action, k drawn below the count of them; 0 where none is legal. (One draw per action, as Pgx's
    benchmarks draw, costs a game with a hundred actions more than its engine's step.)

    The k-th legal action is looked up in the mask packed into 32-bit words: first the word that holds it, by
    the words' counts, then its bit, by halving the word five times. A cumulative sum over every action finds
    the same action at six to eight times the cost, for 70 to 129 actions on a CPU.
    """
    size = masks.shape[-1]
    words = -(-size // 32)
    bits = jnp.pad(masks, [(0, 0)] * (masks.ndim - 1) + [(0, words * 32 - size)])
    bits = bits.reshape(*masks.shape[:-1], words, 32).astype(jnp.uint32)
    packed = (bits << jnp.arange(32, dtype=jnp.uint32)).sum(axis=-1, dtype=jnp.uint32)  # bit i: action 32w + i
    in_word = jax.lax.population_count(packed).astype(jnp.int32)
    before = jnp.cumsum(in_word, axis=-1) - in_word  # the legal actions in the words before each
    count = in_word.sum(axis=-1)
    k = jnp.minimum(jnp.floor(jax.random.uniform(key, count.shape) * count), count - 1).astype(jnp.int32)
    word = jnp.maximum((before <= k[..., None]).sum(axis=-1) - 1, 0)
    rank = k - jnp.take_along_axis(before, word[..., None], axis=-1)[..., 0]  # k's rank among the word's bits
    left = jnp.take_along_axis(packed, word[..., None], axis=-1)[..., 0]
    bit = jnp.zeros_like(rank)
    for width in (16, 8, 4, 2, 1):  # skip the next `width` bits where the rank lies beyond them
        below = jax.lax.population_count((left >> bit.astype(jnp.uint32)) & jnp.uint32(2**width - 1)).astype(jnp.int32)
        past = rank >= below
        rank = jnp.where(past, rank - below, rank)
        bit = jnp.where(past, bit + width, bit)
    return jnp.where(count > 0, word * 32 + bit, 0)


def one_hot(index: jax.Array, size: int) -> jax.Array:
    """One-hot of `index` (all zeros for a negative index: NOBODY)."""
    return (jnp.arange(size) == index).astype(jnp.float32)

