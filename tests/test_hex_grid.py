"""The hex grid: Tiled's cells on the integer lattice of docs/hex.md, neighbours, edges, corners,
cube distance, transposition, and the pixel layout checked against what real Tiled draws."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core.hexgrid import HexEdge, HexGrid, HexLayout

GRIDS = [HexGrid(5, 4, axis, index) for axis in ("y", "x") for index in ("odd", "even")]  # type: ignore[arg-type]
POINTY = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


def _grid_id(g: HexGrid) -> str:
    return f"{g.staggeraxis}-{g.staggerindex}"


@pytest.mark.parametrize("grid", GRIDS, ids=_grid_id)
def test_the_lattice_is_the_spec_s(grid: HexGrid) -> None:
    """hex-los.md §1: pointy centre (2x + s(y), 3y), flat (3x, 2y + s(x)); s = 1 on a pushed row
    (Tiled's ``(index & 1) ^ staggerEven``); the six corners of the spec, transposed on flat grids."""
    even = grid.staggerindex == "even"
    for x, y in grid.cells():
        if grid.pointy:
            s = (y & 1) ^ even
            centre = (2 * x + s, 3 * y)
            corners = tuple((centre[0] + dx, centre[1] + dy) for dx, dy in POINTY)
        else:
            s = (x & 1) ^ even
            centre = (3 * x, 2 * y + s)
            corners = tuple((centre[0] + dy, centre[1] + dx) for dx, dy in POINTY)
        assert grid.centre((x, y)) == centre
        assert grid.corners((x, y)) == corners
        assert grid.cell_at(centre) == (x, y)
        assert all(grid.is_corner(c) and not grid.is_corner(centre) for c in corners)


def test_the_spec_s_lattice_examples() -> None:
    """The centres hex-los.md §5 names: (1,0) → (2,0), (0,1) → (1,3), (1,1) → (3,3), (1,2) → (2,6);
    the edge between (0,1) and (1,1) is (2,2)-(2,4)."""
    g = HexGrid(3, 3)
    assert [g.centre(c) for c in ((1, 0), (0, 1), (1, 1), (1, 2))] == [(2, 0), (1, 3), (3, 3), (2, 6)]
    assert g.edge_between((0, 1), (1, 1)) == HexEdge((2, 2), (2, 4))


@pytest.mark.parametrize("grid", GRIDS, ids=_grid_id)
def test_neighbours_share_one_edge_and_two_corners(grid: HexGrid) -> None:
    for cell in grid.cells():
        edges = grid.edges_of(cell)
        assert len(set(edges)) == 6
        for side, other in enumerate(grid.around(cell)):
            assert grid.around(other)[(side + 3) % 6] == cell
            assert grid.edges_of(other)[(side + 3) % 6] == edges[side]
            assert grid.edge_between(cell, other) == edges[side]
            assert grid.edge_cells(edges[side]) == tuple(sorted((cell, other)))
            assert set(grid.corners(cell)) & set(grid.corners(other)) == {edges[side].a, edges[side].b}
            assert grid.distance(cell, other) == 1
        for corner in grid.corners(cell):
            around = grid.corner_cells(corner)
            assert cell in around and len(set(around)) == 3
            assert all(grid.distance(p, q) == 1 for p in around for q in around if p != q)


def test_edge_between_refuses_cells_that_are_not_neighbours() -> None:
    with pytest.raises(ValueError, match="not neighbours"):
        HexGrid(3, 3).edge_between((0, 0), (2, 0))
    with pytest.raises(ValueError, match="not an edge"):
        HexGrid(3, 3).edge_cells(HexEdge((0, 0), (2, 0)))


@pytest.mark.parametrize("grid", GRIDS, ids=_grid_id)
def test_distance_is_the_number_of_hex_steps(grid: HexGrid) -> None:
    """Cube distance equals a breadth-first count of steps across shared edges."""
    big = HexGrid(9, 8, grid.staggeraxis, grid.staggerindex)
    start = (4, 3)
    steps = {start: 0}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        for other in big.around(cell):
            if big.in_bounds(other) and other not in steps:
                steps[other] = steps[cell] + 1
                todo.append(other)
    assert all(big.distance(start, c) == n for c, n in steps.items())
    assert all(big.cell_of_cube(big.cube(c)) == c for c in big.cells())


@pytest.mark.parametrize("grid", GRIDS, ids=_grid_id)
def test_transposing_swaps_the_axes_of_everything(grid: HexGrid) -> None:
    t = grid.transposed()
    assert (t.width, t.height, t.staggerindex) == (grid.height, grid.width, grid.staggerindex)
    assert t.transposed() == grid
    for x, y in grid.cells():
        cx, cy = grid.centre((x, y))
        assert t.centre((y, x)) == (cy, cx)
        assert t.corners((y, x)) == tuple((b, a) for a, b in grid.corners((x, y)))
        assert grid.around((x, y)) == tuple((b, a) for a, b in t.around((y, x)))


LAYOUTS = [HexLayout(14, 12, 6), HexLayout(32, 37, 18), HexLayout(40, 20, 10), HexLayout(20, 40, 10), HexLayout(33, 29, 7), HexLayout(33, 29, 0)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("grid", GRIDS, ids=_grid_id)
def test_pixels_place_every_lattice_corner_on_its_polygon(grid: HexGrid, layout: HexLayout) -> None:
    """Vertex i of a cell's drawn polygon is where its lattice corner i is drawn; a drawn centre
    and every drawn corner find their cell and corner again (with a side length of 0 two corners
    are drawn at one pixel, so only cells)."""
    for cell in grid.cells():
        polygon = grid.cell_polygon_px(cell, layout)
        assert [grid.point_px(c, layout) for c in grid.corners(cell)] == [tuple(map(float, v)) for v in polygon]
        assert grid.point_px(grid.centre(cell), layout) == grid.centre_px(cell, layout)
        assert grid.cell_at_px(*grid.centre_px(cell, layout), layout) == cell
        for corner in grid.corners(cell) if layout.hexsidelength else ():
            assert grid.corner_at_px(*grid.point_px(corner, layout), layout) == corner


def test_the_hexagonal_mini_example_is_drawn_as_tiled_draws_it() -> None:
    """Tiled's examples/hexagonal-mini.tmx: 14×12 tiles, side 6, rows staggered, odd rows pushed:
    columns of 14 px, rows of 9 px, odd rows shifted by 7 px (Tiled's tileToScreenCoords)."""
    g, lay = HexGrid(20, 20), HexLayout(14, 12, 6)
    assert g.cell_origin_px((0, 0), lay) == (0, 0)
    assert g.cell_origin_px((3, 1), lay) == (49, 9)
    assert g.cell_polygon_px((0, 0), lay) == [(7, 0), (14, 3), (14, 9), (7, 12), (0, 9), (0, 3)]
    assert g.size_px(lay) == (20 * 14 + 7, 20 * 9 + 3)


def test_squashed_hexes_pick_by_their_drawn_polygon_not_by_the_nearest_centre() -> None:
    g, lay = HexGrid(3, 3), HexLayout(40, 20, 10)
    assert g.tiled_cell_at_px(38, 7, lay) == (0, 1)  # what Tiled's status bar says
    assert g.cell_at_px(38, 7, lay) == (0, 0)  # the polygon drawn there


@given(st.integers(-3, 8), st.integers(-3, 8), st.sampled_from(GRIDS))
def test_cells_off_the_map_are_cells_of_the_same_lattice(x: int, y: int, grid: HexGrid) -> None:
    cell = (x, y)
    assert grid.in_bounds(cell) == (0 <= x < grid.width and 0 <= y < grid.height)
    assert grid.cell_at(grid.centre(cell)) == cell
    assert all(grid.around(n)[(i + 3) % 6] == cell for i, n in enumerate(grid.around(cell)))


# --- what real Tiled draws ------------------------------------------------------------------

TMXRASTERIZER = shutil.which("tmxrasterizer")


def _render_with_tiled(tmp: Path, grid: HexGrid, layout: HexLayout) -> object:
    """A map of ``grid`` painted with one solid-colour hex tile per cell, rendered by Tiled's own
    renderer (``tmxrasterizer``); returns (pygame surface, colours by cell)."""
    import pygame  # the tests' own drawing (the tileset image); SDL is headless here

    tw, th = layout.tilewidth, layout.tileheight
    n = grid.width * grid.height
    colours = [((37 * i) % 256, (91 * i + 50) % 256, (17 * i + 100) % 256) for i in range(n)]
    image = pygame.Surface((tw * n, th), pygame.SRCALPHA)
    shape = list(HexGrid(1, 1, grid.staggeraxis, "odd").cell_polygon_px((0, 0), layout))  # row 0 unpushed
    for i, colour in enumerate(colours):  # each tile is its hex shape, transparent around it
        pygame.draw.polygon(image, colour, [(x + i * tw, y) for x, y in shape])
    pygame.image.save(image, str(tmp / "tiles.png"))
    data = ",".join(str(i + 1) for i in range(n))
    (tmp / "m.tmx").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="hexagonal" '
        f'renderorder="right-down" width="{grid.width}" height="{grid.height}" tilewidth="{tw}" '
        f'tileheight="{th}" hexsidelength="{layout.hexsidelength}" staggeraxis="{grid.staggeraxis}" '
        f'staggerindex="{grid.staggerindex}" nextlayerid="2" nextobjectid="1">\n'
        f' <tileset firstgid="1" name="t" tilewidth="{tw}" tileheight="{th}" tilecount="{n}" columns="{n}">\n'
        f'  <image source="tiles.png" width="{tw * n}" height="{th}"/>\n </tileset>\n'
        f' <layer id="1" name="g" width="{grid.width}" height="{grid.height}">\n'
        f'  <data encoding="csv">{data}</data>\n </layer>\n</map>\n',
        encoding="utf-8",
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run([TMXRASTERIZER, str(tmp / "m.tmx"), str(tmp / "out.png")], env=env, check=True,  # type: ignore[list-item]
                   capture_output=True, timeout=60)
    return pygame.image.load(str(tmp / "out.png")), {c: colours[c[1] * grid.width + c[0]] for c in grid.cells()}


@pytest.mark.skipif(TMXRASTERIZER is None, reason="Tiled's tmxrasterizer is not installed")
@pytest.mark.parametrize("layout", [HexLayout(14, 12, 6), HexLayout(32, 36, 18), HexLayout(40, 20, 10)], ids=str)
@pytest.mark.parametrize("grid", [HexGrid(5, 4, a, i) for a in ("y", "x") for i in ("odd", "even")], ids=_grid_id)  # type: ignore[arg-type]
def test_real_tiled_draws_every_cell_where_the_layout_says(tmp_path: Path, grid: HexGrid, layout: HexLayout) -> None:
    """Tiled paints cell (x, y)'s tile around our centre of (x, y) and inside our polygon of it,
    for both stagger axes and both stagger indexes (which rows or columns are pushed), and the
    rendered map has our size. (Even pixel sizes: Debian's Tiled 1.8 rounds tile sizes down to
    even, Tiled 1.10.1+ does not; they agree there.)"""
    surface, colours = _render_with_tiled(tmp_path, grid, layout)
    assert surface.get_size() == grid.size_px(layout)  # type: ignore[attr-defined]
    for cell, colour in colours.items():
        cx, cy = grid.centre_px(cell, layout)
        points = [(cx, cy)] + [((3 * x + cx) / 4, (3 * y + cy) / 4) for x, y in grid.cell_polygon_px(cell, layout)]
        for x, y in points:
            assert tuple(surface.get_at((int(x), int(y))))[:3] == colour, (cell, (x, y))  # type: ignore[attr-defined]
