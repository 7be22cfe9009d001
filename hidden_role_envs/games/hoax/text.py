"""Hoax in words: the public table, and each event as its viewer saw it (see `events.py`)."""

from __future__ import annotations

from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.hoax.actions import DECISIONS
from hidden_role_envs.games.hoax.cards import RESOURCES
from hidden_role_envs.games.hoax.config import HoaxConfig
from hidden_role_envs.games.hoax.events import HoaxWords


def words(config: HoaxConfig, viewer: int) -> HoaxWords:
    vocab = {"character": config.sheet.names, "resource": RESOURCES}
    return HoaxWords(viewer, vocab, config.sheet)


def describe_table(engine) -> str:
    table = engine.table
    sheet = engine.sheet
    n = engine.num_players
    when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
    holder = "in the centre" if table.hoax_holder == NOBODY else f"with {agent_name(table.hoax_holder)}"
    lines = [f"Hoax, {n} players, {when}; the Hoax card is {holder}"]
    for seat in range(n):
        if table.eliminated[seat]:
            state = "out"
        else:
            state = ", ".join(f"{k} {r}" for k, r in zip(table.resources[seat], RESOURCES))
        tokens = [sheet.names[c] for c in range(len(sheet.names)) if table.impostor[seat][c]]
        impostor = f"; impostor on {', '.join(tokens)}" if tokens else ""
        active = " (active)" if seat == table.active and not engine.is_over else ""
        lines.append(f"  {agent_name(seat)}{active}: {state}{impostor}")
    lines.append("  supply: " + ", ".join(f"{k} {r}" for k, r in zip(table.supply, RESOURCES)))
    if any(table.votes):
        votes = [f"{agent_name(s)} {'up' if v > 0 else 'down'}" for s, v in enumerate(table.votes) if v]
        lines.append("  last vote: " + ", ".join(votes))
    if engine.is_over:
        return "\n".join(lines)
    public = words(engine.config, NOBODY)  # as nobody in particular says it: every seat by its name
    for claim in (table.claim, table.immunity):
        if claim is not None:
            lines.append("  " + claim.text(claim, public))
    lines.append(f"  decision: {agent_name(table.to_act)} must {DECISIONS[table.decision]}")
    return "\n".join(lines)
