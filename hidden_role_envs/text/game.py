"""What a text agent is told of a game: its rules at this table, and the hidden facts it may be asked to weigh.

Each game names the module that says them (`GameDefinition.rules_text`): `rules(config)`, a few paragraphs for
that table size, and `belief_questions(config, seat)`. A game that names none is told the opening of its docs (up
to their first heading), and has nothing to weigh.
"""

from __future__ import annotations

import importlib
from typing import Any

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.text.beliefs import BeliefQuestion


def rules(game: GameDefinition, config: Any) -> str:
    if game.rules_text is None:
        return game.doc.split("\n## ")[0].strip()
    return importlib.import_module(game.rules_text).rules(config).strip()


def belief_questions(game: GameDefinition, config: Any, seat: int) -> tuple[BeliefQuestion, ...]:
    if game.rules_text is None:
        return ()
    return tuple(importlib.import_module(game.rules_text).belief_questions(config, seat))
