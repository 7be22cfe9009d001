"""The JAX scripted player against `SecretsScriptedPlayer`, decision for decision, in seeded games."""

from __future__ import annotations

from functools import cache

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import hidden_role_envs
from hidden_role_envs.games.secrets.actions import DECISIONS
from hidden_role_envs.games.secrets.batched_bots import _build, batched_scripted_player
from hidden_role_envs.games.secrets.bots import SecretsScriptedPlayer, _Position
from hidden_role_envs.games.secrets.config import SecretsConfig

GAMES = 40


@cache
def decisions(num_players: int, games: int = GAMES) -> dict[str, np.ndarray]:
    """Every decision of `games` seeded games with a scripted player in every seat: the observation, the mask,
    the decision kind and the reference's score of each action it considers (NaN: not considered)."""
    env = hidden_role_envs.make("secrets", num_players=num_players)
    config = env.unwrapped.config
    observations, masks, kinds, scores = [], [], [], []
    for game in range(games):
        env.reset(seed=1000 * num_players + game)
        players = {a: SecretsScriptedPlayer(config, seed=100 * game + i) for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            player = players[agent]
            legal, views = player.read(observation)  # the reference's scores, as `SecretsScriptedPlayer.__call__`
            kind = player.actions.meaning[int(legal[0])][0]
            position = _Position(views, player.num_players, player.end_size, player.params)
            row = np.full(len(observation["action_mask"]), np.nan)
            for action, value in player._score_actions(kind, [int(a) for a in legal], position):
                row[action] = value
            observations.append(np.asarray(observation["observation"], np.float32))
            masks.append(np.asarray(observation["action_mask"], bool))
            kinds.append(kind)
            scores.append(row)
            env.step(player(observation))
    return {"observation": np.stack(observations), "mask": np.stack(masks), "kind": np.array(kinds),
            "scores": np.stack(scores)}


@pytest.mark.parametrize("num_players", [4, 5, 8])
def test_the_twin_plays_an_action_the_scripted_player_rates_best(num_players):
    """At every decision of the games, in every kind of decision: the twin's action is one of the reference's best
    (within 1e-4), and its estimates of the actions are the reference's, up to float32 rounding."""
    played = decisions(num_players)
    count = len(played["kind"])
    assert count > 20 * GAMES
    assert set(played["kind"]) == set(range(len(DECISIONS)))  # every decision kind is checked
    decide, scores_of = _build(SecretsConfig(num_players))
    keys = jax.random.split(jax.random.PRNGKey(num_players), count)
    observations, masks = jnp.asarray(played["observation"]), jnp.asarray(played["mask"])
    actions = np.asarray(jax.jit(jax.vmap(decide))(observations, masks, keys))
    twin = np.asarray(jax.jit(jax.vmap(scores_of))(observations, masks))

    reference = played["scores"]
    considered = ~np.isnan(reference)
    np.testing.assert_array_equal(np.isfinite(twin), considered)  # the same actions, plain Offers only
    assert np.max(np.abs(twin[considered] - reference[considered])) < 1e-5
    chosen = reference[np.arange(count), actions]
    assert played["mask"][np.arange(count), actions].all()
    assert (chosen >= np.nanmax(reference, axis=1) - 1e-4).all()


def test_the_twin_under_vmap_decides_as_one_at_a_time_and_breaks_ties_at_random():
    played = decisions(5, games=8)
    count = len(played["kind"])
    decide = batched_scripted_player(SecretsConfig(5))
    keys = jax.random.split(jax.random.PRNGKey(7), count)
    batched = np.asarray(jax.jit(jax.vmap(decide))(played["observation"], played["mask"], keys))
    one = jax.jit(decide)
    single = [int(one(o, m, k)) for o, m, k in zip(played["observation"], played["mask"], keys)]
    np.testing.assert_array_equal(batched, single)
    assert played["mask"][np.arange(count), batched].all()

    # where the reference sees several equally good actions, the twin plays each of them for some keys, no other
    best = np.nanmax(played["scores"], axis=1, keepdims=True)
    tied = played["scores"] >= best - 1e-9
    several = np.flatnonzero(tied.sum(axis=1) > 1)
    assert len(several) >= 3
    many_keys = jax.random.split(jax.random.PRNGKey(8), 64)
    with_many_keys = jax.jit(jax.vmap(decide, in_axes=(None, None, 0)))
    for i in several:
        picks = np.asarray(with_many_keys(played["observation"][i], played["mask"][i], many_keys))
        assert set(np.flatnonzero(tied[i])) <= set(picks)
        assert (played["scores"][i, picks] >= best[i] - 1e-4).all()


def test_the_twins_scores_are_the_same_however_the_states_are_batched():
    """Unbatched, under one `vmap` and under two (its estimates take the batch as their last axis under `vmap`)."""
    played = decisions(5, games=4)
    observations, masks = played["observation"][:24], played["mask"][:24]
    scores_of = _build(SecretsConfig(5))[1]
    flat = np.asarray(jax.jit(jax.vmap(scores_of))(observations, masks))
    nested = np.asarray(jax.jit(jax.vmap(jax.vmap(scores_of)))(observations.reshape(4, 6, -1), masks.reshape(4, 6, -1)))
    one = jax.jit(scores_of)
    single = np.stack([np.asarray(one(o, m)) for o, m in zip(observations, masks)])
    for batched in (nested.reshape(flat.shape), single):
        np.testing.assert_array_equal(np.isfinite(batched), np.isfinite(flat))
        assert np.max(np.abs(np.where(np.isfinite(flat), batched - flat, 0.0))) < 1e-6


def test_the_twin_finishes_its_own_games_with_legal_actions():
    """In every seat, playing its own choices (at a table size the other tests leave out): every action is legal
    and every game ends by the rules."""
    num_players = 6
    env = hidden_role_envs.make("secrets", num_players=num_players)
    decide = jax.jit(batched_scripted_player(env.unwrapped.config))
    key = jax.random.PRNGKey(6)
    moves = 0
    for game in range(4):
        env.reset(seed=game)
        ended = False
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                ended = ended or (terminated and not truncated)
                env.step(None)
                continue
            key, sub = jax.random.split(key)
            action = int(decide(observation["observation"], observation["action_mask"], sub))
            assert observation["action_mask"][action], env.unwrapped.action_to_string(action)
            env.step(action)
            moves += 1
        assert ended
    assert moves > 4 * 4 * num_players
