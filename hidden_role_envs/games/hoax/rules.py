"""The rules of Hoax: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table (`HoaxTable`)
is what every seat sees; the characters, the ballots of a vote in progress
and the suspicion cards shown to an investigator stay in the engine and
reach seats only as `Event`s addressed to the seats that see them.

What the characters' privileges and immunities do is not written here: the
engine interprets the character sheet (`sheet.py`, read by `privileges.py`).

A claim, a privilege claim or an immunity claim alike, goes through the
same steps: the other players still in, in turn order from the claimant's
left, are asked whether they call Hoax (the holder of the Hoax card is
skipped) until one does; then everyone but the claimant votes in secret,
in the same order, and the ballots are revealed together. A strict majority
of thumbs down checks the claim: true, the claimant wins at once; false, the
claimant takes an impostor token on that character and the claim does
nothing. Otherwise (no call, a tie or a majority of thumbs up) the claim
stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import NamedTuple

import numpy as np

from hidden_role_envs.core.game import Event, Outcome, RulesEngine, new_event
from hidden_role_envs.games.hoax.actions import (
    ACCUSE,
    CALL,
    CLAIM,
    DECISIONS,
    END_TURN,
    HOAX_CALL,
    IMMUNE,
    IMMUNITY,
    INVESTIGATE,
    NO_CALL,
    NO_IMMUNITY,
    PICK,
    PICK_RESOURCE,
    THUMBS_UP,
    TURN,
    VOTE,
    HoaxActions,
)
from hidden_role_envs.games.hoax.cards import (
    NUM_CHARACTERS,
    NUM_RESOURCES,
    RESOURCES,
    SUPPLY_PER_TYPE,
    SUSPICION_CARDS_SHOWN,
)
from hidden_role_envs.games.hoax.privileges import (
    EACH_NEIGHBOUR,
    EACH_OTHER,
    NAMED,
    SWAP,
    TAKE,
    CharacterSheet,
    Effect,
)

NOBODY = -1
SUPPLY = -1  # where a resource comes from or goes to, when it is not a seat
GAME_OVER = -1  # table.decision once the game has ended


@dataclass(frozen=True)
class HoaxConfig:
    num_players: int
    sheet: CharacterSheet


class Claim(NamedTuple):
    """A claim in progress, public: who, which character, and the privilege's choices (absolute seats)."""

    claimant: int
    character: int
    option: int = NOBODY  # NOBODY for an immunity claim
    resource: int = NOBODY  # the named type, if the option names one
    player: int = NOBODY  # the named player, if the option names one


class HoaxTable:
    """The public table: everything here is seen by every seat.

    Plain lists, indexed by seat (then by resource or character): the rules
    read and write single entries, which lists do several times faster than
    NumPy arrays.
    """

    def __init__(self, num_players: int):
        n = num_players
        self.num_players = n
        self.resources = [[0] * NUM_RESOURCES for _ in range(n)]  # per seat: Cash, Evidence, Prestige
        self.supply = [SUPPLY_PER_TYPE] * NUM_RESOURCES
        self.impostor = [[False] * NUM_CHARACTERS for _ in range(n)]  # impostor tokens on each reference sheet
        self.eliminated = [False] * n
        self.hoax_holder = NOBODY  # NOBODY: the Hoax card lies in the centre
        self.active = NOBODY
        self.decision = GAME_OVER
        self.to_act = NOBODY
        self.claimed = False  # the active player has made this turn's claim
        self.accused = False  # the active player has made this turn's accusation
        self.claim: Claim | None = None  # the privilege claim being resolved
        self.immunity: Claim | None = None  # the immunity claim in answer to it
        self.votes = [0] * n  # the last revealed vote: +1 thumbs up, -1 thumbs down, 0 none
        self.turn = 0  # turns completed
        self.winner = NOBODY


def _parse_characters(value, names: tuple[str, ...], num_players: int) -> list[int]:
    items = []
    for item in value:
        if isinstance(item, str) and item in names:
            items.append(names.index(item))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < len(names):
            items.append(int(item))
        else:
            raise ValueError(f"setup characters: {item!r} is neither a character of {names} nor an index")
    if len(items) != num_players or len(set(items)) != num_players:
        raise ValueError(
            f"setup characters must name {num_players} different characters, one per seat; got {list(value)}"
        )
    return items


