"""The per-seat card beliefs: the exact posterior up to 7 cards, the approximation above (its exact steps, Sinkhorn,
its guarantees and how close it stays to the exact posterior), and what each seat's `knowledge` block learns from
what it saw."""

from itertools import permutations

import numpy as np
import pytest

from hidden_role_envs import mascarade_v1
from hidden_role_envs.games.mascarade import events as ev
from hidden_role_envs.games.mascarade.characters import CHARACTERS
from hidden_role_envs.games.mascarade.knowledge import DealPosterior, PlaceBeliefs
from tests.games.mascarade import knowledge_error

SEATS = (0, 1)


def beliefs(counts=(1, 1, 1, 1), cards=(0, 1, 2, 3)) -> PlaceBeliefs:
    b = PlaceBeliefs(counts, len(cards), 2)
    b.see_all(SEATS, cards)
    return b


def settled(b: PlaceBeliefs, seat: int) -> np.ndarray:
    """The seat's matrix once the step is over (its sightings corrected)."""
    b.end_step()
    return b.marginals(seat)


def test_the_open_deal_is_known_exactly():
    b = beliefs()
    assert np.array_equal(settled(b, 0), np.eye(4))
    assert np.array_equal(settled(b, 1), np.eye(4))


def test_a_known_swap_permutes_and_a_watched_one_mixes_half_and_half():
    b = beliefs()
    b.swap((0,), 0, 1)
    b.swap_or_not((1,), 0, 1)
    assert np.array_equal(settled(b, 0)[:2], [[0, 1, 0, 0], [1, 0, 0, 0]])
    assert np.array_equal(settled(b, 1)[:2], [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]])


def test_a_sighting_strikes_the_character_elsewhere_and_settles_the_other_place():
    b = beliefs()
    b.swap_or_not(SEATS, 0, 1)
    b.see((1,), 0, 1)
    assert np.array_equal(settled(b, 1)[:2], [[0, 1, 0, 0], [1, 0, 0, 0]])  # the other card is the other character
    assert np.array_equal(settled(b, 0)[:2], [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]])  # seat 0 did not see it


def test_a_character_with_one_possible_place_left_is_there():
    b = beliefs()
    b.swap_or_not(SEATS, 0, 1)  # 0, 1: {A, B}
    b.swap_or_not(SEATS, 1, 2)  # 1, 2: {A/4, B/4, C/2}
    b.see(SEATS, 1, 2)  # place 1 is C: place 2 is the only other place that can hold A or B ... with place 0
    probs = settled(b, 0)
    np.testing.assert_allclose(probs[1], [0, 0, 1, 0])
    np.testing.assert_allclose(probs[0] + probs[2], [1, 1, 0, 0], atol=1e-6)


def test_two_copies_of_a_character():
    b = beliefs(counts=(2, 1, 1), cards=(0, 0, 1, 2))
    b.swap_or_not(SEATS, 1, 2)
    b.swap_or_not(SEATS, 2, 3)
    b.see(SEATS, 3, 0)  # the second Peasant moved to place 3: places 1 and 2 hold the other two
    probs = settled(b, 0)
    np.testing.assert_allclose(probs.sum(axis=0), [2, 1, 1], atol=1e-6)
    np.testing.assert_allclose(probs[1] + probs[2], [0, 1, 1], atol=1e-6)


def test_rows_and_columns_are_restored_by_sinkhorn():
    b = beliefs(counts=(1,) * 5, cards=(0, 1, 2, 3, 4))
    for p, q in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (1, 3)]:
        b.swap_or_not(SEATS, p, q)
    b.see(SEATS, 2, 0)
    probs = settled(b, 0)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-9)
    np.testing.assert_allclose(probs.sum(axis=0), 1.0, atol=1e-5)
    np.testing.assert_allclose(probs[2], [1, 0, 0, 0, 0])


