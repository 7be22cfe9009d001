"""Colours (2-5 players): a toy game that proves a game is its folder.

It exists for the tests: it goes through the conformance suite, the
benchmark suite's quick mode and the single-seat env with no code outside
this folder but its registration line (`tests/conftest.py`).

Each seat is dealt a hidden colour, red or blue, and one more lies in the
centre. On a turn the active player passes, scores (+1 now), peeks at
another seat's colour (only the peeker sees it) or knocks out the next
player still in (-1 to them; their episode ends). The last player in gets
+1.

## Arguments
{arguments}

Default `max_turns`: 50.

## Observation
{observation}
"""

from hidden_role_envs.core.definition import GameDefinition, Players
from tests.games.toy import game

# one module holds the whole game, not the folder of every package game: it gives every field itself (not
# `GameDefinition.from_package`)
GAME = GameDefinition(
    package=__name__,
    name="toy",
    title="Colours",
    version=0,
    players=Players(2, 5, default=3, typical=3),
    arguments=(),
    reward_modes={"win": "+1 to the last player in, -1 to each player knocked out, +1 per score"},
    configure=game.ToyConfig,
    actions=lambda config: game.ToyActions.of(config.num_players),
    new_game=game.ToyGame,
    new_observer=game.ToyObserver,
    schema=game.SCHEMA,
    events=game.EVENTS,
    words=game.words,
    describe_table=game.describe_table,
    scripted_player=game.ToyPlayer,
    default_max_turns=lambda config: 50,
    behaviour=game.behaviour,
    doc=__doc__,
)