class InPlay(NamedTuple):
    """The turn order among the seats still in, worked out once for each set of seats out.

    `others_after[seat]`: the other seats still in, in turn order from
    `seat`'s left. `others_in[seat]`: the same as a bit code, bit k-1 set
    when the seat k places to `seat`'s left is in (the key of the turn masks).
    """

    others_after: tuple[tuple[int, ...], ...]
    others_in: tuple[int, ...]

    @classmethod
    def of(cls, out: tuple[bool, ...]) -> InPlay:
        n = len(out)
        return cls(
            tuple(tuple((seat + k) % n for k in range(1, n) if not out[(seat + k) % n]) for seat in range(n)),
            tuple(sum(1 << (k - 1) for k in range(1, n) if not out[(seat + k) % n]) for seat in range(n)),
        )


class Seating:
    """Seat arithmetic for one table size, and the events that name only seats, worked out once and shared by its games.

    Events are immutable, so every game can hand out the same ones: a step
    emits two or three, and building one costs about 0.1 us.
    """

    def __init__(self, num_players: int):
        n = num_players
        self.everyone = everyone = tuple(range(n))
        # all_but[seat]: every other seat
        self.all_but = tuple(tuple(s for s in range(n) if s != seat) for seat in range(n))
        # in_play[tuple(eliminated)]: the turn order among the seats still in, for every set of seats out
        self.in_play = {out: InPlay.of(out) for out in product((False, True), repeat=n)}
        self.nobody_out = self.in_play[(False,) * n]
        self.num_players = n

        def told_everyone(kind: str) -> tuple[Event, ...]:
            """[seat]: `kind`, about that seat, seen by everyone."""
            return tuple(new_event((kind, everyone, (seat,))) for seat in everyone)

        self.first_player = told_everyone("first_player")
        self.turn_started = told_everyone("turn_started")
        self.turn_ended = told_everyone("turn_ended")
        self.hoax_called = told_everyone("hoax_called")
        self.no_hoax = told_everyone("no_hoax")
        self.no_immunity = told_everyone("no_immunity")
        self.immune = told_everyone("immune")
        self.privilege_done = told_everyone("privilege_done")
        self.eliminated = told_everyone("eliminated")
        # dealt[seat][character]: the seat's own card, seen by it alone
        self.dealt = tuple(
            tuple(new_event(("dealt", (seat,), (seat, c))) for c in range(NUM_CHARACTERS)) for seat in everyone
        )
        # ballot[seat][vote]: the voter sees its vote (+1 or -1), the others that it voted
        self.ballot = tuple(
            {
                vote: (
                    new_event(("voted", (seat,), (seat, vote))),
                    new_event(("vote_cast", self.all_but[seat], (seat,))),
                )
                for vote in (1, -1)
            }
            for seat in everyone
        )

    # Never modified after it is built: copies share it and a pickle rebuilds it.
    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (seating, (self.num_players,))


@cache
def seating(num_players: int) -> Seating:
    return Seating(num_players)


