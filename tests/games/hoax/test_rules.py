"""Hoax rule scenarios: one per rule of the rulebook and its rulings, per privilege option and per immunity.

A scenario is data: a fixed deal (one character per seat), the first
player, the actions in order by name, and what must hold afterwards. Each
action may be prefixed with the seat expected to play it ("2: no hoax");
the runner checks that this seat is the one asked. `holding({...})` sets
seats' resources (moving the difference from or to the supply, so the 27
tokens are conserved) to reach a position without replaying many turns.
Helpers spell out the usual sequences: `opening(...)` the opening picks,
`no_calls(...)` every "no hoax" after a claim, `vote(...)` a whole vote.

Seats in action names are relative to the actor (`+1` = the left
neighbour); in expectations seats are absolute. Expectations are checked
against the rules engine and against every seat's observation.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from hidden_role_envs import hoax_v1
from hidden_role_envs.core.history import EventEncoding
from hidden_role_envs.games.hoax import events as ev
from hidden_role_envs.games.hoax.actions import ACCUSE, VOTE
from hidden_role_envs.games.hoax.cards import SUPPLY
from hidden_role_envs.games.hoax.bots import HoaxScriptedPlayer
from hidden_role_envs.games.hoax.config import configure
from hidden_role_envs.games.hoax.rules import HoaxGame
from tests.games.hoax import facts
from tests.support import check_allowed, check_forbidden, check_legal, one_hot, play_trace, uniform_choice
from tests.support import relative as rel

BUT, SIL, EXW, LOV, COU, CHEF, GAR = "Butler", "Son-in-Law", "Ex-Wife", "Lover", "Distant Cousin", "Chef", "Gardener"
CHARACTERS = (BUT, SIL, EXW, LOV, COU, CHEF, GAR)  # the order of the character blocks
RESOURCES = ("Cash", "Evidence", "Prestige")
DECISIONS = ("pick", "turn", "hoax", "vote", "immunity")
BLOCK_SHAPES = {"resources": (-1, 3), "impostor": (-1, 7), "votes": (-1, 2), "knowledge": (-1, 7)}


# --- building scenarios ------------------------------------------------------


def opening(n: int, first: int = 0, picks: str = "CEP") -> list[str]:
    """The opening picks in turn order from `first`; `picks` gives each picker's type by initial, cycling."""
    names = {"C": "Cash", "E": "Evidence", "P": "Prestige"}
    return [f"{(first + k) % n}: pick {names[picks[k % len(picks)]]}" for k in range(n)]


def live_after(seat: int, n: int, out=()) -> list[int]:
    return [(seat + k) % n for k in range(1, n) if (seat + k) % n not in out]


def no_calls(claimant: int, n: int, holder: int | None = None, out=()) -> list[str]:
    """Every other player still in, from the claimant's left, lets the claim pass (the Hoax holder is not asked)."""
    return [f"{s}: no hoax" for s in live_after(claimant, n, out) if s != holder]


def vote(claimant: int, n: int, caller: int, down: set[int], holder: int | None = None, out=()) -> list[str]:
    """Players before `caller` let it pass, `caller` calls, then everyone but the claimant votes (down or up)."""
    steps = []
    for s in live_after(claimant, n, out):
        if s == caller:
            break
        if s != holder:
            steps.append(f"{s}: no hoax")
    steps.append(f"{caller}: call hoax")
    steps += [f"{s}: thumbs {'down' if s in down else 'up'}" for s in live_after(claimant, n, out)]
    return steps


def holding(resources: dict[int, tuple[int, int, int]]) -> Callable:
    """A step that sets seats' (Cash, Evidence, Prestige), taking from or returning to the supply.

    Every seat sees the tokens move, as it would see a privilege move them.
    """

    def apply(env):
        engine = env.unwrapped.engine
        table = engine.table
        moves = []
        for seat, held in resources.items():
            for r, (before, after) in enumerate(zip(table.resources[seat], held)):
                table.supply[r] += before - after
                if after != before:
                    giver, taker = (SUPPLY, seat) if after > before else (seat, SUPPLY)
                    moves.append(ev.Moved(engine.everyone, giver, taker, r, abs(after - before)))
            table.resources[seat] = list(held)
        assert min(table.supply) >= 0, "holding() asked for more than the supply has"
        engine._ask(table.decision, table.to_act)  # the mask follows the new holdings
        env.unwrapped.observer.update(moves)

    return apply


@dataclass
class Scenario:
    name: str
    players: int
    characters: list[str]
    actions: list[Any]
    expect: dict[str, Any]
    first: int = 0
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


def new_env(players: int, characters, first: int = 0, **kwargs):
    env = hoax_v1.env(num_players=players, **kwargs)
    env.reset(seed=0, options={"setup": {"characters": list(characters), "first_player": first}})
    return env


def play(env, actions, record: dict | None = None) -> None:
    """Play the steps; agents whose episode ended take their None step, and `record` keeps what they were handed."""
    record = {} if record is None else record
    for step in actions:
        if callable(step):
            step(env)
            continue
        seat, _, name = step.rpartition(": ")
        if seat:
            assert env.agent_selection == f"player_{seat}", (
                f"{step!r}: expected player_{seat} to act, but {env.agent_selection} is asked"
            )
        env.step(env.unwrapped.string_to_action(name))
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            _, reward, _, _, info = env.last()
            record[env.agent_selection] = (reward, info)
            env.step(None)


def run(sc: Scenario):
    env = new_env(sc.players, sc.characters, sc.first, **sc.kwargs)
    record: dict = {}
    play(env, sc.actions, record)
    check(env, sc.expect, record)
    return env, record


# --- reading the env ---------------------------------------------------------


def block(env, seat: int, name: str) -> np.ndarray:
    obs = env.unwrapped.observe(f"player_{seat}")["observation"]
    values = obs[env.unwrapped.observation_fields[name]]
    return values.reshape(BLOCK_SHAPES[name]) if name in BLOCK_SHAPES else values


# --- expectations ------------------------------------------------------------


def check_resources(env, value):
    """{seat: (Cash, Evidence, Prestige)} for the seats listed, in the engine and in every observation."""
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    for seat, held in value.items():
        assert tuple(table.resources[seat]) == tuple(held), f"resources of player_{seat}"
        for observer in range(n):
            assert tuple(block(env, observer, "resources")[rel(seat, observer, n)]) == tuple(held)


def check_supply(env, value):
    table = env.unwrapped.engine.table
    assert tuple(table.supply) == tuple(value)
    for observer in range(env.unwrapped.num_players):
        assert tuple(block(env, observer, "supply")) == tuple(value)


def check_impostor(env, value):
    """{seat: [characters]}: impostor tokens; seats not listed have none."""
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    for seat in range(n):
        expected = one_hot(7, None)
        for name in value.get(seat, []):
            expected[CHARACTERS.index(name)] = 1
        assert np.array_equal(table.impostor[seat], expected.astype(bool)), f"impostor tokens of player_{seat}"
        for observer in range(n):
            assert np.array_equal(block(env, observer, "impostor")[rel(seat, observer, n)], expected)


def check_out(env, value):
    """The seats eliminated, in the engine, in every observation, and in the AEC dicts."""
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    assert [s for s in range(n) if table.eliminated[s]] == sorted(value)
    for observer in range(n):
        expected = np.array([float((observer + k) % n in value) for k in range(n)], dtype=np.float32)
        assert np.array_equal(block(env, observer, "eliminated"), expected)
    for seat in value:
        assert f"player_{seat}" not in env.agents, f"player_{seat} should have left the game"


def check_holder(env, value):
    """The Hoax card's holder (None: the centre)."""
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.hoax_holder == (-1 if value is None else value)
    for observer in range(n):
        index = n if value is None else rel(value, observer, n)
        assert np.array_equal(block(env, observer, "hoax_holder"), one_hot(n + 1, index))


def check_ask(env, value):
    """("turn", 2): that decision is asked of seat 2, and only that seat has legal actions. "over": ended."""
    n = env.unwrapped.num_players
    eng = env.unwrapped.engine
    if value == "over":
        assert eng.is_over
        assert not env.agents
        for observer in range(n):
            assert not block(env, observer, "decision").any()
            assert not block(env, observer, "to_act").any()
        return
    kind, seat = value
    assert not eng.is_over, "the game should not be over"
    assert env.agent_selection == f"player_{seat}", f"expected player_{seat} to be asked, not {env.agent_selection}"
    for observer in range(n):
        assert np.array_equal(block(env, observer, "decision"), one_hot(5, DECISIONS.index(kind)))
        assert np.array_equal(block(env, observer, "to_act"), one_hot(n, rel(seat, observer, n)))
        assert env.unwrapped.observe(f"player_{observer}")["action_mask"].any() == (observer == seat)


