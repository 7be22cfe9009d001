"""Answers and accusations in a game of Spyfall, per seat (see `hidden_role_envs.core.behaviour`).

- A claim: an answer (`Answered`): "yes, there are uniforms here".
- False: the answer is not true of the round's location. A non-spy's false
  answer is a lie; the spy, who does not know the location, may answer
  falsely without meaning to.
- Caught: the answering seat was convicted later in the same round: its
  false answers that round gave it away (or did not help it hide).
- A challenge: an accusation (`Accused`), while the clock runs or at time up.
- Right: the accused seat is the round's spy.
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
