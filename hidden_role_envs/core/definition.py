"""A game, declared once: everything the rest of the package needs to know about it.

Each game folder builds one `GameDefinition` (its `GAME`) and registers it
(`hidden_role_envs.core.registry.register`). The registry, the PettingZoo
and Gymnasium ids, the env class and its docs, the scripted players, the
trainers and the benchmark suite all read it; no list of games is kept
anywhere else.

A folder laid out like every game's (CONTRIBUTING.md) declares only what is
its own and takes the rest from its modules: `GameDefinition.from_package`.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from hidden_role_envs.core.actions import ActionTable
from hidden_role_envs.core.behaviour import Behaviour
from hidden_role_envs.core.engine import RulesEngine
from hidden_role_envs.core.observation import Observer, Schema
from hidden_role_envs.core.text import Words

NAMESPACE = "hidden_roles"


@dataclass(frozen=True)
class Argument:
    """One of the game's own constructor arguments, as its docs show it."""

    name: str
    default: Any
    allowed: str


@dataclass(frozen=True)
class FixedRoles:
    """Roles that a seat keeps for a whole episode (so a policy per role makes sense), read off its observation."""

    names: tuple[str, ...]
    role_of: Callable[[np.ndarray, dict[str, slice]], str]


@dataclass(frozen=True)
class Players:
    """The tables a game seats: `min` to `max` players, `default` when none is asked for, and `typical`, the
    table the benchmarks, results and docs quote beside the smallest and the largest."""

    min: int
    max: int
    default: int
    typical: int


