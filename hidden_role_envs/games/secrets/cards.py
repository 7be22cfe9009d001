"""The components of Secrets: characters, identities, bullets, and the table by player count."""

from __future__ import annotations

CHARACTERS = (
    "Double Agent",
    "Politician",
    "Psychiatrist",
    "Detective",
    "Journalist",
    "Scientist",
    "Diplomat",
    "Assassin",
)
DOUBLE_AGENT, POLITICIAN, PSYCHIATRIST, DETECTIVE, JOURNALIST, SCIENTIST, DIPLOMAT, ASSASSIN = range(8)
NUM_CHARACTERS = len(CHARACTERS)
CARD_VALUES = (2, 3, -1, -2, 3, 5, 1, 0)
CARD_COPIES = (3, 4, 2, 3, 4, 6, 3, 4)  # 29 cards

IDENTITIES = ("CIA", "KGB", "Hippie")
CIA, KGB, HIPPIE = range(3)
NUM_IDENTITIES = len(IDENTITIES)

BULLET_VALUES = (0, -1, -2, -3)

MIN_PLAYERS, MAX_PLAYERS = 4, 8

# players -> (CIA, KGB, Hippie) tokens in play; one more token than players.
TOKENS_BY_PLAYERS = {4: (2, 2, 1), 5: (2, 2, 2), 6: (3, 3, 1), 7: (3, 3, 2), 8: (4, 4, 1)}


def screen_size_that_ends_the_game(num_players: int) -> int:
    return 5 if num_players <= 6 else 4


def max_turns_of_a_game(num_players: int) -> int:
    """Every turn lands exactly one character, so some screen reaches the end size by then."""
    return num_players * (screen_size_that_ends_the_game(num_players) - 1) + 1
