"""What every game's scripted player shares: it sees one seat's observation dict and nothing else.

A scripted player is built from the env's configuration (its table's
layout and action table), so it plays any configuration the env accepts,
and reads the observation by the layout's named views.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hidden_role_envs.core.actions import ActionTable
from hidden_role_envs.core.observation import Layout


class ScriptedPlayer:
    """`player(observation_dict)` returns a legal action id; `seed` makes its random choices reproducible."""

    def __init__(self, config: Any, layout: Layout, actions: ActionTable, seed: int | None):
        self.num_players = config.num_players
        self.layout = layout
        self.actions = actions
        self.rng = np.random.default_rng(seed)

    def read(self, observation: dict[str, np.ndarray]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """The legal action ids and the observation's named views; a mask with no legal action is an error."""
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 0:
            raise ValueError("no legal action in the mask: this seat is not asked to decide")
        return legal, self.layout.views(np.asarray(observation["observation"], dtype=np.float32))
