"""The pictures of ``compare`` and ``report`` on hex maps: hexes drawn where Tiled draws them
(:class:`game.ui.hex_painter.HexPicture`, Tiled's pixel layout of the map), tinted per hex.

``compare``: one panel per rule side by side, each titled with the rule, the hexes where that rule
disagrees with another tinted (from one hex: what this rule sees that another does not, green, and
what another sees that this one does not, red, over this rule's field of view; all pairs: how many
disagreeing pairs through each hex this rule sees, the count on the hex). ``report``: the board,
the exposure heat map and each door's effect. Floats here are drawing only: every verdict drawn
comes from :mod:`game.core.sight` through the caller.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.core.board import Board
from game.core.grid import Cell
from game.core.hexgrid import HexEdge, HexGrid
from game.ui import theme
from game.ui.hex_painter import HexPicture, hex_layout
from game.ui.painter import Overlay
from game.ui.render import save_png
from game.ui.report_images import (
    DOOR_EFFECT,
    HIGHLIGHT,
    LEGEND_BG,
    TEXT,
    _draw_ramp_legend,
    _font,
    crops_png,
    ramp,
)
from game.ui.tokens import TokenArt

if TYPE_CHECKING:
    from game.tiled import MapArt

__all__ = [
    "MAX_PICTURE_PX", "RulePanel", "compare_panels_png", "hex_board_png", "hex_crops_png", "hex_door_png",
    "hex_heatmap_png", "hex_scale",
]

SEES: tuple[int, int, int] = (30, 150, 70)  #: a hex this rule sees and another does not
MISSES: tuple[int, int, int] = (210, 50, 40)  #: a hex another rule sees and this one does not
MAX_PICTURE_PX = 4096  #: the default scale keeps a picture's longer side within this many pixels
TITLE_HEIGHT = 30
LEGEND_HEIGHT = 48
MARGIN = 8


def hex_scale(
    grid: HexGrid, panels: int = 1, wanted: int | None = None, widest: int = MAX_PICTURE_PX, largest: int = 32,
) -> int:
    """Pixels per hex width: ``wanted`` when given, else ``largest`` or less so that ``panels``
    pictures of the map side by side stay within ``widest`` pixels (and its height too), at least 4.

    >>> hex_scale(HexGrid(14, 10), 3), hex_scale(HexGrid(400, 400)), hex_scale(HexGrid(14, 10), widest=960, largest=48)
    (32, 10, 48)
    """
    if wanted is not None:
        return wanted
    across = (grid.width + 1) if grid.pointy else (grid.width * 3 + 1) / 4 + 1
    down = (grid.height * 3 + 1) / 4 + 1 if grid.pointy else (grid.height + 1)
    return max(4, min(largest, int(widest / max(1.0, across * panels)), int(widest / max(1.0, down))))


class _Canvas:
    """A hex board drawn once at one scale, with a transparent layer for tints."""

    def __init__(self, board: Board, art: MapArt | None, scale: int, fov: np.ndarray | None = None) -> None:
        grid = board.grid
        assert isinstance(grid, HexGrid)
        self.picture: HexPicture = HexPicture(board, hex_layout(grid, scale, MARGIN), TokenArt())
        right, bottom = self.picture.size()
        self.surface: pygame.Surface = pygame.Surface((right + MARGIN, bottom + MARGIN))
        self.surface.fill(theme.BACKGROUND)
        self.tints: pygame.Surface = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        self.overlay: Overlay = Overlay(fov=fov)
        self.scale: int = scale
        self.rings: list[tuple[Cell, tuple[int, int, int], int]] = []

    def tint(self, cell: Cell, colour: tuple[int, int, int], alpha: int) -> None:
        """Fill a hex with a translucent colour."""
        pygame.draw.polygon(self.tints, (*colour, alpha), self.picture.polygon(cell))

    def ring(self, cell: Cell, colour: tuple[int, int, int], width: int = 3) -> None:
        """Outline a hex (drawn over the walls)."""
        self.rings.append((cell, colour, width))

    def label(self, cell: Cell, text: str) -> None:
        """Write a short text on a hex's centre (only when hexes are big enough to read it)."""
        if self.scale < 22:
            return
        font = _font(max(12, int(self.scale * 0.45)))
        shown = font.render(text, True, (255, 255, 255))
        x, y = self.picture.point(self.picture.grid.centre(cell))
        self.tints.blit(shown, shown.get_rect(center=(round(x), round(y))))

    def finish(self) -> pygame.Surface:
        """The board with its tints: cells and field shade, then the tints, then walls and doors
        and the figures on top (a tint never hides a wall or a token)."""
        picture = self.picture
        picture.draw_cells(self.surface)
        if self.overlay.fov is not None:
            picture.draw_fov(self.surface, np.asarray(self.overlay.fov).astype(bool))
        self.surface.blit(self.tints, (0, 0))
        picture.draw_walls(self.surface)
        for cell, colour, width in self.rings:
            pygame.draw.polygon(self.surface, colour, picture.polygon(cell), width)
        picture.draw_figures(self.surface, self.overlay)
        return self.surface


