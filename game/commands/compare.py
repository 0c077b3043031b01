"""``sightline compare MAP --rules R1,R2 [--from X,Y] [-o OUT.png]``: where two rules disagree.

Without ``--from``: every pair of squares (A, B) that one rule sees and the other does not, listed
as ``(ax,ay) -> (bx,by): R1 yes, R2 no``; from one square: the squares. The PNG (``-o``, default
``MAP-R1-vs-R2.png`` in the current folder) tints the disagreeing squares (game/ui/compare_png.py).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from game.commands._common import (
    add_map_options,
    file_slug,
    from_cell,
    from_viewer,
    map_options,
    png_output,
    resolve_viewer,
)
from game.core.board import Board, Square, fmt_square
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
    parser.add_argument("--scale", type=int, default=None, metavar="PX",
                        help=f"pixels per square in the PNG ({MIN_SCALE}-{MAX_SCALE}; default 32, smaller when the "
                             f"picture would be wider than {MAX_SIDE_PX} pixels)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--limit", type=int, default=200, metavar="N",
                        help="list at most N pairs in the text output (default 200; JSON lists all)")
    add_map_options(parser, with_classes=True)  # --classes, --tiles, --property, --preset, --layers, --names


MIN_SCALE, MAX_SCALE = 2, 64  #: the --scale range (pixels per square)
MAX_SIDE_PX = 4096  #: the default scale keeps the drawn area's longer side within this many pixels
MARGIN = 3  #: squares drawn around the area that matters with --from
MIN_VIEW = 21  #: with --from, at least this many squares a side are drawn around the origin


def picture_area(board: Board, origin: Square | None, differ: np.ndarray) -> tuple[int, int, int, int]:
    """The squares the PNG draws, ``(x0, y0, x1, y1)`` (``x1``, ``y1`` exclusive): the whole board,
    or with ``--from`` the area that matters — the origin and every square where the rules
    disagree, with a margin of :data:`MARGIN` squares and at least :data:`MIN_VIEW` squares a
    side, inside the board.

    >>> b = Board(400, 400)
    >>> differ = np.zeros((400, 400), dtype=bool); differ[10, 30] = True
    >>> picture_area(b, (20, 12), differ), picture_area(b, None, differ)
    ((15, 1, 36, 22), (0, 0, 400, 400))
    """
    if origin is None:
        return 0, 0, board.width, board.height
    ys, xs = np.nonzero(differ)
    x0, x1 = min([origin[0], *xs.tolist()]), max([origin[0], *xs.tolist()])
    y0, y1 = min([origin[1], *ys.tolist()]), max([origin[1], *ys.tolist()])

    def span(lo: int, hi: int, size: int) -> tuple[int, int]:
        lo, hi = lo - MARGIN, hi + MARGIN + 1
        grow = max(0, MIN_VIEW - (hi - lo))
        lo, hi = lo - grow // 2, hi + grow - grow // 2
        if lo < 0:  # slide the view inside the board rather than cut it
            lo, hi = 0, hi - lo
        if hi > size:
            lo, hi = lo - (hi - size), size
        return max(0, lo), min(size, hi)

    (x0, x1), (y0, y1) = span(x0, x1, board.width), span(y0, y1, board.height)
    return x0, y0, x1, y1


def picture_scale(area: tuple[int, int, int, int], scale: int | None) -> int:
    """Pixels per square: ``--scale`` when given, else 32 or less so the longer side of the drawn
    area stays within :data:`MAX_SIDE_PX` pixels (a 400×400 board: 10)."""
    if scale is not None:
        return scale
    side = max(area[2] - area[0], area[3] - area[1], 1)
    return max(MIN_SCALE, min(32, MAX_SIDE_PX // side))




class Disagreements:
    """The pairs two rules disagree on, kept as index arrays (a 100x100 map can have 600,000):
    ``len``, and slices as ``(a, b, seen by the first rule)`` tuples made only when read."""

    def __init__(self, width: int, a: np.ndarray, b: np.ndarray, seen: np.ndarray) -> None:
        self.width, self.a, self.b, self.seen = width, a, b, seen

    def __len__(self) -> int:
        return int(self.a.size)

    def __getitem__(self, part: slice) -> list[tuple[Square, Square, bool]]:
        w = self.width
        a, b, seen = self.a[part], self.b[part], self.seen[part]
        return [((ax, ay), (bx, by), s) for ax, ay, bx, by, s in zip(
            (a % w).tolist(), (a // w).tolist(), (b % w).tolist(), (b // w).tolist(), seen.tolist(), strict=True)]

    def __iter__(self) -> Iterator[tuple[Square, Square, bool]]:
        for start in range(0, len(self), 65_536):
            yield from self[start : start + 65_536]


def _pair_disagreements(
    bits1: np.ndarray, bits2: np.ndarray, width: int, height: int
) -> tuple[Disagreements, np.ndarray, np.ndarray]:
    """Where two all-pairs bit tables (:func:`game.core.sight.pair_bits`: row ``a``, bit ``b``,
    flat squares ``y * width + x``) disagree: the pairs ``(a, b, seen by the first)`` in row-major
    order of (a, b) — each unordered pair once when both tables are symmetric on it — and per
    square how many of them it takes part in, seen by the first rule only and by the second only
    (int ``[y, x]``). The tables are read 1,024 rows at a time: nothing of N × N bytes.

    >>> t1 = np.packbits([[0, 1], [1, 0]], axis=1); t2 = np.packbits([[0, 0], [0, 0]], axis=1)
    >>> rows, first_only, second_only = _pair_disagreements(t1, t2, 2, 1)
    >>> rows[:], first_only.tolist(), second_only.tolist()
    ([((0, 0), (1, 0), True)], [[1, 1]], [[0, 0]])
    """
    n = width * height
    firsts, seconds = [], []
    for start in range(0, n, 1024):
        rows = slice(start, start + 1024)
        differ = np.unpackbits(bits1[rows] ^ bits2[rows], axis=1, count=n)
        i, j = np.nonzero(differ)
        firsts.append(i + start)
        seconds.append(j)
    a, b = np.concatenate(firsts), np.concatenate(seconds)  # row-major order of (a, b)

    def bit(bits: np.ndarray, row: np.ndarray, column: np.ndarray) -> np.ndarray:
        return ((bits[row, column >> 3] >> (7 - (column & 7)).astype(np.uint8)) & 1).astype(bool)

    symmetric = (bit(bits1, b, a) == bit(bits1, a, b)) & (bit(bits2, b, a) == bit(bits2, a, b))
    keep = ~(symmetric & (b < a))  # list each unordered pair once when both rules are symmetric on it
    a, b = a[keep], b[keep]
    seen = bit(bits1, a, b)

    def count(chosen: np.ndarray) -> np.ndarray:
        both = np.bincount(a[chosen], minlength=n) + np.bincount(b[chosen], minlength=n)
        return both.reshape(height, width).astype(int)

    return Disagreements(width, a, b, seen), count(seen), count(~seen)


def run(args: argparse.Namespace) -> int:
    """Decide both rules, print where they disagree and write the PNG."""
    import os
    import sys

    from game.core import sight
    from game.core.hex_rules import parse_hex_rule
    from game.core.profiles import Profile, split_rules
    from game.tiled import load_map

    try:
        rules: list[Profile] = list(split_rules(args.rules))
    except UsageError as error:
        try:  # hex presets (issue #21): two or more side by side on a hex map
            rules = list(split_rules(args.rules, parse_hex_rule))
        except UsageError:
            raise UsageError(f"--rules: {error}") from None
        from game.commands.hex_compare import run_hex

        return run_hex(args, rules)
    if len(rules) != 2:
        raise UsageError(f"--rules needs exactly two rules, not {len(rules)} (e.g. --rules arcadia,corners)")
    if args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    if args.scale is not None and not MIN_SCALE <= args.scale <= MAX_SCALE:
        raise UsageError(f"--scale must be {MIN_SCALE} to {MAX_SCALE} pixels per square, not {args.scale}")
    first, second = rules
    names = (first.spec(), second.spec())
    out = args.output or f"{Path(args.map).stem}-{file_slug(names[0])}-vs-{file_slug(names[1])}.png"
    png_output(out)
    loaded = load_map(args.map, **map_options(args))
    board = loaded.board
    if board.grid.kind == "hex":  # issue #21: square rules on a hex map, refused there in one line
        from game.commands.hex_compare import run_hex

        return run_hex(args, rules, loaded)
    viewer = resolve_viewer(board, args.viewer)
    h, w = board.height, board.width
    first_only = np.zeros((h, w), dtype=int)
    second_only = np.zeros((h, w), dtype=int)
    rows: list[tuple[Square, Square, bool]] | Disagreements
    origin = None
    if args.origin:
        origin = from_cell(board, args.origin)
        viewer = from_viewer(board, origin, viewer)
        m1 = sight.field(board, origin, first, viewer=viewer)
        m2 = sight.field(board, origin, second, viewer=viewer)
        first_only = (m1 & ~m2).astype(int)
        second_only = (m2 & ~m1).astype(int)
        rows = [(origin, (int(x), int(y)), bool(m1[y, x])) for y, x in zip(*np.nonzero(m1 != m2), strict=True)]
    else:
        second_bits = sight.pair_bits(board, second, viewer=viewer)  # one N x N byte table at a time
        rows, first_only, second_only = _pair_disagreements(
            sight.pair_bits(board, first, viewer=viewer), second_bits, w, h)
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.compare_png import compare_png

    area = picture_area(board, origin, (first_only != 0) | (second_only != 0))
    scale = picture_scale(area, args.scale)
    compare_png(board, loaded.art, first_only, second_only, out, names=names, origin=origin, cell=scale, area=area)
    drawn = (f"squares ({area[0]},{area[1]}) to ({area[2] - 1},{area[3] - 1}), {scale} px a square")
    if args.json:
        print(json.dumps({
            "rules": [first.as_json(), second.as_json()],
            "from": list(origin) if origin else None,
            "viewer": viewer,
            "disagreements": [{"from": list(a), "to": list(b), names[0]: seen, names[1]: not seen}
                              for a, b, seen in rows],
            "count": len(rows),
            "png": str(out),
            "png_area": {"from": [area[0], area[1]], "to": [area[2] - 1, area[3] - 1], "scale": scale},
        }))
        return 0
    what = f"squares seen from {fmt_square(origin)}" if origin else "pairs"
    print(f"{len(rows)} {what} on which {names[0]} and {names[1]} disagree:")
    for a, b, seen in rows[: args.limit]:
        verdicts = f"{names[0]} {'yes' if seen else 'no'}, {names[1]} {'no' if seen else 'yes'}"
        print(f"  {fmt_square(a)} -> {fmt_square(b)}: {verdicts}")
    if len(rows) > args.limit:
        print(f"  ... and {len(rows) - args.limit} more (--limit, or --json for all)")
    print(f"wrote {out} ({drawn})")
    return 0
