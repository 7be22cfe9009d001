"""Same seed, same actions, same game; copies and pickles resume exactly."""

import copy
import pickle

import numpy as np
import pytest

from hidden_role_envs import secrets_v0
from tests.support import play_trace, uniform_choice


def play(env, actions_seed: int, steps: int | None = None):
    """Uniformly random legal play; the trace of what every step showed."""
    return play_trace(env, uniform_choice(np.random.default_rng(actions_seed)), steps)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_same_seed_same_game(n):
    traces = []
    for _ in range(2):
        env = secrets_v0.env(num_players=n)
        env.reset(seed=123)
        traces.append(play(env, 5))
    assert traces[0] == traces[1]


def test_different_seeds_give_different_deals():
    env = secrets_v0.env(num_players=5)
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        deals.add((tuple(env.unwrapped.engine.tokens), tuple(env.unwrapped.engine.deck)))
    assert len(deals) == 10


def test_reset_without_seed_continues_the_stream():
    env = secrets_v0.env(num_players=5)
    env.reset(seed=7)
    first = list(env.unwrapped.engine.deck)
    env.reset()
    assert list(env.unwrapped.engine.deck) != first


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("n", [4, 7])
def test_a_mid_game_copy_resumes_exactly(clone, n):
    env = secrets_v0.env(num_players=n)
    env.reset(seed=99)
    play(env, 1, steps=17)
    twin = clone(env)
    assert play(twin, 2) == play(env, 2)
    # the copy is independent: the original finished, the clone did too, separately
    assert twin.unwrapped.engine is not env.unwrapped.engine
