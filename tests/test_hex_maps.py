"""Hexagonal Tiled maps read as hex boards (game/tiled/hex_derive.py): real files through the real
reader, both stagger axes and indexes, squashed hexes, walls and doors snapped to Tiled's pixel
corners, walls cutting across a hex as findings; every map exported to .tmj by the real Tiled
editor (``tiled --export-map``) and read to the same board."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.hex_maps import _px, _tileset_png, hex_tmx

from game.core import sight
from game.core.errors import MapError
from game.core.hexgrid import HexGrid, HexLayout
from game.tiled.reader import load_map

TILED = shutil.which("tiled")
GRIDS = [(axis, index) for axis in ("y", "x") for index in ("odd", "even")]
LAYOUTS = [HexLayout(32, 28, 16), HexLayout(32, 37, 18), HexLayout(40, 20, 10)]


def _board_facts(path: Path) -> tuple:
    loaded = load_map(path)
    b = loaded.board
    g = b.grid
    return (
        g.kind, (g.width, g.height), getattr(g, "staggeraxis", None), getattr(g, "staggerindex", None),
        sorted(map(str, b.walls)), sorted((str(e), d.state.value) for e, d in b.doors.items()),
        sorted(b.void), sorted(b.blocked), sorted((f.name, f.side, f.square) for f in b.figures.values()),
        sorted(f.code for f in loaded.findings if f.severity.name == "ERROR"),
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize(("axis", "index"), GRIDS)
def test_a_hex_map_reads_as_its_hex_board(tmp_path: Path, axis: str, index: str, layout: HexLayout) -> None:
    grid = HexGrid(5, 4, axis, index)  # type: ignore[arg-type]
    a, b = (1, 1), grid.neighbours((1, 1))[1]
    c = grid.neighbours((2, 2))[0]
    path = hex_tmx(tmp_path, grid, layout, blocked=[(3, 1)], void=[(4, 3)], walls=[(a, b)], doors=[((2, 2), c)],
                   figures=[("Scout", "blue", (0, 2))])
    loaded = load_map(path)
    board = loaded.board
    assert board.grid == grid
    assert set(board.walls) == {grid.edge_between(a, b)}
    assert {e: d.state.value for e, d in board.doors.items()} == {grid.edge_between((2, 2), c): "closed"}
    assert board.void == {(4, 3)} and board.blocked == {(3, 1)}
    assert [(f.name, f.side, f.square) for f in board.figures.values()] == [("Scout", "blue", (0, 2))]
    assert not loaded.errors
    assert sight.rule_of(board).name == "hexside"
    assert not sight.line(board, a, b).clear  # the wall between them


def test_walls_off_the_corners_or_across_a_hex_are_findings(tmp_path: Path) -> None:
    grid, layout = HexGrid(5, 4), HexLayout(32, 28, 16)
    (x0, y0), (x1, y1) = _px(grid, layout, (0, -2)), _px(grid, layout, (1, 1))  # top and lower right of (0,0)
    extra = (f'<object id="50" type="wall" x="{x0:g}" y="{y0:g}"><polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>'
             '<object id="51" type="wall" x="40" y="40"><polyline points="0,0 7,3"/></object>'
             '<object id="52" type="door" x="48" y="58"><point/></object>')  # the centre of (1,2)
    loaded = load_map(hex_tmx(tmp_path, grid, layout, extra=extra))
    found = {(f.code, f.object_id) for f in loaded.errors}
    assert ("wall-across-hex", 50) in found and ("wall-off-grid", 51) in found and ("door-off-edge", 52) in found
    across = next(f for f in loaded.errors if f.object_id == 50)
    assert across.message == ("wall from (16,0) to (32,22) cuts across a hex instead of running along one hex side; "
                              "that part is ignored")
    assert not loaded.board.walls and "\n" not in across.message


def test_a_vertex_near_a_corner_snaps_and_a_door_shape_near_a_side_s_midpoint_is_a_door(tmp_path: Path) -> None:
    grid, layout = HexGrid(5, 4), HexLayout(32, 28, 16)
    edge = grid.edge_between((1, 1), (2, 1))
    (x0, y0), (x1, y1) = _px(grid, layout, edge.a), _px(grid, layout, edge.b)
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    extra = (f'<object id="60" type="wall" x="{x0 + 1:g}" y="{y0 - 1:g}"><polyline points="0,0 {x1 - x0 - 1:g},{y1 - y0 + 2:g}"/></object>'
             f'<object id="61" type="door" x="{mx - 3:g}" y="{my - 3:g}" width="6" height="6"><properties>'
             '<property name="state" value="open"/></properties></object>')
    loaded = load_map(hex_tmx(tmp_path, grid, layout, extra=extra))
    assert set(loaded.board.walls) == {edge} and loaded.stats["snapped_vertices"] == 2
    assert {e: d.state.value for e, d in loaded.board.doors.items()} == {edge: "open"}


def test_bad_stagger_attributes_are_refused_in_one_line(tmp_path: Path) -> None:
    path = hex_tmx(tmp_path, HexGrid(3, 2), HexLayout(32, 28, 16))
    path.write_text(path.read_text().replace('staggeraxis="y"', 'staggeraxis="z"'))
    with pytest.raises(MapError) as error:
        load_map(path)
    assert "staggeraxis='z'" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.skipif(TILED is None, reason="the Tiled editor is not installed")
@pytest.mark.parametrize(("axis", "index"), GRIDS)
def test_real_tiled_exports_each_map_to_the_same_board(tmp_path: Path, axis: str, index: str) -> None:
    grid, layout = HexGrid(6, 5, axis, index), HexLayout(32, 37, 18)  # type: ignore[arg-type]
    walls = [((1, 1), grid.neighbours((1, 1))[k]) for k in range(3)]
    path = hex_tmx(tmp_path, grid, layout, blocked=[(3, 1), (2, 3)], void=[(5, 4), (0, 0)], walls=walls,
                   doors=[((3, 3), grid.neighbours((3, 3))[0])], figures=[("Orc", "red", (4, 2)), ("Elf", "blue", (1, 3))],
                   props='<property name="los_rule" value="gloomhaven"/>')
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run([TILED, "--export-map", "json", str(path), str(tmp_path / "map.tmj")],  # type: ignore[list-item]
                   env=env, check=True, timeout=60, capture_output=True)
    assert _board_facts(path) == _board_facts(tmp_path / "map.tmj")
    tmx, tmj = load_map(path).board, load_map(tmp_path / "map.tmj").board
    assert sight.rule_of(tmj).name == "gloomhaven"
    assert (sight.field(tmx, (4, 2)) == sight.field(tmj, (4, 2))).all()


@pytest.mark.parametrize(("axis", "index"), GRIDS)
def test_an_infinite_hex_map_cropped_from_an_odd_row_keeps_every_cell_in_place(
    tmp_path: Path, axis: str, index: str,
) -> None:
    """The board is the painted part (cells 3..7 x 3..6 of Tiled's); cropping from an odd row or
    column flips the stagger index, and walls and figures drawn on Tiled's pixels land on the same
    cells, shifted by the crop."""
    layout = HexLayout(32, 37, 18)
    whole = HexGrid(16, 16, axis, index)  # type: ignore[arg-type]
    a, b = (4, 4), whole.around((4, 4))[1]
    edge = whole.edge_between(a, b)
    (x0, y0), (x1, y1) = whole.point_px(edge.a, layout), whole.point_px(edge.b, layout)
    fx, fy = whole.centre_px((6, 5), layout)
    rows = [",".join("1" if 3 <= x <= 7 and 3 <= y <= 6 else "0" for x in range(16)) for y in range(16)]
    _tileset_png(tmp_path / "hex.png", layout)
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="16" height="16" tilewidth="32" tileheight="37" infinite="1" hexsidelength="18" staggeraxis="{axis}" staggerindex="{index}" nextlayerid="3" nextobjectid="3">
 <tileset firstgid="1" name="hex" tilewidth="32" tileheight="37" tilecount="2" columns="2">
  <image source="hex.png" width="64" height="37"/>
 </tileset>
 <layer id="1" name="ground" width="16" height="16">
  <data encoding="csv">
   <chunk x="0" y="0" width="16" height="16">
{(',' + chr(10)).join(rows)}
</chunk>
  </data>
 </layer>
 <objectgroup id="2" name="things">
  <object id="1" type="wall" x="{x0:g}" y="{y0:g}"><polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>
  <object id="2" name="Elf" type="figure" x="{fx:g}" y="{fy:g}"><point/></object>
 </objectgroup>
</map>
"""
    path = tmp_path / "inf.tmx"
    path.write_text(text, encoding="utf-8")
    loaded = load_map(path)
    board = loaded.board
    assert (board.width, board.height) == (5, 4) and not loaded.errors
    grid = board.grid
    assert isinstance(grid, HexGrid)
    shift = (3, 3)
    assert set(board.walls) == {grid.edge_between((a[0] - shift[0], a[1] - shift[1]), (b[0] - shift[0], b[1] - shift[1]))}
    assert [f.square for f in board.figures.values()] == [(6 - shift[0], 5 - shift[1])]
    if TILED is not None:  # the same board from real Tiled's .tmj export
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        subprocess.run([TILED, "--export-map", "json", str(path), str(tmp_path / "inf.tmj")], env=env, check=True,
                       timeout=60, capture_output=True)
        assert _board_facts(path) == _board_facts(tmp_path / "inf.tmj")
