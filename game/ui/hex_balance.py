"""The balance report drawn on hex boards: the report's pictures and the window's overlay on
Tiled's pixel layout of the map (docs/balance.md, "Hex boards").

:class:`HexBalancePictures` is :class:`~game.ui.balance_images.BalancePictures` with its grid
parts drawn on hexes (:class:`~game.ui.hex_painter.HexPicture`): the board, a tint per hex, a
zone's outline along the hex sides it shares with no other hex of the zone, the centres the
first strikes are drawn between, the heat maps. :func:`draw_hex_under` and
:func:`draw_hex_zones` are the window's overlay (``Shift+B``) on a hex board, at the
:class:`~game.ui.view.View`'s zoom. Floats here are drawing only: every number drawn is the
report's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.core.board import Board, Square
from game.core.hexgrid import HexGrid
from game.ui import theme
from game.ui.balance_images import BalancePictures, Colour
from game.ui.hex_painter import HexPicture, hex_layout
from game.ui.hex_pictures import hex_scale
from game.ui.render import save_png
from game.ui.report_images import LEGEND_BG, _draw_ramp_legend, _font, ramp
from game.ui.tokens import TokenArt
from game.ui.view import View

if TYPE_CHECKING:
    from game.designer.zones import Zone
    from game.tiled import MapArt

Point = tuple[float, float]
#: the margin around a hex picture (pixels)
MARGIN = 8
#: the widest hex picture of the report (pixels), as the square report's cell size aims at
WIDEST = 960


def zone_rim(grid: HexGrid, cells: Iterable[Square]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The hex sides between a cell of ``cells`` and a cell not in it (the map's rim included),
    as pairs of lattice corners: the outline of a zone.

    >>> len(zone_rim(HexGrid(2, 1), [(0, 0)])), len(zone_rim(HexGrid(2, 1), [(0, 0), (1, 0)]))
    (6, 10)
    """
    inside = set(cells)
    out = []
    for cell in inside:
        for edge in grid.edges_of(cell):
            a, b = grid.edge_cells(edge)
            if (b if a == cell else a) not in inside:
                out.append((edge.a, edge.b))
    return out


