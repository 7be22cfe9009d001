"""Secrets (4-8 players): CIA, KGB and Hippies with secret, swappable identities.

    from hidden_role_envs import secrets_v1
    env = secrets_v1.env(num_players=5)

Registered as `hidden_roles/secrets-v1` (`pettingzoo.make("aec",
"hidden_roles/secrets-v1", num_players=5)`).

## The game
Each player holds a face-down identity token (CIA, KGB or Hippie); one more
lies in the centre. On a turn the active player draws until two different
characters show, secretly keeps one and offers it face down to another
player, optionally saying what it is. The UN player may intercept; otherwise
the target accepts (the card lands on the target's screen) or refuses (it
lands on the active player's). Whoever adds the card applies its effect,
which swaps, shows or peeks at tokens. The game ends at the end of the turn
in which a screen reaches 5 cards (4-6 players) or 4 (7-8 players). The team
(CIA or KGB) with the higher total wins, unless a single Hippie has the
strictly lowest individual score: then that Hippie alone wins.

## Arguments
{arguments}

`max_turns` defaults to 100 turns, well above the longest game the rules
allow: every turn lands one character on a screen, so a game never lasts
more than n*(end size - 1) + 1 turns (25 at 6 or 8 players).

`reset(seed, options={"setup": {...}})` may fix the deal: `tokens` (n+1
identities by name or index, the last is the centre), `deck` (the 29
characters, top first), `bullets` (the four values, top first) and
`first_player`. Anything left out is shuffled from the seed.

## Actions
`Discrete(8 + 9(n-1) + 4 + C(n-1,2) + (n-1) + 2 + (n+1) + (n-1))`: 70 ids at
5 players. Seats in actions are relative to the actor (`+1` = left neighbour,
the next in turn order). `env.unwrapped.action_to_string(a)` and
`string_to_action(s)` convert; names:

- `choose <Character>`: which of the two characters showing to offer;
- `offer +k` or `offer +k as <Character>`: the Offer's target and the claim;
- `intercept`, `let pass`: the UN player's choice;
- `accept`, `refuse`: the target's answer;
- `psychiatrist +a +b`: the two other players whose tokens swap;
- `politician +k`: whose screen gets the Politician (and whose token you see);
- `diplomat left`, `diplomat right`: the neighbour who swaps with the centre;
- `detective self`, `detective +k`, `detective centre`: the token to look at;
- `assassin +k`: who receives the Bullet.

Only the seat asked to decide has a non-zero `action_mask`.

## Observation
`{"observation": float32[...], "action_mask": int8[num_actions]}`;
`env.unwrapped.observation_fields` maps block names to slices. Seats are
relative to the observer (row 0 = itself, row k = k seats to its left).

{observation}

The `identity` block is an exact posterior over the deals consistent with
what the seat saw: its early intelligence, its own looks (Double Agent,
Politician, Detective), tokens shown to it (Journalist, Diplomat, the centre
at 7-8 players) and every swap it watched. A public swap (Psychiatrist,
Double Agent) moves what was known with the tokens; the Diplomat's unseen
swap leaves "one of these two" with equal weight. It is computed from those
events only, never from the true tokens. `teammate` comes from the same
posterior: the chance that a seat holds the same team token as this seat,
which the per-place marginals alone cannot give.

## Rewards
At the end only. `reward="win"`: +1 to each winner, -1 to each loser; on a
CIA-KGB tie everybody gets -1. `reward="score"`: the winning margin in
points, +m to each winner and -m to each loser, where m is the difference
of the team totals, or for a lone Hippie the gap to the next lowest score;
a tie gives 0 to everybody. Final `infos[agent]` hold `result`, `winners`,
`identities`, `centre_identity`, `scores`, `team_scores`, `bullets`,
`turns`, and the seat's own `identity`, `score` and `won`.

## Rules and rulings followed
- Setup by player count (tokens CIA/KGB/Hippie: 4: 2/2/1, 5: 2/2/2,
  6: 3/3/1, 7: 3/3/2, 8: 4/4/1; one in the centre); 29 character cards; four
  Bullets worth 0, -1, -2, -3, shuffled. The first active player is drawn at
  random.
- Early intelligence: every seat sees its own token; at 5+ players also its
  right neighbour's (seat i-1); at 7-8 the centre token is shown to all.
- Drawing: cards are drawn until two different characters show; duplicates
  of the first go face down to the bottom of the deck, as does the card not
  chosen. RULING: when the deck cannot show two different characters, the
  single character showing is offered (no choice to make).
- The Offer may carry a public, non-binding claim (table talk, RULING).
- The UN player, when neither the active player nor the target, may
  intercept; RULING: a UN player who is the target simply answers.
- Effects, applied by whoever adds the card: Psychiatrist swaps two other
  players' tokens (public swap, unseen tokens); Double Agent swaps its
  owner's token with the centre, then the owner looks at the new one;
  Politician goes to another player's screen of the owner's choice
  (RULING: it counts for that screen) and the owner sees that player's
  token; Journalist shows the owner's token to everyone else; Diplomat shows
  the centre token to all, then the owner swaps it, unseen, with the left or
  right neighbour's; Detective: look at any one token (own, another's, the
  centre); Scientist: a second face-up Scientist turns every face-up
  character on that screen face down; Assassin: draw the top Bullet, see
  it, give it face down to another player (its value stays hidden from
  everyone else until the end).
- End of every turn, the last included (RULING): identical face-up pairs on
  a screen turn face down (worth 0); then a player with strictly fewer cards
  than every other (face up, face down and Bullets) holds the UN token,
  otherwise it returns to the centre.
- End: at the end of the turn in which a screen reaches 5 cards (4-6
  players) or 4 (7-8). Score = face-up character values + Bullets.
  Identities are those held at the end.

## Version 1
Changes from version 0:
- The record blocks (`turn`, `deck_size`, `deck_bottom`,
  `face_down_characters`, `offers`, `claims`, `offered_cards`,
  `interceptions`, `looks`): the public record of every Offer, claim,
  interception and look, and the cards known at the bottom of the deck.
- Every event can be encoded in the history block (`history_length=K`).
- `max_turns` defaults to 100 turns (version 0: no limit); a truncated game
  reveals to every seat what the end of a game reveals.
- A setup is checked whole before anything is drawn; `bullets` must be the
  four values 0, -1, -2, -3 (version 0 passed `-1.5` and strings through
  `int()`).
"""

from hidden_role_envs.core.definition import GameDefinition, Players
from hidden_role_envs.games.secrets.actions import secrets_belief_links
from hidden_role_envs.games.secrets.cards import MAX_PLAYERS, MIN_PLAYERS

GAME = GameDefinition.from_package(
    __name__,
    version=1,
    players=Players(MIN_PLAYERS, MAX_PLAYERS, default=5, typical=5),
    reward_modes={
        "win": "+1 each winner, -1 each loser",
        "score": "the winning margin in points (see Rewards)",
    },
    belief_links=secrets_belief_links,
    training_recipe={"timesteps": 3_000_000, "eval_every": 1_000_000, "imitation_steps": 0, "games": 256,
                     "epochs": 4, "learning_rate": 1e-4, "scripted_share": 0.75, "random_share": 0.25,
                     "scripted_prior": True},
)
__doc__ = GAME.reference
