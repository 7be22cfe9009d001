"""The PettingZoo contract: api_test, seed_test, spaces, names, render."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hidden_role_envs import secrets_v0

PLAYER_COUNTS = [4, 5, 6, 7, 8]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, as for every masked env
        api_test(secrets_v0.env(num_players=n), num_cycles=500)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: secrets_v0.env(num_players=n), num_cycles=500)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_action_names_and_ids_are_exact_inverses(n):
    env = secrets_v0.env(num_players=n)
    space = env.action_space("player_0")
    names = [env.unwrapped.action_to_string(a) for a in range(space.n)]
    assert len(set(names)) == space.n
    assert [env.unwrapped.string_to_action(s) for s in names] == list(range(space.n))


def test_documented_action_example_and_count_at_five_players():
    env = secrets_v0.env(num_players=5)
    assert env.action_space("player_0").n == 70
    assert env.unwrapped.string_to_action("offer +2 as Scientist") == 23
    assert env.unwrapped.action_to_string(0) == "choose Double Agent"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observation_fields_tile_the_vector_in_the_documented_order(n):
    env = secrets_v0.env(num_players=n)
    fields = env.unwrapped.observation_fields
    assert list(fields) == [
        "face_up", "face_down", "bullets_received", "bullet_givers", "active_player", "revealed", "offered_card",
        "offer_target", "claim", "un_holder", "decision", "to_act", "bullet_in_hand", "bullets_given", "identity", "teammate",
    ]
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted(i for s in fields.values() for i in range(size)[s])
    assert covered == list(range(size))
    assert fields["identity"].stop - fields["identity"].start == (n + 1) * 3


def test_spaces_are_the_same_object_on_every_call():
    env = secrets_v0.env()
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.observation_space("player_1") is env.observation_space("player_1")


def test_only_the_seat_to_act_has_a_mask():
    env = secrets_v0.env(num_players=6)
    env.reset(seed=3)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == env.agent_selection)


def test_ansi_render_shows_the_table_and_only_the_acting_seat_view():
    env = secrets_v0.env(num_players=5, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    seat = env.agent_selection
    assert "Secrets, 5 players" in text
    assert f"View of {seat}:" in text
    assert text.count("View of") == 1
    assert "Legal actions:" in text


def test_human_render_prints(capsys):
    env = secrets_v0.env(num_players=4, render_mode="human")
    env.reset(seed=0)
    assert "Secrets, 4 players" in capsys.readouterr().out
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "Secrets, 4 players" in capsys.readouterr().out


def test_step_before_reset_is_a_clear_error():
    env = secrets_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_max_turns_truncates_every_agent_without_reward():
    env = secrets_v0.env(num_players=5, max_turns=3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert reward == 0
            assert info["truncated_after_turns"] == 3
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.engine.turns_played == 3
    assert not env.unwrapped.engine.is_over


def test_the_shared_masks_cannot_be_changed_through_an_observation_or_the_engine():
    """Every game of a configuration shares its legal-action masks: none may be written to."""
    a, b = secrets_v0.env(num_players=5), secrets_v0.env(num_players=5)
    a.reset(seed=1)
    b.reset(seed=1)
    observed = a.observe(a.agent_selection)["action_mask"]
    observed[:] = 0  # the caller's copy
    assert b.observe(b.agent_selection)["action_mask"].any()
    with pytest.raises(ValueError):
        a.unwrapped.engine.legal_mask()[0] = 1
