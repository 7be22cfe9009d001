"""Spyfall (3-8 players): find the spy, who does not know where you all are.

    from hidden_role_envs import spyfall_v1
    env = spyfall_v1.env(num_players=5)

## The game
Every round, all players but one get a card with the same location and a
role there; the other gets the spy card. The players question each other in
turn; the spy must answer without knowing the place and tries to work it
out, the others try to find the spy without giving the place away. While
the clock runs, anyone may stop it at any of their decisions to accuse
someone (once per round); a unanimous vote reveals that card. The spy may
stop it to reveal itself and name the location, even when asked a question
instead of answering. When time is up, each player in turn may accuse once
more.

Spoken questions become the ABSTRACTION of the rules file: each location
has yes/no attributes (`indoors`, `moving`, `weapons`, ... 23 of them by
default, from common to rare, see `hidden_role_envs.games.spyfall.locations`);
a question asks one player about one attribute and the answer is yes or no.
Anyone may lie; non-spies know the truth, the spy does not.

## Arguments
{arguments}

`max_turns` counts decisions and defaults to twice the most decisions a
game can take, `num_rounds * (q(n+2) + 2n(n-1))` for n players and
`question_limit` q: each exchange is a question, an answer and a window of n
seats; each seat may accuse once while the clock runs (the accusation and
n-2 votes) and once more when time is up. That is 544 at 8 players with the
defaults, 1,520 at 5 players and 5 rounds. No game reaches it (the rules end
every game within half of it): it only makes sure that no episode runs on.

User locations are built with `Location`, from `hidden_role_envs.games.spyfall`.

User `locations` are checked: distinct names, at least `num_players - 1`
distinct roles each, attributes among `attributes`, every two locations
differing in at least 2 attributes; otherwise ValueError says what is wrong.

`reset(seed, options={"setup": {...}})` may fix the deal: `dealer` (the
first dealer), `locations` (the location of the first rounds, by name or
index), `spies` (the spy seat of the first rounds), `roles` (per round, a
role name per seat and None for the spy). Anything left out is drawn from
the seed; a setup that gives the dealer and every round's location, spy and
roles leaves nothing to it (the game is then the same for every seed).

## Actions
`Discrete((n-1)A + 2 + 1 + (n-1) + L + 2)` for n players, A attributes and
L locations: 127 ids at 5 players with the defaults. Seats in actions are
relative to the actor (`+1` = left neighbour, the next in turn order).
`env.unwrapped.action_to_string(a)` and `string_to_action(s)` convert; names:

- `ask +k about <attribute>`: the question (target, attribute);
- `answer yes`, `answer no`;
- `pass`: let the interruption window, or one's time-up accusation, go by;
- `accuse +k`: stop the clock and accuse, at any decision while the clock
  runs (asking, answering, in a window; once per round), or when time is up;
- `guess <Location>`: the spy reveals the spy card and names the location,
  at any of its decisions while the clock runs (only locations not played
  in an earlier round: locations do not repeat within a game);
- `vote yes`, `vote no`: the vote on an accusation.

Only the seat asked to decide has a non-zero `action_mask`.

## Observation
`{"observation": float32[...], "action_mask": int8[num_actions]}`;
`env.unwrapped.observation_fields` maps block names to slices. Seats are
relative to the observer (row 0 = itself, row k = k seats to its left).
The record keeps every public fact a player uses: every exchange of the
round in the order asked (q = `question_limit` rows), every accusation of
the round and how each seat voted on it, and every finished round (rows =
`num_rounds`). The round's blocks are cleared at each deal; the finished
rounds stay to the end of the game.

{observation}

KNOWLEDGE (`location_belief`, `spy_belief`) follows one documented model of
how players answer: a non-spy tells the truth with probability 0.9, the spy
says yes or no with probability 1/2 each. The spy's `location_belief` is
the posterior over the locations not yet played given the other seats'
answers this round (its own say nothing); a non-spy knows its location (a
one-hot). A non-spy's `spy_belief` is the posterior over the other seats
given which of their answers were true at its location: each true answer
multiplies a seat's odds by 0.5/0.9, each false one by 0.5/0.1. The spy's
is a one-hot on itself. When a round ends its spy and location are revealed
to all and both become one-hots until the next deal. Beside them,
`location_false_share` is the model's own check, for every seat: per
location, the share of the other seats' answers this round that are false
there (0 before any; kept once the round's cards are shown). Under the
model it stays near 0.1 at the true location; when the others answer at
random the posterior still names one location sharply, but no location's
share is low. All three are computed from the events the seat saw, never
from the hidden cards.

## Rewards
Each round's points, to each seat, at the end of that round (through the
step that ended it); the final step of the game pays the last round's points
and nothing more (the outcome's rewards are zero). Points per round, from
the rulebook: the spy gets 2 if nobody was convicted, 4 if a non-spy was
convicted, 4 if it named the location; otherwise (spy convicted, or a wrong
name) each non-spy gets 1, and the player who started the accusation that
convicted the spy gets 2 instead.

Every step's `infos[agent]` hold `rounds`: the finished rounds (per round:
`round`, `dealer`, `spy`, `location`, `roles`, `result`, `convicted` and
`accuser` (None: nobody was convicted), `points`), told as each round ends,
before the next deal. Final `infos[agent]` add `result`, `winners` (the
players with the most points; all of them on a tie), `scores` (the totals),
`spy`, `location` and `points` (of the last round), `turns`, and the seat's
own `role` (last round), `score` and `won`.

Truncated by `max_turns`, no seat gets a reward at that step (the points of
the rounds already over were paid as each ended); every seat's info holds
what the end shows of the round in play, its cards: `spy`, `location`, the
seat's own `role`, `points` (zeros), with `rounds`, `scores`, `score`,
`turns`, `result: "truncated"`, `winners: []` and `truncated_after_turns`.
With `illegal="penalize"` an illegal action ends the game: the mover gets
-1 at that step, every other seat 0 (points already paid stay paid), and
every info holds only `illegal_move`.

## Batched engine
`hidden_role_envs.batched.make("spyfall", num_players=5, ...)` is the JAX
twin of this env (`SpyfallBatched`, in `games/spyfall/batched.py`), with
every argument of `env()`: move for move the same observation (every
block, the beliefs to 1e-6 in float32, and with `history_length=K` the
`history` block, the last K events each seat saw), the same mask, rewards,
ends and turn count (`tests/games/spyfall/test_batched.py`).
Its `setup(...)` reads the same `setup` as `reset`; what a setup leaves out
is drawn by the same rules. It needs the `jax` extra.

## Rules and rulings followed
- Deal: a location is drawn uniformly among those not yet played in this
  game; a uniformly random seat gets the spy card; every other seat gets
  the location and a distinct role of it. The first dealer is a random seat;
  the spy of a round deals the next.
- The dealer asks first; then whoever was asked asks next, anyone but the
  player who just asked them. Questions and answers are public.
- RULING: after every answer there is one interruption window: each seat in
  turn order, from the answerer's left and ending with the answerer, may
  pass, accuse (once per round while the clock runs) or, the spy only,
  reveal and name the location (right: the spy wins; wrong: the non-spies
  win).
- The rulebook lets the spy stop the clock "en cualquier momento" while it
  runs, and each player accuse once per round at any time: so the
  accusation (while the seat has its own left) and the spy's guess are also
  offered at every decision of that seat while the clock runs: when it is
  to ask, and when it is asked (the spy may name the location instead of
  answering). Not while a vote is on (the clock is stopped then), nor once
  time is up (the spy may no longer reveal then). After a failed vote the
  interrupted decision goes on: the window with its next seat, the question
  still to ask or to answer.
- Accusation: everyone but the accused votes, the accuser counting as yes;
  votes are cast one by one in turn order from the accuser's left, each
  secret until all are cast; then every vote is shown. A unanimous yes
  reveals the accused's card and ends the round.
- The clock is the question budget: RULING: time is up once the window after
  the `question_limit`-th answer has closed (so the spy may still name the
  place after the last answer). Then, from the dealer, each seat in turn may
  accuse (whether or not it used its accusation before) or pass; the first
  unanimous vote ends the round; if nobody is convicted the spy wins. The
  spy may no longer reveal then.
- At the end of a round every card is shown, before the next deal: every
  seat's observation keeps the round's spy, location, convicted seat and
  accuser, points and result (the `round_*` blocks) to the end of the game,
  and every seat's `infos["rounds"]` lists the round from that step on
  (with the roles, which have no effect on the rules and are not in the
  observation).
- The game is `num_rounds` rounds; `winners` are the players with the most
  points at the end (RULING: a tie makes all of them winners).
- Roles are dealt and observed but have no effect on the rules (the
  rulebook's role-play is table talk, not modelled).

## Version 1
Changes from version 0:
- The spy may name the location, and a seat that has its accusation accuse,
  at each of its decisions while the clock runs, asking and answering too
  (version 0: in the interruption windows only).
- The end of every round (spy, location, convicted seat, accuser, points,
  result) is in every seat's observation to the end of the game and in
  every step's `infos["rounds"]` (version 0: only in the final infos, and
  gone from the observation at the next deal).
- The record keeps every exchange of the round in the order asked, sized
  by `question_limit`, and every accusation and vote of the round (version
  0: the last 8 exchanges, most recent first, and the last vote).
- `max_turns` defaults to twice the longest game (version 0: no limit); a
  truncated game tells every seat the cards of the round in play.
- `location_false_share`, the knowledge model's check of each location
  (version 0: none).
"""

