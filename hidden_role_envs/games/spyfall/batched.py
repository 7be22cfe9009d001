"""Spyfall, batched: the rules of `rules.py` and the knowledge of `observation.py` as pure JAX functions.

One game's state is a `SpyfallState` of fixed-shape arrays; `jax.vmap`
plays thousands. It is the reference's twin, checked against it move for
move (`tests/games/spyfall/test_batched.py`): the same deal and actions give
the same observation, mask, rewards and ends.

How the reference's moving parts became arrays:

- the deal of every round is drawn at the start (`locations`, `spies`,
  `roles`, one row per round), each round's location uniformly among those
  not played before it, as the reference draws it; the rounds a setup fixes
  keep theirs. The spy of a round deals the next, so only the first dealer
  is drawn; the round in play's `spy` and `location` are copied out of the
  deal when it starts;
- the public table's scalars are fields of the state (`decision`,
  `to_act`, the question waiting, the window, the vote in progress);
  `ballots` holds each seat's secret vote until every vote is cast;
- the record of a round is one entry per exchange (`exchange_*`, a row per
  question up to `question_limit`), the accused of each accuser in each
  phase (`accused_by`) and how every seat voted on it (`votes`); a finished
  round is its result, convicted seat and accuser (`round_*`): its spy,
  location and points follow from the deal, and the scores from the points.
  The blocks are one-hots of these entries, made when a seat is observed;
- the beliefs of `knowledge.py` are in closed form, from counts kept as
  each answer comes (`tallies` per seat and attribute, `false_by_seat`,
  `true_answers`, `false_answers`): the spy weighs each location by 9^-k,
  k the answers of the others that are false there beyond the fewest (the
  model's 0.9 against 0.1), read from a table of exact powers and added up
  per power; a non-spy weighs each other seat by (0.5/0.9)^t (0.5/0.1)^f for
  its t true and f false answers, from integer differences to the likeliest
  seat. So float32 stays within about 2e-7 of the reference's float64.
  A seat's false shares are the others' rows of `false_by_seat` over the
  others' answers.

A step does little under `vmap`: each kind of action changes the few
fields it touches where it is the one played (`_ask`, `_answer`, ...), and
what ends a round ends it once (`_end_round`).

The event history (`history_length`): `init` and `step` tell a `StepEvents`
every event the reference's rules would emit, in their order, each with
whether it happened in this game: the action itself (`_tell_action`), what
it led to (`_tell_outcome`: the votes shown, time up, the accused's card),
the end of the round and the next round's deal (`_end_round`, `_tell_deal`).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from hidden_role_envs.core.batched import BatchedGame, one_hot, pytree
from hidden_role_envs.core.batched_events import StepEvents
from hidden_role_envs.core.seats import NOBODY
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
from hidden_role_envs.games.spyfall.knowledge import LIE_RATE
from hidden_role_envs.games.spyfall.observation import spyfall_layout
from hidden_role_envs.games.spyfall.rules import (
    ACCUSER_OF_THE_SPY_POINTS,
    BALLOT,
    DECISIONS,
    FINAL_ACCUSATION,
    GAME_OVER,
    NON_SPY_CONVICTED,
    NON_SPY_POINTS,
    QUESTION,
    REPLY,
    RESULTS,
    SPY_CONVICTED,
    SPY_NAMED_LOCATION,
    SPY_NAMED_WRONG_LOCATION,
    SPY_NOT_CAUGHT,
    SPY_POINTS,
    WINDOW,
    SpyfallGame,
)

I32 = jnp.int32
NO_BALLOT = -1  # a seat's ballot before it votes (YES, NO once cast)
KINDS = (ASK, ANSWER, PASS, ACCUSE, GUESS, VOTE)
# log of how much one answer multiplies a seat's odds of being the spy, for a non-spy who knows the truth
SPY_ODDS_TRUE, SPY_ODDS_FALSE = math.log(0.5 / (1 - LIE_RATE)), math.log(0.5 / LIE_RATE)


@pytree
class SpyfallState:
    # the deal of every round, made at the start
    locations: jax.Array  # (rounds,)
    spies: jax.Array  # (rounds,)
    roles: jax.Array  # (rounds, n) the index in the location's roles, NOBODY for the spy
    # the table
    round: jax.Array
    spy: jax.Array  # the round's spy and location (its row of the deal)
    location: jax.Array
    played: jax.Array  # (L,) bool: the locations of the finished rounds
    dealer: jax.Array
    decision: jax.Array
    to_act: jax.Array
    decisions: jax.Array  # decisions taken in the game (what max_turns counts)
    over: jax.Array
    # the round in play
    questions: jax.Array  # questions answered
    time_up: jax.Array
    asker: jax.Array  # the question waiting for its answer (NOBODY: none)
    target: jax.Array
    attribute: jax.Array
    cannot_ask: jax.Array  # the seat that just asked the asker
    window_of: jax.Array  # the answerer whose interruption window is open
    window_turns: jax.Array  # seats that had their turn in it
    final_turns: jax.Array  # seats that had their time-up accusation turn
    accusation_used: jax.Array  # (n,) bool
    accuser: jax.Array  # the vote in progress (NOBODY: none)
    accused: jax.Array
    interrupted: jax.Array  # the decision it interrupted
    ballots: jax.Array  # (n,) YES, NO or NO_BALLOT
    # the round's record
    exchange_asker: jax.Array  # (q,) per question in the order asked (NOBODY: not asked yet)
    exchange_target: jax.Array
    exchange_attribute: jax.Array
    exchange_answer: jax.Array  # (q,) 0 yes, 1 no (NOBODY: no answer yet)
    accused_by: jax.Array  # (2, n) [while the clock ran, once time was up][accuser]: the accused (NOBODY: none)
    votes: jax.Array  # (2, n, n) [phase][accuser][seat]: YES, NO or NOT_VOTING (also: no such vote)
    last_phase: jax.Array  # the last finished vote of the round: its phase and accuser (NOBODY: none yet)
    last_accuser: jax.Array
    tallies: jax.Array  # (n, A, 2) the round's answers per seat and attribute: yes count, no count
    # what the beliefs read, kept as each answer comes
    false_by_seat: jax.Array  # (n, L) each seat's answers that are false at each location
    true_answers: jax.Array  # (n,) each seat's answers that are true at the round's location
    false_answers: jax.Array  # (n,) ... and false there
    # the finished rounds
    round_result: jax.Array  # (rounds,) NOBODY until the round ends
    round_convicted: jax.Array
    round_accuser: jax.Array


class SpyfallBatched(BatchedGame):
    def __init__(self, config: SpyfallConfig, reward_mode: str = "points"):
        n = config.num_players
        places = config.places
        actions = spyfall_actions(config)
        super().__init__(config, reward_mode, spyfall_layout(config), actions)  # reward mode "points", the only one
        self.num_rounds = config.num_rounds
        self.question_limit = config.question_limit
        self.num_locations = len(places)
        self.num_attributes = len(places.attributes)
        self.max_roles = places.max_roles
        # the ids of each kind are contiguous, in this order: the mask is made of one segment per kind
        segments = [ASK] * (n - 1) * self.num_attributes + [ANSWER] * 2 + [PASS] + [ACCUSE] * (n - 1) + [
            GUESS] * self.num_locations + [VOTE] * 2
        if list(actions.kind) != segments:
            raise RuntimeError("the Spyfall action table is not in the order the batched engine reads")
        rows = []  # per action: its kind, the seat asked or accused (relative), the attribute, yes, the location
        for kind, args in actions.meaning:
            rows.append((kind, args[0] if kind == ASK else args if kind == ACCUSE else 0, args[1] if kind == ASK else 0,
                         int(bool(args)) if kind in (ANSWER, VOTE) else 0, args if kind == GUESS else 0))
        self._meaning = jnp.asarray(rows, I32)
        self._matrix = jnp.asarray(places.matrix, I32)  # (L, A) 1 where the attribute holds
        self._num_roles = jnp.asarray([len(loc.roles) for loc in places.locations], I32)
        # 9^-k for the spy's weight of a location where k more answers are false than at the likeliest one
        ninth = LIE_RATE / (1 - LIE_RATE)
        self._powers_of_ninth = jnp.asarray([ninth**k for k in range(config.question_limit + 1)], jnp.float32)
        spy_points = np.zeros(len(RESULTS), np.int32)
        for result, points in SPY_POINTS.items():
            spy_points[result] = points
        self._spy_points = jnp.asarray(spy_points)

    # --- the deal -------------------------------------------------------------------

    def setup(self, setup: dict) -> dict:
        """Checked by the reference's own reading of a setup; every part as an array, NOBODY where not fixed
        (a round whose roles are not fixed has a row of NOBODY), so that setups fixing different parts stack."""
        fixed = SpyfallGame(self.config, np.random.default_rng(0), setup).fixed
        rounds, n = self.num_rounds, self.num_players

        def padded(values: list[int]) -> np.ndarray:
            return np.asarray(list(values) + [NOBODY] * (rounds - len(values)), np.int32)

        roles = np.full((rounds, n), NOBODY, np.int32)
        roles[: len(fixed.roles)] = np.asarray(fixed.roles, np.int32).reshape(-1, n)
        return {"dealer": np.int32(NOBODY if fixed.dealer is None else fixed.dealer),
                "locations": padded(fixed.locations), "spies": padded(fixed.spies), "roles": roles}

    def init(self, key: jax.Array, deal: dict, events: StepEvents | None = None) -> SpyfallState:
        n, rounds, places, most_roles = self.num_players, self.num_rounds, self.num_locations, self.max_roles
        bits = jax.random.bits(key, (rounds * (most_roles + 2) + 1,), jnp.uint32)
        fixed_locations = jnp.asarray(deal.get("locations", jnp.full(rounds, NOBODY)), I32)
        fixed_spies = jnp.asarray(deal.get("spies", jnp.full(rounds, NOBODY)), I32)
        fixed_roles = jnp.asarray(deal.get("roles", jnp.full((rounds, n), NOBODY)), I32)
        fixed_dealer = jnp.asarray(deal.get("dealer", NOBODY), I32)
        locations = self._draw_locations(bits[:rounds], fixed_locations)
        spies = jnp.where(fixed_spies >= 0, fixed_spies, (bits[rounds : 2 * rounds] % n).astype(I32))
        role_bits = bits[2 * rounds : -1].reshape(rounds, most_roles)
        drawn_roles = jax.vmap(self._deal_roles)(role_bits, locations, spies)
        roles = jnp.where((fixed_roles >= 0).any(axis=1, keepdims=True), fixed_roles, drawn_roles)
        dealer = jnp.where(fixed_dealer >= 0, fixed_dealer, (bits[-1] % n).astype(I32))
        g = SpyfallState(
            locations=locations, spies=spies, roles=roles,
            round=I32(0), spy=spies[0], location=locations[0], played=jnp.zeros(places, bool), dealer=dealer,
            decision=I32(QUESTION), to_act=dealer, decisions=I32(0), over=jnp.bool_(False),
            **self._new_round(),
            round_result=jnp.full(rounds, NOBODY, I32), round_convicted=jnp.full(rounds, NOBODY, I32),
            round_accuser=jnp.full(rounds, NOBODY, I32),
        )
        if events is not None:
            self._tell_deal(events, g, True)
        return g

    def _new_round(self) -> dict:
        """The fields of a round as they are before its first question."""
        n, q = self.num_players, self.question_limit
        nobody = I32(NOBODY)
        return {
            "questions": I32(0), "time_up": jnp.bool_(False), "asker": nobody, "target": nobody,
            "attribute": nobody, "cannot_ask": nobody, "window_of": nobody, "window_turns": I32(0),
            "final_turns": I32(0), "accusation_used": jnp.zeros(n, bool), "accuser": nobody, "accused": nobody,
            "interrupted": I32(GAME_OVER), "ballots": jnp.full(n, NO_BALLOT, I32),
            "exchange_asker": jnp.full(q, NOBODY, I32), "exchange_target": jnp.full(q, NOBODY, I32),
            "exchange_attribute": jnp.full(q, NOBODY, I32), "exchange_answer": jnp.full(q, NOBODY, I32),
            "accused_by": jnp.full((2, n), NOBODY, I32), "votes": jnp.full((2, n, n), NOT_VOTING, I32),
            "last_phase": nobody, "last_accuser": nobody, "tallies": jnp.zeros((n, self.num_attributes, 2), I32),
            "false_by_seat": jnp.zeros((n, self.num_locations), I32), "true_answers": jnp.zeros(n, I32),
            "false_answers": jnp.zeros(n, I32),
        }

    def _draw_locations(self, bits: jax.Array, fixed: jax.Array) -> jax.Array:
        """The location of every round: those the setup fixes, then each drawn uniformly among the locations not
        played before it (the k-th of them in index order, as the reference draws it)."""
        places = jnp.arange(self.num_locations)
        unplayed = ~(fixed[:, None] == places[None, :]).any(axis=0)
        locations = []
        for r in range(self.num_rounds):  # a few rounds: unrolled
            k = (bits[r] % unplayed.sum().astype(jnp.uint32)).astype(I32)
            drawn = jnp.argmax(unplayed & (jnp.cumsum(unplayed) == k + 1)).astype(I32)
            location = jnp.where(fixed[r] >= 0, fixed[r], drawn)
            unplayed = unplayed & (places != location)
            locations.append(location)
        return jnp.stack(locations)

    def _deal_roles(self, bits: jax.Array, location: jax.Array, spy: jax.Array) -> jax.Array:
        """Distinct roles of the location in a uniformly random order for the non-spies; the spy gets none."""
        slots = jnp.arange(self.max_roles)
        seats = jnp.arange(self.num_players)
        # each role of the location ranked by a random number (ties by index); the others rank last
        priority = jnp.where(slots < self._num_roles[location], (bits >> 8).astype(I32), 1 << 24)
        rank = ((priority[None, :] < priority[:, None])
                | ((priority[None, :] == priority[:, None]) & (slots[None, :] < slots[:, None]))).sum(axis=1)
        place = seats - (seats > spy)  # the seats but the spy, in order, take the roles ranked 0, 1, ...
        role = ((rank[None, :] == place[:, None]) * slots[None, :]).sum(axis=1)
        return jnp.where(seats == spy, NOBODY, role).astype(I32)

    # --- the API of BatchedGame ---------------------------------------------------

    def current_player(self, g: SpyfallState) -> jax.Array:
        return g.to_act

    def is_over(self, g: SpyfallState) -> jax.Array:
        return g.over

    def turns_played(self, g: SpyfallState) -> jax.Array:
        return g.decisions

    def legal_mask(self, g: SpyfallState) -> jax.Array:
        """What the decision asks for, plus, while the clock runs, what may stop it: an accusation unless the seat
        used its own, and the spy's guess of a location not played yet."""
        n = self.num_players
        seat = g.to_act
        d = g.decision
        running = (d == QUESTION) | (d == REPLY) | (d == WINDOW)
        used = (g.accusation_used & (jnp.arange(n) == seat)).any()
        barred = jnp.where(g.cannot_ask == NOBODY, 0, (g.cannot_ask - seat) % n)  # may not be asked back
        asks = (d == QUESTION) & (jnp.arange(1, n) != barred)
        return jnp.concatenate([
            jnp.repeat(asks, self.num_attributes),
            jnp.full(2, d == REPLY),
            ((d == WINDOW) | (d == FINAL_ACCUSATION))[None],
            jnp.full(n - 1, (running & ~used) | (d == FINAL_ACCUSATION)),
            running & (seat == g.spy) & ~g.played,
            jnp.full(2, d == BALLOT),
        ])

    def step(self, g: SpyfallState, action: jax.Array, key: jax.Array,
             events: StepEvents | None = None) -> tuple[SpyfallState, jax.Array]:
        """Each kind of action changes its fields where it is the one played; a pass or a failed vote moves the
        turn on; a guess, a conviction or the last time-up turn ends the round, which pays its points."""
        n = self.num_players
        kind, offset, attribute, yes, location = self._meaning[action]
        yes = yes == 1
        actor = g.to_act
        other = (actor + offset) % n  # the seat asked or accused
        was_up = g.time_up
        if events is not None:
            self._tell_action(events, g, kind, actor, other, attribute, yes, location)
        g = g.replace(decisions=g.decisions + 1)
        g = self._ask(g, kind == ASK, actor, other, attribute)
        g = self._answer(g, kind == ANSWER, actor, yes)
        g = self._accuse(g, kind == ACCUSE, actor, other)
        accuser, accused = g.accuser, g.accused
        g, convicted, acquitted = self._vote(g, kind == VOTE, actor, yes)
        goes_on = acquitted & ((g.interrupted == WINDOW) | (g.interrupted == FINAL_ACCUSATION))
        g, nobody_convicted = self._next_turn(g, (kind == PASS) | goes_on)
        if events is not None:
            self._tell_outcome(events, g, was_up, accuser, accused, convicted | acquitted, convicted)
        right = location == g.location
        spy = g.spy
        result = jnp.select(
            [kind == GUESS, convicted, nobody_convicted],
            [jnp.where(right, SPY_NAMED_LOCATION, SPY_NAMED_WRONG_LOCATION),
             jnp.where(accused == spy, SPY_CONVICTED, NON_SPY_CONVICTED), SPY_NOT_CAUGHT],
            NOBODY,
        ).astype(I32)
        return self._end_round(g, result, jnp.where(convicted, accuser, NOBODY), jnp.where(convicted, accused, NOBODY),
                               events)

    # --- the actions ------------------------------------------------------------------

    def _ask(self, g: SpyfallState, asking, actor, target, attribute) -> SpyfallState:
        row = (jnp.arange(self.question_limit) == g.questions) & asking
        return g.replace(
            asker=jnp.where(asking, actor, g.asker), target=jnp.where(asking, target, g.target),
            attribute=jnp.where(asking, attribute, g.attribute),
            exchange_asker=jnp.where(row, actor, g.exchange_asker),
            exchange_target=jnp.where(row, target, g.exchange_target),
            exchange_attribute=jnp.where(row, attribute, g.exchange_attribute),
            decision=jnp.where(asking, REPLY, g.decision), to_act=jnp.where(asking, target, g.to_act),
        )

    def _answer(self, g: SpyfallState, answering, actor, yes) -> SpyfallState:
        """The answer opens the interruption window at the answerer's left; the answerer will ask next."""
        row = (jnp.arange(self.question_limit) == g.questions) & answering
        nobody = I32(NOBODY)
        seats = jnp.arange(self.num_players)
        answerer = answering & (seats == actor)
        attribute = jnp.maximum(g.attribute, 0)
        cell = (answerer[:, None, None] & (jnp.arange(self.num_attributes) == attribute)[None, :, None]
                & (jnp.arange(2) == jnp.where(yes, 0, 1))[None, None, :])
        holds = self._matrix[:, attribute] == 1  # (L,)
        true = (holds & (jnp.arange(self.num_locations) == g.location)).any() == yes
        return g.replace(
            tallies=g.tallies + cell,
            false_by_seat=g.false_by_seat + (answerer[:, None] & (holds != yes)[None, :]),
            true_answers=g.true_answers + (answerer & true), false_answers=g.false_answers + (answerer & ~true),
            exchange_answer=jnp.where(row, jnp.where(yes, 0, 1), g.exchange_answer),
            questions=g.questions + answering, cannot_ask=jnp.where(answering, g.asker, g.cannot_ask),
            asker=jnp.where(answering, nobody, g.asker), target=jnp.where(answering, nobody, g.target),
            attribute=jnp.where(answering, nobody, g.attribute), window_of=jnp.where(answering, actor, g.window_of),
            window_turns=jnp.where(answering, 0, g.window_turns),
            decision=jnp.where(answering, WINDOW, g.decision),
            to_act=jnp.where(answering, (actor + 1) % self.num_players, g.to_act),
        )

    def _accuse(self, g: SpyfallState, accusing, actor, accused) -> SpyfallState:
        """The clock stops; everyone but the accused votes, from the accuser's left."""
        n = self.num_players
        seats = jnp.arange(n)
        phase = g.time_up.astype(I32)
        cell = accusing & (jnp.arange(2) == phase)[:, None] & (seats == actor)[None, :]
        return g.replace(
            accusation_used=g.accusation_used | (accusing & ~g.time_up & (seats == actor)),
            interrupted=jnp.where(accusing, g.decision, g.interrupted),
            accuser=jnp.where(accusing, actor, g.accuser), accused=jnp.where(accusing, accused, g.accused),
            accused_by=jnp.where(cell, accused, g.accused_by),
            decision=jnp.where(accusing, BALLOT, g.decision),
            to_act=jnp.where(accusing, self._voter(actor, accused, 0), g.to_act),
        )

    def _voter(self, accuser, accused, cast) -> jax.Array:
        """The voter after `cast` votes: the seats from the accuser's left, the accused skipped."""
        n = self.num_players
        step = 1 + cast
        step = step + (step >= (accused - accuser) % n)
        return (accuser + step) % n

    def _vote(self, g: SpyfallState, voting, actor, yes) -> tuple[SpyfallState, jax.Array, jax.Array]:
        """A secret ballot; once all are cast every vote is shown, and a unanimous yes convicts. Returns whether
        this vote convicted, or acquitted (then the interrupted decision goes on: asked again of the accuser if
        it was to ask or to answer, else `_next_turn`)."""
        n = self.num_players
        seats = jnp.arange(n)
        ballots = jnp.where(voting & (seats == actor), jnp.where(yes, YES, NO), g.ballots)
        cast = (ballots != NO_BALLOT).sum()
        counted = voting & (cast == n - 2)
        convicted = counted & ((ballots == YES).sum() == n - 2)
        acquitted = counted & ~convicted
        shown = jnp.where(seats == g.accuser, YES, jnp.where(seats == g.accused, NOT_VOTING, ballots))
        phase = g.time_up.astype(I32)
        cell = counted & (jnp.arange(2) == phase)[:, None, None] & (seats == g.accuser)[None, :, None]
        resumes = acquitted & ((g.interrupted == QUESTION) | (g.interrupted == REPLY))
        nobody = I32(NOBODY)
        to_act = jnp.where(voting & ~counted, self._voter(g.accuser, g.accused, cast), g.to_act)
        return g.replace(
            ballots=jnp.where(counted, NO_BALLOT, ballots), votes=jnp.where(cell, shown[None, None, :], g.votes),
            last_phase=jnp.where(counted, phase, g.last_phase),
            last_accuser=jnp.where(counted, g.accuser, g.last_accuser),
            accuser=jnp.where(counted, nobody, g.accuser), accused=jnp.where(counted, nobody, g.accused),
            decision=jnp.where(resumes, g.interrupted, g.decision),
            to_act=jnp.where(resumes, g.accuser, to_act),
        ), convicted, acquitted

    def _next_turn(self, g: SpyfallState, moves_on) -> tuple[SpyfallState, jax.Array]:
        """After a pass or a failed vote: the next seat of the window, then the answerer's question, or once the
        last window has closed the time-up accusations from the dealer. Returns whether the last seat has had
        its time-up turn (nobody was convicted)."""
        n = self.num_players
        was_up = g.time_up
        window_turns = g.window_turns + (moves_on & ~was_up)
        final_turns = g.final_turns + (moves_on & was_up)
        in_window = ~was_up & (window_turns < n)
        asks = ~was_up & ~in_window & (g.questions < self.question_limit)
        time_up = ~in_window & ~asks
        decision = jnp.where(in_window, WINDOW, jnp.where(asks, QUESTION, FINAL_ACCUSATION))
        to_act = jnp.where(in_window, (g.window_of + 1 + window_turns) % n,
                           jnp.where(asks, g.window_of, (g.dealer + final_turns) % n))
        return g.replace(
            window_turns=jnp.where(moves_on, window_turns, g.window_turns),
            final_turns=jnp.where(moves_on, final_turns, g.final_turns),
            time_up=g.time_up | (moves_on & time_up),
            decision=jnp.where(moves_on, decision, g.decision), to_act=jnp.where(moves_on, to_act, g.to_act),
        ), moves_on & time_up & (final_turns >= n)

    # --- the end of a round ------------------------------------------------------------

    def _points(self, result, spy, accuser) -> jax.Array:
        """The rulebook's points of a round, per seat."""
        seats = jnp.arange(self.num_players)
        spy_wins = (result == SPY_NOT_CAUGHT) | (result == NON_SPY_CONVICTED) | (result == SPY_NAMED_LOCATION)
        non_spies = jnp.where((result == SPY_CONVICTED) & (seats == accuser), ACCUSER_OF_THE_SPY_POINTS, NON_SPY_POINTS)
        return jnp.where(seats == spy, jnp.where(spy_wins, self._spy_points[jnp.maximum(result, 0)], 0),
                         jnp.where(spy_wins, 0, non_spies))

    def _end_round(self, g: SpyfallState, result, accuser, convicted,
                   events: StepEvents | None = None) -> tuple[SpyfallState, jax.Array]:
        """The round's points are paid; the spy of the round deals the next, or the game is over."""
        ends = result != NOBODY
        r = g.round
        spy, location = g.spy, g.location
        this_round = ends & (jnp.arange(self.num_rounds) == r)
        g = g.replace(
            round_result=jnp.where(this_round, result, g.round_result),
            round_convicted=jnp.where(this_round, convicted, g.round_convicted),
            round_accuser=jnp.where(this_round, accuser, g.round_accuser),
        )
        last = r + 1 == self.num_rounds
        over, deals = ends & last, ends & ~last
        fresh = self._new_round()
        following = jnp.minimum(r + 1, self.num_rounds - 1)
        g = g.replace(
            over=g.over | over, played=g.played | (ends & (jnp.arange(self.num_locations) == g.location)),
            round=jnp.where(deals, r + 1, r), dealer=jnp.where(deals, spy, g.dealer),
            spy=jnp.where(deals, g.spies[following], spy),
            location=jnp.where(deals, g.locations[following], g.location),
            decision=jnp.where(over, GAME_OVER, jnp.where(deals, QUESTION, g.decision)),
            to_act=jnp.where(over, NOBODY, jnp.where(deals, spy, g.to_act)),
            **{name: jnp.where(deals, value, getattr(g, name)) for name, value in fresh.items()},
        )
        points = jnp.where(ends, self._points(result, spy, accuser), 0)
        if events is not None:  # every card of the round is shown as it ends, before the next deal
            events.add(RoundOver, ends, round=r, spy=spy, location=location, result=result, points=points,
                       convicted=convicted, accuser=accuser)
            events.add(GameOver, over)
            self._tell_deal(events, g, deals)
        return g, points.astype(jnp.float32)

    # --- the event history ------------------------------------------------------------

    def _tell_deal(self, events: StepEvents, g: SpyfallState, when) -> None:
        """The round in play starts: everyone sees who deals; each seat sees only its own card (the spy's has no
        location)."""
        seats = jnp.arange(self.num_players)
        events.add(RoundStarted, when, round=g.round, dealer=g.dealer)
        for s in range(self.num_players):
            events.add(Dealt, when, seats == s, seat=s, location=jnp.where(s == g.spy, NOBODY, g.location),
                       role=g.roles[g.round, s])

    def _tell_action(self, events: StepEvents, g: SpyfallState, kind, actor, other, attribute, yes, location) -> None:
        """The action played on `g`, one candidate per kind: all are public but a ballot, whose vote only the
        voter sees (the others see that it voted)."""
        seats = jnp.arange(self.num_players)
        events.add(Asked, kind == ASK, asker=actor, target=other, attribute=attribute)
        events.add(Answered, kind == ANSWER, seat=actor, attribute=g.attribute, yes=yes)
        events.add(Passed, kind == PASS, seat=actor)
        events.add(Accused, kind == ACCUSE, accuser=actor, accused=other)
        events.add(Guessed, kind == GUESS, spy=actor, location=location, right=location == g.location)
        events.add(Voted, kind == VOTE, seats == actor, seat=actor, yes=yes)
        events.add(VoteCast, kind == VOTE, seats != actor, seat=actor)

    def _tell_outcome(self, events: StepEvents, g: SpyfallState, was_up, accuser, accused, counted, convicted) -> None:
        """What the action led to before the round's end: once every vote is cast all are shown (as the round's
        record now holds them), a vote that moved the turn on or the last pass of the last window may run the
        clock out, and a conviction reveals the accused's card. Time up and a conviction never come together."""
        votes = g.votes[was_up.astype(I32), jnp.maximum(accuser, 0)]
        events.add(VoteResult, counted, accuser=accuser, accused=accused, votes=votes, convicted=convicted)
        events.add(TimeUp, g.time_up & ~was_up)
        events.add(CardRevealed, convicted, seat=accused, is_spy=accused == g.spy)

    # --- for a critic in training --------------------------------------------------------

    @property
    def critic_size(self) -> int:
        return self.num_players + self.num_locations

    def critic_view(self, g: SpyfallState, seat) -> jax.Array:
        """The spy of the round in play (seats relative to `seat`), and its location."""
        n = self.num_players
        return jnp.concatenate([one_hot((g.spy - seat) % n, n), one_hot(g.location, self.num_locations)])

    # --- the observation --------------------------------------------------------------

    def blocks(self, g: SpyfallState, seat) -> dict[str, jax.Array]:
        n, rounds, places = self.num_players, self.num_rounds, self.num_locations
        r = g.round
        is_spy = seat == g.spy
        finished = g.round_result >= 0
        points = jax.vmap(self._points)(g.round_result, g.spies, g.round_accuser) * finished[:, None]
        false_heard = g.false_by_seat.sum(axis=0) - g.false_by_seat[seat]  # the others' answers false at each
        heard = g.questions - g.tallies[seat].sum()
        location_belief, spy_belief = self._beliefs(g, seat, false_heard)
        shown = g.votes[jnp.maximum(g.last_phase, 0), jnp.maximum(g.last_accuser, 0)]
        has_last = g.last_accuser != NOBODY
        last_accused = g.accused_by[jnp.maximum(g.last_phase, 0), jnp.maximum(g.last_accuser, 0)]
        in_play = ~g.over
        ballot = g.ballots[seat]
        return {
            "is_spy": is_spy[None],
            "location": jnp.where(is_spy, 0.0, one_hot(g.location, places)),
            "role": one_hot(g.roles[r, seat], self.max_roles),
            "my_vote": jnp.stack([ballot == YES, ballot == NO]),
            "exchange_asker": one_hot(g.exchange_asker[:, None], n),
            "exchange_target": one_hot(g.exchange_target[:, None], n),
            "exchange_attribute": one_hot(g.exchange_attribute[:, None], self.num_attributes),
            "exchange_answer": one_hot(g.exchange_answer[:, None], 2),
            "answers": g.tallies,
            "accusations": one_hot(g.accused_by[:, :, None], n),
            "accusation_votes": jnp.stack([g.votes == YES, g.votes == NO], axis=-1),
            "last_vote": jnp.where(has_last, jnp.stack([
                one_hot(g.last_accuser, n), one_hot(last_accused, n), shown == YES, shown == NO]), 0.0),
            "question": jnp.stack([one_hot(g.asker, n), one_hot(g.target, n)]),
            "question_attribute": one_hot(g.attribute, self.num_attributes),
            "cannot_ask": one_hot(g.cannot_ask, n),
            "accusation": jnp.stack([one_hot(g.accuser, n), one_hot(g.accused, n)]),
            "votes_cast": g.ballots != NO_BALLOT,
            "accusation_used": g.accusation_used,
            "clock": jnp.stack([self.question_limit - g.questions, g.time_up.astype(I32)]),
            "scores": points.sum(axis=0),
            "round": jnp.stack([r + 1, I32(rounds)]),
            "dealer": one_hot(g.dealer, n),
            "round_spy": jnp.where(finished[:, None], one_hot(g.spies[:, None], n), 0.0),
            "round_location": jnp.where(finished[:, None], one_hot(g.locations[:, None], places), 0.0),
            "round_convicted": one_hot(g.round_convicted[:, None], n),
            "round_accuser": one_hot(g.round_accuser[:, None], n),
            "round_points": points,
            "played": g.played,
            "round_result": one_hot(g.round_result[:, None], len(RESULTS)),
            "decision": jnp.where(in_play, one_hot(g.decision, len(DECISIONS)), 0.0),
            "to_act": jnp.where(in_play, one_hot(g.to_act, n), 0.0),
            "location_belief": location_belief,
            "spy_belief": spy_belief,
            "location_false_share": false_heard / jnp.maximum(heard, 1).astype(jnp.float32),
        }

    def _beliefs(self, g: SpyfallState, seat, false_heard) -> tuple[jax.Array, jax.Array]:
        """`knowledge.py`'s (P(location), P(seat is the spy)) of `seat`, from the answers of the round
        (`false_heard`: the others' answers false at each location)."""
        n, places = self.num_players, self.num_locations
        seats = jnp.arange(n)
        spy, location = g.spy, g.location
        # the spy: a location's weight is 9^-k, k the answers of the others that are false there, beyond the fewest
        false_at = false_heard
        unplayed = ~g.played
        fewest = jnp.where(unplayed, false_at, self.question_limit).min()
        beyond = jnp.clip(false_at - fewest, 0, self.question_limit)
        weights = jnp.where(unplayed, self._powers_of_ninth[beyond], 0.0)
        # the total as a count of locations per power: one rounding per power, not one per location
        per_power = ((beyond[:, None] == jnp.arange(self.question_limit + 1)[None, :]) & unplayed[:, None]).sum(axis=0)
        spy_location = weights / (per_power.astype(jnp.float32) @ self._powers_of_ninth)
        # a non-spy: each other seat's odds of being the spy, from its true and false answers at the location
        true, false = g.true_answers, g.false_answers
        others = seats != seat
        log_odds = true * SPY_ODDS_TRUE + false * SPY_ODDS_FALSE
        likeliest = jnp.argmax(jnp.where(others, log_odds, -jnp.inf))
        odds = jnp.exp((true - true[likeliest]) * SPY_ODDS_TRUE + (false - false[likeliest]) * SPY_ODDS_FALSE)
        odds = jnp.where(others, odds, 0.0)
        spy_seat = odds / odds.sum()
        location_belief = jnp.where(seat == spy, spy_location, one_hot(location, places))
        spy_belief = jnp.where(seat == spy, one_hot(seat, n), spy_seat)
        return (jnp.where(g.over, one_hot(location, places), location_belief),
                jnp.where(g.over, one_hot(spy, n), spy_belief))
