"""Mascarade in words: the public table, and each event as its viewer saw it (see `events.py`)."""

from __future__ import annotations

from hidden_role_envs.core.engine import named
from hidden_role_envs.core.seats import NOBODY, agent_name
from hidden_role_envs.games.mascarade.characters import CHARACTERS
from hidden_role_envs.games.mascarade.config import MascaradeConfig
from hidden_role_envs.games.mascarade.events import MascaradeWords
from hidden_role_envs.games.mascarade.rules import DECISIONS


def place_names(config: MascaradeConfig) -> tuple[str, ...]:
    """Each card place by its absolute name: `player_2` (`player_2 A` at 2-3 players), `centre 1`."""
    n, hand = config.num_players, config.hand
    seats = [agent_name(s) if hand == 1 else f"{agent_name(s)} {'AB'[j]}" for s in range(n) for j in range(hand)]
    return tuple(seats) + tuple(f"centre {j + 1}" for j in range(config.num_centre))


def words(config: MascaradeConfig, viewer: int) -> MascaradeWords:
    return MascaradeWords(viewer, {"character": CHARACTERS, "place": place_names(config)}, config.num_players,
                          config.hand)


def describe_table(engine) -> str:
    table = engine.table
    config = engine.config
    n = engine.num_players
    when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
    in_play = ", ".join(CHARACTERS[c] for c in config.characters)
    lines = [f"Mascarade, {n} players, {when}; in play: {in_play}", f"  courthouse: {table.courthouse} coins"]
    for seat in range(n):
        mark = " (active)" if seat == table.active and not engine.is_over else ""
        lines.append(f"  {agent_name(seat)}{mark}: {int(table.coins[seat])} coins")
    if engine.is_over:
        lines.append(f"  {named(engine.result)}")
        return "\n".join(lines)
    if table.forced:
        lines.append("  the active player may only swap or not this turn")
    if table.announcement != NOBODY:
        claimants = ", ".join(agent_name(s) for s in table.claimants) or "nobody yet"
        lines.append(
            f"  {agent_name(table.announcer)} announced the {CHARACTERS[table.announcement]}; claimed too: {claimants}"
        )
    place = words(config, NOBODY).place
    for where, character in table.revealed.items():
        lines.append(f"  revealed: {place(where)} is the {CHARACTERS[character]}")
    lines.append(f"  decision: {agent_name(table.to_act)} must {DECISIONS[table.decision]}")
    return "\n".join(lines)
