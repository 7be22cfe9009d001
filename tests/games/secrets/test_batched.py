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
