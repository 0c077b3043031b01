"""The ``sightline`` command: argument parsing and one-line errors (docs/commands.md).

Each subcommand lives in ``game/commands/<name>.py`` and exposes ``configure(parser)`` and
``run(args) -> int``. This module only dispatches and turns every error into one line on stderr
with exit code 2 (set ``SIGHTLINE_DEBUG=1`` to see the traceback of an unexpected error).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

# the drawing commands import pygame, whose banner would spoil --json output on stdout.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game import __version__, startup  # noqa: E402
from game.commands.wording import cli_words  # noqa: E402
from game.core.errors import SightlineError  # noqa: E402

#: subcommand name -> one-line help. The module is ``game.commands.<name>``.
COMMANDS: dict[str, str] = {
    "play": "open the window on a map (the bundled demo map by default)",
    "lessons": "step through the line-of-sight lessons of maps/lessons/",
    "los": "line of sight between two squares (or hexes), or everything visible from one",
    "reach": "every square a move of N orthogonal steps (hex steps on a hex map) reaches",
    "check": "lint maps: walls, doors, figures, classes (exit 0 clean, 1 errors, 2 unreadable)",
    "render": "draw a board and its overlays into a PNG, no window",
    "odds": "exact outcome distribution of an attack",
    "attack": "resolve an attack once, seeded or with the faces of a physical roll",
    "report": "write an HTML line-of-sight coverage report for a map",
    "diff": "what changed in visibility between two versions of a map",
    "compare": "where two line-of-sight rules disagree on a map (pairs, or from one square), with a PNG",
    "tiled": "install the Tiled extension: checks on every save, Sightline actions in the Map menu",
    "export": "write a board as a Universal VTT file or a Foundry scene, for virtual tabletops",
    "threats": "who can attack whom now and next turn, with the exact chances",
    "balance": "is this map fair? deployment zones, exposure, first strike, safe squares (HTML + JSON)",
}


#: a square with a negative coordinate first (``-1,2``): a value, although it starts with "-"
NEGATIVE_SQUARE = re.compile(r"^-\d+,-?\d+$")
#: prefixed to a negative square for argparse, which never takes a word starting so for an option
_SHIELD = "\ue000"
#: a first word with one of these endings is a map for ``sightline [play] MAP`` (Tiled's and
#: Universal VTT's endings: ``game.tiled.MAP_SUFFIXES``, written out so that the command line
#: starts without importing the reader)
MAP_SUFFIXES = (".tmx", ".tmj", ".json", ".dd2vtt", ".uvtt", ".df2vtt")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: ``PROG: error: MESSAGE (see 'PROG --help')``.

    ``commands`` holds the subcommand parsers by name (filled by :func:`build_parser`).
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.commands: dict[str, Parser] = {}

    def error(self, message: str) -> NoReturn:
        """Print the one-line error on stderr and exit with code 2."""
        message = " ".join(message.replace(_SHIELD + "-", "-").split())
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> Parser:
    """The argument parser: one subparser per entry of :data:`COMMANDS`.

    With ``only`` (a command name), only that command's module is imported and its options
    configured; the other subparsers exist for the listing but take no options. A command run
    therefore imports what it uses and nothing of the other commands.
    """
    parser = Parser(
        prog="sightline",
        description="Tactical boards from Tiled maps and virtual-tabletop maps: exact line of sight, "
        "attacks, dice.",
    )
    parser.add_argument("--version", action="version", version=f"sightline {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, help_text in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        parser.commands[name] = sub
        if only is None or name == only:
            module = importlib.import_module(f"game.commands.{name}")
            module.configure(sub)
            sub.set_defaults(_run=module.run)
    return parser


class UnknownCommand(Exception):
    """The first word is neither a command nor something that looks like a map."""


def looks_like_map(word: str) -> bool:
    """Whether ``sightline WORD`` means ``sightline play WORD``: a map suffix, a folder in it, or on disk.

    >>> looks_like_map("maps/demo.tmx"), looks_like_map("Demo.TMX"), looks_like_map("cave.dd2vtt")
    (True, True, True)
    >>> looks_like_map("chek")
    False
    """
    if word.lower().endswith(MAP_SUFFIXES):
        return True
    if any(sep and sep in word for sep in ("/", os.sep, os.altsep)):
        return True
    return Path(word).exists()


def unknown_command(word: str) -> str:
    """The one line for a first word that is no command (with the nearest command, if any).

    >>> unknown_command("chek")
    "unknown command 'chek' (did you mean check? see 'sightline --help')"
    """
    close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    if close:
        return f"unknown command {word!r} (did you mean {close[0]}? see 'sightline --help')"
    return (f"unknown command {word!r} (commands: {', '.join(COMMANDS)}; "
            "or give a map file to open it)")


def _normalise(argv: list[str]) -> list[str]:
    """``sightline`` and ``sightline MAP`` mean ``sightline play [MAP]``.

    Raises :class:`UnknownCommand` for a first word that is neither a command nor a map.

    >>> _normalise([]), _normalise(["maps/x.tmx"]), _normalise(["--frames", "2"])
    (['play'], ['play', 'maps/x.tmx'], ['play', '--frames', '2'])
    """
    if not argv:
        return ["play"]
    first = argv[0]
    if first in COMMANDS or first in ("-h", "--help", "--version"):
        return argv
    if first.startswith("-") or looks_like_map(first):
        return ["play", *argv]
    raise UnknownCommand(unknown_command(first))


def _shield(argv: list[str]) -> list[str]:
    """Hide squares like ``-1,2`` from argparse's option detection (a private-use prefix does it).

    >>> _shield(["los", "m.tmx", "-1,2", "--to", "3,-4", "-5"])
    ['los', 'm.tmx', '\ue000-1,2', '--to', '3,-4', '-5']
    """
    return [_SHIELD + a if NEGATIVE_SQUARE.match(a) else a for a in argv]


def _unshield(value: object) -> object:
    """Undo :func:`_shield` on a parsed value (a string, or a list of them)."""
    if isinstance(value, str) and value.startswith(_SHIELD) and NEGATIVE_SQUARE.match(value[1:]):
        return value[1:]
    if isinstance(value, list):
        return [_unshield(v) for v in value]
    return value


def parse(parser: Parser, argv: list[str]) -> argparse.Namespace:
    """Parse ``argv`` (already normalised); argparse errors exit 2 after one line on stderr."""
    args, extras = parser.parse_known_args(_shield(argv))
    command = getattr(args, "command", None)
    if extras:
        owner = parser.commands.get(command, parser) if command else parser
        owner.error(f"unrecognized arguments: {' '.join(extras)}")
    for key, value in vars(args).items():
        setattr(args, key, _unshield(value))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sightline`` command; returns the exit code."""
    startup.pause()  # resumed after the window's first frame, or at the end (game/startup.py)
    try:
        return _main(argv)
    finally:
        startup.over()


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main` with the collector paused."""
    try:
        args_list = _normalise(list(sys.argv[1:] if argv is None else argv))
    except UnknownCommand as exc:
        print(f"sightline: error: {exc}", file=sys.stderr)
        return 2
    parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
    try:
        args = parse(parser, args_list)
    except SystemExit as exc:  # argparse already printed its one-line error (or the help)
        return int(exc.code or 0)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args) or 0)
    except SightlineError as exc:
        print(f"sightline {args.command}: {cli_words(exc)}", file=sys.stderr)
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
