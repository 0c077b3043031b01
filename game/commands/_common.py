"""Helpers shared by several subcommands (no command of its own: cli.py skips this module)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.core.board import Board, Square, fmt_square, parse_square
from game.core.errors import UsageError
from game.play.atomic import cannot_write

if TYPE_CHECKING:
    from game.core.profiles import Profile
    from game.rules.base import Ruleset

__all__ = ["add_map_options", "add_rule_option", "add_ruleset_file_option", "file_slug", "from_cell", "from_viewer", "map_options",
           "png_output",
           "refuse_hex_map", "refuse_off_grid", "resolve_viewer", "rule_option"]


def add_map_options(parser: argparse.ArgumentParser, *, with_classes: bool = False) -> None:
    """The options that say how to read a map made for another game (docs/maps.md): ``--tiles``,
    ``--property`` and ``--preset``, and with ``with_classes`` ``--classes`` too (the older
    commands add their own ``--classes``, worded for them)."""
    if with_classes:
        parser.add_argument("--classes", metavar="MAPPING", default=None,
                            help="your class names onto ours, e.g. wall=collision-line,blocked=collision")
    parser.add_argument("--tiles", metavar="ROLE=SPEC,...", default=None,
                        help="cell roles from tiles, e.g. blocked=wall,collides;impassable=passable=false")
    parser.add_argument("--property", metavar="OURS=THEIRS", default=None, dest="property_names",
                        help="figure property names, e.g. side=team")
    parser.add_argument("--preset", metavar="NAME", default=None,
                        help="another project's conventions: tuxemon, phaser or roguelike")
    parser.add_argument("--layers", metavar="ROLE=LAYER,...", default=None,
                        help="roles of whole layers, e.g. blocked=walls,figure=npcs,empty=floor "
                        "(empty=floor: unpainted cells are floor, for boards drawn as walls only)")
    parser.add_argument("--names", metavar="ROLE=NAME,...", default=None,
                        help="roles of objects by their name, e.g. figure=enemy|player,door=door")


def map_options(args: argparse.Namespace) -> dict[str, Any]:
    """``load_map`` keyword arguments from ``--classes``, ``--tiles``, ``--property``, ``--preset``,
    ``--layers`` and ``--names`` (each checked now, so a typo is one line before any map is read).

    >>> ns = argparse.Namespace(classes="wall=fence", tiles="blocked=wall", property_names="side=team", preset="roguelike")
    >>> map_options(ns)
    {'classes': {'wall': ['fence']}, 'tiles': {'blocked': ['wall']}, 'properties': {'side': 'team'}, 'preset': 'roguelike'}
    """
    from game.tiled import parse_class_mapping
    from game.tiled.conventions import get_preset
    from game.tiled.settings import (
        parse_layers_option,
        parse_names_option,
        parse_property_option,
        parse_tiles_option,
    )

    out: dict[str, Any] = {}
    if getattr(args, "classes", None):
        out["classes"] = parse_class_mapping(args.classes)
    if getattr(args, "tiles", None):
        out["tiles"] = parse_tiles_option(args.tiles)
    if getattr(args, "property_names", None):
        out["properties"] = parse_property_option(args.property_names)
    if getattr(args, "preset", None):
        out["preset"] = get_preset(args.preset).name
    if getattr(args, "layers", None):
        out["layers"] = parse_layers_option(args.layers)
    if getattr(args, "names", None):
        out["names"] = parse_names_option(args.names)
    return out


def add_ruleset_file_option(parser: argparse.ArgumentParser) -> None:
    """``--ruleset-file PATH``: play a ruleset file (docs/rulesets.md) instead of the map's
    ruleset (read by :func:`game.play.ruleset_file.attach_rules`)."""
    parser.add_argument("--ruleset-file", metavar="PATH", default=None, dest="ruleset_file",
                        help="a ruleset file (.toml, docs/rulesets.md) to play instead of the "
                             "map's ruleset")


def resolve_viewer(board: Board, text: str | None) -> str | None:
    """The side named by ``--viewer``, spelt as on the map; None when ``text`` is None.

    The match ignores case and surrounding spaces. An empty or unknown side is a
    :class:`UsageError` listing the sides the map has.

    >>> from game.core.board import Figure
    >>> board = Board(3, 1, figures=[Figure(1, "Ann", "Red Guild", (0, 0)),
    ...                              Figure(2, "Grub", "monsters", (2, 0))])
    >>> resolve_viewer(board, " red guild "), resolve_viewer(board, None)
    ('Red Guild', None)
    >>> resolve_viewer(board, "Nobody")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --viewer 'Nobody' is not a side on this map (sides: monsters, Red Guild)
    >>> resolve_viewer(Board(2, 2), "red")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --viewer 'red': this map has no figures, so no sides to name
    """
    if text is None:
        return None
    sides = board.sides()
    if text.strip() in sides:  # exact spelling first, should two sides differ only in case
        return text.strip()
    wanted = text.strip().casefold()
    for side in sides:
        if side.casefold() == wanted:
            return side
    if not sides:
        raise UsageError(f"--viewer {text.strip()!r}: this map has no figures, so no sides to name")
    known = ", ".join(sorted(sides, key=str.casefold))
    if not wanted:
        raise UsageError(f"--viewer is empty: name a side (sides: {known})")
    raise UsageError(f"--viewer {text.strip()!r} is not a side on this map (sides: {known})")


def png_output(text: str, option: str = "-o") -> Path:
    """The PNG a command is asked to write, checked before any work: a ``.png`` name in a folder
    that exists (Sightline never creates a missing folder for a picture).

    >>> png_output("board.PNG").name
    'board.PNG'
    >>> png_output("notes.txt")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: -o must name a .png file, not 'notes.txt'
    """
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise UsageError(f"{option} must name a .png file, not {text!r}")
    if not path.parent.is_dir():
        raise cannot_write(path, FileNotFoundError(2, "No such file or directory"))
    return path


RULE_HELP = ("line-of-sight rule: a preset (arcadia, corners, dnd5e, pf2e, any-point) with optional "
             "overrides, e.g. corners,figures=none (default: the map's los_rule property, else arcadia)")


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--rule RULE`` (the line-of-sight rule profile) to a command's parser."""
    parser.add_argument("--rule", metavar="RULE", default=None, help=RULE_HELP)


