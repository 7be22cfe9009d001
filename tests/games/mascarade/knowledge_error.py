"""How far the approximate card beliefs (`PlaceBeliefs`) stay from the exact posterior (`DealPosterior`).

Both are fed the same events in random games, seat by seat, and compared
after every step. Run from the repository root to print the table quoted
in `hidden_role_envs.games.mascarade.knowledge`:

    python -m tests.games.mascarade.knowledge_error
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hidden_role_envs import mascarade_v1
from hidden_role_envs.games.mascarade import events as ev
from hidden_role_envs.games.mascarade.knowledge import DealPosterior, PlaceBeliefs

# (players, extra centre cards): 6, 7 and 8 cards in play (8 players: two Peasants)
TABLES = ((2, 0), (5, 0), (7, 0), (6, 2), (8, 0))


def feed(beliefs, e) -> None:
    """One event, as the observer feeds it."""
    if isinstance(e, ev.Dealt):
        beliefs.see_all(e.seen_by, e.cards)
    elif isinstance(e, ev.Swapped):
        beliefs.swap(e.seen_by, e.p, e.q)
    elif isinstance(e, ev.Handled):
        beliefs.swap_or_not(e.seen_by, e.p, e.q)
    elif isinstance(e, (ev.Looked, ev.Revealed)):
        beliefs.see(e.seen_by, e.place, e.character)


@dataclass
class Comparison:
    """Per seat and step: the largest error of the matrix, and the entries the approximation gets wrong."""

    errors: np.ndarray  # max |approximate - exact| over the seat's matrix
    errors_before: np.ndarray  # the same, before the seat saw a card it was not certain of
    spurious: int  # entries > 0 where the exact posterior is 0
    missed: int  # entries 0 where the exact posterior is > 0 (never, by the guarantee)
    entries: int
    worst_column: float  # the largest gap between a column's sum and its copy count
    worst_row: float


def compare(num_players: int, extra: int = 0, games: int = 40, seed: int = 0) -> Comparison:
    env = mascarade_v1.env(num_players=num_players, extra_centre_cards=extra)
    config = env.unwrapped.config
    counts = np.array(config.counts)
    rng = np.random.default_rng(seed)
    errors, errors_before, spurious, missed, entries, worst_column, worst_row = [], [], 0, 0, 0, 0.0, 0.0
    for game in range(games):
        env.reset(seed=seed * 1000 + game)
        exact = DealPosterior(config.counts, config.num_places, num_players)
        approximate = PlaceBeliefs(config.counts, config.num_places, num_players)
        surprised = [False] * num_players  # saw a card it was not certain of
        events = env.unwrapped.last_events
        while True:
            for e in events:
                if isinstance(e, (ev.Looked, ev.Revealed)):
                    for seat in e.seen_by:
                        surprised[seat] |= exact.marginals(seat)[e.place, e.character] < 1 - 1e-9
                feed(exact, e)
                feed(approximate, e)
            approximate.end_step()
            for seat in range(num_players):
                truth, guess = exact.marginals(seat), approximate.marginals(seat)
                errors.append(np.abs(truth - guess).max())
                if not surprised[seat]:
                    errors_before.append(errors[-1])
                spurious += np.count_nonzero((guess > 0) & (truth == 0))
                missed += np.count_nonzero((guess == 0) & (truth > 0))
                entries += truth.size
                worst_column = max(worst_column, np.abs(guess.sum(axis=0) - counts).max())
                worst_row = max(worst_row, np.abs(guess.sum(axis=1) - 1).max())
            if not env.agents or env.unwrapped.engine.is_over or env.truncations[env.agent_selection]:
                break
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            events = env.unwrapped.last_events
    return Comparison(np.array(errors), np.array(errors_before), spurious, missed, entries, worst_column, worst_row)


def table() -> str:
    rows = ["| cards | table | exact | mean error | 99th percentile | largest | spurious entries | columns off by |",
            "|---|---|---|---|---|---|---|---|"]
    for n, extra in TABLES:
        c = compare(n, extra)
        cards = mascarade_v1.env(num_players=n, extra_centre_cards=extra).unwrapped.config.num_places
        where = f"{n} players" + (f" + {extra} centre" if extra else "")
        rows.append(f"| {cards} | {where} | {np.mean(c.errors < 1e-9):.0%} | {c.errors.mean():.3f} | "
                    f"{np.percentile(c.errors, 99):.2f} | {c.errors.max():.2f} | {c.spurious / c.entries:.2%} | "
                    f"{c.worst_column:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
