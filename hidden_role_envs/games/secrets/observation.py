"""What a Secrets seat knows, as a vector of named blocks.

Built from two sources only: the public table and the events the seat saw.
The hidden state of the engine is never read here, so an observation cannot
depend on anything its seat has not seen.

Seats are relative to the observer: row 0 is the observer, row k the seat k
places to its left (seat (observer + k) mod n). Places of identity tokens
are those seats in the same order, then the centre.
"""

from __future__ import annotations

import numpy as np

from hidden_role_envs.core.events import ByKind
from hidden_role_envs.core.observation import Block, Observer, Schema
from hidden_role_envs.core.seats import NOBODY
from hidden_role_envs.games.secrets import events as ev
from hidden_role_envs.games.secrets.actions import DECISIONS
from hidden_role_envs.games.secrets.cards import BULLET_VALUES, CARD_COPIES, CHARACTERS, IDENTITIES, NUM_CHARACTERS
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.games.secrets.knowledge import TEAMS, token_beliefs
from hidden_role_envs.games.secrets.rules import GAME_OVER

C, B = NUM_CHARACTERS, len(BULLET_VALUES)
BOTTOM = 16  # cards at the bottom of the deck shown in `deck_bottom`
SCHEMA = Schema(
    [
        Block("face_up", ("n", C), 0, max(CARD_COPIES), "face-up characters on each screen, by character", rotate=(0,)),
        Block("face_down", ("n",), 0, 29, "face-down cards on each screen", rotate=(0,)),
        Block("bullets_received", ("n",), 0, 4, "Bullets on each screen", rotate=(0,)),
        Block("bullet_givers", ("n", "n"), 0, 4, "Bullets on each screen (row) by the seat that gave them (column)",
              rotate=(0, 1)),
        Block("active_player", ("n",), 0, 1, "one-hot: whose turn it is", "turn", rotate=(0,)),
        Block("revealed", (C,), 0, 1, "the two characters showing this turn (one under the single-character ruling)",
              "turn"),
        Block("offered_card", (C,), 0, 1, "one-hot: the Offer's card if this seat knows it (the active player after "
              "choosing; everyone once it is turned up)", "own"),
        Block("offer_target", ("n",), 0, 1, "one-hot: the target of the Offer in progress", "turn", rotate=(0,)),
        Block("claim", (C,), 0, 1, "one-hot: the character the active player claimed (zeros: no claim)", "turn"),
        Block("un_holder", ("n+1",), 0, 1, "one-hot: the UN player; the last entry means the token is in the centre",
              rotate=(0,)),
        Block("decision", (len(DECISIONS),), 0, 1, "one-hot: the decision asked (choose, offer, UN, answer, "
              "Psychiatrist, Politician, Diplomat, Detective, Assassin)", "turn"),
        Block("to_act", ("n",), 0, 1, "one-hot: the seat asked", "turn", rotate=(0,)),
        Block("bullet_in_hand", (B,), 0, 1, "one-hot value (0, -1, -2, -3) of the Bullet this seat drew and must give",
              "own"),
        Block("bullets_given", ("n", B), 0, 1, "the Bullets this seat gave, by receiver and value", "own", rotate=(0,)),
        Block("identity", ("n+1", 3), 0, 1, "this seat's probability that each place (seats, then the centre) holds "
              "CIA, KGB, Hippie", "belief", rotate=(0,)),
        Block("teammate", ("n",), 0, 1, "this seat's probability that each seat is on its team (same token, CIA or "
              "KGB; 0 for a Hippie's own row)", "belief", rotate=(0,)),
        Block("turn", (1,), 0, "4*n+1", "turns completed"),
        Block("deck_size", (1,), 0, 29, "cards left in the character deck"),
        Block("deck_bottom", (BOTTOM, C), 0, 1, f"the last {BOTTOM} cards of the deck, the bottom card first: "
              "P(character) where this seat knows it (duplicates drawn, the card not chosen), zeros beyond", "own"),
        Block("face_down_characters", ("n", C), 0, 6, "the characters turned face down on each screen (pairs, "
              "Scientists)", "record", rotate=(0,)),
        Block("offers", ("n", "n", 4), 0, 29, "Offers from each seat (row) to each (column): made, accepted, "
              "refused, intercepted by the UN player", "record", rotate=(0, 1)),
        Block("claims", ("n", C, 3), 0, 29, "each seat's claims, by the character claimed: made, shown true, shown "
              "false (the card is turned up)", "record", rotate=(0,)),
        Block("offered_cards", ("n", C), 0, 29, "the characters each seat offered, once turned up", "record",
              rotate=(0,)),
        Block("interceptions", ("n",), 0, 29, "the Offers each seat intercepted as the UN player", "record",
              rotate=(0,)),
        Block("looks", ("n", "n+1"), 0, 29, "who (row) looked at which token (column: seats, then the centre) with "
              "a Detective, a Politician or a Double Agent", "record", rotate=(0, 1)),
    ]
)
TURN_BLOCKS = ("active_player", "revealed", "offer_target", "claim", "un_holder", "decision", "to_act")
DECK_SIZE = 29


