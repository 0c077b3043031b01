"""``sightline reach MAP X,Y N``: every square a figure on X,Y reaches in N orthogonal steps (every hex
in N hex steps on a hex map).

Steps never cross walls, closed or locked doors or windows, never enter void or blocked terrain,
and never enter a square holding an enemy of the mover (``--side``; default: the side of a
figure on X,Y; none: every figure stops it). Friends may be walked through. The counting
rules are ``game.core.measure``. ``--json``: ``{"from", "steps", "side", "reach": [[x, y, n], ...]}``
(row by row), else a text map: ``@`` start, digits the steps taken, ``.`` out of reach.
"""

from __future__ import annotations

import argparse
import json

from game.commands._common import add_map_options, from_viewer, map_options, resolve_viewer
from game.core.board import fmt_square, parse_square
from game.core.errors import UsageError
from game.core.words import plural_of


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline reach``."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("origin", metavar="X,Y", help="the square the move starts from")
    parser.add_argument("steps", metavar="N", help="how many steps (0 or more): orthogonal steps on squares, hex steps on hexes")
    parser.add_argument("--side", metavar="SIDE",
                        help="the mover's side: its enemies stop it (default: the side of a figure on X,Y)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_map_options(parser, with_classes=True)  # --classes, --tiles, --property, --preset, --layers, --names


def _steps(text: str) -> int:
    """``N`` as a whole number of steps, 0 or more (UsageError otherwise).

    >>> _steps("4")
    4
    """
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"N must be a whole number of steps, not {text!r}") from None
    if value < 0:
        raise UsageError(f"N must be 0 or more steps, not {value}")
    if value > 10_000:
        raise UsageError(f"N = {value} steps is more than any board needs (at most 10000)")
    return value


def run(args: argparse.Namespace) -> int:
    """Load the map and print the reach."""
    from game.core import measure
    from game.tiled import load_map

    origin = parse_square(args.origin)
    steps = _steps(args.steps)
    board = load_map(args.map, **map_options(args)).board
    if not board.in_bounds(origin):
        raise UsageError(
            f"{board.grid.noun} {fmt_square(origin)} is outside the {board.width}x{board.height} board "
            f"(x 0..{board.width - 1}, y 0..{board.height - 1})"
        )
    if not board.on_board(origin):
        raise UsageError(f"{board.grid.noun} {fmt_square(origin)} is void (off the board)")
    here = board.figures_at(origin)
    side = from_viewer(board, origin, resolve_viewer(board, args.side))
    mover = here[0].id if here else None
    found = measure.reach(board, origin, steps, side, mover)
    if args.json:
        cells = sorted(found.items(), key=lambda item: (item[0][1], item[0][0]))
        print(json.dumps({"from": list(origin), "steps": steps, "side": side,
                          "reach": [[x, y, n] for (x, y), n in cells]}))
        return 0
    who = f"{here[0].label} on {fmt_square(origin)}" if here else fmt_square(origin)
    stop = f"enemies of {side} stop it" if side else "every figure stops it (no side)"
    step = "hex" if board.grid.kind == "hex" else "orthogonal"
    print(f"{len(found) - 1} {plural_of(board.grid.noun)} within {steps} {step} steps of {who} ({stop}):")
    for row in measure.reach_rows(board, found, origin):
        print(row)
    print("@ start  1-9 steps taken (+ more)  . out of reach  # blocked  ~ void")
    return 0
