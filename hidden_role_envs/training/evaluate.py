"""Win rates of policies playing each other in seeded games, with 95% confidence intervals.

    python -m hidden_role_envs.training.evaluate secrets --players 5 --games 2000 --seed 0 --seats scripted,random
    # or: hidden-roles evaluate secrets ...

prints a table like

    secrets, 5 players, 2000 games, seed 0
    seats: scripted, random, random, random, random (rotated one seat left each game)
    policy                       seats/game  seat-games    wins  win rate  95% CI
    scripted                              1        2000    1087     0.543  [0.522, 0.565]
    random                                4        8000    2048     0.256  [0.247, 0.266]
      games ended by the rules: 2000 (100%), stopped by the turn limit: 0 (0%)
    baseline: random in every seat, same deals and seats
    random in scripted's seats            1        2000     644     0.322  [0.302, 0.343]
    random in random's seats              4        8000    2349     0.294  [0.284, 0.304]
      games ended by the rules: 2000 (100%), stopped by the turn limit: 0 (0%)
    behaviour in the mix (what a claim and a challenge are: hidden_role_envs.games.secrets.behaviour)
    policy                       claims/seat-game   false  caught  challenges/seat-game   right
    scripted                                 0.00       -       -                  0.70   0.876
    random                                   2.31   0.875   0.418                  0.79   0.874
    wrote evaluation.csv

and writes the same rows to a CSV file (`--csv`, default `evaluation.csv`).

Policies (`--seats`, comma separated, one per seat):
- `random`: uniform over the legal actions of the mask, seeded;
- `scripted`: the game's scripted player (`hidden_role_envs.games.<game>.bots`);
- `trained`: the policy shipped for the game and table size;
- the path of a policy or model saved by training (`.npz`, `.zip`), playing
  its most likely legal action;
- `text:module:name`: a text agent (`hidden_role_envs.text`), a callable
  prompt -> reply or an object with `chat(messages) -> reply`, importable as
  `module.name`, playing through its seat's view in words;
- `llm:MODEL@URL`: a text agent served by an OpenAI-compatible
  chat-completions server (`hidden_role_envs.text.chat_completions`).

Behaviour: below the table, each policy of the mix, over the seats it
held: its claims per seat-game; `false`, the share of its claims that were
false (its bluffs); `caught`, the share of its false claims that were
caught; its challenges of others' claims per seat-game; `right`, the share
of its challenges that were right (`-`: nothing to share). A win rate says
how well a policy plays; these say how: by bluffing or by telling the
truth, by calling bluffs or by letting them pass. What a claim, a catch and
a challenge are is each game's own (`hidden_role_envs.games.<game>.behaviour`):
Hoax's claims and Hoax calls, Mascarade's announcements and counter-claims,
the claim of a Secrets Offer and its refusal (the scripted Secrets player
never claims), Spyfall's answers and accusations. They are counted from
every event of each game, hidden ones included (the env's
`episode_events`). The CSV holds the five counts for every row, the
baseline's too.

Text agents: a refused reply is answered with the legal actions, `--retries`
times (default 2); then a legal action drawn at random is played for the
agent and counted as a fallback. `--ask-beliefs` asks them at every decision
to weigh the hidden facts of the game (without telling them the env's own
deductions). Below the table, for each text agent: its decisions, illegal
replies per decision, fallbacks, prompt tokens per decision (an
APPROXIMATION: characters / 4) and, with `--ask-beliefs`, the belief
log-loss against the env's own belief blocks, in nats, beside its floor (the
env's own entropy); its win rate and interval are in the table. The CSV
holds the same figures.

Transcripts: `--transcripts FOLDER` writes, for every seat of every game of
the mix, `FOLDER/game-G-player_K.md`: the rules as that seat was told them,
then at each of its decisions what it was told and what it replied or
played, and the end. The saved transcripts in `docs/transcripts/` are made
so, one game between scripted players:

    hidden-roles evaluate GAME --games 1 --no-baseline --seats scripted --transcripts docs/transcripts/GAME

Seats: with fewer names than players, the LAST name fills the remaining
seats, so `scripted,random` is one scripted player among random ones and
`scripted` alone fills the table with scripted players. More names than
players is an error.

Rotation: the seat plan is rotated one seat to the left every game (in game
g, the i-th name sits in seat (i + g) mod n), so over many games every
policy sits in every seat equally often and no policy gains from a seat.

Counting: a policy in k seats of a game plays k seat-games in it; its win
rate is the share of its seat-games that were won (a CIA-KGB tie is a loss
for everybody, as in the rules). The Wilson interval treats seat-games as
independent, which is exact for a policy in one seat; for a policy in
several seats of the same game (teammates win together) it is too narrow.

Baseline: unless `--no-baseline`, the same games (same deals: game g is
reset with the same seed) are played again with a random player in every
seat, and each row reports the seats the corresponding policy held. That
"random in scripted's seats" row is the number a scripted player must beat.

Seeding: `--seed` fixes every deal and every policy's random choices, so the
same command prints the same table. Game g is reset with a seed drawn from
`SeedSequence([seed, g])`; the player holding the i-th name draws from
`SeedSequence([seed, run, i])`.

Progress goes to stderr (tqdm when installed, else a plain bar; `--no-progress`
turns it off). Bad input prints one `evaluate: error: ...` line to stderr
and exits with status 2.

Every game registered in `hidden_role_envs.core.registry` can be evaluated;
everything here is the same for every game.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hidden_role_envs.core import registry
from hidden_role_envs.core.behaviour import Behaviour
from hidden_role_envs.policies import POLICY_NAMES, events_read, is_counter_spec, is_model_path, make_policy
from hidden_role_envs.text.seat import DEFAULT_RETRIES, NarratedSeat, TextFigures, TextSeat, is_text_spec, text_agent
from hidden_role_envs.training.arguments import Parser, UsageError, non_negative_int, positive_int, run_command
from hidden_role_envs.training.progress import progress_bar

Z95 = 1.959963984540054


def wilson_interval(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (sound near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seat_plan(names: list[str], num_players: int) -> list[str]:
    """One policy name per seat: the last name fills the seats left over."""
    if len(names) > num_players:
        raise ValueError(f"--seats names {len(names)} policies but the game has {num_players} seats")
    return names + [names[-1]] * (num_players - len(names))


def _seed(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1)[0])


@dataclass
class Row:
    run: str  # "mix" or "baseline"
    policy: str  # who played
    seats_of: str  # whose seats of the mix these are
    seats_per_game: int
    seat_games: int
    wins: int
    truncated: int = 0  # games of this run stopped by the turn limit (no winner), not ended by the rules
    text: TextFigures | None = None  # a text agent's figures, over its seats
    behaviour: Behaviour = field(default_factory=Behaviour)  # the claims and challenges of its seats, over all games

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seat_games)


@dataclass(frozen=True)
class TextOptions:
    """How text seats play (see `hidden_role_envs.text.seat`)."""

    retries: int = DEFAULT_RETRIES
    ask_beliefs: bool = False


def play(
    game: str,
    num_players: int,
    plan: list,
    games: int,
    seed: int,
    run: int,
    on_game_done: Callable[[], None] = lambda: None,
    transcripts: str | None = None,
    text: TextOptions = TextOptions(),
    on_winners: Callable[[list[int]], None] = lambda winners: None,
    on_behaviour: Callable[[list[Behaviour]], None] | None = None,
) -> tuple[list[int], int, list]:
    """Play `games` seeded games; the wins of each name's player (indexed like `plan`), the games truncated, and the
    players (a text seat keeps its figures). `on_winners`, `on_behaviour`: see `play_games`."""
    env = registry.make(game, num_players=num_players, history_length=events_read(plan))
    models = {name: make_policy(name, env) for name in set(plan) if is_model_path(name)}

    def player(i: int, name) -> Any:
        if is_text_spec(name):
            return TextSeat(text_agent(name), env, name, _seed(seed, run, i), text.retries, text.ask_beliefs)
        policy = models.get(name) or make_policy(name, env, _seed(seed, run, i))
        return NarratedSeat(policy, env, str(name)) if transcripts else policy

    players = [player(i, name) for i, name in enumerate(plan)]
    wins, truncated = play_games(env, players, games, seed, on_game_done, transcripts, on_winners, on_behaviour)
    return wins, truncated, players


def play_games(
    env: Any,
    players: list,
    games: int,
    seed: int,
    on_game_done: Callable[[], None] = lambda: None,
    transcripts: str | None = None,
    on_winners: Callable[[list[int]], None] = lambda winners: None,
    on_behaviour: Callable[[list[Behaviour]], None] | None = None,
) -> tuple[list[int], int]:
    """Play `games` seeded games in `env` between `players` (one per seat, rotated one seat left each game); the
    wins of each player and the games truncated. A player with `sit(agent, game)` and `stand() -> transcript` is
    told when each game starts and ends; with `transcripts`, each transcript goes to `transcripts/game-G-AGENT.md`.
    `on_winners` is told after each game which players (indices into `players`) won it; `on_behaviour`, if given,
    each player's claims and challenges in it (indexed like `players`)."""
    agents = env.possible_agents
    num_players = len(agents)
    wins = [0] * num_players
    truncated = 0
    seated = [i for i, player in enumerate(players) if hasattr(player, "sit")]
    if transcripts:
        os.makedirs(transcripts, exist_ok=True)
    for g in range(games):
        env.reset(seed=_seed(seed, g))
        seat_of = [agents[(i + g) % num_players] for i in range(num_players)]  # the i-th player's seat
        player_at = {agent: i for i, agent in enumerate(seat_of)}
        for i in seated:
            players[i].sit(seat_of[i], g)
        winners: list[str] = []  # a truncated game has none
        for agent in env.agent_iter():
            observation, _, terminated, cut, info = env.last()
            if terminated or cut:
                winners = info.get("winners", winners)
                env.step(None)
            else:
                env.step(players[player_at[agent]](observation))
        for agent in winners:
            wins[player_at[agent]] += 1
        on_winners([player_at[agent] for agent in winners])
        if on_behaviour is not None:
            by_seat = env.unwrapped.behaviour()
            on_behaviour([by_seat[agents.index(agent)] for agent in seat_of])
        truncated += not env.unwrapped.game_over
        for i in seated:
            transcript = players[i].stand()
            if transcripts:
                with open(os.path.join(transcripts, f"game-{g}-{seat_of[i]}.md"), "w") as f:
                    f.write(transcript)
        on_game_done()
    return wins, truncated


