"""How far a seat among Secrets' scripted players gets when it plays as they do, but with other settings.

Usage: python hidden_role_envs/training/results/secrets-5p-settings.py GAMES [NAME=VALUE ...]

NAME is one of the scripted player's `DEFAULT_PARAMS` (`bots.py`: the shape of its win-chance estimate) or one of
the module's constants `ACCEPT_CHANCE`, `INTERCEPT_CHANCE` and `SHARE_OF_TURNS_LEFT` (how it models the other
seats' answers and the game's length), set for that seat alone. The seat is rotated among four default scripted
players at 5 players (`evaluate.play_games`, seed 1); with no NAME=VALUE it is the control.
"""

import sys

from hidden_role_envs.core import registry
from hidden_role_envs.games.secrets import bots
from hidden_role_envs.games.secrets.bots import SecretsScriptedPlayer
from hidden_role_envs.training.evaluate import play_games, wilson_interval

N = 5
CONSTANTS = ("ACCEPT_CHANCE", "INTERCEPT_CHANCE", "SHARE_OF_TURNS_LEFT")
if len(sys.argv) < 2 or any("=" not in arg for arg in sys.argv[2:]):
    raise SystemExit(__doc__)
games = int(sys.argv[1])
settings = {name: float(value) for name, value in (arg.split("=") for arg in sys.argv[2:])}
constants = {name: value for name, value in settings.items() if name in CONSTANTS}
params = {name: value for name, value in settings.items() if name not in CONSTANTS}
env = registry.make("secrets", num_players=N)
config = env.unwrapped.config


class Variant(SecretsScriptedPlayer):
    """The scripted player, the module's constants set to this seat's values while it decides."""

    def __call__(self, observation):
        defaults = {name: getattr(bots, name) for name in constants}
        for name, value in constants.items():
            setattr(bots, name, value)
        try:
            return super().__call__(observation)
        finally:
            for name, value in defaults.items():
                setattr(bots, name, value)


players = [Variant(config, seed=0, **params)] + [SecretsScriptedPlayer(config, seed=s) for s in range(1, N)]
wins, _ = play_games(env, players, games, seed=1)
low, high = wilson_interval(wins[0], games)
print(f"{' '.join(sys.argv[2:]) or 'the control'}: {wins[0] / games:.3f} [{low:.3f}, {high:.3f}] over {games} games")
