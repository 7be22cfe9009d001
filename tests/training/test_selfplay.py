"""The default trainer (self-play PPO on the batched engine): a short run leaves its files, and its policy plays."""

import csv
import os

import numpy as np
import pytest

pytest.importorskip("jax", reason="the self-play trainer needs JAX (the train extra)")

import hidden_role_envs  # noqa: E402
from hidden_role_envs.policies import make_policy  # noqa: E402
from hidden_role_envs.training import train  # noqa: E402


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay")
    code = train.main(
        ["secrets", "--players", "4", "--timesteps", "512", "--games", "16", "--steps", "8", "--epochs", "1",
         "--hidden", "16", "--imitation-steps", "200", "--imitation-epochs", "1", "--eval-every", "256",
         "--eval-games", "4", "--final-games", "6", "--no-progress", "--out", str(out)]
    )
    assert code == 0
    return out


def test_a_run_leaves_the_policy_the_curve_and_the_table(run):
    for name in ("model.npz", "learning_curve.png", "curve.csv", "evaluation.csv", "imitation.csv"):
        assert (run / name).stat().st_size > 0, name
    checkpoints = sorted(os.listdir(run / "checkpoints"), key=lambda name: int(name[5:-4]))
    assert checkpoints[0] == "step_0.npz" and len(checkpoints) >= 3  # before training, then every --eval-every
    assert list((run / "tensorboard").rglob("events.out.tfevents.*"))
    with open(run / "curve.csv") as f:
        curve = list(csv.DictReader(f))
    assert [r["opponents"] for r in curve] == ["random", "scripted"] * len(checkpoints)
    assert [int(r["timesteps"]) for r in curve[::2]] == [int(name[5:-4]) for name in checkpoints]
    with open(run / "evaluation.csv") as f:
        final = list(csv.DictReader(f))
    assert [(r["opponents"], r["games"]) for r in final] == [("random", "6"), ("scripted", "6")]
    assert int(final[0]["timesteps"]) >= 512  # it trained on at least the decisions asked for


def test_the_saved_policy_reloads_and_plays_legal_games(run):
    env = hidden_role_envs.make("secrets", num_players=4)
    policy = make_policy(str(run / "model.npz"), env)
    env.reset(seed=0)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else policy(observation)
        if action is not None:
            assert observation["action_mask"][action]
        env.step(action)
    assert not env.agents


def test_a_policy_for_another_table_is_refused(run):
    with pytest.raises(ValueError, match="model.npz"):
        make_policy(str(run / "model.npz"), hidden_role_envs.make("secrets", num_players=5))


def test_a_game_without_a_batched_engine_is_refused_in_one_line(capsys):
    assert train.main(["toy", "--no-progress"]) == 2  # the test suite's toy game has none
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["train: error: toy has no batched engine yet: train it with --backend sb3"]


