"""Train a MaskablePPO agent on one seat of a game, by self-play.

    python -m training.train secrets                  # or: hidden-roles train secrets
    python -m training.train mascarade --players 6 --timesteps 400000 --seed 1

The learner plays one seat of the single-seat view (`hidden_roles/<Game>-v0`,
a random seat each episode); every other seat draws its player each episode
from a pool: the random player, the scripted player and frozen copies of
the learner, one saved at every evaluation (the last `--pool-size` of them
are kept), each kind drawn a third of the time. Episodes run in `--envs` parallel processes (default: one
per core).

Warm start (`training.imitation`): before PPO, the scripted player plays
the learner's seat in seeded games against the first opponents (random and
scripted players) until it has made `--imitation-steps` decisions; the
policy is fitted to its choices and the value net to the rewards that
followed, for `--imitation-epochs` passes. After every PPO update the
policy rehearses `--rehearsal-batches` random batches of those decisions,
which keeps PPO's noisy updates from drifting away from them.
`--imitation-steps 0` starts PPO from a random policy instead, with no
rehearsal.

Every `--eval-every` steps, and before the first, the current model is saved
as a checkpoint and plays `--eval-games` seeded games against random players
and as many against scripted players (one learner seat among them, rotated);
its win rates go to TensorBoard (`eval/`), to `curve.csv` and to the
learning-curve plot `learning_curve.png`, beside the win rate a random
player gets in the same seats (the baseline to beat). At the end the model
is saved as `model.zip` and a final evaluation of `--final-games` games per
opponent kind is printed and written to `evaluation.csv`.

Everything goes to `--out` (default `runs/<game>-<players>p-seed<seed>`):
model.zip, checkpoints/, tensorboard/, imitation.csv (loss and agreement
with the scripted player per pass), curve.csv, learning_curve.png,
evaluation.csv. Bad input prints one `train: error: ...` line and exits
with status 2.

`--backend rllib` hands the other arguments to `training.rllib_train`: PPO
with Ray RLlib on every seat, on this machine or a Ray cluster.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

from hidden_role_envs.core import registry
from training import imitation
from training.arguments import Parser, UsageError, non_negative_int, positive_float, positive_int, table_size
from training.evaluate import Row, evaluate
from training.progress import progress_bar

OPPONENT_KINDS = ("random", "scripted")
BACKENDS = ("sb3", "rllib")


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


def opponent_pool(past_versions: list[str]) -> list[str]:
    """A third random players, a third scripted players, a third past versions (once there are some)."""
    share = max(1, len(past_versions))
    return ["random"] * share + ["scripted"] * share + past_versions


@dataclass
class Settings:
    game: str
    num_players: int
    timesteps: int
    seed: int
    envs: int
    out: str
    eval_every: int
    eval_games: int
    final_games: int
    pool_size: int
    progress: bool
    imitation_steps: int = 100_000
    imitation_epochs: int = 12
    learning_rate: float = 3e-5
    rehearsal_batches: int = 16


def train(s: Settings) -> dict[str, Row]:
    """Train, evaluate along the way, save everything under `s.out`; return the final evaluation."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

    torch.set_num_threads(1)  # the envs' processes use the other cores
    os.makedirs(os.path.join(s.out, "checkpoints"), exist_ok=True)
    make = [lambda: SingleSeatEnv(s.game, num_players=s.num_players, opponents=opponent_pool([]))] * s.envs
    venv = VecMonitor(SubprocVecEnv(make) if s.envs > 1 else DummyVecEnv(make))  # episode rewards for TensorBoard
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=s.learning_rate,
        n_steps=1024,
        batch_size=512,
        n_epochs=10,
        gamma=1.0,  # one episode is one game, and only its result counts
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        tensorboard_log=os.path.join(s.out, "tensorboard"),
        seed=s.seed,
        device="cpu",
        verbose=0,
    )
    demos = warm_start(model, s) if s.imitation_steps else None
    rehearsal_rng = np.random.default_rng(s.seed)
    baselines = random_baselines(s.game, s.num_players, s.eval_games, s.seed)
    points: list[CurvePoint] = []
    pool: list[str] = []
    title = f"{s.game}, {s.num_players} players, seed {s.seed}"
    bar = progress_bar(s.timesteps, f"train {s.game}", enabled=s.progress)

    def checkpoint(step: int) -> None:
        path = os.path.join(s.out, "checkpoints", f"step_{step}.zip")
        model.save(path)
        for kind, row in measure(path, s.game, s.num_players, s.eval_games, s.seed).items():
            low, high = row.interval
            points.append(CurvePoint(step, kind, row.win_rate, low, high, baselines[kind]))
            model.logger.record(f"eval/win_rate_vs_{kind}", row.win_rate)
        model.logger.dump(step)
        write_curve(os.path.join(s.out, "curve.csv"), points)
        plot_curve(os.path.join(s.out, "learning_curve.png"), points, title)
        pool.append(path)
        del pool[: -s.pool_size]
        venv.env_method("set_opponents", opponent_pool(pool))

    class Schedule(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_eval = s.eval_every
            self.last = 0

        def _on_training_start(self) -> None:
            checkpoint(0)  # the untrained model: where the curve starts

        def _on_rollout_start(self) -> None:
            # here the last rollout has been learned from, so the checkpoint holds what it taught
            if demos is not None and s.rehearsal_batches and self.num_timesteps > 0:
                imitation.rehearse(model.policy, demos, s.rehearsal_batches, rehearsal_rng)
            if self.num_timesteps >= self.next_eval:
                checkpoint(self.num_timesteps)
                self.next_eval += s.eval_every

        def _on_step(self) -> bool:
            if bar:
                bar.update(self.num_timesteps - self.last)
            self.last = self.num_timesteps
            return True

    try:
        model.learn(total_timesteps=s.timesteps, callback=Schedule(), tb_log_name="ppo")
        if not points or points[-1].timesteps < model.num_timesteps:
            checkpoint(model.num_timesteps)
    finally:
        if bar:
            bar.close()
        venv.close()
    final_path = os.path.join(s.out, "model.zip")
    model.save(final_path)
    final = measure(final_path, s.game, s.num_players, s.final_games, s.seed + 1)
    write_final(os.path.join(s.out, "evaluation.csv"), s, final, baselines)
    return final


def warm_start(model, s: Settings) -> imitation.Demonstrations:
    """Fit the new model to the scripted player's decisions before PPO starts; return them for the rehearsals."""
    bar = progress_bar(s.imitation_steps, "record the scripted player", enabled=s.progress, unit="decision")
    demos = imitation.collect(s.game, s.num_players, opponent_pool([]), s.imitation_steps, s.seed, model.gamma,
                              s.envs, on_recorded=bar.update if bar else lambda count: None)
    if bar:
        bar.close()
    bar = progress_bar(s.imitation_epochs, "imitate it", enabled=s.progress, unit="epoch")
    with open(os.path.join(s.out, "imitation.csv"), "w", newline="") as log:
        writer = csv.writer(log)
        writer.writerow(["epoch", "loss", "agreement"])

        def epoch_done(epoch: int, loss: float, agreement: float) -> None:
            writer.writerow([epoch + 1, f"{loss:.4f}", f"{agreement:.4f}"])
            if bar:
                bar.update(1)

        try:
            imitation.imitate(model.policy, demos, s.imitation_epochs, s.seed, on_epoch_done=epoch_done)
        finally:
            if bar:
                bar.close()
    return demos


def write_final(path: str, s: Settings, final: dict[str, Row], baselines: dict[str, float]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "players", "timesteps", "seed", "opponents", "games", "wins", "win_rate", "ci_low",
                         "ci_high", "random_baseline"])
        for kind, row in final.items():
            low, high = row.interval
            writer.writerow([s.game, s.num_players, s.timesteps, s.seed, kind, row.seat_games, row.wins,
                             f"{row.win_rate:.4f}", f"{low:.4f}", f"{high:.4f}", f"{baselines[kind]:.4f}"])


