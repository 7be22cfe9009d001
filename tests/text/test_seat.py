"""Text seats: the scripted player in words plays the very games it plays directly; refused replies are asked again
and counted, and an agent that never answers is played for, counted, never silently; a chat agent gets the
conversation; figures add up."""

import math

import pytest

from hidden_role_envs.policies import scripted_player
from hidden_role_envs.text import TextFigures, TextSeat
from hidden_role_envs.training.evaluate import play_games
from tests.support import typical_tables
from tests.text.agents import FirstListedChat, ScriptedInWords, first_listed, never_legal

GAMES = 4


class Recorded:
    """A policy that writes down what it plays."""

    def __init__(self, policy, moves: list):
        self.policy, self.moves = policy, moves

    def __call__(self, observation):
        action = self.policy(observation)
        self.moves.append(action)
        return action


@pytest.mark.parametrize("game, table", typical_tables())
def test_the_scripted_player_in_words_wins_as_often_as_it_does_directly(game, table):
    """Same seeds, every seat the scripted player: once choosing from its observation, once replying in words
    (by name, by number, by a unique start, after a wrong reply now and then) read back by the parser."""
    n, arguments = table
    direct_env, text_env = (game.env(num_players=n, **arguments) for _ in range(2))
    direct_moves, text_moves = [], []
    direct = [Recorded(scripted_player(direct_env, seed), direct_moves) for seed in range(n)]
    agents = [ScriptedInWords(text_env, scripted_player(text_env, seed), text_moves) for seed in range(n)]
    seats = [TextSeat(agent, text_env, "scripted in words", seed) for seed, agent in enumerate(agents)]

    direct_wins = play_games(direct_env, direct, GAMES, seed=7)
    text_wins = play_games(text_env, seats, GAMES, seed=7)

    assert text_moves == direct_moves  # the very same games
    assert text_wins == direct_wins
    figures = sum((seat.figures for seat in seats), TextFigures())
    assert figures.decisions == len(text_moves)
    assert figures.illegal_replies == sum(agent.mistakes for agent in agents) > 0
    assert figures.fallbacks == 0
    assert figures.replies == figures.decisions + figures.illegal_replies


@pytest.fixture
def secrets_env():
    import hidden_role_envs

    return hidden_role_envs.make("secrets", num_players=5)


def with_scripted(env, seat) -> list:
    return [seat] + [scripted_player(env, s) for s in range(1, env.unwrapped.num_players)]


def test_an_agent_that_never_names_a_legal_action_is_played_for_and_counted(secrets_env, tmp_path):
    seat = TextSeat(never_legal, secrets_env, "stubborn", seed=0, retries=1)
    play_games(secrets_env, with_scripted(secrets_env, seat), 1, seed=0, transcripts=str(tmp_path))
    figures = seat.figures
    assert figures.decisions > 0
    assert figures.fallbacks == figures.decisions
    assert figures.replies == figures.illegal_replies == 2 * figures.decisions  # the reply and one retry each
    assert figures.illegal_per_decision == 2.0
    transcript = (tmp_path / "game-0-player_0.md").read_text()
    assert transcript.count("**Fallback:**") == figures.decisions
    assert transcript.count("was played for you, drawn at random") == 2 * figures.decisions - 1  # noted, then told


def test_a_chat_agent_gets_the_conversation_and_every_call_counts_as_prompt(secrets_env):
    agent = FirstListedChat()
    seat = TextSeat(agent, secrets_env, "chat", seed=0)
    play_games(secrets_env, with_scripted(secrets_env, seat), 1, seed=3)
    first, last = agent.conversations[0], agent.conversations[-1]
    assert [m["role"] for m in first] == ["system", "user"]
    assert "You are player_0 in a game of Secrets" in first[0]["content"]
    assert "Since the game began:" in first[1]["content"]
    assert [m["role"] for m in last] == ["system"] + ["user", "assistant"] * (len(agent.conversations) - 1) + ["user"]
    assert last[:-1] == agent.conversations[-2] + [{"role": "assistant", "content": last[-2]["content"]}]
    assert all("Since your last decision:" in m["content"] for m in last[3::2])
    sent = sum(len(m["content"]) for conversation in agent.conversations for m in conversation)
    assert seat.figures.prompt_chars == sent
    assert seat.figures.prompt_tokens_per_decision == pytest.approx(sent / 4 / seat.figures.decisions)


def test_a_callable_agent_is_sent_the_whole_story_each_time(secrets_env):
    prompts = []
    seat = TextSeat(lambda prompt: prompts.append(prompt) or first_listed(prompt), secrets_env, "stateless", seed=0)
    play_games(secrets_env, with_scripted(secrets_env, seat), 1, seed=3)
    assert all(prompt.startswith("You are player_0 in a game of Secrets") for prompt in prompts)
    assert all("What happened so far:" in prompt for prompt in prompts)
    first, last = ([line for line in p.splitlines() if line.startswith("- ")] for p in (prompts[0], prompts[-1]))
    assert len(last) > len(first) and last[: len(first)] == first


def test_asked_beliefs_are_scored_against_the_env_and_its_deductions_not_told(secrets_env, tmp_path):
    seat = TextSeat(first_listed, secrets_env, "silent", seed=0, ask_beliefs=True)
    play_games(secrets_env, with_scripted(secrets_env, seat), 2, seed=1, transcripts=str(tmp_path))
    figures = seat.figures
    assert figures.belief_questions == 6 * figures.decisions  # five tokens and the centre, at every decision
    assert figures.belief_log_loss == pytest.approx(math.log(3))  # no answer: uniform over CIA, KGB, Hippie
    assert 0 < figures.belief_log_loss_floor < math.log(3)
    transcript = (tmp_path / "game-0-player_0.md").read_text()
    assert "What you know:" not in transcript and "weigh these hidden facts" in transcript


def test_figures_add_up_and_divide_by_decisions():
    a = TextFigures(decisions=4, replies=6, illegal_replies=2, prompt_chars=400, belief_questions=2, belief_loss=1.0,
                    belief_floor=0.5)
    total = a + TextFigures(decisions=4, replies=4, prompt_chars=400)
    assert (total.decisions, total.replies, total.illegal_replies) == (8, 10, 2)
    assert total.illegal_per_decision == 0.25
    assert total.prompt_tokens_per_decision == 25.0
    assert (total.belief_log_loss, total.belief_log_loss_floor) == (0.5, 0.25)
    assert TextFigures().belief_log_loss is None


def test_what_is_not_a_text_agent_is_refused(secrets_env):
    with pytest.raises(TypeError, match="callable prompt -> reply"):
        TextSeat(42, secrets_env)
    seat = TextSeat(lambda prompt: None, secrets_env)
    secrets_env.reset(seed=0)
    seat.sit(secrets_env.agent_selection, 0)
    with pytest.raises(TypeError, match="replies with a str"):
        seat(secrets_env.observe(secrets_env.agent_selection))
    assert seat.figures.replies == 0