def test_bad_layer_sizes_are_refused_in_one_line(capsys):
    assert train.main(["secrets", "--hidden", "256,0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "expected layer sizes such as 256,256, got '256,0'" in err[0]


def test_the_league_takes_the_imitation_then_past_versions_and_a_best_response_the_imitation_alone():
    from hidden_role_envs.training.selfplay.trainer import opponents

    clone, past, current = {"who": "clone"}, [{"who": "past 1"}, {"who": "past 2"}], {"who": "current"}
    assert opponents(clone, past, current, best_response=False) == [clone, *past]
    assert opponents(clone, [], current, best_response=False) == [clone, current]
    assert opponents(None, [], current, best_response=False) == [current]
    assert opponents(clone, past, current, best_response=True) == [clone]


def test_a_best_response_plays_every_game_against_the_imitation_and_needs_one(tmp_path):
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from

    args = build_parser("train").parse_args(["hoax", "--best-response", "--out", str(tmp_path)])
    settings = settings_from(args)
    assert settings.best_response and settings.league_share == 1.0
    args = build_parser("train").parse_args(["hoax", "--best-response", "--imitation-steps", "0"])
    with pytest.raises(UsageError, match="--imitation-steps must be > 0"):
        settings_from(args)


def _scripted_rollout(processes: int, steps: int = 12, game: str = "hoax", num_players: int = 4):
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo

    env = batched.make(game, num_players=num_players)
    arch = network.Architecture(game, num_players, {}, env.layout.size, env.num_actions, (16,), 0)
    settings = ppo.Settings(games=8, steps=steps, league_share=0.0, scripted_share=0.5)
    trainer = ppo.Trainer(env, arch, settings, seed=3, processes=processes)
    try:
        helpers = len(trainer.scripted._helpers)
        run = trainer.start(jax.random.PRNGKey(0), ppo.new_params(jax.random.PRNGKey(1), env, arch))
        _, samples, _ = jax.jit(trainer._rollout)(run["params"], run["opponent"], run["carry"])
    finally:
        trainer.close()
    return env, jax.tree_util.tree_map(np.asarray, samples), run["carry"].learner_seats, helpers


def test_in_scripted_games_the_learner_has_one_seat_and_the_scripted_player_every_other():
    env, samples, learner_seats, _ = _scripted_rollout(processes=1)
    learner_seats = np.asarray(learner_seats)
    assert (learner_seats[:4].sum(axis=1) == 1).all()  # the first half of the batch: scripted games
    assert learner_seats[4:].all()  # the rest: self-play (league_share 0)
    scripted = ~samples.learner[:, :4]
    assert scripted.any() and samples.learner[:, :4].any()
    replay = env.definition.scripted_player(env.config, 3)  # the same seed, asked in the same order
    for step, game in zip(*np.nonzero(scripted)):
        observation = {"observation": samples.observation[step, game], "action_mask": samples.mask[step, game]}
        assert samples.action[step, game] == replay(observation)


def test_secrets_scripted_seats_are_its_jax_twin_compiled_in_the_rollout_deciding_as_the_scripted_player():
    from hidden_role_envs.games.secrets.bots import _Position

    env, samples, _, helpers = _scripted_rollout(processes=2, steps=24, game="secrets", num_players=5)
    assert helpers == 0  # compiled in: no helper process to share the decisions with
    assert env.definition.batched_scripted == "hidden_role_envs.games.secrets.batched_bots:batched_scripted_player"
    scripted = ~samples.learner[:, :4]
    assert scripted.sum() > 40
    player = env.definition.scripted_player(env.config, 0)
    for step, game in zip(*np.nonzero(scripted)):
        legal, views = player.read({"observation": samples.observation[step, game],
                                    "action_mask": samples.mask[step, game]})
        kind = player.actions.meaning[int(legal[0])][0]
        position = _Position(views, player.num_players, player.end_size, player.params)
        rated = dict(player._score_actions(kind, [int(a) for a in legal], position))
        assert rated[int(samples.action[step, game])] >= max(rated.values()) - 1e-4  # one of the best it sees


def test_a_twin_records_the_warm_starts_decisions_on_the_batched_engine_from_whole_games_only():
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.games.secrets.bots import _Position
    from hidden_role_envs.training.selfplay import imitation as warm
    from hidden_role_envs.training.selfplay.scripted import twin_of

    env = batched.make("secrets", num_players=5)
    recorded = []
    demos = warm.record(env, twin_of(env), 1500, jax.random.PRNGKey(0), games=32, moves=96,
                        on_recorded=recorded.append)
    assert sum(recorded) == len(demos.actions) >= 1500 and demos.games > 0
    assert demos.masks[np.arange(len(demos.actions)), demos.actions].all()
    # a game's end pays each seat +1 or -1 (Secrets' "win"): a decision of a game cut off would have been paid 0
    assert set(np.unique(demos.returns)) == {-1.0, 1.0}
    player = env.definition.scripted_player(env.config, 0)
    for row in range(0, len(demos.actions), 15):
        legal, views = player.read({"observation": demos.observations[row], "action_mask": demos.masks[row]})
        kind = player.actions.meaning[int(legal[0])][0]
        rated = dict(player._score_actions(kind, [int(a) for a in legal],
                                           _Position(views, player.num_players, player.end_size, player.params)))
        assert rated[int(demos.actions[row])] >= max(rated.values()) - 1e-4  # the scripted player's choice


def test_helper_processes_share_the_scripted_decisions_and_play_legal_moves():
    _, samples, _, helpers = _scripted_rollout(processes=2)
    assert helpers == 1
    scripted = ~samples.learner[:, :4]
    actions = samples.action[:, :4][scripted]
    assert samples.mask[:, :4][scripted][np.arange(len(actions)), actions].all()


def test_the_scripted_share_reaches_the_trainer_and_must_be_a_share():
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from

    assert settings_from(build_parser("train").parse_args(["hoax", "--scripted-share", "0.25"])).scripted_share == 0.25
    assert settings_from(build_parser("train").parse_args(["hoax"])).scripted_share == 0.0
    with pytest.raises(UsageError, match="expected a share from 0 to 1, got '1.5'"):
        build_parser("train").parse_args(["hoax", "--scripted-share", "1.5"])


def test_a_games_training_recipe_stands_in_for_the_defaults_and_the_command_line_wins():
    from hidden_role_envs.training.selfplay.cli import parse

    args, used = parse(["hoax", "--games", "64", "--scripted-share", "0"], "train")
    assert (args.players, args.learning_rate, args.random_share) == (4, 3e-4, 0.25)  # Hoax's recipe
    assert (args.games, args.scripted_share) == (64, 0.0)  # given, even where it equals the default
    assert "games" not in used and "scripted_share" not in used and used["players"] == 4
    args, used = parse(["secrets", "--timesteps", "1000"], "train")  # Secrets' recipe, the decisions given
    assert (args.imitation_steps, args.scripted_share, args.timesteps) == (0, 0.75, 1000)  # no warm start
    assert "timesteps" not in used and used["imitation_steps"] == 0
    assert args.scripted_prior and not parse(["secrets", "--no-scripted-prior"], "train")[0].scripted_prior
    args, used = parse(["secrets", "--no-recipe"], "train")  # the trainer's defaults
    assert (args.games, args.scripted_share, args.imitation_steps, used) == (512, 0.0, 60_000, {})
    args, used = parse(["toy"], "train")  # no recipe (the toy game of tests/games/toy): the defaults
    assert (args.games, args.scripted_share, args.imitation_steps, used) == (512, 0.0, 60_000, {})


def test_every_recipe_names_options_of_the_trainer_with_the_values_they_parse_to():
    from hidden_role_envs.core import registry
    from hidden_role_envs.training.selfplay.cli import build_parser, recipe_text, settings_from

    parser = build_parser("train")
    options = {action.dest for action in parser._actions}
    recipes = {name: game.training_recipe for name, game in registry.GAMES.items() if game.training_recipe}
    assert {"secrets", "hoax", "mascarade", "spyfall"} <= recipes.keys()
    for name, recipe in recipes.items():
        assert recipe.keys() <= options, f"{name}: no such option {sorted(recipe.keys() - options)}"
        args = parser.parse_args([name, *recipe_text(recipe).split()])  # as --help and the run print it
        assert {key: getattr(args, key) for key in recipe} == dict(recipe)  # what typing it in gives
        settings_from(args)  # and the trainer accepts it


def test_in_random_games_the_other_seats_draw_among_legal_moves_where_league_games_follow_the_opponent():
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo

    env = batched.make("hoax", num_players=4)
    arch = network.Architecture("hoax", 4, {}, env.layout.size, env.num_actions, (16,), 0)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=8, steps=40, league_share=1.0, random_share=0.5))
    params = ppo.new_params(jax.random.PRNGKey(1), env, arch)
    # an opponent that always plays its highest-numbered legal action
    opponent = {**params, "policy": {**params["policy"], "b": 1e3 * np.arange(env.num_actions, dtype=np.float32)}}
    run = trainer.start(jax.random.PRNGKey(0), params)
    _, samples, _ = jax.jit(trainer._rollout)(params, opponent, run["carry"])
    samples = jax.tree_util.tree_map(np.asarray, samples)
    assert (np.asarray(run["carry"].learner_seats).sum(axis=1) == 1).all()  # one learner seat in every game
    highest = env.num_actions - 1 - np.argmax(samples.mask[..., ::-1], axis=-1)
    others = ~samples.learner & (samples.mask.sum(axis=-1) > 1)  # opponents' moves with a choice to make
    uniform, league = others[:, :4], others[:, 4:]  # random games come first in the batch (no scripted ones here)
    assert league.any() and (samples.action[:, 4:][league] == highest[:, 4:][league]).all()
    chosen = samples.action[:, :4][uniform]
    assert samples.mask[:, :4][uniform][np.arange(len(chosen)), chosen].all()
    assert (chosen != highest[:, :4][uniform]).mean() > 0.3


