"""The play command: one seat in the terminal, only that seat's view, every answer checked, clean endings."""

from __future__ import annotations

import builtins
import io
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hidden_role_envs.core.aec import HiddenRoleEnv
from hidden_role_envs.training.play import interpret, main, numbered

REPO_ROOT = Path(__file__).resolve().parents[2]
TABLES = {"secrets": 5, "mascarade": 5, "hoax": 4, "spyfall": 4}


class Transcript:
    """main(argv) with scripted answers; what was printed, split at each prompt."""

    def __init__(
        self,
        monkeypatch,
        capsys,
        argv: list[str],
        answers,
        raise_at_end: type[BaseException] = EOFError,
        on_prompt=None,  # called with the Transcript at each prompt, before the answer
    ):
        self.prompts: list[str] = []
        self.screens: list[str] = []  # what was printed before each prompt, then after the last one
        answers = iter(answers)

        def fake_input(prompt: str = "") -> str:
            self.prompts.append(prompt)
            self.screens.append(capsys.readouterr().out)
            if on_prompt:
                on_prompt(self)
            try:
                return next(answers)
            except StopIteration:
                raise raise_at_end from None

        monkeypatch.setattr(builtins, "input", fake_input)
        self.status = main(argv)
        rest = capsys.readouterr()
        self.screens.append(rest.out)
        self.out = "".join(self.screens)
        self.err = rest.err

    @property
    def lines(self) -> list[str]:
        return [line.strip() for line in self.out.splitlines()]


def ones():
    return itertools.repeat("1")


# --- whole games ------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(TABLES))
def test_typing_the_first_action_plays_every_game_to_its_end(monkeypatch, capsys, game):
    args = [game, "--players", str(TABLES[game]), "--seed", "3", "--seat", "1"]
    run = Transcript(monkeypatch, capsys, args, ones())
    assert run.status == 0, run.err
    assert run.err == ""
    assert run.prompts and set(run.prompts) == {"player_1> "}
    assert run.out.count("You play: ") == len(run.prompts)  # every answer was taken
    assert "===== the game is over" in run.out
    assert "Result: " in run.out or "turn limit" in run.out
    if "Result: " in run.out:
        assert re.search(r"^You \(player_1\) (WON|lost)\.$", run.out, re.MULTILINE)
        assert "Winners: " in run.out or "Nobody wins." in run.out
        assert "Revealed at the end:" in run.out


def test_the_outcome_is_told_in_words(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["secrets", "--players", "5", "--seed", "1", "--seat", "2"], ones())
    assert run.status == 0
    end = run.out.split("===== the game is over")[1]
    assert re.search(
        r"^Result: (CIA|KGB) wins \d+ to -?\d+\.$|^Result: .*Hippie.*\.$|^Result: .*tie.*$", end, re.MULTILINE
    )
    assert re.search(r"^Your seat: identity (CIA|KGB|Hippie); score -?\d+\.$", end, re.MULTILINE)
    assert re.search(
        r"^  identities: player_0 \w+, player_1 \w+, player_2 \(you\) \w+, player_3 \w+, player_4 \w+$",
        end,
        re.MULTILINE,
    )


def test_a_seat_knocked_out_watches_the_rest_and_learns_the_result(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["hoax", "--players", "4", "--seed", "0", "--seat", "3"], ones())
    assert run.status == 0
    assert "*** You are out of the game after" in run.out
    after = run.out.split("*** You are out of the game")[1]
    assert "player_0 starts a turn" in after  # the others' public moves are still shown
    assert "Result: player_0 is the last player left." in after
    assert "You (player_3) lost." in after and "You were out of the game after" in after


def test_a_game_stopped_at_the_turn_limit_says_so(monkeypatch, capsys):
    # this game ends by the rules at turn 71
    monkeypatch.setattr("hidden_role_envs.games.hoax.config.DEFAULT_MAX_TURNS", 40)
    run = Transcript(monkeypatch, capsys, ["hoax", "--players", "4", "--seed", "1", "--seat", "3"], ones())
    assert run.status == 0
    assert "The game reached its turn limit and was stopped after 40 turn(s): no result, nobody wins." in run.out
    assert "Revealed at the end:" in run.out  # what the end of a game shows, a truncated one shows too
    assert "WON" not in run.out and "lost." not in run.out


