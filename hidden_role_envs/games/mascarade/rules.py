"""The rules of Mascarade: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table
(`MascaradeTable`) is what every seat sees: coins, the courthouse, whose
turn it is, the announcement and its claims, the cards revealed. The cards
themselves stay in the engine (`MascaradeGame.cards`, one character per card
place) and reach seats only as `Event`s addressed to the seats that see
them.

Coins move between the players, the courthouse and the bank; the bank is
unlimited (RULING) and only pays out, which `table.from_bank` counts, so at
any time the coins of the players plus the courthouse equal the starting
coins plus `table.from_bank`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from hidden_role_envs.core.game import Event, Outcome, RulesEngine
from hidden_role_envs.games.mascarade.actions import (
    ANNOUNCE,
    BISHOP_CHOICE,
    CLAIM,
    DECISIONS,
    FOOL_SWAP,
    GUESS,
    INQUISITOR_TARGET,
    LOOK,
    SPY_LOOK,
    SPY_SWAP,
    SWAP,
    TURN,
    WITCH_TARGET,
    MascaradeActions,
)
from hidden_role_envs.games.mascarade.characters import (
    BISHOP,
    CHARACTERS,
    CHEAT,
    CHEAT_COINS,
    FOOL,
    INQUISITOR,
    JUDGE,
    KING,
    PEASANT,
    PREPARATION_TURNS,
    QUEEN,
    SPY,
    STARTING_COINS,
    THIEF,
    WIDOW,
    WIDOW_COINS,
    WINNING_COINS,
    WITCH,
    MascaradeConfig,
)

NOBODY = -1
BANK, COURTHOUSE = -2, -3  # payers and payees besides the seats
GAME_OVER = -1  # table.decision once the game has ended
INQUISITOR_FINE = 4
NOBODY_REVEALED: frozenset[int] = frozenset()  # table.revealed_last_turn after a turn without reveals


class MascaradeTable:
    """The public table: everything here is seen by every seat."""

    def __init__(self, num_players: int):
        n = num_players
        self.num_players = n
        self.coins = [STARTING_COINS] * n  # a list: the rules read and write single seats' coins
        self.courthouse = 0
        self.from_bank = 0  # coins the bank has paid out so far
        self.active = 0
        self.turn = 0  # turns completed
        self.forced = False  # the active player may only swap or not (preparation, or revealed last turn)
        self.decision = GAME_OVER
        self.to_act = NOBODY
        self.announcement = NOBODY  # the character announced this turn
        self.announcer = NOBODY
        self.claimants: list[int] = []  # other players who claimed it, in order
        self.claim_places: list[int] = []  # the cards announced and claimed with, the announcer's first
        self.revealed: dict[int, int] = {}  # place -> character, revealed this turn
        self.revealed_last_turn = NOBODY_REVEALED  # seats whose card was revealed in the previous turn
        self.power_user = NOBODY  # who is using a power that asks a decision
        self.power_places: tuple[int, ...] = ()  # cards the power in progress handles (Spy, Inquisitor)

    @property
    def preparation(self) -> bool:
        return self.turn < PREPARATION_TURNS


@cache
def _turn_events(num_players: int) -> tuple[tuple[Event, Event], ...]:
    """[seat][forced]: the event that starts a seat's turn, made once (events are immutable, games share them)."""
    everyone = tuple(range(num_players))
    return tuple(tuple(Event("turn", everyone, (seat, forced)) for forced in (False, True)) for seat in everyone)


def _parse_cards(value, config: MascaradeConfig) -> list[int]:
    cards = []
    for item in value:
        if isinstance(item, str) and item in CHARACTERS:
            cards.append(CHARACTERS.index(item))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < len(CHARACTERS):
            cards.append(int(item))
        else:
            raise ValueError(f"setup cards: {item!r} is neither a character name nor an index")
    if sorted(cards) != list(config.characters):
        names = ", ".join(CHARACTERS[c] for c in config.characters)
        raise ValueError(
            f"setup cards must deal the {config.num_places} characters in play ({names}), players' cards then "
            f"the centre; got {[CHARACTERS[c] for c in cards]}"
        )
    return cards


