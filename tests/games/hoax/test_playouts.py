"""Thousands of seeded random games, checking the invariants users rely on.

Uniformly random play accuses a lot and ends within a few turns, so a fifth
of the games use a random player that seldom accuses: their games are long,
reach votes, immunities and impostor tokens, and meet the turn limit.
"""

import pickle
from collections import Counter

import numpy as np
import pytest

from hidden_role_envs import hoax_v0
from hidden_role_envs.games.hoax.actions import ACCUSE, VOTE

GAMES_PER_COUNT = 500  # x 4 player counts = 2,000 games
CAUTIOUS_SHARE = 5  # every 5th game is played by the cautious random player
CAUTIOUS_MAX_TURNS = 40


def cautious_choice(rng, legal, meaning):
    """Uniform over the legal actions, leaving out accusations nine times in ten."""
    calm = [a for a in legal if meaning[a][1] != ACCUSE]
    if calm and rng.random() < 0.9:
        legal = calm
    return int(rng.choice(legal))


def check_resources(engine):
    table = engine.table
    resources = np.array(table.resources)
    assert (resources >= 0).all() and min(table.supply) >= 0
    assert (resources.sum(axis=0) + table.supply).tolist() == [9, 9, 9]
    assert not resources[table.eliminated].any(), "an eliminated player still holds resources"


def check_knowledge(env):
    engine = env.unwrapped.engine
    n = engine.num_players
    knowledge = env.unwrapped.observation_fields["knowledge"]
    for seat in range(n):
        probs = env.unwrapped.observe(f"player_{seat}")["observation"][knowledge].reshape(n, 7)
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        truth = [engine.characters[(seat + k) % n] for k in range(n)]
        assert all(probs[row, c] > 0 for row, c in enumerate(truth)), "knowledge ruled out the truth"


def votes_seen(env):
    votes = env.unwrapped.observation_fields["votes"]
    return [env.unwrapped.observe(a)["observation"][votes].copy() for a in env.possible_agents]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_playouts_keep_every_invariant(n):
    rng = np.random.default_rng(1000 + n)
    outcomes = Counter()
    for game in range(GAMES_PER_COUNT):
        cautious = game % CAUTIOUS_SHARE == 0
        env = hoax_v0.env(num_players=n, max_turns=CAUTIOUS_MAX_TURNS if cautious else hoax_v0.DEFAULT_MAX_TURNS)
        env.reset(seed=game)
        engine = env.unwrapped.engine
        meaning = env.unwrapped.actions.meaning
        space = env.observation_space("player_0")["observation"]
        handed: dict[str, float] = {}
        gone: set[str] = set()
        votes_before_the_vote = None
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                handed[agent] = reward
                gone.add(agent)
                env.step(None)
                continue
            assert agent not in gone, "an agent acted after its episode ended"
            assert not engine.table.eliminated[int(agent.split("_")[1])]
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.size > 0, "the mask is empty for the player asked to act"
            assert space.contains(obs["observation"])
            if engine.table.decision == VOTE:
                if votes_before_the_vote is None:
                    votes_before_the_vote = votes_seen(env)
                seen = votes_seen(env)
                assert all(np.array_equal(a, b) for a, b in zip(seen, votes_before_the_vote)), "a vote showed early"
            else:
                votes_before_the_vote = None
            if steps % 5 == 0:
                illegal = np.flatnonzero(mask == 0)
                bad = int(rng.choice(illegal))
                before = pickle.dumps(engine)
                with pytest.raises(ValueError, match=agent):
                    env.step(bad)
                assert pickle.dumps(engine) == before, "an illegal action changed the game"
            if steps % 7 == 0:
                check_resources(engine)
                check_knowledge(env)
            env.step(cautious_choice(rng, legal, meaning) if cautious else int(rng.choice(legal)))
            steps += 1
        assert not env.agents
        check_resources(engine)
        limit = env.unwrapped.max_turns
        assert engine.turns_played <= limit
        if engine.is_over:
            winner = f"player_{engine.table.winner}"
            assert handed == {a: (1.0 if a == winner else -1.0) for a in env.possible_agents}
            assert info["winner"] == winner and set(info["characters"]) == set(env.possible_agents)
            outcomes["truthful claim" if "truthfully" in info["result"] else "last left"] += 1
        else:
            assert engine.turns_played == limit
            out = {f"player_{s}" for s, gone in enumerate(engine.table.eliminated) if gone}
            assert handed == {a: (-1.0 if a in out else 0.0) for a in env.possible_agents}
            outcomes["truncated"] += 1
    assert outcomes["truthful claim"] and outcomes["last left"] and outcomes["truncated"], outcomes
