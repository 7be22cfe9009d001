"""The policy: a small MLP with a policy head over the actions and a value head, in plain JAX.

Each input is multiplied by a gain of its own (`scale`), learned with the
other weights and started at 1 / its block's upper bound (counts of up to 29
cards become fractions), so every input starts in [0, 1] or near it. That
the gains are learned matters: Hoax's recipe (`hidden-roles train hoax`)
ends at 0.868 against the scripted players with them learned and at 0.009
with them held at their start (training/RESULTS.md). The value
head may also read `critic_inputs` (the true roles during training), which
the policy head never sees; an auxiliary head (`role_outputs`) may learn to
predict those roles from the policy's own features, so that the torso keeps
what tells them.

Belief links (`links`, the game's `belief_links`) tie an action to the
observation entries it acts on: Spyfall's `guess Bank` to the seat's
P(Bank), and to the share of the answers that are false at the Bank. Each
kind of link has one gain, learned and started at 0, and each entry times
its kind's gain adds to the action's logit, so a rule such as "name the
likeliest place" is learned once for every place rather than once per
place through the torso. The gain is applied times `LINK_STEP` so that
Adam's steps, of the order of the learning rate, move the added logit as
fast as the policy head's. With link gates (`link_gates`) each kind's gain
also reads the torso's features (a learned linear function of them, started
at 0), so that its size and sign can depend on the state: whether giving a
card to a likely teammate helps depends on the card (Secrets).

With the scripted prior (`scripted_prior`, Secrets) each action's logit
also adds what the game's scripted player thinks of it
(`scripted.ScriptedPrior`'s features: among its best or not, and how far
below the best), each feature times a learned gain, started at 0 and
applied times `LINK_STEP`: a warm start teaches the gains to play as the
scripted player does; without one PPO learns them, from a policy that
starts uniform (Secrets' recipe), and the torso learns where to depart from
it (a residual policy). The policy then depends on the scripted player's
code, which every caller runs beside it (`prior`).

With a history (`history_length` K, the env's `history_length=K`) the
observation ends with the `history` block: the last K events the seat saw,
each a row of `event_width` entries, the most recent first, zero rows
before K were seen. Attention pools them into `HEADS * HEAD_SIZE` features
beside the rest of the observation, which the torso reads together: each
row is embedded (plus a learned embedding of how recent it is), and each
head's query, a learned vector plus a linear function of the rest of the
observation (started at 0), weighs the rows that hold an event. A policy
without memory sees the public record only as the game's summary blocks
keep it; this one can also read the order of what happened, and who did it
to whom. Since the block is last and its rows the most recent first, the
policy reads a prefix of any observation with K rows or more (the
`policies` module checks an env so).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

FORMAT = "hidden_role_envs policy 1"
LINK_STEP = 10.0
PRIOR_FEATURES = 2  # per action, of the scripted prior (`scripted.ScriptedPrior`)
EVENT_FEATURES = 64  # each event row's embedding, with a history (module docs)
HEADS, HEAD_SIZE = 4, 16  # the attention over the events: the torso reads HEADS * HEAD_SIZE pooled features


@dataclass(frozen=True)
class Architecture:
    game: str
    num_players: int
    arguments: dict
    observation_size: int
    num_actions: int
    hidden: tuple[int, ...] = (256, 256)
    critic_inputs: int = 0  # extra inputs of the value head only
    role_outputs: int = 0  # outputs of the auxiliary head that predicts the true roles (0: none)
    links: tuple[tuple[int, int, int], ...] = ()  # (kind of link, action id, observation index): see the module docs
    link_gates: bool = False  # each link kind's gain also reads the torso's features (module docs)
    scripted_prior: bool = False  # the logits add the scripted player's view of each action (module docs)
    history_length: int = 0  # rows of the history block that attention reads (0: none; module docs)
    event_width: int = 0  # entries of one of those rows

    @property
    def link_kinds(self) -> int:
        return 1 + max((kind for kind, _, _ in self.links), default=-1)

    @property
    def state_size(self) -> int:
        """The entries before the history block: everything but the events."""
        return self.observation_size - self.history_length * self.event_width


def init(key: jax.Array, arch: Architecture, scale: np.ndarray) -> dict:
    sizes = [arch.state_size + (HEADS * HEAD_SIZE if arch.history_length else 0), *arch.hidden]
    keys = jax.random.split(key, len(sizes) + 2)
    torso = [_dense(k, a, b) for k, a, b in zip(keys, sizes[:-1], sizes[1:])]
    params = {
        "scale": jnp.asarray(scale, jnp.float32),
        "torso": torso,
        "policy": _dense(keys[-2], sizes[-1], arch.num_actions, gain=0.01),
        "value": _dense(keys[-1], sizes[-1] + arch.critic_inputs, 1, gain=1.0),
    }
    if arch.role_outputs:  # its own key, so that the other layers start as they do without it
        params["roles"] = _dense(jax.random.fold_in(key, 1), sizes[-1], arch.role_outputs, gain=0.01)
    if arch.links:
        params["links"] = jnp.zeros(arch.link_kinds, jnp.float32)
    if arch.link_gates:
        params["link_gates"] = jnp.zeros((sizes[-1], arch.link_kinds), jnp.float32)
    if arch.scripted_prior:
        params["prior"] = jnp.zeros(PRIOR_FEATURES, jnp.float32)
    if arch.history_length:
        params["events"] = _attention(jax.random.fold_in(key, 2), arch)
    return params


def _attention(key: jax.Array, arch: Architecture) -> dict:
    embed, position, query, keys, values = jax.random.split(key, 5)
    pooled = HEADS * HEAD_SIZE
    return {
        "embed": _dense(embed, arch.event_width, EVENT_FEATURES),
        "position": 0.1 * jax.random.normal(position, (arch.history_length, EVENT_FEATURES), jnp.float32),
        "query": jax.random.normal(query, (HEADS, HEAD_SIZE), jnp.float32),
        "query_from_state": jnp.zeros((arch.state_size, pooled), jnp.float32),
        "key": _dense(keys, EVENT_FEATURES, pooled, gain=1.0),
        "value": _dense(values, EVENT_FEATURES, pooled, gain=1.0),
    }


def _with_events(attention: dict, scaled: jax.Array, observation: jax.Array) -> jax.Array:
    """The scaled observation's entries before the history block, then the events pooled by attention."""
    length, width = attention["position"].shape[0], attention["embed"]["w"].shape[0]
    state_size = scaled.shape[-1] - length * width
    state, events = scaled[..., :state_size], scaled[..., state_size:].reshape(scaled.shape[:-1] + (length, width))
    held = (observation[..., state_size:].reshape(events.shape) != 0).any(axis=-1)  # (..., K): a row with an event
    embedded = jnp.tanh(events @ attention["embed"]["w"] + attention["embed"]["b"] + attention["position"])
    heads = embedded.shape[:-1] + (HEADS, HEAD_SIZE)
    keys = (embedded @ attention["key"]["w"] + attention["key"]["b"]).reshape(heads)
    values = (embedded @ attention["value"]["w"] + attention["value"]["b"]).reshape(heads)
    query = attention["query"] + (state @ attention["query_from_state"]).reshape(state.shape[:-1] + (HEADS, HEAD_SIZE))
    weights = jnp.einsum("...khd,...hd->...kh", keys, query) / np.sqrt(HEAD_SIZE)
    weights = jax.nn.softmax(jnp.where(held[..., None], weights, -1e9), axis=-2) * held[..., None]  # none held: 0
    pooled = jnp.einsum("...kh,...khd->...hd", weights, values)
    return jnp.concatenate([state, pooled.reshape(state.shape[:-1] + (HEADS * HEAD_SIZE,))], axis=-1)


