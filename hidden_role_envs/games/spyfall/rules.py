"""The rules of Spyfall: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table
(`SpyfallTable`) is what every seat sees; the spy, the location and the
roles stay in the engine and reach seats only as events addressed to the
seats that see them (each seat its own card; everyone the revealed cards).

A round: the dealer asks first; each question is answered by its target,
who then asks the next one. After every answer comes one interruption
window: every seat in turn order from the answerer's left (the answerer
last) may pass or stop the clock. A seat stops the clock by accusing (once
per round while the clock runs) or, the spy only, by revealing and naming
the location; it may do so at each of its decisions while the clock runs,
asking and answering as well as in the windows. An accusation is voted on
by everyone but the accused and the accuser (who counts as yes); a unanimous
vote reveals the accused's card and ends the round, otherwise the decision
it interrupted goes on (the window with its next seat, the question still to
ask or to answer).
When `question_limit` questions have been answered and the last window has
closed, time is up: from the dealer, each seat in turn accuses or passes,
and the first unanimous vote ends the round; if nobody is convicted the spy
wins.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from hidden_role_envs.core.checks import check_sequence
from hidden_role_envs.core.engine import Outcome, PerSeat, RulesEngine, SeatList, SeatRef, SeatText
from hidden_role_envs.core.seats import NOBODY, agent_name, seating
from hidden_role_envs.core.setup import Setup
from hidden_role_envs.core.shared import Shared
from hidden_role_envs.games.spyfall.actions import ACCUSE, ANSWER, ASK, GUESS, PASS, VOTE, spyfall_actions
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.events import (
    NO,
    NOT_VOTING,
    YES,
    Accused,
    Answered,
    Asked,
    CardRevealed,
    Dealt,
    GameOver,
    Guessed,
    Passed,
    RoundOver,
    RoundStarted,
    TimeUp,
    VoteCast,
    Voted,
    VoteResult,
)

GAME_OVER = -1  # table.decision once the game has ended

# The decisions a seat can be asked (table.decision), and the action kinds each allows.
QUESTION, REPLY, WINDOW, BALLOT, FINAL_ACCUSATION = range(5)
DECISIONS = (
    "ask a question (or accuse, or as the spy name the location)",
    "answer the question (or accuse, or as the spy name the location)",
    "pass, accuse or (spy only) name the location",
    "vote on the accusation",
    "accuse or pass now that time is up",
)
KINDS_OF_DECISION = {
    QUESTION: (ASK, ACCUSE, GUESS),
    REPLY: (ANSWER, ACCUSE, GUESS),
    WINDOW: (PASS, ACCUSE, GUESS),
    BALLOT: (VOTE,),
    FINAL_ACCUSATION: (PASS, ACCUSE),
}

# How a round ends, and the points of each ending (from the rulebook).
SPY_NOT_CAUGHT, NON_SPY_CONVICTED, SPY_NAMED_LOCATION, SPY_NAMED_WRONG_LOCATION, SPY_CONVICTED = range(5)
RESULTS = (
    "nobody was convicted: the spy wins",
    "a non-spy was convicted: the spy wins",
    "the spy named the location: the spy wins",
    "the spy named the wrong location: the non-spies win",
    "the spy was convicted: the non-spies win",
)
SPY_POINTS = {SPY_NOT_CAUGHT: 2, NON_SPY_CONVICTED: 4, SPY_NAMED_LOCATION: 4}
NON_SPY_POINTS = 1
ACCUSER_OF_THE_SPY_POINTS = 2

SETUP_KEYS = ("dealer", "locations", "spies", "roles")
TURN_LIMIT_OVER_LONGEST_GAME = 2  # the default `max_turns`: twice the most decisions a game can take


def longest_game(config: SpyfallConfig) -> int:
    """The most decisions a game can take. In a round, each of the `question_limit` exchanges is a question, an
    answer and a window of n seats; while the clock runs each seat may also accuse once (its accusation and n-2
    votes, at most n-1 decisions beyond its pass or question), and when time is up each seat may accuse once
    more (n-1 decisions): q(n+2) + 2n(n-1) per round."""
    n = config.num_players
    return config.num_rounds * (config.question_limit * (n + 2) + 2 * n * (n - 1))


class LegalMasks(Shared):
    """The legal-action masks of a configuration, built once, shared and read-only.

    While the clock runs a seat's mask is what its decision asks for (a
    question, an answer, or passing in the window) plus what may stop the
    clock: an accusation unless it used its own, and the spy's guess of any
    location not yet played.
    """

    def __init__(self, config: SpyfallConfig):
        actions = self.actions = spyfall_actions(config)
        n = config.num_players
        self.of_decision = {
            BALLOT: actions.mask_of_kinds(VOTE),
            FINAL_ACCUSATION: actions.mask_of_kinds(PASS, ACCUSE),
            GAME_OVER: actions.mask(),
        }
        # what may stop the clock, by [accusation used][is the spy]
        self.stop = np.array([[actions.mask_of_kinds(*(() if used else (ACCUSE,)), *((GUESS,) if spy else ()))
                               for spy in (0, 1)] for used in (0, 1)])
        # questions, by the relative seat that may not be asked (0: nobody, at the round's first question)
        asks = actions.of_kind[ASK]
        self.asks = np.array([actions.mask([a for a in asks if actions.args[a][0] != forbidden])
                              for forbidden in range(n)])
        self.answers = actions.mask_of_kinds(ANSWER)
        self.passing = actions.mask_of_kinds(PASS)
        self.first_round = RoundMasks(self, ())

    def of_round(self, played: list[int]) -> RoundMasks:
        """The masks of a round after those at `played`: their locations may no longer be named."""
        return RoundMasks(self, tuple(played)) if played else self.first_round


class RoundMasks:
    """The masks of the decisions taken while the clock runs, for one round: nested tuples (reading one is an
    index, not a NumPy view): `question[forbidden][used][spy]`, `reply[used][spy]`, `window[used][spy]`."""

    def __init__(self, masks: LegalMasks, played: tuple[int, ...]):
        self.masks, self.played = masks, played
        stop = masks.stop.copy()
        stop[..., [masks.actions.id_of(GUESS, location) for location in played]] = 0
        question = masks.asks[:, None, None, :] | stop[None]
        reply = masks.answers | stop
        window = masks.passing | stop
        for mask in (question, reply, window):
            mask.flags.writeable = False
        self.question = tuple(tuple(tuple(by_spy) for by_spy in by_used) for by_used in question)
        self.reply = tuple(tuple(by_spy) for by_spy in reply)
        self.window = tuple(tuple(by_spy) for by_spy in window)

    def __deepcopy__(self, memo: dict) -> RoundMasks:
        return self  # never changed once built: copies of a game share it

    def __reduce__(self):
        return (self.masks.of_round, (list(self.played),))


class SeatTables(Shared):
    """What every game of a table size shares: who votes on each accusation, and the events naming only seats."""

    def __init__(self, num_players: int):
        n = num_players
        seats = seating(n)
        self.everyone = seats.everyone
        # [accuser][accused]: the voters, in turn order from the accuser's left: everyone but those two
        self.voters = tuple(tuple(tuple(s for s in seats.after[accuser] if s != accused) for accused in range(n))
                            for accuser in range(n))
        self.passed = tuple(Passed(self.everyone, s) for s in range(n))
        # [seat][yes]: what a vote shows: the voter its vote, the others that it voted
        self.votes = tuple(tuple((Voted((s,), s, yes), VoteCast(seats.others[s], s)) for yes in (False, True))
                           for s in range(n))


class FixedDeal(NamedTuple):
    """What a setup fixes: the first dealer (None: drawn) and, from the first round on, the location, the spy and
    the roles of as many rounds as it gives (each list may be shorter than the next: the rest is drawn)."""

    dealer: int | None
    locations: list[int]
    spies: list[int]
    roles: list[list[int]]  # per round, the index in the location's roles per seat (NOBODY for the spy)


NOTHING_FIXED = FixedDeal(None, [], [], [])


class FinishedRound(NamedTuple):
    """A round as it ended, shown to everyone."""

    round: int
    dealer: int
    spy: int
    location: int
    roles: list[int]  # per seat, the index in the location's roles (NOBODY for the spy)
    result: int
    points: list[int]
    convicted: int  # the seat a unanimous vote convicted (NOBODY: none)
    accuser: int  # the seat that started that accusation (NOBODY: none)


class SpyfallTable:
    """The public table: everything here is seen by every seat."""

    def __init__(self, num_players: int):
        n = num_players
        self.num_players = n
        self.round = 0  # the round in play, from 0
        self.dealer = NOBODY
        self.played: list[int] = []  # locations of finished rounds (revealed when each ended)
        self.scores = [0] * n
        self.decision = GAME_OVER
        self.to_act = NOBODY
        self.decisions = 0  # decisions taken in the whole game
        self.clear_round()

    def clear_round(self) -> None:
        """The state of one round, as it is before the round's first question."""
        self.questions = 0  # questions answered
        self.time_up = False
        self.asker = self.target = self.attribute = NOBODY  # the question waiting for its answer
        self.cannot_ask = NOBODY  # the seat that just asked the asker: it may not be asked back
        self.window_of = NOBODY  # the answerer whose interruption window is open
        self.accusation_used = [0] * self.num_players  # 1: the seat used its accusation of this round
        self.accuser = self.accused = NOBODY  # the vote in progress
        self.voters: tuple[int, ...] = ()
        self.votes_cast = 0


