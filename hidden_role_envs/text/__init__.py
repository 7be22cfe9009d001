"""Language-model agents at the tables: every game in words, from the same knowledge as the observations.

- `view.TextView`: one seat's view in words, built only from what it saw (its events, the public table, its
  knowledge in words, the legal actions by name), and the rules of its game at that table, once;
- `parse.read_action`: an action from a reply (exact name, number in the list, unique start of a name), or a
  refusal that lists the legal actions;
- `seat.TextSeat`: a text agent (a callable prompt -> reply, or an object with `chat(messages)`) in one seat, with
  a retry budget, a counted fallback, a transcript and its figures; `seat.NarratedSeat`: any other policy with the
  same transcript;
- `beliefs`: the hidden facts an agent may be asked to weigh, scored by log-loss against the env's belief blocks;
- `chat_completions.ChatCompletionsAgent`: a text agent served by an OpenAI-compatible chat-completions server.

Tables mixing text agents, scripted players, trained policies and random players are played by
`hidden-roles evaluate GAME --seats text:module:name,scripted,...` (or `llm:MODEL@URL`), seeded, with
`--transcripts FOLDER` for a transcript per seat and game.
"""

from hidden_role_envs.text.beliefs import BeliefQuestion
from hidden_role_envs.text.chat_completions import ChatCompletionsAgent
from hidden_role_envs.text.parse import Refusal, read_action
from hidden_role_envs.text.seat import NarratedSeat, TextFigures, TextSeat
from hidden_role_envs.text.view import TextView

__all__ = [
    "BeliefQuestion",
    "ChatCompletionsAgent",
    "NarratedSeat",
    "Refusal",
    "TextFigures",
    "TextSeat",
    "TextView",
    "read_action",
]
