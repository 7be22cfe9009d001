"""The scripted prior (`hidden-roles train secrets --scripted-prior`): the policy's logits read what the scripted
player thinks of each action, in training and wherever the saved policy plays."""

import numpy as np
import pytest

pytest.importorskip("jax", reason="the self-play trainer needs JAX (the train extra)")

import jax
import jax.numpy as jnp

import hidden_role_envs
from hidden_role_envs import batched
from hidden_role_envs.policies import make_policy
from hidden_role_envs.training.selfplay import network, ppo
from hidden_role_envs.training.selfplay.scripted import ScriptedPrior, twin_of


def _best_of_python_player(player, observation: dict) -> set[int]:
    """The actions the Python scripted player rates best (within float32's rounding of its twin)."""
    from hidden_role_envs.games.secrets.bots import _Position

    legal, views = player.read(observation)
    kind = player.actions.meaning[int(legal[0])][0]
    position = _Position(views, player.num_players, player.end_size, player.params)
    rated = dict(player._score_actions(kind, [int(a) for a in legal], position))
    return {action for action, score in rated.items() if score >= max(rated.values()) - 1e-4}


def _arch(env, prior: bool) -> network.Architecture:
    return network.Architecture("secrets", env.num_players, {}, env.layout.size, env.num_actions, (16,),
                                scripted_prior=prior)


def test_the_features_mark_the_best_actions_and_place_the_others_below_by_their_share_of_the_spread():
    env = batched.make("secrets", num_players=5)
    scores = jnp.asarray([[0.50, 0.40, -jnp.inf, 0.30, 0.50]])
    top, below = np.moveaxis(np.asarray(ScriptedPrior(env.definition, env.config).features_of(scores))[0], -1, 0)
    assert top.tolist() == [1, 0, 0, 0, 1]
    assert np.allclose(below, [0.0, -0.5, -1.0, -1.0, 0.0])  # not considered: as low as the worst


def test_on_played_positions_the_twins_choice_is_always_among_the_marked_best():
    env = batched.make("secrets", num_players=5)
    features_of = jax.jit(ScriptedPrior(env.definition, env.config).features)
    decide, step = jax.jit(jax.vmap(twin_of(env))), jax.jit(jax.vmap(env.step_or_deal))
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 64))
    marked = 0
    for move in range(30):
        keys = jax.random.split(jax.random.PRNGKey(move), 64)
        features = np.asarray(features_of(state.observation, state.legal_action_mask))
        chosen = np.asarray(decide(state.observation, state.legal_action_mask, keys))
        top = features[..., 0] > 0
        assert top[np.arange(64), chosen].all()
        assert not (top & ~np.asarray(state.legal_action_mask)).any()  # only legal actions are marked
        marked += top.sum()
        state = step(state, jnp.asarray(chosen), keys)
    assert marked > 64 * 30  # some positions have ties: the twin draws among them


def test_the_prior_adds_its_gains_times_the_features_to_the_logits_starts_as_a_no_op_and_is_saved(tmp_path):
    env = batched.make("secrets", num_players=5)
    plain, with_prior = _arch(env, False), _arch(env, True)
    params = ppo.new_params(jax.random.PRNGKey(0), env, with_prior)
    assert set(params) - set(ppo.new_params(jax.random.PRNGKey(0), env, plain)) == {"prior"}
    rng = np.random.default_rng(0)
    observation = jnp.asarray(rng.uniform(size=(3, env.layout.size)), jnp.float32)
    mask = jnp.ones((3, env.num_actions), bool)
    features = jnp.asarray(rng.uniform(-1, 1, size=(3, env.num_actions, network.PRIOR_FEATURES)), jnp.float32)
    without, _ = network.apply(params, observation, mask)
    assert np.array_equal(network.apply(params, observation, mask, prior=features)[0], without)  # gains start at 0
    params["prior"] = jnp.asarray([0.3, -0.2], jnp.float32)
    moved, _ = network.apply(params, observation, mask, prior=features)
    expected = np.asarray(without) + network.LINK_STEP * np.asarray(features) @ np.array([0.3, -0.2])
    assert np.allclose(moved, expected, atol=1e-5)
    network.save(tmp_path / "model.npz", params, with_prior)
    loaded_params, loaded, _ = network.load(tmp_path / "model.npz")
    assert loaded == with_prior
    assert np.allclose(network.apply(loaded_params, observation, mask, prior=features)[0], moved)


