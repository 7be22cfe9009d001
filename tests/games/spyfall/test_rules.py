"""Spyfall rule scenarios: one per rule of the rulebook and its rulings, and one per scoring case.

A scenario is data: a fixed deal (dealer, location, spy), the actions in
order by name, and what must hold afterwards. Each action is prefixed with
the seat expected to play it ("2: answer yes"); the runner checks that this
seat is the one asked. Helpers spell out whole exchanges and windows as
such names. Expectations are checked against the engine and against every
seat's observation.

Seats in action names are relative to the actor (`+1` = the left neighbour,
the next in turn order); in expectations seats are absolute.
"""

from __future__ import annotations

import math
import pickle
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from hidden_role_envs import spyfall_v1
from hidden_role_envs.games.spyfall import GAME
from hidden_role_envs.games.spyfall.actions import ASK
from hidden_role_envs.games.spyfall.locations import ATTRIBUTES, DEFAULT_LOCATIONS
from hidden_role_envs.games.spyfall.rules import RESULTS
from tests.support import check_allowed, check_forbidden, check_legal, one_hot, play_trace, uniform_choice
from tests.support import relative as rel

NAMES = [loc.name for loc in DEFAULT_LOCATIONS]
TRUE_AT = {loc.name: loc.attributes for loc in DEFAULT_LOCATIONS}
DECISION_ORDER = ("ask", "answer", "window", "vote", "time up")  # the documented order of the decision block
LIE_RATE = 0.1  # the documented knowledge model

# Bank: indoors, staff in uniform, money changes hands, weapons. Beach is not indoors.


# --- building scenarios ------------------------------------------------------


def ask(n: int, asker: int, target: int, attribute: str) -> str:
    return f"{asker}: ask +{(target - asker) % n} about {attribute}"


def answer(seat: int, yes: bool) -> str:
    return f"{seat}: answer {'yes' if yes else 'no'}"


def window(n: int, answerer: int, seats: int | None = None) -> list[str]:
    """Passes by the first `seats` seats of the window after `answerer`'s answer (default: all n)."""
    return [f"{(answerer + k) % n}: pass" for k in range(1, (seats or n) + 1)]


def exchange(n: int, asker: int, target: int, attribute: str, yes: bool) -> list[str]:
    """A question, its answer and a window where everyone passes."""
    return [ask(n, asker, target, attribute), answer(target, yes)] + window(n, target)


def accuse(n: int, accuser: int, accused: int) -> str:
    return f"{accuser}: accuse +{(accused - accuser) % n}"


def voters(n: int, accuser: int, accused: int) -> list[int]:
    return [s for s in ((accuser + k) % n for k in range(1, n)) if s != accused]


def vote(n: int, accuser: int, accused: int, no: tuple[int, ...] = ()) -> list[str]:
    """Every voter in order, yes unless listed in `no`."""
    return [f"{s}: vote {'no' if s in no else 'yes'}" for s in voters(n, accuser, accused)]


@dataclass
class Scenario:
    name: str
    players: int
    actions: list[str]
    expect: dict[str, Any]
    location: str = "Bank"
    spy: int = 1
    dealer: int = 0
    kwargs: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)


def new_env(players: int, location="Bank", spy=1, dealer=0, setup=None, **kwargs):
    env = spyfall_v1.env(num_players=players, **kwargs)
    env.reset(seed=0, options={"setup": setup or {"dealer": dealer, "locations": [location], "spies": [spy]}})
    return env


def play(env, actions) -> None:
    for step in actions:
        seat, _, name = step.rpartition(": ")
        assert env.agent_selection == f"player_{seat}", (
            f"{step!r}: expected player_{seat} to act, but {env.agent_selection} is asked"
        )
        env.step(env.unwrapped.string_to_action(name))


def run(sc: Scenario):
    env = new_env(sc.players, sc.location, sc.spy, sc.dealer, sc.setup or None, **sc.kwargs)
    play(env, sc.actions)
    check(env, sc.expect)
    return env


# --- reading the env ---------------------------------------------------------


def block(env, seat: int, name: str) -> np.ndarray:
    layout = env.unwrapped.observer.layout
    shape = next(b.shape for b in layout.blocks if b.name == name)
    return env.observe(f"player_{seat}")["observation"][layout.fields[name]].reshape(shape)


def asks_of(n: int, offsets) -> set[str]:
    return {f"ask +{k} about {a}" for k in offsets for a in ATTRIBUTES}


def accusations(n: int) -> set[str]:
    return {f"accuse +{k}" for k in range(1, n)}


GUESSES = {f"guess {x}" for x in NAMES}


# --- expectations ------------------------------------------------------------


def check_ask(env, value):
    """("answer", 2): that decision is asked of seat 2 (only it has legal actions); "over": the game ended."""
    n = env.unwrapped.num_players
    if value == "over":
        assert env.unwrapped.engine.is_over
        assert all(env.terminations.values())
        for observer in range(n):
            assert not env.observe(f"player_{observer}")["action_mask"].any()
            assert not block(env, observer, "decision").any()
        return
    kind, seat = value
    assert not env.unwrapped.engine.is_over, "the game should not be over"
    assert env.agent_selection == f"player_{seat}", f"expected player_{seat} to be asked"
    for observer in range(n):
        assert np.array_equal(block(env, observer, "decision"), one_hot(5, DECISION_ORDER.index(kind)))
        assert np.array_equal(block(env, observer, "to_act"), one_hot(n, rel(seat, observer, n)))
        assert env.observe(f"player_{observer}")["action_mask"].any() == (observer == seat)


def check_cards(env, value):
    """{seat: "Spy" or (location, role)}: the engine's deal and the seat's own card blocks."""
    eng = env.unwrapped.engine
    for seat, card in value.items():
        if card == "Spy":
            assert eng.spy == seat
            assert block(env, seat, "is_spy")[0] == 1
            assert not block(env, seat, "location").any() and not block(env, seat, "role").any()
        else:
            location, role = card
            assert block(env, seat, "is_spy")[0] == 0
            assert np.array_equal(block(env, seat, "location"), one_hot(len(NAMES), NAMES.index(location)))
            roles = DEFAULT_LOCATIONS[NAMES.index(location)].roles
            assert np.array_equal(block(env, seat, "role"), one_hot(7, roles.index(role)))


def check_question(env, value):
    """(asker, target, attribute) waiting for its answer, or None; public."""
    n = env.unwrapped.num_players
    for observer in range(n):
        q = block(env, observer, "question")
        attr = block(env, observer, "question_attribute")
        if value is None:
            assert not q.any() and not attr.any()
        else:
            asker, target, attribute = value
            assert np.array_equal(q[0], one_hot(n, rel(asker, observer, n)))
            assert np.array_equal(q[1], one_hot(n, rel(target, observer, n)))
            assert np.array_equal(attr, one_hot(len(ATTRIBUTES), ATTRIBUTES.index(attribute)))


def check_exchanges(env, value):
    """[(asker, target, attribute, yes or None while it waits), ...] in the order asked, in every seat's record."""
    n = env.unwrapped.num_players
    for observer in range(n):
        askers, targets = block(env, observer, "exchange_asker"), block(env, observer, "exchange_target")
        attrs, answers = block(env, observer, "exchange_attribute"), block(env, observer, "exchange_answer")
        assert len(askers) == env.unwrapped.config.question_limit
        for row in range(len(askers)):
            if row < len(value):
                asker, target, attribute, yes = value[row]
                assert np.array_equal(askers[row], one_hot(n, rel(asker, observer, n)))
                assert np.array_equal(targets[row], one_hot(n, rel(target, observer, n)))
                assert np.array_equal(attrs[row], one_hot(len(ATTRIBUTES), ATTRIBUTES.index(attribute)))
                assert np.array_equal(answers[row], one_hot(2, None if yes is None else 0 if yes else 1))
            else:
                assert not (askers[row].any() or targets[row].any() or attrs[row].any() or answers[row].any())


def check_answers(env, value):
    """{(seat, attribute): (yes count, no count)}; every other tally is zero; in every seat's view."""
    n = env.unwrapped.num_players
    for observer in range(n):
        expected = np.zeros((n, len(ATTRIBUTES), 2), dtype=np.float32)
        for (seat, attribute), counts in value.items():
            expected[rel(seat, observer, n), ATTRIBUTES.index(attribute)] = counts
        assert np.array_equal(block(env, observer, "answers"), expected)


def check_cannot_ask(env, value):
    n = env.unwrapped.num_players
    for observer in range(n):
        expected = one_hot(n, None if value is None else rel(value, observer, n))
        assert np.array_equal(block(env, observer, "cannot_ask"), expected)


