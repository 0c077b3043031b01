"""Text drawn over the board by the window: coordinate labels on the board's edges (``G``) and the
hover card of a figure (name, side, stats, condition) shown without selecting it.

Coordinates are written the one way the window writes them everywhere: a square is ``(x,y)``
(column, row, from 0 at the top left), the labels along the top give ``x`` and those down the
left give ``y``. An edge or a corner is named by the squares it lies between ("the wall between
(6,4) and (7,4)"): ``game/play/wording.py`` turns the engine's ``V(x,y)`` / ``H(x,y)`` into that.
On a hex map a cell is ``(x,y)`` as Tiled numbers it, and each label stands beside its own
column's or row's first hex, pushed with it where Tiled pushes that row (column) by half a hex.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from game.core.board import Board, Figure, Square
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

    Each label stands beside its own line's first cell: a column's number over the cell ``(x, 0)``,
    a row's number left of the cell ``(0, y)``. On squares that is one straight strip in the margin;
    on a hex map the labels of the rows (pointy-top) or columns (flat-top) that Tiled pushes by
    half a hex move with them, so every number sits next to the hex it names. Labels sit in the
    margin outside the board when there is room, else (the board scrolled under the edge) over the
    board on a dark plate, in line with the line's first cell in view beyond them; when cells are
    closer than a label is wide, every 2nd, 5th or 10th number is written.
    """
    labels = _labels(view, board, scale)
    for text, centre in labels.plates:
        _plate(surface, labels.face, text, centre)


@dataclass(frozen=True)
class _Labels:
    """The coordinate labels of one view: the face, each label's text and centre, and the lines
    the free area keeps below (column labels) and right of (row labels)."""

    face: pygame.font.Font
    plates: tuple[tuple[str, tuple[int, int]], ...]
    top: int
    left: int


#: the labels of the last view (they are drawn every frame and move only with the view)
_LAST: list[tuple[tuple[object, ...], _Labels]] = []


def _labels(view: View, board: Board, scale: float) -> _Labels:
    """The labels for this view, board size and UI scale (the last ones kept)."""
    face = classroom.font(max(11, round(13 * scale)))
    key = (id(face), view.cell, round(view.origin[0]), round(view.origin[1]), view.viewport, view.hexes, view.tile,
           board.width, board.height)
    if _LAST and _LAST[0][0] == key:
        return _LAST[0][1]
    widest = face.size(str(max(board.width, board.height)))[0] + 6
    plate_h = face.get_linesize()
    vx, vy, _, _ = view.viewport
    pitch_x, pitch_y = _pitch(view)
    x0, y0, x1, y1 = view.visible_cells()
    plates: list[tuple[str, tuple[int, int]]] = []
    top, left = 0, 0
    rows, columns = range(max(0, y0), board.height), range(max(0, x0), board.width)
    for x in _every(max(0, x0), min(board.width, x1 + 1), pitch_x, widest):
        above = _near_side(view, (x, 0), True, face.size(str(x))[0] + 6) - plate_h - 2
        row = 0  # over the column's own first cell; scrolled away: over its first cell below the labels
        if above < vy:
            above = vy
            row = next((r for r in rows if view.square_centre((x, r))[1] >= vy + plate_h), 0)
        cx, _ = view.square_centre((x, row))
        plates.append((str(x), (cx, above + plate_h // 2)))
        top = max(top, above + plate_h + 1)
    for y in _every(max(0, y0), min(board.height, y1 + 1), pitch_y, widest):
        beside = _near_side(view, (0, y), False, plate_h) - widest - 2
        column = 0  # left of the row's own first cell; scrolled away: on its first cell right of the labels
        if beside < vx:
            beside = vx
            column = next((c for c in columns if view.square_centre((c, y))[0] >= vx + widest), 0)
        _, cy = view.square_centre((column, y))
        plates.append((str(y), (beside + widest // 2, cy)))
        left = max(left, beside + widest + 1)
    first_x, first_y, _, _ = view.square_rect((0, 0))  # the strips when no label is in view
    top = max(top, max(vy, first_y - plate_h - 2) + plate_h + 1)
    left = max(left, max(vx, first_x - widest - 2) + widest + 1)
    found = _Labels(face, tuple(plates), top, left)
    _LAST[:] = [(key, found)]
    return found


def _near_side(view: View, cell: Square, column: bool, along: int) -> int:
    """Where the label of the column (``column``) or row whose first cell is ``cell`` ends: the
    top (a column) or the left (a row) of that cell's outline. A line Tiled pushes by half a hex
    (a pointy-top map's row, a flat-top map's column) has a notch beside its first hex, between
    the hexes of the lines on either side: its label goes into the notch as far as a plate
    ``along`` pixels long (along the stagger axis) fits there without covering those hexes."""
    left, top, _, _ = view.square_rect(cell)
    near = top if column else left
    grid = view.hexes
    if grid is None or grid.pointy == column or not grid.pushed(cell[0] if column else cell[1]):
        return near
    # in the pointy frame: b across the stagger axis, a along it; vertex 0 is the hex's point
    # that faces the notch's far end, vertex 5 the corner on the line's own side (cell_polygon_px)
    polygon = view.cell_polygon(cell)
    (b0, a0), _, _, (_, a3), _, (b5, a5) = polygon if grid.pointy else [(y, x) for x, y in polygon]
    half, full, slant = b0 - b5, a3 - a0, a5 - a0  # the push, the hex's length, its slanted sides' length
    # the notch is ``full - 2 * slant * d / half`` long at a depth d: the plate's end goes that deep
    reach = half if slant <= 0 else min(half, max(0.0, half * (full - along) / (2 * slant)))
    return min(near, math.floor(b5 - half + reach))


def _pitch(view: View) -> tuple[float, float]:
    """The pixels from one column's cells to the next's and from one row's to the next's
    (squares: the cell; hexes: Tiled's column width and row height at this zoom)."""
    if view.hexes is None:
        return view.cell, view.cell
    grid = view.hexes
    (ax, ay), (bx, _), (_, cy) = (view.lattice_point(grid.centre(cell)) for cell in ((0, 0), (1, 0), (0, 1)))
    return bx - ax, cy - ay


def _every(start: int, stop: int, pitch: float, widest: int) -> range:
    """The numbers in ``start..stop`` to write: every one, or every 2nd, 5th, 10th ... when the
    lines are closer than ``widest`` pixels."""
    every = next((n for n in (1, 2, 5, 10, 20, 50, 100, 1000) if pitch * n >= widest), 1000)
    return range(start + (-start) % every, stop, every)


def free_area(view: View, board: Board, scale: float, coordinates: bool) -> pygame.Rect:
    """The part of the board area an overlay (a classroom card, the dice tray) may cover: the
    board area less the strips of the coordinate labels (when they are on), so that no overlay
    hides a column or row number."""
    area = pygame.Rect(view.viewport)
    if not coordinates:
        return area
    labels = _labels(view, board, scale)
    top, left = max(area.y, labels.top), max(area.x, labels.left)
    return pygame.Rect(left, top, area.right - left, area.bottom - top)


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