def check_active(env, value):
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.active == value
    for observer in range(n):
        assert np.array_equal(block(env, observer, "active_player"), one_hot(n, rel(value, observer, n)))


def check_progress(env, value):
    """(claim made, accusation made) this turn."""
    assert (env.unwrapped.engine.table.claimed, env.unwrapped.engine.table.accused) == tuple(value)
    for observer in range(env.unwrapped.num_players):
        assert tuple(block(env, observer, "turn_progress")) == tuple(float(v) for v in value)


def check_claim(env, value):
    """(claimant, character, option index, type or None, named player or None), or None: no claim in progress."""
    n = env.unwrapped.num_players
    claim = env.unwrapped.engine.table.claim
    if value is None:
        assert claim is None
        for observer in range(n):
            for name in ("claimant", "claim_character", "claim_option", "claim_type", "claim_player"):
                assert not block(env, observer, name).any(), name
        return
    claimant, character, option, resource, player = value
    for observer in range(n):
        assert np.array_equal(block(env, observer, "claimant"), one_hot(n, rel(claimant, observer, n)))
        assert np.array_equal(block(env, observer, "claim_character"), one_hot(7, CHARACTERS.index(character)))
        assert block(env, observer, "claim_option").argmax() == option
        expected_type = None if resource is None else RESOURCES.index(resource)
        assert np.array_equal(block(env, observer, "claim_type"), one_hot(3, expected_type))
        expected_player = None if player is None else rel(player, observer, n)
        assert np.array_equal(block(env, observer, "claim_player"), one_hot(n, expected_player))


def check_immunity(env, value):
    """(claimant, character) of the immunity claim in progress, or None."""
    n = env.unwrapped.num_players
    for observer in range(n):
        if value is None:
            assert not block(env, observer, "immunity_claimant").any()
            assert not block(env, observer, "immunity_character").any()
        else:
            seat, character = value
            assert np.array_equal(block(env, observer, "immunity_claimant"), one_hot(n, rel(seat, observer, n)))
            assert np.array_equal(block(env, observer, "immunity_character"), one_hot(7, CHARACTERS.index(character)))


def check_votes(env, value):
    """{seat: "up" | "down"}: the last revealed vote, as every seat sees it; seats not listed show none."""
    n = env.unwrapped.num_players
    for observer in range(n):
        expected = np.zeros((n, 2), dtype=np.float32)
        for seat, v in value.items():
            expected[rel(seat, observer, n), 0 if v == "up" else 1] = 1
        assert np.array_equal(block(env, observer, "votes"), expected), f"votes seen by player_{observer}"


def check_knowledge(env, value):
    """{(observer, seat): character name (certain) or {name: probability}} (unnamed characters: 0)."""
    n = env.unwrapped.num_players
    for (observer, seat), expected in value.items():
        if isinstance(expected, str):
            expected = {expected: 1.0}
        row = np.array([expected.get(c, 0.0) for c in CHARACTERS])
        got = block(env, observer, "knowledge")[rel(seat, observer, n)]
        np.testing.assert_allclose(got, row, atol=1e-6, err_msg=f"player_{observer} about player_{seat}")


def check_turns(env, value):
    assert env.unwrapped.engine.turns_played == value


def check_winner(env, value, record):
    """The winner, in the engine and in the final infos of every agent still playing at the end."""
    assert env.unwrapped.engine.table.winner == value
    _, info = record[f"player_{value}"]
    assert info["winner"] == f"player_{value}" and info["won"] is True
    for agent, (_, info) in record.items():
        if "result" in info and agent != f"player_{value}":
            assert info["winner"] == f"player_{value}" and info["won"] is False


def check_rewards(env, value, record):
    """{seat: reward}: what each agent was handed when its episode ended (0: it is still playing)."""
    for seat, expected in value.items():
        assert record.get(f"player_{seat}", (0.0, None))[0] == expected, f"reward of player_{seat}"


def check_conserved(env, value):
    """The 27 resource tokens are all somewhere: with a player or in the supply."""
    table = env.unwrapped.engine.table
    assert (np.sum(table.resources, axis=0) + table.supply).tolist() == [9, 9, 9]


CHECKS = {
    "resources": check_resources,
    "supply": check_supply,
    "impostor": check_impostor,
    "out": check_out,
    "holder": check_holder,
    "ask": check_ask,
    "legal": check_legal,
    "allowed": check_allowed,
    "forbidden": check_forbidden,
    "active": check_active,
    "progress": check_progress,
    "claim": check_claim,
    "immunity": check_immunity,
    "votes": check_votes,
    "knowledge": check_knowledge,
    "turns": check_turns,
}
ENDING_CHECKS = {"winner": check_winner, "rewards": check_rewards}  # these read what the agents were handed


def check(env, expect: dict, record: dict | None = None) -> None:
    for key, value in expect.items():
        if key in ENDING_CHECKS:
            ENDING_CHECKS[key](env, value, record)
        else:
            CHECKS[key](env, value)
    check_conserved(env, None)


# --- setup -------------------------------------------------------------------

FOUR = [BUT, SIL, LOV, CHEF]  # seats 0..3

SETUP = [
    Scenario(
        "the supply starts with 9 of each type; the first player picks first",
        4, FOUR, [], {"supply": (9, 9, 9), "ask": ("pick", 2), "active": 2, "turns": 0,
                      "legal": {"pick Cash", "pick Evidence", "pick Prestige"}}, first=2,
    ),
    Scenario(
        "each player picks one resource of their choice, in turn order from the first player",
        4, FOUR, opening(4, first=2, picks="CEPP"),
        {"resources": {2: (1, 0, 0), 3: (0, 1, 0), 0: (0, 0, 1), 1: (0, 0, 1)}, "supply": (8, 8, 7),
         "ask": ("turn", 2), "active": 2, "turns": 0, "progress": (False, False)}, first=2,
    ),
    Scenario(
        "every seat sees its own character and only that",
        3, [GAR, BUT, COU], [],
        {"knowledge": {(0, 0): GAR, (1, 1): BUT, (2, 2): COU,
                       (0, 1): {c: 1 / 6 for c in CHARACTERS if c != GAR},
                       (1, 2): {c: 1 / 6 for c in CHARACTERS if c != BUT}}},
    ),
]


@pytest.mark.parametrize("sc", SETUP, ids=str)
def test_setup(sc):
    env, _ = run(sc)
    for seat, character in enumerate(sc.characters):
        assert np.array_equal(block(env, seat, "character"), one_hot(7, CHARACTERS.index(character)))


def test_characters_are_dealt_one_per_player_and_the_rest_unused():
    env = hoax_v1.env(num_players=4)
    deals = set()
    for seed in range(30):
        env.reset(seed=seed)
        characters = env.unwrapped.engine.characters
        assert len(set(characters)) == 4
        deals.add(tuple(characters))
    assert len(deals) == 30


# --- the turn ------------------------------------------------------------------

START = opening(4)  # seat 0 first: 0 Cash, 1 Evidence, 2 Prestige, 3 Cash
ALL_ACCUSATIONS = {f"accuse +{k} as {c}" for k in (1, 2, 3) for c in CHARACTERS}

TURN = [
    Scenario(
        "a turn starts with the claim to make: end turn is not legal before it",
        4, FOUR, START,
        {"ask": ("turn", 0), "allowed": {"claim Butler +1", "claim Chef Prestige +3", "accuse +2 as Lover"},
         "forbidden": {"end turn", "investigate +1"}},
    ),
    Scenario(
        "a claim can be of any character; after it no other claim, and the turn may end",
        4, FOUR, START + ["0: claim Lover Prestige"] + no_calls(0, 4),
        {"ask": ("turn", 0), "resources": {0: (1, 0, 1)}, "progress": (True, False), "claim": None,
         "legal": {"end turn"} | ALL_ACCUSATIONS},
    ),
    Scenario(
        "end turn passes to the left",
        4, FOUR, START + ["0: claim Lover Prestige"] + no_calls(0, 4) + ["0: end turn"],
        {"ask": ("turn", 1), "active": 1, "turns": 1, "progress": (False, False)},
    ),
    Scenario(
        "an investigation costs one of each type and may come before the claim",
        4, FOUR, START + [holding({0: (1, 1, 1)})],
        {"allowed": {"investigate +1", "investigate +2", "investigate +3"}},
    ),
    Scenario(
        "investigations repeat while the player can pay, on the same target too",
        4, FOUR, START + [holding({0: (2, 2, 2)}), "0: investigate +2", "0: investigate +2"],
        {"resources": {0: (0, 0, 0)}, "supply": (8, 8, 8), "ask": ("turn", 0),
         "forbidden": {"investigate +1", "investigate +2", "investigate +3"}},
    ),
    Scenario(
        "without one of each type there is no investigation",
        4, FOUR, START + [holding({0: (3, 0, 3)})],
        {"forbidden": {"investigate +1", "investigate +2", "investigate +3"}},
    ),
    Scenario(
        "an accusation may come before the claim, and only one per turn",
        4, FOUR, START + ["0: accuse +3 as Chef"],
        {"ask": ("turn", 0), "out": [3], "progress": (False, True),
         "forbidden": ALL_ACCUSATIONS | {"end turn"}, "allowed": {"claim Butler +1"}},
    ),
]


