"""The toy game of `tests/games/toy` joins the registry for the tests, with the one line a new game needs.

`--parity-games N` sets how many random games per player count the batched engines' parity tests play
(each test has its own default, sized for CI; the figures in the docs come from `--parity-games 2000`).

The suite's time is mostly XLA compiling, and tests compile many of the same programs (an engine's step at one
table and batch size, the trainer's pieces): JAX's persistent compilation cache in `.pytest_cache/jax` lets later
tests, the other xdist worker and later runs reuse them (unless `JAX_COMPILATION_CACHE_DIR` names another place).
"""

from pathlib import Path

import pytest

from hidden_role_envs.core.registry import register
from tests.games.toy import GAME as TOY

register(TOY)


def _share_compilations() -> None:
    try:
        import jax
    except ImportError:  # the tests that need JAX skip themselves
        return
    if jax.config.jax_compilation_cache_dir is None:
        jax.config.update("jax_compilation_cache_dir", str(Path(__file__).parents[1] / ".pytest_cache" / "jax"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.2)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    jax.config.update("jax_compilation_cache_max_size", 2**30)  # bytes, the least recently used dropped first


_share_compilations()


def pytest_addoption(parser):
    parser.addoption("--parity-games", type=int, default=None, metavar="N",
                     help="random games per player count in the batched engines' parity tests")


@pytest.fixture
def parity_games(request):
    """`games_for(default)`: the number of parity games a test plays (`--parity-games` wins)."""
    chosen = request.config.getoption("--parity-games")
    return lambda default: chosen or default