def _dense(key, inputs: int, outputs: int, gain: float = np.sqrt(2)) -> dict:
    weights = jax.nn.initializers.orthogonal(gain)(key, (inputs, outputs), jnp.float32)
    return {"w": weights, "b": jnp.zeros(outputs, jnp.float32)}


def apply(params: dict, observation: jax.Array, mask: jax.Array, critic_inputs: jax.Array | None = None,
          links: tuple[tuple[int, int, int], ...] = (), prior: jax.Array | None = None):
    """(masked logits, value) for a batch of observations (illegal actions get a very low logit); `links`: the
    architecture's; `prior`: the scripted prior's features of the observations, where the architecture has one
    (None gives logits without it, good only for the value)."""
    logits, value, _ = heads(params, observation, mask, critic_inputs, links, prior)
    return logits, value


def heads(params: dict, observation: jax.Array, mask: jax.Array, critic_inputs: jax.Array | None = None,
          links: tuple[tuple[int, int, int], ...] = (), prior: jax.Array | None = None):
    """`apply`'s (masked logits, value) and the torso's features, which `predict_roles` reads."""
    h = observation * params["scale"]  # the learned input gains
    if "events" in params:
        h = _with_events(params["events"], h, observation)
    for layer in params["torso"]:
        h = jnp.tanh(h @ layer["w"] + layer["b"])
    logits = h @ params["policy"]["w"] + params["policy"]["b"]
    if links:
        kind, action, entry = (np.asarray(column) for column in zip(*links))
        gains = LINK_STEP * params["links"]
        if "link_gates" in params:
            gains = gains + h @ params["link_gates"]
        logits = logits.at[..., action].add(gains[..., kind] * observation[..., entry])
    if prior is not None and "prior" in params:
        logits = logits + prior @ (LINK_STEP * params["prior"])
    logits = jnp.where(mask, logits, -1e9)
    missing = params["value"]["w"].shape[0] - h.shape[-1]
    if critic_inputs is None:  # out of training the critic's own inputs are not known: zeros
        critic_inputs = jnp.zeros(h.shape[:-1] + (missing,), h.dtype)
    v_in = jnp.concatenate([h, critic_inputs], axis=-1)
    value = (v_in @ params["value"]["w"] + params["value"]["b"])[..., 0]
    return logits, value, h


