"""The text view: the same knowledge as the observations, so a hidden fact stays out of the words too; every event a
seat saw is told to it once; every game is told by its rules at every table."""

import numpy as np
import pytest

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.text import TextView
from hidden_role_envs.text.game import belief_questions, rules
from tests.support import every_game, facts, random_legal, tables, typical_tables


def twin_params():
    return [pytest.param(g, n, id=f"{g.name}-{n}p") for g in every_game() for n in (g.min_players, g.typical_players)]


@pytest.mark.parametrize("game, n", twin_params())
def test_twin_games_read_the_same_to_the_seat_that_has_not_seen_their_difference(game, n):
    """The leak twins of the conformance suite (tests/conformance/test_leaks.py), read in words: until the rules
    let the watcher tell the two games apart, everything it would be told is the same in both (what is new at every
    step, so the whole story too)."""
    compared = 0
    for twin in facts(game).twins(n):
        a, b = (game.env(num_players=n, **twin.arguments) for _ in range(2))
        for env, setup in zip((a, b), twin.setups):
            env.reset(seed=twin.seed, options={"setup": setup})
        watcher = agent_name(twin.watcher)
        views = TextView(a, watcher), TextView(b, watcher)
        rng = np.random.default_rng(twin.seed)
        diverge = twin.diverge
        assert views[0].opening(ask_beliefs=True) == views[1].opening(ask_beliefs=True)
        while a.agents:
            if watcher in a.agents:
                told = [view.turn(env.observe(watcher), ask_beliefs=True) for view, env in zip(views, (a, b))]
                assert told[0] == told[1], "the words depend on a fact the seat has not seen"
                compared += 1
            agent = a.agent_selection
            if a.terminations[agent] or a.truncations[agent]:
                a.step(None)
                b.step(None)
                continue
            mask = a.observe(agent)["action_mask"]
            action = twin.choose(a, rng, mask) if twin.choose else int(rng.choice(np.flatnonzero(mask)))
            actor = int(agent.removeprefix("player_"))
            other = diverge(a, actor, action) if diverge else None
            if other is not None:
                diverge = None
            if twin.learns(a, b, actor, action):
                break
            a.step(action)
            b.step(action if other is None else other)
    assert compared >= 5


@pytest.mark.parametrize("game, table", typical_tables())
def test_every_event_a_seat_saw_is_told_to_it_once_in_order(game, table):
    n, arguments = table
    env = game.env(num_players=n, **arguments)
    kinds_told = set()
    for seed in range(12):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        views = {agent: TextView(env, agent) for agent in env.possible_agents}
        told = {agent: [] for agent in env.possible_agents}
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            told[agent].append(views[agent].turn(observation))
            env.step(random_legal(rng, observation))
        for agent, view in views.items():
            said = "\n".join(told[agent] + [view.ending()])
            lines = [line for line in said.splitlines() if line.startswith("- ")]
            history = [event for event in env.unwrapped.history(agent) if event["text"]]
            assert [line.removeprefix("- ") for line in lines if line != "- nothing you saw"][: len(history)] == [
                event["text"] for event in history
            ]
            kinds_told |= {event["kind"] for event in history}
    worded = {kind.kind for kind in game.events if kind.text is not None}
    assert kinds_told <= worded
    assert len(kinds_told) >= len(worded) / 2, f"only {sorted(kinds_told)} of {sorted(worded)} came up"


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_every_table_is_told_its_rules_who_the_seat_is_and_how_to_answer(game):
    for n, arguments in tables(game):
        config = game.configure(n, **{k: v for k, v in arguments.items() if k != "reward"})
        assert len(rules(game, config).split()) >= 20
        env = game.env(num_players=n, **arguments)
        env.reset(seed=0)
        opening = TextView(env, agent_name(n - 1)).opening()
        assert f"You are {agent_name(n - 1)} in a game of {game.title} with {n} players" in opening
        assert f"+1 is {agent_name(0)}" in opening and "legal action" in opening
        for seat in range(n):
            questions = belief_questions(game, config, seat)
            assert len({q.label for q in questions}) == len(questions)
            for question in questions:
                assert env.unwrapped.observer.layout.groups[question.block] == "belief"
                size = env.unwrapped.observation_fields[question.block].stop - env.unwrapped.observation_fields[
                    question.block].start
                assert all(0 <= entry < size for entry in question.entries)
