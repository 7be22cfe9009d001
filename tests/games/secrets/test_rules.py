"""Secrets rule scenarios: one per rule of the rulebook and its rulings, and one per card effect and choice.

A scenario is data: a fixed deal (identity tokens, the top of the character
deck, the Bullets, the first player), the actions in order by name, and what
must hold afterwards. Each action may be prefixed with the seat expected to
play it ("2: accept"); the runner checks that this seat is the one asked.
`turn(...)` spells out a whole turn (choose, offer, answer, effect) as such
names. The expectations are checked against the hidden state of the rules
engine and against every seat's observation.

Seats in action names are relative to the actor (`+1` = the left neighbour,
the next in turn order). In expectations seats are absolute; in `turn(...)`
effects, `@s` names the absolute seat s and is turned into the relative form.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

from hidden_role_envs import secrets_v1
from tests.support import check_allowed, check_forbidden, check_legal, legal_names, one_hot
from tests.support import relative as rel

DA, POL, PSY, DET, JOU, SCI, DIP, ASN = (
    "Double Agent",
    "Politician",
    "Psychiatrist",
    "Detective",
    "Journalist",
    "Scientist",
    "Diplomat",
    "Assassin",
)
CHARACTER_ORDER = (DA, POL, PSY, DET, JOU, SCI, DIP, ASN)  # the order of the one-hot character blocks
C, K, H = "CIA", "KGB", "Hippie"
IDENTITY_ORDER = (C, K, H)
CENTRE = "centre"
BULLET_ORDER = (0, -1, -2, -3)  # the columns of the Bullet blocks

# From the rulebook and the rulings: the 29 character cards and the tokens in play by player count.
COPIES = {DA: 3, POL: 4, PSY: 2, DET: 3, JOU: 4, SCI: 6, DIP: 3, ASN: 4}
TOKENS_IN_PLAY = {4: (2, 2, 1), 5: (2, 2, 2), 6: (3, 3, 1), 7: (3, 3, 2), 8: (4, 4, 1)}  # CIA, KGB, Hippie

# Fixed deals: seats 0..n-1, then the centre.
T4 = [C, K, C, K, H]
T5 = [C, K, H, C, K, H]
T6 = [C, K, C, K, H, C, K]
T7 = [C, K, H, C, K, C, K, H]
T8 = [C, K, C, K, C, K, H, C, K]
DEALS = {4: T4, 5: T5, 6: T6, 7: T7, 8: T8}

DECISIONS = ("choose", "offer", "un", "answer", "psychiatrist", "politician", "diplomat", "detective", "assassin")
ACTION_PREFIXES = {
    "choose": ("choose ",),
    "offer": ("offer ",),
    "un": ("intercept", "let pass"),
    "answer": ("accept", "refuse"),
    "psychiatrist": ("psychiatrist ",),
    "politician": ("politician ",),
    "diplomat": ("diplomat ",),
    "detective": ("detective ",),
    "assassin": ("assassin ",),
}
BLOCK_SHAPES = {"face_up": (-1, 8), "bullets_given": (-1, 4), "identity": (-1, 3)}


# --- building scenarios ------------------------------------------------------


def deck(*top: str) -> list[str]:
    """The 29-card deck with `top` on top (first drawn first); the rest follow in a fixed order."""
    rest = Counter(COPIES)
    for card in top:
        rest[card] -= 1
        assert rest[card] >= 0, f"the deck has only {COPIES[card]} {card}"
    return list(top) + [card for card in CHARACTER_ORDER for _ in range(rest[card])]


def _absolute(effect: str, receiver: int, n: int) -> str:
    """`politician @3` -> `politician +k` relative to `receiver`; Psychiatrist pairs are sorted."""
    effect = re.sub(r"@(\d+)", lambda m: f"+{(int(m.group(1)) - receiver) % n}", effect)
    if effect.startswith("psychiatrist"):
        a, b = sorted(int(x) for x in re.findall(r"\+(\d+)", effect))
        effect = f"psychiatrist +{a} +{b}"
    return effect


def turn(
    n: int,
    active: int,
    card: str,
    to: int,
    answer: str = "accept",
    *effect: str,
    claim: str | None = None,
    un: tuple[int, str] | None = None,
) -> list[str]:
    """A whole turn: `active` chooses `card`, offers it to seat `to`, which answers; then the effect.

    `un=(seat, "intercept" | "let pass")` when the UN player is asked; on an
    interception there is no answer and the UN player applies the effect.
    """
    offer = f"offer +{(to - active) % n}" + (f" as {claim}" if claim else "")
    steps = [f"{active}: choose {card}", f"{active}: {offer}"]
    receiver = to if answer == "accept" else active
    if un is not None:
        steps.append(f"{un[0]}: {un[1]}")
        if un[1] == "intercept":
            receiver = un[0]
    if un is None or un[1] != "intercept":
        steps.append(f"{to}: {answer}")
    steps += [f"{receiver}: {_absolute(e, receiver, n)}" for e in effect]
    return steps


def set_deck(*cards: str) -> Callable:
    """A step that replaces the character deck (only to reach states a legal deck cannot)."""

    def apply(env):
        env.unwrapped.engine.deck = deque(CHARACTER_ORDER.index(c) for c in cards)

    return apply


@dataclass
class Scenario:
    name: str
    players: int
    tokens: list[str]
    top: list[str]  # top of the deck, first drawn first; deck() completes it
    actions: list[Any]
    expect: dict[str, Any]
    bullets: tuple[int, ...] = (0, -1, -2, -3)
    first: int = 0
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


def new_env(players: int, tokens, top, bullets=(0, -1, -2, -3), first=0, **kwargs):
    env = secrets_v1.env(num_players=players, **kwargs)
    setup = {"tokens": list(tokens), "deck": deck(*top), "bullets": list(bullets), "first_player": first}
    env.reset(seed=0, options={"setup": setup})
    return env


def play(env, actions) -> None:
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


def run(sc: Scenario):
    env = new_env(sc.players, sc.tokens, sc.top, sc.bullets, sc.first, **sc.kwargs)
    play(env, sc.actions)
    check(env, sc.expect)
    return env


# --- reading the env ---------------------------------------------------------


def agents(env) -> list[str]:
    return env.possible_agents


def block(env, seat: int, name: str) -> np.ndarray:
    obs = env.observe(f"player_{seat}")["observation"]
    values = obs[env.unwrapped.observation_fields[name]]
    return values.reshape(BLOCK_SHAPES[name]) if name in BLOCK_SHAPES else values


# --- expectations ------------------------------------------------------------


def check_tokens(env, value):
    eng = env.unwrapped.engine
    assert [IDENTITY_ORDER[t] for t in eng.tokens] == list(value)


def check_screens(env, value):
    """{seat: [face-up names]} or {seat: ([face-up names], face_down, bullets)}; seats not listed are empty."""
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    for seat in range(n):
        spec = value.get(seat, ([], 0, 0))
        up, down, bullets = (spec, 0, 0) if isinstance(spec, list) else spec
        expected_up = np.zeros(8)
        for card in up:
            expected_up[CHARACTER_ORDER.index(card)] += 1
        got = (
            sorted(CHARACTER_ORDER[c] for c in range(8) for _ in range(int(table.face_up[seat][c]))),
            int(table.face_down[seat]),
            int(table.bullets[seat]),
        )
        assert got == (sorted(up), down, bullets), f"screen of player_{seat}"
        assert len(env.unwrapped.engine.bullets_received[seat]) == bullets
        for observer in range(n):  # the screens are public
            r = rel(seat, observer, n)
            assert np.array_equal(block(env, observer, "face_up")[r], expected_up)
            assert block(env, observer, "face_down")[r] == down
            assert block(env, observer, "bullets_received")[r] == bullets


def check_un(env, value):
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    assert table.un_holder == (-1 if value is None else value), "UN holder"
    for observer in range(n):
        index = n if value is None else rel(value, observer, n)
        assert np.array_equal(block(env, observer, "un_holder"), one_hot(n + 1, index))


def check_ask(env, value):
    """("detective", 2): that decision is asked of seat 2, and only that seat has legal actions. "over": ended."""
    n = env.unwrapped.num_players
    eng = env.unwrapped.engine
    if value == "over":
        assert eng.is_over
        assert all(env.terminations.values())
        for observer in range(n):
            assert not env.observe(f"player_{observer}")["action_mask"].any()
            assert not block(env, observer, "decision").any()
            assert not block(env, observer, "to_act").any()
        return
    kind, seat = value
    assert not eng.is_over, "the game should not be over"
    assert not any(env.terminations.values())
    assert env.agent_selection == f"player_{seat}", f"expected player_{seat} to be asked"
    for observer in range(n):
        assert np.array_equal(block(env, observer, "decision"), one_hot(len(DECISIONS), DECISIONS.index(kind)))
        assert np.array_equal(block(env, observer, "to_act"), one_hot(n, rel(seat, observer, n)))
        assert env.observe(f"player_{observer}")["action_mask"].any() == (observer == seat)
    legal = legal_names(env)
    assert legal and all(name.startswith(ACTION_PREFIXES[kind]) for name in legal), legal


def check_active(env, value):
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.active == value
    for observer in range(n):
        assert np.array_equal(block(env, observer, "active_player"), one_hot(n, rel(value, observer, n)))


def check_revealed(env, value):
    n = env.unwrapped.num_players
    table = env.unwrapped.engine.table
    assert sorted(CHARACTER_ORDER[c] for c in table.revealed) == sorted(value)
    expected = np.zeros(8, dtype=np.float32)
    for card in value:
        expected[CHARACTER_ORDER.index(card)] = 1
    for observer in range(n):  # the cards drawn are shown to everyone
        assert np.array_equal(block(env, observer, "revealed"), expected)


def check_offered_card(env, value):
    """{seat: name or None}: the Offer's card as that seat's observation knows it."""
    for seat, card in value.items():
        index = None if card is None else CHARACTER_ORDER.index(card)
        assert np.array_equal(block(env, seat, "offered_card"), one_hot(8, index)), f"player_{seat}"


def check_target(env, value):
    n = env.unwrapped.num_players
    assert env.unwrapped.engine.table.offer_target == (-1 if value is None else value)
    for observer in range(n):
        index = None if value is None else rel(value, observer, n)
        assert np.array_equal(block(env, observer, "offer_target"), one_hot(n, index))


def check_claim(env, value):
    n = env.unwrapped.num_players
    index = None if value is None else CHARACTER_ORDER.index(value)
    assert env.unwrapped.engine.table.claim == (-1 if index is None else index)
    for observer in range(n):  # a claim is public
        assert np.array_equal(block(env, observer, "claim"), one_hot(8, index))


def check_deck_top(env, value):
    top = [CHARACTER_ORDER[c] for c in list(env.unwrapped.engine.deck)[: len(value)]]
    assert top == list(value)


def check_deck_bottom(env, value):
    bottom = [CHARACTER_ORDER[c] for c in list(env.unwrapped.engine.deck)[-len(value) :]]
    assert bottom == list(value)


def check_deck_len(env, value):
    assert len(env.unwrapped.engine.deck) == value


def check_bullet_deck(env, value):
    assert list(env.unwrapped.engine.bullet_deck) == list(value)


def check_bullet_in_hand(env, value):
    """{seat: value or None}, from each seat's own observation."""
    for seat, bullet in value.items():
        index = None if bullet is None else BULLET_ORDER.index(bullet)
        assert np.array_equal(block(env, seat, "bullet_in_hand"), one_hot(4, index)), f"player_{seat}"


