"""The configuration of a Mascarade table: its constructor arguments, checked, and where its cards lie."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from hidden_role_envs.core.checks import check_int, check_sequence
from hidden_role_envs.core.definition import Argument
from hidden_role_envs.games.mascarade.characters import (
    CHARACTERS,
    EIGHT_PLUS,
    FULL_SET,
    JUDGE,
    MONEY,
    NUM_CHARACTERS,
    PEASANT,
    RECOMMENDED,
    cards_per_seat,
    centre_cards,
    recommended_set,
)

ARGUMENTS = (
    Argument("characters", None, "None: the rulebook's recommended set for the player count; or a list of "
             "character names (see Rules)"),
    Argument("extra_centre_cards", 0, "6+ players: 0, 1 or 2 extra face-down centre cards (at most 13 cards in all)"),
)
DEFAULT_MAX_TURNS = 300  # twice the longest natural game measured (the game's docs say how)


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

    @cached_property
    def dims(self) -> dict[str, int]:
        """The observation's dimensions: n seats, h cards per seat, P card places."""
        return {"n": self.num_players, "h": self.hand, "P": self.num_places}

    @cached_property
    def place_called(self) -> tuple[tuple[int, ...], ...]:
        """[s][r]: the place that seat s calls r: its own card(s), then each next seat's, then the centre."""
        n, hand = self.num_players, self.hand
        seats = [[(s + k) % n for k in range(n)] for s in range(n)]
        centre = tuple(range(n * hand, self.num_places))
        return tuple(tuple(seat * hand + j for seat in row for j in range(hand)) + centre for row in seats)

    def places_of(self, seat: int) -> range:
        return range(seat * self.hand, (seat + 1) * self.hand)

    def owner(self, place: int) -> int:
        """The seat holding `place`, or -1 for a centre card."""
        return place // self.hand if place < self.num_players * self.hand else -1


def configure(num_players: int, characters=None, extra_centre_cards: int = 0) -> MascaradeConfig:
    n = num_players
    extra = check_int("extra_centre_cards", extra_centre_cards, 0, 2)
    if n < 6 and extra:
        raise ValueError(f"extra_centre_cards must be 0 below 6 players (the centre is fixed); got {extra!r}")
    if n + extra > len(FULL_SET):
        raise ValueError(
            f"extra_centre_cards must be 0, 1 or 2 with at most {len(FULL_SET)} cards in all "
            f"(0 to {len(FULL_SET) - n} at {n} players); got {extra!r}"
        )
    num_cards = n * cards_per_seat(n) + centre_cards(n, extra)
    chosen = recommended_set(n, extra) if characters is None else check_characters(characters, n, num_cards)
    return MascaradeConfig(num_players=n, characters=chosen, extra_centre_cards=extra)


def check_characters(value, num_players: int, num_cards: int) -> tuple[int, ...]:
    """A custom set of character names, checked against the rulebook's constraints.

    Raises ValueError naming the constraint broken. The rulebook's own
    recommended set for the player count is always accepted (its 7-player
    set has 2 money cards out of 7, below the third it asks of other sets).
    """
    chosen = []
    for name in check_sequence("characters", value):
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
