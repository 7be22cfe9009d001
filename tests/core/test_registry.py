import pettingzoo
import pytest

import hidden_role_envs
from hidden_role_envs import secrets_v0


def test_importing_registers_every_game_under_hidden_roles():
    assert "hidden_roles/secrets-v0" in hidden_role_envs.available_envs()
    env = pettingzoo.make("aec", "hidden_roles/secrets-v0", num_players=5)
    assert isinstance(env.unwrapped, secrets_v0.raw_env)
    assert env.unwrapped.num_players == 5


@pytest.mark.parametrize("name", ["hidden_roles/secrets-v0", "secrets_v0", "secrets"])
def test_make_accepts_the_id_the_module_name_and_the_game_name(name):
    env = hidden_role_envs.make(name, num_players=6)
    assert env.unwrapped.metadata["name"] == "secrets_v0"
    assert env.unwrapped.num_players == 6


def test_make_rejects_an_unknown_game_listing_the_known_ones():
    with pytest.raises(ValueError, match="hidden_roles/secrets-v0"):
        hidden_role_envs.make("poker")
