"""The single-seat Gymnasium view of every game."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hidden_role_envs  # noqa: F401  (registers the Gymnasium ids)
from hidden_role_envs import SingleSeatEnv
from hidden_role_envs.core.registry import GAMES

TABLES = {name: game.typical_players for name, game in GAMES.items()}


def test_every_game_has_a_gymnasium_id():
    assert all(game.single_seat_id in gymnasium.registry for game in GAMES.values())
    assert GAMES["secrets"].single_seat_id == "hidden_roles/Secrets-v1"


# The checkers advise against unbounded Box limits (Mascarade's coins have none): advice, not failure.
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("game", sorted(TABLES))
def test_passes_gymnasium_check_env(game):
    env = gymnasium.make(GAMES[game].single_seat_id, num_players=TABLES[game], opponents="scripted")
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("game", sorted(TABLES))
def test_passes_stable_baselines3_check_env(game):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(SingleSeatEnv(game, num_players=TABLES[game]), warn=True)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_learner_acts_only_on_its_own_turns_and_gets_only_its_reward(game):
    env = SingleSeatEnv(game, num_players=TABLES[game], opponents="random")
    aec = env.aec
    paid = []  # what the AEC env pays at each of its steps, the learner's or another seat's
    step, reset = aec.step, aec.reset

    def recording_step(action):
        step(action)
        paid.append(dict(aec.rewards))

    def recording_reset(**kwargs):  # a deal that ends before the learner's first decision is dealt again
        paid.clear()
        reset(**kwargs)

    aec.step, aec.reset = recording_step, recording_reset
    rng = np.random.default_rng(0)
    for episode in range(30):
        paid.clear()
        obs, info = env.reset(seed=episode)
        learner = env.learner
        assert info["seat"] == env.seat
        total = 0.0
        while True:
            assert aec.agent_selection == learner  # the other seats' turns were consumed
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            assert np.array_equal(obs, aec.observe(learner)["observation"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            if terminated or truncated:
                break
        assert total == pytest.approx(sum(rewards.get(learner, 0.0) for rewards in paid))


def test_a_fixed_seat_and_the_same_seed_replay_the_same_episode():
    def episode(seed):
        env = SingleSeatEnv("secrets", num_players=6, seat=2, opponents=["random", "scripted"])
        obs, _ = env.reset(seed=seed)
        trace = [obs.tobytes()]
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            trace.append((obs.tobytes(), reward))
            done = terminated or truncated
        return env.seat, trace

    assert episode(7) == episode(7)
    assert episode(7)[0] == 2


def test_an_illegal_action_ends_the_episode_with_a_penalty():
    env = SingleSeatEnv("secrets", num_players=5)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0
    assert info["illegal_move"]["action"] == illegal
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_with_illegal_raise_the_error_comes_through():
    env = SingleSeatEnv("secrets", num_players=5, illegal="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="cannot play"):
        env.step(int(np.flatnonzero(~env.action_masks())[0]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"opponents": "smart"}, "unknown policy 'smart'"),
        ({"opponents": "missing.zip"}, "no saved model at 'missing.zip'"),
        ({"opponents": []}, "at least one policy"),
        ({"seat": 9}, "seat must be None"),
        ({"num_players": 3}, "num_players must be an integer from 4 to 8"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SingleSeatEnv(**kwargs)


def test_a_callable_opponent_is_used_as_it_is():
    calls = []

    def first_legal(observation):
        calls.append(1)
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = SingleSeatEnv("hoax", num_players=3, seat=0, opponents=first_legal)
    env.reset(seed=1)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        done = terminated or truncated
    assert calls


def test_an_opponent_that_plays_illegally_is_named_and_never_ends_the_learners_episode():
    env = SingleSeatEnv("secrets", num_players=5, seat=0, opponents=lambda observation: 10_000)
    with pytest.raises(ValueError, match=r"the opponent '<lambda>' in player_\d played 10000, which is not a legal"):
        for seed in range(20):
            env.reset(seed=seed)
            env.step(int(np.flatnonzero(env.action_masks())[0]))

    def illegal(observation):
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])

    env = SingleSeatEnv("secrets", num_players=5, seat=0, opponents=illegal)
    with pytest.raises(ValueError, match=r"the opponent 'illegal' in player_\d played \d+ \('[^']+'\), which is not"):
        for seed in range(20):
            env.reset(seed=seed)
            env.step(int(np.flatnonzero(env.action_masks())[0]))
