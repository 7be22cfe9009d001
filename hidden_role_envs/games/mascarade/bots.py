"""Scripted (heuristic) players for Mascarade.

`MascaradeScriptedPlayer` plays any seat of a Mascarade table from that seat's
observation alone (README, "Scripted players": how to seat one).

How it plays: every legal action is scored by the expected value of the
coins afterwards (`_Position.value`): its own coins against the richest
and the average other, with a win (13 coins, the Cheat's 10, or being the
richest when someone goes broke) or a loss counted as +-100. Its
`knowledge` block (the probability of each character at each card) says
how likely it is to hold what it would announce or claim, and how likely
the announcer is to hold it.

- Its turn: announce the character worth the most in expectation (the
  power if it holds it or nobody challenges, the fine otherwise), look at
  its card when unsure of it, or swap for a card it expects to be worth
  more than its own; when it may only swap or not, it swaps for such a
  card if there is one.
- Claims: it claims when holding the character is likely enough to be
  worth the risk of the fine, counting what the announcer would gain.
- Powers: the Witch takes the fortune that helps it most, the Bishop and
  the Inquisitor hit the richest, the Spy looks where it knows least and
  keeps the better card, the Fool pretends to swap, and a questioned seat
  names its most likely character.

It cannot see how the other seats decide, so it treats each other seat's
claim as a coin flip.

Against random players: docs/scripted-players.md.

At a table of scripted players (500 seeded games at 5 players, seed 1,
`hidden-roles evaluate mascarade --players 5 --games 500 --seed 1 --seats
scripted --no-baseline`) a seat wins 0.200 [0.185, 0.216], the fair share,
and every game ends by the rules. A counter-strategy that contests every
announcement, in one seat (rotated) of a scripted table and otherwise
playing as the scripted player does, wins 0.044 [0.029, 0.066] of 500
games (seed 1):

    hidden-roles evaluate mascarade --players 5 --games 500 --seed 1 --seats always:claim,scripted --no-baseline
"""

from __future__ import annotations

import math

import numpy as np

from hidden_role_envs.core.scripted import ScriptedPlayer
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
    PEASANT,
    QUEEN,
    THIEF,
    WIDOW,
    WIDOW_COINS,
    WINNING_COINS,
    WITCH,
)
from hidden_role_envs.games.mascarade.config import MascaradeConfig
from hidden_role_envs.games.mascarade.observation import mascarade_layout

WIN = 100.0
RICHEST_WEIGHT = 0.6  # how much the richest other seat's coins count against its own ...
AVERAGE_WEIGHT = 0.4  # ... and the average other seat's
LOOK_WEIGHT = 2.0  # value of looking, per nat of uncertainty about its own card
SWAP_WEIGHT = 0.5  # share of a better card's value credited to swapping for it now
INQUISITOR_HIT = 0.75  # chance a questioned seat names the wrong character


def _entropy(row: np.ndarray) -> float:
    return -sum(p * math.log(p) for p in row if p > 1e-12)


def _fortunes_swapped(coins: np.ndarray, a: int, b: int) -> np.ndarray:
    swapped = coins.copy()
    swapped[a], swapped[b] = coins[b], coins[a]
    return swapped


