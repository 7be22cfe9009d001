"""The JAX scripted player against `SpyfallScriptedPlayer`, decision for decision, in seeded games."""

from __future__ import annotations

import copy
from contextlib import contextmanager
from functools import cache
from itertools import product

import jax
import numpy as np
import pytest

import hidden_role_envs
from hidden_role_envs.games.spyfall import Location, bots
from hidden_role_envs.games.spyfall.actions import ANSWER, ASK, PASS, VOTE
from hidden_role_envs.games.spyfall.batched_bots import _build, batched_scripted_player
from hidden_role_envs.games.spyfall.bots import SpyfallScriptedPlayer
from hidden_role_envs.games.spyfall.rules import BALLOT, FINAL_ACCUSATION, QUESTION, REPLY, WINDOW
from tests.support import decisions, random_legal

# Four words of even weight over four attributes (every two differ in two): with few attributes all are soon
# answered, and the non-spies ask `_ask_anything`; two rounds, so the second leaves the first's location out.
EVEN_WORDS = [word for word in product([0, 1], repeat=4) if sum(word) % 2 == 0]
FEW_ATTRIBUTES = {
    "attributes": ["a", "b", "c", "d"],
    "locations": [
        Location(f"place {i}", tuple(f"role {r}" for r in range(3)), frozenset(a for a, on in zip("abcd", word) if on))
        for i, word in enumerate(EVEN_WORDS)
    ],
    "num_rounds": 2,
}
# (players, options, all-scripted games, games where half the seats play at random): the small tables, three rounds
# at 5 players, the large table, few attributes. Random seats (`wander`) bring baseless accusations and votes, odd
# questions, and decisions where the clock is stopped at once; the reference is asked at their decisions too.
TABLES = {
    "3 players": (3, {}, 100, 0),
    "5 players, 3 rounds": (5, {"num_rounds": 3}, 30, 40),
    "8 players": (8, {}, 20, 6),
    "4 players, few attributes": (4, FEW_ATTRIBUTES, 40, 0),
}
CHUNK = 1024  # decisions per compiled call: every call of a table has this shape
NEAR = 1e-4  # reference scores this close to its best are ties the twin may break either way
EXACT = 1e-9  # ... and this close, ties the twin breaks among all of them, as the reference does
CLOSE = 1e-5  # the twin's suspicion, danger and P(yes) are the reference's, this close
NUDGE = 1e-5  # a reference decision that changes when its thresholds move this much is on the edge
DECISION_NAMES = {
    QUESTION: "question",
    REPLY: "reply",
    WINDOW: "window",
    BALLOT: "ballot",
    FINAL_ACCUSATION: "final accusation",
}


class _Offers:
    """Stands in for a player's generator: what `rng.choice` is offered is what `_ask_anything` may ask."""

    def choice(self, options):
        self.options = list(options)
        return self.options[0]


def reference(player: SpyfallScriptedPlayer, observation: dict, shade: float = 1.0) -> dict:
    """The reference's decision, by its own methods, without drawing from its generator: the scores of the
    actions it chooses among at random (NaN: not considered), or the one it plays (score 0), or the spy's P(yes);
    the suspicion and danger it acts on; and a label of what it does. `shade` scales the spy views `_worth` reads
    P(true answer) from (its 1/2 edge)."""
    mask = observation["action_mask"]
    _, v = player.read(observation)
    decision = int(np.argmax(v["decision"]))
    spy = bool(v["is_spy"][0])
    danger, suspicion = player.seen_by_the_non_spies(v) if spy else (0.0, player.suspicion(v))
    actions = player.actions
    scores = np.full(len(mask), np.nan)
    result = {"suspicion": suspicion, "danger": danger, "yes": np.nan, "narrowed": False}
    running = decision in (QUESTION, REPLY, WINDOW)
    stop = player._stop_the_clock(v, mask, suspicion, spy, danger) if running else None
    if stop is None and decision == QUESTION and spy:
        share = v["location_belief"] @ player.matrix  # `_ask_as_spy`: the attribute it is least sure of
        for action in actions.of_kind[ASK]:
            if mask[action]:
                scores[action] = -abs(share[actions.args[action][1]] - 0.5)
        label = "ask as spy"
    elif stop is None and decision == QUESTION:
        exchanges = player.exchanges(v)
        considered = player._unasked_seats_first(mask, exchanges) if player.large else mask
        result["narrowed"] = bool((considered != mask).any())
        views = player.spy_views(v, exchanges)
        truth = player.matrix[int(np.argmax(v["location"]))]
        fresh = player._fresh_attributes(exchanges)
        for action in actions.of_kind[ASK]:
            target, attribute = actions.args[action]
            if considered[action] and attribute in fresh:
                telling = player._telling(views, truth, attribute)
                listeners = player._listeners(suspicion, target)
                scores[action] = player._worth(views * shade, suspicion, truth, target, attribute, telling, listeners)
        label = "ask"
        if np.isnan(scores).all():
            offers = _Offers()
            asking = copy.copy(player)
            asking.rng = offers
            asking._ask_anything(considered, exchanges)
            scores[offers.options] = 0.0
            label = "ask anything"
    elif stop is None and decision == REPLY and spy:
        result["yes"] = float(v["location_belief"] @ player.matrix[:, int(np.argmax(v["question_attribute"]))])
        label = "answer as spy"
    else:  # its choice is forced: nothing here draws from its generator
        action = player(observation)
        scores[action] = 0.0
        label = actions.names[action] if actions.kind[action] == VOTE else actions.names[action].split(" ")[0]
    result["scores"] = scores
    result["label"] = f"{DECISION_NAMES[decision]}, {'spy' if spy else 'non-spy'}: {label}"
    return result