def check_accusation(env, value):
    """(accuser, accused) of the vote in progress, or None."""
    n = env.unwrapped.num_players
    for observer in range(n):
        acc = block(env, observer, "accusation")
        if value is None:
            assert not acc.any()
        else:
            assert np.array_equal(acc[0], one_hot(n, rel(value[0], observer, n)))
            assert np.array_equal(acc[1], one_hot(n, rel(value[1], observer, n)))


def check_votes_cast(env, value):
    """The seats that voted so far, as every seat sees it (without what they voted)."""
    n = env.unwrapped.num_players
    for observer in range(n):
        expected = np.zeros(n, dtype=np.float32)
        for s in value:
            expected[rel(s, observer, n)] = 1
        assert np.array_equal(block(env, observer, "votes_cast"), expected)


def check_my_vote(env, value):
    """{seat: "yes" | "no" | None}: a vote is seen by its voter only."""
    for seat, vote_name in value.items():
        expected = one_hot(2, None if vote_name is None else ("yes", "no").index(vote_name))
        assert np.array_equal(block(env, seat, "my_vote"), expected), f"player_{seat}"


def check_last_vote(env, value):
    """(accuser, accused, yes seats, no seats) of the last finished vote of the round, or None."""
    n = env.unwrapped.num_players
    for observer in range(n):
        last = block(env, observer, "last_vote")
        if value is None:
            assert not last.any()
            continue
        accuser, accused, yes, no = value
        expected = np.zeros((4, n), dtype=np.float32)
        expected[0, rel(accuser, observer, n)] = 1
        expected[1, rel(accused, observer, n)] = 1
        for s in yes:
            expected[2, rel(s, observer, n)] = 1
        for s in no:
            expected[3, rel(s, observer, n)] = 1
        assert np.array_equal(last, expected)


def check_accusations(env, value):
    """{(time up, accuser): (accused, yes seats, no seats)}: this round's accusations and their votes; every other
    entry is zero; in every seat's record."""
    n = env.unwrapped.num_players
    for observer in range(n):
        accused_by = np.zeros((2, n, n), dtype=np.float32)
        votes = np.zeros((2, n, n, 2), dtype=np.float32)
        for (time_up, accuser), (accused, yes, no) in value.items():
            accused_by[int(time_up), rel(accuser, observer, n), rel(accused, observer, n)] = 1
            for seats, column in ((yes, 0), (no, 1)):
                for seat in seats:
                    votes[int(time_up), rel(accuser, observer, n), rel(seat, observer, n), column] = 1
        assert np.array_equal(block(env, observer, "accusations"), accused_by)
        assert np.array_equal(block(env, observer, "accusation_votes"), votes)


def check_rounds(env, value):
    """[(spy, location, convicted or None, accuser or None, points, result), ...]: the finished rounds, in every
    seat's record and in every seat's infos["rounds"]."""
    n = env.unwrapped.num_players
    rows = env.unwrapped.config.num_rounds
    for observer in range(n):
        expected = {name: np.zeros_like(block(env, observer, name)) for name in
                    ("round_spy", "round_location", "round_convicted", "round_accuser", "round_points",
                     "round_result")}
        for r, (spy, location, convicted, accuser, points, result) in enumerate(value):
            expected["round_spy"][r, rel(spy, observer, n)] = 1
            expected["round_location"][r, NAMES.index(location)] = 1
            if convicted is not None:
                expected["round_convicted"][r, rel(convicted, observer, n)] = 1
                expected["round_accuser"][r, rel(accuser, observer, n)] = 1
            expected["round_points"][r] = [points[(observer + k) % n] for k in range(n)]
            expected["round_result"][r, RESULTS.index(result)] = 1
        for name, array in expected.items():
            assert array.shape[0] == rows
            assert np.array_equal(block(env, observer, name), array), (name, observer)
    for agent in env.agents:
        told = [(r["spy"], r["location"], r["convicted"], r["accuser"], r["points"], r["result"])
                for r in env.infos[agent]["rounds"]]
        assert told == [(f"player_{spy}", location, None if convicted is None else f"player_{convicted}",
                         None if accuser is None else f"player_{accuser}",
                         {f"player_{s}": p for s, p in enumerate(points)}, result)
                        for spy, location, convicted, accuser, points, result in value], agent


def check_accusation_used(env, value):
    n = env.unwrapped.num_players
    for observer in range(n):
        expected = np.zeros(n, dtype=np.float32)
        for s in value:
            expected[rel(s, observer, n)] = 1
        assert np.array_equal(block(env, observer, "accusation_used"), expected)


def check_clock(env, value):
    """(questions left, time is up)."""
    for observer in range(env.unwrapped.num_players):
        assert list(block(env, observer, "clock")) == [value[0], float(value[1])]


def check_dealer(env, value):
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.dealer == value
    for observer in range(n):
        assert np.array_equal(block(env, observer, "dealer"), one_hot(n, rel(value, observer, n)))


def check_round(env, value):
    """(round number from 1, rounds in the game)."""
    for observer in range(env.unwrapped.num_players):
        assert list(block(env, observer, "round")) == list(value)


def check_played(env, value):
    expected = np.zeros(len(NAMES), dtype=np.float32)
    for name in value:
        expected[NAMES.index(name)] = 1
    for observer in range(env.unwrapped.num_players):
        assert np.array_equal(block(env, observer, "played"), expected)


def check_rewards(env, value):
    """The rewards of the last step, per seat."""
    assert [env.rewards[a] for a in env.possible_agents] == [float(v) for v in value]


def check_scores(env, value):
    n = env.unwrapped.num_players
    assert [int(s) for s in env.unwrapped.engine.table.scores] == list(value)
    for observer in range(n):
        assert list(block(env, observer, "scores")) == [value[(observer + k) % n] for k in range(n)]


def check_infos(env, value):
    for agent in env.possible_agents:
        for key, expected in value.items():
            assert env.infos[agent][key] == expected, key


def check_winners(env, value):
    names = [f"player_{s}" for s in value]
    for seat, agent in enumerate(env.possible_agents):
        assert env.infos[agent]["winners"] == names
        assert env.infos[agent]["won"] == (seat in value)


def check_location_belief(env, value):
    """{observer: {location: probability}}; locations not listed have probability 0."""
    for observer, probs in value.items():
        expected = np.zeros(len(NAMES))
        for name, p in probs.items():
            expected[NAMES.index(name)] = p
        np.testing.assert_allclose(block(env, observer, "location_belief"), expected, atol=1e-6)


def check_spy_belief(env, value):
    """{observer: [P(seat s is the spy) for absolute seats s]}."""
    n = env.unwrapped.num_players
    for observer, probs in value.items():
        expected = [probs[(observer + k) % n] for k in range(n)]
        np.testing.assert_allclose(block(env, observer, "spy_belief"), expected, atol=1e-6)


def check_location_false_share(env, value):
    """{observer: [(attribute, yes) for the answers it heard from the other seats]}: per location, the share of
    them that are false there."""
    for observer, answers in value.items():
        expected = [sum((attribute in loc.attributes) != yes for attribute, yes in answers) / max(len(answers), 1)
                    for loc in DEFAULT_LOCATIONS]
        np.testing.assert_allclose(block(env, observer, "location_false_share"), expected, atol=1e-6)


CHECKS = {
    "ask": check_ask,
    "legal": check_legal,
    "allowed": check_allowed,
    "forbidden": check_forbidden,
    "cards": check_cards,
    "question": check_question,
    "exchanges": check_exchanges,
    "answers": check_answers,
    "cannot_ask": check_cannot_ask,
    "accusation": check_accusation,
    "votes_cast": check_votes_cast,
    "my_vote": check_my_vote,
    "last_vote": check_last_vote,
    "accusations": check_accusations,
    "rounds": check_rounds,
    "accusation_used": check_accusation_used,
    "clock": check_clock,
    "dealer": check_dealer,
    "round": check_round,
    "played": check_played,
    "rewards": check_rewards,
    "scores": check_scores,
    "infos": check_infos,
    "winners": check_winners,
    "location_belief": check_location_belief,
    "spy_belief": check_spy_belief,
    "location_false_share": check_location_false_share,
}


def check(env, expect: dict) -> None:
    for key, value in expect.items():
        CHECKS[key](env, value)


def table_test(scenarios: list[Scenario]):
    return pytest.mark.parametrize("sc", scenarios, ids=[s.name for s in scenarios])


# === Actions, blocks and text =================================================


