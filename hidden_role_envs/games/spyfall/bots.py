"""A scripted (heuristic) Spyfall player.

`SpyfallScriptedPlayer` plays any seat of a Spyfall table from that
seat's observation alone (README, "Scripted players": how to seat one);
its seeded generator only draws the spy's answers and breaks ties.

How it plays. Everything is worked out from the observation: the record of
the round's exchanges (who asked whom about what, and the answer), the
locations already played, its card, and the spy's `location_belief`.

- As a non-spy it replays the round's exchanges and, for every other seat,
  what a spy sitting there could have inferred of the place when it was
  asked (the KNOWLEDGE model of `location_belief`: the other seats' answers,
  true with probability 0.9). Its suspicion of a seat weighs each of that
  seat's answers by how likely a spy there was to give it (as often as it
  believed it, with SPY_SLIP of either answer) against how likely a non-spy
  was (0.9 if true at its location): a true answer the seat could not have
  inferred clears it, a false one condemns it. An accusation, or a yes vote,
  while the clock runs on a seat the record does not point to (below
  ACCUSE_AT, or VOTE_YES_AT, as that seat would have seen it) makes the seat
  that cast it BASELESS_ODDS times likelier to be the spy: a non-spy does
  not do that.
  It protects the place first: it asks nothing whose true answer would leave
  a spy sitting at any other seat PROTECT_AT sure of the location (if every
  question would, the one that tells least). Among the rest it asks the
  (target, attribute) that tests best: the target's suspicion (relative to
  an average seat) times the chance a spy there gets that attribute wrong,
  less LEAK_WEIGHT times how much of the place a true answer would give away
  to a spy sitting elsewhere. It only asks attributes nobody has answered
  this round while any is left (an answered one is public, the spy knows it
  too), and never asks a seat what that seat already answered unless
  nothing else is left. It answers truthfully; at any of its decisions while
  the clock runs it accuses once a seat's suspicion reaches ACCUSE_AT and
  votes yes only on a seat it suspects at least VOTE_YES_AT; once time is
  up it accuses its top suspect and votes yes on any of its top suspects
  (no conviction is a win for the spy).
- From 7 players (LARGE_TABLE) a non-spy plays otherwise. There the spy is
  asked about 2 of the 16 questions and, hearing the other seats' answers,
  soon knows the place: played as at smaller tables, the round's questions
  went round three or four seats (a seat that answered much is the one a
  listening spy could least infer, so the best test), the spy went
  unasked in 142 of 300 rounds at 8 players, and the time-up vote
  convicted a wrong seat (the spy's share 0.522 at 7 players, 0.566 at
  8). So there it
  (1) asks every seat once before it asks anyone twice, while a spy there
  can still be caught; (2) protects the place more: PROTECT_AT_LARGE
  instead of PROTECT_AT; (3) reads each question as evidence: a seat that
  asked an attribute answered this round, or one whose true answer leaves
  a spy at a third seat PROTECT_AT_LARGE sure of the place, while some
  fresh attribute kept every seat below it, is QUESTION_ODDS times likelier
  to be the spy (a non-spy asks neither, a spy cannot tell which they
  are); and (4) accuses at ACCUSE_AT_LARGE and votes yes at
  VOTE_YES_AT_LARGE, sooner, since waiting for surer evidence mostly lets
  the spy name the place or reach the time-up vote. Measured while tuning
  at 8 players (300 games; a version whose spy, modelling the non-spies,
  left its own questions out): the spy's share 0.727 without (3), 0.597
  without (4), 0.437 with all four, 0.153 and 0.587 with PROTECT_AT_LARGE
  0.5 and 0.7. Reading the questions alone at 4 players brings the spy's
  share down to 0.202 (500 games), below the aim of 0.25 to 0.50, so
  smaller tables do not.
- As the spy it answers yes with the probability its location belief gives
  to yes (a spy that always says its likelier side is wrong every time it is
  asked what it can least infer), and asks anyone the question it is least
  sure of. It acts on the non-spies' suspicion as it models it (their
  suspicion of every seat, averaged over the locations it believes in): it
  accuses while the clock runs only a seat they suspect at least ACCUSE_AT
  (their threshold at that table size), when time is up the seat they
  suspect most after itself, and votes yes on every accusation (a convicted
  non-spy pays it 4). It names its likeliest location at any of its
  decisions while the clock runs when it is at least GUESS_AT sure and at
  most FIT_AT of the answers contradict it; or when the non-spies suspect
  it at least DANGER_AT; or, when asked, if its best guess is at least
  WIN_IF_UNSEEN times the chance its answer is right.

Against random players: docs/scripted-players.md. Its JAX twin
(`batched_bots.py`) decides as it does, so that the self-play trainer's
scripted games run inside the compiled batch.

At a table of scripted players only (one round a game, the default config;
games seeded 0 to 499, the bot seeded 0), the share of rounds the spy's side
won (it named the place, nobody was convicted, or a non-spy was):

| players | spy wins | spy convicted | spy named the place | spy named a wrong place | a non-spy convicted |
|---|---|---|---|---|---|
| 4 | 0.308 | 266 | 130 | 80 | 24 |
| 5 | 0.376 | 238 | 147 | 74 | 41 |
| 6 | 0.428 | 226 | 106 | 60 | 108 |
| 7 | 0.434 | 256 | 188 | 27 | 29 |
| 8 | 0.452 | 245 | 198 | 29 | 28 |

(500 rounds each; no round ended with nobody convicted. The aim, a spy's
share of 0.25 to 0.50, is met at every table size; the next 500 games,
`round_results(P, 500, seed=500)`, give 0.444 at 7 players and 0.462 at
8.) Measured, for each P, with

    python -c "from hidden_role_envs.games.spyfall.bots import round_results; print(round_results(P, 500))"
"""

