"""Secrets, batched: the rules of `rules.py` and the knowledge of `observation.py` as pure JAX functions.

One game's state is a `SecretsState` of fixed-shape arrays; `jax.vmap` plays
thousands. It is the reference's twin, checked against it move for move
(`tests/games/secrets/test_batched.py`): the same deal and actions give the
same observation, mask, rewards and end.

Under `vmap` every branch of the rules runs for every game, so a step is
written to do little: first it works out, in a few scalars, what the action
does (`Move`: the card that lands and where, the swap of tokens, the look,
the records to count), then it changes each array once. How the reference's
moving parts become arrays:

- the character deck is a ring of 29 slots (`deck`, `deck_head`,
  `deck_size`): drawing reads at the head, a card put at the bottom is
  written after the last; "draw until two different characters" finds the
  first card that differs in one pass instead of a loop. `slot_known` marks
  the slots everyone knows (duplicates drawn, the card not chosen once the
  Offer's card is turned up); the chooser knows its own card at once;
- every seat's knowledge of the tokens is a weight per deal (the table of
  `core.knowledge.DealTable`): a step applies at most one swap (a gather by
  a precomputed permutation; the Diplomat's unseen one averages two) and
  one look (a 0/1 filter), to the seats that saw them; the weights are
  whole numbers of eighths in uint8, which holds their values exactly
  (`WEIGHT`);
- the Bullets are four slots: who gave each and to whom; what a seat gave,
  who gave what to whom and the points of each screen follow from them;
- the event history (`history_length`): `init` and `step` tell a
  `StepEvents` every event the reference's rules would emit, in their order
  (`_tell_early_intelligence`, `_tell_move`, and the end of the turn and the
  draw where they happen), each with whether it happened in this game.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from hidden_role_envs.core.batched import BatchedGame, one_hot, pytree, shuffle
from hidden_role_envs.core.batched_events import StepEvents
from hidden_role_envs.core.knowledge import DealTable
from hidden_role_envs.core.seats import NOBODY
from hidden_role_envs.games.secrets.actions import (
    ANSWER,
    ASSASSIN_TARGET,
    CENTRE,
    CHOOSE,
    DECISIONS,
    DETECTIVE_LOOK,
    DIPLOMAT_SIDE,
    OFFER,
    POLITICIAN_TARGET,
    PSYCHIATRIST_SWAP,
    UN_CHOICE,
    SecretsActions,
)
from hidden_role_envs.games.secrets.cards import (
    ASSASSIN,
    BULLET_VALUES,
    CARD_VALUES,
    CIA,
    DETECTIVE,
    DIPLOMAT,
    DOUBLE_AGENT,
    HIPPIE,
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
from hidden_role_envs.games.secrets.observation import BOTTOM, secrets_layout
from hidden_role_envs.games.secrets.rules import FULL_DECK, GAME_OVER, SecretsGame

C = NUM_CHARACTERS
DECK = len(FULL_DECK)
NO_BULLET = 99
# The weights are kept as whole eighths (`WHOLE` is a weight of 1) in uint8. A seat's weights are at most 1 and
# multiples of 2**-k, k the Diplomat's unseen swaps it has lived through (each halves its weights), at most the
# deck's 3 Diplomats: in eighths they are whole numbers up to 8, and each halving halves even ones. The blocks'
# sums of them are exact in float32, so their quotients are the very ones of float32 weights. uint8 takes half of
# float16's memory, and turning a seat's column into float32 for the blocks cost 3 times as much from float16 (a
# quarter of the step at 8 players).
WEIGHT = jnp.uint8
WHOLE = 2 ** FULL_DECK.count(DIPLOMAT)  # a weight of 1
# The public record's counts (at most 29, the observation's bounds), kept as the floats the observation shows: int8
# took a quarter of the memory, but converting it for each observation cost 10% of the batched step.
RECORD = jnp.float32
I32 = jnp.int32
LOOKS_OF = {DETECTIVE, POLITICIAN, DOUBLE_AGENT}  # the effects that make their receiver look at a token


@pytree
class SecretsState:
    tokens: jax.Array  # (n+1,) identity at each place, the centre last
    deck: jax.Array  # (29,) ring of character cards
    deck_head: jax.Array
    deck_size: jax.Array
    slot_known: jax.Array  # (29,) the slots whose card everyone knows
    unchosen_slot: jax.Array  # the card not chosen this turn, while only its chooser knows it (NOBODY: none)
    bullet_deck: jax.Array  # (4,) values, top first
    bullet_head: jax.Array
    bullet_giver: jax.Array  # (4,) who gave each Bullet of the deck (NOBODY: not given)
    bullet_receiver: jax.Array  # (4,)
    face_up: jax.Array  # (n, 8)
    face_down: jax.Array  # (n,)
    cards: jax.Array  # (n,) cards on each screen, Bullets included: what the UN token and the end count
    active: jax.Array
    revealed: jax.Array  # (2,) the characters showing; the second is NOBODY under the single-character ruling
    offered: jax.Array  # the Offer's card once chosen (hidden until turned up)
    offer_target: jax.Array
    claim: jax.Array
    card_in_play: jax.Array
    receiver: jax.Array  # who added the Offer's card and applies it
    un_holder: jax.Array
    decision: jax.Array
    to_act: jax.Array
    turn: jax.Array
    touched: jax.Array  # (n,) screens that got a card this turn
    over: jax.Array
    weights: jax.Array  # (deals, n) uint8 (`WEIGHT`): each seat's posterior over the token deals, a deal a row
    # the public record
    face_down_characters: jax.Array  # (n, 8)
    offers: jax.Array  # (n, n, 4) made, accepted, refused, intercepted (`RECORD`, as claims, offered_cards, looks)
    claims: jax.Array  # (n, 8, 3) made, shown true, shown false
    offered_cards: jax.Array  # (n, 8)
    interceptions: jax.Array  # (n,)
    looks: jax.Array  # (n, n+1)


class Move(NamedTuple):
    """What one action does, in scalars (NOBODY where it does not); `_apply` carries it out."""

    chosen: jax.Array  # the card chosen for the Offer
    offer: jax.Array  # the Offer's target, and its claim
    claim: jax.Array
    answer: jax.Array  # offers' column counted: 1 accepted, 2 refused, 3 intercepted
    receiver: jax.Array  # who adds the Offer's card (it is turned up)
    lands_on: jax.Array  # the screen a card lands on, and the card
    card: jax.Array
    swap: jax.Array  # (2,) places whose tokens swap; the seats that watch know it
    swapper: jax.Array  # who swapped them (the Double Agent's receiver, or the actor)
    swap_seen_by: jax.Array  # (n,) who knows exactly which tokens swapped (the rest: the Diplomat's either side)
    unseen_side: jax.Array  # whether the others know only "one of the two neighbours"
    look_place: jax.Array  # a token seen, and by whom (after the swap)
    look_seen_by: jax.Array  # (n,)
    looker: jax.Array  # who looked (the record), NOBODY for a token shown
    bullet_to: jax.Array  # the receiver of the Bullet given
    ends: jax.Array  # the turn ends
    decision: jax.Array  # otherwise, the next decision, and of whom
    to_act: jax.Array


class SecretsBatched(BatchedGame):
    def __init__(self, config: SecretsConfig, reward_mode: str = "win"):
        n = config.num_players
        actions = SecretsActions.of(n)
        super().__init__(config, reward_mode, secrets_layout(config), actions)
        self.end_size = config.end_size
        self._kind = jnp.asarray(actions.kind, I32)
        first, second = [], []
        for kind, args in actions.meaning:
            if kind == OFFER:
                a, b = args[0], NOBODY if args[1] is None else args[1]
            elif kind == PSYCHIATRIST_SWAP:
                a, b = args
            else:
                a, b = int(args), 0
            first.append(a)
            second.append(b)
        self._arg, self._arg2 = jnp.asarray(first, I32), jnp.asarray(second, I32)
        self._masks = jnp.asarray(self._mask_table(config, actions), bool)
        table = DealTable.of(config.token_counts)
        places = n + 1
        self._deals = jnp.asarray(table.deals, I32)  # (D, places)
        self._indicator = jnp.asarray(table.indicator, jnp.float32)
        perms = np.stack([np.stack([table.swap_permutation(p, q) if p != q else np.arange(len(table.deals))
                                    for q in range(places)]) for p in range(places)])
        self._perms = jnp.asarray(perms, I32)
        # [deal, place, team]: the deal puts a CIA (team 0) or KGB (team 1) token at the place; flattened over
        # (deal, team) for the products that find a seat's teammates without a table per seat
        holds = (table.deals[:, :, None] == np.array([CIA, KGB])[None, None, :]).astype(np.float32)
        self._holds_team = jnp.asarray(holds)
        self._team_columns = jnp.asarray(holds.transpose(0, 2, 1).reshape(-1, places))
        self._values = jnp.asarray(CARD_VALUES, I32)

    @staticmethod
    def _mask_table(config: SecretsConfig, actions: SecretsActions) -> np.ndarray:
        """Rows 0-8: each decision's fixed mask; row 9 + 8a + b: choosing between characters a and b."""
        rows = np.zeros((len(DECISIONS) + C * C, len(actions)), bool)
        for decision, ids in actions.of_kind.items():
            if decision == OFFER and not config.claims:
                ids = [a for a in ids if actions.args[a][1] is None]
            rows[decision, list(ids)] = True
        for a in range(C):
            for b in range(C):
                rows[len(DECISIONS) + C * a + b, [a, b]] = True
        return rows

    # --- the deal -------------------------------------------------------------------

    def setup(self, setup: dict) -> dict:
        """Checked by the reference's own reading of a setup; the fixed parts as arrays."""
        game = SecretsGame(self.config, np.random.default_rng(0), setup)
        parts = {"tokens": game.tokens, "deck": list(game.deck), "bullets": list(game.bullet_deck),
                 "first_player": game.table.active}
        return {key: np.asarray(parts[key], np.int32) for key in setup}

    def init(self, key: jax.Array, deal: dict, events: StepEvents | None = None) -> SecretsState:
        n = self.num_players
        in_play = jnp.asarray([k for k, c in enumerate(self.config.token_counts) for _ in range(c)], I32)
        bits = jax.random.bits(key, (n + 1 + DECK + 4 + 1,), jnp.uint32)  # one draw shuffles everything
        tokens = deal.get("tokens", shuffle(bits[: n + 1], in_play))
        deck = deal.get("deck", shuffle(bits[n + 1 : n + 1 + DECK], jnp.asarray(FULL_DECK, I32)))
        bullet_deck = deal.get("bullets", shuffle(bits[n + 1 + DECK : -1], jnp.asarray(BULLET_VALUES, I32)))
        first = deal.get("first_player", (bits[-1] % n).astype(I32))
        zeros_n = jnp.zeros(n, I32)
        nobody = I32(NOBODY)
        g = SecretsState(
            tokens=jnp.asarray(tokens, I32), deck=jnp.asarray(deck, I32), deck_head=I32(0), deck_size=I32(DECK),
            slot_known=jnp.zeros(DECK, bool), unchosen_slot=nobody,
            bullet_deck=jnp.asarray(bullet_deck, I32), bullet_head=I32(0),
            bullet_giver=jnp.full(4, NOBODY, I32), bullet_receiver=jnp.full(4, NOBODY, I32),
            face_up=jnp.zeros((n, C), I32), face_down=zeros_n, cards=zeros_n,
            active=jnp.asarray(first, I32), revealed=jnp.full(2, NOBODY, I32), offered=nobody, offer_target=nobody,
            claim=nobody, card_in_play=nobody, receiver=nobody, un_holder=nobody, decision=I32(GAME_OVER),
            to_act=nobody, turn=I32(0), touched=jnp.zeros(n, bool), over=jnp.bool_(False),
            weights=self._early_intelligence(jnp.asarray(tokens, I32)),
            face_down_characters=jnp.zeros((n, C), I32), offers=jnp.zeros((n, n, 4), RECORD),
            claims=jnp.zeros((n, C, 3), RECORD), offered_cards=jnp.zeros((n, C), RECORD), interceptions=zeros_n,
            looks=jnp.zeros((n, n + 1), RECORD),
        )
        if events is not None:
            self._tell_early_intelligence(events, g.tokens)
        return self._start_turn(g, events)

    def _early_intelligence(self, tokens: jax.Array) -> jax.Array:
        """Each seat's own token; at 5+ its right neighbour's; at 7+ the centre, shown to everyone.

        The weights are kept unnormalised (0 or `WHOLE` here; a look multiplies by 0 or 1, the Diplomat's unseen
        swap averages two): the blocks divide by their sum, and no normalisation pass runs in a step."""
        n = self.num_players
        seats = jnp.arange(n)
        w = (self._deals[:, :n] == tokens[None, :n]).astype(jnp.float32)
        if n >= 5:
            right = (seats - 1) % n
            w = w * (self._deals[:, right] == tokens[right][None, :])
        if n >= 7:
            w = w * (self._deals[:, n] == tokens[n])[:, None]
        return (w * WHOLE).astype(WEIGHT)

    # --- the API of BatchedGame ---------------------------------------------------

    def legal_mask(self, g: SecretsState) -> jax.Array:
        pair = len(DECISIONS) + C * g.revealed[0] + jnp.maximum(g.revealed[1], 0)
        row = jnp.where(g.decision == CHOOSE, pair, jnp.maximum(g.decision, 0))
        return jnp.where(g.over, False, self._masks[row])

    def step(self, g: SecretsState, action: jax.Array, key: jax.Array,
             events: StepEvents | None = None) -> tuple[SecretsState, jax.Array]:
        g = self._apply(g, self._move(g, action), events)
        return g, jnp.where(g.over, self._outcome(g), 0.0)

    # --- what an action does --------------------------------------------------------

    def _move(self, g: SecretsState, action: jax.Array) -> Move:
        n = self.num_players
        kind, arg, arg2 = self._kind[action], self._arg[action], self._arg2[action]
        actor = g.to_act
        seats = jnp.arange(n)
        nobody = I32(NOBODY)
        everyone, only_actor = jnp.ones(n, bool), seats == actor

        # the Offer's card is turned up on an interception or an answer
        receives = ((kind == UN_CHOICE) & (arg == 1)) | (kind == ANSWER)
        receiver = jnp.where(kind == ANSWER, jnp.where(arg == 1, actor, g.active), actor)
        receiver = jnp.where(receives, receiver, nobody)
        card = g.offered
        effect = jnp.where(receives, card, nobody)  # the card whose effect applies at once

        # tokens swapped this step, and who knows which
        target = (actor + arg) % n
        psychiatrist = kind == PSYCHIATRIST_SWAP
        diplomat = kind == DIPLOMAT_SIDE
        double_agent = effect == DOUBLE_AGENT
        swap = jnp.where(psychiatrist, jnp.stack([target, (actor + arg2) % n]),
                         jnp.where(diplomat, jnp.stack([target, I32(n)]),
                                   jnp.where(double_agent, jnp.stack([receiver, I32(n)]), jnp.stack([nobody, nobody]))))
        swap_seen_by = jnp.where(diplomat, only_actor, everyone)

        # a token seen (after the swap), by whom, and who looked
        detective = kind == DETECTIVE_LOOK
        politician = kind == POLITICIAN_TARGET
        looked_at = jnp.where(detective, jnp.where(arg == CENTRE, n, target), target)
        journalist = effect == JOURNALIST
        shows_centre = effect == DIPLOMAT
        look_place = jnp.where(detective | politician, looked_at,
                               jnp.where(double_agent | journalist, receiver, jnp.where(shows_centre, n, nobody)))
        look_seen_by = jnp.where(double_agent | detective | politician, jnp.where(double_agent, seats == receiver,
                                                                                  only_actor),
                                 jnp.where(journalist, seats != receiver, everyone))
        looker = jnp.where(detective | politician, actor, jnp.where(double_agent, receiver, nobody))

        # where a card lands: the Offer's on its receiver's screen, the Politician on the one chosen
        lands_on = jnp.where(politician, target, jnp.where(receives & (card != POLITICIAN), receiver, nobody))
        landing = jnp.where(politician, POLITICIAN, card)

        # what comes next
        by_un = (g.un_holder != NOBODY) & (g.un_holder != actor) & (g.un_holder != target)
        asks = {  # a decision asked of the receiver after its card
            POLITICIAN: POLITICIAN_TARGET, PSYCHIATRIST: PSYCHIATRIST_SWAP, DETECTIVE: DETECTIVE_LOOK,
            DIPLOMAT: DIPLOMAT_SIDE, ASSASSIN: ASSASSIN_TARGET,
        }
        after_card = jnp.asarray([asks.get(c, NOBODY) for c in range(C)], I32)[jnp.maximum(card, 0)]
        decision = jnp.select(
            [kind == CHOOSE, kind == OFFER, (kind == UN_CHOICE) & (arg == 0), receives],
            [I32(OFFER), jnp.where(by_un, UN_CHOICE, ANSWER), I32(ANSWER), after_card],
            nobody,
        )
        to_act = jnp.select(
            [kind == CHOOSE, kind == OFFER, (kind == UN_CHOICE) & (arg == 0), receives],
            [actor, jnp.where(by_un, g.un_holder, target), g.offer_target, receiver],
            nobody,
        )
        ends = decision == NOBODY
        answer = jnp.select([kind == ANSWER, receives], [jnp.where(arg == 1, 1, 2), I32(3)], I32(0))
        return Move(
            chosen=jnp.where(kind == CHOOSE, arg, nobody), offer=jnp.where(kind == OFFER, target, nobody), claim=arg2,
            answer=answer, receiver=receiver, lands_on=lands_on, card=landing, swap=swap,
            swapper=jnp.where(double_agent, receiver, actor), swap_seen_by=swap_seen_by, unseen_side=diplomat,
            look_place=look_place, look_seen_by=look_seen_by,
            looker=looker, bullet_to=jnp.where(kind == ASSASSIN_TARGET, target, nobody), ends=ends,
            decision=decision, to_act=to_act,
        )

    def _apply(self, g: SecretsState, m: Move, events: StepEvents | None = None) -> SecretsState:
        n = self.num_players
        before = g
        seats = jnp.arange(n)
        offering = m.offer != NOBODY
        claim = jnp.where(offering, m.claim, g.claim)
        g = self._choose(g, m.chosen)
        g = g.replace(offer_target=jnp.where(offering, m.offer, g.offer_target), claim=claim)
        claimed = claim != NOBODY
        counted = ((jnp.arange(4) == 0) & offering) | ((jnp.arange(4) == m.answer) & (m.answer > 0))
        offers = g.offers + (_cell((n, n, 4), g.active, g.offer_target, slice(None)) & counted)
        receives = m.receiver != NOBODY
        shown = jnp.where(claim == g.offered, 1, 2)
        told = claimed & (((jnp.arange(3) == 0) & offering) | ((jnp.arange(3) == shown) & receives))
        claims = g.claims + (_cell((n, C, 3), g.active, claim, slice(None)) & told)
        g = g.replace(
            offers=offers, claims=claims,
            interceptions=g.interceptions + ((seats == m.receiver) & (m.answer == 3)),
            offered_cards=g.offered_cards + (_cell((n, C), g.active, g.offered) & receives),
            card_in_play=jnp.where(receives, g.offered, g.card_in_play),
            receiver=jnp.where(receives, m.receiver, g.receiver),
            slot_known=g.slot_known | ((jnp.arange(DECK) == g.unchosen_slot) & receives),
            unchosen_slot=jnp.where(receives, NOBODY, g.unchosen_slot),
        )
        g = self._land(g, m.lands_on, m.card)
        g = self._give_bullet(g, m.bullet_to)
        g = self._draw_bullet(g, (m.decision == ASSASSIN_TARGET) & receives)
        g = self._know(g, m)
        if events is not None:
            self._tell_move(events, before, m, g.tokens)
        g = g.replace(decision=jnp.where(m.ends, g.decision, m.decision), to_act=jnp.where(m.ends, g.to_act, m.to_act))
        return jax.tree_util.tree_map(lambda a, b: jnp.where(m.ends, a, b), self._end_turn(g, events, m.ends), g)

    # --- carrying a move out ---------------------------------------------------------

    def _choose(self, g: SecretsState, card) -> SecretsState:
        chooses = card != NOBODY
        other = jnp.where(card == g.revealed[0], g.revealed[1], g.revealed[0])
        slot = (g.deck_head + g.deck_size) % DECK  # the card not chosen goes to the bottom
        return g.replace(
            deck=jnp.where(chooses & (jnp.arange(DECK) == slot), other, g.deck),
            deck_size=g.deck_size + chooses,
            unchosen_slot=jnp.where(chooses, slot, g.unchosen_slot),
            offered=jnp.where(chooses, card, g.offered),
        )

    def _land(self, g: SecretsState, seat, card) -> SecretsState:
        lands = seat != NOBODY
        here = (jnp.arange(self.num_players) == seat) & lands
        face_up = g.face_up + (here[:, None] & (jnp.arange(C) == card)[None, :])
        flip = here & (card == SCIENTIST) & (face_up[:, SCIENTIST] >= 2)  # every face-up character turns face down
        return g.replace(
            face_up=jnp.where(flip[:, None], 0, face_up),
            face_down=g.face_down + jnp.where(flip, face_up.sum(axis=1), 0),
            face_down_characters=g.face_down_characters + jnp.where(flip[:, None], face_up, 0),
            cards=g.cards + here, touched=g.touched | here,
        )

    def _give_bullet(self, g: SecretsState, target) -> SecretsState:
        gives = target != NOBODY
        this = (jnp.arange(4) == g.bullet_head - 1) & gives
        return g.replace(
            bullet_giver=jnp.where(this, g.to_act, g.bullet_giver),
            bullet_receiver=jnp.where(this, target, g.bullet_receiver),
            cards=g.cards + ((jnp.arange(self.num_players) == target) & gives),
            touched=g.touched | ((jnp.arange(self.num_players) == target) & gives),
        )

    def _draw_bullet(self, g: SecretsState, draws) -> SecretsState:
        return g.replace(bullet_head=g.bullet_head + draws)

    def _know(self, g: SecretsState, m: Move) -> SecretsState:
        """The swap of the step, then its look, in each seat's weights."""
        n = self.num_players
        p, q = jnp.maximum(m.swap[0], 0), jnp.maximum(m.swap[1], 0)
        swaps = m.swap[0] != NOBODY
        tokens = jnp.where(swaps, g.tokens.at[p].set(g.tokens[q]).at[q].set(g.tokens[p]), g.tokens)
        w = g.weights
        exact = w[self._perms[p, q]]
        # the Diplomat's other neighbour: the others know only that one of the two swapped with the centre
        other_side = jnp.where(p == (g.to_act + 1) % n, (g.to_act - 1) % n, (g.to_act + 1) % n)
        either = (exact + w[self._perms[other_side, n]]) // 2
        swapped = jnp.where(m.swap_seen_by[None, :] | ~m.unseen_side, exact, either)
        w = jnp.where(swaps, swapped, w)
        place = jnp.maximum(m.look_place, 0)
        kept = w * (self._deals[:, place] == tokens[place])[:, None]
        seen = m.look_seen_by & (m.look_place != NOBODY)
        w = jnp.where(seen[None, :], kept, w)
        looks = g.looks + _cell((n, n + 1), m.looker, place)
        return g.replace(tokens=tokens, weights=w, looks=looks)

    # --- the turn ---------------------------------------------------------------------

    def _start_turn(self, g: SecretsState, events: StepEvents | None = None, when=True) -> SecretsState:
        """Draw until two different characters show; duplicates go face down to the bottom."""
        n = self.num_players
        positions = jnp.arange(DECK)
        ring = (g.deck_head + positions) % DECK
        cards = g.deck[ring]
        first = cards[0]
        differs = (positions >= 1) & (positions < g.deck_size) & (cards != first)
        single = ~differs.any()  # RULING: the deck cannot show two different characters
        j = jnp.argmax(differs)  # the second character's position; the j-1 cards before it duplicate the first
        drawn = jnp.where(single, 1, j + 1)
        duplicates = jnp.where(single, 0, j - 1)
        # slot s's position from the old head; drawn positions leave, the duplicates go after the last card
        at = (jnp.arange(DECK) - g.deck_head) % DECK
        gone = at < drawn
        after = (at - g.deck_size) % DECK  # how far past the last card a slot lies
        put = (after < duplicates) & ~((at < g.deck_size) & ~gone)
        second = jnp.where(single, NOBODY, cards[j])
        if events is not None:
            drawn_cards = ((positions < drawn)[:, None] & (cards[:, None] == jnp.arange(C)[None, :])).sum(axis=0)
            events.add(Drawn, when, active=g.active, drawn=drawn_cards, revealed=one_hot(first, C) + one_hot(second, C))
        return g.replace(
            deck=jnp.where(put, first, g.deck), deck_head=(g.deck_head + drawn) % DECK,
            deck_size=g.deck_size - drawn + duplicates, slot_known=(g.slot_known & ~gone) | put,
            revealed=jnp.stack([first, second]), offered=jnp.where(single, first, NOBODY),
            offer_target=I32(NOBODY), claim=I32(NOBODY), card_in_play=I32(NOBODY), receiver=I32(NOBODY),
            touched=jnp.zeros(n, bool), decision=jnp.where(single, OFFER, CHOOSE).astype(I32), to_act=g.active,
        )

    def _end_turn(self, g: SecretsState, events: StepEvents | None = None, when=True) -> SecretsState:
        n = self.num_players
        pairs = jnp.where(g.touched[:, None], g.face_up // 2, 0)  # identical face-up pairs turn face down
        if events is not None:  # a screen gets one character a turn, so it turns down one pair at most
            for seat in range(n):
                events.add(PairTurnedDown, when & pairs[seat].any(), seat=seat, card=jnp.argmax(pairs[seat] > 0))
        g = g.replace(face_up=g.face_up - 2 * pairs, face_down=g.face_down + 2 * pairs.sum(axis=1),
                      face_down_characters=g.face_down_characters + 2 * pairs)
        fewest = g.cards.min()
        unique = (g.cards == fewest).sum() == 1
        holder = jnp.where(unique, jnp.argmin(g.cards), NOBODY).astype(I32)
        over = g.cards.max() >= self.end_size
        if events is not None:
            events.add(UnToken, when & (holder != g.un_holder), holder=holder)
            events.add(GameOver, when & over)
        g = g.replace(un_holder=holder, turn=g.turn + 1)
        finished = g.replace(over=jnp.bool_(True), decision=I32(GAME_OVER), to_act=I32(NOBODY))
        next_turn = self._start_turn(g.replace(active=(g.active + 1) % n), events, when & ~over)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(over, a, b), finished, next_turn)

    # --- what the seats see (the event history) ------------------------------------

    def _tell_early_intelligence(self, events: StepEvents, tokens: jax.Array) -> None:
        n = self.num_players
        for s in range(n):
            events.add(Looked, True, jnp.arange(n) == s, looker=s, place=s, identity=tokens[s])
        if n >= 5:
            for s in range(n):
                events.add(Looked, True, jnp.arange(n) == s, looker=s, place=(s - 1) % n, identity=tokens[(s - 1) % n])
        if n >= 7:
            events.add(Looked, True, looker=NOBODY, place=n, identity=tokens[n])

    def _tell_move(self, events: StepEvents, g: SecretsState, m: Move, tokens: jax.Array) -> None:
        """The events of a move up to the end of the turn, in the order of the reference's rules (`g` before it,
        `tokens` after its swap)."""
        n = self.num_players
        seats = jnp.arange(n)
        actor = g.to_act
        events.add(CardChosen, m.chosen != NOBODY, seats == actor, active=actor, card=m.chosen)
        events.add(CardChosenUnseen, m.chosen != NOBODY, seats != actor, active=actor)
        events.add(Offered, m.offer != NOBODY, active=actor, target=m.offer, claim=m.claim)
        events.add(Intercepted, m.answer == 3, seat=actor)
        events.add(LetPass, (g.decision == UN_CHOICE) & (m.answer == 0), seat=actor)
        events.add(Answered, (m.answer == 1) | (m.answer == 2), seat=actor, accepted=m.answer == 1)
        receives = m.receiver != NOBODY
        events.add(CardRevealed, receives, receiver=m.receiver, card=g.offered)
        lands = m.lands_on != NOBODY
        events.add(CardAdded, lands, seat=m.lands_on, card=m.card)
        face_up = g.face_up[jnp.maximum(m.lands_on, 0)] + one_hot(m.card, C).astype(I32)
        flips = lands & (m.card == SCIENTIST) & (face_up[SCIENTIST] >= 2)
        events.add(ScientistsFlipped, flips, seat=m.lands_on, cards=face_up)
        swaps = m.swap[0] != NOBODY
        events.add(Swapped, swaps, m.swap_seen_by, actor=m.swapper, p=m.swap[0], q=m.swap[1])
        sides = one_hot((actor + 1) % n, n + 1) + one_hot((actor - 1) % n, n + 1) + one_hot(n, n + 1)
        events.add(SwappedOneOf, m.unseen_side, seats != actor, actor=actor, alternatives=sides)
        looks = m.look_place != NOBODY
        events.add(Looked, looks, m.look_seen_by, looker=m.looker, place=m.look_place,
                   identity=tokens[jnp.maximum(m.look_place, 0)])
        events.add(LookedUnseen, looks & (m.looker != NOBODY), seats != m.looker, looker=m.looker, place=m.look_place)
        shown = receives & (g.offered == JOURNALIST)
        events.add(ShownUnseen, shown, seats == m.receiver, seat=m.receiver)
        draws = receives & (m.decision == ASSASSIN_TARGET)
        drawn = g.bullet_deck[jnp.minimum(g.bullet_head, 3)]
        events.add(BulletDrawn, draws, seats == m.receiver, seat=m.receiver, value=drawn)
        events.add(BulletDrawnUnseen, draws, seats != m.receiver, seat=m.receiver)
        gives = m.bullet_to != NOBODY
        given = g.bullet_deck[jnp.maximum(g.bullet_head - 1, 0)]
        events.add(BulletGiven, gives, giver=actor, receiver=m.bullet_to)
        events.add(BulletValue, gives, seats == actor, giver=actor, receiver=m.bullet_to, value=given)

    def _outcome(self, g: SecretsState) -> jax.Array:
        scores = self._scores(g)
        identities = g.tokens[: self.num_players]
        lowest = scores.min()
        alone = ((scores == lowest).sum() == 1) & (identities[jnp.argmin(scores)] == HIPPIE)
        cia = jnp.where(identities == CIA, scores, 0).sum()
        kgb = jnp.where(identities == KGB, scores, 0).sum()
        team_won = jnp.where(cia > kgb, identities == CIA, identities == KGB)
        hippie_won = jnp.arange(self.num_players) == jnp.argmin(scores)
        winners = jnp.where(alone, hippie_won, jnp.where(cia == kgb, False, team_won))
        if self.reward_mode == "win":
            return jnp.where(winners, 1.0, -1.0)
        others = jnp.where(hippie_won, jnp.iinfo(I32).max, scores).min()
        unit = jnp.where(alone, others - lowest, jnp.abs(cia - kgb)).astype(jnp.float32)
        return jnp.where(winners.any(), jnp.where(winners, unit, -unit), 0.0)

    def _scores(self, g: SecretsState) -> jax.Array:
        given = g.bullet_receiver[:, None] == jnp.arange(self.num_players)[None, :]  # (bullet, seat)
        return (g.face_up * self._values).sum(axis=1) + (given * g.bullet_deck[:, None]).sum(axis=0)

    # --- for a critic in training --------------------------------------------------------

    @property
    def critic_size(self) -> int:
        return (self.num_players + 1) * 3

    def critic_view(self, g: SecretsState, seat) -> jax.Array:
        """Every token, the seats from `seat` leftwards then the centre, one-hot CIA/KGB/Hippie."""
        n = self.num_players
        places = jnp.append((seat + jnp.arange(n)) % n, n)
        return (g.tokens[places][:, None] == jnp.arange(3)[None, :]).astype(jnp.float32).ravel()

    # --- the observation --------------------------------------------------------------

    def blocks(self, g: SecretsState, seat) -> dict[str, jax.Array]:
        n = self.num_players
        seats = jnp.arange(n)
        w = g.weights[:, seat].astype(jnp.float32)
        total = w.sum()
        marginals = jnp.clip((w @ self._indicator) / total, 0.0, 1.0).reshape(n + 1, 3)
        same_team = (w[:, None] * self._holds_team[:, seat, :]).reshape(-1) @ self._team_columns
        teammate = jnp.clip(same_team / total, 0.0, 1.0)[:n]
        given = g.bullet_receiver[:, None] == seats[None, :]  # (bullet, receiver)
        holds_bullet = (g.decision == ASSASSIN_TARGET) & (g.to_act == seat) & ~g.over
        in_hand = g.bullet_deck[jnp.maximum(g.bullet_head - 1, 0)]
        value_index = -g.bullet_deck[:, None] == jnp.arange(len(BULLET_VALUES))[None, :]  # (bullet, value)
        mine = (g.bullet_giver == seat)[:, None, None] & given[:, :, None] & value_index[:, None, :]
        chose = (g.offered != NOBODY) & (g.revealed[1] != NOBODY) & (g.card_in_play == NOBODY)
        knows_offer = (g.card_in_play != NOBODY) | (g.revealed[1] == NOBODY) | (chose & (seat == g.active))
        known_offer = jnp.where(g.card_in_play != NOBODY, g.card_in_play, g.offered)
        rows = (g.deck_head + g.deck_size - 1 - jnp.arange(BOTTOM)) % DECK
        slot_cards = one_hot(g.deck[rows][:, None], C)
        unchosen = rows == g.unchosen_slot
        either = (one_hot(g.revealed[0], C) + one_hot(g.revealed[1], C)) * 0.5
        bottom = jnp.where((unchosen & (seat != g.active))[:, None], either[None], slot_cards)
        known = (g.slot_known[rows] | unchosen) & (jnp.arange(BOTTOM) < g.deck_size)
        return {
            "face_up": g.face_up,
            "face_down": g.face_down,
            "bullets_received": given.sum(axis=0),
            "bullet_givers": (given[:, :, None] & (g.bullet_giver[:, None, None] == seats[None, None, :])).sum(axis=0),
            "active_player": one_hot(g.active, n),
            "revealed": one_hot(g.revealed[0], C) + one_hot(g.revealed[1], C),
            "offered_card": jnp.where(knows_offer, one_hot(known_offer, C), 0.0),
            "offer_target": one_hot(g.offer_target, n),
            "claim": one_hot(g.claim, C),
            "un_holder": one_hot(jnp.where(g.un_holder == NOBODY, n, g.un_holder), n + 1),
            "decision": one_hot(jnp.where(g.over, NOBODY, g.decision), len(DECISIONS)),
            "to_act": one_hot(jnp.where(g.over, NOBODY, g.to_act), n),
            "bullet_in_hand": jnp.where(holds_bullet, one_hot(-in_hand, len(BULLET_VALUES)), 0.0),
            "bullets_given": mine.sum(axis=0),
            "identity": marginals,
            "teammate": teammate,
            "turn": g.turn[None],
            "deck_size": g.deck_size[None],
            "deck_bottom": jnp.where(known[:, None], bottom, 0.0),
            "face_down_characters": g.face_down_characters,
            "offers": g.offers,
            "claims": g.claims,
            "offered_cards": g.offered_cards,
            "interceptions": g.interceptions,
            "looks": g.looks,
        }


def _cell(shape: tuple[int, ...], *index) -> jax.Array:
    """A bool array of `shape`, True at `index` only (an index may pick a whole axis: `slice(None)`)."""
    mark = jnp.ones(shape, bool)
    for axis, (size, i) in enumerate(zip(shape, index)):
        if isinstance(i, slice):
            continue
        line = (jnp.arange(size) == i).reshape([size if a == axis else 1 for a in range(len(shape))])
        mark = mark & line
    return mark
