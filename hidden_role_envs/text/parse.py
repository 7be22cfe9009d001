"""Reading an action from a text agent's reply.

The action is the reply's first non-empty line, read without regard to case, spaces, quotes, backticks, asterisks
or a final full stop. It is accepted when it is

- the exact name of a legal action (`offer +2 as Scientist`);
- its number in the numbered list the agent was shown (`3`), or that list's line as shown (`3. accept`);
- the start of exactly one legal action's name (`offer +2 as Sc`); a whole name wins over the longer names it
  starts (`offer +2` is that offer, not a prefix of `offer +2 as Scientist`).

Anything else is refused with a `Refusal` that says why and lists the legal actions again; the caller asks again,
within its retry budget (see `hidden_role_envs.text.seat`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hidden_role_envs.text.view import numbered

_LIST_LINE = re.compile(r"^(\d+)\s*[.):]\s*(.+)$")


class Refusal(ValueError):
    """A reply that names no legal action; its message is what the agent is told."""


def read_action(reply: str, legal: Sequence[str]) -> int:
    """The index in `legal` of the action `reply` names, or Refusal."""
    line = next((line for line in reply.splitlines() if line.strip()), "")
    wanted = _plain(line)
    if not wanted:
        raise _refusal("Your reply is empty.", legal)
    names = [_plain(name) for name in legal]
    if wanted.isdigit():
        if 1 <= int(wanted) <= len(legal):
            return int(wanted) - 1
        raise _refusal(f"No legal action is numbered {wanted}.", legal)
    listed = _LIST_LINE.match(wanted)
    if listed and 1 <= int(listed[1]) <= len(legal) and names[int(listed[1]) - 1] == listed[2]:
        return int(listed[1]) - 1
    if wanted in names:
        return names.index(wanted)
    starting = [i for i, name in enumerate(names) if name.startswith(wanted)]
    if len(starting) == 1:
        return starting[0]
    if starting:
        shown = ", ".join(legal[i] for i in starting)
        raise _refusal(f"{line.strip()!r} starts several legal actions: {shown}.", legal)
    raise _refusal(f"{line.strip()!r} is not a legal action now.", legal)


def _plain(text: str) -> str:
    return " ".join(text.strip().strip("*`'\"").strip().removesuffix(".").lower().split())


def _refusal(why: str, legal: Sequence[str]) -> Refusal:
    return Refusal(f"{why} Legal actions:\n" + "\n".join(numbered(list(legal))) +
                   "\nReply with one of them alone on the first line: its name, its number, or the start of its name.")
