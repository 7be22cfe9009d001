"""The warm start in JAX: fit the policy to the scripted player's decisions.

They are recorded by `training.imitation` on `env()`, or by `record` on the
batched engine where the game's scripted player has a JAX twin (Secrets,
Spyfall), hundreds of times faster. The fitted copy also sits at the table
during self-play, frozen: a batched stand-in for the scripted player where
it has no twin.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import optax

from hidden_role_envs.core.batched import BatchedEnv
from hidden_role_envs.training.imitation import Demonstrations
from hidden_role_envs.training.selfplay import network

BATCH = 512


def fit(params: dict, demos: Demonstrations, epochs: int, key: jax.Array, learning_rate: float = 1e-3,
        on_epoch_done: Callable[[int, float, float], None] = lambda epoch, loss, agreement: None,
        links: tuple[tuple[int, int, int], ...] = (), prior: np.ndarray | None = None) -> dict:
    """Cross-entropy over the legal actions, and the value head on the returns that followed; `links`: the
    architecture's; `prior`: the scripted prior's features of each recorded decision, where the policy reads
    them."""
    optimizer = optax.adam(learning_rate)
    state = optimizer.init(params)
    size = len(demos.actions)
    data = (jnp.asarray(demos.observations), jnp.asarray(demos.masks), jnp.asarray(demos.actions, jnp.int32),
            jnp.asarray(demos.returns), jnp.zeros((size, 0)) if prior is None else jnp.asarray(prior))

    def loss_of(params, observation, mask, action, target, features):
        logits, value = network.apply(params, observation, mask, links=links,
                                      prior=None if prior is None else features)
        log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        return -log_prob.mean() + 0.5 * ((value - target) ** 2).mean(), (log_prob > np.log(0.5)).mean()

    @jax.jit
    def epoch(params, state, key, data):  # the data as an argument: closed over, it would be compiled in as constants
        size = data[2].shape[0] // BATCH * BATCH
        order = jax.random.permutation(key, data[2].shape[0])[:size].reshape(-1, BATCH)

        def batch(carry, index):
            params, state = carry
            (loss, agreed), grads = jax.value_and_grad(loss_of, has_aux=True)(params, *(d[index] for d in data))
            updates, state = optimizer.update(grads, state, params)
            return (optax.apply_updates(params, updates), state), (loss, agreed)

        (params, state), (losses, agreed) = jax.lax.scan(batch, (params, state), order)
        return params, state, losses.mean(), agreed.mean()

    for e, epoch_key in enumerate(jax.random.split(key, epochs)):
        params, state, loss, agreed = epoch(params, state, epoch_key, data)
        on_epoch_done(e, float(loss), float(agreed))
    return params


def record(env: BatchedEnv, decide: Callable, decisions: int, key: jax.Array, games: int = 1024, moves: int = 64,
           on_recorded: Callable[[int], None] = lambda count: None) -> Demonstrations:
    """The twin's decisions, as `training.imitation.collect` records the scripted player's.

    `decide` is the twin (`GameDefinition.batched_scripted`). Each seat of
    each game is the twin or a uniformly random player, one chance in two
    each, so that every seat the twin plays meets what the scripted player's
    seat meets in `collect` (the single-seat env's pool `["random",
    "scripted"]`), and every decision of the twin is recorded. Games are
    played `moves` moves at a time in batches of `games` until whole games
    hold at least `decisions` of them; a game cut off by the end of a batch
    is left out.
    """
    seats = env.num_players

    def draw(key):  # (games, seats): which seats play at random
        return jax.random.bernoulli(key, 0.5, (games, seats))

    def move(carry, key):
        state, randoms = carry
        decide_key, random_key, step_key, draw_key = jax.random.split(key, 4)
        actor = jnp.maximum(state.current_player, 0)
        scripted = jax.vmap(decide)(state.observation, state.legal_action_mask, jax.random.split(decide_key, games))
        uniform = jax.random.categorical(random_key, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        by_twin = ~randoms[jnp.arange(games), actor]
        action = jnp.where(by_twin, scripted, uniform)
        new = env.step_or_deal_batch(state, action, jax.random.split(step_key, games))
        done = new.terminated | new.truncated
        row = (state.observation, state.legal_action_mask, action, actor, by_twin, new.rewards, done)
        return (new, jnp.where(done[:, None], draw(draw_key), randoms)), row

    @jax.jit
    def play(key):
        deal_key, draw_key, moves_key = jax.random.split(key, 3)
        state = jax.vmap(env.init)(jax.random.split(deal_key, games))
        _, rows = jax.lax.scan(move, (state, draw(draw_key)), jax.random.split(moves_key, moves))
        return rows

    parts, recorded = [], 0
    while recorded < decisions:
        key, batch_key = jax.random.split(key)
        part = _whole_games(*(np.asarray(column) for column in play(batch_key)))
        parts.append(part)
        recorded += len(part.actions)
        on_recorded(len(part.actions))
    return Demonstrations.concatenate(parts)


def _whole_games(observations, masks, actions, actor, by_twin, rewards, done) -> Demonstrations:
    """The twin's decisions in the games that ended within the moves (arrays of (moves, games, ...)), each with
    what its seat was paid from it to the game's end."""
    paid = np.zeros(actor.shape, np.float32)  # (moves, games): the actor's pay from that move on
    whole = np.zeros(actor.shape, bool)
    for game in range(actor.shape[1]):
        start = 0
        for end in np.flatnonzero(done[:, game]):
            following = np.cumsum(rewards[start:end + 1, game][::-1], axis=0)[::-1]  # (moves, seats)
            span = np.arange(start, end + 1)
            paid[span, game] = following[span - start, actor[span, game]]
            whole[span, game] = True
            start = end + 1
    moves, games = np.nonzero(whole & by_twin)
    return Demonstrations(observations[moves, games], masks[moves, games], actions[moves, games].astype(np.int64),
                          paid[moves, games], games=int(done.sum()))
