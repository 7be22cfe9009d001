"""The kinds of event of Hoax: what each tells the seats that see it.

Resources move between the seats and the supply (`SUPPLY`, not a seat). A
claim's fields are absolute seats, with NOBODY where the claim names no
type or player. An accusation is two events: the suspicion card passed face
down (`accused_as`: the character named, seen by the accuser and the target
only) and the target's yes or no (`accused`, seen by everyone).
"""

from __future__ import annotations

from hidden_role_envs.core.events import (
    FLAG,
    NUMBER,
    PER_SEAT,
    SEAT,
    NameField,
    NamesField,
    SeatOrPlace,
    event_kind,
)
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.core.text import Words
from hidden_role_envs.games.hoax.cards import SUPPLY
from hidden_role_envs.games.hoax.privileges import CharacterSheet


class HoaxWords(Words):
    def __init__(self, viewer: int, vocab, sheet: CharacterSheet):
        super().__init__(viewer, vocab)
        self.sheet = sheet

    def holder(self, place: int) -> str:
        return "the supply" if place == SUPPLY else self.seat(place)

    def option_label(self, character: int, option: int) -> str:
        return self.sheet.characters[character].options[option].label


class Holder(SeatOrPlace):
    """Where resources come from or go to: a seat, or the supply."""

    def readable(self, value, vocab):
        return "supply" if value == SUPPLY else agent_name(value)

    def text(self, value, words):
        return words.holder(value)

    def place_column(self, value, context):
        return 0 if value == SUPPLY else None


HOLDER = Holder()
CHARACTER, CHARACTERS, RESOURCE = NameField("character"), NamesField("character"), NameField("resource")


def result_template(names, character: int) -> str:
    """How the game was won, `{0}` standing for the winner: by a true claim of `character`, or NOBODY: last left."""
    if character == NOBODY:
        return "{0} is the last player left"
    return "{0} truthfully claimed to be the " + names[character].replace("{", "{{").replace("}", "}}")


def _claimed(e, w) -> str:
    label = w.option_label(e.character, e.option)
    choices = [label] if label else []
    if e.resource != NOBODY:
        choices.append(w.name("resource", e.resource))
    if e.player != NOBODY:
        choices.append(w.seat(e.player))
    said = f" ({', '.join(choices)})" if choices else ""
    return f"{w.does(e.claimant, 'claim')} to be the {w.name('character', e.character)}{said}"


def _votes(e, w) -> str:
    ups = [s for s, v in enumerate(e.votes) if v > 0]
    downs = [s for s, v in enumerate(e.votes) if v < 0]
    claim = f"{w.possessive(e.claimant)} claim to be the {w.name('character', e.character)}"
    return f"the votes on {claim}: thumbs up {w.seats(ups)}; thumbs down {w.seats(downs)}"


def _nothing_to_take(e, w) -> str:
    source = "you have" if e.giver == w.viewer else f"{w.holder(e.giver)} has"
    return f"{source} no {w.name('resource', e.resource)} to give"


def _accused(e, w) -> str:
    answer = "yes" if e.right else "no"
    return f"{w.does(e.accuser, 'accuse')} {w.seat(e.target)}: {w.does(e.target, 'answer')} {answer}"


def _accused_as(e, w) -> str:
    card = f"the suspicion card of the {w.name('character', e.character)}"
    return f"{w.does(e.accuser, 'pass')} {w.seat(e.target)} {card}, face down"


def _shown(e, w) -> str:
    cards = CHARACTERS.text(e.cards, w)
    if e.target == w.viewer:
        return f"you pass {w.seat(e.investigator)} the suspicion cards {cards}"
    return f"{w.possessive(e.target)} suspicion cards: {cards}"


def _game_over(e, w) -> str:
    return f"the game is over: {result_template(w.vocab['character'], e.character).format(agent_name(e.winner))}"


def _is(state: str):
    """`you are <state>` or `player_2 is <state>`."""
    return lambda e, w: f"you are {state}" if e.seat == w.viewer else f"{agent_name(e.seat)} is {state}"


