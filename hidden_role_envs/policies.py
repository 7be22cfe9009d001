"""Policies that can sit at a table: uniform random, the scripted players, saved models, any callable.

A policy is a callable `policy(observation_dict) -> action id`, where the
observation dict is what `env.observe(agent)` returns. `make_policy` turns a
spec into one for a given env, built from that env's configuration (its
player count and its game's own arguments), so it fits the table it sits at:

- `"random"`: uniform over the legal actions of the mask (seeded);
- `"scripted"`: the game's scripted player;
- `"trained"`: the policy shipped with the package for the env's game and
  table size (trained by self-play; needs the `jax` extra);
- a path to a policy saved by `hidden-roles train` (`.npz`, the default
  backend; plain arrays, safe to load from anywhere; needs the `jax` extra)
  or to a model saved by the SB3 backend (`.zip`, sb3-contrib's
  MaskablePPO; needs the `train` extra), playing its most likely legal
  action; a policy trained with `--history K` reads the last K events of
  the `history` block, so it plays only in an env made with
  `history_length=K` or more (`events_read` says how many a set of specs
  needs; the other policies read the entries before that block);
- `"always:<action name>"`: a one-rule counter-strategy, the scripted
  player except that it plays that action whenever it is legal
  (`always:refuse` refuses every Offer in Secrets, `always:claim` contests
  every announcement in Mascarade);
- `"counter:<name>"`: a counter-strategy the game defines
  (`GameDefinition.counter_strategies`; Hoax's `counter:accuse-last-claimant`);
- any callable, used as it is.

The counter-strategies are how the scripted players' docstrings measure
that a simple rule does not beat them.

Loading an SB3 `.zip` model unpickles it, and unpickling can run any code
the file holds: load only such files you trust (your own, or from a source
you would run code from). The `.npz` policies hold arrays only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

Policy = Callable[[dict], int]
POLICY_NAMES = ("random", "scripted", "trained")
TRAINED_FOLDER = Path(__file__).resolve().parent / "trained"


class RandomPolicy:
    """Uniform over the legal actions of the mask."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: dict) -> int:
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))


def scripted_player(env: Any, seed: int | None = None) -> Policy:
    """The scripted player of `env`'s game, for `env`'s configuration."""
    game = env.unwrapped
    return game.definition.scripted_player(game.config, seed)


class AlwaysWhenLegal:
    """The scripted player, except that one action is played whenever it is legal."""

    def __init__(self, action: int, fallback: Policy):
        self.action = action
        self.fallback = fallback

    def __call__(self, observation: dict) -> int:
        return self.action if observation["action_mask"][self.action] else self.fallback(observation)


def counter_strategy(spec: str, env: Any, seed: int | None = None) -> Policy:
    """The policy of an `always:<action name>` or `counter:<name>` spec; ValueError naming what exists."""
    game = env.unwrapped
    kind, _, name = spec.partition(":")
    if kind == "always":
        try:
            action = game.string_to_action(name)
        except ValueError as error:
            raise ValueError(f"{spec!r}: {error}") from None
        return AlwaysWhenLegal(action, scripted_player(env, seed))
    strategies = game.definition.counter_strategies
    if name not in strategies:
        known = ", ".join(f"counter:{n}" for n in strategies) or "none"
        raise ValueError(f"{spec!r}: {game.definition.title} has no such counter-strategy; it has: {known}")
    return strategies[name](game.config, seed)


def is_counter_spec(spec: object) -> bool:
    return isinstance(spec, str) and spec.startswith(("always:", "counter:"))


class SavedModelPolicy:
    """A MaskablePPO model saved by training, playing its most likely legal action.

    It is checked against the env it will play in: a file that is not a
    saved model, or a model for another game or table size, is refused with
    a ValueError naming the file and what is wrong. Unpickles the file: load
    only files you trust.
    """

    def __init__(self, path: str, env: Any = None):
        self._reads = None  # the observation's entries it reads: all, or those before a history block
        if not os.path.isfile(path):
            raise ValueError(f"no saved model at {path!r}")
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as error:
            raise ValueError("saved models need the train extra: pip install 'hidden_role_envs[train]'") from error
        self.path = path
        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # noqa: BLE001  (a zip of something else, a truncated file, another library's model)
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise ValueError(f"{path!r} is not a model saved by hidden-roles train ({reason})") from None
        if env is not None:
            self._check_fits(env)

    def _check_fits(self, env: Any) -> None:
        game = env.unwrapped
        agent = game.possible_agents[0]
        expected = (game.observation_space(agent)["observation"].shape, game.action_space(agent).n)
        found = (getattr(self.model.observation_space, "shape", None), getattr(self.model.action_space, "n", None))
        if found == ((_state_size(game),), expected[1]):  # an env with a history block, for another seat's policy
            self._reads = found[0][0]
        elif found != expected:
            raise ValueError(
                f"{self.path!r} is a model for observations of shape {found[0]} and {found[1]} actions; "
                f"{game.definition.title} with {game.num_players} players has {expected[0]} and {expected[1]}: "
                "a model plays only the game and table size it was trained for"
            )

    def __call__(self, observation: dict) -> int:
        action, _ = self.model.predict(observation["observation"][: self._reads],
                                       action_masks=observation["action_mask"].astype(bool), deterministic=True)
        return int(action)


