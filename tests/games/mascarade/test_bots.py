"""The scripted player: legal in every configuration, reproducible, and better than random play."""

import numpy as np
import pytest

from hidden_role_envs import mascarade_v1
from hidden_role_envs.games.mascarade.bots import MascaradeScriptedPlayer
from hidden_role_envs.games.mascarade.config import configure

CONFIGS = [(2, 0), (3, 0), (4, 0), (5, 0), (8, 0), (13, 0), (6, 1), (11, 2)]


def play(n: int, seed: int, policies: dict[int, object], **kwargs) -> list[str]:
    """One game; `policies[seat]` plays that seat, uniform random play the others. Returns the winners."""
    env = mascarade_v1.env(num_players=n, **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    winners = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            winners = info.get("winners", winners)
            env.step(None)
            continue
        policy = policies.get(int(agent.split("_")[1]))
        env.step(policy(obs) if policy else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return winners


@pytest.mark.parametrize("n,extra", CONFIGS, ids=[f"{n} players +{e}" for n, e in CONFIGS])
def test_scripted_players_fill_a_table_and_finish_legal_games(n, extra):
    bot = MascaradeScriptedPlayer(configure(n, extra_centre_cards=extra), seed=0)
    for seed in range(3):
        play(n, seed, {s: bot for s in range(n)}, extra_centre_cards=extra)  # an illegal action would raise


def test_same_seed_same_choices():
    runs = [play(5, 3, {s: MascaradeScriptedPlayer(configure(5), seed=1) for s in range(5)}) for _ in range(2)]
    assert runs[0] == runs[1]


def test_it_refuses_an_observation_without_a_decision():
    env = mascarade_v1.env(num_players=4)
    env.reset(seed=0)
    idle = next(a for a in env.possible_agents if a != env.agent_selection)
    with pytest.raises(ValueError, match="no legal action"):
        MascaradeScriptedPlayer(env.unwrapped.config)(env.observe(idle))


def test_it_wins_more_often_than_a_random_player_in_the_same_seat():
    bot = MascaradeScriptedPlayer(configure(5), seed=0)
    games = 60
    scripted = sum(f"player_{g % 5}" in play(5, g, {g % 5: bot}) for g in range(games))
    random = sum(f"player_{g % 5}" in play(5, g, {}) for g in range(games))
    assert scripted > random + games // 5


@pytest.mark.parametrize("n", [2, 5, 13])
def test_a_table_of_scripted_players_ends_by_the_rules(n):
    """Someone reaches 13 coins (or a seat runs out) long before the turn limit, so no game is truncated."""
    bot = MascaradeScriptedPlayer(configure(n), seed=0)
    env = mascarade_v1.env(num_players=n)
    for seed in range(10):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            assert not truncated, f"seed {seed}: the game reached its turn limit"
            env.step(None if terminated else bot(obs))
        assert info["result"] != "truncated" and info["winners"]
