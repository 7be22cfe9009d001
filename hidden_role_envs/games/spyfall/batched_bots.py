"""The scripted Spyfall player as a pure JAX function, to seat it inside compiled, batched rollouts.

`batched_scripted_player(config)` gives `decide(observation, mask, key)`:
one seat's flat observation vector and legal mask in, the action out, with
fixed shapes and no Python branching on values, so `jax.jit` and `jax.vmap`
take it as it is. It decides as `bots.SpyfallScriptedPlayer` does, formula
for formula, as the spy and as a non-spy at every table size (the large
table's unasked seats first, PROTECT_AT_LARGE, the questions read as
evidence and the _LARGE thresholds): the replay of the round (`_replay`,
`spy_odds`, `_question_odds`, `_baseless`), the non-spy's `suspicion` and
the spy's `seen_by_the_non_spies`, `_guess` and `_fits`, `_ask` with its
protection of the place and `_ask_anything`, `_ask_as_spy`, `_answer` and
`_accuse`; up to float32 rounding, as the reference computes in float64.

The round's exchanges are a record of `question_limit` rows, filled in the
order asked: the replay works on every row at once, the rows not answered
yet masked out, and what a spy at each seat could infer when row j was
asked is the sum over the rows before it (a running sum). The non-spies'
suspicion is worked out for every location at once: a non-spy reads its
own location's, the spy averages them by its belief.

Each decision ends as a distribution over the actions, from which `decide`
draws with `key`: one action where the reference's choice is forced;
uniform over the ties, the actions within TIE of the best, where it breaks
them at random (its 1e-9 noise is below float32's resolution); the spy's
answer yes as often as it believes yes. The reference's `np.argmax` (the
accused, the named location) takes the first of its ties, and so does this
(the accused: the first within EDGE of the most suspected).

Some values sit exactly on the threshold they are compared with, such as a
spy view that gives a true answer exactly 1/2 (`_worth`'s miss) or a spy 9
to 1 sure of a place against PROTECT_AT 0.9. There the reference's float64
rounding picks the side; here a value within EDGE of any threshold counts as
on it, as in exact arithmetic, which is where the reference's rounding lands
it in most such cases (about one decision in 5,000 of seeded games differs
there: the test's "edge").
"""

from __future__ import annotations

import math
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from hidden_role_envs.games.spyfall.actions import ACCUSE, ANSWER, ASK, GUESS, PASS, VOTE, spyfall_actions
from hidden_role_envs.games.spyfall.bots import (
    ACCUSE_AT,
    ACCUSE_AT_LARGE,
    BASELESS_ODDS,
    DANGER_AT,
    FIT_AT,
    GUESS_AT,
    LARGE_TABLE,
    LEAK_WEIGHT,
    PROTECT_AT,
    PROTECT_AT_LARGE,
    QUESTION_ODDS,
    SPY_SLIP,
    VOTE_YES_AT,
    VOTE_YES_AT_LARGE,
    WIN_IF_UNSEEN,
)
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.knowledge import LIE_RATE
from hidden_role_envs.games.spyfall.observation import spyfall_layout
from hidden_role_envs.games.spyfall.rules import BALLOT, FINAL_ACCUSATION, QUESTION, REPLY, WINDOW

TIE = 1e-5  # scores this close to the best are ties
EDGE = 1e-6  # a value this close to a threshold is on it (see the module docs)
BELIEVED = 1e-3  # the spy averages the non-spies' suspicion over the locations it believes more than this (`_seen_as`)
LOG_TRUE, LOG_LIE = math.log(1 - LIE_RATE), math.log(LIE_RATE)


def _normalise(loglik: jax.Array, unplayed: jax.Array) -> jax.Array:
    """P(location) over the last axis from log-weights, the locations of finished rounds left out."""
    weights = jnp.exp(loglik - loglik.max(axis=-1, keepdims=True)) * unplayed
    return weights / weights.sum(axis=-1, keepdims=True)


