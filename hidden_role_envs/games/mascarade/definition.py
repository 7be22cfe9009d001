"""Mascarade as the shared adapter sees it, and its text for people."""

from __future__ import annotations

from functools import cache

import numpy as np

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.core.game import Event
from hidden_role_envs.games.mascarade.actions import DECISIONS, MascaradeActions
from hidden_role_envs.games.mascarade.characters import (
    CHARACTERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MascaradeConfig,
    cards_per_seat,
    centre_cards,
    parse_character_set,
    recommended_set,
)
from hidden_role_envs.games.mascarade.observation import MascaradeObserver
from hidden_role_envs.games.mascarade.rules import BANK, COURTHOUSE, NOBODY, MascaradeGame


@cache
def _actions(config: MascaradeConfig) -> MascaradeActions:
    """One action table (and its fixed masks) per configuration, shared by every game: it is never changed."""
    return MascaradeActions(config)


def _seat(seat: int, viewer: int) -> str:
    return "you" if seat == viewer else f"player_{seat}"


def _place(place: int, viewer: int, num_players: int) -> str:
    """A card place in words, from `viewer`'s side of the table."""
    hand = cards_per_seat(num_players)
    if place >= num_players * hand:
        return f"centre card {place - num_players * hand + 1}"
    owner, card = divmod(place, hand)
    letter = "" if hand == 1 else f" {'AB'[card]}"
    return ("your card" if owner == viewer else f"the card of player_{owner}") + letter


class MascaradeDefinition(GameDefinition):
    name = "mascarade"
    version = 0
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 5

    def configure(self, num_players: int, characters=None, extra_centre_cards: int = 0) -> MascaradeConfig:
        n = num_players
        if isinstance(extra_centre_cards, bool) or not isinstance(extra_centre_cards, (int, np.integer)):
            raise ValueError(f"extra_centre_cards must be 0, 1 or 2; got {extra_centre_cards!r}")
        if n < 6 and extra_centre_cards != 0:
            raise ValueError(
                f"extra_centre_cards must be 0 below 6 players (the centre is fixed); got {extra_centre_cards!r}"
            )
        if extra_centre_cards not in (0, 1, 2) or n + extra_centre_cards > 13:
            raise ValueError(
                f"extra_centre_cards must be 0, 1 or 2 with at most 13 cards in all "
                f"(0 to {min(2, 13 - n)} at {n} players); got {extra_centre_cards!r}"
            )
        extra = int(extra_centre_cards)
        num_cards = n * cards_per_seat(n) + centre_cards(n, extra)
        if characters is None:
            chosen = recommended_set(n, extra)
        else:
            chosen = parse_character_set(characters, n, num_cards)
        return MascaradeConfig(num_players=n, characters=chosen, extra_centre_cards=extra)

    def action_table(self, config: MascaradeConfig) -> MascaradeActions:
        return _actions(config)

    def new_game(self, config: MascaradeConfig, rng: np.random.Generator, setup: dict | None) -> MascaradeGame:
        return MascaradeGame(config, _actions(config), rng, setup)

    def new_observer(self, config: MascaradeConfig) -> MascaradeObserver:
        return MascaradeObserver(config)

    def describe_table(self, engine: MascaradeGame) -> str:
        table = engine.table
        config = engine.config
        n = engine.num_players
        when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
        in_play = ", ".join(CHARACTERS[c] for c in config.characters)
        lines = [f"Mascarade, {n} players, {when}; in play: {in_play}", f"  courthouse: {table.courthouse} coins"]
        for seat in range(n):
            mark = " (active)" if seat == table.active and not engine.is_over else ""
            lines.append(f"  player_{seat}{mark}: {int(table.coins[seat])} coins")
        if engine.is_over:
            lines.append(f"  {engine.result}")
            return "\n".join(lines)
        if table.forced:
            lines.append("  the active player may only swap or not this turn")
        if table.announcement != NOBODY:
            claimants = ", ".join(f"player_{s}" for s in table.claimants) or "nobody yet"
            lines.append(
                f"  player_{table.announcer} announced the {CHARACTERS[table.announcement]}; claimed too: {claimants}"
            )
        for place, character in table.revealed.items():
            lines.append(f"  revealed: {_place(place, NOBODY, n)} is the {CHARACTERS[character]}")
        lines.append(f"  decision: player_{table.to_act} must {DECISIONS[table.decision]}")
        return "\n".join(lines)

    def describe_event(self, event: Event, viewer: int, engine: MascaradeGame) -> str | None:
        kind, _, data = event
        num_players = engine.num_players

        def place(p: int) -> str:
            return _place(p, viewer, num_players)

        if kind == "turn":
            active, forced = data
            return f"{_seat(active, viewer)} to play" + (" (swap or not only)" if forced else "")
        if kind in ("swapped", "not_swapped"):
            actor, p, q = data
            did = "swapped" if kind == "swapped" else "did not swap"
            return f"{_seat(actor, viewer)} {did} {place(p)} and {place(q)}"
        if kind == "handled":
            actor, p, q = data
            return f"{_seat(actor, viewer)} took {place(p)} and {place(q)} and swapped them or not"
        if kind == "looked":
            actor, p, character = data
            return f"you looked at {place(p)}: {CHARACTERS[character]}"
        if kind == "looked_unseen":
            return f"{_seat(data[0], viewer)} looked at {place(data[1])}"
        if kind == "announced":
            return f"{_seat(data[0], viewer)} announced: I am the {CHARACTERS[data[1]]}"
        if kind == "claimed":
            return f"{_seat(data[0], viewer)} claimed to be it too"
        if kind == "passed":
            return f"{_seat(data[0], viewer)} passed"
        if kind == "revealed":
            return f"{place(data[1])} is revealed: {CHARACTERS[data[2]]}"
        if kind == "power":
            return f"{_seat(data[0], viewer)} uses the power of the {CHARACTERS[data[1]]}"
        if kind == "paid":
            payer, payee, amount = data
            who = {BANK: "the bank", COURTHOUSE: "the courthouse"}
            return f"{who.get(payer) or _seat(payer, viewer)} paid {amount} to {who.get(payee) or _seat(payee, viewer)}"
        if kind == "questioned":
            return f"{_seat(data[0], viewer)} questions {_seat(data[1], viewer)}"
        if kind == "guessed":
            return f"{_seat(data[0], viewer)} says: I am the {CHARACTERS[data[1]]}"
        if kind == "fortunes_swapped":
            witch, target, _, _ = data
            return f"{_seat(witch, viewer)} swapped fortunes with {_seat(target, viewer)}"
        if kind == "game_over":
            return "the game is over"
        return None
