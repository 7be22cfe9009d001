"""The kinds of event of Secrets: what each tells the seats that see it.

Token places are the seats 0..n-1 and n, the centre (`TOKEN_PLACE`).
"""

from __future__ import annotations

from hidden_role_envs.core.events import (
    FLAG,
    SEAT,
    Field,
    NameField,
    NamesField,
    NumberField,
    SeatOrPlace,
    event_kind,
    rotated,
)
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.core.text import Words


class SecretsWords(Words):
    def __init__(self, viewer: int, vocab, num_players: int):
        super().__init__(viewer, vocab)
        self.num_players = num_players

    def place(self, place: int) -> str:
        return "the centre token" if place == self.num_players else f"the token of {self.seat(place)}"

    def screen(self, seat: int) -> str:
        return "your screen" if seat == self.viewer else f"{agent_name(seat)}'s screen"


class TokenPlace(SeatOrPlace):
    """A place of an identity token: a seat, or the centre (the number of seats)."""

    def readable(self, value, vocab):
        return "centre" if value == len(vocab["seat"]) else agent_name(value)

    def text(self, value, words):
        return words.place(value)

    def place_column(self, value, context):
        return 0 if value == context.num_players else None


class Alternatives(Field):
    """Swaps of token places, one of which happened; encoded as the places they involve."""

    def readable(self, value, vocab):
        place = TOKEN_PLACE.readable
        return [[place(p, vocab), place(q, vocab)] for p, q in value]

    def text(self, value, words):
        return " or ".join(f"{words.place(p)} with {words.place(q)}" for p, q in value)

    def width(self, context):
        return context.num_players + 1

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, context.num_players + 1)

    def encode(self, value, observer, out, context):
        for swap in value:
            for place in swap:
                TOKEN_PLACE.encode(place, observer, out, context)


TOKEN_PLACE, ALTERNATIVES = TokenPlace(), Alternatives()
CHARACTER, CHARACTERS, IDENTITY = NameField("character"), NamesField("character"), NameField("identity")


def _offered(e, w):
    said = f", saying it is {w.name('character', e.claim)}" if e.claim != NOBODY else ""
    return f"{w.seat(e.active)} offered the card to {w.seat(e.target)}{said}"


def _un_token(e, w):
    return "the UN token returns to the centre" if e.holder == NOBODY else f"{w.does(e.holder, 'take')} the UN token"


def _looked(e, w):
    if e.looker == NOBODY:  # shown, not looked at
        return f"{w.place(e.place)} is shown: {w.name('identity', e.identity)}"
    return f"you saw {w.place(e.place)}: {w.name('identity', e.identity)}"


Drawn = event_kind("drawn", "{active} drew {drawn}", active=SEAT, drawn=CHARACTERS, revealed=CHARACTERS)
CardChosen = event_kind("card_chosen", "{active} chose {card} for the Offer", active=SEAT, card=CHARACTER)
CardChosenUnseen = event_kind("card_chosen_unseen", "{active} chose a card for the Offer", active=SEAT)
Offered = event_kind("offered", _offered, active=SEAT, target=SEAT, claim=CHARACTER)
Intercepted = event_kind("intercepted", "{seat} intercepted the Offer", seat=SEAT)
LetPass = event_kind("let_pass", "{seat} let the Offer pass", seat=SEAT)
Answered = event_kind("answered", lambda e, w: f"{w.seat(e.seat)} {'accepted' if e.accepted else 'refused'}", seat=SEAT,
                      accepted=FLAG)
CardRevealed = event_kind(
    "card_revealed", lambda e, w: f"the card is {w.name('character', e.card)}; {w.does(e.receiver, 'apply')} it",
    receiver=SEAT, card=CHARACTER,
)
CardAdded = event_kind("card_added", lambda e, w: f"{w.name('character', e.card)} lands on {w.screen(e.seat)}",
                       seat=SEAT, card=CHARACTER)
ScientistsFlipped = event_kind(
    "scientists_flipped",
    lambda e, w: f"two Scientists: every character on {w.screen(e.seat)} turns face down ({w.names('character', e.cards)})",
    seat=SEAT, cards=CHARACTERS,
)
PairTurnedDown = event_kind(
    "pair_turned_down", lambda e, w: f"a pair of {w.name('character', e.card)} turns face down on {w.screen(e.seat)}",
    seat=SEAT, card=CHARACTER,
)
UnToken = event_kind("un_token", _un_token, holder=SEAT)
Looked = event_kind("looked", _looked, looker=SEAT, place=TOKEN_PLACE, identity=IDENTITY)
LookedUnseen = event_kind("looked_unseen", "{looker} looked at {place}", looker=SEAT, place=TOKEN_PLACE)
ShownUnseen = event_kind("shown_unseen", "your token was shown to the others", seat=SEAT)
Swapped = event_kind("swapped", "{actor} swapped {p} and {q}", actor=SEAT, p=TOKEN_PLACE, q=TOKEN_PLACE)
SwappedOneOf = event_kind(
    "swapped_one_of", "{actor} swapped the centre token with a neighbour's, unseen", actor=SEAT,
    alternatives=ALTERNATIVES,
)
BULLET = NumberField(-3, 0)
BulletDrawn = event_kind("bullet_drawn", "you drew a Bullet worth {value}", seat=SEAT, value=BULLET)
BulletDrawnUnseen = event_kind("bullet_drawn_unseen", "{seat} drew a Bullet", seat=SEAT)
BulletGiven = event_kind("bullet_given", "{giver} gave a Bullet to {receiver}", giver=SEAT, receiver=SEAT)
BulletValue = event_kind("bullet_value", "the Bullet you gave {receiver} is worth {value}", giver=SEAT, receiver=SEAT,
                         value=BULLET)
GameOver = event_kind("game_over", "the game is over")

EVENTS = (
    Drawn, CardChosen, CardChosenUnseen, Offered, Intercepted, LetPass, Answered, CardRevealed, CardAdded,
    ScientistsFlipped, PairTurnedDown, UnToken, Looked, LookedUnseen, ShownUnseen, Swapped, SwappedOneOf,
    BulletDrawn, BulletDrawnUnseen, BulletGiven, BulletValue, GameOver,
)