@dataclass(frozen=True, eq=False)
class GameDefinition:
    package: str  # the module that declares the game (its `GAME`): another process imports it to register it
    name: str  # "secrets": the id's and the module's stem
    title: str  # "Secrets"
    version: int  # goes up when the game's observation, actions or rules change
    players: Players
    arguments: tuple[Argument, ...]
    reward_modes: dict[str, str]  # mode -> what it pays; the first is the default
    configure: Callable[..., Any]  # (num_players, **arguments) -> the configuration, checked
    actions: Callable[[Any], ActionTable]
    new_game: Callable[[Any, np.random.Generator, Any], RulesEngine]  # (config, rng, setup)
    new_observer: Callable[[Any], Observer]
    schema: Schema
    events: tuple[type, ...]  # every kind of event the engine emits
    words: Callable[[Any, int], Words]  # (config, viewer) -> the game's phrases as that viewer says them
    describe_table: Callable[[RulesEngine], str]  # the public table in words
    scripted_player: Callable[[Any, int | None], Callable[[dict], int]]  # (config, seed) -> policy
    default_max_turns: Callable[[Any], int | None]  # the turn limit of a configuration when none is given
    # (every event of an episode, config) -> each seat's claims and challenges (`games/<game>/behaviour.py`)
    behaviour: Callable[[Sequence, Any], list[Behaviour]]
    turn_unit: str = "turns"  # what `max_turns` counts
    fixed_roles: FixedRoles | None = None
    # counter-strategies to the scripted player, by name: (config, seed) -> policy (`counter:<name>` in --seats)
    counter_strategies: Mapping[str, Callable[[Any, int | None], Callable[[dict], int]]] = field(default_factory=dict)
    batched: str | None = None  # "module:Class" of the batched engine (JAX), built as Class(config, reward_mode)
    # "module:function" of the scripted player's JAX twin: function(config) -> decide(observation, mask, key) -> action,
    # pure and vmappable, deciding as `scripted_player` does; the self-play trainer seats it inside the compiled batch
    batched_scripted: str | None = None
    # the self-play trainer's options where this game trains better than with its defaults, by option name
    # (`scripted_share` for `--scripted-share`): `hidden-roles train GAME` starts from them; each is measured in
    # training/RESULTS.md
    training_recipe: Mapping[str, Any] = field(default_factory=dict)
    # (config) -> the actions that act on one entry of the seat's beliefs, as (link, action id, block, index in the
    # block): Spyfall's `guess Bank` on `location_belief[Bank]` and on `location_false_share[Bank]`. The self-play
    # trainer's `--belief-links` gives each link one learned gain, with which the entry adds to its actions' logits.
    belief_links: Callable[[Any], Sequence[tuple[str, int, str, int]]] | None = None
    # the module that tells a language-model agent the game: `rules(config)`, the rules in a few paragraphs for that
    # table, and `belief_questions(config, seat)`, the hidden facts it may be asked to weigh (see hidden_role_envs.text)
    rules_text: str | None = None
    doc: str = ""  # the reference docs, with `{arguments}` and `{observation}` where the tables go

    @classmethod
    def from_package(cls, package: str, **fields: Any) -> GameDefinition:
        """The definition of the game folder `package` (its `__init__` passes `__name__`), with every field that a
        game folder wires the same way taken from its modules unless given (CONTRIBUTING.md, "The folder"):

        - `name`: the folder's; `title`: the name capitalised; `doc`: the package's docstring;
        - `arguments`, `configure` and the constant turn limit `DEFAULT_MAX_TURNS`: from `config`;
        - `actions`: `actions.<name>_actions`; `new_game`: `rules.<Title>Game`; `new_observer` and `schema`:
          `observation.<Title>Observer` and `observation.SCHEMA`; `scripted_player`: `bots.<Title>ScriptedPlayer`;
        - `events`: `events.EVENTS`; `words` and `describe_table`: `text`'s; `behaviour`: `behaviour.tally`;
        - `rules_text`: the `rules_text` module, `batched`: `batched:<Title>Batched`, and `batched_scripted`:
          `batched_bots:batched_scripted_player`, where the folder has them.
        """
        name = fields.setdefault("name", package.rpartition(".")[2])
        title = fields.setdefault("title", name.capitalize()).replace(" ", "")

        def module(stem: str):
            return importlib.import_module(f"{package}.{stem}")

        def has(stem: str) -> bool:
            return importlib.util.find_spec(f"{package}.{stem}") is not None

        config = module("config")
        conventions: dict[str, Callable[[], Any]] = {
            "doc": lambda: sys.modules[package].__doc__ or "",
            "arguments": lambda: config.ARGUMENTS,
            "configure": lambda: config.configure,
            "default_max_turns": lambda: _constant_of(config),
            "actions": lambda: getattr(module("actions"), f"{name}_actions"),
            "new_game": lambda: getattr(module("rules"), f"{title}Game"),
            "new_observer": lambda: getattr(module("observation"), f"{title}Observer"),
            "schema": lambda: module("observation").SCHEMA,
            "scripted_player": lambda: getattr(module("bots"), f"{title}ScriptedPlayer"),
            "events": lambda: module("events").EVENTS,
            "words": lambda: module("text").words,
            "describe_table": lambda: module("text").describe_table,
            "behaviour": lambda: module("behaviour").tally,
            "rules_text": lambda: f"{package}.rules_text" if has("rules_text") else None,
            "batched": lambda: f"{package}.batched:{title}Batched" if has("batched") else None,
            "batched_scripted": lambda: (f"{package}.batched_bots:batched_scripted_player" if has("batched_bots")
                                         else None),
        }
        for key, convention in conventions.items():
            if key not in fields:
                fields[key] = convention()
        return cls(package=package, **fields)

    @property
    def min_players(self) -> int:
        return self.players.min

    @property
    def max_players(self) -> int:
        return self.players.max

    @property
    def default_players(self) -> int:
        return self.players.default

    @property
    def typical_players(self) -> int:
        return self.players.typical

    @property
    def benchmark_players(self) -> tuple[int, int, int]:
        """The smallest, typical and largest tables: what the benchmarks, results and docs quote."""
        return self.players.min, self.players.typical, self.players.max

    @property
    def module_name(self) -> str:
        return f"{self.name}_v{self.version}"

    @property
    def env_id(self) -> str:
        """PettingZoo's id: `hidden_roles/secrets-v1`."""
        return f"{NAMESPACE}/{self.name}-v{self.version}"

    @property
    def single_seat_id(self) -> str:
        """Gymnasium's id of the single-seat view: `hidden_roles/Secrets-v1`."""
        return f"{NAMESPACE}/{self.title.replace(' ', '')}-v{self.version}"

    @cached_property
    def raw_env(self) -> type:
        from hidden_role_envs.core.aec import env_class

        return env_class(self)

    def env(self, **kwargs: Any):
        """The environment users take: the adapter itself, with no PettingZoo wrapper on top (see `raw_env`)."""
        return self.raw_env(**kwargs)

    @cached_property
    def reference(self) -> str:
        """The game's docs with their tables filled in from the declarations, and the sections every game shares."""
        filled = self.doc.replace("{arguments}", self.arguments_table()).replace("{observation}", self.schema.table())
        return filled.rstrip() + "\n\n" + self._shared_sections()

    def _shared_sections(self) -> str:
        from hidden_role_envs.core.history import kinds_table

        return (
            "## Episode end (every game)\n"
            "- By the rules: every seat still playing is terminated and gets its final reward; its info holds\n"
            "  `result`, `winners`, what the end reveals and its own facts (`won` among them).\n"
            f"- By the turn limit (`max_turns`, counted in {self.turn_unit}): every seat still playing is\n"
            "  truncated with no reward, and its info holds what the end of a game would reveal, with\n"
            "  `result: \"truncated\"`, `winners: []` and `truncated_after_turns`.\n"
            "- By an illegal action with `illegal=\"penalize\"`: every seat is terminated; the mover gets -1,\n"
            "  every other seat 0; every info holds `illegal_move` (agent, action, reason). With the default\n"
            "  `illegal=\"raise\"` the action raises ValueError and changes nothing.\n\n"
            "## Event history (`history_length=K`)\n"
            "`history_length=K` appends the block `history` (K, width): the last K events the seat saw, most\n"
            "recent first, zero-padded; `env.unwrapped.history(agent)` lists every event the seat saw this\n"
            "episode, oldest first, as readable dicts with their line of text. A row is the event's kind\n"
            "(one-hot, in the order below), then slots: fields of the same sort share columns, a kind's\n"
            "first seat in `seat 1`, its second in `seat 2`...; seats are relative to the observer.\n\n"
            + kinds_table(self.events)
            + "\n"
        )

    def arguments_table(self) -> str:
        modes = "; ".join(f'"{mode}": {what}' for mode, what in self.reward_modes.items())
        rows = [
            "| argument | default | allowed |",
            "|---|---|---|",
            f"| `num_players` | {self.default_players} | {self.min_players} to {self.max_players} |",
            *(f"| `{a.name}` | {a.default!r} | {a.allowed} |" for a in self.arguments),
            f"| `reward` | {next(iter(self.reward_modes))!r} | {modes} |",
            f"| `max_turns` | see below | a positive int: truncate after that many {self.turn_unit}; None: no limit |",
            '| `illegal` | "raise" | "raise": ValueError; "penalize": the mover gets -1 and the episode terminates |',
            '| `render_mode` | None | "ansi" returns text, "human" prints it |',
        ]
        return "\n".join(rows)


def _constant_of(config_module: Any) -> Callable[[Any], int | None]:
    """The turn limit of a game whose limit is the same for every configuration: its `config.DEFAULT_MAX_TURNS`,
    read when asked."""
    return lambda config: config_module.DEFAULT_MAX_TURNS
