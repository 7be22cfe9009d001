"""Hoax's tally of claims and Hoax calls: a fixed deal with known bluffs and calls, and seeded random games."""

from __future__ import annotations

from hidden_role_envs import hoax_v1
from hidden_role_envs.core.behaviour import Behaviour
from tests.games.hoax.test_rules import BUT, COU, EXW, FIVE, FIVE_START, LOV, SIL, new_env, no_calls, play, vote
from tests.support import random_games_behaviour


def test_bluffs_calls_and_checks_are_counted_per_seat():
    env = new_env(5, FIVE)  # Butler, Son-in-Law, Ex-Wife, Distant Cousin, Lover
    play(env, FIVE_START + ["0: claim Lover Prestige"] + no_calls(0, 5)  # a bluff nobody calls
         + ["0: end turn", "1: claim Lover Evidence"] + vote(1, 5, caller=2, down={2, 3, 4})  # called and checked
         + ["1: end turn", "2: claim Ex-Wife Evidence"] + vote(2, 5, caller=3, down=set(), holder=2))  # a true claim
    assert env.unwrapped.behaviour() == [
        Behaviour(claims=1, false_claims=1),
        Behaviour(claims=1, false_claims=1, false_claims_caught=1),
        Behaviour(claims=1, challenges=1, challenges_right=1),
        Behaviour(challenges=1),
        Behaviour(),
    ]


def test_a_false_claim_the_vote_lets_stand_is_not_caught_but_the_call_was_right():
    env = new_env(5, FIVE)
    play(env, FIVE_START + ["0: claim Lover Prestige"] + vote(0, 5, caller=1, down={1}))
    seats = env.unwrapped.behaviour()
    assert seats[0] == Behaviour(claims=1, false_claims=1)
    assert seats[1] == Behaviour(challenges=1, challenges_right=1)


def test_an_immunity_claim_is_a_claim_and_can_be_caught():
    env = new_env(5, [SIL, BUT, EXW, COU, LOV])
    play(env, FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
         + ["1: immune as Lover"] + vote(1, 5, caller=2, down={0, 2, 3}))
    assert env.unwrapped.behaviour()[:3] == [
        Behaviour(claims=1),
        Behaviour(claims=1, false_claims=1, false_claims_caught=1),
        Behaviour(challenges=1, challenges_right=1),
    ]


def test_counts_are_consistent_in_random_games():
    env = hoax_v1.env(num_players=4)
    total = random_games_behaviour(env, 20)
    assert total.claims and total.false_claims_caught and total.challenges and total.challenges_right
