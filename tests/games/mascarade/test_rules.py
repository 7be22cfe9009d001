"""Mascarade rule scenarios: one per rule of the rulebook and its rulings, one per power and choice.

A scenario is data: a fixed deal (one character per card place: the seats'
cards in seat order, then the centre), the first player, the actions in
order by name, and what must hold afterwards. Each action may be prefixed
with the seat expected to play it ("2: claim"); the runner checks that this
seat is the one asked. Callables are steps that set coins directly, to
reach a position quickly. Expectations are checked against the engine and
against every seat's observation.

Card places in expectations are absolute (place p = seat p's card at 4+
players; the centre follows the seats); in action names they are relative
to the actor (`+1` = the left neighbour), as the game names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from hidden_role_envs import mascarade_v1
from hidden_role_envs.games.mascarade import events as ev
from hidden_role_envs.games.mascarade.characters import BANK, COURTHOUSE
from hidden_role_envs.games.mascarade.config import configure
from hidden_role_envs.games.mascarade.rules import MascaradeGame
from hidden_role_envs.core.history import EventEncoding
from tests.support import check_allowed, check_forbidden, check_legal, one_hot
from tests.support import relative as rel_seat

CHARACTER_ORDER = ("Judge", "Bishop", "King", "Fool", "Queen", "Thief", "Witch", "Spy", "Peasant", "Cheat",
                   "Inquisitor", "Widow")  # the order of the character blocks
DECISIONS = ("turn", "claim", "spy look", "spy swap", "bishop", "fool", "inquisitor", "guess", "witch")
JUD, BIS, KIN, FOO, QUE, THI, WIT, SPY, PEA, CHE, INQ, WID = CHARACTER_ORDER

# Fixed deals: the seats' cards, then the centre.
D4 = [JUD, BIS, FOO, QUE, THI, CHE]  # 4 players: recommended set, Thief and Cheat in the centre
D5 = [JUD, BIS, FOO, QUE, WIT, CHE]  # 5 players: recommended set, Cheat in the centre
SET8 = [SPY, INQ, WID, KIN, QUE, PEA, PEA, JUD]  # a custom 8-player set (5 money cards of 8)
D8 = SET8
D13 = [JUD, BIS, KIN, FOO, QUE, THI, WIT, SPY, PEA, CHE, INQ, WID, PEA]
D2 = [JUD, BIS, KIN, FOO, QUE, WIT]  # 2 players: seat 0 holds A=Judge B=Bishop, seat 1 King, Fool; centre Queen, Witch
D3 = [JUD, BIS, KIN, FOO, QUE, WIT]  # 3 players: two cards each, no centre


def prep(n: int, first: int = 0, two_cards: bool = False) -> list[str]:
    """The four preparation turns, each a pretended swap with the left neighbour's card."""
    name = "no swap A with +1 A" if two_cards else "no swap +1"
    return [f"{(first + t) % n}: {name}" for t in range(4)]


def set_coins(*coins: int):
    """A step that sets every seat's coins (to reach a position without playing it)."""

    def apply(env):
        env.unwrapped.engine.table.coins[:] = coins
        env.unwrapped.observer.after_update()  # the observer reads the public table after each step

    return apply


def set_courthouse(amount: int):
    def apply(env):
        env.unwrapped.engine.table.courthouse = amount
        env.unwrapped.observer.after_update()

    return apply


@dataclass
class Scenario:
    name: str
    players: int
    cards: list[str]
    actions: list[Any]
    expect: dict[str, Any]
    first: int = 0
    kwargs: dict[str, Any] = field(default_factory=dict)


def new_env(players: int, cards, first: int = 0, **kwargs):
    env = mascarade_v1.env(num_players=players, **kwargs)
    env.reset(seed=0, options={"setup": {"cards": list(cards), "first_player": first}})
    return env


def play(env, actions) -> None:
    for step in actions:
        if callable(step):
            step(env)
            continue
        seat, _, name = step.rpartition(": ")
        if seat:
            assert env.agent_selection == f"player_{seat}", f"{step!r}: {env.agent_selection} is asked"
        env.step(env.unwrapped.string_to_action(name))


def run(sc: Scenario):
    kwargs = dict(sc.kwargs)
    if sc.players == 8 and "characters" not in kwargs:
        kwargs["characters"] = SET8
    env = new_env(sc.players, sc.cards, sc.first, **kwargs)
    play(env, sc.actions)
    check(env, sc.expect)
    return env


# --- reading the env ---------------------------------------------------------


def block(env, seat: int, name: str) -> np.ndarray:
    obs = env.observe(f"player_{seat}")["observation"]
    fields = env.unwrapped.observation_fields
    values = obs[fields[name]]
    if name in ("knowledge", "revealed"):
        return values.reshape(-1, len(CHARACTER_ORDER))
    return values


def rel_place(place: int, observer: int, env) -> int:
    config = env.unwrapped.config
    n, hand = config.num_players, config.hand
    if place >= n * hand:
        return place
    seat, card = divmod(place, hand)
    return rel_seat(seat, observer, n) * hand + card


# --- expectations ------------------------------------------------------------


def check_cards(env, value):
    assert [CHARACTER_ORDER[c] for c in env.unwrapped.engine.cards] == list(value)


def check_coins(env, value):
    n = env.unwrapped.num_players
    assert list(env.unwrapped.engine.table.coins) == list(value)
    for observer in range(n):  # coins are public
        expected = [value[(observer + k) % n] for k in range(n)]
        assert list(block(env, observer, "coins")) == expected


def check_courthouse(env, value):
    assert env.unwrapped.engine.table.courthouse == value
    for observer in range(env.unwrapped.num_players):
        assert block(env, observer, "courthouse")[0] == value


def check_from_bank(env, value):
    assert env.unwrapped.engine.table.from_bank == value


def check_ask(env, value):
    """("claim", 2): that decision is asked of seat 2, and only that seat has legal actions. "over": ended."""
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
    assert env.agent_selection == f"player_{seat}", f"expected player_{seat} to be asked, not {env.agent_selection}"
    for observer in range(n):
        assert np.array_equal(block(env, observer, "decision"), one_hot(9, DECISIONS.index(kind)))
        assert np.array_equal(block(env, observer, "to_act"), one_hot(n, rel_seat(seat, observer, n)))
        assert env.observe(f"player_{observer}")["action_mask"].any() == (observer == seat)


def check_forced(env, value):
    assert env.unwrapped.engine.table.forced == value
    for observer in range(env.unwrapped.num_players):
        assert block(env, observer, "forced_swap")[0] == value


def check_preparation(env, value):
    for observer in range(env.unwrapped.num_players):
        assert block(env, observer, "preparation")[0] == value


def check_knowledge(env, value):
    """{(observer, place): name (certain) or {name: probability}}; places absolute."""
    for (observer, place), expected in value.items():
        row = block(env, observer, "knowledge")[rel_place(place, observer, env)]
        if isinstance(expected, str):
            expected = {expected: 1.0}
        want = np.zeros(len(CHARACTER_ORDER))
        for name, p in expected.items():
            want[CHARACTER_ORDER.index(name)] = p
        np.testing.assert_allclose(row, want, atol=1e-6, err_msg=f"player_{observer} about place {place}")


def check_revealed(env, value):
    """{place: name} revealed this turn, on the table."""
    table = env.unwrapped.engine.table
    assert {p: CHARACTER_ORDER[c] for p, c in table.revealed.items()} == value


