"""A do-nothing AEC env: the cost of the PettingZoo protocol itself, with no game behind it.

Two agents take turns choosing from `Discrete(2)`; the observation is only the
action mask; the game ends after `game_length` decisions. It keeps the
bookkeeping every AEC env keeps (cumulative rewards, terminations, dead
steps), so no AEC env played with the same loop can be faster.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

GAME_LENGTH = 30


class raw_env(AECEnv):
    metadata: ClassVar[dict] = {"name": "noop_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, game_length: int = GAME_LENGTH):
        super().__init__()
        self.game_length = game_length
        self.possible_agents = ["player_0", "player_1"]
        self._action_space = spaces.Discrete(2)
        self._mask = np.ones(2, dtype=np.int8)
        self._observation_space = spaces.Dict({"action_mask": spaces.Box(0, 1, (2,), dtype=np.int8)})

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self.decisions = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"action_mask": self._mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.decisions += 1
        if self.decisions >= self.game_length:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self.decisions % 2]
        self._accumulate_rewards()


def env(game_length: int = GAME_LENGTH) -> AECEnv:
    """The do-nothing env behind the wrappers PettingZoo's classic games put in their `env()`."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game_length), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
