"""Other views of the games: one seat as a Gymnasium env."""

from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

__all__ = ["SingleSeatEnv"]
