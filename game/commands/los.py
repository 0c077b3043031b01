"""``sightline los MAP X,Y [X2,Y2]``: one line-of-sight verdict, or everything visible from a square.

Both ask the sight facade (:mod:`game.core.sight`) under ``--rule``, else the map's ``los_rule``.
With two squares: the verdict, the first blocker and every crossing (``--json``:
``{"clear", "blockers", "crossings", "explanation", "from", "to", "viewer"}``; under a rule not
decided by the centre line, its deciding lines instead). With one square:
every square visible from it (``--json``: ``{"from", "visible", "viewer"}``), else an ASCII mask.
``--viewer`` defaults to the side of a figure standing on the first square (none: every figure
counts as an enemy); a side given must be one on the map (any case). The JSON format is described in
docs/line-of-sight.md.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from game.commands._common import (
    add_map_options,
    from_viewer,
    map_options,
    resolve_viewer,
    rule_option,
)
from game.core.board import Board, Figure, Square, fmt_square, parse_square
from game.core.errors import UsageError
from game.core.words import plural_of

if TYPE_CHECKING:
    from game.core.sight_result import Sight


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline los``."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("origin", metavar="X,Y", help="the viewer's square (or hex)")
    parser.add_argument("target", metavar="X2,Y2", nargs="?",
                        help="the target square (leave out to list everything visible from X,Y)")
    parser.add_argument("--viewer", metavar="SIDE",
                        help="whose enemies block (default: the side of a figure on X,Y)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--classes", metavar="MAPPING",
                        help="map your class names onto ours, e.g. wall=collision-line,blocked=rock")
    add_map_options(parser)
    from game.commands._common import add_rule_option

    add_rule_option(parser)


def _squares(mask: Any) -> list[list[int]]:
    """The ``[x, y]`` of every true cell of a ``[y, x]`` mask, row by row."""
    ys, xs = mask.nonzero()
    return [[x, y] for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]


def _check(board: Board, sq: Square) -> Square:
    if not board.in_bounds(sq):
        raise UsageError(
            f"{board.grid.noun} {fmt_square(sq)} is outside the {board.width}x{board.height} board "
            f"(x 0..{board.width - 1}, y 0..{board.height - 1})"
        )
    if not board.on_board(sq):
        raise UsageError(f"{board.grid.noun} {fmt_square(sq)} is void (off the board)")
    return sq


def run(args: argparse.Namespace) -> int:
    """Load the map and print the verdict or the visible squares."""
    from game.tiled.reader import collector_paused

    with collector_paused():  # the loaded map is dropped before the cycle collector runs again
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from game.core import sight
    from game.core.los import mask_to_ascii
    from game.tiled import load_map

    origin_sq = parse_square(args.origin)
    target_sq = parse_square(args.target) if args.target else None
    board = load_map(args.map, **map_options(args)).board
    origin = _check(board, origin_sq)
    here = board.figures_at(origin)
    viewer = from_viewer(board, origin, resolve_viewer(board, args.viewer))
    rule = rule_option(board, args.rule)
    named = args.rule is not None or "los_rule" in board.properties
    if target_sq is not None:
        result = sight.line(board, origin, _check(board, target_sq), rule, viewer=viewer)
        if args.json:
            print(json.dumps(result.as_json(with_rule=named), indent=2))
            return 0
        _print_line(result, here, sight.by_centre_line(rule, board.grid.kind))
        return 0
    mask = sight.field(board, origin, rule, viewer=viewer)
    visible = _squares(mask)
    if args.json:
        doc: dict[str, object] = {"from": list(origin), "visible": visible, "viewer": viewer}
        if named:
            doc["rule"] = rule.as_json()
        print(json.dumps(doc))
        return 0
    who = f" (viewer: {viewer})" if viewer else ""
    under = f" under {rule.spec()}" if rule != sight.default_rule(board.grid.kind) else ""
    print(f"{len(visible)} {plural_of(board.grid.noun)} visible from {fmt_square(origin)}{who}{under}:")
    for line in _field_lines(board, mask_to_ascii(board, mask, origin)):
        print(line)
    print("@ origin  o visible  . hidden  ~ void")
    return 0


def _field_lines(board: Board, rows: list[str]) -> list[str]:
    """The field's rows as printed: squares as they are; hexes as Tiled draws them — on a
    pointy-top map the pushed rows shifted by half a hex, on a flat-top map each row on two lines,
    the pushed columns on the lower one.

    >>> from game.core.hex_sight import hex_board
    >>> _field_lines(hex_board(3, 2), ["@o.", "oo~"])
    ['@ o .', ' o o ~']
    >>> _field_lines(hex_board(3, 2, staggeraxis="x"), ["@o.", "oo~"])
    ['@   .', '  o', 'o   ~', '  o']
    """
    from game.core.hexgrid import HexGrid

    grid = board.grid
    if not isinstance(grid, HexGrid):
        return rows
    if grid.staggeraxis == "y":
        return [(" " if grid.pushed(y) else "") + " ".join(row) for y, row in enumerate(rows)]
    out = []
    for row in rows:
        for low in (False, True):
            out.append(" ".join(c if grid.pushed(x) == low else " " for x, c in enumerate(row)).rstrip())
    return out


def _print_line(result: Sight, here: tuple[Figure, ...], by_centre: bool) -> None:
    """The verdict as text: the sentence, then every crossing of the centre line (``x`` marks
    the blockers) for a rule it decides, else every deciding line; then the cover's lines."""
    origin, target, viewer = result.origin, result.target, result.viewer
    nobody = " (no viewer: every figure blocks)" if by_centre else ""
    who = f" (viewer: {viewer})" if viewer else nobody
    print(f"{fmt_square(origin)} -> {fmt_square(target)}{who}: {result.explain()}")
    if by_centre:
        for i, crossing in enumerate(result.crossings, start=1):
            mark = "x" if crossing.blocks else " "
            print(f"  {mark} {i:2d}. {crossing.explain()}")
        if not result.crossings:
            print("  (no crossings)")
    else:
        for line in result.lines:
            mark = " " if line.clear else "x"
            print(f"  {mark} {line.describe()}: {line.blocker or 'clear'}")
    if result.cover is not None:
        for line in result.cover.lines:
            mark = " " if line.clear else "x"
            print(f"  cover {mark} {line.describe()}: {line.blocker or 'clear'}")
    if origin == target and by_centre:
        others = len(here) - 1
        print(
            "  note: this is the square's verdict, for another figure in the same square; "
            "a figure never has line of sight to itself (rules: A->A is no)"
            + (f"; {here[0].label} is alone on {fmt_square(origin)}" if here and not others else "")
        )