def test_random_then_league_games_come_first_in_the_batch_with_one_learner_seat_and_self_play_games_last():
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo

    env = batched.make("hoax", num_players=4)
    arch = network.Architecture("hoax", 4, {}, env.layout.size, env.num_actions, (16,), 0)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=8, random_share=0.25, league_share=0.5))
    assert trainer.league_rows == slice(2, 5)  # half of the six games that are not random
    seats = np.asarray(trainer.start(jax.random.PRNGKey(0), ppo.new_params(jax.random.PRNGKey(1), env, arch))
                       ["carry"].learner_seats)
    assert (seats[:5].sum(axis=1) == 1).all() and seats[5:].all()


def test_scripted_and_random_shares_must_leave_room_for_each_other():
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay import ppo
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from

    args = build_parser("train").parse_args(["hoax", "--scripted-share", "0.5", "--random-share", "0.25"])
    assert settings_from(args).random_share == 0.25
    with pytest.raises(UsageError, match=r"add up to at most 1, got 0.75 \+ 0.5"):
        settings_from(build_parser("train").parse_args(["hoax", "--scripted-share", "0.75", "--random-share", "0.5"]))
    with pytest.raises(ValueError, match=r"add up to at most 1, got 0.75 \+ 0.5"):
        ppo.Settings(scripted_share=0.75, random_share=0.5)


