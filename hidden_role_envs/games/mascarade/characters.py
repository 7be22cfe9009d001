"""The components of Mascarade: the characters, the recommended sets and the card places.

A character set is a multiset of character indices (the Peasant may appear
twice, every other character once). Card places are numbered: each seat's
card(s) first (seat s holds places s*h .. s*h + h - 1, h = cards per seat),
then the centre cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np

CHARACTERS = (
    "Judge",
    "Bishop",
    "King",
    "Fool",
    "Queen",
    "Thief",
    "Witch",
    "Spy",
    "Peasant",
    "Cheat",
    "Inquisitor",
    "Widow",
)
JUDGE, BISHOP, KING, FOOL, QUEEN, THIEF, WITCH, SPY, PEASANT, CHEAT, INQUISITOR, WIDOW = range(12)
NUM_CHARACTERS = len(CHARACTERS)
FULL_SET = tuple(range(NUM_CHARACTERS)) + (PEASANT,)  # the 13 cards of the box

MONEY = frozenset({QUEEN, KING, WIDOW, FOOL, PEASANT})  # characters that bring coins from the bank
EIGHT_PLUS = frozenset({PEASANT, INQUISITOR})  # characters that need at least 8 players

MIN_PLAYERS, MAX_PLAYERS = 2, 13
STARTING_COINS = 6
WINNING_COINS = 13
CHEAT_COINS = 10
WIDOW_COINS = 10
PREPARATION_TURNS = 4

# The rulebook's recommended sets; 2-3 players: the short variant (HOUSE RULE).
_SET_2_3 = (JUDGE, BISHOP, KING, FOOL, QUEEN, WITCH)
_SET_8 = (JUDGE, BISHOP, KING, FOOL, QUEEN, WITCH, PEASANT, PEASANT)
RECOMMENDED = {
    2: _SET_2_3,
    3: _SET_2_3,
    4: (JUDGE, BISHOP, FOOL, QUEEN, THIEF, CHEAT),
    5: (JUDGE, BISHOP, FOOL, QUEEN, WITCH, CHEAT),
    6: (JUDGE, BISHOP, FOOL, QUEEN, WITCH, CHEAT),
    7: (JUDGE, BISHOP, FOOL, QUEEN, THIEF, WITCH, SPY),
    8: _SET_8,
    9: _SET_8 + (CHEAT,),
    10: _SET_8 + (CHEAT, SPY),
    11: _SET_8 + (CHEAT, SPY, INQUISITOR),
    12: _SET_8 + (CHEAT, SPY, INQUISITOR, WIDOW),
    13: FULL_SET,
}
# RULING: the optional extra centre cards (6+ players) of the default set are the first
# characters of this order that are not yet in play and allowed at the player count.
EXTRA_CARD_ORDER = (KING, THIEF, SPY, CHEAT, WIDOW, WITCH, INQUISITOR)


def cards_per_seat(num_players: int) -> int:
    """Two cards each at 2-3 players (HOUSE RULE), one from 4 players."""
    return 2 if num_players <= 3 else 1


def centre_cards(num_players: int, extra_centre_cards: int = 0) -> int:
    """Cards in the centre: 2 at 2 and 4 players, 1 at 5, none at 3, the optional extra ones at 6+."""
    if num_players <= 5:
        return 6 - num_players * cards_per_seat(num_players)
    return extra_centre_cards


def recommended_set(num_players: int, extra_centre_cards: int = 0) -> tuple[int, ...]:
    """The rulebook's set for this player count, plus the extra centre cards (RULING above)."""
    chosen = list(RECOMMENDED[num_players])
    for character in EXTRA_CARD_ORDER:
        if len(chosen) == len(RECOMMENDED[num_players]) + extra_centre_cards:
            break
        if character not in chosen and (num_players >= 8 or character not in EIGHT_PLUS):
            chosen.append(character)
    return tuple(sorted(chosen))


