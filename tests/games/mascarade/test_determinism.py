"""Same seed, same actions, same game; copies and pickles resume exactly."""

import copy
import pickle

import numpy as np
import pytest

from hidden_role_envs import mascarade_v0
from tests.support import play_trace, uniform_choice


def play(env, actions_seed: int, steps: int | None = None):
    """Uniformly random legal play; the trace of what every step showed."""
    return play_trace(env, uniform_choice(np.random.default_rng(actions_seed)), steps)


@pytest.mark.parametrize("n", [2, 5, 13])
def test_same_seed_same_game(n):
    traces = []
    for _ in range(2):
        env = mascarade_v0.env(num_players=n)
        env.reset(seed=123)
        traces.append(play(env, 5))
    assert traces[0] == traces[1]


def test_different_seeds_give_different_deals():
    env = mascarade_v0.env(num_players=8)
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        deals.add((tuple(env.unwrapped.engine.cards), env.unwrapped.engine.table.active))
    assert len(deals) == 10


def test_reset_without_seed_continues_the_stream():
    env = mascarade_v0.env(num_players=13)
    env.reset(seed=7)
    first = list(env.unwrapped.engine.cards)
    env.reset()
    assert list(env.unwrapped.engine.cards) != first


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("n", [3, 8])
def test_a_mid_game_copy_resumes_exactly(clone, n):
    env = mascarade_v0.env(num_players=n)
    env.reset(seed=99)
    play(env, 1, steps=17)
    twin = clone(env)
    assert play(twin, 2) == play(env, 2)
    assert twin.unwrapped.engine is not env.unwrapped.engine
    assert twin.unwrapped.observer.beliefs is not env.unwrapped.observer.beliefs
