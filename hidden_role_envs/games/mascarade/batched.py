"""Mascarade, batched: the rules of `rules.py`, the beliefs of `knowledge.py` and the record of `observation.py`
as pure JAX functions.

One game's state is a `MascaradeState` of fixed-shape arrays; `jax.vmap`
plays thousands. It is the reference's twin, checked against it move for
move (`tests/games/mascarade/test_batched.py`): the same deal and actions
give the same observation (every block), mask, rewards and end.

Under `vmap` every branch of the rules runs for every game, so a step is
one straight line: what the action does to the cards (at most one
swap-or-not, or the looks, or the reveals of a claim or of the
Inquisitor's target, never two of these in one step), then the coins (the
action's own payment, or the announcement's power, then the fines), then
the end checks and what comes next, each a few scalars chosen with
`jnp.where`. How the reference's moving parts became arrays:

- the table's lists (claimants, the cards claimed with, the seats
  revealed, the fined) are a flag or a place per seat: the claim round
  goes round the table from the announcer's left, so "the first true
  claimant" is the holder nearest that way;
- the events' effect on the record is written straight into its counts
  (`handled`, `swaps`, `looks`, ... clipped at 50); ages are kept as the
  turn of the last look or announcement, and the age is read off at
  observation time;
- up to 7 cards in play each seat's beliefs are a weight per arrangement
  (`core.knowledge.DealTable`, as in the reference): a swap-or-not is a
  gather by a precomputed permutation (the actor's, or the watchers'
  average with the unswapped weights), a look or reveal a 0/1 filter, the
  marginals one product with the table's indicator matrix;
- above 7 cards they are the reference's matrix of marginals per seat,
  mixed and pinned the same way; the seats that saw a card they were not
  sure of are corrected at the end of the step (the reference's lazy
  correction gives each seat the same), by the same exact deductions and
  Sinkhorn passes, each a `lax.while_loop` in which a seat stops when the
  reference's would; these loops are the game's `settling`, so a batch's
  step (`step_or_deal_batch`) runs them only for the games that need them
  (under `vmap` a loop runs until the slowest game of the batch is done);
- the event history (`history_length`): `init` and `step` tell a
  `StepEvents` every event the reference's rules would emit, in their order,
  each with whether it happened in this game and who saw it: the action's
  own (`_tell_action`), then the claim round's reveals and powers
  (`_tell_round`), the fines and the end (`_tell_end`), the next turn
  (`_end_turn`). A step's kinds of action exclude each other, so one fixed
  order of these candidates is the reference's on every path.

The reference computes its beliefs in float64, this twin in float32: the
observations agree to about 1e-7.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from hidden_role_envs.core.batched import BatchedGame, one_hot, pytree, shuffle
from hidden_role_envs.core.batched_events import StepEvents
from hidden_role_envs.core.knowledge import DealTable
from hidden_role_envs.core.seats import NOBODY
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
    BISHOP,
    CHEAT,
    CHEAT_COINS,
    FOOL,
    INQUISITOR,
    JUDGE,
    KING,
    NUM_CHARACTERS,
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
from hidden_role_envs.games.mascarade.knowledge import EXACT_PLACES, SINKHORN_PASSES, TOLERANCE
from hidden_role_envs.games.mascarade.observation import COIN_CAP, RECORD_CAP, mascarade_layout
from hidden_role_envs.games.mascarade.rules import (
    ASK_BISHOP,
    ASK_CLAIM,
    ASK_FOOL,
    ASK_GUESS,
    ASK_INQUISITOR,
    ASK_SPY_CARD,
    ASK_SPY_SWAP,
    ASK_TURN,
    ASK_WITCH,
    DECISIONS,
    GAME_OVER,
    INQUISITOR_FINE,
    LegalMasks,
    MascaradeGame,
)

K = NUM_CHARACTERS
FIRST_PASSES = 2  # the Sinkhorn passes of a correction's first stage (`settling`)
I32 = jnp.int32
F32 = jnp.float32
# The masks' rows beyond the decisions' own: a preparation turn, a turn forced by a reveal, the Spy's card.
PREPARATION_ROW, REVEALED_ROW, SPY_CARD_ROW = len(DECISIONS), len(DECISIONS) + 1, len(DECISIONS) + 2


@pytree
class MascaradeState:
    cards: jax.Array  # (P,) the character at each place
    coins: jax.Array  # (n,)
    courthouse: jax.Array
    active: jax.Array
    turn: jax.Array  # turns completed
    forced: jax.Array  # the active player may only swap or not
    decision: jax.Array
    to_act: jax.Array
    over: jax.Array
    winners: jax.Array  # (n,) bool
    announcement: jax.Array  # the character announced this turn (NOBODY: none)
    announcer: jax.Array
    claimants: jax.Array  # (n,) bool: the other seats who claimed it
    claim_place: jax.Array  # (n,) the card each seat announced or claimed with (NOBODY: none)
    power_user: jax.Array
    power_place: jax.Array  # the card the power in progress comes from
    power_cards: jax.Array  # (P,) bool: the cards it handles (the Spy's two, the questioned card)
    spy_other: jax.Array  # the other card the Spy looked at
    revealed_seats: jax.Array  # (n,) bool, this turn
    revealed_last_turn: jax.Array  # (n,) bool
    fined: jax.Array  # (n,) bool: the false claimants, fined after the power
    beliefs: jax.Array  # (n, deals) weights up to 7 cards; (n, P, kinds) marginals above
    sighted: jax.Array  # (n,) bool: seats whose marginals wait for the deductions after a sighting
    scaling: jax.Array  # (n,) bool: seats whose marginals wait for the rest of their Sinkhorn passes
    # the public record
    shown: jax.Array  # (P,) the character last shown at each place, until a swap-or-not handles it (NOBODY)
    handled: jax.Array  # (P,)
    swaps: jax.Array  # (n, P)
    looks: jax.Array  # (n, P)
    still_known: jax.Array  # (n, P) bool
    look_turn: jax.Array  # (n, P) the turn of each seat's last look at each place
    announcement_turn: jax.Array  # (n,)
    announcements: jax.Array  # (n, K, 3) made, shown true, shown false
    claims: jax.Array  # (n, K, 3)
    last_announcement: jax.Array  # (n,) character (NOBODY: none yet)
    last_claimants: jax.Array  # (n, n) bool
    questioned: jax.Array  # (n, n)
    guesses: jax.Array  # (n, K, 2) right, wrong


class MascaradeBatched(BatchedGame):
    def __init__(self, config: MascaradeConfig, reward_mode: str = "win"):
        if reward_mode != "win":
            raise ValueError(f"Mascarade's batched engine has the reward mode 'win' only; got {reward_mode!r}")
        hand, places = config.hand, config.num_places
        actions = mascarade_actions(config)
        super().__init__(config, reward_mode, mascarade_layout(config), actions)
        self.hand = hand
        self.num_places = places
        self._decode(actions)
        self._masks = jnp.asarray(self._mask_table(config), bool)
        self._place_called = jnp.asarray(config.place_called, I32)  # [seat, relative] -> place
        self._in_play = jnp.asarray(config.counts, F32)
        self._characters = jnp.asarray(config.characters, I32)
        self.kinds = [c for c, copies in enumerate(config.counts) if copies]  # the characters in play, in order
        kind_of = np.full(K, 0, np.int32)
        kind_of[self.kinds] = np.arange(len(self.kinds))
        self._kind_of = jnp.asarray(kind_of)
        self._embed = jnp.asarray(np.eye(K, dtype=np.float32)[self.kinds])  # (kinds, 12): a kind's character
        self._copies = jnp.asarray([config.counts[c] for c in self.kinds], F32)
        self.exact = places <= EXACT_PLACES
        if self.exact:
            table = DealTable.of(tuple(config.counts[c] for c in self.kinds))
            deals = np.asarray(table.deals, np.int32)
            self._deals = jnp.asarray(deals)  # (D, P) kinds
            self._place_weights = jnp.asarray(len(self.kinds) ** np.arange(places), I32)  # a deal's code, as digits
            self._deal_codes = jnp.asarray(deals @ np.asarray(self._place_weights), I32)
            holds = deals[:, :, None] == np.arange(len(self.kinds))[None, None, :]
            self._indicator = jnp.asarray(holds.reshape(len(deals), -1), F32)  # (D, P*kinds)
            identity = np.arange(len(deals))
            perms = np.stack([np.stack([table.swap_permutation(p, q) if p != q else identity
                                        for q in range(places)]) for p in range(places)])
            self._perms = jnp.asarray(perms, I32)  # (P, P, D)

    def _decode(self, actions) -> None:
        """Each action id as its kind and up to three numbers (their meaning per kind: `actions.py`)."""
        first, second, swapped = [], [], []
        for kind, args in actions.meaning:
            a, b, s = 0, 0, False
            if kind in (SWAP, FOOL_SWAP):
                a, b, s = args
            elif kind == ANNOUNCE:
                a, b = args
            elif kind == SPY_SWAP:
                s = args
            elif kind != PASS:
                a = args
            first.append(a)
            second.append(b)
            swapped.append(bool(s))
        self._kind = jnp.asarray(actions.kind, I32)
        self._arg, self._arg2 = jnp.asarray(first, I32), jnp.asarray(second, I32)
        self._swapped = jnp.asarray(swapped, bool)
        self._bishop_offset = jnp.asarray([args if kind == BISHOP_TAKE else 0 for kind, args in actions.meaning], I32)

    @staticmethod
    def _mask_table(config: MascaradeConfig) -> np.ndarray:
        """The reference's masks: each decision's, a preparation turn's, a forced turn's, the Spy's per own card."""
        masks = LegalMasks.of(config)
        rows = [masks.of_decision[d] for d in range(len(DECISIONS))]
        rows += [masks.preparation_turn, masks.revealed_turn, *masks.spy_card]
        return np.stack(rows).astype(bool)

    # --- the deal -------------------------------------------------------------------

    def setup(self, setup: dict) -> dict:
        """Checked by the reference's own reading of a setup; the fixed parts as arrays."""
        game = MascaradeGame(self.config, np.random.default_rng(0), setup)
        parts = {"cards": game.cards, "first_player": game.table.active}
        return {key: np.asarray(parts[key], np.int32) for key in setup}

    def init(self, key: jax.Array, deal: dict, events: StepEvents | None = None) -> MascaradeState:
        n, places = self.num_players, self.num_places
        bits = jax.random.bits(key, (places + 1,), jnp.uint32)
        cards = jnp.asarray(deal.get("cards", shuffle(bits[:places], self._characters)), I32)
        first = jnp.asarray(deal.get("first_player", (bits[-1] % n).astype(I32)), I32)
        nobody = I32(NOBODY)
        none_n = jnp.zeros(n, bool)
        g = MascaradeState(
            cards=cards, coins=jnp.full(n, STARTING_COINS, I32), courthouse=I32(0), active=first, turn=I32(0),
            forced=jnp.bool_(True), decision=I32(ASK_TURN), to_act=first, over=jnp.bool_(False), winners=none_n,
            announcement=nobody, announcer=nobody, claimants=none_n, claim_place=jnp.full(n, NOBODY, I32),
            power_user=nobody, power_place=nobody, power_cards=jnp.zeros(places, bool), spy_other=nobody,
            revealed_seats=none_n, revealed_last_turn=none_n, fined=none_n, beliefs=self._open_deal(cards),
            sighted=none_n, scaling=none_n,
            shown=cards, handled=jnp.zeros(places, I32), swaps=jnp.zeros((n, places), I32),
            looks=jnp.zeros((n, places), I32), still_known=jnp.zeros((n, places), bool),
            look_turn=jnp.full((n, places), -RECORD_CAP, I32), announcement_turn=jnp.full(n, -RECORD_CAP, I32),
            announcements=jnp.zeros((n, K, 3), I32), claims=jnp.zeros((n, K, 3), I32),
            last_announcement=jnp.full(n, NOBODY, I32), last_claimants=jnp.zeros((n, n), bool),
            questioned=jnp.zeros((n, n), I32), guesses=jnp.zeros((n, K, 2), I32),
        )
        if events is not None:  # the open deal (its event holds the characters dealt, as counts), the first turn
            events.add(Dealt, True, cards=self._in_play)
            events.add(Turn, True, active=first, forced=True)
        return g

    def _open_deal(self, cards: jax.Array) -> jax.Array:
        """Every seat saw every card: all the weight on the deal (exact), or one-hot marginals."""
        n = self.num_players
        kinds = self._kind_of[cards]
        if self.exact:
            dealt = (self._deal_codes == (kinds * self._place_weights).sum()).astype(F32)
            return jnp.broadcast_to(dealt, (n, dealt.shape[0]))
        rows = (kinds[:, None] == jnp.arange(len(self.kinds))[None, :]).astype(F32)
        return jnp.broadcast_to(rows, (n, *rows.shape))

    # --- the API of BatchedGame ---------------------------------------------------

    def legal_mask(self, g: MascaradeState) -> jax.Array:
        forced_row = jnp.where(g.turn < PREPARATION_TURNS, PREPARATION_ROW, REVEALED_ROW)
        row = jnp.where((g.decision == ASK_TURN) & g.forced, forced_row, jnp.maximum(g.decision, 0))
        row = jnp.where(g.decision == ASK_SPY_CARD, SPY_CARD_ROW + jnp.maximum(g.power_place, 0) % self.hand, row)
        mask = self._masks[row]
        n = self.num_players
        others = (g.to_act + jnp.arange(n)) % n  # [k]: the seat k to the actor's left
        coins = g.coins[others]
        richest = coins == jnp.where(jnp.arange(n) > 0, coins, -1).max()
        bishop = richest[self._bishop_offset]
        mask = jnp.where(g.decision == ASK_BISHOP, mask & bishop, mask)
        return jnp.where(g.over, False, mask)

    def step(self, g: MascaradeState, action: jax.Array, key: jax.Array,
             events: StepEvents | None = None) -> tuple[MascaradeState, jax.Array]:
        g = self._play(g, action, events)
        return g, jnp.where(g.over, jnp.where(g.winners, 1.0, -1.0), 0.0).astype(F32)

    # --- one action ---------------------------------------------------------------------

    def _play(self, g: MascaradeState, action: jax.Array, events: StepEvents | None = None) -> MascaradeState:
        n, hand = self.num_players, self.hand
        seats = jnp.arange(n)
        kind, a, b, swapped = self._kind[action], self._arg[action], self._arg2[action], self._swapped[action]
        actor = g.to_act
        place_of = self._place_called[actor]
        nobody = I32(NOBODY)

        # the cards: a swap-or-not, its places and whether they swap
        handles = (kind == SWAP) | (kind == SPY_SWAP) | (kind == FOOL_SWAP)
        p = jnp.where(kind == SPY_SWAP, g.power_place, place_of[a])
        q = jnp.where(kind == SPY_SWAP, g.spy_other, place_of[b])
        p, q = jnp.where(handles, p, nobody), jnp.where(handles, q, nobody)
        swaps = handles & swapped
        cards = _swapped(g.cards, p, q, swaps)

        # the looks (the Spy: its own card, then the other)
        spy_look = kind == SPY_LOOK
        look_a = jnp.where(kind == LOOK, place_of[a], jnp.where(spy_look, g.power_place, nobody))
        look_b = jnp.where(spy_look, place_of[a], nobody)

        # the announcement and its claims
        announces, claims = kind == ANNOUNCE, kind == CLAIM
        announcement = jnp.where(announces, a, g.announcement)
        announcer = jnp.where(announces, actor, g.announcer)
        own_place = jnp.where(announces, place_of[b], place_of[a])
        claim_place = jnp.where((announces | claims) & (seats == actor), own_place, g.claim_place)
        claimants = g.claimants | (claims & (seats == actor))
        following = (actor + 1) % n
        round_over = (claims | (kind == PASS)) & (following == announcer)

        # the round over: every claimant reveals, the true ones use the power (unrevealed, without claims)
        contested = claimants.any()
        claimers = claimants | (seats == announcer)
        true_ones = cards[jnp.maximum(claim_place, 0)] == announcement
        reveals = round_over & contested & claimers
        holders = round_over & jnp.where(contested, claimers & true_ones, seats == announcer)
        fined = jnp.where(round_over, reveals & ~true_ones, g.fined)
        from_announcer = (seats - announcer) % n
        holder = jnp.argmin(jnp.where(holders, from_announcer, n)).astype(I32)  # the first in claim order
        peasants = announcement == PEASANT
        power = jnp.where(holders.any() & ~peasants, announcement, nobody)
        power_place = jnp.where(power != NOBODY, claim_place[holder], g.power_place)
        power_user = jnp.where(power != NOBODY, holder, g.power_user)

        # the Inquisitor's target names a character, then shows its card
        guesses = kind == GUESS
        guessed_place = actor * hand
        wrong = guesses & (cards[guessed_place] != a)
        spots = jnp.arange(self.num_places)
        shown_places = ((reveals[:, None] & (claim_place[:, None] == spots[None, :])).any(axis=0)
                        | (guesses & (spots == guessed_place)))

        # the coins: the action's own payment, or the power's
        coins, courthouse = g.coins, g.courthouse
        target = (actor + a) % n  # the seat the action names (Bishop, Inquisitor, Witch)
        coins = _pay(coins, target, actor, jnp.where(kind == BISHOP_TAKE, 2, 0))
        coins = _pay(coins, actor, g.power_user, jnp.where(wrong, INQUISITOR_FINE, 0))
        witch = (kind == WITCH_SWAP) & (a > 0)
        coins = _swapped(coins, actor, target, witch)
        peasant_coins = jnp.where(holders.sum() == 2, 2, 1)
        coins = coins + jnp.where(round_over & peasants & holders, peasant_coins, 0)
        mine = coins[holder]
        from_bank = jnp.select([power == KING, power == QUEEN, power == FOOL, power == WIDOW],
                               [3, 2, 1, jnp.maximum(0, WIDOW_COINS - mine)], 0)
        judge = jnp.where(power == JUDGE, courthouse, 0)
        coins = coins + jnp.where(seats == holder, from_bank + judge, 0)
        courthouse = courthouse - judge
        thief = power == THIEF
        coins = _pay(coins, (holder + 1) % n, holder, jnp.where(thief, 1, 0))
        coins = _pay(coins, (holder - 1) % n, holder, jnp.where(thief, 1, 0))
        rivals = (holder + seats) % n  # [k]: the seat k to the holder's left
        rival_coins = jnp.where(seats > 0, coins[rivals], -1)
        most = rival_coins.max()
        tied = (rival_coins == most).sum() > 1
        richest = rivals[jnp.argmax(rival_coins)]
        bishop_now = (power == BISHOP) & ~tied
        coins = _pay(coins, richest, holder, jnp.where(bishop_now, 2, 0))
        cheat_wins = (power == CHEAT) & (coins[holder] >= CHEAT_COINS)
        if events is not None:
            self._tell_action(events, g, kind, a, actor, p, q, swaps, look_a, look_b, own_place, target, wrong)
            self._tell_round(events, g, announcer, claim_place, reveals, holders, power, holder, from_bank, judge,
                             richest, bishop_now)

        # what comes next: a decision, or the power done (the end checked, the fines, checked again), or the turn
        asks_now = jnp.select(
            [announces | ((claims | (kind == PASS)) & ~round_over), spy_look, kind == QUESTION,
             power == SPY, (power == BISHOP) & tied, power == FOOL, power == INQUISITOR, power == WITCH],
            [I32(ASK_CLAIM), I32(ASK_SPY_SWAP), I32(ASK_GUESS), I32(ASK_SPY_CARD), I32(ASK_BISHOP), I32(ASK_FOOL),
             I32(ASK_INQUISITOR), I32(ASK_WITCH)],
            nobody,
        )
        asked = jnp.select([announces | ((claims | (kind == PASS)) & ~round_over), spy_look, kind == QUESTION],
                           [following, actor, target], holder)
        decided = ((kind == SPY_SWAP) | (kind == BISHOP_TAKE) | (kind == FOOL_SWAP) | guesses | (kind == WITCH_SWAP))
        power_done = decided | (round_over & (asks_now == NOBODY) & ~cheat_wins)
        over, winners = _end(coins)
        over = over & (power_done | (power == FOOL))
        over, winners = over | cheat_wins, jnp.where(cheat_wins, seats == holder, winners)
        pays_fine = power_done & ~over & fined & (coins > 0)
        coins = coins - pays_fine
        courthouse = courthouse + pays_fine.sum()
        over_after_fines, winners_after_fines = _end(coins)
        fines_end = power_done & ~over & over_after_fines
        over, winners = over | fines_end, jnp.where(fines_end, winners_after_fines, winners)
        ends_turn = ((kind == SWAP) | (kind == LOOK) | power_done) & ~over
        if events is not None:
            self._tell_end(events, announcer, pays_fine, over, winners)

        revealed_seats = g.revealed_seats | reveals | (guesses & (seats == actor))
        power_cards = jnp.where(spy_look, (jnp.arange(self.num_places) == g.power_place)
                                | (jnp.arange(self.num_places) == place_of[a]), g.power_cards)
        power_cards = jnp.where(kind == QUESTION, (jnp.arange(self.num_places) // hand == target)
                                & (jnp.arange(self.num_places) < n * hand), power_cards)
        decision = jnp.where(asks_now == NOBODY, g.decision, asks_now)
        to_act = jnp.where(asks_now == NOBODY, g.to_act, asked)
        beliefs, sighted = self._learn(g.beliefs, cards, actor, p, q, swaps, handles, look_a, look_b, shown_places)
        g2 = g.replace(
            cards=cards, coins=coins, courthouse=courthouse, decision=decision, to_act=to_act,
            announcement=announcement, announcer=announcer, claimants=claimants, claim_place=claim_place,
            power_user=jnp.where(power_done, nobody, power_user), power_place=power_place, power_cards=power_cards,
            spy_other=jnp.where(spy_look, place_of[a], g.spy_other), revealed_seats=revealed_seats, fined=fined,
            beliefs=beliefs, sighted=sighted,
        )
        g2 = self._record(g2, kind, a, actor, p, q, handles, look_a, look_b, reveals, claim_place, guessed_place,
                          cards, announcement, announcer)
        finished = g2.replace(over=jnp.bool_(True), winners=winners, decision=I32(GAME_OVER), to_act=nobody)
        g2 = jax.tree_util.tree_map(lambda x, y: jnp.where(over, x, y), finished, g2)
        next_turn = self._end_turn(g2, events, ends_turn)
        return jax.tree_util.tree_map(lambda x, y: jnp.where(ends_turn, x, y), next_turn, g2)

    def _end_turn(self, g: MascaradeState, events: StepEvents | None = None, when=True) -> MascaradeState:
        """The next player's turn: forced to swap or not in the preparation or if its card was just revealed."""
        n = self.num_players
        turn = g.turn + 1
        active = (g.active + 1) % n
        forced = (turn < PREPARATION_TURNS) | g.revealed_seats[active]
        if events is not None:
            events.add(Turn, when, active=active, forced=forced)
        none_n = jnp.zeros(n, bool)
        nobody = I32(NOBODY)
        return g.replace(
            turn=turn, active=active, to_act=active, decision=I32(ASK_TURN),
            forced=forced, revealed_last_turn=g.revealed_seats,
            announcement=nobody, announcer=nobody, power_user=nobody, claimants=none_n,
            claim_place=jnp.full(n, NOBODY, I32), power_cards=jnp.zeros_like(g.power_cards),
            revealed_seats=none_n, fined=none_n,
        )

    # --- what the seats see (the event history) ------------------------------------------
    # A purse (`Paid`) is told by its absolute column: a seat's number, then the bank (n), then the courthouse (n+1).

    def _tell_action(self, events: StepEvents, g: MascaradeState, kind, a, actor, p, q, swaps, look_a, look_b,
                     own_place, target, wrong) -> None:
        """The action's own events, in the reference's order. Only the actor learns whether the cards swapped and
        what a look shows; the others see that they were handled, or looked at. (A look or a guess comes in a
        step without a swap, so the cards it shows are `g.cards`.)"""
        seats = jnp.arange(self.num_players)
        me, others = seats == actor, seats != actor
        handles = p != NOBODY
        events.add(Swapped, handles & swaps, me, actor=actor, p=p, q=q)
        events.add(NotSwapped, handles & ~swaps, me, actor=actor, p=p, q=q)
        events.add(Handled, handles, others, actor=actor, p=p, q=q)
        for place in (look_a, look_b):  # the Spy: its own card, then the other
            looks = place != NOBODY
            events.add(Looked, looks, me, looker=actor, place=place, character=g.cards[jnp.maximum(place, 0)])
            events.add(LookedUnseen, looks, others, looker=actor, place=place)
        events.add(Announced, kind == ANNOUNCE, announcer=actor, character=a, place=own_place)
        events.add(Claimed, kind == CLAIM, claimant=actor, place=own_place)
        events.add(Passed, kind == PASS, seat=actor)
        events.add(Questioned, kind == QUESTION, inquisitor=actor, target=target)
        guessed_place = actor * self.hand
        events.add(Guessed, kind == GUESS, seat=actor, character=a)
        events.add(Revealed, kind == GUESS, seat=actor, place=guessed_place, character=g.cards[guessed_place])
        self._tell_paid(events, wrong, g.coins, actor, g.power_user, INQUISITOR_FINE)
        self._tell_paid(events, kind == BISHOP_TAKE, g.coins, target, actor, 2)
        witch = kind == WITCH_SWAP
        events.add(FortunesKept, witch & (a == 0), witch=actor)
        events.add(FortunesSwapped, witch & (a > 0), witch=actor, target=target, witch_coins=g.coins[actor],
                   target_coins=g.coins[target])

    def _tell_round(self, events: StepEvents, g: MascaradeState, announcer, claim_place, reveals, holders, power,
                    holder, from_bank, judge, richest, bishop_now) -> None:
        """The end of a claim round: the claimers reveal in claim order (the announcer, then leftwards), then the
        Peasants each use their power in that order, or the first true holder uses the power and is paid. The
        round ends on a claim or a pass, which move no cards and no coins: the cards and coins are `g`'s."""
        n = self.num_players
        bank, courthouse = n, n + 1
        in_claim_order = [(announcer + k) % n for k in range(n)]
        for seat in in_claim_order:
            place = claim_place[seat]
            events.add(Revealed, reveals[seat], seat=seat, place=place, character=g.cards[jnp.maximum(place, 0)])
        peasants = holders & (g.announcement == PEASANT)
        peasant_coins = jnp.where(holders.sum() == 2, 2, 1)
        for seat in in_claim_order:
            events.add(Power, peasants[seat], seat=seat, character=PEASANT)
            events.add(Paid, peasants[seat], payer=bank, payee=seat, amount=peasant_coins)
        events.add(Power, power != NOBODY, seat=holder, character=power)
        events.add(Paid, from_bank > 0, payer=bank, payee=holder, amount=from_bank)
        events.add(Paid, judge > 0, payer=courthouse, payee=holder, amount=judge)
        thief = power == THIEF  # from the right, then from the left (the same seat at 2 players)
        right, left = (holder + 1) % n, (holder - 1) % n
        self._tell_paid(events, thief, g.coins, right, holder, 1)
        self._tell_paid(events, thief, _pay(g.coins, right, holder, 1), left, holder, 1)
        self._tell_paid(events, bishop_now, g.coins, richest, holder, 2)

    def _tell_end(self, events: StepEvents, announcer, pays_fine, over, winners) -> None:
        """After the power: the false claimants' fines (in claim order), then the end if the game ended."""
        n = self.num_players
        for seat in [(announcer + k) % n for k in range(n)]:
            events.add(Paid, pays_fine[seat], payer=seat, payee=n + 1, amount=1)
        events.add(GameOver, over, winners=winners)

    @staticmethod
    def _tell_paid(events: StepEvents, when, coins, payer, payee, amount) -> None:
        """A seat pays what it owes or all it has; the reference tells nothing of a payment of nothing."""
        paid = jnp.minimum(amount, coins[payer])
        events.add(Paid, when & (paid > 0), payer=payer, payee=payee, amount=paid)

    # --- the record ---------------------------------------------------------------------

    def _record(self, g: MascaradeState, kind, a, actor, p, q, handles, look_a, look_b,
                reveals, claim_place, guessed_place, cards, announcement, announcer) -> MascaradeState:
        """The public record of this step: the swap-or-not, the looks, the announcement, claim, question, reveals."""
        n, places = self.num_players, self.num_places
        seats, spots = jnp.arange(n), jnp.arange(places)
        is_actor = seats == actor
        moved = handles & ((spots == p) | (spots == q))
        shown = jnp.where(moved, NOBODY, g.shown)
        handled = _capped(g.handled + moved)
        swaps = _capped(g.swaps + (is_actor[:, None] & moved[None, :]))
        saw_both = g.still_known[actor, jnp.maximum(p, 0)] & g.still_known[actor, jnp.maximum(q, 0)]
        still_known = jnp.where(moved[None, :], is_actor[:, None] & saw_both, g.still_known)
        looked = (spots == look_a) | (spots == look_b)
        mine = is_actor[:, None] & looked[None, :]
        looks = _capped(g.looks + mine)
        still_known = still_known | mine
        look_turn = jnp.where(mine, g.turn, g.look_turn)

        announces, claims = kind == ANNOUNCE, kind == CLAIM
        character = jnp.maximum(announcement, 0)
        characters = jnp.arange(K)
        made = characters[None, :, None] == character
        made = made & (jnp.arange(3) == 0)[None, None, :]
        announcements = g.announcements + (announces & is_actor)[:, None, None] * made
        claims_count = g.claims + (claims & is_actor)[:, None, None] * made
        last_announcement = jnp.where(announces & is_actor, a, g.last_announcement)
        last_claimants = jnp.where(announces & is_actor[:, None], False, g.last_claimants)
        last_claimants = last_claimants | (claims & (seats == announcer)[:, None] & is_actor[None, :])
        announcement_turn = jnp.where(announces & is_actor, g.turn, g.announcement_turn)

        # the reveals: each claimer's card, or the questioned one
        revealed_card = cards[jnp.maximum(claim_place, 0)]  # (n,)
        column = jnp.where(revealed_card == announcement, 1, 2)
        counted = reveals[:, None, None] & made.any(axis=2, keepdims=True) & (jnp.arange(3) == column[:, None, None])
        announcements = announcements + (counted & (seats == announcer)[:, None, None])
        claims_count = claims_count + (counted & (seats != announcer)[:, None, None])
        guesses = kind == GUESS
        shown_card = cards[guessed_place]
        right = jnp.where(shown_card == a, 0, 1)
        named = (characters[None, :, None] == a) & (jnp.arange(2) == right)[None, None, :]
        guessed = g.guesses + (guesses & is_actor)[:, None, None] * named
        revealed_here = ((reveals[:, None] & (claim_place[:, None] == spots[None, :])).any(axis=0)
                         | (guesses & (spots == guessed_place)))
        shown = jnp.where(revealed_here, cards, shown)
        handled = jnp.where(revealed_here, 0, handled)
        questions = (kind == QUESTION) & is_actor[:, None] & (seats == (actor + a) % n)[None, :]
        return g.replace(
            shown=shown, handled=handled, swaps=swaps, looks=looks, still_known=still_known, look_turn=look_turn,
            announcement_turn=announcement_turn, announcements=_capped(announcements), claims=_capped(claims_count),
            last_announcement=last_announcement, last_claimants=last_claimants,
            questioned=_capped(g.questioned + questions), guesses=_capped(guessed),
        )

    # --- the beliefs ----------------------------------------------------------------------

    def _learn(self, beliefs, cards, actor, p, q, swaps, handles, look_a, look_b, shown_places):
        """This step's swap-or-not (the actor knows it, the others average), then its looks and reveals (the
        reveals are seen by every seat, the looks by the actor). Also the seats whose marginals now wait for
        their correction (`settling`; none with exact weights)."""
        spots = jnp.arange(self.num_places)
        is_actor = jnp.arange(self.num_players) == actor
        looked = (spots == look_a) | (spots == look_b)
        if self.exact:
            w = self._learn_exact(beliefs, cards, is_actor, p, q, swaps, handles, looked, shown_places)
            return w, jnp.zeros(self.num_players, bool)
        seen = shown_places[None, :] | (is_actor[:, None] & looked[None, :])  # (n, P)
        return self._learn_marginals(beliefs, cards, is_actor, p, q, swaps, handles, seen)

    def _learn_exact(self, w, cards, is_actor, p, q, swaps, handles, looked, shown_places):
        moved = w[:, self._perms[jnp.maximum(p, 0), jnp.maximum(q, 0)]]
        knows = is_actor[:, None]
        w = jnp.where(handles & (swaps | ~knows), jnp.where(knows, moved, (w + moved) / 2), w)
        disagree = self._deals != self._kind_of[cards][None, :]  # (D, P)
        kept_by_all = ~(disagree & shown_places[None, :]).any(axis=1)
        kept_by_actor = kept_by_all & ~(disagree & looked[None, :]).any(axis=1)
        w = jnp.where(jnp.where(knows, kept_by_actor[None, :], kept_by_all[None, :]), w, 0.0)
        sees = shown_places.any() | (is_actor & looked.any())
        return w / jnp.where(sees, w.sum(axis=1), 1.0)[:, None]

    def _learn_marginals(self, m, cards, is_actor, p, q, swaps, handles, seen):
        p0, q0 = jnp.maximum(p, 0), jnp.maximum(q, 0)
        row_p, row_q = m[:, p0], m[:, q0]
        mixed = (row_p + row_q) * 0.5
        new_p = jnp.where(is_actor[:, None], jnp.where(swaps, row_q, row_p), mixed)
        new_q = jnp.where(is_actor[:, None], jnp.where(swaps, row_p, row_q), mixed)
        spots = jnp.arange(self.num_places)[None, :, None]
        m = jnp.where(handles & (spots == p), new_p[:, None], jnp.where(handles & (spots == q), new_q[:, None], m))
        kinds = self._kind_of[cards]  # (P,)
        pinned = (kinds[:, None] == jnp.arange(len(self.kinds))[None, :]).astype(F32)  # (P, kinds)
        at_seen = (m * pinned[None]).sum(axis=2)  # (n, P)
        changed = seen & (at_seen < 1.0)
        return jnp.where(changed[:, :, None], pinned[None], m), changed.any(axis=1)

    # --- the correction of the marginals: the reference's `PlaceBeliefs._correct`, in two stages -----------

    def settling(self):
        """Above 7 cards, the seats that saw a card they were unsure of are corrected at the end of the step (the
        reference's lazy correction gives each seat the same): first the exact deductions and the first
        Sinkhorn passes (one game-step in ten to twenty needs them, in random play at 8 to 13 players), then
        the rest of the passes (up to `SINKHORN_PASSES`) for the seats that need more (about one correction
        in five, some of them all 50)."""
        if self.exact:
            return ()
        return ((lambda g: g.sighted.any(), self._deduced), (lambda g: g.scaling.any(), self._scaled))

    def _deduced(self, g: MascaradeState) -> MascaradeState:
        copies = self._copies

        def deduce(m):
            support = m > 0
            open_places = support & (support.sum(axis=2) > 1)[:, :, None]
            open_count = open_places.sum(axis=1)
            missing = copies - (support.sum(axis=1) - open_count)
            strike_columns = missing <= 0
            settle_columns = (open_count == missing) & ~strike_columns
            found = ((strike_columns & (open_count > 0)) | settle_columns).any(axis=1)
            settled = open_places & settle_columns[:, None, :]
            struck = jnp.where(open_places & strike_columns[:, None, :], 0.0, m)
            struck = jnp.where(settled.any(axis=2, keepdims=True), settled.astype(F32), struck)
            return found, struck / struck.sum(axis=2, keepdims=True)

        def deducing(carry):
            i, active, _ = carry
            return (i < self.num_places) & active.any()

        def deduction(carry):  # a seat stops at its first pass that finds nothing
            i, active, m = carry
            found, struck = deduce(m)
            active = active & found
            return i + 1, active, jnp.where(active[:, None, None], struck, m)

        _, _, m = jax.lax.while_loop(deducing, deduction, (I32(0), g.sighted, g.beliefs))
        m, scaling = self._sinkhorn(m, g.sighted, 0, FIRST_PASSES)
        return g.replace(beliefs=m, sighted=jnp.zeros_like(g.sighted), scaling=scaling)

    def _scaled(self, g: MascaradeState) -> MascaradeState:
        m, _ = self._sinkhorn(g.beliefs, g.scaling, FIRST_PASSES, SINKHORN_PASSES)
        return g.replace(beliefs=m, scaling=jnp.zeros_like(g.scaling))

    def _sinkhorn(self, m, active, first: int, last: int):
        """Passes `first` to `last` (excluded) of the active seats; the seats still active after them."""
        copies = self._copies

        def scaling(carry):
            i, active, _ = carry
            return (i < last) & active.any()

        def scale(carry):  # a seat stops once every column is within the tolerance
            i, active, m = carry
            columns = m.sum(axis=1)
            active = active & (jnp.abs(columns - copies) >= TOLERANCE).any(axis=1)
            factor = jnp.where(columns > 0, copies / jnp.where(columns > 0, columns, 1.0), 0.0)
            scaled = m * factor[:, None, :]
            scaled = scaled / scaled.sum(axis=2, keepdims=True)
            return i + 1, active, jnp.where(active[:, None, None], scaled, m)

        _, active, m = jax.lax.while_loop(scaling, scale, (I32(first), active, m))
        return m, active

    def marginals(self, g: MascaradeState, seat) -> jax.Array:
        """(P, 12): `seat`'s probability that each place holds each character."""
        if self.exact:
            w = g.beliefs[seat]
            flat = (w @ self._indicator) / w.sum()
            probs = flat.reshape(self.num_places, len(self.kinds))
        else:
            probs = g.beliefs[seat]
        return probs @ self._embed

    # --- for a critic in training --------------------------------------------------------

    @property
    def critic_size(self) -> int:
        return self.num_places * K

    def critic_view(self, g: MascaradeState, seat) -> jax.Array:
        """Every card, at the places as `seat` names them (its own first, then leftwards, then the centre)."""
        cards = g.cards[self._place_called[seat]]
        return (cards[:, None] == jnp.arange(K)[None, :]).astype(F32).ravel()

    # --- the observation --------------------------------------------------------------

    def blocks(self, g: MascaradeState, seat) -> dict[str, jax.Array]:
        n = self.num_players
        spots = jnp.arange(self.num_places)
        announcing = g.announcement != NOBODY
        asking = g.to_act != NOBODY
        claimed = (spots[None, :] == g.claim_place[:, None]).any(axis=0)
        return {
            "coins": jnp.minimum(g.coins, COIN_CAP),
            "courthouse": jnp.minimum(g.courthouse, COIN_CAP)[None],
            "active_player": one_hot(g.active, n),
            "to_act": jnp.where(asking, one_hot(g.to_act, n), 0.0),
            "decision": jnp.where(asking, one_hot(g.decision, len(DECISIONS)), 0.0),
            "preparation": (g.turn < PREPARATION_TURNS)[None],
            "forced_swap": g.forced[None],
            "in_play": self._in_play,
            "announcement": one_hot(g.announcement, K),
            "announcer": jnp.where(announcing, one_hot(g.announcer, n), 0.0),
            "claimants": jnp.where(announcing, g.claimants, False),
            "claimed_cards": announcing & claimed,
            "power_cards": announcing & g.power_cards,
            "knowledge": self.marginals(g, seat),
            "revealed": g.shown[:, None] == jnp.arange(K)[None, :],
            "handled": g.handled,
            "swaps": g.swaps,
            "looks": g.looks,
            "still_known": g.still_known,
            "look_age": jnp.minimum(g.turn - g.look_turn, RECORD_CAP),
            "announcement_age": jnp.minimum(g.turn - g.announcement_turn, RECORD_CAP),
            "announcements": g.announcements,
            "claims": g.claims,
            "last_announcement": g.last_announcement[:, None] == jnp.arange(K)[None, :],
            "last_claimants": g.last_claimants,
            "questioned": g.questioned,
            "guesses": g.guesses,
        }


def _pay(coins: jax.Array, payer, payee, amount) -> jax.Array:
    """A seat pays another; who must pay more than they have pays all they have."""
    seats = jnp.arange(coins.shape[0])
    paid = jnp.minimum(amount, jnp.where(seats == payer, coins, 0).sum())
    return coins + jnp.where(seats == payee, paid, 0) - jnp.where(seats == payer, paid, 0)


def _end(coins: jax.Array) -> tuple[jax.Array, jax.Array]:
    """13 coins or more wins at once; a player at 0 ends the game and the richest win."""
    rich = coins >= WINNING_COINS
    most = coins.max()
    broke = coins.min() <= 0
    return rich.any() | broke, jnp.where(rich.any(), rich, coins == most)


def _swapped(values: jax.Array, i, j, swaps) -> jax.Array:
    """`values` with entries i and j exchanged where `swaps`."""
    at = jnp.arange(values.shape[0])
    value_i, value_j = values[i], values[j]
    return jnp.where(swaps & (at == i), value_j, jnp.where(swaps & (at == j), value_i, values))


def _capped(count: jax.Array) -> jax.Array:
    """Counts of the record stop at the cap."""
    return jnp.minimum(count, RECORD_CAP)