def check_bullets_given(env, value):
    """{giver: {receiver: [values]}}; givers not listed gave nothing (as their observations say)."""
    n = env.unwrapped.num_players
    for giver in range(n):
        expected = np.zeros((n, 4), dtype=np.float32)
        for receiver, values in value.get(giver, {}).items():
            for v in values:
                expected[rel(receiver, giver, n), BULLET_ORDER.index(v)] = 1
        assert np.array_equal(block(env, giver, "bullets_given"), expected), f"player_{giver}"


def check_bullets(env, value):
    """{seat: [Bullet values received]} in the hidden state; seats not listed received none."""
    eng = env.unwrapped.engine
    for seat in range(eng.num_players):
        assert [v for _, v in eng.bullets_received[seat]] == list(value.get(seat, []))


def check_identity(env, value):
    """{(observer, place): identity name (certain) or (P(CIA), P(KGB), P(Hippie))}; place = seat or "centre"."""
    n = env.unwrapped.num_players
    for (observer, place), expected in value.items():
        row = n if place == CENTRE else rel(place, observer, n)
        probs = block(env, observer, "identity")[row]
        if isinstance(expected, str):
            expected = one_hot(3, IDENTITY_ORDER.index(expected))
        np.testing.assert_allclose(probs, expected, atol=1e-6, err_msg=f"player_{observer} about {place}")


def check_scores(env, value):
    assert env.unwrapped.engine.scores() == list(value)
    if env.unwrapped.engine.is_over:
        for seat, agent in enumerate(agents(env)):
            assert env.infos[agent]["scores"] == {f"player_{s}": v for s, v in enumerate(value)}
            assert env.infos[agent]["score"] == value[seat]


def check_winners(env, value):
    names = [f"player_{s}" for s in value]
    for seat, agent in enumerate(agents(env)):
        assert env.infos[agent]["winners"] == names
        assert env.infos[agent]["won"] == (seat in value)


def check_rewards(env, value):
    assert [env.rewards[a] for a in agents(env)] == [float(v) for v in value]
    assert [env._cumulative_rewards[a] for a in agents(env)] == [float(v) for v in value]


def check_infos(env, value):
    for agent in agents(env):
        for key, expected in value.items():
            assert env.infos[agent][key] == expected, key


def check_over(env, value):
    assert env.unwrapped.engine.is_over == value
    assert all(env.terminations.values()) == value


CHECKS = {
    "tokens": check_tokens,
    "screens": check_screens,
    "un": check_un,
    "ask": check_ask,
    "legal": check_legal,
    "allowed": check_allowed,
    "forbidden": check_forbidden,
    "active": check_active,
    "revealed": check_revealed,
    "offered_card": check_offered_card,
    "target": check_target,
    "claim": check_claim,
    "deck_top": check_deck_top,
    "deck_bottom": check_deck_bottom,
    "deck_len": check_deck_len,
    "bullet_deck": check_bullet_deck,
    "bullet_in_hand": check_bullet_in_hand,
    "bullets_given": check_bullets_given,
    "bullets": check_bullets,
    "identity": check_identity,
    "scores": check_scores,
    "winners": check_winners,
    "rewards": check_rewards,
    "infos": check_infos,
    "over": check_over,
}


def check(env, expect: dict) -> None:
    for key, value in expect.items():
        CHECKS[key](env, value)


def table_test(scenarios: list[Scenario]):
    return pytest.mark.parametrize("sc", scenarios, ids=[s.name for s in scenarios])


def all_seats(n: int, value) -> dict:
    return {s: value for s in range(n)}


# === Setup and early intelligence ============================================


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_identity_tokens_in_play_by_player_count(n):
    for seed in range(5):
        env = secrets_v1.env(num_players=n)
        env.reset(seed=seed)
        tokens = env.unwrapped.engine.tokens
        assert len(tokens) == n + 1  # one per player and one in the centre
        counts = Counter(IDENTITY_ORDER[t] for t in tokens)
        assert (counts[C], counts[K], counts[H]) == TOKENS_IN_PLAY[n]
        cards = Counter(CHARACTER_ORDER[c] for c in env.unwrapped.engine.all_character_cards())
        assert cards == Counter(COPIES)
        assert sorted(list(env.unwrapped.engine.bullet_deck)) == [-3, -2, -1, 0]
        assert all(not env.unwrapped.engine.table.cards[s] for s in range(n))  # empty screens


# (players, places each seat s has seen at the start); the rest of the identity block is the
# uniform spread of the tokens it has not seen over the places it has not seen.
EARLY_INTELLIGENCE = [
    (4, lambda s, n: [s]),  # own token only
    (5, lambda s, n: [s, (s - 1) % n]),  # own and the right neighbour's (seat i-1)
    (6, lambda s, n: [s, (s - 1) % n]),
    (7, lambda s, n: [s, (s - 1) % n, n]),  # and the centre, shown to everyone
    (8, lambda s, n: [s, (s - 1) % n, n]),
]


@pytest.mark.parametrize("n,seen", EARLY_INTELLIGENCE, ids=[f"{n} players" for n, _ in EARLY_INTELLIGENCE])
def test_early_intelligence(n, seen):
    tokens = DEALS[n]
    env = new_env(n, tokens, [])
    for s in range(n):
        known = set(seen(s, n))
        unseen = Counter(tokens[p] for p in range(n + 1) if p not in known)
        spread = np.array([unseen[i] for i in IDENTITY_ORDER]) / sum(unseen.values())
        expected = {}
        for place in range(n + 1):
            key = (s, CENTRE if place == n else place)
            expected[key] = tokens[place] if place in known else spread
        check_identity(env, expected)


