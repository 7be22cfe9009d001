"""The batched Secrets engine against the reference, move for move."""

import numpy as np
import pytest

from hidden_role_envs.games.secrets import GAME
from hidden_role_envs.games.secrets.cards import CHARACTERS, IDENTITIES, TOKENS_BY_PLAYERS
from hidden_role_envs.games.secrets.rules import FULL_DECK

parity = pytest.importorskip("tests.batched.parity")


def random_setup(n: int, rng: np.random.Generator) -> dict:
    tokens = [IDENTITIES[k] for k, c in enumerate(TOKENS_BY_PLAYERS[n]) for _ in range(c)]
    return {
        "tokens": [tokens[i] for i in rng.permutation(len(tokens))],
        "deck": [CHARACTERS[FULL_DECK[i]] for i in rng.permutation(len(FULL_DECK))],
        "bullets": [int(v) for v in rng.permutation([0, -1, -2, -3])],
        "first_player": int(rng.integers(n)),
    }


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_random_games_match_the_reference_at_every_step(n, parity_games):
    rng = np.random.default_rng(n)
    twins = parity.Twins(GAME, n, [random_setup(n, rng) for _ in range(parity_games(60))])
    assert twins.play(seed=n) > 20


@pytest.mark.parametrize("n, history_length", [(5, 3), (8, 32)])
def test_the_event_history_matches_the_reference_at_every_step(n, history_length, parity_games):
    """The `history` block too: every event each seat saw, in order, turned to its side (3 rows: the ring wraps)."""
    rng = np.random.default_rng(100 + n)
    twins = parity.Twins(GAME, n, [random_setup(n, rng) for _ in range(parity_games(40))],
                         {"history_length": history_length})
    assert twins.play(seed=n) > 20
