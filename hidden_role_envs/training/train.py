"""Train a MaskablePPO agent on one seat of a game, by self-play.

    python -m hidden_role_envs.training.train secrets                  # or: hidden-roles train secrets
    python -m hidden_role_envs.training.train mascarade --players 6 --timesteps 400000 --seed 1

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
import os
import sys
import time

from hidden_role_envs.core import registry
from hidden_role_envs.training.arguments import Parser, UsageError, non_negative_int, positive_float, positive_int, table_size
from hidden_role_envs.training.reporting import format_final

BACKENDS = ("sb3", "rllib")


def build_parser(prog: str = "python -m hidden_role_envs.training.train") -> argparse.ArgumentParser:
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


def settings_from(args: argparse.Namespace):
    num_players = table_size(args.game, args.players)
    out = args.out or os.path.join("runs", f"{args.game}-{num_players}p-seed{args.seed}")
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a folder")
    from hidden_role_envs.training.sb3_trainer import Settings

    return Settings(args.game, num_players, args.timesteps, args.seed, args.envs, out, args.eval_every,
                    args.eval_games, args.final_games, args.pool_size, not args.no_progress, args.imitation_steps,
                    args.imitation_epochs, args.learning_rate, args.rehearsal_batches)


def main(argv: list[str] | None = None, prog: str = "python -m hidden_role_envs.training.train") -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        backend, rest = backend_of(argv)
        if backend == "rllib":
            from hidden_role_envs.training import rllib_train

            return rllib_train.main(rest, prog=f"{prog} --backend rllib")
        args = build_parser(prog).parse_args(argv)
        try:
            from hidden_role_envs.training import sb3_trainer
        except ImportError:
            raise UsageError("training needs the train extra: pip install 'hidden_role_envs[train]'") from None
        settings = settings_from(args)
    except UsageError as error:
        print(f"train: error: {error}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        final = sb3_trainer.train(settings)
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    print(format_final(settings.game, settings.num_players, settings.final_games, final))
    minutes = (time.perf_counter() - started) / 60
    imitation_log = "imitation.csv, " if settings.imitation_steps else ""
    print(f"wrote {settings.out}/: model.zip, learning_curve.png, curve.csv, evaluation.csv, {imitation_log}"
          f"checkpoints/, tensorboard/ ({minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
