"""Helpers the game test suites share."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def uniform_choice(rng: np.random.Generator) -> Callable[[dict], int]:
    """A uniformly random legal policy drawing from `rng`."""
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play_trace(env, choose: Callable[[dict], int], steps: int | None = None) -> list[tuple]:
    """Play `env` (already reset) with `choose(observation) -> action`; the trace of what every step showed.

    Two runs that should be identical are compared by their traces: agent,
    observation, mask, reward, termination, truncation and info of each step.
    """
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated,
                      truncated, repr(info)))
        env.step(None if terminated or truncated else choose(obs))
        if steps is not None and len(trace) >= steps:
            break
    return trace