def test_documented_action_examples_and_count_at_five_players():
    env = spyfall_v1.env(num_players=5)
    assert env.action_space("player_0").n == 127
    assert env.unwrapped.string_to_action("ask +2 about loud") == 29
    assert env.unwrapped.action_to_string(92) == "answer yes"
    assert env.unwrapped.action_to_string(0) == "ask +1 about indoors"
    assert env.unwrapped.action_to_string(126) == "vote no"
    assert env.unwrapped.actions.meaning[29] == (ASK, (2, ATTRIBUTES.index("loud")))


@pytest.mark.parametrize("n", [3, 8])
def test_block_sizes_follow_the_seats_attributes_and_locations(n):
    fields = spyfall_v1.env(num_players=n).unwrapped.observation_fields
    assert fields["answers"].stop - fields["answers"].start == n * 23 * 2
    assert fields["exchange_asker"].stop - fields["exchange_asker"].start == 16 * n  # question_limit rows
    assert fields["location_belief"].stop - fields["location_belief"].start == 26


def test_ansi_render_shows_the_table_the_cards_and_the_last_step():
    env = spyfall_v1.env(num_players=5, render_mode="ansi")
    env.reset(seed=0, options={"setup": {"dealer": 2, "spies": [2]}})
    text = env.render()
    assert "Spyfall, 5 players, round 1 of 1, dealer player_2" in text
    assert "your card: SPY" in text
    env.step(env.unwrapped.string_to_action("ask +1 about loud"))
    text = env.render()
    assert "player_2 asked you about loud" in text
    assert "question: player_2 asks player_3 about loud" in text


def test_a_game_shows_every_kind_of_event_as_a_line_to_those_who_saw_it():
    env = spyfall_v1.env(num_players=4, num_rounds=3, question_limit=3, render_mode="ansi")
    kinds = set()
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            for event in env.unwrapped.last_events:
                for viewer in event.seen_by:
                    assert env.unwrapped.describe_event(event, viewer)
                kinds.add(event.kind)
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            pass_id = env.unwrapped.string_to_action("pass")
            action = pass_id if mask[pass_id] and rng.random() < 0.8 else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)  # passing often reaches the time-up phase
    assert kinds == {kind.kind for kind in GAME.events}


def test_the_event_history_encodes_every_kind_of_event_within_its_bounds():
    length = 12
    env = spyfall_v1.env(num_players=4, num_rounds=3, question_limit=3, history_length=length)
    space = env.observation_space("player_0")["observation"]
    kinds = [kind.kind for kind in GAME.events]
    encoded = set()
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        pass_id = env.unwrapped.string_to_action("pass")
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            for name in env.agents:
                vector = env.observe(name)["observation"]
                assert space.contains(vector)
                rows = vector[env.unwrapped.observation_fields["history"]].reshape(length, -1)
                seen = [event["kind"] for event in env.unwrapped.history(name)][::-1][:length]  # most recent first
                assert [kinds[int(np.argmax(row[: len(kinds)]))] for row in rows[: len(seen)]] == seen
                assert not rows[len(seen):].any()
                encoded.update(seen)
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(pass_id if mask[pass_id] and rng.random() < 0.8 else int(rng.choice(np.flatnonzero(mask))))
    assert encoded == set(kinds)


def test_max_turns_counts_decisions_and_truncates_without_reward():
    env = spyfall_v1.env(num_players=5, max_turns=3)
    env.reset(seed=0, options={"setup": {"dealer": 0, "locations": ["Bank"], "spies": [1]}})
    moves = ["ask +2 about loud", "answer yes", "pass"]
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert reward == 0
            assert info["truncated_after_turns"] == 3
            assert info["result"] == "truncated" and info["winners"] == []
            assert (info["spy"], info["location"], info["rounds"]) == ("player_1", "Bank", [])  # the cards are shown
            assert info["points"] == {a: 0 for a in env.possible_agents}
            assert info["role"] == ("Spy" if agent == "player_1" else info["role"])
            env.step(None)
            continue
        env.step(env.unwrapped.string_to_action(moves.pop(0)))
    assert env.unwrapped.engine.turns_played == 3
    assert not env.unwrapped.engine.is_over


def longest_play(env, obs) -> int:
    """Every seat accuses at its first question or answer, never in a window, and again when time is up; every
    vote is no; nobody names a location; every question goes to the left neighbour, so that every seat is asked:
    the longest game there is."""
    legal = {env.unwrapped.action_to_string(int(a)) for a in np.flatnonzero(obs["action_mask"])}
    if env.unwrapped.engine.table.time_up or legal & {"ask +1 about loud", "answer yes"}:
        order = ("accuse +1", "ask +1 about loud", "answer yes", "vote no")
    else:
        order = ("vote no", "pass")
    return env.unwrapped.string_to_action(next(name for name in order if name in legal))


@pytest.mark.parametrize("n, question_limit", [(3, 16), (5, 16), (8, 16), (8, 7)])
def test_the_default_turn_limit_is_twice_the_longest_game(n, question_limit):
    env = spyfall_v1.env(num_players=n, num_rounds=2, question_limit=question_limit)
    longest = 2 * (question_limit * (n + 2) + 2 * n * (n - 1))  # the documented bound, for 2 rounds
    assert env.max_turns == 2 * longest
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert not truncated
        env.step(None if terminated else longest_play(env, obs))
    assert env.unwrapped.game_over and env.unwrapped.engine.turns_played == longest


# === The deal ==================================================================


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_the_deal_gives_one_spy_card_and_distinct_roles_of_one_location(n):
    spies, locations = set(), set()
    for seed in range(40):
        env = spyfall_v1.env(num_players=n)
        env.reset(seed=seed)
        eng = env.unwrapped.engine
        roles = DEFAULT_LOCATIONS[eng.location].roles
        dealt = [r for s, r in enumerate(eng.roles) if s != eng.spy]
        assert eng.roles[eng.spy] == -1
        assert len(set(dealt)) == n - 1 and all(0 <= r < len(roles) for r in dealt)
        for seat in range(n):
            card = "Spy" if seat == eng.spy else (NAMES[eng.location], roles[eng.roles[seat]])
            check_cards(env, {seat: card})
        spies.add(eng.spy)
        locations.add(eng.location)
    assert spies == set(range(n))  # any seat may be the spy
    assert len(locations) > 15  # drawn among all the locations


DEAL = [
    Scenario(
        "the dealer asks first, anyone about anything",
        5, [],
        {"ask": ("ask", 0), "legal": asks_of(5, range(1, 5)) | accusations(5), "dealer": 0, "round": (1, 1),
         "clock": (16, False), "cannot_ask": None, "question": None, "exchanges": [], "accusation_used": [],
         "accusations": {}, "rounds": []},
    ),
    Scenario("the first dealer may be any seat", 6, [], {"ask": ("ask", 4), "dealer": 4}, dealer=4),
    Scenario(
        "each seat sees its own card: the location and its role, or the spy card",
        4, [],
        {"cards": {0: ("Bank", "Teller"), 1: "Spy", 2: ("Bank", "Robber"), 3: ("Bank", "Manager")}},
        setup={"dealer": 0, "locations": ["Bank"], "spies": [1], "roles": [["Teller", None, "Robber", "Manager"]]},
    ),
]


@table_test(DEAL)
def test_deal(sc):
    run(sc)


# === Questions and answers =====================================================

ASK_LOUD = [ask(5, 0, 2, "loud")]
ACCUSE_ANYONE = {f"accuse +{k}" for k in range(1, 5)}  # at 5 players
ASKED_AND_ANSWERED = ASK_LOUD + [answer(2, False)]

