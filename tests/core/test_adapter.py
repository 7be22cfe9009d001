"""The shared adapter, through the toy game: eliminations, rewards earned mid-game, outcomes."""

import numpy as np
import pytest

from tests.games.toy import GAME


def new_env(n=3, first=0, **kwargs):
    env = GAME.env(num_players=n, **kwargs)
    env.reset(seed=0, options={"setup": {"colours": ["red", "blue"] * 2 if n == 3 else ["red", "blue", "red"],
                                         "first_player": first}})
    return env


def act(env, name):
    env.step(env.unwrapped.string_to_action(name))


def test_an_eliminated_agent_ends_at_once_and_never_acts_again():
    env = new_env(3)
    act(env, "knock out")  # player_0 knocks out player_1
    assert env.agent_selection == "player_1"  # the dead agent takes its None step first
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and reward == -1.0 and info == {"eliminated_after_turns": 1}
    assert not obs["action_mask"].any()
    with pytest.raises(ValueError):
        env.step(0)  # only None is valid for a dead agent
    env.step(None)
    assert "player_1" not in env.agents and env.agent_selection == "player_2"
    act(env, "knock out")  # player_2 knocks out player_0: the game is over
    assert env.terminations["player_0"] and env.infos["player_2"]["winners"] == ["player_2"]


def test_rewards_earned_mid_game_reach_the_agent_through_last():
    env = new_env(3)
    act(env, "score")
    assert env.rewards["player_0"] == 1.0
    act(env, "pass")
    act(env, "pass")
    assert env.agent_selection == "player_0"
    assert env.last()[1] == 1.0  # accumulated until the agent acts again


def test_the_outcome_names_seats_and_tells_each_its_own_facts():
    env = new_env(2)
    act(env, "knock out")
    revealed, own = env.unwrapped.outcome("player_1")
    assert revealed["result"] == "player_0 is the last player in"
    assert revealed["colours"] == {"player_0": "red", "player_1": "blue"} and own == {"colour": "blue"}
    assert env.infos["player_0"]["colour"] == "red"
    assert env.infos["player_0"]["centre_colour"] == "red"


def test_a_game_is_never_left_with_a_seat_that_holds_a_mask_it_cannot_use():
    env = new_env(3)
    for _ in range(6):
        mask = env.observe(env.agent_selection)["action_mask"]
        if env.terminations[env.agent_selection]:
            env.step(None)
            continue
        assert mask.any()
        env.step(int(np.flatnonzero(mask)[0]))
