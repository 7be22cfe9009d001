"""Leak tests: a seat's observation depends on what it saw and on nothing else.

The deal is open, so the hidden facts of Mascarade are the swap-or-not
choices: two games share the seed and every action but one, where one game
swaps and its twin only pretends to (a turn's swap-or-not, the Fool's or
the Spy's). While the events a seat has seen are identical in both games,
its observations must be identical; the first time it sees the difference
(a look or a reveal of a card that moved), its observation must change.
The seat that chose knows at once.
"""

import numpy as np
import pytest

from hidden_role_envs import mascarade_v0

FLIPS = (("swap ", "no swap "), ("fool swap ", "fool no swap "), ("spy swap", "spy no swap"))


def flipped(name: str) -> str | None:
    """The twin of a swap-or-not action: the same cards, the other choice."""
    for a, b in FLIPS:
        if name.startswith(a):
            return b + name[len(a):]
        if name.startswith(b):
            return a + name[len(b):]
    return None


def twin_games(n: int, seed: int, flip_at: int, watcher_offset: int):
    """Play twins with the same random actions, but flip the first swap-or-not from step `flip_at` on.

    Yields (actor of the flip, watcher, obs_a, obs_b, watcher saw a difference) after every step
    from the flip on; the watcher is `watcher_offset` seats from the actor.
    """
    a, b = mascarade_v0.env(num_players=n), mascarade_v0.env(num_players=n)
    a.reset(seed=seed)
    b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actor = watcher = None
    diverged = False
    for step in range(400):
        if a.unwrapped.engine.is_over:
            return
        mask = a.observe(a.agent_selection)["action_mask"]
        assert np.array_equal(mask, b.observe(b.agent_selection)["action_mask"])
        action = int(rng.choice(np.flatnonzero(mask)))
        twin_action = action
        name = a.unwrapped.action_to_string(action)
        if actor is None and step >= flip_at and flipped(name) is not None:
            actor = int(a.agent_selection.split("_")[1])
            watcher = (actor + watcher_offset) % n
            twin_action = a.unwrapped.string_to_action(flipped(name))
        a.step(action)
        b.step(twin_action)
        if actor is None:
            continue
        seen_a = [e for e in a.unwrapped.last_events if watcher in e.seen_by]
        seen_b = [e for e in b.unwrapped.last_events if watcher in e.seen_by]
        diverged = diverged or seen_a != seen_b
        agent = f"player_{watcher}"
        yield actor, watcher, a.observe(agent)["observation"], b.observe(agent)["observation"], diverged
        if diverged:
            return


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13])
def test_a_swap_the_seat_did_not_see_changes_nothing_until_it_sees_its_effect(n):
    compared = noticed = 0
    for trial in range(60):
        offset = 1 + trial % (n - 1)
        for _, _, obs_a, obs_b, diverged in twin_games(n, trial, trial % 7, offset):
            if diverged:
                assert not np.array_equal(obs_a, obs_b), "the seat saw a different card but its view did not change"
                noticed += 1
                break
            assert np.array_equal(obs_a, obs_b), "the observation depends on a swap the seat could not see"
            compared += 1
    assert compared > 100
    assert noticed > 0


@pytest.mark.parametrize("n", [2, 5, 13])
def test_the_seat_that_chose_knows_at_once(n):
    tested = 0
    for trial in range(20):
        for actor, watcher, obs_a, obs_b, _ in twin_games(n, trial, trial % 5, n):  # the watcher is the actor
            assert watcher == actor
            env = mascarade_v0.env(num_players=n)
            knowledge = env.unwrapped.observation_fields["knowledge"]
            if not np.array_equal(obs_a[knowledge], obs_b[knowledge]):
                tested += 1
            break
    assert tested >= 10  # a swap of two identical beliefs changes nothing, so not every trial shows it


def test_looks_are_private_and_reveals_public():
    env = mascarade_v0.env(num_players=5)
    env.reset(seed=0, options={"setup": {"cards": ["Judge", "Bishop", "Fool", "Queen", "Witch", "Cheat"],
                                         "first_player": 0}})
    for name in ["swap +1", "no swap +1", "no swap +1", "no swap +1", "look"]:
        before = {a: env.observe(a)["observation"].copy() for a in env.possible_agents}
        env.step(env.unwrapped.string_to_action(name))
    after = {a: env.observe(a)["observation"] for a in env.possible_agents}
    knowledge = env.unwrapped.observation_fields["knowledge"]
    changed = {a for a in env.possible_agents if not np.array_equal(before[a][knowledge], after[a][knowledge])}
    assert changed == {"player_4"}  # the look of seat 4 (its card was mixed by seat 3's turn)