@pytest.mark.parametrize("sc", TURN, ids=str)
def test_turn(sc):
    run(sc)


# --- privileges ----------------------------------------------------------------

# Five players, nobody immune to anything asked below unless the scenario says so:
# seat 0 claims; seats 1-4 hold 1 Cash, 1 Evidence, 1 Prestige each.
FIVE = [BUT, SIL, EXW, COU, LOV]
RICH = holding({0: (0, 0, 0), 1: (1, 1, 1), 2: (1, 1, 1), 3: (1, 1, 1), 4: (1, 1, 1)})
FIVE_START = opening(5) + [RICH]


def privilege(claim: str, *answers: str) -> list[str]:
    """Seat 0 claims; nobody calls Hoax; `answers` (immunity answers) follow."""
    return FIVE_START + [f"0: {claim}"] + no_calls(0, 5) + list(answers)


PRIVILEGES = [
    Scenario(
        "Butler: take 1 Cash; the named player takes 1 Prestige",
        5, FIVE, privilege("claim Butler +2"),
        {"resources": {0: (1, 0, 0), 2: (1, 1, 2)}, "supply": (9 - 4 - 1, 9 - 4, 9 - 4 - 1), "ask": ("turn", 0)},
    ),
    Scenario(
        "Butler: the named player is chosen among the players still in",
        5, FIVE, FIVE_START + ["0: accuse +2 as Ex-Wife"],
        {"out": [2], "forbidden": {"claim Butler +2"}, "allowed": {"claim Butler +1", "claim Butler +3"}},
    ),
    Scenario(
        "Son-in-Law: name a type, take one from every other player",
        5, [SIL, BUT, EXW, COU, CHEF],
        privilege("claim Son-in-Law Evidence", "1: no immunity", "2: no immunity", "3: no immunity", "4: no immunity"),
        {"resources": {0: (0, 4, 0), 1: (1, 0, 1), 2: (1, 0, 1), 3: (1, 0, 1), 4: (1, 0, 1)}, "ask": ("turn", 0)},
    ),
    Scenario(
        "Son-in-Law: players give only what they have",
        5, [SIL, BUT, EXW, COU, CHEF], FIVE_START + [holding({2: (0, 1, 1), 4: (0, 1, 1)}),
                                                     "0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: no immunity", "3: no immunity"],
        {"resources": {0: (2, 0, 0), 1: (0, 1, 1), 2: (0, 1, 1), 3: (0, 1, 1), 4: (0, 1, 1)}},
    ),
    Scenario(
        "Ex-Wife: take 1 Cash",
        5, FIVE, privilege("claim Ex-Wife Cash"), {"resources": {0: (1, 0, 0)}, "supply": (9 - 4 - 1, 5, 5)},
    ),
    Scenario(
        "Ex-Wife: take 1 Evidence",
        5, FIVE, privilege("claim Ex-Wife Evidence"), {"resources": {0: (0, 1, 0)}, "supply": (5, 9 - 4 - 1, 5)},
    ),
    Scenario(
        "Ex-Wife: name a type, take one from each neighbour",
        5, [EXW, BUT, SIL, COU, LOV],
        privilege("claim Ex-Wife neighbours Prestige", "1: no immunity", "4: no immunity"),
        {"resources": {0: (0, 0, 2), 1: (1, 1, 0), 2: (1, 1, 1), 3: (1, 1, 1), 4: (1, 1, 0)}},
    ),
    Scenario(
        "Ex-Wife: an eliminated neighbour is skipped for the next player still in",
        5, [EXW, BUT, SIL, COU, LOV],
        FIVE_START + ["0: accuse +1 as Butler", "0: claim Ex-Wife neighbours Cash"] + no_calls(0, 5, out={1})
        + ["2: no immunity", "4: no immunity"],
        {"out": [1], "resources": {0: (2 + 1, 1, 1), 2: (0, 1, 1), 3: (1, 1, 1), 4: (0, 1, 1)}},
    ),
    Scenario(
        "Ex-Wife: with two players left the other player gives once (RULING)",
        3, [EXW, BUT, SIL],
        opening(3) + [holding({0: (0, 0, 0), 1: (2, 2, 2), 2: (2, 2, 2)}), "0: accuse +1 as Butler",
                      "0: claim Ex-Wife neighbours Cash", "2: no hoax", "2: no immunity"],
        {"out": [1], "resources": {0: (2 + 1, 2, 2), 2: (1, 2, 2)}},
    ),
    Scenario(
        "Lover: take 1 Evidence", 5, FIVE, privilege("claim Lover Evidence"), {"resources": {0: (0, 1, 0)}},
    ),
    Scenario(
        "Lover: take 1 Prestige", 5, FIVE, privilege("claim Lover Prestige"), {"resources": {0: (0, 0, 1)}},
    ),
    Scenario(
        "Distant Cousin: take 1 Cash", 5, FIVE, privilege("claim Distant Cousin Cash"), {"resources": {0: (1, 0, 0)}},
    ),
    Scenario(
        "Distant Cousin: take 1 Prestige",
        5, FIVE, privilege("claim Distant Cousin Prestige"), {"resources": {0: (0, 0, 1)}},
    ),
    Scenario(
        "Chef: swap all your tokens of the named type with all of the named player's",
        5, FIVE, FIVE_START + [holding({0: (0, 1, 0), 3: (3, 1, 1)}), "0: claim Chef Cash +3"] + no_calls(0, 5)
        + ["3: no immunity"],
        {"resources": {0: (3, 1, 0), 3: (0, 1, 1)}, "ask": ("turn", 0)},
    ),
    Scenario(
        "Gardener: take 1 Evidence, then one of the named type from the named player",
        5, FIVE, privilege("claim Gardener Prestige +4", "4: no immunity"),
        {"resources": {0: (0, 1, 1), 4: (1, 1, 0)}, "supply": (5, 9 - 4 - 1, 5)},
    ),
    Scenario(
        "the privilege's choices are public while the claim is open",
        5, FIVE, FIVE_START + ["0: claim Gardener Prestige +4"],
        {"claim": (0, GAR, 0, "Prestige", 4), "ask": ("hoax", 1)},
    ),
    Scenario(
        "an option with no choices shows none",
        5, FIVE, FIVE_START + ["0: claim Lover Prestige"], {"claim": (0, LOV, 1, None, None)},
    ),
]


@pytest.mark.parametrize("sc", PRIVILEGES, ids=str)
def test_privileges(sc):
    run(sc)


def test_taking_from_an_empty_supply_gets_nothing():
    env = new_env(4, FOUR)
    play(env, START + [holding({1: (7, 1, 0)})])  # every Cash left in the supply goes to seat 1
    play(env, ["0: claim Butler +2"] + no_calls(0, 4))
    assert any(isinstance(e, ev.NothingToTake) for e in env.unwrapped.last_events)
    check(env, {"resources": {0: (1, 0, 0), 2: (0, 0, 2)}, "supply": (0, 8, 7)})


# --- immunities ---------------------------------------------------------------