def test_the_sightings_of_one_step_are_corrected_together_whenever_the_seat_is_next_read():
    """Reading a seat's matrix at once, later, or never before its next change gives the same numbers."""
    mixed = [("swap_or_not", SEATS, p, q) for p, q in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)]]
    steps = [mixed, [("see", SEATS, 1, 2)], [("see", SEATS, 3, 3), ("see", (1,), 0, 0)], [("swap", (0,), 0, 2)],
             [("swap_or_not", (1,), 2, 4)]]
    read_always, read_at_end = (beliefs(counts=(1,) * 5, cards=(0, 1, 2, 3, 4)) for _ in range(2))
    for step in steps:
        for b in (read_always, read_at_end):
            for name, *args in step:
                getattr(b, name)(*args)
            b.end_step()
        for seat in SEATS:
            read_always.marginals(seat)
    for seat in SEATS:
        assert np.array_equal(read_always.marginals(seat), read_at_end.marginals(seat))


class BruteForcePosterior:
    """The documented swap model worked out by hand, apart from the core's tables: one weight per arrangement of
    the dealt cards (all distinct up to 7 cards), for every seat."""

    def __init__(self, cards, num_seats: int):
        self.arrangements = np.array(list(permutations(cards)))
        self.index = {tuple(a): i for i, a in enumerate(self.arrangements)}
        self.weights = np.zeros((num_seats, len(self.arrangements)))
        self.weights[:, self.index[tuple(cards)]] = 1  # the open deal
        self._swaps = {}

    def swapped(self, p: int, q: int) -> np.ndarray:
        """perm[i]: the arrangement that arrangement i becomes when the cards at p and q swap."""
        if (p, q) not in self._swaps:
            moved = self.arrangements.copy()
            moved[:, [p, q]] = moved[:, [q, p]]
            self._swaps[p, q] = np.array([self.index[tuple(a)] for a in moved])
        return self._swaps[p, q]

    def feed(self, events) -> None:
        for e in events:
            seats = list(e.seen_by)
            if isinstance(e, (ev.Swapped, ev.Handled)):
                moved = np.zeros_like(self.weights[seats])
                moved[:, self.swapped(e.p, e.q)] = self.weights[seats]  # each arrangement's weight goes where it moves
                self.weights[seats] = moved if isinstance(e, ev.Swapped) else (self.weights[seats] + moved) / 2
            elif isinstance(e, (ev.Looked, ev.Revealed)):
                kept = self.weights[seats] * (self.arrangements[:, e.place] == e.character)
                self.weights[seats] = kept / kept.sum(axis=1, keepdims=True)

    def marginals(self, seat: int, num_characters: int) -> np.ndarray:
        probs = np.zeros((self.arrangements.shape[1], num_characters))
        for place in range(self.arrangements.shape[1]):
            probs[place] = np.bincount(self.arrangements[:, place], self.weights[seat], minlength=num_characters)
        return probs