def test_the_same_seed_and_answers_replay_the_same_game(monkeypatch, capsys):
    first = Transcript(monkeypatch, capsys, ["spyfall", "--seed", "11"], ones())
    second = Transcript(monkeypatch, capsys, ["spyfall", "--seed", "11"], ones())
    assert first.status == second.status == 0
    assert first.out == second.out
    seat = re.search(r"You are player_(\d+)", first.out).group(1)  # drawn with the seed
    assert f"--seat {seat} --seed 11" in first.out


def test_answers_piped_on_stdin_are_read(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n" * 300))
    assert main(["mascarade", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "You play: " in out and "===== the game is over" in out


def test_the_module_runs_as_a_command_with_piped_answers():
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "hidden_role_envs.training.play", "spyfall", "--players", "3", "--seed", "0"],
        input="1\n" * 300,
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "===== the game is over" in done.stdout and done.stderr == ""


# --- answering ----------------------------------------------------------------------------


def test_bad_answers_are_asked_again_with_a_reason(monkeypatch, capsys):
    # secrets, seed 0: player_0 opens the game choosing between Politician and Scientist
    bad = ["", "   ", "gibberish", "99", "0", "choose", "refuse", "scientist", "assassin +1", "help", "?", "view"]
    answers = itertools.chain(bad, ["choose sc"], ones())
    run = Transcript(monkeypatch, capsys, ["secrets", "--players", "5", "--seed", "0", "--seat", "0"], answers)
    assert run.status == 0, run.err
    first = "".join(run.screens[1 : len(bad) + 1])  # the replies to the bad answers
    assert first.count("type the number or the name of an action") == 2
    assert "unknown action 'gibberish'" in first
    assert "there is no action number 99: choose from 1 to 2" in first
    assert "there is no action number 0" in first
    assert "'choose' is ambiguous: 2 legal actions start with it" in first
    assert "'refuse' is not legal now: the decision now is 'choose the card to offer'" in first
    assert "no legal action starts with 'scientist'; did you mean:\n  2) choose Scientist" in first
    assert "'assassin +1' is not legal now" in first
    assert first.count("Your choices:") == 3  # help, ? and view list them again
    assert first.count("===== your turn, player_0") == 1  # view shows the table again
    assert run.screens[len(bad) + 1].startswith("You play: choose Scientist")  # a unique beginning is enough
    assert len(run.prompts) == len(bad) + run.out.count("You play: ")


def test_interpret_reads_numbers_names_and_beginnings():
    names = ("choose Scientist", "choose Assassin", "offer +1", "offer +1 as Scientist", "accept", "refuse")
    legal = [2, 3]

    def read(line):
        return interpret(line, legal, names, lambda action: "not now")

    assert read("1").action == 2 and read("#2").action == 3 and read(" 2) ").action == 3
    assert read("offer +1").action == 2 and not read("offer +1").expanded
    assert read("  OFFER   +1 as scientist ").action == 3
    assert read("offer +1 as").action == 3 and read("offer +1 as").expanded
    assert read("offer").matches == (2, 3) and read("offer").action is None
    assert read("accept").reason == "'accept' is not legal now: not now"
    assert read("QUIT").command == "quit" and read("exit").command == "quit"
    assert read("?").command == "help" and read("help").command == "help" and read("view").command == "view"
    assert read("3").reason == "there is no action number 3: choose from 1 to 2"


def test_the_numbered_list_keeps_its_numbers_in_columns():
    names = tuple(f"action {i}" for i in range(7))
    legal = [0, 2, 4, 6]
    assert numbered(legal, names, legal, width=80).splitlines() == [
        "  1) action 0   2) action 2   3) action 4   4) action 6"
    ]
    assert numbered(legal, names, legal, width=30).splitlines() == [
        "  1) action 0   3) action 4",
        "  2) action 2   4) action 6",
    ]
    assert numbered([4], names, legal).strip() == "3) action 4"  # a subset keeps the full list's numbers


# --- only the seat's own view --------------------------------------------------------------


def record_events(monkeypatch) -> list:
    """Every (events, env) of every reset and step, whoever moved."""
    seen = []
    reset, step = HiddenRoleEnv.reset, HiddenRoleEnv.step

    def recording_reset(self, *args, **kwargs):
        reset(self, *args, **kwargs)
        seen.append((list(self.last_events), self))

    def recording_step(self, action):
        step(self, action)
        seen.append((list(self.last_events), self))

    monkeypatch.setattr(HiddenRoleEnv, "reset", recording_reset)
    monkeypatch.setattr(HiddenRoleEnv, "step", recording_step)
    return seen


@pytest.mark.parametrize("game", sorted(TABLES))
def test_events_the_seat_did_not_see_are_never_printed(monkeypatch, capsys, game):
    seat = 2
    recorded = record_events(monkeypatch)
    run = Transcript(
        monkeypatch, capsys, [game, "--players", str(TABLES[game]), "--seed", "4", "--seat", str(seat)], ones()
    )
    assert run.status == 0
    seen_lines, unseen_lines = set(), set()
    for events, env in recorded:
        for event in events:
            line = env.unwrapped.describe_event(event, seat)
            if line:  # what the line would say, had the seat seen it
                (seen_lines if seat in event.seen_by else unseen_lines).add(line.strip())
    leaks = unseen_lines - seen_lines
    assert leaks, "the game should have events this seat did not see"
    printed = set(run.lines)
    assert not leaks & printed
    assert len(seen_lines & printed) > 5  # and the ones it saw are there


def test_secrets_shows_no_other_seat_s_look_at_a_token(monkeypatch, capsys):
    seat = 0
    others_private: list[tuple[int, str]] = []

    def at_prompt(transcript):  # what each other seat's own render would add to the screen now
        env = recorded[-1][1].unwrapped
        mine = set(env.render_text(seat).splitlines())
        for other in range(1, 5):
            for line in env.render_text(other).splitlines():
                if line not in mine:
                    others_private.append((len(transcript.screens) - 1, line))

    recorded = record_events(monkeypatch)
    argv = ["secrets", "--players", "5", "--seed", "2", "--seat", str(seat)]
    run = Transcript(monkeypatch, capsys, argv, ones(), on_prompt=at_prompt)
    out = run.out
    assert run.status == 0

    # the seat's own looks read "you saw ..."; another seat's look is only "player_k looked at ..."
    assert "you saw the token of you:" in out
    assert not re.search(r"player_\d saw the token of .*: (CIA|KGB|Hippie)", out)
    assert "looked at the token of" in out or "looked at the centre token" in out
    # nothing another seat's render shows, beyond what this seat's shows, reaches the screen at that moment
    assert others_private
    for screen, line in others_private:
        assert line not in run.screens[screen].splitlines(), line
    assert not re.search(r"View of player_[1-4]|as player_[1-4] saw it", out)


# --- endings and the command line ----------------------------------------------------------


def test_end_of_input_ends_cleanly_with_status_1(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["secrets", "--seed", "0", "--seat", "0"], ["1", "1"])
    assert run.status == 1
    assert len(run.prompts) == 3
    assert run.err.strip() == "play: the input ended before the game did; game abandoned"
    assert "Traceback" not in run.out + run.err and "game is over" not in run.out


def test_ctrl_c_ends_cleanly_with_status_130(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["mascarade", "--seed", "0"], ["1"], raise_at_end=KeyboardInterrupt)
    assert run.status == 130
    assert run.err.strip() == "play: interrupted; game abandoned"


def test_quit_leaves_the_game_with_status_0(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["hoax", "--seed", "0"], ["1", "quit"])
    assert run.status == 0
    assert run.out.rstrip().endswith("You left the game.")
    assert run.err == ""


def test_help_describes_the_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m hidden_role_envs.training.play")
    for option in ("--players", "--seat", "--opponents", "--seed", "secrets, mascarade, hoax, spyfall"):
        assert option in out
    assert main(["--help"], prog="hidden-roles play") == 0
    assert capsys.readouterr().out.startswith("usage: hidden-roles play")


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "the following arguments are required: game"),
        (["chess"], "unknown game 'chess'; choose from: secrets, mascarade, hoax, spyfall"),
        (["secrets", "--players", "3"], "--players: num_players must be an integer from 4 to 8; got 3"),
        (["spyfall", "--players", "9"], "--players: num_players must be an integer from 3 to 8; got 9"),
        (["secrets", "--players", "five"], "argument --players: expected a positive integer, got 'five'"),
        (["secrets", "--players", "0"], "argument --players: expected a positive integer, got '0'"),
        (["secrets", "--seat", "5"], "--seat must be from 0 to 4 with 5 players; got 5"),
        (["secrets", "--seat", "x"], "argument --seat: expected a seat number such as 0 or player_0, got 'x'"),
        (["secrets", "--seed", "-1"], "argument --seed: expected a non-negative integer, got '-1'"),
        (["secrets", "--opponents", "smart"], "unknown --opponents 'smart'; use scripted, random, trained or the path"),
        (["hoax", "--players", "5", "--opponents", "trained"], "--opponents: no trained policy ships for hoax with 5"),
        (["secrets", "--opponents", "missing.zip"], "--opponents: no saved model at 'missing.zip'"),
        (["secrets", "--turbo"], "unrecognized arguments: --turbo"),
    ],
)
def test_bad_arguments_give_one_error_line_and_status_2(monkeypatch, capsys, argv, message):
    monkeypatch.setattr(builtins, "input", lambda prompt="": pytest.fail("no game should start"))
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("play: error: ")
    assert message in err


