"""The scripted player: always legal, reads only its observation, and beats random play."""

import numpy as np
import pytest

from hidden_role_envs import hoax_v1
from hidden_role_envs.games.hoax.bots import HoaxScriptedPlayer
from tests.games.hoax.facts import MAID_SHEET


def play_game(env, policies, seed):
    """Play one game; return the winner's seat, or None when truncated."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = policies[int(agent.split("_")[1])](obs)
        assert obs["action_mask"][action], "the scripted player chose an illegal action"
        env.step(action)
    engine = env.unwrapped.engine
    return engine.table.winner if engine.is_over else None


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_table_of_scripted_players_plays_legal_games(n):
    env = hoax_v1.env(num_players=n, max_turns=30)
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    for seed in range(5):
        play_game(env, [bot] * n, seed)


def test_the_scripted_player_plays_a_replacement_sheet():
    env = hoax_v1.env(num_players=4, max_turns=30, character_sheet=MAID_SHEET)
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    for seed in range(5):
        play_game(env, [bot] * 4, seed)


def test_the_scripted_player_beats_random_play():
    n, games = 4, 300
    env = hoax_v1.env(num_players=n)
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    rng = np.random.default_rng(0)

    def random_policy(obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    scripted_wins = random_wins = 0
    for game in range(games):
        seat = game % n
        policies = [random_policy] * n
        policies[seat] = bot
        scripted_wins += play_game(env, policies, game) == seat
        random_wins += play_game(env, [random_policy] * n, game) == seat
    assert scripted_wins > 2 * random_wins, (scripted_wins, random_wins)


def test_the_scripted_player_claims_its_own_character_and_answers_with_its_own_immunity():
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0, options={"setup": {"characters": ["Lover", "Son-in-Law", "Chef"], "first_player": 1}})
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    for name in ("pick Cash", "pick Cash", "pick Cash", "claim Son-in-Law Cash", "no hoax", "no hoax"):
        env.step(env.unwrapped.string_to_action(name))
    assert env.agent_selection == "player_2"  # the Chef is asked first: it may bluff the Lover's immunity
    assert env.unwrapped.action_to_string(bot(env.observe("player_2"))) == "no immunity"
    env.step(env.unwrapped.string_to_action("no immunity"))
    assert env.agent_selection == "player_0"
    assert env.unwrapped.action_to_string(bot(env.observe("player_0"))) == "immune as Lover"


def test_the_scripted_player_calls_hoax_only_on_claims_it_knows_are_false():
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0, options={"setup": {"characters": ["Lover", "Son-in-Law", "Chef"], "first_player": 1}})
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    for name in ("pick Cash", "pick Cash", "pick Cash", "claim Lover Evidence"):
        env.step(env.unwrapped.string_to_action(name))
    assert env.unwrapped.action_to_string(bot(env.observe("player_2"))) == "no hoax"  # the Chef cannot tell
    env.step(env.unwrapped.string_to_action("no hoax"))
    assert env.unwrapped.action_to_string(bot(env.observe("player_0"))) == "call hoax"  # the Lover knows
    env.step(env.unwrapped.string_to_action("call hoax"))
    assert env.unwrapped.action_to_string(bot(env.observe("player_2"))) == "thumbs up"
    env.step(env.unwrapped.string_to_action("thumbs up"))
    assert env.unwrapped.action_to_string(bot(env.observe("player_0"))) == "thumbs down"


def test_the_scripted_player_refuses_an_empty_mask():
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0)
    idle = next(a for a in env.possible_agents if a != env.agent_selection)
    with pytest.raises(ValueError, match="no legal action"):
        HoaxScriptedPlayer(env.unwrapped.config)(env.observe(idle))
