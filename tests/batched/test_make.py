"""`hidden_role_envs.batched.make`: the arguments of env(), and what the batched engine does not have."""

import pytest

pytest.importorskip("jax")

import hidden_role_envs.batched as batched  # noqa: E402


def test_the_arguments_of_env_are_checked_the_same_way():
    with pytest.raises(ValueError, match="num_players"):
        batched.make("secrets", num_players=3)


def test_an_event_history_is_refused_not_dropped_by_an_engine_without_one():
    without = [name for name in batched.available() if not batched.make(name).game.tells_events]
    for name in without:
        with pytest.raises(ValueError, match="history_length"):
            batched.make(name, history_length=8)
    assert batched.make("secrets", num_players=5, history_length=8).observation_fields["history"]


def test_another_illegal_move_policy_is_refused_not_ignored():
    with pytest.raises(ValueError, match="penalize"):
        batched.make("secrets", num_players=5, illegal="raise")
    assert batched.make("secrets", num_players=5, illegal="penalize").num_players == 5