IMMUNITIES = [
    Scenario(
        "Lover is immune to the Son-in-Law: the player may claim it, nothing else",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5),
        {"ask": ("immunity", 1), "legal": {"immune as Lover", "no immunity"}, "claim": (0, SIL, 0, "Cash", None)},
    ),
    Scenario(
        "an immunity that stands keeps the privilege off that player; the others still give",
        5, [SIL, BUT, EXW, COU, LOV],
        FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: immune as Lover"] + no_calls(1, 5) + ["2: no immunity", "3: no immunity", "4: immune as Lover"]
        + no_calls(4, 5),
        {"resources": {0: (2, 0, 0), 1: (1, 1, 1), 2: (0, 1, 1), 3: (0, 1, 1), 4: (1, 1, 1)}, "ask": ("turn", 0),
         "claim": None, "immunity": None},
    ),
    Scenario(
        "the immunity claim is open while others may call Hoax on it",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: immune as Lover"],
        {"immunity": (1, LOV), "ask": ("hoax", 2)},
    ),
    Scenario(
        "the Hoax on an immunity is asked from the immunity claimant's left, the privilege claimant included",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: immune as Lover", "2: no hoax", "3: no hoax", "4: no hoax"],
        {"ask": ("hoax", 0)},
    ),
    Scenario(
        "an immunity claim found false: an impostor token, and the privilege reaches the player",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: immune as Lover"] + vote(1, 5, caller=2, down={0, 2, 3}),
        {"impostor": {1: [LOV]}, "resources": {0: (1, 0, 0), 1: (0, 1, 1)}, "ask": ("immunity", 2),
         "immunity": None, "claim": (0, SIL, 0, "Cash", None), "votes": {2: "down", 3: "down", 4: "up", 0: "down"}},
    ),
    Scenario(
        "an immunity claim found true: its claimant wins at once",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: no immunity", "2: no immunity", "3: no immunity", "4: immune as Lover"]
        + vote(4, 5, caller=0, down={0, 1, 2}),
        {"ask": "over", "winner": 4, "rewards": {0: -1.0, 1: -1.0, 2: -1.0, 3: -1.0, 4: 1.0}},
    ),
    Scenario(
        "an immunity claim with a tied vote stands",
        5, [SIL, BUT, EXW, COU, LOV], FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5)
        + ["1: immune as Lover"] + vote(1, 5, caller=2, down={2, 3}),
        {"impostor": {}, "resources": {0: (0, 0, 0), 1: (1, 1, 1)}, "ask": ("immunity", 2), "holder": 2},
    ),
    Scenario(
        "Distant Cousin is immune to the Chef",
        5, [CHEF, BUT, SIL, LOV, COU],
        FIVE_START + [holding({3: (3, 1, 1)}), "0: claim Chef Cash +3"] + no_calls(0, 5),
        {"ask": ("immunity", 3), "legal": {"immune as Distant Cousin", "no immunity"}},
    ),
    Scenario(
        "the Chef's swap stops at an immunity that stands",
        5, [CHEF, BUT, SIL, LOV, COU],
        FIVE_START + [holding({3: (3, 1, 1)}), "0: claim Chef Cash +3"] + no_calls(0, 5)
        + ["3: immune as Distant Cousin"] + no_calls(3, 5),
        {"resources": {0: (0, 0, 0), 3: (3, 1, 1)}, "ask": ("turn", 0)},
    ),
    Scenario(
        "Ex-Wife and Chef are immune to the Gardener (HOUSE RULE)",
        5, [GAR, BUT, SIL, LOV, COU], privilege("claim Gardener Cash +2"),
        {"ask": ("immunity", 2), "legal": {"immune as Ex-Wife", "immune as Chef", "no immunity"}},
    ),
    Scenario(
        "Gardener is immune to the Ex-Wife (HOUSE RULE), on both neighbours in turn order",
        5, [EXW, BUT, SIL, LOV, COU], privilege("claim Ex-Wife neighbours Cash", "1: no immunity"),
        {"ask": ("immunity", 4), "legal": {"immune as Gardener", "no immunity"}, "resources": {0: (1, 0, 0)}},
    ),
    Scenario(
        "nobody is immune to the Butler: giving takes from nobody",
        5, [BUT, SIL, EXW, COU, LOV], privilege("claim Butler +1"), {"ask": ("turn", 0)},
    ),
    Scenario(
        "the Ex-Wife's options from the supply take from nobody",
        5, [EXW, BUT, SIL, COU, LOV], privilege("claim Ex-Wife Cash"), {"ask": ("turn", 0)},
    ),
    Scenario(
        "a player with nothing to give is not asked (RULING)",
        5, [SIL, BUT, EXW, COU, LOV],
        FIVE_START + [holding({1: (0, 1, 1), 2: (0, 1, 1), 3: (0, 1, 1)}), "0: claim Son-in-Law Cash"]
        + no_calls(0, 5),
        {"ask": ("immunity", 4)},
    ),
    Scenario(
        "a swap that would change nothing is not answered (RULING)",
        5, [CHEF, BUT, SIL, LOV, COU],
        FIVE_START + [holding({0: (1, 0, 0)}), "0: claim Chef Cash +3"] + no_calls(0, 5),
        {"ask": ("turn", 0), "resources": {0: (1, 0, 0), 3: (1, 1, 1)}},
    ),
    Scenario(
        "an immunity blocked by an impostor token is not offered",
        5, [SIL, BUT, EXW, COU, LOV],
        FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5) + ["1: immune as Lover"]
        + vote(1, 5, caller=2, down={0, 2, 3})
        + ["2: no immunity", "3: no immunity", "4: no immunity", "0: end turn", "1: claim Butler +1"]
        + no_calls(1, 5, holder=2) + ["1: end turn", "2: claim Son-in-Law Prestige"] + no_calls(2, 5, holder=2)
        + ["3: no immunity", "4: no immunity"],
        {"impostor": {1: [LOV]}, "ask": ("turn", 2), "resources": {1: (1, 1, 0), 2: (0, 1, 5), 0: (4, 0, 0)}},
    ),
]


@pytest.mark.parametrize("sc", IMMUNITIES, ids=str)
def test_immunities(sc):
    run(sc)


def test_an_immunity_answer_covers_the_whole_privilege():
    """A custom sheet whose privilege reaches the named player twice: asked once, answered once."""
    sheet = [
        ("Thief", {"": ("take Cash from named player", "take Evidence from named player")}, ()),
        ("Guard", {"": ("take Cash",)}, ("Thief",)),
        *[(name, {"": ("take Prestige",)}, ()) for name in ("A", "B", "C", "D", "E")],
    ]
    for answer, expected in (("no immunity", (0, 0, 0)), ("immune as Guard", (1, 1, 0))):
        env = hoax_v1.env(num_players=3, character_sheet=sheet)
        env.reset(seed=0, options={"setup": {"characters": ["Thief", "Guard", "A"], "first_player": 0}})
        play(env, opening(3, picks="PPP") + [holding({1: (1, 1, 0)}), "0: claim Thief +1", "1: no hoax",
                                             "2: no hoax", f"1: {answer}"])
        if answer != "no immunity":
            play(env, ["2: no hoax", "0: no hoax"])
        assert env.agent_selection == "player_0" and env.unwrapped.engine.table.decision == 1
        assert tuple(env.unwrapped.engine.table.resources[1]) == expected


# --- Hoax and the vote ----------------------------------------------------------

CLAIM_BY_1 = FIVE_START + ["0: claim Lover Prestige"] + no_calls(0, 5) + ["0: end turn", "1: claim Lover Evidence"]

HOAX = [
    Scenario(
        "after a claim each other player, in turn order from the claimant's left, may call Hoax",
        5, FIVE, CLAIM_BY_1, {"ask": ("hoax", 2), "legal": {"call hoax", "no hoax"}},
    ),
    Scenario(
        "the caller takes the Hoax card, and every player but the claimant votes from the claimant's left",
        5, FIVE, CLAIM_BY_1 + ["2: no hoax", "3: call hoax"],
        {"holder": 3, "ask": ("vote", 2), "legal": {"thumbs up", "thumbs down"}},
    ),
    Scenario(
        "no vote shows in any observation before every vote is cast",
        5, FIVE, CLAIM_BY_1 + ["2: no hoax", "3: call hoax", "2: thumbs down", "3: thumbs down", "4: thumbs up"],
        {"ask": ("vote", 0), "votes": {}},
    ),
    Scenario(
        "once cast the votes are revealed together; a tie lets the claim stand",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=3, down={2, 3}),
        {"votes": {2: "down", 3: "down", 4: "up", 0: "up"}, "resources": {1: (1, 2, 1)}, "impostor": {},
         "ask": ("turn", 1)},
    ),
    Scenario(
        "a majority of thumbs up lets the claim stand",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down={2}),
        {"votes": {2: "down", 3: "up", 4: "up", 0: "up"}, "resources": {1: (1, 2, 1)}, "impostor": {}},
    ),
    Scenario(
        "a majority of thumbs down on a false claim: an impostor token, no privilege, the turn goes on",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}),
        {"votes": {2: "down", 3: "down", 4: "down", 0: "up"}, "resources": {1: (1, 1, 1)}, "impostor": {1: [LOV]},
         "ask": ("turn", 1), "progress": (True, False), "claim": None, "knowledge": {(3, 1): {
             c: 1 / 5 for c in CHARACTERS if c not in (COU, LOV)}}},
    ),
    Scenario(
        "an impostor token forbids that character for the rest of the game",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}) + ["1: end turn", "2: claim Lover Evidence"]
        + no_calls(2, 5, holder=2) + ["2: end turn", "3: claim Lover Evidence"] + no_calls(3, 5, holder=2)
        + ["3: end turn", "4: claim Lover Evidence"] + no_calls(4, 5, holder=2)
        + ["4: end turn", "0: claim Lover Evidence"] + no_calls(0, 5, holder=2) + ["0: end turn"],
        {"ask": ("turn", 1), "impostor": {1: [LOV]}, "forbidden": {"claim Lover Evidence", "claim Lover Prestige"},
         "allowed": {"claim Butler +1", "claim Chef Cash +2"}},
    ),
    Scenario(
        "a majority of thumbs down on a true claim: the claimant wins at once",
        5, FIVE, FIVE_START + ["0: claim Butler +1"] + vote(0, 5, caller=1, down={1, 2, 3}),
        {"ask": "over", "winner": 0, "rewards": {0: 1.0, 1: -1.0, 2: -1.0, 3: -1.0, 4: -1.0}},
    ),
    Scenario(
        "the holder of the Hoax card is not asked to call",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down=set()) + ["1: end turn", "2: claim Lover Evidence"]
        + no_calls(2, 5) + ["2: end turn", "3: claim Lover Evidence", "4: no hoax", "0: no hoax", "1: no hoax"],
        {"holder": 2, "ask": ("turn", 3)},
    ),
    Scenario(
        "the holder may not call again, but the card moves to the next caller",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down=set()) + ["1: end turn", "2: claim Lover Evidence"]
        + vote(2, 5, caller=4, down=set(), holder=2),
        {"holder": 4, "ask": ("turn", 2)},
    ),
    Scenario(
        "the claimant may hold the Hoax card and still be called on",
        5, FIVE,
        CLAIM_BY_1 + vote(1, 5, caller=2, down=set()) + ["1: end turn", "2: claim Lover Evidence", "3: call hoax"],
        {"holder": 3, "ask": ("vote", 3)},
    ),
    Scenario(
        "when nobody may call, the claim stands at once",
        3, [BUT, SIL, LOV], opening(3) + ["0: accuse +1 as Son-in-Law", "0: claim Lover Evidence", "2: call hoax",
                                           "2: thumbs up", "0: end turn", "2: claim Lover Evidence", "0: no hoax",
                                           "2: end turn", "0: claim Lover Evidence"],
        {"out": [1], "holder": 2, "ask": ("turn", 0), "resources": {0: (1, 3, 0), 2: (0, 1, 1)}},
    ),
    Scenario(
        "the Hoax card of an eliminated player goes back to the centre (RULING)",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down=set()) + ["1: accuse +1 as Ex-Wife"],
        {"out": [2], "holder": None},
    ),
]