def predict_roles(params: dict, features: jax.Array) -> jax.Array:
    """The auxiliary head's logits, one per entry of the true roles' one-hot encoding."""
    return features @ params["roles"]["w"] + params["roles"]["b"]


def input_scale(high: np.ndarray) -> np.ndarray:
    """1 / each entry's upper bound (entries bounded by 1 or less are left as they are)."""
    return (1.0 / np.maximum(np.asarray(high, np.float64), 1.0)).astype(np.float32)


def save(path: str | Path, params: dict, arch: Architecture, extra: dict | None = None) -> None:
    """Weights as an .npz with its architecture: plain arrays, no pickled code, so any file can be loaded."""
    flat, _ = jax.tree_util.tree_flatten(params)
    meta = {"format": FORMAT, "architecture": asdict(arch), **(extra or {})}
    arrays = {f"p{i}": np.asarray(a, np.float32) for i, a in enumerate(flat)}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)


def load(path: str | Path) -> tuple[dict, Architecture, dict]:
    """(params, architecture, metadata) of a file `save` wrote; ValueError naming the file otherwise."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = [data[f"p{i}"] for i in range(len(data.files) - 1)]
    except Exception as error:  # noqa: BLE001  (not an npz, a truncated file, another program's npz)
        raise ValueError(f"{str(path)!r} is not a policy saved by hidden-roles train ({error})") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is not a policy saved by hidden-roles train (format {meta.get('format')!r})")
    raw = meta["architecture"]
    links = tuple(tuple(link) for link in raw.get("links", ()))
    arch = Architecture(**{**raw, "hidden": tuple(raw["hidden"]), "links": links})
    template = init(jax.random.PRNGKey(0), arch, np.ones(arch.observation_size, np.float32))
    _, tree = jax.tree_util.tree_flatten(template)
    params = jax.tree_util.tree_unflatten(tree, [jnp.asarray(a) for a in arrays])
    return params, arch, meta