QUESTIONS = [
    Scenario(
        "a question waits for its target's answer, in public",
        5, ASK_LOUD,
        {"ask": ("answer", 2), "legal": {"answer yes", "answer no"} | ACCUSE_ANYONE, "question": (0, 2, "loud"),
         "exchanges": [(0, 2, "loud", None)]},
    ),
    Scenario(
        "the answer is public and opens the window at the answerer's left",
        5, ASKED_AND_ANSWERED,
        {"ask": ("window", 3), "question": None, "exchanges": [(0, 2, "loud", False)],
         "answers": {(2, "loud"): (0, 1)}, "clock": (15, False), "legal": {"pass"} | ACCUSE_ANYONE},
    ),
    Scenario(
        "the window goes round the table from the answerer's left, the answerer last",
        5, ASKED_AND_ANSWERED + window(5, 2, seats=4),
        {"ask": ("window", 2)},
    ),
    Scenario(
        "then the asked player asks, anyone but the player who just asked them",
        5, ASKED_AND_ANSWERED + window(5, 2),
        {"ask": ("ask", 2), "cannot_ask": 0, "legal": asks_of(5, [1, 2, 4]) | ACCUSE_ANYONE},
    ),
    Scenario(
        "3 players: the one who was asked must ask the third player",
        3, exchange(3, 0, 1, "indoors", True),
        {"ask": ("ask", 1), "legal": asks_of(3, [1]) | accusations(3) | GUESSES},  # seat 1 is the spy
    ),
    Scenario(
        "anyone may lie: a non-spy at the Bank may say it is not indoors",
        5, [ask(5, 0, 2, "indoors"), answer(2, False)],
        {"exchanges": [(0, 2, "indoors", False)], "answers": {(2, "indoors"): (0, 1)}},
    ),
    Scenario(
        "the spy may answer either way",
        5, [ask(5, 0, 1, "weapons")],
        {"ask": ("answer", 1), "allowed": {"answer yes", "answer no"}},
    ),
    Scenario(
        "the record keeps the exchanges in the order asked, and the tallies count every answer",
        5,
        exchange(5, 0, 2, "loud", False) + exchange(5, 2, 4, "loud", True) + exchange(5, 4, 3, "weapons", True)
        + exchange(5, 3, 1, "loud", True),
        {"exchanges": [(0, 2, "loud", False), (2, 4, "loud", True), (4, 3, "weapons", True), (3, 1, "loud", True)],
         "answers": {(2, "loud"): (0, 1), (4, "loud"): (1, 0), (3, "weapons"): (1, 0), (1, "loud"): (1, 0)},
         "clock": (12, False), "ask": ("ask", 1), "cannot_ask": 3},
    ),
    Scenario(
        "only the player who just asked is barred: an earlier asker may be asked",
        4, exchange(4, 0, 2, "loud", True) + exchange(4, 2, 3, "loud", True),
        {"ask": ("ask", 3), "legal": asks_of(4, [1, 2]) | accusations(4)},  # seats 0 and 1, not 2
    ),
]


@table_test(QUESTIONS)
def test_questions(sc):
    run(sc)


@pytest.mark.parametrize("question_limit", [16, 20])
def test_the_record_keeps_every_exchange_of_the_round(question_limit):
    actions, exchanges = [], []
    for i in range(question_limit):  # seat i asks its left neighbour, who asks next
        asker, target, attribute = i % 5, (i + 1) % 5, ATTRIBUTES[i % len(ATTRIBUTES)]
        actions += exchange(5, asker, target, attribute, i % 2 == 0)
        exchanges.append((asker, target, attribute, i % 2 == 0))
    env = new_env(5, question_limit=question_limit)
    play(env, actions)
    check(env, {"exchanges": exchanges, "clock": (0, True)})
    assert block(env, 3, "answers").sum() == question_limit


# === The interruption window and accusations =================================

# 5 players, spy = seat 1, dealer 0. Seat 0 asks 2 about loud, 2 answers: the window is 3, 4, 0, 1, 2.
SPY_TURN = ASKED_AND_ANSWERED + window(5, 2, seats=3)  # seats 3, 4 and 0 passed: the spy's turn

WINDOW = [
    Scenario(
        "the spy may name any location in the window; a non-spy may not",
        5, SPY_TURN,
        {"ask": ("window", 1), "legal": {"pass"} | ACCUSE_ANYONE | {f"guess {x}" for x in NAMES}},
    ),
    Scenario(
        "an accusation stops the clock: everyone but the accused and the accuser votes, from the accuser's left",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0)],
        {"ask": ("vote", 4), "legal": {"vote yes", "vote no"}, "accusation": (3, 0), "accusation_used": [3],
         "votes_cast": []},
    ),
    Scenario(
        "votes are secret until all are cast: the others see only who voted",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0), "4: vote yes", "1: vote no"],
        {"ask": ("vote", 2), "votes_cast": [4, 1], "my_vote": {4: "yes", 1: "no", 0: None, 2: None, 3: None},
         "last_vote": None},
    ),
    Scenario(
        "then every vote is shown; one no acquits and the window goes on with the accuser's left neighbour",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(1,)),
        {"ask": ("window", 4), "last_vote": (3, 0, [3, 4, 2], [1]), "accusation": None, "votes_cast": [],
         "accusations": {(False, 3): (0, [3, 4, 2], [1])},
         "my_vote": {s: None for s in range(5)}, "clock": (15, False)},
    ),
    Scenario(
        "an accusation is used once per round while the clock runs",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(1,)) + window(5, 3, seats=4)
        + exchange(5, 2, 3, "loud", True)[:2],
        {"ask": ("window", 4), "accusation_used": [3]},
    ),
    Scenario(
        "a seat that used its accusation may only pass in the window",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(1,)) + window(5, 3, seats=4)
        + exchange(5, 2, 4, "loud", True)[:2] + ["0: pass", "1: pass", "2: pass"],
        {"ask": ("window", 3), "legal": {"pass"}},
    ),
    Scenario(
        "the spy may accuse too, and vote",
        5, SPY_TURN + [accuse(5, 1, 3)],
        {"ask": ("vote", 2), "accusation": (1, 3)},
    ),
    Scenario(
        "3 players: the accuser counts as yes, so one yes vote convicts",
        3, [ask(3, 0, 2, "loud"), answer(2, True), accuse(3, 0, 1), "2: vote yes"],
        {"ask": "over", "last_vote": (0, 1, [0, 2], []), "rewards": [2, 0, 1]},
    ),
]


@table_test(WINDOW)
def test_window_and_accusations(sc):
    run(sc)


# === Stopping the clock at any moment ============================================
# The rulebook lets the spy stop the clock at any moment while it runs, and each player accuse once per round at
# any time: so both are offered at every decision of that player while the clock runs, asking and answering too.

SPY_ASKED = [ask(5, 0, 1, "loud")]  # the dealer asks the spy (seat 1)
ACCUSED_WHILE_ASKING = [accuse(5, 0, 3)] + vote(5, 0, 3, no=(1,))  # the dealer accuses seat 3 before asking; acquitted

CLOCK = [
    Scenario(
        "the spy may name the location when it is to ask",
        5, [],
        {"ask": ("ask", 1), "legal": asks_of(5, range(1, 5)) | ACCUSE_ANYONE | GUESSES},
        dealer=1,
    ),
    Scenario(
        "a spy asked a question may name the location instead of answering",
        5, SPY_ASKED,
        {"ask": ("answer", 1), "legal": {"answer yes", "answer no"} | ACCUSE_ANYONE | GUESSES},
    ),
    Scenario(
        "the spy who names the location instead of answering ends the round",
        5, SPY_ASKED + ["1: guess Bank"],
        {"ask": "over", "rewards": [0, 4, 0, 0, 0], "winners": [1]},
    ),
    Scenario(
        "an asker may accuse before asking; once acquitted, it asks",
        5, ACCUSED_WHILE_ASKING,
        {"ask": ("ask", 0), "legal": asks_of(5, range(1, 5)), "accusation_used": [0], "clock": (16, False),
         "last_vote": (0, 3, [0, 4, 2], [1])},
    ),
    Scenario(
        "the seat asked may accuse instead of answering; once acquitted, the question still waits for its answer",
        5, ASK_LOUD + [accuse(5, 2, 4)] + vote(5, 2, 4, no=(3,)),
        {"ask": ("answer", 2), "legal": {"answer yes", "answer no"}, "question": (0, 2, "loud"),
         "accusation_used": [2], "clock": (16, False)},
    ),
    Scenario(
        "the accusation used while asking is the seat's one of the round: in its window it may only pass",
        5, ACCUSED_WHILE_ASKING + [ask(5, 0, 2, "loud"), answer(2, True), "3: pass", "4: pass"],
        {"ask": ("window", 0), "legal": {"pass"}},
    ),
    Scenario(
        "an accusation made while asking convicts like any other",
        5, [accuse(5, 0, 1)] + vote(5, 0, 1),
        {"ask": "over", "rewards": [2, 0, 1, 1, 1]},
    ),
    Scenario(
        "no one may stop the clock while it is stopped: a voter may only vote, the spy too",
        5, [accuse(5, 0, 3)],
        {"ask": ("vote", 1), "legal": {"vote yes", "vote no"}},
    ),
]


@table_test(CLOCK)
def test_stopping_the_clock(sc):
    run(sc)


# === Time up ===================================================================

ONE_QUESTION = {"question_limit": 1}
CLOCK_RUN_OUT = exchange(5, 0, 2, "loud", True)  # with question_limit=1

