"""Spyfall's tally of answers and accusations: a fixed deal with known answers, and seeded random games."""

from __future__ import annotations

from hidden_role_envs import spyfall_v1
from hidden_role_envs.core.behaviour import Behaviour
from tests.games.spyfall.test_rules import accuse, answer, ask, exchange, new_env, play, vote
from tests.support import random_games_behaviour


def test_false_answers_and_accusations_are_counted_per_seat():
    env = new_env(5, location="Bank", spy=1, dealer=0)  # the Bank: indoors, not loud, weapons
    play(env, exchange(5, 0, 1, "indoors", False)  # the spy answers falsely
         + exchange(5, 1, 2, "loud", True)  # a non-spy lies
         + [ask(5, 2, 3, "weapons"), answer(3, True)]
         + [accuse(5, 4, 2)] + vote(5, 4, 2, no=(0,))  # a wrong accusation, acquitted
         + [accuse(5, 0, 1)] + vote(5, 0, 1))  # the spy convicted: its false answer is caught
    assert env.unwrapped.game_over
    assert env.unwrapped.behaviour() == [
        Behaviour(challenges=1, challenges_right=1),
        Behaviour(claims=1, false_claims=1, false_claims_caught=1),
        Behaviour(claims=1, false_claims=1),
        Behaviour(claims=1),
        Behaviour(challenges=1),
    ]


def test_counts_are_consistent_in_random_games():
    env = spyfall_v1.env(num_players=5, num_rounds=3)
    total = random_games_behaviour(env, 20)
    assert total.claims > total.false_claims > total.false_claims_caught > 0
    assert total.challenges > total.challenges_right > 0


def test_rounds_by_role_tells_the_seats_spy_rounds_apart():
    from hidden_role_envs.games.spyfall.behaviour import rounds_by_role

    # a seat that names the Bank at its first decision as the spy, and otherwise plays as the scripted player
    ended = rounds_by_role("always:guess Bank", "scripted", 30, seed=3)
    assert sum(ended.values()) == 30  # one round a game
    spy_rounds = {result: count for (role, result), count in ended.items() if role == "spy"}
    assert sum(spy_rounds.values()) > 0
    assert set(spy_rounds) <= {"the spy named the location: the spy wins",
                               "the spy named the wrong location: the non-spies win"}
