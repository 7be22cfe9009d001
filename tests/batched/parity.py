"""Playing the reference env and the batched engine side by side, move for move."""

from __future__ import annotations

import functools

import numpy as np

jax = __import__("pytest").importorskip("jax")

import hidden_role_envs.batched as batched  # noqa: E402
from hidden_role_envs.core.batched import stack  # noqa: E402

TOLERANCE = 1e-6
# Parity plays few batched steps: an unoptimised compile (about 2.5x faster to build) is the cheaper whole.
fast_jit = functools.partial(jax.jit, compiler_options={"xla_backend_optimization_level": 0})


def assert_same_states(expected, actual, where: str, rounding: float = 0.0) -> None:
    """Leaf by leaf, equal; float leaves within `rounding` where given (arithmetic that XLA compiled for another
    batch size can round apart in the last bit)."""
    leaves, _ = jax.tree_util.tree_flatten_with_path(expected)
    for (path, a), b in zip(leaves, jax.tree_util.tree_leaves(actual), strict=True):
        a, b = np.asarray(a), np.asarray(b)
        if rounding and a.dtype == np.float32 and a.size:
            assert np.abs(a - b).max() <= rounding, f"{where}: {jax.tree_util.keystr(path)}"
        else:
            assert np.array_equal(a, b), f"{where}: {jax.tree_util.keystr(path)}"


class Twins:
    """B reference games and one batch of their twins, dealt the same and played with the same actions."""

    def __init__(self, game, num_players: int, setups: list[dict], arguments: dict | None = None):
        arguments = arguments or {}
        self.env = batched.make(game.name, num_players=num_players, **arguments)
        self.refs = [game.env(num_players=num_players, **arguments) for _ in setups]
        for ref, setup in zip(self.refs, setups):
            ref.reset(seed=0, options={"setup": setup})
        keys = jax.random.split(jax.random.PRNGKey(0), len(setups))
        self.state = fast_jit(jax.vmap(self.env.init))(keys, stack([self.env.setup(s) for s in setups]))
        self._step = fast_jit(jax.vmap(self.env.step))
        seats = np.arange(num_players)
        self._observe = fast_jit(jax.vmap(lambda state: jax.vmap(lambda seat: self.env.observe(state, seat))(seats)))
        self.num_players = num_players
        self.steps_compared = 0
        self.truncated_games = 0  # games that reached the turn limit, compared there too

    def compare(self, rewards_from_step: bool) -> None:
        """Every seat's observation, the mask, the player to act, this step's rewards and the ends."""
        state = jax.tree_util.tree_map(np.asarray, self.state)
        observations = np.asarray(self._observe(self.state))
        seats = range(self.num_players)
        for g, ref in enumerate(self.refs):
            if self._finished[g]:
                continue
            u = ref.unwrapped
            where = f"game {g}, after {self._played[g]} actions"
            if self.env.history_length:  # the whole observation, the history block last
                expected = np.stack([ref.observe(agent)["observation"] for agent in ref.possible_agents])
            else:
                expected = np.stack([u.observer.encode(seat) for seat in seats])
            close = np.abs(observations[g] - expected) <= TOLERANCE
            if not close.all():
                seat = int(np.flatnonzero(~close.all(axis=1))[0])
                bad = [name for name, at in u.observation_fields.items() if not close[seat, at].all()]
                raise AssertionError(f"{where}: player_{seat}'s observation differs in {bad}")
            player = u.engine.current_player
            assert state.current_player[g] == player, where
            limit = u.max_turns
            truncated = limit is not None and not u.engine.is_over and u.engine.turns_played >= limit
            if player >= 0:  # the env's mask: none once the game is over or stopped by the turn limit
                mask = ref.observe(ref.possible_agents[player])["action_mask"]
                assert np.array_equal(state.legal_action_mask[g], mask.astype(bool)), where
            else:
                assert not state.legal_action_mask[g].any(), where
            if rewards_from_step:
                paid = [ref.rewards.get(agent, 0.0) for agent in ref.possible_agents]
                assert (np.abs(state.rewards[g] - paid) <= TOLERANCE).all(), f"{where}: {state.rewards[g]} != {paid}"
            assert bool(state.terminated[g]) == u.engine.is_over, where
            assert bool(state.truncated[g]) == truncated, where
            if u.engine.is_over or truncated:
                self._finished[g] = True
                self.truncated_games += truncated
        self.steps_compared += 1

    def play(self, seed: int, choose=None) -> int:
        """Random legal play (or `choose(ref, rng, mask)`) to the end of every game; returns the steps compared."""
        rng = np.random.default_rng(seed)
        self._finished = [False] * len(self.refs)
        self._played = [0] * len(self.refs)
        self.compare(rewards_from_step=False)
        while not all(self._finished):
            actions = np.zeros(len(self.refs), dtype=np.int32)
            for g, ref in enumerate(self.refs):
                if self._finished[g]:
                    continue
                mask = ref.unwrapped.engine.legal_mask()
                actions[g] = choose(ref, rng, mask) if choose else rng.choice(mask.nonzero()[0])
                ref.step(int(actions[g]))
                self._played[g] += 1
            self.state = self._step(self.state, actions, jax.random.split(jax.random.PRNGKey(seed), len(self.refs)))
            self.compare(rewards_from_step=True)
            for ref in self.refs:  # the seats that just ended take their None step
                while ref.agents and (ref.terminations[ref.agent_selection] or ref.truncations[ref.agent_selection]):
                    ref.step(None)
        return self.steps_compared
