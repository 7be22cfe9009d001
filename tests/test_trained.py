"""The policies shipped with the package: one per game at its typical table, each loads for its env, plays legal
moves only and plays better than a random player in its seat (a seeded check, not a figure)."""

import pytest

pytest.importorskip("jax", reason="trained policies need the jax extra")

from hidden_role_envs.core import registry
from hidden_role_envs.policies import TRAINED_FOLDER, make_policy, trained_path
from hidden_role_envs.training.evaluate import evaluate

GAMES = sorted(name for name in registry.GAMES if name != "toy")


def test_every_shipped_file_is_a_game_at_its_typical_table_and_they_stay_small():
    shipped = sorted(p.name for p in TRAINED_FOLDER.glob("*.npz"))
    assert shipped == sorted(f"{g}-{registry.game(g).typical_players}p.npz" for g in GAMES)
    assert sum(p.stat().st_size for p in TRAINED_FOLDER.glob("*.npz")) < 8 * 2**20


@pytest.mark.parametrize("game", GAMES)
def test_the_trained_policy_plays_only_legal_moves_and_beats_a_random_player_in_its_seat(game):
    players = registry.game(game).typical_players
    env = registry.make(game, num_players=players)
    assert trained_path(env).is_file()
    make_policy("trained", env)  # loads, and fits this env
    rows = evaluate(game, players, ["trained", "random"], games=200, seed=0)  # its envs raise on an illegal move
    mix, baseline = rows[0], rows[2]
    assert (mix.policy, baseline.seats_of) == ("trained", "trained")
    assert mix.win_rate > baseline.win_rate


def test_a_table_size_without_a_shipped_policy_is_refused_naming_the_shipped_ones():
    env = registry.make("hoax", num_players=6)
    with pytest.raises(ValueError, match="no trained policy ships for hoax with 6 players; shipped: .*hoax-4p"):
        make_policy("trained", env)
