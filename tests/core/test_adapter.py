"""The shared adapter with a toy game: eliminations, per-step rewards, illegal moves.

The toy: on a turn the player may `pass`, `score` (+1 reward now), or
`knock out` the next live player (-1 to them, their episode ends at once).
The last player standing gets +1 and the game ends.
"""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hidden_role_envs.core.aec import HiddenRoleEnv
from hidden_role_envs.core.definition import ActionTable, GameDefinition, Observer
from hidden_role_envs.core.game import Event, Outcome, RulesEngine
from hidden_role_envs.core.observation import Block, ObservationLayout

PASS, SCORE, KNOCK_OUT = range(3)


class ToyTable:
    def __init__(self, n):
        self.alive = [True] * n
        self.to_act = 0


class ToyGame(RulesEngine):
    def __init__(self, n, rng):
        self.num_players = n
        self.table = ToyTable(n)
        self.table.to_act = int(rng.integers(n))
        self.turns = 0
        self._rewards, self._out = {}, []
        self._mask = np.ones(3, dtype=np.int8)

    def start(self):
        return [Event("start", tuple(range(self.num_players)))]

    @property
    def current_player(self):
        return -1 if self.is_over else self.table.to_act

    @property
    def is_over(self):
        return sum(self.table.alive) == 1

    @property
    def turns_played(self):
        return self.turns

    def legal_mask(self):
        return self._mask

    def illegal_reason(self, action):
        return "never"

    def _next_alive(self, seat):
        seat = (seat + 1) % self.num_players
        while not self.table.alive[seat]:
            seat = (seat + 1) % self.num_players
        return seat

    def apply(self, action):
        actor = self.table.to_act
        if action == SCORE:
            self._rewards[actor] = self._rewards.get(actor, 0.0) + 1.0
        elif action == KNOCK_OUT:
            victim = self._next_alive(actor)
            self.table.alive[victim] = False
            self._rewards[victim] = -1.0
            self._out.append(victim)
        self.turns += 1
        self.table.to_act = self._next_alive(actor)
        return [Event("acted", tuple(range(self.num_players)), (actor, action))]

    def pop_rewards(self):
        rewards, self._rewards = self._rewards, {}
        return rewards

    def pop_eliminated(self):
        out, self._out = self._out, []
        return out

    def outcome(self, reward_mode):
        winner = self.table.alive.index(True)
        rewards = tuple(1.0 if s == winner else -1.0 for s in range(self.num_players))
        return Outcome((winner,), rewards, {"winner": f"player_{winner}"}, tuple({} for _ in range(self.num_players)))


class ToyObserver(Observer):
    def __init__(self, n):
        super().__init__(ObservationLayout([Block("alive", (n,), 0, 1, "who is still in")]), n)

    def reset(self, table, events):
        self.table = table

    def update(self, events):
        pass

    def encode(self, seat):
        self._views[seat]["alive"][:] = self.table.alive
        return self._buffers[seat]

    def describe(self, seat):
        return ""


class ToyDefinition(GameDefinition):
    name, version, min_players, max_players, default_players = "toy", 0, 2, 5, 3

    def configure(self, num_players):
        return num_players

    def action_table(self, config):
        return ActionTable(["pass", "score", "knock out"])

    def new_game(self, config, rng, setup):
        return ToyGame(config, rng)

    def new_observer(self, config):
        return ToyObserver(config)

    def describe_table(self, engine):
        return "toy"

    def describe_event(self, event, viewer, engine):
        return None


class ToyEnv(HiddenRoleEnv):
    definition = ToyDefinition()
    metadata = {"name": "toy_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}


def test_the_toy_passes_pettingzoo_api_and_seed_tests():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(ToyEnv(num_players=4), num_cycles=200)
    seed_test(lambda: ToyEnv(num_players=4), num_cycles=200)


def test_an_eliminated_agent_ends_at_once_and_never_acts_again():
    env = ToyEnv(num_players=3)
    env.reset(seed=0)
    first = env.agent_selection
    victim = f"player_{(int(first[-1]) + 1) % 3}"
    env.step(KNOCK_OUT)
    assert env.agent_selection == victim  # the dead agent takes its None step first
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and reward == -1.0 and "eliminated_after_turns" in info
    assert not obs["action_mask"].any()
    with pytest.raises(ValueError):
        env.step(PASS)  # only None is valid for a dead agent
    env.step(None)
    assert victim not in env.agents
    acted = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        acted.append(agent)
        env.step(KNOCK_OUT)
    assert victim not in acted
    assert info["winner"] in {first, f"player_{(int(first[-1]) + 2) % 3}"}


def test_rewards_earned_mid_game_reach_the_agent_through_last():
    env = ToyEnv(num_players=3)
    env.reset(seed=1)
    scorer = env.agent_selection
    env.step(SCORE)
    assert env.rewards[scorer] == 1.0
    for _ in range(2):
        env.step(PASS)
    assert env.agent_selection == scorer
    assert env.last()[1] == 1.0  # accumulated until the agent acts again


def test_penalize_ends_the_game_with_a_penalty_for_the_mover():
    env = ToyEnv(num_players=3, illegal="penalize")
    env.reset(seed=0)
    env.engine._mask = np.array([1, 0, 0], dtype=np.int8)
    mover = env.agent_selection
    env.step(SCORE)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[mover] == -1.0
    assert env.infos[mover]["illegal_move"]["action"] == SCORE


def test_bad_constructor_arguments_name_the_argument():
    with pytest.raises(ValueError, match="num_players must be an integer from 2 to 5"):
        ToyEnv(num_players=6)
    with pytest.raises(ValueError, match="max_turns"):
        ToyEnv(max_turns=-2)
    with pytest.raises(ValueError, match="render_mode"):
        ToyEnv(render_mode="rgb_array")
