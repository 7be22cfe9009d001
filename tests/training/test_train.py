"""A short self-play training run, the saved model reloaded and evaluated, and the `hidden-roles` CLI."""

import contextlib
import csv
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hidden_role_envs

from hidden_role_envs.policies import SavedModelPolicy, make_policy
from hidden_role_envs.training import cli, sb3_trainer, train
from hidden_role_envs.training.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    """A tiny SB3 run: its folder and what it printed."""
    out = tmp_path_factory.mktemp("run")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = train.main(
            ["hoax", "--backend", "sb3", "--players", "3", "--timesteps", "2048", "--envs", "1", "--eval-every", "1024",
             "--eval-games", "10", "--final-games", "20", "--pool-size", "1", "--imitation-steps", "200",
             "--imitation-epochs", "2", "--learning-rate", "5e-4", "--no-progress", "--out", str(out)]
        )
    assert code == 0
    return out, printed.getvalue()


@pytest.fixture(scope="module")
def smoke_run(smoke):
    return smoke[0]


def test_a_run_says_how_fast_it_learned(smoke):
    rates = re.findall(r"^learned at ([\d,]+) learner decisions/s$", smoke[1], re.M)
    assert len(rates) == 1 and int(rates[0].replace(",", "")) > 0


def test_a_run_too_short_to_time_says_so_rather_than_nan(capsys):
    from types import SimpleNamespace

    from hidden_role_envs.training.evaluate import Row
    from hidden_role_envs.training.reporting import print_finished

    settings = SimpleNamespace(game="hoax", num_players=3, final_games=2, imitation_steps=0, out="run")
    print_finished(settings, {"random": Row("mix", "trained", "trained", 1, 2, 1)}, "model.npz", 0.0, float("nan"))
    printed = capsys.readouterr().out
    assert "learned in too few iterations to time the rate" in printed and "nan" not in printed


def test_a_run_leaves_the_model_the_curve_and_the_table(smoke_run):
    for name in ("model.zip", "learning_curve.png", "curve.csv", "evaluation.csv", "imitation.csv"):
        assert (smoke_run / name).stat().st_size > 0, name
    assert sorted(os.listdir(smoke_run / "checkpoints")) == ["step_0.zip", "step_1024.zip", "step_2048.zip"]
    assert list((smoke_run / "tensorboard").rglob("events.out.tfevents.*"))
    with open(smoke_run / "curve.csv") as f:
        curve = list(csv.DictReader(f))
    assert [(r["timesteps"], r["opponents"]) for r in curve] == [
        (str(step), kind) for step in (0, 1024, 2048) for kind in ("random", "scripted")
    ]
    with open(smoke_run / "evaluation.csv") as f:
        final = list(csv.DictReader(f))
    assert [r["opponents"] for r in final] == ["random", "scripted"]
    assert all(0 <= float(r["win_rate"]) <= 1 and int(r["games"]) == 20 for r in final)
    with open(smoke_run / "imitation.csv") as f:
        assert [row["epoch"] for row in csv.DictReader(f)] == ["1", "2"]


def test_the_saved_model_reloads_and_plays_legally(smoke_run):
    from hidden_role_envs import hoax_v1

    policy = make_policy(str(smoke_run / "model.zip"), hidden_role_envs.make("hoax", num_players=3))
    assert isinstance(policy, SavedModelPolicy)
    env = hoax_v1.env(num_players=3)
    env.reset(seed=0)
    for agent in env.agent_iter(300):
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else policy(obs)
        if action is not None:
            assert obs["action_mask"][action]
        env.step(action)


def test_the_model_was_trained_with_the_learning_rate_asked_for(smoke_run):
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(smoke_run / "model.zip", device="cpu").learning_rate == 5e-4


def test_evaluating_the_model_is_deterministic_under_a_seed(smoke_run):
    model = str(smoke_run / "model.zip")
    first = evaluate("hoax", 3, [model, "random"], games=30, seed=5)
    again = evaluate("hoax", 3, [model, "random"], games=30, seed=5)
    assert [(r.policy, r.wins) for r in first] == [(r.policy, r.wins) for r in again]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["poker"], "unknown game 'poker'"),
        (["secrets", "--players", "3"], "--players: num_players must be an integer from 4 to 8"),
        (["secrets", "--timesteps", "0"], "expected a positive integer"),
        (["secrets", "--backend", "sb3", "--envs", "two"], "expected a positive integer"),
        (["secrets", "--learning-rate", "0"], "expected a positive number"),
    ],
)
def test_train_refuses_bad_input_in_one_line(argv, message, capsys):
    assert train.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("train: error:") and message in err[0]


@pytest.mark.parametrize("command", ["train", "evaluate", "play"])
def test_every_command_has_help(command):
    result = subprocess.run([sys.executable, "-m", "hidden_role_envs.training.cli", command, "--help"], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0
    assert f"usage: hidden-roles {command}" in result.stdout


def test_the_cli_lists_its_commands_and_refuses_unknown_ones(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in cli.COMMANDS)
    assert cli.main(["fly"]) == 2
    assert "unknown command 'fly'" in capsys.readouterr().err


def test_a_tiny_evaluation_through_the_cli(tmp_path, capsys):
    out = tmp_path / "table.csv"
    assert cli.main(["evaluate", "spyfall", "--games", "5", "--no-progress", "--csv", str(out)]) == 0
    assert "spyfall, 5 players, 5 games" in capsys.readouterr().out
    assert out.read_text().startswith("game,players")


def test_a_missing_model_is_one_clear_error(capsys):
    assert cli.main(["evaluate", "secrets", "--seats", "nothing/here.zip,random", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["evaluate: error: no saved model at 'nothing/here.zip'"]



def test_the_opponent_pool_keeps_a_third_random_and_a_third_scripted():
    assert sb3_trainer.opponent_pool([]) == ["random", "scripted"]
    pool = sb3_trainer.opponent_pool(["a.zip", "b.zip", "c.zip"])
    assert pool.count("random") == pool.count("scripted") == 3 and pool[-3:] == ["a.zip", "b.zip", "c.zip"]
