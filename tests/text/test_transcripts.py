"""The documentation of text agents: the saved transcripts are what their command makes now, and the README's
example runs."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hidden_role_envs.training.cli import main

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "transcripts"
README = (FOLDER / "README.md").read_text()
COMMAND = re.search(r"^hidden-roles (evaluate GAME .*)$", README, flags=re.M)[1]
SEEDS = {game: seed for game, seed in re.findall(r"^- \[\w+\]\((\w+)/\), \d+ players, seed (\d+)", README, flags=re.M)}


def test_every_saved_game_is_listed_with_its_seed():
    assert set(SEEDS) == {p.name for p in FOLDER.iterdir() if p.is_dir()}


@pytest.mark.parametrize("game", sorted(p.name for p in FOLDER.iterdir() if p.is_dir()))
def test_a_saved_transcript_is_what_its_command_makes(game, tmp_path, capsys):
    command = COMMAND.replace("GAME", game).replace("SEED", SEEDS[game])
    args = shlex.split(command.replace(f"docs/transcripts/{game}", str(tmp_path / game)))
    assert main(args + ["--csv", str(tmp_path / "evaluation.csv"), "--no-progress"]) == 0
    capsys.readouterr()
    saved = sorted(p.name for p in (FOLDER / game).iterdir())
    assert saved == sorted(p.name for p in (tmp_path / game).iterdir())
    for name in saved:
        assert (FOLDER / game / name).read_text() == (tmp_path / game / name).read_text(), name


def test_the_readme_example_of_a_text_agent_runs():
    section = (ROOT / "README.md").read_text().split("## Language-model agents")[1]
    example = re.search(r"```python\n(.*?)\n```", section, flags=re.S)[1]
    result = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    *wins, illegal, tokens = result.stdout.split()  # the wins of the five players, then two of the text seat's figures
    assert len(wins) == 5 and float(illegal) == 0.0 and float(tokens) > 100
