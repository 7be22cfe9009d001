"""Hoax, batched: the rules of `rules.py` and the knowledge of `observation.py` as pure JAX functions.

One game's state is a `HoaxState` of fixed-shape arrays; `jax.vmap` plays
thousands. It is the reference's twin, checked against it move for move
(`tests/games/hoax/test_batched.py`): the same deal, suspicion decks and
actions give the same observation, mask, rewards and end, with any
character sheet.

Under `vmap` every branch of the rules runs for every game, so a step is a
fixed chain of stages, each a few `jnp.where`s guarded by a flag: the
action's own effect; asking the next player whether it calls Hoax (or
whether nobody is left to ask); the next vote, or the count once all are
cast; the check of a claim a vote sent to it; the claim standing; the
privilege resolving; the end of the turn. How the reference's moving parts
became arrays:

- the queues of players still to pick, to be asked about Hoax and to vote
  are not kept: the next one is the first seat still in past the one who
  just acted, in turn order from the opener (the claimant, or the first
  player), less the holder of the Hoax card when calling;
- the sheet is a table per privilege option (every character's options
  numbered in sheet order): each effect's kind, resource and whom it
  reaches, padded to the longest option. A privilege resolves effect by
  effect, each over every seat it reaches at once (the seats an effect
  reaches are never changed by the others' giving); where a seat is asked
  for an immunity, the cursor (the effect, and that seat's place from the
  claimant) says where to go on, and `answered` keeps each seat's answer
  for the rest of the privilege;
- the suspicion decks fixed by a setup are rows of `decks`, used in turn;
  past them an investigation shuffles one from the step's key (so games
  dealt with decks and without are states of different shapes, as with any
  array a setup fixes);
- knowledge: the posterior of `knowledge.py` is uniform over the deals
  still consistent, so it is fully given by what each observer has ruled
  out, `allowed[observer, seat, character]`; the marginals are counted
  without listing the deals (up to 5,040): the injective maps of the
  observer's other seats into its 6 other characters, by inclusion-
  exclusion over the 64 sets of those characters (two small products with
  constant matrices), the same integers the reference counts, divided the
  same way in float32;
- the suspicion cards shown, once per investigator, target and character
  (`seen`), are both the investigator's `cards_seen` and the target's
  `cards_shown`; the characters named in accusations (`named`) both sides of
  `accused_as`;
- the event history (`history_length`): `init` and the stages of `step`
  tell a `StepEvents` every event the reference's rules would emit, in
  their order, each with whether it happened in this game: the deal
  (`_tell_deal`), the action's own events (`_tell_act`), then the count of
  the votes, the check of a claim, a claim standing, each effect of the
  privilege seat by seat (`_tell_reached`) and the end of the turn, where
  they happen.
"""

from __future__ import annotations

from math import comb

import jax
import jax.numpy as jnp
import numpy as np

from hidden_role_envs.core.batched import BatchedGame, one_hot, pytree, shuffle
from hidden_role_envs.core.batched_events import StepEvents
from hidden_role_envs.core.seats import NOBODY
from hidden_role_envs.games.hoax.actions import (
    ACCUSE,
    CALL,
    CAST_VOTE,
    CLAIM,
    DECISIONS,
    END_TURN,
    HOAX_CALL,
    IMMUNE,
    IMMUNITY,
    INVESTIGATE,
    NO_CALL,
    NO_IMMUNITY,
    PICK,
    PICK_RESOURCE,
    TURN,
    VOTE,
    HoaxActions,
)
from hidden_role_envs.games.hoax.cards import (
    NUM_CHARACTERS,
    NUM_RESOURCES,
    SUPPLY_PER_TYPE,
    SUSPICION_CARDS_SHOWN,
)
from hidden_role_envs.games.hoax.config import DEFAULT_MAX_TURNS, HoaxConfig
from hidden_role_envs.games.hoax.events import (
    Accused,
    AccusedAs,
    ClaimChecked,
    Claimed,
    ClaimStands,
    Dealt,
    Eliminated,
    FirstPlayer,
    GameOver,
    HoaxCalled,
    Immune,
    ImmunityClaimed,
    Impostor,
    Investigated,
    Moved,
    NoHoax,
    NoImmunity,
    NothingToTake,
    PrivilegeDone,
    Shown,
    Swapped,
    TurnEnded,
    TurnStarted,
    VoteCast,
    Voted,
    VotesRevealed,
)
from hidden_role_envs.games.hoax.observation import CAP, hoax_layout
from hidden_role_envs.games.hoax.privileges import (
    EACH_NEIGHBOUR,
    EACH_OTHER,
    GIVE,
    NAMED,
    SWAP,
    TAKE,
    TAKE_FROM,
)
from hidden_role_envs.games.hoax.rules import GAME_OVER, HoaxGame

M, R = NUM_CHARACTERS, NUM_RESOURCES
I32 = jnp.int32
I8 = jnp.int8  # the state's small counts, tokens and cards: a small state copies fast
# The public record's counts (at most 100, `CAP`), kept as the floats the observation shows: converting int8 ones
# for each observation cost 3-8% of the batched step.
RECORD = jnp.float32
# The effect kinds and whom they reach, as numbers in the sheet's tables
NO_EFFECT, FROM_SUPPLY, TO_NAMED, FROM_PLAYERS, SWAPS = range(5)
EFFECT_CODES = {TAKE: FROM_SUPPLY, GIVE: TO_NAMED, TAKE_FROM: FROM_PLAYERS, SWAP: SWAPS}
WHOM_OTHERS, WHOM_NEIGHBOURS, WHOM_NAMED = range(3)
# A seat's answer to the privilege in progress
UNASKED, IMMUNE_ANSWER, NOT_IMMUNE = range(3)