def parse_character_set(value, num_players: int, num_cards: int) -> tuple[int, ...]:
    """A custom set of character names, checked against the rulebook's constraints.

    Raises ValueError naming the constraint broken. The rulebook's own
    recommended set for the player count is always accepted (its 7-player
    set has 2 money cards out of 7, below the third it asks of other sets).
    """
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise ValueError(f"characters must be a list of character names; got {value!r}")
    chosen = []
    for name in value:
        if name not in CHARACTERS:
            raise ValueError(f"characters: unknown character {name!r}; the characters are {', '.join(CHARACTERS)}")
        chosen.append(CHARACTERS.index(name))
    if len(chosen) != num_cards:
        raise ValueError(
            f"characters: {num_players} players need {num_cards} cards (players' cards and centre cards); "
            f"got {len(chosen)}"
        )
    chosen_set = tuple(sorted(chosen))
    if chosen_set == tuple(sorted(RECOMMENDED[num_players])):
        return chosen_set
    counts = Counter(chosen)
    for character, count in counts.items():
        if character != PEASANT and count > 1:
            raise ValueError(f"characters: there is one {CHARACTERS[character]} card, got {count}")
    if JUDGE not in counts:
        raise ValueError("characters: the Judge must be in play")
    if counts[PEASANT] not in (0, 2):
        raise ValueError(f"characters: both Peasants or neither must be in play; got {counts[PEASANT]}")
    too_few = sorted(CHARACTERS[c] for c in counts if c in EIGHT_PLUS and num_players < 8)
    if too_few:
        raise ValueError(f"characters: {' and '.join(too_few)} need at least 8 players; got {num_players}")
    money = sum(count for character, count in counts.items() if character in MONEY)
    if 3 * money < len(chosen):
        raise ValueError(
            "characters: at least a third of the cards must bring money from the bank "
            f"(Queen, King, Widow, Fool, Peasants); got {money} of {len(chosen)}"
        )
    return chosen_set


@dataclass(frozen=True)
class MascaradeConfig:
    """One table: the players, the cards in play and where they lie.

    What follows from the fields is computed once per configuration (the
    cached properties), since every game and every step reads it.
    """

    num_players: int
    characters: tuple[int, ...]  # sorted multiset of the cards in play
    extra_centre_cards: int = 0

    @cached_property
    def hand(self) -> int:
        return cards_per_seat(self.num_players)

    @cached_property
    def num_centre(self) -> int:
        return centre_cards(self.num_players, self.extra_centre_cards)

    @cached_property
    def num_places(self) -> int:
        return self.num_players * self.hand + self.num_centre

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """Copies in play of each character, by character index."""
        return tuple(self.characters.count(c) for c in range(NUM_CHARACTERS))

    def relative_places(self) -> np.ndarray:
        """[s, r]: the place that seat s calls r: its own card(s), then each next seat's, then the centre."""
        n, hand = self.num_players, self.hand
        seats = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
        own = (seats[:, :, None] * hand + np.arange(hand)).reshape(n, n * hand)
        centre = np.broadcast_to(np.arange(n * hand, self.num_places), (n, self.num_centre))
        return np.concatenate([own, centre], axis=1)

    @cached_property
    def place_called(self) -> tuple[tuple[int, ...], ...]:
        """`relative_places()` as plain ints: [s][r] is the place seat s calls r."""
        return tuple(tuple(int(p) for p in row) for row in self.relative_places())

    @cached_property
    def others(self) -> tuple[tuple[int, ...], ...]:
        """[s]: every seat but s, in seat order."""
        return tuple(tuple(o for o in range(self.num_players) if o != s) for s in range(self.num_players))

    def places_of(self, seat: int) -> range:
        return range(seat * self.hand, (seat + 1) * self.hand)

    def owner(self, place: int) -> int:
        """The seat holding `place`, or -1 for a centre card."""
        return place // self.hand if place < self.num_players * self.hand else -1