def format_final(s: Settings, final: dict[str, Row]) -> str:
    lines = [f"{s.game}, {s.num_players} players: the trained model, one seat, {s.final_games} games per row",
             f"{'opponents':<10} {'wins':>6} {'win rate':>9}  95% CI"]
    for kind, row in final.items():
        low, high = row.interval
        lines.append(f"{kind:<10} {row.wins:>6} {row.win_rate:>9.3f}  [{low:.3f}, {high:.3f}]")
    return "\n".join(lines)


def build_parser(prog: str = "python -m training.train") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Train MaskablePPO on one seat of a game by self-play.")
    parser.add_argument("game", help="the game: " + ", ".join(registry.GAMES))
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--timesteps", type=positive_int, default=300_000, help="learner decisions (default 300000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the model, the envs and evaluations")
    parser.add_argument("--envs", type=positive_int, default=os.cpu_count() or 1,
                        help="parallel env processes (default: one per core)")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>-<players>p-seed<seed>)")
    parser.add_argument("--eval-every", type=positive_int, default=50_000, help="steps between evaluations (50000)")
    parser.add_argument("--eval-games", type=positive_int, default=200, help="games per opponent kind in each (200)")
    parser.add_argument("--final-games", type=positive_int, default=1000,
                        help="games per opponent kind at the end (1000)")
    parser.add_argument("--pool-size", type=non_negative_int, default=5,
                        help="frozen past versions kept as opponents (5)")
    parser.add_argument("--imitation-steps", type=non_negative_int, default=100_000,
                        help="decisions of the scripted player to imitate before PPO; 0: none (default 100000)")
    parser.add_argument("--imitation-epochs", type=positive_int, default=12,
                        help="passes over those games (default 12)")
    parser.add_argument("--rehearsal-batches", type=non_negative_int, default=16,
                        help="batches of 256 of those decisions rehearsed after every PPO update; 0: none (default 16)")
    parser.add_argument("--learning-rate", type=positive_float, default=3e-5,
                        help="PPO's learning rate (default 3e-5: small steps refine the imitated policy rather than "
                             "overwrite it)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--backend", choices=BACKENDS, default="sb3",
                        help="sb3: this trainer (default); rllib: PPO on every seat with Ray RLlib, locally or on a "
                             "cluster, with options of its own (--backend rllib --help)")
    return parser