@pytree
class HoaxState:
    characters: jax.Array  # (n,)
    resources: jax.Array  # (n, 3)
    supply: jax.Array  # (3,)
    impostor: jax.Array  # (n, 7) bool
    eliminated: jax.Array  # (n,) bool
    holder: jax.Array  # of the Hoax card, NOBODY: the centre
    active: jax.Array
    decision: jax.Array
    to_act: jax.Array
    claimed: jax.Array  # this turn's claim made
    accused: jax.Array  # this turn's accusation made
    claimant: jax.Array  # the privilege claim being resolved (NOBODY: none), and its choices
    claim_character: jax.Array
    claim_option: jax.Array
    claim_type: jax.Array
    claim_player: jax.Array
    immunity_claimant: jax.Array  # the immunity claim in answer to it (NOBODY: none)
    immunity_character: jax.Array
    cursor_effect: jax.Array  # where the privilege goes on: the effect, and the offset from the claimant
    cursor_offset: jax.Array
    answered: jax.Array  # (n,) UNASKED, IMMUNE_ANSWER or NOT_IMMUNE, for the privilege in progress
    ballots: jax.Array  # (n,) the vote in progress, secret: +1 up, -1 down, 0 none
    votes: jax.Array  # (n,) the last vote revealed, until the next call
    turn: jax.Array
    over: jax.Array
    winner: jax.Array
    decks: jax.Array  # (K, 7) the suspicion decks of the setup, top first, used in turn
    investigations_made: jax.Array
    allowed: jax.Array  # (n, n, 7) bool: observer, seat, character not ruled out
    # the record
    claims: jax.Array  # (n, 7, 3) privilege claims, immunity claims, shown false
    hoax_calls: jax.Array  # (n, n) caller, claimant
    ballots_by_claimant: jax.Array  # (n, n, 2) voter, claimant; up, down
    ballots_by_character: jax.Array  # (n, 7, 2)
    investigations: jax.Array  # (n, n) investigator, target
    accusations: jax.Array  # (n, n, 2) bool: accuser, target; right, wrong
    seen: jax.Array  # (n, n, 7) suspicion cards shown: investigator, target, character
    named: jax.Array  # (n, n, 7) bool: accuser, target, character named