class MascaradeGame(RulesEngine):
    """One game of Mascarade.

    `setup` may fix the deal, for scenarios and tests: `cards` (one
    character per card place: each seat's card(s) in seat order, then the
    centre) and `first_player`. Anything not given is drawn with `rng`.
    """

    def __init__(self, config: MascaradeConfig, actions: MascaradeActions, rng: np.random.Generator, setup=None):
        setup = dict(setup or {})
        unknown = set(setup) - {"cards", "first_player"}
        if unknown:
            raise ValueError(f"unknown setup key(s) {sorted(unknown)}; allowed: cards, first_player")
        n = config.num_players
        self.config = config
        self.num_players = n
        self.hand = config.hand
        self.actions = actions
        self.everyone = tuple(range(n))
        self.others = config.others
        self.table = MascaradeTable(n)
        if "cards" in setup:
            self.cards = _parse_cards(setup["cards"], config)
        else:
            self.cards = [config.characters[i] for i in rng.permutation(config.num_places).tolist()]
        first = setup.get("first_player")
        if first is None:
            first = int(rng.integers(n))  # the youngest player: a seat drawn at random
        elif isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 0 <= first < n:
            raise ValueError(f"setup first_player must be a seat from 0 to {n - 1}; got {first!r}")
        self.table.active = int(first)
        self.rel_places = config.place_called  # [s][r]: the place seat s names r in its actions
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.result = ""
        self.power_place = NOBODY  # the card the power in progress comes from
        self.fined: list[int] = []  # false claimants of this announcement, fined after the power
        self.revealed_seats: set[int] = set()
        self._turn_events = _turn_events(n)
        self._masks = actions.masks
        self._bishop_ids = actions.bishop_ids
        self._mask = np.zeros(len(actions), dtype=np.int8)
        self._mask_none = np.zeros(len(actions), dtype=np.int8)

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list[Event]:
        events = [Event("dealt", self.everyone, tuple(self.cards))]
        self._start_turn(events)
        return events

    def legal_mask(self) -> np.ndarray:
        table = self.table
        if self.over:
            return self._mask_none
        decision = table.decision
        if decision == TURN:
            return self._masks["turn forced" if table.forced else "turn"]
        if decision == BISHOP_CHOICE:
            mask = self._mask
            mask[:] = 0
            for seat in self._richest_others(table.to_act):
                mask[self._bishop_ids[(seat - table.to_act) % self.num_players]] = 1
            return mask
        if decision in (SPY_LOOK, FOOL_SWAP):
            return self._masks[decision, self.power_place % self.hand]
        return self._masks[decision]

    def illegal_reason(self, action: int) -> str:
        table = self.table
        if self.over:
            return "the game is over"
        decision, op, arg = self.actions.meaning[action]
        if decision != table.decision:
            return f"the decision now is {DECISIONS[table.decision]!r}"
        if decision == TURN and table.forced:
            if table.preparation:
                return f"turn {table.turn + 1} is a preparation turn: the only action is to swap or not"
            return "this player's card was revealed in the previous turn: the only action is to swap or not"
        if (decision == TURN and op == ANNOUNCE and self.config.counts[arg[0]] == 0) or (
            decision == GUESS and self.config.counts[arg] == 0
        ):
            character = CHARACTERS[arg[0] if decision == TURN else arg]
            return f"the {character} is not in play"
        if decision == BISHOP_CHOICE:
            return "the Bishop takes from the richest of the other players"
        if decision in (SPY_LOOK, FOOL_SWAP):
            return f"the {'Spy' if decision == SPY_LOOK else 'Fool'} uses cards other than its own"
        return "it is not legal now"

    def apply(self, action: int) -> list[Event]:
        decision, op, arg = self.actions.meaning[action]
        table = self.table
        actor = table.to_act
        rel = self.rel_places[actor]
        n = self.num_players
        events: list[Event] = []
        if decision == TURN:
            if op == SWAP:
                own, other, swapped = arg
                self._swap_or_not(actor, rel[own], rel[other], swapped, events)
                self._end_turn(events)
            elif op == LOOK:
                place = rel[arg]
                events.append(Event("looked", (actor,), (actor, place, self.cards[place])))
                events.append(Event("looked_unseen", self.others[actor], (actor, place)))
                self._end_turn(events)
            else:
                character, own = arg
                table.announcement = character
                table.announcer = actor
                table.claim_places = [rel[own]]
                events.append(Event("announced", self.everyone, (actor, character, rel[own])))
                self._ask(CLAIM, (actor + 1) % n)
        elif decision == CLAIM:
            if arg is None:
                events.append(Event("passed", self.everyone, (actor,)))
            else:
                table.claimants.append(actor)
                table.claim_places.append(rel[arg])
                events.append(Event("claimed", self.everyone, (actor, rel[arg])))
            if (actor + 1) % n == table.announcer:
                self._resolve_announcement(events)
            else:
                self._ask(CLAIM, (actor + 1) % n)
        elif decision == SPY_LOOK:
            own, other = self.power_place, rel[arg]
            table.power_places = (own, other)
            for place in (own, other):
                events.append(Event("looked", (actor,), (actor, place, self.cards[place])))
                events.append(Event("looked_unseen", self.others[actor], (actor, place)))
            self._ask(SPY_SWAP, actor)
        elif decision == SPY_SWAP:
            self._swap_or_not(actor, *table.power_places, arg, events)
            self._power_done(events)
        elif decision == BISHOP_CHOICE:
            self._pay((actor + arg) % n, actor, 2, events)
            self._power_done(events)
        elif decision == FOOL_SWAP:
            a, b, swapped = arg
            self._swap_or_not(actor, rel[a], rel[b], swapped, events)
            self._power_done(events)
        elif decision == INQUISITOR_TARGET:
            target = (actor + arg) % n
            table.power_places = tuple(self.config.places_of(target))
            events.append(Event("questioned", self.everyone, (actor, target)))
            self._ask(GUESS, target)
        elif decision == GUESS:
            place = table.power_places[0]
            events.append(Event("guessed", self.everyone, (actor, arg)))
            self._reveal(actor, place, events)
            if self.cards[place] != arg:
                self._pay(actor, table.power_user, INQUISITOR_FINE, events)
            self._power_done(events)
        elif decision == WITCH_TARGET:
            target = (actor + arg) % n
            coins = table.coins
            before = (actor, target, coins[actor], coins[target])
            events.append(Event("fortunes_swapped", self.everyone, before))
            coins[actor], coins[target] = coins[target], coins[actor]
            self._power_done(events)
        return events

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        winners = self.winners
        rewards = tuple(1.0 if s in winners else -1.0 for s in range(n))
        hand = self.hand

        def character_of(seat: int):
            names = [CHARACTERS[self.cards[p]] for p in self.config.places_of(seat)]
            return names[0] if hand == 1 else names

        info = {
            "result": self.result,
            "winners": [f"player_{s}" for s in winners],
            "coins": {f"player_{s}": int(self.table.coins[s]) for s in range(n)},
            "characters": {f"player_{s}": character_of(s) for s in range(n)},
            "centre_characters": [CHARACTERS[c] for c in self.cards[n * hand :]],
            "courthouse": self.table.courthouse,
            "from_bank": self.table.from_bank,
            "turns": self.table.turn,
        }
        per_seat = tuple({"character": character_of(s), "won": s in winners} for s in range(n))
        return Outcome(winners=winners, rewards=rewards, info=info, per_seat_info=per_seat)

    # --- the turn -----------------------------------------------------

    def _ask(self, decision: int, seat: int) -> None:
        self.table.decision = decision
        self.table.to_act = seat

    def _start_turn(self, events: list[Event]) -> None:
        table = self.table
        table.forced = table.preparation or table.active in table.revealed_last_turn
        events.append(self._turn_events[table.active][table.forced])
        self._ask(TURN, table.active)

    def _end_turn(self, events: list[Event]) -> None:
        table = self.table
        table.turn += 1
        table.revealed_last_turn = frozenset(self.revealed_seats) if self.revealed_seats else NOBODY_REVEALED
        if table.announcement != NOBODY:  # only an announcement leaves something of the turn on the table
            table.announcement = table.announcer = table.power_user = NOBODY
            table.claimants = []
            table.claim_places = []
            table.revealed = {}
            table.power_places = ()
            self.revealed_seats = set()
            self.fined = []
        table.active = (table.active + 1) % self.num_players
        self._start_turn(events)

    def _swap_or_not(self, actor: int, p: int, q: int, swapped: bool, events: list[Event]) -> None:
        """`actor` takes the cards at p and q and swaps them or not; only `actor` knows which."""
        if swapped:
            self.cards[p], self.cards[q] = self.cards[q], self.cards[p]
        events.append(Event("swapped" if swapped else "not_swapped", (actor,), (actor, p, q)))
        events.append(Event("handled", self.others[actor], (actor, p, q)))

    def _reveal(self, seat: int, place: int, events: list[Event]) -> None:
        self.table.revealed[place] = self.cards[place]
        self.revealed_seats.add(seat)
        events.append(Event("revealed", self.everyone, (seat, place, self.cards[place])))

    def _resolve_announcement(self, events: list[Event]) -> None:
        """Nobody claimed: the announcer uses the power unrevealed. Otherwise all reveal, the true ones use it."""
        table = self.table
        character = table.announcement
        claimers = [table.announcer] + table.claimants
        if not table.claimants:
            holders = [(table.announcer, table.claim_places[0])]
        else:
            for seat, place in zip(claimers, table.claim_places):
                self._reveal(seat, place, events)
            holders = [(s, p) for s, p in zip(claimers, table.claim_places) if self.cards[p] == character]
            self.fined = [s for s, p in zip(claimers, table.claim_places) if self.cards[p] != character]
        if not holders:
            self._power_done(events)
        elif character == PEASANT:  # both Peasants revealed: 2 coins each, otherwise 1
            coins = 2 if len(holders) == 2 else 1
            for seat, _ in holders:
                events.append(Event("power", self.everyone, (seat, PEASANT)))
                self._pay(BANK, seat, coins, events)
            self._power_done(events)
        else:
            seat, place = holders[0]
            self._use_power(seat, place, character, events)

    def _use_power(self, seat: int, place: int, character: int, events: list[Event]) -> None:
        """Apply a power at once, or ask its holder the decision it needs."""
        table = self.table
        n = self.num_players
        events.append(Event("power", self.everyone, (seat, character)))
        self.power_place = place
        table.power_user = seat
        if character == SPY:
            self._ask(SPY_LOOK, seat)
        elif character == BISHOP:
            richest = self._richest_others(seat)
            if len(richest) == 1:
                self._pay(richest[0], seat, 2, events)
                self._power_done(events)
            else:
                self._ask(BISHOP_CHOICE, seat)
        elif character == FOOL:
            self._pay(BANK, seat, 1, events)
            if not self._check_end(events):
                self._ask(FOOL_SWAP, seat)
        elif character == INQUISITOR:
            self._ask(INQUISITOR_TARGET, seat)
        elif character == WITCH:
            self._ask(WITCH_TARGET, seat)
        else:
            if character == JUDGE:
                self._pay(COURTHOUSE, seat, table.courthouse, events)
            elif character == KING:
                self._pay(BANK, seat, 3, events)
            elif character == QUEEN:
                self._pay(BANK, seat, 2, events)
            elif character == WIDOW:
                self._pay(BANK, seat, max(0, WIDOW_COINS - table.coins[seat]), events)
            elif character == THIEF:
                self._pay((seat + 1) % n, seat, 1, events)
                self._pay((seat - 1) % n, seat, 1, events)
            elif character == CHEAT and table.coins[seat] >= CHEAT_COINS:
                self._finish((seat,), f"player_{seat}, the Cheat, has {table.coins[seat]} coins and wins", events)
                return
            self._power_done(events)

    def _power_done(self, events: list[Event]) -> None:
        """After the power: the end check, then the fines, the end check again, and the next turn."""
        self.table.power_user = NOBODY
        if self._check_end(events):
            return
        for seat in self.fined:
            self._pay(seat, COURTHOUSE, 1, events)
        if self._check_end(events):
            return
        self._end_turn(events)

    def _pay(self, payer: int, payee: int, amount: int, events: list[Event]) -> None:
        """Move coins; a player who must pay more than they have pays all they have."""
        table = self.table
        if payer >= 0:
            amount = min(amount, table.coins[payer])
            table.coins[payer] -= amount
        elif payer == COURTHOUSE:
            table.courthouse -= amount
        else:
            table.from_bank += amount
        if payee >= 0:
            table.coins[payee] += amount
        else:
            table.courthouse += amount
        if amount:
            events.append(Event("paid", self.everyone, (payer, payee, amount)))

    def _richest_others(self, seat: int) -> list[int]:
        coins = self.table.coins
        others = self.others[seat]
        most = max([coins[s] for s in others])
        return [s for s in others if coins[s] == most]

    def _check_end(self, events: list[Event]) -> bool:
        """13 coins or more wins at once; a player at 0 ends the game and the richest win."""
        coins = self.table.coins
        most = max(coins)
        if most >= WINNING_COINS:
            winners = tuple(s for s, c in enumerate(coins) if c >= WINNING_COINS)
            self._finish(winners, f"{_names(winners)} reached {WINNING_COINS} coins", events)
        elif min(coins) <= 0:
            winners = tuple(s for s, c in enumerate(coins) if c == most)
            broke = _names(tuple(s for s, c in enumerate(coins) if c <= 0))
            richest = f"the richest, {_names(winners)}, with {most} coins"
            self._finish(winners, f"{broke} went broke; {richest}", events)
        return self.over

    def _finish(self, winners: tuple[int, ...], result: str, events: list[Event]) -> None:
        self.over = True
        self.winners = winners
        self.result = result
        self.table.decision = GAME_OVER
        self.table.to_act = NOBODY
        events.append(Event("game_over", self.everyone, winners))


def _names(seats: tuple[int, ...]) -> str:
    return " and ".join(f"player_{s}" for s in seats)
