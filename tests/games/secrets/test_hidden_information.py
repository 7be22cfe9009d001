"""Leak tests: a seat's observation depends on what it saw and on nothing else.

Two games share the seed and the actions but differ in one hidden fact.
While the events a seat has seen are identical in both games, its
observations must be identical; the first time it sees the difference, its
observation must change.
"""

import numpy as np
import pytest

from hidden_role_envs import secrets_v0
from hidden_role_envs.games.secrets.cards import IDENTITIES, TOKENS_BY_PLAYERS


def deal(n: int, seed: int) -> list[str]:
    tokens = [IDENTITIES[k] for k, c in enumerate(TOKENS_BY_PLAYERS[n]) for _ in range(c)]
    return [tokens[i] for i in np.random.default_rng(seed).permutation(len(tokens))]


def seen_at_start(seat: int, n: int) -> set[int]:
    places = {seat}
    if n >= 5:
        places.add((seat - 1) % n)
    if n >= 7:
        places.add(n)
    return places


def twin_games(n: int, seed: int, setup_a: dict, setup_b: dict, watcher: int, actions_seed: int):
    """Play both games with the same actions; yield (obs_a, obs_b, watcher_saw_a_difference)."""
    a, b = secrets_v0.env(num_players=n), secrets_v0.env(num_players=n)
    a.reset(seed=seed, options={"setup": setup_a})
    b.reset(seed=seed, options={"setup": setup_b})
    rng = np.random.default_rng(actions_seed)
    agent = f"player_{watcher}"
    diverged = False
    while True:
        seen_a = [e for e in a.unwrapped.last_events if watcher in e.seen_by]
        seen_b = [e for e in b.unwrapped.last_events if watcher in e.seen_by]
        diverged = diverged or seen_a != seen_b
        yield a.observe(agent)["observation"], b.observe(agent)["observation"], diverged
        if a.unwrapped.engine.is_over:
            return
        mask = a.observe(a.agent_selection)["action_mask"]
        assert np.array_equal(mask, b.observe(b.agent_selection)["action_mask"])
        action = int(rng.choice(np.flatnonzero(mask)))
        a.step(action)
        b.step(action)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_changing_tokens_a_seat_has_not_seen_changes_nothing_until_it_sees_them(n):
    compared = differences_noticed = 0
    for trial in range(40):
        tokens = deal(n, trial)
        watcher = trial % n
        unseen = [p for p in range(n + 1) if p not in seen_at_start(watcher, n)]
        pairs = [(p, q) for p in unseen for q in unseen if p < q and tokens[p] != tokens[q]]
        if not pairs:
            continue
        p, q = pairs[trial % len(pairs)]
        other = tokens[:]
        other[p], other[q] = other[q], other[p]
        for obs_a, obs_b, diverged in twin_games(n, trial, {"tokens": tokens}, {"tokens": other}, watcher, trial):
            if diverged:
                assert not np.array_equal(obs_a, obs_b), "the seat saw a different token but its view did not change"
                differences_noticed += 1
                break
            assert np.array_equal(obs_a, obs_b), "the observation depends on a token the seat has not seen"
            compared += 1
    assert compared > 200
    assert differences_noticed > 0


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_changing_a_token_the_seat_has_seen_changes_its_observation(n):
    for watcher in range(n):
        tokens = deal(n, watcher)
        other = tokens[:]
        swap_with = next(p for p in range(n + 1) if tokens[p] != tokens[watcher])
        other[watcher], other[swap_with] = other[swap_with], other[watcher]
        obs_a, obs_b, diverged = next(twin_games(n, 0, {"tokens": tokens}, {"tokens": other}, watcher, 0))
        assert diverged
        assert not np.array_equal(obs_a, obs_b)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_bullet_values_stay_with_the_assassin(n):
    """Reordering the Bullet deck is invisible to every seat until it draws or gives one."""
    compared = 0
    for trial in range(30):
        watcher = trial % n
        order = [0, -1, -2, -3]
        other = order[::-1]
        for obs_a, obs_b, diverged in twin_games(n, trial, {"bullets": order}, {"bullets": other}, watcher, trial):
            if diverged:
                assert not np.array_equal(obs_a, obs_b)
                break
            assert np.array_equal(obs_a, obs_b)
            compared += 1
    assert compared > 200


def test_the_offered_card_is_hidden_from_everyone_but_the_active_player():
    env = secrets_v0.env(num_players=5)
    env.reset(seed=4)
    active = env.agent_selection
    revealed = env.unwrapped.engine.table.revealed
    fields = env.unwrapped.observation_fields
    choose = [env.unwrapped.string_to_action(f"choose {name}") for name in ("Double Agent", "Politician",
              "Psychiatrist", "Detective", "Journalist", "Scientist", "Diplomat", "Assassin")]
    views = []
    for card in revealed:
        twin = secrets_v0.env(num_players=5)
        twin.reset(seed=4)
        twin.step(choose[card])
        views.append({a: twin.observe(a)["observation"] for a in twin.possible_agents})
    for agent in env.possible_agents:
        same = np.array_equal(views[0][agent], views[1][agent])
        assert same == (agent != active)
        if agent == active:
            assert views[0][agent][fields["offered_card"]].argmax() == revealed[0]
