"""The batched single-seat vector env: NumPy in and out, opponents in the same batch, usable by MaskablePPO."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from hidden_role_envs.wrappers.batched_vector import BatchedSingleSeatEnv, sb3_vec_env  # noqa: E402
from tests.batched.parity import assert_same_states  # noqa: E402


@pytest.fixture(scope="module")
def envs():
    return BatchedSingleSeatEnv("secrets", num_envs=16, num_players=5)


def test_a_random_learner_plays_whole_games_and_wins_its_share(envs):
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (16, envs.single_observation_space.shape[0])
    assert envs.single_observation_space.contains(observations[0])
    rng = np.random.default_rng(0)
    returns = []
    running = np.zeros(16)
    for _ in range(300):
        masks = envs.action_masks()
        assert masks.shape == (16, envs.single_action_space.n) and masks.any(axis=1).all()
        observations, rewards, terminated, truncated, infos = envs.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        running += rewards
        for i in np.flatnonzero(terminated | truncated):
            returns.append(running[i])
            running[i] = 0
            assert infos["_final_observation"][i]
        assert not truncated.any()  # Secrets ends by its rules
    assert len(returns) > 50
    assert set(returns) <= {1.0, -1.0}  # "win": one result per game, paid to the learner once
    wins = np.mean(np.array(returns) > 0)
    assert 0.15 < wins < 0.5  # a random seat at 5 players wins about 0.3


def test_the_same_seed_replays_the_same_games(envs):
    def run():
        observations, infos = envs.reset(seed=3)
        seats = infos["seat"]
        trace = [observations]
        for _ in range(20):
            actions = envs.action_masks().argmax(axis=1)
            trace.append(envs.step(actions)[0])
        return seats, np.stack(trace)

    (seats, trace), (seats_again, trace_again) = run(), run()
    assert np.array_equal(seats, seats_again) and np.array_equal(trace, trace_again)
    envs.reset(seed=4)
    assert not np.array_equal(envs.reset(seed=3)[0], envs.reset(seed=4)[0])  # and another seed, other games


@pytest.mark.parametrize("game, players", [("secrets", 4), ("mascarade", 9)])
def test_the_batch_step_is_each_games_own_and_deals_only_the_games_that_ended(game, players):
    """16 games stepped together, against each game stepped alone (a batch of one, a new game computed whether it
    ended or not): room for 1 new game, then 2, then all 16; steps where 0, 1, 2 and more games end all come.
    Mascarade at 9 players settles its beliefs after its moves (`BatchedGame.settling`), in the batch for the
    games that need it only: the same, to float32's rounding."""
    envs = BatchedSingleSeatEnv(game, num_envs=16, num_players=players)

    def one_game(state, seat, action, key):
        step_key, play_key, deal_key = jax.random.split(key, 3)
        state = envs.engine.move(state, action, step_key)
        reward = state.rewards[seat]
        alone = jax.tree_util.tree_map(lambda leaf: leaf[None], (state, seat, play_key))
        state, paid = jax.tree_util.tree_map(lambda leaf: leaf[0], envs._play_others(*alone))
        state = state.replace(observation=envs.engine.observe(state, seat))
        final = (state.observation, state.terminated, state.truncated)
        fresh, fresh_seat, _ = envs._new_game(deal_key)
        over = state.terminated | state.truncated
        state = jax.tree_util.tree_map(lambda new, old: jnp.where(over, new, old), fresh, state)
        return state, jnp.where(over, fresh_seat, seat), reward + paid, final

    each = jax.jit(jax.vmap(one_game))
    envs.reset(seed=0)
    games, seats = envs._games, envs._seats
    rng = np.random.default_rng(0)
    endings = set()
    for t in range(80):
        actions = jnp.asarray([rng.choice(np.flatnonzero(m)) for m in np.asarray(games.legal_action_mask)], jnp.int32)
        keys = jax.random.split(jax.random.PRNGKey(t), 16)
        expected, stepped = each(games, seats, actions, keys), envs._step_all(games, seats, actions, keys)
        assert_same_states(expected, stepped, f"step {t}", rounding=1e-6 if game == "mascarade" else 0.0)
        games, seats = stepped[:2]
        endings.add(min(int((stepped[3][1] | stepped[3][2]).sum()), 3))
    assert endings == {0, 1, 2, 3}


def test_a_fixed_seat_is_the_learners_in_every_game():
    envs = BatchedSingleSeatEnv("secrets", num_envs=4, num_players=4, seat=1)
    _, infos = envs.reset(seed=3)
    assert (infos["seat"] == 1).all()


def test_with_an_event_history_the_observation_ends_with_the_learners_last_events():
    envs = BatchedSingleSeatEnv("secrets", num_envs=4, num_players=5, seat=0, history_length=6)
    history = envs.engine.observation_fields["history"]
    observations, _ = envs.reset(seed=5)
    assert observations.shape == (4, history.stop) == (4, envs.single_observation_space.shape[0])
    assert envs.single_observation_space.contains(observations[0])
    assert (observations[:, history] != 0).any(axis=1).all()  # the seat's early looks, at least


def test_bad_input_is_refused(envs):
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="16 integer action ids"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="num_envs"):
        BatchedSingleSeatEnv("secrets", num_envs=0)
    with pytest.raises(ValueError, match="seat"):
        BatchedSingleSeatEnv("secrets", num_envs=2, seat=9)


def test_maskable_ppo_learns_on_it(envs):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    model = sb3_contrib.MaskablePPO("MlpPolicy", sb3_vec_env(envs), n_steps=16, batch_size=64, seed=0, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512
