"""Multi-agent RL environments for hidden-role card games (PettingZoo AEC).

Importing the package registers every game in PettingZoo's registry under
the `hidden_roles` namespace (`hidden_roles/secrets-v0`), and its single-seat
view in Gymnasium's (`hidden_roles/Secrets-v0`).
"""

from hidden_role_envs.core.registry import available_envs, make, register_games
from hidden_role_envs.wrappers.single_seat import SingleSeatEnv, register_single_seat_envs

__all__ = ["SingleSeatEnv", "available_envs", "make"]
__version__ = "0.1.0"

register_games()
register_single_seat_envs()
