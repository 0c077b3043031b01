"""``sightline report`` on hex maps (game/commands/hex_report.py, game/designer/hex_report.py,
game/ui/hex_pictures.py): the page and its PNGs on the bundled demo and a real flat-top .tmx, the
numbers checked against the sight facade field by field, the one line for what is not done."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from support.hex_maps import hex_tmx

from game.cli import main
from game.core import sight
from game.core.hexgrid import HexGrid, HexLayout
from game.designer.coverage import geometry_board, standable_mask
from game.tiled import load_map

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
    assert "flat-top hexes" in page and "wall-off-grid" in page
    assert "<td>gloomhaven (this report)</td>" in page and (out / "door-01.png").stat().st_size > 0


def _row(page: str, code: str) -> str:
    return next(line for line in page.splitlines() if f"<td>{code}</td>" in line)


def test_hex_findings_get_thumbnails_centred_on_their_hex(tmp_path: Path) -> None:
    import pygame

    from game.ui.hex_painter import HexPicture, hex_layout
    from game.ui.hex_pictures import MARGIN, hex_scale
    from game.ui.report_images import HIGHLIGHT

    grid, layout = HexGrid(7, 6, "x", "odd"), HexLayout(40, 34, 20)
    path = hex_tmx(tmp_path, grid, layout, blocked=[(3, 3)], figures=[("Orc", "monsters", (3, 3))],
                   extra='<object id="90" type="wall" x="16" y="0"><polyline points="0,0 16,22"/></object>')
    out = tmp_path / "rep"
    assert main(["report", str(path), "-o", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    on_blocked, off_grid = _row(page, "figure-on-blocked"), _row(page, "wall-off-grid")
    assert '<img src="finding-001.png"' in on_blocked and "<td>(3,3)</td>" in on_blocked
    assert '<img src="finding-00' in off_grid and (out / "finding-002.png").stat().st_size > 0
    board, thumb = (pygame.image.load(str(out / name)) for name in ("board.png", "finding-001.png"))
    red = np.argwhere(np.all(pygame.surfarray.array3d(thumb) == HIGHLIGHT, axis=2))  # [x, y]: the outline
    assert red.size, "no red outline in the thumbnail"
    cx, cy = (red.min(axis=0) + red.max(axis=0) + 1) // 2
    drawn = load_map(path).board  # its grid knows the map's pixels
    assert isinstance(drawn.grid, HexGrid)
    picture = HexPicture(drawn, hex_layout(drawn.grid, hex_scale(drawn.grid, widest=960, largest=48), MARGIN))
    hx, hy = (round(sum(v) / 6) for v in zip(*picture.polygon((3, 3)), strict=True))
    for dx in range(-4, 5, 2):  # the outline's middle is the hex's drawn centre on the board
        for dy in range(-4, 5, 2):
            assert thumb.get_at((int(cx) + dx, int(cy) + dy)) == board.get_at((hx + dx, hy + dy))


@pytest.mark.slow
def test_a_hex_map_over_the_old_limit_gets_every_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Over the 2,500 standable hexes that used to stop the report: its heat map and the presets
    side by side are there, the open board's counts as the facade says (every hex sees every other
    under hexside on an open board)."""
    side = 52
    path = hex_tmx(tmp_path, HexGrid(side, side), HexLayout(32, 37, 18))
    out = tmp_path / "big"
    assert main(["report", str(path), "-o", str(out)]) == 0
    assert "(2 images;" in capsys.readouterr().out
    page = (out / "index.html").read_text(encoding="utf-8")
    n = side * side
    assert "heatmap.png" in page and f"<td>hexside (this report)</td><td>{n * (n - 1)}</td>" in page
    assert "not computed" not in page


def _random_hex_board(seed: int, width: int = 6, height: int = 5) -> object:
    """A small hex board of a pinned seed: void, rubble, walls and doors in every state."""
    import random

    from game.core.hex_sight import hex_board

    rng = random.Random(seed)
    grid = HexGrid(width, height, "y" if seed % 2 else "x", "odd" if seed % 3 else "even")
    cells = [(x, y) for y in range(height) for x in range(width)]
    sides = sorted({grid.edge_between(c, n) for c in cells for n in grid.neighbours(c) if n in cells}, key=str)
    rng.shuffle(sides)
    states = ["open", "closed", "locked"]
    return hex_board(width, height, staggeraxis=grid.staggeraxis, staggerindex=grid.staggerindex,
                     void=rng.sample(cells, 2), blocked=rng.sample(cells, 3), walls=sides[:6],
                     doors={side: states[i % 3] for i, side in enumerate(sides[6:10])})


@pytest.mark.parametrize("rule", ["hexside", "gloomhaven", "hex-strict", "hexside,from=corners", "gloomhaven,to=centre"])
def test_every_pair_in_bits_equals_the_dense_tables(rule: str) -> None:
    """The report's bit tables (a batch of fields at a time) against the dense N×N way they
    replace: coverage, each rule's sightlines and differences, every door's effect (an asymmetric
    override included: ``from`` other than ``to``)."""
    from game.designer.coverage import coverage, door_effects_reference, visibility_table
    from game.designer.hex_report import hex_numbers

    for seed in range(4):
        board = _random_hex_board(seed)
        profile = sight.resolve(board, rule)  # type: ignore[arg-type]
        numbers = hex_numbers(board, profile)  # type: ignore[arg-type]
        table = visibility_table(board, profile)  # type: ignore[arg-type]
        assert (numbers.coverage.seen_by == coverage(board, table).seen_by).all()  # type: ignore[arg-type]
        want = door_effects_reference(board, profile, table=table)  # type: ignore[arg-type]
        assert len(want) == 4
        for got, ref in zip(numbers.doors, want, strict=True):
            assert (got.door, got.pairs, got.examples) == (ref.door, ref.pairs, ref.examples)
            assert (got.per_square == ref.per_square).all()
        for count in numbers.rules:
            other = table if count.rule == rule else visibility_table(board, sight.resolve(board, count.rule))  # type: ignore[arg-type]
            assert (count.sightlines, count.differ) == (int(other.sum()), int((other != table).sum())), (seed, count)


def test_the_packed_transpose_over_several_chunks() -> None:
    from game.designer.coverage import _CHUNK, _packed_transpose

    k = 2 * _CHUNK + 13  # three chunks, the last not a whole byte
    dense = np.random.default_rng(7).random((k, k)) < 0.3
    bits = np.packbits(dense, axis=1)
    assert (np.unpackbits(_packed_transpose(bits, k), axis=1, count=k).view(bool) == dense.T).all()


def test_the_facade_packs_pairs_among_a_batch_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 5 origins give the table one field per origin gives (hexes, gloomhaven)."""
    board = _random_hex_board(5, 7, 6)
    keep = standable_mask(board)  # type: ignore[arg-type]
    chosen = np.flatnonzero(keep)
    want = np.array([sight.field(board, (int(i % 7), int(i // 7)), "gloomhaven").reshape(-1)[chosen]  # type: ignore[arg-type]
                     for i in chosen])
    np.fill_diagonal(want, False)
    monkeypatch.setattr(sight, "AMONG_BATCH", 5)
    got = np.unpackbits(sight.pair_bits_among(board, keep, "gloomhaven"), axis=1, count=chosen.size).view(bool)  # type: ignore[arg-type]
    assert chosen.size > 20 and (got == want).all()