def test_a_scripted_game_the_learner_is_out_of_is_dealt_again_at_once():
    _, samples, _, _ = _scripted_rollout(processes=1, steps=150)
    endings = 0
    for game in range(4):  # the scripted games
        start = 0
        for end in np.flatnonzero(samples.done[:, game]):
            seats = set(samples.actor[start:end + 1, game][samples.learner[start:end + 1, game]])
            assert len(seats) == 1  # one learner seat per game
            # the game ends where the learner is paid (put out, or the game over): it never sits out the rest
            assert samples.rewards[end, game, seats.pop()] != 0
            endings += 1
            start = end + 1
    assert endings >= 4


def test_the_role_head_learns_the_hidden_roles_and_is_saved_with_the_policy(tmp_path):
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo

    env = batched.make("spyfall", num_players=4)
    arch = network.Architecture("spyfall", 4, {}, env.layout.size, env.num_actions, (32,), 0, env.game.critic_size)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=16, steps=16, role_weight=1.0, learning_rate=3e-3))
    run = trainer.start(jax.random.PRNGKey(0), ppo.new_params(jax.random.PRNGKey(1), env, arch))
    losses = []
    for _ in range(12):
        run, metrics = trainer.iteration(run)
        losses.append(float(metrics["role_loss"]))
    assert losses[-1] < 0.5 * losses[0], losses  # from about log 2 a guess: it learns what the roles look like
    network.save(tmp_path / "model.npz", run["params"], arch)
    params, loaded, _ = network.load(tmp_path / "model.npz")
    assert loaded == arch
    assert np.allclose(params["roles"]["w"], run["params"]["roles"]["w"])


def test_the_role_head_is_off_unless_asked_for_and_takes_a_weight():
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from

    assert settings_from(build_parser("train").parse_args(["hoax"])).role_weight == 0.0
    assert settings_from(build_parser("train").parse_args(["hoax", "--role-head", "0.5"])).role_weight == 0.5
    with pytest.raises(UsageError, match="expected a non-negative number, got '-1'"):
        build_parser("train").parse_args(["hoax", "--role-head", "-1"])


def test_the_entropy_weight_reaches_ppo_and_cannot_be_negative():
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from
    from hidden_role_envs.training.selfplay.trainer import Run

    settings = settings_from(build_parser("train").parse_args(["hoax", "--entropy", "0.03", "--out", "unused"]))
    assert settings.entropy == 0.03
    assert Run.ppo_settings(settings).entropy == 0.03
    with pytest.raises(UsageError, match="expected a non-negative number, got '-1'"):
        build_parser("train").parse_args(["hoax", "--entropy", "-1"])


