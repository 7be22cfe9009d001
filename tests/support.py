"""Helpers the test suites share."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from hidden_role_envs.core.registry import GAMES


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



def decisions(env, choose: Callable[[dict], int], seed: int):
    """Play a game seeded `seed` with `choose` in every seat: (agent, observation, action) of each decision,
    yielded before the action is played."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = choose(obs)
        yield agent, obs, action
        env.step(action)

def play_seats(env, policies, seed: int) -> dict:
    """Play a game seeded `seed` with `policies[k]` in seat k, each action checked legal; the last info seen."""
    env.reset(seed=seed)
    info = {}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = policies[env.possible_agents.index(agent)](obs)
        assert obs["action_mask"][action], f"{agent} chose an illegal action {action}"
        env.step(action)
    return info

# --- what each game's tests tell the conformance suite ----------------------------


@dataclass
class Twin:
    """Two games that differ in one hidden fact, and the seat that watches them.

    The fact is in the deal (`setups`), or, in a game whose deal hides
    nothing, in one choice made differently (`diverge`). `learns(env_a,
    env_b, actor, action)` is the rulebook's own answer, worked out from the
    hidden state and the action about to be played, never from the engine's
    events: does this action let the watcher tell the two games apart? Until
    it does, the watcher's observation and text must be the same in both
    games; when it does, its observation must change.
    """

    setups: tuple[dict, dict]
    watcher: int
    learns: Callable[[Any, Any, int, int], bool]
    seed: int = 0
    arguments: dict = field(default_factory=dict)
    # how the actions are chosen (env, rng, mask) -> action; uniformly among the legal ones by default
    choose: Callable[[Any, np.random.Generator, np.ndarray], int] | None = None
    # (env_a, actor, action) -> the action game b plays instead, the first time it names one (None: the same)
    diverge: Callable[[Any, int, int], int | None] | None = None


@dataclass
class PublicTwin:
    """Two games that part at one public choice and then take the same actions.

    `fork(env)` looks at the decision to make: the two actions that differ
    in one public fact only (the claim of an Offer, the token a Detective
    looks at, who is accused...), or None to play on. From the fork to the
    end, every seat must see the two games differently: the public record
    keeps the fact.
    """

    fork: Callable[[Any], tuple[int, int] | None]
    seed: int = 0
    setup: dict = field(default_factory=dict)
    arguments: dict = field(default_factory=dict)


def facts(game) -> ModuleType:
    """The game's `tests/games/<game>/facts.py`: its tables, leak twins and invariants for the conformance suite."""
    return importlib.import_module(f"tests.games.{game.name}.facts")


def tables(game) -> list[tuple[int, dict]]:
    """(num_players, the game's own arguments) to test: every player count, then the game's other configurations."""
    return [(n, {}) for n in range(game.min_players, game.max_players + 1)] + list(facts(game).CONFIGS)


def table_id(table: tuple[int, dict]) -> str:
    n, arguments = table
    return f"{n}p" + "".join(f"-{k}={v}" for k, v in arguments.items())


def every_game() -> list:
    return list(GAMES.values())


def every_table() -> list:
    """pytest parameters: (game, table) for every game and table."""
    import pytest

    return [pytest.param(g, t, id=f"{g.name}-{table_id(t)}") for g in every_game() for t in tables(g)]


def typical_tables() -> list:
    import pytest

    return [pytest.param(g, (g.typical_players, {}), id=f"{g.name}-{g.typical_players}p") for g in every_game()]


def random_legal(rng: np.random.Generator, obs: dict) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


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



def random_games_behaviour(env, games: int, seed: int = 0):
    """The behaviour of every seat summed over `games` seeded random games, each seat's counts checked to be
    consistent (bluffs within claims, bluffs caught within bluffs, right challenges within challenges)."""
    from hidden_role_envs.core.behaviour import Behaviour

    rng = np.random.default_rng(seed)
    total = Behaviour()
    for game in range(games):
        env.reset(seed=game)
        play_trace(env, uniform_choice(rng))
        for seat in env.unwrapped.behaviour():
            assert seat.false_claims <= seat.claims and seat.false_claims_caught <= seat.false_claims
            assert seat.challenges_right <= seat.challenges
            total += seat
    return total