@pytest.mark.parametrize("sc", HOAX, ids=str)
def test_hoax_and_vote(sc):
    run(sc)


def test_a_vote_reveals_nothing_to_the_later_voters():
    """Two games that differ only in one early ballot look the same to everyone until the reveal."""
    before = CLAIM_BY_1 + ["2: no hoax", "3: call hoax"]
    envs = []
    for ballot in ("thumbs up", "thumbs down"):
        env = new_env(5, FIVE)
        play(env, before + [f"2: {ballot}", "3: thumbs up", "4: thumbs up"])
        envs.append(env)
    for seat in range(5):
        a, b = (e.unwrapped.observe(f"player_{seat}")["observation"] for e in envs)
        assert np.array_equal(a, b), f"player_{seat} can tell how player_2 voted"
    for env in envs:
        play(env, ["0: thumbs up"])
    assert not np.array_equal(*(e.unwrapped.observe("player_0")["observation"] for e in envs))


# --- investigations -------------------------------------------------------------


def test_an_investigation_shows_four_cards_with_the_true_one_to_the_investigator_and_the_target_only():
    for seed in range(10):
        env = hoax_v1.env(num_players=5)
        env.reset(seed=seed, options={"setup": {"characters": FIVE, "first_player": 0}})
        play(env, FIVE_START + [holding({0: (1, 1, 1)})])
        before = {s: block(env, s, "knowledge").copy() for s in range(1, 5)}
        play(env, ["0: investigate +3"])
        shown = [e for e in env.unwrapped.last_events if isinstance(e, ev.Shown)]
        assert len(shown) == 1 and shown[0].seen_by == (0, 3)
        target, cards = shown[0].target, shown[0].cards
        assert target == 3 and len(set(cards)) == 4 and CHARACTERS.index(COU) in cards
        public = [e for e in env.unwrapped.last_events if isinstance(e, ev.Investigated)]
        assert public[0].seen_by == (0, 1, 2, 3, 4) and (public[0].investigator, public[0].target) == (0, 3)
        others = [c for c in cards if c != CHARACTERS.index(BUT)]  # the investigator is the Butler
        expected = {CHARACTERS[c]: 1 / len(others) for c in others}
        check(env, {"knowledge": {(0, 3): expected}, "resources": {0: (0, 0, 0)}, "ask": ("turn", 0)})
        for s in range(1, 5):  # the target drew the four, which tells it nothing about the other seats
            assert np.array_equal(block(env, s, "knowledge"), before[s]), "another seat learned something"


def test_the_three_other_suspicion_cards_are_drawn_at_random():
    drawn = set()
    for seed in range(40):
        env = hoax_v1.env(num_players=5)
        env.reset(seed=seed, options={"setup": {"characters": FIVE, "first_player": 0}})
        play(env, FIVE_START + [holding({0: (1, 1, 1)}), "0: investigate +1"])
        drawn.add(next(e.cards for e in env.unwrapped.last_events if isinstance(e, ev.Shown)))
    assert len(drawn) > 10
    assert all(CHARACTERS.index(SIL) in cards for cards in drawn)


# --- accusations, elimination and the end ----------------------------------------

ACCUSATIONS = [
    Scenario(
        "a right accusation: the target is out and its resources go to the accuser",
        5, FIVE, FIVE_START + ["0: accuse +2 as Ex-Wife"],
        {"out": [2], "resources": {0: (1, 1, 1), 2: (0, 0, 0)}, "ask": ("turn", 0), "progress": (False, True),
         "knowledge": {(0, 2): EXW, **{(s, 2): {c: 1 / 6 for c in CHARACTERS if c != FIVE[s]} for s in (1, 3, 4)}},
         "rewards": {2: -1.0, 0: 0.0}},
    ),
    Scenario(
        "the impostor tokens of a rightly accused player stay on its sheet",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}) + ["1: end turn", "2: accuse +4 as Son-in-Law"],
        {"out": [1], "impostor": {1: [LOV]}, "resources": {2: (2, 2, 2)}},
    ),
    Scenario(
        "a wrong accusation: the accuser is out, its resources go back to the supply, and its turn ends",
        5, FIVE, FIVE_START + [holding({0: (2, 1, 0)}), "0: accuse +2 as Lover"],
        {"out": [0], "supply": (9 - 4, 9 - 4, 9 - 4), "resources": {2: (1, 1, 1)}, "ask": ("turn", 1),
         "turns": 1, "knowledge": {(s, 2): {c: 1 / 6 for c in CHARACTERS if c != FIVE[s]} for s in (1, 3)},
         "rewards": {0: -1.0}},
    ),
    Scenario(
        "a wrong accuser's impostor tokens go back to the supply",
        5, FIVE, CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}) + ["1: accuse +1 as Lover"],
        {"out": [1], "impostor": {}},
    ),
    Scenario(
        "eliminated players are never asked again: not to play, call or vote",
        5, FIVE, FIVE_START + ["0: accuse +2 as Ex-Wife", "0: claim Lover Prestige", "1: no hoax", "3: call hoax",
                               "1: thumbs up", "3: thumbs up", "4: thumbs up", "0: end turn",
                               "1: claim Lover Evidence", "4: no hoax", "0: no hoax", "1: end turn"],
        {"ask": ("turn", 3), "active": 3, "out": [2], "holder": 3},
    ),
    Scenario(
        "the last player left wins",
        3, [BUT, SIL, LOV], opening(3) + ["0: accuse +1 as Son-in-Law", "0: claim Butler +2", "2: no hoax",
                                          "0: end turn", "2: accuse +1 as Butler"],
        {"ask": "over", "winner": 2, "out": [0, 1], "rewards": {0: -1.0, 1: -1.0, 2: 1.0}},
    ),
    Scenario(
        "a wrong accusation by the second-last player makes the other the last one left",
        3, [BUT, SIL, LOV], opening(3) + ["0: accuse +1 as Son-in-Law", "0: claim Butler +2", "2: no hoax",
                                          "0: end turn", "2: accuse +1 as Chef"],
        {"ask": "over", "winner": 0, "out": [1, 2], "rewards": {0: 1.0, 1: -1.0, 2: -1.0}},
    ),
]


@pytest.mark.parametrize("sc", ACCUSATIONS, ids=str)
def test_accusations(sc):
    run(sc)


def test_final_infos_reveal_every_character_and_the_winner():
    _, record = run(ACCUSATIONS[-2])
    _, info = record["player_2"]
    assert info["winner"] == "player_2" and info["winners"] == ["player_2"]
    assert info["characters"] == {"player_0": BUT, "player_1": SIL, "player_2": LOV}
    assert sorted(info["unused_characters"]) == sorted([EXW, COU, CHEF, GAR])
    assert info["character"] == LOV and info["won"] is True
    assert info["eliminated"] == ["player_0", "player_1"]


