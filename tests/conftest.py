"""The toy game of `tests/games/toy` joins the registry for the tests, with the one line a new game needs.

`--parity-games N` sets how many random games per player count the batched engines' parity tests play
(each test has its own default, sized for CI; the figures in the docs come from `--parity-games 2000`).
"""

import pytest

from hidden_role_envs.core.registry import register
from tests.games.toy import GAME as TOY

register(TOY)


def pytest_addoption(parser):
    parser.addoption("--parity-games", type=int, default=None, metavar="N",
                     help="random games per player count in the batched engines' parity tests")


@pytest.fixture
def parity_games(request):
    """`games_for(default)`: the number of parity games a test plays (`--parity-games` wins)."""
    chosen = request.config.getoption("--parity-games")
    return lambda default: chosen or default
