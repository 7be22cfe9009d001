"""Text agents for the tests: plain functions a seat spec can name, and a scripted player that answers in words."""

from __future__ import annotations

import re

LIST_LINE = re.compile(r"^(\d+)\. (.+)$")


def listed_actions(prompt: str) -> list[str]:
    """The numbered legal actions of the last list in `prompt`, in order."""
    block = prompt.rsplit("Legal actions:\n", 1)[-1]
    names = []
    for line in block.splitlines():
        match = LIST_LINE.match(line)
        if not match:
            break
        names.append(match[2])
    return names


def first_listed(prompt: str) -> str:
    """Always the first legal action, by its number."""
    return "1"


def never_legal(prompt: str) -> str:
    return "I would rather not say."


class FirstListedChat:
    """A chat agent: the first legal action of the conversation's last message, by name; keeps what it was sent."""

    def __init__(self):
        self.conversations: list[list[dict]] = []

    def chat(self, messages: list[dict]) -> str:
        self.conversations.append(messages)
        return listed_actions(messages[-1]["content"])[0]


first_listed_chat = FirstListedChat()


def unique_start(name: str, names: list[str]) -> str:
    """The shortest start of `name` that no other of `names` starts with (never ending in a space)."""
    for end in range(1, len(name) + 1):
        start = name[:end].lower()
        if start[-1] != " " and [n for n in names if n.lower().startswith(start)] == [name]:
            return name[:end]
    return name


class ScriptedInWords:
    """The scripted player of a seat, answering in words: it reads the seat's observation for its choice, finds
    that action in the list the prompt shows, and replies with its name, its number or a unique start of it, in
    turn; every `mistake_every`-th decision it first replies something that is no action, to be asked again."""

    def __init__(self, env, policy, moves: list, mistake_every: int = 5):
        self.env = env.unwrapped
        self.policy = policy
        self.moves = moves
        self.mistake_every = mistake_every
        self.decisions = 0
        self.mistakes = 0
        self.pending: str | None = None  # the choice of the decision in progress, once a mistake was made

    def __call__(self, prompt: str) -> str:
        if self.pending is not None:
            name, self.pending = self.pending, None
            return name
        self.decisions += 1
        action = self.policy(self.env.observe(self.env.agent_selection))
        self.moves.append(action)
        name = self.env.action_to_string(action)
        listed = listed_actions(prompt)
        assert name in listed, f"{name!r} is legal but not in the list the agent was shown"
        if self.decisions % self.mistake_every == 0:
            self.pending = name
            self.mistakes += 1
            return "hmm, let me see"
        form = self.decisions % 3
        if form == 0:
            return name
        if form == 1:
            return str(listed.index(name) + 1)
        return unique_start(name, listed)
