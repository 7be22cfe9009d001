"""The components of Mascarade: the characters, the recommended sets, the card places, the bank and the courthouse.

A character set is a multiset of character indices (the Peasant may appear
twice, every other character once). Card places are numbered: each seat's
card(s) first (seat s holds places s*h .. s*h + h - 1, h = cards per seat),
then the centre cards.
"""

from __future__ import annotations

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
BANK, COURTHOUSE = -2, -3  # who pays and is paid besides the seats (the bank is unlimited and only pays out)

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