def check_shown(env, value):
    """{place: name}: the record's card shown at each place (dealt or revealed) and not moved since, for every seat."""
    for observer in range(env.unwrapped.num_players):
        shown = block(env, observer, "revealed")
        expected = np.zeros_like(shown)
        for place, name in value.items():
            expected[rel_place(place, observer, env), CHARACTER_ORDER.index(name)] = 1
        assert np.array_equal(shown, expected)


def check_announcement(env, value):
    """(announcer, character, [claimants]) or None."""
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    for observer in range(n):
        if value is None:
            assert not block(env, observer, "announcement").any()
            assert not block(env, observer, "announcer").any()
            continue
        announcer, character, claimants = value
        assert np.array_equal(block(env, observer, "announcement"), one_hot(12, CHARACTER_ORDER.index(character)))
        assert np.array_equal(block(env, observer, "announcer"), one_hot(n, rel_seat(announcer, observer, n)))
        expected = np.zeros(n, dtype=np.float32)
        for c in claimants:
            expected[rel_seat(c, observer, n)] = 1
        assert np.array_equal(block(env, observer, "claimants"), expected)
    if value is not None:
        assert table.claimants == list(value[2])


def check_winners(env, value):
    names = [f"player_{s}" for s in value]
    for seat, agent in enumerate(env.possible_agents):
        assert env.infos[agent]["winners"] == names
        assert env.infos[agent]["won"] == (seat in value)


def check_rewards(env, value):
    assert [env.rewards[a] for a in env.possible_agents] == [float(v) for v in value]


def check_infos(env, value):
    for agent in env.possible_agents:
        for key, expected in value.items():
            assert env.infos[agent][key] == expected, key


def check_active(env, value):
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.active == value
    for observer in range(n):
        assert np.array_equal(block(env, observer, "active_player"), one_hot(n, rel_seat(value, observer, n)))


CHECKS = {
    "cards": check_cards,
    "coins": check_coins,
    "courthouse": check_courthouse,
    "from_bank": check_from_bank,
    "ask": check_ask,
    "legal": check_legal,
    "allowed": check_allowed,
    "forbidden": check_forbidden,
    "forced": check_forced,
    "preparation": check_preparation,
    "knowledge": check_knowledge,
    "revealed": check_revealed,
    "shown": check_shown,
    "announcement": check_announcement,
    "winners": check_winners,
    "rewards": check_rewards,
    "infos": check_infos,
    "active": check_active,
}


def check(env, expect: dict) -> None:
    for key, value in expect.items():
        CHECKS[key](env, value)


def table_test(scenarios: list[Scenario]):
    return pytest.mark.parametrize("sc", scenarios, ids=[s.name for s in scenarios])


def swaps(n: int, centre: int = 0) -> list[str]:
    """Every swap-or-not name of a one-card seat."""
    targets = [f"+{k}" for k in range(1, n)] + [f"centre {j}" for j in range(1, centre + 1)]
    return [f"{w} {t}" for t in targets for w in ("swap", "no swap")]


# === Setup ==================================================================

RECOMMENDED = {
    2: [JUD, BIS, KIN, FOO, QUE, WIT],
    3: [JUD, BIS, KIN, FOO, QUE, WIT],
    4: [JUD, BIS, FOO, QUE, THI, CHE],
    5: [JUD, BIS, FOO, QUE, WIT, CHE],
    6: [JUD, BIS, FOO, QUE, WIT, CHE],
    7: [JUD, BIS, FOO, QUE, THI, WIT, SPY],
    8: [JUD, BIS, KIN, FOO, QUE, WIT, PEA, PEA],
    9: [JUD, BIS, KIN, FOO, QUE, WIT, PEA, PEA, CHE],
    10: [JUD, BIS, KIN, FOO, QUE, WIT, PEA, PEA, CHE, SPY],
    11: [JUD, BIS, KIN, FOO, QUE, WIT, PEA, PEA, CHE, SPY, INQ],
    12: [JUD, BIS, KIN, FOO, QUE, WIT, PEA, PEA, CHE, SPY, INQ, WID],
    13: list(CHARACTER_ORDER) + [PEA],
}
CENTRE = {2: 2, 3: 0, 4: 2, 5: 1}  # centre cards; none from 6 players without extra cards


@pytest.mark.parametrize("n", range(2, 14))
def test_recommended_set_coins_and_open_deal(n):
    env = mascarade_v1.env(num_players=n)
    env.reset(seed=n)
    engine = env.unwrapped.engine
    assert sorted(CHARACTER_ORDER[c] for c in engine.cards) == sorted(RECOMMENDED[n])
    hand = 2 if n <= 3 else 1
    assert len(engine.cards) == n * hand + CENTRE.get(n, 0)
    check_coins(env, [6] * n)
    check_courthouse(env, 0)
    check_from_bank(env, 0)
    for observer in range(n):  # the open deal: every seat knows every card
        expected = {(observer, p): CHARACTER_ORDER[c] for p, c in enumerate(engine.cards)}
        check_knowledge(env, expected)
        assert np.array_equal(block(env, observer, "in_play"),
                              [RECOMMENDED[n].count(c) for c in CHARACTER_ORDER])


EXTRA = [
    (6, 1, [JUD, BIS, FOO, QUE, WIT, CHE, KIN]),
    (6, 2, [JUD, BIS, FOO, QUE, WIT, CHE, KIN, THI]),
    (7, 1, [JUD, BIS, FOO, QUE, THI, WIT, SPY, KIN]),
    (7, 2, [JUD, BIS, FOO, QUE, THI, WIT, SPY, KIN, CHE]),
    (8, 2, RECOMMENDED[8] + [THI, SPY]),
    (11, 2, RECOMMENDED[11] + [THI, WID]),
    (12, 1, RECOMMENDED[12] + [THI]),
]


@pytest.mark.parametrize("n,extra,characters", EXTRA, ids=[f"{n} players +{e}" for n, e, _ in EXTRA])
def test_extra_centre_cards(n, extra, characters):
    env = mascarade_v1.env(num_players=n, extra_centre_cards=extra)
    env.reset(seed=0)
    engine = env.unwrapped.engine
    assert sorted(CHARACTER_ORDER[c] for c in engine.cards) == sorted(characters)
    assert env.unwrapped.config.num_centre == extra
    assert len(engine.cards) == n + extra


def test_custom_character_set_is_dealt():
    custom = [JUD, KIN, QUE, WID, SPY, THI]
    env = mascarade_v1.env(num_players=5, characters=custom)
    env.reset(seed=0)
    assert sorted(CHARACTER_ORDER[c] for c in env.unwrapped.engine.cards) == sorted(custom)


def test_the_first_player_is_drawn_from_the_seed():
    env = mascarade_v1.env(num_players=6)
    firsts = set()
    for seed in range(30):
        env.reset(seed=seed)
        firsts.add(env.unwrapped.engine.table.active)
    assert firsts == set(range(6))


# === Action ids =================================================================

ACTION_TABLES = [(n, 0) for n in (2, 3, 4, 5, 8, 13)] + [(7, 2)]  # (players, extra centre cards)


@pytest.mark.parametrize("n,extra", ACTION_TABLES, ids=[f"{n} players +{e}" for n, e in ACTION_TABLES])
def test_documented_action_count(n, extra):
    places = n + {4: 2, 5: 1}.get(n, extra)
    expected = {2: 75, 3: 84}[n] if n <= 3 else n**2 + 3 * places + 26
    assert mascarade_v1.env(num_players=n, extra_centre_cards=extra).action_space("player_0").n == expected