SETUP = [
    Scenario(
        "5 players: seat 0 knows itself and seat 4, the rest is a spread",
        5, T5, [], [],
        {"identity": {(0, 0): C, (0, 4): K, (0, 1): (0.25, 0.25, 0.5), (0, 2): (0.25, 0.25, 0.5),
                      (0, 3): (0.25, 0.25, 0.5), (0, CENTRE): (0.25, 0.25, 0.5),
                      (2, 1): K, (2, 3): (0.5, 0.25, 0.25)}},
    ),
    Scenario(
        "7 players: the centre is known to all",
        7, T7, [], [],
        {"identity": {(s, CENTRE): H for s in range(7)} | {(3, 3): C, (3, 2): H, (3, 4): (0.4, 0.6, 0.0)}},
    ),
    Scenario(
        "the first player draws two characters and is asked to choose",
        4, T4, [SCI, DET], [],
        {"active": 0, "ask": ("choose", 0), "revealed": [SCI, DET], "legal": ["choose Scientist", "choose Detective"],
         "screens": {}, "un": None},
    ),
    Scenario(
        "the first player can be any seat", 6, T6, [JOU, ASN], [], {"active": 4, "ask": ("choose", 4)}, first=4
    ),
]


@table_test(SETUP)
def test_setup(sc):
    run(sc)


# === Drawing ================================================================

# The single-character ruling cannot arise from the 29-card deck: the remaining deck would have
# to be r >= 1 cards of one character with 29 - r characters (plus a Bullet per Assassin) on
# screens that are all still below the end size (at most n*(end size - 1) <= 24 cards), which
# needs r >= 5, i.e. five or six Scientists left with all four Assassins, and so four Bullets,
# out: 29 - r + 4 > 24. Those scenarios stack the deck directly between two decisions.
DRAWING = [
    Scenario(
        "two different characters on top: two cards drawn",
        4, T4, [SCI, DET, JOU], [],
        {"revealed": [SCI, DET], "deck_len": 27, "deck_top": [JOU], "ask": ("choose", 0)},
    ),
    Scenario(
        "duplicates are drawn past and go to the bottom",
        4, T4, [SCI, SCI, SCI, DET, JOU], [],
        {"revealed": [SCI, DET], "deck_len": 27, "deck_top": [JOU], "deck_bottom": [SCI, SCI],
         "legal": ["choose Scientist", "choose Detective"]},
    ),
    Scenario(
        "the card not chosen goes to the bottom; only the active player knows the choice",
        4, T4, [SCI, DET, JOU], ["0: choose Detective"],
        {"ask": ("offer", 0), "deck_len": 28, "deck_bottom": [SCI], "deck_top": [JOU], "revealed": [SCI, DET],
         "offered_card": {0: DET, 1: None, 2: None, 3: None}},
    ),
    Scenario(
        "duplicates go to the bottom first, then the card not chosen",
        4, T4, [JOU, JOU, DET, SCI], ["0: choose Journalist"],
        {"deck_len": 28, "deck_bottom": [JOU, DET], "deck_top": [SCI]},
    ),
    Scenario(
        "the next turn draws from the top",
        4, T4, [SCI, DET, JOU, JOU, PSY], turn(4, 0, SCI, 1),
        {"active": 1, "ask": ("choose", 1), "revealed": [JOU, PSY], "deck_bottom": [DET, JOU], "deck_len": 26,
         "offered_card": all_seats(4, None)},
    ),
    Scenario(
        "RULING single character: it is offered with no choice, everyone knows it",
        4, T4, [SCI, DET], ["0: choose Scientist", set_deck(JOU, JOU, JOU), "0: offer +1", "1: accept"],
        {"active": 1, "ask": ("offer", 1), "revealed": [JOU], "offered_card": all_seats(4, JOU), "deck_len": 2,
         "forbidden": ["choose Journalist"], "allowed": ["offer +1", "offer +3 as Scientist"]},
    ),
    Scenario(
        "RULING single character: the Offer then goes on as usual",
        4, T4, [SCI, DET],
        ["0: choose Scientist", set_deck(JOU, JOU), "0: offer +1", "1: accept", "1: offer +1", "2: accept"],
        {"screens": {1: [SCI], 2: [JOU]}, "identity": {(0, 2): C, (1, 2): C, (3, 2): C},
         "active": 2, "ask": ("offer", 2), "revealed": [JOU], "deck_len": 0},
    ),
    Scenario(
        "not the single-character case while a second character remains deeper in the deck",
        4, T4, [SCI, DET], ["0: choose Scientist", set_deck(JOU, JOU, JOU, DIP), "0: offer +1", "1: accept"],
        {"ask": ("choose", 1), "revealed": [JOU, DIP], "deck_len": 2, "deck_bottom": [JOU, JOU]},
    ),
]


@table_test(DRAWING)
def test_drawing(sc):
    run(sc)


# === The Offer, claims, accept and refuse =====================================

OFFER = [
    Scenario(
        "an offer without a claim",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +2"],
        {"ask": ("answer", 2), "target": 2, "claim": None, "legal": ["accept", "refuse"],
         "offered_card": {0: DET, 1: None, 2: None, 3: None}},
    ),
    Scenario(
        "an offer may carry a public claim",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +1 as Scientist"],
        {"ask": ("answer", 1), "target": 1, "claim": SCI, "offered_card": {0: DET, 1: None, 2: None, 3: None}},
    ),
    Scenario(
        "claims: every target and every character may be named",
        4, T4, [DET, SCI], ["0: choose Detective"],
        {"ask": ("offer", 0),
         "legal": [f"offer +{k}" for k in (1, 2, 3)]
         + [f"offer +{k} as {c}" for k in (1, 2, 3) for c in CHARACTER_ORDER]},
    ),
    Scenario(
        "claims=False: only offers without a claim are legal",
        4, T4, [DET, SCI], ["0: choose Detective"],
        {"ask": ("offer", 0), "legal": ["offer +1", "offer +2", "offer +3"]},
        kwargs={"claims": False},
    ),
    Scenario(
        "claims=False: the Offer works without a claim",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +3"],
        {"ask": ("answer", 3), "target": 3, "claim": None},
        kwargs={"claims": False},
    ),
    Scenario(
        "a claim does not bind: the real card is turned up and known to all",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +1 as Scientist", "1: accept"],
        {"screens": {1: [DET]}, "ask": ("detective", 1), "offered_card": all_seats(4, DET)},
    ),
    Scenario(
        "accept: the card lands face up on the target's screen and the target applies it",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +2", "2: accept"],
        {"screens": {2: [DET]}, "ask": ("detective", 2)},
    ),
    Scenario(
        "refuse: the card lands face up on the active player's screen and the active player applies it",
        4, T4, [DET, SCI], ["0: choose Detective", "0: offer +2", "2: refuse"],
        {"screens": {0: [DET]}, "ask": ("detective", 0)},
    ),
    Scenario(
        "after the effect the next seat (left) becomes active",
        4, T4, [DET, SCI, JOU, DA], ["0: choose Detective", "0: offer +2", "2: refuse", "0: detective self"],
        {"active": 1, "ask": ("choose", 1), "revealed": [JOU, DA], "target": None, "claim": None},
    ),
]


@table_test(OFFER)
def test_offer(sc):
    run(sc)


# === The UN ===================================================================

# Three Scientists land on seats 1, 0 and 3: seat 2 alone has fewest cards and takes the UN token.
UN_AT_2 = turn(4, 0, SCI, 1) + turn(4, 1, SCI, 0) + turn(4, 2, SCI, 3)
# Three Scientists land on seats 1, 2 and 0: seat 3 is the UN player and active next.
UN_AT_3 = turn(4, 0, SCI, 1) + turn(4, 1, SCI, 2) + turn(4, 2, SCI, 0)
THREE_SCIENTISTS = [SCI, JOU, SCI, JOU, SCI, JOU]