def rule_option(board: Board, text: str | None) -> Profile:
    """The rule a command uses: ``--rule`` if given (read for the board's grid), else the map's
    ``los_rule`` (:func:`game.core.sight.rule_of`: one line for a bad one), else the default.

    >>> rule_option(Board(2, 2, properties={"los_rule": "corners,figures=none"}), None).spec()
    'corners,figures=none'
    >>> rule_option(Board(2, 2), "dnd5e").name
    'dnd5e'
    >>> rule_option(Board(2, 2), "chess")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --rule: unknown line-of-sight rule 'chess' (presets: arcadia, corners, dnd5e, pf2e, any-point)
    """
    from game.core import sight

    if text is None:
        return sight.rule_of(board)
    try:
        return sight.parse_rule(text, board.grid.kind)
    except UsageError as error:
        raise UsageError(f"--rule: {error}") from None


def refuse_hex_map(board: Board, map_path: object, what: str, instead: str) -> None:
    """One line refusing a command that does not work on hex boards yet (issue #21): ``what`` it
    cannot do, ``instead`` the commands that can.

    >>> refuse_hex_map(Board(2, 2), "m.tmx", "balance does not weigh zones", "use los")  # squares: nothing
    """
    if board.grid.kind == "hex":
        raise UsageError(f"{map_path} is a hex map: {what} on hex maps yet; {instead} (docs/hex.md)")


def refuse_off_grid(board: Board, ruleset: Ruleset, map_path: object) -> None:
    """One line refusing a map whose grid the board's rules do not play on (a hex map under
    rules that need squares: :func:`game.rules.registry.grid_refusal`); nothing otherwise.

    >>> from game.rules.registry import get_ruleset
    >>> refuse_off_grid(Board(2, 2), get_ruleset("conquest"), "m.tmx")  # squares: nothing
    """
    from game.rules.registry import grid_refusal

    why = grid_refusal(ruleset, board.grid.kind)
    if why is not None:
        raise UsageError(f"{map_path} is a {board.grid.kind} map: {why}")


def file_slug(text: str) -> str:
    """``text`` as part of a file name: every run of characters other than letters, digits, ``=``
    and ``-`` becomes one ``_``.

    >>> file_slug("hexside, touch=blocks")
    'hexside_touch=blocks'
    """
    return re.sub(r"[^A-Za-z0-9=-]+", "_", text).strip("_")


def from_cell(board: Board, text: str) -> Square:
    """The cell ``--from X,Y`` names, refused in one line when it is off the map or void (named a
    square or a hex, as the map's grid calls its cells)."""
    cell = parse_square(text)
    kind = board.grid.kind
    if not board.in_bounds(cell):
        where = "hex map" if kind == "hex" else "board"
        raise UsageError(f"--from {fmt_square(cell)} is outside the {board.width}x{board.height} {where}")
    if board.is_void(cell):
        raise UsageError(f"--from {fmt_square(cell)} is off the board (a void {kind})")
    return cell


def from_viewer(board: Board, cell: Square, viewer: str | None) -> str | None:
    """The side that looks from ``cell``: ``viewer`` when given, else the side of the first
    figure standing there (its own side's figures do not block it), else None."""
    here = board.figures_at(cell)
    return here[0].side if viewer is None and here else viewer
