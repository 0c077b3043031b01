"""Infinite hex maps made by the real Tiled editor (``infinite="1"``, tile layers in chunks), read
through the one reader (game/tiled/prepare.py crops them to the painted part, game/tiled/hex_derive.py
keeps every cell in place): the board is the finite map's, cell for cell, shifted by the crop.

A finite hex map (tests/test_hex_maps.hex_tmx) is opened in a headless Tiled with the test-only
extension ``tests/tiled/make_infinite.js``, which ticks *Infinite* on it and writes it with
Tiled's own TMX and JSON writers. Then ``sightline check``, ``los`` and ``render`` run on both
files, and the boards are compared: void, rubble, walls, doors and figures by their cells, and
every field of view under every hex preset from every hex. Runs only where ``tiled`` exists."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from support.hex_maps import hex_tmx
from support.tiled_editor import hand_map, headless_env

from game.cli import main
from game.core import sight
from game.core.board import Board
from game.core.hex_rules import HEX_PRESETS
from game.core.hexgrid import HexGrid, HexLayout
from game.tiled import load_map

TILED = shutil.which("tiled")
SCRIPT = Path(__file__).resolve().parent / "tiled" / "make_infinite.js"
LAYOUT = HexLayout(32, 37, 18)

pytestmark = pytest.mark.skipif(TILED is None, reason="the Tiled editor is not installed")


def tiled_infinite(tmp: Path, source: Path) -> tuple[Path, Path, dict[str, object]]:
    """The real Tiled makes ``source`` infinite and writes it as ``infinite.tmx`` and ``.tmj``
    (a private config folder, ``QT_QPA_PLATFORM=offscreen``; the map is handed to the running
    editor as tests/test_tiled_extension.py hands its own). Every wait is bounded; the editor
    is stopped if it has not quit by itself."""
    assert TILED is not None
    root = tmp / "tiled"
    home, config, runtime = root / "home", root / "config", root / "runtime"
    extensions = config / "tiled" / "extensions"
    for folder in (home, runtime, extensions):
        folder.mkdir(parents=True)
    runtime.chmod(0o700)
    shutil.copy(SCRIPT, extensions / SCRIPT.name)
    opened = tmp / "opened.tmx"  # Tiled opens a copy: the source stays as written
    shutil.copy(source, opened)
    tmx, tmj, done = tmp / "infinite.tmx", tmp / "infinite.tmj", root / "done.json"
    env = headless_env(home, config, runtime, SIGHTLINE_INFINITE_SOURCE=str(opened), SIGHTLINE_INFINITE_TMX=str(tmx),
                       SIGHTLINE_INFINITE_TMJ=str(tmj), SIGHTLINE_INFINITE_DONE=str(done))
    hand_map(TILED, env, opened, done, root / "tiled.log", may_hang=True)
    return tmx, tmj, json.loads(done.read_text(encoding="utf-8"))


def _source(tmp: Path, axis: str, index: str, border: bool) -> Path:
    """A 7×6 hex map: rubble, a wall, a closed door, a figure; with ``border`` its first row and
    column are void, so Tiled's painted part starts on an odd row (and column)."""
    grid = HexGrid(7, 6, axis, index)  # type: ignore[arg-type]
    void = [c for c in grid.cells() if 0 in c] if border else [(6, 5)]
    wall = ((2, 2), grid.neighbours((2, 2))[2])
    door = ((4, 3), grid.neighbours((4, 3))[0])
    return hex_tmx(tmp, grid, LAYOUT, blocked=[(3, 2)], void=void, walls=[wall], doors=[door],
                   figures=[("Orc", "red", (4, 2))])


def _cells_of(board: Board, shift: tuple[int, int]) -> dict[str, object]:
    """The board's contents by cells, shifted into the finite map's cells."""
    grid = board.grid

    def moved(cell: tuple[int, int]) -> tuple[int, int]:
        return (cell[0] + shift[0], cell[1] + shift[1])

    def sides(edges: object) -> set[frozenset[tuple[int, int]]]:
        return {frozenset(map(moved, grid.edge_cells(e))) for e in edges}  # type: ignore[attr-defined]

    return {
        "on": {moved(c) for c in board.squares()},
        "blocked": {moved(c) for c in board.blocked},
        "walls": sides(board.walls),
        "doors": {(frozenset(map(moved, grid.edge_cells(e))), d.state.value) for e, d in board.doors.items()},
        "figures": {(f.name, f.side, moved(f.square)) for f in board.figures.values()},
    }


@pytest.mark.parametrize(("axis", "index", "border"), [("y", "odd", True), ("x", "even", True), ("y", "even", False)])
def test_an_infinite_map_from_real_tiled_is_the_finite_board(tmp_path: Path, axis: str, index: str, border: bool) -> None:
    finite = _source(tmp_path, axis, index, border)
    tmx, tmj, said = tiled_infinite(tmp_path, finite)
    assert said.get("infinite") is True and not said.get("exception"), said
    text = tmx.read_text(encoding="utf-8")
    assert 'infinite="1"' in text and "<chunk " in text  # Tiled's own chunked layers
    want = load_map(finite).board
    shift = (1, 1) if border else (0, 0)
    for path in (tmx, tmj):
        loaded = load_map(path)
        board = loaded.board
        assert isinstance(board.grid, HexGrid) and board.grid.staggeraxis == axis
        assert (board.width, board.height) == ((6, 5) if border else (7, 6))
        assert [f.code for f in loaded.findings] == ["map-infinite"]
        assert (loaded.stats.get("origin_x", 0), loaded.stats.get("origin_y", 0)) == shift
        assert _cells_of(board, shift) == _cells_of(want, (0, 0))
        for name in HEX_PRESETS:  # every field of view, from every hex, under every preset
            for x, y in board.squares():
                got = sight.field(board, (x, y), name)
                full = sight.field(want, (x + shift[0], y + shift[1]), name)
                seen = full[shift[1] : shift[1] + board.height, shift[0] : shift[0] + board.width]
                assert (got == seen).all() and int(full.sum()) == int(seen.sum()), (path.name, name, (x, y))


def test_check_los_and_render_on_a_real_infinite_hex_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    finite = _source(tmp_path, "y", "odd", True)
    tmx, _tmj, _said = tiled_infinite(tmp_path, finite)
    assert main(["check", str(tmx)]) == 0
    out = capsys.readouterr().out
    assert "infinite map: the board is its painted part, 6x5 hexes from Tiled's cell (1,1)" in out
    assert main(["los", str(tmx), "3,1", "--json"]) == 0
    seen = {tuple(c) for c in json.loads(capsys.readouterr().out)["visible"]}
    assert main(["los", str(finite), "4,2", "--json"]) == 0
    assert seen == {(x - 1, y - 1) for x, y in json.loads(capsys.readouterr().out)["visible"]}
    for path, origin, name in ((tmx, "3,1", "infinite.png"), (finite, "4,2", "finite.png")):
        assert main(["render", str(path), "-o", str(tmp_path / name), "--from", origin, "--fov"]) == 0
    assert (tmp_path / "infinite.png").stat().st_size > 0 and (tmp_path / "finite.png").stat().st_size > 0
