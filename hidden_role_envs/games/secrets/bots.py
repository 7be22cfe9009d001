"""Scripted (heuristic) players for Secrets.

`SecretsScriptedPlayer` plays any seat of a Secrets table from that seat's
observation alone (README, "Scripted players": how to seat one).

How it plays: every legal action is scored by an estimate of this seat's
chance to win (`_Position.win_chance`) after it, and the best is played.
The estimate reads the expected scores on the table and the `identity`
block (this seat's probability that each place holds CIA, KGB or Hippie):

- as a team player, the chance that its team's total beats the other's,
  each seat's score weighted by P(teammate) - P(opponent), times the chance
  that no Hippie ends strictly lowest;
- as a Hippie, the chance that its own score ends strictly below everyone's.

Both are logistic curves that sharpen as the screens fill up and the end
nears. A card's value on a screen includes what happens there at once: a
second face-up Scientist turns the whole screen face down, an identical
face-up pair turns face down at the end of the turn. Effects move identities
(Double Agent, Diplomat, Psychiatrist), points (Politician, the Assassin's
Bullet) or knowledge (Detective, Journalist): the bot applies its own to
gain the most (the Detective looks where it knows least, its own token
first) and treats those applied by others as made at random.

It cannot see how the other seats decide, so it treats their answers
(accept or refuse) and the UN player's interception as coin flips, and the
card of an Offer made to it as either of the two characters shown. It makes
its Offers without a claim and ignores the claims of others, which cost
nothing to fake.

Against random players: docs/scripted-players.md. Its JAX twin
(`batched_bots.py`) decides as it does, so that the self-play trainer's
scripted games run inside the compiled batch.

At a table of scripted players (500 seeded games at 5 players, seed 1,
`hidden-roles evaluate secrets --players 5 --games 500 --seed 1 --seats
scripted --no-baseline`) a seat wins 0.345 [0.326, 0.364] of its games (a
team game: the winners of a game are several) and every game ends by the
rules. Two one-rule counter-strategies, each in one seat (rotated) of a
scripted table and otherwise playing as the scripted player does, win less
than the 0.345 of a scripted seat (500 games, seed 1; both intervals below
it): refusing every Offer
0.284 [0.246, 0.325], accepting every Offer 0.268 [0.231, 0.308].

    hidden-roles evaluate secrets --players 5 --games 500 --seed 1 --seats always:refuse,scripted --no-baseline
    hidden-roles evaluate secrets --players 5 --games 500 --seed 1 --seats always:accept,scripted --no-baseline
"""

from __future__ import annotations

import math

import numpy as np

from hidden_role_envs.core.scripted import ScriptedPlayer
from hidden_role_envs.games.secrets.actions import (
    ANSWER,
    ASSASSIN_TARGET,
    CENTRE,
    CHOOSE,
    DETECTIVE_LOOK,
    DIPLOMAT_SIDE,
    LEFT,
    OFFER,
    POLITICIAN_TARGET,
    PSYCHIATRIST_SWAP,
    RIGHT,
    UN_CHOICE,
    secrets_actions,
)
from hidden_role_envs.games.secrets.cards import (
    ASSASSIN,
    BULLET_VALUES,
    CARD_VALUES,
    CIA,
    DIPLOMAT,
    DOUBLE_AGENT,
    HIPPIE,
    KGB,
    NUM_IDENTITIES,
    POLITICIAN,
    PSYCHIATRIST,
    SCIENTIST,
)
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.games.secrets.observation import secrets_layout

# Other seats are modelled as coin flips: the bot cannot see how they decide.
ACCEPT_CHANCE = 0.5
INTERCEPT_CHANCE = 0.5
# Share of the longest possible rest of a game that is played on average
# (random games last about 60% of the turn limit).
SHARE_OF_TURNS_LEFT = 0.6

# The shape of the win-chance estimate. Win rates against random play move
# by less than the measurement noise (about 0.01) for values twice or half these.
DEFAULT_PARAMS = {
    "margin_width": 1.0,  # logistic width of the team margin once the game is over ...
    "margin_growth": 1.5,  # ... widened by this times sqrt(expected turns left)
    "identity_spread": 1.0,  # weight of the margin's variance due to unknown identities
    "tie_shift": 0.5,  # a tie loses for everybody: a team needs a margin of at least 1
    "gap_width": 0.5,  # logistic width of one score gap (who is strictly lowest) at the end ...
    "gap_growth": 1.0,  # ... widened by this times sqrt(expected turns left)
    "hippie_fear": 1.0,  # weight a team player gives to a Hippie ending strictly lowest
}


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _entropy(probs) -> float:
    return -sum(p * math.log(p) for p in probs if p > 1e-12)


