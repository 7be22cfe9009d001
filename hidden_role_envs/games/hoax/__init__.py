"""Hoax (3-6 players): secret characters, bluffed claims, Hoax calls, investigations and accusations.

    from hidden_role_envs import hoax_v1
    env = hoax_v1.env(num_players=5)

Registered as `hidden_roles/hoax-v1` (`pettingzoo.make("aec",
"hidden_roles/hoax-v1", num_players=5)`).

## The game
Each player is dealt one of 7 characters, secretly; the rest are unused and
unseen. On a turn the active player must make one claim ("I am the Chef")
and use that character's privilege to gain resources; any other player may
call Hoax on it, and a secret vote decides whether the claim is checked: a
true claim wins the game at once, a false one earns an impostor token. With
one Cash, one Evidence and one Prestige a player investigates another (the
target passes four suspicion cards, its own among them); once per turn a
player may accuse another, naming a character on a suspicion card passed
face down: the target answers yes (it is out) or no (the accuser is). The
last player left wins.

## Arguments
{arguments}

`max_turns` defaults to 1000 turns. The rulebook has no limit, and a game
may never end: a table of players who never bluff can come to a standstill
where nobody gathers one token of each type, so nobody investigates or
accuses (tables of version 1's first, honest scripted players did in a
third to two thirds of their games). The limit is set well above the
natural games, which it should never cut: of 200 games at each table size
of random play, of random play that seldom accuses, of one scripted player
among either, and of tables of those honest scripted players, the longest
that ended by the rules lasted 340 turns (6 at the table; at most 121 turns
in the other mixes); the present scripted players, who bluff, end every
game of 100 at each table size by the rules, the longest in about 150
turns. The limit is about three times the longest.

A replacement sheet is 7 rows `(name, {option label: effects}, immune_to)`;
a malformed one raises ValueError saying what is wrong.

`reset(seed, options={"setup": {...}})` may fix every chance outcome:
`characters` (one per seat, by name or sheet index, all different),
`first_player`, and `suspicion_decks`, the suspicion deck at each
investigation in turn: a list of orders of the 7 characters, top first,
from which the target takes out its own card and then the first three of
the rest. Anything left out is drawn from the seed, in this order: the deal
(`rng.permutation(7)`, the first n to the seats), the first player
(`rng.integers(n)`), then at each investigation past the decks given a
shuffled deck (`rng.permutation(7)`). A setup is checked whole, each entry's
type and length included, before anything is drawn; a wrong one raises a
ValueError or TypeError naming it.

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
suspicion cards of its own investigations, impostor tokens, the character
it named in its own accusations and the answer) keeps or rules out deals,
and an investigation's three extra cards are equally likely under every
deal it keeps, so the posterior is uniform over the deals still consistent.
The block is its marginal, counted over all deals (at most 7*6*5*4*3*2 =
5040). It is built from those events only, never from the true characters;
claims and votes are choices of players, not evidence, and are not
counted, nor is the character another seat names when it accuses this one.

The `record` blocks keep the public record, so that a policy without memory
can play on it: each seat's claims by character (privilege and immunity
claims, and those a vote showed false, which outlive the impostor tokens a
wrong accuser returns), who called Hoax on whom, every revealed ballot by
claimant and by character claimed, who investigated whom, who accused whom
and whether rightly, and the turn number. The `own` blocks keep what the
seat alone saw: the suspicion cards it was shown, those it passed to each
investigator, and the characters on the suspicion cards of the accusations
it made or received. Counts stop at 100, the turn number at 1000.

`history_length=K` adds the block `history`, the last K events the seat
saw (every kind of event has an encoding: seats relative to the observer,
and where resources move, the seats then the supply).

## Rewards
+1 to the winner, -1 to every other player. A player's episode ends when it
is eliminated: it gets its -1 then (PettingZoo's dead-agent handling: it is
terminated and takes a `None` step); the final rewards go to the seats
still playing. Final `infos[agent]` hold `result`, `winner`, `winners`,
`characters` (every seat's: the rulebook turns them all face up at the
end), `unused_characters`, `eliminated`, `turns`, and the seat's own
`character` and `won`; an eliminated agent's info holds
`eliminated_after_turns`. A game stopped by the turn limit gives every seat
still playing 0 (seats out earlier kept their -1) and the same infos, with
`result: "truncated"`, `winners: []`, no `winner` or `won`, and
`truncated_after_turns`. An illegal action under `illegal="penalize"` gives
the mover -1, every other seat 0, ends every seat's episode, and puts
`illegal_move` (agent, action, reason) in every seat's info.

## Batched engine (JAX)
`hidden_role_envs.batched.make("hoax", num_players=5)` (the `jax` extra)
plays thousands of games at once in `jax.vmap`, with any character sheet
and turn limit: the twin of this env (`games/hoax/batched.py`), with the
same observation (with `history_length=K` the `history` block too, the
last K events each seat saw), mask, rewards and ends, move for move,
checked against it with every chance outcome fixed by the same `setup`
(`env.setup({...})`). Past the setup's `suspicion_decks` it shuffles its
own from the step's key, so only fixed decks give the same cards as the
env.

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
  immunity). No call, a tie or more thumbs up: the claim stands. The
  ballots of a vote are shown from their reveal until the next Hoax call.
  RULING: the Hoax card of an eliminated player returns to the centre.
- Immunities: when a privilege effect would take from or swap with a
  player, that player may answer `immune as <character>` with any character
  immune to the claimed one that they hold no impostor token on (a claim,
  true or not, open to Hoax like any other). RULINGS: a player is asked
  only when the effect would change what they hold and some such character
  is open to them; they are asked once per privilege, the first time an
  effect reaches them, and the answer covers the whole privilege; several
  players are asked in turn order from the claimant's left as the effect
  reaches them.
- Investigations: the target takes out its own suspicion card and three
  more at random from the other six, looks at the four, and passes them
  shuffled (unordered) to the investigator. So the investigator and the
  target see the four cards: the rulebook, which is the authority, has the
  target look at them ("Mira las cuatro cartas"), where the rulings file
  says the investigator alone; the others see that the investigation
  happened and whom it targeted.
- Accusations: the accuser names a character on a suspicion card passed
  face down to the target, who answers yes or no. Everyone learns who
  accused whom and the answer; only the accuser and the target learn the
  character named. Right, the target is out, their resources go to the
  accuser and their impostor tokens stay; wrong, the accuser is out and
  their resources and impostor tokens go back to the supply, which ends
  their turn. Eliminated players' cards stay hidden until the end.
- End: the last player left wins, or a claimant whose claim a vote checked
  and found true. RULING: no turn limit in the rulebook; `max_turns`
  truncates (see Arguments).

## Version 1
Changes from version 0:
- An accusation's character reaches only the accuser and the target (it
  was told to every seat, whose knowledge counted it); the others learn
  who accused whom and the answer.
- The target of an investigation sees the four suspicion cards it passes
  (the `shown` event, its `cards_shown` block, its text and history).
- While a new vote is open, the `votes` block (and the text's last vote)
  shows no ballot of the last one.
- The record blocks (`turn`, `claims`, `hoax_calls`, `ballots`,
  `ballots_by_character`, `investigations`, `accusations`) and the own
  blocks `cards_seen`, `cards_shown` and `accused_as`.
- Every event can be encoded in the history block (`history_length=K`);
  `hoax_called` names the claimant, `votes_revealed` the claim voted on.
- The suspicion cards of each investigation can be fixed by the setup
  (`suspicion_decks`); an investigation draws a shuffled deck from the seed
  (it drew three of the other six), so a seed deals the same games as
  before but shows other suspicion cards.
- A setup is checked whole before anything is drawn; entries of the wrong
  type or length are refused, named.
- A truncated game reveals to every seat what the end of a game reveals.
- The default turn limit is 1000 turns (it was 100, which cut natural games
  of the scripted players, some of which last over 300 turns).
"""

from hidden_role_envs.core.definition import GameDefinition, Players
from hidden_role_envs.games.hoax.bots import AccuseTheLastClaimant
from hidden_role_envs.games.hoax.cards import MAX_PLAYERS, MIN_PLAYERS

GAME = GameDefinition.from_package(
    __name__,
    version=1,
    players=Players(MIN_PLAYERS, MAX_PLAYERS, default=5, typical=4),
    reward_modes={"win": "+1 to the winner, -1 to every other player (see Rewards)"},
    counter_strategies={"accuse-last-claimant": AccuseTheLastClaimant},
    # three quarters of the training games against the real scripted players, a quarter against random ones
    training_recipe={"players": 4, "timesteps": 1_200_000, "eval_every": 600_000, "games": 128, "epochs": 8,
                     "learning_rate": 3e-4, "scripted_share": 0.75, "random_share": 0.25},
)
__doc__ = GAME.reference
