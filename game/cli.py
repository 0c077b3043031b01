"""The ``sightline`` command: argument parsing and one-line errors (DESIGN.md §5).

Each subcommand lives in ``game/commands/<name>.py`` and exposes ``configure(parser)`` and
``run(args) -> int``. This module only dispatches and turns every error into one line on stderr
with exit code 2 (set ``SIGHTLINE_DEBUG=1`` to see the traceback of an unexpected error).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# pytmx imports pygame, whose banner would spoil --json output on stdout.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game import __version__  # noqa: E402
from game.errors import SightlineError  # noqa: E402

#: subcommand name -> one-line help. The module is ``game.commands.<name>``.
COMMANDS: dict[str, str] = {
    "play": "open the window on a map (the bundled demo map by default)",
    "lessons": "step through the line-of-sight lessons of maps/lessons/",
    "los": "line of sight between two squares, or everything visible from one",
    "check": "lint maps: walls, doors, figures, classes (exit 0 clean, 1 errors, 2 unreadable)",
    "render": "draw a board and its overlays into a PNG, no window",
    "odds": "exact outcome distribution of an attack",
    "attack": "resolve an attack once, seeded or with the faces of a physical roll",
    "report": "write an HTML line-of-sight coverage report for a map",
    "diff": "what changed in visibility between two versions of a map",
}


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser; subcommands whose module is missing are left out."""
    parser = argparse.ArgumentParser(
        prog="sightline",
        description="Tactical boards from Tiled maps: exact line of sight, attacks, dice.",
    )
    parser.add_argument("--version", action="version", version=f"sightline {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        module = _command_module(name)
        if module is None:
            continue
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module.configure(sub)
        sub.set_defaults(_run=module.run)
    return parser


def _command_module(name: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(f"game.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"game.commands.{name}":
            return None
        raise




def _normalise(argv: list[str]) -> list[str]:
    """``sightline`` and ``sightline MAP`` mean ``sightline play [MAP]``."""
    if not argv:
        return ["play"]
    first = argv[0]
    if first in COMMANDS or first in ("-h", "--help", "--version"):
        return argv
    return ["play", *argv]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sightline`` command; returns the exit code."""
    args_list = _normalise(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse already printed its one-line usage error
        return int(exc.code or 0)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args) or 0)
    except SightlineError as exc:
        print(f"sightline {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sightline: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if os.environ.get("SIGHTLINE_DEBUG"):
            raise
        print(
            f"sightline {args.command}: internal error: {type(exc).__name__}: {exc} "
            "(set SIGHTLINE_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
