"""Scripted (heuristic) players for Hoax.

`HoaxScriptedPlayer` plays any seat of a Hoax table from that seat's
observation alone (README, "Scripted players": how to seat one).

How it plays. It lies when lying pays, and risks its own elimination only
on good odds:

- its belief is its `knowledge` block (exact, from what it saw) with each
  row tilted towards the characters that seat has claimed (x1.5 odds per
  claim, two at most: claims are cheap talk);
- it claims its own character at a truth rate and otherwise the best
  option of any other character. The rate is 0.4 at a table that seldom
  calls Hoax and rises to 1 as the others' calls per claim rise (random
  players call on most claims, and a checked true claim wins at once); it
  is cut to a quarter when its own privilege would get it (almost)
  nothing, so that a table never stalls for want of a resource type. The
  first claims of a game, before any call has been seen, are truthful.
  Options are scored by how balanced its resources become for
  investigations, less a share of what they give the opponents;
- it calls Hoax on a claim it believes true with less than 12% chance (in
  practice a claim its knowledge rules out or nearly), votes thumbs down
  below 20%, and otherwise lets claims pass;
- it investigates whenever it can pay, the opponent nearest proof (its
  likeliest character) among those not yet certain, and accuses the
  likeliest (seat, character) when its belief clears a bar of 0.9 that
  falls by 0.004 a turn down to 0.3, so games end by the rules;
- it answers a privilege with an immunity only when its own character is
  immune; its opening pick is the type it holds fewest of.

Against random players it is almost always truthful (they call Hoax
freely) and its checked true claims win. At a table of scripted players
it bluffs more often than not, so accusing a seat of the character it
just claimed is more likely wrong than right.

Against random players: docs/scripted-players.md.

Tables of scripted players, 100 games at each size, seed 1, the default
limit of 1000 turns: none truncated at 3, 4, 5 or 6 players (the win rate by
rotated seat is then the fair share, as it must be; by absolute seat, over
games seeded 1000 on, no seat above 0.42 at 3 players, 0.35 at 4, 0.30 at
5 and 0.28 at 6, 60-100 games each).

    hidden-roles evaluate hoax --players P --games 100 --seed 1 --seats scripted --no-baseline

The counter-strategy "accuse the last claimant as the character it
claimed, else play like the scripted player" (`AccuseTheLastClaimant`
below) in one seat (rotated) of a scripted table, 1000 games at each size,
seed 0, the default turn limit:

| players | counter's win rate (95% CI) | fair share + 5 points | truncated |
|---|---|---|---|
| 3 | 0.210 [0.186, 0.236] | 0.383 | 0 |
| 4 | 0.064 [0.050, 0.081] | 0.300 | 0 |
| 5 | 0.021 [0.014, 0.032] | 0.250 | 2 |
| 6 | 0.004 [0.002, 0.010] | 0.217 | 0 |

    hidden-roles evaluate hoax --players P --games 1000 --seed 0 --seats counter:accuse-last-claimant,scripted --no-baseline
"""

from __future__ import annotations

import math

import numpy as np

from hidden_role_envs.core.scripted import ScriptedPlayer
from hidden_role_envs.games.hoax.actions import (
    ACCUSE,
    CALL,
    CAST_VOTE,
    CLAIM,
    END_TURN,
    HOAX_CALL,
    IMMUNE,
    IMMUNITY,
    INVESTIGATE,
    NO_CALL,
    NO_IMMUNITY,
    PICK,
    TURN,
    VOTE,
    hoax_actions,
)
from hidden_role_envs.games.hoax.config import HoaxConfig
from hidden_role_envs.games.hoax.observation import hoax_layout
from hidden_role_envs.games.hoax.privileges import EACH_NEIGHBOUR, EACH_OTHER, GIVE, NAMED, SWAP, TAKE, Effect

CERTAIN = 0.999  # knowledge at least this sure counts as proof
OTHERS_WEIGHT = 0.25  # how much an option's gifts to opponents count against it
TOKEN_DECAY = 0.6  # each more token of a type is worth this share of the previous one
CLAIM_WEIGHT = 1.5  # each claim of a character (up to two) multiplies the odds that the claimant holds it
BASE_TRUTH = 0.4  # the share of claims it makes truthfully at a table that seldom checks claims
CALL_BELOW = 0.12  # calls Hoax on a claim it believes true with less than this chance
VOTE_DOWN_BELOW = 0.2  # votes thumbs down below this chance (a checked true claim wins the game)
ACCUSE_FROM = 0.9  # accuses a character this likely at the start of the game...
ACCUSE_FLOOR = 0.3  # ...and lowers the bar by ACCUSE_EASING per turn down to this, so games end
ACCUSE_EASING = 0.004
STALL_MARGIN = 0.3  # a lie worth this much more than the truth...
USELESS_TRUTH = 0.25  # ...cuts the truth rate to this share of itself


