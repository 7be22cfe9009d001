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


# --- scenario checks the rule tables of every game use --------------------------


def relative(seat: int, observer: int, num_players: int) -> int:
    """Where `seat` sits as `observer` sees it: 0 itself, 1 its left neighbour, ..."""
    return (seat - observer) % num_players


def one_hot(size: int, index: int | None) -> np.ndarray:
    v = np.zeros(size, dtype=np.float32)
    if index is not None:
        v[index] = 1
    return v


def legal_names(env) -> set[str]:
    """Names of the legal actions of the seat asked to decide (none once the game is over)."""
    seat = env.unwrapped.engine.current_player
    if seat < 0:
        return set()
    mask = env.unwrapped.observe(f"player_{seat}")["action_mask"]
    return {env.unwrapped.action_to_string(int(a)) for a in np.flatnonzero(mask)}


def check_legal(env, value):
    assert legal_names(env) == set(value)


def check_allowed(env, value):
    missing = set(value) - legal_names(env)
    assert not missing, f"should be legal: {missing}"


def check_forbidden(env, value):
    present = set(value) & legal_names(env)
    assert not present, f"should not be legal: {present}"
