"""Drawing a hex board: cells, walls, doors, figures, the ray and the field of view, on Tiled's
own pixel layout of the map (docs/hex.md).

The hexes are drawn where Tiled draws them (:meth:`game.core.hexgrid.HexGrid.cell_polygon_px`:
the map's ``tilewidth``, ``tileheight`` and ``hexsidelength`` scaled so one hex is ``scale``
pixels wide); lines and points of a verdict are lattice points placed with
:meth:`~game.core.hexgrid.HexGrid.lattice_px`. Figures are the square painter's tokens
(:class:`game.ui.tokens.TokenArt`), so a figure looks the same on every grid. Floats here
are drawing only; every verdict drawn comes from :mod:`game.core.sight`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pygame

from game.core.board import Board, DoorState, Figure
from game.core.grid import Cell, Layout
from game.core.hexgrid import HexEdge, HexGrid, HexLayout
from game.core.sight_result import Sight
from game.ui import theme
from game.ui.art import TileArt, layer_offset, usable_tiles
from game.ui.painter import BoardPainter, Overlay
from game.ui.tokens import TokenArt
from game.ui.view import View

__all__ = ["DEFAULT_TILE", "HexBoardPainter", "HexPicture", "hex_layout", "painter_for"]

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

    def __init__(self, board: Board, layout: Layout, tokens: TokenArt | None = None,
                 tiles: TileArt | None = None) -> None:
        """Draw ``board`` (on a :class:`HexGrid`) with ``layout``'s pixels; with ``tiles`` (the
        map's tile art, :func:`game.ui.art.usable_tiles`) its cells are the map's tiles."""
        grid = board.grid
        assert isinstance(grid, HexGrid)
        self.board: Board = board
        self.grid: HexGrid = grid
        self.layout: Layout = layout
        self.tokens: TokenArt = tokens or TokenArt()
        self.tiles: TileArt | None = tiles
        self.scale: float = layout.cell_w
        #: the size tokens, hatching and door bars follow: the hex's width, or less on hexes
        #: squashed flatter than a regular one (a token stays inside its hex)
        self.inner: float = min(layout.cell_w, layout.cell_h * 1.15)

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

    def draw_cells(self, surface: pygame.Surface, cells: Iterable[Cell] | None = None) -> None:
        """Every cell (or ``cells``) filled by its role, with a faint outline; a map with tile
        art: its tiles instead (:meth:`draw_tiles`)."""
        if self.tiles is not None:
            self.draw_tiles(surface, self.tiles, list(self.grid.cells() if cells is None else cells))
            return
        board = self.board
        line = theme.GRID_LINE[:3]
        for cell in self.grid.cells() if cells is None else cells:
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
                self._cross(surface, cell)

    def draw_tiles(self, surface: pygame.Surface, tiles: TileArt, cells: list[Cell]) -> None:
        """The map's tile layers at Tiled's hex pixel layout (each tile's bottom-left on the
        bottom-left of its cell's tile box, as Tiled's hexagonal renderer draws it; rows top to
        bottom, so a tall tile overlaps the row above), muted by the art wash so overlays read
        first; void stays dark; blocked hexes keep their cross, impassable ones a tint, and
        every hex a faint outline (the cells the rules see)."""
        lay = self.layout
        box = HexLayout(round(lay.cell_w), round(lay.cell_h), round(lay.side))
        height = box.params(self.grid.staggeraxis)["tile_height"]
        scale = lay.cell_w / max(1, tiles.art.tile_width)
        order = sorted(cells, key=lambda c: self.grid.cell_origin_px(c, box)[::-1])
        background = tiles.background or theme.FLOOR_DARK
        for cell in order:
            if not self.board.is_void(cell):
                pygame.draw.polygon(surface, background, self.polygon(cell))
        for layer in tiles.layers():
            opacity = float(getattr(layer, "opacity", 1.0))
            if opacity <= 0:
                continue
            gids = np.asarray(layer.gids)
            lox, loy = layer_offset(layer)
            for x, y in order:
                if not (0 <= y < gids.shape[0] and 0 <= x < gids.shape[1]) or not gids[y, x]:
                    continue
                placed = tiles.tile(int(gids[y, x]), lay.cell_w, opacity, height)
                if placed is None:
                    continue
                image, dx, dy = placed
                ox, oy = self.grid.cell_origin_px((x, y), box)
                surface.blit(image, (round(lay.x0 + ox + lox * scale) + dx, round(lay.y0 + oy + loy * scale) + dy))
        wash = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for cell in order:
            polygon = self.polygon(cell)
            if self.board.is_void(cell):
                pygame.draw.polygon(surface, theme.VOID, polygon)
                continue
            if self.board.is_impassable(cell) and not self.board.is_blocked_terrain(cell):
                pygame.draw.polygon(wash, (*theme.IMPASSABLE_FILL[:3], 110), polygon)
            else:
                pygame.draw.polygon(wash, theme.ART_WASH, polygon)
            pygame.draw.polygon(wash, theme.GRID_LINE, polygon, 1)
        surface.blit(wash, (0, 0))
        for cell in order:
            if self.board.is_blocked_terrain(cell) and not self.board.is_void(cell):
                self._cross(surface, cell)

    def _cross(self, surface: pygame.Surface, cell: Cell) -> None:
        """The cross of blocked terrain in a hex's middle."""
        cx, cy = self.point(self.grid.centre(cell))
        r = self.inner * 0.22
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
            bar = max(4, round(self.inner * theme.DOOR_WIDTH * 0.8))
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
        """The two end cells ringed; the deciding line(s): the clear one green, a blocked one green
        up to where it meets its blocker and red after it (a hex verdict is explained by its
        candidate lines, :attr:`Sight.lines`, each with its exact meeting point)."""
        for cell, colour in ((ray.origin, theme.SELECT_RING), (ray.target, theme.TARGET_RING)):
            pygame.draw.polygon(surface, colour, self.polygon(cell), 3)
        width = max(2, round(self.scale * theme.RAY_WIDTH))
        lines = ray.lines
        shown = lines if ray.clear else lines[:16]
        for line in shown:
            start, end, clear = line.segment()
            a, b = self.point(start), self.point(end)
            pygame.draw.line(surface, theme.RAY_HALO, a, b, width + 2)
            met = line.meeting()  # where the engine says the blocker begins: green before, red after
            t = float(met.t) if met is not None else 0.0
            pivot = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if clear or t > 0:
                pygame.draw.line(surface, theme.RAY_CLEAR, a, b if clear else pivot, width)
            if not clear:
                pygame.draw.line(surface, theme.RAY_BLOCKED, pivot, b, width)
            for p in (a, b):
                pygame.draw.circle(surface, theme.CORNER_OPEN, p, max(2, width))

    def draw_figures(self, surface: pygame.Surface, overlay: Overlay, skip: int | None = None) -> None:
        """Tokens on their hexes (several on one hex side by side), rings for selected/target;
        the figure ``skip`` (dragged: it follows the cursor) is left out."""
        board = self.board
        sides = board.sides()
        hidden = np.asarray(overlay.fov, dtype=bool) if overlay.fov is not None else None
        targets = set(overlay.target_ids())
        by_cell: dict[Cell, list[Figure]] = {}
        for figure in board.figures.values():
            if figure.id != skip:
                by_cell.setdefault(figure.square, []).append(figure)
        for cell, figures in by_cell.items():
            cx, cy = self.point(self.grid.centre(cell))
            n = len(figures)
            radius = self.inner * (0.34 if n == 1 else 0.22)
            for i, figure in enumerate(figures):
                dx = (i - (n - 1) / 2) * radius * 1.9
                sprite = self.tokens.token(figure, sides, round(radius), self.inner, n == 1, board.ruleset)
                if hidden is not None and not hidden[cell[1], cell[0]]:
                    sprite = self.tokens.dim(sprite)
                centre = (round(cx + dx), round(cy))
                surface.blit(sprite, sprite.get_rect(center=centre))
                ring = theme.SELECT_RING if figure.id == overlay.selected else theme.TARGET_RING if figure.id in targets else None
                if ring is not None:
                    pygame.draw.circle(surface, ring, centre, radius + 4, 3)


