"""`random_legal_actions`: one uniform draw per mask picks a legal action."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hidden_role_envs.core.batched import random_legal_actions  # noqa: E402


def test_random_legal_actions_are_uniform_over_the_legal_actions():
    """The benchmark's random play and the vector env's random opponents: never an illegal action, each legal one
    as often as the others."""
    masks = np.zeros((4, 7), bool)
    masks[0, [1, 4, 6]] = True
    masks[1, 3] = True
    masks[2] = True
    masks[3, [0, 6]] = True
    draws = 20_000
    keys = jax.random.split(jax.random.PRNGKey(0), draws)
    actions = np.asarray(jax.vmap(lambda key: random_legal_actions(key, masks))(keys))  # (draws, games)
    for game, mask in enumerate(masks):
        counts = np.bincount(actions[:, game], minlength=7)
        assert not counts[~mask].any(), f"game {game} drew an illegal action"
        share = counts[mask] / draws
        assert np.all(np.abs(share - 1 / mask.sum()) < 0.015), f"game {game}: {share}"
    one_game = np.asarray(jax.vmap(lambda key: random_legal_actions(key, masks[0]))(keys[:300]))  # one mask, (actions,)
    assert set(one_game) == {1, 4, 6}


def test_a_mask_of_many_words_and_an_empty_mask():
    """Past 32 actions the mask spans several words, some of them with no legal action: every legal action still
    comes as often as the others; a mask with none gives 0, as documented."""
    masks = np.zeros((3, 129), bool)
    masks[0, [0, 31, 32, 63, 96, 100, 128]] = True  # the first, last and middle words; none in 64..95
    masks[1] = True
    masks[1, 33:90] = False
    draws = 20_000
    keys = jax.random.split(jax.random.PRNGKey(1), draws)
    actions = np.asarray(jax.vmap(lambda key: random_legal_actions(key, masks))(keys))
    for game, mask in enumerate(masks[:2]):
        counts = np.bincount(actions[:, game], minlength=129)
        assert not counts[~mask].any(), f"game {game} drew an illegal action"
        share = counts[mask] / draws
        assert np.all(np.abs(share - 1 / mask.sum()) < 0.3 / mask.sum()), f"game {game}: {share}"
    assert not actions[:, 2].any()
