"""``sightline lessons``: the line-of-sight lessons of ``maps/lessons/``, one board at a time.

Each board's caption says what it teaches; ``N`` / ``P`` step the ray crossing by crossing,
``PageDown`` / ``PageUp`` (or ``]`` / ``[``) change board. Lessons are never autosaved.

The lesson maps are read with the map options of the other map commands (``--classes``,
``--tiles``, ``--property``, ``--preset``: :func:`game.commands._common.add_map_options`), so a
folder of lessons drawn for another game's conventions works too; a wrong option is one line
before the window opens.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.commands._common import add_map_options, map_options
from game.commands.play import add_window_options, check_window_options, shown_path


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline lessons``."""
    parser.add_argument(
        "folder", nargs="?", type=Path, metavar="FOLDER", help="a folder of lesson maps (default: maps/lessons)"
    )
    parser.add_argument(
        "--present", action="store_true",
        help="classroom mode: large type, the verdict on the board, predict then reveal (F2)",
    )
    add_window_options(parser)
    add_map_options(parser, with_classes=True)


def run(args: argparse.Namespace) -> int:
    """Open the window on the first lesson."""
    size = check_window_options(args)
    options = map_options(args)  # --classes, --tiles, --property, --preset (checked before reading)
    from game.play.lessons import LESSONS_DIR, lesson_paths

    folder = args.folder or LESSONS_DIR
    paths = lesson_paths(folder)
    from game.ui.app import run_window

    return run_window(
        None, lessons=paths, frames=args.frames, screenshot=args.screenshot, size=size, map_hint=shown_path(paths[0]),
        ui_scale=getattr(args, "ui_scale", None), present=getattr(args, "present", False),
        lesson_options=options,
    )
