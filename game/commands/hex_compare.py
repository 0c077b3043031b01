"""``sightline compare`` on a hex map: two or more hex rules side by side (``--rules
gloomhaven,hexside,hex-strict``), where they disagree.

Without ``--from``: every pair of hexes (A, B) on which the rules do not all agree, listed as
``(ax,ay) -> (bx,by): gloomhaven yes, hexside no, hex-strict no`` (an unordered pair once when every
rule is symmetric on it); from one hex: the hexes. The PNG (``-o``, default
``MAP-R1-vs-R2-vs-R3.png`` in the current folder) has one panel per rule drawn with Tiled's hex
layout (:func:`game.ui.hex_pictures.compare_panels_png`). ``game/commands/compare.py`` hands hex
maps and hex rules here.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from game.commands._common import (
    file_slug,
    from_cell,
    from_viewer,
    map_options,
    png_output,
    resolve_viewer,
)
from game.core.board import Board, Square, fmt_square
from game.core.errors import UsageError
from game.core.profiles import Profile

if TYPE_CHECKING:
    from game.tiled import LoadedMap
    from game.ui.hex_pictures import RulePanel

__all__ = ["MAX_RULES", "Disagreement", "disagreements", "run_hex"]

MAX_RULES = 6  #: rules side by side at most
MIN_SCALE, MAX_SCALE = 4, 64  #: the --scale range on hex maps (pixels per hex width)

#: one disagreement: from, to, each rule's verdict (in the order of --rules)
Disagreement = tuple[Square, Square, tuple[bool, ...]]




def _fit(board: Board, rules: list[Profile]) -> list[Profile]:
    """Each rule checked against the map's grid (one line naming the rules that fit otherwise)."""
    from game.core import sight

    try:
        return [sight.resolve(board, rule) for rule in rules]
    except UsageError as error:
        raise UsageError(f"--rules: {error}") from None


def disagreements(
    board: Board, rules: list[Profile], viewer: str | None, origin: Square | None,
) -> tuple[list[Disagreement], list[np.ndarray], list[np.ndarray]]:
    """Where the rules disagree, and per rule the counts its panel shows: from one hex, 1 on the
    hexes it sees and another does not (``sees``) and on those another sees and it does not
    (``misses``); over every pair, per hex the disagreeing pairs through it that the rule sees."""
    from game.core import sight

    h, w = board.height, board.width
    sees = [np.zeros((h, w), dtype=np.int64) for _ in rules]
    misses = [np.zeros((h, w), dtype=np.int64) for _ in rules]
    rows: list[Disagreement] = []
    if origin is not None:
        fields = [sight.field(board, origin, rule, viewer=viewer) for rule in rules]
        every, some = np.logical_and.reduce(fields), np.logical_or.reduce(fields)
        for i, seen in enumerate(fields):
            sees[i] = (seen & ~every).astype(np.int64)
            misses[i] = (~seen & some).astype(np.int64)
        for y, x in zip(*np.nonzero(some & ~every), strict=True):
            rows.append((origin, (int(x), int(y)), tuple(bool(f[y, x]) for f in fields)))
        return rows, sees, misses
    tables = [sight.pairs(board, rule, viewer=viewer) for rule in rules]
    differ = np.logical_or.reduce([t != tables[0] for t in tables[1:]])
    for ay, ax, by, bx in zip(*np.nonzero(differ), strict=True):
        a, b = (int(ax), int(ay)), (int(bx), int(by))
        symmetric = all(t[by, bx, ay, ax] == t[ay, ax, by, bx] for t in tables)
        if symmetric and (b[1], b[0]) < (a[1], a[0]):
            continue  # each unordered pair once when every rule is symmetric on it
        verdicts = tuple(bool(t[ay, ax, by, bx]) for t in tables)
        rows.append((a, b, verdicts))
        for i, yes in enumerate(verdicts):
            if yes:
                for cell in (a, b):
                    sees[i][cell[1], cell[0]] += 1
    return rows, sees, misses


def _words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def run_hex(args: argparse.Namespace, rules: list[Profile], loaded: LoadedMap | None = None) -> int:
    """``compare`` on a hex map: check the options, decide every rule, print and draw."""
    import os
    import sys

    from game.core import sight
    from game.tiled import load_map

    if not 2 <= len(rules) <= MAX_RULES:
        raise UsageError(f"--rules needs 2 to {MAX_RULES} rules on a hex map, not {len(rules)} "
                         "(e.g. --rules gloomhaven,hexside,hex-strict)")
    if args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    if args.scale is not None and not MIN_SCALE <= args.scale <= MAX_SCALE:
        raise UsageError(f"--scale must be {MIN_SCALE} to {MAX_SCALE} pixels per hex on a hex map, not {args.scale}")
    names = [rule.spec() for rule in rules]
    out = args.output or f"{Path(args.map).stem}-{'-vs-'.join(map(file_slug, names))}.png"
    png_output(out)
    if loaded is None:
        loaded = load_map(args.map, **map_options(args))
    board = loaded.board
    if board.grid.kind != "hex":
        raise UsageError(f"--rules: {_words(names)} are hex rules and {args.map} is a square map; "
                         f"on a square map use e.g. --rules arcadia,corners")
    rules = _fit(board, rules)
    viewer = resolve_viewer(board, args.viewer)
    origin = None
    if args.origin:
        origin = from_cell(board, args.origin)
        viewer = from_viewer(board, origin, viewer)
    rows, sees, misses = disagreements(board, rules, viewer, origin)
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.hex_pictures import RulePanel, compare_panels_png, hex_scale

    assert board.grid.kind == "hex"
    scale = hex_scale(board.grid, len(rules), args.scale)  # type: ignore[arg-type]
    fields = [sight.field(board, origin, rule, viewer=viewer) for rule in rules] if origin else [None] * len(rules)
    panels: list[RulePanel] = [
        RulePanel(name, s, m, f) for name, s, m, f in zip(names, sees, misses, fields, strict=True)
    ]
    compare_panels_png(board, loaded.art, panels, out, origin=origin, scale=scale)
    _print(args, rules, names, rows, origin, viewer, str(out), scale)
    return 0


def _print(
    args: argparse.Namespace, rules: list[Profile], names: list[str], rows: list[Disagreement],
    origin: Square | None, viewer: str | None, out: str, scale: int,
) -> None:
    """The disagreements as text (up to ``--limit``) or one JSON document."""
    if args.json:
        print(json.dumps({
            "grid": "hex",
            "rules": [rule.as_json() for rule in rules],
            "from": list(origin) if origin else None,
            "viewer": viewer,
            "disagreements": [{"from": list(a), "to": list(b), **dict(zip(names, verdicts, strict=True))}
                              for a, b, verdicts in rows],
            "count": len(rows),
            "png": out,
            "png_scale": scale,
        }))
        return
    what = f"hexes seen from {fmt_square(origin)}" if origin else "pairs of hexes"
    print(f"{len(rows)} {what} on which {_words(names)} disagree:")
    for a, b, verdicts in rows[: args.limit]:
        said = ", ".join(f"{name} {'yes' if yes else 'no'}" for name, yes in zip(names, verdicts, strict=True))
        print(f"  {fmt_square(a)} -> {fmt_square(b)}: {said}")
    if len(rows) > args.limit:
        print(f"  ... and {len(rows) - args.limit} more (--limit, or --json for all)")
    print(f"wrote {out} ({len(rules)} panels, {scale} px a hex)")
