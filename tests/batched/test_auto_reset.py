"""`step_or_deal` (auto-reset): where a game ends, the next state is that step's ends and rewards over a new game
dealt as `init` deals it, every seat's observation included (the event history too, whose rings are reused)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hidden_role_envs import batched
from tests.batched.parity import fast_jit


@pytest.mark.parametrize("game, players, history_length", [("secrets", 5, 0), ("secrets", 5, 3), ("spyfall", 3, 4)])
def test_a_game_that_ends_is_followed_by_a_new_game_as_init_deals_it(game, players, history_length):
    env = batched.make(game, num_players=players, history_length=history_length)
    games = 16
    state = fast_jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), games))
    step = fast_jit(jax.vmap(env.step_or_deal))
    init = fast_jit(jax.vmap(env.init))
    seats = np.arange(players)
    observe_all = fast_jit(jax.vmap(lambda s: jax.vmap(lambda seat: env.observe(s, seat))(seats)))
    rng = np.random.default_rng(0)
    ended = 0
    for t in range(120):
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int32)
        keys = jax.random.split(jax.random.PRNGKey(100 + t), games)
        stepped = step(state, actions, keys)
        over = np.asarray(stepped.terminated | stepped.truncated)
        if over.any():
            fresh = init(jax.vmap(lambda k: jax.random.split(k)[1])(keys))  # the deal's half of each key
            after, expected = np.asarray(observe_all(stepped)), np.asarray(observe_all(fresh))
            for g in np.flatnonzero(over):
                assert np.array_equal(after[g], expected[g]), f"step {t}, game {g}"
                assert np.array_equal(stepped.legal_action_mask[g], fresh.legal_action_mask[g])
                assert stepped.current_player[g] == fresh.current_player[g]
                assert np.asarray(stepped.rewards[g]).any()  # the ending step's rewards stay, as in Pgx
            ended += int(over.sum())
        state = stepped
    assert ended >= 10