def test_the_update_reads_the_learner_decisions_and_a_rollout_with_more_than_it_reads_widens_it():
    import jax

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo

    env = batched.make("hoax", num_players=4)
    arch = network.Architecture("hoax", 4, {}, env.layout.size, env.num_actions, (16,), 0)
    trainer = ppo.Trainer(env, arch, ppo.Settings(games=8, steps=8, minibatches=2, league_share=1.0))
    run = trainer.start(jax.random.PRNGKey(0), ppo.new_params(jax.random.PRNGKey(1), env, arch))
    _, samples, _ = jax.jit(trainer._rollout)(run["params"], run["opponent"], run["carry"])
    learner_decisions = int(np.asarray(samples.learner).sum())  # the first iteration's rollout
    assert 8 <= learner_decisions < trainer.update_rows < 64  # one learner seat a game: about a quarter of the rows
    trainer.update_rows = 4  # fewer than the rollout holds
    run, metrics = trainer.iteration(run)
    assert int(metrics["samples"]) == 4 and int(metrics["left_out"]) == learner_decisions - 4
    assert trainer.update_rows == 6  # a quarter more, in whole minibatches, for the next iterations
    run, metrics = trainer.iteration(run)
    assert int(metrics["samples"]) <= 6


def test_spyfalls_belief_links_tie_each_guess_and_accusation_to_its_own_belief():
    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay.trainer import belief_links

    env = batched.make("spyfall", num_players=5)
    names = env.action_names
    places = env.observation_fields["location_belief"]
    false_shares = env.observation_fields["location_false_share"]
    seats = env.observation_fields["spy_belief"]
    location_names = env.config.places.names
    links = belief_links(env)
    guesses = [(kind, names[action], entry) for kind, action, entry in links if names[action].startswith("guess")]
    accusations = [(kind, names[action], entry) for kind, action, entry in links if names[action].startswith("accuse")]
    assert [(name, entry) for kind, name, entry in guesses if kind == 0] == [
        (f"guess {location}", places.start + i) for i, location in enumerate(location_names)]
    assert [(name, entry) for kind, name, entry in guesses if kind == 1] == [
        (f"guess {location}", false_shares.start + i) for i, location in enumerate(location_names)]
    assert [(name, entry) for _, name, entry in accusations] == [(f"accuse +{k}", seats.start + k) for k in range(1, 5)]
    assert {kind for kind, _, _ in guesses} == {0, 1} and {kind for kind, _, _ in accusations} == {2}


def test_a_belief_link_adds_its_gain_times_the_belief_to_the_linked_logit_and_is_saved(tmp_path):
    import jax
    import jax.numpy as jnp

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo
    from hidden_role_envs.training.selfplay.trainer import belief_links

    env = batched.make("spyfall", num_players=5)
    plain = network.Architecture("spyfall", 5, {}, env.layout.size, env.num_actions, (16,))
    linked = network.Architecture("spyfall", 5, {}, env.layout.size, env.num_actions, (16,), links=belief_links(env))
    params = ppo.new_params(jax.random.PRNGKey(0), env, linked)
    assert set(params) - set(ppo.new_params(jax.random.PRNGKey(0), env, plain)) == {"links"}
    observation = jnp.asarray(np.random.default_rng(0).uniform(size=(3, env.layout.size)), jnp.float32)
    mask = jnp.ones((3, env.num_actions), bool)
    without, _ = network.apply(params, observation, mask)
    started, _ = network.apply(params, observation, mask, links=linked.links)
    assert np.array_equal(started, without)  # the gains start at 0: the network starts as it would without links
    gains = np.array([0.5, -2.0, 1.5])
    params["links"] = jnp.asarray(gains, jnp.float32)
    moved, _ = network.apply(params, observation, mask, links=linked.links)
    kind, action, entry = (np.array(column) for column in zip(*linked.links))
    expected = np.asarray(without).copy()  # a guess has two links: both add to its logit
    np.add.at(expected, (slice(None), action), network.LINK_STEP * gains[kind] * np.asarray(observation)[:, entry])
    assert np.allclose(moved, expected, atol=1e-5)
    unlinked = np.setdiff1d(np.arange(env.num_actions), action)
    assert np.array_equal(np.asarray(moved)[:, unlinked], np.asarray(without)[:, unlinked])
    network.save(tmp_path / "model.npz", params, linked)
    loaded_params, loaded, _ = network.load(tmp_path / "model.npz")
    assert loaded == linked
    assert np.allclose(network.apply(loaded_params, observation, mask, links=loaded.links)[0], moved)


