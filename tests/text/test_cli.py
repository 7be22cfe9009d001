"""`hidden-roles evaluate` with text seats: a mixed table, seeded, its figures in the table and the CSV, a
transcript per seat and game, and one-line errors for a seat that names no agent."""

import csv
import math

import pytest

from hidden_role_envs.training.cli import main

TEXT = "text:tests.text.agents:first_listed"


def evaluate(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["evaluate", "secrets", "--no-progress", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_mixed_table_reports_the_text_agents_figures_and_writes_their_transcripts(capsys, tmp_path):
    args = ["--games", "3", "--seed", "2", "--seats", f"{TEXT},scripted,random", "--csv", str(tmp_path / "a.csv"),
            "--transcripts", str(tmp_path / "words")]
    code, out, err = evaluate(capsys, *args)
    assert code == 0, err
    assert "text agents (prompt tokens: an approximation, characters / 4" in out
    text_row = [line for line in out.splitlines() if line.startswith(TEXT)][-1]  # the figures, below the win rates
    decisions, illegal, fallbacks, tokens, belief = text_row.split()[1:]
    assert int(decisions) > 0 and (illegal, fallbacks, belief) == ("0.000", "0", "-")
    assert int(tokens.replace(",", "")) > 500
    assert sorted(p.name for p in (tmp_path / "words").iterdir()) == sorted(
        f"game-{g}-player_{s}.md" for g in range(3) for s in range(5))
    first = (tmp_path / "words" / "game-1-player_1.md").read_text()  # the text agent, one seat on in game 1
    assert first.startswith(f"# Secrets, 5 players, game 1: player_1, played by `{TEXT}`")
    assert "> 1" in first and "## The end" in first and "The game is over:" in first
    scripted = (tmp_path / "words" / "game-1-player_2.md").read_text()
    assert "**scripted plays:**" in scripted

    with open(tmp_path / "a.csv", newline="") as f:
        records = {(r["run"], r["policy"]): r for r in csv.DictReader(f)}
    assert records[("mix", TEXT)]["decisions"] == decisions and records[("mix", TEXT)]["fallbacks"] == "0"
    assert records[("mix", "scripted")]["decisions"] == "" and records[("baseline", "random")]["decisions"] == ""

    again = evaluate(capsys, *args)[1]
    assert again == out  # seeded: the same table


def test_an_agent_asked_its_beliefs_that_says_none_scores_the_uniform_log_loss(capsys, tmp_path):
    code, out, err = evaluate(capsys, "--games", "1", "--seats", TEXT + ",scripted", "--ask-beliefs", "--no-baseline",
                              "--csv", str(tmp_path / "b.csv"))
    assert code == 0, err
    with open(tmp_path / "b.csv", newline="") as f:
        record = next(r for r in csv.DictReader(f) if r["policy"] == TEXT)
    assert float(record["belief_log_loss"]) == pytest.approx(math.log(3), abs=1e-4)
    assert 0 < float(record["belief_log_loss_floor"]) < math.log(3)


@pytest.mark.parametrize("seat, mentions", [
    ("text:tests.text.agents:nobody", "cannot load"),
    ("text:no_such_module_here:agent", "cannot load"),
    ("text:nothing", "text:module:name"),
    ("llm:only-a-model", "llm:MODEL@URL"),
    ("texts:tests.text.agents:first_listed", "unknown policy"),
])
def test_a_seat_that_names_no_agent_is_one_error_line(capsys, seat, mentions):
    code, out, err = evaluate(capsys, "--games", "1", "--seats", seat)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("evaluate: error:") and mentions in err