@dataclass(frozen=True)
class RulePanel:
    """One rule's panel of the compare picture: ``sees[y, x]`` and ``misses[y, x]`` (int): from one
    hex 1 where this rule sees the hex and another does not (``sees``) or the reverse
    (``misses``); over every pair, how many disagreeing pairs through the hex this rule sees
    (``sees``; ``misses`` then 0). ``field``: this rule's field of view from the origin, if any."""

    name: str
    sees: np.ndarray
    misses: np.ndarray
    field: np.ndarray | None = None


def _panel(board: Board, art: MapArt | None, panel: RulePanel, origin: Cell | None, scale: int) -> pygame.Surface:
    canvas = _Canvas(board, art, scale, panel.field)
    most = max(1, int(panel.sees.max()) if panel.sees.size else 1)
    for y, x in zip(*np.nonzero(panel.sees), strict=True):
        count = int(panel.sees[y, x])
        alpha = 200 if origin is not None else 90 + round(130 * count / most)
        canvas.tint((int(x), int(y)), SEES, alpha)
        if origin is None:
            canvas.label((int(x), int(y)), str(count))
    for y, x in zip(*np.nonzero(panel.misses), strict=True):
        canvas.tint((int(x), int(y)), MISSES, 200)
    if origin is not None:
        canvas.ring(origin, theme.SELECT_RING, 4)
    drawn = canvas.finish()
    titled = pygame.Surface((drawn.get_width(), drawn.get_height() + TITLE_HEIGHT))
    titled.fill(LEGEND_BG)
    title = _font(24).render(panel.name, True, TEXT)
    titled.blit(title, (MARGIN, (TITLE_HEIGHT - title.get_height()) // 2 + 2))
    titled.blit(drawn, (0, TITLE_HEIGHT))
    return titled


def compare_panels_png(
    board: Board, art: MapArt | None, panels: Sequence[RulePanel], out: str | Path, *,
    origin: Cell | None = None, scale: int = 32,
) -> Path:
    """The compare picture of a hex map: one titled panel per rule, side by side, and a legend."""
    drawn = [_panel(board, art, panel, origin, scale) for panel in panels]
    gap = 12
    width = sum(p.get_width() for p in drawn) + gap * (len(drawn) - 1)
    height = max(p.get_height() for p in drawn)
    out_img = pygame.Surface((max(width, 560), height + LEGEND_HEIGHT))
    out_img.fill(LEGEND_BG)
    x = 0
    for picture in drawn:
        out_img.blit(picture, (x, 0))
        x += picture.get_width() + gap
    font = _font(18)
    if origin is not None:
        keys = [(SEES, "this rule sees it, another does not"), (MISSES, "another rule sees it, this one does not")]
    else:
        keys = [(SEES, "pairs through the hex this rule sees and another does not")]
    x, base = 10, height + 14
    for colour, text in keys:
        pygame.draw.rect(out_img, colour, (x, base, 16, 16))
        label = font.render(text, True, TEXT)
        out_img.blit(label, (x + 22, base + 2))
        x += 22 + label.get_width() + 18
    return save_png(out_img, out)


def hex_board_png(board: Board, art: MapArt | None, out: str | Path, scale: int) -> Path:
    """The board as drawn (cells, walls, doors, figures)."""
    return save_png(_Canvas(board, art, scale).finish(), out)


def hex_crops_png(
    board: Board, art: MapArt | None, areas: Sequence[tuple[Cell | None, tuple[int, int, int, int], Path]], scale: int,
) -> list[Path]:
    """The findings' thumbnails of the report (:func:`game.ui.report_images.crops_png`, as on
    squares): per area, the board around a hex (``cell``: its drawn box) or around a rectangle
    ``(x, y, w, h)`` in the map's grid units (an object's box: Tiled's pixels over its tile size),
    outlined red, with two hexes of the board around it."""
    canvas = _Canvas(board, art, scale)
    layout = canvas.picture.layout
    marks = []
    for cell, (gx, gy, gw, gh), out in areas:
        if cell is not None:
            xs, ys = zip(*canvas.picture.polygon(cell), strict=True)
            left, top = math.floor(min(xs)), math.floor(min(ys))
            mark = pygame.Rect(left, top, math.ceil(max(xs)) - left, math.ceil(max(ys)) - top)
        else:
            left, top = round(layout.x0 + gx * layout.cell_w), round(layout.y0 + gy * layout.cell_h)
            mark = pygame.Rect(left, top, max(1, round(gw * layout.cell_w)), max(1, round(gh * layout.cell_h)))
        marks.append((mark, Path(out)))
    return crops_png(canvas.finish(), marks, 2 * scale)


def _with_strip(drawn: pygame.Surface) -> pygame.Surface:
    out_img = pygame.Surface((max(drawn.get_width(), 360), drawn.get_height() + LEGEND_HEIGHT))
    out_img.fill(LEGEND_BG)
    out_img.blit(drawn, (0, 0))
    return out_img


def hex_heatmap_png(
    board: Board, art: MapArt | None, seen_by: np.ndarray, standable: np.ndarray, out: str | Path, scale: int,
) -> Path:
    """Each hex a figure can stand on coloured by how many hexes see it (blue few, red many)."""
    canvas = _Canvas(board, art, scale)
    ys, xs = np.nonzero(standable)
    counts = seen_by[ys, xs] if ys.size else np.zeros(0, dtype=np.int64)
    low, high = (int(counts.min()), int(counts.max())) if counts.size else (0, 0)
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        t = (int(seen_by[y, x]) - low) / max(1, high - low)
        canvas.tint((x, y), ramp(t), 190)
    out_img = _with_strip(canvas.finish())
    _draw_ramp_legend(out_img, out_img.get_height() - LEGEND_HEIGHT + 4, low, high, "hexes that see it")
    return save_png(out_img, out)


def hex_door_png(board: Board, art: MapArt | None, edge: HexEdge, per_cell: np.ndarray, out: str | Path, scale: int) -> Path:
    """One door's effect: the hexes whose sight of some hex changes when it opens, tinted by how
    many such pairs they are in, the door ringed."""
    canvas = _Canvas(board, art, scale)
    most = max(1, int(per_cell.max()) if per_cell.size else 1)
    for y, x in zip(*np.nonzero(per_cell), strict=True):
        canvas.tint((int(x), int(y)), DOOR_EFFECT, 70 + round(150 * int(per_cell[y, x]) / most))
    drawn = canvas.finish()
    a, b = canvas.picture.edge_px(edge)
    pygame.draw.line(drawn, HIGHLIGHT, a, b, max(4, scale // 5))
    for end in (a, b):
        pygame.draw.circle(drawn, HIGHLIGHT, end, max(4, scale // 6), 2)
    return save_png(drawn, out)