UN = [
    Scenario(
        "nobody takes the UN token while the fewest are tied",
        4, T4, THREE_SCIENTISTS, UN_AT_2[:6],
        {"screens": {0: [SCI], 1: [SCI]}, "un": None},
    ),
    Scenario(
        "a single player with strictly fewest cards takes the UN token",
        4, T4, THREE_SCIENTISTS, UN_AT_2,
        {"screens": {0: [SCI], 1: [SCI], 3: [SCI]}, "un": 2, "active": 3},
    ),
    Scenario(
        "the UN player, neither active nor target, is asked before the target",
        4, T4, THREE_SCIENTISTS + [DET, DA], UN_AT_2 + ["3: choose Detective", "3: offer +1 as Scientist"],
        {"ask": ("un", 2), "legal": ["intercept", "let pass"], "target": 0, "claim": SCI},
    ),
    Scenario(
        "intercept: the card lands on the UN player's screen and the UN player applies it",
        4, T4, THREE_SCIENTISTS + [DET, DA], UN_AT_2 + ["3: choose Detective", "3: offer +1", "2: intercept"],
        {"screens": {0: [SCI], 1: [SCI], 2: [DET], 3: [SCI]}, "ask": ("detective", 2)},
    ),
    Scenario(
        "intercept: after the effect the UN token returns to the centre on a tie",
        4, T4, THREE_SCIENTISTS + [DET, DA],
        UN_AT_2 + ["3: choose Detective", "3: offer +1", "2: intercept", "2: detective centre"],
        {"identity": {(2, CENTRE): H, (0, CENTRE): (0.25, 0.5, 0.25)}, "un": None, "ask": ("choose", 0)},
    ),
    Scenario(
        "let pass: the target answers",
        4, T4, THREE_SCIENTISTS + [DET, DA], UN_AT_2 + ["3: choose Detective", "3: offer +1", "2: let pass"],
        {"ask": ("answer", 0), "legal": ["accept", "refuse"], "screens": {0: [SCI], 1: [SCI], 3: [SCI]}},
    ),
    Scenario(
        "let pass, accept: the target applies; the UN player keeps the token while strictly fewest",
        4, T4, THREE_SCIENTISTS + [DET, DA],
        UN_AT_2 + ["3: choose Detective", "3: offer +1", "2: let pass", "0: accept", "0: detective self"],
        {"screens": {0: [SCI, DET], 1: [SCI], 3: [SCI]}, "un": 2, "ask": ("choose", 0)},
    ),
    Scenario(
        "let pass, refuse: the active player applies",
        4, T4, THREE_SCIENTISTS + [DET, DA],
        UN_AT_2 + ["3: choose Detective", "3: offer +1", "2: let pass", "0: refuse"],
        {"screens": {0: [SCI], 1: [SCI], 3: [SCI, DET]}, "ask": ("detective", 3)},
    ),
    Scenario(
        "RULING the UN player who is the target simply answers",
        4, T4, THREE_SCIENTISTS + [DET, DA], UN_AT_2 + ["3: choose Detective", "3: offer +3"],
        {"ask": ("answer", 2), "target": 2, "legal": ["accept", "refuse"]},
    ),
    Scenario(
        "the UN player who is the target accepts; the token returns to the centre",
        4, T4, THREE_SCIENTISTS + [DET, DA],
        UN_AT_2 + ["3: choose Detective", "3: offer +3", "2: accept", "2: detective self"],
        {"screens": {0: [SCI], 1: [SCI], 2: [DET], 3: [SCI]}, "un": None},
    ),
    Scenario(
        "the UN player who is active is not asked",
        4, T4, THREE_SCIENTISTS + [DET, DA], UN_AT_3 + ["3: choose Detective", "3: offer +1"],
        {"ask": ("answer", 0), "target": 0},
    ),
    Scenario(
        "the UN player intercepts a Politician and chooses where it lands",
        4, T4, THREE_SCIENTISTS + [POL, DA], UN_AT_2 + ["3: choose Politician", "3: offer +2", "2: intercept"],
        {"ask": ("politician", 2), "legal": ["politician +1", "politician +2", "politician +3"],
         "screens": {0: [SCI], 1: [SCI], 3: [SCI]}},
    ),
    Scenario(
        "the intercepted Politician lands on the chosen screen; the UN player sees that token",
        4, T4, THREE_SCIENTISTS + [POL, DA],
        UN_AT_2 + ["3: choose Politician", "3: offer +2", "2: intercept", "2: politician +1"],
        {"screens": {0: [SCI], 1: [SCI], 3: [SCI, POL]}, "identity": {(2, 3): K}, "un": 2},
    ),
]


@table_test(UN)
def test_un_interception(sc):
    run(sc)


UN_COUNTS = [
    Scenario(
        "Bullets count for the UN token",
        4, T4, [ASN, SCI, SCI, JOU],
        turn(4, 0, ASN, 1, "accept", "assassin @3") + turn(4, 1, SCI, 2),
        {"screens": {1: [ASN], 2: [SCI], 3: ([], 0, 1)}, "un": 0},
    ),
    Scenario(
        "face-down cards count for the UN token",
        4, T4, [JOU, SCI, JOU, SCI, SCI, JOU, SCI, JOU],
        turn(4, 0, JOU, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, SCI, 3) + turn(4, 3, SCI, 2),
        {"screens": {1: ([], 2, 0), 2: [SCI], 3: [SCI]}, "un": 0},
    ),
    Scenario(
        "RULING the Politician counts for the screen it lands on, not the chooser's",
        4, T4, [SCI, JOU, SCI, JOU, POL, JOU],
        turn(4, 0, SCI, 1) + turn(4, 1, SCI, 2) + turn(4, 2, POL, 3, "accept", "politician @0"),
        {"screens": {0: [POL], 1: [SCI], 2: [SCI]}, "un": 3},
    ),
]


@table_test(UN_COUNTS)
def test_un_token_update(sc):
    run(sc)


# === Card effects =============================================================

# Psychiatrist, 5 players, deal C K H C K | centre H: seat s knows s and s-1.
PSY_TURN = ["0: choose Psychiatrist", "0: offer +1", "1: accept"]
SPREAD_5 = (0.25, 0.25, 0.5)  # C1 K1 H2 over four places
PSYCHIATRIST = [
    Scenario(
        "Psychiatrist: the owner swaps the tokens of two OTHER players",
        5, T5, [PSY, SCI], PSY_TURN,
        {"screens": {1: [PSY]}, "ask": ("psychiatrist", 1),
         "legal": [f"psychiatrist +{a} +{b}" for a in range(1, 5) for b in range(a + 1, 5)]},
    ),
    Scenario(
        "Psychiatrist +1 +2 swaps seats 2 and 3; what was known moves with the tokens",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +1 +2"],
        {"tokens": [C, K, C, H, K, H], "screens": {1: [PSY]}, "ask": ("choose", 1),
         "identity": {(2, 3): H, (2, 1): K, (2, 2): (0.5, 0.25, 0.25), (3, 2): C, (3, 3): H,
                      (1, 2): SPREAD_5, (1, 3): SPREAD_5, (1, 0): C, (1, 1): K}},
    ),
    Scenario(
        "Psychiatrist +1 +3 swaps seats 2 and 4",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +1 +3"],
        {"tokens": [C, K, K, C, H, H], "identity": {(0, 2): K, (0, 0): C, (2, 4): H, (4, 2): K, (4, 3): C}},
    ),
    Scenario(
        "Psychiatrist +1 +4 swaps seats 2 and 0",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +1 +4"],
        {"tokens": [H, K, C, C, K, H], "identity": {(0, 2): C, (0, 4): K, (1, 2): C, (2, 0): H, (3, 0): H}},
    ),
    Scenario(
        "Psychiatrist +2 +3 swaps seats 3 and 4",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +2 +3"],
        {"tokens": [C, K, H, K, C, H], "identity": {(0, 3): K, (0, 4): SPREAD_5, (4, 4): C, (4, 3): K, (3, 4): C}},
    ),
    Scenario(
        "Psychiatrist +2 +4 swaps seats 3 and 0 (same identities: the tokens look unchanged)",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +2 +4"],
        {"tokens": [C, K, H, C, K, H],
         "identity": {(0, 3): C, (0, 4): K, (0, 0): SPREAD_5, (3, 0): C, (3, 2): H, (3, 3): (0.25, 0.5, 0.25)}},
    ),
    Scenario(
        "Psychiatrist +3 +4 swaps seats 4 and 0",
        5, T5, [PSY, SCI], PSY_TURN + ["1: psychiatrist +3 +4"],
        {"tokens": [K, K, H, C, C, H], "identity": {(0, 0): K, (0, 4): C, (1, 4): C, (4, 0): K, (4, 3): C}},
    ),
    Scenario(
        "Psychiatrist refused: the active player applies it, to two others",
        5, T5, [PSY, SCI], ["0: choose Psychiatrist", "0: offer +1", "1: refuse"],
        {"screens": {0: [PSY]}, "ask": ("psychiatrist", 0),
         "legal": [f"psychiatrist +{a} +{b}" for a in range(1, 5) for b in range(a + 1, 5)]},
    ),
    Scenario(
        "Psychiatrist refused, +1 +2 swaps seats 1 and 2",
        5, T5, [PSY, SCI], ["0: choose Psychiatrist", "0: offer +1", "1: refuse", "0: psychiatrist +1 +2"],
        {"tokens": [C, H, K, C, K, H], "identity": {(0, 0): C, (0, 4): K, (1, 2): K, (2, 1): H, (2, 2): K, (3, 1): H}},
    ),
]

