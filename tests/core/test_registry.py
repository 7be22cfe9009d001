import importlib

import pettingzoo
import pytest

import hidden_role_envs
from hidden_role_envs.core.registry import GAMES

IDS = [f"hidden_roles/{game}-v0" for game in GAMES]


def test_every_game_is_listed():
    assert hidden_role_envs.available_envs() == sorted(IDS)
    assert {"secrets", "mascarade", "hoax", "spyfall"} <= set(GAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_importing_registers_every_game_under_hidden_roles(game):
    env = pettingzoo.make("aec", f"hidden_roles/{game}-v0")
    assert env.unwrapped.metadata["name"] == f"{game}_v0"
    env.reset(seed=0)
    assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("name", ["hidden_roles/secrets-v0", "secrets_v0", "secrets"])
def test_make_accepts_the_id_the_module_name_and_the_game_name(name):
    env = hidden_role_envs.make(name, num_players=6)
    assert env.unwrapped.metadata["name"] == "secrets_v0"
    assert env.unwrapped.num_players == 6


def test_make_rejects_an_unknown_game_listing_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'poker'; available: secrets, mascarade, hoax, spyfall"):
        hidden_role_envs.make("poker")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_scripted_player_that_plays_legally(game):
    module, name = GAMES[game].scripted_player.split(":")
    env = hidden_role_envs.make(game)
    player = getattr(importlib.import_module(module), name)(env.unwrapped.num_players, seed=0)
    env.reset(seed=0)
    for agent in env.agent_iter(200):
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else player(obs))
