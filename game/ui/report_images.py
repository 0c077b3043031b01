"""Pictures for map reports and diffs: board images with heat maps, door effects, changes, crops.

The board itself is drawn by the window's painter (:mod:`game.ui.painter`) when it is available,
otherwise by a small vector drawing of our own (floor, void, blocked terrain, walls, windows, doors,
figure tokens). Overlays are translucent squares over that board. Every PNG is written atomically
(:func:`game.ui.render.save_png`, which uses :mod:`game.play.atomic`).
Works headless (``SDL_VIDEODRIVER=dummy``; no window is opened).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.core.board import Board, Edge, Square
from game.ui.render import save_png

if TYPE_CHECKING:
    from game.tiled import MapArt

Colour = tuple[int, int, int]
Rect = tuple[int, int, int, int]

GAINED: Colour = (40, 170, 70)
LOST: Colour = (210, 50, 50)
BOTH: Colour = (230, 160, 30)
DOOR_EFFECT: Colour = (150, 60, 200)
HIGHLIGHT: Colour = (230, 40, 40)
TEXT: Colour = (30, 30, 30)
LEGEND_BG: Colour = (250, 248, 242)
#: the heat map colour ramp, from "seen by few" to "seen by many"
RAMP: tuple[Colour, ...] = ((49, 54, 149), (69, 117, 180), (116, 173, 209), (254, 224, 144),
                           (253, 174, 97), (244, 109, 67), (165, 0, 38))
LEGEND_HEIGHT = 44


def _font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


def ramp(t: float) -> Colour:
    """The heat colour of ``t`` in 0..1 (linear between the stops of :data:`RAMP`).

    >>> ramp(0.0), ramp(1.0)
    ((49, 54, 149), (165, 0, 38))
    """
    t = min(1.0, max(0.0, t))
    pos = t * (len(RAMP) - 1)
    i = min(int(pos), len(RAMP) - 2)
    f = pos - i
    a, b = RAMP[i], RAMP[i + 1]
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f), round(a[2] + (b[2] - a[2]) * f))


def board_surface(
    board: Board, art: MapArt | None, cell: int, area: tuple[int, int, int, int] | None = None
) -> pygame.Surface:
    """The board drawn at ``cell`` pixels per square (the painter's style when available); only
    the squares ``x0 <= x < x1``, ``y0 <= y < y1`` of ``area`` when given (the painter draws only
    what the view shows, so a crop of a 400×400 board costs its own size)."""
    x0, y0, x1, y1 = area if area is not None else (0, 0, board.width, board.height)
    surface = pygame.Surface((max(1, (x1 - x0) * cell), max(1, (y1 - y0) * cell)))
    from game.ui.painter import BoardPainter, Overlay
    from game.ui.view import View

    view = View(cell=float(cell), origin=(float(-x0 * cell), float(-y0 * cell)), viewport=(0, 0, *surface.get_size()),
                board_size=(board.width, board.height))
    BoardPainter(art).draw(surface, board, view, Overlay())
    return surface


def _edge_pixels(edge: Edge, cell: int) -> tuple[tuple[int, int], tuple[int, int]]:
    (x0, y0), (x1, y1) = edge.ends()
    return (x0 * cell, y0 * cell), (x1 * cell, y1 * cell)


def _tint(surface: pygame.Surface, sq: Square, cell: int, colour: Colour, alpha: int) -> None:
    patch = pygame.Surface((cell, cell), pygame.SRCALPHA)
    patch.fill((*colour, alpha))
    surface.blit(patch, (sq[0] * cell, sq[1] * cell))


def _with_legend(board_img: pygame.Surface) -> pygame.Surface:
    w, h = board_img.get_size()
    out = pygame.Surface((max(w, 320), h + LEGEND_HEIGHT))
    out.fill(LEGEND_BG)
    out.blit(board_img, (0, 0))
    return out


class BoardPictures:
    """The pictures of one board at one cell size; the board is drawn once and reused."""

    def __init__(self, board: Board, art: MapArt | None, cell: int = 32) -> None:
        self.board = board
        self.art = art
        self.cell = cell
        self._base: pygame.Surface | None = None

    def base(self) -> pygame.Surface:
        """A fresh copy of the drawn board."""
        if self._base is None:
            self._base = board_surface(self.board, self.art, self.cell)
        return self._base.copy()

    def board_png(self, out: str | Path) -> Path:
        """The plain board as a PNG."""
        return save_png(self.base(), out)

    def heatmap_png(
        self, values: np.ndarray, mask: np.ndarray, out: str | Path, *,
        caption: str = "squares that see this square",
    ) -> Path:
        """The board with each masked square tinted by ``values[y, x]``, numbers, and a legend."""
        cell = self.cell
        img = self.base()
        top = int(values[mask].max()) if mask.any() else 0
        font = _font(max(10, int(cell * 0.45)))
        for y, x in np.argwhere(mask):
            value = int(values[y, x])
            _tint(img, (int(x), int(y)), cell, ramp(value / top if top else 0.0), 165)
            if cell >= 20:
                label = font.render(str(value), True, (255, 255, 255))
                img.blit(label, label.get_rect(center=(x * cell + cell // 2, y * cell + cell // 2)))
        out_img = _with_legend(img)
        _draw_ramp_legend(out_img, img.get_height(), 0, top, caption)
        return save_png(out_img, out)

    def door_png(self, edge: Edge, per_square: np.ndarray, out: str | Path) -> Path:
        """The board with the door outlined and each square whose view it changes tinted by how much."""
        cell = self.cell
        img = self.base()
        top = int(per_square.max()) if per_square.size else 0
        for y, x in np.argwhere(per_square > 0):
            alpha = 60 + int(150 * per_square[y, x] / top) if top else 0
            _tint(img, (int(x), int(y)), cell, DOOR_EFFECT, alpha)
        (x0, y0), (x1, y1) = _edge_pixels(edge, cell)
        pad = max(4, cell // 4)
        pygame.draw.rect(img, HIGHLIGHT, pygame.Rect(min(x0, x1) - pad, min(y0, y1) - pad,
                                                     abs(x1 - x0) + 2 * pad, abs(y1 - y0) + 2 * pad), 3)
        return save_png(img, out)

    def crops_png(self, areas: Sequence[tuple[Rect, Path]], *, margin: int = 2) -> list[Path]:
        """One thumbnail per area: the board around grid rectangle ``(x, y, w, h)``, outlined red."""
        cell = self.cell
        marks = [(pygame.Rect(gx * cell, gy * cell, max(1, gw) * cell, max(1, gh) * cell), out)
                 for (gx, gy, gw, gh), out in areas]
        return crops_png(self.base(), marks, margin * cell)


def crops_png(full: pygame.Surface, marks: Sequence[tuple[pygame.Rect, Path]], margin: int) -> list[Path]:
    """One thumbnail per mark: the picture ``full`` around the pixel rectangle, ``margin`` pixels
    more on every side (clipped to the picture), the rectangle outlined red (square and hex
    reports alike)."""
    bounds = full.get_rect()
    written = []
    for mark, out in marks:
        view = mark.inflate(2 * margin, 2 * margin).clip(bounds)
        if view.width == 0 or view.height == 0:
            view = bounds.copy()
        thumb = full.subsurface(view).copy()
        pygame.draw.rect(thumb, HIGHLIGHT, mark.move(-view.x, -view.y).inflate(4, 4), 3)
        written.append(save_png(thumb, out))
    return written


def _draw_ramp_legend(img: pygame.Surface, y0: int, low: int, high: int, caption: str) -> None:
    font = _font(18)
    bar_w = min(200, img.get_width() - 120)
    x0 = 10
    for i in range(bar_w):
        pygame.draw.line(img, ramp(i / max(1, bar_w - 1)), (x0 + i, y0 + 8), (x0 + i, y0 + 22))
    pygame.draw.rect(img, TEXT, (x0, y0 + 8, bar_w, 15), 1)
    img.blit(font.render(str(low), True, TEXT), (x0, y0 + 26))
    hi = font.render(str(high), True, TEXT)
    img.blit(hi, (x0 + bar_w - hi.get_width(), y0 + 26))
    img.blit(font.render(caption, True, TEXT), (x0 + bar_w + 10, y0 + 10))


def diff_png(
    board: Board,
    art: MapArt | None,
    gained: np.ndarray,
    lost: np.ndarray,
    out: str | Path,
    *,
    cell: int = 32,
    note: str = "",
) -> Path:
    """The new board with squares that gained sight green, lost red, both amber, and a legend.

    ``gained`` and ``lost`` count pairs per square over the compared (top-left) area, outlined
    when it is smaller than the board.
    """
    img = BoardPictures(board, art, cell).base()
    h, w = gained.shape
    font = _font(max(10, int(cell * 0.4)))
    for y in range(h):
        for x in range(w):
            g, lo = int(gained[y, x]), int(lost[y, x])
            if not g and not lo:
                continue
            colour = BOTH if g and lo else GAINED if g else LOST
            _tint(img, (x, y), cell, colour, 170)
            if cell >= 24:
                text = f"+{g}" if g and not lo else f"-{lo}" if lo and not g else f"+{g}/-{lo}"
                label = font.render(text, True, (255, 255, 255))
                img.blit(label, label.get_rect(center=(x * cell + cell // 2, y * cell + cell // 2)))
    if (w, h) != (board.width, board.height):
        pygame.draw.rect(img, HIGHLIGHT, (0, 0, w * cell, h * cell), 2)
    out_img = _with_legend(img)
    font = _font(18)
    x = 10
    base = img.get_height() + 12
    for colour, text in ((GAINED, "sees more"), (LOST, "sees less"), (BOTH, "both")):
        pygame.draw.rect(out_img, colour, (x, base, 16, 16))
        label = font.render(text, True, TEXT)
        out_img.blit(label, (x + 22, base + 2))
        x += 22 + label.get_width() + 16
    if note:
        out_img.blit(font.render(note, True, TEXT), (x, base + 2))
    return save_png(out_img, out)
