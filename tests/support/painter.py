"""The board painter on a real pygame surface, and reading its pixels."""

from __future__ import annotations

import pygame

from game.core.board import Board
from game.ui.painter import BoardPainter, Overlay
from game.ui.view import View

CELL = 40


def rgb(surface: pygame.Surface, point: tuple[float, float]) -> tuple[int, int, int]:
    """The colour of one pixel, without alpha."""
    c = surface.get_at((round(point[0]), round(point[1])))
    return c.r, c.g, c.b


def paint(
    board: Board,
    overlay: Overlay | None = None,
    *,
    cell: float = CELL,
    painter: BoardPainter | None = None,
    surface: pygame.Surface | None = None,
) -> tuple[pygame.Surface, View, BoardPainter]:
    """Draw ``board`` with a 10 px margin at ``cell`` px per square."""
    width, height = round(board.width * cell) + 20, round(board.height * cell) + 20
    surface = surface or pygame.Surface((width, height))
    view = View(cell=cell, origin=(10.0, 10.0), viewport=(0, 0, width, height))
    painter = painter or BoardPainter(None)
    painter.draw(surface, board, view, overlay or Overlay())
    return surface, view, painter