def secrets_layout(config: SecretsConfig):
    return SCHEMA.layout({"n": config.num_players})


class SecretsObserver(Observer):
    """Screens and Bullets are written when they change; the turn's blocks after every step; the Offer's
    card, the known bottom of the deck and the beliefs when a seat is encoded (the last two only if they
    changed for that seat: every seat's bottom changes every turn, and usually one seat is encoded)."""

    def __init__(self, config: SecretsConfig):
        super().__init__(secrets_layout(config))
        self.config = config
        self.num_players = config.num_players
        self._at = self.layout.at
        self._turn_entries = self.layout.entries(TURN_BLOCKS)
        self._offered_at = [where.start for where in _seat_slices(self.layout, "offered_card")]
        self._identity_at = _seat_slices(self.layout, "identity")
        self._teammate_at = _seat_slices(self.layout, "teammate")
        self.on = ByKind(
            "SecretsObserver",
            ev.EVENTS,
            {
                ev.Looked: self._looked,
                ev.Swapped: self._swapped,
                ev.SwappedOneOf: self._swapped_one_of,
                ev.Drawn: self._drawn,
                ev.CardChosen: self._card_chosen,
                ev.CardChosenUnseen: self._card_chosen_unseen,
                ev.CardRevealed: self._card_revealed,
                ev.CardAdded: self._screen_changed,
                ev.PairTurnedDown: self._pair_turned_down,
                ev.ScientistsFlipped: self._scientists_flipped,
                ev.BulletDrawn: self._bullet_drawn,
                ev.BulletGiven: self._bullet_given,
                ev.BulletValue: self._bullet_value,
                ev.Offered: self._offered,
                ev.Intercepted: self._intercepted,
                ev.Answered: self._answered,
                ev.LookedUnseen: self._looked_unseen,
                ev.LetPass: None,
                ev.UnToken: None,
                ev.ShownUnseen: None,
                ev.BulletDrawnUnseen: None,
                ev.GameOver: None,
            },
        )

    def start(self) -> None:
        n = self.num_players
        self.beliefs = token_beliefs(self.config)
        self._stale_beliefs = [True] * n  # the identity and teammate blocks to recompute before encoding
        self.known_offer = [NOBODY] * n  # the Offer's card, as each seat knows it
        self._offer_written = [NOBODY] * n  # the card each seat's offered_card block shows
        self.bullet_in_hand: list[int | None] = [None] * n
        self._offer = (NOBODY, NOBODY, NOBODY)  # the Offer in progress: active, target, claim
        # the cards put at the bottom of the deck, oldest first, as each seat knows them (a probability per character)
        self.bottom: list[list[np.ndarray]] = [[] for _ in range(n)]
        # the card not chosen this turn, as the seats not choosing see it: those seats, the two cards shown, and the
        # entry of their lists that stands for it (one array they share, made certain once the Offer's card is up)
        self._unchosen: tuple[tuple[int, ...], tuple[int, ...], np.ndarray] | None = None
        self._bottom_changed: set[int] = set()  # seats whose deck_bottom block is to write again

    # --- event time -------------------------------------------------------

    def _looked(self, e) -> None:
        self.beliefs.see(e.seen_by, e.place, e.identity)
        self._beliefs_changed(e.seen_by)

    def _looked_unseen(self, e) -> None:
        """A look every other seat watched: with the looker's own, it is public, so the shared record counts it."""
        self.known["looks"][e.looker, e.place] += 1

    def _swapped(self, e) -> None:
        self.beliefs.swap(e.seen_by, e.p, e.q)
        self._beliefs_changed(e.seen_by)

    def _swapped_one_of(self, e) -> None:
        self.beliefs.swap_one_of(e.seen_by, e.alternatives)
        self._beliefs_changed(e.seen_by)

    def _drawn(self, e) -> None:
        card = e.revealed[0] if len(e.revealed) == 1 else NOBODY
        for s in e.seen_by:
            self.known_offer[s] = card
        duplicates = e.drawn[1:-1] if len(e.revealed) == 2 else ()  # shown, then face down to the bottom
        left = self.table.deck_size - len(duplicates)  # the deck after the draw, before the duplicates went under
        for s in e.seen_by:
            kept = self.bottom[s]
            if len(kept) > left:  # the deck got shorter than what is known of its bottom: the top of that was drawn
                del kept[: len(kept) - left]
                self._bottom_changed.add(s)
            if duplicates:
                kept += [_certain(card) for card in duplicates]
                self._bottom_changed.add(s)

    def _card_chosen(self, e) -> None:
        """The chooser knows which card went to the bottom."""
        for s in e.seen_by:
            self.known_offer[s] = e.card
            shown = self.table.revealed
            other = shown[1] if e.card == shown[0] else shown[0]
            self.bottom[s].append(_certain(other))
            self._bottom_changed.add(s)

    def _card_chosen_unseen(self, e) -> None:
        """The others know the card at the bottom is one of the two shown, not which, until the Offer's card is turned up."""
        shown = self.table.revealed
        either = np.zeros(C, dtype=np.float32)
        either[list(shown)] = 0.5
        for s in e.seen_by:
            self.bottom[s].append(either)
            self._bottom_changed.add(s)
        self._unchosen = (e.seen_by, shown, either)

    def _card_revealed(self, e) -> None:
        for s in e.seen_by:
            self.known_offer[s] = e.card
        if self._unchosen is not None:  # the other card shown is the one at the bottom, for every seat that did not choose
            seats, shown, either = self._unchosen
            either[:] = _certain(shown[1] if e.card == shown[0] else shown[0])
            self._bottom_changed.update(seats)
            self._unchosen = None
        active, _, claim = self._offer
        self.known["offered_cards"][active, e.card] += 1
        if claim != NOBODY:
            self.known["claims"][active, claim, 1 if claim == e.card else 2] += 1

    def _screen_changed(self, e) -> None:
        self.known["face_up"][e.seat] = self.table.face_up[e.seat]
        self.known["face_down"][e.seat] = self.table.face_down[e.seat]

    def _pair_turned_down(self, e) -> None:
        self._screen_changed(e)
        self.known["face_down_characters"][e.seat, e.card] += 2

    def _scientists_flipped(self, e) -> None:
        self._screen_changed(e)
        for card in e.cards:
            self.known["face_down_characters"][e.seat, card] += 1

    def _offered(self, e) -> None:
        self._offer = (e.active, e.target, e.claim)
        self.known["offers"][e.active, e.target, 0] += 1
        if e.claim != NOBODY:
            self.known["claims"][e.active, e.claim, 0] += 1

    def _intercepted(self, e) -> None:
        active, target, _ = self._offer
        self.known["offers"][active, target, 3] += 1
        self.known["interceptions"][e.seat] += 1

    def _answered(self, e) -> None:
        active, target, _ = self._offer
        self.known["offers"][active, target, 1 if e.accepted else 2] += 1

    def _bullet_drawn(self, e) -> None:
        self.bullet_in_hand[e.seat] = e.value
        self.known["bullet_in_hand"][e.seat, BULLET_VALUES.index(e.value)] = 1

    def _bullet_given(self, e) -> None:
        self.known["bullets_received"][e.receiver] = self.table.bullets[e.receiver]
        self.known["bullet_givers"][e.receiver, e.giver] += 1

    def _bullet_value(self, e) -> None:
        self.bullet_in_hand[e.giver] = None
        self.known["bullet_in_hand"][e.giver] = 0
        self.known["bullets_given"][e.giver, e.receiver, BULLET_VALUES.index(e.value)] = 1

    def _beliefs_changed(self, seats) -> None:
        for s in seats:
            self._stale_beliefs[s] = True

    # --- after a step, and at encode time -------------------------------------

    def after_update(self) -> None:
        """The turn's one-hot blocks, from the public table."""
        table = self.table
        at = self._at
        state = self.state
        state[self._turn_entries] = 0
        state[at["active_player"] + table.active] = 1
        for card in table.revealed:
            state[at["revealed"] + card] = 1
        if table.offer_target != NOBODY:
            state[at["offer_target"] + table.offer_target] = 1
        if table.claim != NOBODY:
            state[at["claim"] + table.claim] = 1
        state[at["un_holder"] + (self.num_players if table.un_holder == NOBODY else table.un_holder)] = 1
        if table.decision != GAME_OVER:
            state[at["decision"] + table.decision] = 1
        if table.to_act != NOBODY:
            state[at["to_act"] + table.to_act] = 1
        state[at["turn"]] = table.turn
        state[at["deck_size"]] = table.deck_size

    def refresh(self, seat: int) -> None:
        card, written = self.known_offer[seat], self._offer_written[seat]
        if card != written:  # the one-hot moves: two entries of the state
            if written != NOBODY:
                self.state[self._offered_at[seat] + written] = 0
            if card != NOBODY:
                self.state[self._offered_at[seat] + card] = 1
            self._offer_written[seat] = card
        if seat in self._bottom_changed:
            self._bottom_changed.discard(seat)
            bottom = self.known["deck_bottom"][seat]
            bottom.fill(0)
            known = self.bottom[seat][-BOTTOM:][::-1]  # the bottom card first
            if known:
                bottom[: len(known)] = known
        if self._stale_beliefs[seat]:
            # the seat's `beliefs.marginals` and `same_kind(seat, seat, TEAMS)`, written straight into its float32
            # blocks with one sum of the weights; their clip to [0, 1] changes nothing here: a ratio a few float64
            # ulps past 1 (the only way out of [0, 1]) is 1.0 in float32
            weights = self.beliefs.weights[seat]
            total = weights.sum()
            table = self.beliefs.table
            np.divide(weights @ table.indicator, total, out=self.state[self._identity_at[seat]])
            teammate = (weights @ table.agreement(seat, TEAMS))[: self.num_players]
            np.divide(teammate, total, out=self.state[self._teammate_at[seat]])
            self._stale_beliefs[seat] = False

    def describe(self, seat: int) -> str:
        n = self.num_players
        marginals = self.beliefs.marginals(seat)
        lines = []
        for place in list(range(n)) + [n]:
            name = "centre" if place == n else ("you" if place == seat else f"player_{place}")
            probs = marginals[place]
            known = [IDENTITIES[k] for k in range(len(IDENTITIES)) if probs[k] > 0.999]
            text = known[0] if known else ", ".join(f"{IDENTITIES[k]} {probs[k]:.0%}" for k in range(3) if probs[k] > 0)
            lines.append(f"  token of {name}: {text}")
        if self.known_offer[seat] != NOBODY and self.table.card_in_play == NOBODY:
            lines.append(f"  the card of the Offer is {CHARACTERS[self.known_offer[seat]]}")
        if self.bullet_in_hand[seat] is not None:
            lines.append(f"  the Bullet in your hand is worth {self.bullet_in_hand[seat]}")
        for receiver in range(n):
            given = [BULLET_VALUES[i] for i in np.flatnonzero(self.known["bullets_given"][seat, receiver])]
            if given:
                lines.append(f"  you gave player_{receiver} Bullet(s) worth {given}")
        return "\n".join(lines)


def _seat_slices(layout, name: str) -> list[slice]:
    """Where each seat's copy of a private block lies in the state."""
    where, n = layout.state_fields[name], layout.num_seats
    size = (where.stop - where.start) // n
    return [slice(where.start + s * size, where.start + (s + 1) * size) for s in range(n)]


_CERTAIN = np.eye(C, dtype=np.float32)
_CERTAIN.flags.writeable = False  # shared by every list of known cards, which only ever replaces its entries


def _certain(card: int) -> np.ndarray:
    return _CERTAIN[card]
