"""Leak tests: a seat's observation depends on what it saw and on nothing else.

Two games share the seed and the actions but differ in one hidden fact.
While the events a seat has seen are identical in both games, its
observations must be identical; the first time it sees the difference (the
cards are revealed at the end of the round), its observation must change.
"""

import numpy as np
import pytest

from hidden_role_envs import spyfall_v0
from hidden_role_envs.games.spyfall.locations import DEFAULT_LOCATIONS

NAMES = [loc.name for loc in DEFAULT_LOCATIONS]


def twin_games(n: int, setup_a: dict, setup_b: dict, watcher: int, seed: int, num_rounds: int = 1):
    """Play both games with the same actions; yield (obs_a, obs_b, watcher_saw_a_difference).

    Each action is drawn among those legal in both games (a seat that is the
    spy in one game only may name the location in that game only), passing
    often so that rounds run long.
    """
    a, b = (spyfall_v0.env(num_players=n, num_rounds=num_rounds, question_limit=8) for _ in range(2))
    a.reset(seed=seed, options={"setup": setup_a})
    b.reset(seed=seed, options={"setup": setup_b})
    rng = np.random.default_rng(seed)
    agent = f"player_{watcher}"
    pass_id = a.unwrapped.string_to_action("pass")
    diverged = False
    while True:
        seen_a = [e for e in a.unwrapped.last_events if watcher in e.seen_by]
        seen_b = [e for e in b.unwrapped.last_events if watcher in e.seen_by]
        diverged = diverged or seen_a != seen_b
        yield a.observe(agent)["observation"], b.observe(agent)["observation"], diverged
        if a.unwrapped.engine.is_over or b.unwrapped.engine.is_over:
            return
        assert a.agent_selection == b.agent_selection
        both = a.observe(a.agent_selection)["action_mask"] & b.observe(b.agent_selection)["action_mask"]
        action = pass_id if both[pass_id] and rng.random() < 0.7 else int(rng.choice(np.flatnonzero(both)))
        a.step(action)
        b.step(action)


def compare(twins) -> tuple[int, int]:
    """Equal observations until the watcher sees a difference, then different; (steps compared, noticed)."""
    compared = 0
    for obs_a, obs_b, diverged in twins:
        if diverged:
            assert not np.array_equal(obs_a, obs_b), "the seat saw a difference but its view did not change"
            return compared, 1
        assert np.array_equal(obs_a, obs_b), "the observation depends on something the seat has not seen"
        compared += 1
    return compared, 0


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_the_spys_observation_never_depends_on_the_location(n):
    compared = noticed = 0
    for trial in range(25):
        rng = np.random.default_rng(trial)
        spy, dealer = int(rng.integers(n)), int(rng.integers(n))
        first, second = (NAMES[i] for i in rng.choice(len(NAMES), 2, replace=False))
        base = {"dealer": dealer, "spies": [spy]}
        twins = twin_games(n, {**base, "locations": [first]}, {**base, "locations": [second]}, spy, trial,
                           num_rounds=1 + trial % 2)
        c, k = compare(twins)
        compared, noticed = compared + c, noticed + k
    assert compared > 10 * 25
    assert noticed == 25  # every round ends with the cards revealed


def swapped_roles(n: int, location: str, spy_a: int, spy_b: int, seed: int) -> tuple[list, list]:
    """Role lists for spies a and b that give every other seat the same role."""
    dealt = iter(np.random.default_rng(seed).permutation(DEFAULT_LOCATIONS[NAMES.index(location)].roles))
    roles_a = [None if s == spy_a else str(next(dealt)) for s in range(n)]
    roles_b = list(roles_a)
    roles_b[spy_a], roles_b[spy_b] = roles_a[spy_b], None
    return roles_a, roles_b


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_a_non_spys_observation_never_depends_on_who_the_spy_is(n):
    compared = noticed = 0
    for trial in range(25):
        rng = np.random.default_rng(100 + trial)
        watcher, spy_a, spy_b = (int(s) for s in rng.choice(n, 3, replace=False))
        location = NAMES[int(rng.integers(len(NAMES)))]
        roles_a, roles_b = swapped_roles(n, location, spy_a, spy_b, trial)
        base = {"dealer": int(rng.integers(n)), "locations": [location]}
        twins = twin_games(n, {**base, "spies": [spy_a], "roles": [roles_a]},
                           {**base, "spies": [spy_b], "roles": [roles_b]}, watcher, trial, num_rounds=1 + trial % 2)
        c, k = compare(twins)
        compared, noticed = compared + c, noticed + k
    assert compared > 10 * 25
    assert noticed == 25


@pytest.mark.parametrize("n", [3, 5, 8])
def test_a_seat_sees_its_own_card_at_once(n):
    for watcher in range(n):
        spy = (watcher + 1) % n
        base = {"dealer": 0, "spies": [spy]}
        obs_a, obs_b, diverged = next(
            twin_games(n, {**base, "locations": ["Bank"]}, {**base, "locations": ["Beach"]}, watcher, 0))
        assert diverged and not np.array_equal(obs_a, obs_b)  # its location
        obs_a, obs_b, diverged = next(
            twin_games(n, {"dealer": 0, "spies": [spy]}, {"dealer": 0, "spies": [watcher]}, watcher, 0))
        assert diverged and not np.array_equal(obs_a, obs_b)  # spy or not


@pytest.mark.parametrize("voter_index", [0, 1, 2])
def test_a_vote_is_secret_until_every_vote_is_cast(voter_index):
    """5 players: seat 3 accuses seat 0; voters 4, 1, 2. One voter's vote differs between the games."""
    envs = []
    for yes in (True, False):
        env = spyfall_v0.env(num_players=5)
        env.reset(seed=0, options={"setup": {"dealer": 0, "spies": [1], "locations": ["Bank"]}})
        for name in ("ask +2 about loud", "answer no", "accuse +2"):
            env.step(env.unwrapped.string_to_action(name))
        envs.append((env, yes))
    voters = [4, 1, 2]
    for i in range(len(voters)):
        for env, yes in envs:
            choice = yes if i == voter_index else True
            env.step(env.unwrapped.string_to_action("vote yes" if choice else "vote no"))
        everyone_voted = i == len(voters) - 1
        for seat in range(5):
            same = np.array_equal(*(env.observe(f"player_{seat}")["observation"] for env, _ in envs))
            if everyone_voted:
                assert not same, f"player_{seat} should see the votes once all are cast"
            else:  # only the voter whose vote differs knows it
                assert same == (i < voter_index or seat != voters[voter_index]), f"player_{seat}"