def evaluate(
    game_name: str,
    num_players: int,
    names: list[str],
    games: int,
    seed: int,
    baseline: bool = True,
    on_game_done: Callable[[], None] = lambda: None,
    transcripts: str | None = None,
    text: TextOptions = TextOptions(),
) -> list[Row]:
    """Rows of the win-rate table: one per policy in the mix, then the all-random baseline for the same seats.
    `transcripts`: a folder for a transcript of every seat of every game of the mix."""
    plan = seat_plan(names, num_players)
    rows = []
    runs = [("mix", plan)] + ([("baseline", ["random"] * num_players)] if baseline else [])
    for run_index, (run, played) in enumerate(runs):
        behaviour: list[list[Behaviour]] = []  # per game, per player
        wins, truncated, players = play(game_name, num_players, played, games, seed, run_index, on_game_done,
                                        transcripts if run == "mix" else None, text, on_behaviour=behaviour.append)
        for name in dict.fromkeys(plan):  # each policy once, in order of first seat
            held = [i for i, n in enumerate(plan) if n == name]
            figures = [players[i].figures for i in held if isinstance(players[i], TextSeat)]
            rows.append(Row(run, played[held[0]], name, len(held), len(held) * games, sum(wins[i] for i in held),
                            truncated, sum(figures, TextFigures()) if figures else None,
                            sum((game[i] for game in behaviour for i in held), Behaviour())))
    return rows


