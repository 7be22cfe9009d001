"""The batched engine's cases of the benchmark suite, beside Pgx's Leduc Hold'em in the same loop.

Each case plays B games at once, compiled whole: `CHUNK` moves per call of
one `lax.scan`, each move a uniformly random legal action per game (one
uniform draw per game, `core.batched.random_legal_actions`), a step that deals a new game
where one ended, and the current player's observation computed, as Pgx's own
benchmarks do. The step is each engine's own for a batch: ours is
`step_or_deal_batch`, which deals only the games that ended; Pgx's is its
`auto_reset` under `vmap`, which deals every game and keeps the new ones
where games ended. The first call compiles; its time is the case's compile
time. Timed by the wall clock (XLA runs on every core). Memory is the size
of one game's state (the batch's arrays over B).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable

from hidden_role_envs.benchmarks.cases import Case, Run, Stopwatch

CHUNK = 32  # moves per compiled call


def jax_available() -> bool:
    return importlib.util.find_spec("jax") is not None


class BatchedCase(Case):
    """B games of one batched env (ours or Pgx's) with its init (of one game) and its auto-resetting step (of the
    batch)."""

    in_process = False  # XLA's threads: the wall clock measures it

    def __init__(self, family: str, subject: str, players: int, batch: int, make: Callable, seed: int):
        super().__init__(family, subject, f"batched B={batch}", players)
        self.batch, self.make, self.seed = batch, make, seed
        self.compile_seconds = None
        self.state_bytes_per_game = None

    def prepare(self) -> None:
        import jax

        from hidden_role_envs.core import batched as engine

        init, step = self.make()
        batch = self.batch
        keys = jax.random.split(jax.random.PRNGKey(self.seed), batch)

        def move(carry, _):
            state, key = carry
            key, act_key, step_key = jax.random.split(key, 3)
            action = engine.random_legal_actions(act_key, state.legal_action_mask)
            state = step(state, action, jax.random.split(step_key, batch))
            return (state, key), (state.terminated | state.truncated).sum()

        @jax.jit
        def chunk(state, key):
            (state, key), ended = jax.lax.scan(move, (state, key), None, length=CHUNK)
            return state, key, ended.sum()

        started = time.perf_counter()
        state = jax.jit(jax.vmap(init))(keys)
        state, key, _ = chunk(state, jax.random.PRNGKey(self.seed + 1))
        jax.block_until_ready(state)
        self.compile_seconds = time.perf_counter() - started
        self.state_bytes_per_game = sum(leaf.nbytes for leaf in jax.tree_util.tree_leaves(state)) / batch
        self._chunk, self._state, self._key = chunk, state, key

    def run(self, seconds: float) -> Run:
        import jax

        steps = games = 0
        watch = Stopwatch()
        while watch.elapsed() < seconds:
            self._state, self._key, ended = self._chunk(self._state, self._key)
            games += int(ended)  # (reading it waits for the chunk)
            steps += CHUNK * self.batch
        jax.block_until_ready(self._state)
        return watch.run(steps, games)

    def close(self) -> None:
        self._chunk = self._state = None


def ours(game: str, players: int) -> Callable:
    def make():
        from hidden_role_envs import batched

        env = batched.make(game, num_players=players)
        return env.init, env.step_or_deal_batch

    return make


def pgx_leduc() -> tuple[Callable, str | None]:
    """Pgx's Leduc Hold'em, or why it cannot run here."""
    if importlib.util.find_spec("pgx") is None:
        return None, "pgx is not installed (the bench extra)"

    def make():
        import jax
        import pgx
        from pgx.experimental import auto_reset

        env = pgx.make("leduc_holdem")
        return env.init, jax.vmap(auto_reset(env.step, env.init))

    return make, None
