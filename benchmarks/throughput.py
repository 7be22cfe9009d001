"""Random-play throughput of the environments through `env()`.

    python -m benchmarks.throughput            # every game at its smallest and largest table
    python -m benchmarks.throughput --seconds 0.5 --repeats 3

Each case plays seeded games with a uniformly random legal policy, building
the observation and the mask every step as a user's loop does. After a
warm-up, it runs `--repeats` timed runs of `--seconds` each and reports the
median steps per second and games per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from hidden_role_envs import hoax_v0, mascarade_v0, secrets_v0, spyfall_v0

# game -> (env constructor, player counts: the smallest and the largest)
CASES: dict[str, tuple[Callable, list[int]]] = {
    "secrets": (secrets_v0.env, [4, 8]),
    "mascarade": (mascarade_v0.env, [2, 13]),
    "hoax": (hoax_v0.env, [3, 6]),
    "spyfall": (spyfall_v0.env, [3, 8]),
}


def random_play(make_env: Callable, num_players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Steps and games per second of random legal play for about `seconds`."""
    env = make_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run (default 2)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        print("error: --seconds must be positive and --repeats at least 1", file=sys.stderr)
        return 2
    print(f"{'game':<10} {'players':>7} {'steps/s':>10} {'games/s':>9}")
    for game, (make_env, player_counts) in CASES.items():
        for n in player_counts:
            random_play(make_env, n, min(args.seconds, 0.5), args.seed)  # warm-up
            runs = [random_play(make_env, n, args.seconds, args.seed) for _ in range(args.repeats)]
            steps = statistics.median(r[0] for r in runs)
            games = statistics.median(r[1] for r in runs)
            print(f"{game:<10} {n:>7} {steps:>10,.0f} {games:>9,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