from __future__ import annotations

import math
from collections import Counter
from typing import NamedTuple

import numpy as np

from hidden_role_envs.core.scripted import ScriptedPlayer
from hidden_role_envs.games.spyfall.actions import ACCUSE, ANSWER, ASK, GUESS, PASS, VOTE, spyfall_actions
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.knowledge import LIE_RATE
from hidden_role_envs.games.spyfall.observation import spyfall_layout
from hidden_role_envs.games.spyfall.rules import BALLOT, FINAL_ACCUSATION, QUESTION, REPLY, WINDOW

ACCUSE_AT = 0.6  # a non-spy stops the clock to accuse a seat at least this likely to be the spy
VOTE_YES_AT = 0.5  # ... and votes to convict only a seat at least this likely to be the spy (once time is up: the
# likeliest one, as no conviction is a win for the spy)
PROTECT_AT = 0.9  # a non-spy asks nothing whose true answer would leave a spy elsewhere this sure of the place
LARGE_TABLE = 7  # from this many players a non-spy plays otherwise (the module docstring says why):
ACCUSE_AT_LARGE = 0.5  # ... it accuses a seat at least this likely to be the spy
VOTE_YES_AT_LARGE = 0.45  # ... votes to convict a seat at least this likely
PROTECT_AT_LARGE = 0.6  # ... protects the place this much (PROTECT_AT's meaning)
QUESTION_ODDS = 5.0  # ... and finds the spy this much likelier in a seat that asked what a non-spy does not
BASELESS_ODDS = 5.0  # how much likelier the spy is in a seat that accused, or voted to convict, without the record
SPY_SLIP = 0.05  # the non-spies' model: a spy says yes as often as it believes yes, and either answer this often
LEAK_WEIGHT = 0.5  # how much a non-spy weighs what its question may tell an unsuspected spy
DANGER_AT = 0.5  # the spy names its best guess once it is suspected this much ...
WIN_IF_UNSEEN = 0.5  # ... or, asked a question, when its best guess beats this times the chance its answer is right
GUESS_AT = 0.95  # the spy names the location once it is at least this sure ...
FIT_AT = 0.2  # ... and at most this share of the answers it heard contradict that location


class Exchange(NamedTuple):
    """One answered question of the round, seats relative to the observer."""

    asker: int
    target: int
    attribute: int
    yes: bool


class Replayed(NamedTuple):
    """An answered question, replayed: how likely a spy in the target's seat was to answer as it did."""

    exchange: Exchange
    as_spy: float
    views: np.ndarray | None  # [seat, location]: the spy views when it was asked (large tables only)


class Telling(NamedTuple):
    """Per seat (0, the observer, unused): what a true answer about one attribute tells a spy sitting there."""

    told: list[float]
    sharpest: list[float]


class Listeners(NamedTuple):
    """The other seats that hear a target's answer, and how much each counts (its share of the suspicion;
    None: all alike)."""

    others: list[int]
    weights: np.ndarray | None


