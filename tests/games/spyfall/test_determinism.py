"""Same seed, same actions, same game; copies and pickles resume exactly."""

import copy
import pickle

import numpy as np
import pytest

from hidden_role_envs import spyfall_v0
from tests.support import play_trace, uniform_choice


def play(env, actions_seed: int, steps: int | None = None):
    """Random legal play (passing often, so rounds run long); the trace of what every step showed."""
    rng = np.random.default_rng(actions_seed)
    pass_id = env.unwrapped.string_to_action("pass")
    uniform = uniform_choice(rng)

    def choose(obs):
        return pass_id if obs["action_mask"][pass_id] and rng.random() < 0.8 else uniform(obs)

    return play_trace(env, choose, steps)


@pytest.mark.parametrize("n", [3, 5, 8])
def test_same_seed_same_game(n):
    traces = []
    for _ in range(2):
        env = spyfall_v0.env(num_players=n, num_rounds=3)
        env.reset(seed=123)
        traces.append(play(env, 5))
    assert traces[0] == traces[1]
    assert len(traces[0]) > 30


def deal(env) -> tuple:
    eng = env.unwrapped.engine
    return eng.table.dealer, eng.spy, eng.location, tuple(eng.roles)


def test_different_seeds_give_different_deals():
    env = spyfall_v0.env(num_players=5)
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        deals.add(deal(env))
    assert len(deals) == 10


def test_reset_without_seed_continues_the_stream():
    env = spyfall_v0.env(num_players=5)
    env.reset(seed=7)
    first = deal(env)
    later = set()
    for _ in range(5):
        env.reset()
        later.add(deal(env))
    assert later - {first}


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("n", [4, 7])
def test_a_mid_game_copy_resumes_exactly(clone, n):
    env = spyfall_v0.env(num_players=n, num_rounds=3, render_mode="ansi")
    env.reset(seed=99)
    play(env, 1, steps=25)
    twin = clone(env)
    assert twin.render() == env.render()
    assert play(twin, 2) == play(env, 2)
    assert twin.unwrapped.engine is not env.unwrapped.engine
    assert twin.unwrapped.observer._buffers is not env.unwrapped.observer._buffers
