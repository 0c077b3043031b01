"""The view transform: grid <-> screen, zoom around the cursor, pan, fit, picking squares and edges."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Edge
from game.ui import theme
from game.ui.view import View

coords = st.floats(min_value=-2000, max_value=2000, allow_nan=False)
factors = st.floats(min_value=0.05, max_value=20, allow_nan=False)


@settings(max_examples=150)
@given(cell=st.floats(8, 200), ox=coords, oy=coords, gx=coords, gy=coords)
def test_to_grid_inverts_to_screen(cell: float, ox: float, oy: float, gx: float, gy: float) -> None:
    view = View(cell=cell, origin=(ox, oy))
    px, py = view.to_screen(gx, gy)
    back = view.to_grid(px, py)
    assert math.isclose(back[0], gx, abs_tol=1e-6) and math.isclose(back[1], gy, abs_tol=1e-6)


@settings(max_examples=150)
@given(cell=st.floats(8, 200), factor=factors, px=st.floats(0, 1279), py=st.floats(0, 799))
def test_zoom_keeps_the_point_under_the_cursor_and_clamps(cell: float, factor: float, px: float, py: float) -> None:
    view = View(cell=cell, origin=(37.0, -12.5), viewport=(0, 0, 1280, 800))
    before = view.to_grid(px, py)
    view.zoom_at(factor, px, py)
    after = view.to_grid(px, py)
    assert theme.CELL_MIN <= view.cell <= theme.CELL_MAX
    assert math.isclose(before[0], after[0], abs_tol=1e-6)
    assert math.isclose(before[1], after[1], abs_tol=1e-6)


def test_fit_centres_the_whole_board_in_the_viewport() -> None:
    view = View(viewport=(100, 50, 800, 600))
    view.fit(40, 20)
    left, top = view.to_screen(0, 0)
    right, bottom = view.to_screen(40, 20)
    assert left >= 100 and right <= 900 and top >= 50 and bottom <= 650
    assert math.isclose(left - 100, 900 - right) and math.isclose(top - 50, 650 - bottom)
    assert view.square_at(*view.to_screen(39.5, 19.5)) == (39, 19)
    assert view.square_at(*view.to_screen(40.5, 10)) is None  # beside the board
    tiny = View(viewport=(0, 0, 100, 100))
    tiny.fit(500, 500)
    assert tiny.cell == theme.CELL_MIN


def test_square_at_is_none_outside_the_viewport() -> None:
    view = View(cell=20.0, origin=(0.0, 0.0), viewport=(0, 0, 100, 100))
    assert view.square_at(10, 10) == (0, 0)
    assert view.square_at(150, 10) is None and view.square_at(-1, 10) is None


def test_pan_moves_the_board() -> None:
    view = View(cell=20.0, origin=(0.0, 0.0))
    view.pan(30, -10)
    assert view.to_screen(1, 1) == (50.0, 10.0)


def test_nearest_edge_picks_the_closer_arm_within_tolerance_and_on_the_board() -> None:
    view = View(cell=40.0, origin=(0.0, 0.0), viewport=(0, 0, 400, 400), board_size=(3, 3))
    assert view.nearest_edge(81, 60, 6) == Edge("V", 2, 1)
    assert view.nearest_edge(60, 118, 6) == Edge("H", 1, 3)
    assert view.nearest_edge(60, 60, 6) is None  # middle of a square
    assert view.nearest_edge(83, 78, 6) == Edge("H", 2, 2)  # near corner (2,2): closer to the H arm
    assert view.nearest_edge(200, 60, 6) is None  # off the board


def test_painter_pixels_agree_with_the_transform_within_a_pixel() -> None:
    view = View(cell=13.7, origin=(5.4, 7.6))
    for g in (0, 1, 7, 33):
        px, py = view.pixel(g, g)
        sx, sy = view.to_screen(g, g)
        assert abs(px - sx) <= 1 and abs(py - sy) <= 1
    x, y, w, h = view.square_rect((3, 2))
    assert (x + w, y) == view.square_rect((4, 2))[:2]  # squares tile without gaps
