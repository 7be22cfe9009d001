"""What a seat knows: the knowledge block is the exact posterior (checked against a brute-force count from the
events the seat saw), and what only one seat sees reaches that seat alone."""

from itertools import permutations

import numpy as np
import pytest

from hidden_role_envs import hoax_v1
from hidden_role_envs.games.hoax import events as ev
from hidden_role_envs.games.hoax.actions import ACCUSE, INVESTIGATE, TURN
from hidden_role_envs.games.hoax.knowledge import CharacterBeliefs
from tests.games.hoax.facts import deal


class Facts:
    """What each seat has seen, as predicates on a deal, from the raw events (no shared code with the game)."""

    def __init__(self, n: int):
        self.n = n
        self.facts: list[list] = [[] for _ in range(n)]

    def see(self, events) -> None:
        for e in events:
            if isinstance(e, ev.Dealt):
                fact = (e.seat, {e.character})
            elif isinstance(e, ev.Shown):
                fact = (e.target, set(e.cards))
            elif isinstance(e, ev.Impostor):
                fact = (e.seat, set(range(7)) - {e.character})
            elif isinstance(e, ev.AccusedAs):  # the suspicion card passed face down: the accuser and the target see it
                fact = (e.target, {e.character} if e.right else set(range(7)) - {e.character})
            else:
                continue
            for seat in e.seen_by:
                self.facts[seat].append(fact)

    def posterior(self, seat: int) -> np.ndarray:
        counts = np.zeros((self.n, 7))
        for dealt in permutations(range(7), self.n):
            if all(dealt[s] in allowed for s, allowed in self.facts[seat]):
                counts[np.arange(self.n), dealt] += 1
        return counts / counts[0].sum()


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_knowledge_is_the_exact_posterior_over_deals(n):
    checked = shown = 0
    for game in range(12):
        env = hoax_v1.env(num_players=n, max_turns=30)
        env.reset(seed=game)
        facts = Facts(n)
        facts.see(env.unwrapped.last_events)
        rng = np.random.default_rng(game)
        kinds = env.unwrapped.actions.kind
        table = env.unwrapped.engine.table
        topped_up = False
        for step, _ in enumerate(env.agent_iter()):
            if not topped_up and table.decision == TURN:  # everyone can pay for an investigation or two
                table.supply = (np.sum(table.resources, axis=0) + table.supply - n).tolist()
                table.resources = [[1, 1, 1] for _ in range(n)]
                env.unwrapped.engine._ask(TURN, table.to_act)
                topped_up = True
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if step % 4 == 0:
                seat = step % n
                knowledge = env.unwrapped.observe(f"player_{seat}")["observation"][
                    env.unwrapped.observation_fields["knowledge"]].reshape(n, 7)
                absolute = knowledge[[(k - seat) % n for k in range(n)]]
                np.testing.assert_allclose(absolute, facts.posterior(seat), atol=1e-5)
                checked += 1
            legal = np.flatnonzero(obs["action_mask"])
            if min(table.resources[table.to_act]) >= 1 and rng.random() < 0.7:
                investigations = [a for a in legal if kinds[a] == INVESTIGATE]
                legal = investigations or legal
            calm = [a for a in legal if kinds[a] != ACCUSE]
            env.step(int(rng.choice(calm if calm and rng.random() < 0.85 else legal)))
            facts.see(env.unwrapped.last_events)
            shown += sum(isinstance(e, ev.Shown) for e in env.unwrapped.last_events)
    assert checked > 60 and shown > 10


def test_investigations_narrow_and_intersect():
    beliefs = CharacterBeliefs(3, 7, 3)
    beliefs.see([0], 0, 0)
    np.testing.assert_allclose(beliefs.marginals(0)[1], [0] + [1 / 6] * 6)
    beliefs.see_one_of([0], 1, (0, 1, 2, 3))  # seat 0 holds character 0, so seat 1 is 1, 2 or 3
    np.testing.assert_allclose(beliefs.marginals(0)[1], [0, 1 / 3, 1 / 3, 1 / 3, 0, 0, 0])
    beliefs.see_one_of([0], 1, (2, 3, 4, 5))
    np.testing.assert_allclose(beliefs.marginals(0)[1], [0, 0, 1 / 2, 1 / 2, 0, 0, 0])
    # uniqueness: seat 2 cannot hold what seat 0 holds, and is less likely to hold what seat 1 may hold
    np.testing.assert_allclose(beliefs.marginals(0)[2], [0, 2 / 10, 1 / 10, 1 / 10, 2 / 10, 2 / 10, 2 / 10])
    np.testing.assert_allclose(beliefs.marginals(1), np.full((3, 7), 1 / 7))  # observer 1 saw nothing


def test_a_certain_seat_is_ruled_out_for_everyone_else():
    beliefs = CharacterBeliefs(4, 7, 1)
    beliefs.see([0], 2, 5)
    beliefs.see_not([0], 3, 0)
    m = beliefs.marginals(0)
    assert m[2, 5] == 1 and m[0, 5] == m[1, 5] == m[3, 5] == 0
    assert m[3, 0] == 0
    np.testing.assert_allclose(m.sum(axis=1), 1)
    assert m[0, 0] > m[0, 1]  # character 0 is pushed onto seats 0 and 1, which may hold it


def test_contradictions_are_reported():
    beliefs = CharacterBeliefs(3, 7, 1)
    beliefs.see([0], 0, 1)
    beliefs.see([0], 1, 1)
    with pytest.raises(ValueError, match="rules out every deal"):
        beliefs.marginals(0)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_different_own_character_changes_the_seat_observation_at_once(n):
    for watcher in range(n):
        characters = deal(n, watcher)
        other = characters[:]
        other[watcher] = next(c for c in range(7) if c not in characters)
        views = []
        for chars in (characters, other):
            env = hoax_v1.env(num_players=n)
            env.reset(seed=0, options={"setup": {"characters": chars, "first_player": 0}})
            views.append(env.observe(f"player_{watcher}")["observation"])
        assert not np.array_equal(*views)


def test_suspicion_cards_reach_the_investigator_and_the_target_only():
    """The target's character differs between twins: after an investigation only the investigator's view
    and the target's own (which holds its card, and drew the four) differ."""
    investigator_saw = 0
    for trial in range(30):
        n = 3 + trial % 4
        characters = deal(n, trial)
        target = 1
        other = characters[:]
        other[target] = next(c for c in range(7) if c not in characters)
        envs = []
        for chars in (characters, other):
            env = hoax_v1.env(num_players=n)
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
