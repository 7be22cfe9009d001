"""Language-model agents at the tables: every game in words, from the same knowledge as the observations.

- `view.TextView`: one seat's view in words, built only from what it saw (its events, the public table, its
  knowledge in words, the legal actions by name), and the rules of its game at that table, once;
- `parse.read_action`: an action from a reply (exact name, number in the list, unique start of a name), or a
  refusal that lists the legal actions;
- `beliefs`: the hidden facts an agent may be asked to weigh, scored by log-loss against the env's belief blocks.
"""

from hidden_role_envs.text.beliefs import BeliefQuestion
from hidden_role_envs.text.parse import Refusal, read_action
from hidden_role_envs.text.view import TextView

__all__ = ["BeliefQuestion", "Refusal", "TextView", "read_action"]
