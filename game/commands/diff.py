"""``sightline diff OLD.tmx NEW.tmx [-o OUT.png] [--json]``: what changed in line of sight.

Lists every square whose view changed (how many squares it sees before and after, and the squares
it gained and lost) and, with ``-o``, draws the changes over the new board (gained green, lost red).
Boards of different sizes are compared on their common (top-left) area, and the output says so.
``-o`` must name a ``.png`` in a folder that exists, exactly as for ``sightline render``.
"""

from __future__ import annotations

import argparse
import json

from game.commands._common import add_map_options, map_options, png_output
from game.core.board import fmt_square


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline diff``."""
    parser.add_argument("old", metavar="OLD", help="the earlier version of the map")
    parser.add_argument("new", metavar="NEW", help="the later version")
    parser.add_argument("-o", "--output", metavar="OUT.png", default=None,
                        help="also draw the changes into this PNG (its folder must exist)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--classes", metavar="MAPPING", default=None,
                        help="map your class names onto ours, e.g. wall=collision-line")
    add_map_options(parser)
    from game.commands._common import add_rule_option

    add_rule_option(parser)


def _squares(squares: tuple[tuple[int, int], ...], limit: int = 8) -> str:
    shown = " ".join(fmt_square(s) for s in squares[:limit])
    return shown + (f" +{len(squares) - limit} more" if len(squares) > limit else "")


def run(args: argparse.Namespace) -> int:
    """Compare the two maps; print the changes; optionally write the PNG. Exit 0."""
    from game.designer.mapdiff import diff_boards
    from game.tiled import load_map

    if args.output:
        png_output(args.output)
    options = map_options(args)
    old = load_map(args.old, **options)
    new = load_map(args.new, **options)
    from game.commands._common import rule_option
    from game.core import sight

    rule = rule_option(new.board, args.rule)  # --rule, else the new map's los_rule, else the default
    from game.designer.coverage import visibility_table

    diff = diff_boards(old.board, new.board, lambda board: visibility_table(board, rule))
    image = None
    if args.output:
        from game.ui.report_images import diff_png

        note = "common area only: the boards differ in size" if diff.sizes_differ else ""
        image = diff_png(new.board, new.art, diff.gained, diff.lost, args.output, note=note)
    if args.json:
        doc = {"old": str(old.path), "new": str(new.path), "rule": rule.as_json(), **diff.as_json(),
               "image": None if image is None else str(image)}
        print(json.dumps(doc, indent=2))
        return 0
    under = "" if rule == sight.default_rule(new.board.grid.kind) else f" (rule {rule.spec()})"
    print(f"{args.old} -> {args.new}{under}: {diff.summary()}")
    for change in diff.changes:
        line = (f"{fmt_square(change.square)}: sees {change.sees_before} -> {change.sees_after}")
        if change.gained:
            line += f"; gained {_squares(change.gained)}"
        if change.lost:
            line += f"; lost {_squares(change.lost)}"
        print(line)
    if image is not None:
        print(f"wrote {image}")
    return 0