DOUBLE_AGENT = [
    Scenario(
        "Double Agent accepted: the target swaps with the centre and sees its new token; all see the swap",
        5, T5, [DA, SCI], ["0: choose Double Agent", "0: offer +1", "1: accept"],
        {"tokens": [C, H, H, C, K, K], "screens": {1: [DA]}, "ask": ("choose", 1),
         "identity": {(1, 1): H, (1, CENTRE): K, (1, 0): C, (2, CENTRE): K, (2, 1): (0.5, 0.25, 0.25),
                      (0, 1): SPREAD_5, (0, CENTRE): SPREAD_5, (3, 1): (0.25, 0.5, 0.25)}},
    ),
    Scenario(
        "Double Agent refused: the active player swaps with the centre",
        5, T5, [DA, SCI], ["0: choose Double Agent", "0: offer +1", "1: refuse"],
        {"tokens": [H, K, H, C, K, C], "screens": {0: [DA]},
         "identity": {(0, 0): H, (0, CENTRE): C, (0, 4): K, (1, CENTRE): C, (1, 0): SPREAD_5, (1, 1): K}},
    ),
]

# Politician, 4 players, deal C K C K | H: each seat knows only itself.
POL_TURN = ["0: choose Politician", "0: offer +1", "1: accept"]
POLITICIAN = [
    Scenario(
        "Politician: the owner chooses another player's screen; it is on no screen yet",
        4, T4, [POL, SCI], POL_TURN,
        {"ask": ("politician", 1), "legal": ["politician +1", "politician +2", "politician +3"], "screens": {}},
    ),
    Scenario(
        "Politician +1: lands on seat 2, counts there, the owner sees seat 2's token",
        4, T4, [POL, SCI], POL_TURN + ["1: politician +1"],
        {"screens": {2: [POL]}, "scores": [0, 0, 3, 0], "ask": ("choose", 1),
         "identity": {(1, 2): C, (3, 2): (0.5, 0.25, 0.25), (0, 2): (0.25, 0.5, 0.25)}},
    ),
    Scenario(
        "Politician +2: lands on seat 3",
        4, T4, [POL, SCI], POL_TURN + ["1: politician +2"],
        {"screens": {3: [POL]}, "scores": [0, 0, 0, 3], "identity": {(1, 3): K, (0, 3): (0.25, 0.5, 0.25)}},
    ),
    Scenario(
        "Politician +3: lands on the offering player's screen",
        4, T4, [POL, SCI], POL_TURN + ["1: politician +3"],
        {"screens": {0: [POL]}, "scores": [3, 0, 0, 0], "identity": {(1, 0): C, (2, 0): (0.25, 0.5, 0.25)}},
    ),
    Scenario(
        "Politician refused: the active player chooses the screen",
        4, T4, [POL, SCI], ["0: choose Politician", "0: offer +1", "1: refuse", "0: politician +2"],
        {"screens": {2: [POL]}, "identity": {(0, 2): C, (1, 2): (0.5, 0.25, 0.25)}},
    ),
    Scenario(
        "a second Politician on the same screen makes a pair that turns face down",
        4, T4, [POL, SCI, POL, SCI], POL_TURN + ["1: politician +1"] + turn(4, 1, POL, 3, "accept", "politician @2"),
        {"screens": {2: ([], 2, 0)}, "scores": [0, 0, 0, 0], "identity": {(3, 2): C}},
    ),
]

JOURNALIST = [
    Scenario(
        "Journalist accepted: the target's token is shown to every other player",
        4, T4, [JOU, SCI], ["0: choose Journalist", "0: offer +1", "1: accept"],
        {"screens": {1: [JOU]}, "ask": ("choose", 1), "identity": {(0, 1): K, (2, 1): K, (3, 1): K}},
    ),
    Scenario(
        "Journalist refused: the active player's token is shown",
        4, T4, [JOU, SCI], ["0: choose Journalist", "0: offer +1", "1: refuse"],
        {"screens": {0: [JOU]}, "identity": {(1, 0): C, (2, 0): C, (3, 0): C}},
    ),
    Scenario(
        "Journalist: the owner does not see its own token",
        4, T4, [PSY, SCI, JOU, SCI],
        turn(4, 0, PSY, 1, "accept", "psychiatrist @2 @3") + turn(4, 1, JOU, 2),
        {"tokens": [C, K, K, C, H], "screens": {1: [PSY], 2: [JOU]},
         "identity": {(0, 2): K, (1, 2): K, (3, 2): K, (2, 2): (0.25, 0.5, 0.25), (2, 3): C}},
    ),
]

# Diplomat, 5 players, deal C K H C K | centre H; seat 2 applies it (left = seat 3, right = seat 1).
DIP_TURN = ["0: choose Diplomat", "0: offer +2", "2: accept"]
ONE_OF_TWO = (1 / 6, 1 / 6, 2 / 3)
THIRDS = (1 / 3, 1 / 3, 1 / 3)
DIPLOMAT = [
    Scenario(
        "Diplomat: the centre token is shown to everyone, then the owner chooses a side",
        5, T5, [DIP, SCI], DIP_TURN,
        {"screens": {2: [DIP]}, "ask": ("diplomat", 2), "legal": ["diplomat left", "diplomat right"],
         "identity": {(s, CENTRE): H for s in range(5)}},
    ),
    Scenario(
        "Diplomat left: the centre swaps with seat 3; the owner knows, the others get one of two",
        5, T5, [DIP, SCI], DIP_TURN + ["2: diplomat left"],
        {"tokens": [C, K, H, H, K, C], "ask": ("choose", 1),
         "identity": {(2, 3): H, (2, 2): H, (2, 1): K, (2, 0): (2 / 3, 1 / 3, 0), (2, 4): (2 / 3, 1 / 3, 0),
                      (2, CENTRE): (2 / 3, 1 / 3, 0),
                      (0, 1): ONE_OF_TWO, (0, 3): ONE_OF_TWO, (0, 2): THIRDS, (0, CENTRE): THIRDS, (0, 0): C, (0, 4): K,
                      (1, 1): (0, 0.5, 0.5), (1, 3): ONE_OF_TWO, (1, CENTRE): (1 / 6, 2 / 3, 1 / 6), (1, 0): C}},
    ),
    Scenario(
        "Diplomat right: the centre swaps with seat 1",
        5, T5, [DIP, SCI], DIP_TURN + ["2: diplomat right"],
        {"tokens": [C, H, H, C, K, K],
         "identity": {(2, 1): H, (2, CENTRE): K, (2, 2): H, (2, 0): (2 / 3, 1 / 3, 0), (2, 3): (2 / 3, 1 / 3, 0),
                      (2, 4): (2 / 3, 1 / 3, 0),
                      (0, 1): ONE_OF_TWO, (0, 3): ONE_OF_TWO, (0, 2): THIRDS, (0, CENTRE): THIRDS,
                      (1, 1): (0, 0.5, 0.5), (1, 3): ONE_OF_TWO, (1, CENTRE): (1 / 6, 2 / 3, 1 / 6)}},
    ),
    Scenario(
        "Diplomat refused: the active player swaps the centre with its right neighbour",
        5, T5, [DIP, SCI], ["0: choose Diplomat", "0: offer +2", "2: refuse", "0: diplomat right"],
        {"tokens": [C, K, H, C, H, K], "screens": {0: [DIP]}, "identity": {(0, 4): H, (0, CENTRE): K, (0, 0): C}},
    ),
]

# Detective, 4 players, deal C K C K | H.
DET_TURN = ["0: choose Detective", "0: offer +1", "1: accept"]
SPREAD_4 = (0.25, 0.5, 0.25)  # what a CIA seat thinks of a place it has not seen: C1 K2 H1
DETECTIVE = [
    Scenario(
        "Detective: the owner may look at its own token, another's, or the centre",
        4, T4, [DET, SCI], DET_TURN,
        {"screens": {1: [DET]}, "ask": ("detective", 1),
         "legal": ["detective self", "detective +1", "detective +2", "detective +3", "detective centre"]},
    ),
    Scenario("Detective self", 4, T4, [DET, SCI], DET_TURN + ["1: detective self"],
             {"identity": {(1, 1): K, (0, 1): SPREAD_4}, "ask": ("choose", 1)}),
    Scenario("Detective +1 (seat 2)", 4, T4, [DET, SCI], DET_TURN + ["1: detective +1"],
             {"identity": {(1, 2): C, (0, 2): SPREAD_4, (3, 2): (0.5, 0.25, 0.25)}}),
    Scenario("Detective +2 (seat 3)", 4, T4, [DET, SCI], DET_TURN + ["1: detective +2"],
             {"identity": {(1, 3): K, (0, 3): SPREAD_4}}),
    Scenario("Detective +3 (seat 0)", 4, T4, [DET, SCI], DET_TURN + ["1: detective +3"],
             {"identity": {(1, 0): C, (2, 0): SPREAD_4}}),
    Scenario("Detective centre", 4, T4, [DET, SCI], DET_TURN + ["1: detective centre"],
             {"identity": {(1, CENTRE): H, (0, CENTRE): SPREAD_4}}),
    Scenario("Detective refused: the active player looks", 4, T4, [DET, SCI],
             ["0: choose Detective", "0: offer +1", "1: refuse", "0: detective centre"],
             {"screens": {0: [DET]}, "identity": {(0, CENTRE): H, (1, CENTRE): (0.5, 0.25, 0.25)}}),
    Scenario(
        "Detective self after a swap: the owner learns its new token",
        4, T4, [PSY, SCI, DET, SCI],
        turn(4, 0, PSY, 1, "accept", "psychiatrist @2 @3") + turn(4, 1, DET, 2, "accept", "detective self"),
        {"identity": {(2, 2): K, (2, 3): C, (0, 2): SPREAD_4}},
    ),
]

