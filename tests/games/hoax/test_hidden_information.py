"""Leak tests: a seat's observation depends on what it saw and on nothing else.

Two games share the seed and the actions but differ in one hidden fact.
While the events a seat has seen are identical in both games, its
observations must be identical; once it sees the difference, its
observation must change.
"""

import numpy as np
import pytest

from hidden_role_envs import hoax_v0
from hidden_role_envs.games.hoax.actions import ACCUSE

CHARACTERS = ("Butler", "Son-in-Law", "Ex-Wife", "Lover", "Distant Cousin", "Chef", "Gardener")


def deal(n: int, seed: int) -> list[int]:
    return [int(c) for c in np.random.default_rng(seed).permutation(7)[:n]]


def calm_choice(rng, env, mask):
    """Random legal play that accuses one time in ten, so games last long enough to see a lot."""
    legal = np.flatnonzero(mask)
    calm = [a for a in legal if env.unwrapped.actions.meaning[a][1] != ACCUSE]
    return int(rng.choice(calm if calm and rng.random() < 0.9 else legal))


def twin_games(n: int, seed: int, deal_a: list[int], deal_b: list[int], watcher: int):
    """Play both games with the same actions; yield (obs_a, obs_b, watcher_saw_a_difference)."""
    a, b = hoax_v0.env(num_players=n, max_turns=30), hoax_v0.env(num_players=n, max_turns=30)
    a.reset(seed=seed, options={"setup": {"characters": deal_a, "first_player": 0}})
    b.reset(seed=seed, options={"setup": {"characters": deal_b, "first_player": 0}})
    rng = np.random.default_rng(seed)
    agent = f"player_{watcher}"
    diverged = False
    while True:
        seen_a = [e for e in a.unwrapped.last_events if watcher in e.seen_by]
        seen_b = [e for e in b.unwrapped.last_events if watcher in e.seen_by]
        diverged = diverged or seen_a != seen_b
        yield a.unwrapped.observe(agent)["observation"], b.unwrapped.observe(agent)["observation"], diverged
        if diverged or a.unwrapped.engine.is_over or not a.agents:
            return
        if a.terminations[a.agent_selection] or a.truncations[a.agent_selection]:
            a.step(None)
            b.step(None)
            continue
        mask = a.unwrapped.observe(a.agent_selection)["action_mask"]
        assert np.array_equal(mask, b.unwrapped.observe(b.agent_selection)["action_mask"])
        action = calm_choice(rng, a, mask)
        a.step(action)
        b.step(action)


def compare(n: int, twins) -> tuple[int, int]:
    """Run twin games; return (observations compared equal, differences noticed)."""
    compared = noticed = 0
    for seed, deal_a, deal_b, watcher in twins:
        for obs_a, obs_b, diverged in twin_games(n, seed, deal_a, deal_b, watcher):
            if diverged:
                assert not np.array_equal(obs_a, obs_b), "the seat saw a different fact but its view did not change"
                noticed += 1
                break
            assert np.array_equal(obs_a, obs_b), "the observation depends on a character the seat has not seen"
            compared += 1
    return compared, noticed


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_swapping_two_other_players_characters_changes_nothing_until_the_seat_sees_it(n):
    twins = []
    for trial in range(40):
        characters = deal(n, trial)
        watcher = trial % n
        p, q = [(watcher + k) % n for k in (1, 2)]
        other = characters[:]
        other[p], other[q] = other[q], other[p]
        twins.append((trial, characters, other, watcher))
    compared, noticed = compare(n, twins)
    assert compared > 300 and noticed > 5


@pytest.mark.parametrize("n", [3, 6])
def test_an_unused_character_in_place_of_another_players_changes_nothing_until_the_seat_sees_it(n):
    twins = []
    for trial in range(40):
        characters = deal(n, 100 + trial)
        watcher = trial % n
        unused = next(c for c in range(7) if c not in characters)
        other = characters[:]
        other[(watcher + 1) % n] = unused
        twins.append((trial, characters, other, watcher))
    compared, noticed = compare(n, twins)
    assert compared > 300 and noticed > 5


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_different_own_character_changes_the_seat_observation_at_once(n):
    for watcher in range(n):
        characters = deal(n, watcher)
        other = characters[:]
        other[watcher] = next(c for c in range(7) if c not in characters)
        obs_a, obs_b, diverged = next(twin_games(n, 0, characters, other, watcher))
        assert diverged and not np.array_equal(obs_a, obs_b)


def test_suspicion_cards_reach_the_investigator_only():
    """The target's character differs between twins: after an investigation only the investigator's view
    (and the target's own, which holds its card) differ."""
    investigator_saw = 0
    for trial in range(30):
        n = 3 + trial % 4
        characters = deal(n, trial)
        target = 1
        other = characters[:]
        other[target] = next(c for c in range(7) if c not in characters)
        envs = []
        for chars in (characters, other):
            env = hoax_v0.env(num_players=n)
            env.reset(seed=trial, options={"setup": {"characters": chars, "first_player": 0}})
            for _ in range(n):
                env.step(env.unwrapped.string_to_action("pick Cash"))
            table = env.unwrapped.engine.table
            table.supply[1] -= 1
            table.supply[2] -= 1
            table.resources[0][1] += 1
            table.resources[0][2] += 1  # seat 0 can now pay for one investigation
            env.unwrapped.engine._ask(table.decision, table.to_act)
            env.step(env.unwrapped.string_to_action("investigate +1"))
            envs.append(env)
        for seat in range(n):
            same = np.array_equal(*(e.unwrapped.observe(f"player_{seat}")["observation"] for e in envs))
            assert same or seat in (0, target), f"player_{seat} learned about an investigation it did not make"
            investigator_saw += seat == 0 and not same
    assert investigator_saw >= 20  # the four cards shown can coincide in both games