class TrainedPolicy:
    """A policy saved by `hidden-roles train` (`.npz`), playing its most likely legal action.

    Checked against the env it will play in: a file of another game or table size is refused with a
    ValueError naming it.
    """

    def __init__(self, path: str, env: Any = None):
        if not os.path.isfile(path):
            raise ValueError(f"no saved policy at {path!r}")
        try:
            import jax

            from hidden_role_envs.training.selfplay import network
        except ImportError as error:
            raise ValueError("trained policies need the jax extra: pip install 'hidden_role_envs[jax]'") from error
        self.path = path
        self.params, self.architecture, _ = network.load(path)
        if env is not None:
            _check_fits(path, self.architecture, env.unwrapped)
        links = self.architecture.links
        features = _scripted_prior(self.architecture)
        reads = self.architecture.observation_size

        def logits(params, observation, mask):
            o, m = observation[None, :reads], mask[None]
            return network.apply(params, o, m, links=links, prior=features(o, m) if features else None)[0][0]

        self._logits = jax.jit(logits)

    def __call__(self, observation: dict) -> int:
        return int(np.argmax(self.action_logits(observation)))

    def action_logits(self, observation: dict) -> np.ndarray:
        """The policy's logit of every action, -inf where illegal: it plays the largest."""
        mask = np.asarray(observation["action_mask"], bool)
        return np.where(mask, np.asarray(self._logits(self.params, observation["observation"], mask)), -np.inf)


def _check_fits(path: str, architecture, game) -> None:
    """ValueError naming the file unless the policy can play in the env `game`: the same entries before the
    history block, and at least the events it reads (it reads the prefix `observation[:observation_size]`)."""
    found = (architecture.game, architecture.num_players)
    if found != (game.definition.name, game.num_players) or architecture.state_size != _state_size(game):
        raise ValueError(
            f"{path!r} is a policy for {found[0]} with {found[1]} players (observations of "
            f"{architecture.state_size} before any history block); this env is {game.definition.name} with "
            f"{game.num_players} players ({_state_size(game)}): a policy plays only the game and table size it was "
            "trained for"
        )
    if game.history_length < architecture.history_length:
        raise ValueError(f"{path!r} reads the last {architecture.history_length} events the seat saw: make the env "
                         f"with history_length={architecture.history_length} or more (this one has "
                         f"{game.history_length})")


def _state_size(game) -> int:
    """The env's observation entries before its history block, if it has one."""
    fields = game.observation_fields
    if "history" in fields:
        return fields["history"].start
    return game.observation_space(game.possible_agents[0])["observation"].shape[0]


def events_read(specs: Iterable[Any]) -> int:
    """The most events a saved policy among `specs` reads from the history block (0 if none does): the
    `history_length` of an env where they can all play."""
    return max((_history_length(os.fspath(spec)) for spec in specs
                if is_model_path(spec) and os.fspath(spec).endswith(".npz")), default=0)


def _history_length(path: str) -> int:
    """The events a saved policy reads, from its metadata alone (0 for a file that is none: loading it says why)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(json.loads(str(data["meta"]))["architecture"].get("history_length", 0))
    except Exception:  # noqa: BLE001  (missing, not an npz, another program's npz: `TrainedPolicy` names the fault)
        return 0


def _scripted_prior(architecture):
    """The scripted prior's features for the policy's table, if its logits read them."""
    if not architecture.scripted_prior:
        return None
    from hidden_role_envs.core import registry
    from hidden_role_envs.training.selfplay.scripted import ScriptedPrior

    definition = registry.game(architecture.game)
    return ScriptedPrior(definition, definition.configure(architecture.num_players, **architecture.arguments)).features


def trained_path(env: Any) -> Path:
    """The file of the policy shipped for the env's game at its table size."""
    game = env.unwrapped
    return TRAINED_FOLDER / f"{game.definition.name}-{game.num_players}p.npz"


def is_model_path(spec: object) -> bool:
    return isinstance(spec, (str, os.PathLike)) and os.fspath(spec).endswith((".zip", ".npz"))


def make_policy(spec: str | Policy, env: Any, seed: int | None = None) -> Policy:
    """The policy a spec names, to play in `env` (any of its seats); ValueError saying what is accepted if it names
    none."""
    if callable(spec):
        return spec
    if spec == "random":
        return RandomPolicy(seed)
    if spec == "scripted":
        return scripted_player(env, seed)
    if spec == "trained":
        path = trained_path(env)
        if not path.is_file():
            game = env.unwrapped
            shipped = sorted(p.stem for p in TRAINED_FOLDER.glob("*.npz")) or ["none"]
            raise ValueError(f"no trained policy ships for {game.definition.name} with {game.num_players} players; "
                             f"shipped: {', '.join(shipped)}")
        return TrainedPolicy(str(path), env)
    if is_model_path(spec):
        path = os.fspath(spec)
        return TrainedPolicy(path, env) if path.endswith(".npz") else SavedModelPolicy(path, env)
    if is_counter_spec(spec):
        return counter_strategy(spec, env, seed)
    raise ValueError(
        f"unknown policy {spec!r}: use 'random', 'scripted', 'trained', a saved policy (.npz) or model (.zip), "
        "'always:<action name>', 'counter:<name>', or a callable"
    )
