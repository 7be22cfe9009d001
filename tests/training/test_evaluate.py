"""The evaluation command: a seeded, reproducible win-rate table, its CSV, and one-line errors on bad input."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hidden_role_envs.training.evaluate import seat_plan, wilson_interval

REPO_ROOT = Path(__file__).resolve().parents[2]


def evaluate(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "hidden_role_envs.training.evaluate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
        text=True,
        timeout=120,
    )


def table_rows(stdout: str) -> dict[str, list[str]]:
    """The table's data lines by label (everything before the numbers)."""
    rows = {}
    for line in stdout.splitlines():
        parts = line.rsplit(maxsplit=6)
        if len(parts) == 7 and parts[5].startswith("["):
            rows[parts[0]] = parts[1:]
    return rows


def test_a_small_run_is_reproducible_and_written_to_csv(tmp_path):
    args = ["secrets", "--players", "5", "--games", "20", "--seed", "3", "--seats", "scripted,random"]
    first = evaluate(*args, "--csv", str(tmp_path / "a.csv"))
    second = evaluate(*args, "--csv", str(tmp_path / "b.csv"))
    assert first.returncode == 0, first.stderr
    assert first.stdout.replace("a.csv", "b.csv") == second.stdout
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
    assert f"wrote {tmp_path / 'a.csv'}" in first.stdout

    rows = table_rows(first.stdout)
    assert set(rows) == {"scripted", "random", "random in scripted's seats", "random in random's seats"}
    # seats/game, seat-games: one scripted seat and four random ones over 20 games
    assert rows["scripted"][:2] == ["1", "20"]
    assert rows["random"][:2] == ["4", "80"]

    with open(tmp_path / "a.csv", newline="") as f:
        records = list(csv.DictReader(f))
    assert [(r["run"], r["policy"], r["seats_of"]) for r in records] == [
        ("mix", "scripted", "scripted"),
        ("mix", "random", "random"),
        ("baseline", "random", "scripted"),
        ("baseline", "random", "random"),
    ]
    for record in records:
        wins, seat_games = int(record["wins"]), int(record["seat_games"])
        assert 0 <= wins <= seat_games
        assert float(record["win_rate"]) == pytest.approx(wins / seat_games, abs=1e-4)
        assert float(record["ci_low"]) <= float(record["win_rate"]) <= float(record["ci_high"])
        assert (record["game"], record["players"], record["games"], record["seed"]) == ("secrets", "5", "20", "3")
    assert records[0]["wins"] == rows["scripted"][2]


def test_the_seed_decides_the_games(tmp_path):
    runs = [
        evaluate("secrets", "--games", "40", "--seed", seed, "--no-baseline", "--csv", str(tmp_path / "x.csv"))
        for seed in ("1", "2")
    ]
    assert all(run.returncode == 0 for run in runs)
    assert table_rows(runs[0].stdout) != table_rows(runs[1].stdout)


def test_the_default_csv_goes_to_the_working_directory(tmp_path):
    result = evaluate("secrets", "--players", "4", "--games", "3", "--no-progress", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "evaluation.csv").exists()
    assert "wrote evaluation.csv" in result.stdout
    assert result.stderr == ""  # --no-progress: nothing on stderr


@pytest.mark.parametrize(
    "args, mentions",
    [
        (["chess"], "unknown game"),
        (["secrets", "--seats", "scripted,wizard"], "wizard"),
        (["secrets", "--seats", "always:fly,scripted"], "always:fly"),
        (["secrets", "--seats", "counter:nope,scripted"], "no such counter-strategy"),
        (["hoax", "--players", "5", "--seats", "trained,scripted"], "no trained policy ships for hoax with 5"),
        (["secrets", "--games", "0"], "--games"),
        (["secrets", "--games", "many"], "--games"),
        (["secrets", "--players", "3"], "num_players"),
        (["secrets", "--players", "9"], "num_players"),
        (["secrets", "--seed", "-1"], "--seed"),
        (["secrets", "--players", "4", "--seats", "random,random,random,random,scripted"], "4 seats"),
        (["secrets", "--games", "1", "--csv", "/nonexistent-dir/x.csv"], "--csv"),
        ([], "game"),
    ],
)
def test_bad_input_gives_one_error_line_and_a_failing_exit(args, mentions, tmp_path):
    result = evaluate(*args, "--no-progress", cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("evaluate: error:") and mentions in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def test_fewer_names_than_seats_are_filled_with_the_last():
    assert seat_plan(["scripted", "random"], 5) == ["scripted", "random", "random", "random", "random"]
    assert seat_plan(["scripted"], 4) == ["scripted"] * 4
    with pytest.raises(ValueError):
        seat_plan(["random"] * 5, 4)


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson_interval(1000, 2000)
    assert high - low == pytest.approx(2 * 1.96 * (0.25 / 2000) ** 0.5, rel=0.01)


def test_the_behaviour_of_each_policy_is_printed_below_the_table_and_written_to_csv(tmp_path):
    result = evaluate("hoax", "--players", "4", "--games", "10", "--seats", "scripted,random", "--no-progress",
                      "--csv", str(tmp_path / "e.csv"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("behaviour in the mix"))
    assert "hidden_role_envs.games.hoax.behaviour" in lines[start]
    assert lines[start + 1].split() == ["policy", "claims/seat-game", "false", "caught", "challenges/seat-game",
                                        "right"]
    printed = {line.split()[0]: line.split()[1:] for line in lines[start + 2:start + 4]}
    assert set(printed) == {"scripted", "random"}

    with open(tmp_path / "e.csv", newline="") as f:
        records = list(csv.DictReader(f))
    columns = ["claims", "false_claims", "false_claims_caught", "challenges", "challenges_right"]
    for record in records:
        claims, false_claims, caught, challenges, right = (int(record[c]) for c in columns)
        assert 0 <= caught <= false_claims <= claims and 0 <= right <= challenges
    for record in records[:2]:  # the mix: the figures printed are the CSV's counts
        claims, false_claims, caught, challenges, right = (int(record[c]) for c in columns)
        seat_games = int(record["seat_games"])
        per_game, false_share, caught_share, challenges_per_game, right_share = printed[record["policy"]]
        assert float(per_game) == pytest.approx(claims / seat_games, abs=0.005)
        assert float(challenges_per_game) == pytest.approx(challenges / seat_games, abs=0.005)
        assert false_share == (f"{false_claims / claims:.3f}" if claims else "-")
        assert caught_share == (f"{caught / false_claims:.3f}" if false_claims else "-")
        assert right_share == (f"{right / challenges:.3f}" if challenges else "-")
    assert sum(int(records[1][c]) for c in columns) > 0  # random players claim and call Hoax
