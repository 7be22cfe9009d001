"""A league: every agent against every other in seeded games, with ratings and a cross-table of win rates.

    hidden-roles league hoax --players 4 --agents random,scripted,trained --games 200 --seed 0

prints a table like

    hoax, 4 players, 200 games per pairing, seed 0
    ratings (OpenSkill, Plackett-Luce; ordinal = mu - 3 sigma, the conservative rank)
    agent                          mu   sigma  ordinal
    scripted                   28.911   0.802   26.505
    ...
    cross-table: the row's agent in one seat, the column's in every other seat: the row's win rate [95% CI]
    agent             vs random              vs scripted            ...
    random            0.262 [0.205, 0.327]   0.010 [0.003, 0.036]   ...

and writes the pairings to a CSV file (`--csv`, default `league.csv`) and
the ratings beside it (`league-ratings.csv`).

Agents (`--agents`, comma separated, at least two): every policy that
`evaluate --seats` takes (random, scripted, trained, saved policies and
models, counter-strategies, text agents).

Pairings: for every ordered pair (A, B), A = B included, `--games` games
with A in one seat and B in all the others, the seats rotated one place
each game as in `evaluate`, so A sits in every seat equally often. Every
pairing plays the same deals (game g of each is reset with the same seed).
The diagonal (A among A's) is the fair share of a seat at a table of A's:
the figure A's win rates against others compare with.

Ratings: OpenSkill's Plackett-Luce model (the `openskill` package), updated
game by game, the g-th game of every pairing before the (g+1)-th of any, each
seat a team of one, the winners ranked first and every other seat second (a
game without a winner is a draw). The field's agent holds several seats of
a game, which the model does not know of: it takes the mean of the updates
of its seats. The diagonal's games rate nobody (one agent against itself
says nothing of its strength). Ratings order agents; the cross-table says
by how much, with intervals.

Seeding: as in `evaluate` (`--seed` fixes every deal and every policy's
draws; pairing k is `evaluate`'s run k).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from dataclasses import dataclass

from hidden_role_envs.training.arguments import Parser, UsageError, non_negative_int, positive_int, run_command
from hidden_role_envs.training.evaluate import play, policy_names, table, wilson_interval
from hidden_role_envs.training.progress import progress_bar


@dataclass(frozen=True)
class Pairing:
    agent: str  # in one seat
    field: str  # in every other seat
    seats: int
    games: int
    wins: int  # the agent's
    truncated: int
    winners: tuple[tuple[int, ...], ...]  # per game, the players (0: the agent, 1.. the field's seats) who won

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True)
class Rating:
    agent: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def play_league(game: str, num_players: int, agents: list[str], games: int, seed: int,
                on_game_done=lambda: None) -> list[Pairing]:
    """Every ordered pairing of `agents` (see the module docstring), in the order A-major."""
    pairings = []
    for run, (agent, field) in enumerate((a, b) for a in agents for b in agents):
        winners: list[list[int]] = []
        wins, truncated, _ = play(game, num_players, [agent] + [field] * (num_players - 1), games, seed, run,
                                  on_game_done, on_winners=winners.append)
        pairings.append(Pairing(agent, field, num_players, games, wins[0], truncated, tuple(map(tuple, winners))))
    return pairings


def rate(pairings: list[Pairing], agents: list[str]) -> list[Rating]:
    """OpenSkill ratings from the pairings' games (see the module docstring), best ordinal first."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as error:
        raise UsageError("the league's ratings need openskill: pip install 'hidden_role_envs[train]'") from error
    model = PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    rated = [p for p in pairings if p.agent != p.field]
    for g in range(max((p.games for p in rated), default=0)):
        for p in rated:
            won = set(p.winners[g])
            holders = [p.agent] + [p.field] * (p.seats - 1)
            teams = [[ratings[name]] for name in holders]
            new = model.rate(teams, ranks=[0 if i in won else 1 for i in range(len(holders))])
            for name in (p.agent, p.field):
                updated = [team[0] for team, holder in zip(new, holders) if holder == name]
                ratings[name] = model.rating(mu=sum(r.mu for r in updated) / len(updated),
                                             sigma=sum(r.sigma for r in updated) / len(updated), name=name)
    result = [Rating(agent, r.mu, r.sigma) for agent, r in ratings.items()]
    return sorted(result, key=lambda r: -r.ordinal)


