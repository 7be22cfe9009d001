"""`step_or_deal` (auto-reset): where a game ends, the next state is that step's ends and rewards over a new game
dealt as `init` deals it, every seat's observation included (the event history too, whose rings are reused); a game
ended by an illegal action too, though its step does not keep the game as it was (nothing of it is left)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hidden_role_envs import batched
from tests.batched.parity import assert_same_states, fast_jit


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
        illegal = np.zeros(games, bool)
        if t % 10 == 9:  # two games play an action their mask forbids (or no action at all): the mover loses
            illegal[:2] = True
            actions[0], actions[1] = -1, np.flatnonzero(~mask[1])[0]
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
            for g in np.flatnonzero(illegal):
                penalty = -(seats == int(state.current_player[g])).astype(np.float32)
                assert over[g] and np.array_equal(np.asarray(stepped.rewards[g]), penalty), f"step {t}, game {g}"
            ended += int(over.sum())
        state = stepped
    assert ended >= 10


@pytest.mark.parametrize("game, players, history_length", [("secrets", 5, 3), ("spyfall", 5, 0), ("hoax", 4, 2)])
def test_the_batch_step_deals_only_the_games_that_ended_and_gives_the_same_states(game, players, history_length):
    """16 games: room for 1 game, then 2, then all 16; steps where 0, 1, 2 and more games end all come (every
    tenth step three games play an illegal action, which ends them)."""
    env = batched.make(game, num_players=players, history_length=history_length)
    games = 16
    state = fast_jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), games))
    each = fast_jit(jax.vmap(env.step_or_deal))
    batch = fast_jit(env.step_or_deal_batch)
    rng = np.random.default_rng(0)
    endings = set()
    for t in range(150):
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int32)
        if t % 10 == 9:
            actions[:3] = -1
        keys = jax.random.split(jax.random.PRNGKey(100 + t), games)
        expected, stepped = each(state, actions, keys), batch(state, actions, keys)
        assert_same_states(expected, stepped, f"step {t}")
        endings.add(min(int((stepped.terminated | stepped.truncated).sum()), 3))
        state = stepped
    assert endings == {0, 1, 2, 3}


def test_the_batch_step_refuses_one_game_or_mismatched_batches():
    env = batched.make("secrets", num_players=4)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 4))
    with pytest.raises(ValueError, match="takes a batch"):
        env.step_or_deal_batch(state, np.zeros(3, np.int32), jax.random.split(jax.random.PRNGKey(1), 3))
    with pytest.raises(ValueError, match="takes a batch"):
        env.step_or_deal_batch(state, np.int32(0), jax.random.PRNGKey(1))


def test_the_batch_step_corrects_the_beliefs_of_the_games_that_need_it_only_with_the_same_states():
    """Mascarade above 7 cards leaves its correction after a sighting to the end of the step (`settling`); the
    batch does each stage for the games that need it, in rooms of 1, 2 or all 16: the same states, to float32's
    rounding of the beliefs. Steps where no game, one game and several games need each stage all come."""
    env = batched.make("mascarade", num_players=9)
    games = 16
    state = fast_jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), games))
    each = fast_jit(jax.vmap(env.step_or_deal))
    batch = fast_jit(env.step_or_deal_batch)
    (needs_deductions, deduced), (needs_scaling, _) = env.game.settling()

    @fast_jit
    def waiting(state, actions, keys):  # how many games need each stage after this move
        games = jax.vmap(env._move)(state, actions, keys).game
        return jax.vmap(needs_deductions)(games).sum(), jax.vmap(needs_scaling)(jax.vmap(deduced)(games)).sum()

    rng = np.random.default_rng(0)
    seen = set()
    for t in range(120):
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int32)
        keys = jax.random.split(jax.random.PRNGKey(100 + t), games)
        expected, stepped = each(state, actions, keys), batch(state, actions, keys)
        assert_same_states(expected, stepped, f"step {t}", rounding=1e-6)
        step_keys = jax.vmap(lambda key: jax.random.split(key)[0])(keys)
        first, second = waiting(state, actions, step_keys)
        seen |= {("deductions", min(int(first), 2)), ("scaling", min(int(second), 1))}
        state = stepped
    assert seen == {("deductions", 0), ("deductions", 1), ("deductions", 2), ("scaling", 0), ("scaling", 1)}
