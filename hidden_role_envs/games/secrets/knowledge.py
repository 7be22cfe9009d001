"""What a Secrets seat knows of the identity tokens: an exact posterior over the deals.

The n+1 tokens (n seats, then the centre) hold a fixed multiset of CIA, KGB
and Hippie tokens, so a deal is one arrangement of that multiset: at most
630 of them (8 players). Each seat keeps a weight per deal
(`core.knowledge.DealBeliefs`), updated from the events it saw only:

- its early intelligence, its own looks (Double Agent, Politician,
  Detective) and the tokens shown to it (Journalist, Diplomat, the centre
  at 7-8 players): `see`, the deals that disagree are ruled out;
- a swap it watched (Psychiatrist, Double Agent): `swap`, what it knew moves
  with the tokens;
- a Diplomat's unseen swap, left or right: `swap_one_of`, each side as
  likely (the seat cannot see the choice, so it has no reason to prefer one).

The `identity` block is the marginal of each place; `teammate` the chance
that a seat holds a token of the observer's own team (CIA or KGB), which
needs the joint posterior, not the marginals.
"""

from __future__ import annotations

from hidden_role_envs.core.knowledge import DealBeliefs, DealTable
from hidden_role_envs.games.secrets.cards import CIA, KGB
from hidden_role_envs.games.secrets.config import SecretsConfig

TEAMS = (CIA, KGB)  # Hippies are on no team


def token_beliefs(config: SecretsConfig) -> DealBeliefs:
    """Every seat's beliefs at the start: all the deals of the table equally likely."""
    return DealBeliefs(DealTable.of(config.token_counts), config.num_players)
