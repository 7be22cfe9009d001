"""Hoax (3-6 players): secret characters, bluffed claims, Hoax calls, investigations and accusations.

    from hidden_role_envs import hoax_v0
    env = hoax_v0.env(num_players=5)

Registered as `hidden_roles/hoax-v0` (`pettingzoo.make("aec",
"hidden_roles/hoax-v0", num_players=5)`).

## The game
Each player is dealt one of 7 characters, secretly; the rest are unused and
unseen. On a turn the active player must make one claim ("I am the Chef")
and use that character's privilege to gain resources; any other player may
call Hoax on it, and a secret vote decides whether the claim is checked: a
true claim wins the game at once, a false one earns an impostor token. With
one Cash, one Evidence and one Prestige a player investigates another (four
suspicion cards, one of them true); once per turn a player may accuse
another of being a character: right, the target is out; wrong, the accuser
is. The last player left wins.

## Arguments
{arguments}

Without `max_turns`, a game is truncated after 100 turns (the rulebook has no limit).

A replacement sheet is 7 rows `(name, {option label: effects}, immune_to)`;
a malformed one raises ValueError saying what is wrong.

`reset(seed, options={"setup": {...}})` may fix the deal: `characters` (one
per seat, by name or sheet index, all different) and `first_player`.
Anything left out is drawn from the seed, which also draws the suspicion
cards of investigations.

## Actions
One `Discrete` space; with the house sheet `28 + 15(n-1)` ids (88 at 5
players). Seats in actions are relative to the actor (`+1` = left
neighbour, the next in turn order). `env.unwrapped.action_to_string(a)` and
`string_to_action(s)` convert; names:

- `pick Cash`, `pick Evidence`, `pick Prestige`: the opening pick;
- `claim <character>[ <option>][ <type>][ +k]`: the turn's claim and its
  privilege's choices, e.g. `claim Butler +2`, `claim Son-in-Law Cash`,
  `claim Ex-Wife Evidence`, `claim Ex-Wife neighbours Prestige`, `claim Chef
  Cash +1`, `claim Gardener Prestige +3` (generated from the sheet);
- `investigate +k`, `accuse +k as <character>`, `end turn`: the rest of the turn;
- `call hoax`, `no hoax`: asked of each other player in turn, on every claim;
- `thumbs up`, `thumbs down`: the secret vote;
- `immune as <character>`, `no immunity`: answering a privilege that would
  take from or swap with you.

Only the seat asked to decide has a non-zero `action_mask`.

## Observation
`{"observation": float32[...], "action_mask": int8[num_actions]}`;
`env.unwrapped.observation_fields` maps block names to slices. Seats are
relative to the observer (row 0 = itself, row k = k seats to its left).
Characters are in sheet order (house sheet: Butler, Son-in-Law, Ex-Wife,
Lover, Distant Cousin, Chef, Gardener); resources are Cash, Evidence, Prestige.

{observation}

`knowledge` is exact. Every injective deal of the 7 characters to the n
seats is equally likely at first; what a seat sees (its own card, the four
suspicion cards of its own investigations, impostor tokens, accusations
and whether they were right) keeps or rules out deals, and an
investigation's three extra cards are equally likely under every deal it
keeps, so the posterior is uniform over the deals still consistent. The
block is its marginal, counted over all deals (at most 7*6*5*4*3*2 = 5040).
It is built from those events only, never from the true characters; claims
and votes are choices of players, not evidence, and are not counted.

## Rewards
+1 to the winner, -1 to every other player. A player's episode ends when it
is eliminated: it gets its -1 then (PettingZoo's dead-agent handling: it is
terminated and takes a `None` step); the final rewards go to the seats
still playing. A truncated game (`max_turns`) gives no final reward. Final
`infos[agent]` hold `result`, `winner`, `winners`, `characters` (every
seat's), `unused_characters`, `eliminated`, `turns`, and the seat's own
`character` and `won`; an eliminated agent's info holds
`eliminated_after_turns`.

## Rules and rulings followed
- Components: 7 characters (one per player, the rest unused and unseen), 7
  suspicion cards, the Hoax card (starts in the centre), impostor tokens,
  and a supply of 9 Cash, 9 Evidence and 9 Prestige (RULING on the split of
  the 27 tokens). RULING: the 25 impostor tokens are not a limit.
- Setup: characters dealt at random; the first player (the rulebook's
  youngest) is drawn at random; from the first player, in turn order, each
  player picks one resource from the supply. The picks are not a turn.
- The turn: exactly one claim (required), any number of investigations
  (one Cash, one Evidence and one Prestige each, back to the supply), at
  most one accusation, in any order; `end turn` is legal once the claim is
  made. A player may claim any character except one they hold an impostor
  token on.
- Privileges (the house sheet, HOUSE RULE where marked HOUSE; a replacement sheet can change them):

  | character | privilege | immune to |
  |---|---|---|
  | Butler | take 1 Cash; a named other player takes 1 Prestige | - |
  | Son-in-Law | name a type; take one from every other player | - |
  | Ex-Wife | take 1 Cash, or 1 Evidence, or name a type and take one from each neighbour | Gardener (HOUSE) |
  | Lover | take 1 Evidence or 1 Prestige | Son-in-Law |
  | Distant Cousin | take 1 Cash or 1 Prestige | Chef |
  | Chef | name a type and another player; swap all your tokens of that type with theirs (HOUSE) | Gardener |
  | Gardener | take 1 Evidence; then name a type and take one from a named other player (HOUSE) | Ex-Wife (HOUSE) |

  Taking from an empty supply gets nothing; players give only what they
  have, in turn order. The privilege's choices are made with the claim,
  in public, before anyone may call Hoax. RULING: neighbours are the
  nearest players still in on each side; with two players left, the other
  player once.
- Hoax: after every claim (privilege or immunity), the other players still
  in are asked in turn order from the claimant's left whether they call
  Hoax; the holder of the Hoax card is skipped; the first call stops the
  asking and the caller takes the card. Every player still in but the
  claimant votes (the caller too), asked one by one in the same order; no
  vote shows in any observation until all are cast, then all are revealed
  together. A strict majority of thumbs down checks the claim: true, the
  claimant wins at once; false, the claimant takes an impostor token on
  that character and the claim does nothing (no privilege, or no
  immunity). No call, a tie or more thumbs up: the claim stands. RULING:
  the Hoax card of an eliminated player returns to the centre.
- Immunities: when a privilege effect would take from or swap with a
  player, that player may answer `immune as <character>` with any character
  immune to the claimed one that they hold no impostor token on (a claim,
  true or not, open to Hoax like any other). RULINGS: a player is asked
  only when the effect would change what they hold and some such character
  is open to them; they are asked once per privilege, the first time an
  effect reaches them, and the answer covers the whole privilege; several
  players are asked in turn order from the claimant's left as the effect
  reaches them.
- Investigations: the target's own suspicion card plus three drawn at
  random from the other six, shown unordered to the investigator only
  (per the rulings; in the rulebook the target also sees the four cards,
  which tells it nothing about the other seats). Others see that the
  investigation happened and whom it targeted.
- Accusations: right, the target is out, their resources go to the
  accuser and their impostor tokens stay; wrong, the accuser is out and
  their resources and impostor tokens go back to the supply, which ends
  their turn. Nobody learns more about characters than right or wrong
  implies; eliminated players' cards stay hidden until the end.
- End: the last player left wins, or a claimant whose claim a vote checked
  and found true. RULING: no turn limit in the rulebook; `max_turns`
  (default 100) truncates.
"""

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.games.hoax import events, text
from hidden_role_envs.games.hoax.actions import hoax_actions
from hidden_role_envs.games.hoax.bots import HoaxScriptedPlayer
from hidden_role_envs.games.hoax.cards import MAX_PLAYERS, MIN_PLAYERS
from hidden_role_envs.games.hoax.config import ARGUMENTS, DEFAULT_MAX_TURNS, configure
from hidden_role_envs.games.hoax.observation import SCHEMA, HoaxObserver
from hidden_role_envs.games.hoax.rules import HoaxGame

GAME = GameDefinition(
    package=__name__,
    name="hoax",
    title="Hoax",
    version=0,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=5,
    benchmark_players=(3, 4, 6),
    arguments=ARGUMENTS,
    reward_modes={"win": "+1 to the winner, -1 to every other player (see Rewards)"},
    configure=configure,
    actions=hoax_actions,
    new_game=HoaxGame,
    new_observer=HoaxObserver,
    schema=SCHEMA,
    events=events.EVENTS,
    words=text.words,
    describe_table=text.describe_table,
    scripted_player=HoaxScriptedPlayer,
    default_max_turns=lambda config: DEFAULT_MAX_TURNS,
    rules_text="hidden_role_envs.games.hoax.rules_text",
    doc=__doc__,
)
__doc__ = GAME.reference
