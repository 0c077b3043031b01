"""Text drawn over the board by the window: coordinate labels on the board's edges (``G``) and the
hover card of a figure (name, side, stats, condition) shown without selecting it.

Coordinates are written the one way the window writes them everywhere: a square is ``(x,y)``
(column, row, from 0 at the top left), the labels along the top give ``x`` and those down the
left give ``y``. An edge or a corner is named by the squares it lies between ("the wall between
(6,4) and (7,4)"): ``game/play/wording.py`` turns the engine's ``V(x,y)`` / ``H(x,y)`` into that.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.core.board import Board, Figure
from game.play.status import card_lines
from game.ui import classroom
from game.ui.text import wrap
from game.ui.view import View

LABEL_BG = (16, 18, 24, 200)
LABEL_TEXT = (230, 232, 240)
CARD_BG = (20, 22, 28, 235)
CARD_BORDER = (120, 126, 140)
CARD_TITLE = (255, 214, 102)


def draw_coordinates(surface: pygame.Surface, view: View, board: Board, scale: float) -> None:
    """Column numbers along the top of the board area, row numbers down its left side.

    Labels sit in the margin outside the board when there is room, else over the board's first
    row/column on a dark plate; when squares are smaller than a label, every 2nd, 5th or 10th
    number is written.
    """
    face, widest, plate_h, left_x, top_y = _label_places(view, board, scale)
    x0, y0, x1, y1 = view.visible_cells()
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 1000) if view.cell * n >= widest)
    for x in range(max(0, x0), min(board.width, x1 + 1)):
        if x % every:
            continue
        cx, _ = view.square_centre((x, 0))
        _plate(surface, face, str(x), (cx, top_y + plate_h // 2))
    for y in range(max(0, y0), min(board.height, y1 + 1)):
        if y % every:
            continue
        _, cy = view.square_centre((0, y))
        _plate(surface, face, str(y), (left_x + widest // 2, cy))


def _label_places(view: View, board: Board, scale: float) -> tuple[pygame.font.Font, int, int, int, int]:
    """The labels' face, the width of the widest row label, a plate's height, and where the row
    labels (x) and the column labels (y) stand: in the margin, else over the first column/row."""
    face = classroom.font(max(11, round(13 * scale)))
    vx, vy, _, _ = view.viewport
    widest = face.size(str(max(board.width, board.height)))[0] + 6
    left, top = view.pixel(0, 0)
    plate_h = face.get_linesize()
    return face, widest, plate_h, max(vx, left - widest - 2), max(vy, top - plate_h - 2)


def free_area(view: View, board: Board, scale: float, coordinates: bool) -> pygame.Rect:
    """The part of the board area an overlay (a classroom card, the dice tray) may cover: the
    board area less the strips of the coordinate labels (when they are on), so that no overlay
    hides a column or row number."""
    area = pygame.Rect(view.viewport)
    if not coordinates:
        return area
    _, widest, plate_h, left_x, top_y = _label_places(view, board, scale)
    top = top_y + plate_h + 1
    left = left_x + widest + 1
    return pygame.Rect(max(area.x, left), max(area.y, top), area.right - max(area.x, left), area.bottom - max(area.y, top))


_PLATES: dict[tuple[int, str], pygame.Surface] = {}


def _plate(surface: pygame.Surface, face: pygame.font.Font, text: str, centre: tuple[int, int]) -> None:
    """One label on its dark plate (cached: the labels are drawn every frame)."""
    key = (id(face), text)
    plate = _PLATES.get(key)
    if plate is None:
        label = face.render(text, True, LABEL_TEXT)
        plate = pygame.Surface((label.get_width() + 6, label.get_height() + 2), pygame.SRCALPHA)
        plate.fill(LABEL_BG)
        plate.blit(label, (3, 1))
        if len(_PLATES) > 4000:
            _PLATES.clear()
        _PLATES[key] = plate
    surface.blit(plate, plate.get_rect(center=centre))


def draw_card(
    surface: pygame.Surface, figures: Sequence[Figure], board: Board, anchor: tuple[int, int],
    area: pygame.Rect, scale: float,
) -> pygame.Rect:
    """The hover card of every figure on the hovered square, beside the cursor."""
    size = max(13, round(14 * scale))
    body, title = classroom.font(size), classroom.font(size + 1, bold=True)
    width = max(220, round(300 * scale))
    rendered: list[pygame.Surface] = []
    for figure in figures:
        for n, line in enumerate(card_lines(board, figure)):
            face = title if n == 0 else body
            colour = CARD_TITLE if n == 0 else LABEL_TEXT
            for part in wrap(face, line, width):
                rendered.append(face.render(part, True, colour))
    pad = 8
    box = pygame.Rect(0, 0, max(r.get_width() for r in rendered) + 2 * pad,
                      sum(r.get_height() for r in rendered) + 2 * pad)
    box.topleft = (anchor[0] + 18, anchor[1] + 18)
    if box.right > area.right:
        box.right = anchor[0] - 18
    if box.bottom > area.bottom:
        box.bottom = anchor[1] - 18
    box.clamp_ip(area)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill(CARD_BG)
    surface.blit(shade, box.topleft)
    pygame.draw.rect(surface, CARD_BORDER, box, 1)
    y = box.y + pad
    for label in rendered:
        surface.blit(label, (box.x + pad, y))
        y += label.get_height()
    return box
