"""Mascarade's tally of announcements and counter-claims: fixed deals with known cards, and seeded random games."""

from __future__ import annotations

from hidden_role_envs import mascarade_v1
from hidden_role_envs.core.behaviour import Behaviour
from tests.games.mascarade.test_rules import D5, new_env, passes, play, prep
from tests.support import random_games_behaviour

# D5: seat 0 Judge, 1 Bishop, 2 Fool, 3 Queen, 4 Witch, the Cheat in the centre


def test_an_uncontested_bluff_succeeds_and_a_true_counter_claim_is_a_right_challenge():
    env = new_env(5, D5)
    play(env, prep(5) + ["4: announce Queen"] + passes(5, 4)  # the Witch's bluff: nobody contests it
         + ["0: announce Queen"] + passes(5, 0, 3))  # the Judge's bluff, contested by the real Queen
    assert env.unwrapped.behaviour() == [
        Behaviour(claims=1, false_claims=1, false_claims_caught=1),
        Behaviour(),
        Behaviour(),
        Behaviour(claims=1, challenges=1, challenges_right=1),
        Behaviour(claims=1, false_claims=1),
    ]


def test_the_cards_are_followed_through_real_swaps():
    env = new_env(5, D5)
    play(env, prep(5)[:3] + ["3: swap +1"]  # the Queen goes to seat 4, the Witch to seat 3, unseen
         + ["4: announce Queen"] + passes(5, 4, 0, 3))  # true; both counter-claims are false, and caught
    assert env.unwrapped.behaviour() == [
        Behaviour(claims=1, false_claims=1, false_claims_caught=1, challenges=1),
        Behaviour(),
        Behaviour(),
        Behaviour(claims=1, false_claims=1, false_claims_caught=1, challenges=1),
        Behaviour(claims=1),
    ]


def test_counts_are_consistent_in_random_games():
    env = mascarade_v1.env(num_players=5)
    total = random_games_behaviour(env, 10)
    assert total.claims > total.false_claims > total.false_claims_caught > 0
    assert total.challenges > total.challenges_right > 0
