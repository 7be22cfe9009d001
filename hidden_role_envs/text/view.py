"""One seat's view of a game in words, built only from what that seat saw.

Its sources are the env's own, the ones the leak tests hold to the seat's knowledge: the events the seat saw
(`history(agent)`, each with its line of text), the public table (`describe_table`), the seat's knowledge in words
(the observer's `describe(seat)`: what it holds and saw, and what it deduced) and the legal actions of its
observation's mask, by name. The engine's hidden state is never read, so two games that differ only in a fact the
seat has not seen read the same (tests/text/test_view.py checks it on every game's leak twins).

A seat is told the rules once (`opening`), then at each decision what happened since its last one and where the
game stands (`turn`); a stateless agent gets it all in one text (`whole`). The end (`ending`) adds what the game
revealed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.text import beliefs, game

ANSWER_FORMAT = (
    "Each time you are to decide you are told what happened, where the game stands and the legal actions, numbered. "
    "Reply with one legal action alone on the first line: its name, its number, or the start of its name if no other "
    "legal action starts the same way."
)


def legal_names(env: Any, observation: dict) -> list[str]:
    """The names of the legal actions of `observation`'s mask, in id order."""
    return [env.unwrapped.action_to_string(int(a)) for a in np.flatnonzero(observation["action_mask"])]


def numbered(names: list[str]) -> list[str]:
    return [f"{i}. {name}" for i, name in enumerate(names, 1)]


class TextView:
    """What `agent`'s seat is told, in words. `deductions=False` leaves out what the env deduced for it (the
    knowledge in words), for an agent asked to deduce it; every fact the seat saw is in the events all the same."""

    def __init__(self, env: Any, agent: str, deductions: bool = True):
        self.env = env.unwrapped
        self.agent = agent
        self.seat = self.env.possible_agents.index(agent)
        self.deductions = deductions
        self.questions = game.belief_questions(self.env.definition, self.env.config, self.seat)
        self._read = 0  # the seat's events read from the history so far
        self._lines: list[str] = []  # their lines
        self._told = 0  # the lines already told
        self._spoken = False  # whether the seat was told anything since the rules

    def opening(self, ask_beliefs: bool = False) -> str:
        """The rules of the game at this table, who the seat is, and how to answer: told once, first."""
        env = self.env
        n = env.num_players
        lefts = ", ".join(f"+{k} is {agent_name((self.seat + k) % n)}" for k in range(1, n))
        parts = [
            f"You are {self.agent} in a game of {env.definition.title} with {n} players, {agent_name(0)} to "
            f"{agent_name(n - 1)}, seated in turn order.",
            game.rules(env.definition, env.config),
            f"In action names, +k is the player k seats to your left (the k-th after you in turn order): {lefts}.",
            ANSWER_FORMAT,
        ]
        if ask_beliefs:
            parts.append("After your action you will be asked to weigh some hidden facts; what you know you work "
                         "out from what you saw.")
        return "\n\n".join(parts)

    def turn(self, observation: dict, ask_beliefs: bool = False) -> str:
        """What happened since the seat's last decision (or since the game began), then where the game stands."""
        return "\n\n".join([self._since(), self.standing(observation, ask_beliefs)])

    def whole(self, observation: dict, ask_beliefs: bool = False) -> str:
        """Everything in one text: the rules, every event the seat saw so far, and where the game stands."""
        return "\n\n".join([self.opening(ask_beliefs), _section("What happened so far:", self.story()),
                            self.standing(observation, ask_beliefs)])

    def ending(self) -> str:
        """What happened since the seat's last decision, and what the end of the game revealed."""
        parts = [self._since(), self.env.describe_table()]
        outcome = self.env.outcome(self.agent)
        if outcome is None:
            parts.append("The game ended.")
        else:
            revealed, own = outcome
            parts.append(_section("The game is over:", [f"{k}: {_words(v)}" for k, v in revealed.items()]))
            parts.append(_section("For you:", [f"{k}: {_words(v)}" for k, v in own.items()]))
        return "\n\n".join(parts)

    def _since(self) -> str:
        heading = "Since your last decision:" if self._spoken else "Since the game began:"
        self._spoken = True
        return _section(heading, self.news())

    def news(self) -> list[str]:
        """The lines of the events the seat saw since the last call."""
        lines = self.story()
        told, self._told = self._told, len(lines)
        return lines[told:]

    def story(self) -> list[str]:
        """The line of every event the seat saw this game that is worth one, oldest first."""
        new = self.env.history(self.agent, start=self._read)
        self._read += len(new)
        self._lines += [event["text"] for event in new if event["text"]]
        return list(self._lines)

    def standing(self, observation: dict, ask_beliefs: bool = False) -> str:
        """What the seat knows, the public table, and the decision asked of it (none: it waits)."""
        parts = []
        if self.deductions:
            known = self.env.observer.describe(self.seat)
            if known:
                parts.append("What you know:\n" + known)
        parts.append("The table:\n" + self.env.describe_table())
        legal = legal_names(self.env, observation)
        if not legal:
            parts.append(f"It is not your decision, {self.agent}.")
            return "\n\n".join(parts)
        parts.append(f"Your decision, {self.agent}. Legal actions:\n" + "\n".join(numbered(legal)))
        if ask_beliefs and self.questions:
            parts.append(beliefs.request(self.questions))
        return "\n\n".join(parts)


def _section(heading: str, lines: list[str]) -> str:
    return "\n".join([heading] + [f"- {line}" for line in lines or ["nothing you saw"]])


def _words(value: Any) -> str:
    """An outcome's value as a reader says it: lists joined, dicts as `key value` pairs."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) or "none"
    return str(value)
