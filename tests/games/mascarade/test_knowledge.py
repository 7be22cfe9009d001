"""The per-seat card beliefs: exact steps, the Sinkhorn approximation, and how close it stays to the exact posterior."""

import numpy as np
import pytest

from hidden_role_envs import mascarade_v0
from hidden_role_envs.core.knowledge import TokenBeliefs
from hidden_role_envs.games.mascarade.knowledge import PlaceBeliefs

SEATS = np.array([0, 1])


def beliefs(counts=(1, 1, 1, 1), cards=(0, 1, 2, 3)) -> PlaceBeliefs:
    b = PlaceBeliefs(counts, len(cards), 2)
    b.deal(cards)
    return b


def test_the_open_deal_is_known_exactly():
    b = beliefs()
    assert np.array_equal(b.probs[0], np.eye(4))
    assert np.array_equal(b.probs[1], np.eye(4))


def test_a_known_swap_permutes_and_a_watched_one_mixes_half_and_half():
    b = beliefs()
    b.swap(0, 0, 1)
    b.mix(np.array([1]), 0, 1)
    assert np.array_equal(b.probs[0][:2], [[0, 1, 0, 0], [1, 0, 0, 0]])
    assert np.array_equal(b.probs[1][:2], [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]])


def test_a_pin_strikes_the_character_elsewhere_and_settles_the_other_place():
    b = beliefs()
    b.mix(SEATS, 0, 1)
    b.pin(np.array([1]), 0, 1)
    b.settle()
    assert np.array_equal(b.probs[1][:2], [[0, 1, 0, 0], [1, 0, 0, 0]])  # the other card is the other character
    assert np.array_equal(b.probs[0][:2], [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]])  # seat 0 did not see it


def test_a_character_with_one_possible_place_left_is_there():
    b = beliefs()
    b.mix(SEATS, 0, 1)  # 0, 1: {A, B}
    b.mix(SEATS, 1, 2)  # 1, 2: {A/4, B/4, C/2}
    b.pin(SEATS, 1, 2)  # place 1 is C: place 2 is the only other place that can hold A or B ... with place 0
    b.settle()
    np.testing.assert_allclose(b.probs[0][1], [0, 0, 1, 0])
    np.testing.assert_allclose(b.probs[0][0] + b.probs[0][2], [1, 1, 0, 0], atol=1e-6)


def test_two_copies_of_a_character():
    b = beliefs(counts=(2, 1, 1), cards=(0, 0, 1, 2))
    b.mix(SEATS, 1, 2)
    b.mix(SEATS, 2, 3)
    b.pin(SEATS, 3, 0)  # the second Peasant moved to place 3: places 1 and 2 hold the other two
    b.settle()
    np.testing.assert_allclose(b.probs[0].sum(axis=0), [2, 1, 1], atol=1e-6)
    np.testing.assert_allclose(b.probs[0][1] + b.probs[0][2], [0, 1, 1], atol=1e-6)


def test_rows_and_columns_are_restored_by_sinkhorn():
    b = beliefs(counts=(1,) * 5, cards=(0, 1, 2, 3, 4))
    for p, q in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (1, 3)]:
        b.mix(SEATS, p, q)
    b.pin(SEATS, 2, 0)
    b.settle()
    np.testing.assert_allclose(b.probs[0].sum(axis=1), 1.0, atol=1e-9)
    np.testing.assert_allclose(b.probs[0].sum(axis=0), 1.0, atol=1e-5)
    np.testing.assert_allclose(b.probs[0][2], [1, 0, 0, 0, 0])


def exact_beliefs(env) -> TokenBeliefs:
    config = env.unwrapped.config
    return TokenBeliefs(tuple(c for c in config.counts if c), config.num_players)


def feed(exact: TokenBeliefs, events, kinds: list[int], n: int) -> None:
    """The same events into the exact posterior over all deals."""
    for kind, seen_by, data in events:
        if kind == "dealt":
            for place, character in enumerate(data):
                exact.see(range(n), place, kinds.index(character))
        elif kind == "swapped":
            exact.swap([data[0]], data[1], data[2])
        elif kind == "handled":  # swapped or not, each with probability 1/2
            exact.swap_one_of(list(seen_by), [(data[1], data[2]), (data[1], data[1])])
        elif kind in ("looked", "revealed"):
            exact.see(list(seen_by), data[1], kinds.index(data[2]))


@pytest.mark.parametrize("n", [4, 5])
def test_the_approximation_stays_close_to_the_exact_posterior(n):
    """Against the exact posterior over all deals (feasible at 6 places), in random games."""
    env = mascarade_v0.env(num_players=n)
    kinds = [c for c, count in enumerate(env.unwrapped.config.counts) if count]
    rng = np.random.default_rng(n)
    errors = []
    for game in range(40):
        env.reset(seed=game)
        exact = exact_beliefs(env)
        feed(exact, env.unwrapped.last_events, kinds, n)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            feed(exact, env.unwrapped.last_events, kinds, n)
            approx = env.unwrapped.observer.beliefs.probs
            for seat in range(n):
                errors.append(np.abs(exact.marginals(seat) - approx[seat][:, kinds]).max())
    errors = np.array(errors)
    assert errors.mean() < 0.02
    assert np.mean(errors < 1e-6) > 0.8  # most of the time it is exact