def test_documented_action_examples_at_five_players():
    env = mascarade_v1.env(num_players=5)
    assert env.action_space("player_0").n == 69
    ids = {name: env.unwrapped.string_to_action(name) for name in
           ("swap +1", "no swap +1", "no swap centre 1", "look", "announce Judge")}
    assert ids == {"swap +1": 0, "no swap +1": 1, "no swap centre 1": 9, "look": 10, "announce Judge": 11}


# === Preparation turns and the three actions ===================================

TURNS = [
    Scenario(
        "the first four turns are preparation turns: swap or not only",
        5, D5, [],
        {"ask": ("turn", 0), "preparation": True, "forced": True, "legal": swaps(5, 1)},
    ),
    Scenario(
        "after a preparation turn the next seat (left) plays",
        5, D5, ["0: no swap +1"],
        {"ask": ("turn", 1), "active": 1, "legal": swaps(5, 1)},
    ),
    Scenario(
        "the preparation turns are the first four turns, whoever starts",
        5, D5, prep(5, first=3), {"ask": ("turn", 2), "preparation": False, "forced": False}, first=3,
    ),
    Scenario(
        "from the fifth turn: swap or not, look, or announce a character in play",
        5, D5, prep(5),
        {"ask": ("turn", 4), "preparation": False, "forced": False,
         "legal": swaps(5, 1) + ["look"] + [f"announce {c}" for c in (JUD, BIS, FOO, QUE, WIT, CHE)]},
    ),
    Scenario(
        "swap: the two cards change places; the actor knows, the others see the pair mixed",
        5, D5, ["0: swap +2"],
        {"cards": [FOO, BIS, JUD, QUE, WIT, CHE],
         "knowledge": {(0, 0): FOO, (0, 2): JUD, (1, 0): {JUD: 0.5, FOO: 0.5}, (1, 2): {JUD: 0.5, FOO: 0.5},
                       (2, 2): {JUD: 0.5, FOO: 0.5}, (3, 1): BIS, (4, 5): CHE}},
    ),
    Scenario(
        "no swap: nothing moves; the actor knows, the others cannot tell it from a swap",
        5, D5, ["0: no swap +2"],
        {"cards": D5, "knowledge": {(0, 0): JUD, (0, 2): FOO, (1, 0): {JUD: 0.5, FOO: 0.5},
                                    (2, 2): {JUD: 0.5, FOO: 0.5}}},
    ),
    Scenario(
        "swap with a centre card",
        5, D5, ["0: swap centre 1"],
        {"cards": [CHE, BIS, FOO, QUE, WIT, JUD], "knowledge": {(0, 0): CHE, (3, 5): {JUD: 0.5, CHE: 0.5}}},
    ),
    Scenario(
        "a watched swap mixes what the watcher knew about both places",
        5, D5, ["0: swap +1", "1: no swap +1"],
        {"cards": [BIS, JUD, FOO, QUE, WIT, CHE],
         "knowledge": {(3, 0): {JUD: 0.5, BIS: 0.5}, (3, 1): {JUD: 0.25, BIS: 0.25, FOO: 0.5},
                       (3, 2): {JUD: 0.25, BIS: 0.25, FOO: 0.5}, (1, 1): {JUD: 0.5, BIS: 0.5},
                       (0, 0): BIS, (0, 1): {JUD: 0.5, FOO: 0.5}}},
    ),
    Scenario(
        "look: the actor sees its card; everyone else learns nothing",
        5, D5, ["0: swap +1", "1: no swap +1", "2: no swap +1", "3: no swap +1", "4: swap +1", "0: look"],
        {"cards": [WIT, JUD, FOO, QUE, BIS, CHE], "ask": ("turn", 1),
         "knowledge": {(0, 0): WIT, (0, 4): BIS, (2, 0): {JUD: 0.25, BIS: 0.25, QUE: 0.25, WIT: 0.25}}},
    ),
    Scenario(
        "announce: every other player is asked in turn order from the announcer's left",
        5, D5, prep(5) + ["4: announce Queen"],
        {"ask": ("claim", 0), "legal": ["claim", "pass"], "announcement": (4, QUE, [])},
    ),
    Scenario(
        "claims and passes go round to the announcer's right neighbour",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: claim"],
        {"ask": ("claim", 3), "announcement": (4, QUE, [0, 2])},
    ),
    Scenario(
        "nobody claims: the announcer uses the power unrevealed, whatever it holds",
        5, D5, prep(5) + ["4: announce Queen", "0: pass", "1: pass", "2: pass", "3: pass"],
        {"coins": [6, 6, 6, 6, 8], "from_bank": 2, "revealed": {}, "ask": ("turn", 0), "announcement": None,
         "knowledge": {(0, 4): {BIS: 0.125, FOO: 0.125, QUE: 0.25, WIT: 0.5}}},
    ),
    Scenario(
        "claims: all claimants reveal; the true one uses the power; false ones pay 1 to the courthouse",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: claim"],
        {"coins": [5, 6, 6, 8, 5], "courthouse": 2, "from_bank": 2, "ask": ("turn", 0), "forced": True},
    ),
    Scenario(
        "reveals are public knowledge and end up face down where they were",
        5, D5, ["0: swap +1", "1: no swap +2", "2: no swap +1", "3: no swap +1",
                "4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
        {"cards": [BIS, JUD, FOO, QUE, WIT, CHE], "knowledge": {(3, 0): BIS, (3, 4): WIT, (2, 0): BIS}},
    ),
    Scenario(
        "only characters in play can be announced",
        4, D4, prep(4),
        {"forbidden": ["announce King", "announce Witch", "announce Spy"],
         "allowed": ["announce Thief", "announce Cheat"]},
    ),
]


@table_test(TURNS)
def test_turns(sc):
    run(sc)


def test_the_record_shows_each_card_shown_until_a_swap_or_not_moves_it():
    env = new_env(5, D5)
    check_shown(env, dict(enumerate(D5)))  # the open deal
    play(env, ["0: swap +2"])
    check_shown(env, {1: BIS, 3: QUE, 4: WIT, 5: CHE})
    play(env, prep(5)[1:] + ["4: announce Witch", "0: claim", "1: pass", "2: pass", "3: pass"])
    check_ask(env, ("witch", 4))  # the power is pending
    check_revealed(env, {4: WIT, 0: FOO})
    check_shown(env, {0: FOO, 4: WIT, 5: CHE})  # 1 to 3 were handled by the preparation turns
    play(env, ["4: witch +2"])
    check_revealed(env, {})
    check_shown(env, {0: FOO, 4: WIT, 5: CHE})  # the turn is over, the record stays
    play(env, ["0: no swap +4"])  # seat 0 is forced to swap or not, with seat 4's card
    check_shown(env, {5: CHE})


# === The forced swap after a reveal ============================================

FORCED = [
    Scenario(
        "a player revealed during the previous turn may only swap or not, with another player's card",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
        {"ask": ("turn", 0), "forced": True, "legal": swaps(5)},
    ),
    Scenario(
        "the forced swap-or-not is with another player's card, never a centre card",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
        {"forbidden": ["swap centre 1", "no swap centre 1"]},
    ),
    Scenario(
        "the announcer revealed during its own turn is free at its next turn",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass",
                          "0: no swap +1", "1: look", "2: look", "3: look"],
        {"ask": ("turn", 4), "forced": False},
    ),
    Scenario(
        "a reveal two turns ago does not force",
        5, D5, prep(5) + ["4: announce Queen", "0: pass", "1: claim", "2: pass", "3: pass", "0: look"],
        {"ask": ("turn", 1), "forced": False},
    ),
    Scenario(
        "a forced player cannot look or announce",
        5, D5, prep(5) + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
        {"forbidden": ["look", "announce Judge"]},
    ),
    Scenario(
        "not forced when nobody claimed",
        5, D5, prep(5) + ["4: announce Queen", "0: pass", "1: pass", "2: pass", "3: pass"],
        {"forced": False, "allowed": ["look", "announce Judge"]},
    ),
]


