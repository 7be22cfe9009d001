"""Play one seat of a game in the terminal, against scripted players, a shipped policy or a saved model.

    python -m hidden_role_envs.training.play secrets --players 5 --seat 2 --seed 7     # or: hidden-roles play secrets ...

You play one seat; every other seat is played by `--opponents`:
`scripted` (the default, the game's scripted player), `random` (uniform over
the legal actions), `trained` (the policy shipped for the game at its
typical table, `hidden_role_envs/trained/`), or the path of a model saved by
training (`.zip`, MaskablePPO, needs the `train` extra; or `.npz`, from
`hidden-roles train`) trained for the same game and number of players (a
model or shipped policy for another table is refused before the game
starts).

What you see is what your seat sees, and nothing else:
- before each of your decisions, the env's `render_text(seat)`: the public
  table, the last step as your seat saw it and your seat's view (what it
  knows of every hidden card or token). Its last line, the legal actions
  run together, is printed instead as a numbered list in columns, headed,
  when actions name seats as `+1`, `+2`, ..., by which player each of those
  is from your seat;
- while the other seats play, one line per event your seat saw, as
  `describe_event(event, seat, engine)` words it (events other seats saw
  alone are never printed). The actions the other seats pick are not
  printed either (some are secret: which card was chosen, a vote); only
  the events your seat saw.

Choosing an action, at the `player_N>` prompt:
- the number of the action in the list (`1`, `#1` or `1)`);
- its name as printed (`offer +2 as Scientist`; case and extra spaces do
  not matter), or the unique beginning of a legal one (`offer +2 as Sc`);
- `help` or `?` lists your legal actions again, `view` shows the table and
  your view again, `quit` (or `exit`) leaves the game.
An empty line, an unknown name, a number off the list, an ambiguous
beginning (the actions it could mean are listed) or an action that is not
legal now (with the game's reason) is refused, and the question is asked
again. A word found inside legal names but not at their start is answered
with those actions, to pick by number.

A seat knocked out early (Hoax) watches the rest of the game. At the end
come the final public table, the result, the winners, your own outcome (won
or lost, and your seat's facts: identity, character, role, score) and the
facts revealed to everyone, all in words; a game stopped at its turn limit
(the env's `max_turns`, each game's default in its docs) says so, and shows
what the end of a game would have revealed.

Seeding: `--seed` fixes the deal, your seat (when `--seat` is not given) and
the opponents' choices, so the same seed and the same answers replay the
same game. Without `--seed` a seed is drawn at random; the start of the game
prints the command that deals it again.

Exit status: 0 when the game was played to its end, or when you typed
`quit` (you asked to leave); 1 when the input ended (EOF: Ctrl-D, or a
script of answers that ran out) before the game did, so that an unfinished
scripted session does not pass for a finished one; 130 on Ctrl-C. Bad
arguments (unknown game, a number out of range, an unknown opponent, a
missing or unsuitable model) print one `play: error: ...` line to stderr and
exit with status 2.

Answers are read with `input()`, so a session can be scripted by piping
answers to stdin; the game goes to stdout, the one-line errors and the
early-end messages to stderr. `main(argv, prog=...)` returns the exit
status; `prog` names the command in the usage line and in the replay hint.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shlex
import shutil
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hidden_role_envs.core import registry
from hidden_role_envs.policies import POLICY_NAMES, Policy, events_read, is_model_path, make_policy
from hidden_role_envs.training.arguments import Parser, UsageError, non_negative_int, positive_int

PROG = "python -m hidden_role_envs.training.play"
QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("help", "?")
VIEW_WORDS = ("view",)
LEGAL_LINE = "Legal actions: "  # how render_text's last line starts before a decision
EXIT_DONE, EXIT_EOF, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class EndOfInput(Exception):
    """The player's input ended before the game did."""


def _seat_arg(text: str) -> int:
    """A seat number, `2` or `player_2`; the range is checked once the number of players is known."""
    match = re.fullmatch(r"(?:player_)?(\d+)", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected a seat number such as 0 or player_0, got {text!r}")
    return int(match.group(1))


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Play one seat of a hidden-role game in the terminal. You see only what your seat sees.",
        epilog="At the prompt, type the number of an action in the list, its name or the unique beginning of "
        "its name; 'help' lists your actions, 'view' shows the table again, 'quit' leaves. "
        "Exit status: 0 when the game ends or you quit, 1 if the input ends first, 130 on Ctrl-C, "
        "2 on bad arguments.",
    )
    parser.add_argument("game", help="the game: " + ", ".join(registry.GAMES))
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument(
        "--seat", type=_seat_arg, default=None, help="your seat, 0 to players-1 (default: drawn with the seed)"
    )
    parser.add_argument(
        "--opponents",
        default="scripted",
        help="who plays the other seats: scripted (default), random, trained (the shipped policy) "
        "or a saved model (.zip, .npz)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal, the seat and the opponents (default: random)",
    )
    return parser


