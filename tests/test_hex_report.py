"""``sightline report`` on hex maps (game/commands/hex_report.py, game/designer/hex_report.py,
game/ui/hex_pictures.py): the page and its PNGs on the bundled demo and a real flat-top .tmx, the
numbers checked against the sight facade field by field, the one line for what is not done."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.core import sight
from game.core.hexgrid import HexGrid, HexLayout
from game.designer.coverage import geometry_board, standable_mask
from game.designer.hex_report import MAX_PAIRS_HEXES, NO_THUMBNAILS
from game.tiled import load_map
from tests.test_hex_maps import hex_tmx

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "hex-demo.tmx"


def _seen_by(board: object, rule: str) -> np.ndarray:
    """How many standable hexes see each hex, field by field through the facade."""
    bare = geometry_board(board)  # type: ignore[arg-type]
    keep = standable_mask(bare)
    counts = np.zeros(keep.shape, dtype=np.int64)
    for y, x in zip(*np.nonzero(keep), strict=True):
        seen = sight.field(bare, (int(x), int(y)), rule) & keep
        seen[y, x] = False
        counts += seen
    return counts


def test_the_demo_report_shows_coverage_presets_and_doors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert main(["report", str(DEMO), "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out / 'index.html'} (4 images; 2 doors, 0 findings)")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert {p.name for p in out.iterdir()} == {"index.html", "board.png", "heatmap.png", "door-01.png", "door-02.png"}
    board = load_map(DEMO).board
    counts = _seen_by(board, "hexside")
    top = max(((x, y) for y, x in zip(*np.nonzero(standable_mask(board)), strict=True)), key=lambda c: (counts[c[1], c[0]], -c[1], -c[0]))
    assert f"<td>1</td><td>({top[0]},{top[1]})</td><td>{counts[top[1], top[0]]}</td>" in page  # the most exposed hex
    for rule in ("gloomhaven", "hexside", "hex-strict"):
        sightlines = int(_seen_by(board, rule).sum())
        assert re.search(rf"<td>{rule}( \(this report\))?</td><td>{sightlines}</td>", page), rule
    assert "pointy-top hexes" in page and "No findings" in page


def test_a_flat_top_report_under_a_named_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid, layout = HexGrid(6, 5, "x", "odd"), HexLayout(40, 34, 20)
    path = hex_tmx(tmp_path, grid, layout, blocked=[(2, 2)], void=[(5, 4)], walls=[((1, 1), (2, 1))],
                   doors=[((3, 3), (4, 3))], extra='<object id="90" type="wall" x="16" y="0"><polyline points="0,0 16,22"/></object>')
    out = tmp_path / "flat"
    assert main(["report", str(path), "-o", str(out), "--rule", "gloomhaven"]) == 0
    said = capsys.readouterr().out
    assert "; rule gloomhaven" in said and "1 door" in said
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "flat-top hexes" in page and NO_THUMBNAILS in page and "wall-off-grid" in page
    assert "<td>gloomhaven (this report)</td>" in page and (out / "door-01.png").stat().st_size > 0


def test_a_big_hex_map_says_in_one_line_what_it_skips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    side = int(MAX_PAIRS_HEXES ** 0.5) + 2
    path = hex_tmx(tmp_path, HexGrid(side, side), HexLayout(32, 37, 18))
    out = tmp_path / "big"
    assert main(["report", str(path), "-o", str(out)]) == 0
    assert "(1 image;" in capsys.readouterr().out
    page = (out / "index.html").read_text(encoding="utf-8")
    assert f"not computed on hex maps with over {MAX_PAIRS_HEXES:,} hexes" in page and "heatmap.png" not in page
