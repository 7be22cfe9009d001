"""The batched Mascarade engine against the reference, move for move."""

import numpy as np
import pytest

from hidden_role_envs.games.mascarade import GAME
from hidden_role_envs.games.mascarade.characters import CHARACTERS
from hidden_role_envs.games.mascarade.config import configure

parity = pytest.importorskip("tests.batched.parity")


def random_setup(n: int, rng: np.random.Generator, **arguments) -> dict:
    characters = configure(n, **arguments).characters
    return {"cards": [CHARACTERS[characters[i]] for i in rng.permutation(len(characters))],
            "first_player": int(rng.integers(n))}


@pytest.mark.parametrize("n", range(2, 14))
def test_random_games_match_the_reference_at_every_step(n, parity_games):
    rng = np.random.default_rng(n)
    twins = parity.Twins(GAME, n, [random_setup(n, rng) for _ in range(parity_games(20))])
    assert twins.play(seed=n) > 20
