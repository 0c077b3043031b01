"""``sightline compare MAP --rules R1,R2 [--from X,Y] [-o OUT.png]``: where two rules disagree.

Without ``--from``: every pair of squares (A, B) that one rule sees and the other does not, listed
as ``(ax,ay) -> (bx,by): R1 yes, R2 no``; from one square: the squares. The PNG (``-o``, default
``MAP-R1-vs-R2.png`` in the current folder) tints the disagreeing squares (game/ui/compare_png.py).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np

from game.commands._common import add_map_options, map_options, png_output, resolve_viewer
from game.core.board import Board, Square, fmt_square, parse_square
from game.core.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline compare``."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("--rules", required=True, metavar="R1,R2",
                        help="two rules, e.g. arcadia,corners or corners,figures=none;dnd5e")
    parser.add_argument("--from", dest="origin", metavar="X,Y", help="compare only the view from this square")
    parser.add_argument("-o", "--output", metavar="OUT.png", default=None,
                        help="the PNG to write (default: MAP-R1-vs-R2.png in the current folder)")
    parser.add_argument("--viewer", metavar="SIDE", help="whose enemies block (default: the figure on --from)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--limit", type=int, default=200, metavar="N",
                        help="list at most N pairs in the text output (default 200; JSON lists all)")
    add_map_options(parser, with_classes=True)  # --classes, --tiles, --property, --preset, --layers, --names


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9=-]+", "_", text).strip("_")


def _square(board: Board, text: str) -> Square:
    sq = parse_square(text)
    if not board.in_bounds(sq):
        raise UsageError(f"--from {fmt_square(sq)} is outside the {board.width}x{board.height} board")
    if board.is_void(sq):
        raise UsageError(f"--from {fmt_square(sq)} is off the board (a void square)")
    return sq


def run(args: argparse.Namespace) -> int:
    """Decide both rules, print where they disagree and write the PNG."""
    import os
    import sys

    from game.core import sight
    from game.core.profiles import split_rules
    from game.tiled import load_map

    try:
        rules = split_rules(args.rules)
    except UsageError as error:
        raise UsageError(f"--rules: {error}") from None
    if len(rules) != 2:
        raise UsageError(f"--rules needs exactly two rules, not {len(rules)} (e.g. --rules arcadia,corners)")
    if args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    first, second = rules
    names = (first.spec(), second.spec())
    out = args.output or f"{Path(args.map).stem}-{_slug(names[0])}-vs-{_slug(names[1])}.png"
    png_output(out)
    loaded = load_map(args.map, **map_options(args))
    board = loaded.board
    viewer = resolve_viewer(board, args.viewer)
    h, w = board.height, board.width
    first_only = np.zeros((h, w), dtype=int)
    second_only = np.zeros((h, w), dtype=int)
    rows: list[tuple[Square, Square, bool]] = []
    origin = None
    if args.origin:
        origin = _square(board, args.origin)
        here = board.figures_at(origin)
        if viewer is None and here:
            viewer = here[0].side
        m1 = sight.field(board, origin, first, viewer=viewer)
        m2 = sight.field(board, origin, second, viewer=viewer)
        first_only = (m1 & ~m2).astype(int)
        second_only = (m2 & ~m1).astype(int)
        for y, x in zip(*np.nonzero(m1 != m2), strict=True):
            rows.append((origin, (int(x), int(y)), bool(m1[y, x])))
    else:
        t1 = sight.pairs(board, first, viewer=viewer)
        t2 = sight.pairs(board, second, viewer=viewer)
        for ay, ax, by, bx in zip(*np.nonzero(t1 != t2), strict=True):
            a, b = (int(ax), int(ay)), (int(bx), int(by))
            symmetric = t1[by, bx, ay, ax] == t1[ay, ax, by, bx] and t2[by, bx, ay, ax] == t2[ay, ax, by, bx]
            if symmetric and (b[1], b[0]) < (a[1], a[0]):
                continue  # list each unordered pair once when both rules are symmetric on it
            seen = bool(t1[ay, ax, by, bx])
            rows.append((a, b, seen))
            for sq in (a, b):
                (first_only if seen else second_only)[sq[1], sq[0]] += 1
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.compare_png import compare_png

    compare_png(board, loaded.art, first_only, second_only, out, names=names, origin=origin)
    if args.json:
        print(json.dumps({
            "rules": [first.as_json(), second.as_json()],
            "from": list(origin) if origin else None,
            "viewer": viewer,
            "disagreements": [{"from": list(a), "to": list(b), names[0]: seen, names[1]: not seen}
                              for a, b, seen in rows],
            "count": len(rows),
            "png": str(out),
        }))
        return 0
    what = f"squares seen from {fmt_square(origin)}" if origin else "pairs"
    print(f"{len(rows)} {what} on which {names[0]} and {names[1]} disagree:")
    for a, b, seen in rows[: args.limit]:
        verdicts = f"{names[0]} {'yes' if seen else 'no'}, {names[1]} {'no' if seen else 'yes'}"
        print(f"  {fmt_square(a)} -> {fmt_square(b)}: {verdicts}")
    if len(rows) > args.limit:
        print(f"  ... and {len(rows) - args.limit} more (--limit, or --json for all)")
    print(f"wrote {out}")
    return 0
