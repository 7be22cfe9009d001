"""The exact deal beliefs against a brute-force enumeration of deals."""

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hidden_role_envs.core.knowledge import INDICATOR_ENTRIES, DealBeliefs, DealTable


def beliefs_of(counts, num_observers=1) -> DealBeliefs:
    return DealBeliefs(DealTable.of(counts), num_observers)


def brute_force_marginals(deals: dict[tuple, float], places: int, kinds: int) -> np.ndarray:
    total = sum(deals.values())
    out = np.zeros((places, kinds))
    for deal, weight in deals.items():
        for place, kind in enumerate(deal):
            out[place, kind] += weight / total
    return out


def test_every_distinct_deal_is_enumerated_once():
    for counts in [(2, 2, 1), (2, 2, 2), (3, 3, 1), (3, 3, 2), (4, 4, 1)]:
        table = DealTable.of(counts)
        tokens = [k for k, c in enumerate(counts) for _ in range(c)]
        expected = set(permutations(tokens))
        assert {tuple(row) for row in table.deals} == expected and len(table.deals) == len(expected)


def test_a_look_then_a_public_swap_moves_what_is_known():
    beliefs = beliefs_of((2, 2, 1))
    beliefs.see([0], place=1, kind=2)  # place 1 holds the Hippie
    beliefs.swap([0], 1, 4)
    marginals = beliefs.marginals(0)
    assert np.isclose(marginals[4, 2], 1.0)
    assert marginals[1, 2] == 0.0


def test_an_unseen_swap_leaves_one_of_these_two():
    beliefs = beliefs_of((2, 2, 1))
    beliefs.see([0], place=4, kind=2)  # the centre holds the Hippie
    beliefs.swap_one_of([0], [(4, 1), (4, 3)])
    marginals = beliefs.marginals(0)
    assert np.isclose(marginals[1, 2], 0.5) and np.isclose(marginals[3, 2], 0.5)
    assert marginals[4, 2] == 0.0


def test_beliefs_of_other_observers_do_not_move():
    beliefs = beliefs_of((2, 2, 1), 2)
    before = beliefs.marginals(1).copy()
    beliefs.see([0], place=0, kind=0)
    beliefs.swap([0], 0, 2)
    assert np.array_equal(beliefs.marginals(1), before)



def test_an_update_seen_by_most_seats_matches_the_same_update_seat_by_seat():
    """Seen by most seats, an update is made on every row at once: the watchers' numbers are those of
    updating each alone, bit for bit, and the seat that did not see it keeps its own."""
    together, alone = beliefs_of((2, 2, 2), 3), beliefs_of((2, 2, 2), 3)
    for beliefs in (together, alone):
        beliefs.see([2], place=0, kind=1)  # seat 2 alone knows something
    untouched = together.weights[2].copy()
    together.swap_one_of((0, 1), [(0, 3), (0, 0)])
    together.see((0, 1), place=5, kind=2)
    for seat in (0, 1):
        alone.swap_one_of((seat,), [(0, 3), (0, 0)])
        alone.see((seat,), place=5, kind=2)
    assert np.array_equal(together.weights[:2], alone.weights[:2])
    assert np.array_equal(together.weights[2], untouched)
    together.see((0, 1, 2), place=4, kind=2)  # seen by every seat: every row at once
    for seat in range(3):
        alone.see((seat,), place=4, kind=2)
    assert np.array_equal(together.weights, alone.weights)
    with pytest.raises(ValueError, match="contradicts what seat 2 saw"):
        together.see((0, 1, 2), place=0, kind=0)  # seat 2 saw kind 1 there