def main(argv: list[str] | None = None, *, prog: str = PROG) -> int:
    """Run the command with `argv` (default: `sys.argv[1:]`); return the exit status."""
    try:
        args = build_parser(prog).parse_args(argv)
        session = _session(args, prog)
    except UsageError as error:
        print(f"play: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print("play: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return session.run()


def _session(args: argparse.Namespace, prog: str = PROG) -> Session:
    try:
        game = registry.game_name(args.game)
    except ValueError:
        raise UsageError(f"unknown game {args.game!r}; choose from: {', '.join(registry.GAMES)}") from None
    try:
        kwargs = {} if args.players is None else {"num_players": args.players}
        env = registry.make(game, history_length=events_read([args.opponents]), **kwargs)
    except ValueError as error:  # the environment names the allowed range
        raise UsageError(f"--players: {error}") from None
    num_players = env.unwrapped.num_players
    if args.seat is not None and not 0 <= args.seat < num_players:
        raise UsageError(f"--seat must be from 0 to {num_players - 1} with {num_players} players; got {args.seat}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    seat_rng = np.random.default_rng(np.random.SeedSequence([seed, 0]))
    seat = args.seat if args.seat is not None else int(seat_rng.integers(num_players))
    opponents = _opponents(args.opponents, game, env, seat, seed)
    replay = f"{prog} {game} --players {num_players} --seat {seat} --seed {seed}"
    if args.opponents != "scripted":
        replay += f" --opponents {shlex.quote(args.opponents)}"
    return Session(game, env, seat, opponents, args.opponents, seed, replay)


def _opponents(spec: str, game: str, env, seat: int, seed: int) -> dict[str, Policy]:
    """One policy per other seat; a saved model is loaded once, checked against the game, and shared."""
    agents = env.possible_agents
    if is_model_path(spec):
        try:
            model = make_policy(spec, env)  # refused here if it is no model, or one for another table
        except ValueError as error:
            raise UsageError(f"--opponents: {error}") from None
        return {agent: model for i, agent in enumerate(agents) if i != seat}
    if spec not in POLICY_NAMES:
        raise UsageError(
            f"unknown --opponents {spec!r}; use scripted, random, trained or the path of a saved model (.zip, .npz)"
        )
    try:
        return {
            agent: make_policy(spec, env, int(np.random.SeedSequence([seed, 1, i]).generate_state(1)[0]))
            for i, agent in enumerate(agents)
            if i != seat
        }
    except ValueError as error:  # no policy ships for this table
        raise UsageError(f"--opponents: {error}") from None


# --- choosing an action --------------------------------------------------------


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class Choice:
    """What a line typed at the prompt means: an action, a command, or a refusal with its reason."""

    action: int | None = None
    command: str | None = None  # "help", "view" or "quit"
    reason: str | None = None
    matches: tuple[int, ...] = ()  # legal actions worth listing along with the reason
    expanded: bool = False  # the action was named by a number or a prefix, not in full


def interpret(line: str, legal: list[int], names: tuple[str, ...], illegal_reason: Callable[[int], str]) -> Choice:
    """Read one answer: a number of the list, a name, a unique beginning of a legal name, or a command."""
    text = _normal(line)
    if not text:
        return Choice(reason="type the number or the name of an action ('help' lists them)")
    if text in QUIT_WORDS:
        return Choice(command="quit")
    if text in HELP_WORDS:
        return Choice(command="help")
    if text in VIEW_WORDS:
        return Choice(command="view")
    number = re.fullmatch(r"#?(\d+)[.)]?", text)
    if number:
        index = int(number.group(1))
        if 1 <= index <= len(legal):
            return Choice(action=legal[index - 1], expanded=True)
        return Choice(reason=f"there is no action number {index}: choose from 1 to {len(legal)}")
    legal_names = {_normal(names[a]): a for a in legal}
    if text in legal_names:
        return Choice(action=legal_names[text])
    every_name = {_normal(name): a for a, name in enumerate(names)}
    if text in every_name:
        action = every_name[text]
        return Choice(reason=f"{names[action]!r} is not legal now: {illegal_reason(action)}")
    starting = tuple(a for name, a in legal_names.items() if name.startswith(text))
    if len(starting) == 1:
        return Choice(action=starting[0], expanded=True)
    if starting:
        return Choice(
            reason=f"{line.strip()!r} is ambiguous: {len(starting)} legal actions start with it", matches=starting
        )
    containing = tuple(a for name, a in legal_names.items() if text in name)
    if containing:
        return Choice(reason=f"no legal action starts with {line.strip()!r}; did you mean", matches=containing)
    if any(name.startswith(text) for name in every_name):
        return Choice(reason=f"no legal action starts with {line.strip()!r} now ('help' lists them)")
    return Choice(
        reason=f"unknown action {line.strip()!r}; type a number from 1 to {len(legal)} or a name ('help' lists them)"
    )


def numbered(actions: list[int], names: tuple[str, ...], legal: list[int], width: int | None = None) -> str:
    """`actions` numbered by their place in `legal`, in as many columns as the terminal holds."""
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns
    digits = len(str(len(legal)))
    place = {a: i + 1 for i, a in enumerate(legal)}
    cells = [f"{place[a]:>{digits}}) {names[a]}" for a in actions]
    cell_width = max(len(cell) for cell in cells) + 3
    columns = max(1, min(len(cells), (width - 2) // cell_width))
    rows = -(-len(cells) // columns)
    lines = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(columns) if c * rows + r < len(cells)]
        lines.append("  " + "".join(cell.ljust(cell_width) for cell in row).rstrip())
    return "\n".join(lines)


# --- the session -------------------------------------------------------------------


class Session:
    """One game, one seat in the terminal, the other seats played by policies."""

    def __init__(
        self,
        game: str,
        env,
        seat: int,
        opponents: dict[str, Policy],
        opponents_spec: str,
        seed: int,
        replay: str = "",
    ):
        self.game = game
        self.env = env
        self.u = env.unwrapped
        self.seat = seat
        self.me = env.possible_agents[seat]
        self.opponents = opponents
        self.opponents_spec = opponents_spec
        self.seed = seed
        self.replay = replay  # the command that deals this game again

    def run(self) -> int:
        try:
            self._play()
        except BrokenPipeError:  # the output was closed (`| head`): stop quietly
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (so that the exit does not fail flushing)
            return EXIT_EOF
        except EndOfInput:
            print()
            print("play: the input ended before the game did; game abandoned", file=sys.stderr)
            return EXIT_EOF
        except KeyboardInterrupt:
            print()
            print("play: interrupted; game abandoned", file=sys.stderr)
            return EXIT_INTERRUPTED
        return EXIT_DONE

    # --- the game loop ---

    def _play(self) -> None:
        env, u = self.env, self.u
        env.reset(seed=self.seed)
        self._intro()
        shown = None  # the list of events last put on screen
        final_infos: dict[str, dict] = {}
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            my_decision = agent == self.me and not (terminated or truncated)
            if u.last_events is not shown:
                if not my_decision:  # before a decision of yours, render_text shows them
                    self._print_events(u.last_events)
                shown = u.last_events
            if terminated or truncated:
                final_infos[agent] = dict(info)
                if agent == self.me and "eliminated_after_turns" in info and not u.game_over:
                    print(
                        f"*** You are out of the game{_after_turns(info)}. The others play on; "
                        "you go on seeing what your seat sees. ***"
                    )
                env.step(None)
            elif my_decision:
                action = self._ask()
                if action is None:
                    print("You left the game.")
                    return
                env.step(action)
            else:
                env.step(self.opponents[agent](env.observe(agent)))
        if u.last_events is not shown:
            self._print_events(u.last_events)
        self._outcome(final_infos)

    def _intro(self) -> None:
        n = len(self.env.possible_agents)
        who = {"scripted": "scripted players", "random": "random players", "trained": "the shipped trained policy"}.get(
            self.opponents_spec, f"the saved model {self.opponents_spec}"
        )
        width = min(shutil.get_terminal_size((100, 24)).columns, 100) - 1
        text = (
            f"{self.u.definition.title}, {n} players, seed {self.seed}. You are {self.me}; the other "
            f"seats are {who}. You see only what {self.me} sees. At the {self.me}> prompt, type the number or the "
            "name of an action (a unique beginning of the name is enough); 'help' lists your actions, 'view' "
            "shows the table again, 'quit' leaves."
        )
        print(textwrap.fill(text, width=max(width, 40), break_long_words=False, break_on_hyphens=False))
        if self.replay:
            print(f"Same deal again: {self.replay}")
        print()

    def _print_events(self, events) -> None:
        u = self.u
        for event in events:
            if self.seat in event.seen_by:
                line = u.describe_event(event, self.seat)
                if line:
                    print("  " + line)

    def _legal(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.env.observe(self.me)["action_mask"])]

    def _show_view(self) -> None:
        """The env's text for your seat; its last line, the legal actions, comes as the numbered list instead."""
        text = self.u.render_text(self.seat)
        head, _, last = text.rpartition("\n")
        if last.startswith(LEGAL_LINE):
            text = head
        print()
        print(f"===== your turn, {self.me} " + "=" * 40)
        print(text)

    def _show_actions(self, legal: list[int]) -> None:
        names = self.u.actions.names
        if any(_RELATIVE.search(names[a]) for a in legal):  # "+2" counts seats from yours
            n = len(self.env.possible_agents)
            seats = ", ".join(f"+{k} = player_{(self.seat + k) % n}" for k in range(1, n))
            print(f"Seats counted from yours: {seats}")
        print("Your choices:")
        print(numbered(legal, names, legal))

    def _ask(self) -> int | None:
        """Ask until a legal action is given; None if the player quits."""
        legal = self._legal()
        names = self.u.actions.names
        self._show_view()
        self._show_actions(legal)
        while True:
            try:
                line = input(f"{self.me}> ")
            except EOFError:
                raise EndOfInput from None
            choice = interpret(line, legal, names, self.u.illegal_reason)
            if choice.command == "quit":
                return None
            if choice.command == "help":
                self._show_actions(legal)
            elif choice.command == "view":
                self._show_view()
                self._show_actions(legal)
            elif choice.reason is not None:
                print(choice.reason + (":" if choice.matches else ""))
                if choice.matches:
                    print(numbered(list(choice.matches), names, legal))
            else:
                print(f"You play: {names[choice.action]}")
                return choice.action

    # --- the end ---

    def _outcome(self, final_infos: dict[str, dict]) -> None:
        with_result = [info for info in final_infos.values() if "result" in info]
        mine = final_infos.get(self.me, {})
        table = mine if "result" in mine else (with_result[0] if with_result else {})
        print()
        print("===== the game is over " + "=" * 40)
        print(self.u.describe_table())
        if not table:
            print("The game ended without a result.")
            return
        if table["result"] == "truncated":
            stopped = next((info for info in final_infos.values() if "truncated_after_turns" in info), {})
            print(f"The game reached its turn limit and was stopped{_after_turns(stopped)}: no result, nobody wins.")
            if "eliminated_after_turns" in mine:
                print(f"You ({self.me}) were out of the game{_after_turns(mine)}.")
        else:
            winners = list(table.get("winners", []))
            print(f"Result: {table['result']}.")
            if winners:
                print("Winners: " + ", ".join(f"{w} (you)" if w == self.me else w for w in winners) + ".")
            else:
                print("Nobody wins.")
            print(f"You ({self.me}) {'WON' if self.me in winners else 'lost'}.")
            if "eliminated_after_turns" in mine:
                print(f"You were out of the game{_after_turns(mine)}.")
        table_wide, own = self._split_outcome(table)
        if own:
            print("Your seat: " + "; ".join(f"{_label(k)} {_words(v, self.me)}" for k, v in own.items()) + ".")
        if table_wide:
            print("Revealed at the end:")
            for key, value in table_wide.items():
                if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
                    print(f"  {_label(key)}:")
                    for item in value:
                        print("    " + _words(item, self.me))
                else:
                    print(f"  {_label(key)}: {_words(value, self.me)}")

    def _split_outcome(self, table: dict) -> tuple[dict, dict]:
        """The facts revealed to everyone, and the ones about your seat (your identity, score, ...)."""
        skip = {"result", "winners", "winner", "won", "eliminated_after_turns", "truncated_after_turns"}
        outcome = self.u.outcome(self.me)
        if outcome is None:  # not over (stopped at the turn limit): nothing more to tell
            return {}, {}
        revealed, own = outcome
        return {k: v for k, v in revealed.items() if k not in skip}, {k: v for k, v in own.items() if k not in skip}


def _after_turns(info: dict) -> str:
    turns = info.get("eliminated_after_turns", info.get("truncated_after_turns"))
    return "" if turns is None else f" after {turns} turn(s)"


_AGENT = re.compile(r"player_\d+")
_RELATIVE = re.compile(r"(?<![\w+])\+\d+\b")


def _label(key: str) -> str:
    return str(key).replace("_", " ")


def _words(value, me: str, nested: bool = False) -> str:
    """A revealed fact in plain words: `player_0 KGB (you), player_1 CIA`, lists comma separated."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            name = f"{key} (you)" if key == me else (key if _AGENT.fullmatch(str(key)) else _label(key))
            parts.append(f"{name} {_words(item, me, nested=True)}")
        text = ", ".join(parts) if parts else "none"
        return f"({text})" if nested else text
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        text = ", ".join(_words(item, me, nested=True) for item in value)
        return f"[{text}]" if nested and len(value) > 1 else text
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
