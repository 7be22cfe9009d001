"""Spyfall told to a language-model agent: the rules at one table (its locations and questions), and the facts it
may weigh."""

from __future__ import annotations

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.rules import (
    ACCUSER_OF_THE_SPY_POINTS,
    NON_SPY_CONVICTED,
    NON_SPY_POINTS,
    SPY_NAMED_LOCATION,
    SPY_NOT_CAUGHT,
    SPY_POINTS,
)
from hidden_role_envs.text.beliefs import BeliefQuestion


def rules(config: SpyfallConfig) -> str:
    places = config.places
    rounds = "one round" if config.num_rounds == 1 else f"{config.num_rounds} rounds, each at a new location"
    return "\n\n".join([
        f"The game is {rounds}. In a round every player but one gets a card with the same location and a role "
        "there; the other gets the spy card and does not know the location. The non-spies try to find the spy "
        "without giving the location away; the spy tries to work out the location, or to go unnoticed. The "
        f"locations: {', '.join(places.names)}.",
        "Questions are about yes/no attributes of the location: " + ", ".join(places.attributes) + ". The dealer "
        "asks first; then whoever was asked asks next, anyone but the player who just asked them. Questions and "
        "answers are public; anyone may lie, and only the non-spies know the truth.",
        f"The clock is {config.question_limit} questions. While it runs a player may stop it to accuse another "
        "player (once per round), and the spy may stop it to reveal itself and name the location: right, the spy "
        "wins the round; wrong, the non-spies win it. On an accusation everyone but the accused votes in secret, "
        "the accuser counting as yes, and the votes are shown together; a unanimous yes reveals the accused's card "
        "and ends the round. When time is up each player in turn, from the dealer, may accuse once more; if "
        "nobody is convicted the spy wins the round.",
        f"Points per round: the spy gets {SPY_POINTS[SPY_NOT_CAUGHT]} if nobody is convicted, "
        f"{SPY_POINTS[NON_SPY_CONVICTED]} if a non-spy is, {SPY_POINTS[SPY_NAMED_LOCATION]} for naming the location; "
        f"otherwise each non-spy gets {NON_SPY_POINTS}, and the player whose accusation convicted the spy "
        f"{ACCUSER_OF_THE_SPY_POINTS}. The players with the most points at the end win.",
    ])


def belief_questions(config: SpyfallConfig, seat: int) -> list[BeliefQuestion]:
    """The location (the `location_belief` block) and who the spy is (`spy_belief`: itself, then the seats to its
    left)."""
    n = config.num_players
    names = config.places.names
    seats = tuple("you" if k == 0 else agent_name((seat + k) % n) for k in range(n))
    return [
        BeliefQuestion("the location", names, "location_belief", tuple(range(len(names)))),
        BeliefQuestion("the spy", seats, "spy_belief", tuple(range(n))),
    ]
