import pettingzoo
import pytest

import hidden_role_envs
from hidden_role_envs.core.registry import GAMES, register

IDS = [game.env_id for game in GAMES.values()]


def test_every_game_is_listed():
    assert hidden_role_envs.available_envs() == sorted(IDS)
    assert {"secrets", "mascarade", "hoax", "spyfall"} <= set(GAMES)
    assert GAMES["secrets"].env_id == "hidden_roles/secrets-v1"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_importing_registers_every_game_under_hidden_roles(game):
    env = pettingzoo.make("aec", GAMES[game].env_id)
    assert env.unwrapped.metadata["name"] == GAMES[game].module_name
    env.reset(seed=0)
    assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("name", ["hidden_roles/secrets-v1", "secrets_v1", "secrets"])
def test_make_accepts_the_id_the_module_name_and_the_game_name(name):
    env = hidden_role_envs.make(name, num_players=6)
    assert env.unwrapped.metadata["name"] == "secrets_v1"
    assert env.unwrapped.num_players == 6


def test_make_rejects_an_unknown_game_listing_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'poker'; available: secrets, "):
        hidden_role_envs.make("poker")


def test_a_second_game_of_the_same_name_is_refused():
    from dataclasses import replace

    with pytest.raises(ValueError, match="another game"):
        register(replace(GAMES["secrets"]))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_scripted_player_that_plays_legally(game):
    env = hidden_role_envs.make(game)
    player = GAMES[game].scripted_player(env.unwrapped.config, 0)
    env.reset(seed=0)
    for agent in env.agent_iter(200):
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else player(obs))
