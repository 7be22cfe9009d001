"""`random_legal_actions`: one uniform draw per mask picks a legal action."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hidden_role_envs.core.batched import random_legal_actions  # noqa: E402

DRAWS = 20_000


def drawn_shares(seed: int, masks: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """`DRAWS` draws of every mask: the actions (draws, masks), and each mask's share of each of its legal actions,
    having checked that no illegal one came where there is a legal one."""
    keys = jax.random.split(jax.random.PRNGKey(seed), DRAWS)
    actions = np.asarray(jax.vmap(lambda key: random_legal_actions(key, masks))(keys))
    shares = []
    for game, mask in enumerate(masks):
        counts = np.bincount(actions[:, game], minlength=mask.size)
        assert not (mask.any() and counts[~mask].any()), f"game {game} drew an illegal action"
        shares.append(counts[mask] / DRAWS)
    return actions, shares


def test_random_legal_actions_are_uniform_over_the_legal_actions():
    """The benchmark's random play and the vector env's random opponents: never an illegal action, each legal one
    as often as the others."""
    masks = np.zeros((4, 7), bool)
    masks[0, [1, 4, 6]] = True
    masks[1, 3] = True
    masks[2] = True
    masks[3, [0, 6]] = True
    _, shares = drawn_shares(0, masks)
    for game, (mask, share) in enumerate(zip(masks, shares)):
        assert np.all(np.abs(share - 1 / mask.sum()) < 0.015), f"game {game}: {share}"
    keys = jax.random.split(jax.random.PRNGKey(0), 300)
    one_game = np.asarray(jax.vmap(lambda key: random_legal_actions(key, masks[0]))(keys))  # one mask, (actions,)
    assert set(one_game) == {1, 4, 6}


def test_a_mask_of_many_words_and_an_empty_mask():
    """Past 32 actions the mask spans several words, some of them with no legal action: every legal action still
    comes as often as the others; a mask with none gives 0, as documented."""
    masks = np.zeros((3, 129), bool)
    masks[0, [0, 31, 32, 63, 96, 100, 128]] = True  # the first, last and middle words; none in 64..95
    masks[1] = True
    masks[1, 33:90] = False
    actions, shares = drawn_shares(1, masks)
    for game, (mask, share) in enumerate(zip(masks[:2], shares)):
        assert np.all(np.abs(share - 1 / mask.sum()) < 0.3 / mask.sum()), f"game {game}: {share}"
    assert not actions[:, 2].any()
