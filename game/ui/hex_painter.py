"""Drawing a hex board: cells, walls, doors, figures, the ray and the field of view, on Tiled's
own pixel layout of the map (docs/hex.md).

The hexes are drawn where Tiled draws them (:meth:`game.core.hexgrid.HexGrid.cell_polygon_px`:
the map's ``tilewidth``, ``tileheight`` and ``hexsidelength`` scaled so one hex is ``scale``
pixels wide); lines and points of a verdict are lattice points placed with
:meth:`~game.core.hexgrid.HexGrid.lattice_px`. Figures are the square painter's tokens
(:class:`game.ui.painter.BoardPainter`), so a figure looks the same on every grid. Floats here
are drawing only; every verdict drawn comes from :mod:`game.core.sight`.
"""

from __future__ import annotations

import numpy as np
import pygame

from game.core.board import Board, DoorState, Figure
from game.core.grid import Cell, Layout
from game.core.hexgrid import HexEdge, HexGrid, HexLayout
from game.core.sight_result import Sight
from game.ui import theme
from game.ui.painter import BoardPainter, Overlay

__all__ = ["DEFAULT_TILE", "HexPicture", "hex_layout"]

#: Tiled's sizes of a hex map that names none (a regular-looking pointy hex): width, height, side
DEFAULT_TILE = HexLayout(28, 32, 16)


def hex_layout(grid: HexGrid, scale: float, margin: float = 0.0) -> Layout:
    """The seam's :class:`Layout` drawing ``grid`` with one hex ``scale`` pixels wide (its height
    and side in the map's own proportions), the map's top-left at ``(margin, margin)``."""
    tile = grid.pixels or DEFAULT_TILE
    f = scale / tile.tilewidth
    return Layout(round(tile.tilewidth * f), round(tile.tileheight * f), margin, margin, side=round(tile.hexsidelength * f))


