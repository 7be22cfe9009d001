"""Secrets in words: the public table, and each event as its viewer saw it (see `events.py`)."""

from __future__ import annotations

from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.secrets.actions import DECISIONS
from hidden_role_envs.games.secrets.cards import CHARACTERS, IDENTITIES
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.games.secrets.events import SecretsWords


def words(config: SecretsConfig, viewer: int) -> SecretsWords:
    vocab = {"character": CHARACTERS, "identity": IDENTITIES,
             "seat": tuple(agent_name(s) for s in range(config.num_players))}
    return SecretsWords(viewer, vocab, config.num_players)


def describe_table(engine) -> str:
    table = engine.table
    n = engine.num_players
    when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
    lines = [f"Secrets, {n} players, {when}; a screen of {engine.end_size} cards ends the game."]
    for seat in range(n):
        up = [f"{CHARACTERS[c]} x{int(k)}" if k > 1 else CHARACTERS[c] for c, k in enumerate(table.face_up[seat]) if k]
        marks = []
        if seat == table.active and not engine.is_over:
            marks.append("active")
        if seat == table.un_holder:
            marks.append("UN")
        mark = f" ({', '.join(marks)})" if marks else ""
        lines.append(
            f"  {agent_name(seat)}{mark}: face up [{', '.join(up)}], {int(table.face_down[seat])} face down, "
            f"{int(table.bullets[seat])} Bullet(s)"
        )
    if engine.is_over:
        return "\n".join(lines)
    lines.append("  showing this turn: " + " and ".join(CHARACTERS[c] for c in table.revealed))
    if table.offer_target != NOBODY:
        claim = f", said to be {CHARACTERS[table.claim]}" if table.claim != NOBODY else ""
        lines.append(f"  Offer: {agent_name(table.active)} -> {agent_name(table.offer_target)}{claim}")
    if table.card_in_play != NOBODY:
        lines.append(f"  the card turned up is {CHARACTERS[table.card_in_play]}")
    lines.append(f"  decision: {DECISIONS[table.decision]}, asked of {agent_name(table.to_act)}")
    return "\n".join(lines)
