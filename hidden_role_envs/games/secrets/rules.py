"""The rules of Secrets: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table (`SecretsTable`)
is what every seat sees; the rest of the state (tokens, decks, the card in
the Offer, Bullet values) is private to the engine and reaches seats only as
events addressed to the seats that see them.

Places of identity tokens are numbered 0..n-1 for the players and n for the
centre.
"""

from __future__ import annotations

from collections import deque
from itertools import permutations

import numpy as np

from hidden_role_envs.core.checks import is_int
from hidden_role_envs.core.engine import Outcome, PerSeat, RulesEngine, SeatText
from hidden_role_envs.core.seats import NOBODY, seating
from hidden_role_envs.core.setup import Setup
from hidden_role_envs.core.shared import Shared
from hidden_role_envs.games.secrets.actions import (
    ANSWER,
    ASSASSIN_TARGET,
    CENTRE,
    CHOOSE,
    DECISIONS,
    DETECTIVE_LOOK,
    DIPLOMAT_SIDE,
    LEFT,
    OFFER,
    POLITICIAN_TARGET,
    PSYCHIATRIST_SWAP,
    UN_CHOICE,
    SecretsActions,
)
from hidden_role_envs.games.secrets.cards import (
    ASSASSIN,
    BULLET_VALUES,
    CARD_COPIES,
    CARD_VALUES,
    CHARACTERS,
    CIA,
    DETECTIVE,
    DIPLOMAT,
    DOUBLE_AGENT,
    HIPPIE,
    IDENTITIES,
    JOURNALIST,
    KGB,
    NUM_CHARACTERS,
    POLITICIAN,
    PSYCHIATRIST,
    SCIENTIST,
)
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.games.secrets.events import (
    Answered,
    BulletDrawn,
    BulletDrawnUnseen,
    BulletGiven,
    BulletValue,
    CardAdded,
    CardChosen,
    CardChosenUnseen,
    CardRevealed,
    Drawn,
    GameOver,
    Intercepted,
    LetPass,
    Looked,
    LookedUnseen,
    Offered,
    PairTurnedDown,
    ScientistsFlipped,
    ShownUnseen,
    Swapped,
    SwappedOneOf,
    UnToken,
)

GAME_OVER = -1  # table.decision once the game has ended

FULL_DECK = [card for card, copies in enumerate(CARD_COPIES) for _ in range(copies)]


class LegalMasks(Shared):
    """Every legal-action mask a game of one configuration can show, built once, shared and read-only.

    Each decision has a fixed set of legal actions, except the choice of the
    card to offer: its mask depends on the two characters showing.
    """

    def __init__(self, config: SecretsConfig):
        actions = SecretsActions.of(config.num_players)
        self.none = actions.mask()
        self.of_decision = {}
        for decision, ids in actions.of_kind.items():
            if decision == OFFER and not config.claims:
                ids = [a for a in ids if actions.args[a][1] is None]
            self.of_decision[decision] = actions.mask(ids)
        # CHOOSE ids are the character indices, so `choose <card>` is id `card`
        self.choose = {shown: actions.mask(shown) for shown in permutations(range(NUM_CHARACTERS), 2)}


class SecretsTable:
    """The public table: everything here is seen by every seat."""

    def __init__(self, num_players: int):
        n = num_players
        self.num_players = n
        self.face_up = [[0] * NUM_CHARACTERS for _ in range(n)]  # per screen, per character
        self.face_down = [0] * n
        self.bullets = [0] * n  # Bullets received (values hidden)
        self.cards = [0] * n  # cards on each screen, face up or down, and Bullets: what the UN token and the end count
        self.active = 0
        self.revealed: tuple[int, ...] = ()  # the character(s) showing this turn
        self.offer_target = NOBODY
        self.claim = NOBODY  # the character the active player said the card is
        self.card_in_play = NOBODY  # the Offer's card once it is turned face up
        self.un_holder = NOBODY
        self.decision = GAME_OVER
        self.to_act = NOBODY
        self.turn = 0  # turns completed
        self.deck_size = len(FULL_DECK)  # the deck's cards are hidden, how many there are is not


