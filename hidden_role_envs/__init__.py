"""Multi-agent RL environments for hidden-role card games (PettingZoo AEC).

Importing the package registers every game in PettingZoo's registry under
the `hidden_roles` namespace.
"""

from hidden_role_envs.core.registry import available_envs, make, register_games

__all__ = ["available_envs", "make"]
__version__ = "0.1.0"

register_games()
