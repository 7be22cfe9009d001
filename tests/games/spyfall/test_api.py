"""The PettingZoo contract: api_test, seed_test, spaces, names, render."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hidden_role_envs import spyfall_v0

PLAYER_COUNTS = [3, 4, 6, 8]
BLOCKS = [
    "is_spy", "location", "role", "history_asker", "history_target", "history_attribute", "history_answer", "answers",
    "question", "question_attribute", "cannot_ask", "accusation", "votes_cast", "my_vote", "last_vote",
    "accusation_used", "clock", "scores", "round", "dealer", "played", "decision", "to_act", "location_belief",
    "spy_belief",
]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, as for every masked env
        api_test(spyfall_v0.env(num_players=n, num_rounds=3), num_cycles=500)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: spyfall_v0.env(num_players=n, num_rounds=3), num_cycles=500)


@pytest.mark.parametrize("n", [3, 5, 8])
def test_action_names_and_ids_are_exact_inverses(n):
    env = spyfall_v0.env(num_players=n)
    space = env.action_space("player_0")
    names = [env.unwrapped.action_to_string(a) for a in range(space.n)]
    assert len(set(names)) == space.n
    assert [env.unwrapped.string_to_action(s) for s in names] == list(range(space.n))


def test_documented_action_examples_and_count_at_five_players():
    env = spyfall_v0.env(num_players=5)
    assert env.action_space("player_0").n == 127
    assert env.unwrapped.string_to_action("ask +2 about loud") == 29
    assert env.unwrapped.action_to_string(92) == "answer yes"
    assert env.unwrapped.action_to_string(0) == "ask +1 about indoors"
    assert env.unwrapped.action_to_string(126) == "vote no"


@pytest.mark.parametrize("n", [3, 8])
def test_observation_fields_tile_the_vector_in_the_documented_order(n):
    env = spyfall_v0.env(num_players=n)
    fields = env.unwrapped.observation_fields
    assert list(fields) == BLOCKS
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted(i for s in fields.values() for i in range(size)[s])
    assert covered == list(range(size))
    assert fields["answers"].stop - fields["answers"].start == n * 23 * 2
    assert fields["location_belief"].stop - fields["location_belief"].start == 26


def test_spaces_are_the_same_object_on_every_call():
    env = spyfall_v0.env()
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.observation_space("player_1") is env.observation_space("player_1")


def test_only_the_seat_to_act_has_a_mask():
    env = spyfall_v0.env(num_players=6)
    env.reset(seed=3)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == env.agent_selection)


def test_ansi_render_shows_the_table_and_only_the_acting_seat_view():
    env = spyfall_v0.env(num_players=5, render_mode="ansi")
    env.reset(seed=0, options={"setup": {"dealer": 2, "spies": [2]}})
    text = env.render()
    assert "Spyfall, 5 players, round 1 of 1, dealer player_2" in text
    assert "View of player_2:" in text and text.count("View of") == 1
    assert "your card: SPY" in text
    assert "Legal actions:" in text
    env.step(env.unwrapped.string_to_action("ask +1 about loud"))
    text = env.render()
    assert "player_2 asked you about loud" in text
    assert "question: player_2 asks player_3 about loud" in text


def test_human_render_prints(capsys):
    env = spyfall_v0.env(num_players=4, render_mode="human")
    env.reset(seed=0)
    assert "Spyfall, 4 players" in capsys.readouterr().out
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "Spyfall, 4 players" in capsys.readouterr().out


def test_every_event_of_a_game_has_a_line_for_those_who_saw_it():
    env = spyfall_v0.env(num_players=4, num_rounds=3, question_limit=3, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    kinds = set()
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        for event in env.unwrapped.last_events:
            for viewer in event.seen_by:
                assert env.unwrapped.definition.describe_event(event, viewer, env.unwrapped.engine)
            kinds.add(event.kind)
        mask = obs["action_mask"].copy()
        if rng.random() < 0.8 and mask[env.unwrapped.string_to_action("pass")]:
            action = env.unwrapped.string_to_action("pass")  # reach the time-up phase now and then
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        assert env.render()
    assert {"asked", "answered", "passed", "accused", "voted", "vote_cast", "vote_result", "round_started", "dealt",
            "round_over"} <= kinds


def test_step_before_reset_is_a_clear_error():
    env = spyfall_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_max_turns_truncates_every_agent_without_reward():
    env = spyfall_v0.env(num_players=5, max_turns=3)
    env.reset(seed=0, options={"setup": {"dealer": 0, "spies": [1]}})
    moves = ["ask +2 about loud", "answer yes", "pass"]
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert reward == 0
            assert info["truncated_after_turns"] == 3
            env.step(None)
            continue
        env.step(env.unwrapped.string_to_action(moves.pop(0)))
    assert env.unwrapped.engine.turns_played == 3
    assert not env.unwrapped.engine.is_over
