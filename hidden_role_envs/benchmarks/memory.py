"""Memory one env instance holds mid-game, measured with tracemalloc in a fresh interpreter.

    python -m hidden_role_envs.benchmarks.memory hidden_role_envs.games.secrets 5 --decisions 30  # one JSON object

The package and the game's module are imported before tracing starts, so
what is counted is what creating, resetting and playing one env to
mid-game (`--decisions` random legal decisions) allocates and keeps:
Python objects and NumPy arrays alike (NumPy reports its buffers to
tracemalloc). Two instances are measured one after the other, the first
kept alive:

- `first_kib`: what the first instance costs, including tables the
  package builds on first use and then shares (the honest figure for a
  single env);
- `first_peak_kib`: the highest traced total while the first instance was
  built and played;
- `further_kib`: what one more instance of the same game adds.

A fresh interpreter per case keeps earlier cases' shared tables out of the
count.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np

from hidden_role_envs.core import registry

KIB = 1024


def env_at_mid_game(definition, players: int, decisions: int, seed: int):
    """An env of the game after `decisions` random legal decisions (a game too short for that is dealt again)."""
    env = definition.env(num_players=players)
    choose = random.Random(seed)
    for game in range(1000):
        env.reset(seed=seed + game)
        taken = 0
        for _ in env.agent_iter():
            if taken == decisions:
                return env
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[choose.randrange(len(legal))]))
            taken += 1
    raise RuntimeError(f"no game of {definition.name} lasted {decisions} decisions")


def measure(game: str, players: int, decisions: int, seed: int) -> dict:
    definition = registry.GAMES[game]
    gc.collect()
    tracemalloc.start()
    alive = [env_at_mid_game(definition, players, decisions, seed)]
    gc.collect()
    first_bytes, first_peak = tracemalloc.get_traced_memory()
    alive.append(env_at_mid_game(definition, players, decisions, seed))
    gc.collect()
    both_bytes, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "game": game,
        "players": players,
        "decisions": decisions,
        "first_kib": first_bytes / KIB,
        "first_peak_kib": first_peak / KIB,
        "further_kib": (both_bytes - first_bytes) / KIB,
    }


def measure_in_fresh_interpreter(game: str, players: int, decisions: int, seed: int) -> dict:
    """`measure` in a new Python process, so nothing built by earlier cases is already there."""
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    package = registry.GAMES[game].package
    command = [sys.executable, "-m", "hidden_role_envs.benchmarks.memory", package, str(players)]
    command += ["--decisions", str(decisions), "--seed", str(seed)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        last_line = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"memory measurement of {game} at {players} players failed: {last_line}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", help="the module that declares the game (hidden_role_envs.games.secrets)")
    parser.add_argument("players", type=int)
    parser.add_argument("--decisions", type=int, default=20, help="random legal decisions played before measuring")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = registry.load(args.package).name
    print(json.dumps(measure(game, args.players, args.decisions, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
