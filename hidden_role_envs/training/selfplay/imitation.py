"""The warm start in JAX: fit the policy to the scripted player's decisions (recorded by `training.imitation`).

The fitted copy also sits at the table during self-play, frozen: a batched
stand-in for the scripted player, whose Python code cannot run inside the
compiled batch.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import optax

from hidden_role_envs.training.imitation import Demonstrations
from hidden_role_envs.training.selfplay import network

BATCH = 512


def fit(params: dict, demos: Demonstrations, epochs: int, key: jax.Array, learning_rate: float = 1e-3,
        on_epoch_done: Callable[[int, float, float], None] = lambda epoch, loss, agreement: None,
        links: tuple[tuple[int, int, int], ...] = ()) -> dict:
    """Cross-entropy over the legal actions, and the value head on the returns that followed; `links`: the
    architecture's."""
    optimizer = optax.adam(learning_rate)
    state = optimizer.init(params)
    data = (jnp.asarray(demos.observations), jnp.asarray(demos.masks), jnp.asarray(demos.actions, jnp.int32),
            jnp.asarray(demos.returns))

    def loss_of(params, observation, mask, action, target):
        logits, value = network.apply(params, observation, mask, links=links)
        log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        return -log_prob.mean() + 0.5 * ((value - target) ** 2).mean(), (log_prob > np.log(0.5)).mean()

    @jax.jit
    def epoch(params, state, key):
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
        params, state, loss, agreed = epoch(params, state, epoch_key)
        on_epoch_done(e, float(loss), float(agreed))
    return params
