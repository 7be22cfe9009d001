"""Thousands of seeded random games, checking the invariants users rely on."""

import pickle

import numpy as np
import pytest

from hidden_role_envs import mascarade_v0
from hidden_role_envs.games.mascarade.characters import CHEAT, CHEAT_COINS, STARTING_COINS, WINNING_COINS
from hidden_role_envs.games.mascarade.rules import BANK, COURTHOUSE

CONFIGS = [(2, 0), (3, 0), (4, 0), (5, 0), (8, 0), (13, 0), (7, 2)]  # (players, extra centre cards)
GAMES_PER_CONFIG = 300  # x 7 configurations = 2,100 games
MAX_TURNS = 200


class CoinLedger:
    """Coins replayed from the public events alone, with every flow to and from the bank counted."""

    def __init__(self, n: int):
        self.coins = [STARTING_COINS] * n
        self.courthouse = 0
        self.from_bank = 0
        self.cheat_won = None  # the seat whose Cheat power found 10 coins or more

    def replay(self, events) -> None:
        for kind, _, data in events:
            if kind == "paid":
                payer, payee, amount = data
                assert amount > 0
                if payer == BANK:
                    self.from_bank += amount
                elif payer == COURTHOUSE:
                    self.courthouse -= amount
                else:
                    self.coins[payer] -= amount
                if payee == COURTHOUSE:
                    self.courthouse += amount
                else:
                    assert payee >= 0, "the bank never receives coins"
                    self.coins[payee] += amount
            elif kind == "power" and data[1] == CHEAT and self.coins[data[0]] >= CHEAT_COINS:
                self.cheat_won = data[0]
            elif kind == "fortunes_swapped":
                witch, target, witch_coins, target_coins = data
                assert (self.coins[witch], self.coins[target]) == (witch_coins, target_coins)
                self.coins[witch], self.coins[target] = target_coins, witch_coins

    def check(self, table) -> None:
        assert list(table.coins) == self.coins
        assert table.courthouse == self.courthouse
        assert table.from_bank == self.from_bank
        assert min(self.coins) >= 0 and self.courthouse >= 0, "coins never go negative"
        assert sum(self.coins) + self.courthouse == STARTING_COINS * len(self.coins) + self.from_bank


def check_knowledge(env) -> None:
    """Every row a distribution, the columns near the copy counts, the true card never ruled out."""
    engine = env.unwrapped.engine
    config = env.unwrapped.config
    n, hand = config.num_players, config.hand
    field = env.unwrapped.observation_fields["knowledge"]
    counts = np.array(config.counts)
    for seat in range(n):
        probs = env.observe(f"player_{seat}")["observation"][field].reshape(config.num_places, 12)
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        assert np.abs(probs.sum(axis=0) - counts).max() < 0.05  # Sinkhorn: close, not exact
        places = [((seat + k) % n) * hand + j for k in range(n) for j in range(hand)]
        places += list(range(n * hand, config.num_places))
        assert all(probs[row, engine.cards[place]] > 0 for row, place in enumerate(places))


def expected_winners(info: dict, agents: list[str], cheat: str | None) -> list[str]:
    """The rulebook's end, computed independently from the final coins."""
    coins = info["coins"]
    if any(c >= WINNING_COINS for c in coins.values()):
        return [a for a in agents if coins[a] >= WINNING_COINS]
    if cheat is not None:
        return [cheat]
    assert min(coins.values()) == 0
    return [a for a in agents if coins[a] == max(coins.values())]


@pytest.mark.parametrize("n,extra", CONFIGS, ids=[f"{n} players +{e}" for n, e in CONFIGS])
def test_random_playouts_keep_every_invariant(n, extra):
    env = mascarade_v0.env(num_players=n, extra_centre_cards=extra, max_turns=MAX_TURNS)
    rng = np.random.default_rng(2000 + n)
    space = env.observation_space("player_0")["observation"]
    endings = {"13 coins": 0, "broke": 0, "cheat": 0, "truncated": 0}
    for game in range(GAMES_PER_CONFIG):
        env.reset(seed=game)
        engine = env.unwrapped.engine
        ledger = CoinLedger(n)
        steps = 0
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            assert space.contains(obs["observation"])  # the final observations too (coins past 13 are clipped)
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.size > 0, "the mask is empty before the end"
            bad = int(rng.choice(np.flatnonzero(mask == 0)))
            before = pickle.dumps(engine) if steps % 10 == 0 else None
            with pytest.raises(ValueError, match=agent):
                env.step(bad)
            if before is not None:
                assert pickle.dumps(engine) == before, "an illegal action changed the game"
            env.step(int(rng.choice(legal)))
            steps += 1
            ledger.replay(env.unwrapped.last_events)
            ledger.check(engine.table)
            if steps % 5 == 0 and not engine.is_over:
                check_knowledge(env)
        assert not env.agents
        assert engine.turns_played <= MAX_TURNS
        if not engine.is_over:
            assert engine.turns_played == MAX_TURNS
            assert all(env.truncations.values())
            endings["truncated"] += 1
            continue
        cheat = None if ledger.cheat_won is None else f"player_{ledger.cheat_won}"
        winners = expected_winners(info, env.possible_agents, cheat)
        assert info["winners"] == winners
        rewards = engine.outcome("win").rewards
        assert list(rewards) == [1.0 if a in winners else -1.0 for a in env.possible_agents]
        if cheat is not None:
            endings["cheat"] += 1
        elif any(c >= WINNING_COINS for c in info["coins"].values()):
            endings["13 coins"] += 1
        else:
            endings["broke"] += 1
    assert endings["13 coins"] and endings["broke"], endings
    if CHEAT in env.unwrapped.config.characters:
        assert endings["cheat"], endings
