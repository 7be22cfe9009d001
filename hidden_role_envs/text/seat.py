"""Text agents at a table: the protocol, the seat that plays one, its transcript and its figures.

A text agent is either

- any callable `agent(prompt) -> reply`, given the whole story in one text at every decision (the rules, every
  event its seat saw so far, where the game stands), so that it needs no memory; or
- an object with a method `chat(messages) -> reply`, given the conversation so far in the chat-completions shape
  (`[{"role": "system" | "user" | "assistant", "content": ...}]`): the rules as the system message, then one user
  message per decision with what happened since the last one, and its own replies.

`TextSeat` plays one in a seat, through that seat's `TextView` only. At each decision it asks the agent and reads
the action (`read_action`); a refused reply is answered with the refusal and the legal actions, and the agent asked
again, `retries` times at most (2 by default). When the budget runs out the seat plays the FALLBACK: a legal action
drawn uniformly at random (seeded), counted in `figures.fallbacks`, written in the transcript and told to the agent
at its next decision. Nothing is played for an agent silently.

`NarratedSeat` seats any other policy (scripted, trained, random) with a transcript of the same words: what its seat
would have been told, and what it played.

A seated player's life at a table (what `hidden_role_envs.training.evaluate.play_games` calls): `sit(agent, game)`
when a game starts with it in seat `agent`, `player(observation) -> action id` at each of its decisions,
`stand() -> transcript` (Markdown) when the game is over.

Figures (`TextFigures`, summed over a seat's games): decisions, replies, illegal replies (refused), fallbacks,
prompt tokens, and the belief log-loss when the agent is asked its beliefs (`hidden_role_envs.text.beliefs`).
Prompt tokens are an APPROXIMATION, characters / 4 (the usual rule of thumb for English under GPT-style
tokenizers), of everything sent: a chat agent is sent the whole conversation at every call, and all of it counts,
as a server would count it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from hidden_role_envs.text import beliefs
from hidden_role_envs.text.parse import Refusal, read_action
from hidden_role_envs.text.view import TextView, legal_names

CHARS_PER_TOKEN = 4
DEFAULT_RETRIES = 2
TEXT_SPEC, LLM_SPEC = "text:", "llm:"


@dataclass
class TextFigures:
    """What a text agent did and what it cost, summed over its seat's games."""

    decisions: int = 0
    replies: int = 0
    illegal_replies: int = 0  # replies refused by the parser
    fallbacks: int = 0  # decisions played at random once the retry budget ran out
    prompt_chars: int = 0
    belief_questions: int = 0  # questions scored, over all decisions
    belief_loss: float = 0.0  # summed over those questions, nats
    belief_floor: float = 0.0  # the env's own entropy on the same questions, nats

    def __add__(self, other: TextFigures) -> TextFigures:
        return TextFigures(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def illegal_per_decision(self) -> float:
        return self.illegal_replies / max(self.decisions, 1)

    @property
    def prompt_tokens_per_decision(self) -> float:
        """An approximation: characters / 4."""
        return self.prompt_chars / CHARS_PER_TOKEN / max(self.decisions, 1)

    @property
    def belief_log_loss(self) -> float | None:
        return self.belief_loss / self.belief_questions if self.belief_questions else None

    @property
    def belief_log_loss_floor(self) -> float | None:
        return self.belief_floor / self.belief_questions if self.belief_questions else None


class Transcript:
    """One seat's game in Markdown: what it was told (fenced), what it replied (quoted), what was played."""

    def __init__(self, title: str):
        self.parts = [f"# {title}"]

    def told(self, heading: str, text: str) -> None:
        self.parts.append(f"## {heading}\n\n````text\n{text}\n````")

    def replied(self, reply: str) -> None:
        self.parts.append("\n".join(f"> {line}" for line in reply.splitlines()) or "> (an empty reply)")

    def note(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        return "\n\n".join(self.parts) + "\n"


class _Seated:
    """What every seat with a transcript does when a game starts and ends."""

    label: str
    deductions = True
    ask_beliefs = False

    def __init__(self, env: Any, label: str):
        self.env = env.unwrapped
        self.label = label

    def sit(self, agent: str, game: int) -> None:
        self.view = TextView(self.env, agent, self.deductions)
        definition = self.env.definition
        self.transcript = Transcript(f"{definition.title}, {self.env.num_players} players, game {game}: {agent}, "
                                     f"played by `{self.label}`")
        self.transcript.told("The rules, told once", self.view.opening(self.ask_beliefs))
        self.decision = 0

    def stand(self) -> str:
        self.transcript.told("The end", self.view.ending())
        return self.transcript.text()


class NarratedSeat(_Seated):
    """Any policy, with the transcript of what its seat would be told in words and what it played."""

    def __init__(self, policy: Callable[[dict], int], env: Any, label: str):
        super().__init__(env, label)
        self.policy = policy

    def __call__(self, observation: dict) -> int:
        self.decision += 1
        self.transcript.told(f"Decision {self.decision}", self.view.turn(observation))
        action = self.policy(observation)
        self.transcript.note(f"**{self.label} plays:** {self.env.action_to_string(int(action))}")
        return action


class _Chat:
    """What a chat agent is sent: the conversation so far (the rules, each decision's news, its replies, refusals)."""

    def __init__(self, agent: Any, opening: str):
        self.agent = agent
        self.messages = [{"role": "system", "content": opening}]

    def open(self, turn: str, whole: Callable[[], str]) -> None:
        self.messages.append({"role": "user", "content": turn})

    def ask(self) -> tuple[Any, int]:
        """The reply, and the characters sent for it."""
        sent = sum(len(m["content"]) for m in self.messages)
        reply = self.agent.chat([dict(m) for m in self.messages])
        self.messages.append({"role": "assistant", "content": reply})
        return reply, sent

    def refused(self, reply: str, refusal: Refusal) -> None:
        self.messages.append({"role": "user", "content": str(refusal)})


class _Prompt:
    """What a callable agent is sent: one text with the whole story, and this decision's refusals."""

    def __init__(self, agent: Any, opening: str):
        self.agent = agent

    def open(self, turn: str, whole: Callable[[], str]) -> None:
        self.prompt = whole()

    def ask(self) -> tuple[Any, int]:
        return self.agent(self.prompt), len(self.prompt)

    def refused(self, reply: str, refusal: Refusal) -> None:
        self.prompt += f"\n\nYou replied:\n{reply}\n\n{refusal}"


class TextSeat(_Seated):
    """A text agent in a seat: told its seat's view, answering in words (see the module docs).

    `ask_beliefs` asks it, at every decision, to weigh the hidden facts its game lists; it is then not told the
    env's own deductions (the answer), only what the seat saw.
    """

    def __init__(self, agent: Any, env: Any, label: str = "text", seed: int | None = None,
                 retries: int = DEFAULT_RETRIES, ask_beliefs: bool = False):
        super().__init__(env, label)
        if hasattr(agent, "chat"):
            self._talk = _Chat
        elif callable(agent):
            self._talk = _Prompt
        else:
            raise TypeError(f"{label}: a text agent is a callable prompt -> reply, or an object with a method "
                            f"chat(messages) -> reply; got {type(agent).__name__}")
        if retries < 0:
            raise ValueError(f"retries must be 0 or more; got {retries}")
        self.agent = agent
        self.rng = np.random.default_rng(seed)
        self.retries = retries
        self.ask_beliefs = ask_beliefs
        self.deductions = not ask_beliefs
        self.figures = TextFigures()

    def sit(self, agent: str, game: int) -> None:
        super().sit(agent, game)
        self.talk = self._talk(self.agent, self.view.opening(self.ask_beliefs))
        if self._talk is _Prompt:
            self.transcript.note("(A callable agent is sent the rules and the whole story at every decision; what is "
                                 "new at each is shown here.)")
        self._untold = ""  # a fallback played for the agent, to tell it at its next decision

    def __call__(self, observation: dict) -> int:
        self.decision += 1
        self.figures.decisions += 1
        legal = legal_names(self.env, observation)
        untold, self._untold = self._untold, ""
        turn = untold + self.view.turn(observation, self.ask_beliefs)
        self.transcript.told(f"Decision {self.decision}", turn)
        self.talk.open(turn, lambda: untold + self.view.whole(observation, self.ask_beliefs))
        for _ in range(self.retries + 1):
            reply, sent = self.talk.ask()
            if not isinstance(reply, str):
                raise TypeError(f"{self.label}: a text agent replies with a str; got {type(reply).__name__}")
            self.figures.replies += 1
            self.figures.prompt_chars += sent
            self.transcript.replied(reply)
            try:
                index = read_action(reply, legal)
            except Refusal as refusal:
                self.figures.illegal_replies += 1
                self.transcript.told("Refused", str(refusal))
                self.talk.refused(reply, refusal)
                continue
            if self.ask_beliefs:
                self._score(reply, observation)
            return int(np.flatnonzero(observation["action_mask"])[index])
        return self._fall_back(observation, legal)

    def _fall_back(self, observation: dict, legal: list[str]) -> int:
        ids = np.flatnonzero(observation["action_mask"])
        choice = int(self.rng.integers(len(ids)))
        self.figures.fallbacks += 1
        said = f"No legal action in {self.retries + 1} replies: {legal[choice]!r} was played for you, drawn at random."
        self.transcript.note(f"**Fallback:** {said}")
        self._untold = said + "\n\n"
        return int(ids[choice])

    def _score(self, reply: str, observation: dict) -> None:
        vector = observation["observation"]
        blocks = {name: vector[where] for name, where in self.env.observation_fields.items()}
        stated = beliefs.read(reply, self.view.questions)
        for question in self.view.questions:
            loss, floor = beliefs.log_loss(stated.get(question.label), beliefs.env_answer(question, blocks))
            self.figures.belief_questions += 1
            self.figures.belief_loss += loss
            self.figures.belief_floor += floor


def is_text_spec(spec: object) -> bool:
    return isinstance(spec, str) and spec.startswith((TEXT_SPEC, LLM_SPEC))


def text_agent(spec: str) -> Any:
    """The agent a seat spec names: `text:module:name`, a text agent in an importable module (a callable
    prompt -> reply, or an object with `chat`); or `llm:MODEL@URL`, a chat-completions server (`ChatCompletionsAgent`,
    with the key of the environment variable OPENAI_API_KEY when it is set). ValueError saying what is wrong."""
    if spec.startswith(LLM_SPEC):
        model, at, url = spec.removeprefix(LLM_SPEC).partition("@")
        if not (model and at and url):
            raise ValueError(f"{spec!r}: an llm seat is llm:MODEL@URL, e.g. llm:qwen2.5-7b@http://localhost:8000/v1")
        from hidden_role_envs.text.chat_completions import ChatCompletionsAgent

        return ChatCompletionsAgent(url, model, api_key=os.environ.get("OPENAI_API_KEY"))
    module, colon, name = spec.removeprefix(TEXT_SPEC).rpartition(":")
    if not (module and colon and name):
        raise ValueError(f"{spec!r}: a text seat is text:module:name, e.g. text:my_agents:ask_my_model")
    try:
        agent = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"{spec!r}: cannot load the text agent ({error})") from None
    if not (hasattr(agent, "chat") or callable(agent)):
        raise ValueError(f"{spec!r}: {name} is neither a callable prompt -> reply nor an object with chat(messages)")
    return agent