@table_test(FORCED)
def test_forced_swap(sc):
    run(sc)


# === Powers ====================================================================

# 5 players, after preparation: seat 4 plays. D5: 0 Judge, 1 Bishop, 2 Fool, 3 Queen, 4 Witch, centre Cheat.
P5 = prep(5)
PASS_ALL_FROM_4 = ["0: pass", "1: pass", "2: pass", "3: pass"]
# 13 players, all the characters: seat s holds D13[s]; after preparation seat 4 (Queen) plays.
P13 = prep(13)


def passes(n: int, announcer: int, *claimants: int) -> list[str]:
    """The claim round after `announcer`: the listed seats claim, the others pass."""
    seats = [(announcer + k) % n for k in range(1, n)]
    return [f"{s}: {'claim' if s in claimants else 'pass'}" for s in seats]


POWERS = [
    # Queen and King
    Scenario("Queen: 2 coins from the bank", 5, D5, P5 + ["4: announce Queen"] + passes(5, 4, 3),
             {"coins": [6, 6, 6, 8, 5], "courthouse": 1, "from_bank": 2}),
    Scenario("King: 3 coins from the bank", 13, D13, P13 + ["4: announce King"] + passes(13, 4, 2),
             {"coins": [6, 6, 9, 6, 5] + [6] * 8, "from_bank": 3, "courthouse": 1}),
    # Judge
    Scenario("Judge: takes the courthouse", 5, D5, P5 + [set_courthouse(3), "4: announce Judge"] + passes(5, 4, 0),
             {"coins": [9, 6, 6, 6, 5], "courthouse": 1}),
    Scenario("Judge: this announcement's fines are paid after the power",
             5, D5, P5 + [set_courthouse(2), "4: announce Judge"] + passes(5, 4, 0, 2, 3),
             {"coins": [8, 6, 5, 5, 5], "courthouse": 3}),
    Scenario("Judge unchallenged, an empty courthouse: nothing", 5, D5, P5 + ["4: announce Judge"] + PASS_ALL_FROM_4,
             {"coins": [6] * 5, "courthouse": 0}),
    # Bishop
    Scenario("Bishop: 2 coins from the single richest other player",
             5, D5, P5 + [set_coins(6, 6, 9, 6, 6), "4: announce Bishop"] + PASS_ALL_FROM_4,
             {"coins": [6, 6, 7, 6, 8], "from_bank": 0, "ask": ("turn", 0)}),
    Scenario("Bishop: on a tie the Bishop chooses among the richest",
             5, D5, P5 + [set_coins(6, 9, 5, 9, 6), "4: announce Bishop"] + PASS_ALL_FROM_4,
             {"ask": ("bishop", 4), "legal": ["bishop +2", "bishop +4"]}),
    Scenario("Bishop: the chosen richest pays",
             5, D5, P5 + [set_coins(6, 9, 5, 9, 6), "4: announce Bishop"] + PASS_ALL_FROM_4 + ["4: bishop +4"],
             {"coins": [6, 9, 5, 7, 8], "ask": ("turn", 0)}),
    Scenario("Bishop: the true Bishop, not the announcer, takes; the announcer is fined after",
             5, D5, P5 + [set_coins(6, 6, 9, 6, 6), "4: announce Bishop"] + passes(5, 4, 1),
             {"coins": [6, 8, 7, 6, 5], "courthouse": 1}),
    Scenario("Bishop: the richest among the others, not the Bishop itself",
             5, D5, P5 + [set_coins(6, 10, 6, 8, 6), "4: announce Bishop"] + passes(5, 4, 1),
             {"coins": [6, 12, 6, 6, 5]}),
    # Fool
    Scenario("Fool: 1 coin, then the cards of two other players to swap or not (no centre card)",
             5, D5, P5 + ["4: announce Fool"] + PASS_ALL_FROM_4,
             {"coins": [6, 6, 6, 6, 7], "from_bank": 1, "ask": ("fool", 4),
              "legal": [f"fool {w} +{a} and +{b}" for a in range(1, 5) for b in range(a + 1, 5)
                        for w in ("swap", "no swap")]}),
    Scenario("Fool: the swap is made",
             5, D5, P5 + ["4: announce Fool"] + PASS_ALL_FROM_4 + ["4: fool swap +1 and +3"],
             {"cards": [FOO, BIS, JUD, QUE, WIT, CHE], "ask": ("turn", 0)}),
    Scenario("Fool: or not swapped",
             5, D5, P5 + ["4: announce Fool"] + PASS_ALL_FROM_4 + ["4: fool no swap +1 and +2"],
             {"cards": D5, "knowledge": {(4, 0): {JUD: 0.5, BIS: 0.5}, (4, 1): {JUD: 0.25, BIS: 0.25, FOO: 0.5},
                                 (3, 0): {JUD: 0.375, BIS: 0.375, FOO: 0.25}, (4, 5): CHE}}),
    Scenario("Fool: the true Fool out of turn",
             5, D5, P5 + ["4: announce Fool"] + passes(5, 4, 2),
             {"ask": ("fool", 2), "coins": [6, 6, 7, 6, 6],
              "legal": [f"fool {w} +{a} and +{b}" for a in range(1, 5) for b in range(a + 1, 5)
                        for w in ("swap", "no swap")]}),
    # Witch
    Scenario("Witch: choose whose fortune to take, or keep one's own",
             5, D5, P5 + [set_coins(6, 11, 2, 6, 3), "4: announce Witch"] + PASS_ALL_FROM_4,
             {"ask": ("witch", 4), "legal": ["witch +1", "witch +2", "witch +3", "witch +4", "witch no swap"]}),
    Scenario("Witch: she may decline, and every fortune stays",
             5, D5, P5 + [set_coins(6, 11, 2, 6, 3), "4: announce Witch"] + passes(5, 4, 1) + ["4: witch no swap"],
             {"coins": [6, 10, 2, 6, 3], "courthouse": 1, "ask": ("turn", 0)}),
    Scenario("Witch: the two fortunes swap",
             5, D5, P5 + [set_coins(6, 11, 2, 6, 3), "4: announce Witch"] + PASS_ALL_FROM_4 + ["4: witch +2"],
             {"coins": [6, 3, 2, 6, 11], "from_bank": 0}),
    Scenario("Witch: the false claimant's fine is paid after the swap",
             5, D5, P5 + [set_coins(6, 11, 2, 6, 3), "4: announce Witch"] + passes(5, 4, 1) + ["4: witch +2"],
             {"coins": [6, 2, 2, 6, 11], "courthouse": 1}),
    # Thief
    Scenario("Thief: 1 coin from each neighbour", 4, D4,
             prep(4) + ["0: swap centre 1", "1: announce Thief", "2: pass", "3: pass", "0: claim"],
             {"coins": [8, 4, 6, 5], "courthouse": 1, "cards": [THI, BIS, FOO, QUE, JUD, CHE]}),
    Scenario("Thief: a neighbour with no coin left pays nothing (and the game ends)",
             4, D4, prep(4) + ["0: swap centre 1", set_coins(6, 6, 6, 1), "1: announce Thief", "2: pass", "3: pass",
                               "0: claim"],
             {"coins": [8, 5, 6, 0], "ask": "over", "winners": [0], "courthouse": 0}),
    # Cheat
    Scenario("Cheat: with 10 coins or more the Cheat wins",
             4, D4, prep(4) + ["0: swap centre 2", set_coins(10, 6, 6, 6), "1: announce Cheat", "2: pass", "3: pass",
                               "0: claim"],
             {"ask": "over", "winners": [0], "rewards": [1, -1, -1, -1], "courthouse": 0, "coins": [10, 6, 6, 6]}),
    Scenario("Cheat: below 10 coins nothing happens",
             4, D4, prep(4) + ["0: swap centre 2", set_coins(9, 6, 6, 6), "1: announce Cheat", "2: pass", "3: pass",
                               "0: claim"],
             {"ask": ("turn", 2), "coins": [9, 5, 6, 6]}),
    Scenario("Cheat unchallenged: the announcer with 10 coins wins whatever it holds",
             4, D4, prep(4) + ["0: look", set_coins(6, 12, 6, 6), "1: announce Cheat", "2: pass", "3: pass", "0: pass"],
             {"ask": "over", "winners": [1]}),
    # Widow (13 players: seat 11)
    Scenario("Widow: coins from the bank up to 10", 13, D13, P13 + [set_coins(*[6] * 11, 3, 6), "4: announce Widow"]
             + passes(13, 4, 11), {"coins": [6] * 4 + [5] + [6] * 6 + [10, 6], "from_bank": 7}),
    Scenario("Widow: with 10 or more, no gain and no loss", 13, D13,
             P13 + [set_coins(*[6] * 11, 12, 6), "4: announce Widow"] + passes(13, 4, 11),
             {"coins": [6] * 4 + [5] + [6] * 6 + [12, 6], "from_bank": 0}),
    # Peasants (13 players: seats 8 and 12)
    Scenario("Peasant unchallenged: 1 coin", 13, D13, P13 + ["4: announce Peasant"] + passes(13, 4),
             {"coins": [6] * 4 + [7] + [6] * 8, "from_bank": 1}),
    Scenario("both Peasants revealed: 2 coins each", 13, D13, P13 + ["4: announce Peasant"] + passes(13, 4, 8, 12),
             {"coins": [6] * 4 + [5] + [6] * 3 + [8] + [6] * 3 + [8], "from_bank": 4, "courthouse": 1}),
    Scenario("one Peasant revealed: 1 coin", 13, D13, P13 + ["4: announce Peasant"] + passes(13, 4, 8, 9),
             {"coins": [6] * 4 + [5] + [6] * 3 + [7, 5] + [6] * 3, "from_bank": 1, "courthouse": 2}),
    Scenario("a Peasant announcing with the other Peasant claiming: 2 coins each", 13, D13,
             P13 + ["4: no swap +1", "5: no swap +1", "6: no swap +1", "7: no swap +1", "8: announce Peasant"]
             + passes(13, 8, 12), {"coins": [6] * 8 + [8] + [6] * 3 + [8], "from_bank": 4}),
    # Spy (13 players: seat 7)
    Scenario("Spy: choose another card to look at", 13, D13, P13 + ["4: announce Spy"] + passes(13, 4, 7),
             {"ask": ("spy look", 7), "legal": [f"spy +{k}" for k in range(1, 13)]}),
    Scenario("Spy: looks at its own card and the other; only the Spy sees them", 13, D13,
             P13 + ["4: announce Spy"] + passes(13, 4, 7) + ["7: spy +5"],
             {"ask": ("spy swap", 7), "legal": ["spy swap", "spy no swap"], "knowledge": {(7, 7): SPY, (7, 12): PEA}}),
    Scenario("Spy: swap, known to the Spy, mixed for the others", 13, D13,
             P13 + ["4: announce Spy"] + passes(13, 4, 7) + ["7: spy +5", "7: spy swap"],
             {"cards": D13[:7] + [PEA] + D13[8:12] + [SPY],
              "knowledge": {(7, 7): PEA, (7, 12): SPY, (0, 7): {SPY: 0.5, PEA: 0.5}, (0, 12): {SPY: 0.5, PEA: 0.5}},
              "ask": ("turn", 5)}),
    Scenario("Spy: or not", 13, D13, P13 + ["4: announce Spy"] + passes(13, 4, 7) + ["7: spy +5", "7: spy no swap"],
             {"cards": D13, "knowledge": {(7, 7): SPY, (7, 12): PEA}}),
    Scenario("Spy unchallenged: the announcer looks at its own card", 13, D13,
             P13 + ["4: announce Spy"] + passes(13, 4) + ["4: spy +1"],
             {"ask": ("spy swap", 4), "knowledge": {(4, 4): QUE, (4, 5): THI}}),
    # Inquisitor (13 players: seat 10)
    Scenario("Inquisitor: choose another player to question", 13, D13, P13 + ["4: announce Inquisitor"]
             + passes(13, 4, 10), {"ask": ("inquisitor", 10), "legal": [f"inquisitor +{k}" for k in range(1, 13)]}),
    Scenario("Inquisitor: the questioned player names a character in play", 13, D13,
             P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +3"],
             {"ask": ("guess", 0), "legal": [f"guess {c}" for c in CHARACTER_ORDER]}),
    Scenario("Inquisitor: a wrong guess pays 4 to the Inquisitor; the card is revealed", 13, D13,
             P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +3", "0: guess King"],
             {"coins": [2] + [6] * 3 + [5] + [6] * 5 + [10, 6, 6], "knowledge": {(5, 0): JUD}, "ask": ("turn", 5)}),
    Scenario("Inquisitor: a right guess costs nothing", 13, D13,
             P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +3", "0: guess Judge"],
             {"coins": [6] * 4 + [5] + [6] * 8}),
    Scenario("Inquisitor: a questioned player who does not play next is not affected", 13, D13,
             P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +2", "12: guess Peasant"],
             {"ask": ("turn", 5), "forced": False}),
]


