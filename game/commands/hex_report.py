"""``sightline report`` on a hex map: ``DIR/index.html`` and its PNGs drawn with Tiled's hex layout.

``game/commands/report.py`` hands hex maps here. The numbers and the page are
:mod:`game.designer.hex_report`'s; the pictures :mod:`game.ui.hex_pictures`'s (imported when the
report is written: the command line imports no pygame before it draws).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from game.core.hexgrid import HexEdge, HexGrid

if TYPE_CHECKING:
    from game.core.findings import Finding
    from game.core.profiles import Profile
    from game.designer.coverage import Coverage, DoorEffect
    from game.tiled import LoadedMap

#: what was written: the page, the images, and the numbers shown (the fields of
#: :class:`game.commands.report.Report`, in its order)
Written = tuple[Path, list[Path], "Coverage", list["DoorEffect"], list["Finding"]]

__all__ = ["Written", "write_hex_report"]


def write_hex_report(loaded: LoadedMap, out: Path, rule: Profile | None, jobs: int = 1) -> Written:
    """Write the report of a loaded hex map into the folder ``out`` (which exists) under ``rule``
    (None: the map's rule); every file atomically (:func:`game.play.atomic.write_atomic`); the
    every-pair tables by ``jobs`` worker processes (:class:`game.play.workers.Workers`).
    Returns what was written."""
    from game.core import sight
    from game.designer.hex_report import hex_numbers, render_hex_html
    from game.designer.lint import lint
    from game.designer.report import thumb_areas, thumb_name
    from game.play.atomic import write_atomic
    from game.play.workers import Workers
    from game.ui.hex_pictures import (
        hex_board_png,
        hex_crops_png,
        hex_door_png,
        hex_heatmap_png,
        hex_scale,
    )

    board = loaded.board
    grid = board.grid
    assert isinstance(grid, HexGrid)
    with Workers(jobs) as workers:
        numbers = hex_numbers(board, sight.resolve(board, rule), workers.pair_bits)
    findings = lint(loaded)
    index, images = out / "index.html", []
    scale = hex_scale(grid, widest=960, largest=48)  # about the square report's 960 pixels across
    images.append(hex_board_png(board, loaded.art, out / "board.png", scale))
    cov = numbers.coverage
    images.append(hex_heatmap_png(board, loaded.art, cov.seen_by, cov.standable, out / "heatmap.png", scale))
    for i, effect in enumerate(numbers.doors, 1):
        edge = cast(HexEdge, effect.door.edge)  # a hex board's edges are hex sides
        images.append(hex_door_png(board, loaded.art, edge, effect.per_square, out / f"door-{i:02d}.png", scale))
    shown = thumb_areas(findings, loaded.objects)  # the findings' thumbnails, as on squares
    thumbs = {i: thumb_name(i) for i, _finding, _area in shown}
    images += hex_crops_png(board, loaded.art, [(f.square, area, out / thumbs[i]) for i, f, area in shown], scale)
    write_atomic(index, render_hex_html(loaded, numbers, findings, thumbs))
    return index, images, numbers.coverage, numbers.doors, findings