@contextmanager
def nudged(player: SpyfallScriptedPlayer, sign: int):
    """A copy of `player` with every threshold it compares a float with moved by `sign` * NUDGE."""
    moved = copy.copy(player)
    for name in ("accuse_at", "vote_yes_at", "protect_at"):
        setattr(moved, name, getattr(player, name) + sign * NUDGE)
    with pytest.MonkeyPatch.context() as patch:
        for name in ("DANGER_AT", "WIN_IF_UNSEEN"):
            patch.setattr(bots, name, getattr(bots, name) + sign * NUDGE)
        yield moved


def wander(player: SpyfallScriptedPlayer, observation: dict, rng: np.random.Generator) -> int:
    """A random seat: any legal action, but it lets every interruption window go by, so that its next question or
    answer meets a suspicion or a certainty it has not acted on."""
    legal, v = player.read(observation)
    if np.argmax(v["decision"]) == WINDOW:
        return player.actions.of_kind[PASS][0]
    return int(rng.choice(legal))


@cache
def recorded(table: str) -> dict:
    """Every decision of the table's seeded games, a random seat's too: observation, mask and the reference's view."""
    num_players, options, scripted_games, mixed_games = TABLES[table]
    env = hidden_role_envs.make("spyfall", num_players=num_players, **options)
    config = env.unwrapped.config
    rows = []
    for game in range(scripted_games + mixed_games):
        env.reset(seed=1000 * num_players + game)
        players = {a: SpyfallScriptedPlayer(config, seed=100 * game + i) for i, a in enumerate(env.possible_agents)}
        rng = np.random.default_rng(game)
        randoms = set(
            rng.choice(env.possible_agents, num_players // 2, replace=False) if game >= scripted_games else []
        )
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            row = reference(players[agent], observation)
            row["observation"] = np.asarray(observation["observation"], np.float32)
            row["mask"] = np.asarray(observation["action_mask"], bool)
            rows.append(row)
            if agent in randoms:
                env.step(wander(players[agent], observation, rng))
            else:
                env.step(players[agent](observation))
    return {"config": config, "rows": rows}


@cache
def compiled(table: str):
    """The twin of the table's configuration, jitted over a batch: (actions, explanations)."""
    decide, explain = _build(recorded(table)["config"])
    return jax.jit(jax.vmap(lambda o, m, k: (decide(o, m, k), explain(o, m))))


def twin(table: str, observations: np.ndarray, masks: np.ndarray, seed: int) -> tuple[np.ndarray, dict]:
    """The twin's actions and explanations of many decisions, CHUNK at a time."""
    count = len(observations)
    padded = -(-count // CHUNK) * CHUNK
    index = np.arange(padded) % count
    keys = jax.random.split(jax.random.PRNGKey(seed), padded)
    parts = [
        jax.device_get(
            compiled(table)(observations[index[s : s + CHUNK]], masks[index[s : s + CHUNK]], keys[s : s + CHUNK])
        )
        for s in range(0, padded, CHUNK)
    ]
    actions = np.concatenate([p[0] for p in parts])[:count]
    explained = {name: np.concatenate([p[1][name] for p in parts])[:count] for name in parts[0][1]}
    return actions, explained


def agrees(ref: dict, action: int, explained: dict, answers: list[int]) -> bool:
    """Whether the twin decided as the reference: the same suspicion and danger; the spy's P(yes); else an action
    the reference might play (the tied best only, all of its exact ties) and nothing else."""
    if (
        np.abs(explained["suspicion"] - ref["suspicion"]).max() > CLOSE
        or abs(explained["danger"] - ref["danger"]) > CLOSE
    ):
        return False
    policy = explained["policy"]
    support = policy > 0
    if not np.isnan(ref["yes"]):
        yes, no = policy[answers]
        return (
            abs(yes - ref["yes"]) <= CLOSE
            and abs(yes + no - 1) <= CLOSE
            and set(np.flatnonzero(support)) <= set(answers)
            and action in answers
        )
    scores = ref["scores"]
    best = np.nanmax(scores)
    near, exact = scores >= best - NEAR, scores >= best - EXACT  # NaN: False
    return bool(support[action] and not (support & ~near).any() and not (exact & ~support).any())


@pytest.mark.parametrize("table", TABLES)
def test_the_twin_decides_as_the_scripted_player(table):
    """At every decision of the games: where the reference's choice is forced, the twin's is the same; where it
    breaks a tie, the twin plays among the tied best; the spy answers yes as often; the suspicion and danger it
    acts on are the reference's. A decision the reference takes on a threshold's edge (its float64 rounding of an
    exact tie) must agree with the reference with its thresholds nudged one way or the other."""
    played = recorded(table)
    rows, config = played["rows"], played["config"]
    observations = np.stack([r["observation"] for r in rows])
    masks = np.stack([r["mask"] for r in rows])
    actions, explained = twin(table, observations, masks, seed=len(rows))
    answers = [SpyfallScriptedPlayer(config).actions.id_of(ANSWER, yes) for yes in (True, False)]
    assert masks[np.arange(len(rows)), actions].all()

    on_the_edge = []
    for i, ref in enumerate(rows):
        mine = {name: values[i] for name, values in explained.items()}
        if agrees(ref, actions[i], mine, answers):
            continue
        observation = {"observation": observations[i], "action_mask": masks[i]}
        player = SpyfallScriptedPlayer(config)
        edge_cases = []
        for sign in (1, -1):
            with nudged(player, sign) as moved:
                edge_cases.append(reference(moved, observation, shade=1 + sign * NUDGE))
        assert any(agrees(edge, actions[i], mine, answers) for edge in edge_cases), (i, ref["label"])
        on_the_edge.append(ref["label"])
    assert len(on_the_edge) <= max(2, len(rows) // 500), on_the_edge


def test_the_games_reach_every_kind_of_decision():
    """Both roles in every decision, every branch of the reference: its questions (the large table's narrowed to
    unasked seats, `_ask_anything`), its answers, its accusations and guesses at every decision where the clock runs,
    both votes, and the time-up accusation."""
    labels = {row["label"] for table in TABLES for row in recorded(table)["rows"]}
    for decision, role, does in [
        ("question", "non-spy", ["ask", "ask anything", "accuse"]),
        ("question", "spy", ["ask as spy"]),
        ("reply", "non-spy", ["answer", "accuse"]),
        ("reply", "spy", ["answer as spy", "accuse", "guess"]),
        ("window", "non-spy", ["pass", "accuse"]),
        ("window", "spy", ["pass", "accuse", "guess"]),
        ("ballot", "non-spy", ["vote yes", "vote no"]),
        ("ballot", "spy", ["vote yes"]),
        ("final accusation", "non-spy", ["accuse"]),
        ("final accusation", "spy", ["accuse"]),
    ]:
        for action in does:
            assert f"{decision}, {role}: {action}" in labels
    assert any(row["narrowed"] for row in recorded("8 players")["rows"])


def test_the_spy_answers_yes_as_often_as_it_believes_yes():
    table = "5 players, 3 rounds"
    rows = [row for row in recorded(table)["rows"] if 0.1 < row["yes"] < 0.9][:8]
    assert len(rows) == 8
    draws = CHUNK // len(rows)
    observations = np.repeat(np.stack([row["observation"] for row in rows]), draws, axis=0)
    masks = np.repeat(np.stack([row["mask"] for row in rows]), draws, axis=0)
    actions, _ = twin(table, observations, masks, seed=1)
    answers = [SpyfallScriptedPlayer(recorded(table)["config"]).actions.id_of(ANSWER, yes) for yes in (True, False)]
    assert set(actions) <= set(answers)
    said_yes = (actions == answers[0]).reshape(len(rows), draws).mean(axis=1)
    believed = np.array([row["yes"] for row in rows])
    assert (np.abs(said_yes - believed) <= 4 * np.sqrt(believed * (1 - believed) / draws)).all()


def test_the_twin_under_vmap_plays_legal_actions_at_random_tables():
    """At a table size the other tests leave out, in every decision random players lead to."""
    env = hidden_role_envs.make("spyfall", num_players=6, num_rounds=2)
    rng = np.random.default_rng(6)
    seen = [obs for game in range(20) for _, obs, _ in decisions(env, lambda obs: random_legal(rng, obs), game)]
    observations = [obs["observation"] for obs in seen]
    masks = [obs["action_mask"] for obs in seen]
    decide = jax.vmap(jax.jit(batched_scripted_player(env.unwrapped.config)))
    keys = jax.random.split(jax.random.PRNGKey(6), len(masks))
    actions = np.asarray(decide(np.stack(observations), np.stack(masks), keys))
    assert len(actions) > 500
    assert np.stack(masks)[np.arange(len(actions)), actions].all()
