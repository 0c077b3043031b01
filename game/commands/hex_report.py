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
Written = tuple[Path, list[Path], "Coverage | None", list["DoorEffect"], list["Finding"]]

__all__ = ["Written", "write_hex_report"]


def write_hex_report(loaded: LoadedMap, out_dir: str | Path, rule: Profile) -> Written:
    """Write the report of a loaded hex map into ``out_dir`` (created if missing; its parent must
    exist) under ``rule`` (a hex rule); every file atomically, a folder that cannot be written one
    :class:`~game.play.atomic.OutputError` line. Returns what was written."""
    from game.designer.coverage import geometry_board
    from game.designer.hex_report import hex_numbers, render_hex_html
    from game.designer.lint import lint
    from game.play.atomic import cannot_write, write_atomic
    from game.ui.hex_pictures import hex_board_png, hex_door_png, hex_heatmap_png, hex_scale

    out = Path(out_dir)
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise cannot_write(out, exc) from exc
    if not out.is_dir():
        raise cannot_write(out, NotADirectoryError(20, "it exists and is not a folder"))
    board = loaded.board
    grid = board.grid
    assert isinstance(grid, HexGrid)
    numbers = hex_numbers(geometry_board(board) if board.figures else board, rule)
    findings = lint(loaded)
    index, images = out / "index.html", []
    scale = hex_scale(grid, widest=1400)
    images.append(hex_board_png(board, loaded.art, out / "board.png", scale))
    if numbers.coverage is not None:
        cov = numbers.coverage
        images.append(hex_heatmap_png(board, loaded.art, cov.seen_by, cov.standable, out / "heatmap.png", scale))
        for i, effect in enumerate(numbers.doors, 1):
            edge = cast(HexEdge, effect.door.edge)  # a hex board's edges are hex sides
            images.append(hex_door_png(board, loaded.art, edge, effect.per_square, out / f"door-{i:02d}.png", scale))
    write_atomic(index, render_hex_html(loaded, numbers, findings))
    return index, images, numbers.coverage, numbers.doors, findings
