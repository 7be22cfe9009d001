"""Spyfall in words: the public table, and each event as its viewer saw it (see `events.py`)."""

from __future__ import annotations

from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.events import SpyfallWords
from hidden_role_envs.games.spyfall.rules import BALLOT, DECISIONS, QUESTION, RESULTS


def words(config: SpyfallConfig, viewer: int) -> SpyfallWords:
    places = config.places
    vocab = {"location": places.names, "attribute": places.attributes, "result": RESULTS}
    return SpyfallWords(viewer, vocab, places)


def describe_table(engine) -> str:
    table = engine.table
    config = engine.config
    n = engine.num_players
    attributes = config.places.attributes
    scores = ", ".join(f"{agent_name(s)} {int(table.scores[s])}" for s in range(n))
    if engine.is_over:
        return f"Spyfall, {n} players, over after {config.num_rounds} round(s); points: {scores}"
    clock = "time is up" if table.time_up else f"{config.question_limit - table.questions} question(s) left"
    lines = [
        f"Spyfall, {n} players, round {table.round + 1} of {config.num_rounds}, dealer {agent_name(table.dealer)}; "
        f"{clock}; points: {scores}"
    ]
    if table.played:
        lines.append("  played: " + ", ".join(config.places.names[loc] for loc in table.played))
    if table.attribute != NOBODY:
        attribute = attributes[table.attribute]
        lines.append(f"  question: {agent_name(table.asker)} asks {agent_name(table.target)} about {attribute}")
    if table.accused != NOBODY:
        lines.append(
            f"  accusation: {agent_name(table.accuser)} accuses {agent_name(table.accused)}; "
            f"{table.votes_cast} of {len(table.voters)} vote(s) cast"
        )
    used = [agent_name(s) for s in range(n) if table.accusation_used[s]]
    if used:
        lines.append("  accusation used: " + ", ".join(used))
    if table.decision == QUESTION and table.cannot_ask != NOBODY:
        lines.append(f"  {agent_name(table.to_act)} may not ask {agent_name(table.cannot_ask)} back")
    lines.append(f"  decision: {agent_name(table.to_act)} must {DECISIONS[table.decision]}")
    if table.decision == BALLOT:
        lines[-1] += " (votes are secret until all are cast)"
    return "\n".join(lines)