def format_table(game_name: str, num_players: int, plan: list[str], games: int, seed: int, rows: list[Row]) -> str:
    lines = [
        f"{game_name}, {num_players} players, {games} games, seed {seed}",
        f"seats: {', '.join(plan)} (rotated one seat left each game)",
        f"{'policy':<28} {'seats/game':>10} {'seat-games':>11} {'wins':>7} {'win rate':>9}  95% CI",
    ]
    previous_run = "mix"
    for row in rows:
        if row.run != previous_run:
            lines.append(_endings(rows, previous_run, games))
            lines.append("baseline: random in every seat, same deals and seats")
            previous_run = row.run
        label = row.policy if row.run == "mix" else f"{row.policy} in {row.seats_of}'s seats"
        low, high = row.interval
        lines.append(
            f"{label:<28} {row.seats_per_game:>10} {row.seat_games:>11} {row.wins:>7} {row.win_rate:>9.3f}"
            f"  [{low:.3f}, {high:.3f}]"
        )
    lines.append(_endings(rows, previous_run, games))
    return "\n".join(lines + _behaviour_figures(game_name, rows) + _text_figures(rows))


def _behaviour_figures(game_name: str, rows: list[Row]) -> list[str]:
    """How each policy of the mix played: how much it claimed and bluffed, how often it challenged, and how well."""
    lines = [
        f"behaviour in the mix (what a claim and a challenge are: {registry.game(game_name).behaviour.__module__})",
        f"{'policy':<28} {'claims/seat-game':>16} {'false':>7} {'caught':>7} {'challenges/seat-game':>21} {'right':>7}",
    ]
    for row in rows:
        if row.run == "mix":
            b = row.behaviour
            lines.append(f"{row.policy:<28} {b.claims / row.seat_games:>16.2f} {_share(b.false_claim_share):>7} "
                         f"{_share(b.caught_share):>7} {b.challenges / row.seat_games:>21.2f} "
                         f"{_share(b.right_share):>7}")
    return lines


