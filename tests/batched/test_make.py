"""`hidden_role_envs.batched.make`: the arguments of env(), and what the batched engine does not have."""

import pytest

pytest.importorskip("jax")

from hidden_role_envs import batched
from hidden_role_envs.core import registry


def test_the_arguments_of_env_are_checked_the_same_way():
    with pytest.raises(ValueError, match="num_players"):
        batched.make("secrets", num_players=3)


@pytest.mark.parametrize("game", batched.available())
def test_an_event_history_is_kept_as_env_keeps_it(game):
    env = batched.make(game, history_length=8)
    reference = registry.game(game).raw_env(history_length=8)
    assert env.observation_fields == reference.observation_fields
    assert env.observation_shape == reference.observation_space(reference.possible_agents[0])["observation"].shape


def test_another_illegal_move_policy_is_refused_not_ignored():
    with pytest.raises(ValueError, match="penalize"):
        batched.make("secrets", num_players=5, illegal="raise")
    assert batched.make("secrets", num_players=5, illegal="penalize").num_players == 5
