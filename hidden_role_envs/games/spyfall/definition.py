"""Spyfall as the shared adapter sees it, and its text for people."""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.core.game import Event
from hidden_role_envs.games.spyfall.actions import SpyfallActions
from hidden_role_envs.games.spyfall.locations import ATTRIBUTES, DEFAULT_LOCATIONS, LocationSet
from hidden_role_envs.games.spyfall.observation import SpyfallObserver
from hidden_role_envs.games.spyfall.rules import (
    BALLOT,
    DECISIONS,
    NOBODY,
    QUESTION,
    RESULTS,
    YES,
    SpyfallConfig,
    SpyfallGame,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 8


def _seat(seat: int, viewer: int) -> str:
    return "you" if seat == viewer else f"player_{seat}"


def _positive_int(name: str, value, most: int | None = None) -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1
    if not ok or (most is not None and value > most):
        allowed = "a positive integer" if most is None else f"an integer from 1 to {most}"
        raise ValueError(f"{name} must be {allowed}; got {value!r}")
    return int(value)


class SpyfallDefinition(GameDefinition):
    """Spyfall for the adapter; the locations and attributes travel in the config."""

    name = "spyfall"
    version = 0
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 5
    reward_modes = ("points",)

    def configure(
        self, num_players: int, num_rounds: int = 1, question_limit: int = 16, locations=None, attributes=None
    ) -> SpyfallConfig:
        places = LocationSet(
            DEFAULT_LOCATIONS if locations is None else locations,
            ATTRIBUTES if attributes is None else attributes,
            num_players,
        )
        config = SpyfallConfig(
            num_players=num_players,
            num_rounds=_positive_int("num_rounds", num_rounds, most=len(places)),
            question_limit=_positive_int("question_limit", question_limit),
            places=places,
        )
        return config

    def action_table(self, config: SpyfallConfig) -> SpyfallActions:
        return config.actions

    def new_game(self, config: SpyfallConfig, rng: np.random.Generator, setup: dict | None) -> SpyfallGame:
        return SpyfallGame(config, rng, setup)

    def new_observer(self, config: SpyfallConfig) -> SpyfallObserver:
        return SpyfallObserver(config)

    def describe_table(self, engine: SpyfallGame) -> str:
        table = engine.table
        config = engine.config
        n = engine.num_players
        attributes = config.places.attributes
        scores = ", ".join(f"player_{s} {int(table.scores[s])}" for s in range(n))
        if engine.is_over:
            return f"Spyfall, {n} players, over after {config.num_rounds} round(s); points: {scores}"
        clock = "time is up" if table.time_up else f"{config.question_limit - table.questions} question(s) left"
        lines = [
            f"Spyfall, {n} players, round {table.round + 1} of {config.num_rounds}, dealer player_{table.dealer}; "
            f"{clock}; points: {scores}"
        ]
        if table.played:
            lines.append("  played: " + ", ".join(config.places.names[loc] for loc in table.played))
        if table.attribute != NOBODY:
            attribute = attributes[table.attribute]
            lines.append(f"  question: player_{table.asker} asks player_{table.target} about {attribute}")
        if table.accused != NOBODY:
            lines.append(
                f"  accusation: player_{table.accuser} accuses player_{table.accused}; "
                f"{table.votes_cast} of {len(table.voters)} vote(s) cast"
            )
        used = [f"player_{s}" for s in range(n) if table.accusation_used[s]]
        if used:
            lines.append("  accusation used: " + ", ".join(used))
        if table.decision == QUESTION and table.cannot_ask != NOBODY:
            lines.append(f"  player_{table.to_act} may not ask player_{table.cannot_ask} back")
        lines.append(f"  decision: player_{table.to_act} must {DECISIONS[table.decision]}")
        if table.decision == BALLOT:
            lines[-1] += " (votes are secret until all are cast)"
        return "\n".join(lines)

    def describe_event(self, event: Event, viewer: int, engine: SpyfallGame) -> str | None:
        places = engine.config.places
        kind, _, data = event
        if kind == "asked":
            asker, target, attribute = data
            return f"{_seat(asker, viewer)} asked {_seat(target, viewer)} about {places.attributes[attribute]}"
        if kind == "answered":
            seat, attribute, yes = data
            return f"{_seat(seat, viewer)} answered {'yes' if yes else 'no'} ({places.attributes[attribute]})"
        if kind == "passed":
            return f"{_seat(data[0], viewer)} passed"
        if kind == "accused":
            return f"{_seat(data[0], viewer)} accused {_seat(data[1], viewer)}"
        if kind == "voted":
            return f"you voted {'yes' if data[1] else 'no'}"
        if kind == "vote_cast":
            return f"{_seat(data[0], viewer)} voted"
        if kind == "vote_result":
            accuser, accused, votes, convicted = data
            yes = [_seat(s, viewer) for s, v in enumerate(votes) if v == YES]
            verdict = "convicted" if convicted else "not convicted"
            return f"the vote on {_seat(accused, viewer)}: {verdict} (yes: {', '.join(yes)})"
        if kind == "card_revealed":
            seat, is_spy = data
            return f"{_seat(seat, viewer)} {'was' if is_spy else 'was not'} the spy"
        if kind == "guessed":
            spy, location, right = data
            verdict = "right" if right else "wrong"
            return f"{_seat(spy, viewer)} revealed the spy card and named {places.names[location]}: {verdict}"
        if kind == "time_up":
            return "time is up: from the dealer, each player may accuse"
        if kind == "round_over":
            round_index, spy, location, result, points = data
            return (
                f"round {round_index + 1} is over: the spy was {_seat(spy, viewer)}, "
                f"the location {places.names[location]}; {RESULTS[result]}"
            )
        if kind == "dealt":
            _, location, role = data
            if location == NOBODY:
                return "you are the spy"
            return f"your card: {places.names[location]}, {places.locations[location].roles[role]}"
        if kind == "round_started":
            return f"round {data[0] + 1}: player_{data[1]} deals and asks first"
        if kind == "game_over":
            return "the game is over"
        return None