@table_test(POWERS)
def test_powers(sc):
    run(sc)


def test_the_inquisitors_target_revealed_is_forced_to_swap():
    env = new_env(13, D13)
    play(env, P13 + ["4: announce Inquisitor"] + passes(13, 4, 10) + ["10: inquisitor +8", "5: guess King"])
    check_ask(env, ("turn", 5))
    check_forced(env, True)


def test_the_spy_decision_shows_its_two_cards():
    env = new_env(13, D13)
    play(env, P13 + ["4: announce Spy"] + passes(13, 4, 7) + ["7: spy +5"])
    cards = block(env, 0, "power_cards")
    assert set(np.flatnonzero(cards)) == {7, 12}  # seat 0 sees places 7 and 12 as relative 7 and 12


# === End of the game ===========================================================

END = [
    Scenario("13 coins wins at once", 5, D5, P5 + [set_coins(6, 6, 6, 11, 6), "4: announce Queen"] + passes(5, 4, 3),
             {"ask": "over", "winners": [3], "rewards": [-1, -1, -1, 1, -1], "coins": [6, 6, 6, 13, 6],
              "courthouse": 0}),
    Scenario("a player at 0 ends the game: the richest wins", 5, D5,
             P5 + [set_coins(6, 1, 8, 6, 6), "4: announce Queen"] + passes(5, 4, 1),
             {"ask": "over", "winners": [2], "rewards": [-1, -1, 1, -1, -1], "coins": [6, 0, 8, 6, 5],
              "courthouse": 2}),
    Scenario("the richest tied share the win", 5, D5,
             P5 + [set_coins(8, 1, 6, 6, 5), "4: announce Queen"] + passes(5, 4, 1, 3),
             {"ask": "over", "winners": [0, 3], "rewards": [1, -1, -1, 1, -1], "coins": [8, 0, 6, 8, 4]}),
    Scenario("a power that ends the game: the fines are not paid", 5, D5,
             P5 + [set_coins(6, 11, 6, 7, 6), "4: announce Bishop"] + passes(5, 4, 1, 2),
             {"ask": "over", "winners": [1], "coins": [6, 13, 6, 5, 6], "courthouse": 0}),
    Scenario("the Fool's coin reaching 13 ends the game before its swap", 5, D5,
             P5 + [set_coins(6, 6, 6, 6, 12), "4: announce Fool"] + PASS_ALL_FROM_4,
             {"ask": "over", "winners": [4]}),
    Scenario("the Bishop taking the last coins of a player ends the game", 5, D5,
             P5 + [set_coins(2, 2, 1, 1, 1), "4: announce Bishop"] + PASS_ALL_FROM_4 + ["4: bishop +1"],
             {"ask": "over", "coins": [0, 2, 1, 1, 3], "winners": [4]}),
    Scenario("final infos: coins, true characters, winners", 5, D5,
             P5 + [set_coins(6, 6, 6, 11, 6), "4: announce Queen"] + passes(5, 4, 3),
             {"infos": {"coins": {"player_0": 6, "player_1": 6, "player_2": 6, "player_3": 13, "player_4": 6},
                        "characters": {"player_0": JUD, "player_1": BIS, "player_2": FOO, "player_3": QUE,
                                       "player_4": WIT},
                        "centre_characters": [CHE], "winners": ["player_3"], "courthouse": 0}}),
]


