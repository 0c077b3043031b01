"""The painter draws the tile roles of roguelike and adventure maps as what they are: door squares
as doors (shut, open, locked), impassable squares with waves, neither like blocked terrain."""

from __future__ import annotations

from pathlib import Path

import pygame
from support.painter import CELL, paint, rgb

from game.core.board import Board, DoorState
from game.tiled import load_map
from game.ui import theme
from game.ui.painter import BoardPainter, Overlay
from game.ui.view import View

CASES = Path(__file__).resolve().parent / "data" / "tiled" / "cases"


def _colours(surface: pygame.Surface, rect: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    x, y, w, h = rect
    return {rgb(surface, (x + i, y + j)) for i in range(1, w - 1) for j in range(1, h - 1)}


def test_door_squares_show_their_state_and_are_not_hatched_like_blocked_terrain() -> None:
    board = Board(4, 1, blocked=[(3, 0)], door_squares={
        (0, 0): DoorState.CLOSED, (1, 0): DoorState.OPEN, (2, 0): DoorState.LOCKED})
    surface, view, _ = paint(board)
    shut, opened, locked, blocked = (_colours(surface, view.square_rect((x, 0))) for x in range(4))
    assert rgb(surface, view.square_centre((0, 0))) == theme.DOOR_CLOSED
    assert theme.BLOCKED_HATCH not in shut and theme.BLOCKED_HATCH in blocked
    # open: the frame is empty (the floor shows in the middle), the folded leaf is door-coloured
    assert rgb(surface, view.square_centre((1, 0))) not in (theme.DOOR_CLOSED, theme.DOOR_LOCKED)
    assert theme.DOOR_OPEN in opened and theme.DOOR_OUTLINE in opened
    assert rgb(surface, view.square_centre((2, 0))) == theme.LOCK_MARK and theme.DOOR_LOCKED in locked


def test_impassable_squares_have_waves_not_hatching() -> None:
    board = Board(2, 1, impassable=[(0, 0)], blocked=[(1, 0)])
    surface, view, _ = paint(board)
    water, rock = (_colours(surface, view.square_rect((x, 0))) for x in range(2))
    assert theme.IMPASSABLE_FILL in water and theme.BLOCKED_HATCH not in water
    assert any(abs(c[2] - theme.IMPASSABLE_WAVE[2]) < 30 and c[0] < 90 for c in water)
    assert theme.IMPASSABLE_FILL not in rock


def test_a_door_square_cycled_in_play_is_redrawn() -> None:
    board = Board(1, 1, door_squares={(0, 0): DoorState.CLOSED})
    surface, view, painter = paint(board)
    assert rgb(surface, view.square_centre((0, 0))) == theme.DOOR_CLOSED
    board.cycle_door_square((0, 0))
    paint(board, painter=painter, surface=surface)
    assert rgb(surface, view.square_centre((0, 0))) != theme.DOOR_CLOSED


def test_the_roguelike_map_draws_its_door_squares_over_the_tile_art() -> None:
    loaded = load_map(CASES / "roguelike.tmx", preset="roguelike")
    board = loaded.board
    shut = [sq for sq, state in board.door_squares.items() if state is DoorState.CLOSED]
    assert shut
    surface = pygame.Surface((board.width * CELL, board.height * CELL))
    view = View(cell=float(CELL), origin=(0.0, 0.0), viewport=(0, 0, *surface.get_size()),
                board_size=(board.width, board.height))
    BoardPainter(loaded.art).draw(surface, board, view, Overlay())
    assert rgb(surface, view.square_centre(shut[0])) == theme.DOOR_CLOSED
