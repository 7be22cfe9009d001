"""Secrets' tally of Offers' claims and refusals: a fixed deck with known cards, and seeded random games."""

from __future__ import annotations

from hidden_role_envs import secrets_v1
from hidden_role_envs.core.behaviour import Behaviour
from tests.games.secrets.test_rules import DA, JOU, SCI, T4, new_env, play, turn
from tests.support import random_games_behaviour


def test_claims_refusals_and_interceptions_are_counted_per_seat():
    env = new_env(4, T4, [SCI, JOU, SCI, JOU, JOU, SCI, JOU, SCI, SCI, DA])
    play(env, turn(4, 0, SCI, 1, "refuse", claim=JOU)  # a bluff, refused: caught, and a right challenge
         + turn(4, 1, JOU, 2, "refuse", claim=JOU)  # a true claim refused: a wrong challenge
         + turn(4, 2, SCI, 3, "accept", claim=JOU)  # a bluff accepted: it succeeds
         + turn(4, 3, JOU, 0, claim=SCI, un=(2, "intercept"))  # a bluff intercepted: no challenge, not caught
         + turn(4, 0, SCI, 1, "refuse"))  # no claim: refusing it challenges nothing
    assert env.unwrapped.behaviour() == [
        Behaviour(claims=1, false_claims=1, false_claims_caught=1),
        Behaviour(claims=1, challenges=1, challenges_right=1),
        Behaviour(claims=1, false_claims=1, challenges=1),
        Behaviour(claims=1, false_claims=1),
    ]


def test_counts_are_consistent_in_random_games():
    env = secrets_v1.env(num_players=5)
    total = random_games_behaviour(env, 10)
    assert total.claims > total.false_claims > total.false_claims_caught > 0
    assert total.challenges > total.challenges_right > 0