@table_test(END)
def test_end_of_game(sc):
    run(sc)


def test_the_coin_blocks_are_clipped_at_13():
    """The bank is unlimited: the blocks have the finite bound 13, and larger counts show as 13."""
    env = new_env(5, D5)
    space = env.observation_space("player_0")["observation"]
    fields = env.unwrapped.observation_fields
    assert list(space.high[fields["coins"]]) == [13] * 5
    assert list(space.high[fields["courthouse"]]) == [13]
    play(env, P5 + [set_courthouse(20)])
    assert block(env, 4, "courthouse")[0] == 13
    play(env, ["4: announce Judge"] + passes(5, 4, 0))  # the Judge takes the 20 coins: 26
    assert env.unwrapped.engine.is_over
    assert list(env.unwrapped.engine.table.coins) == [26, 6, 6, 6, 6]
    for observer in range(5):
        observation = env.observe(f"player_{observer}")["observation"]
        assert space.contains(observation)
        assert list(block(env, observer, "coins")) == [[13, 6, 6, 6, 6][(observer + k) % 5] for k in range(5)]


def test_the_turn_limit_truncates():
    env = mascarade_v1.env(num_players=4, max_turns=6)
    env.reset(seed=0, options={"setup": {"cards": D4, "first_player": 0}})
    play(env, prep(4) + ["0: look", "1: look"])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {a: 0.0 for a in env.possible_agents}
    characters = dict(zip(env.possible_agents, D4[:4]))
    for agent in env.possible_agents:  # what the end of a game would reveal, with no winners
        assert env.infos[agent] == {"result": "truncated", "winners": [], "truncated_after_turns": 6,
                                    "coins": {a: 6 for a in env.possible_agents}, "characters": characters,
                                    "centre_characters": D4[4:], "courthouse": 0, "from_bank": 0, "turns": 6,
                                    "character": characters[agent]}


def test_the_default_turn_limit_is_finite_and_well_above_natural_games():
    assert mascarade_v1.env().max_turns == 300
    rng = np.random.default_rng(0)
    for n in (2, 5, 13):
        env = mascarade_v1.env(num_players=n)
        for seed in range(50):
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert env.unwrapped.game_over and env.unwrapped.engine.turns_played < 300 / 2


class CoinLedger:
    """Coins replayed from the public events alone, with every flow to and from the bank counted."""

    def __init__(self, n: int):
        self.coins = [6] * n
        self.courthouse = 0
        self.from_bank = 0

    def replay(self, events) -> None:
        for e in events:
            if isinstance(e, ev.Paid):
                assert e.amount > 0
                if e.payer == BANK:
                    self.from_bank += e.amount
                elif e.payer == COURTHOUSE:
                    self.courthouse -= e.amount
                else:
                    self.coins[e.payer] -= e.amount
                if e.payee == COURTHOUSE:
                    self.courthouse += e.amount
                else:
                    assert e.payee >= 0, "the bank never receives coins"
                    self.coins[e.payee] += e.amount
            elif isinstance(e, ev.FortunesSwapped):
                assert (self.coins[e.witch], self.coins[e.target]) == (e.witch_coins, e.target_coins)
                self.coins[e.witch], self.coins[e.target] = e.target_coins, e.witch_coins


@pytest.mark.parametrize("n", [2, 5, 13])
def test_the_public_events_account_for_every_coin(n):
    env = mascarade_v1.env(num_players=n)
    rng = np.random.default_rng(n)
    endings = {"13 coins": 0, "broke": 0}
    for seed in range(60):
        env.reset(seed=seed)
        table = env.unwrapped.engine.table
        ledger = CoinLedger(n)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            ledger.replay(env.unwrapped.last_events)
            assert (ledger.coins, ledger.courthouse, ledger.from_bank) == (table.coins, table.courthouse,
                                                                            table.from_bank)
        if env.unwrapped.engine.is_over and (max(table.coins) >= 13 or min(table.coins) == 0):
            endings["13 coins" if max(table.coins) >= 13 else "broke"] += 1
    assert all(endings.values()), endings


# === 2 and 3 players: two cards each ===========================================