class _Position:
    """One observation decoded; seats and card places relative to the observer (0 = itself)."""

    def __init__(self, views: dict[str, np.ndarray], num_players: int, hand: int):
        self.n = num_players
        self.hand = hand
        self.coins = views["coins"].astype(np.float64)
        self.courthouse = float(views["courthouse"][0])
        self.knowledge = views["knowledge"].astype(np.float64)
        self.announcement = int(np.argmax(views["announcement"])) if views["announcement"].any() else None
        self.announcer = int(np.argmax(views["announcer"])) if views["announcer"].any() else None
        claimed = np.flatnonzero(views["claimed_cards"])
        self.claimed_cards = [int(p) for p in claimed]
        self.power_cards = [int(p) for p in np.flatnonzero(views["power_cards"])]
        self.now = self.value(self.coins)

    # --- how good a table is for this seat -------------------------------

    def value(self, coins: np.ndarray) -> float:
        me, others = coins[0], coins[1:]
        if me >= WINNING_COINS:
            return WIN
        if others.max() >= WINNING_COINS:
            return -WIN
        if coins.min() <= 0:
            return WIN if me == coins.max() else -WIN
        return float(me - RICHEST_WEIGHT * others.max() - AVERAGE_WEIGHT * others.mean())

    def after_power(self, seat: int, character: int, coins: np.ndarray | None = None) -> float:
        """This seat's value once `seat` uses `character`'s power (its own choices made to suit it)."""
        coins = self.coins.copy() if coins is None else coins.copy()
        n = self.n
        others = [s for s in range(n) if s != seat]
        if character == KING:
            coins[seat] += 3
        elif character == QUEEN:
            coins[seat] += 2
        elif character in (FOOL, PEASANT):
            coins[seat] += 1
        elif character == WIDOW:
            coins[seat] = max(coins[seat], WIDOW_COINS)
        elif character == JUDGE:
            coins[seat] += self.courthouse
        elif character == BISHOP:
            richest = max(others, key=lambda s: coins[s])
            taken = min(2, coins[richest])
            coins[richest] -= taken
            coins[seat] += taken
        elif character == THIEF:
            for neighbour in ((seat + 1) % n, (seat - 1) % n):
                taken = min(1, coins[neighbour])
                coins[neighbour] -= taken
                coins[seat] += taken
        elif character == CHEAT:
            if coins[seat] >= CHEAT_COINS:
                return WIN if seat == 0 else -WIN
        elif character == WITCH:
            choices = [_fortunes_swapped(coins, seat, t) for t in others]
            values = [self.value(c) for c in choices]
            return max(values) if seat == 0 else sum(values) / len(values)
        elif character == INQUISITOR:
            choices = []
            for t in others:
                hit = coins.copy()
                taken = min(4, hit[t])
                hit[t] -= taken
                hit[seat] += taken
                choices.append(INQUISITOR_HIT * self.value(hit) + (1 - INQUISITOR_HIT) * self.value(coins))
            return max(choices) if seat == 0 else sum(choices) / len(choices)
        return self.value(coins)

    def fined(self, *seats: int) -> np.ndarray:
        coins = self.coins.copy()
        for seat in seats:
            coins[seat] -= min(1, coins[seat])
        return coins

    def card_worth(self, row: np.ndarray) -> float:
        """Expected value of using the power of the card whose beliefs are `row`, over doing nothing."""
        now = self.value(self.coins)
        return sum(float(row[c]) * (self.after_power(0, c) - now) for c in np.flatnonzero(row > 1e-9))


