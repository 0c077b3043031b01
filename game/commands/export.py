"""``sightline export MAP --to uvtt|foundry OUT``: a board, out to a virtual tabletop.

``--to uvtt`` writes one Universal VTT file (``.dd2vtt``, ``.uvtt`` or ``.df2vtt``) with the board's
picture inside; Foundry, MapTool, Fantasy Grounds, Roll20 importers, Owlbear Rodeo and others read
it. ``--to foundry`` writes a Foundry scene (``.json``, for Foundry's "Import Data") and its
picture beside it (the same name, ``.png``). Walls, doors with their state and windows are
written in each format's terms; what the format has no field for is kept where other tools ignore
it, so that Sightline reads back the same board (:mod:`game.tiled.vtt_export`, docs/vtt.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.commands._common import add_map_options, map_options
from game.core.errors import MapError, UsageError
from game.core.words import plural
from game.play.atomic import cannot_write, write_atomic

#: the file endings each target accepts
ENDINGS = {"uvtt": (".dd2vtt", ".uvtt", ".df2vtt"), "foundry": (".json",)}
SCALE_RANGE = (8, 200)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline export``."""
    parser.add_argument("map", metavar="MAP", help="the map to export (.tmx, .tmj; a virtual-tabletop map converts too)")
    parser.add_argument("--to", required=True, choices=sorted(ENDINGS), dest="target",
                        help="uvtt: a Universal VTT file; foundry: a Foundry scene and its picture")
    parser.add_argument("out", metavar="OUT", help="the file to write (.dd2vtt/.uvtt/.df2vtt, or .json)")
    parser.add_argument("--scale", type=int, default=100, metavar="N",
                        help="pixels per square of the picture and the tabletop's grid (8..200, default 100)")
    parser.add_argument("--classes", metavar="MAPPING", default=None,
                        help="map your class names onto ours, e.g. wall=collision-line")
    add_map_options(parser)


def output_path(text: str, target: str) -> Path:
    """The file to write, checked before any work: the target's ending, a folder that exists.

    >>> output_path("out/keep.json", "uvtt")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --to uvtt writes a .dd2vtt, .uvtt or .df2vtt file, not 'out/keep.json'
    """
    path = Path(text)
    endings = ENDINGS[target]
    if path.suffix.lower() not in endings:
        names = ", ".join(endings[:-1]) + f" or {endings[-1]}" if len(endings) > 1 else endings[0]
        raise UsageError(f"--to {target} writes a {names} file, not {text!r}")
    if not path.parent.is_dir():
        raise cannot_write(path, FileNotFoundError(2, "No such file or directory"))
    return path


def run(args: argparse.Namespace) -> int:
    """Load the map, draw its picture, write the file(s); print what was written. Exit 0."""
    from game.tiled import load_map
    from game.tiled.vtt_export import foundry_document, uvtt_document
    from game.ui.board_picture import board_picture_png

    out = output_path(args.out, args.target)
    low, high = SCALE_RANGE
    if not low <= args.scale <= high:
        raise UsageError(f"--scale must be between {low} and {high} pixels per square, not {args.scale}")
    loaded = load_map(args.map, **map_options(args))
    board = loaded.board
    if board.grid.kind != "square":  # the exports write square grids (walls on square edges)
        raise MapError(f"a {board.grid.noun} map cannot be exported: Sightline's Universal VTT and Foundry "
                       "exports hold square grids only", path=str(args.map),
                       hint="sightline render MAP -o PNG draws the hex board as a picture")
    picture = board_picture_png(board, loaded.art, args.scale)
    counts = (f"{board.width}x{board.height} squares, {plural(len(board.walls), 'wall edge')}, "
              f"{plural(len(board.doors), 'door')}, {plural(len(board.windows), 'window edge')}")
    if args.target == "uvtt":
        write_atomic(out, json.dumps(uvtt_document(board, picture, args.scale)))
        print(f"wrote {out}: {counts}, picture at {args.scale} pixels per square")
        if board.figures:
            print(f"note: Universal VTT has no tokens; the {plural(len(board.figures), 'figure')} "
                  "are kept for Sightline only")
        return 0
    image = out.with_suffix(".png")
    write_atomic(image, picture)
    name = board.name or Path(args.map).stem
    write_atomic(out, json.dumps(foundry_document(board, image.name, args.scale, name), indent=1))
    print(f"wrote {out} and {image.name}: {counts}, {plural(len(board.figures), 'token')}, "
          f"grid of {args.scale} pixels")
    print(f"in Foundry: put {image.name} in your world's folder, then Import Data on a new scene "
          "and set its background to it")
    return 0