def _share(share: float | None) -> str:
    return "-" if share is None else f"{share:.3f}"


def _text_figures(rows: list[Row]) -> list[str]:
    """What the text agents of the mix cost and how well they read the game."""
    rows = [row for row in rows if row.text is not None]
    if not rows:
        return []
    lines = [
        "text agents (prompt tokens: an approximation, characters / 4; belief log-loss in nats, its floor the env's "
        "own entropy)",
        f"{'policy':<28} {'decisions':>9} {'illegal/decision':>16} {'fallbacks':>9} {'prompt tokens/decision':>22}"
        "  belief log-loss (floor)",
    ]
    for row in rows:
        f = row.text
        belief = "-" if f.belief_log_loss is None else f"{f.belief_log_loss:.3f} ({f.belief_log_loss_floor:.3f})"
        lines.append(f"{row.policy:<28} {f.decisions:>9} {f.illegal_per_decision:>16.3f} {f.fallbacks:>9} "
                     f"{f.prompt_tokens_per_decision:>22,.0f}  {belief}")
    return lines


def _endings(rows: list[Row], run: str, games: int) -> str:
    """How the games of a run ended: a table that mostly reaches the turn limit teaches nothing."""
    truncated = next(row.truncated for row in rows if row.run == run)
    return (f"  games ended by the rules: {games - truncated} ({(games - truncated) / games:.0%}), "
            f"stopped by the turn limit: {truncated} ({truncated / games:.0%})")


CSV_COLUMNS = [
    "game",
    "players",
    "games",
    "seed",
    "seats",
    "run",
    "policy",
    "seats_of",
    "seats_per_game",
    "seat_games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "games_truncated",
    # a text agent's figures (empty for other policies)
    "decisions",
    "illegal_replies_per_decision",
    "fallbacks",
    "prompt_tokens_per_decision",
    "belief_log_loss",
    "belief_log_loss_floor",
    # the claims and challenges of the policy's seats, over all games (see hidden_role_envs.core.behaviour)
    "claims",
    "false_claims",
    "false_claims_caught",
    "challenges",
    "challenges_right",
]


def write_csv(path: str, game_name: str, num_players: int, plan: list[str], games: int, seed: int, rows: list[Row]):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            low, high = row.interval
            writer.writerow(
                [
                    game_name,
                    num_players,
                    games,
                    seed,
                    ",".join(plan),
                    row.run,
                    row.policy,
                    row.seats_of,
                    row.seats_per_game,
                    row.seat_games,
                    row.wins,
                    f"{row.win_rate:.4f}",
                    f"{low:.4f}",
                    f"{high:.4f}",
                    row.truncated,
                    *_text_columns(row.text),
                    *row.behaviour.counts(),
                ]
            )


def _text_columns(figures: TextFigures | None) -> list:
    if figures is None:
        return [""] * 6
    asked = figures.belief_log_loss is not None
    return [
        figures.decisions,
        f"{figures.illegal_per_decision:.4f}",
        figures.fallbacks,
        f"{figures.prompt_tokens_per_decision:.1f}",
        f"{figures.belief_log_loss:.4f}" if asked else "",
        f"{figures.belief_log_loss_floor:.4f}" if asked else "",
    ]


