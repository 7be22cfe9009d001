"""What a seat knows in Secrets, beyond the leak twins of the conformance suite."""

import numpy as np

from hidden_role_envs import secrets_v1
from hidden_role_envs.games.secrets.cards import CHARACTERS


def test_the_chosen_card_is_hidden_from_everyone_but_the_active_player():
    env = secrets_v1.env(num_players=5)
    env.reset(seed=4)
    active = env.agent_selection
    revealed = env.unwrapped.engine.table.revealed
    fields = env.unwrapped.observation_fields
    views = []
    for card in revealed:
        twin = secrets_v1.env(num_players=5)
        twin.reset(seed=4)
        twin.step(twin.unwrapped.string_to_action(f"choose {CHARACTERS[card]}"))
        views.append({a: twin.observe(a)["observation"] for a in twin.possible_agents})
    for agent in env.possible_agents:
        same = np.array_equal(views[0][agent], views[1][agent])
        assert same == (agent != active)
        if agent == active:
            assert views[0][agent][fields["offered_card"]].argmax() == revealed[0]


def test_documented_action_example_and_count_at_five_players():
    env = secrets_v1.env(num_players=5)
    assert env.action_space("player_0").n == 70
    assert env.unwrapped.string_to_action("offer +2 as Scientist") == 23
    assert env.unwrapped.action_to_string(0) == "choose Double Agent"
