"""The configuration of a Secrets table: its constructor arguments, checked."""

from __future__ import annotations

from dataclasses import dataclass

from hidden_role_envs.core.checks import check_bool
from hidden_role_envs.core.definition import Argument
from hidden_role_envs.games.secrets.cards import TOKENS_BY_PLAYERS, screen_size_that_ends_the_game

ARGUMENTS = (Argument("claims", True, "when False, offers carry no claim"),)
DEFAULT_MAX_TURNS = 100  # a game ends by the rules within 25 turns


@dataclass(frozen=True)
class SecretsConfig:
    num_players: int
    claims: bool = True

    @property
    def end_size(self) -> int:
        return screen_size_that_ends_the_game(self.num_players)

    @property
    def token_counts(self) -> tuple[int, int, int]:
        """CIA, KGB and Hippie tokens in play."""
        return TOKENS_BY_PLAYERS[self.num_players]


def configure(num_players: int, claims: bool = True) -> SecretsConfig:
    return SecretsConfig(num_players=num_players, claims=check_bool("claims", claims))