class SecretsGame(RulesEngine):
    """One game of Secrets.

    `setup` may fix the deal, for scenarios and tests: `tokens` (n+1
    identities, the last is the centre), `deck` (the 29 characters, top
    first), `bullets` (the four values, top first) and `first_player`.
    Anything not given is shuffled with `rng`.
    """

    def __init__(self, config: SecretsConfig, rng: np.random.Generator, setup: dict | None = None):
        n = config.num_players
        setup = Setup(setup, ("tokens", "deck", "bullets", "first_player"))
        self.config = config
        self.num_players = n
        self.actions = SecretsActions.of(n)
        self.end_size = config.end_size
        self.seating = seating(n)
        self.everyone, self.others = self.seating.everyone, self.seating.others
        self.table = SecretsTable(n)
        self.tokens = self._deal_tokens(setup.items("tokens", IDENTITIES, length=n + 1), rng)
        self.deck = deque(self._shuffled("deck", setup.items("deck", CHARACTERS, length=len(FULL_DECK)), FULL_DECK, rng))
        self.bullet_deck = deque(self._shuffled("bullets", self._setup_bullets(setup), list(BULLET_VALUES), rng))
        first = setup.seat("first_player", n)
        self.table.active = int(rng.integers(n)) if first is None else first

        self.bullets_received: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (giver, value)
        self.turned_down: list[list[int]] = [[] for _ in range(n)]  # characters turned face down, per screen
        self.in_hand: list[int] = []  # drawn this turn, neither back in the deck nor on a screen
        self.receiver = NOBODY  # who added the card and applies its effect
        self.bullet_in_hand: int | None = None
        self.touched: set[int] = set()  # screens that got a card this turn
        self.over = False
        self.masks = LegalMasks.of(config)

    # --- the deal -----------------------------------------------------

    def _deal_tokens(self, tokens: list[int] | None, rng: np.random.Generator) -> list[int]:
        counts = self.config.token_counts
        in_play = [kind for kind, count in enumerate(counts) for _ in range(count)]
        if tokens is None:
            rng.shuffle(in_play)  # (Generator.shuffle of a list draws as it would for rng.permutation)
            return in_play
        if sorted(tokens) != in_play:
            raise ValueError(
                f"setup tokens must hold {counts} CIA, KGB and Hippie tokens for {self.num_players} players "
                f"(the last one is the centre); got {[IDENTITIES[t] for t in tokens]}"
            )
        return tokens

    @staticmethod
    def _shuffled(key: str, given: list | None, cards: list, rng: np.random.Generator) -> list:
        if given is None:
            cards = list(cards)
            rng.shuffle(cards)
            return cards
        if sorted(given) != sorted(cards):
            raise ValueError(f"setup {key} must be the {len(cards)} cards of the game in some order; got {given}")
        return given

    @staticmethod
    def _setup_bullets(setup: Setup) -> list[int] | None:
        values = setup.sequence("bullets", length=len(BULLET_VALUES))
        if values is None:
            return None
        if not all(is_int(v) for v in values) or sorted(int(v) for v in values) != sorted(BULLET_VALUES):
            raise ValueError(f"setup bullets must be the values {BULLET_VALUES} in some order; got {values}")
        return [int(v) for v in values]

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list:
        n = self.num_players
        events = [Looked((s,), s, s, self.tokens[s]) for s in range(n)]
        if n >= 5:  # each seat also sees its right neighbour's token
            events += [Looked((s,), s, (s - 1) % n, self.tokens[(s - 1) % n]) for s in range(n)]
        if n >= 7:  # the centre token is shown to everyone
            events.append(Looked(self.everyone, NOBODY, n, self.tokens[n]))
        self._start_turn(events)
        return events

    def legal_mask(self) -> np.ndarray:
        if self.over:
            return self.masks.none
        if self.table.decision == CHOOSE:
            return self.masks.choose[self.table.revealed]
        return self.masks.of_decision[self.table.decision]

    def illegal_reason(self, action: int) -> str:
        if self.over:
            return "the game is over"
        decision = self.table.decision
        if self.actions.kind[action] != decision:
            return f"the decision now is {DECISIONS[decision]!r}"
        if decision == CHOOSE:
            shown = " or ".join(CHARACTERS[c] for c in self.table.revealed)
            return f"the card to offer must be one of those showing ({shown})"
        if decision == OFFER and not self.config.claims:
            return "claims are off in this game (claims=False): offer without a claim"
        return "it is not legal now"

    def reveal(self) -> Outcome:
        n = self.num_players
        scores = self.scores()
        identities = PerSeat(IDENTITIES[self.tokens[s]] for s in range(n))
        info = {
            "identities": identities,
            "centre_identity": IDENTITIES[self.tokens[n]],
            "scores": PerSeat(scores),
            "team_scores": self._team_scores(scores),
            "bullets": PerSeat([v for _, v in received] for received in self.bullets_received),
            "turns": self.table.turn,
        }
        return Outcome(winners=(), rewards=(0.0,) * n, info=info, own={"identity": identities, "score": PerSeat(scores)})

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        revealed = self.reveal()
        scores = self.scores()
        team_scores = revealed.info["team_scores"]
        lowest = min(scores)
        lowest_seats = [s for s in range(n) if scores[s] == lowest]
        if len(lowest_seats) == 1 and self.tokens[lowest_seats[0]] == HIPPIE:
            winners = (lowest_seats[0],)
            margin = min(scores[s] for s in range(n) if s != lowest_seats[0]) - lowest
            result = SeatText("{0}, a Hippie, has the lowest score and wins alone", winners)
        elif team_scores["CIA"] == team_scores["KGB"]:
            winners = ()
            margin = 0
            result = SeatText("CIA and KGB tie: everybody loses")
        else:
            team = CIA if team_scores["CIA"] > team_scores["KGB"] else KGB
            winners = tuple(s for s in range(n) if self.tokens[s] == team)
            margin = abs(team_scores["CIA"] - team_scores["KGB"])
            result = SeatText(f"{IDENTITIES[team]} wins {max(team_scores.values())} to {min(team_scores.values())}")
        unit = 1.0 if reward_mode == "win" else float(margin)
        rewards = tuple(unit if s in winners else -unit for s in range(n))
        if reward_mode == "score" and not winners:
            rewards = tuple(0.0 for _ in range(n))
        info = {"result": result, **revealed.info}
        own = {**revealed.own, "won": PerSeat(s in winners for s in range(n))}
        return Outcome(winners=winners, rewards=rewards, info=info, own=own)

    def _team_scores(self, scores: list[int]) -> dict[str, int]:
        return {
            IDENTITIES[team]: sum(scores[s] for s in range(self.num_players) if self.tokens[s] == team)
            for team in (CIA, KGB)
        }

    # --- helpers the tests and bots may read ------------------------

    def scores(self) -> list[int]:
        """Individual scores: face-up character values plus Bullets (face-down cards count 0)."""
        return [
            sum(count * value for count, value in zip(self.table.face_up[s], CARD_VALUES))
            + sum(v for _, v in self.bullets_received[s])
            for s in range(self.num_players)
        ]

    @property
    def offered_card(self) -> int:
        """The card of the Offer (hidden until it is turned face up), or NOBODY."""
        return self.in_hand[0] if len(self.in_hand) == 1 else NOBODY

    def all_character_cards(self) -> list[int]:
        """Every character card wherever it is: deck, hand, face up and face down on screens."""
        cards = list(self.deck) + self.in_hand
        for seat in self.everyone:
            for card, count in enumerate(self.table.face_up[seat]):
                cards += [card] * count
            cards += self.turned_down[seat]
        return cards

    # --- the actions, one method per decision ------------------------

    def _choose_card(self, actor: int, card: int, events: list) -> None:
        table = self.table
        other = table.revealed[1] if card == table.revealed[0] else table.revealed[0]
        self.deck.append(other)  # the card not chosen goes face down to the bottom
        table.deck_size = len(self.deck)
        self.in_hand = [card]
        events.append(CardChosen((actor,), actor, card))
        events.append(CardChosenUnseen(self.others[actor], actor))
        self._ask(OFFER, actor)

    def _offer(self, actor: int, args: tuple, events: list) -> None:
        offset, claim = args
        table = self.table
        target = self.seating.offset(actor, offset)
        table.offer_target = target
        table.claim = NOBODY if claim is None else claim
        events.append(Offered(self.everyone, actor, target, table.claim))
        un = table.un_holder
        if un != NOBODY and un != actor and un != target:
            self._ask(UN_CHOICE, un)
        else:  # RULING: a UN player who is the target simply accepts or refuses
            self._ask(ANSWER, target)

    def _un_choice(self, actor: int, intercept: bool, events: list) -> None:
        if intercept:
            events.append(Intercepted(self.everyone, actor))
            self._receive(actor, events)
        else:
            events.append(LetPass(self.everyone, actor))
            self._ask(ANSWER, self.table.offer_target)

    def _answer(self, actor: int, accept: bool, events: list) -> None:
        events.append(Answered(self.everyone, actor, accept))
        self._receive(actor if accept else self.table.active, events)

    def _psychiatrist(self, actor: int, offsets: tuple[int, int], events: list) -> None:
        a, b = (self.seating.offset(actor, k) for k in offsets)
        self._swap_tokens(a, b)
        events.append(Swapped(self.everyone, actor, a, b))
        self._end_turn(events)

    def _politician(self, actor: int, offset: int, events: list) -> None:
        target = self.seating.offset(actor, offset)
        self._add_to_screen(target, POLITICIAN, events)
        events.append(Looked((actor,), actor, target, self.tokens[target]))
        events.append(LookedUnseen(self.others[actor], actor, target))
        self._end_turn(events)

    def _diplomat(self, actor: int, side: int, events: list) -> None:
        n = self.num_players
        neighbour = self.seating.offset(actor, side)
        self._swap_tokens(neighbour, n)
        events.append(Swapped((actor,), actor, neighbour, n))
        left, right = self.seating.offset(actor, LEFT), (actor - 1) % n
        events.append(SwappedOneOf(self.others[actor], actor, ((left, n), (right, n))))
        self._end_turn(events)

    def _detective(self, actor: int, offset: int, events: list) -> None:
        place = self.num_players if offset == CENTRE else self.seating.offset(actor, offset)
        events.append(Looked((actor,), actor, place, self.tokens[place]))
        events.append(LookedUnseen(self.others[actor], actor, place))
        self._end_turn(events)

    def _assassin(self, actor: int, offset: int, events: list) -> None:
        table = self.table
        target = self.seating.offset(actor, offset)
        value = self.bullet_in_hand
        self.bullet_in_hand = None
        self.bullets_received[target].append((actor, value))
        table.bullets[target] += 1
        table.cards[target] += 1
        self.touched.add(target)
        events.append(BulletGiven(self.everyone, actor, target))
        events.append(BulletValue((actor,), actor, target, value))
        self._end_turn(events)

    RULES = {  # an action's kind -> the rule that plays it
        CHOOSE: _choose_card,
        OFFER: _offer,
        UN_CHOICE: _un_choice,
        ANSWER: _answer,
        PSYCHIATRIST_SWAP: _psychiatrist,
        POLITICIAN_TARGET: _politician,
        DIPLOMAT_SIDE: _diplomat,
        DETECTIVE_LOOK: _detective,
        ASSASSIN_TARGET: _assassin,
    }

    # --- the turn -----------------------------------------------------

    def _start_turn(self, events: list) -> None:
        table = self.table
        table.offer_target = table.claim = table.card_in_play = NOBODY
        self.receiver = NOBODY
        self.touched = set()
        deck = self.deck
        drawn = [deck.popleft()]
        if deck.count(drawn[0]) == len(deck):
            # RULING: the deck cannot show two different characters; offer the one showing.
            table.deck_size = len(deck)
            table.revealed = (drawn[0],)
            self.in_hand = drawn
            events.append(Drawn(self.everyone, table.active, tuple(drawn), table.revealed))
            self._ask(OFFER, table.active)
            return
        duplicates = []
        while True:
            card = deck.popleft()
            drawn.append(card)
            if card != drawn[0]:
                break
            duplicates.append(card)
        deck.extend(duplicates)  # face down to the bottom
        table.deck_size = len(deck)
        table.revealed = (drawn[0], card)
        self.in_hand = [drawn[0], card]
        events.append(Drawn(self.everyone, table.active, tuple(drawn), table.revealed))
        self._ask(CHOOSE, table.active)

    def _receive(self, receiver: int, events: list) -> None:
        """The Offer's card is turned face up and `receiver` adds it and applies its effect."""
        card = self.offered_card
        self.receiver = receiver
        self.table.card_in_play = card
        events.append(CardRevealed(self.everyone, receiver, card))
        if card == POLITICIAN:  # it goes to another screen of the receiver's choice
            self._ask(POLITICIAN_TARGET, receiver)
            return
        self._add_to_screen(receiver, card, events)
        self._effects[card](self, receiver, events)

    def _double_agent(self, receiver: int, events: list) -> None:
        n = self.num_players
        self._swap_tokens(receiver, n)
        events.append(Swapped(self.everyone, receiver, receiver, n))
        events.append(Looked((receiver,), receiver, receiver, self.tokens[receiver]))
        events.append(LookedUnseen(self.others[receiver], receiver, receiver))
        self._end_turn(events)

    def _journalist(self, receiver: int, events: list) -> None:
        events.append(Looked(self.others[receiver], NOBODY, receiver, self.tokens[receiver]))
        events.append(ShownUnseen((receiver,), receiver))
        self._end_turn(events)

    def _show_centre(self, receiver: int, events: list) -> None:  # the Diplomat, before its side is chosen
        events.append(Looked(self.everyone, NOBODY, self.num_players, self.tokens[self.num_players]))
        self._ask(DIPLOMAT_SIDE, receiver)

    def _draw_bullet(self, receiver: int, events: list) -> None:  # the Assassin, before its target is chosen
        self.bullet_in_hand = self.bullet_deck.popleft()
        events.append(BulletDrawn((receiver,), receiver, self.bullet_in_hand))
        events.append(BulletDrawnUnseen(self.others[receiver], receiver))
        self._ask(ASSASSIN_TARGET, receiver)

    def _no_effect(self, receiver: int, events: list) -> None:  # the Scientist: its effect happened as it landed
        self._end_turn(events)

    # What each card does once it lands on the receiver's screen (the Politician lands elsewhere, above).
    _effects = {
        DOUBLE_AGENT: _double_agent,
        PSYCHIATRIST: lambda self, receiver, events: self._ask(PSYCHIATRIST_SWAP, receiver),
        DETECTIVE: lambda self, receiver, events: self._ask(DETECTIVE_LOOK, receiver),
        JOURNALIST: _journalist,
        SCIENTIST: _no_effect,
        DIPLOMAT: _show_centre,
        ASSASSIN: _draw_bullet,
    }

    def _add_to_screen(self, seat: int, card: int, events: list) -> None:
        self.in_hand = []
        face_up = self.table.face_up[seat]
        face_up[card] += 1
        self.table.cards[seat] += 1
        self.touched.add(seat)
        events.append(CardAdded(self.everyone, seat, card))
        if card == SCIENTIST and face_up[SCIENTIST] >= 2:
            flipped = tuple(down for down, count in enumerate(face_up) for _ in range(count))
            self.turned_down[seat] += flipped
            self.table.face_down[seat] += len(flipped)
            face_up[:] = [0] * NUM_CHARACTERS
            events.append(ScientistsFlipped(self.everyone, seat, flipped))

    def _swap_tokens(self, p: int, q: int) -> None:
        self.tokens[p], self.tokens[q] = self.tokens[q], self.tokens[p]

    def _end_turn(self, events: list) -> None:
        table = self.table
        for seat in sorted(self.touched):  # identical face-up pairs turn face down
            face_up = table.face_up[seat]
            if max(face_up) < 2:
                continue
            for card, count in enumerate(face_up):
                if count >= 2:
                    pairs = count // 2
                    face_up[card] -= 2 * pairs
                    table.face_down[seat] += 2 * pairs
                    self.turned_down[seat] += [card] * (2 * pairs)
                    events.append(PairTurnedDown(self.everyone, seat, card))
        self._update_un_token(events)
        table.turn += 1
        if max(table.cards) >= self.end_size:  # reached this turn: any earlier and the game would be over
            self.over = True
            table.decision = GAME_OVER
            table.to_act = NOBODY
            events.append(GameOver(self.everyone))
            return
        table.active = (table.active + 1) % self.num_players
        self._start_turn(events)

    def _update_un_token(self, events: list) -> None:
        table = self.table
        fewest = min(table.cards)
        holder = table.cards.index(fewest) if table.cards.count(fewest) == 1 else NOBODY
        if holder != table.un_holder:
            table.un_holder = holder
            events.append(UnToken(self.everyone, holder))
