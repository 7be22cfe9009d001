"""Beliefs in words: the hidden facts a text agent may be asked to weigh, and how far its answers are from the env's.

A game lists its questions (`belief_questions(config, seat)` in its `rules_text` module): each names one hidden
fact ("token of player_3"), its possible answers, and where the env's own answer lies in the seat's observation:
entries of one of its `belief` blocks (the exact posterior, or the game's documented model of it). An agent asked
for its beliefs writes one line per question after its action, every answer with a number (percent or not):

    token of player_3: CIA 60, KGB 30, Hippie 10

Its log-loss on a question is the cross-entropy of its answer against the env's, -sum_k q_k log p_k, in nats: q is
the env's probability of answer k, p the agent's numbers normalised and floored at 0.001 (so that a confident
wrong answer costs log 1000 = 6.9 nats, not infinity). An answer left out counts as 0 (so, the floor); a question
left out, or all zeros, as uniform. The measure's floor is the entropy of the env's own answer, which an agent
that deduces exactly what the env deduces reaches; the figures give both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

FLOOR = 0.001
_ITEM = re.compile(r"^(?P<name>.*?)\s*[:=]?\s*(?P<value>\d+(?:\.\d*)?|\.\d+)\s*%?$")


@dataclass(frozen=True)
class BeliefQuestion:
    """One hidden fact: which of `options` holds, with the env's chance of each at `entries` of block `block`."""

    label: str  # "token of player_3", as the seat says it; unique among a seat's questions
    options: tuple[str, ...]
    block: str  # an observation block of group "belief"
    entries: tuple[int, ...]  # the entry of each option within the block (flat, in the seat's own order)

    def __post_init__(self):
        if len(self.options) != len(self.entries):
            raise ValueError(f"belief question {self.label!r}: {len(self.options)} options for {len(self.entries)} "
                             "entries")


def request(questions: Sequence[BeliefQuestion]) -> str:
    """What the agent is asked, after the legal actions."""
    lines = ["After the action, weigh these hidden facts, one line each: every possible answer with your chance of "
             "it in percent."]
    lines += [f"{q.label}: " + ", ".join(f"{option} ?" for option in q.options) for q in questions]
    return "\n".join(lines)


def read(reply: str, questions: Sequence[BeliefQuestion]) -> dict[str, np.ndarray]:
    """The agent's stated chances, by question label (only the questions it answered), from its reply's lines."""
    by_label = {_key(q.label): q for q in questions}
    stated = {}
    for line in reply.splitlines():
        label, colon, rest = line.partition(":")
        question = by_label.get(_key(label))
        if not colon or question is None:
            continue
        index = {_key(option): i for i, option in enumerate(question.options)}
        chances = np.zeros(len(question.options))
        for item in rest.split(","):
            match = _ITEM.match(item.strip())
            if match and _key(match["name"]) in index:
                chances[index[_key(match["name"])]] = float(match["value"])
        stated[question.label] = chances
    return stated


def log_loss(stated: np.ndarray | None, env_answer: np.ndarray) -> tuple[float, float]:
    """(the agent's cross-entropy against the env's answer, the entropy of the env's answer), in nats."""
    q = env_answer / env_answer.sum()
    if stated is None or not stated.sum() > 0:
        p = np.full(len(q), 1 / len(q))
    else:
        p = np.maximum(stated / stated.sum(), FLOOR)
    present = q > 0
    return float(-(q[present] * np.log(p[present])).sum()), float(-(q[present] * np.log(q[present])).sum())


def env_answer(question: BeliefQuestion, blocks: dict[str, np.ndarray]) -> np.ndarray:
    """The env's chance of each option, from the seat's observation blocks (flat, by name)."""
    return np.asarray(blocks[question.block], dtype=np.float64)[list(question.entries)]


def _key(text: str) -> str:
    return " ".join(text.strip().strip("*`'\"").lower().split())
