"""The counter-strategy specs: `always:<action name>` and a game's own `counter:<name>`."""

import pytest

import hidden_role_envs
from hidden_role_envs.games.hoax.bots import AccuseTheLastClaimant
from hidden_role_envs.policies import make_policy
from tests.support import decisions


def test_always_plays_its_action_whenever_legal_and_the_scripted_player_otherwise():
    env = hidden_role_envs.make("secrets", num_players=5)
    counter = make_policy("always:refuse", env, seed=1)
    scripted = make_policy("scripted", env, seed=1)
    refuse = env.unwrapped.string_to_action("refuse")
    refused = other = 0
    for _, obs, action in decisions(env, counter, seed=3):
        if obs["action_mask"][refuse]:
            assert action == refuse
            refused += 1
        else:
            assert action == scripted(obs)  # the same seed: the same choices
            other += 1
    assert refused > 0 and other > 0


def test_a_games_own_counter_strategy_is_named_by_counter():
    env = hidden_role_envs.make("hoax", num_players=4)
    assert isinstance(make_policy("counter:accuse-last-claimant", env, seed=0), AccuseTheLastClaimant)


@pytest.mark.parametrize("spec, message", [
    ("always:fly", "always:fly"),
    ("counter:accuse-last-claimant", "no such counter-strategy; it has: none"),
])
def test_unknown_counter_strategies_are_refused_naming_what_exists(spec, message):
    env = hidden_role_envs.make("secrets", num_players=5)
    with pytest.raises(ValueError, match=message):
        make_policy(spec, env)