class HexBalancePictures(BalancePictures):
    """The balance report's pictures of a hex board (see the module): one hex ``cell`` pixels wide."""

    def __init__(self, board: Board, art: MapArt | None, cell: int, zones: Sequence[Zone]) -> None:
        """Draw ``board`` (on a :class:`HexGrid`) once; ``cell`` is a hex's width in pixels."""
        grid = board.grid
        assert isinstance(grid, HexGrid)
        self.board, self.cell, self.zones = board, cell, list(zones)
        self.grid: HexGrid = grid
        self.picture: HexPicture = HexPicture(board, hex_layout(grid, cell, MARGIN), TokenArt())
        sides = sorted({*board.sides(), *(z.side for z in self.zones)})
        self.colours = {z.side: theme.side_colour(z.side, sides) for z in self.zones}
        self._base: pygame.Surface | None = None
        self.cells = "hexes"

    @staticmethod
    def scale_for(grid: HexGrid) -> int:
        """Pixels per hex for the report's pictures: about :data:`WIDEST` across, 12 to 40."""
        return max(12, hex_scale(grid, 1, widest=WIDEST, largest=40))

    def base(self) -> pygame.Surface:
        """A fresh copy of the drawn board: cells, walls, doors, figures."""
        if self._base is None:
            right, bottom = self.picture.size()
            img = pygame.Surface((right + MARGIN, bottom + MARGIN))
            img.fill(theme.BACKGROUND)
            self.picture.draw_cells(img)
            self.picture.draw_walls(img)
            from game.ui.painter import Overlay

            self.picture.draw_figures(img, Overlay())
            self._base = img
        return self._base.copy()

    def centre(self, sq: Square) -> tuple[int, int]:
        """The pixel at the centre of a hex."""
        x, y = self.picture.point(self.grid.centre(sq))
        return round(x), round(y)

    def _tint(self, img: pygame.Surface, masks: Sequence[tuple[np.ndarray, Colour, int]]) -> None:
        """Tint every hex of each mask in its colour and alpha (one layer for all of them)."""
        layer = pygame.Surface(img.get_size(), pygame.SRCALPHA)
        for mask, colour, alpha in masks:
            for y, x in zip(*np.nonzero(mask), strict=True):
                pygame.draw.polygon(layer, (*colour, alpha), self.picture.polygon((int(x), int(y))))
        img.blit(layer, (0, 0))

    def _outline(self, img: pygame.Surface, squares: set[Square] | frozenset[Square], colour: Colour, width: int) -> None:
        """Outline a zone along the hex sides it shares with no other hex of it."""
        for a, b in zone_rim(self.grid, squares):
            pygame.draw.line(img, colour, self.picture.point(a), self.picture.point(b), width)

    def heat_png(self, values: np.ndarray, mask: np.ndarray, out: Path, caption: str) -> Path:
        """A heat map over the masked hexes (the square report's ramp, numbers and legend)."""
        img = self.base()
        top = int(values[mask].max()) if mask.any() else 0
        layer = pygame.Surface(img.get_size(), pygame.SRCALPHA)
        for y, x in zip(*np.nonzero(mask), strict=True):
            t = int(values[y, x]) / top if top else 0.0
            pygame.draw.polygon(layer, (*ramp(t), 165), self.picture.polygon((int(x), int(y))))
        img.blit(layer, (0, 0))
        if self.cell >= 20:
            font = _font(max(10, int(self.cell * 0.45)))
            for y, x in zip(*np.nonzero(mask), strict=True):
                label = font.render(str(int(values[y, x])), True, (255, 255, 255))
                img.blit(label, label.get_rect(center=self.centre((int(x), int(y)))))
        sheet = pygame.Surface((max(img.get_width(), 360), img.get_height() + 48))
        sheet.fill(LEGEND_BG)
        sheet.blit(img, (0, 0))
        _draw_ramp_legend(sheet, img.get_height(), 0, top, caption)
        return save_png(sheet, out)


# --- the window's overlay on a hex board --------------------------------------------------------


def draw_hex_under(surface: pygame.Surface, view: View, watched: np.ndarray, colour: Colour, alpha: int,
                   font: Callable[[int], pygame.font.Font]) -> None:
    """The window's exposure tint on a hex board: each hex with ``watched > 0`` filled in
    ``colour`` and, when hexes are large enough, the number written at its bottom (drawn under
    the figures: the token covers the centre)."""
    ys, xs = np.nonzero(watched)
    if not ys.size:
        return
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        pygame.draw.polygon(layer, (*colour, alpha), view.cell_polygon((x, y)))
    surface.blit(layer, (0, 0))
    if view.cell < 24:
        return
    face = font(max(10, min(20, round(view.cell * 0.18))))
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        text = str(int(watched[y, x]))
        cx, _ = view.square_centre((x, y))
        bottom = max(py for _, py in view.cell_polygon((x, y)))  # below a token standing there
        spot = face.render(text, True, (255, 255, 255)).get_rect(midbottom=(cx, round(bottom - view.cell * 0.04) - 1))
        surface.blit(face.render(text, True, (0, 0, 0)), spot.move(1, 1))
        surface.blit(face.render(text, True, (255, 255, 255)), spot)


def draw_hex_zones(surface: pygame.Surface, view: View, zones: Iterable[tuple[Colour, Iterable[Square]]],
                   width: int) -> None:
    """Each zone outlined in its colour along its rim's hex sides (the window's ``Shift+B``)."""
    grid = view.hexes
    assert grid is not None
    for colour, cells in zones:
        for a, b in zone_rim(grid, cells):
            pygame.draw.line(surface, colour, view.lattice_point(a), view.lattice_point(b), width)