Dealt = event_kind("dealt", "you are the {character}", seat=SEAT, character=CHARACTER)
FirstPlayer = event_kind("first_player", lambda e, w: f"{w.does(e.seat, 'play')} first", seat=SEAT)
TurnStarted = event_kind("turn_started", lambda e, w: f"{w.does(e.seat, 'start')} a turn", seat=SEAT)
TurnEnded = event_kind("turn_ended", None, seat=SEAT)
Claimed = event_kind("claimed", _claimed, claimant=SEAT, character=CHARACTER, option=NUMBER, resource=RESOURCE,
                     player=SEAT)
ImmunityClaimed = event_kind(
    "immunity_claimed", lambda e, w: f"{w.does(e.claimant, 'claim')} the {w.name('character', e.character)}'s immunity",
    claimant=SEAT, character=CHARACTER,
)
HoaxCalled = event_kind(
    "hoax_called", lambda e, w: f"{w.does(e.seat, 'call')} Hoax on {w.seat(e.claimant)}!", seat=SEAT, claimant=SEAT
)
NoHoax = event_kind("no_hoax", lambda e, w: f"{w.does(e.seat, 'let')} the claim pass", seat=SEAT)
Voted = event_kind("voted", lambda e, w: f"you voted thumbs {'up' if e.vote > 0 else 'down'}", seat=SEAT, vote=NUMBER)
VoteCast = event_kind("vote_cast", "{seat} voted", seat=SEAT)
VotesRevealed = event_kind("votes_revealed", _votes, votes=PER_SEAT, claimant=SEAT, character=CHARACTER)
ClaimChecked = event_kind(
    "claim_checked",
    lambda e, w: f"{w.possessive(e.seat)} claim to be the {w.name('character', e.character)} was "
    f"{'true' if e.truthful else 'false'}",
    seat=SEAT, character=CHARACTER, truthful=FLAG,
)
Impostor = event_kind(
    "impostor", lambda e, w: f"{w.does(e.seat, 'take')} an impostor token on the {w.name('character', e.character)}",
    seat=SEAT, character=CHARACTER,
)
ClaimStands = event_kind("claim_stands", lambda e, w: f"{w.possessive(e.seat)} claim stands", seat=SEAT,
                         character=CHARACTER)
NoImmunity = event_kind("no_immunity", lambda e, w: f"{w.does(e.seat, 'claim')} no immunity", seat=SEAT)
Immune = event_kind("immune", _is("immune"), seat=SEAT)
PrivilegeDone = event_kind("privilege_done", None, seat=SEAT)
Moved = event_kind("moved", "{count} {resource} from {giver} to {taker}", giver=HOLDER, taker=HOLDER,
                   resource=RESOURCE, count=NUMBER)
NothingToTake = event_kind("nothing_to_take", _nothing_to_take, giver=HOLDER, taker=HOLDER, resource=RESOURCE)
Swapped = event_kind("swapped", "{claimant} and {other} swap their {resource}", claimant=SEAT, other=SEAT,
                     resource=RESOURCE)
Investigated = event_kind("investigated", lambda e, w: f"{w.does(e.investigator, 'investigate')} {w.seat(e.target)}",
                          investigator=SEAT, target=SEAT)
Shown = event_kind("shown", _shown, investigator=SEAT, target=SEAT, cards=CHARACTERS)
AccusedAs = event_kind("accused_as", _accused_as, accuser=SEAT, target=SEAT, character=CHARACTER, right=FLAG)
Accused = event_kind("accused", _accused, accuser=SEAT, target=SEAT, right=FLAG)
Eliminated = event_kind("eliminated", _is("out of the game"), seat=SEAT)
GameOver = event_kind("game_over", _game_over, winner=SEAT, character=CHARACTER)

EVENTS = (
    Dealt, FirstPlayer, TurnStarted, TurnEnded, Claimed, ImmunityClaimed, HoaxCalled, NoHoax, Voted, VoteCast,
    VotesRevealed, ClaimChecked, Impostor, ClaimStands, NoImmunity, Immune, PrivilegeDone, Moved, NothingToTake,
    Swapped, Investigated, Shown, AccusedAs, Accused, Eliminated, GameOver,
)
