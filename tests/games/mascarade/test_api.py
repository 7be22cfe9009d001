"""The PettingZoo contract: api_test, seed_test, spaces, names, render."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hidden_role_envs import mascarade_v0

PLAYER_COUNTS = [2, 3, 4, 5, 8, 13]
CONFIGS = [{"num_players": n} for n in PLAYER_COUNTS] + [{"num_players": 7, "extra_centre_cards": 2}]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, as for every masked env
        api_test(mascarade_v0.env(num_players=n), num_cycles=500)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: mascarade_v0.env(num_players=n), num_cycles=500)


@pytest.mark.parametrize("kwargs", CONFIGS, ids=[str(k) for k in CONFIGS])
def test_action_names_and_ids_are_exact_inverses(kwargs):
    env = mascarade_v0.env(**kwargs)
    space = env.action_space("player_0")
    names = [env.unwrapped.action_to_string(a) for a in range(space.n)]
    assert len(set(names)) == space.n
    assert [env.unwrapped.string_to_action(s) for s in names] == list(range(space.n))


@pytest.mark.parametrize("kwargs", CONFIGS, ids=[str(k) for k in CONFIGS])
def test_documented_action_count(kwargs):
    n = kwargs["num_players"]
    places = n + {4: 2, 5: 1}.get(n, kwargs.get("extra_centre_cards", 0))
    expected = 99 + 3 * (n - 1) if n <= 3 else places**2 + 3 * n + 25
    assert mascarade_v0.env(**kwargs).action_space("player_0").n == expected


def test_documented_action_examples_at_five_players():
    env = mascarade_v0.env(num_players=5)
    assert env.action_space("player_0").n == 76
    ids = {name: env.unwrapped.string_to_action(name) for name in
           ("swap +1", "no swap +1", "no swap centre 1", "look", "announce Judge")}
    assert ids == {"swap +1": 0, "no swap +1": 1, "no swap centre 1": 9, "look": 10, "announce Judge": 11}


@pytest.mark.parametrize("kwargs", CONFIGS, ids=[str(k) for k in CONFIGS])
def test_observation_fields_tile_the_vector_in_the_documented_order(kwargs):
    env = mascarade_v0.env(**kwargs)
    fields = env.unwrapped.observation_fields
    assert list(fields) == [
        "coins", "courthouse", "active_player", "to_act", "decision", "preparation", "forced_swap", "in_play",
        "announcement", "announcer", "claimants", "claimed_cards", "revealed", "power_cards", "knowledge",
    ]
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted(i for s in fields.values() for i in range(size)[s])
    assert covered == list(range(size))
    places = env.unwrapped.config.num_places
    assert fields["knowledge"].stop - fields["knowledge"].start == places * 12


def test_spaces_are_the_same_object_on_every_call():
    env = mascarade_v0.env()
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.observation_space("player_1") is env.observation_space("player_1")


def test_only_the_seat_to_act_has_a_mask():
    env = mascarade_v0.env(num_players=6)
    env.reset(seed=3)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == env.agent_selection)


@pytest.mark.parametrize("n", [3, 5])
def test_ansi_render_shows_the_table_and_only_the_acting_seat_view(n):
    env = mascarade_v0.env(num_players=n, render_mode="ansi")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    text = env.render()
    assert f"Mascarade, {n} players" in text
    assert f"View of {env.agent_selection}:" in text
    assert text.count("View of") == 1
    assert "Legal actions:" in text


def test_human_render_prints(capsys):
    env = mascarade_v0.env(num_players=4, render_mode="human")
    env.reset(seed=0)
    assert "Mascarade, 4 players" in capsys.readouterr().out
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "Mascarade, 4 players" in capsys.readouterr().out


def test_step_before_reset_is_a_clear_error():
    env = mascarade_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