class HexPicture:
    """One drawing of a hex board at a layout (see the module)."""

    def __init__(self, board: Board, layout: Layout, painter: BoardPainter | None = None) -> None:
        """Draw ``board`` (on a :class:`HexGrid`) with ``layout``'s pixels."""
        grid = board.grid
        assert isinstance(grid, HexGrid)
        self.board: Board = board
        self.grid: HexGrid = grid
        self.layout: Layout = layout
        self.painter: BoardPainter = painter or BoardPainter(None)
        self.scale: float = layout.cell_w

    def size(self) -> tuple[int, int]:
        """The right and bottom of the drawn map (Tiled's bounds of every cell, shifted by the
        layout's origin)."""
        lay = self.layout
        w, h = self.grid.size_px(HexLayout(round(lay.cell_w), round(lay.cell_h), round(lay.side)))
        return round(lay.x0 + w), round(lay.y0 + h)

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """A cell's six drawn corners."""
        return self.grid.cell_polygon_px(cell, self.layout)

    def point(self, p: tuple[float, float]) -> tuple[float, float]:
        """A lattice point's pixel."""
        return self.grid.lattice_px(p, self.layout)

    def draw(self, surface: pygame.Surface, overlay: Overlay) -> None:
        """Cells, walls and doors, the field of view, the ray, figures."""
        self.draw_cells(surface)
        if overlay.fov is not None:
            self.draw_fov(surface, np.asarray(overlay.fov, dtype=bool))
        self.draw_walls(surface)
        if isinstance(overlay.ray, Sight):
            self.draw_ray(surface, overlay.ray)
        elif overlay.hover is not None and self.grid.in_bounds(overlay.hover):
            pygame.draw.polygon(surface, theme.SELECT_RING, self.polygon(overlay.hover), 3)
        self.draw_figures(surface, overlay)

    def draw_cells(self, surface: pygame.Surface) -> None:
        """Every cell filled by its role, with a faint outline."""
        board = self.board
        line = theme.GRID_LINE[:3]
        for cell in self.grid.cells():
            polygon = self.polygon(cell)
            if board.is_void(cell):
                colour = theme.VOID
            elif board.is_blocked_terrain(cell):
                colour = theme.BLOCKED_FILL
            elif board.is_impassable(cell):
                colour = theme.IMPASSABLE_FILL
            else:
                colour = theme.FLOOR_LIGHT if (cell[0] + cell[1]) % 2 else theme.FLOOR_DARK
            pygame.draw.polygon(surface, colour, polygon)
            if not board.is_void(cell):
                pygame.draw.polygon(surface, line, polygon, 1)
            if board.is_blocked_terrain(cell):
                cx, cy = self.point(self.grid.centre(cell))
                r = self.scale * 0.22
                pygame.draw.line(surface, theme.BLOCKED_HATCH, (cx - r, cy - r), (cx + r, cy + r), 3)
                pygame.draw.line(surface, theme.BLOCKED_HATCH, (cx - r, cy + r), (cx + r, cy - r), 3)

    def edge_px(self, edge: HexEdge) -> tuple[tuple[float, float], tuple[float, float]]:
        """The drawn ends of a hex side."""
        return self.point(edge.a), self.point(edge.b)

    def draw_walls(self, surface: pygame.Surface) -> None:
        """Walls as thick lines, windows as thin blue ones, doors as bars by state."""
        width = max(3, round(self.scale * theme.WALL_WIDTH))
        board = self.board
        for edge in board.windows:
            a, b = self.edge_px(edge)  # type: ignore[arg-type]
            pygame.draw.line(surface, theme.WINDOW, a, b, max(2, width // 2))
        for edge in board.walls:
            a, b = self.edge_px(edge)  # type: ignore[arg-type]
            pygame.draw.line(surface, theme.WALL, a, b, width)
            for end in (a, b):
                pygame.draw.circle(surface, theme.WALL, end, width / 2)
        for edge, door in board.doors.items():
            a, b = self.edge_px(edge)  # type: ignore[arg-type]
            inset = (a[0] + (b[0] - a[0]) * 0.12, a[1] + (b[1] - a[1]) * 0.12)
            outset = (b[0] + (a[0] - b[0]) * 0.12, b[1] + (a[1] - b[1]) * 0.12)
            bar = max(4, round(self.scale * theme.DOOR_WIDTH * 0.8))
            if door.state is DoorState.OPEN:
                pygame.draw.line(surface, theme.DOOR_OPEN, inset, outset, 2)
                pygame.draw.circle(surface, theme.DOOR_OPEN, inset, bar / 2, 2)
            else:
                colour = theme.DOOR_LOCKED if door.state is DoorState.LOCKED else theme.DOOR_CLOSED
                pygame.draw.line(surface, theme.DOOR_OUTLINE, inset, outset, bar + 2)
                pygame.draw.line(surface, colour, inset, outset, bar)
                if door.state is DoorState.LOCKED:
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    pygame.draw.circle(surface, theme.LOCK_MARK, mid, bar / 2)

    def draw_fov(self, surface: pygame.Surface, seen: np.ndarray) -> None:
        """A dark shade over every cell on the board the viewer cannot see."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for cell in self.grid.cells():
            if not self.board.is_void(cell) and not seen[cell[1], cell[0]]:
                pygame.draw.polygon(shade, theme.FOV_HIDDEN_SHADE, self.polygon(cell))
        surface.blit(shade, (0, 0))

    def draw_ray(self, surface: pygame.Surface, ray: Sight) -> None:
        """The two end cells ringed; the deciding line(s): the clear one green, blocked ones red
        (a hex verdict is explained by its candidate lines, :attr:`Sight.lines`)."""
        for cell, colour in ((ray.origin, theme.SELECT_RING), (ray.target, theme.TARGET_RING)):
            pygame.draw.polygon(surface, colour, self.polygon(cell), 3)
        width = max(2, round(self.scale * theme.RAY_WIDTH))
        lines = ray.segments()
        shown = lines if ray.clear else lines[:16]
        for start, end, clear in shown:
            a, b = self.point(start), self.point(end)
            pygame.draw.line(surface, theme.RAY_HALO, a, b, width + 2)
            pygame.draw.line(surface, theme.RAY_CLEAR if clear else theme.RAY_BLOCKED, a, b, width)
            for p in (a, b):
                pygame.draw.circle(surface, theme.CORNER_OPEN, p, max(2, width))

    def draw_figures(self, surface: pygame.Surface, overlay: Overlay) -> None:
        """Tokens on their hexes (several on one hex side by side), rings for selected/target."""
        board = self.board
        sides = board.sides()
        hidden = np.asarray(overlay.fov, dtype=bool) if overlay.fov is not None else None
        targets = set(overlay.target_ids())
        by_cell: dict[Cell, list[Figure]] = {}
        for figure in board.figures.values():
            by_cell.setdefault(figure.square, []).append(figure)
        for cell, figures in by_cell.items():
            cx, cy = self.point(self.grid.centre(cell))
            n = len(figures)
            radius = self.scale * (0.34 if n == 1 else 0.22)
            for i, figure in enumerate(figures):
                dx = (i - (n - 1) / 2) * radius * 1.9
                sprite = self.painter._token(figure, sides, round(radius), self.scale, n == 1, board.ruleset)
                if hidden is not None and not hidden[cell[1], cell[0]]:
                    sprite = self.painter._dim(sprite)
                centre = (round(cx + dx), round(cy))
                surface.blit(sprite, sprite.get_rect(center=centre))
                ring = theme.SELECT_RING if figure.id == overlay.selected else theme.TARGET_RING if figure.id in targets else None
                if ring is not None:
                    pygame.draw.circle(surface, ring, centre, radius + 4, 3)
