"""The suite's results as JSON, a Markdown report and a bar chart."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from hidden_role_envs.core import registry

FLOOR_TITLE = "do-nothing AEC env"


def _title(subject: str) -> str:
    """A game's title from its definition; a peer's own name; the floor's description."""
    if subject == "noop":
        return FLOOR_TITLE
    game = registry.GAMES.get(subject)
    return game.title if game else subject


def _is_vec(case: dict) -> bool:
    return case["interface"].startswith("SubprocVecEnv")


def write_json(results: dict, path: Path) -> None:
    path.write_text(json.dumps(results, indent=2) + "\n")


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _length(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _find(cases: list[dict], subject: str, players: int, interface: str) -> dict | None:
    for case in cases:
        if (case["subject"], case["players"], case["interface"]) == (subject, players, interface):
            return case
    return None


def _steps(cases: list[dict], subject: str, players: int, interface: str) -> float | None:
    case = _find(cases, subject, players, interface)
    return None if case is None else case["steps_per_second"]


def targets_table(targets: list[dict]) -> list[str]:
    lines = [
        "| target | game | players | measured | required | measured / required | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in targets:
        unit = row["unit"]
        measured = "-" if row["measured"] is None else f"{row['measured']:,.0f} {unit}"
        if row.get("times_reference") is not None:
            measured += f" ({row['times_reference']:.1f}x leduc)"
        required = "-" if row["required"] is None else f"{row['required']:,.0f} {unit}"
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        met = {True: "yes", False: "**no**", None: "not measured"}[row["met"]]
        lines.append(
            f"| {row['target']} | {_title(row['game'])} | {row['players']} | {measured} | {required} | {ratio} | {met} |"
        )
    measured = [row for row in targets if row["met"] is not None]
    lines += ["", f"{sum(row['met'] for row in measured)} of {len(targets)} targets met."]
    return lines


def games_table(results: dict) -> list[str]:
    cases = results["cases"]
    lines = [
        "| game | players | `env()` | `raw_env` | engine alone | games/s (`env()`) | decisions per game |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, counts in results["settings"]["player_counts"].items():
        for players in counts:
            env_case = _find(cases, game, players, "env()")
            lines.append(
                f"| {_title(game)} | {players} | {_rate(env_case['steps_per_second'])}"
                f" | {_rate(_steps(cases, game, players, 'raw_env'))} | {_rate(_steps(cases, game, players, 'engine'))}"
                f" | {_rate(env_case['games_per_second'])} | {_length(env_case['mean_game_length'])} |"
            )
    return lines


def history_table(results: dict) -> list[str]:
    """`env()` with the event history block beside `env()` without it, at each game's typical table."""
    cases = results["cases"]
    with_history = [c for c in cases if c["family"] == "game" and c["interface"].startswith("env(history_length=")]
    lines = [
        f"| game | players | `env()` | `{with_history[0]['interface']}` | share of the speed kept |",
        "|---|---|---|---|---|",
    ] if with_history else []
    for case in with_history:
        plain = _steps(cases, case["subject"], case["players"], "env()")
        kept = "-" if not plain else f"{case['steps_per_second'] / plain:.0%}"
        lines.append(
            f"| {_title(case['subject'])} | {case['players']} | {_rate(plain)} | {_rate(case['steps_per_second'])}"
            f" | {kept} |"
        )
    return lines


def peers_table(results: dict) -> list[str]:
    cases = results["cases"]
    lines = [
        "| env | players | `env()` | `raw_env` | games/s (`env()`) | decisions per game |",
        "|---|---|---|---|---|---|",
    ]
    subjects = dict.fromkeys((c["subject"], c["players"]) for c in cases if c["family"] in ("peer", "floor"))
    for subject, players in subjects:
        env_case = _find(cases, subject, players, "env()")
        name = f"{FLOOR_TITLE} (floor)" if subject == "noop" else f"`{subject}`"
        lines.append(
            f"| {name} | {players} | {_rate(env_case['steps_per_second'])} | {_rate(_steps(cases, subject, players, 'raw_env'))}"
            f" | {_rate(env_case['games_per_second'])} | {_length(env_case['mean_game_length'])} |"
        )
    for missing in results["unavailable"]:
        if missing["family"] == "peer":
            lines.append(f"| `{missing['subject']}` | - | unavailable | unavailable | - | - |")
    return lines


def vec_table(results: dict) -> list[str]:
    rows = [c for c in results["cases"] if _is_vec(c)]
    lines = [
        "| game | players | vectorised envs | learner steps/s | episodes/s | learner steps per episode |",
        "|---|---|---|---|---|---|",
    ]
    for case in rows:
        lines.append(
            f"| {_title(case['subject'])} | {case['players']} | {case['interface']} | {_rate(case['steps_per_second'])}"
            f" | {_length(case['games_per_second'])} | {_length(case['mean_game_length'])} |"
        )
    return lines


def batched_table(results: dict) -> list[str]:
    rows = [c for c in results["cases"] if c["interface"].startswith("batched")]
    lines = [
        "| engine | players | games at once | steps/s | x own `env()` | games/s | compile (s) | state per game (KiB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in rows:
        own = _steps(results["cases"], case["subject"], case["players"], "env()")
        times = f"{case['steps_per_second'] / own:,.1f}" if own else "-"
        name = "Pgx `leduc_holdem`" if case["family"] == "pgx" else _title(case["subject"])
        lines.append(
            f"| {name} | {case['players']} | {case['batch']:,} | {_rate(case['steps_per_second'])} | {times}"
            f" | {_rate(case['games_per_second'])} | {case['compile_seconds']:.1f}"
            f" | {case['state_bytes_per_game'] / 1024:,.1f} |"
        )
    return lines


BATCHED_INTRO = (
    "Random legal play, B games at once, compiled whole (JAX on the CPU): {chunk} moves per call, each a uniformly"
    " random legal action per game (one uniform draw per game, the same for every engine), a new game dealt where"
    " one ended (each engine's own auto-reset), and the current player's observation computed every step; per"
    " second of wall-clock time. Compile time is the first call's."
)


def memory_table(results: dict) -> list[str]:
    lines = [
        "| game | players | decisions played | first instance (KiB) | its peak (KiB) | each further instance (KiB) |",
        "|---|---|---|---|---|---|",
    ]
    for row in results["memory"]:
        lines.append(
            f"| {_title(row['game'])} | {row['players']} | {row['decisions']} | {row['first_kib']:,.0f}"
            f" | {row['first_peak_kib']:,.0f} | {row['further_kib']:,.0f} |"
        )
    return lines


def _machine_line(machine: dict) -> str:
    versions = ", ".join(f"{name} {version}" for name, version in machine["versions"].items() if version)
    commit = f" (commit {machine['commit']})" if machine.get("commit") else ""
    return (
        f"{machine['cpu']}, {machine['cores']} cores, {machine['os']}; Python {machine['python']}; {versions}{commit}."
        f" Load average (1 min) at the start and the end: {machine['load_before']} and {machine['load_after']}."
    )


GAMES_INTRO = (
    "Steps per second (decisions taken) of random legal play, median of the runs. `env()` and `raw_env` build the"
    " observation and the mask every step, as a user's loop does; for these games `env()` is `raw_env` itself (no"
    " wrapper), so the two columns time the same code. The engine alone deals, builds the legal mask and applies,"
    " with no observation."
)
HISTORY_INTRO = (
    "The same loop with the `history` block of the last K events each seat saw (the constructor's"
    " `history_length`), at each game's typical table. It has no target; the games' `env()` targets are for"
    " the default, K=0."
)
PEERS_INTRO = (
    "The same loop. PettingZoo's `env()` adds three wrappers (illegal-move termination, bounds check, call order);"
    " the do-nothing env has two agents, `Discrete(2)`, an observation that is only the mask, and {length}"
    " decisions per game."
)
VEC_INTRO = (
    "One worker process per core, random opponents, the learner's actions random-legal from `action_masks()`"
    " fetched with `env_method` as MaskablePPO does; a learner step includes the opponents' turns."
)
MEMORY_INTRO = (
    "tracemalloc in a fresh interpreter, after the package is imported: one env created, reset and played to"
    " mid-game (half its mean game length). The first instance includes the tables the package builds on first use"
    " and shares with later instances."
)


def _clock_line(settings: dict, cases: list[dict]) -> str:
    """Which clock the rates are per second of, and how much of the CPU the timed loops had."""
    share = statistics.median(c["cpu_share"] for c in cases if not _is_vec(c))
    if settings["clock"] == "cpu":
        clock = (
            "Rates are per second of the timing process's CPU time (`--clock cpu`), which other jobs on the machine"
            " do not take away; SubprocVecEnv's are wall-clock, as its work runs in other processes."
        )
    else:
        clock = "Rates are per second of wall-clock time (`--clock wall`)."
    return (
        f"{clock} The timed loops had the CPU for {share:.0%} of the wall-clock time (median over the cases; near"
        " 100% on a quiet machine); `results.json` also has each case's wall-clock rate."
    )


def write_markdown(results: dict, path: Path) -> None:
    settings = results["settings"]
    lines = [
        "# Benchmark results",
        "",
        (
            f"`{settings['command']}`, {results['created']}: runs of {settings['seconds']:g} s, median of"
            f" {settings['repeats']} after a {settings['warmup_seconds']:g} s warm-up, seed {settings['seed']};"
            " the cases take turns, one run each per round."
        ),
        "",
        f"Machine: {_machine_line(results['machine'])}",
        "",
        _clock_line(settings, results["cases"]),
        "",
    ]
    if settings["quick"]:
        lines += [
            "**Quick mode**: runs too short for the figures to mean much; it only checks that the suite runs.",
            "",
        ]
    lines += ["## Targets", "", *targets_table(results["targets"]), ""]
    lines += ["## Throughput of the games", "", GAMES_INTRO, "", *games_table(results), ""]
    history = history_table(results)
    if history:
        lines += ["## The cost of the event history", "", HISTORY_INTRO, "", *history, ""]
    lines += ["## PettingZoo's classic games and the protocol's floor", ""]
    lines += [PEERS_INTRO.format(length=settings["floor_game_length"]), "", *peers_table(results), ""]
    if results["unavailable"]:
        lines += [f"- `{m['subject']}` unavailable: {m['reason']}" for m in results["unavailable"]] + [""]
    if any(_is_vec(case) for case in results["cases"]):
        lines += ["## The single-seat env under Stable-Baselines3's SubprocVecEnv", "", VEC_INTRO, ""]
        lines += [*vec_table(results), ""]
    if any(c["interface"].startswith("batched") for c in results["cases"]):
        lines += ["## The batched engine, beside Pgx", "", BATCHED_INTRO.format(chunk=settings["batched_chunk"]), ""]
        lines += [*batched_table(results), ""]
    lines += ["## Memory per env instance", "", MEMORY_INTRO, "", *memory_table(results), ""]
    plot = results["plot"]
    lines += [
        "## Chart",
        "",
        f"![steps per second]({plot['file']})" if plot["file"] else f"Not drawn: {plot['skipped']}.",
    ]
    lines += ["", "## Optimisations", ""]
    records = results["optimisation_records"]
    if records:
        links = ", ".join(f"[{Path(record).stem}]({record})" for record in records)
        lines.append(f"Before/after figures of each optimisation: {links}.")
    else:
        lines.append("No optimisation records (`optimisations/<game>.md`) next to these results.")
    path.write_text("\n".join(lines) + "\n")


def write_plot(results: dict, path: Path) -> str | None:
    """Draw the chart; returns why it was skipped, or None when it was drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        return f"matplotlib is not importable ({error}); install the train extra"
    colours = {
        ("game", "env()"): "tab:blue",
        ("game", "raw_env"): "lightsteelblue",
        ("game", "engine"): "tab:green",
        ("peer", "env()"): "tab:orange",
        ("peer", "raw_env"): "navajowhite",
        ("floor", "env()"): "dimgray",
        ("floor", "raw_env"): "silver",
    }
    legend = {
        ("game", "env()"): "this package, env()",
        ("game", "raw_env"): "this package, raw_env",
        ("game", "engine"): "this package, rules engine alone",
        ("peer", "env()"): "PettingZoo classic, env()",
        ("peer", "raw_env"): "PettingZoo classic, raw_env",
        ("floor", "env()"): f"{FLOOR_TITLE}, env() wrappers",
        ("floor", "raw_env"): f"{FLOOR_TITLE}, bare",
    }
    bars = [c for c in results["cases"] if (c["family"], c["interface"]) in colours]
    figure, axes = plt.subplots(figsize=(9, 0.22 * len(bars) + 2.4))
    labels = [f"{_title(c['subject'])} {c['players']}p {c['interface']}" for c in bars]
    positions = range(len(bars))
    seen = set()
    for y, case in zip(positions, bars):
        kind = (case["family"], case["interface"])
        axes.barh(y, case["steps_per_second"], color=colours[kind], label=None if kind in seen else legend[kind])
        seen.add(kind)
    axes.set_yticks(list(positions), labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xscale("log")
    per = "CPU second" if results["settings"]["clock"] == "cpu" else "second"
    axes.set_xlabel(f"steps per {per} (log scale), random legal play")
    leduc = _steps(results["cases"], "leduc_holdem_v4", 2, "env()")
    if leduc:
        axes.axvline(3 * leduc, color="tab:red", linestyle="--", label="target: 3x leduc_holdem_v4 env()")
    axes.axvline(results["settings"]["engine_target"], color="tab:green", linestyle=":", label="target: engine alone")
    axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.6 / figure.get_figheight()), ncol=3)
    axes.set_title("Random-play throughput, median of runs", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return None