def _swapped(ids: list[list[float]], p: int, q: int) -> list[list[float]]:
    """Identity beliefs after the tokens of places p and q swap: what was known moves with them."""
    out = ids.copy()
    out[p], out[q] = ids[q], ids[p]
    return out


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values)


class _Position:
    """One observation decoded into plain lists, seats relative to the observer (0 = itself).

    `ids[p]` is (P(CIA), P(KGB), P(Hippie)) of place p: the seats, then the
    centre (index n). `scores` are expected scores: face-up values plus the
    Bullets, whose unknown values count at the mean of the values this seat
    has not seen. `counts` are the cards on each screen (for the end).
    """

    def __init__(self, views: dict[str, np.ndarray], num_players: int, end_size: int, params: dict):
        n = num_players
        self.n = n
        self.end_size = end_size
        self.params = params
        self.face_up = [[int(x) for x in row] for row in views["face_up"]]
        bullets = [int(x) for x in views["bullets_received"]]
        self.counts = [sum(self.face_up[s]) + int(views["face_down"][s]) + bullets[s] for s in range(n)]
        self.ids = [[float(p) for p in row] for row in views["identity"]]

        given = views["bullets_given"]  # (receiver, value) of the Bullets this seat gave
        in_hand = np.flatnonzero(views["bullet_in_hand"])
        self.bullet_in_hand = BULLET_VALUES[int(in_hand[0])] if len(in_hand) else None
        unseen = list(BULLET_VALUES)
        for value_index in np.flatnonzero(given.sum(axis=0)):
            unseen.remove(BULLET_VALUES[value_index])
        if self.bullet_in_hand is not None:
            unseen.remove(self.bullet_in_hand)
        self.unseen_bullet = _mean(unseen) if unseen else 0.0
        known = given @ np.array(BULLET_VALUES, dtype=np.float64)
        unknown = np.array(bullets) - given.sum(axis=1)
        self.bullets = [float(known[s] + unknown[s] * self.unseen_bullet) for s in range(n)]
        # A face-up pair (possible during the turn that made it) turns face down at the end of the turn.
        self.scores = [
            sum(v * (c % 2) for v, c in zip(CARD_VALUES, self.face_up[s])) + self.bullets[s] for s in range(n)
        ]

        self.active = int(np.argmax(views["active_player"]))
        self.revealed = [int(c) for c in np.flatnonzero(views["revealed"])]
        offered = np.flatnonzero(views["offered_card"])
        self.offered_card = int(offered[0]) if len(offered) else None
        target = np.flatnonzero(views["offer_target"])
        self.target = int(target[0]) if len(target) else None
        un = int(np.argmax(views["un_holder"]))
        self.un_holder = None if un == n else un

    # --- how likely this seat is to win -------------------------------

    def widths(self, counts: list[int]) -> tuple[float, float]:
        """Uncertainty of the final team margin and of one score gap: less as screens fill up."""
        if max(counts) >= self.end_size:
            left = 0.0  # this turn ends the game
        else:
            left = SHARE_OF_TURNS_LEFT * sum(max(0, self.end_size - 1 - c) for c in counts) + 1.0
        p = self.params
        root = math.sqrt(left)
        return p["margin_width"] + p["margin_growth"] * root, p["gap_width"] + p["gap_growth"] * root

    def win_chance(self, scores: list[float], counts: list[int], ids: list[list[float]]) -> float:
        n = self.n
        p = self.params
        margin_width, gap_width = self.widths(counts)
        # The margin of CIA over KGB as this seat sees it: a seat counts +1 (CIA), -1 (KGB) or 0 (Hippie).
        cia_margin = scores[0]
        spread = 0.0  # its variance due to unknown identities
        for s in range(1, n):
            cia, kgb = ids[s][CIA], ids[s][KGB]
            cia_margin += scores[s] * (cia - kgb)
            spread += scores[s] * scores[s] * ((cia + kgb) - (cia - kgb) ** 2)
        kgb_margin = 2 * scores[0] - cia_margin
        margin_width = math.sqrt(margin_width * margin_width + p["identity_spread"] * spread)

        def strictly_lowest(seat: int) -> float:
            chance = 1.0
            for other in range(n):
                if other != seat:
                    chance *= _logistic((scores[other] - scores[seat] - 0.5) / gap_width)
            return chance

        me = ids[0]
        chance = 0.0
        if me[CIA] > 0 or me[KGB] > 0:
            hippie_wins = sum(ids[s][HIPPIE] * strictly_lowest(s) for s in range(1, n) if ids[s][HIPPIE] > 0)
            no_hippie = 1.0 - min(1.0, p["hippie_fear"] * hippie_wins)
            chance += me[CIA] * no_hippie * _logistic((cia_margin - p["tie_shift"]) / margin_width)
            chance += me[KGB] * no_hippie * _logistic((kgb_margin - p["tie_shift"]) / margin_width)
        if me[HIPPIE] > 0:
            chance += me[HIPPIE] * strictly_lowest(0)
        return chance

    # --- what a card does where it lands -------------------------------

    def landed(self, scores: list[float], counts: list[int], seat: int, card: int) -> tuple[list[float], list[int]]:
        """Scores and card counts once `card` lands face up on `seat` and the turn's pairs turn down."""
        scores = scores.copy()
        counts = counts.copy()
        counts[seat] += 1
        up = self.face_up[seat]
        if card == SCIENTIST and up[SCIENTIST] >= 1:
            scores[seat] = self.bullets[seat]  # every face-up character turns face down
        elif up[card] % 2 == 1:
            scores[seat] -= CARD_VALUES[card]  # the pair turns face down
        else:
            scores[seat] += CARD_VALUES[card]
        return scores, counts

    def shot(self, scores: list[float], counts: list[int], seat: int, bullet: float) -> float:
        """Win chance once `seat` receives a Bullet worth `bullet`."""
        scores = scores.copy()
        counts = counts.copy()
        scores[seat] += bullet
        counts[seat] += 1
        return self.win_chance(scores, counts, self.ids)

    def value_of_card_on(self, card: int, seat: int) -> float:
        """Win chance once `card` lands on `seat` and that seat applies its effect.

        The bot's own effects are valued at their best choice, the others'
        at the average over their choices (it cannot tell how they choose).
        """
        n = self.n
        ids = self.ids
        pick = max if seat == 0 else _mean
        if card == POLITICIAN:  # the receiver puts it on another screen
            return pick(
                self.win_chance(*self.landed(self.scores, self.counts, t, card), ids) for t in range(n) if t != seat
            )
        scores, counts = self.landed(self.scores, self.counts, seat, card)
        if card == DOUBLE_AGENT:
            return self.win_chance(scores, counts, _swapped(ids, seat, n))
        if card == PSYCHIATRIST:
            others = [s for s in range(n) if s != seat]
            return pick(
                self.win_chance(scores, counts, _swapped(ids, a, b))
                for i, a in enumerate(others)
                for b in others[i + 1 :]
            )
        if card == DIPLOMAT:
            sides = ((seat + LEFT) % n, (seat + RIGHT) % n)
            if seat != 0:
                return _mean(self.win_chance(scores, counts, _swapped(ids, s, n)) for s in sides)
            # The centre token is shown before the side is chosen: choose knowing it.
            total = 0.0
            for kind in range(NUM_IDENTITIES):
                if ids[n][kind] > 0:
                    known = ids.copy()
                    known[n] = [1.0 if k == kind else 0.0 for k in range(NUM_IDENTITIES)]
                    total += ids[n][kind] * max(self.win_chance(scores, counts, _swapped(known, s, n)) for s in sides)
            return total
        if card == ASSASSIN:
            return pick(self.shot(scores, counts, t, self.unseen_bullet) for t in range(n) if t != seat)
        return self.win_chance(scores, counts, ids)

    # --- the Offer -------------------------------------------------------

    def offer_value(self, card: int, target: int, card_value) -> float:
        """Expected win chance of the active seat offering `card` to `target`."""
        answered = ACCEPT_CHANCE * card_value(card, target) + (1 - ACCEPT_CHANCE) * card_value(card, self.active)
        un = self.un_holder
        if un is not None and un != self.active and un != target:
            return INTERCEPT_CHANCE * card_value(card, un) + (1 - INTERCEPT_CHANCE) * answered
        return answered

    def possible_cards(self) -> list[int]:
        """The Offer's card: known to the active seat, otherwise one of the characters shown."""
        return [self.offered_card] if self.offered_card is not None else self.revealed


