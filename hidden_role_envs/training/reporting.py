"""What the trainers report: evaluations against each kind of opponent, the learning curve, the final table."""

from __future__ import annotations

import csv
import math
import time
from dataclasses import dataclass

from hidden_role_envs.training.evaluate import Row, evaluate

OPPONENT_KINDS = ("random", "scripted")


@dataclass
class CurvePoint:
    timesteps: int
    opponents: str
    win_rate: float
    ci_low: float
    ci_high: float
    baseline: float  # a random player's win rate in the same seats


def _learner_row(rows: list[Row]) -> Row:
    return rows[0]  # the learner's seats are the first policy of the mix


def measure(model_path: str, game: str, num_players: int, games: int, seed: int) -> dict[str, Row]:
    """The saved model's win rate against each kind of opponent."""
    return {
        kind: _learner_row(evaluate(game, num_players, [model_path, kind], games, seed, baseline=False))
        for kind in OPPONENT_KINDS
    }


def random_baselines(game: str, num_players: int, games: int, seed: int) -> dict[str, float]:
    """What a random player wins in the learner's seats, against each kind of opponent."""
    return {
        kind: _learner_row(evaluate(game, num_players, ["random", kind], games, seed, baseline=False)).win_rate
        for kind in OPPONENT_KINDS
    }


def write_curve(path: str, points: list[CurvePoint]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["timesteps", "opponents", "win_rate", "ci_low", "ci_high", "random_baseline"])
        for p in points:
            writer.writerow([p.timesteps, p.opponents, f"{p.win_rate:.4f}", f"{p.ci_low:.4f}", f"{p.ci_high:.4f}",
                             f"{p.baseline:.4f}"])


def plot_curve(path: str, points: list[CurvePoint], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for kind, colour in zip(OPPONENT_KINDS, ("tab:blue", "tab:orange"), strict=True):
        series = [p for p in points if p.opponents == kind]
        if not series:
            continue
        steps = [p.timesteps for p in series]
        ax.plot(steps, [p.win_rate for p in series], marker="o", color=colour, label=f"trained vs {kind}")
        ax.fill_between(steps, [p.ci_low for p in series], [p.ci_high for p in series], color=colour, alpha=0.2)
        ax.axhline(series[0].baseline, color=colour, linestyle="--", linewidth=1,
                   label=f"random player vs {kind}")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)




def write_final(path: str, game: str, num_players: int, timesteps: int, seed: int, final: dict[str, Row],
                baselines: dict[str, float]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "players", "timesteps", "seed", "opponents", "games", "wins", "win_rate", "ci_low",
                         "ci_high", "random_baseline"])
        for kind, row in final.items():
            low, high = row.interval
            writer.writerow([game, num_players, timesteps, seed, kind, row.seat_games, row.wins,
                             f"{row.win_rate:.4f}", f"{low:.4f}", f"{high:.4f}", f"{baselines[kind]:.4f}"])


def format_final(game: str, num_players: int, games: int, final: dict[str, Row]) -> str:
    lines = [f"{game}, {num_players} players: the trained model, one seat, {games} games per row",
             f"{'opponents':<10} {'wins':>6} {'win rate':>9}  95% CI"]
    for kind, row in final.items():
        low, high = row.interval
        lines.append(f"{kind:<10} {row.wins:>6} {row.win_rate:>9.3f}  [{low:.3f}, {high:.3f}]")
    return "\n".join(lines)


def print_finished(settings, final: dict[str, Row], model_file: str, started: float,
                   decisions_per_second: float) -> None:
    """How every trainer ends: the final table, how fast it learned, and the files it wrote with the minutes taken."""
    print(format_final(settings.game, settings.num_players, settings.final_games, final))
    minutes = (time.perf_counter() - started) / 60
    if math.isnan(decisions_per_second):  # the self-play trainer times none of a run of one iteration (it compiles)
        print("learned in too few iterations to time the rate")
    else:
        print(f"learned at {decisions_per_second:,.0f} learner decisions/s")
    imitation_log = "imitation.csv, " if settings.imitation_steps else ""
    print(f"wrote {settings.out}/: {model_file}, learning_curve.png, curve.csv, evaluation.csv, {imitation_log}"
          f"checkpoints/, tensorboard/ ({minutes:.1f} min)")
