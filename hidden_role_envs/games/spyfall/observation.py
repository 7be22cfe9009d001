"""What a Spyfall seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw
(its own card, and the public questions, answers, accusations, votes and
round results). The spy, the location and the other seats' cards are never
read here, so an observation cannot depend on anything its seat has not
seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n). The beliefs
(`location_belief`, `spy_belief`) and the false shares
(`location_false_share`) are those of `knowledge.py`.
"""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.events import ByKind
from hidden_role_envs.core.observation import Block, Layout, Observer, Schema
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.spyfall import events as ev
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.events import NO, YES
from hidden_role_envs.games.spyfall.knowledge import RoundBeliefs
from hidden_role_envs.games.spyfall.rules import DECISIONS, RESULTS

SCHEMA = Schema(
    [
        Block("is_spy", (1,), 0, 1, "1 if this seat holds the spy card", "own"),
        Block("location", ("L",), 0, 1, "one-hot: the location on this seat's card (zeros for the spy)", "own"),
        Block("role", ("R",), 0, 1, "one-hot: its role, by index in the location's roles (R = most roles of a "
              "location, 7)", "own"),
        Block("my_vote", (2,), 0, 1, "this seat's own vote in the vote in progress (yes, no)", "own"),
        Block("exchange_asker", ("q", "n"), 0, 1, "every exchange of this round, row j the (j+1)-th question "
              "(q = `question_limit`): who asked", "record", rotate=(1,)),
        Block("exchange_target", ("q", "n"), 0, 1, "... who was asked", "record", rotate=(1,)),
        Block("exchange_attribute", ("q", "A"), 0, 1, "... about which attribute", "record"),
        Block("exchange_answer", ("q", 2), 0, 1, "... the answer (yes, no; zeros while it waits)", "record"),
        Block("answers", ("n", "A", 2), 0, "q", "this round's answers per seat and attribute: yes count, no count",
              "record", rotate=(0,)),
        Block("accusations", (2, "n", "n"), 0, 1, "this round's accusations: [while the clock ran, once time was up]"
              "[accuser][accused] (each seat accuses at most once in each)", "record", rotate=(1, 2)),
        Block("accusation_votes", (2, "n", "n", 2), 0, 1, "how each seat voted on them: [phase][accuser][voter]"
              "(yes, no); the accuser counts as yes, the accused does not vote", "record", rotate=(1, 2)),
        Block("last_vote", (4, "n"), 0, 1, "the last finished vote of this round: accuser, accused, yes votes, "
              "no votes", "record", rotate=(1,)),
        Block("question", (2, "n"), 0, 1, "the question waiting for its answer: asker, target", "turn", rotate=(1,)),
        Block("question_attribute", ("A",), 0, 1, "one-hot: its attribute", "turn"),
        Block("cannot_ask", ("n",), 0, 1, "one-hot: the seat that just asked the asker (not to be asked back)", "turn",
              rotate=(0,)),
        Block("accusation", (2, "n"), 0, 1, "the vote in progress: accuser, accused", "turn", rotate=(1,)),
        Block("votes_cast", ("n",), 0, 1, "who has voted in it (what they voted is secret until all are cast)", "turn",
              rotate=(0,)),
        Block("accusation_used", ("n",), 0, 1, "seats that used their accusation of this round", rotate=(0,)),
        Block("clock", (2,), 0, "q", "questions left, 1 once time is up"),
        Block("scores", ("n",), 0, "4*rounds", "points so far", rotate=(0,)),
        Block("round", (2,), 0, "rounds", "this round's number (from 1), rounds in the game"),
        Block("dealer", ("n",), 0, 1, "one-hot: this round's dealer", rotate=(0,)),
        Block("round_spy", ("rounds", "n"), 0, 1, "every finished round, row r round r+1: its spy", "record",
              rotate=(1,)),
        Block("round_location", ("rounds", "L"), 0, 1, "... its location", "record"),
        Block("round_convicted", ("rounds", "n"), 0, 1, "... the seat convicted (zeros: none)", "record", rotate=(1,)),
        Block("round_accuser", ("rounds", "n"), 0, 1, "... who started the accusation that convicted it", "record",
              rotate=(1,)),
        Block("round_points", ("rounds", "n"), 0, 4, "... the points each seat got", "record", rotate=(1,)),
        Block("round_result", ("rounds", len(RESULTS)), 0, 1, "... how it ended, one-hot (see Rewards)", "record"),
        Block("played", ("L",), 0, 1, "locations of finished rounds", "record"),
        Block("decision", (len(DECISIONS),), 0, 1, "one-hot: ask, answer, interruption window, vote, time-up "
              "accusation", "turn"),
        Block("to_act", ("n",), 0, 1, "one-hot: the seat asked", "turn", rotate=(0,)),
        Block("location_belief", ("L",), 0, 1, "P(location) as this seat knows it", "belief"),
        Block("spy_belief", ("n",), 0, 1, "P(seat is the spy) as this seat knows it", "belief", rotate=(0,)),
        Block("location_false_share", ("L",), 0, 1, "per location, the share of the other seats' answers this round "
              "that are false there (0 before any)", "belief"),
    ]
)


