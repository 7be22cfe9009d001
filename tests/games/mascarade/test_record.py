"""The public record in every seat's observation: announcements and claims and how they were shown, looks and who
still knows what they saw, swaps-or-not per place, the cards shown and not moved since, the Inquisitor's questions
and the guesses. Expectations are in absolute seats and places; every seat must read the same record."""

import numpy as np
import pytest

from hidden_role_envs import mascarade_v1
from hidden_role_envs.games.mascarade.observation import RECORD_CAP
from tests.games.mascarade.test_rules import CHARACTER_ORDER, D5, D13, P5, P13, new_env, passes, play, prep

JUD, BIS, KIN, FOO, QUE, THI, WIT, SPY, PEA, CHE, INQ, WID = range(12)


def absolute(env, observer: int, name: str) -> np.ndarray:
    """The block as `observer` reads it, turned back to absolute seats and places."""
    u = env.unwrapped
    view = u.observer.layout.views(env.observe(f"player_{observer}")["observation"])[name]
    block = next(b for b in u.observer.layout.blocks if b.name == name)
    n = u.num_players
    for axis, per in block.rotate.items():
        order = [((s - observer) % n) * per + j for s in range(n) for j in range(per)]
        view = view.take(order + list(range(n * per, view.shape[axis])), axis=axis)
    return view


def record(env, name: str) -> np.ndarray:
    """The block in absolute order; the same for every seat, since it is public."""
    first = absolute(env, 0, name)
    for observer in range(1, env.unwrapped.num_players):
        assert np.array_equal(absolute(env, observer, name), first), f"{name} differs between seats"
    return first


def test_announcements_claims_and_how_reveals_showed_them():
    env = new_env(5, D5)
    play(env, P5 + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: claim"])  # 3 holds the Queen
    announcements, claims = record(env, "announcements"), record(env, "claims")
    assert list(announcements[4, QUE]) == [1, 0, 1]  # made, shown false
    assert list(claims[0, QUE]) == [1, 0, 1] and list(claims[3, QUE]) == [1, 1, 0]
    assert announcements.sum() == 2 and claims.sum() == 4
    assert list(record(env, "last_announcement")[4]) == list(np.eye(12)[QUE])
    assert list(record(env, "last_claimants")[4]) == [1, 0, 0, 1, 0]
    assert list(record(env, "announcement_age")) == [RECORD_CAP] * 4 + [1]  # a turn has begun since
    play(env, ["0: no swap +1", "1: look", "2: look", "3: look", "4: announce Judge", "0: pass", "1: pass",
               "2: pass", "3: pass"])
    assert list(record(env, "last_announcement")[4]) == list(np.eye(12)[JUD])
    assert not record(env, "last_claimants")[4].any()
    assert list(record(env, "announcement_age")) == [RECORD_CAP] * 4 + [1]
    assert list(record(env, "announcements")[4, JUD]) == [1, 0, 0]  # unchallenged: not shown


def test_swaps_or_not_per_place_and_the_cards_shown_since():
    env = new_env(5, D5)
    play(env, P5)
    assert list(record(env, "handled")) == [1, 2, 2, 2, 1, 0]
    swaps = record(env, "swaps")
    assert [list(np.flatnonzero(row)) for row in swaps] == [[0, 1], [1, 2], [2, 3], [3, 4], []]
    shown = record(env, "revealed")
    assert [int(np.argmax(row)) if row.any() else None for row in shown] == [None] * 5 + [CHE]
    play(env, ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: claim"])
    assert list(record(env, "handled")) == [0, 2, 2, 0, 0, 0]  # a reveal shows the card again
    shown = record(env, "revealed")
    assert [int(np.argmax(row)) if row.any() else None for row in shown] == [JUD, None, None, QUE, WIT, CHE]


def test_looks_their_age_and_who_still_knows_what_it_saw():
    env = new_env(5, D5)
    play(env, P5 + ["4: look", "0: look"])
    looks, age, known = record(env, "looks"), record(env, "look_age"), record(env, "still_known")
    assert looks[4, 4] == 1 and looks[0, 0] == 1 and looks.sum() == 2
    assert age[4, 4] == 2 and age[0, 0] == 1 and (age[looks == 0] == RECORD_CAP).all()  # two turns have begun since
    assert known[4, 4] == 1 and known[0, 0] == 1 and known.sum() == 2
    play(env, ["1: swap +3"])  # seat 1 handles place 4: seat 4 no longer knows its card
    known = record(env, "still_known")
    assert known[4, 4] == 0 and known[0, 0] == 1
    assert record(env, "looks")[4, 4] == 1  # the count stays


def test_a_seat_that_saw_both_cards_it_handles_still_knows_both():
    env = new_env(13, D13)
    play(env, P13 + ["4: announce Spy"] + passes(13, 4, 7) + ["7: spy +5", "7: spy no swap"])
    known = record(env, "still_known")
    assert known[7, 7] == 1 and known[7, 12] == 1 and known.sum() == 2
    assert record(env, "looks")[7, 7] == 1 and record(env, "looks")[7, 12] == 1
    assert record(env, "swaps")[7, 7] == 1 and record(env, "swaps")[7, 12] == 1


def test_a_seat_that_saw_one_of_the_cards_it_handles_no_longer_knows_either():
    env = new_env(5, D5)
    play(env, P5 + ["4: look", "0: no swap +1", "1: no swap +1", "2: no swap +1", "3: no swap +1", "4: swap +1"])
    assert not record(env, "still_known").any()


def test_the_inquisitors_question_and_the_guess():
    env = new_env(13, D13)
    play(env, P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +3", "0: guess King"])
    questioned = record(env, "questioned")
    assert questioned[10, 0] == 1 and questioned.sum() == 1
    guesses = record(env, "guesses")
    assert list(guesses[0, KIN]) == [0, 1] and guesses.sum() == 1  # named the King, was the Judge
    assert list(record(env, "claims")[10, INQ]) == [1, 1, 0]
    assert list(record(env, "announcements")[4, INQ]) == [1, 0, 1]
    shown = record(env, "revealed")
    # the guess and the claims showed 0, 4 and 10; 5 to 12 are as dealt, never handled since
    assert {int(p): CHARACTER_ORDER[int(np.argmax(shown[p]))] for p in np.flatnonzero(shown.any(axis=1))} == {
        0: "Judge", 4: "Queen", **{p: D13[p] for p in range(5, 13)}}


def test_counts_stop_at_the_cap():
    env = mascarade_v1.env(num_players=2, max_turns=None)
    env.reset(seed=0, options={"setup": {"first_player": 0}})
    play(env, prep(2, two_cards=True))
    for _ in range(RECORD_CAP + 5):
        play(env, ["0: look A", "1: look A"])
    looks = record(env, "looks")  # seat 1's card A is place 2
    assert looks[0, 0] == RECORD_CAP and looks[1, 2] == RECORD_CAP
    assert env.observation_space("player_0")["observation"].contains(env.observe("player_0")["observation"])


@pytest.mark.parametrize("n", [2, 5, 13])
def test_the_record_of_random_games_is_the_same_for_every_seat_and_in_the_space(n):
    env = mascarade_v1.env(num_players=n)
    records = [b.name for b in env.unwrapped.observer.layout.blocks if b.group == "record"]
    space = env.observation_space("player_0")["observation"]
    rng = np.random.default_rng(n)
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            assert space.contains(obs["observation"])
            for name in records:
                record(env, name)
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