class SpyfallGame(RulesEngine):
    """One game of Spyfall (`num_rounds` rounds).

    `setup` may fix the deal, for scenarios and tests: `dealer` (the first
    dealer), `locations` (the location of the first rounds, by name or
    index), `spies` (the spy of the first rounds) and `roles` (per round, a
    role name per seat and None for the spy; needs that round's location and
    spy). Anything not given is drawn with `rng`. `fixed` keeps what the
    setup fixed (the batched twin reads it).
    """

    def __init__(self, config: SpyfallConfig, rng: np.random.Generator, setup: dict | None = None):
        n = config.num_players
        self.config = config
        self.num_players = n
        self.masks = LegalMasks.of(config)
        self.actions = self.masks.actions
        self.seats = SeatTables.of(n)
        self.everyone = self.seats.everyone
        self.places = config.places
        self.rng = rng
        self.table = SpyfallTable(n)
        self.fixed = NOTHING_FIXED if setup is None else self._read_setup(Setup(setup, SETUP_KEYS))
        self.table.dealer = int(rng.integers(n)) if self.fixed.dealer is None else self.fixed.dealer
        self.spy = NOBODY
        self.location = NOBODY
        self.roles: list[int] = []  # role index per seat (NOBODY for the spy)
        self.ballots: dict[int, bool] = {}
        self.final_turns = 0  # seats that had their time-up accusation turn
        self.window_turns = 0  # seats that had their turn in the open window
        self.interrupted = GAME_OVER  # the decision the vote in progress interrupted
        self.finished: list[FinishedRound] = []
        self._told: dict = {}
        self.over = False
        self._rewards: dict[int, float] = {}

    # --- RulesEngine --------------------------------------------------

    @property
    def turns_played(self) -> int:
        return self.table.decisions  # max_turns counts decisions in Spyfall

    def start(self) -> list:
        events: list = []
        self._told = {"rounds": []}
        self._start_round(events)
        return events

    def legal_mask(self) -> np.ndarray:
        table = self.table
        decision = table.decision
        seat = table.to_act
        if decision == WINDOW:
            return self._round_masks.window[table.accusation_used[seat]][seat == self.spy]
        if decision == QUESTION:  # the first question of a round may go to anyone
            forbidden = 0 if table.cannot_ask == NOBODY else (table.cannot_ask - seat) % self.num_players
            return self._round_masks.question[forbidden][table.accusation_used[seat]][seat == self.spy]
        if decision == REPLY:
            return self._round_masks.reply[table.accusation_used[seat]][seat == self.spy]
        return self.masks.of_decision[decision]

    def illegal_reason(self, action: int) -> str:
        table = self.table
        if self.over:
            return "the game is over"
        kind, arg = self.actions.meaning[action]
        decision = table.decision
        if kind == GUESS and decision == FINAL_ACCUSATION:
            return "time is up: the spy may no longer reveal and name the location"
        if kind not in KINDS_OF_DECISION[decision]:
            return f"the decision now is {DECISIONS[decision]!r}"
        if kind == ASK:
            return f"{agent_name(table.cannot_ask)} just asked you a question: you may not ask them back"
        if kind == ACCUSE:
            return "you already used your accusation this round (it comes back when time is up)"
        if kind == GUESS and table.to_act != self.spy:
            return "only the spy may reveal and name the location"
        if kind == GUESS:
            return f"{self.places.names[arg]} was the location of an earlier round: locations do not repeat"
        return "it is not legal now"

    def apply(self, action: int) -> list:
        kind, arg = self.actions.meaning[action]
        table = self.table
        table.decisions += 1
        events: list = []
        self.RULES[kind](self, table.to_act, arg, events)
        return events

    def pop_rewards(self) -> dict[int, float]:
        rewards, self._rewards = self._rewards, {}
        return rewards

    def pop_told(self) -> dict:
        """`rounds`, the finished rounds, told anew as each round ends, before the next deal (the outcome tells
        the last)."""
        told, self._told = self._told, {}
        return told

    def reveal(self) -> Outcome:
        """Every card of the round in play (its spy, location and roles), the rounds finished so far and the
        scores; `points` are those of the round in play (zeros until it ends)."""
        n = self.num_players
        scores = PerSeat(self.table.scores)
        location = self.places.locations[self.location]
        over = self.finished and self.finished[-1].round == self.table.round
        info = {
            "scores": scores,
            "spy": SeatRef(self.spy),
            "location": location.name,
            "points": PerSeat(self.finished[-1].points if over else [0] * n),
            "rounds": self._round_records(),
            "turns": self.table.decisions,
        }
        roles = PerSeat("Spy" if s == self.spy else location.roles[role] for s, role in enumerate(self.roles))
        return Outcome(winners=(), rewards=(0.0,) * n, info=info, own={"role": roles, "score": scores})

    def outcome(self, reward_mode: str) -> Outcome:
        """Every point was paid at the end of its round (`pop_rewards`): the final rewards are zero."""
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        revealed = self.reveal()
        scores = list(self.table.scores)
        best = max(scores)
        winners = tuple(s for s in range(n) if scores[s] == best)
        info = {"result": SeatText(f"{{all}} with {best} point(s)", winners), "winners": SeatList(winners),
                **revealed.info}
        own = {**revealed.own, "won": PerSeat(s in winners for s in range(n))}
        return Outcome(winners=winners, rewards=(0.0,) * n, info=info, own=own)

    def _round_records(self) -> list[dict]:
        return [self._round_record(finished) for finished in self.finished]

    def _round_record(self, finished: FinishedRound) -> dict:
        """A finished round as the infos tell it: every card is shown at the end of a round."""
        location = self.places.locations[finished.location]
        spy = finished.spy
        return {
            "round": finished.round + 1,
            "dealer": SeatRef(finished.dealer),
            "spy": SeatRef(spy),
            "location": location.name,
            "roles": PerSeat("Spy" if s == spy else location.roles[role] for s, role in enumerate(finished.roles)),
            "result": RESULTS[finished.result],
            "convicted": SeatRef(finished.convicted),
            "accuser": SeatRef(finished.accuser),
            "points": PerSeat(finished.points),
        }

    # --- the actions, one rule per kind ----------------------------------

    def _question(self, actor: int, args: tuple[int, int], events: list) -> None:
        offset, attribute = args
        table = self.table
        target = (actor + offset) % self.num_players
        table.asker, table.target, table.attribute = actor, target, attribute
        events.append(Asked(self.everyone, actor, target, attribute))
        self._ask(REPLY, target)

    def _answer(self, actor: int, yes: bool, events: list) -> None:
        table = self.table
        events.append(Answered(self.everyone, actor, table.attribute, yes))
        table.questions += 1
        table.cannot_ask = table.asker
        table.asker = table.target = table.attribute = NOBODY
        table.window_of = actor
        self.window_turns = 0
        self._ask(WINDOW, (actor + 1) % self.num_players)

    def _pass(self, actor: int, _, events: list) -> None:
        events.append(self.seats.passed[actor])
        self._next_turn(events)

    def _accuse(self, actor: int, offset: int, events: list) -> None:
        table = self.table
        if not table.time_up:
            table.accusation_used[actor] = 1
        self.interrupted = table.decision
        accused = (actor + offset) % self.num_players
        table.accuser, table.accused = actor, accused
        table.voters = self.seats.voters[actor][accused]
        table.votes_cast = 0
        self.ballots = {}
        events.append(Accused(self.everyone, actor, accused))
        self._ask(BALLOT, table.voters[0])

    def _guess(self, actor: int, location: int, events: list) -> None:
        right = location == self.location
        events.append(Guessed(self.everyone, actor, location, right))
        self._end_round(SPY_NAMED_LOCATION if right else SPY_NAMED_WRONG_LOCATION, events)

    def _vote(self, actor: int, yes: bool, events: list) -> None:
        table = self.table
        self.ballots[actor] = yes
        table.votes_cast += 1
        events.extend(self.seats.votes[actor][yes])
        if table.votes_cast < len(table.voters):
            self._ask(BALLOT, table.voters[table.votes_cast])
        else:
            self._count_votes(events)

    RULES = {ASK: _question, ANSWER: _answer, PASS: _pass, ACCUSE: _accuse, GUESS: _guess, VOTE: _vote}

    # --- the round ------------------------------------------------------

    def _start_round(self, events: list) -> None:
        table = self.table
        n = self.num_players
        r = table.round
        fixed = self.fixed
        self.location = fixed.locations[r] if r < len(fixed.locations) else self._draw_location()
        self.spy = fixed.spies[r] if r < len(fixed.spies) else int(self.rng.integers(n))
        self.roles = fixed.roles[r] if r < len(fixed.roles) else self._deal_roles()
        self.final_turns = self.window_turns = 0
        self._round_masks = self.masks.of_round(table.played)  # no location of an earlier round may be named
        events.append(RoundStarted(self.everyone, r, table.dealer))
        for s in range(n):
            events.append(Dealt((s,), s, NOBODY if s == self.spy else self.location, self.roles[s]))
        self._ask(QUESTION, table.dealer)

    def _draw_location(self) -> int:
        """Uniformly among the locations not played yet, in index order."""
        played = self.table.played
        if not played:
            return int(self.rng.integers(len(self.places)))
        unplayed = [loc for loc in range(len(self.places)) if loc not in played]
        return unplayed[int(self.rng.integers(len(unplayed)))]

    def _deal_roles(self) -> list[int]:
        """Distinct roles of the location for the non-spies; the spy gets none."""
        roles = self.rng.permutation(len(self.places.locations[self.location].roles))[: self.num_players - 1].tolist()
        roles.insert(self.spy, NOBODY)
        return roles

    def _next_turn(self, events: list) -> None:
        """After a pass or a failed vote: the next seat of the window or of the time-up accusations."""
        if self.table.time_up:
            self._next_final_accuser(events)
        else:
            self._next_in_window(events)

    def _next_in_window(self, events: list) -> None:
        table = self.table
        n = self.num_players
        self.window_turns += 1
        if self.window_turns < n:
            self._ask(WINDOW, (table.window_of + 1 + self.window_turns) % n)
        elif table.questions < self.config.question_limit:
            self._ask(QUESTION, table.window_of)  # the answerer asks next
        else:
            table.time_up = True
            events.append(TimeUp(self.everyone))
            self.final_turns = 0
            self._ask(FINAL_ACCUSATION, table.dealer)

    def _next_final_accuser(self, events: list) -> None:
        self.final_turns += 1
        if self.final_turns < self.num_players:
            self._ask(FINAL_ACCUSATION, (self.table.dealer + self.final_turns) % self.num_players)
        else:
            self._end_round(SPY_NOT_CAUGHT, events)

    def _count_votes(self, events: list) -> None:
        """All votes are in: they are shown, and a unanimous yes reveals the accused's card."""
        table = self.table
        accuser, accused = table.accuser, table.accused
        votes = [YES] * self.num_players  # the accuser counts as yes
        for voter, yes in self.ballots.items():
            if not yes:
                votes[voter] = NO
        votes[accused] = NOT_VOTING
        convicted = NO not in votes
        events.append(VoteResult(self.everyone, accuser, accused, tuple(votes), convicted))
        table.accuser = table.accused = NOBODY
        table.voters = ()
        table.votes_cast = 0
        self.ballots = {}
        if not convicted:
            if self.interrupted in (WINDOW, FINAL_ACCUSATION):
                self._next_turn(events)
            else:  # the question still to ask, or to answer
                self._ask(self.interrupted, accuser)
            return
        is_spy = accused == self.spy
        events.append(CardRevealed(self.everyone, accused, is_spy))
        self._end_round(SPY_CONVICTED if is_spy else NON_SPY_CONVICTED, events, accuser=accuser, convicted=accused)

    def _round_points(self, result: int, accuser: int) -> list[int]:
        points = [0] * self.num_players
        if result in SPY_POINTS:
            points[self.spy] = SPY_POINTS[result]
            return points
        points = [NON_SPY_POINTS] * self.num_players
        points[self.spy] = 0
        if result == SPY_CONVICTED:
            points[accuser] = ACCUSER_OF_THE_SPY_POINTS
        return points

    def _end_round(self, result: int, events: list, accuser: int = NOBODY, convicted: int = NOBODY) -> None:
        table = self.table
        points = self._round_points(result, accuser)
        scores, rewards = table.scores, self._rewards
        for s, earned in enumerate(points):
            if earned:
                scores[s] += earned
                rewards[s] = rewards.get(s, 0.0) + earned
        finished = FinishedRound(table.round, table.dealer, self.spy, self.location, self.roles, result, points,
                                 convicted, accuser)
        self.finished.append(finished)
        events.append(RoundOver(self.everyone, table.round, self.spy, self.location, result, tuple(points), convicted,
                                accuser))
        table.played.append(self.location)
        if table.round + 1 == self.config.num_rounds:
            self.over = True  # the outcome tells every round
            self._ask(GAME_OVER, NOBODY)
            events.append(GameOver(self.everyone))
            return
        self._told = {"rounds": self._round_records()}
        table.round += 1
        table.dealer = self.spy  # the spy of a round deals the next
        table.clear_round()
        self._start_round(events)

    # --- setup ------------------------------------------------------------

    def _read_setup(self, setup: Setup) -> FixedDeal:
        """The first dealer, and the locations, spies and roles the setup fixes for the first rounds."""
        dealer = setup.seat("dealer", self.num_players)
        rounds = self.config.num_rounds
        locations = setup.items("locations", self.places.names, longest=rounds) or []
        if len(set(locations)) != len(locations):
            raise ValueError("setup locations must be distinct: a location is not repeated within a game")
        spies = setup.seats("spies", self.num_players, longest=rounds) or []
        roles = setup.sequence("roles", longest=rounds) or []
        roles = [self._read_roles(r, seats, locations, spies) for r, seats in enumerate(roles)]
        return FixedDeal(dealer, locations, spies, roles)

    def _read_roles(self, r: int, seats, locations: list[int], spies: list[int]) -> list[int]:
        n = self.num_players
        if r >= len(locations) or r >= len(spies):
            raise ValueError(f"setup roles of round {r + 1} need that round's location and spy in the setup")
        names = self.places.locations[locations[r]].roles
        spy = spies[r]
        seats = check_sequence(f"setup roles of round {r + 1}", seats)
        if len(seats) != n:
            raise ValueError(f"setup roles of round {r + 1} must name a role per seat ({n}), None for the spy; "
                             f"got {len(seats)} entries")
        if seats[spy] is not None or any(s != spy and name not in names for s, name in enumerate(seats)):
            raise ValueError(
                f"setup roles of round {r + 1}: the spy (seat {spy}) gets None, every other seat a role of "
                f"{self.places.names[locations[r]]} {names}; got {list(seats)}"
            )
        dealt = [name for name in seats if name is not None]
        if len(set(dealt)) != len(dealt):
            raise ValueError(f"setup roles of round {r + 1} must be distinct; got {list(seats)}")
        return [NOBODY if name is None else names.index(name) for name in seats]
