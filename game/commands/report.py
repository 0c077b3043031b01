"""``sightline report MAP -o DIR [--classes ...]``: the HTML line-of-sight coverage report."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from game.commands._common import add_map_options, map_options

if TYPE_CHECKING:  # the numbers, the linter and the pictures load when a report is written
    from game.core.findings import Finding
    from game.core.profiles import Profile
    from game.designer.coverage import Coverage, DoorEffect
    from game.tiled import LoadedMap


@dataclass
class Report:
    """What ``sightline report`` wrote (:func:`write_report`) and the numbers it showed."""

    index: Path
    images: list[Path] = field(default_factory=list)
    coverage: Coverage | None = None
    doors: list[DoorEffect] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline report``."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("-o", "--output", metavar="DIR", required=True,
                        help="folder to write index.html and its images into (created if needed; "
                        "its parent folder must exist)")
    parser.add_argument("--classes", metavar="MAPPING", default=None,
                        help="map your class names onto ours, e.g. wall=collision-line")
    parser.add_argument("-j", "--jobs", metavar="N", type=_jobs, default=None,
                        help="worker processes for the every-pair tables of a large hex map "
                        "(default: every CPU this process may use; 1: none)")
    add_map_options(parser)
    from game.commands._common import add_rule_option

    add_rule_option(parser)


def _jobs(text: str) -> int:
    """``--jobs``: a whole number, 1 or more."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of worker processes: give 1 or more, e.g. -j 4")
    return jobs


def run(args: argparse.Namespace) -> int:
    """Load the map (with its ruleset file), write the report, print where it is."""
    from game.play.ruleset_file import load_with_rules

    loaded = load_with_rules(args.map, None, **map_options(args))
    from game.commands._common import rule_option
    from game.core import sight

    rule = rule_option(loaded.board, args.rule)  # --rule, else the map's los_rule, else the default
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        from game.core.errors import UsageError

        raise UsageError(f"{out} exists and is not a folder: give -o a folder for the report")
    from game.play.workers import available_cpus

    report = write_report(loaded, out, rule=rule, jobs=args.jobs or available_cpus())
    from game.core.words import plural

    under = "" if rule == sight.default_rule(loaded.board.grid.kind) else f"; rule {rule.spec()}"
    print(f"wrote {report.index}{under} ({plural(len(report.images), 'image')}; "
          f"{plural(len(report.doors), 'door')}, {plural(len(report.findings), 'finding')})")
    return 0


def write_report(loaded: LoadedMap, out_dir: str | Path, rule: Profile | None = None, jobs: int = 1) -> Report:
    """Write the coverage report of a loaded map into ``out_dir``; returns what was written.

    ``out_dir`` is created if it is missing, but its parent folder must exist. Every file is
    written atomically (:mod:`game.play.atomic`); a folder that cannot be made or written is one
    :class:`~game.play.atomic.OutputError` line. ``rule``: the line-of-sight rule of the coverage
    and door effects (default: the grid's default rule). ``jobs``: worker processes for a hex
    map's every-pair tables (:class:`game.play.workers.Workers`; 1: none).
    """
    from game.designer.coverage import coverage_and_door_effects
    from game.designer.lint import lint
    from game.designer.report import cell_size, render_html, thumb_areas, thumb_name
    from game.play.atomic import cannot_write, write_atomic
    from game.ui import report_images as images

    out = Path(out_dir)
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise cannot_write(out, exc) from exc
    if not out.is_dir():
        raise cannot_write(out, NotADirectoryError(20, "it exists and is not a folder"))
    if loaded.board.grid.kind == "hex":  # issue #21: the hex page, pictures on Tiled's hex layout
        from game.commands.hex_report import write_hex_report

        return Report(*write_hex_report(loaded, out, rule, jobs))
    board = loaded.board
    cell = cell_size(board)
    cov, doors = coverage_and_door_effects(board, rule)
    findings = lint(loaded)
    report = Report(out / "index.html", coverage=cov, doors=doors, findings=findings)
    pictures = images.BoardPictures(board, loaded.art, cell)
    report.images.append(pictures.board_png(out / "board.png"))
    report.images.append(pictures.heatmap_png(cov.seen_by, cov.standable, out / "heatmap.png"))
    for i, effect in enumerate(doors, 1):
        report.images.append(pictures.door_png(effect.door.edge, effect.per_square,
                                               out / f"door-{i:02d}.png"))
    shown = thumb_areas(findings, loaded.objects)
    thumbs = {i: thumb_name(i) for i, _finding, _area in shown}
    areas = [(area, out / thumbs[i]) for i, _finding, area in shown]
    report.images += pictures.crops_png(areas)
    write_atomic(report.index, render_html(loaded, cov, doors, findings, thumbs))
    return report