SCIENTIST = [
    Scenario(
        "the first Scientist has no effect",
        4, T4, [SCI, JOU], turn(4, 0, SCI, 1),
        {"screens": {1: [SCI]}, "scores": [0, 5, 0, 0], "ask": ("choose", 1), "tokens": T4},
    ),
    Scenario(
        "before the second Scientist: two screens with face-up cards",
        4, T4, [SCI, DIP, JOU, DIP, SCI, DIP, SCI, ASN],
        turn(4, 0, SCI, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, SCI, 3),
        {"screens": {1: [SCI, JOU], 3: [SCI]}, "scores": [0, 8, 0, 5]},
    ),
    Scenario(
        "a second Scientist turns ALL face-up characters of that screen face down, earlier ones too",
        4, T4, [SCI, DIP, JOU, DIP, SCI, DIP, SCI, ASN],
        turn(4, 0, SCI, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, SCI, 3) + turn(4, 3, SCI, 1),
        {"screens": {1: ([], 3, 0), 3: [SCI]}, "scores": [0, 0, 0, 5]},
    ),
    Scenario(
        "RULING a third Scientist after the flip is the only face-up one: no effect",
        4, T4, [SCI, DIP, JOU, DIP, SCI, DIP, SCI, ASN, SCI, ASN],
        turn(4, 0, SCI, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, SCI, 3) + turn(4, 3, SCI, 1)
        + turn(4, 0, SCI, 1),
        {"screens": {1: ([SCI], 3, 0), 3: [SCI]}, "scores": [0, 5, 0, 5], "over": False},
    ),
    Scenario(
        "Bullets are not characters: they stay when the Scientists flip",
        4, T4, [SCI, DIP, ASN, DIP, SCI, DIP],
        turn(4, 0, SCI, 1) + turn(4, 1, ASN, 2, "accept", "assassin @1") + turn(4, 2, SCI, 1),
        {"screens": {1: ([], 2, 1), 2: [ASN]}, "bullets": {1: [-2]}, "scores": [0, -2, 0, 0]},
        bullets=(-2, 0, -1, -3),
    ),
]

# Assassin, 4 players, Bullets -3, 0, -1, -2 from the top.
ASN_TURN = ["0: choose Assassin", "0: offer +1", "1: accept"]
ASN_BULLETS = (-3, 0, -1, -2)
ASSASSIN = [
    Scenario(
        "Assassin: the owner draws the top Bullet and alone sees its value",
        4, T4, [ASN, SCI], ASN_TURN,
        {"screens": {1: [ASN]}, "ask": ("assassin", 1), "legal": ["assassin +1", "assassin +2", "assassin +3"],
         "bullet_in_hand": {0: None, 1: -3, 2: None, 3: None}, "bullet_deck": [0, -1, -2]},
        bullets=ASN_BULLETS,
    ),
    Scenario(
        "Assassin +1: the Bullet goes face down on seat 2's screen",
        4, T4, [ASN, SCI], ASN_TURN + ["1: assassin +1"],
        {"screens": {1: [ASN], 2: ([], 0, 1)}, "bullets": {2: [-3]}, "bullets_given": {1: {2: [-3]}},
         "bullet_in_hand": all_seats(4, None), "scores": [0, 0, -3, 0], "ask": ("choose", 1)},
        bullets=ASN_BULLETS,
    ),
    Scenario(
        "Assassin +2: the Bullet goes to seat 3",
        4, T4, [ASN, SCI], ASN_TURN + ["1: assassin +2"],
        {"screens": {1: [ASN], 3: ([], 0, 1)}, "bullets": {3: [-3]}, "bullets_given": {1: {3: [-3]}},
         "scores": [0, 0, 0, -3]},
        bullets=ASN_BULLETS,
    ),
    Scenario(
        "Assassin +3: the Bullet goes to seat 0",
        4, T4, [ASN, SCI], ASN_TURN + ["1: assassin +3"],
        {"screens": {0: ([], 0, 1), 1: [ASN]}, "bullets": {0: [-3]}, "bullets_given": {1: {0: [-3]}},
         "scores": [-3, 0, 0, 0]},
        bullets=ASN_BULLETS,
    ),
    Scenario(
        "Assassin refused: the active player draws and gives the Bullet",
        4, T4, [ASN, SCI], ["0: choose Assassin", "0: offer +1", "1: refuse", "0: assassin +2"],
        {"screens": {0: [ASN], 2: ([], 0, 1)}, "bullets": {2: [-3]}, "bullets_given": {0: {2: [-3]}}},
        bullets=ASN_BULLETS,
    ),
    Scenario(
        "a second Assassin draws the next Bullet",
        4, T4, [ASN, SCI, ASN, SCI],
        ASN_TURN + ["1: assassin +1"] + turn(4, 1, ASN, 3, "accept", "assassin @1"),
        {"screens": {1: ([ASN], 0, 1), 2: ([], 0, 1), 3: [ASN]}, "bullets": {1: [0], 2: [-3]},
         "bullets_given": {1: {2: [-3]}, 3: {1: [0]}}, "bullet_deck": [-1, -2], "scores": [0, 0, -3, 0]},
        bullets=ASN_BULLETS,
    ),
]


@table_test(PSYCHIATRIST + DOUBLE_AGENT + POLITICIAN + JOURNALIST + DIPLOMAT + DETECTIVE + SCIENTIST + ASSASSIN)
def test_card_effects(sc):
    run(sc)


def test_diplomat_others_cannot_tell_left_from_right():
    left, right = (
        run(Scenario("", 5, T5, [DIP, SCI], DIP_TURN + [f"2: diplomat {side}"], {})) for side in ("left", "right")
    )
    for seat in (0, 1, 3, 4):
        a, b = left.observe(f"player_{seat}"), right.observe(f"player_{seat}")
        assert np.array_equal(a["observation"], b["observation"]), f"player_{seat}"
    assert not np.array_equal(left.observe("player_2")["observation"], right.observe("player_2")["observation"])


# === Pairs ====================================================================

PAIRS = [
    Scenario(
        "a pair stays face up until the end of the turn",
        4, T4, [DET, SCI, DET, SCI],
        turn(4, 0, DET, 1, "accept", "detective self") + ["1: choose Detective", "1: offer +1", "2: refuse"],
        {"screens": {1: [DET, DET]}, "ask": ("detective", 1)},
    ),
    Scenario(
        "an identical face-up pair turns face down at the end of the turn (worth 0)",
        4, T4, [DET, SCI, DET, SCI],
        turn(4, 0, DET, 1, "accept", "detective self") + turn(4, 1, DET, 2, "refuse", "detective centre"),
        {"screens": {1: ([], 2, 0)}, "scores": [0, 0, 0, 0]},
    ),
    Scenario(
        "different characters stay face up",
        4, T4, [JOU, SCI, DA, SCI], turn(4, 0, JOU, 1) + turn(4, 1, DA, 2, "refuse"),
        {"screens": {1: [JOU, DA]}, "scores": [0, 5, 0, 0]},
    ),
    Scenario(
        "RULING only face-up pairs turn: a third identical card stays face up",
        4, T4, [JOU, SCI, JOU, SCI, JOU, SCI],
        turn(4, 0, JOU, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, JOU, 1),
        {"screens": {1: ([JOU], 2, 0)}, "scores": [0, 3, 0, 0]},
    ),
    Scenario(
        "a fourth identical card makes a second pair",
        4, T4, [JOU, SCI, JOU, SCI, JOU, SCI, JOU, SCI],
        turn(4, 0, JOU, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, JOU, 1) + turn(4, 3, JOU, 1),
        {"screens": {1: ([], 4, 0)}, "scores": [0, 0, 0, 0]},
    ),
]


@table_test(PAIRS)
def test_pairs(sc):
    run(sc)


# === The end of the game ======================================================

# Seat 1 collects one card a turn: Scientist, Journalist, Double Agent, Detective, Diplomat.
END_SIZE = [(4, 5), (5, 5), (6, 5), (7, 4), (8, 4)]  # players, the screen size that ends the game
END_CARDS = [(SCI, ()), (JOU, ()), (DA, ()), (DET, ("detective self",)), (DIP, ("diplomat left",))]
END_DECK = [SCI, PSY, JOU, PSY, DA, ASN, DET, ASN, DIP, ASN]