event = st.one_of(
    st.tuples(st.just("see"), st.integers(0, 5)),
    st.tuples(st.just("swap"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("either"), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(event, max_size=12), st.randoms(use_true_random=False))
def test_matches_brute_force_posterior(events, rnd):
    """Feed true observations of a random deal; the marginals equal the brute-force posterior."""
    counts = (2, 2, 2)
    tokens = [k for k, c in enumerate(counts) for _ in range(c)]
    truth = tokens[:]
    rnd.shuffle(truth)
    deals = {deal: 1.0 for deal in set(permutations(tokens))}
    beliefs = beliefs_of(counts)
    for e in events:
        if e[0] == "see":
            place = e[1]
            beliefs.see([0], place, truth[place])
            deals = {d: w for d, w in deals.items() if d[place] == truth[place]}
        elif e[0] == "swap" and e[1] != e[2]:
            p, q = e[1], e[2]
            beliefs.swap([0], p, q)
            truth[p], truth[q] = truth[q], truth[p]
            deals = {_swapped(d, p, q): w for d, w in deals.items()}
        elif e[0] == "either" and len({e[1], e[2], e[3]}) == 3:
            p, q, r = e[1], e[2], e[3]
            beliefs.swap_one_of([0], [(p, q), (p, r)])
            partner = q if rnd.random() < 0.5 else r
            truth[p], truth[partner] = truth[partner], truth[p]
            mixed: dict[tuple, float] = {}
            for d, w in deals.items():
                for other in (q, r):
                    key = _swapped(d, p, other)
                    mixed[key] = mixed.get(key, 0.0) + w / 2
            deals = mixed
    expected = brute_force_marginals(deals, 6, 3)
    assert np.allclose(beliefs.marginals(0), expected)
    # the truth is never ruled out
    assert all(beliefs.marginals(0)[place, kind] > 0 for place, kind in enumerate(truth))


def _swapped(deal: tuple, p: int, q: int) -> tuple:
    d = list(deal)
    d[p], d[q] = d[q], d[p]
    return tuple(d)


def test_same_kind_needs_the_joint_posterior():
    """Two unseen places are either both CIA, both KGB or mixed: the marginals cannot say, the joint can."""
    beliefs = beliefs_of((2, 2, 1))
    beliefs.see([0], place=0, kind=0)  # I am CIA
    beliefs.see([0], place=4, kind=2)  # the Hippie is in the centre
    together = beliefs.same_kind(0, anchor=0, kinds=(0, 1))
    # one CIA among places 1-3: each of them is my teammate with probability 1/3
    assert np.allclose(together, [1, 1 / 3, 1 / 3, 1 / 3, 0])
    beliefs.see([0], place=1, kind=1)
    assert np.allclose(beliefs.same_kind(0, anchor=0, kinds=(0, 1)), [1, 0, 0.5, 0.5, 0])
    # a Hippie is on no team
    assert np.allclose(beliefs.same_kind(0, anchor=4, kinds=(0, 1)), 0)


def test_a_swap_or_not_averages_the_deal_and_its_swapped_twin():
    beliefs = beliefs_of((1, 1, 1))
    beliefs.see([0], place=0, kind=0)
    beliefs.swap_one_of([0], [(0, 1), (0, 0)])  # (0, 0): no swap
    assert np.allclose(beliefs.marginals(0)[:2, 0], [0.5, 0.5])
    beliefs.see([0], place=1, kind=0)
    assert np.allclose(beliefs.marginals(0)[0], [0, 0.5, 0.5])


def test_see_not_and_see_one_of_rule_out_deals():
    beliefs = beliefs_of((1, 1, 1, 1))
    beliefs.see_not([0], place=0, kind=0)
    assert beliefs.marginals(0)[0, 0] == 0 and np.isclose(beliefs.marginals(0)[0, 1], 1 / 3)
    beliefs.see_one_of([0], place=0, kinds=(1, 2))
    assert np.allclose(beliefs.marginals(0)[0], [0, 0.5, 0.5, 0])
    with pytest.raises(ValueError, match="contradicts"):
        beliefs.see([0], place=0, kind=3)


def test_large_tables_count_the_marginals_without_a_matrix():
    """Seven distinct cards: 5,040 deals, summed by a weighted count rather than a matrix of megabytes."""
    counts = (1,) * 7
    table = DealTable.of(counts)
    assert table.indicator is None and len(table.deals) * 49 > INDICATOR_ENTRIES
    beliefs = beliefs_of(counts)
    beliefs.see([0], place=3, kind=5)
    beliefs.swap_one_of([0], [(3, 4), (3, 3)])
    marginals = beliefs.marginals(0)
    assert np.allclose(marginals.sum(axis=0), 1) and np.allclose(marginals.sum(axis=1), 1)
    assert np.allclose(marginals[[3, 4], 5], 0.5)
