"""Same seed, same actions, same game; copies and pickles resume exactly."""

import copy
import pickle

import numpy as np
import pytest

from hidden_role_envs import hoax_v0
from hidden_role_envs.games.hoax.actions import ACCUSE, VOTE
from tests.support import play_trace


def play(env, actions_seed: int, steps: int | None = None):
    """Random legal play that seldom accuses; the trace of what every step showed."""
    rng = np.random.default_rng(actions_seed)
    meaning = env.unwrapped.actions.meaning

    def choose(obs):
        legal = np.flatnonzero(obs["action_mask"])
        calm = [a for a in legal if meaning[a][1] != ACCUSE]
        return int(rng.choice(calm if calm and rng.random() < 0.9 else legal))

    return play_trace(env, choose, steps)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_same_seed_same_game(n):
    traces = []
    for _ in range(2):
        env = hoax_v0.env(num_players=n, max_turns=40)
        env.reset(seed=123)
        traces.append(play(env, 5))
    assert traces[0] == traces[1]
    assert len(traces[0]) > 20


def test_different_seeds_give_different_deals_and_first_players():
    env = hoax_v0.env(num_players=5)
    deals, firsts = set(), set()
    for seed in range(20):
        env.reset(seed=seed)
        deals.add(tuple(env.unwrapped.engine.characters))
        firsts.add(env.unwrapped.engine.first_player)
    assert len(deals) == 20 and firsts == {0, 1, 2, 3, 4}


def test_reset_without_seed_continues_the_stream():
    env = hoax_v0.env(num_players=5)
    env.reset(seed=7)
    first = list(env.unwrapped.engine.characters)
    others = set()
    for _ in range(5):
        env.reset()
        others.add(tuple(env.unwrapped.engine.characters))
    assert others != {tuple(first)}


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("n", [3, 6])
def test_a_mid_game_copy_resumes_exactly(clone, n):
    env = hoax_v0.env(num_players=n, max_turns=40)
    env.reset(seed=99)
    play(env, 1, steps=40)
    twin = clone(env)
    assert twin.unwrapped.engine is not env.unwrapped.engine
    assert play(twin, 2) == play(env, 2)


def test_a_copy_made_during_a_vote_keeps_the_ballots_secret_and_exact():
    env = hoax_v0.env(num_players=5, max_turns=40)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    while env.unwrapped.engine.table.decision != VOTE or not env.unwrapped.engine._ballots:
        obs = env.observe(env.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(env.unwrapped.string_to_action("call hoax")) if "call hoax" in
                 [env.unwrapped.action_to_string(int(a)) for a in legal] else int(rng.choice(legal)))
    twin = pickle.loads(pickle.dumps(env))
    assert twin.unwrapped.engine._ballots == env.unwrapped.engine._ballots
    assert play(twin, 3) == play(env, 3)