TIME_UP = [
    Scenario(
        "the window after the last answer still runs: the spy may name the place there",
        5, exchange(5, 0, 2, "loud", True)[:2] + window(5, 2, seats=3),
        {"ask": ("window", 1), "allowed": {"guess Bank", "guess Beach"}, "clock": (0, False)},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "once that window closes, time is up: the dealer accuses or passes first",
        5, CLOCK_RUN_OUT,
        {"ask": ("time up", 0), "legal": {"pass"} | ACCUSE_ANYONE, "clock": (0, True)},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "when time is up the spy may not name the location",
        5, CLOCK_RUN_OUT + ["0: pass"],
        {"ask": ("time up", 1), "forbidden": {f"guess {x}" for x in NAMES}},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "when time is up a seat that used its accusation may accuse again",
        5, exchange(5, 0, 2, "loud", True)[:2] + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(4,)) + window(5, 3, seats=4)
        + ["0: pass", "1: pass", "2: pass"],
        {"ask": ("time up", 3), "allowed": {"accuse +1"}, "accusation_used": [3]},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "the record keeps every accusation of the round and each seat's vote, while the clock ran and once time was up",
        5, exchange(5, 0, 2, "loud", True)[:2] + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(4,)) + window(5, 3, seats=4)
        + ["0: pass", "1: pass", "2: pass", accuse(5, 3, 4)] + vote(5, 3, 4, no=(2,)),
        {"ask": ("time up", 4), "accusations": {(False, 3): (0, [3, 1, 2], [4]), (True, 3): (4, [3, 0, 1], [2])},
         "last_vote": (3, 4, [3, 0, 1], [2])},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "a failed vote passes the turn to accuse to the next seat",
        5, CLOCK_RUN_OUT + [accuse(5, 0, 2)] + vote(5, 0, 2, no=(3,)),
        {"ask": ("time up", 1), "last_vote": (0, 2, [0, 1, 4], [3])},
        kwargs=ONE_QUESTION,
    ),
]


@table_test(TIME_UP)
def test_time_up(sc):
    run(sc)


# === Scoring ===================================================================

BANK = {"spy": "player_1", "location": "Bank"}

SCORING = [
    Scenario(
        "the spy is convicted: each non-spy 1, the accuser 2",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 1)] + vote(5, 3, 1),
        {"ask": "over", "rewards": [1, 0, 1, 2, 1], "scores": [1, 0, 1, 2, 1], "winners": [3],
         "infos": {**BANK, "points": {"player_0": 1, "player_1": 0, "player_2": 1, "player_3": 2, "player_4": 1}}},
    ),
    Scenario(
        "a non-spy is convicted: the spy gets 4",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 0)] + vote(5, 3, 0),
        {"ask": "over", "rewards": [0, 4, 0, 0, 0], "winners": [1], "infos": BANK},
    ),
    Scenario(
        "the spy names the location: 4",
        5, SPY_TURN + ["1: guess Bank"],
        {"ask": "over", "rewards": [0, 4, 0, 0, 0], "winners": [1], "infos": BANK},
    ),
    Scenario(
        "the spy names a wrong location: each non-spy 1, and all of them win",
        5, SPY_TURN + ["1: guess Beach"],
        {"ask": "over", "rewards": [1, 0, 1, 1, 1], "winners": [0, 2, 3, 4], "infos": BANK},
    ),
    Scenario(
        "time is up and nobody is convicted: the spy gets 2",
        5, CLOCK_RUN_OUT + window(5, 4),  # the five time-up turns, from the dealer (seat 0), all pass
        {"ask": "over", "rewards": [0, 2, 0, 0, 0], "winners": [1], "infos": BANK},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "time is up and the spy is convicted: the accuser gets 2, the other non-spies 1",
        5, CLOCK_RUN_OUT + ["0: pass", accuse(5, 1, 3)] + vote(5, 1, 3, no=(2,)) + [accuse(5, 2, 1)] + vote(5, 2, 1),
        {"ask": "over", "rewards": [1, 0, 2, 1, 1], "winners": [2]},
        kwargs=ONE_QUESTION,
    ),
    Scenario(
        "time is up and a non-spy is convicted: the spy gets 4",
        5, CLOCK_RUN_OUT + [accuse(5, 0, 4)] + vote(5, 0, 4),
        {"ask": "over", "rewards": [0, 4, 0, 0, 0]},
        kwargs=ONE_QUESTION,
    ),
]


@table_test(SCORING)
def test_scoring(sc):
    run(sc)


# === Rounds ====================================================================

TWO_ROUNDS = {"dealer": 0, "locations": ["Bank", "Beach"], "spies": [1, 3]}
ROUND_ONE = SPY_TURN + ["1: guess Beach"]  # the non-spies win round 1