class HoaxGame(RulesEngine):
    """One game of Hoax.

    `setup` may fix the deal, for scenarios and tests: `characters` (one per
    seat, by name or index) and `first_player`. Anything not given is drawn
    with `rng`, which also draws the suspicion cards of investigations.
    """

    def __init__(self, config: HoaxConfig, actions: HoaxActions, rng: np.random.Generator, setup: dict | None = None):
        n = config.num_players
        setup = dict(setup or {})
        unknown = set(setup) - {"characters", "first_player"}
        if unknown:
            raise ValueError(f"unknown setup key(s) {sorted(unknown)}; allowed: characters, first_player")
        self.config = config
        self.sheet = config.sheet
        self.num_players = n
        self.actions = actions
        self.rng = rng
        self.seating = seating(n)
        self.everyone = self.seating.everyone
        self.table = HoaxTable(n)

        if "characters" in setup:
            self.characters = _parse_characters(setup["characters"], self.sheet.names, n)
        else:
            self.characters = rng.permutation(NUM_CHARACTERS)[:n].tolist()
        first = setup.get("first_player")
        if first is None:
            first = int(rng.integers(n))
        elif isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 0 <= first < n:
            raise ValueError(f"setup first_player must be a seat from 0 to {n - 1}; got {first!r}")
        self.first_player = int(first)

        self.over = False
        self.result = ""
        self._pickers: list[int] = []  # seats still to make the opening pick
        self._callers: list[int] = []  # seats still to be asked whether they call Hoax
        self._voters: list[int] = []  # seats still to vote
        self._ballots: dict[int, int] = {}  # secret until every vote is cast
        self._effect = 0  # the privilege effect being resolved
        self._pending: list[int] | None = None  # seats the current effect still has to reach
        self._answered: dict[int, bool] = {}  # seat -> immune, for the privilege in progress
        self._rewards: dict[int, float] = {}
        self._out: list[int] = []
        self._in_play = self.seating.nobody_out  # changes when a seat is eliminated
        self._mask = np.zeros(len(actions), dtype=np.int8)
        self._fixed = actions.fixed_masks
        self._current = actions.none_legal

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list[Event]:
        first = self.first_player
        dealt = self.seating.dealt
        events = [dealt[seat][character] for seat, character in enumerate(self.characters)]
        self.table.active = first
        events.append(self.seating.first_player[first])
        self._pickers = [first, *self._in_play.others_after[first]]
        self._ask(PICK, first)
        return events

    def legal_mask(self) -> np.ndarray:
        return self._current

    def illegal_reason(self, action: int) -> str:
        if self.over:
            return "the game is over"
        table = self.table
        decision, verb, args = self.actions.meaning[action]
        if decision != table.decision:
            return f"the decision now is {DECISIONS[table.decision]!r}, asked of player_{table.to_act}"
        actor = table.to_act
        names = self.sheet.names
        if verb == CLAIM:
            character, _, _, offset = args
            if table.claimed:
                return "this turn's claim has been made (one claim per turn)"
            if table.impostor[actor][character]:
                return f"you hold an impostor token on {names[character]} and may never claim it again"
            if offset and table.eliminated[(actor + offset) % self.num_players]:
                return f"the named player +{offset} is out of the game"
        if verb == INVESTIGATE:
            if min(table.resources[actor]) < 1:
                held = ", ".join(f"{k} {r}" for k, r in zip(table.resources[actor], RESOURCES))
                return f"an investigation costs one Cash, one Evidence and one Prestige; you hold {held}"
            return f"player +{args[0]} is out of the game"
        if verb == ACCUSE:
            if table.accused:
                return "this turn's accusation has been made (at most one per turn)"
            return f"player +{args[0]} is out of the game"
        if verb == END_TURN:
            return "the turn cannot end before its claim"
        if verb == IMMUNE:
            privilege = names[table.claim.character]
            if args[0] not in self.sheet.immune_characters(table.claim.character):
                return f"{names[args[0]]} is not immune to the {privilege}'s privilege"
            return f"you hold an impostor token on {names[args[0]]} and may never claim it again"
        return "it is not legal now"

    def apply(self, action: int) -> list[Event]:
        decision, verb, args = self.actions.meaning[action]
        events: list[Event] = []
        table = self.table
        actor = table.to_act
        n = self.num_players
        if verb == PICK_RESOURCE:
            self._move(SUPPLY, actor, args[0], 1, events)
            self._pickers.pop(0)
            if self._pickers:
                self._ask(PICK, self._pickers[0])
            else:
                self._start_turn(self.first_player, events)
        elif verb == CLAIM:
            character, option, resource, offset = args
            table.claimed = True
            table.claim = Claim(
                actor,
                character,
                option,
                NOBODY if resource is None else resource,
                NOBODY if offset is None else (actor + offset) % n,
            )
            self._effect, self._pending, self._answered = 0, None, {}
            events.append(new_event(("claimed", self.everyone, (table.claim,))))
            self._open_calls(actor, events)
        elif verb == INVESTIGATE:
            self._investigate((actor + args[0]) % n, events)
        elif verb == ACCUSE:
            offset, character = args
            self._accuse((actor + offset) % n, character, events)
        elif verb == END_TURN:
            self._end_turn(events)
        elif verb == CALL:
            table.hoax_holder = actor
            events.append(self.seating.hoax_called[actor])
            claimant = self._claim_in_question().claimant
            self._voters = list(self._in_play.others_after[claimant])
            self._ballots = {}
            self._ask(VOTE, self._voters[0])
        elif verb == NO_CALL:
            events.append(self.seating.no_hoax[actor])
            self._callers.pop(0)
            if self._callers:
                self._ask(HOAX_CALL, self._callers[0])
            else:
                self._claim_stands(events)
        elif decision == VOTE:
            vote = 1 if verb == THUMBS_UP else -1
            self._ballots[actor] = vote
            events.extend(self.seating.ballot[actor][vote])
            self._voters.pop(0)
            if self._voters:
                self._ask(VOTE, self._voters[0])
            else:
                self._count_votes(events)
        elif verb == IMMUNE:
            table.immunity = Claim(actor, args[0])
            events.append(new_event(("immunity_claimed", self.everyone, (table.immunity,))))
            self._open_calls(actor, events)
        elif verb == NO_IMMUNITY:
            events.append(self.seating.no_immunity[actor])
            self._answered[actor] = False
            self._resolve(events)
        return events

    def pop_rewards(self) -> dict[int, float]:
        rewards, self._rewards = self._rewards, {}
        return rewards

    def pop_eliminated(self) -> list[int]:
        out, self._out = self._out, []
        return out

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        names = self.sheet.names
        winner = self.table.winner
        rewards = tuple(1.0 if s == winner else -1.0 for s in range(n))
        info = {
            "result": self.result,
            "winners": [f"player_{winner}"],
            "winner": f"player_{winner}",
            "characters": {f"player_{s}": names[self.characters[s]] for s in range(n)},
            "unused_characters": [names[c] for c in range(NUM_CHARACTERS) if c not in self.characters],
            "eliminated": [f"player_{s}" for s in range(n) if self.table.eliminated[s]],
            "turns": self.table.turn,
        }
        per_seat = tuple({"character": names[self.characters[s]], "won": s == winner} for s in range(n))
        return Outcome(winners=(winner,), rewards=rewards, info=info, per_seat_info=per_seat)

    # --- turn order -----------------------------------------------------

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        table = self.table
        table.active = seat
        table.claimed = table.accused = False
        events.append(self.seating.turn_started[seat])
        self._ask(TURN, seat)

    def _end_turn(self, events: list[Event]) -> None:
        table = self.table
        events.append(self.seating.turn_ended[table.active])
        table.turn += 1
        self._start_turn(self._in_play.others_after[table.active][0], events)

    # --- claims, Hoax and the vote --------------------------------------

    def _claim_in_question(self) -> Claim:
        """The claim being called or voted on: an immunity claim if one is pending, else the privilege claim."""
        return self.table.immunity or self.table.claim

    def _open_calls(self, claimant: int, events: list[Event]) -> None:
        holder = self.table.hoax_holder
        self._callers = [s for s in self._in_play.others_after[claimant] if s != holder]
        if self._callers:
            self._ask(HOAX_CALL, self._callers[0])
        else:
            self._claim_stands(events)

    def _count_votes(self, events: list[Event]) -> None:
        votes = [0] * self.num_players
        for seat, vote in self._ballots.items():
            votes[seat] = vote
        self.table.votes = votes
        self._ballots = {}
        events.append(new_event(("votes_revealed", self.everyone, (tuple(votes),))))
        if votes.count(-1) > votes.count(1):
            self._check_claim(events)
        else:
            self._claim_stands(events)

    def _check_claim(self, events: list[Event]) -> None:
        table = self.table
        claim = self._claim_in_question()
        truthful = self.characters[claim.claimant] == claim.character
        events.append(new_event(("claim_checked", self.everyone, (claim.claimant, claim.character, truthful))))
        if truthful:
            name = self.sheet.names[claim.character]
            self._win(claim.claimant, f"player_{claim.claimant} truthfully claimed to be the {name}", events)
            return
        table.impostor[claim.claimant][claim.character] = True
        events.append(new_event(("impostor", self.everyone, (claim.claimant, claim.character))))
        if table.immunity is not None:  # the privilege reaches the false immunity claimant
            table.immunity = None
            self._answered[claim.claimant] = False
            self._resolve(events)
        else:  # the privilege does not happen
            table.claim = None
            self._ask(TURN, table.active)

    def _claim_stands(self, events: list[Event]) -> None:
        table = self.table
        claim = self._claim_in_question()
        events.append(new_event(("claim_stands", self.everyone, (claim.claimant, claim.character))))
        if table.immunity is not None:
            table.immunity = None
            self._answered[claim.claimant] = True
        self._resolve(events)

    # --- privileges -----------------------------------------------------

    def _resolve(self, events: list[Event]) -> None:
        """Carry out the privilege from where it stopped, asking for immunities on the way.

        A player is asked once per privilege, the first time an effect would
        change what they hold; their answer covers the rest of it.
        """
        table = self.table
        claim = table.claim
        effects = self.sheet.characters[claim.character].options[claim.option].effects
        immune_to_it = self.sheet.immune_characters(claim.character)
        while self._effect < len(effects):
            effect = effects[self._effect]
            resource = claim.resource if effect.resource == NAMED else effect.resource
            if not effect.targets_players:
                self._move(SUPPLY, claim.claimant if effect.kind == TAKE else claim.player, resource, 1, events)
                self._effect += 1
                continue
            if self._pending is None:
                self._pending = self._reached_by(effect, claim)
            while self._pending:
                seat = self._pending[0]
                if (
                    seat not in self._answered
                    and self._would_change(effect, claim.claimant, seat, resource)
                    and any(not table.impostor[seat][c] for c in immune_to_it)
                ):
                    self._ask(IMMUNITY, seat)
                    return
                self._pending.pop(0)
                if self._answered.get(seat):
                    events.append(self.seating.immune[seat])
                elif effect.kind == SWAP:
                    self._swap(claim.claimant, seat, resource, events)
                else:
                    self._move(seat, claim.claimant, resource, 1, events)
            self._pending = None
            self._effect += 1
        events.append(self.seating.privilege_done[claim.claimant])
        table.claim = None
        self._ask(TURN, table.active)

    def _reached_by(self, effect: Effect, claim: Claim) -> list[int]:
        """The seats an effect takes from or swaps with, in turn order."""
        others = self._in_play.others_after[claim.claimant]
        if effect.whom == EACH_OTHER:
            return list(others)
        if effect.whom == EACH_NEIGHBOUR:
            left, right = others[0], others[-1]
            return [left] if left == right else [left, right]
        return [claim.player]

    def _would_change(self, effect: Effect, claimant: int, seat: int, resource: int) -> bool:
        resources = self.table.resources
        if effect.kind == SWAP:
            return resources[claimant][resource] != resources[seat][resource]
        return resources[seat][resource] > 0

    def _move(self, giver: int, taker: int, resource: int, count: int, events: list[Event]) -> None:
        """Up to `count` tokens of `resource` from `giver` to `taker` (seats or SUPPLY); only what there is."""
        table = self.table
        source = table.supply if giver == SUPPLY else table.resources[giver]
        count = min(count, source[resource])
        if count == 0:
            events.append(new_event(("nothing_to_take", self.everyone, (giver, taker, resource))))
            return
        source[resource] -= count
        if taker == SUPPLY:
            table.supply[resource] += count
        else:
            table.resources[taker][resource] += count
        events.append(new_event(("moved", self.everyone, (giver, taker, resource, count))))

    def _swap(self, a: int, b: int, resource: int, events: list[Event]) -> None:
        resources = self.table.resources
        resources[a][resource], resources[b][resource] = resources[b][resource], resources[a][resource]
        events.append(new_event(("swapped", self.everyone, (a, b, resource))))

    # --- investigations and accusations -------------------------------

    def _investigate(self, target: int, events: list[Event]) -> None:
        investigator = self.table.active
        for resource in range(NUM_RESOURCES):
            self._move(investigator, SUPPLY, resource, 1, events)
        own = self.characters[target]
        others = [c for c in range(NUM_CHARACTERS) if c != own]
        drawn = self.rng.choice(len(others), SUSPICION_CARDS_SHOWN - 1, replace=False)
        shown = tuple(sorted([own] + [others[i] for i in drawn]))
        events.append(new_event(("investigated", self.everyone, (investigator, target))))
        events.append(new_event(("shown", (investigator,), (investigator, target, shown))))
        self._ask(TURN, investigator)

    def _accuse(self, target: int, character: int, events: list[Event]) -> None:
        table = self.table
        accuser = table.active
        table.accused = True
        right = self.characters[target] == character
        events.append(new_event(("accused", self.everyone, (accuser, target, character, right))))
        if right:  # the target is out; their resources go to the accuser, their impostor tokens stay
            for resource, count in enumerate(list(table.resources[target])):
                if count:
                    self._move(target, accuser, resource, count, events)
            self._eliminate(target, events)
            if self._in_play.others_after[accuser]:
                self._ask(TURN, accuser)
            else:
                self._win(accuser, f"player_{accuser} is the last player left", events)
        else:  # the accuser is out; their resources and impostor tokens go back to the supply
            for resource, count in enumerate(list(table.resources[accuser])):
                if count:
                    self._move(accuser, SUPPLY, resource, count, events)
            table.impostor[accuser] = [False] * NUM_CHARACTERS
            self._eliminate(accuser, events)
            still_in = self._in_play.others_after[accuser]  # everyone still in, the accuser being out
            if len(still_in) == 1:
                self._win(still_in[0], f"player_{still_in[0]} is the last player left", events)
            else:
                self._end_turn(events)

    def _eliminate(self, seat: int, events: list[Event]) -> None:
        table = self.table
        table.eliminated[seat] = True
        self._in_play = self.seating.in_play[tuple(table.eliminated)]
        if table.hoax_holder == seat:  # RULING: the Hoax card goes back to the centre
            table.hoax_holder = NOBODY
        self._rewards[seat] = -1.0
        self._out.append(seat)
        events.append(self.seating.eliminated[seat])

    def _win(self, seat: int, result: str, events: list[Event]) -> None:
        table = self.table
        self.over = True
        self.result = result
        table.winner = seat
        table.decision = GAME_OVER
        table.to_act = NOBODY
        table.claim = table.immunity = None
        self._current = self.actions.none_legal
        events.append(new_event(("game_over", self.everyone, (seat, result))))

    # --- masks ----------------------------------------------------------

    def _ask(self, decision: int, seat: int) -> None:
        table = self.table
        table.decision = decision
        table.to_act = seat
        if decision == TURN:
            self._current = self._turn_mask(seat)
        elif decision == IMMUNITY:
            self._current = self._immunity_mask(seat)
        else:  # a pick, a Hoax call or a vote: always the same actions
            self._current = self._fixed[decision]

    def _turn_mask(self, seat: int) -> np.ndarray:
        """One of the action table's turn masks, less the claims the seat's impostor tokens forbid."""
        table = self.table
        can_pay = 0 not in table.resources[seat]
        mask = self.actions.turn_masks[table.claimed, table.accused, can_pay, self._in_play.others_in[seat]]
        tokens = table.impostor[seat]
        if table.claimed or True not in tokens:
            return mask
        return np.bitwise_and(mask, self.actions.claimable[tuple(tokens)], out=self._mask)

    def _immunity_mask(self, seat: int) -> np.ndarray:
        """The immunities to the claimed privilege that the seat holds no impostor token on, and no immunity."""
        table = self.table
        mask = self._mask
        mask[:] = 0
        for character in self.sheet.immune_characters(table.claim.character):
            if not table.impostor[seat][character]:
                mask[self.actions.immune_ids[character]] = 1
        mask[self.actions.no_immunity] = 1
        return mask
