"""The scripted player: legal in every seat and decision, and better than random play."""

import numpy as np
import pytest

from hidden_role_envs import spyfall_v1
from hidden_role_envs.games.spyfall import Location
from hidden_role_envs.games.spyfall.bots import SpyfallScriptedPlayer
from hidden_role_envs.games.spyfall.config import configure
from hidden_role_envs.games.spyfall.observation import spyfall_layout
from tests.support import decisions, play_seats, uniform_choice


@pytest.mark.parametrize("n", [3, 5, 8])
def test_a_table_of_bots_plays_legal_actions_as_spy_and_non_spy(n):
    env = spyfall_v1.env(num_players=n, num_rounds=3)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    results = set()
    for seed in range(30):
        info = play_seats(env, [bot] * n, seed)
        results |= {r["result"] for r in info["rounds"]}
    assert len(results) >= 2


def test_bots_read_user_locations_from_the_config():
    places = [
        Location("Moon Base", ("Pilot", "Miner", "Cook"), frozenset({"cold", "far away"})),
        Location("Lighthouse", ("Keeper", "Sailor", "Painter"), frozenset({"by the sea", "far away"})),
        Location("Bakery", ("Baker", "Customer", "Cashier"), frozenset({"warm", "by the sea"})),
    ]
    attributes = ["cold", "warm", "far away", "by the sea"]
    env = spyfall_v1.env(num_players=4, locations=places, attributes=attributes)
    bot = SpyfallScriptedPlayer(configure(4, locations=places, attributes=attributes), seed=0)
    for seed in range(20):
        play_seats(env, [bot, uniform_choice(np.random.default_rng(seed)), bot, uniform_choice(np.random.default_rng(seed + 1))], seed)


def test_the_non_spy_bot_answers_truthfully_and_the_spy_bot_by_its_belief():
    env = spyfall_v1.env(num_players=4)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    env.reset(seed=0, options={"setup": {"dealer": 0, "spies": [3], "locations": ["Bank"]}})
    env.step(env.unwrapped.string_to_action("ask +1 about weapons"))
    assert env.unwrapped.action_to_string(bot(env.observe("player_1"))) == "answer yes"
    env.step(env.unwrapped.string_to_action("answer yes"))
    for _ in range(4):
        env.step(env.unwrapped.string_to_action("pass"))
    env.step(env.unwrapped.string_to_action("ask +2 about indoors"))  # player_1 asks the spy
    spy_view = env.observe("player_3")
    answers = [env.unwrapped.action_to_string(SpyfallScriptedPlayer(env.unwrapped.config, seed=s)(spy_view))
               for s in range(100)]
    yes, no = answers.count("answer yes") / 100, answers.count("answer no") / 100
    assert yes > 0.5 and no > 0.05  # yes as often as it believes it (most locations are indoors), not always


def test_the_bot_beats_random_play_in_the_same_seats():
    """A small seeded version of the measurement in the bot's docstring (5 players, the bot in one seat)."""
    n, games = 5, 300
    env = spyfall_v1.env(num_players=n)
    wins = {"bot": 0, "random": 0}
    for game in range(games):
        seat = game % n
        for who in wins:
            players = [uniform_choice(np.random.default_rng(game * 10 + s)) for s in range(n)]
            if who == "bot":
                players[seat] = SpyfallScriptedPlayer(env.unwrapped.config, seed=game)
            info = play_seats(env, players, seed=game)
            wins[who] += f"player_{seat}" in info["winners"]
    assert wins["bot"] > wins["random"] + 0.15 * games, wins


def all_scripted_rounds(n: int, games: int) -> list[dict]:
    env = spyfall_v1.env(num_players=n)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    rounds = []
    for seed in range(games):
        info = play_seats(env, [bot] * n, seed)
        assert info["result"] != "truncated", f"game {seed} ran past max_turns"
        rounds += info["rounds"]
    return rounds


@pytest.mark.parametrize("n", [5, 8])
def test_the_spy_wins_a_quarter_to_a_half_of_the_rounds_at_an_all_scripted_table(n):
    """Neither side of a table of scripted players runs away with the game, at a small table or the largest."""
    rounds = all_scripted_rounds(n, 200)
    spy_won = sum(r["result"].endswith("the spy wins") for r in rounds) / len(rounds)
    assert 0.25 <= spy_won <= 0.50, spy_won


def test_at_a_large_table_non_spies_ask_every_seat_once_before_anyone_twice():
    """There a seat that keeps listening soon knows the place, spy or not: each is tested while it can be caught."""
    n = 8
    env = spyfall_v1.env(num_players=n)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    layout = spyfall_layout(env.unwrapped.config)
    names = [env.unwrapped.action_to_string(a) for a in range(env.action_space("player_0").n)]
    asks = [(a, int(name.split()[1])) for a, name in enumerate(names) if name.startswith("ask ")]
    checked = 0
    for seed in range(4):
        asked = set()
        for agent, obs, action in decisions(env, bot, seed):
            if names[action].startswith("ask "):
                seat = int(agent.split("_")[1])
                target = (seat + int(names[action].split()[1])) % n
                spy = bool(layout.views(obs["observation"])["is_spy"][0])
                unasked_legal = any(obs["action_mask"][a] and (seat + step) % n not in asked for a, step in asks)
                if not spy and unasked_legal:
                    assert target not in asked, f"game {seed}: {agent} asked player_{target} again"
                    checked += 1
                asked.add(target)
    assert checked >= 12


def test_non_spies_ask_only_attributes_nobody_has_answered_this_round():
    """An attribute answered in public is known to the spy too: asking it again tests nobody."""
    n = 5
    env = spyfall_v1.env(num_players=n)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    layout = spyfall_layout(env.unwrapped.config)
    checked = 0
    for seed in range(5):
        answered = set()
        for agent, obs, action in decisions(env, bot, seed):
            name = env.unwrapped.action_to_string(action)
            spy = bool(layout.views(obs["observation"])["is_spy"][0])
            if name.startswith("ask "):
                attribute = name.split(" about ", 1)[1]
                if not spy:
                    assert attribute not in answered, f"game {seed}: {agent} re-asked {attribute!r}"
                    checked += 1
                answered.add(attribute)
    assert checked >= 20
