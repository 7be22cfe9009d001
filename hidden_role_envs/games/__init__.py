"""One folder per game; each declares its `GAME` and joins the registry here, one line each."""

from hidden_role_envs.core.registry import register
from hidden_role_envs.games import hoax, mascarade, secrets, spyfall

register(secrets.GAME)
register(mascarade.GAME)
register(hoax.GAME)
register(spyfall.GAME)
