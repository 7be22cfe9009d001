"""The components of Hoax that do not depend on the character sheet."""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 3, 6
NUM_CHARACTERS = 7  # character cards, and one suspicion card per character

RESOURCES = ("Cash", "Evidence", "Prestige")
NUM_RESOURCES = len(RESOURCES)
SUPPLY_PER_TYPE = 9  # RULING: the 27 resource tokens are 9 of each type
SUPPLY = -1  # where a resource comes from or goes to, when it is not a seat

SUSPICION_CARDS_SHOWN = 4  # the target's own card and three drawn at random from the other six