ROUNDS = [
    Scenario(
        "a round's points are paid when it ends; the spy of that round deals the next",
        5, ROUND_ONE,
        {"rewards": [1, 0, 1, 1, 1], "scores": [1, 0, 1, 1, 1], "ask": ("ask", 1), "dealer": 1, "round": (2, 2),
         "played": ["Bank"], "cards": {3: "Spy"},
         "exchanges": [], "answers": {}, "clock": (16, False), "last_vote": None, "accusations": {},
         "rounds": [(1, "Bank", None, None, [1, 0, 1, 1, 1], "the spy named the wrong location: the non-spies win")]},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
    Scenario(
        "the end of a round is in every seat's record and infos before the next deal: the spy, the location, the "
        "convicted seat and its accuser, the points",
        5, ASKED_AND_ANSWERED + [accuse(5, 3, 1)] + vote(5, 3, 1),
        {"ask": ("ask", 1), "round": (2, 2), "accusations": {},
         "rounds": [(1, "Bank", 1, 3, [1, 0, 1, 2, 1], "the spy was convicted: the non-spies win")]},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
    Scenario(
        "a location of an earlier round is never named again",
        5, ROUND_ONE + exchange(5, 1, 0, "loud", True)[:2] + ["1: pass", "2: pass"],
        {"ask": ("window", 3), "forbidden": {"guess Bank"}, "allowed": {"guess Beach", "guess Casino"},
         "rounds": [(1, "Bank", None, None, [1, 0, 1, 1, 1], "the spy named the wrong location: the non-spies win")]},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
    Scenario(
        "the game ends after the last round: the most points win",
        5, ROUND_ONE + exchange(5, 1, 0, "loud", True)[:2] + ["1: pass", "2: pass", "3: guess Beach"],
        {"ask": "over", "rewards": [0, 0, 0, 4, 0], "scores": [1, 0, 1, 5, 1], "winners": [3],
         "rounds": [(1, "Bank", None, None, [1, 0, 1, 1, 1], "the spy named the wrong location: the non-spies win"),
                    (3, "Beach", None, None, [0, 0, 0, 4, 0], "the spy named the location: the spy wins")],
         "infos": {"spy": "player_3", "location": "Beach",
                   "scores": {f"player_{s}": v for s, v in enumerate([1, 0, 1, 5, 1])}}},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
    Scenario(
        "a tie for the most points: all of them win",
        5, ROUND_ONE + exchange(5, 1, 0, "loud", True)[:2] + ["1: pass", "2: pass", "3: guess Casino"],
        {"ask": "over", "scores": [2, 1, 2, 1, 2], "winners": [0, 2, 4]},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
]


@table_test(ROUNDS)
def test_rounds(sc):
    run(sc)


def test_final_infos_list_every_round():
    env = new_env(5, setup=TWO_ROUNDS, num_rounds=2)
    play(env, ROUND_ONE + exchange(5, 1, 0, "loud", True)[:2] + ["1: pass", "2: pass", "3: guess Beach"])
    rounds = env.infos["player_0"]["rounds"]
    assert [(r["round"], r["dealer"], r["spy"], r["location"]) for r in rounds] == [
        (1, "player_0", "player_1", "Bank"), (2, "player_1", "player_3", "Beach")]
    assert rounds[0]["points"] == {"player_0": 1, "player_1": 0, "player_2": 1, "player_3": 1, "player_4": 1}
    assert rounds[1]["roles"]["player_3"] == "Spy"
    assert env.infos["player_3"]["role"] == "Spy"
    assert env.infos["player_0"]["role"] in DEFAULT_LOCATIONS[NAMES.index("Beach")].roles
    assert [env.infos[a]["score"] for a in env.possible_agents] == [1, 0, 1, 5, 1]


def test_every_steps_infos_list_the_rounds_finished_so_far():
    env = spyfall_v1.env(num_players=4, num_rounds=3, question_limit=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    told = []  # (rounds finished, what every seat's info said) at every step
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        told.append((len(env.unwrapped.engine.finished), [env.infos[name]["rounds"] for name in env.agents]))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rounds = info["rounds"]
    for finished, infos in told:
        assert all(said == rounds[:finished] for said in infos)
    assert {finished for finished, _ in told} == {0, 1, 2, 3}


def test_a_whole_game_of_26_rounds_visits_every_location_once():
    env = spyfall_v1.env(num_players=4, num_rounds=26, question_limit=2)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    dealers_and_spies = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        eng = env.unwrapped.engine
        key = (eng.table.round, eng.table.dealer, eng.spy)
        if not dealers_and_spies or dealers_and_spies[-1] != key:
            dealers_and_spies.append(key)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(r["location"] for r in info["rounds"]) == sorted(NAMES)
    for (_, _, spy), (_, dealer, _) in zip(dealers_and_spies, dealers_and_spies[1:]):
        assert dealer == spy  # the spy of a round deals the next
    assert sum(info["scores"].values()) == sum(sum(r["points"].values()) for r in info["rounds"])


def test_random_play_reaches_every_way_a_round_can_end():
    """Half the games passive (passing 9 times in 10 when they may), to reach time up."""
    results = Counter()
    envs = {rounds: spyfall_v1.env(num_players=5, num_rounds=rounds, question_limit=6) for rounds in (1, 2, 3)}
    for game in range(120):
        env = envs[1 + game % 3]
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        pass_id = env.unwrapped.string_to_action("pass")
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            passive = game % 2 == 1 and mask[pass_id] and rng.random() < 0.9
            env.step(pass_id if passive else int(rng.choice(np.flatnonzero(mask))))
        results.update(r["result"] for r in info["rounds"])
    assert set(results) == set(RESULTS), results


# === Knowledge =================================================================


def spy_posterior(answers: list[tuple[str, bool]], played=()) -> dict[str, float]:
    """The documented model, computed independently: non-spies tell the truth with probability 0.9."""
    weights = {}
    for loc in DEFAULT_LOCATIONS:
        if loc.name in played:
            continue
        w = 1.0
        for attribute, yes in answers:
            w *= (1 - LIE_RATE) if (attribute in loc.attributes) == yes else LIE_RATE
        weights[loc.name] = w
    total = sum(weights.values())
    return {name: w / total for name, w in weights.items()}


def spy_odds(truths: list[bool]) -> float:
    return math.prod(0.5 / (1 - LIE_RATE) if t else 0.5 / LIE_RATE for t in truths)


KNOWLEDGE_ACTIONS = (
    exchange(5, 0, 2, "indoors", False)  # 2 lies (the Bank is indoors)
    + exchange(5, 2, 3, "weapons", True)  # true
    + exchange(5, 3, 1, "on the water", True)  # the spy, false
    + exchange(5, 1, 4, "money changes hands", True)  # true
)
ODDS = {2: spy_odds([False]), 3: spy_odds([True]), 1: spy_odds([False]), 4: spy_odds([True])}


def normalised(odds: dict[int, float], n: int, me: int) -> list[float]:
    weights = [0.0 if s == me else odds.get(s, 1.0) for s in range(n)]  # a seat with no answers: odds 1
    return [w / sum(weights) for w in weights]


KNOWLEDGE = [
    Scenario(
        "at the deal: the spy's belief is uniform over the locations, a non-spy's suspicion over the others, every "
        "false share 0",
        5, [],
        {"location_belief": {1: {x: 1 / 26 for x in NAMES}, 0: {"Bank": 1.0}},
         "spy_belief": {1: [0, 1, 0, 0, 0], 0: [0, 0.25, 0.25, 0.25, 0.25], 3: [0.25, 0.25, 0.25, 0, 0.25]},
         "location_false_share": {0: [], 1: []}},
    ),
    Scenario(
        "the spy weighs the other seats' answers and ignores its own",
        5, KNOWLEDGE_ACTIONS,
        {"location_belief": {1: spy_posterior([("indoors", False), ("weapons", True), ("money changes hands", True)])}},
    ),
    Scenario(
        "a non-spy suspects the seats whose answers are false at its location",
        5, KNOWLEDGE_ACTIONS,
        {"spy_belief": {0: normalised(ODDS, 5, 0), 4: normalised(ODDS, 5, 4)}},
    ),
    Scenario(
        "every seat sees, per location, the share of the others' answers that are false there, its own left out",
        5, KNOWLEDGE_ACTIONS,
        {"location_false_share": {
            0: [("indoors", False), ("weapons", True), ("on the water", True), ("money changes hands", True)],
            1: [("indoors", False), ("weapons", True), ("money changes hands", True)],
            3: [("indoors", False), ("on the water", True), ("money changes hands", True)]}},
    ),
    Scenario(
        "the round's false shares stay once its cards are shown",
        5, KNOWLEDGE_ACTIONS[:-5] + [accuse(5, 0, 1)] + vote(5, 0, 1),
        {"location_false_share": {2: [("weapons", True), ("on the water", True), ("money changes hands", True)]}},
    ),
    Scenario(
        "once the round is over, the spy and the location are known to all",
        5, KNOWLEDGE_ACTIONS[:-5] + [accuse(5, 0, 1)] + vote(5, 0, 1),  # in the window after the last answer
        {"location_belief": {s: {"Bank": 1.0} for s in range(5)}, "spy_belief": {s: [0, 1, 0, 0, 0] for s in range(5)}},
    ),
    Scenario(
        "the spy of a later round leaves out the locations already played",
        5, ROUND_ONE + exchange(5, 1, 0, "indoors", True)[:2],
        {"location_belief": {3: spy_posterior([("indoors", True)], played={"Bank"})}},
        kwargs={"num_rounds": 2}, setup=TWO_ROUNDS,
    ),
]


@table_test(KNOWLEDGE)
def test_knowledge(sc):
    run(sc)


# === Hidden information ========================================================
# (the conformance suite's twins check that the spy never sees the location before the round ends, nor a seat
# another's role; twins differing in who the spy is differ in the spy's legal actions, so they are played here on
# the actions legal in both games)


def twin_games(n: int, setup_a: dict, setup_b: dict, watcher: int, seed: int, num_rounds: int = 1):
    """Play both games with the same actions; yield (obs_a, obs_b, watcher_saw_a_difference).

    Each action is drawn among those legal in both games (a seat that is the
    spy in one game only may name the location in that game only), passing
    often so that rounds run long.
    """
    a, b = (spyfall_v1.env(num_players=n, num_rounds=num_rounds, question_limit=8) for _ in range(2))
    a.reset(seed=seed, options={"setup": setup_a})
    b.reset(seed=seed, options={"setup": setup_b})
    rng = np.random.default_rng(seed)
    agent = f"player_{watcher}"
    pass_id = a.unwrapped.string_to_action("pass")
    diverged = False
    while True:
        seen_a = [e for e in a.unwrapped.last_events if watcher in e.seen_by]
        seen_b = [e for e in b.unwrapped.last_events if watcher in e.seen_by]
        diverged = diverged or seen_a != seen_b
        yield a.observe(agent)["observation"], b.observe(agent)["observation"], diverged
        if a.unwrapped.engine.is_over or b.unwrapped.engine.is_over:
            return
        assert a.agent_selection == b.agent_selection
        both = a.observe(a.agent_selection)["action_mask"] & b.observe(b.agent_selection)["action_mask"]
        action = pass_id if both[pass_id] and rng.random() < 0.7 else int(rng.choice(np.flatnonzero(both)))
        a.step(action)
        b.step(action)


def compare(twins) -> tuple[int, int]:
    """Equal observations until the watcher sees a difference, then different; (steps compared, noticed)."""
    compared = 0
    for obs_a, obs_b, diverged in twins:
        if diverged:
            assert not np.array_equal(obs_a, obs_b), "the seat saw a difference but its view did not change"
            return compared, 1
        assert np.array_equal(obs_a, obs_b), "the observation depends on something the seat has not seen"
        compared += 1
    return compared, 0


def swapped_roles(n: int, location: str, spy_a: int, spy_b: int, seed: int) -> tuple[list, list]:
    """Role lists for spies a and b that give every other seat the same role."""
    dealt = iter(np.random.default_rng(seed).permutation(DEFAULT_LOCATIONS[NAMES.index(location)].roles))
    roles_a = [None if s == spy_a else str(next(dealt)) for s in range(n)]
    roles_b = list(roles_a)
    roles_b[spy_a], roles_b[spy_b] = roles_a[spy_b], None
    return roles_a, roles_b


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_a_non_spys_observation_never_depends_on_who_the_spy_is(n):
    compared = noticed = 0
    for trial in range(25):
        rng = np.random.default_rng(100 + trial)
        watcher, spy_a, spy_b = (int(s) for s in rng.choice(n, 3, replace=False))
        location = NAMES[int(rng.integers(len(NAMES)))]
        roles_a, roles_b = swapped_roles(n, location, spy_a, spy_b, trial)
        base = {"dealer": int(rng.integers(n)), "locations": [location]}
        twins = twin_games(n, {**base, "spies": [spy_a], "roles": [roles_a]},
                           {**base, "spies": [spy_b], "roles": [roles_b]}, watcher, trial, num_rounds=1 + trial % 2)
        c, k = compare(twins)
        compared, noticed = compared + c, noticed + k
    assert compared > 10 * 25
    assert noticed == 25  # every round ends with the cards revealed


@pytest.mark.parametrize("n", [3, 5, 8])
def test_a_seat_sees_its_own_card_at_once(n):
    for watcher in range(n):
        spy = (watcher + 1) % n
        base = {"dealer": 0, "spies": [spy]}
        obs_a, obs_b, diverged = next(
            twin_games(n, {**base, "locations": ["Bank"]}, {**base, "locations": ["Beach"]}, watcher, 0))
        assert diverged and not np.array_equal(obs_a, obs_b)  # its location
        obs_a, obs_b, diverged = next(
            twin_games(n, {"dealer": 0, "spies": [spy]}, {"dealer": 0, "spies": [watcher]}, watcher, 0))
        assert diverged and not np.array_equal(obs_a, obs_b)  # spy or not


@pytest.mark.parametrize("voter_index", [0, 1, 2])
def test_a_vote_is_secret_until_every_vote_is_cast(voter_index):
    """5 players: seat 3 accuses seat 0; voters 4, 1, 2. One voter's vote differs between the games."""
    envs = []
    for yes in (True, False):
        env = new_env(5)
        for name in ("ask +2 about loud", "answer no", "accuse +2"):
            env.step(env.unwrapped.string_to_action(name))
        envs.append((env, yes))
    voters = [4, 1, 2]
    for i in range(len(voters)):
        for env, yes in envs:
            choice = yes if i == voter_index else True
            env.step(env.unwrapped.string_to_action("vote yes" if choice else "vote no"))
        everyone_voted = i == len(voters) - 1
        for seat in range(5):
            same = np.array_equal(*(env.observe(f"player_{seat}")["observation"] for env, _ in envs))
            if everyone_voted:
                assert not same, f"player_{seat} should see the votes once all are cast"
            else:  # only the voter whose vote differs knows it
                assert same == (i < voter_index or seat != voters[voter_index]), f"player_{seat}"


# === Bad input =================================================================

CONSTRUCTOR = [
    ({"num_players": 2}, ["num_players", "3", "8"]),
    ({"num_players": 9}, ["num_players", "3", "8"]),
    ({"num_players": 5.0}, ["num_players"]),
    ({"num_rounds": 0}, ["num_rounds", "1 to 26"]),
    ({"num_rounds": 27}, ["num_rounds", "1 to 26"]),
    ({"num_rounds": "5"}, ["num_rounds"]),
    ({"num_rounds": True}, ["num_rounds"]),
    ({"question_limit": 0}, ["question_limit", "positive"]),
    ({"question_limit": 2.5}, ["question_limit", "positive"]),
    ({"reward": "win"}, ["reward", "'points'"]),
    ({"illegal": "x"}, ["illegal", "'raise'", "'penalize'"]),
    ({"max_turns": 0}, ["max_turns", "positive"]),
    ({"render_mode": "rgb_array"}, ["render_mode", "'ansi'"]),
    ({"attributes": []}, ["attributes", "at least one"]),
    ({"attributes": "indoors"}, ["attributes", "single string"]),
    ({"attributes": ["indoors", "indoors"]}, ["attributes", "distinct", "indoors"]),
    ({"attributes": ["indoors", ""]}, ["attributes", "non-empty"]),
    ({"locations": "Bank"}, ["locations", "sequence"]),
    ({"locations": [("Bank",)]}, ["Location(name, roles, attributes)"]),
    ({"locations": [("Bank", ["A", "B", "C", "D"], ["indoors"])]}, ["at least 2"]),
    ({"locations": [("", ["A", "B", "C", "D"], ["indoors"]), ("X", ["A", "B", "C", "D"], [])]}, ["location name"]),
    ({"locations": [("Bank", ["A", "B", "C"], ["indoors"]), ("X", ["A", "B", "C", "D"], [])]},
     ["'Bank'", "3 roles", "at least 4"]),
    ({"locations": [("Bank", ["A", "A", "B", "C"], ["indoors"]), ("X", ["A", "B", "C", "D"], [])]},
     ["roles of 'Bank'", "distinct"]),
    ({"locations": [("Bank", ["A", "B", "C", "D"], ["indoors", "haunted"]), ("X", ["A", "B", "C", "D"], [])]},
     ["'Bank'", "haunted", "attributes=..."]),
    ({"locations": [("Bank", ["A", "B", "C", "D"], ["indoors", "loud"]), ("X", ["A", "B", "C", "D"], ["loud"])]},
     ["'Bank'", "'X'", "differ in 1", "at least 2"]),
    ({"locations": [("Bank", ["A", "B", "C", "D"], ["indoors", "loud"]), ("Bank", ["A", "B", "C", "D"], [])]},
     ["names must be distinct", "Bank"]),
]


@pytest.mark.parametrize("kwargs,fragments", CONSTRUCTOR, ids=[str(k) for k, _ in CONSTRUCTOR])
def test_bad_constructor_arguments(kwargs, fragments):
    with pytest.raises(ValueError) as error:
        spyfall_v1.env(**{"num_players": 5, **kwargs})
    for fragment in fragments:
        assert fragment in str(error.value), (fragment, str(error.value))


def test_user_locations_and_attributes_make_a_game():
    from hidden_role_envs.games.spyfall import Location

    places = [
        Location("Moon Base", ("Pilot", "Miner", "Cook"), frozenset({"cold", "far away"})),
        Location("Lighthouse", ("Keeper", "Sailor", "Painter"), frozenset({"by the sea", "far away"})),
        Location("Bakery", ("Baker", "Customer", "Cashier"), frozenset({"warm", "by the sea"})),
    ]
    env = spyfall_v1.env(num_players=4, locations=places, attributes=["cold", "warm", "far away", "by the sea"],
                         num_rounds=3)
    assert env.action_space("player_0").n == 3 * 4 + 2 + 1 + 3 + 3 + 2
    assert env.unwrapped.string_to_action("guess Lighthouse") == 3 * 4 + 2 + 1 + 3 + 1
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(r["location"] for r in info["rounds"]) == ["Bakery", "Lighthouse", "Moon Base"]


def snapshot(env) -> tuple:
    eng = env.unwrapped.engine
    t = eng.table
    observations = {}
    for agent in env.possible_agents:
        o = env.observe(agent)
        observations[agent] = (o["observation"].tobytes(), o["action_mask"].tobytes())
    return (
        observations, eng.spy, eng.location, list(eng.roles), dict(eng.ballots), eng.window_turns, eng.final_turns,
        (t.round, t.dealer, list(t.played), list(t.scores), t.questions, t.time_up, t.asker, t.target, t.attribute,
         t.cannot_ask, t.window_of, list(t.accusation_used), t.accuser, t.accused, t.voters, t.votes_cast,
         t.decision, t.to_act, t.decisions),
        env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations),
        dict(env.truncations), eng.is_over,
    )


@dataclass(frozen=True)
class Raw:
    """A raw value passed to step() as it is (not an action name)."""

    value: Any


AFTER_FAILED_ACCUSATION = ASKED_AND_ANSWERED + [accuse(5, 3, 0)] + vote(5, 3, 0, no=(1,)) + window(5, 3, seats=4)
NEXT_WINDOW_AT_3 = AFTER_FAILED_ACCUSATION + [ask(5, 2, 4, "loud"), answer(4, True), "0: pass", "1: pass", "2: pass"]

# (name, constructor kwargs, actions before, the bad action (a name, or Raw(value)), message fragments)
ILLEGAL = [
    ("an answer when a question is due", {}, [], "answer yes", ["player_0", "'answer yes'", "ask a question"]),
    ("asking back the player who just asked", {}, ASKED_AND_ANSWERED + window(5, 2), "ask +3 about loud",
     ["player_2", "'ask +3 about loud'", "player_0 just asked you"]),
    ("a question when an answer is due", {}, ASK_LOUD, "ask +1 about loud", ["player_2", "answer the question"]),
    ("a second accusation while the clock runs", {}, NEXT_WINDOW_AT_3, "accuse +1",
     ["player_3", "'accuse +1'", "already used your accusation"]),
    ("a non-spy naming the location", {}, ASKED_AND_ANSWERED, "guess Bank",
     ["player_3", "'guess Bank'", "only the spy"]),
    ("a non-spy naming the location instead of answering", {}, ASK_LOUD, "guess Bank",
     ["player_2", "'guess Bank'", "only the spy"]),
    ("a second accusation by an asker who accused already", {}, ACCUSED_WHILE_ASKING, "accuse +1",
     ["player_0", "'accuse +1'", "already used your accusation"]),
    ("the spy naming the location when time is up", ONE_QUESTION, CLOCK_RUN_OUT + ["0: pass"], "guess Bank",
     ["player_1", "'guess Bank'", "time is up"]),
    ("a vote when none is asked", {}, ASKED_AND_ANSWERED, "vote yes", ["player_3", "'vote yes'", "pass, accuse"]),
    ("passing a vote", {}, ASKED_AND_ANSWERED + [accuse(5, 3, 0)], "pass", ["player_4", "'pass'", "vote on"]),
    ("an id out of range (negative)", {}, [], Raw(-1), ["player_0", "-1", "out of range"]),
    ("an id out of range (too large)", {}, [], Raw(127), ["player_0", "127", "out of range"]),
    ("a string", {}, [], Raw("pass"), ["player_0", "'pass'", "integer"]),
    ("a float", {}, [], Raw(1.0), ["player_0", "1.0", "integer"]),
    ("None", {}, [], Raw(None), ["player_0", "None", "integer"]),
]


@pytest.mark.parametrize("name,kwargs,before,bad,fragments", ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_illegal_actions_raise_and_change_nothing(name, kwargs, before, bad, fragments):
    env = new_env(5, **kwargs)
    play(env, before)
    state = snapshot(env)
    action = bad.value if isinstance(bad, Raw) else env.unwrapped.string_to_action(bad)
    with pytest.raises(ValueError) as error:
        env.step(action)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert snapshot(env) == state
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(int(legal[0]))  # the game goes on from where it was
    assert snapshot(env) != state


def test_a_location_of_an_earlier_round_cannot_be_named():
    env = new_env(5, setup=TWO_ROUNDS, num_rounds=2)
    play(env, ROUND_ONE + exchange(5, 1, 0, "loud", True)[:2] + ["1: pass", "2: pass"])
    state = snapshot(env)
    with pytest.raises(ValueError, match="Bank was the location of an earlier round"):
        env.step(env.unwrapped.string_to_action("guess Bank"))
    assert snapshot(env) == state


def test_penalize_gives_the_mover_minus_one_and_ends_the_episode():
    env = new_env(5, illegal="penalize")
    env.step(env.unwrapped.string_to_action("answer yes"))
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0, "player_3": 0.0, "player_4": 0.0}
    assert all(env.terminations.values())


AT_BANK = {"locations": ["Bank"], "spies": [1]}
# (name, setup, the error, fragment of the message), for a game of 2 rounds
BAD_SETUP = [
    ("an unknown setup key", {"hands": []}, ValueError, "hands"),
    ("a dealer out of range", {"dealer": 5}, ValueError, "dealer"),
    ("an unknown location", {"locations": ["Moon"]}, ValueError, "locations"),
    ("a repeated location", {"locations": ["Bank", "Bank"]}, ValueError, "distinct"),
    ("more locations than rounds", {"locations": ["Bank", "Beach", "Casino"]}, ValueError,
     "locations must have at most 2"),
    ("a spy out of range", {"spies": [5]}, ValueError, "spies"),
    ("spies as a number", {"spies": 2}, TypeError, "spies must be a list"),
    ("roles without the location", {"spies": [1], "roles": [["Teller", None, "Robber", "Manager", "Customer"]]},
     ValueError, "location and spy"),
    ("roles of the wrong length", {**AT_BANK, "roles": [["Teller", None]]}, ValueError, "a role per seat"),
    ("a role for the spy", {**AT_BANK, "roles": [["Teller", "Robber", "Manager", "Customer", "Consultant"]]},
     ValueError, "None"),
    ("a role of another location", {**AT_BANK, "roles": [["Clown", None, "Robber", "Manager", "Customer"]]},
     ValueError, "a role of Bank"),
    ("a role dealt twice", {**AT_BANK, "roles": [["Teller", None, "Teller", "Manager", "Customer"]]}, ValueError,
     "distinct"),
    ("a dealer as a string", {"dealer": "0"}, ValueError, "setup dealer"),
    ("a dealer as True", {"dealer": True}, ValueError, "setup dealer"),
    ("locations as a string", {"locations": "Bank"}, TypeError, "setup locations must be a list"),
    ("locations as a dict", {"locations": {"Bank": 0}}, TypeError, "setup locations must be a list"),
    ("a location as a list", {"locations": [["Bank"]]}, ValueError, "setup locations"),
    ("spies as a dict", {"spies": {0: 1}}, TypeError, "setup spies must be a list"),
    ("a spy as True", {"spies": [True]}, ValueError, "setup spies"),
    ("more spies than rounds", {"spies": [1, 2, 3]}, ValueError, "spies must have at most 2"),
    ("roles as a dict", {**AT_BANK, "roles": {"player_0": "Teller"}}, TypeError, "setup roles must be a list"),
    ("a round's roles as a string", {**AT_BANK, "roles": ["Teller"]}, TypeError,
     "setup roles of round 1 must be a list"),
    ("a round's roles as a dict", {**AT_BANK, "roles": [{0: "Teller"}]}, TypeError,
     "setup roles of round 1 must be a list"),
    ("a role as a number", {**AT_BANK, "roles": [["Teller", None, "Robber", "Manager", 3]]}, ValueError,
     "setup roles of round 1"),
    ("more roles than rounds", {**AT_BANK, "roles": [["Teller", None, "Robber", "Manager", "Customer"]] * 3},
     ValueError, "roles must have at most 2"),
]


@pytest.mark.parametrize("name,setup,error,fragment", BAD_SETUP, ids=[row[0] for row in BAD_SETUP])
def test_bad_setup_raises(name, setup, error, fragment):
    env = spyfall_v1.env(num_players=5, num_rounds=2)
    with pytest.raises(error) as raised:
        env.reset(seed=0, options={"setup": setup})
    assert fragment in str(raised.value)


def test_a_refused_setup_changes_nothing_and_draws_nothing():
    env, twin = spyfall_v1.env(num_players=5, num_rounds=2), spyfall_v1.env(num_players=5, num_rounds=2)
    for each in (env, twin):
        each.reset(seed=3)
        play(each, [f"{each.unwrapped.engine.table.dealer}: ask +1 about loud"])
    state = pickle.dumps(env.unwrapped.engine)
    for _, setup, error, _ in BAD_SETUP:
        with pytest.raises(error):
            env.reset(options={"setup": setup})
        assert pickle.dumps(env.unwrapped.engine) == state
    env.reset()  # the next unseeded deal is the one it would have been
    twin.reset()
    assert pickle.dumps(env.unwrapped.engine) == pickle.dumps(twin.unwrapped.engine)


FULL_SETUP = {
    "dealer": 2, "locations": ["Bank", "Beach", "Casino"], "spies": [1, 3, 0],
    "roles": [["Teller", None, "Robber", "Manager"], ["Thief", "Lifeguard", "Kite Surfer", None],
              [None, "Dealer", "Gambler", "Bouncer"]],
}


def test_a_setup_can_fix_every_draw_of_a_game():
    """Dealer, and per round the location, the spy and the roles: a game with all of them fixed draws nothing."""
    traces = []
    for seed in (0, 1):
        env = spyfall_v1.env(num_players=4, num_rounds=3, question_limit=3)
        env.reset(seed=seed, options={"setup": FULL_SETUP})
        drawn = env.unwrapped.engine.rng.bit_generator.state
        traces.append(play_trace(env, uniform_choice(np.random.default_rng(7))))
        assert env.unwrapped.engine.rng.bit_generator.state == drawn, "the game drew from the generator"
        assert env.unwrapped.engine.table.round == 2
    assert traces[0] == traces[1]

