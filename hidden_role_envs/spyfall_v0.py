"""Spyfall (3-8 players): find the spy, who does not know where you all are.

    from hidden_role_envs import spyfall_v0
    env = spyfall_v0.env(num_players=5)

## The game
Every round, all players but one get a card with the same location and a
role there; the other gets the spy card. The players question each other in
turn; the spy must answer without knowing the place and tries to work it
out, the others try to find the spy without giving the place away. Anyone
may stop the clock and accuse someone; a unanimous vote reveals that card.
The spy may reveal itself and name the location. When time is up, each
player in turn may accuse once more.

Spoken questions become the ABSTRACTION of the rules file: each location
has yes/no attributes (`indoors`, `moving`, `weapons`, ... 23 of them by
default, from common to rare, see `hidden_role_envs.games.spyfall.locations`);
a question asks one player about one attribute and the answer is yes or no.
Anyone may lie; non-spies know the truth, the spy does not.

## Arguments
| argument | default | allowed |
|---|---|---|
| `num_players` | 5 | 3 to 8 |
| `num_rounds` | 1 | 1 to the number of locations (the rulebook suggests 5) |
| `question_limit` | 16 | positive int: questions in a round (the clock, ~8 minutes at 30 s an exchange) |
| `locations` | None | None for the 26 of the box, or a sequence of `Location(name, roles, attributes)` |
| `attributes` | None | None for the 23 default ones, or the names the `locations` use (in action and block order) |
| `reward` | "points" | "points" (the only mode): see Rewards |
| `max_turns` | None | positive int: truncate after that many decisions (a game is finite without it) |
| `illegal` | "raise" | "raise": ValueError; "penalize": the mover gets -1 and the episode terminates |
| `render_mode` | None | "ansi" returns text, "human" prints it |

User `locations` are checked: distinct names, at least `num_players - 1`
distinct roles each, attributes among `attributes`, every two locations
differing in at least 2 attributes; otherwise ValueError says what is wrong.

`reset(seed, options={"setup": {...}})` may fix the deal: `dealer` (the
first dealer), `locations` (the location of the first rounds, by name or
index), `spies` (the spy seat of the first rounds), `roles` (per round, a
role name per seat and None for the spy). Anything left out is drawn from
the seed.

## Actions
`Discrete((n-1)A + 2 + 1 + (n-1) + L + 2)` for n players, A attributes and
L locations: 127 ids at 5 players with the defaults. Seats in actions are
relative to the actor (`+1` = left neighbour, the next in turn order).
`env.unwrapped.action_to_string(a)` and `string_to_action(s)` convert; names:

- `ask +k about <attribute>`: the question (target, attribute);
- `answer yes`, `answer no`;
- `pass`: let the interruption window, or one's time-up accusation, go by;
- `accuse +k`: stop the clock and accuse (or accuse when time is up);
- `guess <Location>`: the spy reveals the spy card and names the location;
- `vote yes`, `vote no`: the vote on an accusation.

Only the seat asked to decide has a non-zero `action_mask`.

## Observation
`{"observation": float32[...], "action_mask": int8[num_actions]}`;
`env.unwrapped.observation_fields` maps block names to slices. Seats are
relative to the observer (row 0 = itself, row k = k seats to its left).
K = 8 exchanges are kept in the history blocks, the most recent first.

| block | shape | meaning |
|---|---|---|
| `is_spy` | (1,) | 1 if this seat holds the spy card |
| `location` | (L,) | one-hot: the location on this seat's card (zeros for the spy) |
| `role` | (R,) | one-hot: its role, by index in the location's roles (R = most roles of a location, 7) |
| `history_asker` | (K, n) | last exchanges: who asked |
| `history_target` | (K, n) | ... who was asked |
| `history_attribute` | (K, A) | ... about which attribute |
| `history_answer` | (K, 2) | ... the answer (yes, no) |
| `answers` | (n, A, 2) | this round's answers per seat and attribute: yes count, no count |
| `question` | (2, n) | the question waiting for its answer: asker, target |
| `question_attribute` | (A,) | one-hot: its attribute |
| `cannot_ask` | (n,) | one-hot: the seat that just asked the asker (not to be asked back) |
| `accusation` | (2, n) | the vote in progress: accuser, accused |
| `votes_cast` | (n,) | who has voted in it (what they voted is secret until all are cast) |
| `my_vote` | (2,) | this seat's own vote in it (yes, no) |
| `last_vote` | (4, n) | the last finished vote of this round: accuser, accused, yes votes, no votes |
| `accusation_used` | (n,) | seats that used their accusation of this round |
| `clock` | (2,) | questions left, 1 once time is up |
| `scores` | (n,) | points so far |
| `round` | (2,) | this round's number (from 1), rounds in the game |
| `dealer` | (n,) | one-hot: this round's dealer |
| `played` | (L,) | locations of finished rounds |
| `decision` | (5,) | one-hot: ask, answer, interruption window, vote, time-up accusation |
| `to_act` | (n,) | one-hot: the seat asked |
| `location_belief` | (L,) | P(location) as this seat knows it |
| `spy_belief` | (n,) | P(seat is the spy) as this seat knows it |

KNOWLEDGE (`location_belief`, `spy_belief`) follows one documented model of
how players answer: a non-spy tells the truth with probability 0.9, the spy
says yes or no with probability 1/2 each. The spy's `location_belief` is
the posterior over the locations not yet played given the other seats'
answers this round (its own say nothing); a non-spy knows its location (a
one-hot). A non-spy's `spy_belief` is the posterior over the other seats
given which of their answers were true at its location: each true answer
multiplies a seat's odds by 0.5/0.9, each false one by 0.5/0.1. The spy's
is a one-hot on itself. When a round ends its spy and location are revealed
to all and both become one-hots until the next deal. Both are computed from
the events the seat saw, never from the hidden cards.

## Rewards
Each round's points, to each seat, at the end of that round (through the
step that ended it); the final step of the game pays the last round's points
and nothing more (the outcome's rewards are zero). Points per round, from
the rulebook: the spy gets 2 if nobody was convicted, 4 if a non-spy was
convicted, 4 if it named the location; otherwise (spy convicted, or a wrong
name) each non-spy gets 1, and the player who started the accusation that
convicted the spy gets 2 instead.

Final `infos[agent]` hold `result`, `winners` (the players with the most
points; all of them on a tie), `scores` (the totals), `spy`, `location` and
`points` (of the last round), `rounds` (per round: dealer, spy, location,
roles, result, points), `turns`, and the seat's own `role` (last round),
`score` and `won`.

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
  win). After a failed vote the window goes on with the next seat.
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
- RULING: at the end of a round all cards are revealed (the spy and the
  location become public), so every seat knows which locations were played.
- The game is `num_rounds` rounds; `winners` are the players with the most
  points at the end (RULING: a tie makes all of them winners).
- Roles are dealt and observed but have no effect on the rules (the
  rulebook's role-play is table talk, not modelled).
"""

from __future__ import annotations

from typing import Any

from hidden_role_envs.core.aec import HiddenRoleEnv
from hidden_role_envs.games.spyfall.definition import SpyfallDefinition
from hidden_role_envs.games.spyfall.locations import Location

__all__ = ["Location", "env", "raw_env"]


class raw_env(HiddenRoleEnv):
    """Spyfall behind the shared AEC adapter; the module docstring has the details."""

    definition = SpyfallDefinition()
    metadata = {"name": "spyfall_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        num_players: int = 5,
        render_mode: str | None = None,
        max_turns: int | None = None,
        illegal: str = "raise",
        reward: str = "points",
        num_rounds: int = 1,
        question_limit: int = 16,
        locations=None,
        attributes=None,
    ):
        super().__init__(
            num_players=num_players,
            render_mode=render_mode,
            max_turns=max_turns,
            illegal=illegal,
            reward=reward,
            num_rounds=num_rounds,
            question_limit=question_limit,
            locations=locations,
            attributes=attributes,
        )


def env(**kwargs: Any) -> raw_env:
    """The environment users take: the adapter itself, which already checks call order, actions and legality."""
    return raw_env(**kwargs)
