"""Belief questions: each game's point at the right entries of its belief blocks (the env never rules out the truth
there), replies are read line by line, and the log-loss is the cross-entropy against the env's answer."""

import math

import numpy as np
import pytest

from hidden_role_envs.core.engine import named
from hidden_role_envs.text import BeliefQuestion
from hidden_role_envs.text.beliefs import env_answer, log_loss, read, request
from hidden_role_envs.text.game import belief_questions
from tests.support import every_game, random_legal


def _seat_label(seat: str, viewer: str, own: str, other: str) -> str:
    return own if seat == viewer else f"{other} of {seat}"


def secrets_truth(info: dict, viewer: str) -> dict:
    truth = {_seat_label(seat, viewer, "your token", "token"): token for seat, token in info["identities"].items()}
    return {**truth, "the centre token": info["centre_identity"]}


def hoax_truth(info: dict, viewer: str) -> dict:
    return {_seat_label(seat, viewer, "your character", "character"): c for seat, c in info["characters"].items()}


def mascarade_truth(info: dict, viewer: str) -> dict:
    truth = {}
    for seat, cards in info["characters"].items():
        if isinstance(cards, str):
            truth[_seat_label(seat, viewer, "your card", "card")] = cards
        else:
            for letter, card in zip("AB", cards):
                truth[_seat_label(seat, viewer, f"your card {letter}", f"card {letter}")] = card
    return {**truth, **{f"centre card {j}": card for j, card in enumerate(info["centre_characters"], 1)}}


def spyfall_truth(info: dict, viewer: str) -> dict:
    return {"the location": info["location"], "the spy": "you" if info["spy"] == viewer else info["spy"]}


TRUTH = {"secrets": secrets_truth, "hoax": hoax_truth, "mascarade": mascarade_truth, "spyfall": spyfall_truth}


@pytest.mark.parametrize("game", [g for g in every_game() if g.rules_text], ids=lambda g: g.name)
def test_the_env_never_rules_out_the_truth_of_a_question(game):
    """If a question read the wrong entries (another seat's row, another option's column), some seat would be told
    the truth is impossible: the truth is read off the hidden deal (`reveal`), which only the test may see."""
    for n in (game.min_players, game.typical_players, game.max_players):
        env = game.env(num_players=n)
        for seed in range(3):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                truth = TRUTH[game.name](named(env.unwrapped.engine.reveal().info), agent)
                blocks = {name: observation["observation"][where]
                          for name, where in env.unwrapped.observation_fields.items()}
                seat = env.unwrapped.possible_agents.index(agent)
                questions = belief_questions(game, env.unwrapped.config, seat)
                assert {q.label for q in questions} == set(truth)
                for question in questions:
                    answer = env_answer(question, blocks)
                    assert answer.sum() == pytest.approx(1, abs=1e-4), question.label
                    assert answer[question.options.index(truth[question.label])] > 0, question.label
                env.step(random_legal(rng, observation))


QUESTIONS = (
    BeliefQuestion("token of player_1", ("CIA", "KGB", "Hippie"), "identity", (3, 4, 5)),
    BeliefQuestion("the centre token", ("CIA", "KGB", "Hippie"), "identity", (6, 7, 8)),
)


def test_the_request_lists_every_question_with_its_answers():
    assert request(QUESTIONS).splitlines()[1:] == ["token of player_1: CIA ?, KGB ?, Hippie ?",
                                                   "the centre token: CIA ?, KGB ?, Hippie ?"]


def test_a_reply_is_read_line_by_line_whatever_the_number_format():
    reply = "accept\nToken of player_1: CIA 60%, KGB 0.3, hippie 10\nthe weather: sunny 100\nthe centre token: KGB"
    stated = read(reply, QUESTIONS)
    assert list(stated) == ["token of player_1", "the centre token"]
    np.testing.assert_allclose(stated["token of player_1"], [60, 0.3, 10])
    np.testing.assert_allclose(stated["the centre token"], [0, 0, 0])  # no number: nothing stated


def test_the_log_loss_is_the_cross_entropy_against_the_env_and_its_floor_the_env_entropy():
    env = np.array([0.5, 0.5, 0.0])
    loss, floor = log_loss(np.array([50.0, 50.0, 0.0]), env)
    assert loss == pytest.approx(math.log(2)) and floor == pytest.approx(math.log(2))  # the env's own answer
    loss, _ = log_loss(np.array([100.0, 0.0, 0.0]), env)  # a confident half-wrong answer, floored at 0.001
    assert loss == pytest.approx(-0.5 * math.log(0.001))
    assert log_loss(None, env)[0] == pytest.approx(math.log(3))  # left out: uniform
    assert log_loss(np.zeros(3), env)[0] == pytest.approx(math.log(3))


def test_a_seat_asks_nothing_of_a_game_that_names_no_questions():
    toy = next(g for g in every_game() if g.name == "toy")
    assert belief_questions(toy, toy.configure(3), 0) == ()
