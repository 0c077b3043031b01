"""``sightline report MAP -o DIR [--classes ...]``: the HTML line-of-sight coverage report."""

from __future__ import annotations

import argparse
from pathlib import Path

from game.words import plural


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline report``."""
    parser.add_argument("map", metavar="MAP", help="the .tmx map")
    parser.add_argument("-o", "--output", metavar="DIR", required=True,
                        help="folder to write index.html and its images into (created if needed; "
                        "its parent folder must exist)")
    parser.add_argument("--classes", metavar="MAPPING", default=None,
                        help="map your class names onto ours, e.g. wall=collision-line")


def run(args: argparse.Namespace) -> int:
    """Load the map, write the report, print where it is."""
    from game.report import write_report
    from game.tiled import load_map, parse_class_mapping

    classes = parse_class_mapping(args.classes) if args.classes else None
    loaded = load_map(args.map, classes=classes)
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        from game.errors import UsageError

        raise UsageError(f"{out} exists and is not a folder: give -o a folder for the report")
    report = write_report(loaded, out)
    print(f"wrote {report.index} ({plural(len(report.images), 'image')}; "
          f"{plural(len(report.doors), 'door')}, {plural(len(report.findings), 'finding')})")
    return 0