def format_league(game: str, num_players: int, games: int, seed: int, ratings: list[Rating],
                  pairings: list[Pairing]) -> str:
    agents = [r.agent for r in ratings]
    width = max(24, *(len(a) + 2 for a in agents))
    lines = [
        f"{game}, {num_players} players, {games} games per pairing, seed {seed}",
        "ratings (OpenSkill, Plackett-Luce; ordinal = mu - 3 sigma, the conservative rank)",
        f"{'agent':<{width}} {'mu':>8} {'sigma':>7} {'ordinal':>8}",
    ]
    lines += [f"{r.agent:<{width}} {r.mu:>8.3f} {r.sigma:>7.3f} {r.ordinal:>8.3f}" for r in ratings]
    cell = {(p.agent, p.field): p for p in pairings}
    lines.append("cross-table: the row's agent in one seat, the column's in every other seat: the row's win rate "
                 "[95% CI]; the diagonal is the fair share at a table of one agent")
    lines.append(f"{'agent':<{width}}" + "".join(f" {'vs ' + a:<{width}}" for a in agents))
    for a in agents:
        cells = []
        for b in agents:
            low, high = cell[a, b].interval
            cells.append(f" {f'{cell[a, b].win_rate:.3f} [{low:.3f}, {high:.3f}]':<{width}}")
        lines.append(f"{a:<{width}}" + "".join(cells))
    truncated = sum(p.truncated for p in pairings)
    lines.append(f"  games stopped by the turn limit: {truncated} of {len(pairings) * games}")
    return "\n".join(lines)


def ratings_path(path: str) -> str:
    """Where the ratings go beside the pairings' CSV: `league.csv` -> `league-ratings.csv`."""
    root, ext = os.path.splitext(path)
    return f"{root}-ratings{ext or '.csv'}"


def write_csvs(path: str, game: str, num_players: int, seed: int, ratings: list[Rating],
               pairings: list[Pairing]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "players", "seed", "agent", "field", "games", "wins", "win_rate", "ci_low",
                         "ci_high", "games_truncated"])
        for p in pairings:
            low, high = p.interval
            writer.writerow([game, num_players, seed, p.agent, p.field, p.games, p.wins, f"{p.win_rate:.4f}",
                             f"{low:.4f}", f"{high:.4f}", p.truncated])
    with open(ratings_path(path), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "players", "seed", "agent", "mu", "sigma", "ordinal"])
        for r in ratings:
            writer.writerow([game, num_players, seed, r.agent, f"{r.mu:.4f}", f"{r.sigma:.4f}", f"{r.ordinal:.4f}"])


def build_parser(prog: str = "python -m hidden_role_envs.training.league") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="A seeded round-robin league between policies: OpenSkill ratings and a "
                    "cross-table of win rates with 95% Wilson intervals.")
    parser.add_argument("game", help="the game")
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--agents", default="random,scripted",
                        help="the agents, comma separated, at least two (default random,scripted); any policy "
                        "evaluate --seats takes")
    parser.add_argument("--games", type=positive_int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of deals and policies (default 0)")
    parser.add_argument("--csv", default="league.csv",
                        help="where to write the pairings (default league.csv; the ratings go to league-ratings.csv)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def main(argv: list[str] | None = None, prog: str = "python -m hidden_role_envs.training.league") -> int:
    return run_command("league", lambda: _run(build_parser(prog).parse_args(argv)))


def _run(args: argparse.Namespace) -> int:
    probe = table(args.game, args.players, args.agents)
    num_players = probe.unwrapped.num_players
    agents = list(dict.fromkeys(policy_names(args.agents, probe, "--agents")))
    if len(agents) < 2:
        raise UsageError("--agents: a league needs at least two different agents")
    folder = os.path.dirname(args.csv) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write --csv {args.csv!r}: no directory {folder!r}")
    bar = progress_bar(len(agents) ** 2 * args.games, f"league {args.game}, {num_players} players",
                       enabled=not args.no_progress, unit="game")
    try:
        pairings = play_league(args.game, num_players, agents, args.games, args.seed,
                               bar.update if bar else lambda: None)
    finally:
        if bar:
            bar.close()
    ratings = rate(pairings, agents)
    print(format_league(args.game, num_players, args.games, args.seed, ratings, pairings))
    try:
        write_csvs(args.csv, args.game, num_players, args.seed, ratings, pairings)
    except OSError as error:
        raise UsageError(f"cannot write --csv {args.csv!r}: {error.strerror or error}") from None
    print(f"wrote {args.csv} and {ratings_path(args.csv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
