"""The rules of Spyfall: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table
(`SpyfallTable`) is what every seat sees; the spy, the location and the
roles stay in the engine and reach seats only as `Event`s addressed to the
seats that see them (each seat its own card; everyone the revealed cards).

A round: the dealer asks first; each question is answered by its target,
who then asks the next one. After every answer comes one interruption
window: every seat in turn order from the answerer's left (the answerer
last) may pass, accuse (once per round while the clock runs) or, the spy
only, reveal and name the location. An accusation is voted on by everyone
but the accused and the accuser (who counts as yes); a unanimous vote
reveals the accused's card and ends the round, otherwise the window goes on.
When `question_limit` questions have been answered and the last window has
closed, time is up: from the dealer, each seat in turn accuses or passes,
and the first unanimous vote ends the round; if nobody is convicted the spy
wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hidden_role_envs.core.game import Event, Outcome, RulesEngine, new_event
from hidden_role_envs.games.spyfall.actions import ACCUSE, ANSWER, ASK, GUESS, PASS, VOTE, SpyfallActions
from hidden_role_envs.games.spyfall.locations import LocationSet

NOBODY = -1
GAME_OVER = -1  # table.decision once the game has ended

# The decisions a seat can be asked (table.decision), and the action kinds each allows.
QUESTION, REPLY, WINDOW, BALLOT, FINAL_ACCUSATION = range(5)
DECISIONS = (
    "ask a question",
    "answer the question",
    "pass, accuse or (spy only) name the location",
    "vote on the accusation",
    "accuse or pass now that time is up",
)
KINDS_OF_DECISION = {
    QUESTION: (ASK,),
    REPLY: (ANSWER,),
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

# A vote as revealed: per seat, yes (the accuser counts as yes), no, or the accused (no vote).
NO, YES, NOT_VOTING = 0, 1, -1


@dataclass(frozen=True, eq=False)
class SpyfallConfig:
    """The constructor's choices, and what follows from them once for all the games of an environment."""

    num_players: int
    num_rounds: int
    question_limit: int
    places: LocationSet

    @cached_property
    def actions(self) -> SpyfallActions:
        return SpyfallActions(self.num_players, self.places.attributes, self.places.names)

    @cached_property
    def masks(self) -> FixedMasks:
        return FixedMasks(self.num_players, len(self.places.attributes), self.actions)

    @cached_property
    def everyone(self) -> tuple[int, ...]:
        return tuple(range(self.num_players))

    @cached_property
    def all_locations(self) -> tuple[int, ...]:
        return tuple(range(len(self.places)))

    @cached_property
    def others(self) -> tuple[tuple[int, ...], ...]:
        """[s]: every seat but s, in seat order."""
        return tuple(tuple(o for o in range(self.num_players) if o != s) for s in range(self.num_players))

    @cached_property
    def vote_events(self) -> tuple[tuple[tuple[Event, Event], ...], ...]:
        """[seat][yes]: what a vote shows, the same in every game: the voter its vote, the others that it voted."""
        return tuple(
            tuple((Event("voted", (s,), (s, yes)), Event("vote_cast", self.others[s], (s,))) for yes in (False, True))
            for s in range(self.num_players)
        )

    @cached_property
    def passed_events(self) -> tuple[Event, ...]:
        """[seat]: a pass, the same in every game."""
        return tuple(new_event(("passed", self.everyone, (s,))) for s in self.everyone)

    @cached_property
    def voters(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """[accuser][accused]: who votes, in turn order from the accuser's left: everyone but those two."""
        n = self.num_players
        return tuple(
            tuple(tuple(s for s in ((accuser + k) % n for k in range(1, n)) if s != accused) for accused in range(n))
            for accuser in range(n)
        )


class FixedMasks:
    """The legal-action masks that do not change within a game, built once per configuration."""

    def __init__(self, num_players: int, num_attributes: int, actions: SpyfallActions):
        size = len(actions)

        def mask_of(*kinds: int) -> np.ndarray:
            mask = np.zeros(size, dtype=np.int8)
            for kind in kinds:
                mask[actions.of_kind[kind]] = 1
            return mask

        self.by_decision = {
            REPLY: mask_of(ANSWER),
            BALLOT: mask_of(VOTE),
            FINAL_ACCUSATION: mask_of(PASS, ACCUSE),
            GAME_OVER: mask_of(),
        }
        # questions, by the relative seat that may not be asked (0: nobody, at the round's first question)
        self.question = []
        for forbidden in range(num_players):
            mask = mask_of(ASK)
            if forbidden:
                mask[[actions.ask(forbidden, a) for a in range(num_attributes)]] = 0
            self.question.append(mask)
        # the interruption window by [accusation used][is the spy], every location still nameable; tuples, not
        # one array, so that reading one is an index and not a NumPy view
        self.window = tuple(
            tuple(mask_of(PASS, *(() if used else (ACCUSE,)), *((GUESS,) if spy else ())) for spy in (False, True))
            for used in (0, 1)
        )


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
    spy). Anything not given is drawn with `rng`.
    """

    def __init__(self, config: SpyfallConfig, rng: np.random.Generator, setup: dict | None):
        n = config.num_players
        self.config = config
        self.num_players = n
        self.actions = config.actions
        self.masks = config.masks
        self.places = config.places
        self.rng = rng
        self.everyone = config.everyone
        self.table = SpyfallTable(n)
        self._dealer, self._locations, self._spies, self._roles = None, (), (), ()  # what the setup fixes
        if setup:
            self._parse_setup(setup)
        self.table.dealer = self._dealer if self._dealer is not None else int(rng.integers(n))
        self.spy = NOBODY
        self.location = NOBODY
        self.roles: list[int] = []  # role index per seat (NOBODY for the spy)
        self.ballots: dict[int, bool] = {}
        self.final_turns = 0  # seats that had their time-up accusation turn
        self.window_turns = 0  # seats that had their turn in the open window
        self._finished: list[tuple] = []  # finished rounds: round, dealer, spy, location, roles, result, points
        self.over = False
        self._rewards: dict[int, float] = {}

    # --- RulesEngine --------------------------------------------------

    @property
    def turns_played(self) -> int:
        return self.table.decisions  # max_turns counts decisions in Spyfall

    def start(self) -> list[Event]:
        events: list[Event] = []
        self._start_round(events)
        return events

    def legal_mask(self) -> np.ndarray:
        table = self.table
        decision = table.decision
        if decision == WINDOW:
            return self._window_masks[table.accusation_used[table.to_act]][table.to_act == self.spy]
        if decision == QUESTION:  # the first question of a round may go to anyone
            forbidden = 0 if table.cannot_ask == NOBODY else (table.cannot_ask - table.to_act) % self.num_players
            return self.masks.question[forbidden]
        return self.masks.by_decision[decision]

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
        actor = table.to_act
        if kind == ASK:
            return f"player_{table.cannot_ask} just asked you a question: you may not ask them back"
        if kind == ACCUSE:
            return "you already used your accusation this round (it comes back when time is up)"
        if kind == GUESS and actor != self.spy:
            return "only the spy may reveal and name the location"
        if kind == GUESS:
            return f"{self.places.names[arg]} was the location of an earlier round: locations do not repeat"
        return "it is not legal now"

    def apply(self, action: int) -> list[Event]:
        kind, arg = self.actions.meaning[action]
        table = self.table
        actor = table.to_act
        n = self.num_players
        events: list[Event] = []
        table.decisions += 1
        if kind == ASK:
            offset, attribute = arg
            target = (actor + offset) % n
            table.asker, table.target, table.attribute = actor, target, attribute
            events.append(new_event(("asked", self.everyone, (actor, target, attribute))))
            self._ask(REPLY, target)
        elif kind == ANSWER:
            events.append(new_event(("answered", self.everyone, (actor, table.attribute, arg))))
            table.questions += 1
            table.cannot_ask = table.asker
            table.asker = table.target = table.attribute = NOBODY
            table.window_of = actor
            self.window_turns = 0
            self._ask(WINDOW, (actor + 1) % n)
        elif kind == PASS:
            events.append(self.config.passed_events[actor])
            self._next_turn(events)
        elif kind == ACCUSE:
            if table.decision == WINDOW:
                table.accusation_used[actor] = 1
            self._accuse(actor, (actor + arg) % n, events)
        elif kind == GUESS:
            right = arg == self.location
            events.append(new_event(("guessed", self.everyone, (actor, arg, right))))
            self._end_round(SPY_NAMED_LOCATION if right else SPY_NAMED_WRONG_LOCATION, events)
        elif kind == VOTE:
            self.ballots[actor] = arg
            table.votes_cast += 1
            events.extend(self.config.vote_events[actor][arg])
            if table.votes_cast < len(table.voters):
                self._ask(BALLOT, table.voters[table.votes_cast])
            else:
                self._count_votes(events)
        return events

    def pop_rewards(self) -> dict[int, float]:
        rewards, self._rewards = self._rewards, {}
        return rewards

    def outcome(self, reward_mode: str) -> Outcome:
        """Every point was paid at the end of its round (`pop_rewards`): the final rewards are zero."""
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        scores = list(self.table.scores)
        best = max(scores)
        winners = tuple(s for s in range(n) if scores[s] == best)
        history = self.history
        last = history[-1]
        info = {
            "result": f"{' and '.join(f'player_{s}' for s in winners)} with {best} point(s)",
            "winners": [f"player_{s}" for s in winners],
            "scores": {f"player_{s}": scores[s] for s in range(n)},
            "spy": last["spy"],
            "location": last["location"],
            "points": last["points"],
            "rounds": history,
            "turns": self.table.decisions,
        }
        per_seat = tuple(
            {"role": last["roles"][f"player_{s}"], "score": scores[s], "won": s in winners} for s in range(n)
        )
        return Outcome(winners=winners, rewards=(0.0,) * n, info=info, per_seat_info=per_seat)

    @property
    def history(self) -> list[dict]:
        """The finished rounds in words, for the final infos (written when asked, not every round)."""
        return [self._round_in_words(*finished) for finished in self._finished]

    def _round_in_words(
        self, round_index: int, dealer: int, spy: int, location_index: int, roles: list[int], result: int,
        points: list[int],
    ) -> dict:
        location = self.places.locations[location_index]
        seats = range(self.num_players)
        return {
            "round": round_index + 1,
            "dealer": f"player_{dealer}",
            "spy": f"player_{spy}",
            "location": location.name,
            "roles": {f"player_{s}": "Spy" if s == spy else location.roles[roles[s]] for s in seats},
            "result": RESULTS[result],
            "points": {f"player_{s}": points[s] for s in seats},
        }

    # --- the round ------------------------------------------------------

    def _ask(self, decision: int, seat: int) -> None:
        self.table.decision = decision
        self.table.to_act = seat

    def _start_round(self, events: list[Event]) -> None:
        table = self.table
        n = self.num_players
        r = table.round
        if r < len(self._locations):
            self.location = self._locations[r]
        else:  # drawn among the locations not played yet, in index order
            unplayed = self.config.all_locations
            if table.played:
                unplayed = [loc for loc in unplayed if loc not in table.played]
            self.location = unplayed[int(self.rng.integers(len(unplayed)))]
        self.spy = self._spies[r] if r < len(self._spies) else int(self.rng.integers(n))
        if r < len(self._roles):
            self.roles = self._roles[r]
        else:
            self.roles = self.rng.permutation(len(self.places.locations[self.location].roles))[: n - 1].tolist()
            self.roles.insert(self.spy, NOBODY)  # the spy gets no role
        self.final_turns = self.window_turns = 0
        self._window_masks = self.masks.window  # shared, so changed only in a copy
        if table.played:  # no location of an earlier round may be named
            guesses = [self.actions.guess(loc) for loc in table.played]
            self._window_masks = tuple(tuple(_cleared(mask, guesses) for mask in row) for row in self._window_masks)
        events.append(new_event(("round_started", self.everyone, (r, table.dealer))))
        for s in range(n):
            location = NOBODY if s == self.spy else self.location
            events.append(new_event(("dealt", (s,), (s, location, self.roles[s]))))
        self._ask(QUESTION, table.dealer)

    def _next_turn(self, events: list[Event]) -> None:
        """After a pass or a failed vote: the next seat of the window or of the time-up accusations."""
        if self.table.time_up:
            self._next_final_accuser(events)
        else:
            self._next_in_window(events)

    def _next_in_window(self, events: list[Event]) -> None:
        table = self.table
        n = self.num_players
        self.window_turns += 1
        if self.window_turns < n:
            self._ask(WINDOW, (table.window_of + 1 + self.window_turns) % n)
        elif table.questions < self.config.question_limit:
            self._ask(QUESTION, table.window_of)  # the answerer asks next
        else:
            table.time_up = True
            events.append(new_event(("time_up", self.everyone, ())))
            self.final_turns = 0
            self._ask(FINAL_ACCUSATION, table.dealer)

    def _next_final_accuser(self, events: list[Event]) -> None:
        self.final_turns += 1
        if self.final_turns < self.num_players:
            self._ask(FINAL_ACCUSATION, (self.table.dealer + self.final_turns) % self.num_players)
        else:
            self._end_round(SPY_NOT_CAUGHT, events)

    def _accuse(self, accuser: int, accused: int, events: list[Event]) -> None:
        table = self.table
        table.accuser, table.accused = accuser, accused
        table.voters = self.config.voters[accuser][accused]
        table.votes_cast = 0
        self.ballots = {}
        events.append(new_event(("accused", self.everyone, (accuser, accused))))
        self._ask(BALLOT, table.voters[0])

    def _count_votes(self, events: list[Event]) -> None:
        """All votes are in: they are shown, and a unanimous yes reveals the accused's card."""
        table = self.table
        accuser, accused = table.accuser, table.accused
        votes = [YES] * self.num_players  # the accuser counts as yes
        for voter, yes in self.ballots.items():
            if not yes:
                votes[voter] = NO
        votes[accused] = NOT_VOTING
        convicted = NO not in votes
        events.append(new_event(("vote_result", self.everyone, (accuser, accused, tuple(votes), convicted))))
        table.accuser = table.accused = NOBODY
        table.voters = ()
        table.votes_cast = 0
        self.ballots = {}
        if not convicted:
            self._next_turn(events)
            return
        is_spy = accused == self.spy
        events.append(new_event(("card_revealed", self.everyone, (accused, is_spy))))
        self._end_round(SPY_CONVICTED if is_spy else NON_SPY_CONVICTED, events, accuser=accuser)

    def _end_round(self, result: int, events: list[Event], accuser: int = NOBODY) -> None:
        table = self.table
        n = self.num_players
        if result in SPY_POINTS:
            points = [0] * n
            points[self.spy] = SPY_POINTS[result]
        else:
            points = [NON_SPY_POINTS] * n
            points[self.spy] = 0
            if result == SPY_CONVICTED:
                points[accuser] = ACCUSER_OF_THE_SPY_POINTS
        scores, rewards = table.scores, self._rewards
        for s, earned in enumerate(points):
            if earned:
                scores[s] += earned
                rewards[s] = rewards.get(s, 0.0) + earned
        self._finished.append((table.round, table.dealer, self.spy, self.location, self.roles, result, points))
        events.append(
            new_event(("round_over", self.everyone, (table.round, self.spy, self.location, result, tuple(points))))
        )
        table.played.append(self.location)
        if table.round + 1 == self.config.num_rounds:
            self.over = True
            self._ask(GAME_OVER, NOBODY)
            events.append(new_event(("game_over", self.everyone, ())))
            return
        table.round += 1
        table.dealer = self.spy  # the spy of a round deals the next
        table.clear_round()
        self._start_round(events)

    # --- setup ------------------------------------------------------------

    def _parse_setup(self, setup: dict) -> None:
        n = self.num_players
        rounds = self.config.num_rounds
        unknown = set(setup) - {"dealer", "locations", "spies", "roles"}
        if unknown:
            raise ValueError(f"unknown setup key(s) {sorted(unknown)}; allowed: dealer, locations, spies, roles")
        self._locations, self._spies, self._roles = [], [], []
        dealer = setup.get("dealer")
        if dealer is not None and not _is_seat(dealer, n):
            raise ValueError(f"setup dealer must be a seat from 0 to {n - 1}; got {dealer!r}")
        self._dealer = None if dealer is None else int(dealer)

        for item in _as_list(setup.get("locations", []), "locations", rounds):
            if isinstance(item, str) and item in self.places.names:
                self._locations.append(self.places.names.index(item))
            elif _is_seat(item, len(self.places)):
                self._locations.append(int(item))
            else:
                raise ValueError(f"setup locations: {item!r} is neither a location name nor an index")
        if len(set(self._locations)) != len(self._locations):
            raise ValueError("setup locations must be distinct: a location is not repeated within a game")

        for item in _as_list(setup.get("spies", []), "spies", rounds):
            if not _is_seat(item, n):
                raise ValueError(f"setup spies must be seats from 0 to {n - 1}; got {item!r}")
            self._spies.append(int(item))

        for r, seats in enumerate(_as_list(setup.get("roles", []), "roles", rounds)):
            if r >= len(self._locations) or r >= len(self._spies):
                raise ValueError(f"setup roles of round {r + 1} need that round's location and spy in the setup")
            names = self.places.locations[self._locations[r]].roles
            spy = self._spies[r]
            if isinstance(seats, str) or len(seats) != n:
                raise ValueError(f"setup roles of round {r + 1} must name a role per seat ({n}), None for the spy")
            if seats[spy] is not None or any(s != spy and name not in names for s, name in enumerate(seats)):
                raise ValueError(
                    f"setup roles of round {r + 1}: the spy (seat {spy}) gets None, every other seat a role of "
                    f"{self.places.names[self._locations[r]]} {names}; got {list(seats)}"
                )
            dealt = [name for name in seats if name is not None]
            if len(set(dealt)) != len(dealt):
                raise ValueError(f"setup roles of round {r + 1} must be distinct; got {list(seats)}")
            self._roles.append([NOBODY if name is None else names.index(name) for name in seats])


def _cleared(mask: np.ndarray, ids: list[int]) -> np.ndarray:
    """A copy of `mask` without `ids`."""
    mask = mask.copy()
    mask[ids] = 0
    return mask


def _is_seat(value, count: int) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < count


def _as_list(value, key: str, rounds: int) -> list:
    if isinstance(value, str) or not hasattr(value, "__len__"):
        raise ValueError(f"setup {key} must be a list with one entry per round; got {value!r}")
    if len(value) > rounds:
        raise ValueError(f"setup {key} has {len(value)} entries but the game has {rounds} round(s)")
    return list(value)
