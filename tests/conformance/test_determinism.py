"""Same seed, same actions, same game; copies and pickles resume exactly."""

import copy
import pickle

import numpy as np
import pytest

from tests.support import every_game, play_trace, tables, uniform_choice


def play(env, actions_seed: int, steps: int | None = None):
    return play_trace(env, uniform_choice(np.random.default_rng(actions_seed)), steps)


def some_tables():
    """The smallest and largest tables of every game, and its other configurations."""
    params = []
    for game in every_game():
        counts = game.max_players - game.min_players + 1
        chosen = tables(game)
        for n, arguments in [chosen[0], chosen[counts - 1], *chosen[counts:]]:
            params.append(pytest.param(game, (n, arguments), id=f"{game.name}-{n}p-{sorted(arguments.items())}"))
    return params


@pytest.mark.parametrize("game, table", some_tables())
def test_same_seed_same_game(game, table):
    n, arguments = table
    traces = []
    for _ in range(2):
        env = game.env(num_players=n, **arguments)
        env.reset(seed=123)
        traces.append(play(env, 5))
    assert traces[0] == traces[1]


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_different_seeds_and_unseeded_resets_deal_different_games(game):
    env = game.env()
    games = set()
    for seed in range(6):
        env.reset(seed=seed)
        games.add(tuple(map(tuple, play(env, 0))))
    env.reset(seed=0)
    for _ in range(6):
        env.reset()
        games.add(tuple(map(tuple, play(env, 0))))
    assert len(games) >= 11


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("game, table", some_tables())
def test_a_mid_game_copy_resumes_exactly_and_on_its_own(game, table, clone):
    n, arguments = table
    env = game.env(num_players=n, **arguments)
    env.reset(seed=99)
    play(env, 1, steps=11)
    twin = clone(env)
    assert twin.unwrapped.engine is not env.unwrapped.engine
    assert play(twin, 2) == play(env, 2)
    twin.reset(seed=3)  # the copy shares no state: resetting it leaves the original as it was
    assert env.unwrapped.engine.is_over or not env.agents
