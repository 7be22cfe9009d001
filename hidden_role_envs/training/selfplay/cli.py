"""`hidden-roles train GAME`: the command line of the self-play trainer (see `training.train`)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from hidden_role_envs.core import registry
from hidden_role_envs.training.arguments import (
    Parser,
    UsageError,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    positive_ints,
    table_size,
)
from hidden_role_envs.training.reporting import print_finished


def _share(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a share from 0 to 1, got {text!r}")
    return value


def option(name: str) -> str:
    """`--scripted-share` for the option stored as `scripted_share`."""
    return "--" + name.replace("_", "-")


def recipe_text(recipe: dict) -> str:
    def one(name: str, value) -> str:
        if isinstance(value, bool):  # a switch: `--belief-links` or `--no-belief-links`
            return option(name) if value else "--no-" + option(name)[2:]
        return f"{option(name)} {','.join(map(str, value)) if isinstance(value, tuple) else value}"

    return " ".join(one(name, value) for name, value in recipe.items())


def _recipes() -> str:
    lines = [("A game's training recipe stands in for some of the defaults above (an option given on the command "
              "line wins):")]
    lines += [f"  {name}: {recipe_text(game.training_recipe)}" for name, game in registry.GAMES.items()
              if game.training_recipe]
    return "\n".join(lines) if len(lines) > 1 else ""


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Train a policy by self-play PPO on the batched engine (JAX).",
                    epilog=_recipes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="the game: " + ", ".join(registry.GAMES))
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--timesteps", type=positive_int, default=3_000_000,
                        help="learner decisions to train on (default 3000000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the policy, the games and evaluations")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>-<players>p-seed<seed>)")
    parser.add_argument("--eval-every", type=positive_int, default=500_000,
                        help="learner decisions between evaluations (500000)")
    parser.add_argument("--eval-games", type=positive_int, default=200, help="games per opponent kind in each (200)")
    parser.add_argument("--final-games", type=positive_int, default=1000, help="games per opponent kind at the end")
    parser.add_argument("--imitation-steps", type=non_negative_int, default=60_000,
                        help="decisions of the scripted player to imitate first; 0: none (default 60000)")
    parser.add_argument("--imitation-epochs", type=positive_int, default=10, help="passes over them (default 10)")
    parser.add_argument("--hidden", type=positive_ints("layer sizes such as 256,256"), default=(256, 256),
                        help="hidden layer sizes (default 256,256)")
    parser.add_argument("--games", type=positive_int, default=512, help="games played side by side (default 512)")
    parser.add_argument("--steps", type=positive_int, default=32, help="moves of each game per rollout (default 32)")
    parser.add_argument("--epochs", type=positive_int, default=2, help="PPO passes per rollout (default 2)")
    parser.add_argument("--learning-rate", type=positive_float, default=1e-4, help="Adam's step size (default 1e-4)")
    parser.add_argument("--entropy", type=non_negative_float, default=0.01,
                        help="weight of the policy's entropy in PPO's loss, which keeps it trying other moves "
                        "(default 0.01)")
    parser.add_argument("--league-share", type=_share, default=0.6,
                        help="share of games where the other seats are a frozen opponent (default 0.6)")
    parser.add_argument("--scripted-share", type=_share, default=0.0,
                        help="share of games where the other seats are the game's scripted player (default 0)")
    parser.add_argument("--random-share", type=_share, default=0.0,
                        help="share of games where the other seats play uniformly at random (default 0); with "
                        "--scripted-share at most 1 in all")
    parser.add_argument("--best-response", action="store_true",
                        help="train against the scripted player's imitation alone, in every game (no self-play, no "
                        "past versions): a best response, whose win rate against the scripted players measures how "
                        "exploitable they are")
    parser.add_argument("--critic", choices=("roles", "plain"), default="roles",
                        help="roles: the critic also reads the true roles in training (default); plain: it does not")
    parser.add_argument("--role-head", type=non_negative_float, default=0.0, metavar="WEIGHT",
                        help="add an auxiliary head that learns to predict the true roles from the policy's "
                        "features, its loss weighted by WEIGHT (default 0: none); the policy never reads them")
    parser.add_argument("--belief-links", action=argparse.BooleanOptionalAction, default=False,
                        help="tie each action that acts on one of the seat's beliefs to it (Spyfall: a guess to "
                        "P(that location) and to the share of answers false there, an accusation to P(that seat is "
                        "the spy)): one learned gain per kind, with which the belief adds to the action's logit; "
                        "for the games that declare such links (default: off, but for Spyfall's recipe)")
    parser.add_argument("--link-gates", action=argparse.BooleanOptionalAction, default=False,
                        help="with --belief-links: each kind's gain also reads the network's features, so that its "
                        "sign can depend on the state (Secrets: an Offer to a likely teammate, good or bad by the "
                        "card) (default: off)")
    parser.add_argument("--scripted-prior", action=argparse.BooleanOptionalAction, default=False,
                        help="add to each action's logit what the game's scripted player thinks of it (among its "
                        "best, and how far below the best), each times a learned gain that starts at 0: the warm "
                        "start, if any, teaches the gains to play as the scripted player, and PPO learns how far "
                        "to follow it; the policy then runs the scripted player beside it; for the games whose "
                        "scripted player's JAX twin gives its scores: Secrets (default: off, but for Secrets' "
                        "recipe)")
    parser.add_argument("--history", type=non_negative_int, default=0, metavar="K",
                        help="the policy also reads the last K events its seat saw (the env's history block, "
                        "history_length=K), pooled by attention; such a policy plays only in envs with at least K "
                        "(evaluations and hidden-roles play make them so) (default 0: none)")
    parser.add_argument("--no-recipe", action="store_true",
                        help="the defaults above, not the game's training recipe (below)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--backend", default="selfplay", help=argparse.SUPPRESS)
    return parser


def settings_from(args: argparse.Namespace):
    from hidden_role_envs.training.selfplay.trainer import Settings

    num_players = table_size(args.game, args.players)
    if registry.GAMES[args.game].batched is None:
        raise UsageError(f"{args.game} has no batched engine yet: train it with --backend sb3")
    out = args.out or os.path.join("runs", f"{args.game}-{num_players}p-seed{args.seed}")
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a folder")
    if args.best_response and not args.imitation_steps:
        raise UsageError("--best-response plays against the scripted player's imitation: --imitation-steps must be > 0")
    try:
        return Settings(
            args.game, num_players, args.timesteps, args.seed, out, args.eval_every, args.eval_games, args.final_games,
            progress=not args.no_progress, imitation_steps=args.imitation_steps, imitation_epochs=args.imitation_epochs,
            hidden=args.hidden, games=args.games, steps=args.steps, epochs=args.epochs,
            learning_rate=args.learning_rate, entropy=args.entropy,
            league_share=1.0 if args.best_response else args.league_share, scripted_share=args.scripted_share,
            random_share=args.random_share,
            critic_sees_roles=args.critic == "roles", role_weight=args.role_head,
            best_response=args.best_response, belief_links=args.belief_links, link_gates=args.link_gates,
            scripted_prior=args.scripted_prior, history_length=args.history,
        )
    except ValueError as error:  # --scripted-share and --random-share overflow the batch, or --belief-links unknown
        raise UsageError(str(error)) from None


def parse(argv: list[str], prog: str) -> tuple[argparse.Namespace, dict]:
    """The options, the game's recipe (`GameDefinition.training_recipe`) standing in for the defaults it names,
    and the part of the recipe that was not overridden on the command line."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    recipe = registry.GAMES[args.game].training_recipe if args.game in registry.GAMES else {}
    if not recipe or args.no_recipe:
        return args, {}
    not_given = object()
    parser.set_defaults(**dict.fromkeys(recipe, not_given))
    args = parser.parse_args(argv)
    used = {name: value for name, value in recipe.items() if getattr(args, name) is not_given}
    for name, value in used.items():
        setattr(args, name, value)
    return args, used


def main(argv: list[str], prog: str) -> int:
    try:
        args, recipe = parse(argv, prog)
        try:
            from hidden_role_envs.training.selfplay import trainer
        except ImportError:
            raise UsageError("the self-play trainer needs JAX: pip install 'hidden_role_envs[train]'") from None
        settings = settings_from(args)
    except UsageError as error:
        print(f"train: error: {error}", file=sys.stderr)
        return 2
    if recipe:
        print(f"{args.game}'s training recipe: {recipe_text(recipe)}")
    started = time.perf_counter()
    try:
        run = trainer.Run(settings)
        final = run.learn()
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    print_finished(settings, final, "model.npz", started, run.decisions_per_second)
    return 0
