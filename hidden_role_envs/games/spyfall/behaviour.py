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
from hidden_role_envs.games.spyfall.events import Accused, Answered, Dealt, RoundStarted, VoteResult


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
    """How the rounds ended for `policy` in one seat among `opponents` (any `make_policy` spec; the seat moves one
    place left each game, game g dealt with seed + g): {(spy or non-spy, the round's result): rounds}."""
    from hidden_role_envs import spyfall_v1  # the env's definition imports this module: no cycle at import
    from hidden_role_envs.policies import make_policy

    env = spyfall_v1.env(num_players=num_players)
    player, others = make_policy(policy, env, seed=seed), make_policy(opponents, env, seed=seed + 1)
    ended: Counter = Counter()
    for game in range(games):
        env.reset(seed=seed + game)
        seat = env.possible_agents[game % num_players]
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step((player if agent == seat else others)(observation))
        for played in info["rounds"]:  # each round's spy by agent name, its result in words
            ended["spy" if played["spy"] == seat else "non-spy", played["result"]] += 1
    return ended
