"""The toy game of `tests/games/toy` joins the registry for the tests, with the one line a new game needs."""

from hidden_role_envs.core.registry import register
from tests.games.toy import GAME as TOY

register(TOY)
