"""The rules of Secrets: state, legal actions and their effects.

Plain Python and NumPy; no PettingZoo here. The public table (`SecretsTable`)
is what every seat sees; the rest of the state (tokens, decks, the card in
the Offer, Bullet values) is private to the engine and reaches seats only as
`Event`s addressed to the seats that see them.

Places of identity tokens are numbered 0..n-1 for the players and n for the
centre.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

import numpy as np

from hidden_role_envs.core.game import Event, Outcome, RulesEngine, new_event
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
    secrets_actions,
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
    TOKENS_BY_PLAYERS,
    screen_size_that_ends_the_game,
)

NOBODY = -1
GAME_OVER = -1  # table.decision once the game has ended

FULL_DECK = [card for card, copies in enumerate(CARD_COPIES) for _ in range(copies)]
# players -> the identity tokens in play, sorted
TOKEN_MULTISETS = {
    n: [kind for kind, count in enumerate(counts) for _ in range(count)] for n, counts in TOKENS_BY_PLAYERS.items()
}


@dataclass(frozen=True)
class SecretsConfig:
    num_players: int
    claims: bool = True


class LegalMasks:
    """Every legal-action mask a game of one configuration can show, built once, shared and read-only.

    Each decision has a fixed set of legal actions, except the choice of the
    card to offer: its mask depends on the two characters showing.
    """

    def __init__(self, config: SecretsConfig):
        self.config = config
        actions = secrets_actions(config.num_players)
        self.none = self._mask([])
        self.of_decision = {}
        for decision, ids in actions.of_kind.items():
            if decision == OFFER and not config.claims:
                ids = [a for a in ids if actions.meaning[a][1][1] is None]
            self.of_decision[decision] = self._mask(ids)
        # CHOOSE ids are the character indices, so `choose <card>` is id `card`
        self.choose = {shown: self._mask(shown) for shown in permutations(range(NUM_CHARACTERS), 2)}

    def _mask(self, ids) -> np.ndarray:
        mask = np.zeros(len(secrets_actions(self.config.num_players)), dtype=np.int8)
        mask[list(ids)] = 1
        mask.flags.writeable = False
        return mask

    # Shared and immutable: copies keep sharing it.
    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (legal_masks, (self.config,))


@lru_cache(maxsize=None)
def legal_masks(config: SecretsConfig) -> LegalMasks:
    return LegalMasks(config)


@lru_cache(maxsize=None)
def seats(num_players: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Every seat, and for each seat all the others: the audiences of events."""
    everyone = tuple(range(num_players))
    return everyone, tuple(everyone[:seat] + everyone[seat + 1 :] for seat in everyone)


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

    def cards_on_screen(self, seat: int) -> int:
        return self.cards[seat]


def _parse_items(value, names: tuple[str, ...], what: str) -> list[int]:
    items = []
    for item in value:
        if isinstance(item, str):
            if item not in names:
                raise ValueError(f"setup {what}: unknown name {item!r}; expected one of {names}")
            items.append(names.index(item))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < len(names):
            items.append(int(item))
        else:
            raise ValueError(f"setup {what}: {item!r} is neither a name in {names} nor an index")
    return items


