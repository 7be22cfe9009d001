"""The default trainer (self-play PPO on the batched engine): a short run leaves its files, and its policy plays."""

import csv
import os

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
    from hidden_role_envs.training.selfplay.cli import build_parser, settings_from
    from hidden_role_envs.training.arguments import UsageError

    args = build_parser("train").parse_args(["hoax", "--best-response", "--out", str(tmp_path)])
    settings = settings_from(args)
    assert settings.best_response and settings.league_share == 1.0
    args = build_parser("train").parse_args(["hoax", "--best-response", "--imitation-steps", "0"])
    with pytest.raises(UsageError, match="--imitation-steps must be > 0"):
        settings_from(args)
