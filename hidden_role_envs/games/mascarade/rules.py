"""The rules of Mascarade: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table
(`MascaradeTable`) is what every seat sees: coins, the courthouse, whose
turn it is, the announcement and its claims, the cards revealed. The cards
themselves stay in the engine (`MascaradeGame.cards`, one character per card
place) and reach seats only as events addressed to the seats that see them.

Coins move between the players, the courthouse and the bank; the bank is
unlimited (RULING) and only pays out, which `table.from_bank` counts, so at
any time the coins of the players plus the courthouse equal the starting
coins plus `table.from_bank`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from hidden_role_envs.core.engine import Outcome, PerSeat, RulesEngine, SeatList, SeatText
from hidden_role_envs.core.seats import NOBODY, seating
from hidden_role_envs.core.setup import Setup
from hidden_role_envs.core.shared import Shared
from hidden_role_envs.games.mascarade.actions import (
    ANNOUNCE,
    BISHOP_TAKE,
    CLAIM,
    FOOL_SWAP,
    GUESS,
    LOOK,
    PASS,
    QUESTION,
    SPY_LOOK,
    SPY_SWAP,
    SWAP,
    WITCH_SWAP,
    mascarade_actions,
)
from hidden_role_envs.games.mascarade.characters import (
    BANK,
    BISHOP,
    CHARACTERS,
    CHEAT,
    CHEAT_COINS,
    COURTHOUSE,
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
)
from hidden_role_envs.games.mascarade.config import MascaradeConfig
from hidden_role_envs.games.mascarade.events import (
    Announced,
    Claimed,
    Dealt,
    FortunesKept,
    FortunesSwapped,
    GameOver,
    Guessed,
    Handled,
    Looked,
    LookedUnseen,
    NotSwapped,
    Paid,
    Passed,
    Power,
    Questioned,
    Revealed,
    Swapped,
    Turn,
)

GAME_OVER = -1  # table.decision once the game has ended
INQUISITOR_FINE = 4
NOBODY_REVEALED: frozenset[int] = frozenset()  # table.revealed_last_turn after a turn without reveals

# The decisions, in the order of the `decision` block, and the kinds of action that answer each.
ASK_TURN, ASK_CLAIM, ASK_SPY_CARD, ASK_SPY_SWAP, ASK_BISHOP, ASK_FOOL, ASK_INQUISITOR, ASK_GUESS, ASK_WITCH = range(9)
DECISIONS = (
    "take a turn: swap or not, look, or announce",
    "claim the announced character or pass",
    "Spy: choose the other card to look at",
    "Spy: swap the two cards or not",
    "Bishop: choose among the richest",
    "Fool: choose the cards of two other players and swap them or not",
    "Inquisitor: choose the player to question",
    "name the character you believe you are",
    "Witch: choose whose fortune to take, or keep her own",
)
DECISION_KINDS = {
    ASK_TURN: (SWAP, LOOK, ANNOUNCE),
    ASK_CLAIM: (CLAIM, PASS),
    ASK_SPY_CARD: (SPY_LOOK,),
    ASK_SPY_SWAP: (SPY_SWAP,),
    ASK_BISHOP: (BISHOP_TAKE,),
    ASK_FOOL: (FOOL_SWAP,),
    ASK_INQUISITOR: (QUESTION,),
    ASK_GUESS: (GUESS,),
    ASK_WITCH: (WITCH_SWAP,),
}


class LegalMasks(Shared):
    """Every legal-action mask a game of one configuration can show, built once, shared and read-only.

    Most decisions have a fixed set of legal actions; a turn forced by a
    reveal swaps with another player's card only, the Spy leaves out the
    card its power comes from, and the Bishop takes from the richest other
    players (a mask per set of them, made when first met).
    """

    def __init__(self, config: MascaradeConfig):
        actions = self.actions = mascarade_actions(config)
        args, of_kind, in_play = actions.args, actions.of_kind, config.counts
        self.none = actions.mask()
        self.of_decision = {decision: actions.mask_of_kinds(*kinds) for decision, kinds in DECISION_KINDS.items()}
        turn = of_kind[SWAP] + of_kind[LOOK] + tuple(a for a in of_kind[ANNOUNCE] if in_play[args[a][0]])
        self.of_decision[ASK_TURN] = actions.mask(turn)
        self.of_decision[ASK_GUESS] = actions.mask(a for a in of_kind[GUESS] if in_play[args[a]])
        self.preparation_turn = actions.mask_of_kinds(SWAP)
        players_cards = range(config.hand, config.num_players * config.hand)  # relative: other players' cards
        self.revealed_turn = actions.mask(a for a in of_kind[SWAP] if args[a][1] in players_cards)
        own = range(config.hand)  # the card the power comes from
        self.spy_card = tuple(actions.mask(a for a in of_kind[SPY_LOOK] if args[a] != o) for o in own)
        self._bishop_ids = {args[a]: a for a in of_kind[BISHOP_TAKE]}
        self._bishop: dict[tuple[int, ...], np.ndarray] = {}

    def bishop(self, offsets: tuple[int, ...]) -> np.ndarray:
        """The Bishop's mask when the richest other players sit at these offsets (sorted)."""
        mask = self._bishop.get(offsets)
        if mask is None:
            mask = self._bishop[offsets] = self.actions.mask(self._bishop_ids[k] for k in offsets)
        return mask


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


