"""Thousands of seeded random games, checking the invariants users rely on."""

import pickle
from collections import Counter

import numpy as np
import pytest

from hidden_role_envs import spyfall_v0

GAMES_PER_COUNT = 340  # x 6 player counts = 2,040 games
RESULTS = {
    "nobody was convicted: the spy wins": "spy 2",
    "a non-spy was convicted: the spy wins": "spy 4",
    "the spy named the location: the spy wins": "spy 4",
    "the spy named the wrong location: the non-spies win": "non-spies 1",
    "the spy was convicted: the non-spies win": "non-spies 1, accuser 2",
}


def check_round_points(rnd: dict, agents: list[str]) -> None:
    """The rulebook's scoring table, from the revealed spy and the result."""
    points, spy = rnd["points"], rnd["spy"]
    kind = RESULTS[rnd["result"]]
    if kind.startswith("spy"):
        assert points == {a: (int(kind[-1]) if a == spy else 0) for a in agents}
    else:
        assert points[spy] == 0
        others = sorted(points[a] for a in agents if a != spy)
        accuser = [2] if kind.endswith("accuser 2") else []
        assert others == [1] * (len(agents) - 1 - len(accuser)) + accuser


def check_deal(engine) -> None:
    n = engine.num_players
    roles = engine.roles
    assert 0 <= engine.spy < n and roles[engine.spy] == -1
    dealt = [roles[s] for s in range(n) if s != engine.spy]
    assert len(set(dealt)) == n - 1 and all(r >= 0 for r in dealt)
    assert engine.location not in engine.table.played


def check_table(engine) -> None:
    table = engine.table
    assert 0 <= table.questions <= engine.config.question_limit
    assert len(set(table.played)) == len(table.played)
    if table.accused != -1:
        assert table.accused not in table.voters and table.accuser not in table.voters
        assert len(table.voters) == engine.num_players - 2 and table.votes_cast < len(table.voters)


def check_knowledge(env) -> None:
    engine = env.unwrapped.engine
    fields = env.unwrapped.observation_fields
    n = engine.num_players
    for seat in range(n):
        obs = env.observe(f"player_{seat}")["observation"]
        location, spy = obs[fields["location_belief"]], obs[fields["spy_belief"]]
        assert abs(location.sum() - 1) < 1e-5 and abs(spy.sum() - 1) < 1e-5
        assert location[engine.location] > 0, "the belief rules out the true location"
        assert spy[(engine.spy - seat) % n] > 0, "the belief rules out the true spy"
        if seat != engine.spy:
            assert spy[0] == 0 and location[engine.location] == 1


def random_policy(rng, passive: bool):
    """Uniform over the legal actions; `passive` players pass 9 times in 10 when they may (to reach time up)."""

    def act(env, mask) -> int:
        pass_id = env.unwrapped.string_to_action("pass")
        if passive and mask[pass_id] and rng.random() < 0.9:
            return pass_id
        return int(rng.choice(np.flatnonzero(mask)))

    return act


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_random_playouts_keep_every_invariant(n):
    rng = np.random.default_rng(1000 + n)
    envs = {rounds: spyfall_v0.env(num_players=n, num_rounds=rounds, question_limit=6) for rounds in (1, 2, 3)}
    results = Counter()
    for game in range(GAMES_PER_COUNT):
        env = envs[1 + game % 3]
        env.reset(seed=game)
        engine = env.unwrapped.engine
        space = env.observation_space("player_0")["observation"]
        policy = random_policy(rng, passive=game % 2 == 1)
        rewards = Counter()
        steps = 0
        check_deal(engine)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                assert terminated and not truncated
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any(), "the mask is empty before the end"
            assert space.contains(obs["observation"])
            illegal = np.flatnonzero(mask == 0)
            bad = int(rng.choice(illegal))
            before = pickle.dumps(engine) if steps % 10 == 0 else None
            with pytest.raises(ValueError, match=agent):
                env.step(bad)
            if before is not None:
                assert pickle.dumps(engine) == before, "an illegal action changed the game"
            if steps % 5 == 0:
                check_knowledge(env)
            round_before = engine.table.round
            env.step(policy(env, mask))
            steps += 1
            check_table(engine)
            if not engine.is_over and engine.table.round != round_before:
                check_deal(engine)
                assert f"player_{engine.table.dealer}" == engine.history[-1]["spy"]
        assert not env.agents and engine.is_over
        rounds = info["rounds"]
        assert len(rounds) == env.unwrapped.config.num_rounds
        assert len({r["location"] for r in rounds}) == len(rounds)
        for previous, following in zip(rounds, rounds[1:]):
            assert following["dealer"] == previous["spy"]
        for rnd in rounds:
            check_round_points(rnd, env.possible_agents)
            results[rnd["result"]] += 1
        totals = {a: sum(r["points"][a] for r in rounds) for a in env.possible_agents}
        assert info["scores"] == totals
        assert dict(rewards) == {a: float(v) for a, v in totals.items()}, "the rewards are not the points"
        best = max(totals.values())
        assert info["winners"] == [a for a in env.possible_agents if totals[a] == best]
        assert engine.outcome("points").rewards == (0.0,) * n
    assert all(results[r] for r in RESULTS), results