def collect_on_seat_1(n: int, turns: int) -> list[str]:
    steps = []
    for t in range(turns):
        active = t % n
        card, effect = END_CARDS[t]
        steps += turn(n, active, card, 1 if active != 1 else 2, "accept" if active != 1 else "refuse", *effect)
    return steps


@pytest.mark.parametrize("n,size", END_SIZE, ids=[f"{n} players end at {s} cards" for n, s in END_SIZE])
def test_the_game_ends_at_the_end_of_the_turn_a_screen_reaches_the_end_size(n, size):
    env = new_env(n, DEALS[n], END_DECK)
    last = collect_on_seat_1(n, size)
    before_last = collect_on_seat_1(n, size - 1)
    play(env, before_last)
    assert env.unwrapped.engine.table.cards[1] == size - 1
    check(env, {"over": False, "ask": ("choose", (size - 1) % n)})
    # The last card lands: the screen reaches the end size, but its effect is still applied.
    play(env, last[len(before_last) : -1])
    assert env.unwrapped.engine.table.cards[1] == size
    check(env, {"over": False, "ask": ("detective" if size == 4 else "diplomat", 1)})
    play(env, last[-1:])
    check(env, {"over": True, "ask": "over"})
    assert env.infos["player_0"]["turns"] == size


# Seat 1 collects five cards at 4 players, a pair of Journalists among them.
FIVE_ON_1 = (
    turn(4, 0, SCI, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, POL, 3, "accept", "politician @1")
    + turn(4, 3, JOU, 1)
)
FIVE_ON_1_DECK = [SCI, DIP, JOU, DIP, POL, DIP, JOU, ASN]
T4_END = [C, K, H, K, C]  # seat 1 KGB, centre CIA
END = [
    Scenario(
        "four cards do not end a 4-player game",
        4, T4_END, FIVE_ON_1_DECK, FIVE_ON_1,
        {"screens": {1: ([SCI, POL], 2, 0)}, "over": False, "ask": ("choose", 0), "un": None},
    ),
    Scenario(
        "the fifth card is a Psychiatrist: the game waits for its effect",
        4, T4_END, FIVE_ON_1_DECK + [PSY, ASN], FIVE_ON_1 + ["0: choose Psychiatrist", "0: offer +1", "1: accept"],
        {"screens": {1: ([SCI, POL, PSY], 2, 0)}, "over": False, "ask": ("psychiatrist", 1)},
    ),
    Scenario(
        "the fifth card's effect is applied and counts for the end: identities at the END score",
        4, T4_END, FIVE_ON_1_DECK + [PSY, ASN], FIVE_ON_1 + turn(4, 0, PSY, 1, "accept", "psychiatrist @0 @2"),
        {"ask": "over", "tokens": [H, K, C, K, C], "scores": [0, 7, 0, 0], "winners": [1, 3], "rewards": [-1, 1, -1, 1],
         "infos": {"identities": {"player_0": H, "player_1": K, "player_2": C, "player_3": K}, "centre_identity": C,
                   "team_scores": {"CIA": 0, "KGB": 7}}},
    ),
    Scenario(
        "a Double Agent as the last card: its swap decides the teams",
        4, T4_END, FIVE_ON_1_DECK + [DA, ASN], FIVE_ON_1 + turn(4, 0, DA, 1),
        {"ask": "over", "tokens": [C, C, H, K, K], "screens": {1: ([SCI, POL, DA], 2, 0)}, "scores": [0, 10, 0, 0],
         "winners": [0, 1], "rewards": [1, 1, -1, -1],
         "infos": {"identities": {"player_0": C, "player_1": C, "player_2": H, "player_3": K}, "centre_identity": K}},
    ),
    Scenario(
        "RULING a Politician as the fifth card counts for its landing screen; the last turn's pair turns face down",
        4, T4_END, FIVE_ON_1_DECK + [POL, ASN], FIVE_ON_1 + turn(4, 0, POL, 2, "accept", "politician @1"),
        {"ask": "over", "screens": {1: ([SCI], 4, 0)}, "scores": [0, 5, 0, 0], "winners": [1, 3],
         "identity": {(2, 1): K}},
    ),
    Scenario(
        "8 players: a Bullet as the fourth card ends the game",
        8, T8, [SCI, DIP, JOU, DIP, DET, DIP, ASN, PSY],
        turn(8, 0, SCI, 1) + turn(8, 1, JOU, 0, "refuse") + turn(8, 2, DET, 1, "accept", "detective self")
        + turn(8, 3, ASN, 2, "accept", "assassin @1"),
        {"ask": "over", "screens": {1: ([SCI, JOU, DET], 0, 1), 2: [ASN]}, "bullets": {1: [-3]},
         "scores": [0, 3, 0, 0, 0, 0, 0, 0], "winners": [1, 3, 5],
         "infos": {"bullets": {f"player_{s}": [-3] if s == 1 else [] for s in range(8)}}},
        bullets=(-3, 0, -1, -2),
    ),
    Scenario(
        "a whole game: the UN player lets offers pass, the token returns to the centre at the last turn",
        4, [C, K, C, H, K],
        [SCI, DIP, JOU, DIP, DA, DIP, SCI, PSY, JOU, PSY, DET, ASN, ASN, DET],
        turn(4, 0, SCI, 1) + turn(4, 1, JOU, 2, "refuse") + turn(4, 2, DA, 1) + turn(4, 3, SCI, 0) + turn(4, 0, JOU, 2)
        + turn(4, 1, DET, 2, "refuse", "detective self", un=(3, "let pass"))
        + turn(4, 2, ASN, 1, "accept", "assassin @3", un=(3, "let pass")),
        {"ask": "over", "un": None, "screens": {0: [SCI], 1: [SCI, JOU, DA, DET, ASN], 2: [JOU], 3: ([], 0, 1)},
         "scores": [5, 8, 3, -2], "tokens": [C, K, C, H, K], "winners": [3], "rewards": [-1, -1, -1, 1],
         "infos": {"turns": 7}},
        bullets=(-2, 0, -1, -3),
    ),
]


@table_test(END)
def test_end_of_game(sc):
    run(sc)


def test_the_whole_game_had_a_un_player_before_the_last_turn():
    sc = END[-1]
    env = new_env(sc.players, sc.tokens, sc.top, sc.bullets)
    play(env, sc.actions[:15])  # five turns: screens of 1, 3, 1 and 0 cards
    check(env, {"un": 3, "screens": {0: [SCI], 1: [SCI, JOU, DA], 2: [JOU]}, "ask": ("choose", 1)})


# === Scoring ==================================================================

# 7 players (the end at 4 cards). Seat 1 gets Scientist, Journalist, Politician and a second
# Journalist (a face-down pair: 5 + 3 = 8, not 14); seat 5 a Detective (-2); seat 6 either a
# Detective (-2) or, from seat 4's Assassin, the top Bullet.
SCORE_DECK_DET = [SCI, DIP, JOU, DIP, DET, DIP, DET, ASN, POL, DA, JOU, DA]
SCORE_DECK_ASN = [SCI, DIP, JOU, DIP, DET, DIP, ASN, DA, POL, DA, JOU, DA]
_START = turn(7, 0, SCI, 1) + turn(7, 1, JOU, 0, "refuse") + turn(7, 2, DET, 5, "accept", "detective self")
_FINISH = turn(7, 4, POL, 2, "accept", "politician @1") + turn(7, 5, JOU, 1)
SCRIPT_DET = _START + turn(7, 3, DET, 6, "accept", "detective self") + _FINISH  # scores 0 8 0 0 0 -2 -2
SCRIPT_ASN = _START + turn(7, 3, ASN, 4, "accept", "assassin @6") + _FINISH  # scores 0 8 0 0 0 -2 bullet


@dataclass
class Scoring:
    name: str
    script: list[str]
    top: list[str]
    tokens: list[str]
    bullets: tuple[int, ...]
    scores: list[int]
    team_scores: dict[str, int]
    winners: list[int]
    win_rewards: list[int]
    score_rewards: list[int]