TWO_CARDS = [
    Scenario("2 players: two cards each, the 2 spare cards in the centre", 2, D2, [],
             {"ask": ("turn", 0), "knowledge": {(1, 0): JUD, (1, 1): BIS, (0, 2): KIN, (0, 5): WIT},
              "legal": [f"{w} {o} with {x}" for o in "AB" for x in ["A", "B", "+1 A", "+1 B", "centre 1", "centre 2"]
                        if x != o for w in ("swap", "no swap")]}),
    Scenario("3 players: two cards each, no centre", 3, D3, [],
             {"legal": [f"{w} {o} with {x}" for o in "AB" for x in ["A", "B", "+1 A", "+1 B", "+2 A", "+2 B"]
                        if x != o for w in ("swap", "no swap")]}),
    Scenario("swap-or-not with one's own other card", 2, D2, ["0: swap A with B"],
             {"cards": [BIS, JUD, KIN, FOO, QUE, WIT], "knowledge": {(0, 0): BIS, (1, 0): {JUD: 0.5, BIS: 0.5}}}),
    Scenario("swap-or-not from the B card with the opponent's A", 2, D2, ["0: swap B with +1 A"],
             {"cards": [JUD, KIN, BIS, FOO, QUE, WIT]}),
    Scenario("look at one of one's two cards; announce naming the card", 3, D3, prep(3, two_cards=True),
             {"ask": ("turn", 1), "allowed": ["look A", "look B", "announce King with A", "announce Queen with B"],
              "forbidden": ["announce Spy with A"]}),
    Scenario("look at card B", 3, D3, ["0: swap B with +1 A"] + prep(3, 1, True)[:3] + ["1: look B"],
             {"knowledge": {(1, 3): FOO, (1, 2): {JUD: 0.25, BIS: 0.25, KIN: 0.25, QUE: 0.25}}}),
    Scenario("claim naming one of one's cards", 3, D3, prep(3, two_cards=True) + ["1: announce Queen with A"],
             {"ask": ("claim", 2), "legal": ["claim with A", "claim with B", "pass"]}),
    Scenario("claims reveal the cards named; the true one uses the power", 3, D3,
             prep(3, two_cards=True) + ["1: announce Queen with A", "2: claim with A", "0: claim with B"],
             {"knowledge": {(0, 2): KIN, (1, 4): QUE, (2, 1): BIS}, "coins": [5, 5, 8], "courthouse": 2,
              "ask": ("turn", 2),
              "forced": True}),
    Scenario("the Spy looks at its own other card if it likes (the card it claimed with stays out)", 2,
             [JUD, SPY, KIN, FOO, QUE, WIT], prep(2, two_cards=True) + ["0: announce Spy with B", "1: pass"],
             {"ask": ("spy look", 0), "legal": ["spy A", "spy +1 A", "spy +1 B", "spy centre 1", "spy centre 2"]},
             kwargs={"characters": [JUD, SPY, KIN, FOO, QUE, WIT]}),
    Scenario("the Fool at 3 players: one card of each other player", 3, D3,
             prep(3, two_cards=True) + ["1: announce Fool with B", "2: pass", "0: pass"],
             {"ask": ("fool", 1), "legal": [f"fool {w} +1 {x} and +2 {y}" for x in "AB" for y in "AB"
                                            for w in ("swap", "no swap")]}),
    Scenario("the Fool at 2 players: the one other player's two cards", 2, D2,
             prep(2, two_cards=True) + ["0: announce Fool with A", "1: pass"],
             {"ask": ("fool", 0), "legal": ["fool swap +1 A and +1 B", "fool no swap +1 A and +1 B"]}),
    Scenario("the forced swap-or-not at 2 players: either own card with one of the other player's", 2, D2,
             prep(2, two_cards=True) + ["0: announce Witch with A", "1: claim with B"],
             {"ask": ("turn", 1), "legal": [f"{w} {o} with +1 {x}" for o in "AB" for x in "AB"
                                            for w in ("swap", "no swap")]}),
    Scenario("the Thief at 2 players takes both coins from the one opponent", 2, [THI, JUD, KIN, FOO, QUE, BIS],
             prep(2, two_cards=True) + ["0: announce Thief with A", "1: claim with A"],
             {"coins": [8, 3], "courthouse": 1}, kwargs={"characters": [THI, JUD, KIN, FOO, QUE, BIS]}),
    Scenario("a reveal of either card forces the swap", 2, D2,
             prep(2, two_cards=True) + ["0: announce Witch with A", "1: claim with B"],
             {"ask": ("turn", 1), "forced": True, "coins": [5, 5], "courthouse": 2}),
]


@table_test(TWO_CARDS)
def test_two_and_three_players(sc):
    run(sc)


# === Bad input =================================================================

# The arguments every game has are checked by the conformance suite; these are Mascarade's own.
CONSTRUCTOR = [
    ({"extra_centre_cards": 1, "num_players": 5}, ["extra_centre_cards", "6 players"]),
    ({"extra_centre_cards": 3, "num_players": 8}, ["extra_centre_cards", "0 to 2"]),
    ({"extra_centre_cards": 1, "num_players": 13}, ["extra_centre_cards", "13 cards"]),
    ({"extra_centre_cards": "1", "num_players": 8}, ["extra_centre_cards"]),
    ({"characters": [JUD, KIN, QUE, WIT, SPY]}, ["characters", "6 cards"]),
    ({"characters": [JUD, KIN, QUE, WIT, SPY, "Pirate"]}, ["characters", "Pirate"]),
    ({"characters": [BIS, KIN, QUE, WIT, SPY, THI]}, ["characters", "Judge"]),
    ({"characters": [JUD, KIN, KIN, WIT, SPY, THI]}, ["characters", "one King"]),
    ({"characters": [JUD, KIN, QUE, WIT, SPY, THI, PEA, CHE], "num_players": 8}, ["characters", "Peasants"]),
    ({"characters": [JUD, KIN, QUE, WIT, PEA, PEA]}, ["characters", "Peasant", "8 players"]),
    ({"characters": [JUD, KIN, QUE, WIT, INQ, THI]}, ["characters", "Inquisitor", "8 players"]),
    ({"characters": [JUD, KIN, BIS, WIT, SPY, THI]}, ["characters", "third", "1 of 6"]),
    ({"reward": "score"}, ["reward", "'win'"]),
]


@pytest.mark.parametrize("kwargs,fragments", CONSTRUCTOR, ids=[str(k) for k, _ in CONSTRUCTOR])
def test_bad_constructor_arguments(kwargs, fragments):
    with pytest.raises(ValueError) as error:
        mascarade_v1.env(**kwargs)
    for fragment in fragments:
        assert fragment in str(error.value)


def test_characters_must_be_a_list():
    with pytest.raises(TypeError, match="characters must be a list"):
        mascarade_v1.env(characters="Judge")


def test_the_recommended_seven_player_set_is_accepted_as_a_custom_set():
    env = mascarade_v1.env(num_players=7, characters=RECOMMENDED[7])
    assert sorted(env.unwrapped.config.characters) == sorted(CHARACTER_ORDER.index(c) for c in RECOMMENDED[7])


def snapshot(env) -> tuple:
    eng = env.unwrapped.engine
    t = eng.table
    observations = {}
    for agent in env.possible_agents:
        o = env.observe(agent)
        observations[agent] = (o["observation"].tobytes(), o["action_mask"].tobytes())
    return (
        observations, list(eng.cards), list(t.coins), t.courthouse, t.from_bank,
        (t.active, t.turn, t.forced, t.decision, t.to_act, t.announcement, t.announcer, list(t.claimants),
         list(t.claim_places), dict(t.revealed), t.power_user, t.power_places, t.revealed_last_turn),
        env.agent_selection, dict(env.rewards), dict(env.terminations), eng.is_over,
    )


# (name, players, actions before, the bad action (a name or a raw value), message fragments)
ILLEGAL = [
    ("a look in a preparation turn", 5, [], "look", ["player_0", "'look'", "preparation"]),
    ("an announcement in a preparation turn", 5, [], "announce Judge", ["player_0", "preparation"]),
    ("a character not in play", 5, P5, "announce King", ["player_4", "King", "not in play"]),
    ("a look when forced to swap", 5, P5 + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
     "look", ["player_0", "revealed in the previous turn"]),
    ("a centre card when forced to swap", 5, P5 + ["4: announce Queen", "0: claim", "1: pass", "2: pass", "3: pass"],
     "swap centre 1", ["player_0", "another player's card"]),
    ("a claim out of turn", 5, P5, "claim", ["player_4", "'claim'", "take a turn"]),
    ("a swap while claims are asked", 5, P5 + ["4: announce Queen"], "swap +1", ["player_0", "claim"]),
    ("a Bishop target that is not the richest", 5, P5 + [set_coins(6, 9, 5, 9, 6), "4: announce Bishop"]
     + PASS_ALL_FROM_4, "bishop +1", ["player_4", "richest"]),
    ("an id out of range", 5, [], -1, ["player_0", "-1", "out of range"]),
    ("a string", 5, [], "swap +1!", ["player_0", "integer"]),
    ("None", 5, [], None, ["player_0", "None", "integer"]),
]


