"""The README's commands and example are the ones that work."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)


def test_readme_has_exactly_two_setup_commands():
    assert len(shell_blocks()) == 2


def test_ci_runs_the_readme_test_command():
    test_command = shell_blocks()[1]
    assert "pytest" in test_command
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci_lines


def test_quick_start_example_runs():
    example = re.search(r"```python\n(.*?)\n```", README, flags=re.S).group(1)
    result = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "player_" in result.stdout


def test_the_batched_engine_example_runs():
    pytest.importorskip("jax", reason="the jax extra is not installed")
    section = README.split("## The batched engine")[1]
    example = re.search(r"```python\n(.*?)\n```", section, flags=re.S).group(1)
    result = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("(256, ")  # one observation per game, then the rewards of every seat
    assert "(256, 5)" in result.stdout
