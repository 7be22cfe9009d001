"""The one PettingZoo AEC adapter every game runs behind.

It owns the AEC bookkeeping (agents, rewards, cumulative rewards,
terminations, truncations, infos, dead-agent steps) and the checks that
PettingZoo's wrappers would otherwise add layer by layer: calling order,
action type and range, and legality. Each check is done once, here, so
`env()` needs no wrapper on top.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hidden_role_envs.core.behaviour import Behaviour
from hidden_role_envs.core.checks import check_choice, check_int, check_mapping, check_seed
from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.core.engine import named
from hidden_role_envs.core.events import describe, readable
from hidden_role_envs.core.history import EventEncoding, SeatHistories
from hidden_role_envs.core.seats import agent_name

RENDER_MODES = ("ansi", "human")
ILLEGAL_POLICIES = ("raise", "penalize")
ILLEGAL_MOVE_REWARD = -1.0
class _GameLimit:
    """The default of `max_turns`: the game's own turn limit for the configuration (None means no limit)."""

    def __repr__(self) -> str:
        return "<the game's limit>"


DEFAULT = _GameLimit()


def _as_action_id(action: Any) -> int | None:
    """The integer id of `action`, or None if it is not an integer."""
    if type(action) is int:  # the usual case, first (a bool is not one)
        return action
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


