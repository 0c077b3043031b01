"""``sightline render MAP -o OUT.png``: the board and its overlays as a PNG, no window needed.

``--from X,Y`` selects the figure on that square (or just marks the square); with ``--fov`` the
squares it cannot see are shaded; with ``--to X,Y`` the ray is drawn and explained in the legend.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.commands._common import (
    add_map_options,
    from_viewer,
    map_options,
    png_output,
    resolve_viewer,
    rule_option,
)
from game.core.board import Board, Square, fmt_square, parse_square
from game.core.errors import UsageError
from game.core.words import plural, plural_of
from game.rules.registry import ruleset_label

if TYPE_CHECKING:
    from game.ui.painter import Overlay


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline render``."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG to write")
    parser.add_argument("--from", dest="origin", metavar="X,Y",
                        help="the viewer's square or hex (selects the figure standing there)")
    parser.add_argument("--to", dest="target", metavar="X,Y",
                        help="draw the ray from --from to this square or hex")
    parser.add_argument("--step", type=int, metavar="N",
                        help="highlight the ray's Nth crossing and explain it (a lesson's from/to serve "
                        "when --from/--to are left out)")
    parser.add_argument("--fov", action="store_true",
                        help="shade every square or hex the viewer on --from cannot see")
    parser.add_argument("--viewer", metavar="SIDE",
                        help="whose enemies block (default: the side of the figure on --from)")
    parser.add_argument("--scale", type=int, default=48, metavar="N",
                        help="pixels per square or hex (8..200, default 48)")
    parser.add_argument("--classes", metavar="MAPPING",
                        help="map your class names onto ours, e.g. wall=collision-line,blocked=rock")
    add_map_options(parser)
    from game.commands._common import add_rule_option

    add_rule_option(parser)
    parser.add_argument("--no-legend", action="store_true",
                        help="leave out the title and explanation strip under the board")


def run(args: argparse.Namespace) -> int:
    """Load the map, compute the ray / field of view, draw and save the PNG."""
    _headless()
    from game.core import sight
    from game.play.ruleset_file import load_with_rules
    from game.ui.painter import Overlay
    from game.ui.render import render_png

    png_output(args.output)
    if args.target and not args.origin:
        raise UsageError("--to needs --from (the ray goes from --from to --to)")
    loaded = load_with_rules(args.map, None, **map_options(args))  # tokens show the file's life
    board = loaded.board
    if args.fov and not args.origin:  # said after the map is read: in its cells' words
        raise UsageError(f"--fov needs --from (the {board.grid.noun} whose view to shade)")
    if args.viewer is not None and not args.origin:
        raise UsageError(f"--viewer needs --from (the viewer's {board.grid.noun})")
    if args.step is not None and not args.origin:  # a lesson board names its own ray
        frm, to = board.properties.get("from"), board.properties.get("to")
        if frm is None or to is None:
            raise UsageError("--step needs a ray: give --from and --to (or a lesson map with from/to)")
        args.origin, args.target = str(frm), str(to)
    if args.step is not None and not args.target:
        raise UsageError("--step needs --to (the ray whose crossing to show)")
    chosen = resolve_viewer(board, args.viewer)
    rule = rule_option(board, args.rule)
    plain = sight.default_rule(board.grid.kind)
    overlay = Overlay()
    title = _title(board, Path(args.map))
    legend = [title]
    # an isometric map is drawn as the square grid it stands for (one line says so)
    legend += [f.message for f in loaded.findings if f.code == "map-isometric"]
    if args.origin:
        origin = _square(board, args.origin, "--from")
        here = board.figures_at(origin)
        viewer = from_viewer(board, origin, chosen)
        if here:
            overlay.selected = here[0].id
        else:
            overlay.hover = origin
        who = f"{here[0].label} on {fmt_square(origin)}" if here else fmt_square(origin)
        side = f" (side {viewer})" if viewer else ""
        if args.target:
            target = _square(board, args.target, "--to")
            there = board.figures_at(target)
            if there:
                overlay.target = there[0].id
            # the centre ray the painter draws; on hexes the rule's own deciding lines
            drawn = rule if board.grid.kind == "hex" else plain
            ray = sight.line(board, origin, target, drawn, viewer=viewer)
            overlay.ray = ray
            legend.append(f"Ray from {who}{side} to {fmt_square(target)}: {ray.explain()}")
            if rule != drawn:
                verdict = sight.line(board, origin, target, rule, viewer=viewer)
                legend.append(f"Under {rule.spec()}: {verdict.explain()}")
            if args.step is not None:
                count = len(ray.crossings)
                if not 1 <= args.step <= count:
                    span = f"1..{count}" if count else "none: the ray crosses nothing"
                    raise UsageError(f"--step {args.step}: this ray has {plural(count, 'crossing')} ({span})")
                overlay.step = args.step - 1
                legend.append(f"Step {args.step} of {count}: {ray.crossings[args.step - 1].explain()}")
        if args.fov:
            fov = sight.field(board, origin, rule, viewer=viewer)
            if rule != plain:
                legend.append(f"Rule: {rule.spec()}.")
            overlay.fov = fov
            seen = int(fov.sum())
            legend.append(f"Field of view of {who}{side}: {seen} {plural_of(board.grid.noun)} visible; the rest is shaded.")
    warnings = render_png(
        board,
        loaded.art,
        args.output,
        scale=args.scale,
        overlay=overlay,
        legend=() if args.no_legend else legend,
        key=() if args.no_legend else _key_groups(overlay, bool(getattr(loaded.art, "drawing", ()))),
    )
    drawing = [f.message for f in loaded.findings if f.code.startswith("tileset-image")]
    for warning in [*drawing, *warnings]:
        print(f"sightline render: warning: {warning}", file=sys.stderr)
    for note in (f.message for f in loaded.findings if f.code == "map-isometric"):
        print(f"sightline render: note: {note}", file=sys.stderr)
    print(f"wrote {args.output}")
    return 0


def _key_groups(overlay: Overlay, drawing: bool = False) -> list[str]:
    """Which parts of the colour key the picture needs (``drawing``: a virtual-tabletop map's
    walls that the grid has elsewhere are drawn)."""
    groups = [name for name, shown in (("ray", overlay.ray), ("fov", overlay.fov)) if shown is not None]
    return [*groups, "drawing"] if drawing else groups


def _headless() -> None:
    """No display (no X11 / Wayland): use SDL's dummy video driver, which renders fine off-screen."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _square(board: Board, text: str, option: str) -> Square:
    sq = parse_square(text)
    if not board.in_bounds(sq):
        raise UsageError(
            f"{option} {fmt_square(sq)} is outside the {board.width}x{board.height} board"
        )
    if board.is_void(sq):
        raise UsageError(f"{option} {fmt_square(sq)} is off the board (a void {board.grid.noun})")
    return sq


def _title(board: Board, path: Path) -> str:
    name = board.name or path.stem
    caption = board.properties.get("caption")
    parts = [f"{name}: {board.width}x{board.height}", f"ruleset {ruleset_label(board.ruleset)}"]
    if caption:
        parts.append(str(caption))
    return " · ".join(parts)
