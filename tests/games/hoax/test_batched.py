"""The batched Hoax engine against the reference, move for move."""

import numpy as np
import pytest

from hidden_role_envs.games.hoax import GAME
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS

parity = pytest.importorskip("tests.batched.parity")

DECKS = 64  # suspicion decks per game: more than the investigations of any game played here


def random_setup(n: int, rng: np.random.Generator) -> dict:
    return {
        "characters": [int(c) for c in rng.permutation(NUM_CHARACTERS)[:n]],
        "first_player": int(rng.integers(n)),
        "suspicion_decks": [[int(c) for c in rng.permutation(NUM_CHARACTERS)] for _ in range(DECKS)],
    }


def check_decks_lasted(twins) -> None:
    """Every investigation drew a deck of the setup (past them the twins would draw different cards)."""
    assert all(ref.unwrapped.engine.suspicion_decks for ref in twins.refs)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_match_the_reference_at_every_step(n, parity_games):
    rng = np.random.default_rng(n)
    twins = parity.Twins(GAME, n, [random_setup(n, rng) for _ in range(parity_games(100))])
    assert twins.play(seed=n) > 20
    check_decks_lasted(twins)