def _follower(env) -> dict:
    """A policy that plays the scripted player's choice: a large gain on the first feature, nothing else."""
    params = ppo.new_params(jax.random.PRNGKey(0), env, _arch(env, True))
    params["policy"] = jax.tree_util.tree_map(jnp.zeros_like, params["policy"])
    params["prior"] = jnp.asarray([5.0, 0.0], jnp.float32)
    return params


def test_in_the_rollout_the_learner_reads_the_prior_and_the_scripted_seats_play_from_the_same_scores():
    env = batched.make("secrets", num_players=5)
    arch = _arch(env, True)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=8, steps=24, league_share=0.0, scripted_share=0.5), seed=3)
    run = trainer.start(jax.random.PRNGKey(0), _follower(env))  # the learner follows the scripted player too
    _, samples, _ = jax.jit(trainer._rollout)(run["params"], run["opponent"], run["carry"])
    samples = jax.tree_util.tree_map(np.asarray, samples)
    recomputed = jax.jit(ScriptedPrior(env.definition, env.config).features)(
        samples.observation.reshape(-1, env.layout.size), samples.mask.reshape(-1, env.num_actions))
    assert np.allclose(samples.prior.reshape(recomputed.shape), recomputed, atol=1e-5)  # stored for the update
    player = env.definition.scripted_player(env.config, 0)
    scripted_games = np.zeros(samples.learner.shape, bool)
    scripted_games[:, :4] = True
    for step, game in zip(*np.nonzero(scripted_games)):
        observation = {"observation": samples.observation[step, game], "action_mask": samples.mask[step, game]}
        assert samples.action[step, game] in _best_of_python_player(player, observation)
    assert samples.learner[:, :4].sum() > 10 and (~samples.learner[:, :4]).sum() > 40


def test_a_saved_policy_with_the_prior_reads_it_on_env(tmp_path):
    env = batched.make("secrets", num_players=5)
    network.save(tmp_path / "model.npz", _follower(env), _arch(env, True))
    table = hidden_role_envs.make("secrets", num_players=5)
    policy = make_policy(str(tmp_path / "model.npz"), table)
    player = table.unwrapped.definition.scripted_player(env.config, 0)
    table.reset(seed=4)
    decisions = 0
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        action = None if terminated or truncated else policy(observation)
        if action is not None:
            assert action in _best_of_python_player(player, observation)
            decisions += 1
        table.step(action)
    assert decisions > 20


def test_the_prior_is_asked_for_and_refused_for_a_game_whose_scripted_player_gives_no_scores():
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from

    def settings(*argv):
        return settings_from(build_parser("train").parse_args(list(argv)))

    assert not settings("secrets").scripted_prior and settings("secrets", "--scripted-prior").scripted_prior
    with pytest.raises(UsageError, match="hoax's scripted player gives no scores to read; games whose does: secrets"):
        settings("hoax", "--scripted-prior")
    assert settings("secrets", "--scripted-prior", "--imitation-steps", "0").scripted_prior  # PPO learns the gains


def test_without_a_warm_start_ppo_learns_to_follow_the_prior_from_gains_of_zero():
    env = batched.make("secrets", num_players=4)
    arch = _arch(env, True)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=32, steps=16, epochs=2, learning_rate=3e-3,
                                                  league_share=0.0, scripted_share=1.0), seed=0)
    params = ppo.new_params(jax.random.PRNGKey(1), env, arch)
    assert not np.asarray(params["prior"]).any()
    run = trainer.start(jax.random.PRNGKey(0), params)
    for _ in range(6):
        run, _ = trainer.iteration(run)
    among_best = float(run["params"]["prior"][0])
    assert among_best > 0.03  # the scripted player's best actions became likelier than the others