def _holding_value(held: np.ndarray) -> float:
    """Concave in each type: balanced holdings pay for investigations sooner."""
    return float(sum(1.0 - TOKEN_DECAY ** int(k) for k in held))


def _entropy(probs: np.ndarray) -> float:
    return -sum(float(p) * math.log(p) for p in probs if p > 1e-12)


class _View:
    """One observation decoded; seats relative to the observer (0 = itself)."""

    def __init__(self, views: dict[str, np.ndarray]):
        self.resources = views["resources"].astype(np.int64)
        self.supply = views["supply"].astype(np.int64)
        self.live = views["eliminated"] < 0.5
        self.turn_progress = views["turn_progress"]
        self.knowledge = views["knowledge"]
        self.character = int(np.argmax(views["character"]))
        self.turn = int(views["turn"][0])
        self.belief = _belief(views["knowledge"], views["claims"])
        self.truth_rate = _truth_rate(views["hoax_calls"], views["claims"])

    def claim_in_question(self, views: dict[str, np.ndarray]) -> tuple[int, int]:
        """(claimant, character) of the claim being called or voted on: an immunity claim first."""
        if views["immunity_claimant"].any():
            return int(np.argmax(views["immunity_claimant"])), int(np.argmax(views["immunity_character"]))
        return int(np.argmax(views["claimant"])), int(np.argmax(views["claim_character"]))

    def reached_by(self, effect: Effect, player: int) -> list[int]:
        live = [s for s in range(1, len(self.live)) if self.live[s]]
        if effect.whom == EACH_OTHER:
            return live
        if effect.whom == EACH_NEIGHBOUR:
            return sorted({live[0], live[-1]})
        return [player]


def _belief(knowledge: np.ndarray, claims: np.ndarray) -> np.ndarray:
    """The knowledge block, each row tilted towards the characters its seat has claimed.

    Claims are cheap talk (players lie), so they only tilt the exact posterior:
    each privilege or immunity claim, up to two per character, multiplies the
    odds by CLAIM_WEIGHT. What the knowledge rules out stays ruled out.
    """
    made = np.minimum(claims[:, :, 0] + claims[:, :, 1], 2)
    tilted = knowledge * CLAIM_WEIGHT ** made
    totals = tilted.sum(axis=1, keepdims=True)
    return np.divide(tilted, totals, out=np.zeros_like(tilted), where=totals > 0)


def _truth_rate(hoax_calls: np.ndarray, claims: np.ndarray) -> float:
    """How often to claim truthfully: more when the others often call Hoax.

    A checked true claim wins the game, a checked false one costs the
    privilege and an impostor token; so against a table that calls Hoax
    freely (random players call on most claims) the truth pays, and at a
    table that seldom calls, lies pay (any privilege is open) and keep
    claims from telling the character. With no claim yet, one call of prior
    makes the first claims truthful.
    """
    calls = hoax_calls[1:].sum() + 1.0
    made = claims[:, :, :2].sum() + 1.0
    return float(np.clip(BASE_TRUTH + 1.5 * (calls / made - 0.2), BASE_TRUTH, 1.0))


