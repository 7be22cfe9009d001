"""The rules of Hoax: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table (`HoaxTable`)
is what every seat sees; the characters, the ballots of a vote in progress
and the suspicion cards shown to an investigator stay in the engine and
reach seats only as events addressed to the seats that see them.

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

from collections import deque
from itertools import product
from typing import NamedTuple

import numpy as np

from hidden_role_envs.core.checks import check_sequence, index_of
from hidden_role_envs.core.engine import Outcome, PerSeat, RulesEngine, SeatList, SeatRef, SeatText
from hidden_role_envs.core.seats import NOBODY, agent_name, seating
from hidden_role_envs.core.setup import Setup
from hidden_role_envs.core.shared import Shared
from hidden_role_envs.games.hoax.actions import (
    ACCUSE,
    CALL,
    CAST_VOTE,
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
    TURN,
    VOTE,
    HoaxActions,
)
from hidden_role_envs.games.hoax.cards import (
    NUM_CHARACTERS,
    NUM_RESOURCES,
    RESOURCES,
    SUPPLY,
    SUPPLY_PER_TYPE,
    SUSPICION_CARDS_SHOWN,
)
from hidden_role_envs.games.hoax.config import HoaxConfig
from hidden_role_envs.games.hoax.events import (
    Accused,
    AccusedAs,
    ClaimChecked,
    Claimed,
    ClaimStands,
    Dealt,
    Eliminated,
    FirstPlayer,
    GameOver,
    HoaxCalled,
    Immune,
    ImmunityClaimed,
    Impostor,
    Investigated,
    Moved,
    NoHoax,
    NoImmunity,
    NothingToTake,
    PrivilegeDone,
    Shown,
    Swapped,
    TurnEnded,
    TurnStarted,
    VoteCast,
    Voted,
    VotesRevealed,
    result_template,
)
from hidden_role_envs.games.hoax.privileges import EACH_NEIGHBOUR, EACH_OTHER, NAMED, SWAP, TAKE, Effect

GAME_OVER = -1  # table.decision once the game has ended

# The kinds of action that answer each decision.
KINDS_OF_DECISION = {
    PICK: (PICK_RESOURCE,),
    TURN: (CLAIM, INVESTIGATE, ACCUSE, END_TURN),
    HOAX_CALL: (CALL, NO_CALL),
    VOTE: (CAST_VOTE,),
    IMMUNITY: (IMMUNE, NO_IMMUNITY),
}


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
        self.claim: Claimed | None = None  # the privilege claim being resolved, as it was announced
        self.immunity: ImmunityClaimed | None = None  # the immunity claim in answer to it
        self.votes = [0] * n  # the last revealed vote until the next call: +1 thumbs up, -1 thumbs down, 0 none
        self.turn = 0  # turns completed
        self.winner = NOBODY


class InPlay(NamedTuple):
    """The turn order among the seats still in, for one set of seats out.

    `others_after[seat]`: the other seats still in, in turn order from
    `seat`'s left. `others_in[seat]`: the same as a bit code, bit k-1 set
    when the seat k places to `seat`'s left is in (the key of the turn masks).
    """

    others_after: tuple[tuple[int, ...], ...]
    others_in: tuple[int, ...]

    @classmethod
    def of(cls, out: tuple[bool, ...]) -> InPlay:
        after = seating(len(out)).after
        return cls(
            tuple(tuple(s for s in after[seat] if not out[s]) for seat in range(len(out))),
            tuple(sum(1 << k for k, s in enumerate(after[seat]) if not out[s]) for seat in range(len(out))),
        )


class TurnOrders(Shared):
    """`TurnOrders.of(n).in_play[tuple(eliminated)]`: the turn order for every set of seats out, worked out once."""

    def __init__(self, num_players: int):
        self.in_play = {out: InPlay.of(out) for out in product((False, True), repeat=num_players)}
        self.nobody_out = self.in_play[(False,) * num_players]


class CommonEvents(Shared):
    """The events that name only seats (and a character or vote), built once per table size and shared.

    Events are immutable, so every game can hand out the same ones: a step
    emits two or three, and building one costs a fraction of a microsecond.
    """

    def __init__(self, num_players: int):
        seats = seating(num_players)
        everyone = seats.everyone

        def told_everyone(kind: type) -> tuple:
            """[seat]: `kind`, about that seat, seen by everyone."""
            return tuple(kind(everyone, seat) for seat in everyone)

        self.first_player = told_everyone(FirstPlayer)
        self.turn_started = told_everyone(TurnStarted)
        self.turn_ended = told_everyone(TurnEnded)
        # hoax_called[seat][claimant]
        self.hoax_called = tuple(tuple(HoaxCalled(everyone, seat, c) for c in everyone) for seat in everyone)
        self.no_hoax = told_everyone(NoHoax)
        self.no_immunity = told_everyone(NoImmunity)
        self.immune = told_everyone(Immune)
        self.privilege_done = told_everyone(PrivilegeDone)
        self.eliminated = told_everyone(Eliminated)
        # dealt[seat][character]: the seat's own card, seen by it alone
        self.dealt = tuple(tuple(Dealt((seat,), seat, c) for c in range(NUM_CHARACTERS)) for seat in everyone)
        # ballot[seat][vote]: the voter sees its vote (+1 or -1), the others that it voted
        self.ballot = tuple(
            {vote: (Voted((seat,), seat, vote), VoteCast(seats.others[seat], seat)) for vote in (1, -1)}
            for seat in everyone
        )


class LegalMasks(Shared):
    """The masks a game of one configuration hands out, built once, shared and read-only.

    What a turn allows depends only on whether the claim and the accusation
    are made, whether the actor can pay for an investigation, which other
    seats are still in and the actor's impostor tokens: `turn[claimed,
    accused, can_pay, others_in]` is the mask of an actor without impostor
    tokens, and `claimable[tokens]` (keyed by the actor's impostor tokens, a
    tuple of bools by character) clears the claims those tokens forbid.
    Immunity answers depend on the claim, and are built when asked.
    """

    def __init__(self, config: HoaxConfig):
        actions = HoaxActions.of(config.num_players, config.sheet)
        self.actions = actions
        self.none = actions.mask()
        self.fixed = {d: actions.mask_of_kinds(*KINDS_OF_DECISION[d]) for d in (PICK, HOAX_CALL, VOTE)}
        self.turn = {
            (claimed, accused, can_pay, others_in): self._turn(claimed, accused, can_pay, others_in)
            for claimed, accused, can_pay in product((False, True), repeat=3)
            for others_in in range(2 ** (config.num_players - 1))
        }
        claims = actions.of_kind[CLAIM]
        self.claimable = {
            tokens: actions.mask([a for a in range(len(actions)) if a not in claims or not tokens[actions.args[a][0]]])
            for tokens in product((False, True), repeat=NUM_CHARACTERS)
        }
        self.immune_ids = actions.of_kind[IMMUNE]  # by character
        self.no_immunity = actions.id_of(NO_IMMUNITY)

    def _turn(self, claimed: bool, accused: bool, can_pay: bool, others_in: int) -> np.ndarray:
        actions = self.actions

        def named_in(offset) -> bool:  # a seat named by its offset is still in (no offset: names nobody)
            return not offset or bool(others_in >> (offset - 1) & 1)

        ids = [] if claimed else [a for a in actions.of_kind[CLAIM] if named_in(actions.args[a][3])]
        if can_pay:
            ids += [a for a in actions.of_kind[INVESTIGATE] if named_in(actions.args[a])]
        if not accused:
            ids += [a for a in actions.of_kind[ACCUSE] if named_in(actions.args[a][0])]
        if claimed:
            ids += actions.of_kind[END_TURN]
        return actions.mask(ids)


class HoaxGame(RulesEngine):
    """One game of Hoax.

    `setup` may fix every chance outcome, for scenarios, tests and the
    batched twin: `characters` (one per seat, by name or index),
    `first_player`, and `suspicion_decks`, the order of the suspicion deck at
    each investigation in turn (the target takes out its own card, then the
    first three of the rest). Anything not given is drawn with `rng`: the
    deal, then the first player, then a shuffled deck at each investigation
    past those given. The whole setup is read and checked before anything
    is drawn.
    """

    def __init__(self, config: HoaxConfig, rng: np.random.Generator, setup: dict | None = None):
        n = config.num_players
        setup = Setup(setup, ("characters", "first_player", "suspicion_decks"))
        characters = self._checked_characters(setup.items("characters", config.sheet.names), n, config.sheet.names)
        first = setup.seat("first_player", n)
        self.suspicion_decks = deque(self._checked_decks(setup.sequence("suspicion_decks"), config.sheet.names))
        self.config = config
        self.sheet = config.sheet
        self.num_players = n
        self.actions = HoaxActions.of(n, config.sheet)
        self.masks = LegalMasks.of(config)
        self.events = CommonEvents.of(n)
        self.orders = TurnOrders.of(n)
        self.everyone = seating(n).everyone
        self.rng = rng
        self.table = HoaxTable(n)
        self.characters = rng.permutation(NUM_CHARACTERS)[:n].tolist() if characters is None else characters
        self.first_player = int(rng.integers(n)) if first is None else first

        self.over = False
        self._won_as = NOBODY  # the character of the true claim that won, NOBODY: won by being the last left
        self._pickers: list[int] = []  # seats still to make the opening pick
        self._callers: list[int] = []  # seats still to be asked whether they call Hoax
        self._voters: list[int] = []  # seats still to vote
        self._ballots: dict[int, int] = {}  # secret until every vote is cast
        self._effect = 0  # the privilege effect being resolved
        self._pending: list[int] | None = None  # seats the current effect still has to reach
        self._answered: dict[int, bool] = {}  # seat -> immune, for the privilege in progress
        self._rewards: dict[int, float] = {}
        self._out: list[int] = []
        self._in_play = self.orders.nobody_out  # changes when a seat is eliminated
        self._mask = np.zeros(len(self.actions), dtype=np.int8)  # this game's own, for the masks built when asked
        self._current = self.masks.none

    @staticmethod
    def _checked_characters(characters: list[int] | None, n: int, names: tuple[str, ...]) -> list[int] | None:
        if characters is not None and (len(characters) != n or len(set(characters)) != n):
            named = [names[c] for c in characters]
            raise ValueError(f"setup characters must name {n} different characters, one per seat; got {named}")
        return characters

    @staticmethod
    def _checked_decks(decks: list | None, names: tuple[str, ...]) -> list[list[int]]:
        """Each deck the 7 suspicion cards in some order, top first, by name or index."""
        checked = []
        for i, deck in enumerate(decks or ()):
            entry = f"setup suspicion_decks[{i}]"
            cards = [index_of(entry, card, names) for card in check_sequence(entry, deck, length=NUM_CHARACTERS)]
            if len(set(cards)) != NUM_CHARACTERS:
                raise ValueError(f"{entry} must hold each of the {NUM_CHARACTERS} suspicion cards once; got {deck!r}")
            checked.append(cards)
        return checked

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list:
        first = self.first_player
        dealt = self.events.dealt
        events = [dealt[seat][character] for seat, character in enumerate(self.characters)]
        self.table.active = first
        events.append(self.events.first_player[first])
        self._pickers = [first, *self._in_play.others_after[first]]
        self._ask(PICK, first)
        return events

    def legal_mask(self) -> np.ndarray:
        return self._current

    def illegal_reason(self, action: int) -> str:
        if self.over:
            return "the game is over"
        table = self.table
        kind, args = self.actions.meaning[action]
        if kind not in KINDS_OF_DECISION[table.decision]:
            return f"the decision now is {DECISIONS[table.decision]!r}, asked of {agent_name(table.to_act)}"
        actor = table.to_act
        names = self.sheet.names
        if kind == CLAIM:
            character, _, _, offset = args
            if table.claimed:
                return "this turn's claim has been made (one claim per turn)"
            if table.impostor[actor][character]:
                return f"you hold an impostor token on {names[character]} and may never claim it again"
            if offset and table.eliminated[(actor + offset) % self.num_players]:
                return f"the named player +{offset} is out of the game"
        if kind == INVESTIGATE:
            if min(table.resources[actor]) < 1:
                held = ", ".join(f"{k} {r}" for k, r in zip(table.resources[actor], RESOURCES))
                return f"an investigation costs one Cash, one Evidence and one Prestige; you hold {held}"
            return f"player +{args} is out of the game"
        if kind == ACCUSE:
            if table.accused:
                return "this turn's accusation has been made (at most one per turn)"
            return f"player +{args[0]} is out of the game"
        if kind == END_TURN:
            return "the turn cannot end before its claim"
        if kind == IMMUNE:
            privilege = names[table.claim.character]
            if args not in self.sheet.immune_characters(table.claim.character):
                return f"{names[args]} is not immune to the {privilege}'s privilege"
            return f"you hold an impostor token on {names[args]} and may never claim it again"
        return "it is not legal now"

    def pop_rewards(self) -> dict[int, float]:
        rewards, self._rewards = self._rewards, {}
        return rewards

    def pop_eliminated(self) -> list[int]:
        out, self._out = self._out, []
        return out

    def reveal(self) -> Outcome:
        """Every character turned face up (the rulebook's end), the unused ones, who is out and the turns played."""
        n = self.num_players
        names = self.sheet.names
        characters = PerSeat(names[c] for c in self.characters)
        info = {
            "characters": characters,
            "unused_characters": [names[c] for c in range(NUM_CHARACTERS) if c not in self.characters],
            "eliminated": SeatList(s for s in range(n) if self.table.eliminated[s]),
            "turns": self.table.turn,
        }
        return Outcome(winners=(), rewards=(0.0,) * n, info=info, own={"character": characters})

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        winner = self.table.winner
        revealed = self.reveal()
        info = {
            "result": SeatText(result_template(self.sheet.names, self._won_as), (winner,)),
            "winners": SeatList((winner,)),
            "winner": SeatRef(winner),
            **revealed.info,
        }
        own = {**revealed.own, "won": PerSeat(s == winner for s in range(n))}
        rewards = tuple(1.0 if s == winner else -1.0 for s in range(n))
        return Outcome(winners=(winner,), rewards=rewards, info=info, own=own)

    # --- the actions, one method per kind -------------------------------

    def _pick(self, actor: int, resource: int, events: list) -> None:
        self._move(SUPPLY, actor, resource, 1, events)
        self._pickers.pop(0)
        if self._pickers:
            self._ask(PICK, self._pickers[0])
        else:
            self._start_turn(self.first_player, events)

    def _claim(self, actor: int, args: tuple, events: list) -> None:
        character, option, resource, offset = args
        table = self.table
        table.claimed = True
        player = NOBODY if offset is None else (actor + offset) % self.num_players
        table.claim = Claimed(self.everyone, actor, character, option, NOBODY if resource is None else resource, player)
        self._effect, self._pending, self._answered = 0, None, {}
        events.append(table.claim)
        self._open_calls(actor, events)

    def _investigate(self, actor: int, offset: int, events: list) -> None:
        target = (actor + offset) % self.num_players
        for resource in range(NUM_RESOURCES):
            self._move(actor, SUPPLY, resource, 1, events)
        own = self.characters[target]
        decks = self.suspicion_decks
        deck = decks.popleft() if decks else self.rng.permutation(NUM_CHARACTERS).tolist()
        drawn = [c for c in deck if c != own][: SUSPICION_CARDS_SHOWN - 1]
        events.append(Investigated(self.everyone, actor, target))
        events.append(Shown((actor, target), actor, target, tuple(sorted([own, *drawn]))))
        self._ask(TURN, actor)

    def _accuse(self, actor: int, args: tuple, events: list) -> None:
        offset, character = args
        target = (actor + offset) % self.num_players
        self.table.accused = True
        right = self.characters[target] == character
        events.append(AccusedAs((actor, target), actor, target, character, right))
        events.append(Accused(self.everyone, actor, target, right))
        if right:
            self._rightly_accused(actor, target, events)
        else:
            self._wrongly_accused(actor, events)

    def _call(self, actor: int, args: None, events: list) -> None:
        table = self.table
        claimant = self._claim_in_question().claimant
        table.hoax_holder = actor
        table.votes = [0] * self.num_players  # a new vote is open: the last one's ballots are no longer shown
        events.append(self.events.hoax_called[actor][claimant])
        self._voters = list(self._in_play.others_after[claimant])
        self._ballots = {}
        self._ask(VOTE, self._voters[0])

    def _no_call(self, actor: int, args: None, events: list) -> None:
        events.append(self.events.no_hoax[actor])
        self._callers.pop(0)
        if self._callers:
            self._ask(HOAX_CALL, self._callers[0])
        else:
            self._claim_stands(events)

    def _vote(self, actor: int, vote: int, events: list) -> None:
        self._ballots[actor] = vote
        events.extend(self.events.ballot[actor][vote])
        self._voters.pop(0)
        if self._voters:
            self._ask(VOTE, self._voters[0])
        else:
            self._count_votes(events)

    def _immune(self, actor: int, character: int, events: list) -> None:
        self.table.immunity = ImmunityClaimed(self.everyone, actor, character)
        events.append(self.table.immunity)
        self._open_calls(actor, events)

    def _no_immunity(self, actor: int, args: None, events: list) -> None:
        events.append(self.events.no_immunity[actor])
        self._answered[actor] = False
        self._resolve(events)

    # --- turn order -----------------------------------------------------

    def _start_turn(self, seat: int, events: list) -> None:
        table = self.table
        table.active = seat
        table.claimed = table.accused = False
        events.append(self.events.turn_started[seat])
        self._ask(TURN, seat)

    def _end_turn(self, actor: int, args: None, events: list) -> None:
        table = self.table
        events.append(self.events.turn_ended[table.active])
        table.turn += 1
        self._start_turn(self._in_play.others_after[table.active][0], events)

    RULES = {  # an action's kind -> the rule that plays it
        PICK_RESOURCE: _pick,
        CLAIM: _claim,
        INVESTIGATE: _investigate,
        ACCUSE: _accuse,
        END_TURN: _end_turn,
        CALL: _call,
        NO_CALL: _no_call,
        CAST_VOTE: _vote,
        IMMUNE: _immune,
        NO_IMMUNITY: _no_immunity,
    }

    # --- claims, Hoax and the vote --------------------------------------

    def _claim_in_question(self) -> Claimed | ImmunityClaimed:
        """The claim being called or voted on: an immunity claim if one is pending, else the privilege claim."""
        return self.table.immunity or self.table.claim

    def _open_calls(self, claimant: int, events: list) -> None:
        holder = self.table.hoax_holder
        self._callers = [s for s in self._in_play.others_after[claimant] if s != holder]
        if self._callers:
            self._ask(HOAX_CALL, self._callers[0])
        else:
            self._claim_stands(events)

    def _count_votes(self, events: list) -> None:
        votes = [0] * self.num_players
        for seat, vote in self._ballots.items():
            votes[seat] = vote
        self.table.votes = votes
        self._ballots = {}
        claim = self._claim_in_question()
        events.append(VotesRevealed(self.everyone, tuple(votes), claim.claimant, claim.character))
        if votes.count(-1) > votes.count(1):
            self._check_claim(events)
        else:
            self._claim_stands(events)

    def _check_claim(self, events: list) -> None:
        table = self.table
        claim = self._claim_in_question()
        truthful = self.characters[claim.claimant] == claim.character
        events.append(ClaimChecked(self.everyone, claim.claimant, claim.character, truthful))
        if truthful:
            self._win(claim.claimant, claim.character, events)
            return
        table.impostor[claim.claimant][claim.character] = True
        events.append(Impostor(self.everyone, claim.claimant, claim.character))
        if table.immunity is not None:  # the privilege reaches the false immunity claimant
            table.immunity = None
            self._answered[claim.claimant] = False
            self._resolve(events)
        else:  # the privilege does not happen
            table.claim = None
            self._ask(TURN, table.active)

    def _claim_stands(self, events: list) -> None:
        table = self.table
        claim = self._claim_in_question()
        events.append(ClaimStands(self.everyone, claim.claimant, claim.character))
        if table.immunity is not None:
            table.immunity = None
            self._answered[claim.claimant] = True
        self._resolve(events)

    # --- privileges -----------------------------------------------------

    def _resolve(self, events: list) -> None:
        """Carry out the privilege from where it stopped; stop where a seat is asked for an immunity."""
        table = self.table
        claim = table.claim
        effects = self.sheet.characters[claim.character].options[claim.option].effects
        while self._effect < len(effects):
            effect = effects[self._effect]
            resource = claim.resource if effect.resource == NAMED else effect.resource
            if not effect.targets_players:
                self._move(SUPPLY, claim.claimant if effect.kind == TAKE else claim.player, resource, 1, events)
            elif not self._reach(effect, claim, resource, events):
                return
            self._effect += 1
        events.append(self.events.privilege_done[claim.claimant])
        table.claim = None
        self._ask(TURN, table.active)

    def _reach(self, effect: Effect, claim: Claimed, resource: int, events: list) -> bool:
        """Take from or swap with each seat the effect reaches; False when one is first asked for an immunity.

        A player is asked once per privilege, the first time an effect would
        change what they hold; their answer covers the rest of it.
        """
        table = self.table
        immune_to_it = self.sheet.immune_characters(claim.character)
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
                return False
            self._pending.pop(0)
            if self._answered.get(seat):
                events.append(self.events.immune[seat])
            elif effect.kind == SWAP:
                self._swap(claim.claimant, seat, resource, events)
            else:
                self._move(seat, claim.claimant, resource, 1, events)
        self._pending = None
        return True

    def _reached_by(self, effect: Effect, claim: Claimed) -> list[int]:
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

    def _move(self, giver: int, taker: int, resource: int, count: int, events: list) -> None:
        """Up to `count` tokens of `resource` from `giver` to `taker` (seats or SUPPLY); only what there is."""
        table = self.table
        source = table.supply if giver == SUPPLY else table.resources[giver]
        count = min(count, source[resource])
        if count == 0:
            events.append(NothingToTake(self.everyone, giver, taker, resource))
            return
        source[resource] -= count
        if taker == SUPPLY:
            table.supply[resource] += count
        else:
            table.resources[taker][resource] += count
        events.append(Moved(self.everyone, giver, taker, resource, count))

    def _swap(self, a: int, b: int, resource: int, events: list) -> None:
        resources = self.table.resources
        resources[a][resource], resources[b][resource] = resources[b][resource], resources[a][resource]
        events.append(Swapped(self.everyone, a, b, resource))

    # --- accusations and the end ----------------------------------------

    def _rightly_accused(self, accuser: int, target: int, events: list) -> None:
        """The target is out; their resources go to the accuser, their impostor tokens stay."""
        for resource, count in enumerate(list(self.table.resources[target])):
            if count:
                self._move(target, accuser, resource, count, events)
        self._eliminate(target, events)
        if self._in_play.others_after[accuser]:
            self._ask(TURN, accuser)
        else:
            self._win(accuser, NOBODY, events)

    def _wrongly_accused(self, accuser: int, events: list) -> None:
        """The accuser is out; their resources and impostor tokens go back to the supply, and their turn ends."""
        table = self.table
        for resource, count in enumerate(list(table.resources[accuser])):
            if count:
                self._move(accuser, SUPPLY, resource, count, events)
        table.impostor[accuser] = [False] * NUM_CHARACTERS
        self._eliminate(accuser, events)
        still_in = self._in_play.others_after[accuser]  # everyone still in, the accuser being out
        if len(still_in) == 1:
            self._win(still_in[0], NOBODY, events)
        else:
            self._end_turn(accuser, None, events)

    def _eliminate(self, seat: int, events: list) -> None:
        table = self.table
        table.eliminated[seat] = True
        self._in_play = self.orders.in_play[tuple(table.eliminated)]
        if table.hoax_holder == seat:  # RULING: the Hoax card goes back to the centre
            table.hoax_holder = NOBODY
        self._rewards[seat] = -1.0
        self._out.append(seat)
        events.append(self.events.eliminated[seat])

    def _win(self, seat: int, character: int, events: list) -> None:
        """`seat` wins: by a true claim of `character`, or (NOBODY) as the last player left."""
        table = self.table
        self.over = True
        self._won_as = character
        table.winner = seat
        table.decision = GAME_OVER
        table.to_act = NOBODY
        table.claim = table.immunity = None
        self._current = self.masks.none
        events.append(GameOver(self.everyone, seat, character))

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
            self._current = self.masks.fixed[decision]

    def _turn_mask(self, seat: int) -> np.ndarray:
        """One of the shared turn masks, less the claims the seat's impostor tokens forbid."""
        table = self.table
        can_pay = 0 not in table.resources[seat]
        mask = self.masks.turn[table.claimed, table.accused, can_pay, self._in_play.others_in[seat]]
        tokens = table.impostor[seat]
        if table.claimed or True not in tokens:
            return mask
        return np.bitwise_and(mask, self.masks.claimable[tuple(tokens)], out=self._mask)

    def _immunity_mask(self, seat: int) -> np.ndarray:
        """The immunities to the claimed privilege that the seat holds no impostor token on, and no immunity."""
        table = self.table
        mask = self._mask
        mask[:] = 0
        for character in self.sheet.immune_characters(table.claim.character):
            if not table.impostor[seat][character]:
                mask[self.masks.immune_ids[character]] = 1
        mask[self.masks.no_immunity] = 1
        return mask
