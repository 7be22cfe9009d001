"""The benchmark suite runs end to end in quick mode and writes complete results; no figure is judged."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pettingzoo.test import api_test

from hidden_role_envs.benchmarks import noop, suite
from hidden_role_envs.core import registry

ROOT = Path(__file__).resolve().parents[2]


def run_suite(out: Path, *options: str) -> dict:
    assert suite.main([*options, "--out", str(out), "--no-progress"]) == 0
    return json.loads((out / "results.json").read_text())


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> tuple[Path, dict]:
    """The whole suite, once, in quick mode."""
    out = tmp_path_factory.mktemp("bench")
    return out, run_suite(out, "--quick")


def counts() -> dict[str, tuple[int, int, int]]:
    return {name: game.benchmark_players for name, game in registry.GAMES.items()}


def test_player_counts_are_each_games_smallest_and_largest_tables():
    for game, (smallest, typical, largest) in counts().items():
        definition = registry.GAMES[game]
        assert (smallest, largest) == (definition.min_players, definition.max_players)
        assert smallest < typical < largest


def test_every_case_of_the_full_suite_has_positive_figures(full):
    _, results = full
    cases = {(c["subject"], c["players"], c["interface"]): c for c in results["cases"]}
    for game, tables in counts().items():
        for players in tables:
            for interface in ("env()", "raw_env", "engine"):
                assert (game, players, interface) in cases
        assert (game, tables[1], suite.HISTORY_INTERFACE) in cases  # the history's cost at the typical table
    peers_run = {c["subject"] for c in results["cases"] if c["family"] == "peer"}
    peers_missing = {m["subject"] for m in results["unavailable"] if m["family"] == "peer"}
    assert peers_run | peers_missing == set(suite.PEERS) and not peers_run & peers_missing
    assert suite.REFERENCE_PEER in peers_run
    assert all(m["reason"] for m in results["unavailable"])
    assert {("noop", "env()"), ("noop", "raw_env")} <= {(c["subject"], c["interface"]) for c in results["cases"]}
    vec_games = {c["subject"] for c in results["cases"] if c["interface"].startswith("SubprocVecEnv")}
    assert vec_games == set(counts())
    for case in results["cases"]:
        assert case["repeats"] == suite.QUICK_REPEATS == len(case["runs_steps_per_second"])
        assert case["steps_per_second"] > 0 and min(case["runs_steps_per_second"]) > 0
        assert case["wall_steps_per_second"] > 0 and case["cpu_share"] > 0
        # processes and XLA's threads are timed by the wall clock, work in this process by its CPU time
        on_wall = case["interface"].startswith("SubprocVecEnv") or case["family"] in ("batched", "pgx")
        assert case["clock"] == ("wall" if on_wall else "cpu")
        if not case["interface"].startswith("SubprocVecEnv"):  # the others play whole games only
            assert case["games_per_second"] > 0 and case["mean_game_length"] >= 1


def test_memory_is_measured_for_every_game_at_every_count(full):
    _, results = full
    measured = {(row["game"], row["players"]) for row in results["memory"]}
    assert measured == {(game, n) for game, tables in counts().items() for n in tables}
    for row in results["memory"]:
        assert row["decisions"] >= 1
        assert 0 < row["first_kib"] <= row["first_peak_kib"] and row["further_kib"] > 0


def test_every_target_is_reported_for_every_game(full):
    _, results = full
    targets = results["targets"]
    batched = {game for game, definition in registry.GAMES.items() if definition.batched is not None}
    assert len(targets) == 3 * len(counts()) + 2 * len(batched)  # and 2 batched targets per batched game
    assert {t["game"] for t in targets} == set(counts())
    assert {t["game"] for t in targets if t["target"].startswith("batched")} == batched
    assert all(t["met"] in (True, False) and t["measured"] > 0 and t["required"] > 0 for t in targets)


def test_the_results_record_settings_and_machine(full):
    _, results = full
    assert {"created", "settings", "machine", "cases", "unavailable", "memory", "targets", "plot"} <= set(results)
    assert results["settings"]["quick"] and results["settings"]["seconds"] == suite.QUICK_SECONDS
    machine = results["machine"]
    assert machine["cores"] >= 1 and machine["python"] and machine["cpu"]
    assert all(machine["versions"][name] for name in ("hidden_role_envs", "numpy", "pettingzoo", "gymnasium"))


def test_the_markdown_report_has_every_section_and_the_chart(full):
    out, results = full
    text = (out / "results.md").read_text()
    for heading in ("## Targets", "## Throughput of the games", "## The cost of the event history",
                    "## PettingZoo's classic games", "## Memory"):
        assert heading in text
    assert "targets met." in text and "| Mascarade | 13 |" in text and "`leduc_holdem_v4`" in text
    if results["plot"]["file"]:
        assert (out / "throughput.png").stat().st_size > 0
    else:
        assert results["plot"]["skipped"] in text


def test_a_subset_with_explicit_settings(tmp_path):
    options = ["--games", "toy", "--seconds", "0.05", "--repeats", "2", "--seed", "7", "--clock", "wall"]
    results = run_suite(tmp_path, *options, "--no-plot")
    settings = results["settings"]
    assert (settings["seconds"], settings["repeats"], settings["seed"], settings["clock"]) == (0.05, 2, 7, "wall")
    assert settings["command"].endswith("--seconds 0.05 --repeats 2 --seed 7 --clock wall --games toy")
    assert all(c["clock"] == "wall" and c["steps_per_second"] == c["wall_steps_per_second"] for c in results["cases"])
    assert {c["subject"] for c in results["cases"] if c["family"] == "game"} == {"toy"}
    assert {t["game"] for t in results["targets"]} == {"toy"}
    assert results["plot"] == {"file": None, "skipped": "--no-plot was given"}
    assert not (tmp_path / "throughput.png").exists()
    assert "## Targets" in (tmp_path / "results.md").read_text()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "chess"], "unknown game 'chess'"),
        (["--games", ","], "names no game"),
        (["--seconds", "0"], "positive number"),
        (["--seconds", "soon"], "positive number"),
        (["--repeats", "0"], "positive integer"),
        (["--seed", "-1"], "non-negative integer"),
        (["--clock", "sundial"], "invalid choice"),
    ],
)
def test_bad_input_is_refused_in_one_line(argv, message, tmp_path, capsys):
    assert suite.main([*argv, "--out", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bench: error:") and message in err[0]
    assert not (tmp_path / "results").exists()


def test_an_unwritable_results_folder_is_refused(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert suite.main(["--out", str(blocker / "results")]) == 2
    assert "cannot write to --out" in capsys.readouterr().err


def test_hidden_roles_bench_has_help_and_refuses_bad_input():
    command = [sys.executable, "-m", "hidden_role_envs.training.cli", "bench"]
    shown = subprocess.run([*command, "--help"], check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert shown.returncode == 0 and "usage: hidden-roles bench" in shown.stdout
    refused = subprocess.run(
        [*command, "--repeats", "-2"], check=False, capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1


@pytest.mark.filterwarnings("ignore:.*(NumPy array|render|probably should be):UserWarning")
def test_the_do_nothing_env_follows_the_aec_protocol():
    api_test(noop.raw_env(), num_cycles=100)
    api_test(noop.env(), num_cycles=100)
