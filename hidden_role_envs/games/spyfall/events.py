"""The kinds of event of Spyfall: what each tells the seats that see it.

Everything is public but a seat's own card (`dealt`) and its own vote
(`voted`: the others only see that it voted, `vote_cast`).
"""

from __future__ import annotations

from hidden_role_envs.core.events import FLAG, NUMBER, SEAT, NameField, PerSeatField, event_kind
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.core.text import Words

# A vote as revealed: per seat, yes (the accuser counts as yes), no, or the accused (no vote).
NO, YES, NOT_VOTING = 0, 1, -1


class SpyfallWords(Words):
    def __init__(self, viewer: int, vocab, places):
        super().__init__(viewer, vocab)
        self.places = places

    def role(self, location: int, role: int) -> str:
        return self.places.locations[location].roles[role]


class Votes(PerSeatField):
    """Every seat's vote, by seat number: YES, NO or NOT_VOTING."""

    def readable(self, value, vocab):
        return {agent_name(s): {YES: "yes", NO: "no"}.get(v) for s, v in enumerate(value)}


ATTRIBUTE, LOCATION, RESULT, VOTES = NameField("attribute"), NameField("location"), NameField("result"), Votes()
POINTS = PerSeatField(0, 4)  # a round's points, by seat


def _answered(e, w):
    return f"{w.seat(e.seat)} answered {'yes' if e.yes else 'no'} ({w.name('attribute', e.attribute)})"


def _vote_result(e, w):
    yes = [w.seat(s) for s, v in enumerate(e.votes) if v == YES]
    verdict = "convicted" if e.convicted else "not convicted"
    return f"the vote on {w.seat(e.accused)}: {verdict} (yes: {', '.join(yes)})"


def _guessed(e, w):
    verdict = "right" if e.right else "wrong"
    return f"{w.seat(e.spy)} revealed the spy card and named {w.name('location', e.location)}: {verdict}"


def _round_over(e, w):
    convicted = "" if e.convicted == NOBODY else f" ({w.seat(e.accuser)} accused {w.seat(e.convicted)})"
    points = ", ".join(f"{w.seat(s)} {p}" for s, p in enumerate(e.points) if p)
    return (f"round {e.round + 1} is over: the spy was {w.seat(e.spy)}, the location "
            f"{w.name('location', e.location)}; {w.name('result', e.result)}{convicted}; points: {points}")


def _dealt(e, w):
    if e.location == NOBODY:
        return "you are the spy"
    return f"your card: {w.name('location', e.location)}, {w.role(e.location, e.role)}"


RoundStarted = event_kind(
    "round_started", lambda e, w: f"round {e.round + 1}: {agent_name(e.dealer)} deals and asks first",
    round=NUMBER, dealer=SEAT,
)
# location NOBODY: the spy card; role: the index in the location's roles (NOBODY for the spy)
Dealt = event_kind("dealt", _dealt, seat=SEAT, location=LOCATION, role=NUMBER)
Asked = event_kind("asked", "{asker} asked {target} about {attribute}", asker=SEAT, target=SEAT, attribute=ATTRIBUTE)
Answered = event_kind("answered", _answered, seat=SEAT, attribute=ATTRIBUTE, yes=FLAG)
Passed = event_kind("passed", "{seat} passed", seat=SEAT)
Accused = event_kind("accused", "{accuser} accused {accused}", accuser=SEAT, accused=SEAT)
Voted = event_kind("voted", lambda e, w: f"you voted {'yes' if e.yes else 'no'}", seat=SEAT, yes=FLAG)
VoteCast = event_kind("vote_cast", "{seat} voted", seat=SEAT)
VoteResult = event_kind("vote_result", _vote_result, accuser=SEAT, accused=SEAT, votes=VOTES, convicted=FLAG)
CardRevealed = event_kind(
    "card_revealed", lambda e, w: f"{w.seat(e.seat)} {'was' if e.is_spy else 'was not'} the spy", seat=SEAT,
    is_spy=FLAG,
)
Guessed = event_kind("guessed", _guessed, spy=SEAT, location=LOCATION, right=FLAG)
TimeUp = event_kind("time_up", "time is up: from the dealer, each player may accuse")
# convicted: the seat a unanimous vote convicted, accuser: who started that accusation (NOBODY: none)
RoundOver = event_kind("round_over", _round_over, round=NUMBER, spy=SEAT, location=LOCATION, result=RESULT,
                       points=POINTS, convicted=SEAT, accuser=SEAT)
GameOver = event_kind("game_over", "the game is over")

EVENTS = (
    RoundStarted, Dealt, Asked, Answered, Passed, Accused, Voted, VoteCast, VoteResult, CardRevealed, Guessed, TimeUp,
    RoundOver, GameOver,
)
