"""``sightline lessons``: the line-of-sight lessons of ``maps/lessons/``, one board at a time.

Each board's caption says what it teaches; ``N`` / ``P`` step the ray crossing by crossing,
``PageDown`` / ``PageUp`` (or ``]`` / ``[``) change board. Lessons are never autosaved.

``--list`` opens no window: it prints each board of the folder, the engine's verdict on its ray
under the board's rule against the lesson's ``expected`` (``--json``: one document), the same words
on square and hex boards (``sightline lessons maps/lessons/hex --list``); exit 1 when a board
disagrees with its lesson or cannot be read.

The lesson maps are read with the map options of the other map commands (``--classes``,
``--tiles``, ``--property``, ``--preset``: :func:`game.commands._common.add_map_options`), so a
folder of lessons drawn for another game's conventions works too; a wrong option is one line
before the window opens.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from game.commands._common import add_map_options, map_options
from game.commands.play import add_window_options, check_window_options, shown_path
from game.core.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline lessons``."""
    parser.add_argument(
        "folder", nargs="?", type=Path, metavar="FOLDER", help="a folder of lesson maps (default: maps/lessons)"
    )
    parser.add_argument(
        "--present", action="store_true",
        help="classroom mode: large type, the verdict on the board, predict then reveal (F2)",
    )
    parser.add_argument("--list", action="store_true",
                        help="no window: print each board's verdict against its lesson (exit 1 when one disagrees)")
    parser.add_argument("--json", action="store_true", help="with --list: one JSON document")
    add_window_options(parser)
    add_map_options(parser, with_classes=True)


def run(args: argparse.Namespace) -> int:
    """Open the window on the first lesson (or, with ``--list``, print every board's verdict)."""
    if getattr(args, "json", False) and not getattr(args, "list", False):
        raise UsageError("--json goes with --list (the window has no JSON)")
    size = check_window_options(args)
    options = map_options(args)  # --classes, --tiles, --property, --preset (checked before reading)
    from game.play.lessons import LESSONS_DIR, lesson_paths

    folder = args.folder or LESSONS_DIR
    paths = lesson_paths(folder)
    if getattr(args, "list", False):
        return list_lessons(paths, options, as_json=args.json)
    from game.ui.app import run_window

    return run_window(
        None, lessons=paths, frames=args.frames, screenshot=args.screenshot, size=size, map_hint=shown_path(paths[0]),
        ui_scale=getattr(args, "ui_scale", None), present=getattr(args, "present", False),
        lesson_options=options,
    )


def list_lessons(paths: list[Path], options: dict[str, Any], *, as_json: bool) -> int:
    """Print each lesson board's verdict against its lesson; 1 when one disagrees or cannot be
    read, else 0."""
    from game.core.errors import SightlineError
    from game.play.lessons import LessonCheck, check_lesson
    from game.tiled import load_map

    checks = []
    for path in paths:
        try:
            checks.append(check_lesson(path, load_map(path, **options).board))
        except SightlineError as exc:
            checks.append(LessonCheck(path.stem, "", "", "", None, None, None, None, "", error=str(exc)))
    if as_json:
        print(json.dumps({"lessons": [c.as_json() for c in checks], "agree": all(c.agrees for c in checks)},
                         ensure_ascii=False))
    else:
        for check in checks:
            print(check.line())
        wrong = sum(1 for c in checks if not c.agrees)
        print(f"{len(checks)} boards: " + ("every verdict as its lesson expects" if not wrong
                                           else f"{wrong} not as the lesson expects"))
    return 0 if all(c.agrees for c in checks) else 1
