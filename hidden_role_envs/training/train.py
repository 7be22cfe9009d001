"""Train an agent for one game: self-play PPO on the batched engine by default, or SB3, or Ray RLlib.

    hidden-roles train secrets                               # the default backend (JAX)
    hidden-roles train mascarade --players 6 --timesteps 2000000 --seed 1
    hidden-roles train secrets --backend sb3                 # MaskablePPO on the single-seat env
    hidden-roles train secrets --backend rllib               # PPO on Ray RLlib (see training.rllib_train)

The default backend (`--backend selfplay`, `training.selfplay`): the scripted
player's decisions are recorded on `env()` and the policy is fitted to them
(the warm start); then PPO trains it on the batched engine, B games at once,
every step compiled: in every game the policy plays every seat, except in a
share of league games where it plays one seat and a frozen opponent the rest
(the warm start's copy of the scripted player, or one of the last past
versions). Every learner seat's decision is a sample; the critic may read
the true roles (training only: the policy never sees them). Every
`--eval-every` learner decisions, and before the first, the policy is saved
as a checkpoint and plays `--eval-games` seeded games on `env()` against
random players and as many against scripted players, one seat among them;
the win rates go to TensorBoard, `curve.csv` and `learning_curve.png`,
beside a random player's in the same seats. At the end the policy is saved
as `model.npz` (plain arrays: `--seats runs/.../model.npz` in evaluate,
`--opponents` in play) and a final evaluation of `--final-games` games per
opponent kind is printed and written to `evaluation.csv`. A game may bring
a training recipe (`GameDefinition.training_recipe`, listed by `--help`):
options that stand in for the defaults, measured in `training/RESULTS.md`;
an option given on the command line wins.

`--backend sb3`: MaskablePPO (sb3-contrib) on the single-seat view, every
other seat drawing its player from a pool (random, scripted, past versions),
in `--envs` processes, warm-started by imitation with rehearsals; it saves
`model.zip`. Its options: `--backend sb3 --help`.

Everything goes to `--out` (default `runs/<game>-<players>p-seed<seed>`).
Bad input prints one `train: error: ...` line and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from hidden_role_envs.core import registry
from hidden_role_envs.training.arguments import (
    Parser,
    UsageError,
    non_negative_int,
    positive_float,
    positive_int,
    table_size,
)
from hidden_role_envs.training.reporting import print_finished

BACKENDS = ("selfplay", "sb3", "rllib")
DEFAULT_BACKEND = "selfplay"


def build_parser(prog: str = "python -m hidden_role_envs.training.train --backend sb3") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Train MaskablePPO on one seat of a game by self-play (the SB3 backend).")
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
    parser.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                        help="selfplay: PPO in JAX on the batched engine (default); sb3: this trainer; rllib: PPO "
                             "on every seat with Ray RLlib; each backend has its own options (--backend B --help)")
    return parser


def backend_of(argv: list[str]) -> tuple[str, list[str]]:
    """The --backend asked for, and the other arguments."""
    parser = Parser(add_help=False)
    parser.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND)
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
        if backend == "selfplay":
            from hidden_role_envs.training.selfplay import cli

            return cli.main(rest, prog=prog)
        args = build_parser(f"{prog} --backend sb3").parse_args(argv)
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
        run = sb3_trainer.Run(settings)
        final = run.learn()
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    print_finished(settings, final, "model.zip", started, run.decisions_per_second)
    return 0


if __name__ == "__main__":
    sys.exit(main())