class HoaxScriptedPlayer(ScriptedPlayer):
    """A heuristic Hoax player that reads only its seat's observation dict.

    `player(observation_dict)` returns a legal action id; `seed` makes its
    bluffs and the choice among equally good actions reproducible. It plays
    the table of `config` (its player count and character sheet), whose
    layout it reads the observation with.
    """

    def __init__(self, config: HoaxConfig, seed: int | None = None):
        super().__init__(config, hoax_layout(config), hoax_actions(config), seed)
        self.sheet = config.sheet

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        legal, views = self.read(observation)
        legal = [int(a) for a in legal]
        view = _View(views)
        decision = int(np.argmax(views["decision"]))
        by_kind: dict[int, list[int]] = {}
        for action in legal:
            by_kind.setdefault(self.actions.kind[action], []).append(action)
        if decision == PICK:
            return self._best(legal, lambda a: -view.resources[0, self.actions.args[a]])
        if decision == TURN:
            return self._turn(by_kind, view)
        if decision in (HOAX_CALL, VOTE):
            claimant, character = view.claim_in_question(views)
            chance = view.belief[claimant, character]
            if decision == HOAX_CALL:
                return by_kind[CALL if chance < CALL_BELOW else NO_CALL][0]
            return self.actions.id_of(CAST_VOTE, -1 if chance < VOTE_DOWN_BELOW else 1)
        if decision == IMMUNITY:
            own = self.actions.id_of(IMMUNE, view.character)
            return own if own in legal else by_kind[NO_IMMUNITY][0]
        raise ValueError(f"unknown decision {decision}")

    def _best(self, actions: list[int], score) -> int:
        scores = [score(a) for a in actions]
        best = max(scores)
        ties = [a for a, s in zip(actions, scores) if s >= best - 1e-9]
        return int(ties[0] if len(ties) == 1 else self.rng.choice(ties))

    def _turn(self, by_kind: dict[int, list[int]], view: _View) -> int:
        """Accuse if sure enough, else claim, else investigate while it pays, else end the turn."""
        accusation = self._accusation(by_kind.get(ACCUSE, []), view)
        if accusation is not None:
            return accusation
        if CLAIM in by_kind:
            return self._claim(by_kind[CLAIM], view)
        unsure = [a for a in by_kind.get(INVESTIGATE, []) if view.knowledge[self.actions.args[a]].max() < CERTAIN]
        if unsure:
            return self._best(unsure, lambda a: self._investigation_value(view.knowledge[self.actions.args[a]]))
        return by_kind[END_TURN][0]

    def _accusation(self, accusations: list[int], view: _View) -> int | None:
        """The likeliest (seat, character) if it clears a bar that falls as the game drags on.

        A wrong accusation puts this player out, so early on it wants near
        proof; the bar eases with the turn number so that a table that never
        finds proof still ends its game.
        """
        if not accusations:
            return None
        bar = max(ACCUSE_FLOOR, ACCUSE_FROM - ACCUSE_EASING * view.turn)
        best = max(accusations, key=lambda a: view.belief[self.actions.args[a]])
        if view.belief[self.actions.args[best]] >= min(bar, CERTAIN):
            return best
        return None

    def _claim(self, claims: list[int], view: _View) -> int:
        """Its own character's best option, or, at the truth rate's odds, the best option of any other.

        A lie opens every privilege (so the table does not stall for want of
        a resource type), and lies often enough keep claims from giving the
        character away to an accuser.
        """
        args = self.actions.args
        value = {a: self._claim_value(args[a], view) for a in claims}
        own = [a for a in claims if args[a][0] == view.character]
        others = [a for a in claims if args[a][0] != view.character]
        if not own or not others:
            return self._best(own or others, value.get)
        truth = view.truth_rate
        if truth < 1 and max(value[a] for a in own) < max(value[a] for a in others) - STALL_MARGIN:
            truth *= USELESS_TRUTH  # its own privilege gets it (almost) nothing: a table of such claims stalls
        return self._best(own if self.rng.random() < truth else others, value.get)

    @staticmethod
    def _investigation_value(probs: np.ndarray) -> float:
        """Prefer the seat nearest proof (its likeliest character), then the least known: an accusation needs proof."""
        return float(probs.max()) + 0.01 * _entropy(probs)

    def _claim_value(self, args: tuple, view: _View) -> float:
        """Own holdings minus a share of the opponents' after the option resolves (immunities ignored)."""
        character, option, named_type, offset = args
        held = view.resources.copy()
        supply = view.supply.copy()
        for effect in self.sheet.characters[character].options[option].effects:
            r = named_type if effect.resource == NAMED else effect.resource
            if effect.kind in (TAKE, GIVE):
                taker = 0 if effect.kind == TAKE else offset
                if supply[r] > 0:
                    supply[r] -= 1
                    held[taker, r] += 1
                continue
            for seat in view.reached_by(effect, offset):
                if effect.kind == SWAP:
                    held[0, r], held[seat, r] = held[seat, r], held[0, r]
                elif held[seat, r] > 0:
                    held[seat, r] -= 1
                    held[0, r] += 1
        others = sum(_holding_value(held[s]) for s in range(1, self.num_players) if view.live[s])
        return _holding_value(held[0]) - OTHERS_WEIGHT * others


class AccuseTheLastClaimant:
    """The counter-strategy to honest claims: accuse the last claimant as the character it claimed.

    It notes new claims from the `claims` record between calls (it keeps
    that much memory); when it may accuse, it accuses the last claimant
    still in; otherwise it plays like the scripted player.
    """

    def __init__(self, config: HoaxConfig, seed: int | None = None):
        self.bot = HoaxScriptedPlayer(config, seed)
        self.layout = hoax_layout(config)
        self.actions = hoax_actions(config)
        self.seen = None
        self.last = None

    def __call__(self, obs: dict) -> int:
        views = self.layout.views(np.asarray(obs["observation"], dtype=np.float32))
        claims = views["claims"][:, :, :2].sum(axis=2)
        if self.seen is None or claims.sum() < self.seen.sum():  # a new game
            self.seen, self.last = np.zeros_like(claims), None
        for seat, character in np.argwhere(claims > self.seen):
            if seat != 0:
                self.last = (int(seat), int(character))
        self.seen = claims.copy()
        if self.last is not None and views["eliminated"][self.last[0]] < 0.5:
            accuse = self.actions.id_of(ACCUSE, self.last)
            if obs["action_mask"][accuse]:
                self.last = None
                return accuse
        return self.bot(obs)
