"""What a Hoax seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine (the characters, the ballots of a vote in
progress, the suspicion cards shown to others) is never read here, so an
observation cannot depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from hidden_role_envs.core.events import ByKind
from hidden_role_envs.core.observation import Block, Observer, Schema
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.hoax import events as ev
from hidden_role_envs.games.hoax.actions import DECISIONS
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, NUM_RESOURCES, RESOURCES, SUPPLY, SUPPLY_PER_TYPE
from hidden_role_envs.games.hoax.config import DEFAULT_MAX_TURNS, HoaxConfig
from hidden_role_envs.games.hoax.knowledge import CharacterBeliefs

R, M = NUM_RESOURCES, NUM_CHARACTERS
CAP = 100  # the record's counts are clipped here (the turn number at the default turn limit): fixed bounds
SCHEMA = Schema(
    [
        Block("resources", ("n", R), 0, SUPPLY_PER_TYPE, "each seat's resource tokens", rotate=(0,)),
        Block("supply", (R,), 0, SUPPLY_PER_TYPE, "tokens left in the supply"),
        Block("impostor", ("n", M), 0, 1, "impostor tokens: the characters each seat may no longer claim",
              rotate=(0,)),
        Block("eliminated", ("n",), 0, 1, "seats out of the game", rotate=(0,)),
        Block("hoax_holder", ("n+1",), 0, 1, "one-hot: who holds the Hoax card; the last entry means the centre",
              rotate=(0,)),
        Block("active_player", ("n",), 0, 1, "one-hot: whose turn it is", "turn", rotate=(0,)),
        Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision asked (pick, turn, call Hoax, vote, "
              "immunity)", "turn"),
        Block("to_act", ("n",), 0, 1, "one-hot: the seat asked", "turn", rotate=(0,)),
        Block("turn_progress", (2,), 0, 1, "this turn's claim made; this turn's accusation made", "turn"),
        Block("claimant", ("n",), 0, 1, "one-hot: who made the privilege claim being resolved", "turn", rotate=(0,)),
        Block("claim_character", (M,), 0, 1, "one-hot: the character claimed", "turn"),
        Block("claim_option", ("options",), 0, 1, "one-hot: the privilege option chosen (3 with the house sheet)",
              "turn"),
        Block("claim_type", (R,), 0, 1, "one-hot: the resource type named with the claim", "turn"),
        Block("claim_player", ("n",), 0, 1, "one-hot: the player named with the claim", "turn", rotate=(0,)),
        Block("immunity_claimant", ("n",), 0, 1, "one-hot: who answers the privilege with an immunity claim", "turn",
              rotate=(0,)),
        Block("immunity_character", (M,), 0, 1, "one-hot: the character of that immunity claim", "turn"),
        Block("votes", ("n", 2), 0, 1, "each seat's ballot in the last vote (thumbs up, thumbs down), from its reveal "
              "until the next Hoax call; a vote in progress shows nothing", "record", rotate=(0,)),
        Block("turn", (1,), 0, DEFAULT_MAX_TURNS, "turns completed (clipped at 1000; the counts below at 100)",
              "record"),
        Block("claims", ("n", M, 3), 0, CAP, "each seat's claims by character: privilege claims, immunity claims, "
              "claims a vote showed false", "record", rotate=(0,)),
        Block("hoax_calls", ("n", "n"), 0, CAP, "Hoax calls by each seat (row) on each claimant (column)", "record",
              rotate=(0, 1)),
        Block("ballots", ("n", "n", 2), 0, CAP, "each seat's revealed ballots (row) on each claimant's claims "
              "(column): thumbs up, thumbs down", "record", rotate=(0, 1)),
        Block("ballots_by_character", ("n", M, 2), 0, CAP, "each seat's revealed ballots by the character claimed: "
              "thumbs up, thumbs down", "record", rotate=(0,)),
        Block("investigations", ("n", "n"), 0, CAP, "investigations by each seat (row) of each seat (column)",
              "record", rotate=(0, 1)),
        Block("accusations", ("n", "n", 2), 0, 1, "accusations by each seat (row) of each seat (column): right, "
              "wrong (the character named stays between the two)", "record", rotate=(0, 1)),
        Block("character", (M,), 0, 1, "one-hot: this seat's own character", "own"),
        Block("cards_seen", ("n", M), 0, CAP, "the suspicion cards this seat was shown investigating each seat "
              "(row), counted by character", "own", rotate=(0,)),
        Block("cards_shown", ("n", M), 0, CAP, "the suspicion cards this seat passed to each investigator (row), "
              "counted by character: what that seat has seen of it", "own", rotate=(0,)),
        Block("accused_as", ("n", M, 2), 0, 1, "the character on the suspicion card of an accusation between this "
              "seat and the seat of the row: passed by this seat, passed to it", "own", rotate=(0,)),
        Block("knowledge", ("n", M), 0, 1, "this seat's probability that each seat holds each character", "belief",
              rotate=(0,)),
    ]
)
# The turn's blocks, declared one after the other, so they lie together in the state: cleared with one assignment.
FIRST_TURN_BLOCK, LAST_TURN_BLOCK = "active_player", "immunity_character"


def hoax_layout(config: HoaxConfig):
    return SCHEMA.layout(config.dims)


class HoaxObserver(Observer):
    """Resources, impostor tokens, seats out, the Hoax card, the votes and the record are written when an event
    changes them; the turn's blocks and the turn number after every step; a seat's `knowledge` when it is
    encoded, if what it knows changed."""

    def __init__(self, config: HoaxConfig):
        super().__init__(hoax_layout(config))
        self.config = config
        self.num_players = config.num_players
        self.sheet = config.sheet
        self._at = at = self.layout.at
        self._turn = slice(at[FIRST_TURN_BLOCK], self.layout.state_fields[LAST_TURN_BLOCK].stop)
        self.on = ByKind(
            "HoaxObserver",
            ev.EVENTS,
            {
                ev.Dealt: self._dealt,
                ev.Moved: self._moved,
                ev.Swapped: self._swapped,
                ev.Shown: self._shown,
                ev.Impostor: self._impostor,
                ev.AccusedAs: self._accused_as,
                ev.Accused: self._accused,
                ev.ClaimChecked: self._claim_checked,
                ev.VotesRevealed: self._votes_revealed,
                ev.HoaxCalled: self._hoax_called,
                ev.Eliminated: self._eliminated,
                ev.Claimed: self._claimed,
                ev.ImmunityClaimed: self._immunity_claimed,
                ev.Investigated: self._investigated,
                ev.FirstPlayer: None,
                ev.TurnStarted: None,
                ev.TurnEnded: self._turn_ended,
                ev.NoHoax: None,
                ev.Voted: None,
                ev.VoteCast: None,
                ev.ClaimStands: None,
                ev.NoImmunity: None,
                ev.Immune: None,
                ev.PrivilegeDone: None,
                ev.NothingToTake: None,
                ev.GameOver: None,
            },
        )

    def start(self) -> None:
        n = self.num_players
        self.beliefs = CharacterBeliefs(n, NUM_CHARACTERS, n)
        self.own = [NOBODY] * n
        self._knowledge_changed = [True] * n
        self._investigations_shown = self._votes_revealed_count = 0
        self.known["supply"][:] = SUPPLY_PER_TYPE
        self.known["hoax_holder"][n] = 1  # in the centre

    # --- event time -------------------------------------------------------

    def _dealt(self, e) -> None:
        self.own[e.seat] = e.character
        self.known["character"][e.seat, e.character] = 1
        self._see(e.seen_by, e.seat, e.character)

    def _moved(self, e) -> None:
        self._holding_changed(e.giver, e.resource)
        self._holding_changed(e.taker, e.resource)

    def _swapped(self, e) -> None:
        self._holding_changed(e.claimant, e.resource)
        self._holding_changed(e.other, e.resource)

    def _holding_changed(self, holder: int, resource: int) -> None:
        if holder == SUPPLY:
            self.known["supply"][resource] = self.table.supply[resource]
        else:
            self.known["resources"][holder, resource] = self.table.resources[holder][resource]

    def _turn_ended(self, e) -> None:
        self.known["turn"][0] = min(self.table.turn, DEFAULT_MAX_TURNS)

    def _claimed(self, e) -> None:
        self._count(self.known["claims"], e.claimant, e.character, 0)

    def _immunity_claimed(self, e) -> None:
        self._count(self.known["claims"], e.claimant, e.character, 1)

    def _investigated(self, e) -> None:
        self._count(self.known["investigations"], e.investigator, e.target)

    def _shown(self, e) -> None:
        """The investigator sees the four cards, and so does the target, who drew them (and learns nothing of
        the deal from them: it knows its own card)."""
        investigator = (e.investigator,)
        self.beliefs.see_one_of(investigator, e.target, e.cards)
        self._knowledge_changed_for(investigator)
        cards = list(e.cards)
        seen = self.known["cards_seen"][e.investigator, e.target]
        shown = self.known["cards_shown"][e.target, e.investigator]
        self._investigations_shown += 1
        for counts in (seen, shown):
            counts[cards] += 1
            if self._investigations_shown > CAP:  # before that no count can pass CAP
                np.minimum(counts, CAP, out=counts)

    def _impostor(self, e) -> None:
        self.known["impostor"][e.seat, e.character] = 1
        self._count(self.known["claims"], e.seat, e.character, 2)
        self.beliefs.see_not(e.seen_by, e.seat, e.character)
        self._knowledge_changed_for(e.seen_by)

    def _accused_as(self, e) -> None:
        """The character on the suspicion card: only the accuser and the target know it (and only the accuser
        learns from the answer: the target knows its own card)."""
        self.known["accused_as"][e.accuser, e.target, e.character, 0] = 1
        self.known["accused_as"][e.target, e.accuser, e.character, 1] = 1
        accuser = (e.accuser,)
        if e.right:
            self._see(accuser, e.target, e.character)
        else:
            self.beliefs.see_not(accuser, e.target, e.character)
            self._knowledge_changed_for(accuser)

    def _accused(self, e) -> None:
        self.known["accusations"][e.accuser, e.target, 0 if e.right else 1] = 1

    def _claim_checked(self, e) -> None:
        if e.truthful:
            self._see(e.seen_by, e.seat, e.character)

    def _hoax_called(self, e) -> None:
        self._count(self.known["hoax_calls"], e.seat, e.claimant)
        self.known["votes"][:] = 0  # the last vote's ballots are not this vote's
        self._holder_changed(e)

    def _votes_revealed(self, e) -> None:
        ballots = _ballots(e.votes)
        self.known["votes"][:] = ballots
        self._votes_revealed_count += 1
        for counts in (self.known["ballots"][:, e.claimant], self.known["ballots_by_character"][:, e.character]):
            counts += ballots
            if self._votes_revealed_count > CAP:  # before that no count can pass CAP
                np.minimum(counts, CAP, out=counts)

    @staticmethod
    def _count(counts, *index) -> None:
        if counts[index] < CAP:
            counts[index] += 1

    def _holder_changed(self, e) -> None:
        holder = self.known["hoax_holder"]
        holder[:] = 0
        holder[self.num_players if self.table.hoax_holder == NOBODY else self.table.hoax_holder] = 1

    def _eliminated(self, e) -> None:
        self.known["eliminated"][e.seat] = 1
        self.known["impostor"][e.seat] = self.table.impostor[e.seat]  # a wrong accuser's go back to the supply
        self._holder_changed(e)  # an eliminated holder's Hoax card goes back to the centre

    def _see(self, seats, seat: int, character: int) -> None:
        self.beliefs.see(seats, seat, character)
        self._knowledge_changed_for(seats)

    def _knowledge_changed_for(self, seats) -> None:
        for s in seats:
            self._knowledge_changed[s] = True

    # --- after a step, and at encode time -------------------------------------

    def after_update(self) -> None:
        """The turn's blocks, from the public table."""
        table = self.table
        at = self._at
        state = self.state
        state[self._turn] = 0
        if table.to_act != NOBODY:  # the game is on
            state[at["active_player"] + table.active] = 1
            state[at["decision"] + table.decision] = 1
            state[at["to_act"] + table.to_act] = 1
        state[at["turn_progress"]] = table.claimed
        state[at["turn_progress"] + 1] = table.accused
        claim = table.claim
        if claim is not None:
            state[at["claimant"] + claim.claimant] = 1
            state[at["claim_character"] + claim.character] = 1
            state[at["claim_option"] + claim.option] = 1
            if claim.resource != NOBODY:
                state[at["claim_type"] + claim.resource] = 1
            if claim.player != NOBODY:
                state[at["claim_player"] + claim.player] = 1
            immunity = table.immunity
            if immunity is not None:
                state[at["immunity_claimant"] + immunity.claimant] = 1
                state[at["immunity_character"] + immunity.character] = 1

    def refresh(self, seat: int) -> None:
        if self._knowledge_changed[seat]:
            self.known["knowledge"][seat] = self.beliefs.marginals(seat)
            self._knowledge_changed[seat] = False

    def describe(self, seat: int) -> str:
        names = self.sheet.names
        lines = [f"  you are the {names[self.own[seat]]}"]
        marginals = self.beliefs.marginals(seat)
        for other in range(self.num_players):
            if other == seat:
                continue
            probs = marginals[other]
            ranked = sorted(range(NUM_CHARACTERS), key=lambda c: -probs[c])
            if probs[ranked[0]] > 0.999:
                text = names[ranked[0]]
            else:
                text = ", ".join(f"{names[c]} {probs[c]:.0%}" for c in ranked if probs[c] > 0)
            lines.append(f"  {agent_name(other)}: {text}")
        held = self.table.resources[seat]
        lines.append("  you hold " + ", ".join(f"{int(k)} {r}" for k, r in zip(held, RESOURCES)))
        for other in range(self.num_players):
            shown = self.known["cards_shown"][seat, other]
            if shown.any():
                cards = ", ".join(f"{names[c]} x{int(shown[c])}" for c in np.flatnonzero(shown))
                lines.append(f"  {agent_name(other)} has seen your suspicion cards {cards}")
            for direction, text in ((0, "you accused {} of being the {}"), (1, "{} accused you of being the {}")):
                for c in np.flatnonzero(self.known["accused_as"][seat, other, :, direction]):
                    lines.append("  " + text.format(agent_name(other), names[c]))
        return "\n".join(lines)


@lru_cache(maxsize=4096)
def _ballots(votes: tuple[int, ...]) -> np.ndarray:
    """(seat, thumbs up / thumbs down) of a vote revealed, built once per pattern of ballots (read-only)."""
    votes = np.asarray(votes)
    ballots = np.stack([votes > 0, votes < 0], axis=1).astype(np.float32)
    ballots.flags.writeable = False
    return ballots