#: a cached layer of a hex board bigger than this many pixels covers the visible part only
HEX_LAYER_BUDGET_PX = 6_000_000


class HexBoardPainter:
    """The window's painter for a hex board: the square :class:`BoardPainter`'s ``draw`` /
    ``invalidate`` / ``warnings`` on Tiled's pixel layout of the map at the :class:`View`'s zoom.

    Cached (the hover path redraws only what moves): the cells, walls and doors per board
    geometry and hex size, and the field of view's shade per mask, each in the map's own pixels
    (the visible part and a margin when the map is large), blitted at the view's origin. Drawn
    each frame: markers, the hovered and refused hexes, the ray's blocking cells and lines,
    figures, the start marker, the dragged figure. A map with tile images is drawn with its tiles
    (:meth:`HexPicture.draw_tiles`), as ``sightline render`` draws it; one without, by roles.
    """

    def __init__(self, art: Any = None) -> None:
        self.tokens = TokenArt()
        self.warnings: list[str] = []
        #: the map's tile art, drawn at Tiled's hex layout (None: cells by their roles)
        self.tiles = usable_tiles(art, self.warnings)
        self._static: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self._shade: tuple[tuple[Any, ...], np.ndarray, pygame.Surface] | None = None

    def invalidate(self) -> None:
        """Drop the cached layers (the next draw rebuilds them)."""
        self._static = None
        self._shade = None

    # --- layers in the map's pixels -------------------------------------------------------------

    @staticmethod
    def _visible(view: View, size: tuple[int, int]) -> tuple[int, int, int, int]:
        """The part of the map's pixels the board area shows (clipped to the map)."""
        vx, vy, vw, vh = view.viewport
        lay = view.layout()
        left, top = int(vx - lay.x0), int(vy - lay.y0)
        return max(0, left), max(0, top), min(size[0], left + vw), min(size[1], top + vh)

    @staticmethod
    def _region(view: View, size: tuple[int, int]) -> tuple[int, int, int, int]:
        """The map-pixel rectangle a new layer covers: the whole map, or (large maps) the
        visible part with half a viewport of margin on every side (panning reuses it until the
        view leaves it)."""
        w, h = size
        if w * h <= HEX_LAYER_BUDGET_PX:
            return 0, 0, w, h
        x0, y0, x1, y1 = HexBoardPainter._visible(view, size)
        _, _, vw, vh = view.viewport
        return max(0, x0 - vw // 2), max(0, y0 - vh // 2), min(w, x1 + vw // 2), min(h, y1 + vh // 2)

    @staticmethod
    def _cells(grid: HexGrid, tile: HexLayout, region: tuple[int, int, int, int]) -> list[Cell]:
        """The cells whose drawing may meet a map-pixel rectangle."""
        x0, y0, x1, y1 = region
        cx0, cy0 = grid.cell_at_px(x0, y0, tile)
        cx1, cy1 = grid.cell_at_px(x1, y1, tile)
        return [(x, y) for y in range(max(0, cy0 - 1), min(grid.height, cy1 + 2))
                for x in range(max(0, cx0 - 1), min(grid.width, cx1 + 2))]

    def _static_layer(self, board: Board, view: View) -> tuple[tuple[Any, ...], pygame.Surface]:
        """Cells, walls and doors in the map's pixels (rebuilt when the geometry or the hex size
        changes, or the view leaves the part it covers)."""
        lay = view.layout()
        tile = HexLayout(round(lay.cell_w), round(lay.cell_h), round(lay.side))
        size = board.grid.size_px(tile)  # type: ignore[attr-defined]
        same = (id(board), board.serial, board.geometry_version, tile)
        cached = self._static
        if cached is not None and cached[0][:4] == same:
            vx0, vy0, vx1, vy1 = self._visible(view, size)
            rx0, ry0, rx1, ry1 = cached[0][4]
            if rx0 <= vx0 and ry0 <= vy0 and vx1 <= rx1 and vy1 <= ry1:
                return cached
        region = self._region(view, size)
        key = (*same, region)
        x0, y0, x1, y1 = region
        out = pygame.Surface((max(1, x1 - x0), max(1, y1 - y0)))
        out.fill(theme.BACKGROUND)
        local = Layout(tile.tilewidth, tile.tileheight, -x0, -y0, side=tile.hexsidelength)
        picture = HexPicture(board, local, self.tokens, self.tiles)
        grid = picture.grid
        picture.draw_cells(out, self._cells(grid, tile, region))
        picture.draw_walls(out)
        self._static = (key, out)
        return self._static

    def _shade_layer(self, board: Board, view: View, seen: np.ndarray, key: tuple[Any, ...]) -> pygame.Surface:
        """The field of view's dark shade over every hidden cell, in the static layer's pixels."""
        cached = self._shade
        if cached is not None and cached[0] == key and cached[1] is seen:
            return cached[2]
        tile, region = key[3], key[4]
        x0, y0, x1, y1 = region
        out = pygame.Surface((max(1, x1 - x0), max(1, y1 - y0)), pygame.SRCALPHA)
        local = Layout(tile.tilewidth, tile.tileheight, -x0, -y0, side=tile.hexsidelength)
        grid = board.grid
        for cell in self._cells(grid, tile, region):  # type: ignore[arg-type]
            if not board.is_void(cell) and not seen[cell[1], cell[0]]:
                pygame.draw.polygon(out, theme.FOV_HIDDEN_SHADE, grid.cell_polygon_px(cell, local))
        self._shade = (key, seen, out)
        return out

    # --- one frame ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, board: Board, view: View, overlay: Overlay) -> None:
        """Draw the board and the overlay into ``view.viewport`` of ``surface``."""
        old_clip = surface.get_clip()
        viewport = pygame.Rect(view.viewport).clip(old_clip)
        surface.set_clip(viewport)
        try:
            surface.fill(theme.BACKGROUND, viewport)
            key, layer = self._static_layer(board, view)
            lay = view.layout()
            at = (round(lay.x0) + key[4][0], round(lay.y0) + key[4][1])
            surface.blit(layer, at)
            if overlay.under_figures is not None:
                overlay.under_figures(surface)
            for marker in overlay.markers:
                self._draw_marker(surface, view, board, marker)
            if overlay.fov is not None:
                surface.blit(self._shade_layer(board, view, overlay.fov, key), at)
            if overlay.hover is not None and board.in_bounds(overlay.hover):
                pygame.draw.polygon(surface, theme.HOVER[:3], view.cell_polygon(overlay.hover),
                                    max(2, round(view.cell * 0.05)))
            if overlay.refused is not None and board.in_bounds(overlay.refused):
                self._fill(surface, view, overlay.refused, theme.REFUSED)
                pygame.draw.polygon(surface, theme.REFUSED_OUTLINE, view.cell_polygon(overlay.refused), 2)
            ray = overlay.ray
            lines = getattr(ray, "lines", ()) if ray is not None else ()
            for line in lines:
                for cell in getattr(line, "cells", ()):
                    self._fill(surface, view, cell, theme.BLOCKING_SQUARE_FILL)
                    pygame.draw.polygon(surface, theme.BLOCKING_SQUARE_HATCH[:3], view.cell_polygon(cell), 2)
            picture = HexPicture(board, lay, self.tokens)
            picture.draw_figures(surface, overlay, skip=overlay.dragging[0] if overlay.dragging else None)
            if overlay.start is not None:
                BoardPainter._draw_start(surface, view, overlay.start)
            if ray is not None:
                occupied = {board.grid.centre(c) for c in (ray.origin, ray.target) if board.figures_at(c)}
                self._draw_lines(surface, view, lines, overlay.scale, occupied)
            if overlay.dragging is not None and overlay.dragging[0] in board.figures:
                figure_id, (px, py) = overlay.dragging
                radius = round(picture.inner * 0.37)
                sprite = self.tokens.token(board.figure(figure_id), board.sides(), radius, picture.inner, True,
                                            board.ruleset)
                surface.blit(sprite, sprite.get_rect(center=(round(px), round(py))))
        finally:
            surface.set_clip(old_clip)

    def _fill(self, surface: pygame.Surface, view: View, cell: Cell, colour: tuple[int, ...]) -> None:
        """A see-through fill over one hex."""
        x, y, w, h = view.square_rect(cell)
        patch = pygame.Surface((max(1, w + 1), max(1, h + 1)), pygame.SRCALPHA)
        pygame.draw.polygon(patch, colour, [(px - x, py - y) for px, py in view.cell_polygon(cell)])
        surface.blit(patch, (x, y))

    def _draw_marker(self, surface: pygame.Surface, view: View, board: Board, marker: Any) -> None:
        """A map check's finding: its hex outlined (a region: its boundary), its edge drawn, its
        code on a plate above (the topmost hex, else the edge), as on squares."""
        colour = theme.marker_colour(marker.severity)
        width = max(2, round(view.cell * theme.MARKER_WIDTH))
        cells = list(marker.region or ()) if marker.region else ([marker.square] if marker.square is not None else [])
        grid = board.grid
        if marker.region and isinstance(grid, HexGrid):  # one shape: the sides facing no other of its hexes
            inside = marker.region
            for cell in cells:
                for other, side in zip(grid.around(cell), grid.edges_of(cell), strict=True):
                    if other not in inside:
                        pygame.draw.line(surface, colour, view.lattice_point(side.a), view.lattice_point(side.b), width)
        else:
            for cell in cells:
                pygame.draw.polygon(surface, colour, view.cell_polygon(cell), width)
        edge = marker.edge
        if edge is not None and hasattr(edge, "a"):
            pygame.draw.line(surface, colour, view.lattice_point(edge.a), view.lattice_point(edge.b), width + 2)
        if marker.label and view.cell >= 40 and (cells or edge is not None):  # as on squares: never tiny
            if cells:
                top = min(cells, key=lambda c: (view.square_rect(c)[1], view.square_rect(c)[0]))
                above = pygame.Rect(view.square_rect(top))
            else:
                ends = [view.lattice_point(edge.a), view.lattice_point(edge.b)]
                above = pygame.Rect(min(x for x, _ in ends), min(y for _, y in ends), 1, 1)
            self.tokens.plate_label(surface, marker.label, colour, above, round(view.cell * 4))

    @staticmethod
    def _draw_lines(surface: pygame.Surface, view: View, lines: Iterable[Any], scale: float,
                    occupied: set[tuple[int, int]] = frozenset()) -> None:  # type: ignore[assignment]
        """The lines the rule checked: a clear one green; a blocked one green up to its first
        blocker and red after it, a red dot on each corner it is blocked at; a dot on each end
        (green at the start while the line leaves clear, red at a blocked line's end), except
        on the centre of a hex a token covers (``occupied``, lattice points)."""
        width = max(2, round(max(3.0, view.cell * theme.RAY_WIDTH) * min(scale, 2.0)))
        dot = max(3, round(view.cell * theme.CORNER_DOT))
        for line in lines:
            a, b = view.lattice_point(line.start), view.lattice_point(line.end)
            pygame.draw.line(surface, theme.RAY_HALO, a, b, width + 2)
            t = getattr(line, "block_t", None)
            if line.clear:
                pygame.draw.line(surface, theme.RAY_CLEAR, a, b, width)
            elif t is None:
                pygame.draw.line(surface, theme.RAY_BLOCKED, a, b, width)
            else:
                pivot = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                if t > 0:
                    pygame.draw.line(surface, theme.RAY_CLEAR, a, pivot, width)
                pygame.draw.line(surface, theme.RAY_BLOCKED, pivot, b, width)
            ends = ((line.start, a, line.clear or (t is not None and t > 0)), (line.end, b, line.clear))
            for point, pixel, clear in ends:
                if (round(point[0]), round(point[1])) in occupied:
                    continue
                pygame.draw.circle(surface, theme.RAY_HALO, pixel, max(3, width) + 1)
                pygame.draw.circle(surface, theme.RAY_CLEAR if clear else theme.RAY_BLOCKED, pixel, max(3, width))
            for corner in getattr(line, "corners", ()):
                p = view.lattice_point(corner)
                pygame.draw.circle(surface, theme.TOKEN_OUTLINE, p, dot + 1)
                pygame.draw.circle(surface, theme.CORNER_BOTH, p, dot)


def painter_for(session: Any) -> BoardPainter | HexBoardPainter:
    """The painter of a session's board (None: no board yet): on a hex board the hex painter
    (Tiled's hex layout), else the square painter with the map's art."""
    art = getattr(session.loaded, "art", None) if session is not None else None
    if session is not None and session.board.grid.kind == "hex":
        return HexBoardPainter(art)
    return BoardPainter(art)
