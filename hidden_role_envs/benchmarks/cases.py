"""What the suite times: one loop per interface, the same random-legal policy in all of them.

Every loop picks an action uniformly among the legal ones with Python's
`random.Random(seed)` (`legal[choose.randrange(len(legal))]`, the legal ids
read with `mask.nonzero()[0]`: `np.flatnonzero`'s Python wrapper alone
costs about 0.6 us, a sixth of an engine step), so choosing costs the same
in every case, and plays whole games until its time is up: a
run never stops mid-game, and its steps are the decisions taken. Every run of
a case seeds its first game only (later games go on from there, as a user's
loop does), so repeats replay the same games.
"""

from __future__ import annotations

import functools
import multiprocessing
import random
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hidden_role_envs.core import registry


@dataclass(frozen=True)
class Run:
    steps: int
    games: int
    seconds: float  # wall-clock
    cpu_seconds: float  # this process's CPU time: less than `seconds` when other jobs take the CPU


class Stopwatch:
    """Wall-clock and CPU time since it was made."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def elapsed(self) -> float:
        return time.perf_counter() - self.wall

    def run(self, steps: int, games: int) -> Run:
        return Run(steps, games, self.elapsed(), time.process_time() - self.cpu)


def play_aec(env, seconds: float, seed: int) -> Run:
    """A user's loop over an AEC env: `last()` builds the observation and the mask every step."""
    choose = random.Random(seed)
    steps = games = 0
    watch = Stopwatch()
    while watch.elapsed() < seconds:
        env.reset(seed=seed if games == 0 else None)  # reseeding every game would rebuild rlcard's envs each time
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[choose.randrange(len(legal))]))
            steps += 1
        games += 1
    return watch.run(steps, games)


def play_engine(definition, config, seconds: float, seed: int) -> Run:
    """The rules engine alone: deal, legal mask and apply; no observation, no AEC bookkeeping."""
    np_rng = np.random.default_rng(seed)
    choose = random.Random(seed)
    steps = games = 0
    watch = Stopwatch()
    while watch.elapsed() < seconds:
        engine = definition.new_game(config, np_rng, None)
        engine.start()
        while not engine.is_over:
            legal = engine.legal_mask().nonzero()[0]
            engine.apply(int(legal[choose.randrange(len(legal))]))
            steps += 1
        games += 1
    return watch.run(steps, games)


def play_vec(vec_env, seconds: float, choose: random.Random) -> Run:
    """Learner steps through a vectorised env, masks fetched the way MaskablePPO fetches them."""
    steps = games = 0
    watch = Stopwatch()
    while watch.elapsed() < seconds:
        actions = []
        for mask in vec_env.env_method("action_masks"):
            legal = mask.nonzero()[0]
            actions.append(int(legal[choose.randrange(len(legal))]))
        _, _, dones, _ = vec_env.step(np.array(actions))
        steps += len(actions)
        games += int(dones.sum())
    return watch.run(steps, games)


class Case(ABC):
    """One measured subject: prepared once, then timed in runs of about `seconds` each."""

    in_process = True  # its work runs in this process, so this process's CPU time measures it

    def __init__(self, family: str, subject: str, interface: str, players: int):
        self.family = family  # "game" (this package), "peer" (PettingZoo's classic games) or "floor"
        self.subject = subject
        self.interface = interface
        self.players = players

    @property
    def key(self) -> str:
        return f"{self.subject}/{self.players}p/{self.interface}"

    def prepare(self) -> None:
        """Build what the runs reuse (envs, worker processes); not timed."""

    @abstractmethod
    def run(self, seconds: float) -> Run:
        """Play whole games for about `seconds`."""

    def close(self) -> None:
        """Release what `prepare` built."""


class AecCase(Case):
    def __init__(self, family: str, subject: str, interface: str, players: int, make_env: Callable, seed: int):
        super().__init__(family, subject, interface, players)
        self.make_env, self.seed = make_env, seed

    def prepare(self) -> None:
        self.env = self.make_env()

    def run(self, seconds: float) -> Run:
        return play_aec(self.env, seconds, self.seed)

    def close(self) -> None:
        self.env.close()


class EngineCase(Case):
    def __init__(self, game: str, players: int, make_env: Callable, seed: int):
        super().__init__("game", game, "engine", players)
        self.make_env, self.seed = make_env, seed

    def prepare(self) -> None:
        env = self.make_env()  # the env only supplies the game's definition and its configuration
        self.definition, self.config = env.definition, env.config

    def run(self, seconds: float) -> Run:
        return play_engine(self.definition, self.config, seconds, self.seed)


def single_seat_env(package: str, players: int):
    """The learner's view of the game `package` declares, with random opponents.

    At module level, so that worker processes can unpickle it; they register the game themselves.
    """
    import gymnasium

    from hidden_role_envs.core import registry

    return gymnasium.make(registry.load(package).single_seat_id, num_players=players, opponents="random")


class SubprocVecCase(Case):
    """The single-seat env in Stable-Baselines3's SubprocVecEnv, one worker process per env."""

    in_process = False

    def __init__(self, game: str, players: int, n_envs: int, seed: int):
        super().__init__("game", game, f"SubprocVecEnv x{n_envs}", players)
        self.game, self.n_envs, self.seed = game, n_envs, seed

    def prepare(self) -> None:
        from stable_baselines3.common.vec_env import SubprocVecEnv

        # fork only saves the workers' start-up (they would import torch again); the timed steps do not depend on
        # it. Once JAX has started its threads in this process (the tests, a second suite run) a fork could
        # deadlock, so the workers then come from a fresh forkserver.
        methods = multiprocessing.get_all_start_methods()
        start_method = "fork" if "fork" in methods and "jax" not in sys.modules else None
        if start_method is None and "forkserver" in methods:
            start_method = "forkserver"
        self.vec_env = SubprocVecEnv(
            [functools.partial(single_seat_env, registry.GAMES[self.game].package, self.players)] * self.n_envs,
            start_method=start_method,
        )
        self.vec_env.seed(self.seed)
        self.vec_env.reset()
        self.choose = random.Random(self.seed)

    def run(self, seconds: float) -> Run:
        return play_vec(self.vec_env, seconds, self.choose)

    def close(self) -> None:
        self.vec_env.close()