class HoaxBatched(BatchedGame):
    def __init__(self, config: HoaxConfig, reward_mode: str = "win"):
        n = config.num_players
        actions = HoaxActions.of(n, config.sheet)
        super().__init__(config, reward_mode, hoax_layout(config), actions)
        self._actions(actions, config)
        self._sheet(config)
        self._counting_tables(n)
        self._seats = jnp.arange(n, dtype=I32)
        self._supply = n  # the supply, as an event's `Holder` names it: the column past the seats

    # --- tables built once ------------------------------------------------------------

    def _actions(self, actions: HoaxActions, config: HoaxConfig) -> None:
        """Per action id: its kind, the character, option and resource it names, the seat offset, the vote."""
        columns = {name: [] for name in ("character", "option", "resource", "offset", "vote")}
        for kind, args in actions.meaning:
            row = {"character": NOBODY, "option": 0, "resource": NOBODY, "offset": 0, "vote": 0}
            if kind == PICK_RESOURCE:
                row["resource"] = args
            elif kind == CLAIM:
                c, o, resource, offset = args
                row.update(character=c, option=o, resource=NOBODY if resource is None else resource,
                           offset=offset or 0)
            elif kind == INVESTIGATE:
                row["offset"] = args
            elif kind == ACCUSE:
                row.update(offset=args[0], character=args[1])
            elif kind == CAST_VOTE:
                row["vote"] = args
            elif kind == IMMUNE:
                row["character"] = args
            for name, value in row.items():
                columns[name].append(value)
        self._kind = jnp.asarray(actions.kind, I32)
        self._a_character = jnp.asarray(columns["character"], I32)
        self._a_option = jnp.asarray(columns["option"], I32)
        self._a_resource = jnp.asarray(columns["resource"], I32)
        self._a_offset = jnp.asarray(columns["offset"], I32)
        self._a_vote = jnp.asarray(columns["vote"], I32)

    def _sheet(self, config: HoaxConfig) -> None:
        """The privilege options numbered in sheet order, each effect's kind, resource and whom, padded."""
        sheet = config.sheet
        options = [option for character in sheet.characters for option in character.options]
        self._first_option = jnp.asarray(np.cumsum([0] + [len(c.options) for c in sheet.characters])[:-1], I32)
        self.num_effects = max(len(option.effects) for option in options)
        kinds = np.full((len(options), self.num_effects), NO_EFFECT)
        resources = np.zeros((len(options), self.num_effects))
        whom = np.zeros((len(options), self.num_effects))
        whom_codes = {EACH_OTHER: WHOM_OTHERS, EACH_NEIGHBOUR: WHOM_NEIGHBOURS}
        # the most seats effect e of any option reaches (the event history tells each in a slot of its own)
        self._most_reached = [0] * self.num_effects
        reach = {EACH_OTHER: config.num_players - 1, EACH_NEIGHBOUR: min(2, config.num_players - 1)}  # named: 1
        for q, option in enumerate(options):
            for e, effect in enumerate(option.effects):
                kinds[q, e] = EFFECT_CODES[effect.kind]
                resources[q, e] = effect.resource  # NAMED: the type named with the claim
                whom[q, e] = whom_codes.get(effect.whom, WHOM_NAMED)
                if effect.targets_players:
                    self._most_reached[e] = max(self._most_reached[e], reach.get(effect.whom, 1))
        self._effect_kind = jnp.asarray(kinds, I32)
        self._effect_resource = jnp.asarray(resources, I32)
        self._effect_whom = jnp.asarray(whom, I32)
        self._immune = jnp.asarray(sheet.immune)  # [x, y]: x is immune to y's privilege

    def _counting_tables(self, n: int) -> None:
        """The sets T of the observer's 6 other characters, and the inclusion-exclusion weight of each.

        Over r seats and m characters, the maps whose images lie in T number prod_s |A_s & T| (A_s: what seat
        s may hold); those of image exactly r characters, the injective ones, are the sum over T of
        (-1)^(r-|T|) C(m-|T|, r-|T|) prod_s |A_s & T|. Every term is an integer below 2^24, so float32 counts
        exactly.
        """
        others, seats = M - 1, n - 1
        subsets = np.arange(1 << others)
        holds = (subsets[None, :] >> np.arange(others)[:, None]) & 1  # (6, 64): character c in set T
        size = holds.sum(axis=0)

        def weights(r: int, m: int) -> np.ndarray:
            return np.array([(-1) ** (r - t) * comb(m - t, r - t) if t <= r else 0 for t in size], np.float32)

        self._holds = jnp.asarray(holds, jnp.float32)
        self._injective = jnp.asarray(weights(seats, others))
        # the other seats but one, into the characters but one (c): over the sets T without c
        self._injective_without = jnp.asarray((1 - holds.T) * weights(seats - 1, others - 1)[:, None])

    # --- the deal -------------------------------------------------------------------

    def setup(self, setup: dict) -> dict:
        """Checked by the reference's own reading of a setup; the fixed parts as arrays."""
        game = HoaxGame(self.config, np.random.default_rng(0), setup)
        parts = {
            "characters": np.asarray(game.characters, np.int32),
            "first_player": np.asarray(game.first_player, np.int32),
            "suspicion_decks": np.asarray(list(game.suspicion_decks), np.int32).reshape(-1, M),
        }
        return {key: parts[key] for key, value in setup.items() if value is not None}

    def init(self, key: jax.Array, deal: dict, events: StepEvents | None = None) -> HoaxState:
        n = self.num_players
        bits = jax.random.bits(key, (M + 1,), jnp.uint32)
        characters = jnp.asarray(deal.get("characters", shuffle(bits[:M], jnp.arange(M, dtype=I8))[:n]), I8)
        first = jnp.asarray(deal.get("first_player", (bits[M] % n).astype(I32)), I32)
        decks = jnp.asarray(deal.get("suspicion_decks", jnp.zeros((0, M), I8)), I8)
        own = self._seats[:, None] == self._seats[None, :]  # (observer, seat)
        allowed = ~own[:, :, None] | (jnp.arange(M)[None, None, :] == characters[None, :, None])
        if events is not None:
            self._tell_deal(events, characters, first)
        nobody = I32(NOBODY)
        zeros = jnp.zeros
        return HoaxState(
            characters=characters, resources=zeros((n, R), I8), supply=jnp.full(R, SUPPLY_PER_TYPE, I8),
            impostor=zeros((n, M), bool), eliminated=zeros(n, bool), holder=nobody, active=first,
            decision=I32(PICK), to_act=first, claimed=jnp.bool_(False), accused=jnp.bool_(False),
            claimant=nobody, claim_character=nobody, claim_option=I32(0), claim_type=nobody, claim_player=nobody,
            immunity_claimant=nobody, immunity_character=nobody, cursor_effect=I32(0), cursor_offset=I32(0),
            answered=zeros(n, I8), ballots=zeros(n, I8), votes=zeros(n, I8), turn=I32(0),
            over=jnp.bool_(False), winner=nobody, decks=decks, investigations_made=I32(0), allowed=allowed,
            claims=zeros((n, M, 3), RECORD), hoax_calls=zeros((n, n), RECORD),
            ballots_by_claimant=zeros((n, n, 2), RECORD), ballots_by_character=zeros((n, M, 2), RECORD),
            investigations=zeros((n, n), RECORD), accusations=zeros((n, n, 2), bool), seen=zeros((n, n, M), RECORD),
            named=zeros((n, n, M), bool),
        )

    # --- the API of BatchedGame ---------------------------------------------------

    def legal_mask(self, g: HoaxState) -> jax.Array:
        n = self.num_players
        kind, offset = self._kind, self._a_offset
        actor = jnp.maximum(g.to_act, 0)
        named_in = (offset == 0) | ~g.eliminated[(actor + offset) % n]
        character = jnp.maximum(self._a_character, 0)
        can_pay = (g.resources[actor] > 0).all()
        turn = (
            ((kind == CLAIM) & ~g.claimed & ~g.impostor[actor, character] & named_in)
            | ((kind == INVESTIGATE) & can_pay & named_in)
            | ((kind == ACCUSE) & ~g.accused & named_in)
            | ((kind == END_TURN) & g.claimed)
        )
        immune = self._immune[character, jnp.maximum(g.claim_character, 0)] & ~g.impostor[actor, character]
        immunity = ((kind == IMMUNE) & immune) | (kind == NO_IMMUNITY)
        mask = jnp.select(
            [g.decision == PICK, g.decision == TURN, g.decision == HOAX_CALL, g.decision == VOTE,
             g.decision == IMMUNITY],
            [kind == PICK_RESOURCE, turn, (kind == CALL) | (kind == NO_CALL), kind == CAST_VOTE, immunity],
            False,
        )
        return mask & ~g.over

    def step(self, g: HoaxState, action: jax.Array, key: jax.Array,
             events: StepEvents | None = None) -> tuple[HoaxState, jax.Array]:
        before = g
        g, flow = self._act(g, action, key, events)
        g, flow = self._ask_about_hoax(g, flow)
        g, flow = self._next_vote(g, flow, events)
        g, flow = self._check(g, flow, events)
        g, flow = self._stands(g, flow, events)
        g = self._resolve(g, flow["resolve"], events)
        g = self._end_turn(g, flow["end_turn"], events)
        g = self._win(g, flow["winner"])
        g = jax.tree_util.tree_map(lambda new, old: new.astype(old.dtype), g, before)  # the stages compute wider
        return g, self._rewards(g, before.eliminated)

    # --- seats in turn order ------------------------------------------------------------

    def _offsets(self, origin) -> jax.Array:
        """Each seat's place in turn order from `origin`'s left: 1 its left neighbour, 0 itself."""
        return (self._seats - origin) % self.num_players

    def _first_after(self, candidates, origin, after) -> jax.Array:
        """The first of `candidates` in turn order from `origin`'s left past offset `after`, or NOBODY."""
        n = self.num_players
        offsets = jnp.where(candidates & (self._offsets(origin) > after), self._offsets(origin), n).min()
        return jnp.where(offsets < n, (origin + offsets) % n, NOBODY).astype(I32)

    def _in_question(self, g: HoaxState) -> tuple[jax.Array, jax.Array]:
        """The claim called or voted on: the immunity claim if one is pending, else the privilege claim."""
        immunity = g.immunity_claimant != NOBODY
        return (jnp.where(immunity, g.immunity_claimant, g.claimant),
                jnp.where(immunity, g.immunity_character, g.claim_character))

    # --- the stages of a step --------------------------------------------------------------

    def _act(self, g: HoaxState, action, key, events: StepEvents | None = None) -> tuple[HoaxState, dict]:
        """What the action itself does; `flow` says which stages follow."""
        n = self.num_players
        seats = self._seats
        kind = self._kind[action]
        character, option, resource = self._a_character[action], self._a_option[action], self._a_resource[action]
        actor = g.to_act
        target = (actor + self._a_offset[action]) % n
        at_actor = seats == actor
        at_target = seats == target
        types = jnp.arange(R)
        characters = jnp.arange(M)

        # the opening pick
        picks = kind == PICK_RESOURCE
        picked = picks & (types == resource) & (g.supply > 0)
        next_picker = (actor + 1) % n
        picking_done = next_picker == g.active

        # the claim, and an immunity claim
        claims = kind == CLAIM
        immune = kind == IMMUNE
        claim_count = (claims & (jnp.arange(3) == 0)) | (immune & (jnp.arange(3) == 1))
        claim_record = at_actor[:, None, None] & (characters == character)[None, :, None] & claim_count

        # an investigation
        investigates = kind == INVESTIGATE
        cards = self._suspicion_cards(g, g.characters[target], key)
        pay = investigates.astype(I32)  # one of each type
        shown_to = investigates & at_actor[:, None, None] & at_target[None, :, None] & cards[None, None, :]

        # an accusation
        accuses = kind == ACCUSE
        right = g.characters[target] == character
        pair = accuses & at_actor[:, None] & at_target[None, :]
        said = characters == character
        accused_as = pair[:, :, None] & said[None, None, :]
        knows = jnp.where(right, said, ~said)
        rightly, wrongly = accuses & right, accuses & ~right
        out = (rightly & at_target) | (wrongly & at_actor)
        eliminated = g.eliminated | out
        in_play = ~eliminated
        resources = g.resources + picked[None, :] * at_actor[:, None] - pay * at_actor[:, None]
        resources = resources + rightly * at_actor[:, None] * g.resources[target][None, :]
        resources = jnp.where(out[:, None], 0, resources)
        supply = g.supply - picked + pay + wrongly * g.resources[actor]
        accuser_left = rightly & ~(in_play & ~at_actor).any()
        last_left = wrongly & (in_play.sum() == 1)

        # a Hoax call and a vote
        calls = kind == CALL
        questioned, _ = self._in_question(g)
        first_voter = self._first_after(in_play & (seats != questioned), questioned, 0)
        votes = kind == CAST_VOTE
        winner = jnp.select([accuser_left, last_left], [actor, jnp.argmax(in_play).astype(I32)], NOBODY)
        if events is not None:
            self._tell_act(events, g, action, cards, winner)

        g = g.replace(
            resources=resources, supply=supply,
            impostor=g.impostor & ~(wrongly & at_actor)[:, None],
            eliminated=eliminated,
            holder=jnp.where(calls, actor, jnp.where((g.holder >= 0) & out[jnp.maximum(g.holder, 0)], NOBODY,
                                                     g.holder)),
            claimed=g.claimed | claims, accused=g.accused | accuses,
            claimant=jnp.where(claims, actor, g.claimant),
            claim_character=jnp.where(claims, character, g.claim_character),
            claim_option=jnp.where(claims, option, g.claim_option),
            claim_type=jnp.where(claims, resource, g.claim_type),
            claim_player=jnp.where(claims, jnp.where(self._a_offset[action] > 0, target, NOBODY), g.claim_player),
            immunity_claimant=jnp.where(immune, actor, g.immunity_claimant),
            immunity_character=jnp.where(immune, character, g.immunity_character),
            cursor_effect=jnp.where(claims, 0, g.cursor_effect), cursor_offset=jnp.where(claims, 0, g.cursor_offset),
            answered=jnp.where(claims, UNASKED, jnp.where((kind == NO_IMMUNITY) & at_actor, NOT_IMMUNE, g.answered)),
            ballots=jnp.where(calls, 0, jnp.where(votes & at_actor, self._a_vote[action], g.ballots)),
            votes=jnp.where(calls, 0, g.votes),
            investigations_made=g.investigations_made + investigates,
            allowed=g.allowed & ~(shown_to.any(axis=2)[:, :, None] & ~cards[None, None, :])
            & ~(pair[:, :, None] & ~knows[None, None, :]),
            claims=jnp.minimum(g.claims + claim_record, CAP),
            hoax_calls=jnp.minimum(g.hoax_calls + (calls & at_actor[:, None] & (seats == questioned)[None, :]), CAP),
            investigations=jnp.minimum(g.investigations + (investigates & at_actor[:, None] & at_target[None, :]), CAP),
            accusations=g.accusations | (pair[:, :, None] & (jnp.arange(2) == jnp.where(right, 0, 1))),
            seen=jnp.minimum(g.seen + shown_to, CAP),
            named=g.named | accused_as,
        )
        # who is asked next, where the action settles it
        asks_turn = investigates | (rightly & ~accuser_left)
        decision = jnp.select([picks & ~picking_done, picks | asks_turn, calls],
                              [I32(PICK), I32(TURN), I32(VOTE)], g.decision)
        to_act = jnp.select([picks & ~picking_done, picks, asks_turn, calls],
                            [next_picker, g.active, actor, first_voter], g.to_act)
        g = g.replace(decision=decision, to_act=to_act)
        flow = {
            "open_calls": claims | immune,
            "next_call": kind == NO_CALL,
            "next_vote": votes,
            "resolve": kind == NO_IMMUNITY,
            "end_turn": (kind == END_TURN) | (wrongly & ~last_left),
            "winner": winner,
        }
        return g, flow

    def _suspicion_cards(self, g: HoaxState, own, key) -> jax.Array:
        """(7,) bool: the target's own card and the first three others of this investigation's deck."""
        deck = shuffle(jax.random.bits(key, (M,), jnp.uint32), jnp.arange(M, dtype=I32))
        given = g.decks.shape[0]
        if given:
            fixed = g.decks[jnp.minimum(g.investigations_made, given - 1)]
            deck = jnp.where(g.investigations_made < given, fixed, deck)
        others = deck != own
        rank = jnp.cumsum(others) - 1  # each other card's place among the others
        drawn = others & (rank < SUSPICION_CARDS_SHOWN - 1)
        return (jnp.zeros(M, bool).at[deck].set(drawn)) | (jnp.arange(M) == own)

    def _ask_about_hoax(self, g: HoaxState, flow: dict) -> tuple[HoaxState, dict]:
        """After a claim, or a player letting it pass: the next player to ask, or the claim stands."""
        asking = flow["open_calls"] | flow["next_call"]
        claimant, _ = self._in_question(g)
        callers = ~g.eliminated & (self._seats != claimant) & (self._seats != g.holder)
        after = jnp.where(flow["open_calls"], 0, self._offsets(claimant)[jnp.maximum(g.to_act, 0)])
        caller = self._first_after(callers, claimant, after)
        asks = asking & (caller != NOBODY)
        g = g.replace(decision=jnp.where(asks, HOAX_CALL, g.decision), to_act=jnp.where(asks, caller, g.to_act))
        return g, {**flow, "stands": asking & (caller == NOBODY)}

    def _next_vote(self, g: HoaxState, flow: dict, events: StepEvents | None = None) -> tuple[HoaxState, dict]:
        """After a ballot: the next voter, or the ballots revealed and counted."""
        voting = flow["next_vote"]
        claimant, character = self._in_question(g)
        voters = ~g.eliminated & (self._seats != claimant)
        voter = self._first_after(voters, claimant, self._offsets(claimant)[jnp.maximum(g.to_act, 0)])
        asks = voting & (voter != NOBODY)
        counts = voting & (voter == NOBODY)
        ballots = jnp.stack([g.ballots > 0, g.ballots < 0], axis=1) & counts  # (seat, up / down)
        by_claimant = ballots[:, None, :] & (self._seats == claimant)[None, :, None]
        by_character = ballots[:, None, :] & (jnp.arange(M) == character)[None, :, None]
        if events is not None:
            events.add(VotesRevealed, counts, votes=g.ballots, claimant=claimant, character=character)
        g = g.replace(
            decision=jnp.where(asks, VOTE, g.decision), to_act=jnp.where(asks, voter, g.to_act),
            votes=jnp.where(counts, g.ballots, g.votes),
            ballots_by_claimant=jnp.minimum(g.ballots_by_claimant + by_claimant, CAP),
            ballots_by_character=jnp.minimum(g.ballots_by_character + by_character, CAP),
        )
        checked = counts & ((g.ballots < 0).sum() > (g.ballots > 0).sum())
        return g, {**flow, "check": checked, "stands": flow["stands"] | (counts & ~checked)}

    def _check(self, g: HoaxState, flow: dict, events: StepEvents | None = None) -> tuple[HoaxState, dict]:
        """A thumbs-down majority: a true claim wins; a false one earns an impostor token and does nothing."""
        checking = flow["check"]
        claimant, character = self._in_question(g)
        truthful = g.characters[jnp.maximum(claimant, 0)] == character
        caught = checking & ~truthful
        wins = checking & truthful
        cell = (self._seats == claimant)[:, None] & (jnp.arange(M) == character)[None, :]
        immunity = g.immunity_claimant != NOBODY
        seen = jnp.where(truthful, jnp.arange(M) == character, jnp.arange(M) != character)
        ends_claim = caught & ~immunity
        if events is not None:  # a true claim wins at once; a false one earns the impostor token
            events.add(ClaimChecked, checking, seat=claimant, character=character, truthful=truthful)
            events.add(GameOver, wins, winner=claimant, character=character)
            events.add(Impostor, caught, seat=claimant, character=character)
        g = g.replace(
            impostor=g.impostor | (caught & cell),
            claims=jnp.minimum(g.claims + (caught & cell)[:, :, None] * (jnp.arange(3) == 2), CAP),
            allowed=g.allowed & ~(checking & (self._seats == claimant)[None, :, None] & ~seen[None, None, :]),
            answered=jnp.where(caught & immunity & (self._seats == claimant), NOT_IMMUNE, g.answered),
            immunity_claimant=jnp.where(caught, NOBODY, g.immunity_claimant),
            claimant=jnp.where(ends_claim, NOBODY, g.claimant),
            decision=jnp.where(ends_claim, TURN, g.decision), to_act=jnp.where(ends_claim, g.active, g.to_act),
        )
        return g, {**flow, "resolve": flow["resolve"] | (caught & immunity),
                   "winner": jnp.where(wins, claimant, flow["winner"])}

    def _stands(self, g: HoaxState, flow: dict, events: StepEvents | None = None) -> tuple[HoaxState, dict]:
        """A claim nobody called, or a vote let stand: an immunity covers its claimant; the privilege goes on."""
        standing = flow["stands"]
        if events is not None:
            claimant, character = self._in_question(g)
            events.add(ClaimStands, standing, seat=claimant, character=character)
        immunity = standing & (g.immunity_claimant != NOBODY)
        g = g.replace(
            answered=jnp.where(immunity & (self._seats == g.immunity_claimant), IMMUNE_ANSWER, g.answered),
            immunity_claimant=jnp.where(immunity, NOBODY, g.immunity_claimant),
        )
        return g, {**flow, "resolve": flow["resolve"] | standing}

    def _resolve(self, g: HoaxState, resolving, events: StepEvents | None = None) -> HoaxState:
        """Carry out the privilege from its cursor, effect by effect; stop where a seat is asked for an immunity."""
        n = self.num_players
        seats = self._seats
        claimant = jnp.maximum(g.claimant, 0)
        claimed = jnp.maximum(g.claim_character, 0)
        q = self._first_option[claimed] + g.claim_option
        offsets = self._offsets(claimant)
        others = ~g.eliminated & (seats != claimant)
        neighbours = jnp.where(others, offsets, n)
        left = (claimant + neighbours.min()) % n
        right = (claimant + jnp.where(others, offsets, 0).max()) % n
        reached_by = jnp.stack([others, (seats == left) | (seats == right), seats == g.claim_player])
        can_answer = (self._immune[:, claimed][None, :] & ~g.impostor).any(axis=1)
        resources, supply = g.resources, g.supply
        stopped = ~resolving
        asked, cursor_effect, cursor_offset = I32(NOBODY), g.cursor_effect, g.cursor_offset
        for e in range(self.num_effects):
            live = ~stopped & (e >= g.cursor_effect)
            kind = self._effect_kind[q, e]
            resource = self._effect_resource[q, e]
            resource = jnp.where(resource == NAMED, g.claim_type, resource)
            column = jnp.arange(R) == resource
            held = (resources * column).sum(axis=1)  # (n,) each seat's tokens of the resource
            # from the supply, to the claimant or the named player
            receiver = jnp.where(kind == FROM_SUPPLY, claimant, g.claim_player)
            from_supply = live & ((kind == FROM_SUPPLY) | (kind == TO_NAMED))
            in_supply = (supply * column).sum() > 0
            given = from_supply & in_supply
            # from the players it reaches, in turn order
            on_players = live & ((kind == FROM_PLAYERS) | (kind == SWAPS))
            start = jnp.where(e == g.cursor_effect, g.cursor_offset, 0)
            reached = on_players & reached_by[self._effect_whom[q, e]] & (offsets >= start)
            mine = held[claimant]
            changes = jnp.where(kind == SWAPS, held != mine, held > 0)
            asks = reached & (g.answered == UNASKED) & changes & can_answer
            first = jnp.where(asks, offsets, n).min()
            passed = reached & (offsets < first)  # the seats it is done with, before the one asked
            reaches = passed & (g.answered != IMMUNE_ANSWER)
            if events is not None:
                self._tell_move(events, from_supply, self._supply, receiver, resource, in_supply)
                self._tell_reached(events, e, g, kind, resource, passed, held)
            gives = reaches & (kind == FROM_PLAYERS) & (held > 0)
            swaps = reaches & (kind == SWAPS)
            swapped = swaps.any()
            new = jnp.where(gives, held - 1, jnp.where(swaps, mine, held))
            mine_after = jnp.where(swapped, (held * swaps).sum(), mine) + gives.sum()
            new = jnp.where(seats == claimant, mine_after, new) + (given & (seats == receiver))
            resources = jnp.where(column[None, :], new[:, None], resources)
            supply = supply - (given & column)
            stops = on_players & (first < n)
            asked = jnp.where(stops, (claimant + first) % n, asked)
            cursor_effect = jnp.where(stops, e, cursor_effect)
            cursor_offset = jnp.where(stops, first, cursor_offset)
            stopped = stopped | stops
        done = resolving & ~stopped
        asking = resolving & stopped
        if events is not None:
            events.add(PrivilegeDone, done, seat=claimant)
        return g.replace(
            resources=resources, supply=supply, cursor_effect=cursor_effect, cursor_offset=cursor_offset,
            claimant=jnp.where(done, NOBODY, g.claimant),
            decision=jnp.where(asking, IMMUNITY, jnp.where(done, TURN, g.decision)),
            to_act=jnp.where(asking, asked, jnp.where(done, g.active, g.to_act)),
        )

    def _end_turn(self, g: HoaxState, ending, events: StepEvents | None = None) -> HoaxState:
        active = jnp.where(ending, self._first_after(~g.eliminated, g.active, 0), g.active)
        if events is not None:
            events.add(TurnEnded, ending, seat=g.active)
            events.add(TurnStarted, ending, seat=active)
        return g.replace(
            turn=g.turn + ending, active=active, claimed=g.claimed & ~ending, accused=g.accused & ~ending,
            decision=jnp.where(ending, TURN, g.decision), to_act=jnp.where(ending, active, g.to_act),
        )

    def _win(self, g: HoaxState, winner) -> HoaxState:
        wins = winner != NOBODY
        return g.replace(
            over=g.over | wins, winner=jnp.where(wins, winner, g.winner),
            decision=jnp.where(wins, GAME_OVER, g.decision), to_act=jnp.where(wins, NOBODY, g.to_act),
            claimant=jnp.where(wins, NOBODY, g.claimant),
            immunity_claimant=jnp.where(wins, NOBODY, g.immunity_claimant),
        )

    # --- what the seats see (the event history) ------------------------------------

    def _tell_deal(self, events: StepEvents, characters, first) -> None:
        """Each seat its own character, then the first player to everyone (the reference's `start`)."""
        for seat in range(self.num_players):
            events.add(Dealt, True, self._seats == seat, seat=seat, character=characters[seat])
        events.add(FirstPlayer, True, seat=first)

    def _tell_act(self, events: StepEvents, g: HoaxState, action, cards, winner) -> None:
        """The events of the action's own rule, in the reference's order (`g` before it): an action plays one rule,
        so each kind's events are told where it is the one played; what follows (the votes counted, the claim
        standing, the privilege, the end of the turn) the later stages tell."""
        n = self.num_players
        seats = self._seats
        kind = self._kind[action]
        character, resource, offset = self._a_character[action], self._a_resource[action], self._a_offset[action]
        actor = g.to_act
        target = (actor + offset) % n
        pair = (seats == actor) | (seats == target)  # who sees the cards of an investigation or an accusation
        # the opening pick: a token from the supply; after the last pick the first player's turn starts
        picks = kind == PICK_RESOURCE
        self._tell_move(events, picks, self._supply, actor, resource, g.supply[jnp.maximum(resource, 0)] > 0)
        events.add(TurnStarted, picks & ((actor + 1) % n == g.active), seat=g.active)
        events.add(Claimed, kind == CLAIM, claimant=actor, character=character, option=self._a_option[action],
                   resource=resource, player=jnp.where(offset > 0, target, NOBODY))
        # an investigation: one token of each type paid, then the suspicion cards the target passes
        investigates = kind == INVESTIGATE
        for r in range(R):
            events.add(Moved, investigates, giver=actor, taker=self._supply, resource=r, count=1)
        events.add(Investigated, investigates, investigator=actor, target=target)
        events.add(Shown, investigates, pair, investigator=actor, target=target, cards=cards)
        # an accusation: the seat out gives all it holds, to a right accuser or back to the supply
        accuses = kind == ACCUSE
        right = g.characters[target] == character
        out = jnp.where(right, target, actor)
        events.add(AccusedAs, accuses, pair, accuser=actor, target=target, character=character, right=right)
        events.add(Accused, accuses, accuser=actor, target=target, right=right)
        held = g.resources[out]
        for r in range(R):
            events.add(Moved, accuses & (held[r] > 0), giver=out, taker=jnp.where(right, actor, self._supply),
                       resource=r, count=held[r])
        events.add(Eliminated, accuses, seat=out)
        events.add(GameOver, winner != NOBODY, winner=winner, character=NOBODY)  # the last player left
        # the answers to a claim
        events.add(HoaxCalled, kind == CALL, seat=actor, claimant=self._in_question(g)[0])
        events.add(NoHoax, kind == NO_CALL, seat=actor)
        votes = kind == CAST_VOTE
        events.add(Voted, votes, seats == actor, seat=actor, vote=self._a_vote[action])  # the ballot is secret
        events.add(VoteCast, votes, seats != actor, seat=actor)
        events.add(ImmunityClaimed, kind == IMMUNE, claimant=actor, character=character)
        events.add(NoImmunity, kind == NO_IMMUNITY, seat=actor)

    def _tell_move(self, events: StepEvents, when, giver, taker, resource, moved) -> None:
        """One token of `resource` moved, or (not `moved`: the giver had none) nothing to take: the reference's
        `_move` of one token."""
        events.add(Moved, when & moved, giver=giver, taker=taker, resource=resource, count=1)
        events.add(NothingToTake, when & ~moved, giver=giver, taker=taker, resource=resource)

    def _tell_reached(self, events: StepEvents, e: int, g: HoaxState, kind, resource, passed, held) -> None:
        """What effect `e`, on players, did to each seat it is done with (`passed`), in turn order from the
        claimant's left, as the reference reaches them one by one: an immune seat is told immune; the others give
        one token or have none to give, or swap (a swap is only ever with the named player). The j-th seat passed
        is told in slot j: as many slots as the effect reaches seats at most (all the others, two neighbours or
        the named player)."""
        n = self.num_players
        claimant, named = jnp.maximum(g.claimant, 0), jnp.maximum(g.claim_player, 0)
        order = (claimant + jnp.arange(1, n)) % n
        count = jnp.cumsum(passed[order])  # the seats passed up to each place in turn order
        for j in range(self._most_reached[e]):
            seat = order[jnp.argmax(count == j + 1)]
            immune = (count[-1] > j) & (g.answered[seat] == IMMUNE_ANSWER)
            takes = (count[-1] > j) & ~immune & (kind == FROM_PLAYERS)
            events.add(Immune, immune, seat=seat)
            self._tell_move(events, takes, seat, claimant, resource, held[seat] > 0)
        swaps = (kind == SWAPS) & passed[named] & (g.answered[named] != IMMUNE_ANSWER)
        events.add(Swapped, swaps, claimant=claimant, other=named, resource=resource)

    def _rewards(self, g: HoaxState, was_out) -> jax.Array:
        """-1 to a seat as it goes out; at the end +1 to the winner, -1 to every other seat still in."""
        newly_out = g.eliminated & ~was_out
        final = jnp.where(self._seats == g.winner, 1.0, -1.0)
        return jnp.where(newly_out, -1.0, jnp.where(g.over & ~g.eliminated, final, 0.0))

    # --- knowledge ----------------------------------------------------------------------

    def _marginals(self, allowed: jax.Array, seat, own) -> jax.Array:
        """(seats, characters): the share of the deals `seat` still holds possible that give each seat each
        character, `allowed` being what it has not ruled out.

        The seat knows its own card, so the deals are the injective maps of its other seats into the 6 other
        characters, counted by inclusion-exclusion (`_counting_tables`); seat s holds c in A_s(c) times the
        maps of the others into the characters but c. These are the reference's counts, divided the same way.
        """
        n = self.num_players
        others = (seat + 1 + jnp.arange(n - 1)) % n  # in turn order from the seat's left
        characters = jnp.arange(M - 1) + (jnp.arange(M - 1) >= own)
        weight = allowed[others][:, characters].astype(jnp.float32)  # (n-1, 6)
        within = weight @ self._holds  # (n-1, 64): |A_s & T|
        but_one = jnp.stack([jnp.prod(jnp.delete(within, s, axis=0), axis=0) for s in range(n - 1)])
        total = (but_one[0] * within[0]) @ self._injective
        shares = weight * (but_one @ self._injective_without) / total
        # back to every character (the observer's own has no share) and every seat (its own: certain)
        shares = jnp.append(shares, jnp.zeros((n - 1, 1), jnp.float32), axis=1)
        columns = jnp.where(jnp.arange(M) == own, M - 1, jnp.arange(M) - (jnp.arange(M) > own))
        rows = jnp.append(one_hot(own, M)[None, :], shares[:, columns], axis=0)  # in turn order from the seat
        return rows[(jnp.arange(n) - seat) % n]

    seats_leave = True  # an accusation puts a seat out, paid -1 there and then

    def out_of_play(self, g: HoaxState) -> jax.Array:
        return g.eliminated

    # --- for a critic in training --------------------------------------------------------

    @property
    def critic_size(self) -> int:
        return self.num_players * M

    def critic_view(self, g: HoaxState, seat) -> jax.Array:
        """Every seat's character, from `seat` leftwards, one-hot in sheet order."""
        order = (seat + self._seats) % self.num_players
        return (g.characters[order][:, None] == jnp.arange(M)[None, :]).astype(jnp.float32).ravel()

    # --- the observation --------------------------------------------------------------

    def blocks(self, g: HoaxState, seat) -> dict[str, jax.Array]:
        n = self.num_players
        on = ~g.over
        claim = g.claimant != NOBODY
        immunity = claim & (g.immunity_claimant != NOBODY)
        return {
            "resources": g.resources,
            "supply": g.supply,
            "impostor": g.impostor,
            "eliminated": g.eliminated,
            "hoax_holder": one_hot(jnp.where(g.holder == NOBODY, n, g.holder), n + 1),
            "active_player": one_hot(jnp.where(on, g.active, NOBODY), n),
            "decision": one_hot(jnp.where(on, g.decision, NOBODY), len(DECISIONS)),
            "to_act": one_hot(jnp.where(on, g.to_act, NOBODY), n),
            "turn_progress": jnp.stack([g.claimed, g.accused]),
            "claimant": one_hot(jnp.where(claim, g.claimant, NOBODY), n),
            "claim_character": one_hot(jnp.where(claim, g.claim_character, NOBODY), M),
            "claim_option": one_hot(jnp.where(claim, g.claim_option, NOBODY), self.config.sheet.max_options),
            "claim_type": one_hot(jnp.where(claim, g.claim_type, NOBODY), R),
            "claim_player": one_hot(jnp.where(claim, g.claim_player, NOBODY), n),
            "immunity_claimant": one_hot(jnp.where(immunity, g.immunity_claimant, NOBODY), n),
            "immunity_character": one_hot(jnp.where(immunity, g.immunity_character, NOBODY), M),
            "votes": jnp.stack([g.votes > 0, g.votes < 0], axis=1),
            "turn": jnp.minimum(g.turn, DEFAULT_MAX_TURNS)[None],
            "claims": g.claims,
            "hoax_calls": g.hoax_calls,
            "ballots": g.ballots_by_claimant,
            "ballots_by_character": g.ballots_by_character,
            "investigations": g.investigations,
            "accusations": g.accusations,
            "character": one_hot(g.characters[seat], M),
            "cards_seen": g.seen[seat],
            "cards_shown": g.seen[:, seat],
            "accused_as": jnp.stack([g.named[seat], g.named[:, seat]], axis=-1),
            "knowledge": self._marginals(g.allowed[seat], seat, g.characters[seat]),
        }