class SpyfallScriptedPlayer(ScriptedPlayer):
    """A heuristic Spyfall player that reads only its seat's observation dict.

    `player(observation_dict)` returns a legal action id. `config` is the
    configuration of the table it sits at (`env.unwrapped.config`): its
    seats, locations and attributes. `seed` makes the choice among equally
    good actions reproducible.
    """

    def __init__(self, config: SpyfallConfig, seed: int | None = None):
        super().__init__(config, spyfall_layout(config), spyfall_actions(config), seed)
        self.matrix = config.places.matrix.astype(np.float64)  # (locations, attributes)
        holds = self.matrix.T[:, None, :] == np.array([0, 1])[None, :, None]  # [attribute, yes, location]
        self.answer_loglik = np.where(holds, math.log(1 - LIE_RATE), math.log(LIE_RATE))
        large = self.num_players >= LARGE_TABLE
        self.accuse_at = ACCUSE_AT_LARGE if large else ACCUSE_AT
        self.vote_yes_at = VOTE_YES_AT_LARGE if large else VOTE_YES_AT
        self.protect_at = PROTECT_AT_LARGE if large else PROTECT_AT
        self.large = large  # asks every seat once first, and reads the questions asked as evidence

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        _, v = self.read(observation)
        decision = int(np.argmax(v["decision"]))
        spy = bool(v["is_spy"][0])
        danger, suspicion = self.seen_by_the_non_spies(v) if spy else (0.0, self.suspicion(v))
        time_up = bool(v["clock"][1])
        if decision == BALLOT:
            accused = int(np.argmax(v["accusation"][1]))
            if time_up:  # the last chance: convict the likeliest spy (the spy: anyone but itself)
                yes = spy or suspicion[accused] >= suspicion.max() - 1e-9
            else:
                yes = spy or suspicion[accused] >= self.vote_yes_at  # the spy: any conviction of another pays it 4
            return self._first(VOTE, lambda arg: arg == yes)
        if decision == FINAL_ACCUSATION:
            return self._accuse(suspicion)
        if decision not in (QUESTION, REPLY, WINDOW):
            raise ValueError(f"unknown decision {decision}")
        stop = self._stop_the_clock(v, mask, suspicion, spy, danger)
        if stop is not None:
            return stop
        if decision == QUESTION:
            return self._ask_as_spy(v, mask) if spy else self._ask(v, mask, suspicion)
        if decision == REPLY:
            return self._answer(v, spy)
        return self.actions.of_kind[PASS][0]

    def _first(self, kind: int, keep) -> int:
        return next(a for a in self.actions.of_kind[kind] if keep(self.actions.args[a]))

    # --- what a seat can work out from the record ------------------------------------

    def exchanges(self, v) -> list[Exchange]:
        """The round's answered questions in the order asked (a question still waiting is left out)."""
        rows = np.flatnonzero(v["exchange_answer"].any(axis=1))
        return [
            Exchange(int(np.argmax(v["exchange_asker"][j])), int(np.argmax(v["exchange_target"][j])),
                     int(np.argmax(v["exchange_attribute"][j])), bool(v["exchange_answer"][j, 0]))
            for j in rows
        ]

    def spy_views(self, v, exchanges: list[Exchange]) -> np.ndarray:
        """[seat, location]: P(location) as the spy would see it if it sat at that seat.

        The same model as the spy's own `location_belief` (KNOWLEDGE): every
        other seat's answers, true with probability 0.9, over the locations
        not yet played. A non-spy uses it to tell what each seat could infer.
        """
        loglik = np.zeros((self.num_players, len(self.matrix)))
        for e in exchanges:
            loglik += self.answer_loglik[e.attribute, int(e.yes)]
            loglik[e.target] -= self.answer_loglik[e.attribute, int(e.yes)]
        return self._normalise(loglik, v)

    def _normalise(self, loglik: np.ndarray, v) -> np.ndarray:
        weights = np.exp(loglik - loglik.max(axis=-1, keepdims=True)) * (1 - v["played"])
        return weights / weights.sum(axis=-1, keepdims=True)

    def suspicion(self, v) -> np.ndarray:
        """A non-spy's P(seat is the spy), by relative seat (0 for itself).

        Replays the round: a non-spy's answer is true with probability 0.9;
        the spy's follows what it could infer when asked (`spy_views` then),
        so a true answer it could not have inferred clears a seat and a false
        one it would have given condemns it. Sharper than the 1/2 model of
        `spy_belief`, which treats the spy as answering at random.
        """
        odds = self.spy_odds(v, int(np.argmax(v["location"])))
        weights = np.exp(odds - odds[1:].max())
        weights[0] = 0
        return weights / weights.sum()

    def spy_odds(self, v, location: int, replay: list[Replayed] | None = None) -> np.ndarray:
        """[seat]: the log-odds `suspicion` gives each seat of being the spy, were the round at `location`.

        `replay` (from `_replay`) is the part that does not depend on the location, for callers that try many.
        """
        truth = self.matrix[location]
        odds = np.zeros(self.num_players)
        answered: set[int] = set()
        for e, as_spy, views in self._replay(v) if replay is None else replay:
            if self.large:
                odds[e.asker] += self._question_odds(views, truth, e, answered)
            answered.add(e.attribute)
            odds[e.target] += math.log(as_spy / (1 - LIE_RATE if truth[e.attribute] == e.yes else LIE_RATE))
        return odds + self._baseless(v, odds)

    def _replay(self, v) -> list[Replayed]:
        """Each answered question with the chance a spy in the target's seat gave that answer (it answers what
        it could infer then), and, at a large table, the spy views when it was asked."""
        loglik = np.zeros((self.num_players, len(self.matrix)))
        replay = []
        for e in self.exchanges(v):
            views = self._normalise(loglik, v) if self.large else None
            said = self.answer_loglik[e.attribute, int(e.yes)]
            p_yes = self._normalise(loglik[e.target], v) @ self.matrix[:, e.attribute]
            replay.append(Replayed(e, SPY_SLIP + (1 - 2 * SPY_SLIP) * (p_yes if e.yes else 1 - p_yes), views))
            loglik += said
            loglik[e.target] -= said
        return replay

    def _question_odds(self, views: np.ndarray, truth: np.ndarray, e: Exchange, answered: set[int]) -> float:
        """The log-odds added to `e`'s asker for asking what a non-spy does not, while it had a safe choice.

        At a large table a non-spy asks no attribute answered this round and
        none whose true answer leaves a spy at a third seat `protect_at` sure
        of the place, as long as some fresh attribute keeps every seat below
        that. A spy, not knowing the true answers, asks such questions.
        `views` are the spy views when `e` was asked.
        """
        third_seats = [s for s in range(self.num_players) if s not in (e.asker, e.target)]
        telling = max((self._sharpest(views[s], e.attribute, truth[e.attribute]) for s in third_seats), default=0.0)
        if e.attribute not in answered and telling <= self.protect_at:
            return 0.0
        others = [s for s in range(self.num_players) if s != e.asker]
        safe_left = any(
            max(self._sharpest(views[s], a, truth[a]) for s in others) <= self.protect_at
            for a in self._fresh_attributes_of(answered)
        )
        return math.log(QUESTION_ODDS) if safe_left else 0.0

    def _baseless(self, v, odds: np.ndarray) -> np.ndarray:
        """[seat]: the log-odds added for accusing, or voting to convict, a seat the answers do not point to.

        While the clock runs a non-spy accuses only a seat it suspects at least ACCUSE_AT and votes yes
        only at VOTE_YES_AT (the _LARGE ones from LARGE_TABLE players), and what it suspects follows from the
        public record: an accusation or a yes vote the record does not support came from a seat that does
        not know the place.
        """
        weights = np.exp(odds - odds.max())
        extra = np.zeros(self.num_players)
        accusations = v["accusations"][0]
        votes = v["accusation_votes"][0]
        for accuser, accused in np.argwhere(accusations > 0):
            voters = [s for s in np.flatnonzero(votes[accuser, :, 0]) if s != accuser]
            for seat, bar in [(accuser, self.accuse_at)] + [(s, self.vote_yes_at) for s in voters]:
                if seat == 0:
                    continue
                others = weights.sum() - weights[seat]
                if weights[accused] / others < bar:
                    extra[seat] += math.log(BASELESS_ODDS)
        return extra

    # --- the non-spy -------------------------------------------------------------------

    def _ask(self, v, mask: np.ndarray, suspicion: np.ndarray) -> int:
        """Ask the seat and attribute that test the spy best for what they tell it.

        Each (target, attribute) is worth P(target is the spy) times the
        chance that a spy there gets the answer wrong (it answers what it
        could infer, so that chance is how little it can), less LEAK_WEIGHT
        times what a true answer would tell the spy about the place if it sits
        elsewhere. Only attributes nobody has answered this round are asked
        while any is left: an answered one is known to everyone, the spy too.
        """
        exchanges = self.exchanges(v)
        if self.large:
            mask = self._unasked_seats_first(mask, exchanges)
        views = self.spy_views(v, exchanges)
        truth = self.matrix[int(np.argmax(v["location"]))]
        fresh = self._fresh_attributes(exchanges)
        telling: dict[int, Telling] = {}  # what a true answer about each attribute tells a spy at each seat
        listeners: dict[int, Listeners] = {}  # the seats that hear each target's answer
        best, choice = -np.inf, None
        for action in self.actions.of_kind[ASK]:
            target, attribute = self.actions.args[action]
            if not mask[action] or attribute not in fresh:
                continue
            if attribute not in telling:
                telling[attribute] = self._telling(views, truth, attribute)
            if target not in listeners:
                listeners[target] = self._listeners(suspicion, target)
            score = self._worth(views, suspicion, truth, target, attribute, telling[attribute], listeners[target])
            score += 1e-9 * self.rng.random()  # ties: at random
            if score > best:
                best, choice = score, action
        return choice if choice is not None else self._ask_anything(mask, exchanges)

    def _unasked_seats_first(self, mask: np.ndarray, exchanges: list[Exchange]) -> np.ndarray:
        """The mask without questions to seats already asked this round, while a seat nobody asked is legal.

        At a large table a seat that keeps listening soon knows the place
        whether it is the spy or not, so each seat is tested while it can
        still be caught.
        """
        asked = {e.target for e in exchanges}
        narrowed = mask.copy()
        for action in self.actions.of_kind[ASK]:
            if self.actions.args[action][0] in asked:
                narrowed[action] = False
        return narrowed if narrowed[list(self.actions.of_kind[ASK])].any() else mask

    def _fresh_attributes(self, exchanges: list[Exchange]) -> set[int]:
        return self._fresh_attributes_of({e.attribute for e in exchanges})

    def _fresh_attributes_of(self, answered: set[int]) -> set[int]:
        return set(range(self.matrix.shape[1])) - answered

    def _worth(self, views: np.ndarray, suspicion: np.ndarray, truth: np.ndarray, target: int, attribute: int,
               telling: Telling, listeners: Listeners) -> float:
        p_true = views[target] @ (self.matrix[:, attribute] == truth[attribute])
        miss = 1.0 if p_true < 0.5 else 1 - p_true  # an attribute it would likely get wrong is the best test
        others, weights = listeners
        leak = np.average([telling.told[s] for s in others], weights=weights) if others else 0.0
        lift = suspicion[target] * (self.num_players - 1)  # 1: as suspect as the average seat
        sharpest = max((telling.sharpest[s] for s in others), default=0.0)
        if sharpest > self.protect_at:  # below every question that keeps the place safe; the least telling first
            return -1e6 - sharpest
        return lift * miss - LEAK_WEIGHT * leak

    def _listeners(self, suspicion: np.ndarray, target: int) -> Listeners:
        others = [s for s in range(1, self.num_players) if s != target]
        weights = suspicion[others] / suspicion[others].sum() if suspicion[others].sum() > 0 else None
        return Listeners(others, weights)

    def _sharpest(self, view: np.ndarray, attribute: int, value: float) -> float:
        """How sure of its likeliest place a spy with this view would be after a true answer."""
        after = view * (self.matrix[:, attribute] == value)
        return after.max() / after.sum() if after.sum() > 0 else 0.0

    def _telling(self, views: np.ndarray, truth: np.ndarray, attribute: int) -> Telling:
        """For a spy at each other seat: how much of its doubt about the place a true answer removes (1: all of
        it), and how sure of its likeliest place it leaves it (`_sharpest`). The same for every target, so
        `_ask` works it out once per attribute."""
        told, sharpest = [0.0] * self.num_players, [0.0] * self.num_players
        holds = self.matrix[:, attribute] == truth[attribute]
        for seat in range(1, self.num_players):
            after = views[seat] * holds
            total = after.sum()
            if total > 0:
                told[seat], sharpest[seat] = 1 - total, after.max() / total
        return Telling(told, sharpest)

    def _ask_anything(self, mask: np.ndarray, exchanges: list[Exchange]) -> int:
        """No fresh attribute: a question that seat has not answered yet, if there is one."""
        asked = {(e.target, e.attribute) for e in exchanges}
        legal = [a for a in self.actions.of_kind[ASK] if mask[a]]
        unasked = [a for a in legal if self.actions.args[a] not in asked]
        return int(self.rng.choice(unasked or legal))

    # --- the spy ---------------------------------------------------------------------------

    def _ask_as_spy(self, v, mask: np.ndarray) -> int:
        """The question it knows least about: P(yes) under its location belief closest to 1/2, of anyone."""
        legal = [a for a in self.actions.of_kind[ASK] if mask[a]]
        share = v["location_belief"] @ self.matrix
        doubt = [abs(share[self.actions.args[a][1]] - 0.5) - 1e-9 * self.rng.random() for a in legal]
        return legal[int(np.argmin(doubt))]

    # --- both --------------------------------------------------------------------------------

    def _stop_the_clock(self, v, mask: np.ndarray, suspicion: np.ndarray, spy: bool, danger: float) -> int | None:
        """The spy names the location when `_guess` says so; anyone accuses a seat suspected at least ACCUSE_AT
        (the spy: as it models the non-spies' suspicion). None: the clock runs on."""
        if spy:
            guess = self._guess(v, mask, danger)
            if guess is not None:
                return guess
        can_accuse = any(mask[a] for a in self.actions.of_kind[ACCUSE])
        if can_accuse and suspicion.max() >= self.accuse_at:
            return self._accuse(suspicion)
        return None

    def _guess(self, v, mask: np.ndarray, danger: float) -> int | None:
        """The spy names its likeliest location when sure of it, or when waiting looks worse than guessing now.

        Waiting is worse when the non-spies (seen from each location it
        still believes in) suspect it at least DANGER_AT, or when it is asked
        a question and the chance its answer gives it away outweighs its
        chance of naming the place.
        """
        belief = v["location_belief"]
        best = int(np.argmax(belief))
        guess = self.actions.id_of(GUESS, best)
        if not mask[guess]:
            return None
        if belief[best] >= GUESS_AT and self._fits(v, best):
            return guess
        if danger >= DANGER_AT:
            return guess
        if v["decision"][REPLY]:
            share = belief @ self.matrix[:, int(np.argmax(v["question_attribute"]))]
            if belief[best] >= max(share, 1 - share) * WIN_IF_UNSEEN:
                return guess
        return None

    def seen_by_the_non_spies(self, v) -> tuple[float, np.ndarray]:
        """The spy's danger (how much the non-spies suspect it) and its stand-in for a non-spy's `suspicion`:
        theirs of the other seats as it models them (0 for itself), so that it accuses and votes as they would
        and gives itself away less."""
        seen = self._seen_as(v)
        danger = float(seen[0])
        seen[0] = 0
        return danger, seen / seen.sum()

    def _seen_as(self, v) -> np.ndarray:
        """[seat]: how much the non-spies suspect each seat (this spy at 0), averaged over where it believes the
        round is."""
        belief = v["location_belief"]
        total = np.zeros(self.num_players)
        replay = self._replay(v)
        for location in np.flatnonzero(belief > 1e-3):
            odds = self.spy_odds(v, int(location), replay)
            weights = np.exp(odds - odds.max())
            total += belief[location] * weights / weights.sum()
        return total / belief[belief > 1e-3].sum()

    def _answer(self, v, spy: bool) -> int:
        attribute = int(np.argmax(v["question_attribute"]))
        if spy:
            yes = self.rng.random() < v["location_belief"] @ self.matrix[:, attribute]  # as likely as it believes
        else:
            yes = self.matrix[int(np.argmax(v["location"])), attribute] == 1
        return self._first(ANSWER, lambda arg: arg == bool(yes))

    def _fits(self, v, location: int) -> bool:
        """Whether the others' answers contradict `location` no more often than the model's lie rate allows.

        The belief is sharp whenever one location fits best, even when the
        answers are noise (players who lie at random); then none fits well
        and naming one would be a bad bet.
        """
        tallies = v["answers"][1:]  # the other seats' (yes, no) counts per attribute
        truth = self.matrix[location]
        contradictions = (tallies[:, :, 0] @ (1 - truth)).sum() + (tallies[:, :, 1] @ truth).sum()
        return contradictions <= FIT_AT * tallies.sum()

    def _accuse(self, suspicion: np.ndarray) -> int:
        return self.actions.id_of(ACCUSE, int(np.argmax(suspicion[1:])) + 1)


def round_results(num_players: int, games: int, seed: int = 0) -> Counter:
    """How the rounds of `games` all-scripted games ended, by kind (deals seeded `seed` on, the bot seeded `seed`):
    the measurement of the all-scripted table above."""
    from hidden_role_envs import spyfall_v1  # the bots are imported by the game's definition: no cycle at import

    env = spyfall_v1.env(num_players=num_players)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=seed)
    results: Counter = Counter()
    for game in range(games):
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else bot(observation))
        results.update(r["result"].split(":")[0] for r in info["rounds"])
    return results

