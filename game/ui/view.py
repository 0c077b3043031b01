"""The view transform: grid units <-> screen pixels, zoom and pan. Pure arithmetic, no pygame.

Grid coordinates are floats in squares: the centre of square ``(x, y)`` is ``(x + 0.5, y + 0.5)``
and grid corner ``(x, y)`` is the top-left of square ``(x, y)``. ``origin`` is where grid corner
``(0, 0)`` sits on the screen and ``cell`` how many pixels one square spans.

A hex board (:meth:`View.use_grid` with the board's :class:`~game.core.hexgrid.HexGrid`) is drawn
with Tiled's pixel layout of the map (docs/hex.md): ``cell`` is then the pixel width of one hex's
tile box, ``origin`` the top-left of the map's drawing, and the cells, centres, outlines and edges
come from the grid's own pixel methods at :meth:`View.layout` (the same numbers the painter draws
with, so the hex under the mouse is the hex drawn there).

The painter draws on whole pixels: grid line ``k`` lies at ``round(origin) + round(k * cell)``
(:meth:`View.pixel`), so a cached picture of the board stays valid while the view pans.

>>> view = View(cell=10.0, origin=(100.0, 50.0), viewport=(0, 0, 400, 300))
>>> view.to_screen(2, 3), view.to_grid(125.0, 85.0)
((120.0, 80.0), (2.5, 3.5))
>>> view.square_at(125, 85), view.square_at(500, 85)
((2, 3), None)
>>> view.zoom_at(2.0, 125, 85); view.cell, view.to_grid(125, 85)
(20.0, (2.5, 3.5))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.core.board import Edge, Square
from game.core.grid import Grid, Layout
from game.ui import theme

if TYPE_CHECKING:
    from game.core.hexgrid import HexGrid

#: Tiled's sizes of a hex map that names none (tile width, height, side): a regular-looking hex
DEFAULT_HEX_TILE = (28, 32, 16)


@dataclass
class View:
    """Where the board sits on the screen and how big one square is.

    ``board_size`` (set by :meth:`fit`, or given) limits :meth:`square_at` and
    :meth:`nearest_edge` to the board; without it any square under the viewport is returned.
    """

    cell: float = theme.CELL_DEFAULT
    origin: tuple[float, float] = (0.0, 0.0)
    viewport: tuple[int, int, int, int] = (0, 0, 1280, 800)
    board_size: tuple[int, int] | None = None
    #: a hex board's grid (None: squares) and its Tiled tile sizes (width, height, side)
    hexes: HexGrid | None = None
    tile: tuple[int, int, int] = DEFAULT_HEX_TILE

    # --- the grid -------------------------------------------------------------------------

    def use_grid(self, grid: Grid[Any]) -> None:
        """Draw and pick on ``grid``: a hex grid with its map's pixel sizes, else squares.

        >>> from game.core.hexgrid import HexGrid, HexLayout
        >>> v = View(cell=32.0, viewport=(0, 0, 400, 300))
        >>> v.use_grid(HexGrid(3, 3, pixels=HexLayout(32, 28, 16))); v.layout()
        Layout(cell_w=32.0, cell_h=28.0, x0=0.0, y0=0.0, side=16.0)
        >>> v.square_at(16, 14), v.square_at(33, 35), v.square_centre((1, 1))
        ((0, 0), (0, 1), (64, 36))
        """
        self.board_size = (grid.width, grid.height)
        if grid.kind != "hex":
            self.hexes = None
            return
        self.hexes = grid  # type: ignore[assignment]
        pixels = getattr(grid, "pixels", None)
        self.tile = (pixels.tilewidth, pixels.tileheight, pixels.hexsidelength) if pixels else DEFAULT_HEX_TILE

    def layout(self) -> Layout:
        """The grid seam's pixel layout of a hex board at this zoom and pan: one tile box
        ``cell`` pixels wide, its height and side in the map's proportions, the map's top-left
        at the whole pixel nearest ``origin`` (as the painter blits it)."""
        tw, th, side = self.tile
        return Layout(self.cell, self.cell * th / tw, float(round(self.origin[0])), float(round(self.origin[1])),
                      side=self.cell * side / tw)

    def extent(self, board_w: int, board_h: int) -> tuple[float, float]:
        """The board's drawn size in grid units (squares; a hex board: tile widths)."""
        if self.hexes is None:
            return float(board_w), float(board_h)
        from game.core.hexgrid import HexLayout

        tw, th, side = self.tile
        w, h = self.hexes.size_px(HexLayout(tw, th, side))
        return w / tw, h / tw

    def grid_centre(self, sq: Square) -> tuple[float, float]:
        """The grid point at the centre of a cell: a square's middle, a hex's drawn centre.

        >>> View().grid_centre((2, 3))
        (2.5, 3.5)
        """
        if self.hexes is None:
            return sq[0] + 0.5, sq[1] + 0.5
        return self.to_grid(*self.hexes.lattice_px(self.hexes.centre(sq), self.layout()))

    def cell_polygon(self, sq: Square) -> list[tuple[float, float]]:
        """A cell's outline in screen pixels: a square's four corners, a hex's six."""
        if self.hexes is None:
            x, y, w, h = self.square_rect(sq)
            return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        return self.hexes.cell_polygon_px(sq, self.layout())

    def lattice_point(self, point: tuple[float, float]) -> tuple[float, float]:
        """The screen pixel of a point of the grid's integer lattice (a hex corner or centre;
        squares: half a square per unit)."""
        if self.hexes is None:
            return self.to_screen(point[0] / 2, point[1] / 2)
        return self.hexes.lattice_px(point, self.layout())

    # --- transforms -----------------------------------------------------------------------

    def to_screen(self, gx: float, gy: float) -> tuple[float, float]:
        """The screen position of grid point ``(gx, gy)``."""
        return self.origin[0] + gx * self.cell, self.origin[1] + gy * self.cell

    def to_grid(self, px: float, py: float) -> tuple[float, float]:
        """The grid point under screen position ``(px, py)``."""
        return (px - self.origin[0]) / self.cell, (py - self.origin[1]) / self.cell

    def pixel(self, gx: float, gy: float) -> tuple[int, int]:
        """The whole pixel the painter uses for grid point ``(gx, gy)``.

        >>> View(cell=10.4, origin=(3.6, 0.0)).pixel(2, 1)
        (25, 10)
        """
        return (
            round(self.origin[0]) + round(gx * self.cell),
            round(self.origin[1]) + round(gy * self.cell),
        )

    def square_rect(self, sq: Square) -> tuple[int, int, int, int]:
        """The square's pixel rectangle ``(x, y, w, h)`` as the painter fills it.

        >>> View(cell=10.0, origin=(5.0, 5.0)).square_rect((1, 2))
        (15, 25, 10, 10)
        """
        if self.hexes is not None:  # a hex: the box around its outline
            xs, ys = zip(*self.hexes.cell_polygon_px(sq, self.layout()), strict=True)
            left, top = math.floor(min(xs)), math.floor(min(ys))
            return left, top, math.ceil(max(xs)) - left, math.ceil(max(ys)) - top
        x0, y0 = self.pixel(sq[0], sq[1])
        x1, y1 = self.pixel(sq[0] + 1, sq[1] + 1)
        return x0, y0, x1 - x0, y1 - y0

    def square_centre(self, sq: Square) -> tuple[int, int]:
        """The pixel at the centre of a square (where tokens and rays start); a hex's centre."""
        if self.hexes is not None:
            x, y = self.hexes.lattice_px(self.hexes.centre(sq), self.layout())
            return round(x), round(y)
        return self.pixel(sq[0] + 0.5, sq[1] + 0.5)

    def in_viewport(self, px: float, py: float) -> bool:
        """Whether a screen position lies inside the board area."""
        x, y, w, h = self.viewport
        return x <= px < x + w and y <= py < y + h

    def square_at(self, px: float, py: float) -> Square | None:
        """The square under a screen position; None outside the viewport (or the board, if known).

        >>> View(cell=10.0, board_size=(3, 3)).square_at(35, 5) is None
        True
        """
        if not self.in_viewport(px, py):
            return None
        if self.hexes is not None:  # the hex whose drawn outline holds the pixel (exact)
            found = self.hexes.cell_at_px(px, py, self.layout())
            return found if self.hexes.in_bounds(found) else None
        gx, gy = self.to_grid(px, py)
        sq = (math.floor(gx), math.floor(gy))
        if self.board_size is not None:
            w, h = self.board_size
            if not (0 <= sq[0] < w and 0 <= sq[1] < h):
                return None
        return sq

    def visible_cells(self) -> tuple[int, int, int, int]:
        """The grid cells touching the viewport: ``(x0, y0, x1, y1)``, end exclusive, unclipped."""
        x, y, w, h = self.viewport
        if self.hexes is not None:  # cell names grow right and down on either stagger axis
            lay = self.layout()
            cx0, cy0 = self.hexes.cell_at_px(x, y, lay)
            cx1, cy1 = self.hexes.cell_at_px(x + w, y + h, lay)
            return cx0 - 1, cy0 - 1, cx1 + 2, cy1 + 2
        gx0, gy0 = self.to_grid(x, y)
        gx1, gy1 = self.to_grid(x + w, y + h)
        return math.floor(gx0), math.floor(gy0), math.ceil(gx1), math.ceil(gy1)

    # --- zoom and pan ---------------------------------------------------------------------

    def zoom_at(self, factor: float, px: float, py: float) -> None:
        """Multiply the zoom by ``factor``, keeping the grid point under ``(px, py)`` in place.

        The cell size is clamped to ``theme.CELL_MIN .. theme.CELL_MAX``.

        >>> v = View(cell=100.0); v.zoom_at(10.0, 0, 0); v.cell
        200.0
        """
        gx, gy = self.to_grid(px, py)
        self.cell = min(theme.CELL_MAX, max(theme.CELL_MIN, self.cell * factor))
        self.origin = (px - gx * self.cell, py - gy * self.cell)

    def pan(self, dx: float, dy: float) -> None:
        """Move the board by ``(dx, dy)`` pixels."""
        self.origin = (self.origin[0] + dx, self.origin[1] + dy)

    def fit(self, board_w: int, board_h: int) -> None:
        """Zoom and centre so the whole board fits the viewport (the Home key).

        >>> v = View(viewport=(0, 0, 200, 100)); v.fit(4, 2); v.cell, v.origin
        (46.0, (8.0, 4.0))
        """
        self.board_size = (board_w, board_h)
        ext_w, ext_h = self.extent(board_w, board_h)
        x, y, w, h = self.viewport
        usable_w = w * (1 - 2 * theme.FIT_MARGIN)
        usable_h = h * (1 - 2 * theme.FIT_MARGIN)
        cell = min(usable_w / max(ext_w, 1), usable_h / max(ext_h, 1))
        self.cell = min(theme.CELL_MAX, max(theme.CELL_MIN, cell))
        self.origin = (
            x + (w - ext_w * self.cell) / 2,
            y + (h - ext_h * self.cell) / 2,
        )

    # --- picking --------------------------------------------------------------------------

    def nearest_edge(self, px: float, py: float, tolerance_px: float) -> Any:
        """The grid edge within ``tolerance_px`` of a screen position (for clicking doors).

        Of a vertical and a horizontal candidate the closer one wins; near a grid corner the
        answer is whichever arm the point is nearer to.

        >>> v = View(cell=10.0, origin=(0.0, 0.0))
        >>> v.nearest_edge(20.5, 14, 3), v.nearest_edge(15, 19, 3), v.nearest_edge(15, 15, 3)
        (Edge(axis='V', x=2, y=1), Edge(axis='H', x=1, y=2), None)
        """
        if not self.in_viewport(px, py):
            return None
        if self.hexes is not None:
            return self._nearest_hex_edge(px, py, tolerance_px)
        gx, gy = self.to_grid(px, py)
        vx, hy = round(gx), round(gy)
        candidates: list[tuple[float, Edge]] = [
            (abs(gx - vx) * self.cell, Edge("V", vx, math.floor(gy))),
            (abs(gy - hy) * self.cell, Edge("H", math.floor(gx), hy)),
        ]
        candidates.sort(key=lambda c: c[0])
        for distance, edge in candidates:
            if distance <= tolerance_px and self._edge_on_board(edge):
                return edge
        return None

    def _nearest_hex_edge(self, px: float, py: float, tolerance_px: float) -> Any:
        """The side of the hex under the pixel nearest to it, within the tolerance (either hex
        of a side holds the pixels near it, so the hex under the mouse has that side)."""
        grid = self.hexes
        assert grid is not None
        lay = self.layout()
        cell = grid.cell_at_px(px, py, lay)
        best: tuple[float, Any] | None = None
        for edge in grid.edges_of(cell):
            a, b = (grid.lattice_px(p, lay) for p in grid.edge_ends(edge))
            far = _to_segment(px, py, a, b)
            if far <= tolerance_px and (best is None or far < best[0]):
                best = (far, edge)
        if best is None or not any(grid.in_bounds(c) for c in grid.edge_cells(best[1])):
            return None
        return best[1]

    def _edge_on_board(self, edge: Edge) -> bool:
        if self.board_size is None:
            return True
        w, h = self.board_size
        if edge.axis == "V":
            return 0 <= edge.x <= w and 0 <= edge.y < h
        return 0 <= edge.x < w and 0 <= edge.y <= h


def _to_segment(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    """The pixel distance from a point to a segment (drawing only).

    >>> _to_segment(5, 3, (0, 0), (10, 0)), _to_segment(-3, 4, (0, 0), (10, 0))
    (3.0, 5.0)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - a[0]) * dx + (py - a[1]) * dy) / length))
    return math.hypot(px - a[0] - t * dx, py - a[1] - t * dy)
