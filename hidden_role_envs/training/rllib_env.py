"""A game as RLlib sees it: RLlib's PettingZooEnv, with observations shaped for its action-masking module.

RLlib's `PettingZooEnv` turns a game's AEC env into a `MultiAgentEnv`: each
step returns the observation of the seat to act next, and the rewards PettingZoo
accumulated for it since its last turn. RLlib's action-masking module
(`ActionMaskingTorchRLModule` in `ray.rllib.examples`) reads
`{"observations": ..., "action_mask": ...}` with a float mask, where the games
give `{"observation": ..., "action_mask": int8}`: `GameEnv` renames and casts
on the way out, and leaves the games as they are.

With roles, an agent's id carries the role its seat holds this episode
(`player_2/spy`), read from the seat's own observation at reset, so that
`policy_mapping_fn`, which RLlib calls when the agent first appears, before
any of its observations are stored, can map it to its role's policy.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from hidden_role_envs.core import registry
from hidden_role_envs.training.rllib_train import fixed_role_games

SEPARATOR = "/"
SHARED_POLICY = "shared"
SAMPLING_SECONDS = "sampling_seconds"


def role_of(agent_id: str) -> str:
    """The role part of a role-carrying agent id (`player_2/spy` -> `spy`)."""
    return agent_id.rpartition(SEPARATOR)[2]


def shared_policy(agent_id: str, episode=None, **kwargs) -> str:
    """policy_mapping_fn: every seat plays the one policy."""
    return SHARED_POLICY


def role_policy(agent_id: str, episode=None, **kwargs) -> str:
    """policy_mapping_fn: each seat plays its role's policy."""
    return role_of(agent_id)


class TimedEnvRunner(MultiAgentEnvRunner):
    """An env runner on one thread that adds up the seconds it spends sampling.

    A runner holds one CPU: torch's default of a thread per core makes the
    policy's small forward passes several times slower when runners share the
    cores. RLlib's own sampling timers are moving averages; summed seconds give
    the exact throughput of each iteration, per runner.
    """

    def __init__(self, *args, **kwargs):
        import torch

        torch.set_num_threads(1)
        super().__init__(*args, **kwargs)

    def sample(self, **kwargs):
        start = time.perf_counter()
        episodes = super().sample(**kwargs)
        self.metrics.log_value(SAMPLING_SECONDS, time.perf_counter() - start, reduce="lifetime_sum")
        return episodes


class GameEnv(MultiAgentEnv):
    """One game through RLlib's PettingZooEnv; `config`: game, num_players, and roles (bool)."""

    def __init__(self, config: dict):
        super().__init__()
        self.game = registry.game_name(config["game"])
        self.inner = PettingZooEnv(registry.make(self.game, num_players=config["num_players"]))
        self.seats = list(self.inner.possible_agents)
        self.roles = config.get("roles", False)
        self.fixed_roles = registry.GAMES[self.game].fixed_roles
        if self.roles and self.fixed_roles is None:
            raise ValueError(f"{self.game} has no fixed roles; games with fixed roles: {', '.join(fixed_role_games())}")
        role_names = self.fixed_roles.names if self.roles else ()
        self.possible_agents = (
            [f"{seat}{SEPARATOR}{role}" for seat in self.seats for role in role_names] if self.roles else self.seats
        )
        self.agents = list(self.seats)
        game_space = self.inner.observation_spaces[self.seats[0]]
        space = gymnasium.spaces.Dict({
            "observations": game_space["observation"],
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, game_space["action_mask"].shape, np.float32),
        })
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: self.inner.action_spaces[self.seats[0]] for agent in self.possible_agents}
        self._id_of = {seat: seat for seat in self.seats}
        self._seat_of = dict(self._id_of)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        observations, infos = self.inner.reset(seed=seed, options=options)
        if self.roles:
            game = self.inner.env.unwrapped
            read_role = self.fixed_roles.role_of
            self._id_of = {
                seat: f"{seat}{SEPARATOR}{read_role(game.observe(seat)['observation'], game.observation_fields)}"
                for seat in self.seats
            }
            self._seat_of = {agent: seat for seat, agent in self._id_of.items()}
        self.agents = [self._id_of[seat] for seat in self.seats]
        return self._rename(observations, self._convert), self._rename(infos)

    def step(self, action_dict: dict):
        actions = {self._seat_of[agent]: action for agent, action in action_dict.items()}
        observations, rewards, terminateds, truncateds, infos = self.inner.step(actions)
        return (
            self._rename(observations, self._convert),
            self._rename(rewards),
            self._rename(terminateds),
            self._rename(truncateds),
            self._rename(infos),
        )

    def close(self):
        self.inner.close()

    def _rename(self, per_seat: dict, convert: Callable = lambda value: value) -> dict:
        return {self._id_of.get(key, key): convert(value) for key, value in per_seat.items()}  # "__all__" stays

    @staticmethod
    def _convert(observation: dict) -> dict:
        return {
            "observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32),
        }
