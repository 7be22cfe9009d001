"""Seeded random games at every table: the invariants every game keeps, and each game's own (`facts`)."""

import numpy as np
import pytest

from tests.support import every_table, facts


@pytest.mark.parametrize("game, table", every_table())
def test_random_playouts_keep_every_invariant(game, table):
    n, arguments = table
    game_facts = facts(game)
    env = game.env(num_players=n, **arguments)
    rng = np.random.default_rng(1000 + n)
    ended_by_rules = 0
    games = game_facts.playouts(n, arguments)
    for seed in range(games):
        env.reset(seed=seed)
        engine = env.unwrapped.engine
        received = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            received[agent] += reward
            if terminated or truncated:
                assert info, f"{agent} ended with no info"
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size > 0, "the mask is empty before the end"
            if steps % 7 == 0:
                game_facts.check_step(env)
            env.step(int(rng.choice(legal)))
            steps += 1
        assert not env.agents
        limit = env.unwrapped.max_turns
        assert engine.is_over or (limit is not None and engine.turns_played >= limit)
        if engine.is_over:
            ended_by_rules += 1
            game_facts.check_end(env, info, received)
    assert ended_by_rules >= games // 2