def test_secrets_links_tie_each_offer_politician_and_bullet_to_the_belief_that_its_seat_is_a_teammate():
    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay.trainer import belief_links

    env = batched.make("secrets", num_players=5)
    names = env.action_names
    teammate = env.observation_fields["teammate"]
    links = belief_links(env)
    for kind, action, entry in links:
        name = names[action]
        seat = int(name.split()[1].lstrip("+"))
        assert entry == teammate.start + seat, name
        assert kind == ("offer", "politician", "assassin").index(name.split()[0]), name
    assert sorted(names[action] for _, action, _ in links) == sorted(
        name for name in names if name.split()[0] in ("offer", "politician", "assassin"))


def test_a_link_gate_lets_the_gain_read_the_features_and_starts_as_a_no_op(tmp_path):
    import jax
    import jax.numpy as jnp

    from hidden_role_envs import batched
    from hidden_role_envs.training.selfplay import network, ppo
    from hidden_role_envs.training.selfplay.trainer import belief_links

    env = batched.make("secrets", num_players=5)
    linked = network.Architecture("secrets", 5, {}, env.layout.size, env.num_actions, (16,), links=belief_links(env))
    gated = network.Architecture("secrets", 5, {}, env.layout.size, env.num_actions, (16,), links=linked.links,
                                 link_gates=True)
    params = ppo.new_params(jax.random.PRNGKey(0), env, gated)
    assert set(params) - set(ppo.new_params(jax.random.PRNGKey(0), env, linked)) == {"link_gates"}
    observation = jnp.asarray(np.random.default_rng(0).uniform(size=(3, env.layout.size)), jnp.float32)
    mask = jnp.ones((3, env.num_actions), bool)
    without, _ = network.apply(params, observation, mask)
    assert np.array_equal(network.apply(params, observation, mask, links=gated.links)[0], without)
    params["link_gates"] = jnp.asarray(np.random.default_rng(1).normal(size=(16, 3)), jnp.float32)
    moved, _ = network.apply(params, observation, mask, links=gated.links)
    _, _, features = network.heads(params, observation, mask)
    kind, action, entry = (np.array(column) for column in zip(*gated.links))
    gains = np.asarray(features) @ np.asarray(params["link_gates"])  # one gain per game and kind: they differ by state
    assert not np.allclose(gains[0], gains[1])
    expected = np.asarray(without).copy()
    expected[:, action] += gains[:, kind] * np.asarray(observation)[:, entry]
    assert np.allclose(moved, expected, atol=1e-5)
    network.save(tmp_path / "model.npz", params, gated)
    loaded_params, loaded, _ = network.load(tmp_path / "model.npz")
    assert loaded == gated
    assert np.allclose(network.apply(loaded_params, observation, mask, links=loaded.links)[0], moved)


def test_belief_links_are_asked_for_and_refused_for_a_game_without_them(capsys):
    from hidden_role_envs.training.arguments import UsageError
    from hidden_role_envs.training.selfplay.cli import build_parser, parse, settings_from

    assert not settings_from(build_parser("train").parse_args(["hoax"])).belief_links
    assert settings_from(build_parser("train").parse_args(["spyfall", "--belief-links"])).belief_links
    args, _ = parse(["spyfall"], "train")  # Spyfall's recipe turns them on, and the command line can turn them off
    assert args.belief_links and not parse(["spyfall", "--no-belief-links"], "train")[0].belief_links
    with pytest.raises(UsageError, match="hoax declares no belief links; games with them: secrets, spyfall"):
        settings_from(build_parser("train").parse_args(["hoax", "--belief-links"]))
    with pytest.raises(UsageError, match="link gates gate the belief links"):
        settings_from(build_parser("train").parse_args(["secrets", "--link-gates"]))
    assert settings_from(build_parser("train").parse_args(["secrets", "--belief-links", "--link-gates"])).link_gates