def backend_of(argv: list[str]) -> tuple[str, list[str]]:
    """The --backend asked for, and the other arguments."""
    parser = Parser(add_help=False)
    parser.add_argument("--backend", choices=BACKENDS, default="sb3")
    known, rest = parser.parse_known_args(argv)
    return known.backend, rest


def settings_from(args: argparse.Namespace) -> Settings:
    num_players = table_size(args.game, args.players)
    out = args.out or os.path.join("runs", f"{args.game}-{num_players}p-seed{args.seed}")
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a folder")
    return Settings(args.game, num_players, args.timesteps, args.seed, args.envs, out, args.eval_every,
                    args.eval_games, args.final_games, args.pool_size, not args.no_progress, args.imitation_steps,
                    args.imitation_epochs, args.learning_rate, args.rehearsal_batches)


def main(argv: list[str] | None = None, prog: str = "python -m training.train") -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        backend, rest = backend_of(argv)
        if backend == "rllib":
            from training import rllib_train

            return rllib_train.main(rest, prog=f"{prog} --backend rllib")
        settings = settings_from(build_parser(prog).parse_args(argv))
    except UsageError as error:
        print(f"train: error: {error}", file=sys.stderr)
        return 2
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("train: error: training needs the train extra: pip install 'hidden_role_envs[train]'", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        final = train(settings)
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    print(format_final(settings, final))
    minutes = (time.perf_counter() - started) / 60
    imitation_log = "imitation.csv, " if settings.imitation_steps else ""
    print(f"wrote {settings.out}/: model.zip, learning_curve.png, curve.csv, evaluation.csv, {imitation_log}"
          f"checkpoints/, tensorboard/ ({minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