def build_parser(prog: str = "python -m hidden_role_envs.training.evaluate") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Play seeded games between policies and report win rates with 95% Wilson intervals.",
        epilog="Policies: random, scripted, trained, the path of a saved policy (.npz) or model (.zip), a text agent "
        "text:module:name, a chat-completions server llm:MODEL@URL, or a counter-strategy to the scripted player: "
        "'always:<action name>' (the scripted player, playing that action whenever legal, e.g. always:refuse) or "
        "counter:<name> (the game's own, e.g. Hoax's counter:accuse-last-claimant). With fewer --seats names than players, the "
        "last name fills the remaining seats; the seats rotate one place every game.",
    )
    parser.add_argument("game", help="the game: " + ", ".join(registry.GAMES))
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--games", type=positive_int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of deals and policies (default 0)")
    parser.add_argument(
        "--seats",
        default="scripted,random",
        help="policy per seat, comma separated (default scripted,random: one scripted player, the rest random)",
    )
    parser.add_argument("--csv", default="evaluation.csv", help="where to write the table (default evaluation.csv)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the all-random baseline")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--transcripts", metavar="FOLDER", default=None,
                        help="write a transcript of every seat of every game there, in words (game-G-player_K.md)")
    parser.add_argument("--retries", type=non_negative_int, default=DEFAULT_RETRIES,
                        help=f"text agents: replies asked again after a refused one (default {DEFAULT_RETRIES}), "
                        "before a random legal action is played for them")
    parser.add_argument("--ask-beliefs", action="store_true",
                        help="text agents: ask them to weigh the hidden facts at every decision (and do not tell them "
                        "the env's deductions); report their log-loss")
    return parser


def main(argv: list[str] | None = None, prog: str = "python -m hidden_role_envs.training.evaluate") -> int:
    return run_command("evaluate", lambda: _run(build_parser(prog).parse_args(argv)))


def table(game: str, players: int | None, policies: str = "") -> Any:
    """The env of the command line's game and table size (UsageError naming what is wrong), with the history block
    that the saved policies among the comma-separated `policies` read, if any."""
    if game not in registry.GAMES:
        raise UsageError(f"unknown game {game!r}; choose from: {', '.join(registry.GAMES)}")
    history = events_read(comma_list(policies))
    try:
        return registry.make(game, history_length=history, **({} if players is None else {"num_players": players}))
    except ValueError as error:  # the environment names the bad argument and the allowed range
        raise UsageError(f"--players: {error}") from None


def comma_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",")]


def policy_names(text: str, probe: Any, option: str) -> list[str]:
    """The comma-separated policies of `option`, each checked now (a missing model or agent fails before any game)."""
    names = comma_list(text)
    for name in names:
        if name in ("random", "scripted"):  # every table has them
            continue
        if not (name in POLICY_NAMES or is_model_path(name) or is_text_spec(name) or is_counter_spec(name)):
            raise UsageError(f"unknown policy {name!r} in {option}; use random, scripted, trained, a saved policy "
                             "(.npz) or model (.zip), always:<action name>, counter:<name>, text:module:name or "
                             "llm:MODEL@URL")
        try:
            text_agent(name) if is_text_spec(name) else make_policy(name, probe)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return names


def _run(args: argparse.Namespace) -> int:
    probe = table(args.game, args.players, args.seats)
    num_players = probe.unwrapped.num_players
    names = policy_names(args.seats, probe, "--seats")
    try:
        plan = seat_plan(names, num_players)
    except ValueError as error:
        raise UsageError(str(error)) from None

    folder = os.path.dirname(args.csv) or "."
    if not os.path.isdir(folder):  # say so now rather than after the games
        raise UsageError(f"cannot write --csv {args.csv!r}: no directory {folder!r}")

    total = args.games * (1 if args.no_baseline else 2)
    bar = progress_bar(total, f"{args.game}, {num_players} players", enabled=not args.no_progress, unit="game")
    try:
        rows = evaluate(
            args.game,
            num_players,
            names,
            args.games,
            args.seed,
            baseline=not args.no_baseline,
            on_game_done=(bar.update if bar else lambda: None),
            transcripts=args.transcripts,
            text=TextOptions(args.retries, args.ask_beliefs),
        )
    finally:
        if bar:
            bar.close()
    print(format_table(args.game, num_players, plan, args.games, args.seed, rows))
    try:
        write_csv(args.csv, args.game, num_players, plan, args.games, args.seed, rows)
    except OSError as error:
        raise UsageError(f"cannot write --csv {args.csv!r}: {error.strerror or error}") from None
    print(f"wrote {args.csv}")
    if args.transcripts:
        print(f"wrote the transcripts to {args.transcripts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