def test_seat_accepts_an_agent_name(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["spyfall", "--seat", "player_2", "--seed", "1"], ones())
    assert run.status == 0 and "You are player_2;" in run.out


# --- a saved model at the table -------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """An untrained MaskablePPO for secrets with 5 players: enough to sit at a table."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from hidden_role_envs import SingleSeatEnv

    env = SingleSeatEnv("secrets", num_players=5)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]})
    path = tmp_path_factory.mktemp("model") / "tiny.zip"
    model.save(path)
    return str(path)


def test_a_saved_model_plays_the_other_seats(monkeypatch, capsys, tiny_model):
    run = Transcript(
        monkeypatch, capsys, ["secrets", "--players", "5", "--seed", "2", "--opponents", tiny_model], ones()
    )
    assert run.status == 0, run.err
    assert f"the other seats are the saved model {tiny_model}" in " ".join(run.out.split())  # maybe wrapped
    assert f"--opponents {tiny_model}" in run.out
    assert "===== the game is over" in run.out


def test_the_shipped_policy_plays_the_other_seats(monkeypatch, capsys):
    run = Transcript(monkeypatch, capsys, ["hoax", "--players", "4", "--seed", "2", "--opponents", "trained"], ones())
    assert run.status == 0, run.err
    assert "the other seats are the shipped trained policy" in " ".join(run.out.split())
    assert "--opponents trained" in run.out
    assert "===== the game is over" in run.out


@pytest.mark.parametrize("argv", [["secrets", "--players", "6"], ["hoax"]])
def test_a_model_for_another_table_is_refused_up_front(capsys, tiny_model, argv):
    assert main([*argv, "--opponents", tiny_model]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"play: error: --opponents: {tiny_model!r} is a model for observations of shape" in err
    assert "a model plays only the game and table size it was trained for" in err


def test_a_file_that_is_not_a_model_is_refused(capsys, tmp_path):
    fake = tmp_path / "notes.zip"
    fake.write_text("not a model")
    assert main(["secrets", "--opponents", str(fake)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"play: error: --opponents: '{fake}' is not a model saved by")
