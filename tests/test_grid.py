"""The grid seam (game/core/grid.py): the square grid against the board's own notions, and the
board holding its grid."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core.board import Board, Edge
from game.core.grid import Grid, Layout, SquareGrid
from game.core.measure import reach


def test_a_board_holds_a_square_grid_of_its_size() -> None:
    board = Board(4, 3)
    assert isinstance(board.grid, SquareGrid)
    assert (board.grid.kind, board.grid.width, board.grid.height) == ("square", 4, 3)
    assert board.copy().grid == board.grid
    with pytest.raises(ValueError, match="3x3 grid cannot hold a 4x3 board"):
        Board(4, 3, grid=SquareGrid(3, 3))


def test_square_grid_satisfies_the_protocol() -> None:
    grid: Grid[Edge] = SquareGrid(2, 2)  # mypy checks the structure; the test checks it is usable as one
    assert list(grid.cells()) == [(0, 0), (1, 0), (0, 1), (1, 1)]


@given(st.integers(1, 7), st.integers(1, 7))
def test_edges_neighbours_and_lattice_agree(w: int, h: int) -> None:
    grid = SquareGrid(w, h)
    indices = set()
    for cell in grid.cells():
        assert grid.in_bounds(cell)
        corners = grid.corners(cell)
        cx, cy = grid.centre(cell)
        # the centre is the mean of the corners; every corner is 1 lattice step away on each axis
        assert (4 * cx, 4 * cy) == (sum(p[0] for p in corners), sum(p[1] for p in corners))
        assert all(abs(px - cx) == 1 and abs(py - cy) == 1 for px, py in corners)
        for edge in grid.edges_of(cell):
            assert cell in grid.edge_cells(edge)
            ends = grid.edge_ends(edge)
            assert all(end in corners for end in ends)  # an edge of a cell joins two of its corners
            index = grid.edge_index(edge)
            assert index is not None and 0 <= index < grid.edge_count
            indices.add((index, edge))
        for other in grid.neighbours(cell):
            assert grid.distance(cell, other) == 1
            edge = grid.edge_between(cell, other)
            assert set(grid.edge_cells(edge)) == {cell, other}
            assert edge in grid.edges_of(cell) and edge in grid.edges_of(other)
    # the numbering is dense and one-to-one over the edges on or inside the rim
    assert len({i for i, _ in indices}) == len({e for _, e in indices}) == grid.edge_count


def test_edge_index_is_the_boards_sight_edge_code() -> None:
    walls = [Edge("V", 1, 0), Edge("H", 0, 1), Edge("V", 2, 1), Edge("H", 1, 2), Edge("V", 9, 9)]
    board = Board(2, 2, walls=walls)
    assert board.sight_edge_codes == {board.grid.edge_index(e) for e in walls} - {None}


def test_pixels_round_trip() -> None:
    grid = SquareGrid(5, 4)
    layout = Layout(24, 16, x0=10, y0=5)
    for cell in itertools.product(range(5), range(4)):
        polygon = grid.cell_polygon_px(cell, layout)
        mx = sum(p[0] for p in polygon) / 4
        my = sum(p[1] for p in polygon) / 4
        assert grid.cell_at_px(mx, my, layout) == cell
        assert grid.lattice_px(grid.centre(cell), layout) == (mx, my)
    assert grid.cell_at_px(9.0, 4.0, layout) == (-1, -1)


def test_reach_steps_through_the_grid() -> None:
    board = Board.from_ascii(["...", ".#.", "..."], walls=["V(1,0)"])
    assert reach(board, (0, 0), 4) == {(0, 0): 0, (0, 1): 1, (0, 2): 2, (1, 2): 3, (2, 2): 4}
