"""Thousands of seeded random games, checking the invariants users rely on."""

import pickle
from collections import Counter

import numpy as np
import pytest

from hidden_role_envs import secrets_v0
from hidden_role_envs.games.secrets.cards import BULLET_VALUES, CARD_COPIES, CARD_VALUES, max_turns_of_a_game

GAMES_PER_COUNT = 400  # x 5 player counts = 2,000 games
FULL_DECK = Counter({card: copies for card, copies in enumerate(CARD_COPIES)})


def expected_rewards(info: dict, agents: list[str]) -> dict[str, float]:
    """The rulebook's outcome, computed independently from the revealed identities and scores."""
    scores, identities = info["scores"], info["identities"]
    lowest = min(scores.values())
    lowest_agents = [a for a in agents if scores[a] == lowest]
    if len(lowest_agents) == 1 and identities[lowest_agents[0]] == "Hippie":
        winners = set(lowest_agents)
    else:
        cia = sum(scores[a] for a in agents if identities[a] == "CIA")
        kgb = sum(scores[a] for a in agents if identities[a] == "KGB")
        winners = set() if cia == kgb else {a for a in agents if identities[a] == ("CIA" if cia > kgb else "KGB")}
    return {a: 1.0 if a in winners else -1.0 for a in agents}


def check_cards_are_conserved(engine):
    assert Counter(engine.all_character_cards()) == FULL_DECK
    bullets = list(engine.bullet_deck) + [v for received in engine.bullets_received for _, v in received]
    if engine.bullet_in_hand is not None:
        bullets.append(engine.bullet_in_hand)
    assert sorted(bullets) == sorted(BULLET_VALUES)


def check_screen_counts(engine):
    """The running count of cards on each screen, which the UN token and the end read, matches the screen."""
    t = engine.table
    assert t.cards == [sum(t.face_up[s]) + t.face_down[s] + t.bullets[s] for s in range(engine.num_players)]


def check_scores_follow_the_screens(engine, info):
    for seat in range(engine.num_players):
        face_up_value = int(engine.table.face_up[seat] @ np.array(CARD_VALUES))
        bullet_value = sum(v for _, v in engine.bullets_received[seat])
        assert info["scores"][f"player_{seat}"] == face_up_value + bullet_value


def check_observations_against_the_truth(env):
    """Knowledge never rules out the true tokens; who gave each Bullet matches the screens."""
    engine = env.unwrapped.engine
    n = engine.num_players
    fields = env.unwrapped.observation_fields
    for seat in range(n):
        vector = env.observe(f"player_{seat}")["observation"]
        givers = vector[fields["bullet_givers"]].reshape(n, n)
        assert np.array_equal(givers.sum(axis=1), vector[fields["bullets_received"]])
        for k in range(n):
            receiver = (seat + k) % n
            true_givers = Counter(g for g, _ in engine.bullets_received[receiver])
            assert all(givers[k, j] == true_givers[(seat + j) % n] for j in range(n))
        teammate = vector[fields["teammate"]]
        for k in range(n):
            same_team = engine.tokens[(seat + k) % n] == engine.tokens[seat] != 2  # 2: Hippie
            assert teammate[k] > 0 if same_team else teammate[k] < 1
        probs = vector[fields["identity"]].reshape(n + 1, 3)
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        places = [(seat + k) % n for k in range(n)] + [n]
        truth = [engine.tokens[p] for p in places]
        assert all(probs[row, kind] > 0 for row, kind in enumerate(truth))


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_random_playouts_keep_every_invariant(n):
    env = secrets_v0.env(num_players=n)
    rng = np.random.default_rng(1000 + n)
    space = env.observation_space("player_0")["observation"]
    outcomes = Counter()
    for game in range(GAMES_PER_COUNT):
        env.reset(seed=game)
        engine = env.unwrapped.engine
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.size > 0, "the mask is empty before the end"
            assert space.contains(obs["observation"])
            illegal = np.flatnonzero(mask == 0)
            if illegal.size:
                bad = int(rng.choice(illegal))
                before = pickle.dumps(engine) if steps % 10 == 0 else None
                with pytest.raises(ValueError, match=agent):
                    env.step(bad)
                if before is not None:
                    assert pickle.dumps(engine) == before, "an illegal action changed the game"
            if steps % 7 == 0:
                check_cards_are_conserved(engine)
                check_screen_counts(engine)
                check_observations_against_the_truth(env)
            env.step(int(rng.choice(legal)))
            steps += 1
        assert not env.agents
        assert engine.is_over
        assert engine.turns_played <= max_turns_of_a_game(n)
        assert any(engine.table.cards_on_screen(s) >= (5 if n <= 6 else 4) for s in range(n))
        check_cards_are_conserved(engine)
        check_screen_counts(engine)
        check_scores_follow_the_screens(engine, info)
        rewards = {a: float(r) for a, r in zip(env.possible_agents, engine.outcome("win").rewards)}
        assert rewards == expected_rewards(info, env.possible_agents)
        winners = {info["identities"][a] for a in info["winners"]}
        outcomes["tie" if not winners else winners.pop()] += 1
    assert outcomes["CIA"] and outcomes["KGB"] and outcomes["tie"], outcomes


def test_rewards_reach_the_agents_through_last():
    env = secrets_v0.env(num_players=5)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    seen_rewards = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated:
            seen_rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_rewards == expected_rewards(info, list(seen_rewards))
