"""The scripted Secrets player as a pure JAX function, to seat it inside compiled, batched rollouts.

`batched_scripted_player(config)` gives `decide(observation, mask, key)`:
one seat's flat observation vector and legal mask in, the action out, with
fixed shapes and no Python branching on values, so `jax.jit` and `jax.vmap`
take it as it is. It decides as `bots.SecretsScriptedPlayer` does, formula
for formula (`_Position.win_chance`, `landed`, `shot`, `value_of_card_on`,
`offer_value`, `possible_cards`, the Detective's look, the Politician's
tie-break, plain Offers only), up to float32 rounding: the reference
computes in float64.

Every action is scored by the formula of its own kind (the legal actions
all answer one decision, so the others' scores are never read), over all
cards, seats and targets at once: the value of each card on each screen is
one (cards, seats) table. Ties, the legal actions within 1e-6 of the best
(the reference's 1e-9 is below float32's resolution), are broken uniformly
at random with `key`. `batched_scripted_scores(config)` gives the scores
themselves, which the self-play trainer's scripted prior reads
(`--scripted-prior`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import jax
import jax.numpy as jnp
import numpy as np
from jax.custom_batching import custom_vmap

from hidden_role_envs.games.secrets.actions import (
    ANSWER,
    ASSASSIN_TARGET,
    CENTRE,
    CHOOSE,
    DETECTIVE_LOOK,
    DIPLOMAT_SIDE,
    LEFT,
    OFFER,
    POLITICIAN_TARGET,
    PSYCHIATRIST_SWAP,
    RIGHT,
    UN_CHOICE,
    secrets_actions,
)
from hidden_role_envs.games.secrets.bots import ACCEPT_CHANCE, DEFAULT_PARAMS, INTERCEPT_CHANCE, SHARE_OF_TURNS_LEFT
from hidden_role_envs.games.secrets.cards import (
    ASSASSIN,
    BULLET_VALUES,
    CARD_VALUES,
    CIA,
    DIPLOMAT,
    DOUBLE_AGENT,
    HIPPIE,
    KGB,
    NUM_CHARACTERS,
    NUM_IDENTITIES,
    POLITICIAN,
    PSYCHIATRIST,
    SCIENTIST,
)
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.games.secrets.observation import secrets_layout

C = NUM_CHARACTERS
TIE = 1e-6  # scores this close to the best are ties
POLITICIAN_TIE_BREAK = 1e-4  # weight of the entropy of the Politician's target


def _logistic(x: jax.Array) -> jax.Array:
    """1 / (1 + e^-x), exactly 0 below -30 (as the reference's), never overflowing."""
    return jnp.where(x < -30.0, 0.0, 1.0 / (1.0 + jnp.exp(-jnp.maximum(x, -30.0))))


def _entropy(probs: jax.Array) -> jax.Array:
    """Over the last axis; probabilities of 1e-12 or less count as 0."""
    some = probs > 1e-12
    return -jnp.sum(jnp.where(some, probs * jnp.log(jnp.where(some, probs, 1.0)), 0.0), axis=-1)


def _swaps(num_places: int, pairs) -> np.ndarray:
    """(len(pairs), places) permutations: `ids[perm]` is `bots._swapped(ids, p, q)`."""
    perms = np.tile(np.arange(num_places), (len(pairs), 1))
    for row, (p, q) in enumerate(pairs):
        perms[row, p], perms[row, q] = q, p
    return perms


def _pick(values: jax.Array, valid: jax.Array, seats: jax.Array) -> jax.Array:
    """The reference's `pick` over the last axis (the valid entries): the best for seat 0, the mean otherwise."""
    best = jnp.max(jnp.where(valid, values, -jnp.inf), axis=-1)
    mean = jnp.sum(jnp.where(valid, values, 0.0), axis=-1) / jnp.sum(valid, axis=-1)
    return jnp.where(seats == 0, best, mean)


def batched_scripted_player(config: SecretsConfig) -> Callable[[jax.Array, jax.Array, jax.Array], jax.Array]:
    """`decide(observation, mask, key) -> action` of `SecretsScriptedPlayer` for one seat (see the module docs)."""
    return _build(config)[0]


def batched_scripted_scores(config: SecretsConfig) -> Callable[[jax.Array, jax.Array], jax.Array]:
    """`scores(observation, mask)`: the estimate `decide` ranks the actions by, -inf where it does not consider one;
    the self-play trainer's scripted prior reads it (`training/selfplay/scripted.py`)."""
    return _build(config)[1]


def best_actions(scores: jax.Array) -> jax.Array:
    """Where `scores` (over the last axis) are among the best: the actions `decide` draws from."""
    return scores >= jnp.max(scores, axis=-1, keepdims=True) - TIE


def best_of(scores: jax.Array, key: jax.Array) -> jax.Array:
    """The action `decide` plays given its `scores`: one of the best, ties drawn uniformly with `key`."""
    return jax.random.categorical(key, jnp.where(best_actions(scores), 0.0, -jnp.inf)).astype(jnp.int32)


def _build(config: SecretsConfig):
    """(decide, scores): `scores(observation, mask)` is each action's estimate, -inf where not considered."""
    n = config.num_players
    end_size = config.end_size
    p = DEFAULT_PARAMS
    layout = secrets_layout(config)
    table = secrets_actions(config)
    seats = np.arange(n)
    values = jnp.asarray(CARD_VALUES, jnp.float32)
    bullet_values = jnp.asarray(BULLET_VALUES, jnp.float32)
    eye = jnp.eye(n, dtype=jnp.float32)

    # --- constant tables, from the action table -----------------------------------------------
    kinds = np.asarray(table.kind)
    ids_of = {kind: np.asarray(ids) for kind, ids in table.of_kind.items()}
    args = table.args
    choose_card = np.array([args[a] for a in ids_of[CHOOSE]])
    offer_target = np.array([args[a][0] for a in ids_of[OFFER]])
    plain = np.array([kinds[a] != OFFER or args[a][1] is None for a in range(len(table))])
    un_intercepts = np.array([bool(args[a]) for a in ids_of[UN_CHOICE]])
    answer_accepts = np.array([bool(args[a]) for a in ids_of[ANSWER]])
    swap_actions = _swaps(n + 1, [args[a] for a in ids_of[PSYCHIATRIST_SWAP]])
    politician_target = np.array([args[a] for a in ids_of[POLITICIAN_TARGET]])
    diplomat_side = np.array([args[a] % n for a in ids_of[DIPLOMAT_SIDE]])
    look_place = np.array([n if args[a] == CENTRE else args[a] for a in ids_of[DETECTIVE_LOOK]])
    look_weight = np.where(look_place == 0, 2.0, np.where(look_place == n, 0.5, 1.0)).astype(np.float32)
    assassin_target = np.array([args[a] for a in ids_of[ASSASSIN_TARGET]])
    order = np.concatenate([ids_of[k] for k in range(len(ids_of))])  # the kinds' actions, kind by kind
    back = np.argsort(order)  # concatenated kind by kind -> in action order
    # every seat's swap with the centre; every pair of seats, and which screens' owner each pair leaves out
    with_centre = _swaps(n + 1, [(s, n) for s in seats])
    pairs = list(combinations(range(n), 2))
    pair_swaps = _swaps(n + 1, pairs)
    pair_without = np.array([[s not in pair for pair in pairs] for s in seats])  # (seat, pair)
    sides = np.array([[(s + LEFT) % n, (s + RIGHT) % n] for s in seats])  # the Diplomat's neighbours
    not_self = ~np.eye(n, dtype=bool)  # (seat, target)
    centre_known = np.eye(NUM_IDENTITIES, dtype=np.float32)  # the centre token once shown, by identity

    # --- the observation, decoded as `_Position` does -----------------------------------------

    def position(observation: jax.Array) -> dict[str, jax.Array]:
        v = layout.views(observation)
        face_up = jnp.round(v["face_up"])
        received = jnp.round(v["bullets_received"])
        counts = face_up.sum(axis=1) + jnp.round(v["face_down"]) + received
        given = v["bullets_given"]  # (receiver, value)
        in_hand = v["bullet_in_hand"] > 0.5
        unseen = ~(given.sum(axis=0) > 0.5) & ~in_hand
        unseen_bullet = jnp.sum(jnp.where(unseen, bullet_values, 0.0)) / jnp.maximum(unseen.sum(), 1)
        bullets = given @ bullet_values + (received - given.sum(axis=1)) * unseen_bullet
        scores = (jnp.mod(face_up, 2) * values).sum(axis=1) + bullets
        revealed = v["revealed"]
        offered = v["offered_card"]
        known = offered.sum() > 0.5
        cards = jnp.where(known, offered, revealed)  # `possible_cards`, as weights of a mean
        un = jnp.argmax(v["un_holder"])
        return {
            "face_up": face_up, "counts": counts, "bullets": bullets, "scores": scores,
            "ids": v["identity"],
            "unseen_bullet": unseen_bullet,
            "bullet_in_hand": jnp.where(in_hand.any(), jnp.sum(jnp.where(in_hand, bullet_values, 0.0)), unseen_bullet),
            "active": jnp.argmax(v["active_player"]),
            "target": jnp.argmax(v["offer_target"]),
            "card_weights": cards / jnp.maximum(cards.sum(), 1.0),
            "un": un, "has_un": un != n,
        }

    # --- how likely this seat is to win: one estimate per situation -----------------------------
    # The estimate reads a few seats and identities per situation. It runs with the situations on the last axis,
    # and under `vmap` the batch goes there too (`situations_batch_last`): XLA's CPU code vectorises along the
    # last axis only, and with the batch first that axis would be the seats, five to eight wide. The twin then
    # spent most of its time here; with the batch last the whole twin runs 1.4 to 2 times as fast.

    def win_chance(scores: jax.Array, counts: jax.Array, ids: jax.Array) -> jax.Array:
        """Seat 0's chance to win in each situation: the leading axes of scores and counts (..., seats) and of
        ids (..., places, identity), broadcast together."""
        lead = jnp.broadcast_shapes(scores.shape[:-1], counts.shape[:-1], ids.shape[:-2])

        def situations_last(array: jax.Array, own_axes: int) -> jax.Array:
            own = array.shape[-own_axes:]
            return jnp.moveaxis(jnp.broadcast_to(array, lead + own).reshape((-1,) + own), 0, -1)

        chances = situations_win_chance(situations_last(scores, 1), situations_last(counts, 1), situations_last(ids, 2))
        return chances.reshape(lead)

    @custom_vmap
    def situations_win_chance(scores: jax.Array, counts: jax.Array, ids: jax.Array) -> jax.Array:
        """(situations...): from scores and counts (seats, situations...) and ids (places, identity, situations...)."""
        ends_now = jnp.max(counts, axis=0) >= end_size
        rest = SHARE_OF_TURNS_LEFT * jnp.sum(jnp.maximum(0.0, end_size - 1 - counts), axis=0) + 1.0
        root = jnp.sqrt(jnp.where(ends_now, 0.0, rest))
        margin_width, gap_width = p["margin_width"] + p["margin_growth"] * root, p["gap_width"] + p["gap_growth"] * root
        cia, kgb = ids[1:n, CIA], ids[1:n, KGB]
        others = scores[1:]
        cia_margin = scores[0] + jnp.sum(others * (cia - kgb), axis=0)
        spread = jnp.sum(others * others * ((cia + kgb) - (cia - kgb) ** 2), axis=0)
        kgb_margin = 2 * scores[0] - cia_margin
        margin_width = jnp.sqrt(margin_width * margin_width + p["identity_spread"] * spread)
        # the chance that each seat's score ends strictly below every other's
        gaps = scores[None, :] - scores[:, None] - 0.5  # [seat, other, situations...]
        chances = _logistic(gaps / gap_width)
        others_of = not_self.reshape(not_self.shape + (1,) * (scores.ndim - 1))
        lowest = jnp.prod(jnp.where(others_of, chances, 1.0), axis=1)
        me = ids[0]
        hippie_wins = jnp.sum(ids[1:n, HIPPIE] * lowest[1:], axis=0)
        no_hippie = 1.0 - jnp.minimum(1.0, p["hippie_fear"] * hippie_wins)
        team = me[CIA] * _logistic((cia_margin - p["tie_shift"]) / margin_width)
        team = team + me[KGB] * _logistic((kgb_margin - p["tie_shift"]) / margin_width)
        return no_hippie * team + me[HIPPIE] * lowest[0]

    @situations_win_chance.def_vmap
    def situations_batch_last(batch: int, batched: list[bool], *arrays: jax.Array) -> tuple[jax.Array, bool]:
        """`vmap`'s rule: the batch as the last axis of situations."""
        def batch_last(array: jax.Array, is_batched: bool) -> jax.Array:
            if is_batched:
                return jnp.moveaxis(array, 0, -1)
            return jnp.broadcast_to(array[..., None], array.shape + (batch,))

        chances = situations_win_chance(*(batch_last(a, b) for a, b in zip(arrays, batched)))
        return jnp.moveaxis(chances, -1, 0), True

    # --- what a card does where it lands ---------------------------------------------------------

    def landed(pos: dict) -> tuple[jax.Array, jax.Array]:
        """(cards, seats, n) scores and (seats, n) counts once each card lands face up on each screen."""
        up = pos["face_up"].T  # (card, seat)
        own = pos["scores"][None, :]
        score = jnp.where(up % 2 == 1, own - values[:, None], own + values[:, None])
        score = score.at[SCIENTIST].set(jnp.where(up[SCIENTIST] >= 1, pos["bullets"], score[SCIENTIST]))
        scores = jnp.where(eye[None] > 0, score[:, :, None], pos["scores"][None, None, :])
        return scores, pos["counts"][None, :] + eye

    def value_of_card_on(pos: dict, scores: jax.Array, counts: jax.Array, no_effect: jax.Array) -> jax.Array:
        """(cards, seats): the win chance once each card lands on each screen and that seat applies it, from
        `landed`'s scores and counts and the win chances with no effect applied (`no_effect`, (cards, seats))."""
        ids, unseen_bullet = pos["ids"], pos["unseen_bullet"]
        politician = _pick(jnp.broadcast_to(no_effect[POLITICIAN], (n, n)), not_self, seats)
        double_agent = win_chance(scores[DOUBLE_AGENT], counts, ids[with_centre])
        psychiatrist = win_chance(scores[PSYCHIATRIST][:, None], counts[:, None], ids[pair_swaps])
        psychiatrist = _pick(psychiatrist, pair_without, seats)
        side = win_chance(scores[DIPLOMAT][:, None], counts[:, None], ids[with_centre[sides]])
        # the Diplomat's receiver sees the centre token before choosing the side
        known = jnp.broadcast_to(ids, (NUM_IDENTITIES, n + 1, 3)).at[:, n].set(centre_known)
        chosen = win_chance(scores[DIPLOMAT][0], counts[0], known[:, with_centre[sides[0]]])  # (identity, side)
        diplomat = jnp.where(seats == 0, jnp.sum(ids[n] * jnp.max(chosen, axis=-1)), side.mean(axis=-1))
        shot_scores = scores[ASSASSIN][:, None, :] + unseen_bullet * eye[None]  # (seat, target, n)
        assassin = _pick(win_chance(shot_scores, counts[:, None] + eye[None], ids), not_self, seats)
        effects = {POLITICIAN: politician, DOUBLE_AGENT: double_agent, PSYCHIATRIST: psychiatrist,
                   DIPLOMAT: diplomat, ASSASSIN: assassin}
        return jnp.stack([effects.get(card, no_effect[card]) for card in range(C)])

    def offer_value(pos: dict, card_value: jax.Array) -> jax.Array:
        """(cards, targets): the expected win chance of the active seat offering each card to each seat."""
        active = card_value[:, pos["active"]][:, None]
        answered = ACCEPT_CHANCE * card_value + (1 - ACCEPT_CHANCE) * active
        un = pos["un"]
        by_un_alone = card_value[:, jnp.minimum(un, n - 1)][:, None]  # the UN player intercepts
        intercepted = INTERCEPT_CHANCE * by_un_alone + (1 - INTERCEPT_CHANCE) * answered
        by_un = pos["has_un"] & (un != pos["active"]) & (un != seats)
        return jnp.where(by_un[None, :], intercepted, answered)

    # --- every action's score, each by its own kind's formula -------------------------------

    def scores_of(observation: jax.Array, mask: jax.Array) -> jax.Array:
        mask = jnp.asarray(mask, bool)
        pos = position(observation)
        ids, base, counts = pos["ids"], pos["scores"], pos["counts"]
        landed_scores, landed_counts = landed(pos)
        # (card, seat): each card face up on each screen, no effect applied; the Politician's row is its target's
        no_effect = win_chance(landed_scores, landed_counts[None], ids)
        card_value = value_of_card_on(pos, landed_scores, landed_counts, no_effect)
        offers = offer_value(pos, card_value)
        weights = pos["card_weights"]
        accept = weights @ card_value[:, 0]
        refuse = weights @ card_value[:, pos["active"]]
        let_pass = ACCEPT_CHANCE * (weights @ card_value[:, pos["target"]]) + (1 - ACCEPT_CHANCE) * refuse
        bullet = pos["bullet_in_hand"]
        by_kind = {
            CHOOSE: jnp.max(offers[choose_card][:, 1:], axis=-1),
            OFFER: weights @ offers[:, offer_target],
            UN_CHOICE: jnp.where(un_intercepts, accept, let_pass),
            ANSWER: jnp.where(answer_accepts, accept, refuse),
            PSYCHIATRIST_SWAP: win_chance(base, counts, ids[swap_actions]),
            POLITICIAN_TARGET: no_effect[POLITICIAN][politician_target]
            + POLITICIAN_TIE_BREAK * _entropy(ids[politician_target]),
            DIPLOMAT_SIDE: win_chance(base, counts, ids[with_centre[diplomat_side]]),
            DETECTIVE_LOOK: look_weight * _entropy(ids[look_place]),
            ASSASSIN_TARGET: win_chance(base + bullet * eye[assassin_target], counts + eye[assassin_target], ids),
        }
        scores = jnp.concatenate([by_kind[k] for k in range(len(by_kind))])[back]
        # an Offer is made without a claim whenever one is legal
        considered = mask & (jnp.asarray(plain) | ~jnp.any(mask & jnp.asarray(plain)))
        return jnp.where(considered, scores, -jnp.inf)

    def decide(observation: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        return best_of(scores_of(observation, mask), key)

    return decide, scores_of
