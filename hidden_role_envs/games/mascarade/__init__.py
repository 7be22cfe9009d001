"""Mascarade (2-13 players): bluff with characters that keep changing hands.

    from hidden_role_envs import mascarade_v1
    env = mascarade_v1.env(num_players=5)

Registered as `hidden_roles/mascarade-v1` (`pettingzoo.make("aec",
"hidden_roles/mascarade-v1", num_players=5)`).

## The game
Every player starts with 6 coins and one character card (two at 2-3
players), dealt face up for all to see, then turned face down. From then on
cards move unseen: on a turn a player swaps their card with another card,
or pretends to, under the table; or looks at their own card; or announces
"I am the King" to use that character's power. Everybody else, in turn,
may claim to be it too: then all claimants reveal, the real one uses the
power and every false one pays a fine of 1 coin to the courthouse. A player
with 13 coins wins at once; if a player goes broke the game ends and the
richest win.

## Arguments
{arguments}

`max_turns` defaults to 300 turns. The rules never end a game in which
nobody gets rich or broke (players may swap for ever), so a limit is
needed; it is set well above the natural games, which it should never cut:
of 2,000 games of random play at each table size from 2 to 13 players the
longest lasted 144 turns (at 2 players; at most 122 from 3 players), and of
300 games of the scripted players at each size, 109 (at 7 players). The
limit is twice the longest of them.

`reset(seed, options={"setup": {...}})` may fix the deal: `cards` (one
character per card place, by name or index: each seat's card(s) in seat
order, then the centre cards) and `first_player`. Anything left out is
drawn from the seed. An entry of the wrong type or length, a card not in
play or a seat out of range raises ValueError or TypeError naming the
entry, before anything is drawn: the refused reset changes nothing.

## Actions
`Discrete(n^2 + 3P + 26)` at 4+ players, where P = n + centre cards is the
number of card places (69 ids at 5 players); `Discrete(75)` at 2 players,
`Discrete(84)` at 3. Cards are named relative to the actor: `+k` is the card of the
player k seats to the left (`+1` = the next in turn order), `centre j` a
centre card; at 2-3 players each seat's two cards are `A` and `B` (its own)
and `+k A`, `+k B`. `env.unwrapped.action_to_string(a)` and
`string_to_action(s)` convert; names:

- the turn: `swap +k` / `no swap +k` (also `centre j`; at 2-3 players
  `swap A with +k B`, `no swap B with A`, ...), `look` (`look A`),
  `announce <Character>` (`announce <Character> with A`);
- `claim` (`claim with A`, `claim with B`) or `pass`, asked of every other
  player in turn order from the announcer's left;
- the powers' choices: `spy +k` (the card the Spy looks at besides its own)
  then `spy swap` / `spy no swap`; `bishop +k` (which of the tied richest);
  `fool swap +a and +b` / `fool no swap +a and +b` (the cards of two other
  players); `inquisitor +k`, then
  the questioned player's `guess <Character>`; `witch +k`, or
  `witch no swap` to keep her own fortune.

A swap-or-not is a single action (where, and whether the cards really
swap); so is the Fool's. Only the seat asked to decide has a non-zero
`action_mask`.

## Observation
`{"observation": float32[...], "action_mask": int8[num_actions]}`;
`env.unwrapped.observation_fields` maps block names to slices. Seats are
relative to the observer (entry 0 = itself, entry k = k seats to its left);
card places are those seats' cards in the same order (the observer's own
first, `A` then `B` at 2-3 players), then the centre cards. P = places,
12 characters in the order Judge, Bishop, King, Fool, Queen, Thief, Witch,
Spy, Peasant, Cheat, Inquisitor, Widow.

{observation}

Both coin blocks are clipped at 13, so the observation space has a finite
bound (the bank is unlimited, so coins have none of their own) and nothing a
decision needs is lost: while the game runs every seat has 1 to 12 coins
(13 ends it; more than 13 appears only in the final observation, after a
power such as the Inquisitor's fine of 4 or a Judge taking a large
courthouse), and the courthouse, which the fines can fill without limit,
matters only to a Judge, who wins with any courthouse of 12 or more. The
true counts are on `env.unwrapped.engine.table` and, at the end, in
`infos[agent]["coins"]` and `["courthouse"]`.

The `knowledge` block is built from what this seat saw only: the open deal,
its own looks and Spy looks, every reveal, and every swap-or-not it
watched. A swap it made itself (its turn, its Spy or Fool power) it knows;
one it only watched it takes to be a swap or not, each as likely. Up to 7
cards in play (every table of 2 to 7 players without extra centre cards)
the block is the EXACT posterior of that model, one weight per deal. Above 7
cards it is an APPROXIMATION (the exact one would need up to 13! deals): a
matrix of marginals brought back to one card per place and the right copies
per character by exact elimination and Sinkhorn passes; it never gives 0 to
a character the exact posterior allows (the true one included), equals the
exact posterior until the seat sees a card it was unsure of, and its
measured error is in `hidden_role_envs.games.mascarade.knowledge`.

The `record` blocks keep the public record of the game, so that a policy
without memory can play on it: who announced and claimed what, how often,
and what the reveals showed; each seat's last announcement and who claimed
it; who looked at which card and when, and who still knows the card it saw;
the swaps-or-not by seat and by place; the cards shown (dealt face up,
revealed) and not moved since; the Inquisitor's questions and the guesses.
Each entry is a fact every seat saw (a look or a swap-or-not is seen by
all, what was seen or whether the cards swapped is not), so every seat
reads the same record in its own order. Counts and ages stop at 50.

## Rewards
At the end only: +1 to each winner, -1 to every other seat. Final
`infos[agent]` hold `result`, `winners`, `coins`, `characters` (a name per
seat, two at 2-3 players), `centre_characters`, `courthouse`, `from_bank`,
`turns`, and the seat's own `character` and `won`. A game stopped by the
turn limit gives every seat 0 and the same infos, with `result:
"truncated"`, `winners: []` and no `won` (see Episode end); an illegal
action under `illegal="penalize"` gives the mover -1, every other seat 0,
and every seat's info `illegal_move`.

## Batched engine
`hidden_role_envs.batched.make("mascarade", num_players=5)` is this env's
twin in JAX (`games/mascarade/batched.py`, needs the `jax` extra): the
same arguments, the same observation (every block, the exact or
approximate `knowledge` included, to float32 rounding; with
`history_length=K` the `history` block too), mask, rewards, ends and turn
limit, for thousands of games at once; `env.setup({...})` takes the
`setup` above.

## Rules and rulings followed
- Setup: 6 coins each, an empty courthouse, an unlimited bank (RULING).
  Cards in play: 6 at 4-5 players (2 or 1 in the centre), one per player at
  6-13 plus the optional `extra_centre_cards`. The recommended set by
  player count (4: Judge, Bishop, Fool, Queen, Thief, Cheat; 5-6: Judge,
  Bishop, Fool, Queen, Witch, Cheat; 7: Judge, Bishop, Fool, Queen, Thief,
  Witch, Spy; 8: Judge, Bishop, King, Fool, Queen, Witch, Peasant x2; 9: +
  Cheat; 10: + Spy; 11: + Inquisitor; 12: + Widow; 13: all). RULING: extra
  centre cards add the first of King, Thief, Spy, Cheat, Widow, Witch,
  Inquisitor not yet in play (Inquisitor at 8+ only).
- A custom `characters` list must have one card per card place and keep
  the rulebook's constraints, or `ValueError` names the one broken: the
  Judge is in it; one copy of each character but the Peasants, which come
  both or not at all; Peasants and Inquisitor need 8+ players; at least a
  third of the cards bring money from the bank (Queen, King, Widow, Fool,
  Peasants). The recommended set of the player count is always accepted
  (the rulebook's 7-player set has 2 money cards out of 7).
- The deal is open (every seat sees every card), then face down. The first
  player (the youngest) is drawn at random.
- Turns: the first 4 turns are preparation turns: swap or not only. Then
  exactly one of: swap-or-not of one's card with another player's or a
  centre card, unseen; look at one's own card; announce any character in
  play. A player whose card was revealed during the previous turn (claim or
  Inquisitor) must swap or not with another player's card ("con la de otro
  jugador": not a centre card; RULING, first edition: it may neither look
  nor announce).
- Announcements: every other player, in turn order from the announcer's
  left, claims or passes. No claim: the announcer uses the power without
  revealing. Otherwise every claimant (announcer included) reveals; the
  real holder uses the power (out of turn if need be), then every false
  claimant pays 1 coin to the courthouse. Cards go back face down in place.
- Powers: Spy: look at one's card and another (a player's or centre),
  then swap them or not. Bishop: 2 coins from the richest other player, the
  Bishop choosing among ties. Fool: 1 coin from the bank, then swap or not
  the cards of two other players ("las cartas de otros dos jugadores": one
  card of each, never a centre card). Inquisitor (8+): choose another player,
  who names the character they think they are, then reveals; if wrong they
  pay 4 coins to the Inquisitor. Judge: all the courthouse's coins (this
  announcement's fines come after). Peasant: 1 coin, 2 each if both
  Peasants are revealed in the same announcement. Queen: 2 coins. King: 3.
  Witch: may swap fortunes with another player of her choice, or decline
  ("puede intercambiar"). Cheat: with 10 coins or more, win. Widow: coins
  from the bank up to 10. Thief: 1 coin from each
  neighbour (at 2 players both coins from the one opponent). A player who
  must pay more than they have pays all they have. RULING: the guess and
  the announcement are limited to characters in play. RULING: the
  rulebook's "look by mistake" rule has no counterpart here (a program
  never looks by mistake).
- End: 13 coins or more wins at once; a player at 0 ends the game and the
  richest win, ties sharing the win. RULING: the end is checked after each
  power (after the Fool's coin, before its swap) and again after the
  fines; if the power ends the game the fines are not paid; if several
  players reach 13 together, all of them win; 13 coins takes precedence
  over a bankruptcy in the same step.
- 2-3 players (HOUSE RULE, the short variant): Bishop, Fool, Judge, Queen,
  King, Witch; two cards each (one fortune), the 2 spare cards face down in
  the centre at 2 players. Swap-or-not may use any card but the one swapped
  from, the player's other card included; one looks at one of one's cards;
  announcing and claiming name the card used. RULING: the Spy uses the card it
  announced or claimed with as its own, and may look at its other card. The
  Fool handles one card of each of the two other players at 3 players, and
  at 2 players (RULING: there is one other player) that player's two cards.
  The forced swap-or-not after a reveal is from either of one's cards with
  a card of another player.

## Version 1
Changes from version 0:
- The Witch may decline to swap fortunes (`witch no swap`).
- The Fool swaps, or not, the cards of two other players: no centre card
  (nor, at 2-3 players, its own other card); its actions name only those,
  so the action space is smaller (69 ids at 5 players, was 76).
- The swap-or-not forced by a reveal is with another player's card, never a
  centre card (nor, at 2-3 players, one's own other card).
- The `knowledge` block is the exact posterior up to 7 cards in play (it
  was the approximation everywhere); above 7 the approximation stays, its
  guarantees and measured error documented.
- The observation keeps the public record (the `record` blocks above);
  `revealed` shows the card last shown at each place until a swap-or-not
  handles it (it showed the reveals of the turn in progress, which
  `claimed_cards` and `power_cards` with it still tell).
- Every event can be encoded in the history block (`history_length=K`).
- A truncated game reveals to every seat what the end of a game reveals.
- A setup is checked whole before anything is drawn; `cards` of the wrong
  length is refused as such.
"""

from hidden_role_envs.core.definition import GameDefinition, Players
from hidden_role_envs.games.mascarade.characters import MAX_PLAYERS, MIN_PLAYERS

GAME = GameDefinition.from_package(
    __name__,
    version=1,
    players=Players(MIN_PLAYERS, MAX_PLAYERS, default=5, typical=5),
    reward_modes={"win": "+1 each winner, -1 each other seat"},
    # three quarters of the training games against the real scripted players, a quarter against random ones
    training_recipe={"timesteps": 1_200_000, "eval_every": 600_000, "games": 128, "epochs": 8, "learning_rate": 3e-4,
                     "scripted_share": 0.75, "random_share": 0.25},
)
__doc__ = GAME.reference
