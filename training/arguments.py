"""What the command-line tools share: one-line usage errors and number arguments."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Bad input from the command line: reported in one line, no traceback."""


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
