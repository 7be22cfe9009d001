"""Leak tests: a seat's observation and text depend on what it saw and on nothing else.

Each game's tests declare twins (`facts.twins`): two deals that differ in
one hidden fact (or, where the deal hides nothing, one choice made
differently), a watching seat, and the rulebook's own rule for when the
watcher can tell them apart, worked out from the hidden state and the
actions, not from the engine's events (an event wrongly addressed to the
watcher would otherwise go unnoticed). Both games get the same actions, but
for that one choice.
Until the watcher can tell them apart, its observation and its text must
be the same in both; once it can, its observation must change.
"""

import numpy as np
import pytest

from tests.support import every_game, facts


def twin_params():
    params = []
    for game in every_game():
        for n in range(game.min_players, game.max_players + 1):
            params.append(pytest.param(game, n, id=f"{game.name}-{n}p"))
    return params


def run(game, n, twin) -> tuple[int, bool]:
    """(steps compared equal, whether the watcher came to tell the games apart)."""
    a, b = (game.env(num_players=n, **twin.arguments) for _ in range(2))
    for env, setup in zip((a, b), twin.setups):
        env.reset(seed=twin.seed, options={"setup": setup})
    rng = np.random.default_rng(twin.seed)
    diverge = twin.diverge
    watcher = f"player_{twin.watcher}"
    compared = 0
    while a.agents:
        if watcher in a.agents:
            assert np.array_equal(a.observe(watcher)["observation"], b.observe(watcher)["observation"]), (
                "the observation depends on a fact the seat has not seen"
            )
            assert a.unwrapped.render_text(twin.watcher) == b.unwrapped.render_text(twin.watcher), (
                "the text depends on a fact the seat has not seen"
            )
            compared += 1
        agent = a.agent_selection
        assert b.agent_selection == agent
        if a.terminations[agent] or a.truncations[agent]:
            a.step(None)
            b.step(None)
            continue
        mask = a.observe(agent)["action_mask"]
        assert np.array_equal(mask, b.observe(agent)["action_mask"])
        action = twin.choose(a, rng, mask) if twin.choose else int(rng.choice(np.flatnonzero(mask)))
        actor = int(agent.removeprefix("player_"))
        other = diverge(a, actor, action) if diverge else None
        if other is not None:
            diverge = None  # one choice differs, no more
        learns = twin.learns(a, b, actor, action)
        a.step(action)
        b.step(action if other is None else other)
        if learns:
            assert not np.array_equal(a.observe(watcher)["observation"], b.observe(watcher)["observation"]), (
                "the seat learned a different fact but its observation did not change"
            )
            return compared, True
    return compared, False


@pytest.mark.parametrize("game, n", twin_params())
def test_a_hidden_fact_stays_hidden_until_the_rules_show_it(game, n):
    cases = facts(game).twins(n)
    assert cases, "a game must declare leak twins for every table"
    results = [run(game, n, twin) for twin in cases]
    compared = sum(c for c, _ in results)
    learned = sum(told for _, told in results)
    assert compared >= 5 * len(cases), f"only {compared} steps compared over {len(cases)} twins"
    assert learned, "the watcher never came to tell a twin apart: the twins test too little"


def run_public(game, n, twin) -> int:
    """Steps after the fork, every one checked; 0 if the fork never came."""
    a, b = (game.env(num_players=n, **twin.arguments) for _ in range(2))
    for env in (a, b):
        env.reset(seed=twin.seed, options={"setup": twin.setup})
    rng = np.random.default_rng(twin.seed)
    forked = False
    checked = 0
    while a.agents and b.agents:
        agent = a.agent_selection
        if forked:
            for seat in set(a.agents) & set(b.agents):
                assert not np.array_equal(a.observe(seat)["observation"], b.observe(seat)["observation"]), (
                    f"{seat} no longer tells apart two games that differ in a public fact"
                )
            checked += 1
        if a.terminations[agent] or a.truncations[agent] or agent != b.agent_selection:
            return checked
        mask = a.observe(agent)["action_mask"]
        if not forked:
            pair = twin.fork(a)
            if pair is not None:
                a.step(pair[0])
                b.step(pair[1])
                forked = True
                continue
            action = int(rng.choice(np.flatnonzero(mask)))
            a.step(action)
            b.step(action)
            continue
        both = np.flatnonzero(mask & b.observe(agent)["action_mask"])
        if not both.size:
            return checked
        action = int(rng.choice(both))
        a.step(action)
        b.step(action)
    return checked


@pytest.mark.parametrize("game, n", [pytest.param(g, g.typical_players, id=g.name) for g in every_game()])
def test_a_public_fact_stays_in_every_seats_observation_to_the_end(game, n):
    cases = facts(game).public_twins(n)
    assert cases, "a game must declare public twins"
    checked = [run_public(game, n, twin) for twin in cases]
    forked = [c for c in checked if c]
    assert len(forked) >= len(cases) / 2, f"only {len(forked)} of {len(cases)} public twins reached their fork"
    assert sum(forked) >= 2 * len(forked)