class HiddenRoleEnv(AECEnv):
    """A hidden-role card game as a PettingZoo AEC environment.

    Each game's class (`raw_env`) sets `definition`; see the game's module
    for its arguments, observation blocks, actions and rewards.
    """

    definition: ClassVar[GameDefinition]
    metadata: ClassVar[dict[str, Any]]

    def __init__(
        self,
        num_players: int | None = None,
        render_mode: str | None = None,
        max_turns: Any = DEFAULT,
        illegal: str = "raise",
        reward: str | None = None,
        history_length: int = 0,
        **arguments: Any,
    ):
        super().__init__()
        game = self.definition
        num_players = game.default_players if num_players is None else num_players
        num_players = check_int("num_players", num_players, game.min_players, game.max_players)
        check_choice("render_mode", render_mode, (None, *RENDER_MODES))
        check_choice("illegal", illegal, ILLEGAL_POLICIES)
        reward = next(iter(game.reward_modes)) if reward is None else reward
        check_choice("reward", reward, tuple(game.reward_modes))
        unknown = set(arguments) - {a.name for a in game.arguments}
        if unknown:
            allowed = ", ".join(a.name for a in game.arguments) or "none"
            raise TypeError(f"{game.title} has no argument(s) {sorted(unknown)}; its own arguments: {allowed}")

        self.num_players = num_players
        self.render_mode = render_mode
        self.illegal = illegal
        self.reward_mode = reward
        self.config = game.configure(num_players, **arguments)
        if max_turns is DEFAULT:
            max_turns = game.default_max_turns(self.config)
        self.max_turns = None if max_turns is None else check_int("max_turns", max_turns, 1)
        self.actions = game.actions(self.config)
        self.observer = game.new_observer(self.config)
        self.observation_fields = dict(self.observer.layout.fields)
        self.observation_groups = dict(self.observer.layout.groups)  # what kind of fact each block holds
        self.history_length = check_int("history_length", history_length, 0)
        observation_box = self.observer.layout.box
        self._histories = None
        if self.history_length:  # the last events each seat saw, after the game's own blocks
            encoding = EventEncoding(game.events, num_players, game.words(self.config, 0).vocab)
            self._histories = SeatHistories(encoding, num_players, self.history_length)
            block = encoding.block(self.history_length)
            size = observation_box.shape[0]
            self.observation_fields["history"] = slice(size, size + self.history_length * encoding.width)
            self.observation_groups["history"] = "history"
            self._history_rows = np.zeros((self.history_length, encoding.width), dtype=np.float32)
            observation_box = spaces.Box(
                np.concatenate([observation_box.low, np.full(self._history_rows.size, block.low, np.float32)]),
                np.concatenate([observation_box.high, np.full(self._history_rows.size, block.high, np.float32)]),
                dtype=np.float32,
            )

        self.possible_agents = [agent_name(i) for i in range(num_players)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": observation_box,
                "action_mask": _mask_box(len(self.actions)),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(len(self.actions)) for agent in self.possible_agents}
        self._no_actions = np.zeros(len(self.actions), dtype=np.int8)
        self._rng: np.random.Generator | None = None
        self.engine = None
        self._outcome: tuple[dict, dict] | None = None
        self.last_events: list = []

    def __reduce__(self):
        # the class is made per game (env_class), so a pickle finds it again through the registry
        return (_new_env, (self.definition.name,), self.__dict__)

    # --- PettingZoo API -------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. `options={"setup": {...}}` fixes the deal (see the game's docs).

        A reset that is refused (a bad seed, options or setup) changes
        nothing: the game in progress and the random generator stay as they
        were.
        """
        seed = check_seed(seed)
        setup = None
        if options is not None:
            check_mapping("options", options)
            unknown = set(options) - {"setup"}
            if unknown:  # PettingZoo's api_test passes made-up options, so warn rather than fail
                warnings.warn(f"reset() ignores unknown option(s) {sorted(map(str, unknown))}; the only option is 'setup'")
            setup = options.get("setup")
        if seed is not None or self._rng is None:
            rng = np.random.default_rng(seed)
            engine, events = self._new_game(rng, setup)
        else:
            rng = self._rng
            state = rng.bit_generator.state
            try:
                engine, events = self._new_game(rng, setup)
            except Exception:
                rng.bit_generator.state = state  # a refused setup draws nothing
                raise
        self._rng = rng
        self.engine = engine
        self._outcome = None
        self.observer.reset(engine.table, events)
        self._episode_events = list(events)
        if self._histories is not None:
            self._histories.reset()
            self._histories.add(events)
        self.last_events = events
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self._stopped = False  # by the turn limit: no seat has an action left, as when the game is over
        told = named(engine.pop_told())
        self.infos = {agent: dict(told) for agent in self.agents}
        self.agent_selection = self.possible_agents[engine.current_player]
        if self.render_mode == "human":
            self.render()

    def _new_game(self, rng: np.random.Generator, setup: Any) -> tuple[Any, list]:
        engine = self.definition.new_game(self.config, rng, setup)
        return engine, engine.start()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe")
        seat = self._seat_of[agent]
        if seat == self.engine.current_player and not self._stopped:
            mask = self.engine.legal_mask().copy()
        else:
            mask = self._no_actions.copy()
        observation = self.observer.encode(seat)
        if self._histories is not None:
            self._histories.write(seat, self._history_rows)
            observation = np.concatenate([observation, self._history_rows.ravel()])
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True):
        self._require_reset("last")
        self._require_agents("last")
        return super().last(observe)

    def step(self, action: Any) -> None:
        self._require_reset("step")
        self._require_agents("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_id = _as_action_id(action)
        if action_id is None:
            raise ValueError(f"{agent} cannot play action {action!r}: actions are integer ids")
        if not 0 <= action_id < len(self.actions):
            raise ValueError(
                f"{agent} cannot play action {action!r}: it is out of range 0..{len(self.actions) - 1}"
            )
        if not self.engine.legal_mask()[action_id]:
            reason = self.engine.illegal_reason(action_id)
            if self.illegal == "raise":
                raise ValueError(f"{agent} cannot play action {action_id} ({self.actions.names[action_id]!r}): {reason}")
            self._end_for_illegal_move(agent, action_id, reason)
            return

        self._cumulative_rewards[agent] = 0.0
        events = self.engine.apply(action_id)
        self.observer.update(events)
        self.last_events = events
        self._episode_events.extend(events)
        if self._histories is not None:
            self._histories.add(events)
        for name in self.agents:
            self.rewards[name] = 0.0
        for seat, value in self.engine.pop_rewards().items():
            self.rewards[self.possible_agents[seat]] += value
        told = self.engine.pop_told()
        if told:
            told = named(told)  # one copy that every seat's info shares, as the outcome's is
            for name in self.agents:
                self.infos[name] = {**self.infos[name], **told}
        someone_ended = False
        for seat in self.engine.pop_eliminated():
            name = self.possible_agents[seat]
            self.terminations[name] = True
            self.infos[name] = {"eliminated_after_turns": self.engine.turns_played}
            someone_ended = True
        if self.engine.is_over:
            self._finish()
            someone_ended = True
        elif self.max_turns is not None and self.engine.turns_played >= self.max_turns:
            self._truncate()
            someone_ended = True
        else:
            self.agent_selection = self.possible_agents[self.engine.current_player]
        self._accumulate_rewards()
        if someone_ended:  # (a step starts with every listed agent playing, so no one else can have ended)
            self._deads_step_first()  # PettingZoo: agents that just ended take their None step first
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'.")
            return None
        self._require_reset("render")
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- conveniences ---------------------------------------------------

    def action_to_string(self, action: int) -> str:
        return self.actions.to_string(action)

    def string_to_action(self, name: str) -> int:
        return self.actions.from_string(name)

    @property
    def game_over(self) -> bool:
        """The game ended by its rules (not by the turn limit)."""
        self._require_reset("game_over")
        return self.engine.is_over

    def illegal_reason(self, action: int) -> str:
        """Why `action` is not legal for the seat to act now, in words."""
        self._require_reset("illegal_reason")
        return self.engine.illegal_reason(action)

    def describe_table(self) -> str:
        """The public table in words (nothing hidden)."""
        self._require_reset("describe_table")
        return self.definition.describe_table(self.engine)

    def outcome(self, agent: str) -> tuple[dict, dict] | None:
        """Once the game is over: what the end revealed to everyone, and what it told `agent` of its own seat."""
        if self._outcome is None:
            return None
        revealed, own = self._outcome
        return revealed, own[agent]

    @property
    def episode_events(self) -> tuple:
        """Every event of the episode so far, oldest first, whoever saw it: hidden facts included (the deal, a
        seat's own card, a secret vote), so it is for evaluating play, never for a policy to read."""
        self._require_reset("episode_events")
        return tuple(self._episode_events)

    def behaviour(self) -> list[Behaviour]:
        """Each seat's claims, bluffs and challenges so far this episode, by seat (the game's `behaviour.tally`)."""
        return self.definition.behaviour(self.episode_events, self.config)

    def history(self, agent: str, start: int = 0) -> list[dict]:
        """Every event `agent`'s seat saw this episode, oldest first: plain dicts with readable names and
        the line of text the render shows (`text`, None for an event not worth a line). `start` skips the
        seat's first events (a reader that kept the earlier ones asks only for the new)."""
        self._require_reset("history")
        seat = self._seat_of[agent]
        vocab = self.definition.words(self.config, seat).vocab
        seen = [event for event in self._episode_events if seat in event.seen_by]
        return [{**readable(event, vocab), "text": self.describe_event(event, seat)} for event in seen[start:]]

    def describe_event(self, event: Any, viewer: int) -> str | None:
        """One event as `viewer` saw it, or None if it is not worth a line."""
        return describe(event, self.definition.words(self.config, viewer))

    def render_text(self, seat: int | None = None) -> str:
        """The public table and `seat`'s own view (default: the seat to act)."""
        self._require_reset("render_text")
        if seat is None:
            seat = self.engine.current_player
        lines = [self.describe_table()]
        if 0 <= seat < self.num_players:
            happened = [self.describe_event(e, seat) for e in self.last_events if seat in e.seen_by]
            happened = [line for line in happened if line]
            if happened:
                lines.append(f"Last step, as {agent_name(seat)} saw it:")
                lines.extend("  " + line for line in happened)
            lines.append(f"View of {agent_name(seat)}:")
            lines.append(self.observer.describe(seat))
            if seat == self.engine.current_player:
                legal = np.flatnonzero(self.engine.legal_mask())
                lines.append("Legal actions: " + ", ".join(self.actions.names[a] for a in legal))
        return "\n".join(lines)

    # --- internals ------------------------------------------------------

    def _require_reset(self, what: str) -> None:
        if self.engine is None:
            raise RuntimeError(f"call reset() before {what}()")

    def _require_agents(self, what: str) -> None:
        if not self.agents:
            raise RuntimeError(f"the episode is over (every agent is done): call reset() before {what}()")

    def _still_playing(self) -> list[str]:
        return [name for name in self.agents if not (self.terminations[name] or self.truncations[name])]

    def _finish(self) -> None:
        """Final rewards to the seats still playing; everyone still listed learns the outcome."""
        outcome = self.engine.outcome(self.reward_mode)
        playing = set(self._still_playing())
        self._record_outcome(outcome, {"winners": [agent_name(s) for s in outcome.winners]})
        for name in self.agents:
            if name in playing:
                self.rewards[name] += float(outcome.rewards[self._seat_of[name]])
                self.terminations[name] = True
            self.infos[name] = {**self.infos[name], **self._told(name)}

    def _truncate(self) -> None:
        """The turn limit: every seat still playing is truncated, with no reward, and told what the end reveals."""
        self._record_outcome(self.engine.reveal(), {"result": "truncated", "winners": []})
        self._stopped = True
        for name in self._still_playing():
            self.truncations[name] = True
            self.infos[name] = {**self._told(name), "truncated_after_turns": self.engine.turns_played}

    def _record_outcome(self, outcome, extra: dict) -> None:
        """What the end tells everyone (with the seats named), and what it tells each seat of its own."""
        revealed = {**named(outcome.info), **extra}
        clash = revealed.keys() & outcome.own.keys()
        if clash:  # a per-seat key would silently hide the table-wide one
            raise RuntimeError(f"outcome info and per-seat info share the key(s) {sorted(clash)}")
        own = {name: {k: named(v[self._seat_of[name]]) for k, v in outcome.own.items()} for name in self.possible_agents}
        self._outcome = revealed, own

    def _told(self, agent: str) -> dict:
        revealed, own = self._outcome
        return {**revealed, **own[agent]}

    def _end_for_illegal_move(self, agent: str, action_id: int, reason: str) -> None:
        """PettingZoo's TerminateIllegal semantics: the mover is penalised, the game ends."""
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
            self.terminations[name] = True
            self.infos[name] = {"illegal_move": {"agent": agent, "action": action_id, "reason": reason}}
        self.rewards[agent] = ILLEGAL_MOVE_REWARD
        self._accumulate_rewards()


@functools.cache
def _mask_box(size: int) -> spaces.Box:
    return spaces.Box(0, 1, (size,), dtype=np.int8)


def _new_env(game: str) -> HiddenRoleEnv:
    from hidden_role_envs.core.registry import GAMES

    return object.__new__(GAMES[game].raw_env)


def env_class(game: GameDefinition) -> type:
    """The game's `raw_env`: the adapter for this game, with the game's arguments in its signature."""

    def __init__(self, num_players: int | None = None, **kwargs: Any) -> None:
        HiddenRoleEnv.__init__(self, num_players, **kwargs)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("num_players", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=game.default_players),
        inspect.Parameter("render_mode", keyword, default=None),
        inspect.Parameter("max_turns", keyword, default=DEFAULT),
        inspect.Parameter("illegal", keyword, default="raise"),
        inspect.Parameter("reward", keyword, default=next(iter(game.reward_modes))),
        inspect.Parameter("history_length", keyword, default=0),
        *(inspect.Parameter(a.name, keyword, default=a.default) for a in game.arguments),
    ]
    __init__.__signature__ = inspect.Signature(parameters)
    module = f"hidden_role_envs.{game.module_name}"
    __init__.__qualname__ = "raw_env.__init__"
    __init__.__module__ = module
    __init__.__doc__ = f"{game.title}; the module `{module}` documents every argument."
    return type(
        "raw_env",
        (HiddenRoleEnv,),
        {
            "__init__": __init__,
            "__module__": module,
            "__qualname__": "raw_env",
            "__doc__": f"{game.title} as a PettingZoo AEC environment (see `{module}`).",
            "definition": game,
            "metadata": {"name": game.module_name, "render_modes": list(RENDER_MODES), "is_parallelizable": False},
        },
    )
