"""The kinds of event of Mascarade: what each tells the seats that see it.

Card places are absolute (see `characters`): each seat's card(s) in seat
order, then the centre. Coins move between the seats, the bank and the
courthouse (`BANK`, `COURTHOUSE`).
"""

from __future__ import annotations

from hidden_role_envs.core.events import (
    FLAG,
    NUMBER,
    SEAT,
    SEATS,
    Field,
    NameField,
    NamesField,
    SeatOrPlace,
    event_kind,
    rotated,
)
from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.core.text import Words
from hidden_role_envs.games.mascarade.characters import BANK, COURTHOUSE, cards_per_seat

PURSES = {BANK: "the bank", COURTHOUSE: "the courthouse"}


class MascaradeWords(Words):
    def __init__(self, viewer: int, vocab, num_players: int, hand: int):
        super().__init__(viewer, vocab)
        self.num_players = num_players
        self.hand = hand

    def place(self, place: int) -> str:
        """A card place from the viewer's side of the table: `your card`, `the card of player_2 B`, `centre card 1`."""
        hand = self.hand
        if place >= self.num_players * hand:
            return f"centre card {place - self.num_players * hand + 1}"
        owner, card = divmod(place, hand)
        letter = "" if hand == 1 else f" {'AB'[card]}"
        return ("your card" if owner == self.viewer else f"the card of {agent_name(owner)}") + letter

    def purse(self, purse: int) -> str:
        return PURSES.get(purse) or self.seat(purse)


class CardPlace(Field):
    """A card place: a seat's card (`A` or `B` at 2-3 players) or a centre card; encoded one-hot over the places
    as the observer names them (its own card(s), then each next seat's, then the centre)."""

    def readable(self, value, vocab):
        return vocab["place"][value]

    def text(self, value, words):
        return words.place(value)

    def width(self, context):
        return len(context.vocab["place"])

    def observer_columns(self, observer, context):
        return rotated(context.num_players, observer, len(context.vocab["place"]), cards_per_seat(context.num_players))

    def encode(self, value, observer, out, context):
        n = context.num_players
        hand = cards_per_seat(n)
        if value < n * hand:
            owner, card = divmod(value, hand)
            value = context.relative(owner, observer) * hand + card
        out[value] = 1


class Purse(SeatOrPlace):
    """Who pays or is paid: a seat, the bank or the courthouse (in that order after the seats)."""

    places = 2

    def readable(self, value, vocab):
        return {BANK: "bank", COURTHOUSE: "courthouse"}.get(value) or agent_name(value)

    def text(self, value, words):
        return words.purse(value)

    def place_column(self, value, context):
        return None if value >= 0 else int(value == COURTHOUSE)


PLACE, PURSE = CardPlace(), Purse()
CHARACTER, CHARACTERS = NameField("character"), NamesField("character")

Dealt = event_kind("dealt", None, cards=CHARACTERS)  # the open deal: `cards[p]` lies at place p
Turn = event_kind("turn", lambda e, w: f"{w.seat(e.active)} to play" + (" (swap or not only)" if e.forced else ""),
                  active=SEAT, forced=FLAG)
Swapped = event_kind("swapped", "{actor} swapped {p} and {q}", actor=SEAT, p=PLACE, q=PLACE)
NotSwapped = event_kind("not_swapped", "{actor} did not swap {p} and {q}", actor=SEAT, p=PLACE, q=PLACE)
Handled = event_kind("handled", "{actor} took {p} and {q} and swapped them or not", actor=SEAT, p=PLACE, q=PLACE)
Looked = event_kind("looked", "you looked at {place}: {character}", looker=SEAT, place=PLACE, character=CHARACTER)
LookedUnseen = event_kind("looked_unseen", "{looker} looked at {place}", looker=SEAT, place=PLACE)
Announced = event_kind("announced", "{announcer} announced: I am the {character}", announcer=SEAT,
                       character=CHARACTER, place=PLACE)
Claimed = event_kind("claimed", "{claimant} claimed to be it too", claimant=SEAT, place=PLACE)
Passed = event_kind("passed", "{seat} passed", seat=SEAT)
Revealed = event_kind("revealed", "{place} is revealed: {character}", seat=SEAT, place=PLACE, character=CHARACTER)
Power = event_kind("power", "{seat} uses the power of the {character}", seat=SEAT, character=CHARACTER)
Paid = event_kind("paid", "{payer} paid {amount} to {payee}", payer=PURSE, payee=PURSE, amount=NUMBER)
Questioned = event_kind("questioned", "{inquisitor} questions {target}", inquisitor=SEAT, target=SEAT)
Guessed = event_kind("guessed", "{seat} says: I am the {character}", seat=SEAT, character=CHARACTER)
FortunesSwapped = event_kind(
    "fortunes_swapped", "{witch} swapped fortunes with {target}", witch=SEAT, target=SEAT, witch_coins=NUMBER,
    target_coins=NUMBER,  # the coins of each before the swap
)
FortunesKept = event_kind("fortunes_kept", "{witch} declined to swap fortunes", witch=SEAT)
GameOver = event_kind("game_over", "the game is over", winners=SEATS)

EVENTS = (
    Dealt, Turn, Swapped, NotSwapped, Handled, Looked, LookedUnseen, Announced, Claimed, Passed, Revealed, Power, Paid,
    Questioned, Guessed, FortunesSwapped, FortunesKept, GameOver,
)