SCORING = [
    Scoring(
        "two Hippies tied for lowest: no lone win, CIA wins on its total",
        SCRIPT_DET, SCORE_DECK_DET, [C, C, C, K, K, H, H, K], (0, -1, -2, -3),
        [0, 8, 0, 0, 0, -2, -2], {"CIA": 8, "KGB": 0}, [0, 1, 2],
        [1, 1, 1, -1, -1, -1, -1], [8, 8, 8, -8, -8, -8, -8],
    ),
    Scoring(
        "CIA and KGB tie: everybody loses",
        SCRIPT_DET, SCORE_DECK_DET, [C, H, C, K, K, C, K, H], (0, -1, -2, -3),
        [0, 8, 0, 0, 0, -2, -2], {"CIA": -2, "KGB": -2}, [],
        [-1] * 7, [0] * 7,
    ),
    Scoring(
        "the higher total wins even when negative; a high-scoring Hippie loses",
        SCRIPT_DET, SCORE_DECK_DET, [K, H, K, K, C, C, C, H], (0, -1, -2, -3),
        [0, 8, 0, 0, 0, -2, -2], {"CIA": -4, "KGB": 0}, [0, 2, 3],
        [1, -1, 1, 1, -1, -1, -1], [4, -4, 4, 4, -4, -4, -4],
    ),
    Scoring(
        "a lone Hippie with the strictly lowest score wins alone",
        SCRIPT_ASN, SCORE_DECK_ASN, [C, C, K, K, C, H, K, H], (-1, 0, -2, -3),
        [0, 8, 0, 0, 0, -2, -1], {"CIA": 8, "KGB": -1}, [5],
        [-1, -1, -1, -1, -1, 1, -1], [-1, -1, -1, -1, -1, 1, -1],
    ),
    Scoring(
        "the lowest is not a Hippie: the teams score",
        SCRIPT_ASN, SCORE_DECK_ASN, [C, C, H, K, C, K, H, K], (-1, 0, -2, -3),
        [0, 8, 0, 0, 0, -2, -1], {"CIA": 8, "KGB": -2}, [0, 1, 4],
        [1, 1, -1, -1, 1, -1, -1], [10, 10, -10, -10, 10, -10, -10],
    ),
    Scoring(
        "a Bullet counts its value: a Hippie lowest by a Bullet wins alone",
        SCRIPT_ASN, SCORE_DECK_ASN, [C, C, K, K, C, K, H, H], (-3, 0, -1, -2),
        [0, 8, 0, 0, 0, -2, -3], {"CIA": 8, "KGB": -2}, [6],
        [-1, -1, -1, -1, -1, -1, 1], [-1, -1, -1, -1, -1, -1, 1],
    ),
]


@pytest.mark.parametrize("mode", ["win", "score"])
@pytest.mark.parametrize("sc", SCORING, ids=[s.name for s in SCORING])
def test_scoring(sc, mode):
    env = new_env(7, sc.tokens, sc.top, sc.bullets, reward=mode)
    play(env, sc.script)
    rewards = sc.win_rewards if mode == "win" else sc.score_rewards
    check(env, {"ask": "over", "scores": sc.scores, "winners": sc.winners, "rewards": rewards,
                "infos": {"team_scores": sc.team_scores, "turns": 6}, "tokens": sc.tokens})
    for seat, agent in enumerate(env.possible_agents):
        assert env.infos[agent]["identity"] == sc.tokens[seat]


# === Bad input =================================================================

CONSTRUCTOR = [
    ({"num_players": 3}, ["num_players", "4", "8"]),
    ({"num_players": 9}, ["num_players", "4", "8"]),
    ({"num_players": 5.0}, ["num_players"]),
    ({"claims": "yes"}, ["claims", "True or False"]),
    ({"reward": "x"}, ["reward", "'win'", "'score'"]),
    ({"illegal": "x"}, ["illegal", "'raise'", "'penalize'"]),
    ({"max_turns": 0}, ["max_turns", "positive"]),
    ({"max_turns": -2}, ["max_turns", "positive"]),
    ({"render_mode": "rgb_array"}, ["render_mode", "'ansi'"]),
]


@pytest.mark.parametrize("kwargs,fragments", CONSTRUCTOR, ids=[str(k) for k, _ in CONSTRUCTOR])
def test_bad_constructor_arguments(kwargs, fragments):
    with pytest.raises(ValueError) as error:
        secrets_v1.env(**kwargs)
    for fragment in fragments:
        assert fragment in str(error.value)


def snapshot(env) -> tuple:
    eng = env.unwrapped.engine
    t = eng.table
    observations = {}
    for agent in env.possible_agents:
        o = env.observe(agent)
        observations[agent] = (o["observation"].tobytes(), o["action_mask"].tobytes())
    return (
        observations,
        list(eng.tokens), list(eng.deck), list(eng.bullet_deck), list(eng.in_hand), eng.bullet_in_hand,
        [list(b) for b in eng.bullets_received],
        [list(row) for row in t.face_up], list(t.face_down), list(t.bullets),
        (t.active, t.revealed, t.offer_target, t.claim, t.card_in_play, t.un_holder, t.decision, t.to_act, t.turn),
        env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations),
        dict(env.truncations), eng.is_over,
    )


@dataclass(frozen=True)
class Raw:
    """A raw value passed to step() as it is (not an action name)."""

    value: Any


# (name, constructor kwargs, actions before, the bad action (a name, or Raw(value)), message fragments)
ILLEGAL = [
    ("an answer while a card must be chosen", {}, [], "accept",
     ["player_0", "'accept'", "choose the card to offer"]),
    ("a card that is not showing", {}, [], "choose Journalist",
     ["player_0", "'choose Journalist'", "Scientist or Detective"]),
    ("choosing twice", {}, ["0: choose Scientist"], "choose Detective",
     ["player_0", "'choose Detective'", "make the Offer"]),
    ("a claim with claims=False", {"claims": False}, ["0: choose Scientist"], "offer +1 as Scientist",
     ["player_0", "'offer +1 as Scientist'", "claims=False"]),
    ("intercepting with no UN player", {}, ["0: choose Scientist", "0: offer +2"], "intercept",
     ["player_2", "'intercept'", "accept or refuse"]),
    ("an effect that was not asked", {}, ["0: choose Scientist", "0: offer +2"], "detective self",
     ["player_2", "'detective self'", "accept or refuse"]),
    ("an id out of range (negative)", {}, [], Raw(-1), ["player_0", "-1", "out of range"]),
    ("an id out of range (too large)", {}, [], Raw(55), ["player_0", "55", "out of range"]),
    ("a string", {}, [], Raw("accept"), ["player_0", "'accept'", "integer"]),
    ("a float", {}, [], Raw(1.0), ["player_0", "1.0", "integer"]),
    ("None", {}, [], Raw(None), ["player_0", "None", "integer"]),
    ("a bool", {}, [], Raw(True), ["player_0", "True", "integer"]),
]


@pytest.mark.parametrize("name,kwargs,before,bad,fragments", ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_illegal_actions_raise_and_change_nothing(name, kwargs, before, bad, fragments):
    env = new_env(4, T4, [SCI, DET], **kwargs)
    play(env, before)
    state = snapshot(env)
    action = bad.value if isinstance(bad, Raw) else env.unwrapped.string_to_action(bad)
    with pytest.raises(ValueError) as error:
        env.step(action)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert snapshot(env) == state
    # the game goes on from where it was
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(int(legal[0]))
    assert snapshot(env) != state


def test_penalize_gives_the_mover_minus_one_and_ends_the_episode():
    env = new_env(4, T4, [SCI, DET], illegal="penalize")
    play(env, ["0: choose Scientist", "0: offer +2"])
    env.step(env.unwrapped.string_to_action("detective self"))  # player_2 must answer instead
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0, "player_3": 0.0}
    assert env._cumulative_rewards["player_2"] == -1.0
    assert all(env.terminations.values())
    assert env.infos["player_0"]["illegal_move"]["agent"] == "player_2"


# (name, players, setup, fragment of the message)
BAD_SETUP = [
    ("too many CIA tokens", 4, {"tokens": [C, C, C, K, H]}, "tokens"),
    ("one token too few", 4, {"tokens": [C, C, K, K]}, "tokens"),
    ("one token too many", 4, {"tokens": [C, C, K, K, H, H]}, "tokens"),
    ("an unknown identity", 4, {"tokens": [C, C, K, K, "Spy"]}, "tokens"),
    ("the 5-player tokens at 6 players", 6, {"tokens": [C, C, K, K, H, H, C]}, "tokens"),
    ("a deck of 28 cards", 4, {"deck": deck()[:-1]}, "deck"),
    ("a deck of 30 cards", 4, {"deck": deck() + [SCI]}, "deck"),
    ("a deck with a seventh Scientist", 4, {"deck": deck()[:-1] + [SCI]}, "deck"),
    ("an unknown character", 4, {"deck": deck()[:-1] + ["Pirate"]}, "deck"),
    ("wrong Bullet values", 4, {"bullets": [0, -1, -2, -4]}, "bullets"),
    ("a first player out of range", 4, {"first_player": 4}, "first_player"),
    ("an unknown setup key", 4, {"hands": []}, "hands"),
]


@pytest.mark.parametrize("name,players,setup,fragment", BAD_SETUP, ids=[row[0] for row in BAD_SETUP])
def test_bad_setup_raises(name, players, setup, fragment):
    env = secrets_v1.env(num_players=players)
    with pytest.raises(ValueError) as error:
        env.reset(seed=0, options={"setup": setup})
    assert fragment in str(error.value)