@pytest.mark.parametrize("name,players,before,bad,fragments", ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_illegal_actions_raise_and_change_nothing(name, players, before, bad, fragments):
    env = new_env(players, D5)
    play(env, before)
    state = snapshot(env)
    action = env.unwrapped.string_to_action(bad) if isinstance(bad, str) and not bad.endswith("!") else bad
    with pytest.raises(ValueError) as error:
        env.step(action)
    for fragment in fragments:
        assert fragment in str(error.value), (fragment, str(error.value))
    assert snapshot(env) == state
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(int(legal[0]))
    assert snapshot(env) != state


@pytest.mark.parametrize("n,extra", [(2, 0), (3, 0), (4, 0), (5, 0), (7, 2), (13, 0)])
def test_the_fool_handles_the_cards_of_two_other_players_only(n, extra):
    """No centre card and none of the Fool's own: one card of each of two other players (at 2 players, the one
    other player's two cards)."""
    env = mascarade_v1.env(num_players=n, extra_centre_cards=extra).unwrapped
    fools = [env.action_to_string(a) for a in range(env.action_space("player_0").n)]
    pairs = [name.removeprefix("fool swap ").split(" and ") for name in fools if name.startswith("fool swap ")]
    owners = [[card.split()[0] for card in pair] for pair in pairs]
    assert all(owner.startswith("+") for pair in owners for owner in pair)
    if n == 2:
        assert pairs == [["+1 A", "+1 B"]]
    else:
        assert all(a != b for a, b in owners) and len(pairs) == (n - 1) * (n - 2) // 2 * (1 if n > 3 else 4)


def test_the_spy_cannot_look_at_the_card_it_claimed_with():
    env = new_env(2, [JUD, SPY, KIN, FOO, QUE, WIT], characters=[JUD, SPY, KIN, FOO, QUE, WIT])
    play(env, prep(2, two_cards=True) + ["0: announce Spy with B", "1: pass"])
    with pytest.raises(ValueError, match="other than its own"):
        env.step(env.unwrapped.string_to_action("spy B"))


def test_penalize_gives_the_mover_minus_one_and_ends_the_episode():
    env = new_env(5, D5, illegal="penalize")
    env.step(env.unwrapped.string_to_action("look"))
    assert env.rewards["player_0"] == -1.0
    assert all(env.terminations.values())


BAD_SETUP = [
    ("a card not in play", 5, {"cards": [JUD, BIS, FOO, QUE, WIT, KIN]}, ValueError, "cards"),
    ("one card too few", 5, {"cards": D5[:-1]}, ValueError, "setup cards must have 6 entries"),
    ("one card too many", 2, {"cards": D2 + [JUD]}, ValueError, "setup cards must have 6 entries"),
    ("an unknown name", 5, {"cards": D5[:-1] + ["Pirate"]}, ValueError, "Pirate"),
    ("a card index out of range", 5, {"cards": D5[:-1] + [12]}, ValueError, "setup cards"),
    ("cards as a string", 5, {"cards": "Judge"}, TypeError, "setup cards must be a list"),
    ("cards as a dict", 5, {"cards": dict(enumerate(D5))}, TypeError, "setup cards must be a list"),
    ("cards as a set", 5, {"cards": set(D5)}, TypeError, "setup cards must be a list"),
    ("a first player out of range", 5, {"first_player": 5}, ValueError, "first_player"),
    ("a first player given as a string", 5, {"first_player": "0"}, ValueError, "first_player"),
    ("a first player given as True", 5, {"first_player": True}, ValueError, "first_player"),
    ("a first player given as a list", 5, {"first_player": [0]}, ValueError, "first_player"),
    ("an unknown key", 5, {"coins": [6] * 5}, ValueError, "coins"),
]


@pytest.mark.parametrize("name,players,setup,error,fragment", BAD_SETUP, ids=[row[0] for row in BAD_SETUP])
def test_bad_setup_raises_naming_the_entry(name, players, setup, error, fragment):
    env = mascarade_v1.env(num_players=players)
    with pytest.raises(error, match=fragment):
        env.reset(seed=0, options={"setup": setup})


@pytest.mark.parametrize("name,players,setup,error,fragment", BAD_SETUP, ids=[row[0] for row in BAD_SETUP])
def test_a_bad_setup_fails_before_anything_is_drawn(name, players, setup, error, fragment):
    """The engine checks every entry before it deals: a refused setup leaves the generator where it was."""
    config = configure(players)
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    with pytest.raises(error):
        MascaradeGame(config, rng, setup)
    assert rng.bit_generator.state == before


# === The event history =========================================================


def history_columns(env, slot: str) -> slice:
    """Where the history rows hold `slot` ("card place 1", "purse 2", ...)."""
    encoding = EventEncoding(env.unwrapped.definition.events, env.unwrapped.num_players,
                             env.unwrapped.definition.words(env.unwrapped.config, 0).vocab)
    (start, stop), = [(a, b) for name, a, b in encoding.columns if name == slot]
    return slice(start, stop)


@pytest.mark.parametrize("n", [2, 5, 13])
def test_every_event_is_encoded_in_the_history_block(n):
    env = mascarade_v1.env(num_players=n, history_length=12)
    space = env.observation_space("player_0")["observation"]
    rng = np.random.default_rng(n)
    for seed in range(5):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            assert space.contains(obs["observation"])
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.unwrapped.history("player_0")[0]["kind"] == "dealt"


def test_card_places_and_purses_are_encoded_relative_to_the_observer():
    env = new_env(5, D5, history_length=4)
    play(env, ["0: no swap +2"])  # seat 1 watches seat 0 handle places 0 and 2 (its +4 and +1)
    rows = env.observe("player_1")["observation"][env.unwrapped.observation_fields["history"]].reshape(4, -1)
    handled = rows[1]  # the newest is the next turn's start
    assert list(handled[history_columns(env, "card place 1")]) == list(one_hot(6, 4))
    assert list(handled[history_columns(env, "card place 2")]) == list(one_hot(6, 1))
    play(env, ["1: no swap +1", "2: no swap +1", "3: no swap +1", set_courthouse(2), "4: announce Judge"]
         + passes(5, 4, 0))  # seat 0, the Judge, takes the courthouse; seat 4 pays its fine to it
    purses = [history_columns(env, f"purse {k}") for k in (1, 2)]
    rows = env.observe("player_3")["observation"][env.unwrapped.observation_fields["history"]].reshape(4, -1)
    paid = [row for row in rows if row[purses[0]].any()]  # the newest first: the fine, then the Judge's take
    assert [list(paid[0][p]) for p in purses] == [list(one_hot(7, 1)), list(one_hot(7, 6))]  # seat 4 -> courthouse
    assert [list(paid[1][p]) for p in purses] == [list(one_hot(7, 6)), list(one_hot(7, 2))]  # courthouse -> seat 0