def test_an_eliminated_agent_is_terminated_with_minus_one_at_once():
    env = new_env(5, FIVE)
    play(env, FIVE_START)
    env.step(env.unwrapped.string_to_action("accuse +2 as Ex-Wife"))
    assert env.agent_selection == "player_2"
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and reward == -1.0
    assert not obs["action_mask"].any()
    assert info["eliminated_after_turns"] == 0
    env.step(None)
    assert "player_2" not in env.agents and env.agent_selection == "player_0"


def test_the_turn_limit_truncates():
    env = new_env(4, FOUR, max_turns=2)
    play(env, START + ["0: claim Lover Prestige"] + no_calls(0, 4) + ["0: end turn", "1: claim Lover Evidence"]
         + no_calls(1, 4))
    env.step(env.unwrapped.string_to_action("end turn"))
    assert all(env.truncations[a] and not env.terminations[a] for a in env.possible_agents)
    assert not env.unwrapped.engine.is_over
    assert all(env.rewards[a] == 0 for a in env.possible_agents)


# --- bad input -----------------------------------------------------------------

SON_IN_LAW_FIRST = [SIL, BUT, EXW, COU, LOV]
ILLEGAL = [
    ("a pick when the turn is asked", FOUR, START, "pick Cash", ["play the turn"]),
    ("a second claim", FOUR, START + ["0: claim Lover Prestige"] + no_calls(0, 4), "claim Butler +1",
     ["one claim per turn"]),
    ("ending the turn before the claim", FOUR, START, "end turn", ["before its claim"]),
    ("an investigation without the resources", FOUR, START, "investigate +1", ["costs one Cash", "1 Cash, 0 Evidence"]),
    ("a second accusation", FOUR, START + ["0: accuse +3 as Chef"], "accuse +1 as Son-in-Law", ["at most one"]),
    ("a claim naming a player who is out", FOUR, START + ["0: accuse +2 as Lover"], "claim Butler +2",
     ["out of the game"]),
    ("investigating a player who is out", FOUR, START + ["0: accuse +2 as Lover", holding({0: (1, 1, 1)})],
     "investigate +2", ["player +2 is out of the game"]),
    ("a vote when Hoax is asked", FOUR, START + ["0: claim Lover Prestige"], "thumbs up", ["call Hoax"]),
    ("an immunity that is not one", SON_IN_LAW_FIRST, FIVE_START + ["0: claim Son-in-Law Cash"] + no_calls(0, 5),
     "immune as Chef", ["Chef is not immune to the Son-in-Law's privilege"]),
]


@pytest.mark.parametrize("name, characters, before, bad, fragments", ILLEGAL, ids=[x[0] for x in ILLEGAL])
def test_illegal_actions_raise_and_change_nothing(name, characters, before, bad, fragments):
    env = new_env(len(characters), characters)
    play(env, before)
    state = pickle.dumps(env.unwrapped.engine)
    agent = env.agent_selection
    with pytest.raises(ValueError) as error:
        env.step(env.unwrapped.string_to_action(bad))
    message = str(error.value)
    assert agent in message and bad in message
    for fragment in fragments:
        assert fragment in message, message
    assert pickle.dumps(env.unwrapped.engine) == state


def test_an_impostor_character_cannot_be_claimed_and_says_why():
    env = new_env(5, FIVE)
    play(env, CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}) + ["1: end turn", "2: claim Lover Evidence"]
         + no_calls(2, 5, holder=2) + ["2: end turn", "3: claim Lover Evidence"] + no_calls(3, 5, holder=2)
         + ["3: end turn", "4: claim Lover Evidence"] + no_calls(4, 5, holder=2)
         + ["4: end turn", "0: claim Lover Evidence"] + no_calls(0, 5, holder=2) + ["0: end turn"])
    with pytest.raises(ValueError, match="impostor token on Lover"):
        env.step(env.unwrapped.string_to_action("claim Lover Evidence"))


def test_penalize_gives_the_mover_minus_one_and_ends_the_episode():
    env = new_env(4, FOUR, illegal="penalize")
    play(env, START)
    env.step(env.unwrapped.string_to_action("end turn"))
    assert all(env.terminations.values())
    assert env._cumulative_rewards["player_0"] == -1.0


BAD_SETUP = [
    ("unknown key", {"deck": []}, "unknown setup key"),
    ("too few characters", {"characters": [BUT, SIL, LOV]}, "4 different characters"),
    ("a repeated character", {"characters": [BUT, SIL, LOV, BUT]}, "4 different characters"),
    ("an unknown character", {"characters": [BUT, SIL, LOV, "Maid"]}, "'Maid'"),
    ("a bad first player", {"first_player": 4}, "first_player must be a seat from 0 to 3"),
]


@pytest.mark.parametrize("name, setup, fragment", BAD_SETUP, ids=[x[0] for x in BAD_SETUP])
def test_bad_setup_raises(name, setup, fragment):
    env = hoax_v1.env(num_players=4)
    with pytest.raises(ValueError, match=fragment):
        env.reset(seed=0, options={"setup": setup})


# --- actions, text and whole games ----------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_house_sheet_has_28_plus_15_per_other_player_actions(n):
    assert hoax_v1.env(num_players=n).action_space("player_0").n == 28 + 15 * (n - 1)


def test_documented_action_examples_at_five_players():
    env = hoax_v1.env(num_players=5).unwrapped
    assert env.action_space("player_0").n == 88
    assert env.string_to_action("claim Chef Cash +2") == 20
    assert env.action_to_string(20) == "claim Chef Cash +2"
    assert env.string_to_action("accuse +1 as Butler") == 47
    expected = {0: "pick Cash", 3: "claim Butler +1", 42: "claim Gardener Prestige +4", 43: "investigate +1",
                75: "end turn", 76: "call hoax", 78: "thumbs up", 80: "immune as Butler", 87: "no immunity"}
    assert {a: env.action_to_string(a) for a in expected} == expected


def test_the_default_turn_limit_is_finite_and_well_above_natural_games():
    """Tables of scripted players end by the rules, well within the limit."""
    assert hoax_v1.env(max_turns=None).unwrapped.max_turns is None
    env = hoax_v1.env(num_players=4)
    assert env.unwrapped.max_turns == 1000
    lengths = {}
    for seed in (23, 1):
        bot = HoaxScriptedPlayer(env.unwrapped.config, seed=seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else bot(obs))
        lengths[seed] = (env.unwrapped.game_over, env.unwrapped.engine.turns_played)
    assert lengths == {23: (True, 101), 1: (True, 56)}  # a natural game longer than 100 turns; no standstill


def test_the_first_player_and_the_deal_are_drawn_from_the_seed():
    env = hoax_v1.env(num_players=5)
    deals, firsts = set(), set()
    for seed in range(20):
        env.reset(seed=seed)
        deals.add(tuple(env.unwrapped.engine.characters))
        firsts.add(env.unwrapped.engine.first_player)
    assert len(deals) == 20 and firsts == {0, 1, 2, 3, 4}