@pytest.mark.parametrize("n,extra", [(2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (6, 1), (7, 0)])
def test_up_to_seven_cards_the_knowledge_is_the_exact_posterior(n, extra):
    """Every seat's `knowledge` block, after every step of random games, against the posterior worked out by hand:
    the same numbers, and no chance at all where the posterior has none."""
    env = mascarade_v1.env(num_players=n, extra_centre_cards=extra)
    config = env.unwrapped.config
    field = env.unwrapped.observation_fields["knowledge"]
    rng = np.random.default_rng(n)
    compared = 0
    for game in range(6 if config.num_places == 7 else 20):
        env.reset(seed=game)
        exact = BruteForcePosterior(env.unwrapped.engine.cards, n)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            for seat in range(n):
                truth = exact.marginals(seat, len(CHARACTERS))
                beliefs = env.unwrapped.observer.beliefs.marginals(seat)
                assert np.array_equal(beliefs > 0, truth > 0), "a chance where the exact posterior has none"
                block = env.observe(f"player_{seat}")["observation"][field].reshape(config.num_places, -1)
                np.testing.assert_allclose(block, truth[list(config.place_called[seat])], atol=1e-6)
                compared += 1
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            exact.feed(env.unwrapped.last_events)
    assert compared > 500


@pytest.mark.parametrize("n,extra", [(5, 0), (6, 2), (8, 0)])
def test_the_approximation_keeps_its_guarantees_and_stays_close(n, extra):
    """Above 7 cards the beliefs are approximate; against the exact posterior (fed the same events, on tables
    small enough to enumerate), in random games: exact until a surprising sighting, a support that holds the exact
    one, rows that sum to 1, columns near their copy counts, and small errors (the knowledge module's table)."""
    c = knowledge_error.compare(n, extra, games=12, seed=1)
    assert c.errors_before.size and c.errors_before.max() < 1e-9
    assert c.missed == 0
    assert c.worst_row < 1e-9 and c.worst_column < 0.05
    assert c.errors.mean() < 0.03 and np.mean(c.errors < 1e-9) > 0.7
    assert c.spurious / c.entries < 0.01


def test_more_than_seven_cards_use_the_approximation():
    for n, extra, kind in [(7, 0, DealPosterior), (6, 2, PlaceBeliefs), (7, 1, PlaceBeliefs), (8, 0, PlaceBeliefs),
                           (13, 0, PlaceBeliefs)]:
        env = mascarade_v1.env(num_players=n, extra_centre_cards=extra)
        env.reset(seed=0)
        assert isinstance(env.unwrapped.observer.beliefs, kind)


FLIPS = (("swap ", "no swap "), ("fool swap ", "fool no swap "), ("spy swap", "spy no swap"))


def flipped(name: str) -> str | None:
    """The twin of a swap-or-not action: the same cards, the other choice."""
    for a, b in FLIPS:
        if name.startswith(a):
            return b + name[len(a):]
        if name.startswith(b):
            return a + name[len(b):]
    return None


@pytest.mark.parametrize("n", [2, 5, 13])
def test_the_seat_that_chose_knows_at_once(n):
    """Twin games where one seat swaps and the other pretends: that seat's knowledge differs at once."""
    tested = 0
    for trial in range(20):
        a, b = mascarade_v1.env(num_players=n), mascarade_v1.env(num_players=n)
        a.reset(seed=trial)
        b.reset(seed=trial)
        rng = np.random.default_rng(trial)
        knowledge = a.unwrapped.observation_fields["knowledge"]
        for step in range(400):
            if a.unwrapped.engine.is_over:
                break
            actor = a.agent_selection
            action = int(rng.choice(np.flatnonzero(a.observe(actor)["action_mask"])))
            name = a.unwrapped.action_to_string(action)
            if step >= trial % 5 and flipped(name) is not None:
                a.step(action)
                b.step(b.unwrapped.string_to_action(flipped(name)))
                tested += not np.array_equal(a.observe(actor)["observation"][knowledge],
                                             b.observe(actor)["observation"][knowledge])
                break
            a.step(action)
            b.step(action)
    assert tested >= 10  # a swap of two identical beliefs changes nothing, so not every trial shows it


def test_looks_are_private_and_reveals_public():
    env = mascarade_v1.env(num_players=5)
    env.reset(seed=0, options={"setup": {"cards": ["Judge", "Bishop", "Fool", "Queen", "Witch", "Cheat"],
                                         "first_player": 0}})
    for name in ["swap +1", "no swap +1", "no swap +1", "no swap +1", "look"]:
        before = {a: env.observe(a)["observation"].copy() for a in env.possible_agents}
        env.step(env.unwrapped.string_to_action(name))
    after = {a: env.observe(a)["observation"] for a in env.possible_agents}
    knowledge = env.unwrapped.observation_fields["knowledge"]
    changed = {a for a in env.possible_agents if not np.array_equal(before[a][knowledge], after[a][knowledge])}
    assert changed == {"player_4"}  # the look of seat 4 (its card was mixed by seat 3's turn)