def spyfall_layout(config: SpyfallConfig) -> Layout:
    places = config.places
    dims = {"n": config.num_players, "A": len(places.attributes), "L": len(places), "R": places.max_roles,
            "q": config.question_limit, "rounds": config.num_rounds}
    return SCHEMA.layout(dims)


class SpyfallObserver(Observer):
    """Cards, exchanges, accusations, votes and finished rounds are written when they happen, each once; the
    table's blocks after every step; the beliefs when a seat is encoded, if they changed since."""

    def __init__(self, config: SpyfallConfig):
        super().__init__(spyfall_layout(config))
        self.config = config
        self.num_players = config.num_players
        self.beliefs = RoundBeliefs(config.places, config.num_players)
        self._at = self.layout.at
        # runs of blocks adjacent in the schema, each cleared with one assignment
        self._round_blocks = self._span("is_spy", "last_vote")
        self._exchange_blocks = self._span("question", "votes_cast")
        self._decision_blocks = self._span("decision", "to_act")
        self.on = ByKind(
            "SpyfallObserver",
            ev.EVENTS,
            {
                ev.RoundStarted: self._round_started,
                ev.Dealt: self._dealt,
                ev.Asked: self._asked,
                ev.Answered: self._answered,
                ev.Voted: self._voted,
                ev.VoteResult: self._vote_result,
                ev.RoundOver: self._round_over,
                ev.Accused: self._accused,
                ev.TimeUp: self._time_up,
                ev.Passed: None,
                ev.VoteCast: None,
                ev.CardRevealed: None,
                ev.Guessed: None,
                ev.GameOver: None,
            },
        )

    def _span(self, first: str, last: str) -> slice:
        return slice(self.layout.state_fields[first].start, self.layout.state_fields[last].stop)

    def start(self) -> None:
        self.known["round"][1] = self.config.num_rounds
        self._public_shown: tuple | None = None  # round, dealer, scores and accusations used, as last written

    # --- event time -------------------------------------------------------

    def _round_started(self, e) -> None:
        self.state[self._round_blocks] = 0
        self.exchange = 0  # the row of this round's next question
        self.time_up = 0  # the phase of this round's accusations: 0 while the clock runs, 1 once time is up
        self.beliefs.deal(1 - self.known["played"])
        self._stale = [True] * self.num_players  # the belief blocks to recompute before encoding

    def _dealt(self, e) -> None:
        known = self.known
        known["is_spy"][e.seat, 0] = e.location == NOBODY
        if e.location != NOBODY:
            known["location"][e.seat, e.location] = 1
            known["role"][e.seat, e.role] = 1
        self.beliefs.see(e.seat, e.location)

    def _asked(self, e) -> None:
        known, row = self.known, self.exchange
        known["exchange_asker"][row, e.asker] = 1
        known["exchange_target"][row, e.target] = 1
        known["exchange_attribute"][row, e.attribute] = 1

    def _answered(self, e) -> None:
        known = self.known
        answer = 0 if e.yes else 1
        known["exchange_answer"][self.exchange, answer] = 1
        self.exchange += 1
        known["answers"][e.seat, e.attribute, answer] += 1
        self.beliefs.hear(e.seat, e.attribute, e.yes)
        self._stale = [True] * self.num_players

    def _accused(self, e) -> None:
        self.known["accusations"][self.time_up, e.accuser, e.accused] = 1

    def _time_up(self, e) -> None:
        self.time_up = 1

    def _voted(self, e) -> None:
        self.known["my_vote"][e.seat, 0 if e.yes else 1] = 1

    def _vote_result(self, e) -> None:
        known = self.known
        known["my_vote"].fill(0)
        last = known["last_vote"]
        last.fill(0)
        votes = np.array(e.votes)
        last[0, e.accuser] = 1
        last[1, e.accused] = 1
        last[2] = votes == YES
        last[3] = votes == NO
        known["accusation_votes"][self.time_up, e.accuser] = last[2:].T

    def _round_over(self, e) -> None:
        self.beliefs.see_revealed(e.spy, e.location)
        known, r = self.known, e.round
        known["played"][e.location] = 1
        known["round_spy"][r, e.spy] = 1
        known["round_location"][r, e.location] = 1
        if e.convicted != NOBODY:
            known["round_convicted"][r, e.convicted] = 1
            known["round_accuser"][r, e.accuser] = 1
        known["round_points"][r] = e.points
        known["round_result"][r, e.result] = 1
        self._stale = [True] * self.num_players

    # --- after a step, and at encode time -------------------------------------

    def after_update(self) -> None:
        """The table's and the turn's blocks, from the public table."""
        table = self.table
        known = self.known
        state = self.state
        at = self._at
        n = self.num_players
        state[self._exchange_blocks] = 0
        if table.attribute != NOBODY:  # a question waits for its answer
            state[at["question"] + table.asker] = 1
            state[at["question"] + n + table.target] = 1
            state[at["question_attribute"] + table.attribute] = 1
        if table.cannot_ask != NOBODY:
            state[at["cannot_ask"] + table.cannot_ask] = 1
        if table.accuser != NOBODY:  # a vote is in progress
            state[at["accusation"] + table.accuser] = 1
            state[at["accusation"] + n + table.accused] = 1
            for voter in table.voters[: table.votes_cast]:
                state[at["votes_cast"] + voter] = 1
        state[at["clock"]] = self.config.question_limit - table.questions
        state[at["clock"] + 1] = table.time_up
        public = (table.round, table.dealer, tuple(table.scores), tuple(table.accusation_used))
        if public != self._public_shown:  # they change a few times a round: written only then
            known["accusation_used"][:] = table.accusation_used
            known["scores"][:] = table.scores
            state[at["round"]] = table.round + 1
            known["dealer"].fill(0)
            state[at["dealer"] + table.dealer] = 1
            self._public_shown = public
        state[self._decision_blocks] = 0
        if table.to_act != NOBODY:
            state[at["decision"] + table.decision] = 1
            state[at["to_act"] + table.to_act] = 1

    def refresh(self, seat: int) -> None:
        if self._stale[seat]:
            known = self.known
            self.beliefs.write(seat, known["location_belief"][seat], known["spy_belief"][seat],
                               known["location_false_share"][seat])
            self._stale[seat] = False

    def describe(self, seat: int) -> str:
        self.refresh(seat)
        places = self.config.places
        n = self.num_players
        card = self.beliefs.card[seat]
        if card == NOBODY:
            lines = ["  your card: SPY"]
        else:
            location = places.locations[card]
            lines = [f"  your card: {location.name}, {location.roles[int(np.argmax(self.known['role'][seat]))]}"]
        belief = self.known["location_belief"][seat]
        top = [i for i in np.argsort(-belief, kind="stable")[:3] if belief[i] > 0]
        lines.append("  location: " + ", ".join(f"{places.names[i]} {belief[i]:.0%}" for i in top))
        spy = self.known["spy_belief"][seat]
        seats = [(seat + k) % n for k in range(n)]  # from the seat itself, in turn order
        lines.append("  spy: " + ", ".join(
            f"{'you' if s == seat else agent_name(s)} {spy[s]:.0%}" for s in seats if spy[s] > 0
        ))
        return "\n".join(lines)