def test_ansi_render_shows_the_table_and_the_opening_pick():
    env = hoax_v1.env(num_players=5, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Hoax, 5 players" in text and "supply: 9 Cash, 9 Evidence, 9 Prestige" in text
    assert "Legal actions: pick Cash, pick Evidence, pick Prestige" in text


def test_render_never_shows_another_seat_its_hidden_facts():
    env = new_env(4, [BUT, CHEF, LOV, GAR], render_mode="ansi")
    play(env, opening(4))
    text = env.render()  # player_0 to act
    assert "you are the Butler" in text
    assert "Chef" not in text.split("View of player_0:")[0]  # the public part names no character


def calm(rng, env, legal):
    """Random legal play that accuses one time in ten, so games last long enough to see a lot."""
    kinds = env.unwrapped.actions.kind
    quiet = [a for a in legal if kinds[a] != ACCUSE]
    return int(rng.choice(quiet if quiet and rng.random() < 0.9 else legal))


def test_calm_games_show_every_kind_of_event_to_its_seats_as_a_line():
    env = hoax_v1.env(num_players=4, render_mode="ansi", max_turns=40)
    kinds = set()
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            for event in env.unwrapped.last_events:
                kinds.add(type(event))
                for viewer in event.seen_by:
                    line = env.unwrapped.describe_event(event, viewer)
                    assert line or type(event) in (ev.PrivilegeDone, ev.TurnEnded), event
            env.step(None if terminated or truncated else calm(rng, env, np.flatnonzero(obs["action_mask"])))
    assert {ev.Claimed, ev.ImmunityClaimed, ev.VotesRevealed, ev.Shown, ev.Accused, ev.Swapped, ev.GameOver} <= kinds


def test_a_copy_made_during_a_vote_keeps_the_ballots_secret_and_exact():
    env = hoax_v1.env(num_players=5, max_turns=40)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    call = env.unwrapped.string_to_action("call hoax")
    while env.unwrapped.engine.table.decision != VOTE or not env.unwrapped.engine._ballots:
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(call if call in legal else int(rng.choice(legal)))
    twin = pickle.loads(pickle.dumps(env))
    assert twin.unwrapped.engine._ballots == env.unwrapped.engine._ballots

    assert play_trace(twin, uniform_choice(np.random.default_rng(3))) == play_trace(
        env, uniform_choice(np.random.default_rng(3))
    )


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cautious_games_reach_votes_immunities_and_the_turn_limit_keeping_every_invariant(n):
    """Uniform play accuses a lot and ends within a few turns; these games seldom accuse, so they last."""
    rng = np.random.default_rng(2000 + n)
    outcomes = set()
    for seed in range(100):
        env = hoax_v1.env(num_players=n, max_turns=40)
        env.reset(seed=seed)
        engine = env.unwrapped.engine
        received = dict.fromkeys(env.possible_agents, 0.0)
        for step, agent in enumerate(env.agent_iter()):
            obs, reward, terminated, truncated, info = env.last()
            received[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            if step % 5 == 0:
                facts.check_step(env)
            env.step(calm(rng, env, np.flatnonzero(obs["action_mask"])))
        if engine.is_over:
            facts.check_end(env, info, received)
            outcomes.add("truthful claim" if "truthfully" in info["result"] else "last left")
        else:
            assert engine.turns_played == 40
            out = {f"player_{s}" for s, gone in enumerate(engine.table.eliminated) if gone}
            assert received == {a: (-1.0 if a in out else 0.0) for a in env.possible_agents}
            outcomes.add("truncated")
    assert outcomes == {"truthful claim", "last left", "truncated"}


# --- what an accusation tells whom ------------------------------------------------


def twin_views(setups, actions, seats):
    """Each seat's observation and text in two games played with their own (setup, actions)."""
    views = []
    for (characters, first), steps in zip(setups, actions):
        env = new_env(len(characters), characters, first, render_mode="ansi")
        play(env, steps)
        views.append({s: (env.unwrapped.observe(f"player_{s}")["observation"], env.unwrapped.render_text(s),
                          repr(env.unwrapped.history(f"player_{s}"))) for s in seats})
    return views


@pytest.mark.parametrize("outcome", ["right", "wrong"])
def test_the_character_named_in_an_accusation_reaches_the_accuser_and_the_target_only(outcome):
    """Seat 0 accuses seat 2, naming a different character in each game (right in both, or wrong in both)."""
    if outcome == "right":  # seat 2 holds the character named
        setups = [(FIVE, 0), ([BUT, SIL, CHEF, COU, LOV], 0)]
        accusations = ["0: accuse +2 as Ex-Wife", "0: accuse +2 as Chef"]
    else:
        setups = [(FIVE, 0), (FIVE, 0)]
        accusations = ["0: accuse +2 as Lover", "0: accuse +2 as Chef"]
    a, b = twin_views(setups, [FIVE_START + [step] for step in accusations], range(5))
    for seat in (1, 3, 4):
        assert np.array_equal(a[seat][0], b[seat][0]), f"player_{seat}'s observation shows the character named"
        assert a[seat][1:] == b[seat][1:], f"player_{seat}'s text or history names the character"
    named = accusations[0].split(" as ")[1]
    for seat in (0, 2):
        assert f"'character': '{named}'" in a[seat][2] and f"the suspicion card of the {named}" in a[seat][1]
    assert not np.array_equal(a[2][0], b[2][0]), "the target sees the suspicion card passed to it"


def test_an_accusation_tells_everyone_who_accused_whom_and_the_answer():
    env = new_env(5, FIVE, render_mode="ansi")
    play(env, FIVE_START + ["0: accuse +2 as Ex-Wife"])
    private = [e for e in env.unwrapped.last_events if isinstance(e, ev.AccusedAs)]
    public = [e for e in env.unwrapped.last_events if isinstance(e, ev.Accused)]
    assert [e.seen_by for e in private] == [(0, 2)] and private[0].character == CHARACTERS.index(EXW)
    assert public[0].seen_by == (0, 1, 2, 3, 4) and (public[0].accuser, public[0].target, public[0].right) == (0, 2, 1)
    said = [env.unwrapped.describe_event(e, 3) for e in env.unwrapped.last_events if 3 in e.seen_by]
    assert "player_0 accuses player_2: player_2 answers yes" in said
    assert not any(EXW in line for line in said if line)


# --- what an investigation tells whom ---------------------------------------------


def test_the_target_of_an_investigation_sees_the_four_cards_it_passes():
    setup = {"characters": FIVE, "first_player": 0, "suspicion_decks": [[GAR, CHEF, COU, LOV, BUT, SIL, EXW]]}
    env = hoax_v1.env(num_players=5, render_mode="ansi")
    env.reset(seed=0, options={"setup": setup})
    play(env, FIVE_START + [holding({0: (1, 1, 1)}), "0: investigate +3"])  # seat 3, the Distant Cousin
    cards = [GAR, CHEF, COU, LOV]  # its own, then the first three others of the deck
    shown = {CHARACTERS.index(c) for c in cards}
    assert [set(e.cards) for e in env.unwrapped.last_events if isinstance(e, ev.Shown)] == [shown]
    fields = env.unwrapped.observation_fields
    seen_by_target = env.unwrapped.observe("player_3")["observation"][fields["cards_shown"]].reshape(5, 7)
    assert np.array_equal(seen_by_target[rel(0, 3, 5)], np.isin(np.arange(7), list(shown)))  # what seat 0 saw
    seen_by_investigator = env.unwrapped.observe("player_0")["observation"][fields["cards_seen"]].reshape(5, 7)
    assert np.array_equal(seen_by_investigator[3], seen_by_target[rel(0, 3, 5)])
    for seat in (1, 2, 4):
        assert not env.unwrapped.observe(f"player_{seat}")["observation"][fields["cards_shown"]].any()
    said = "you pass player_0 the suspicion cards Lover, Distant Cousin, Chef, Gardener"
    assert said in env.unwrapped.render_text(3)
    assert env.unwrapped.history("player_3")[-1]["kind"] == "shown"


# --- the votes ----------------------------------------------------------------------


def test_a_new_vote_shows_no_ballot_of_the_last_one():
    env = new_env(5, FIVE, render_mode="ansi")
    play(env, CLAIM_BY_1 + vote(1, 5, caller=2, down={2}))  # the claim stands: 3 up, 1 down
    check(env, {"votes": {2: "down", 3: "up", 4: "up", 0: "up"}})
    play(env, ["1: end turn", "2: claim Lover Evidence", "3: call hoax"])
    check(env, {"votes": {}, "ask": ("vote", 3)})
    assert "last vote" not in env.unwrapped.describe_table()
    play(env, ["3: thumbs down", "4: thumbs down", "0: thumbs up"])
    check(env, {"votes": {}, "ask": ("vote", 1)})
    play(env, ["1: thumbs down"])
    check(env, {"votes": {3: "down", 4: "down", 0: "up", 1: "down"}})


# --- every chance outcome from the setup -------------------------------------------


def investigations(env, count: int) -> list[set[str]]:
    """Seat 0 investigates seat 1 `count` times in its first turn; the cards it was shown each time."""
    play(env, FIVE_START + [holding({0: (count, count, count)})])
    shown = []
    for _ in range(count):
        play(env, ["0: investigate +1"])
        shown += [{CHARACTERS[c] for c in e.cards} for e in env.unwrapped.last_events if isinstance(e, ev.Shown)]
    return shown


def test_the_suspicion_decks_of_the_setup_fix_the_cards_of_each_investigation_in_turn():
    decks = [[SIL, BUT, EXW, LOV, COU, CHEF, GAR], [GAR, CHEF, COU, LOV, EXW, BUT, SIL]]
    setup = {"characters": FIVE, "first_player": 0, "suspicion_decks": decks}
    games = []
    for seed in (0, 1):
        env = hoax_v1.env(num_players=5)
        env.reset(seed=seed, options={"setup": setup})
        games.append(investigations(env, 3))
    # seat 1, the Son-in-Law, takes out its own card and then the first three others of each deck
    assert [shown[:2] for shown in games] == [[{SIL, BUT, EXW, LOV}, {SIL, GAR, CHEF, COU}]] * 2
    assert all(SIL in shown[2] and len(shown[2]) == 4 for shown in games)  # past the decks given: the seed's


def test_without_suspicion_decks_the_seed_shuffles_one_at_each_investigation():
    seen = []
    for _ in range(2):
        env = hoax_v1.env(num_players=5)
        env.reset(seed=3, options={"setup": {"characters": FIVE, "first_player": 0}})
        seen.append(investigations(env, 3))
    assert seen[0] == seen[1] and len({frozenset(s) for s in seen[0]}) > 1


BAD_ENTRIES = [
    ("characters as a string", {"characters": "Butler, Lover"}, TypeError, "setup characters must be a list"),
    ("characters as a dict", {"characters": {0: BUT}}, TypeError, "setup characters must be a list"),
    ("a character as a list", {"characters": [BUT, SIL, LOV, [CHEF]]}, ValueError, "setup characters"),
    ("a bool first player", {"first_player": True}, ValueError, "setup first_player"),
    ("a float first player", {"first_player": 1.0}, ValueError, "setup first_player"),
    ("decks as a dict", {"suspicion_decks": {"first": CHARACTERS}}, TypeError, "setup suspicion_decks must be a list"),
    ("a deck as a string", {"suspicion_decks": ["Butler"]}, TypeError, r"setup suspicion_decks\[0\] must be a list"),
    ("a short deck", {"suspicion_decks": [CHARACTERS, CHARACTERS[:6]]}, ValueError,
     r"setup suspicion_decks\[1\] must have 7 entries"),
    ("a repeated card", {"suspicion_decks": [[BUT] * 7]}, ValueError, r"suspicion_decks\[0\] must hold each"),
    ("an unknown card", {"suspicion_decks": [[*CHARACTERS[:6], "Maid"]]}, ValueError, r"suspicion_decks\[0\].*'Maid'"),
]


@pytest.mark.parametrize("name, setup, error, fragment", BAD_ENTRIES, ids=[x[0] for x in BAD_ENTRIES])
def test_a_setup_entry_of_the_wrong_type_or_length_is_named(name, setup, error, fragment):
    env = hoax_v1.env(num_players=4)
    with pytest.raises(error, match=fragment):
        env.reset(seed=0, options={"setup": setup})


@pytest.mark.parametrize("name, setup, error, fragment", BAD_ENTRIES + [(*x[:2], ValueError, x[2]) for x in BAD_SETUP],
                         ids=[x[0] for x in BAD_ENTRIES + BAD_SETUP])
def test_a_bad_setup_fails_before_anything_is_drawn(name, setup, error, fragment):
    rng = np.random.default_rng(7)
    before = rng.bit_generator.state
    with pytest.raises(error, match=fragment):
        HoaxGame(configure(4), rng, setup)
    assert rng.bit_generator.state == before


# --- the record ---------------------------------------------------------------------


def record(env, observer: int, name: str, seat_axes=(0,)) -> np.ndarray:
    """A block of `observer`'s observation with its seat axes turned back to absolute seats."""
    u = env.unwrapped
    n = u.num_players
    values = u.observe(f"player_{observer}")["observation"][u.observation_fields[name]]
    values = values.reshape(u.observer.layout.shapes[name])
    for axis in seat_axes:
        values = values.take([(s - observer) % n for s in range(n)], axis=axis)
    return values


RECORDED = (
    CLAIM_BY_1 + vote(1, 5, caller=2, down={2, 3, 4}) + ["1: end turn", "2: investigate +2", "2: accuse +1 as Lover"]
)  # seat 0 claims Lover; seat 1 claims Lover, shown false by a vote; seat 2 investigates seat 4, then wrongly
#    accuses seat 3 (the Distant Cousin) of being the Lover and is out


def test_the_record_keeps_claims_calls_ballots_investigations_and_accusations_for_every_seat():
    env = new_env(5, FIVE)
    play(env, RECORDED)
    lover = CHARACTERS.index(LOV)
    for observer in (0, 1, 3, 4):
        claims = np.zeros((5, 7, 3))
        claims[0, lover, 0] = claims[1, lover, 0] = claims[1, lover, 2] = 1
        assert np.array_equal(record(env, observer, "claims"), claims)
        calls = np.zeros((5, 5))
        calls[2, 1] = 1
        assert np.array_equal(record(env, observer, "hoax_calls", (0, 1)), calls)
        ballots = np.zeros((5, 5, 2))
        ballots[[2, 3, 4], 1, 1] = 1
        ballots[0, 1, 0] = 1
        assert np.array_equal(record(env, observer, "ballots", (0, 1)), ballots)
        by_character = np.zeros((5, 7, 2))
        by_character[[2, 3, 4], lover, 1] = 1
        by_character[0, lover, 0] = 1
        assert np.array_equal(record(env, observer, "ballots_by_character"), by_character)
        investigations = np.zeros((5, 5))
        investigations[2, 4] = 1
        assert np.array_equal(record(env, observer, "investigations", (0, 1)), investigations)
        accusations = np.zeros((5, 5, 2))
        accusations[2, 3, 1] = 1
        assert np.array_equal(record(env, observer, "accusations", (0, 1)), accusations)
        assert record(env, observer, "turn", ()).tolist() == [3]
    # the character named reaches the accuser and the target; the cards, the investigator and the target
    accused_as = np.zeros((5, 7, 2))
    accused_as[3, lover, 0] = 1
    assert np.array_equal(env.unwrapped.observer.known["accused_as"][2], accused_as)
    accused_as = np.zeros((5, 7, 2))
    accused_as[2, lover, 1] = 1
    assert np.array_equal(record(env, 3, "accused_as"), accused_as)
    cards = record(env, 4, "cards_shown")
    assert cards[2].sum() == 4 and cards[2, CHARACTERS.index(LOV)] == 1 and not np.delete(cards, 2, axis=0).any()
    assert np.array_equal(env.unwrapped.observer.known["cards_seen"][2][4], cards[2])
    for observer in (0, 1):
        assert not record(env, observer, "accused_as").any() and not record(env, observer, "cards_shown").any()
        assert not record(env, observer, "cards_seen").any()


def test_the_record_counts_stop_at_100():
    env = new_env(3, [BUT, SIL, LOV], max_turns=None)
    play(env, opening(3))
    for turn in range(3 * 101):  # 101 claims each
        seat = turn % 3
        play(env, [f"{seat}: claim Lover Evidence"] + no_calls(seat, 3) + [f"{seat}: end turn"])
    assert record(env, 0, "turn", ()).tolist() == [303]
    assert record(env, 0, "claims")[:, CHARACTERS.index(LOV), 0].tolist() == [100, 100, 100]
    space = env.observation_space("player_0")["observation"]
    assert space.contains(env.unwrapped.observe("player_0")["observation"])


# --- the event history --------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 6])
def test_every_event_is_encoded_in_the_history_block(n):
    env = hoax_v1.env(num_players=n, history_length=16, max_turns=40)
    space = env.observation_space("player_0")["observation"]
    rng = np.random.default_rng(n)
    kinds = set()
    for seed in range(20):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            assert space.contains(obs["observation"])
            kinds |= {type(e) for e in env.unwrapped.last_events}
            env.step(None if terminated or truncated else calm(rng, env, np.flatnonzero(obs["action_mask"])))
        assert env.unwrapped.history("player_0")[0]["kind"] == "dealt"
    assert {ev.Moved, ev.Shown, ev.AccusedAs, ev.VotesRevealed, ev.HoaxCalled} <= kinds


def test_resources_are_encoded_from_and_to_the_supply_or_a_seat_relative_to_the_observer():
    env = new_env(4, FOUR, history_length=4)
    play(env, START + ["0: claim Lover Prestige"] + no_calls(0, 4))
    u = env.unwrapped
    encoding = EventEncoding(u.definition.events, 4, u.definition.words(u.config, 0).vocab)
    (first, _), (second, _) = [(a, b) for name, a, b in encoding.columns if name.startswith("holder")]
    rows = u.observe("player_2")["observation"][u.observation_fields["history"]].reshape(4, -1)
    took = next(row for row in rows if row[encoding.index[ev.Moved]])  # 1 Prestige from the supply to seat 0
    assert list(took[first:first + 5]) == list(one_hot(5, 4)) and list(took[second:second + 5]) == list(one_hot(5, 2))


def test_a_refused_reset_leaves_the_game_in_progress_and_its_suspicion_cards_as_they_were():
    envs = [hoax_v1.env(num_players=5) for _ in range(2)]
    for env in envs:
        env.reset(seed=9, options={"setup": {"characters": FIVE, "first_player": 0}})
        play(env, FIVE_START + [holding({0: (2, 2, 2)}), "0: investigate +1"])
    state = pickle.dumps(envs[0].unwrapped.engine)
    for _, setup, error, _ in BAD_ENTRIES:
        with pytest.raises(error):
            envs[0].reset(options={"setup": setup})
        assert pickle.dumps(envs[0].unwrapped.engine) == state
    shown = []
    for env in envs:
        play(env, ["0: investigate +1"])
        shown.append([e.cards for e in env.unwrapped.last_events if isinstance(e, ev.Shown)])
        env.reset()
    assert shown[0] == shown[1]
    assert envs[0].unwrapped.engine.characters == envs[1].unwrapped.engine.characters