class SecretsGame(RulesEngine):
    """One game of Secrets.

    `setup` may fix the deal, for scenarios and tests: `tokens` (n+1
    identities, the last is the centre), `deck` (the 29 characters, top
    first), `bullets` (the four values, top first) and `first_player`.
    Anything not given is shuffled with `rng`.
    """

    def __init__(self, config: SecretsConfig, rng: np.random.Generator, setup: dict | None = None):
        n = config.num_players
        setup = dict(setup or {})
        unknown = set(setup) - {"tokens", "deck", "bullets", "first_player"}
        if unknown:
            raise ValueError(f"unknown setup key(s) {sorted(unknown)}; allowed: tokens, deck, bullets, first_player")
        self.config = config
        self.num_players = n
        self.actions = secrets_actions(n)
        self.end_size = screen_size_that_ends_the_game(n)
        self.everyone, self.others = seats(n)
        self.table = SecretsTable(n)

        token_multiset = TOKEN_MULTISETS[n]
        if "tokens" in setup:
            tokens = _parse_items(setup["tokens"], IDENTITIES, "tokens")
            if sorted(tokens) != token_multiset:
                raise ValueError(
                    f"setup tokens must hold {TOKENS_BY_PLAYERS[n]} CIA, KGB and Hippie tokens for {n} players "
                    f"(the last one is the centre); got {[IDENTITIES[t] for t in tokens]}"
                )
        else:
            tokens = list(token_multiset)
            rng.shuffle(tokens)  # (Generator.shuffle of a list draws as it would for rng.permutation)
        self.tokens = tokens

        if "deck" in setup:
            deck = _parse_items(setup["deck"], CHARACTERS, "deck")
            if sorted(deck) != FULL_DECK:
                raise ValueError("setup deck must be the 29 character cards of the game, in any order")
        else:
            deck = list(FULL_DECK)
            rng.shuffle(deck)
        self.deck = deque(deck)

        if "bullets" in setup:
            bullets = [int(v) for v in setup["bullets"]]
            if sorted(bullets) != sorted(BULLET_VALUES):
                raise ValueError(f"setup bullets must be the values {BULLET_VALUES} in some order; got {bullets}")
        else:
            bullets = list(BULLET_VALUES)
            rng.shuffle(bullets)
        self.bullet_deck = deque(bullets)

        first = setup.get("first_player")
        if first is None:
            first = int(rng.integers(n))
        elif isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 0 <= first < n:
            raise ValueError(f"setup first_player must be a seat from 0 to {n - 1}; got {first!r}")
        self.table.active = int(first)

        self.bullets_received: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (giver, value)
        self.turned_down: list[list[int]] = [[] for _ in range(n)]  # characters turned face down, per screen
        self.in_hand: list[int] = []  # drawn this turn, neither back in the deck nor on a screen
        self.receiver = NOBODY  # who added the card and applies its effect
        self.bullet_in_hand: int | None = None
        self.touched: set[int] = set()  # screens that got a card this turn
        self.over = False
        self.masks = legal_masks(config)

    # --- RulesEngine --------------------------------------------------

    def start(self) -> list[Event]:
        n = self.num_players
        events = [new_event(("looked", (s,), (s, s, self.tokens[s]))) for s in range(n)]
        if n >= 5:  # each seat also sees its right neighbour's token
            events += [new_event(("looked", (s,), (s, (s - 1) % n, self.tokens[(s - 1) % n]))) for s in range(n)]
        if n >= 7:  # the centre token is shown to everyone
            events.append(new_event(("looked", self.everyone, (NOBODY, n, self.tokens[n]))))
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
        kind, _ = self.actions.meaning[action]
        if kind != decision:
            return f"the decision now is {DECISIONS[decision]!r}"
        if decision == CHOOSE:
            shown = " or ".join(CHARACTERS[c] for c in self.table.revealed)
            return f"the card to offer must be one of those showing ({shown})"
        if decision == OFFER and not self.config.claims:
            return "claims are off in this game (claims=False): offer without a claim"
        return "it is not legal now"

    def apply(self, action: int) -> list[Event]:
        kind, arg = self.actions.meaning[action]
        events: list[Event] = []
        table = self.table
        actor = table.to_act
        n = self.num_players
        if kind == CHOOSE:
            self._choose_card(arg, events)
        elif kind == OFFER:
            offset, claim = arg
            self._make_offer((actor + offset) % n, NOBODY if claim is None else claim, events)
        elif kind == UN_CHOICE:
            if arg:
                events.append(new_event(("intercepted", self.everyone, (actor,))))
                self._receive(actor, events)
            else:
                events.append(new_event(("let_pass", self.everyone, (actor,))))
                self._ask(ANSWER, table.offer_target)
        elif kind == ANSWER:
            events.append(new_event(("accepted" if arg else "refused", self.everyone, (actor,))))
            self._receive(actor if arg else table.active, events)
        elif kind == PSYCHIATRIST_SWAP:
            a, b = ((actor + k) % n for k in arg)
            self._swap_tokens(a, b)
            events.append(new_event(("swapped", self.everyone, (actor, a, b))))
            self._end_turn(events)
        elif kind == POLITICIAN_TARGET:
            target = (actor + arg) % n
            self._add_to_screen(target, POLITICIAN, events)
            events.append(new_event(("looked", (actor,), (actor, target, self.tokens[target]))))
            events.append(new_event(("looked_unseen", self.others[actor], (actor, target))))
            self._end_turn(events)
        elif kind == DIPLOMAT_SIDE:
            neighbour = (actor + arg) % n
            self._swap_tokens(neighbour, n)
            events.append(new_event(("swapped", (actor,), (actor, neighbour, n))))
            left, right = (actor + LEFT) % n, (actor - 1) % n
            events.append(new_event(("swapped_one_of", self.others[actor], (actor, ((left, n), (right, n))))))
            self._end_turn(events)
        elif kind == DETECTIVE_LOOK:
            place = n if arg == CENTRE else (actor + arg) % n
            events.append(new_event(("looked", (actor,), (actor, place, self.tokens[place]))))
            events.append(new_event(("looked_unseen", self.others[actor], (actor, place))))
            self._end_turn(events)
        elif kind == ASSASSIN_TARGET:
            target = (actor + arg) % n
            value = self.bullet_in_hand
            self.bullet_in_hand = None
            self.bullets_received[target].append((actor, value))
            table.bullets[target] += 1
            table.cards[target] += 1
            self.touched.add(target)
            events.append(new_event(("bullet_given", self.everyone, (actor, target))))
            events.append(new_event(("bullet_value", (actor,), (actor, target, value))))
            self._end_turn(events)
        return events

    def outcome(self, reward_mode: str) -> Outcome:
        if not self.over:
            raise RuntimeError("the game is not over")
        n = self.num_players
        scores = self.scores()
        identities = [self.tokens[s] for s in range(n)]
        lowest = min(scores)
        lowest_seats = [s for s in range(n) if scores[s] == lowest]
        team_scores = {
            "CIA": sum(scores[s] for s in range(n) if identities[s] == CIA),
            "KGB": sum(scores[s] for s in range(n) if identities[s] == KGB),
        }
        if len(lowest_seats) == 1 and identities[lowest_seats[0]] == HIPPIE:
            winners = (lowest_seats[0],)
            margin = min(scores[s] for s in range(n) if s != lowest_seats[0]) - lowest
            result = f"player_{lowest_seats[0]}, a Hippie, has the lowest score and wins alone"
        elif team_scores["CIA"] == team_scores["KGB"]:
            winners = ()
            margin = 0
            result = "CIA and KGB tie: everybody loses"
        else:
            team = CIA if team_scores["CIA"] > team_scores["KGB"] else KGB
            winners = tuple(s for s in range(n) if identities[s] == team)
            margin = abs(team_scores["CIA"] - team_scores["KGB"])
            result = f"{IDENTITIES[team]} wins {max(team_scores.values())} to {min(team_scores.values())}"
        unit = 1.0 if reward_mode == "win" else float(margin)
        rewards = tuple(unit if s in winners else -unit for s in range(n))
        if reward_mode == "score" and not winners:
            rewards = tuple(0.0 for _ in range(n))
        info = {
            "result": result,
            "winners": [f"player_{s}" for s in winners],
            "identities": {f"player_{s}": IDENTITIES[identities[s]] for s in range(n)},
            "centre_identity": IDENTITIES[self.tokens[n]],
            "scores": {f"player_{s}": scores[s] for s in range(n)},
            "team_scores": team_scores,
            "bullets": {f"player_{s}": [v for _, v in self.bullets_received[s]] for s in range(n)},
            "turns": self.table.turn,
        }
        per_seat = tuple(
            {"identity": IDENTITIES[identities[s]], "score": scores[s], "won": s in winners} for s in range(n)
        )
        return Outcome(winners=winners, rewards=rewards, info=info, per_seat_info=per_seat)

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

    # --- the turn -----------------------------------------------------

    def _ask(self, decision: int, seat: int) -> None:
        self.table.decision = decision
        self.table.to_act = seat

    def _start_turn(self, events: list[Event]) -> None:
        table = self.table
        table.offer_target = table.claim = table.card_in_play = NOBODY
        self.receiver = NOBODY
        self.touched = set()
        deck = self.deck
        drawn = [deck.popleft()]
        if deck.count(drawn[0]) == len(deck):
            # RULING: the deck cannot show two different characters; offer the one showing.
            table.revealed = (drawn[0],)
            self.in_hand = drawn
            events.append(new_event(("drawn", self.everyone, (table.active, tuple(drawn), table.revealed))))
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
        table.revealed = (drawn[0], card)
        self.in_hand = [drawn[0], card]
        events.append(new_event(("drawn", self.everyone, (table.active, tuple(drawn), table.revealed))))
        self._ask(CHOOSE, table.active)

    def _choose_card(self, card: int, events: list[Event]) -> None:
        table = self.table
        other = table.revealed[1] if card == table.revealed[0] else table.revealed[0]
        self.deck.append(other)  # the card not chosen goes face down to the bottom
        self.in_hand = [card]
        events.append(new_event(("card_chosen", (table.active,), (table.active, card))))
        events.append(new_event(("card_chosen_unseen", self.others[table.active], (table.active,))))
        self._ask(OFFER, table.active)

    def _make_offer(self, target: int, claim: int, events: list[Event]) -> None:
        table = self.table
        table.offer_target = target
        table.claim = claim
        events.append(new_event(("offered", self.everyone, (table.active, target, claim))))
        un = table.un_holder
        if un != NOBODY and un != table.active and un != target:
            self._ask(UN_CHOICE, un)
        else:  # RULING: a UN player who is the target simply accepts or refuses
            self._ask(ANSWER, target)

    def _receive(self, receiver: int, events: list[Event]) -> None:
        """The Offer's card is turned face up and `receiver` adds it and applies its effect."""
        card = self.offered_card
        table = self.table
        self.receiver = receiver
        table.card_in_play = card
        events.append(new_event(("card_revealed", self.everyone, (receiver, card))))
        if card == POLITICIAN:  # it goes to another screen of the receiver's choice
            self._ask(POLITICIAN_TARGET, receiver)
            return
        self._add_to_screen(receiver, card, events)
        n = self.num_players
        if card == PSYCHIATRIST:
            self._ask(PSYCHIATRIST_SWAP, receiver)
        elif card == DOUBLE_AGENT:
            self._swap_tokens(receiver, n)
            events.append(new_event(("swapped", self.everyone, (receiver, receiver, n))))
            events.append(new_event(("looked", (receiver,), (receiver, receiver, self.tokens[receiver]))))
            events.append(new_event(("looked_unseen", self.others[receiver], (receiver, receiver))))
            self._end_turn(events)
        elif card == JOURNALIST:
            events.append(new_event(("looked", self.others[receiver], (NOBODY, receiver, self.tokens[receiver]))))
            events.append(new_event(("shown_unseen", (receiver,), (receiver,))))
            self._end_turn(events)
        elif card == DIPLOMAT:
            events.append(new_event(("looked", self.everyone, (NOBODY, n, self.tokens[n]))))
            self._ask(DIPLOMAT_SIDE, receiver)
        elif card == DETECTIVE:
            self._ask(DETECTIVE_LOOK, receiver)
        elif card == ASSASSIN:
            self.bullet_in_hand = self.bullet_deck.popleft()
            events.append(new_event(("bullet_drawn", (receiver,), (receiver, self.bullet_in_hand))))
            events.append(new_event(("bullet_drawn_unseen", self.others[receiver], (receiver,))))
            self._ask(ASSASSIN_TARGET, receiver)
        else:  # Scientist: its effect, if any, happened as it landed
            self._end_turn(events)

    def _add_to_screen(self, seat: int, card: int, events: list[Event]) -> None:
        self.in_hand = []
        face_up = self.table.face_up[seat]
        face_up[card] += 1
        self.table.cards[seat] += 1
        self.touched.add(seat)
        events.append(new_event(("card_added", self.everyone, (seat, card))))
        if card == SCIENTIST and face_up[SCIENTIST] >= 2:
            for down, count in enumerate(face_up):
                self.turned_down[seat] += [down] * count
            self.table.face_down[seat] += sum(face_up)
            face_up[:] = [0] * NUM_CHARACTERS
            events.append(new_event(("scientists_flipped", self.everyone, (seat,))))

    def _swap_tokens(self, p: int, q: int) -> None:
        self.tokens[p], self.tokens[q] = self.tokens[q], self.tokens[p]

    def _end_turn(self, events: list[Event]) -> None:
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
                    events.append(new_event(("pair_turned_down", self.everyone, (seat, card))))
        self._update_un_token(events)
        table.turn += 1
        if max(table.cards) >= self.end_size:  # reached this turn: any earlier and the game would be over
            self.over = True
            table.decision = GAME_OVER
            table.to_act = NOBODY
            events.append(new_event(("game_over", self.everyone, ())))
            return
        table.active = (table.active + 1) % self.num_players
        self._start_turn(events)

    def _update_un_token(self, events: list[Event]) -> None:
        table = self.table
        fewest = min(table.cards)
        holder = table.cards.index(fewest) if table.cards.count(fewest) == 1 else NOBODY
        if holder != table.un_holder:
            table.un_holder = holder
            events.append(new_event(("un_token", self.everyone, (holder,))))
