"""The rules, observation, text and scripted player of the toy game (see the package docs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hidden_role_envs.core.actions import Action, ActionTable
from hidden_role_envs.core.behaviour import Behaviour
from hidden_role_envs.core.engine import Outcome, PerSeat, RulesEngine, SeatText
from hidden_role_envs.core.events import SEAT, ByKind, NameField, event_kind
from hidden_role_envs.core.knowledge import DealBeliefs, DealTable
from hidden_role_envs.core.observation import Block, Observer, Schema
from hidden_role_envs.core.seats import NOBODY, agent_name, seating
from hidden_role_envs.core.setup import Setup
from hidden_role_envs.core.shared import Shared
from hidden_role_envs.core.text import Words, belief_text

COLOURS = ("red", "blue")
PASS, SCORE, PEEK, KNOCK_OUT = range(4)


@dataclass(frozen=True)
class ToyConfig:
    num_players: int

    @property
    def colour_counts(self) -> tuple[int, int]:
        cards = self.num_players + 1
        return (cards + 1) // 2, cards // 2


class ToyActions(ActionTable):
    def actions(self, num_players: int):
        yield Action("pass", PASS)
        yield Action("score", SCORE)
        for k in range(1, num_players):
            yield Action(f"peek +{k}", PEEK, k)
        yield Action("knock out", KNOCK_OUT)


COLOUR = NameField("colour")
Dealt = event_kind("dealt", "you are {colour}", seat=SEAT, colour=COLOUR)
Scored = event_kind("scored", "{seat} scored", seat=SEAT)
Passed = event_kind("passed", "{seat} passed", seat=SEAT)
Peeked = event_kind("peeked", "you saw {target}: {colour}", seat=SEAT, target=SEAT, colour=COLOUR)
PeekedUnseen = event_kind("peeked_unseen", "{seat} peeked at {target}", seat=SEAT, target=SEAT)
KnockedOut = event_kind("knocked_out", "{seat} knocked out {target}", seat=SEAT, target=SEAT)
GameOver = event_kind("game_over", None)
EVENTS = (Dealt, Scored, Passed, Peeked, PeekedUnseen, KnockedOut, GameOver)


class ToyTable:
    def __init__(self, n: int):
        self.alive = [True] * n
        self.to_act = 0
        self.turn = 0


class PeekMasks(Shared):
    """The legal actions by who is still in, as the actor sees them (peeks only at players still in)."""

    def __init__(self, num_players: int):
        self.actions = ToyActions.of(num_players)
        self.none = self.actions.mask()
        self._masks: dict[tuple[bool, ...], np.ndarray] = {}

    def __getitem__(self, still_in: tuple[bool, ...]) -> np.ndarray:
        mask = self._masks.get(still_in)
        if mask is None:
            ids = [a for a, (kind, k) in enumerate(self.actions.meaning) if kind != PEEK or still_in[k]]
            mask = self._masks[still_in] = self.actions.mask(ids)
        return mask


class ToyGame(RulesEngine):
    def __init__(self, config: ToyConfig, rng: np.random.Generator, setup=None):
        n = config.num_players
        setup = Setup(setup, ("colours", "first_player"))
        self.config = config
        self.num_players = n
        self.seating = seating(n)
        self.actions = ToyActions.of(n)
        self.masks = PeekMasks.of(n)
        self.table = ToyTable(n)
        in_play = [c for c, count in enumerate(config.colour_counts) for _ in range(count)]
        colours = setup.items("colours", COLOURS, length=n + 1)
        if colours is None:
            colours = [in_play[i] for i in rng.permutation(n + 1)]
        elif sorted(colours) != in_play:
            raise ValueError(f"setup colours must be {config.colour_counts} red and blue cards; got {colours}")
        self.colours = colours
        first = setup.seat("first_player", n)
        self.table.to_act = int(rng.integers(n)) if first is None else first
        self._rewards: dict[int, float] = {}
        self._out: list[int] = []

    def start(self) -> list:
        return [Dealt((s,), s, self.colours[s]) for s in range(self.num_players)]

    @property
    def is_over(self) -> bool:
        return self.table.alive.count(True) == 1

    @property
    def current_player(self) -> int:
        return NOBODY if self.is_over else self.table.to_act

    def legal_mask(self) -> np.ndarray:
        if self.is_over:
            return self.masks.none
        return self.masks[tuple(self.seating.rotate(self.table.alive, self.table.to_act))]

    def illegal_reason(self, action: int) -> str:
        return "that player is out" if self.actions.kind[action] == PEEK else "the game is over"

    def apply(self, action: int) -> list:
        actor = self.table.to_act
        kind, arg = self.actions.meaning[action]
        everyone = self.seating.everyone
        events = []
        if kind == SCORE:
            self._rewards[actor] = self._rewards.get(actor, 0.0) + 1.0
            events.append(Scored(everyone, actor))
        elif kind == PASS:
            events.append(Passed(everyone, actor))
        elif kind == PEEK:
            target = self.seating.offset(actor, arg)
            events.append(Peeked((actor,), actor, target, self.colours[target]))
            events.append(PeekedUnseen(self.seating.others[actor], actor, target))
        else:
            victim = self._next_in(actor)
            self.table.alive[victim] = False
            self._rewards[victim] = -1.0
            self._out.append(victim)
            events.append(KnockedOut(everyone, actor, victim))
        self.table.turn += 1
        if self.is_over:
            events.append(GameOver(everyone))
        else:
            self.table.to_act = self._next_in(actor)
        return events

    def _next_in(self, seat: int) -> int:
        seat = (seat + 1) % self.num_players
        while not self.table.alive[seat]:
            seat = (seat + 1) % self.num_players
        return seat

    def pop_rewards(self) -> dict[int, float]:
        rewards, self._rewards = self._rewards, {}
        return rewards

    def pop_eliminated(self) -> list[int]:
        out, self._out = self._out, []
        return out

    def reveal(self) -> Outcome:
        info = {
            "colours": PerSeat(COLOURS[c] for c in self.colours[: self.num_players]),
            "centre_colour": COLOURS[self.colours[-1]],
        }
        return Outcome((), (0.0,) * self.num_players, info, {"colour": PerSeat(COLOURS[c] for c in self.colours)})

    def outcome(self, reward_mode: str) -> Outcome:
        winner = self.table.alive.index(True)
        revealed = self.reveal()
        rewards = tuple(1.0 if s == winner else -1.0 for s in range(self.num_players))
        info = {"result": SeatText("{0} is the last player in", (winner,)), **revealed.info}
        return Outcome((winner,), rewards, info, revealed.own)


SCHEMA = Schema(
    [
        Block("alive", ("n",), 0, 1, "who is still in", rotate=(0,)),
        Block("to_act", ("n",), 0, 1, "one-hot: the seat asked", "turn", rotate=(0,)),
        Block("colour", ("n+1", 2), 0, 1, "this seat's probability that each place (seats, then the centre) is red, "
              "blue", "belief", rotate=(0,)),
        Block("scores", ("n",), 0, 50, "how often each seat scored", "record", rotate=(0,)),
    ]
)


class ToyObserver(Observer):
    def __init__(self, config: ToyConfig):
        super().__init__(SCHEMA.layout({"n": config.num_players}))
        self.config = config
        self.on = ByKind("ToyObserver", EVENTS, {Dealt: self._see, Peeked: self._see, Scored: self._scored,
                                                 Passed: None, PeekedUnseen: None, KnockedOut: None, GameOver: None})

    def start(self) -> None:
        self.beliefs = DealBeliefs(DealTable.of(self.config.colour_counts), self.config.num_players)

    def _scored(self, e) -> None:
        self.known["scores"][e.seat] += 1

    def _see(self, e) -> None:
        self.beliefs.see(e.seen_by, getattr(e, "target", e.seat), e.colour)

    def after_update(self) -> None:
        self.known["alive"][:] = self.table.alive
        self.known["to_act"].fill(0)
        if self.table.alive.count(True) > 1:
            self.known["to_act"][self.table.to_act] = 1

    def refresh(self, seat: int) -> None:
        self.known["colour"][seat] = self.beliefs.marginals(seat)

    def describe(self, seat: int) -> str:
        marginals = self.beliefs.marginals(seat)
        n = self.config.num_players
        return "\n".join(f"  {agent_name(p) if p < n else 'centre'}: {belief_text(marginals[p], COLOURS)}"
                         for p in range(n + 1))


def words(config: ToyConfig, viewer: int) -> Words:
    return Words(viewer, {"colour": COLOURS})


def describe_table(engine: ToyGame) -> str:
    alive = ", ".join(agent_name(s) for s in range(engine.num_players) if engine.table.alive[s])
    return f"Colours, {engine.num_players} players; still in: {alive}"


def behaviour(events, config: ToyConfig) -> list[Behaviour]:
    """Nobody claims or challenges anything in this game: every count is 0."""
    return [Behaviour()] * config.num_players


class ToyPlayer:
    """Scores while three or more are in; knocks out the other when two are left."""

    def __init__(self, config: ToyConfig, seed: int | None = None):
        self.actions = ToyActions.of(config.num_players)
        self.layout = SCHEMA.layout({"n": config.num_players})

    def __call__(self, observation: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("no legal action in the mask: this seat is not asked to decide")
        alive = observation["observation"][self.layout.fields["alive"]]
        name = "knock out" if alive.sum() <= 2 else "score"
        return self.actions.from_string(name)
