"""The scripted player: always legal, reads only its observation, beats random play, bluffs, ends its games,
and is not beaten by accusing every claimant."""

import numpy as np
import pytest

from hidden_role_envs import hoax_v1
from hidden_role_envs.games.hoax.actions import CALL, CLAIM, hoax_actions
from hidden_role_envs.games.hoax.bots import AccuseTheLastClaimant, HoaxScriptedPlayer
from hidden_role_envs.games.hoax.observation import hoax_layout
from tests.games.hoax.facts import MAID_SHEET
from tests.support import decisions, play_seats


def play_game(env, policies, seed):
    """Play one game; return the winner's seat, or None when truncated."""
    play_seats(env, policies, seed)
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


def test_the_scripted_player_answers_with_its_own_immunity():
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0, options={"setup": {"characters": ["Lover", "Son-in-Law", "Chef"], "first_player": 1}})
    bot = HoaxScriptedPlayer(env.unwrapped.config, seed=0)
    for name in ("pick Cash", "pick Cash", "pick Cash", "claim Son-in-Law Cash", "no hoax", "no hoax"):
        env.step(env.unwrapped.string_to_action(name))
    assert env.agent_selection == "player_2"  # the Chef is asked first: it does not bluff the Lover's immunity
    assert env.unwrapped.action_to_string(bot(env.observe("player_2"))) == "no immunity"
    env.step(env.unwrapped.string_to_action("no immunity"))
    assert env.agent_selection == "player_0"
    assert env.unwrapped.action_to_string(bot(env.observe("player_0"))) == "immune as Lover"


def test_the_scripted_player_calls_hoax_on_a_claim_it_knows_is_false_and_not_on_an_open_one():
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


def test_a_scripted_table_bluffs_and_calls_hoax():
    """Over a few games the scripted players claim characters they do not hold, and call Hoax."""
    env = hoax_v1.env(num_players=4, max_turns=60)
    config = env.unwrapped.config
    bot = HoaxScriptedPlayer(config, seed=0)
    actions, layout = hoax_actions(config), hoax_layout(config)
    bluffs = truths = calls = 0
    for seed in range(4):
        for _, obs, action in decisions(env, bot, seed):
            if actions.kind[action] == CLAIM:
                own = int(np.argmax(layout.views(np.asarray(obs["observation"]))["character"]))
                is_own = actions.args[action][0] == own
                truths, bluffs = truths + is_own, bluffs + (not is_own)
            calls += actions.kind[action] == CALL
    assert bluffs > 0 and truths > 0 and calls > 0, (bluffs, truths, calls)


def test_a_table_of_scripted_players_ends_by_the_rules():
    """Bluffs open every privilege and the accusation bar eases, so tables no longer stall until the limit."""
    n, games = 4, 30
    env = hoax_v1.env(num_players=n)  # the default limit, 1000 turns
    truncated = 0
    for seed in range(games):
        bot = HoaxScriptedPlayer(env.unwrapped.config, seed=seed)
        truncated += play_game(env, [bot] * n, seed) is None
    assert truncated <= 1, truncated


def test_accusing_every_claimant_does_not_beat_a_scripted_table():
    """Its win rate in one seat stays under the fair share plus 5 points (plus slack for a small sample)."""
    n, games = 4, 40
    env = hoax_v1.env(num_players=n, max_turns=300)
    wins = 0
    for game in range(games):
        seat = game % n
        policies = [HoaxScriptedPlayer(env.unwrapped.config, seed=game)] * n
        policies[seat] = AccuseTheLastClaimant(env.unwrapped.config, seed=game)
        wins += play_game(env, policies, game) == seat
    assert wins / games <= 1 / n + 0.05 + 0.1, wins


def test_the_scripted_player_refuses_an_empty_mask():
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0)
    idle = next(a for a in env.possible_agents if a != env.agent_selection)
    with pytest.raises(ValueError, match="no legal action"):
        HoaxScriptedPlayer(env.unwrapped.config)(env.observe(idle))
