"""The league command: every pairing played on the same seeded deals, ratings that order the agents as their
games do, its CSVs, and one-line errors on bad input."""

from __future__ import annotations

import csv

import pytest

from hidden_role_envs.training.league import main, play_league, rate


@pytest.fixture(scope="module")
def hoax_league():
    pairings = play_league("hoax", 3, ["random", "scripted"], 30, seed=0)
    return pairings, rate(pairings, ["random", "scripted"])


def test_every_ordered_pairing_is_played_including_each_agent_against_itself(hoax_league):
    pairings, _ = hoax_league
    assert [(p.agent, p.field) for p in pairings] == [
        ("random", "random"), ("random", "scripted"), ("scripted", "random"), ("scripted", "scripted")]
    assert all(p.games == 30 and len(p.winners) == 30 for p in pairings)
    # the agent is player 0 of its pairing: its wins are the games that list it among the winners
    assert all(p.wins == sum(0 in won for won in p.winners) for p in pairings)


def test_the_scripted_player_is_rated_above_random_and_wins_more_in_its_seat(hoax_league):
    pairings, ratings = hoax_league
    assert [r.agent for r in ratings] == ["scripted", "random"]
    assert ratings[0].ordinal > ratings[1].ordinal
    rate_of = {(p.agent, p.field): p.win_rate for p in pairings}
    assert rate_of["scripted", "random"] > rate_of["random", "random"] > rate_of["random", "scripted"]


def test_the_same_seed_plays_the_same_league(hoax_league):
    pairings, _ = hoax_league
    again = play_league("hoax", 3, ["random", "scripted"], 30, seed=0)
    assert [p.winners for p in again] == [p.winners for p in pairings]


def test_the_command_prints_the_ratings_and_writes_both_csvs(tmp_path, capsys):
    path = tmp_path / "league.csv"
    assert main(["hoax", "--players", "3", "--agents", "random,scripted", "--games", "5", "--csv", str(path),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ratings (OpenSkill" in out and "cross-table" in out
    with open(path) as f:
        rows = list(csv.DictReader(f))
    assert [(r["agent"], r["field"]) for r in rows] == [
        ("random", "random"), ("random", "scripted"), ("scripted", "random"), ("scripted", "scripted")]
    with open(tmp_path / "league-ratings.csv") as f:
        assert {r["agent"] for r in csv.DictReader(f)} == {"random", "scripted"}


@pytest.mark.parametrize("args, message", [
    (["hoax", "--agents", "random"], "at least two different agents"),
    (["hoax", "--agents", "random,random"], "at least two different agents"),
    (["hoax", "--agents", "random,nobody"], "unknown policy 'nobody' in --agents"),
    (["hoax", "--players", "5", "--agents", "random,trained"], "no trained policy ships for hoax with 5 players"),
    (["hoax", "--players", "9"], "--players"),
    (["chess"], "unknown game 'chess'"),
    (["hoax", "--csv", "/no/such/folder/league.csv"], "no directory"),
])
def test_bad_input_is_one_line_on_stderr(args, message, capsys):
    assert main(args + ["--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("league: error:") and message in err and len(err.splitlines()) == 1
