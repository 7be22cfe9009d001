"""The per-seat card beliefs: exact steps, the Sinkhorn approximation, how close it stays to the exact posterior,
and what each seat's `knowledge` block learns from what it saw."""

import numpy as np
import pytest

from hidden_role_envs import mascarade_v0
from hidden_role_envs.core.knowledge import DealBeliefs, DealTable
from hidden_role_envs.games.mascarade import events as ev
from hidden_role_envs.games.mascarade.knowledge import PlaceBeliefs

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


def exact_beliefs(env) -> DealBeliefs:
    config = env.unwrapped.config
    return DealBeliefs(DealTable.of(tuple(c for c in config.counts if c)), config.num_players)


def feed(exact: DealBeliefs, events, kinds: list[int]) -> None:
    """The same events into the exact posterior over all deals."""
    for e in events:
        if isinstance(e, ev.Dealt):
            for place, character in enumerate(e.cards):
                exact.see(e.seen_by, place, kinds.index(character))
        elif isinstance(e, ev.Swapped):
            exact.swap(e.seen_by, e.p, e.q)
        elif isinstance(e, ev.Handled):  # swapped or not, each with probability 1/2
            exact.swap_one_of(e.seen_by, [(e.p, e.q), (e.p, e.p)])
        elif isinstance(e, (ev.Looked, ev.Revealed)):
            exact.see(e.seen_by, e.place, kinds.index(e.character))


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
        feed(exact, env.unwrapped.last_events, kinds)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            feed(exact, env.unwrapped.last_events, kinds)
            approx = env.unwrapped.observer.beliefs
            for seat in range(n):
                errors.append(np.abs(exact.marginals(seat) - approx.marginals(seat)[:, kinds]).max())
    errors = np.array(errors)
    assert errors.mean() < 0.02
    assert np.mean(errors < 1e-6) > 0.8  # most of the time it is exact


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
        a, b = mascarade_v0.env(num_players=n), mascarade_v0.env(num_players=n)
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
