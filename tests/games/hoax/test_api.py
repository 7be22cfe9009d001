"""The PettingZoo contract: api_test, seed_test, spaces, names, render."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hidden_role_envs import hoax_v0

PLAYER_COUNTS = [3, 4, 5, 6]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, as for every masked env
        api_test(hoax_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: hoax_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_action_names_and_ids_are_exact_inverses(n):
    env = hoax_v0.env(num_players=n)
    space = env.action_space("player_0")
    names = [env.unwrapped.action_to_string(a) for a in range(space.n)]
    assert len(set(names)) == space.n == 28 + 15 * (n - 1)
    assert [env.unwrapped.string_to_action(s) for s in names] == list(range(space.n))


def test_documented_action_examples_at_five_players():
    env = hoax_v0.env(num_players=5)
    assert env.action_space("player_0").n == 88
    assert env.unwrapped.string_to_action("claim Chef Cash +2") == 20
    assert env.unwrapped.action_to_string(20) == "claim Chef Cash +2"
    assert env.unwrapped.string_to_action("accuse +1 as Butler") == 47
    expected = {0: "pick Cash", 3: "claim Butler +1", 42: "claim Gardener Prestige +4", 43: "investigate +1",
                75: "end turn", 76: "call hoax", 78: "thumbs up", 80: "immune as Butler", 87: "no immunity"}
    assert {a: env.unwrapped.action_to_string(a) for a in expected} == expected


def test_bad_action_names_and_ids_are_clear_errors():
    env = hoax_v0.env()
    with pytest.raises(ValueError, match="unknown action"):
        env.unwrapped.string_to_action("claim Queen")
    with pytest.raises(ValueError, match="out of range"):
        env.unwrapped.action_to_string(88)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observation_fields_tile_the_vector_in_the_documented_order(n):
    env = hoax_v0.env(num_players=n)
    fields = env.unwrapped.observation_fields
    assert list(fields) == [
        "resources", "supply", "impostor", "eliminated", "hoax_holder", "active_player", "decision", "to_act",
        "turn_progress", "claimant", "claim_character", "claim_option", "claim_type", "claim_player",
        "immunity_claimant", "immunity_character", "votes", "character", "knowledge",
    ]
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted(i for s in fields.values() for i in range(size)[s])
    assert covered == list(range(size))
    assert fields["knowledge"].stop - fields["knowledge"].start == n * 7
    assert fields["claim_option"].stop - fields["claim_option"].start == 3


def test_spaces_are_the_same_object_on_every_call():
    env = hoax_v0.env()
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.observation_space("player_1") is env.observation_space("player_1")


def test_only_the_seat_to_act_has_a_mask():
    env = hoax_v0.env(num_players=6)
    env.reset(seed=3)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == env.agent_selection)


def test_the_default_turn_limit_is_finite():
    assert hoax_v0.env().unwrapped.max_turns == hoax_v0.DEFAULT_MAX_TURNS == 100


def test_ansi_render_shows_the_table_and_only_the_acting_seat_view():
    env = hoax_v0.env(num_players=5, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    seat = env.agent_selection
    assert "Hoax, 5 players" in text and "supply: 9 Cash, 9 Evidence, 9 Prestige" in text
    assert f"View of {seat}:" in text and text.count("View of") == 1
    assert "Legal actions: pick Cash, pick Evidence, pick Prestige" in text


def test_render_never_shows_another_seat_its_hidden_facts():
    env = hoax_v0.env(num_players=4, render_mode="ansi")
    env.reset(seed=0, options={"setup": {"characters": ["Butler", "Chef", "Lover", "Gardener"], "first_player": 0}})
    for name in ("pick Cash", "pick Evidence", "pick Prestige", "pick Cash"):
        env.step(env.unwrapped.string_to_action(name))
    text = env.render()  # player_0 to act
    assert "you are the Butler" in text
    assert "Chef" not in text.split("View of player_0:")[0]  # the public part names no character


def test_human_render_prints(capsys):
    env = hoax_v0.env(num_players=4, render_mode="human")
    env.reset(seed=0)
    assert "Hoax, 4 players" in capsys.readouterr().out
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "Hoax, 4 players" in capsys.readouterr().out


def test_step_before_reset_is_a_clear_error():
    env = hoax_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_every_event_reads_as_a_line_for_every_seat():
    env = hoax_v0.env(num_players=4, render_mode="ansi", max_turns=40)
    definition = env.unwrapped.definition
    kinds = set()
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            for event in env.unwrapped.last_events:
                kinds.add(event.kind)
                for viewer in event.seen_by:
                    line = definition.describe_event(event, viewer, env.unwrapped.engine)
                    assert line or event.kind in ("privilege_done", "turn_ended"), event
            for seat in range(4):
                assert env.unwrapped.render_text(seat)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            calm = [a for a in legal if not env.unwrapped.action_to_string(int(a)).startswith("accuse")]
            env.step(int(rng.choice(calm if calm and rng.random() < 0.9 else legal)))
    assert {"claimed", "immunity_claimed", "votes_revealed", "shown", "accused", "swapped", "game_over"} <= kinds