class SecretsScriptedPlayer(ScriptedPlayer):
    """A heuristic Secrets player that reads only its seat's observation dict.

    `player(observation_dict)` returns a legal action id. `seed` makes the
    choice among equally good actions reproducible; `params` override
    `DEFAULT_PARAMS` (for experiments).
    """

    def __init__(self, config: SecretsConfig, seed: int | None = None, **params: float):
        unknown = set(params) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(DEFAULT_PARAMS)}")
        super().__init__(config, secrets_layout(config), secrets_actions(config), seed)
        self.end_size = config.end_size
        self.params = {**DEFAULT_PARAMS, **params}

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        legal, views = self.read(observation)
        kind = self.actions.meaning[int(legal[0])][0]  # every legal action answers the same decision
        pos = _Position(views, self.num_players, self.end_size, self.params)
        scored = self._score_actions(kind, [int(a) for a in legal], pos)
        best = max(value for _, value in scored)
        ties = [action for action, value in scored if value >= best - 1e-9]
        return int(ties[0] if len(ties) == 1 else self.rng.choice(ties))

    def _score_actions(self, kind: int, legal: list[int], pos: _Position) -> list[tuple[int, float]]:
        """(action, estimated win chance) for the legal actions worth considering."""
        n = self.num_players
        meaning = self.actions.meaning
        cache: dict[tuple[int, int], float] = {}

        def card_value(card: int, seat: int) -> float:
            if (card, seat) not in cache:
                cache[card, seat] = pos.value_of_card_on(card, seat)
            return cache[card, seat]

        if kind == CHOOSE:  # the card worth the most with its best target
            return [(a, max(pos.offer_value(meaning[a][1], t, card_value) for t in range(1, n))) for a in legal]
        if kind == OFFER:
            cards = pos.possible_cards()
            plain = [a for a in legal if meaning[a][1][1] is None]  # no claim: see the module docs
            return [(a, _mean(pos.offer_value(c, meaning[a][1][0], card_value) for c in cards)) for a in plain or legal]
        if kind == ANSWER:  # accept: the card lands here; refuse: on the active player's screen
            cards = pos.possible_cards()
            accept = _mean(card_value(c, 0) for c in cards)
            refuse = _mean(card_value(c, pos.active) for c in cards)
            return [(a, accept if meaning[a][1] else refuse) for a in legal]
        if kind == UN_CHOICE:
            cards = pos.possible_cards()
            intercept = _mean(card_value(c, 0) for c in cards)
            let_pass = _mean(
                ACCEPT_CHANCE * card_value(c, pos.target) + (1 - ACCEPT_CHANCE) * card_value(c, pos.active)
                for c in cards
            )
            return [(a, intercept if meaning[a][1] else let_pass) for a in legal]
        if kind == PSYCHIATRIST_SWAP:
            return [(a, pos.win_chance(pos.scores, pos.counts, _swapped(pos.ids, *meaning[a][1]))) for a in legal]
        if kind == POLITICIAN_TARGET:
            # On equal points, prefer the seat we know least about: we get to see its token.
            return [
                (
                    a,
                    pos.win_chance(*pos.landed(pos.scores, pos.counts, t, POLITICIAN), pos.ids)
                    + 1e-4 * _entropy(pos.ids[t]),
                )
                for a in legal
                for t in [meaning[a][1]]
            ]
        if kind == DIPLOMAT_SIDE:  # the centre token is already shown
            return [(a, pos.win_chance(pos.scores, pos.counts, _swapped(pos.ids, meaning[a][1] % n, n))) for a in legal]
        if kind == DETECTIVE_LOOK:
            return [(a, self._look_value(meaning[a][1], pos)) for a in legal]
        if kind == ASSASSIN_TARGET:
            bullet = pos.bullet_in_hand if pos.bullet_in_hand is not None else pos.unseen_bullet
            return [(a, pos.shot(pos.scores, pos.counts, meaning[a][1], bullet)) for a in legal]
        return [(a, 0.0) for a in legal]

    def _look_value(self, offset: int, pos: _Position) -> float:
        """Detective: look where uncertainty is highest; one's own token matters most, the centre least."""
        place = self.num_players if offset == CENTRE else offset
        weight = 2.0 if place == 0 else (0.5 if place == self.num_players else 1.0)
        return weight * _entropy(pos.ids[place])