def _from_bank(coins: int):
    """A power that takes `coins` from the bank."""

    def power(game: MascaradeGame, seat: int, events: list) -> None:
        game._pay(BANK, seat, coins, events)
        game._power_done(events)

    return power


def _choice(decision: int):
    """A power whose holder first makes a choice."""
    return lambda game, seat, events: game._ask(decision, seat)


@cache
def turn_events(num_players: int) -> tuple[tuple, ...]:
    """[seat][forced]: the event that starts a seat's turn, made once (events are immutable, games share them)."""
    everyone = seating(num_players).everyone
    return tuple(tuple(Turn(everyone, seat, forced) for forced in (False, True)) for seat in everyone)


class MascaradeGame(RulesEngine):
    """One game of Mascarade.

    `setup` may fix the deal, for scenarios and tests: `cards` (one
    character per card place: each seat's card(s) in seat order, then the
    centre) and `first_player`. Anything not given is drawn with `rng`.
    """

    def __init__(self, config: MascaradeConfig, rng: np.random.Generator, setup=None):
        setup = Setup(setup, ("cards", "first_player"))
        n = config.num_players
        self.config = config
        self.num_players = n
        self.hand = config.hand
        self.actions = mascarade_actions(config)
        self.masks = LegalMasks.of(config)
        self.seating = seating(n)
        self.everyone, self.others = self.seating.everyone, self.seating.others
        self.place_called = config.place_called  # [s][r]: the place seat s names r in its actions
        self.table = MascaradeTable(n)
        cards = self._checked_cards(setup.items("cards", CHARACTERS, length=config.num_places))
        first = setup.seat("first_player", n)
        # every entry is checked before anything is drawn, so a refused setup leaves the generator as it was
        if cards is None:
            cards = [config.characters[i] for i in rng.permutation(config.num_places).tolist()]
        self.cards = cards
        self.table.active = int(rng.integers(n)) if first is None else first  # the youngest: drawn at random
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.result: SeatText | None = None
        self.power_place = NOBODY  # the card the power in progress comes from
        self.fined: list[int] = []  # false claimants of this announcement, fined after the power
        self.revealed_seats: set[int] = set()

    def _checked_cards(self, cards: list[int] | None) -> list[int] | None:
        config = self.config
        if cards is not None and sorted(cards) != list(config.characters):
            names = ", ".join(CHARACTERS[c] for c in config.characters)
            raise ValueError(
                f"setup cards must deal the {config.num_places} characters in play ({names}), players' cards then "
                f"the centre; got {[CHARACTERS[c] for c in cards]}"
            )
        return cards

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list:
        events = [Dealt(self.everyone, tuple(self.cards))]
        self._start_turn(events)
        return events

    def legal_mask(self) -> np.ndarray:
        masks, table = self.masks, self.table
        if self.over:
            return masks.none
        decision = table.decision
        if decision == ASK_TURN:
            if table.forced:
                return masks.preparation_turn if table.preparation else masks.revealed_turn
            return masks.of_decision[ASK_TURN]
        if decision == ASK_BISHOP:
            actor = table.to_act
            return masks.bishop(tuple(sorted(self.seating.relative[actor][s] for s in self._richest_others(actor))))
        if decision == ASK_SPY_CARD:
            return masks.spy_card[self.power_place % self.hand]
        return masks.of_decision[decision]

    def illegal_reason(self, action: int) -> str:
        table = self.table
        if self.over:
            return "the game is over"
        kind, args = self.actions.meaning[action]
        decision = table.decision
        if kind not in DECISION_KINDS[decision]:
            return f"the decision now is {DECISIONS[decision]!r}"
        if decision == ASK_TURN and table.forced:
            if table.preparation:
                return f"turn {table.turn + 1} is a preparation turn: the only action is to swap or not"
            return ("this player's card was revealed in the previous turn: the only action is to swap or not with "
                    "another player's card")
        if kind in (ANNOUNCE, GUESS):
            character = args[0] if kind == ANNOUNCE else args
            if not self.config.counts[character]:
                return f"the {CHARACTERS[character]} is not in play"
        if decision == ASK_BISHOP:
            return "the Bishop takes from the richest of the other players"
        if decision == ASK_SPY_CARD:
            return "the Spy looks at a card other than its own"
        return "it is not legal now"

    def reveal(self) -> Outcome:
        n, table = self.num_players, self.table
        characters = PerSeat(self._character_of(s) for s in range(n))
        info = {
            "coins": PerSeat(int(c) for c in table.coins),
            "characters": characters,
            "centre_characters": [CHARACTERS[c] for c in self.cards[n * self.hand :]],
            "courthouse": table.courthouse,
            "from_bank": table.from_bank,
            "turns": table.turn,
        }
        return Outcome(winners=(), rewards=(0.0,) * n, info=info, own={"character": characters})

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n, winners = self.num_players, self.winners
        revealed = self.reveal()
        info = {"result": self.result, "winners": SeatList(winners), **revealed.info}
        own = {**revealed.own, "won": PerSeat(s in winners for s in range(n))}
        rewards = tuple(1.0 if s in winners else -1.0 for s in range(n))
        return Outcome(winners=winners, rewards=rewards, info=info, own=own)

    def _character_of(self, seat: int) -> str | list[str]:
        """The name of the seat's card, or of its two cards at 2-3 players."""
        names = [CHARACTERS[self.cards[p]] for p in self.config.places_of(seat)]
        return names[0] if self.hand == 1 else names

    # --- the actions, one method per kind -----------------------------

    def _swap(self, actor: int, args: tuple[int, int, bool], events: list) -> None:
        own, other, swapped = args
        places = self.place_called[actor]
        self._swap_or_not(actor, places[own], places[other], swapped, events)
        self._end_turn(events)

    def _look(self, actor: int, own: int, events: list) -> None:
        self._look_at(actor, self.place_called[actor][own], events)
        self._end_turn(events)

    def _announce(self, actor: int, args: tuple[int, int], events: list) -> None:
        character, own = args
        table = self.table
        place = self.place_called[actor][own]
        table.announcement = character
        table.announcer = actor
        table.claim_places = [place]
        events.append(Announced(self.everyone, actor, character, place))
        self._ask(ASK_CLAIM, self.seating.offset(actor, 1))

    def _claim(self, actor: int, own: int, events: list) -> None:
        place = self.place_called[actor][own]
        self.table.claimants.append(actor)
        self.table.claim_places.append(place)
        events.append(Claimed(self.everyone, actor, place))
        self._next_claim(actor, events)

    def _pass(self, actor: int, _, events: list) -> None:
        events.append(Passed(self.everyone, actor))
        self._next_claim(actor, events)

    def _spy_look(self, actor: int, other: int, events: list) -> None:
        places = (self.power_place, self.place_called[actor][other])
        self.table.power_places = places
        for place in places:
            self._look_at(actor, place, events)
        self._ask(ASK_SPY_SWAP, actor)

    def _spy_swap(self, actor: int, swapped: bool, events: list) -> None:
        self._swap_or_not(actor, *self.table.power_places, swapped, events)
        self._power_done(events)

    def _bishop_take(self, actor: int, offset: int, events: list) -> None:
        self._pay(self.seating.offset(actor, offset), actor, 2, events)
        self._power_done(events)

    def _fool_swap(self, actor: int, args: tuple[int, int, bool], events: list) -> None:
        a, b, swapped = args
        places = self.place_called[actor]
        self._swap_or_not(actor, places[a], places[b], swapped, events)
        self._power_done(events)

    def _question(self, actor: int, offset: int, events: list) -> None:
        target = self.seating.offset(actor, offset)
        self.table.power_places = tuple(self.config.places_of(target))
        events.append(Questioned(self.everyone, actor, target))
        self._ask(ASK_GUESS, target)

    def _guess(self, actor: int, character: int, events: list) -> None:
        table = self.table
        place = table.power_places[0]
        events.append(Guessed(self.everyone, actor, character))
        self._reveal(actor, place, events)
        if self.cards[place] != character:
            self._pay(actor, table.power_user, INQUISITOR_FINE, events)
        self._power_done(events)

    def _witch_swap(self, actor: int, offset: int, events: list) -> None:
        if offset == 0:  # she may decline
            events.append(FortunesKept(self.everyone, actor))
            self._power_done(events)
            return
        target = self.seating.offset(actor, offset)
        coins = self.table.coins
        events.append(FortunesSwapped(self.everyone, actor, target, coins[actor], coins[target]))
        coins[actor], coins[target] = coins[target], coins[actor]
        self._power_done(events)

    RULES = {  # an action's kind -> the rule that plays it
        SWAP: _swap,
        LOOK: _look,
        ANNOUNCE: _announce,
        CLAIM: _claim,
        PASS: _pass,
        SPY_LOOK: _spy_look,
        SPY_SWAP: _spy_swap,
        BISHOP_TAKE: _bishop_take,
        FOOL_SWAP: _fool_swap,
        QUESTION: _question,
        GUESS: _guess,
        WITCH_SWAP: _witch_swap,
    }

    # --- the turn -----------------------------------------------------

    def _start_turn(self, events: list) -> None:
        table = self.table
        table.forced = table.preparation or table.active in table.revealed_last_turn
        events.append(turn_events(self.num_players)[table.active][table.forced])
        self._ask(ASK_TURN, table.active)

    def _end_turn(self, events: list) -> None:
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

    def _swap_or_not(self, actor: int, p: int, q: int, swapped: bool, events: list) -> None:
        """`actor` takes the cards at p and q and swaps them or not; only `actor` knows which."""
        if swapped:
            self.cards[p], self.cards[q] = self.cards[q], self.cards[p]
        events.append((Swapped if swapped else NotSwapped)((actor,), actor, p, q))
        events.append(Handled(self.others[actor], actor, p, q))

    def _look_at(self, actor: int, place: int, events: list) -> None:
        events.append(Looked((actor,), actor, place, self.cards[place]))
        events.append(LookedUnseen(self.others[actor], actor, place))

    def _reveal(self, seat: int, place: int, events: list) -> None:
        self.table.revealed[place] = self.cards[place]
        self.revealed_seats.add(seat)
        events.append(Revealed(self.everyone, seat, place, self.cards[place]))

    # --- announcements and powers -------------------------------------

    def _next_claim(self, actor: int, events: list) -> None:
        """The claim round goes on to the left, and ends at the announcer."""
        following = self.seating.offset(actor, 1)
        if following == self.table.announcer:
            self._resolve_announcement(events)
        else:
            self._ask(ASK_CLAIM, following)

    def _resolve_announcement(self, events: list) -> None:
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
        elif character == PEASANT:
            self._peasants([seat for seat, _ in holders], events)
        else:
            seat, place = holders[0]
            self._use_power(seat, place, character, events)

    def _peasants(self, holders: list[int], events: list) -> None:
        """Both Peasants revealed: 2 coins each; otherwise 1."""
        coins = 2 if len(holders) == 2 else 1
        for seat in holders:
            events.append(Power(self.everyone, seat, PEASANT))
            self._pay(BANK, seat, coins, events)
        self._power_done(events)

    def _use_power(self, seat: int, place: int, character: int, events: list) -> None:
        """Apply a power at once, or ask its holder the decision it needs."""
        events.append(Power(self.everyone, seat, character))
        self.power_place = place
        self.table.power_user = seat
        self._powers[character](self, seat, events)

    def _bishop(self, seat: int, events: list) -> None:
        richest = self._richest_others(seat)
        if len(richest) > 1:
            self._ask(ASK_BISHOP, seat)
            return
        self._pay(richest[0], seat, 2, events)
        self._power_done(events)

    def _fool(self, seat: int, events: list) -> None:
        self._pay(BANK, seat, 1, events)
        if not self._check_end(events):
            self._ask(ASK_FOOL, seat)

    def _cheat(self, seat: int, events: list) -> None:
        coins = self.table.coins[seat]
        if coins < CHEAT_COINS:
            self._power_done(events)
            return
        self._finish((seat,), SeatText(f"{{0}}, the Cheat, has {coins} coins and wins", (seat,)), events)

    def _judge(self, seat: int, events: list) -> None:
        self._pay(COURTHOUSE, seat, self.table.courthouse, events)
        self._power_done(events)

    def _widow(self, seat: int, events: list) -> None:
        self._pay(BANK, seat, max(0, WIDOW_COINS - self.table.coins[seat]), events)
        self._power_done(events)

    def _thief(self, seat: int, events: list) -> None:
        self._pay(self.seating.offset(seat, 1), seat, 1, events)
        self._pay(self.seating.offset(seat, -1), seat, 1, events)
        self._power_done(events)

    # What each character's power does once its holder is known (both Peasants: `_peasants`).
    _powers = {
        SPY: _choice(ASK_SPY_CARD),
        BISHOP: _bishop,
        FOOL: _fool,
        INQUISITOR: _choice(ASK_INQUISITOR),
        WITCH: _choice(ASK_WITCH),
        JUDGE: _judge,
        KING: _from_bank(3),
        QUEEN: _from_bank(2),
        WIDOW: _widow,
        THIEF: _thief,
        CHEAT: _cheat,
    }

    def _power_done(self, events: list) -> None:
        """After the power: the end check, then the fines, the end check again, and the next turn."""
        self.table.power_user = NOBODY
        if self._check_end(events):
            return
        for seat in self.fined:
            self._pay(seat, COURTHOUSE, 1, events)
        if self._check_end(events):
            return
        self._end_turn(events)

    # --- coins and the end --------------------------------------------

    def _pay(self, payer: int, payee: int, amount: int, events: list) -> None:
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
            events.append(Paid(self.everyone, payer, payee, amount))

    def _richest_others(self, seat: int) -> list[int]:
        coins = self.table.coins
        others = self.others[seat]
        most = max([coins[s] for s in others])
        return [s for s in others if coins[s] == most]

    def _check_end(self, events: list) -> bool:
        """13 coins or more wins at once; a player at 0 ends the game and the richest win."""
        coins = self.table.coins
        most = max(coins)
        if most >= WINNING_COINS:
            winners = tuple(s for s, c in enumerate(coins) if c >= WINNING_COINS)
            self._finish(winners, SeatText(f"{{all}} reached {WINNING_COINS} coins", winners), events)
        elif min(coins) <= 0:
            winners = tuple(s for s, c in enumerate(coins) if c == most)
            broke = tuple(s for s, c in enumerate(coins) if c <= 0)
            template = (f"{_listing(0, len(broke))} went broke; the richest, {_listing(len(broke), len(winners))}, "
                        f"with {most} coins")
            self._finish(winners, SeatText(template, broke + winners), events)
        return self.over

    def _finish(self, winners: tuple[int, ...], result: SeatText, events: list) -> None:
        self.over = True
        self.winners = winners
        self.result = result
        self.table.decision = GAME_OVER
        self.table.to_act = NOBODY
        events.append(GameOver(self.everyone, winners))


def _listing(first: int, count: int) -> str:
    """`{first} and {first+1} ...`: where `count` seats of a `SeatText` go, named in a row."""
    return " and ".join(f"{{{i}}}" for i in range(first, first + count))