def _narrowed(views: jax.Array, keeps: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Spy views (..., L) narrowed by each true answer of `keeps` (K..., L), the locations it keeps: (..., K...) the
    share of each view left, and how sure of its likeliest location it leaves a spy (0 where nothing is left), as
    `bots._sharpest`."""
    total = jnp.tensordot(views, keeps, axes=(-1, -1))
    spread = views.reshape(views.shape[:-1] + (1,) * (keeps.ndim - 1) + views.shape[-1:])
    top = jnp.max(spread * keeps, axis=-1)
    some = total > 0
    return total, jnp.where(some, top / jnp.where(some, total, 1.0), 0.0)


def _first_best(scores: jax.Array) -> jax.Array:
    """The first index within EDGE of the best, as `np.argmax` takes the first of equal ones."""
    return jnp.argmax(scores >= scores.max() - EDGE)


def _ties(scores: jax.Array, pool: jax.Array) -> jax.Array:
    """The actions of `pool` within TIE of its best score, each as likely."""
    best = jnp.max(jnp.where(pool, scores, -jnp.inf))
    tied = pool & (scores >= best - TIE)
    return tied / jnp.maximum(tied.sum(), 1)


def batched_scripted_player(config: SpyfallConfig) -> Callable[[jax.Array, jax.Array, jax.Array], jax.Array]:
    """`decide(observation, mask, key) -> action` of `SpyfallScriptedPlayer` for one seat (see the module docs)."""
    return _build(config)[0]


def _build(config: SpyfallConfig):
    """(decide, explain): `explain(observation, mask)` is a dict of the `policy` (each action's probability),
    the `suspicion` the seat acts on (a non-spy's own; the spy's as it models the non-spies') and the spy's
    `danger` (0 for a non-spy)."""
    n = config.num_players
    matrix_np = config.places.matrix.astype(np.float32)  # (locations, attributes)
    matrix = jnp.asarray(matrix_np)
    layout = spyfall_layout(config)
    table = spyfall_actions(config)
    large = n >= LARGE_TABLE
    accuse_at = ACCUSE_AT_LARGE if large else ACCUSE_AT
    vote_yes_at = VOTE_YES_AT_LARGE if large else VOTE_YES_AT
    protect_at = PROTECT_AT_LARGE if large else PROTECT_AT

    # --- constant tables ----------------------------------------------------------------------
    num_actions = len(table)
    args = table.args
    ask_ids = np.asarray(table.of_kind[ASK])
    ask_seat = np.array([args[a][0] for a in ask_ids])
    ask_attribute = np.array([args[a][1] for a in ask_ids])
    answer_of = {bool(args[a]): a for a in table.of_kind[ANSWER]}
    vote_of = {bool(args[a]): a for a in table.of_kind[VOTE]}
    pass_id = table.of_kind[PASS][0]
    accuse_ids = np.asarray(table.of_kind[ACCUSE])
    accuse_of_seat = np.zeros(n, np.int32)  # seat 0, the seat itself, is never accused
    accuse_of_seat[[args[a] for a in accuse_ids]] = accuse_ids
    guess_of_location = np.array([table.id_of(GUESS, location) for location in range(len(matrix_np))])
    # keeps[attribute, value, location]: a true answer `value` about the attribute keeps the location
    keeps = jnp.asarray(matrix_np.T[:, None, :] == np.array([0, 1])[None, :, None], jnp.float32)
    other_seats = np.arange(n) > 0
    listening = jnp.asarray(other_seats[None, :] & ~np.eye(n, dtype=bool))  # [target, seat that hears its answer]
    baseless_seats = jnp.asarray(other_seats, jnp.float32)  # the seat's own accusations and votes are not evidence

    # --- the round's record, replayed as `_replay` does ----------------------------------------

    def before_each_row(per_row: jax.Array) -> jax.Array:
        """Row j: the sum of the rows before it, as a running sum (a product with the (rows, rows) triangle of
        earlier rows makes the same sums with rows times the work)."""
        total = jnp.zeros_like(per_row[0])
        sums = []
        for row in per_row:
            sums.append(total)
            total = total + row
        return jnp.stack(sums)

    def replay(v: dict[str, jax.Array]) -> dict[str, jax.Array]:
        answered = v["exchange_answer"].sum(axis=-1) > 0.5  # (rows,): the rows `exchanges` reads
        yes = v["exchange_answer"][:, 0] > 0.5
        asker = v["exchange_asker"] * answered[:, None]  # (rows, seats) one-hots, zeros unanswered
        target = v["exchange_target"] * answered[:, None]
        attribute = v["exchange_attribute"] * answered[:, None]
        holds = attribute @ matrix.T  # (rows, locations): whether the attribute asked holds there
        true_at = holds == yes[:, None]  # whether the answer is true at each location
        said = jnp.where(true_at, LOG_TRUE, LOG_LIE) * answered[:, None]  # the model's log-likelihood of the answer
        heard = answered[:, None] * (1 - target)  # who weighs each answer: every seat but the one that gave it
        unplayed = 1 - v["played"]
        loglik_before = before_each_row(heard[:, :, None] * said[:, None, :])
        views_before = _normalise(loglik_before, unplayed)  # (rows, seats, locations): the spy views when asked
        p_yes = jnp.sum(jnp.einsum("jsl,js->jl", views_before, target) * holds, axis=-1)
        as_spy = SPY_SLIP + (1 - 2 * SPY_SLIP) * jnp.where(yes, p_yes, 1 - p_yes)
        return {
            "answered": answered,
            "asker": asker,
            "target": target,
            "attribute": attribute,
            "holds": holds,
            "true_at": true_at,
            "views_before": views_before,
            "log_as_spy": jnp.log(as_spy),
            "views": _normalise(jnp.einsum("is,il->sl", heard, said), unplayed),
        }

    def question_odds(r: dict[str, jax.Array]) -> jax.Array:
        """(locations, rows): `_question_odds` of each row's asker, were the round at each location."""
        fresh_before = before_each_row(r["attribute"]) < 0.5  # (rows, attributes): nobody answered it in an earlier row
        sharp = _narrowed(r["views_before"], keeps)[1]  # (rows, seats, attributes, value of a true answer)
        third = (1 - r["asker"] - r["target"]) > 0.5
        asked = jnp.einsum("jsav,ja->jsv", sharp, r["attribute"])
        telling_by_value = jnp.max(jnp.where(third[:, :, None], asked, 0.0), axis=1)  # (rows, value)
        telling = jnp.where(r["holds"].T > 0.5, telling_by_value[:, 1], telling_by_value[:, 0])  # (locations, rows)
        asked_fresh = jnp.sum(fresh_before * r["attribute"], axis=-1) > 0.5
        not_asker = (r["asker"] < 0.5)[:, :, None, None]
        safe_by_value = (
            jnp.max(jnp.where(not_asker, sharp, 0.0), axis=1) <= protect_at + EDGE
        )  # (rows, attributes, value)
        safe = jnp.where(matrix[:, None, :] > 0.5, safe_by_value[None, :, :, 1], safe_by_value[None, :, :, 0])
        safe_left = jnp.any(safe & fresh_before[None], axis=-1)
        read = ~(asked_fresh[None] & (telling <= protect_at + EDGE)) & safe_left
        return jnp.where(read, math.log(QUESTION_ODDS), 0.0)

    def baseless(v: dict[str, jax.Array], odds: jax.Array) -> jax.Array:
        """(locations, seats): `_baseless` of the log-odds `odds` (locations, seats)."""
        weights = jnp.exp(odds - odds.max(axis=-1, keepdims=True))
        others = weights.sum(axis=-1, keepdims=True) - weights  # [location, seat]: every seat's weight but its own
        share = weights[:, None, :] / others[:, :, None]  # [location, seat, accused]
        accusations = v["accusations"][0]  # [accuser, accused], while the clock ran
        yes_votes = v["accusation_votes"][0, :, :, 0] * (1 - jnp.eye(n))  # [accuser, voter]
        accused_baselessly = jnp.einsum("sc,lsc->ls", accusations, (share < accuse_at - EDGE).astype(jnp.float32))
        voted_baselessly = jnp.einsum(
            "rc,rs,lsc->ls", accusations, yes_votes, (share < vote_yes_at - EDGE).astype(jnp.float32)
        )
        return math.log(BASELESS_ODDS) * (accused_baselessly + voted_baselessly) * baseless_seats

    def spy_odds(v: dict[str, jax.Array], r: dict[str, jax.Array]) -> jax.Array:
        """(locations, seats): `spy_odds` were the round at each location."""
        log_model = jnp.where(r["true_at"].T, LOG_TRUE, LOG_LIE)  # (locations, rows)
        per_answer = jnp.where(r["answered"], r["log_as_spy"] - log_model, 0.0)
        odds = per_answer @ r["target"]
        if large:
            odds = odds + question_odds(r) @ r["asker"]
        return odds + baseless(v, odds)

    def suspicion_of(v: dict[str, jax.Array], odds: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The non-spy's `suspicion`, and the spy's (danger, suspicion) of `seen_by_the_non_spies`."""
        own = odds[jnp.argmax(v["location"])]
        weights = jnp.where(other_seats, jnp.exp(own - jnp.max(jnp.where(other_seats, own, -jnp.inf))), 0.0)
        non_spy = weights / weights.sum()
        belief = v["location_belief"]
        believed = jnp.where(belief > BELIEVED, belief, 0.0)
        seen_at = jnp.exp(odds - odds.max(axis=-1, keepdims=True))
        seen = believed @ (seen_at / seen_at.sum(axis=-1, keepdims=True)) / believed.sum()
        seen_others = jnp.where(other_seats, seen, 0.0)
        return non_spy, seen[0], seen_others / seen_others.sum()

    # --- the questions ---------------------------------------------------------------------------

    def ask(v: dict[str, jax.Array], mask: jax.Array, r: dict[str, jax.Array], suspicion: jax.Array) -> jax.Array:
        """(ask actions,): `_ask`'s choice as a distribution, its `_ask_anything` where no fresh attribute is left."""
        legal = mask[ask_ids]
        if large:  # `_unasked_seats_first`
            asked_seat = r["target"].sum(axis=0) > 0.5
            unasked_first = legal & ~asked_seat[ask_seat]
            legal = jnp.where(unasked_first.any(), unasked_first, legal)
        truth = matrix[jnp.argmax(v["location"])]
        kept = (matrix == truth[None, :]).T.astype(jnp.float32)  # (attributes, locations): a true answer keeps it
        p_true, sharpest = _narrowed(r["views"], kept)  # (seats, attributes) each
        told = jnp.where(p_true > 0, 1 - p_true, 0.0)
        miss = jnp.where(p_true < 0.5 - EDGE, 1.0, 1 - p_true)
        heard_by = jnp.where(listening, suspicion[None, :], 0.0)  # [target, listener]: `_listeners`
        weight = heard_by.sum(axis=-1, keepdims=True)
        heard_by = jnp.where(weight > 0, heard_by / weight, listening / listening.sum(axis=-1, keepdims=True))
        leak = heard_by @ told
        worth = suspicion[:, None] * (n - 1) * miss - LEAK_WEIGHT * leak  # (target, attribute)
        exposed = jnp.max(jnp.where(listening[:, :, None], sharpest[None], 0.0), axis=1)  # the sharpest listener
        worth, exposed = worth[ask_seat, ask_attribute], exposed[ask_seat, ask_attribute]
        fresh = r["attribute"].sum(axis=0) < 0.5
        considered = legal & fresh[ask_attribute]
        safe = considered & (exposed <= protect_at + EDGE)
        # every safe question is worth more than any other (-1e6 - sharpest: the least telling first)
        protected = jnp.where(safe.any(), _ties(worth, safe), _ties(-exposed, considered))
        asked_pair = jnp.einsum("jk,ja->ka", r["target"], r["attribute"]) > 0.5
        unasked = legal & ~asked_pair[ask_seat, ask_attribute]
        anything = _ties(jnp.zeros(len(ask_ids)), jnp.where(unasked.any(), unasked, legal))
        return jnp.where(considered.any(), protected, anything)

    def ask_as_spy(v: dict[str, jax.Array], mask: jax.Array) -> jax.Array:
        share = v["location_belief"] @ matrix
        return _ties(-jnp.abs(share[ask_attribute] - 0.5), mask[ask_ids])

    # --- stopping the clock ---------------------------------------------------------------------------

    def names_the_place(v: dict[str, jax.Array], mask: jax.Array, danger: jax.Array) -> tuple[jax.Array, jax.Array]:
        """`_guess`: the guess of the spy's likeliest location, and whether it names it now."""
        belief = v["location_belief"]
        best = jnp.argmax(belief)
        guess = jnp.asarray(guess_of_location)[best]
        tallies = v["answers"][1:]  # the other seats' (yes, no) counts per attribute
        truth = matrix[best]
        contradictions = jnp.sum(tallies[:, :, 0] * (1 - truth)) + jnp.sum(tallies[:, :, 1] * truth)
        sure = (belief[best] >= GUESS_AT) & (contradictions <= FIT_AT * tallies.sum())  # and `_fits`
        asked = v["decision"][REPLY] > 0.5
        share = belief @ matrix[:, jnp.argmax(v["question_attribute"])]
        worth_the_risk = asked & (belief[best] >= jnp.maximum(share, 1 - share) * WIN_IF_UNSEEN)
        return guess, mask[guess] & (sure | (danger >= DANGER_AT - EDGE) | worth_the_risk)

    # --- a decision, as `SpyfallScriptedPlayer.__call__` ----------------------------------------------

    def explain(observation: jax.Array, mask: jax.Array) -> dict[str, jax.Array]:
        with jax.default_matmul_precision("float32"):  # on GPUs a dot product would round its inputs to TF32
            return weigh(layout.views(jnp.asarray(observation, jnp.float32)), jnp.asarray(mask, bool))

    def weigh(v: dict[str, jax.Array], mask: jax.Array) -> dict[str, jax.Array]:
        decision = jnp.argmax(v["decision"])
        spy = v["is_spy"][0] > 0.5
        r = replay(v)
        non_spy, danger, spy_suspicion = suspicion_of(v, spy_odds(v, r))
        danger = jnp.where(spy, danger, 0.0)
        suspicion = jnp.where(spy, spy_suspicion, non_spy)

        def one_hot(action) -> jax.Array:
            return jax.nn.one_hot(action, num_actions, dtype=jnp.float32)

        accuse = one_hot(jnp.asarray(accuse_of_seat)[1 + _first_best(suspicion[1:])])
        accused = suspicion[jnp.argmax(v["accusation"][1])]
        time_up = v["clock"][1] > 0.5
        vote_yes = spy | (accused >= jnp.where(time_up, suspicion.max(), vote_yes_at) - EDGE)
        vote = one_hot(jnp.where(vote_yes, vote_of[True], vote_of[False]))
        guess, names = names_the_place(v, mask, danger)
        accuses = mask[accuse_ids].any() & (suspicion.max() >= accuse_at - EDGE)

        questions = jnp.where(spy, ask_as_spy(v, mask), ask(v, mask, r, suspicion))
        question = jnp.zeros(num_actions).at[ask_ids].set(questions)
        attribute = jnp.argmax(v["question_attribute"])
        believed_yes = jnp.clip(v["location_belief"] @ matrix[:, attribute], 0.0, 1.0)
        yes = jnp.where(spy, believed_yes, matrix[jnp.argmax(v["location"]), attribute])
        answer = yes * one_hot(answer_of[True]) + (1 - yes) * one_hot(answer_of[False])
        goes_on = jnp.select([decision == QUESTION, decision == REPLY], [question, answer], one_hot(pass_id))
        running = (decision == QUESTION) | (decision == REPLY) | (decision == WINDOW)
        policy = jnp.select(
            [decision == BALLOT, decision == FINAL_ACCUSATION, running & spy & names, running & accuses],
            [vote, accuse, one_hot(guess), accuse],
            goes_on,
        )
        return {"policy": policy, "suspicion": suspicion, "danger": danger}

    def decide(observation: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        policy = explain(observation, mask)["policy"]
        return jax.random.categorical(key, jnp.log(policy)).astype(jnp.int32)

    return decide, explain
