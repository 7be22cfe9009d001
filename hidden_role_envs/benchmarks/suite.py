"""The benchmark suite: the games' throughput and memory, against PettingZoo's classic games.

    python -m hidden_role_envs.benchmarks                       # the whole suite, about twenty minutes (or: hidden-roles bench)
    python -m hidden_role_envs.benchmarks --quick               # a fraction of a second per case: checks that it runs
    python -m hidden_role_envs.benchmarks --games secrets,hoax --seconds 1 --repeats 3 --out /tmp/bench

In one run, with fixed seeds, a warm-up run per case and `--repeats` timed
runs of `--seconds` each (the median is reported), it measures:

- every game at its smallest, typical and largest player counts: random
  legal play through `env()` and through `raw_env`, building the
  observation and the mask every step as a user's loop does; and the rules
  engine alone (deal, legal mask, apply; no observation);
- the same loop over PettingZoo's classic games (`leduc_holdem_v4`,
  `texas_holdem_v4`, `tictactoe_v3`, and `hanabi_v5` where OpenSpiel
  installs) and over a do-nothing AEC env (`benchmarks/noop.py`), the floor
  of the protocol;
- the single-seat Gymnasium env in Stable-Baselines3's SubprocVecEnv, one
  env per core, at each game's typical count;
- the memory one env instance holds mid-game (`benchmarks/memory.py`);
- the batched engine (JAX) of every game that has one, at its three tables
  and each of `--batch-sizes` games at once, beside Pgx's Leduc Hold'em at
  the same batch sizes (`benchmarks/batched.py`), with compile time and the
  size of a game's state; `--quick` times the typical table only, at 64.

The loops are in `benchmarks/cases.py`. The cases take turns: each round
times every case once, so a busy spell on the machine spreads over all the
cases instead of falling on a few. Rates are per second of the process's
CPU time by default (`--clock cpu`): on a quiet machine it is the wall-clock
time, and on a shared one it is what other jobs do not take away (the
report gives the share of the CPU the loops had). SubprocVecEnv, whose work
runs in other processes, is always timed by the wall clock.

Targets, reported as met or not: every game's `env()` at its typical count
runs at least 3x `leduc_holdem_v4`'s `env()` measured in the same run; every
rules engine alone reaches 300,000 steps/s at every player count; one env
instance mid-game holds under 1 MiB beyond the imported package; each
batched engine at its typical table runs at least 0.5x Pgx's Leduc
Hold'em at 1,024 games, and at every table its best batch runs at least
10x its own `env()`.

Writes `results.json`, `results.md` and `throughput.png` (skipped, and said
so, without matplotlib) to `--out`, default `hidden_role_envs/benchmarks/results/`. Bad input
prints one `bench: error: ...` line and exits with status 2.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import importlib
import importlib.metadata
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

import pettingzoo

from hidden_role_envs.benchmarks import batched, noop, report
from hidden_role_envs.benchmarks.cases import AecCase, Case, EngineCase, Run, SubprocVecCase
from hidden_role_envs.benchmarks.memory import measure_in_fresh_interpreter
from hidden_role_envs.core import registry
from hidden_role_envs.training.arguments import (
    Parser,
    UsageError,
    non_negative_int,
    positive_float,
    positive_int,
    positive_ints,
)
from hidden_role_envs.training.progress import progress_bar


def player_counts(game: str) -> tuple[int, int, int]:
    """The smallest, typical and largest tables of a game, as its definition declares them."""
    return registry.GAMES[game].benchmark_players

PEERS = ("leduc_holdem_v4", "texas_holdem_v4", "tictactoe_v3", "hanabi_v5")
REFERENCE_PEER = "leduc_holdem_v4"

TIMES_REFERENCE = 3.0
ENGINE_STEPS_PER_SECOND = 300_000
MEMORY_KIB = 1024
HISTORY_LENGTH = 32  # the event history block's cost is reported at this length (no target)
HISTORY_INTERFACE = f"env(history_length={HISTORY_LENGTH})"
TIMES_PGX_LEDUC = 0.5
TIMES_OWN_ENV = 10.0
DEFAULT_BATCH_SIZES, QUICK_BATCH_SIZES = (1024, 256, 4096), (64,)
REFERENCE_BATCH = 1024

DEFAULT_SECONDS, DEFAULT_REPEATS = 2.0, 5
QUICK_SECONDS, QUICK_REPEATS = 0.1, 3
MAX_WARMUP_SECONDS = 0.5

RESULTS_FOLDER = Path(__file__).resolve().parent / "results"
VERSIONED_PACKAGES = (
    "hidden_role_envs",
    "numpy",
    "pettingzoo",
    "gymnasium",
    "stable-baselines3",
    "torch",
    "rlcard",
    "shimmy",
    "open_spiel",
)


def build_parser(prog: str) -> Parser:
    parser = Parser(
        prog=prog,
        description=(
            "Random-play throughput of every game at its smallest, typical and largest tables (env(), raw_env, the"
            " rules engine alone), of PettingZoo's classic games and a do-nothing AEC env, of the single-seat env"
            " under SubprocVecEnv, and memory per env instance."
        ),
        epilog=(
            "Writes results.json, results.md and throughput.png to --out and reports each target as met or not."
            " The whole suite takes about twenty minutes on 2 cores; --quick, about a minute."
        ),
    )
    parser.add_argument("--quick", action="store_true", help=f"runs of {QUICK_SECONDS:g} s, {QUICK_REPEATS} repeats")
    parser.add_argument("--seconds", type=positive_float, help=f"length of one timed run (default {DEFAULT_SECONDS:g})")
    parser.add_argument(
        "--repeats", type=positive_int, help=f"timed runs per case; the median is reported (default {DEFAULT_REPEATS})"
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, help="seed of every deal and every choice (default 0)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="rates per second of this process's CPU time (default; other jobs on the machine do not pull it down)"
        " or of wall-clock time; SubprocVecEnv is always timed by the wall clock",
    )
    parser.add_argument(
        "--batch-sizes", type=positive_ints("positive integers separated by commas"), default=None,
        help="games at once in the batched cases, comma separated (default 1024,256,4096; --quick: 64)",
    )
    parser.add_argument("--games", default=None, help="comma-separated games (default: every registered game)")
    parser.add_argument("--out", type=Path, default=RESULTS_FOLDER, help="results folder (default hidden_role_envs/benchmarks/results)")
    parser.add_argument("--no-plot", action="store_true", help="do not draw throughput.png")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def main(argv: list[str] | None = None, prog: str = "python -m hidden_role_envs.benchmarks") -> int:
    try:
        return _run(build_parser(prog).parse_args(argv), prog)
    except UsageError as error:
        print(f"bench: error: {error}", file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace, prog: str) -> int:
    games = list(registry.GAMES) if args.games is None else [g.strip() for g in args.games.split(",") if g.strip()]
    for game in games:
        if game not in registry.GAMES:
            raise UsageError(f"unknown game {game!r} in --games; choose from: {', '.join(registry.GAMES)}")
    if not games:
        raise UsageError("--games names no game")
    games = list(dict.fromkeys(games))
    seconds = args.seconds or (QUICK_SECONDS if args.quick else DEFAULT_SECONDS)
    repeats = args.repeats or (QUICK_REPEATS if args.quick else DEFAULT_REPEATS)
    warmup = min(seconds, MAX_WARMUP_SECONDS)
    out = args.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write to --out {str(out)!r}: {error.strerror or error}") from None

    machine = machine_info()
    sizes = args.batch_sizes or (QUICK_BATCH_SIZES if args.quick else DEFAULT_BATCH_SIZES)
    cases, unavailable = build_cases(games, args.seed, sizes, quick=bool(args.quick))
    runs = len(cases) * (repeats + 1) + sum(len(player_counts(game)) for game in games)
    bar = progress_bar(runs, "bench", enabled=not args.no_progress, unit="run")
    throughput = time_cases(cases, seconds, repeats, warmup, args.clock, bar)
    memory = measure_memory(games, throughput, args.seed, bar)
    if bar is not None:
        bar.close()
    machine["load_after"] = _load_average()

    results = {
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "settings": {
            "command": _command_line(prog, args),
            "seconds": seconds,
            "repeats": repeats,
            "warmup_seconds": warmup,
            "seed": args.seed,
            "clock": args.clock,
            "quick": bool(args.quick),
            "player_counts": {game: list(player_counts(game)) for game in games},
            "floor_game_length": noop.GAME_LENGTH,
            "engine_target": ENGINE_STEPS_PER_SECOND,
            "batch_sizes": list(sizes),
            "batched_chunk": batched.CHUNK,
        },
        "machine": machine,
        "cases": throughput,
        "unavailable": unavailable,
        "memory": memory,
        "targets": check_targets(games, throughput, memory),
        "optimisation_records": sorted(str(path.relative_to(out)) for path in (out / "optimisations").glob("*.md")),
    }
    skipped = "--no-plot was given" if args.no_plot else report.write_plot(results, out / "throughput.png")
    results["plot"] = {"file": None if skipped else "throughput.png", "skipped": skipped}
    report.write_json(results, out / "results.json")
    report.write_markdown(results, out / "results.md")
    print("\n".join(report.targets_table(results["targets"])))
    print(f"wrote {out / 'results.json'}, {out / 'results.md'}" + ("" if skipped else f", {out / 'throughput.png'}"))
    return 0


def _command_line(prog: str, args: argparse.Namespace) -> str:
    """The command as given, for the report (the defaults left out)."""
    words = [prog]
    if args.quick:
        words.append("--quick")
    for option in ("seconds", "repeats"):
        if getattr(args, option) is not None:
            words += [f"--{option}", f"{getattr(args, option):g}"]
    if args.seed:
        words += ["--seed", str(args.seed)]
    if args.clock != "cpu":
        words += ["--clock", args.clock]
    if args.games is not None:
        words += ["--games", args.games]
    return " ".join(words)


def build_cases(games: list[str], seed: int, batch_sizes=(), quick: bool = False) -> tuple[list[Case], list[dict]]:
    """Every case to time, and the peers that could not be built, with the reason."""
    cases: list[Case] = []
    unavailable: list[dict] = []
    for game in games:
        definition = registry.GAMES[game]
        for players in player_counts(game):
            cases.append(
                AecCase("game", game, "env()", players, functools.partial(definition.env, num_players=players), seed)
            )
            raw = functools.partial(definition.raw_env, num_players=players)
            cases.append(AecCase("game", game, "raw_env", players, raw, seed))
            cases.append(EngineCase(game, players, raw, seed))
        typical = player_counts(game)[1]
        with_history = functools.partial(definition.env, num_players=typical, history_length=HISTORY_LENGTH)
        cases.append(AecCase("game", game, HISTORY_INTERFACE, typical, with_history, seed))
    for peer in PEERS:
        try:
            module = importlib.import_module(peer_module(peer))
            probe = module.env()
        except Exception as error:  # a peer's optional dependency is missing or broken: report it, go on
            unavailable.append({"family": "peer", "subject": peer, "reason": _one_line(error)})
            continue
        players = len(probe.possible_agents)
        probe.close()
        cases.append(AecCase("peer", peer, "env()", players, module.env, seed))
        cases.append(AecCase("peer", peer, "raw_env", players, module.raw_env, seed))
    cases.append(AecCase("floor", "noop", "env()", 2, noop.env, seed))
    cases.append(AecCase("floor", "noop", "raw_env", 2, noop.raw_env, seed))
    if importlib.util.find_spec("stable_baselines3") is None:
        reason = "stable-baselines3 is not installed (the train extra)"
        unavailable.append({"family": "vec", "subject": "SubprocVecEnv", "reason": reason})
    else:
        for game in games:
            cases.append(SubprocVecCase(game, player_counts(game)[1], os.cpu_count() or 1, seed))
    # last: SubprocVecEnv forks its workers when prepared, which must happen before JAX starts its threads
    cases += batched_cases(games, seed, batch_sizes, quick, unavailable)
    return cases, unavailable


def batched_cases(games: list[str], seed: int, batch_sizes, quick: bool, unavailable: list[dict]) -> list[Case]:
    if not batch_sizes:
        return []
    if not batched.jax_available():
        unavailable.append({"family": "batched", "subject": "batched engine", "reason": "JAX is not installed (the jax extra)"})
        return []
    cases: list[Case] = []
    for game in games:
        if registry.GAMES[game].batched is None:
            continue
        tables = player_counts(game)[1:2] if quick else player_counts(game)
        for players in tables:
            cases += [batched.BatchedCase("batched", game, players, b, batched.ours(game, players), seed)
                      for b in batch_sizes]
    make_leduc, reason = batched.pgx_leduc()
    if make_leduc is None:
        unavailable.append({"family": "batched", "subject": "pgx leduc_holdem", "reason": reason})
    elif cases:
        cases += [batched.BatchedCase("pgx", "leduc_holdem", 2, b, make_leduc, seed) for b in batch_sizes]
    return cases


def peer_module(peer: str) -> str:
    """The module holding a classic game's `env` and `raw_env`, found in PettingZoo's registry."""
    entry_point = pettingzoo.spec("aec", f"classic/{peer}").entry_point
    return entry_point.split(":")[0]


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def time_cases(cases: list[Case], seconds: float, repeats: int, warmup: float, clock: str, bar) -> list[dict]:
    """A warm-up run of each case, then `repeats` rounds in which every case runs once."""
    runs: dict[str, list[Run]] = {case.key: [] for case in cases}
    prepared: list[Case] = []
    try:
        for case in cases:
            case.prepare()
            prepared.append(case)
            case.run(warmup)
            _advance(bar)
        for _ in range(repeats):
            for case in cases:
                runs[case.key].append(case.run(seconds))
                _advance(bar)
    finally:
        for case in prepared:
            case.close()
    return [summarise(case, runs[case.key], clock) for case in cases]


def _advance(bar) -> None:
    if bar is not None:
        bar.update(1)


def summarise(case: Case, runs: list[Run], clock: str) -> dict:
    """Medians over the runs, per second of `clock` ("cpu" only for work done in this process)."""
    clock = clock if case.in_process else "wall"
    seconds = [run.cpu_seconds if clock == "cpu" else run.seconds for run in runs]
    rates = [run.steps / s for run, s in zip(runs, seconds)]
    steps = sum(run.steps for run in runs)
    games = sum(run.games for run in runs)
    return {
        "family": case.family,
        "subject": case.subject,
        "interface": case.interface,
        "players": case.players,
        "clock": clock,
        "steps_per_second": statistics.median(rates),
        "games_per_second": statistics.median(run.games / s for run, s in zip(runs, seconds)),
        "mean_game_length": steps / games if games else None,
        "repeats": len(runs),
        "runs_steps_per_second": rates,
        "wall_steps_per_second": statistics.median(run.steps / run.seconds for run in runs),
        "cpu_share": sum(run.cpu_seconds for run in runs) / sum(run.seconds for run in runs),
        **({"compile_seconds": case.compile_seconds, "state_bytes_per_game": case.state_bytes_per_game,
            "batch": case.batch} if isinstance(case, batched.BatchedCase) else {}),
    }


def measure_memory(games: list[str], throughput: list[dict], seed: int, bar) -> list[dict]:
    """Each game at each count, played to half its mean game length through `env()`."""
    rows = []
    for game in games:
        for players in player_counts(game):
            length = next(
                c["mean_game_length"]
                for c in throughput
                if (c["subject"], c["players"], c["interface"]) == (game, players, "env()")
            )
            rows.append(measure_in_fresh_interpreter(game, players, max(1, round(length / 2)), seed))
            _advance(bar)
    return rows


def check_targets(games: list[str], throughput: list[dict], memory: list[dict]) -> list[dict]:
    """One row per game and target: measured, required, their ratio, and whether it is met."""

    def steps(subject: str, interface: str, players: int | None = None) -> float | None:
        for case in throughput:
            if case["subject"] == subject and case["interface"] == interface and players in (None, case["players"]):
                return case["steps_per_second"]
        return None

    reference = steps(REFERENCE_PEER, "env()")
    rows = []
    for game in games:
        typical = player_counts(game)[1]
        rate = steps(game, "env()", typical)
        required = None if reference is None else TIMES_REFERENCE * reference
        target = f"`env()` at the typical count >= {TIMES_REFERENCE:g}x `{REFERENCE_PEER}` `env()`"
        row = _target(target, game, typical, rate, required, "steps/s", at_least=True)
        row["times_reference"] = None if reference is None else rate / reference
        rows.append(row)
    for game in games:
        slowest = min(player_counts(game), key=lambda players: steps(game, "engine", players))
        target = f"engine alone >= {ENGINE_STEPS_PER_SECOND:,} steps/s at every count (the slowest shown)"
        rate = steps(game, "engine", slowest)
        rows.append(_target(target, game, slowest, rate, ENGINE_STEPS_PER_SECOND, "steps/s", at_least=True))
    rows += batched_targets(games, throughput)
    for game in games:
        largest = max((row for row in memory if row["game"] == game), key=lambda row: row["first_kib"])
        target = f"one env mid-game < {MEMORY_KIB:,} KiB at every count (the largest shown)"
        size = largest["first_kib"]
        rows.append(_target(target, game, largest["players"], size, MEMORY_KIB, "KiB", at_least=False))
    return rows


def batched_targets(games: list[str], throughput: list[dict]) -> list[dict]:
    """0.5x Pgx's Leduc at the typical table (both at 1,024 games, or the first batch size); 10x env() at every table."""
    batch_cases = [c for c in throughput if c["interface"].startswith("batched")]
    if not batch_cases:
        return []
    sizes = sorted({c["batch"] for c in batch_cases})
    reference = REFERENCE_BATCH if REFERENCE_BATCH in sizes else sizes[0]

    def rate(subject, players, batch=None):
        found = [c["steps_per_second"] for c in batch_cases if c["subject"] == subject and c["players"] == players
                 and (batch is None or c["batch"] == batch)]
        return max(found) if found else None

    def env_rate(game, players):
        return next((c["steps_per_second"] for c in throughput
                     if (c["subject"], c["players"], c["interface"]) == (game, players, "env()")), None)

    rows = []
    leduc = rate("leduc_holdem", 2, reference)
    for game in games:
        if not any(c["subject"] == game for c in batch_cases):
            continue
        typical = player_counts(game)[1]
        target = f"batched at the typical count >= {TIMES_PGX_LEDUC:g}x Pgx `leduc_holdem` (B={reference})"
        required = None if leduc is None else TIMES_PGX_LEDUC * leduc
        rows.append(_target(target, game, typical, rate(game, typical, reference), required, "steps/s", True))
        measured = [(p, rate(game, p), env_rate(game, p)) for p in player_counts(game) if rate(game, p)]
        players, best, own = min(measured, key=lambda m: m[1] / m[2] if m[2] else float("inf"))
        target = f"batched, best B, >= {TIMES_OWN_ENV:g}x its own `env()` at every count (the lowest shown)"
        rows.append(_target(target, game, players, best, None if own is None else TIMES_OWN_ENV * own, "steps/s", True))
    return rows


def _target(target: str, game: str, players: int, measured, required, unit: str, at_least: bool) -> dict:
    if measured is None or required is None:
        ratio = met = None
    else:
        ratio = measured / required
        met = measured >= required if at_least else measured < required
    return {
        "target": target,
        "game": game,
        "players": players,
        "measured": measured,
        "required": required,
        "unit": unit,
        "ratio": ratio,
        "met": met,
    }


def machine_info() -> dict:
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "versions": {name: _version(name) for name in VERSIONED_PACKAGES},
        "commit": _commit(),
        "load_before": _load_average(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _commit() -> str | None:
    """The checkout's commit, with `+` when it has local changes; None outside a git checkout."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, check=False, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            check=False,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


if __name__ == "__main__":
    sys.exit(main())
