"""What the command-line tools share: one-line usage errors, number arguments, the game and its table size."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


class UsageError(Exception):
    """Bad input from the command line: reported in one line, no traceback."""


def run_command(name: str, body: Callable[[], int]) -> int:
    """Run a command: bad input is one `NAME: error: ...` line on stderr (status 2), Ctrl-C one line (130)."""
    try:
        return body()
    except UsageError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130


class Parser(argparse.ArgumentParser):
    """An argument parser that raises UsageError instead of printing usage and exiting."""

    def error(self, message: str):
        raise UsageError(message)


def _integer(text: str, least: int, wanted: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    return _integer(text, 1, "a positive integer")


def non_negative_int(text: str) -> int:
    return _integer(text, 0, "a non-negative integer")


def positive_float(text: str) -> float:
    return _number(text, lambda value: 0 < value, "a positive number")


def non_negative_float(text: str) -> float:
    return _number(text, lambda value: 0 <= value, "a non-negative number")


def _number(text: str, allowed: Callable[[float], bool], wanted: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
    if not (allowed(value) and value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
    return value


def positive_ints(wanted: str):
    """An argparse type for comma-separated positive integers (layer sizes, batch sizes); `wanted` words the error."""

    def parse(text: str) -> tuple[int, ...]:
        try:
            values = tuple(int(part) for part in text.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
        if not values or min(values) < 1:
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return values

    return parse


def table_size(game: str, players: int | None) -> int:
    """The number of players of `game` asked for (None: the game's default), checked by the game itself."""
    from hidden_role_envs.core import registry

    if game not in registry.GAMES:
        raise UsageError(f"unknown game {game!r}; choose from: {', '.join(registry.GAMES)}")
    try:
        return registry.make(game, **({} if players is None else {"num_players": players})).unwrapped.num_players
    except ValueError as error:
        raise UsageError(f"--players: {error}") from None
