"""The board painter, tested by sampling pixels of off-screen surfaces (never whole images)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from support.painter import CELL, paint, rgb

from game.core.board import Board, DoorState, Edge, Figure
from game.core.los import line_of_sight, visible_from
from game.ui import theme
from game.ui.painter import BoardPainter, Marker, Overlay
from game.ui.view import View


def brightness(colour: tuple[int, int, int]) -> int:
    return sum(colour)


def close_to(actual: tuple[int, int, int], expected: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected[:3], strict=True))


# --- floor, void, blocked --------------------------------------------------------------------


def test_vector_floor_is_a_checker_of_two_close_tones_with_dark_void_and_hatched_blocks() -> None:
    board = Board.from_ascii(["..~", ".#."])
    surface, view, painter = paint(board)
    assert rgb(surface, view.square_centre((0, 0))) == theme.FLOOR_LIGHT
    assert rgb(surface, view.square_centre((1, 0))) == theme.FLOOR_DARK
    assert rgb(surface, view.square_centre((2, 0))) == theme.VOID
    x, y, w, h = view.square_rect((1, 1))
    block = {rgb(surface, (x + i, y + j)) for i in range(2, w - 2) for j in range(2, h - 2)}
    assert theme.BLOCKED_FILL in block and theme.BLOCKED_HATCH in block
    assert painter.warnings == []


def test_walls_and_windows_are_drawn_on_their_edges() -> None:
    board = Board(3, 1, walls=[Edge("V", 1, 0)], windows=[Edge("V", 2, 0)])
    surface, view, _ = paint(board)
    wall_x, mid_y = view.pixel(1, 0.5)
    assert rgb(surface, (wall_x, mid_y)) == theme.WALL
    window_x = view.pixel(2, 0.5)[0]
    column = {rgb(surface, (window_x + dx, mid_y)) for dx in range(-5, 6)}
    assert theme.WINDOW in column and theme.WALL not in column


def test_each_door_state_draws_differently_at_the_door_midpoint() -> None:
    colours = {}
    for state in DoorState:
        board = Board.from_ascii(["..", ".."], doors={"V(1,0)": state.value})
        surface, view, _ = paint(board)
        colours[state] = rgb(surface, view.pixel(1, 0.5))
    assert colours[DoorState.CLOSED] == theme.DOOR_CLOSED
    assert colours[DoorState.LOCKED] == theme.LOCK_MARK
    assert colours[DoorState.OPEN] not in (theme.DOOR_CLOSED, theme.LOCK_MARK, theme.WALL)
    assert len(set(colours.values())) == 3


def test_a_door_decides_its_edge_and_a_state_change_redraws_the_cached_board() -> None:
    board = Board.from_ascii(["..", ".."], walls=["V(1,0)"], doors={"V(1,0)": "closed"})
    surface, view, painter = paint(board)
    midpoint = view.pixel(1, 0.5)
    assert rgb(surface, midpoint) == theme.DOOR_CLOSED
    board.set_door(Edge("V", 1, 0), DoorState.OPEN)
    paint(board, painter=painter, surface=surface)
    assert rgb(surface, midpoint) not in (theme.DOOR_CLOSED, theme.WALL)


# --- the ray ----------------------------------------------------------------------------------


def test_a_clear_ray_is_green_near_the_origin_and_at_its_end() -> None:
    board = Board.from_ascii(["....."])
    ray = line_of_sight(board, (0, 0), (4, 0))
    assert ray.clear
    surface, view, _ = paint(board, Overlay(ray=ray))
    assert rgb(surface, view.square_centre((1, 0))) == theme.RAY_CLEAR
    assert rgb(surface, view.square_centre((3, 0))) == theme.RAY_CLEAR


def test_a_ray_turns_red_past_the_wall_and_marks_the_blocking_edge() -> None:
    board = Board.from_ascii(["....."], walls=["V(2,0)"])
    ray = line_of_sight(board, (0, 0), (4, 0))
    assert not ray.clear
    surface, view, _ = paint(board, Overlay(ray=ray))
    assert rgb(surface, view.square_centre((1, 0))) == theme.RAY_CLEAR
    assert rgb(surface, view.square_centre((3, 0))) == theme.RAY_BLOCKED
    # the crossed wall gets a red tick across the ray, a little above the ray line
    x, y = view.pixel(2, 0.5)
    assert rgb(surface, (x, y - 6)) == theme.EDGE_TICK_BLOCKING
    # an open edge crossed before the wall gets a white tick
    x1, _ = view.pixel(1, 0.5)
    assert rgb(surface, (x1, y - 6)) == theme.EDGE_TICK


def test_the_ray_starts_outside_the_viewer_token_so_its_label_stays_readable() -> None:
    board = Board.from_ascii(["....."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    ray = line_of_sight(board, (0, 0), (4, 0), "red")
    surface, view, _ = paint(board, Overlay(selected=1, ray=ray))
    cx, cy = view.square_centre((0, 0))
    assert rgb(surface, (cx + CELL * 0.6, cy)) == theme.RAY_CLEAR
    assert rgb(surface, (cx - CELL * 0.2, cy - CELL * 0.25)) == theme.side_colour("red")


def test_a_corner_with_one_closed_side_is_amber_and_with_two_is_red() -> None:
    one = Board.from_ascii(["...", "...", "..."], walls=["V(1,0)"])
    ray = line_of_sight(one, (0, 0), (2, 2))
    corners = [c for c in ray.crossings if c.kind == "corner"]
    assert ray.clear and [sum(s.closed for s in c.sides) for c in corners] == [1, 0]
    surface, view, _ = paint(one, Overlay(ray=ray))
    assert rgb(surface, view.pixel(1, 1)) == theme.CORNER_ONE_SIDE
    assert rgb(surface, view.pixel(2, 2)) == theme.CORNER_OPEN
    # the closed side (square (1,0), walled on its west arm) is shaded faintly amber
    plain = rgb(paint(one)[0], view.pixel(1.75, 0.25))
    shaded = rgb(surface, view.pixel(1.75, 0.25))
    assert shaded != plain and shaded[0] >= plain[0] and shaded[2] < plain[2]

    both = Board.from_ascii([".#.", "#..", "..."])
    ray = line_of_sight(both, (0, 0), (2, 2))
    assert not ray.clear
    surface, view, _ = paint(both, Overlay(ray=ray))
    assert rgb(surface, view.pixel(1, 1)) == theme.CORNER_BOTH
    # past the blocked corner the ray is red
    assert rgb(surface, view.pixel(1.75, 1.75)) == theme.RAY_BLOCKED


def test_a_crossed_square_that_blocks_is_hatched_red() -> None:
    board = Board.from_ascii(["....."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    board.place_figure(Figure(2, "Gob", "monsters", (2, 0)))
    board.place_figure(Figure(3, "Lin", "monsters", (2, 0)))
    ray = line_of_sight(board, (0, 0), (4, 0), "red")
    assert ray.first_blocker is not None and ray.first_blocker.square == (2, 0)
    with_ray, view, _ = paint(board, Overlay(ray=ray))
    x, y, w, h = view.square_rect((2, 0))
    top_strip = {rgb(with_ray, (x + i, y + 2)) for i in range(w)}
    assert any(c[0] > 200 and c[1] < 120 for c in top_strip)  # red hatching
    plain, _, _ = paint(board)
    assert all(not (c[0] > 200 and c[1] < 120) for c in {rgb(plain, (x + i, y + 2)) for i in range(w)})


def test_step_highlights_one_crossing_of_the_ray() -> None:
    board = Board.from_ascii(["...."])
    ray = line_of_sight(board, (0, 0), (3, 0))
    assert [c.kind for c in ray.crossings] == ["edge", "square", "edge", "square", "edge"]
    surface, view, _ = paint(board, Overlay(ray=ray, step=2))
    x, _ = view.pixel(2, 0)
    assert rgb(surface, (x, view.pixel(0, 0.1)[1])) == theme.STEP_HIGHLIGHT
    x1, _ = view.pixel(1, 0)
    assert rgb(surface, (x1, view.pixel(0, 0.1)[1])) != theme.STEP_HIGHLIGHT


# --- field of view ----------------------------------------------------------------------------


def test_fov_darkens_hidden_squares_and_leaves_visible_ones() -> None:
    board = Board.from_ascii(["....", "...."], walls=["V(2,0)", "V(2,1)"])
    fov = visible_from(board, (0, 0))
    assert fov[0, 1] and not fov[0, 3]
    plain, view, painter = paint(board)
    shaded, _, _ = paint(board, Overlay(fov=fov), painter=painter)
    hidden, seen = view.square_centre((3, 0)), view.square_centre((1, 0))
    assert brightness(rgb(shaded, hidden)) < brightness(rgb(plain, hidden)) - 150
    assert rgb(shaded, seen) == rgb(plain, seen)
    # the shade follows a new mask (not a stale cache)
    everything = np.ones_like(fov)
    again, _, _ = paint(board, Overlay(fov=everything), painter=painter)
    assert rgb(again, hidden) == rgb(plain, hidden)


# --- figures ----------------------------------------------------------------------------------


def test_tokens_take_their_side_colour_and_two_on_a_square_stand_side_by_side() -> None:
    board = Board.from_ascii(["..."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    board.place_figure(Figure(2, "Gob", "monsters", (2, 0)))
    board.place_figure(Figure(3, "Ola", "blue", (2, 0)))
    surface, view, _ = paint(board, cell=60)
    cx, cy = view.square_centre((0, 0))
    assert rgb(surface, (cx, cy - 60 * 0.28)) == theme.side_colour("red")
    left = view.pixel(2 + 0.27, 0.5 - 0.16)
    right = view.pixel(2 + 0.73, 0.5 - 0.16)
    assert rgb(surface, left) == theme.MONSTERS
    assert rgb(surface, right) == theme.side_colour("blue")


def test_a_killed_figure_is_grey_and_wounds_show_as_pips() -> None:
    board = Board.from_ascii(["..."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0), {"life": 3, "wounds": 3}))
    board.place_figure(Figure(2, "Bob", "red", (2, 0), {"life": 3, "wounds": 1}))
    surface, view, _ = paint(board, cell=60)
    cx, cy = view.square_centre((0, 0))
    token = {rgb(surface, (cx + dx, cy - 60 * 0.28)) for dx in range(-3, 4)}
    assert theme.KILLED in token
    x, y, w, h = view.square_rect((2, 0))
    pixels = {rgb(surface, (x + i, y + j)) for i in range(w) for j in range(h // 2, h)}
    assert theme.PIP_WOUND in pixels and theme.PIP_LIFE in pixels


def test_selection_and_target_rings() -> None:
    board = Board.from_ascii(["..."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    board.place_figure(Figure(2, "Gob", "monsters", (2, 0)))
    surface, view, _ = paint(board, Overlay(selected=1, target=2), cell=60)
    radius = round(60 * theme.TOKEN_RADIUS)
    ring = radius + max(2, round(60 * theme.RING_WIDTH)) // 2 + 1
    cx, cy = view.square_centre((0, 0))
    assert rgb(surface, (cx, cy - ring)) == theme.SELECT_RING
    tx, ty = view.square_centre((2, 0))
    assert rgb(surface, (tx, ty - ring)) == theme.TARGET_RING


def test_a_dragged_figure_follows_the_cursor_and_leaves_no_copy_behind() -> None:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    still, view, _ = paint(board, cell=60)
    cursor = view.square_centre((2, 0))
    moving, _, _ = paint(board, Overlay(dragging=(1, cursor)), cell=60)
    assert rgb(moving, (cursor[0], cursor[1] - 18)) == theme.side_colour("red")
    home = view.square_centre((0, 0))
    assert rgb(still, (home[0], home[1] - 18)) == theme.side_colour("red")
    assert rgb(moving, (home[0], home[1] - 18)) == rgb(paint(Board.from_ascii(["...."]), cell=60)[0],
                                                      (home[0], home[1] - 18))  # the bare floor


# --- squares under the cursor and lint markers ------------------------------------------------


def test_refused_drop_flashes_red_and_markers_outline_their_square_or_edge() -> None:
    board = Board.from_ascii(["....", "...."])
    plain, view, _ = paint(board)
    overlay = Overlay(
        refused=(1, 0),
        markers=[Marker((3, 1), None, "error", "figure in void"),
                 Marker(None, Edge("H", 0, 1), "warning", "door not on wall")],
    )
    surface, _, _ = paint(board, overlay)
    before, after = rgb(plain, view.square_centre((1, 0))), rgb(surface, view.square_centre((1, 0)))
    assert after[0] > after[1] + 40 and after != before
    x, y, w, h = view.square_rect((3, 1))
    border = {rgb(surface, (x + 2, y + j)) for j in range(3, h - 3)}
    assert theme.MARKER_ERROR in border
    hx, hy = view.pixel(0.5, 1)
    column = {rgb(surface, (hx, hy + dy)) for dy in range(-12, 13)}
    assert theme.MARKER_WARNING in column


# --- view-dependent caching ------------------------------------------------------------------


def test_a_big_board_is_cached_by_region_and_still_right_after_panning() -> None:
    board = Board(100, 100, walls=[Edge("V", 90, 90)])
    surface = pygame.Surface((400, 300))
    view = View(cell=100.0, origin=(0.0, 0.0), viewport=(0, 0, 400, 300))
    painter = BoardPainter(None)
    painter.draw(surface, board, view, Overlay())
    assert rgb(surface, view.square_centre((1, 1))) == theme.FLOOR_LIGHT
    view.pan(-89.5 * 100, -89.5 * 100)  # bring V(90,90) into the viewport
    painter.draw(surface, board, view, Overlay())
    assert rgb(surface, view.pixel(90, 90.5)) == theme.WALL
    assert rgb(surface, view.square_centre((89, 89))) == theme.FLOOR_LIGHT
    fov = np.zeros((100, 100), dtype=bool)
    fov[89, 89] = True
    painter.draw(surface, board, view, Overlay(fov=fov))
    assert rgb(surface, view.square_centre((89, 89))) == theme.FLOOR_LIGHT
    assert brightness(rgb(surface, view.square_centre((90, 89)))) < brightness(theme.FLOOR_DARK) - 150


def test_draw_stays_inside_the_viewport() -> None:
    board = Board.from_ascii(["...."])
    surface = pygame.Surface((300, 100))
    surface.fill((1, 2, 3))
    view = View(cell=40.0, origin=(0.0, 0.0), viewport=(0, 0, 100, 100))
    BoardPainter(None).draw(surface, board, view, Overlay())
    assert rgb(surface, (150, 20)) == (1, 2, 3)
    assert surface.get_clip() == surface.get_rect()


@pytest.mark.parametrize("cell", [8.0, 13.7, 200.0])
def test_every_zoom_draws(cell: float) -> None:
    board = Board.from_ascii(["...", ".#.", "..~"], walls=["V(1,0)"], doors={"H(1,2)": "locked"})
    board.place_figure(Figure(1, "Ann Lee", "red", (0, 0), {"life": 12, "wounds": 5}))
    ray = line_of_sight(board, (0, 0), (2, 1), "red")
    surface, view, _ = paint(board, Overlay(selected=1, ray=ray, step=0), cell=cell)
    assert rgb(surface, view.square_centre((1, 2))) in (theme.FLOOR_LIGHT, theme.FLOOR_DARK)


@pytest.mark.parametrize(
    ("ruleset", "down_stats", "alive_stats"),
    [
        ("mage_knight", {"armor": 3, "defeated": True}, {"armor": 3}),
        ("conquest", {"wound_limit": 2, "wounds": 1, "slain": True}, {"wound_limit": 2, "wounds": 1}),
        ("folklore", {"hp": 0, "max_hp": 10, "dead": True}, {"hp": 10, "max_hp": 10}),
    ],
)
def test_each_ruleset_decides_when_a_token_is_down(
    ruleset: str, down_stats: dict, alive_stats: dict
) -> None:
    board = Board.from_ascii(["..."], ruleset=ruleset)
    board.place_figure(Figure(1, "Ann", "enemies", (0, 0), down_stats))
    board.place_figure(Figure(2, "Bob", "enemies", (2, 0), alive_stats))
    surface, view, _ = paint(board, cell=60)

    def token_row(sq: tuple[int, int]) -> set:
        cx, cy = view.square_centre(sq)
        return {rgb(surface, (cx + dx, cy - 60 * 0.28)) for dx in range(-3, 4)}

    assert theme.KILLED in token_row((0, 0))
    assert theme.KILLED not in token_row((2, 0))


def test_folklore_tokens_show_hp_lost_as_wound_pips() -> None:
    board = Board.from_ascii(["."], ruleset="folklore")
    board.place_figure(Figure(1, "Ren", "party", (0, 0), {"hp": 6, "max_hp": 10}))
    surface, view, _ = paint(board, cell=60)
    x, y, w, h = view.square_rect((0, 0))
    pixels = {rgb(surface, (x + i, y + j)) for i in range(w) for j in range(h // 2, h)}
    assert theme.PIP_WOUND in pixels and theme.PIP_LIFE in pixels


def test_every_target_of_the_overlay_gets_a_ring() -> None:
    board = Board.from_ascii(["....."])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    for fid, x in ((2, 2), (3, 3), (4, 4)):
        board.place_figure(Figure(fid, f"Gob{fid}", "monsters", (x, 0)))
    surface, view, _ = paint(board, Overlay(selected=1, target=4, targets=[2, 3]), cell=60)
    radius = round(60 * theme.TOKEN_RADIUS)
    ring = radius + max(2, round(60 * theme.RING_WIDTH)) // 2 + 1
    for x in (2, 3, 4):  # the two attack targets and the figure the ray ends on
        cx, cy = view.square_centre((x, 0))
        assert rgb(surface, (cx, cy - ring)) == theme.TARGET_RING, x
    plain, view, _ = paint(board, Overlay(selected=1, targets=[3]), cell=60)
    cx, cy = view.square_centre((2, 0))
    assert rgb(plain, (cx, cy - ring)) != theme.TARGET_RING


def test_the_ray_shape_is_built_once_per_ray_even_across_new_results() -> None:
    board = Board.from_ascii(["........", "........", "........"])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    painter = BoardPainter(None)
    first = line_of_sight(board, (0, 0), (7, 2), viewer="red")
    shape = painter._ray_shape(first, board)
    board.place_figure(Figure(2, "Bob", "red", (7, 0)))  # a new board version, a new result ...
    again = line_of_sight(board, (0, 0), (7, 2), viewer="red")
    assert again is not first and again == first
    assert painter._ray_shape(again, board) is shape  # ... the same drawing
    board.place_figure(Figure(3, "Gob", "monsters", (3, 1)))
    board.place_figure(Figure(4, "Orc", "monsters", (3, 1)))  # two enemies now block a square
    blocked = line_of_sight(board, (0, 0), (7, 2), viewer="red")
    assert blocked.first_blocker is not None and first.first_blocker is None
    other = painter._ray_shape(blocked, board)
    assert other is not shape and other.block_t is not None
    board.set_wall(Edge.parse("V(6,2)"), True)  # new geometry: never the old drawing
    walled = line_of_sight(board, (0, 0), (7, 2), viewer="red")
    assert painter._ray_shape(walled, board) not in (shape, other)


def test_the_ray_is_drawn_from_the_los_results_own_points() -> None:
    """Review item 11: the painter reads the LosResult's attributes, exact points included (no
    aliases, no re-computed float fallbacks)."""
    from game.ui.ray_shape import RayShape

    board = Board.from_ascii(["....", ".#..", "...."], walls=["V(3,2)"])
    ray = line_of_sight(board, (0, 0), (3, 2))
    shape = RayShape.of(ray, board)
    assert shape.step_points == [(float(c.point[0]), float(c.point[1])) for c in ray.crossings]
    assert [kind for kind, _ in shape.steps] == [c.kind for c in ray.crossings]
    first = ray.first_blocker
    assert first is not None and shape.block_t == float(first.t)
    assert shape.blocking_squares == [c.square for c in ray.crossings if c.kind == "square" and c.blocks]
    assert sum(1 for _, blocks, _ in shape.edge_ticks if blocks) == sum(
        1 for c in ray.crossings if c.kind == "edge" and c.blocks)
    clear = RayShape.of(line_of_sight(board, (0, 0), (3, 0)), board)
    assert clear.block_t is None and not clear.blocking_squares
    with pytest.raises(AttributeError):  # a look-alike mapping is no ray
        RayShape.of({"origin": (0, 0), "target": (1, 0), "crossings": ()}, board)  # type: ignore[arg-type]