class MascaradeScriptedPlayer(ScriptedPlayer):
    """A heuristic Mascarade player that reads only its seat's observation dict.

    `player(observation_dict)` returns a legal action id; `seed` makes the
    choice among equally good actions reproducible.
    """

    def __init__(self, config: MascaradeConfig, seed: int | None = None):
        super().__init__(config, mascarade_layout(config), mascarade_actions(config), seed)
        self.hand = config.hand
        self._score = {
            SWAP: self._swap,
            LOOK: self._look,
            ANNOUNCE: self._announce,
            CLAIM: self._claim,
            PASS: self._pass,
            SPY_LOOK: self._spy_look,
            SPY_SWAP: self._spy_swap,
            BISHOP_TAKE: lambda k, pos: float(pos.coins[k]),
            FOOL_SWAP: lambda args, pos: 0.0 if args[2] else 1.0,  # pretend: the others lose track, it does not
            QUESTION: self._question,
            GUESS: lambda character, pos: float(pos.knowledge[0, character]),
            WITCH_SWAP: lambda k, pos: pos.value(_fortunes_swapped(pos.coins, 0, k)),
        }

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        legal, views = self.read(observation)
        pos = _Position(views, self.num_players, self.hand)
        kind, args = self.actions.kind, self.actions.args
        scored = [(int(a), self._score[kind[a]](args[a], pos)) for a in legal]
        best = max(value for _, value in scored)
        ties = [a for a, value in scored if value >= best - 1e-9]
        return int(ties[0] if len(ties) == 1 else self.rng.choice(ties))

    # How good one legal action is for this seat (higher is better; only the order matters), by kind.

    def _claim_chance(self) -> float:
        """Each other seat is taken to claim as a random player would."""
        return self.hand / (self.hand + 1)

    def _swap(self, args: tuple[int, int, bool], pos: _Position) -> float:
        own, other, swapped = args
        k = pos.knowledge
        rows = [k[o] for o in range(self.hand)]
        if swapped and other < self.hand:  # its own two cards: what it holds does not change
            rows[own], rows[other] = k[other], k[own]
        elif swapped:
            rows[own] = k[other]
        best = max(pos.card_worth(r) for r in rows)
        keep = max(pos.card_worth(k[o]) for o in range(self.hand))
        return pos.now + SWAP_WEIGHT * (best - keep)

    def _look(self, own: int, pos: _Position) -> float:
        return pos.now + LOOK_WEIGHT * _entropy(pos.knowledge[own])

    def _announce(self, args: tuple[int, int], pos: _Position) -> float:
        character, own = args
        p = float(pos.knowledge[own, character])
        unchallenged = (1 - self._claim_chance()) ** (self.num_players - 1)
        use = pos.after_power(0, character)
        bluff_caught = pos.value(pos.fined(0))
        return unchallenged * use + (1 - unchallenged) * (p * use + (1 - p) * bluff_caught)

    def _announcer_holds(self, pos: _Position) -> float:
        """The chance that the announcer holds what it announced."""
        announcer = pos.announcer
        card = next(p for p in pos.claimed_cards if p // self.hand == announcer)
        return float(pos.knowledge[card, pos.announcement])

    def _pass(self, _, pos: _Position) -> float:  # the announcer most likely uses the power
        q = self._announcer_holds(pos)
        announcer_uses = pos.after_power(pos.announcer, pos.announcement)
        return q * announcer_uses + (1 - q) * (0.5 * announcer_uses + 0.5 * pos.value(pos.fined(pos.announcer)))

    def _claim(self, own: int, pos: _Position) -> float:
        character, announcer = pos.announcement, pos.announcer
        q = self._announcer_holds(pos)
        p = float(pos.knowledge[own, character])
        if character == PEASANT:
            return p * pos.after_power(0, PEASANT) + (1 - p) * pos.value(pos.fined(0))
        mine = pos.after_power(0, character, pos.fined(announcer))
        return p * mine + (1 - p) * (q * pos.after_power(announcer, character, pos.fined(0))
                                     + (1 - q) * pos.value(pos.fined(0, announcer)))

    def _spy_look(self, other: int, pos: _Position) -> float:
        """Where it knows least; on a tie, another player's card rather than its own."""
        return _entropy(pos.knowledge[other]) + 0.1 * (other >= self.hand)

    def _spy_swap(self, swapped: bool, pos: _Position) -> float:
        k = pos.knowledge
        # The Spy's own card is the one it announced or claimed with.
        own_card = next(p for p in pos.power_cards if p < self.hand and p in pos.claimed_cards)
        other = next(p for p in pos.power_cards if p != own_card)
        gain = pos.card_worth(k[other]) - pos.card_worth(k[own_card])
        return gain if swapped else 0.0

    def _question(self, k: int, pos: _Position) -> float:
        hit = pos.coins.copy()
        taken = min(4, hit[k])
        hit[k] -= taken
        hit[0] += taken
        return pos.value(hit)
