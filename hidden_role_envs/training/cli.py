"""`hidden-roles`: train, evaluate and play the games from the command line.

    hidden-roles train secrets
    hidden-roles evaluate hoax --players 4 --seats scripted,random
    hidden-roles league hoax --players 4 --agents random,scripted
    hidden-roles play mascarade --opponents scripted

Each command is also a module (`python -m hidden_role_envs.training.evaluate`, ...);
`hidden-roles COMMAND --help` tells its options.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "train": ("hidden_role_envs.training.train",
              "train a policy by self-play PPO on the batched engine (or --backend sb3, --backend rllib)"),
    "evaluate": ("hidden_role_envs.training.evaluate", "win rates of policies in seeded games, with confidence intervals"),
    "league": ("hidden_role_envs.training.league", "a round-robin league between policies: ratings and a cross-table"),
    "play": ("hidden_role_envs.training.play", "play one seat yourself in the terminal"),
    "bench": ("hidden_role_envs.benchmarks.suite", "throughput and memory of the games against PettingZoo's classic games"),
}


def usage() -> str:
    lines = ["usage: hidden-roles COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<9} {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += ["", "hidden-roles COMMAND --help tells a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"hidden-roles: error: unknown command {command!r}; choose from: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[command][0])
    return module.main(rest, prog=f"hidden-roles {command}")


if __name__ == "__main__":
    sys.exit(main())