from hidden_role_envs.core.definition import FixedRoles, GameDefinition, Players
from hidden_role_envs.games.spyfall.actions import spyfall_belief_links
from hidden_role_envs.games.spyfall.locations import Location
from hidden_role_envs.games.spyfall.rules import TURN_LIMIT_OVER_LONGEST_GAME, longest_game

__all__ = ["GAME", "Location"]


def _role(observation, fields) -> str:
    """The spy card is dealt once per round: a one-round game keeps its roles all the way."""
    return "spy" if observation[fields["is_spy"]][0] else "non_spy"


GAME = GameDefinition.from_package(
    __name__,
    version=1,
    players=Players(3, 8, default=5, typical=5),
    reward_modes={"points": "the only mode: each round's points (see Rewards)"},
    default_max_turns=lambda config: TURN_LIMIT_OVER_LONGEST_GAME * longest_game(config),
    turn_unit="decisions",
    fixed_roles=FixedRoles(("spy", "non_spy"), _role),
    belief_links=spyfall_belief_links,
    training_recipe={"timesteps": 3_600_000, "eval_every": 600_000, "games": 128, "epochs": 8, "learning_rate": 1e-4,
                     "scripted_share": 0.75, "random_share": 0.25, "belief_links": True},
)
__doc__ = GAME.reference
