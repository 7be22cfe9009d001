"""Secrets as the shared adapter sees it, and its text for people."""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.core.game import Event
from hidden_role_envs.games.secrets.actions import DECISIONS, SecretsActions, secrets_actions
from hidden_role_envs.games.secrets.cards import CHARACTERS, IDENTITIES, MAX_PLAYERS, MIN_PLAYERS
from hidden_role_envs.games.secrets.observation import SecretsObserver
from hidden_role_envs.games.secrets.rules import NOBODY, SecretsConfig, SecretsGame


def _seat(seat: int, viewer: int) -> str:
    return "you" if seat == viewer else f"player_{seat}"


def _screen(seat: int, viewer: int) -> str:
    return "your screen" if seat == viewer else f"player_{seat}'s screen"


def _does(seat: int, viewer: int, verb: str) -> str:
    """`you take` or `player_2 takes`."""
    return f"you {verb}" if seat == viewer else f"player_{seat} {verb}s"


def _place(place: int, viewer: int, num_players: int) -> str:
    return "the centre token" if place == num_players else f"the token of {_seat(place, viewer)}"


class SecretsDefinition(GameDefinition):
    name = "secrets"
    version = 0
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 5
    reward_modes = ("win", "score")

    def configure(self, num_players: int, claims: bool = True) -> SecretsConfig:
        if not isinstance(claims, (bool, np.bool_)):
            raise ValueError(f"claims must be True or False; got {claims!r}")
        return SecretsConfig(num_players=num_players, claims=bool(claims))

    def action_table(self, config: SecretsConfig) -> SecretsActions:
        return secrets_actions(config.num_players)

    def new_game(self, config: SecretsConfig, rng: np.random.Generator, setup: dict | None) -> SecretsGame:
        return SecretsGame(config, rng, setup)

    def new_observer(self, config: SecretsConfig) -> SecretsObserver:
        return SecretsObserver(config)

    def describe_table(self, engine: SecretsGame) -> str:
        table = engine.table
        n = engine.num_players
        when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
        lines = [f"Secrets, {n} players, {when}; a screen of {engine.end_size} cards ends the game."]
        for seat in range(n):
            up = [f"{CHARACTERS[c]} x{int(k)}" if k > 1 else CHARACTERS[c] for c, k in enumerate(table.face_up[seat]) if k]
            marks = []
            if seat == table.active and not engine.is_over:
                marks.append("active")
            if seat == table.un_holder:
                marks.append("UN")
            mark = f" ({', '.join(marks)})" if marks else ""
            lines.append(
                f"  player_{seat}{mark}: face up [{', '.join(up)}], {int(table.face_down[seat])} face down, "
                f"{int(table.bullets[seat])} Bullet(s)"
            )
        if engine.is_over:
            return "\n".join(lines)
        lines.append("  showing this turn: " + " and ".join(CHARACTERS[c] for c in table.revealed))
        if table.offer_target != NOBODY:
            claim = f", said to be {CHARACTERS[table.claim]}" if table.claim != NOBODY else ""
            lines.append(f"  Offer: player_{table.active} -> player_{table.offer_target}{claim}")
        if table.card_in_play != NOBODY:
            lines.append(f"  the card turned up is {CHARACTERS[table.card_in_play]}")
        lines.append(f"  decision: {DECISIONS[table.decision]}, asked of player_{table.to_act}")
        return "\n".join(lines)

    def describe_event(self, event: Event, viewer: int, engine: SecretsGame) -> str | None:
        kind, _, data = event
        n = engine.num_players
        if kind == "drawn":
            active, drawn, revealed = data
            return f"{_seat(active, viewer)} drew {', '.join(CHARACTERS[c] for c in drawn)}"
        if kind == "card_chosen":
            return f"{_seat(data[0], viewer)} chose {CHARACTERS[data[1]]} for the Offer"
        if kind == "card_chosen_unseen":
            return f"{_seat(data[0], viewer)} chose a card for the Offer"
        if kind == "offered":
            active, target, claim = data
            said = f", saying it is {CHARACTERS[claim]}" if claim != NOBODY else ""
            return f"{_seat(active, viewer)} offered the card to {_seat(target, viewer)}{said}"
        if kind in ("intercepted", "let_pass", "accepted", "refused"):
            verb = {"intercepted": "intercepted the Offer", "let_pass": "let the Offer pass",
                    "accepted": "accepted", "refused": "refused"}[kind]
            return f"{_seat(data[0], viewer)} {verb}"
        if kind == "card_revealed":
            applies = "you apply" if data[0] == viewer else f"player_{data[0]} applies"
            return f"the card is {CHARACTERS[data[1]]}; {applies} it"
        if kind == "card_added":
            return f"{CHARACTERS[data[1]]} lands on {_screen(data[0], viewer)}"
        if kind == "scientists_flipped":
            return f"two Scientists: every character on {_screen(data[0], viewer)} turns face down"
        if kind == "pair_turned_down":
            return f"a pair of {CHARACTERS[data[1]]} turns face down on {_screen(data[0], viewer)}"
        if kind == "un_token":
            return "the UN token returns to the centre" if data[0] == NOBODY else f"{_does(data[0], viewer, 'take')} the UN token"
        if kind == "looked":
            looker, place, identity = data
            if looker == NOBODY:  # shown, not looked at
                return f"{_place(place, viewer, n)} is shown: {IDENTITIES[identity]}"
            return f"you saw {_place(place, viewer, n)}: {IDENTITIES[identity]}"
        if kind == "looked_unseen":
            return f"{_seat(data[0], viewer)} looked at {_place(data[1], viewer, n)}"
        if kind == "shown_unseen":
            return "your token was shown to the others"
        if kind == "swapped":
            actor, p, q = data
            return f"{_seat(actor, viewer)} swapped {_place(p, viewer, n)} and {_place(q, viewer, n)}"
        if kind == "swapped_one_of":
            return f"{_seat(data[0], viewer)} swapped the centre token with a neighbour's, unseen"
        if kind == "bullet_drawn":
            return f"you drew a Bullet worth {data[1]}"
        if kind == "bullet_drawn_unseen":
            return f"{_seat(data[0], viewer)} drew a Bullet"
        if kind == "bullet_given":
            return f"{_seat(data[0], viewer)} gave a Bullet to {_seat(data[1], viewer)}"
        if kind == "bullet_value":
            return f"the Bullet you gave {_seat(data[1], viewer)} is worth {data[2]}"
        if kind == "game_over":
            return "the game is over"
        return None
