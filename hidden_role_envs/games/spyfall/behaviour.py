"""Answers and accusations in a game of Spyfall, per seat (see `hidden_role_envs.core.behaviour`).

- A claim: an answer (`Answered`): "yes, there are uniforms here".
- False: the answer is not true of the round's location. A non-spy's false
  answer is a lie; the spy, who does not know the location, may answer
  falsely without meaning to.
- Caught: the answering seat was convicted later in the same round: its
  false answers that round gave it away (or did not help it hide).
- A challenge: an accusation (`Accused`), while the clock runs or at time up.
- Right: the accused seat is the round's spy.

Where a policy's wins come from, round by round: `rounds_by_role` counts how
the rounds ended for one seat of a policy (rotated) among others, by that
seat's card (spy or not). In training/RESULTS.md it shows a spy that names
wrong places at a table of random players:

    python -c "from hidden_role_envs.games.spyfall.behaviour import rounds_by_role; print(rounds_by_role('trained', 'random', 500))"
"""

from __future__ import annotations

from collections import Counter

from hidden_role_envs.core.behaviour import Behaviour, Tally
from hidden_role_envs.core.seats import NOBODY
from hidden_role_envs.games.spyfall.events import Accused, Answered, Dealt, RoundOver, RoundStarted, VoteResult
from hidden_role_envs.games.spyfall.rules import RESULTS


def tally(events, config) -> list[Behaviour]:
    counts = Tally(config.num_players)
    truth = config.places.matrix  # truth[location, attribute]
    for event in events:
        if isinstance(event, RoundStarted):
            false_answers = Counter()  # by seat, this round
        elif isinstance(event, Dealt):
            if event.location == NOBODY:
                spy = event.seat
            else:
                location = event.location
        elif isinstance(event, Answered):
            false = bool(truth[location, event.attribute]) != bool(event.yes)
            counts.claim(event.seat, false)
            false_answers[event.seat] += false
        elif isinstance(event, Accused):
            counts.challenge(event.accuser, right=event.accused == spy)
        elif isinstance(event, VoteResult) and event.convicted:
            counts.caught(event.accused, false_answers[event.accused])
    return counts.seats()


def rounds_by_role(policy: str, opponents: str, games: int, seed: int = 0, num_players: int = 5) -> Counter:
    """How the rounds ended for `policy` in one seat among `opponents` (any `make_policy` spec), the games seeded
    and seated as `hidden-roles evaluate` plays them (the policy's seat moves one place left each game):
    {(spy or non-spy, the round's result): rounds}."""
    from hidden_role_envs import spyfall_v1  # the env's definition imports this module: no cycle at import
    from hidden_role_envs.policies import make_policy
    from hidden_role_envs.training.evaluate import play_games

    env = spyfall_v1.env(num_players=num_players)
    others = make_policy(opponents, env, seed=seed + 1)
    players = [make_policy(policy, env, seed=seed)] + [others] * (num_players - 1)
    ended: Counter = Counter()
    games_done = 0

    def count_rounds() -> None:
        nonlocal games_done
        seat = games_done % num_players  # the policy's, in the game just played
        for event in env.unwrapped.episode_events:
            if isinstance(event, RoundOver):
                ended["spy" if event.spy == seat else "non-spy", RESULTS[event.result]] += 1
        games_done += 1

    play_games(env, players, games, seed, on_game_done=count_rounds)
    return ended
