"""Multi-agent RL environments for hidden-role card games (PettingZoo AEC).

Importing the package registers every game in PettingZoo's registry under
the `hidden_roles` namespace (`hidden_roles/secrets-v1`), and its single-seat
view in Gymnasium's (`hidden_roles/Secrets-v1`).
"""

from hidden_role_envs import games  # noqa: F401  (registers the games)
from hidden_role_envs.core.registry import available_envs, make, register
from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

__all__ = ["SingleSeatEnv", "available_envs", "make", "register"]
__version__ = "0.1.0"
