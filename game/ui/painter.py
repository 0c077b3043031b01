"""The board painter: draws a :class:`~game.core.board.Board` and its overlays onto a pygame Surface.

The window (``game.ui.app``) and the headless renderer (``game.ui.render``) both draw with
:class:`BoardPainter`. It decides nothing about the rules: the ray comes from the presenter as a
:class:`~game.play.sight_calls.Ray` (or from the sight facade ``game.core.sight`` as a ``Sight``), the field of
view as a bool mask, lint findings as :class:`~game.play.findings.Marker` s.

Layers, bottom to top:

1. **static** (cached per board, ``board.geometry_version``, cell size and art): tile layers or
   the vector floor, void and blocked squares, a faint grid, walls, windows and doors;
2. lint markers, the field-of-view shade (cached per mask), the hovered / refused square;
3. what the ray touches: faint shade on closed corner sides, red hatching on blocking squares;
4. figures (token sprites cached per look), the dragged figure under the cursor;
5. the ray itself: its centre line (antialiased, green then red) with edge ticks, corner dots and
   the lesson highlight, or, for a rule decided by other lines, the lines it checked.

>>> import pygame
>>> from game.core.board import Board
>>> from game.ui.view import View
>>> surface = pygame.Surface((200, 100))
>>> view = View(viewport=(0, 0, 200, 100)); view.fit(4, 2)
>>> BoardPainter(None).draw(surface, Board.from_ascii(["....", ".~.."]), view, Overlay())
>>> surface.get_at(view.square_centre((1, 1)))[:3] == theme.VOID
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from game.core.board import Board, DoorState, Edge, Figure, Square
from game.core.sight_result import Sight
from game.play.findings import Marker
from game.play.sight_calls import Ray, RayLine
from game.ui import theme
from game.ui.art import TileArt, layer_offset, usable_tiles
from game.ui.map_picture import MapPicture
from game.ui.ray_shape import GridPoint, RayShape, ray_key, region_boundary
from game.ui.tokens import TokenArt, remember
from game.ui.view import View

if TYPE_CHECKING:
    from game.tiled import MapArt

#: a static layer bigger than this many pixels is cached for the visible region only
STATIC_BUDGET_PX = 3_000_000


@dataclass
class Overlay:
    """Everything drawn over the board that is not the board: selection, ray, FOV, markers.

    ``ray`` is anything with ``origin``, ``target``, ``block_t`` and ``drawing()`` (a presenter's
    :class:`~game.play.sight_calls.Ray`, or a ``Sight``); a ``Ray`` without a centre line is
    drawn as the lines it checked, ``scale`` strokes wide (the window's UI scale).
    ``step`` indexes ``ray.crossings`` (0-based): lesson mode highlights that crossing.
    ``fov`` is a bool ``[y, x]`` mask of visible squares; every other square is shaded.
    ``dragging`` is ``(figure id, screen position under the cursor)``.
    ``target`` and ``targets`` get the target ring: one figure (the one the ray ends on) and any
    number more (Mage Knight attacks several); :meth:`target_ids` is both together.
    """

    selected: int | None = None
    target: int | None = None
    targets: Sequence[int] = ()
    hover: Square | None = None
    ray: Ray | Sight | None = None
    step: int | None = None
    fov: np.ndarray | None = None
    refused: Square | None = None
    dragging: tuple[int, tuple[float, float]] | None = None
    markers: Sequence[Marker] = field(default_factory=tuple)
    #: the ray's start square when no figure is selected (sight from any square)
    start: Square | None = None
    #: drawn over the board, under everything else (the window's coverage heat map)
    under_figures: Callable[[pygame.Surface], None] | None = None
    #: the window's UI scale: the width of a ray's checked lines
    scale: float = 1.0

    def target_ids(self) -> tuple[int, ...]:
        """Every figure to ring as a target: ``targets`` in order, then ``target`` if new.

        >>> Overlay(target=3, targets=[5, 3]).target_ids(), Overlay(target=4).target_ids()
        ((5, 3), (4,))
        """
        ids = tuple(self.targets)
        if self.target is not None and self.target not in ids:
            ids += (self.target,)
        return ids


@dataclass
class _StaticCache:
    board: Board
    geometry_version: int
    cell: float
    region: tuple[int, int, int, int]  # x0, y0, x1, y1 in cells, end exclusive
    surface: pygame.Surface


@dataclass
class _FovCache:
    key: tuple[Any, ...]
    surface: pygame.Surface


#: the transparent colour of the regions' layer (never a marker colour)
_LAYER_KEY = (255, 0, 255)

class BoardPainter:
    """Draws boards; holds the caches (static layer, FOV shade; token sprites and text labels in
    :attr:`tokens`).

    ``art`` is the loader's ``MapArt`` (or None for the vector style). Images that fail to load
    switch to the vector style and add a line to :attr:`warnings`.
    """

    def __init__(self, art: MapArt | None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.warnings: list[str] = []
        self.tiles: TileArt | None = None
        #: a virtual-tabletop map's picture and drawing (game/ui/map_picture.py), instead of tiles
        self.picture = MapPicture.of(art)
        if self.picture is None:
            self.tiles = usable_tiles(art, self.warnings)
        self._static: _StaticCache | None = None
        self._fov: _FovCache | None = None
        #: figures' token sprites and the board's text labels (game/ui/tokens.py)
        self.tokens = TokenArt()
        self._patches: dict[tuple[Any, ...], pygame.Surface] = {}
        #: region findings' outlines (grid-line runs) and bounding boxes, per region
        self._regions: dict[
            frozenset[Square],
            tuple[list[tuple[tuple[int, int], tuple[int, int]]], tuple[int, int, int, int]],
        ] = {}
        #: the regions' outlines drawn for one view (see _blit_regions)
        self._region_layer: tuple[Any, pygame.Surface] | None = None
        self._last_ray: tuple[Ray | Sight, Board, RayShape] | None = None
        #: ray shapes by :func:`ray_key`: a dragged figure brings back the same rays
        self._ray_shapes: dict[tuple[Any, ...], RayShape] = {}

    # --- public -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, board: Board, view: View, overlay: Overlay) -> None:
        """Draw the board and the overlay into ``view.viewport`` of ``surface``."""
        old_clip = surface.get_clip()
        viewport = pygame.Rect(view.viewport).clip(old_clip)
        surface.set_clip(viewport)
        try:
            surface.fill(theme.BACKGROUND, viewport)
            region = self._blit_static(surface, board, view)
            if overlay.under_figures is not None:
                overlay.under_figures(surface)
            self._blit_regions(surface, view, overlay.markers)
            for marker in overlay.markers:
                self._draw_marker(surface, view, marker)
            if overlay.fov is not None and region is not None:
                self._blit_fov(surface, board, view, overlay.fov, region)
            if overlay.hover is not None and board.in_bounds(overlay.hover):
                self._outline_square(surface, view, overlay.hover, theme.HOVER)
            if overlay.refused is not None:
                rect = pygame.Rect(view.square_rect(overlay.refused))
                self._blend_rect(surface, theme.REFUSED, rect)
                pygame.draw.rect(surface, theme.REFUSED_OUTLINE, rect, max(2, round(view.cell * 0.05)))
            ray = self._ray_shape(overlay.ray, board) if overlay.ray is not None else None
            if ray is not None:
                self._draw_ray_squares(surface, view, ray)
            self._draw_figures(surface, board, view, overlay)
            if overlay.start is not None:
                self._draw_start(surface, view, overlay.start)
            if ray is not None and ray.centre:
                self._draw_ray(surface, board, view, ray, overlay.step)
            if ray is not None:
                self._draw_lines(surface, view, ray.lines, overlay.scale)
            if overlay.dragging is not None:
                self._draw_dragged(surface, board, view, overlay.dragging)
        finally:
            surface.set_clip(old_clip)

    def _ray_shape(self, ray: Ray | Sight, board: Board) -> RayShape:
        """The ray as drawing instructions, cached per result.

        The same result object (the window caches them per board version) is recognised by
        identity; a new result equal in what is drawn (same board geometry, ends, and blocking
        flags) by :func:`ray_key`, which costs a few microseconds where building the shape
        costs a few hundred for a long ray.
        """
        cached = self._last_ray
        if cached is not None and cached[0] is ray and cached[1] is board:
            return cached[2]
        key = ray_key(ray, board)
        shape = self._ray_shapes.get(key)
        if shape is None:
            shape = RayShape.of(ray, board)
            remember(self._ray_shapes, key, shape, limit=256)
        self._last_ray = (ray, board, shape)
        return shape

    def invalidate(self) -> None:
        """Drop the cached board pictures (the next draw rebuilds them)."""
        self._static = None
        self._fov = None
        self._region_layer = None

    # --- static layer -------------------------------------------------------------------

    def _blit_static(
        self, surface: pygame.Surface, board: Board, view: View
    ) -> tuple[int, int, int, int] | None:
        """Blit the cached static layer; returns the cached region of cells (None: nothing shows)."""
        x0, y0, x1, y1 = view.visible_cells()
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(board.width, x1), min(board.height, y1)
        if x0 >= x1 or y0 >= y1:
            return None
        cache = self._static
        if (
            cache is None
            or cache.board is not board
            or cache.geometry_version != board.geometry_version
            or cache.cell != view.cell
            or not _contains(cache.region, (x0, y0, x1, y1))
        ):
            region = self._static_region(board, view.cell, (x0, y0, x1, y1))
            cache = _StaticCache(
                board, board.geometry_version, view.cell, region,
                self._build_static(board, view.cell, region),
            )
            self._static = cache
        rx0, ry0 = cache.region[0], cache.region[1]
        ox, oy = round(view.origin[0]), round(view.origin[1])
        surface.blit(cache.surface, (ox + round(rx0 * view.cell), oy + round(ry0 * view.cell)))
        return cache.region

    @staticmethod
    def _static_region(
        board: Board, cell: float, visible: tuple[int, int, int, int]
    ) -> tuple[int, int, int, int]:
        if board.width * board.height * cell * cell <= STATIC_BUDGET_PX:
            return 0, 0, board.width, board.height
        x0, y0, x1, y1 = visible
        mx, my = max(4, (x1 - x0) // 2), max(4, (y1 - y0) // 2)
        return max(0, x0 - mx), max(0, y0 - my), min(board.width, x1 + mx), min(board.height, y1 + my)

    def _build_static(
        self, board: Board, cell: float, region: tuple[int, int, int, int]
    ) -> pygame.Surface:
        rx0, ry0, rx1, ry1 = region
        # a local view: grid corner (rx0, ry0) at pixel (0, 0)
        local = View(cell=cell, origin=(-round(rx0 * cell), -round(ry0 * cell)))
        width = round(rx1 * cell) - round(rx0 * cell)
        height = round(ry1 * cell) - round(ry0 * cell)
        out = pygame.Surface((max(1, width), max(1, height)))
        pictured = self.picture is not None and self.picture.draw_floor(out, local, region)
        if pictured:
            _mute_art(out, board, local, region)
        if self.tiles is not None:
            out.fill(theme.VOID)
            self._draw_tiles(out, board, local, region)
        elif not pictured:
            out.fill(theme.FLOOR_DARK)
            for y in range(ry0, ry1):
                for x in range(rx0 + (rx0 + y) % 2, rx1, 2):  # the light half of the checker
                    out.fill(theme.FLOOR_LIGHT, local.square_rect((x, y)))
            for sq in board.void:
                if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1:
                    out.fill(theme.VOID, local.square_rect(sq))
        door_squares = board.door_squares
        for sq in board.blocked:
            if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1 and sq not in door_squares:
                rect = pygame.Rect(local.square_rect(sq))
                if self.tiles is None and not pictured:
                    out.fill(theme.BLOCKED_FILL, rect)
                out.blit(self._hatch(rect.size, theme.BLOCKED_HATCH + (255,)), rect)
        for sq in board.impassable:
            if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1:
                rect = pygame.Rect(local.square_rect(sq))
                if self.tiles is None and not pictured:
                    out.fill(theme.IMPASSABLE_FILL, rect)
                out.blit(self._waves(rect.size), rect)
        for sq, state in door_squares.items():
            if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1:
                self._draw_door_square(out, pygame.Rect(local.square_rect(sq)), state)
        if cell >= 12:
            self._draw_grid(out, board, local, region)
        for edge in board.windows:
            if _edge_in(edge, region):
                self._draw_window(out, local, edge)
        doors = board.doors
        for edge in board.walls:
            if edge not in doors and _edge_in(edge, region):
                self._draw_wall(out, local, edge)
        for edge, door in doors.items():
            if _edge_in(edge, region):
                self._draw_door(out, local, edge, door.state)
        if self.picture is not None:
            self.picture.draw_lines(out, local)
            self.warnings.extend(w for w in self.picture.warnings if w not in self.warnings)
        return out

    def _draw_tiles(
        self, out: pygame.Surface, board: Board, local: View, region: tuple[int, int, int, int]
    ) -> None:
        assert self.tiles is not None
        rx0, ry0, rx1, ry1 = region
        cell = local.cell
        background = self.tiles.background
        for y in range(ry0, ry1):
            for x in range(rx0, rx1):
                if not board.is_void((x, y)):
                    out.fill(background or theme.FLOOR_DARK, local.square_rect((x, y)))
        art = self.tiles.art
        sx, sy = cell / max(1, art.tile_width), cell / max(1, art.tile_height)
        for layer in self.tiles.layers():
            gids = np.asarray(layer.gids)
            opacity = float(getattr(layer, "opacity", 1.0))
            if opacity <= 0:
                continue
            lox, loy = layer_offset(layer)
            dx_layer, dy_layer = round(lox * sx), round(loy * sy)
            # tiles taller than a cell reach up: include a few rows below the region
            sub = gids[ry0:min(ry1 + 4, gids.shape[0]), max(0, rx0 - 2):rx1]
            ys, xs = np.nonzero(sub)
            for yy, xx in zip(ys.tolist(), xs.tolist(), strict=True):
                gx, gy = xx + max(0, rx0 - 2), yy + ry0
                placed = self.tiles.tile(int(sub[yy, xx]), cell, opacity)
                if placed is None:
                    continue
                image, dx, dy = placed
                px, py = local.pixel(gx, gy)
                out.blit(image, (px + dx + dx_layer, py + dy + dy_layer))
        _mute_art(out, board, local, region)

    def _draw_grid(
        self, out: pygame.Surface, board: Board, local: View, region: tuple[int, int, int, int]
    ) -> None:
        rx0, ry0, rx1, ry1 = region
        grid = pygame.Surface(out.get_size(), pygame.SRCALPHA)
        top, bottom = local.pixel(0, ry0)[1], local.pixel(0, ry1)[1]
        left, right = local.pixel(rx0, 0)[0], local.pixel(rx1, 0)[0]
        for x in range(rx0, rx1 + 1):
            px = local.pixel(x, 0)[0]
            pygame.draw.line(grid, theme.GRID_LINE, (px, top), (px, bottom))
        for y in range(ry0, ry1 + 1):
            py = local.pixel(0, y)[1]
            pygame.draw.line(grid, theme.GRID_LINE, (left, py), (right, py))
        out.blit(grid, (0, 0))
        for sq in board.void:  # no grid over the void
            if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1:
                out.fill(theme.VOID, local.square_rect(sq))

    @staticmethod
    def _edge_pixels(view: View, edge: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
        a, b = edge.ends()
        return view.pixel(*a), view.pixel(*b)

    def _draw_wall(self, out: pygame.Surface, view: View, edge: Edge) -> None:
        width = max(3, round(view.cell * theme.WALL_WIDTH))
        a, b = self._edge_pixels(view, edge)
        half = width // 2
        if edge.axis == "V":
            rect = pygame.Rect(a[0] - half, a[1] - half, width, b[1] - a[1] + width)
        else:
            rect = pygame.Rect(a[0] - half, a[1] - half, b[0] - a[0] + width, width)
        out.fill(theme.WALL, rect)

    def _draw_window(self, out: pygame.Surface, view: View, edge: Edge) -> None:
        a, b = self._edge_pixels(view, edge)
        gap = max(2, round(view.cell * theme.WINDOW_GAP / 2))
        thin = max(1, round(view.cell * 0.03))
        for side in (-gap, gap):
            if edge.axis == "V":
                pygame.draw.line(out, theme.WINDOW, (a[0] + side, a[1]), (b[0] + side, b[1]), thin)
            else:
                pygame.draw.line(out, theme.WINDOW, (a[0], a[1] + side), (b[0], b[1] + side), thin)

    def _door_rect(self, view: View, edge: Edge) -> pygame.Rect:
        a, b = self._edge_pixels(view, edge)
        length = max(4, round(view.cell * theme.DOOR_LENGTH))
        thick = max(4, round(view.cell * theme.DOOR_WIDTH))
        mx, my = (a[0] + b[0]) // 2, (a[1] + b[1]) // 2
        if edge.axis == "V":
            return pygame.Rect(mx - thick // 2, my - length // 2, thick, length)
        return pygame.Rect(mx - length // 2, my - thick // 2, length, thick)

    def _draw_door(self, out: pygame.Surface, view: View, edge: Edge, state: DoorState) -> None:
        rect = self._door_rect(view, edge)
        outline = max(1, round(view.cell * 0.03))
        if state is DoorState.OPEN:
            # the empty frame, and the leaf swung 90° into the second square from its hinge
            pygame.draw.rect(out, theme.DOOR_OPEN, rect, max(1, outline))
            thick = max(3, round(view.cell * theme.DOOR_WIDTH * 0.5))
            if edge.axis == "V":
                hinge = (rect.centerx, rect.top)
                leaf = pygame.Rect(hinge[0], hinge[1] - thick // 2, rect.height, thick)
            else:
                hinge = (rect.left, rect.centery)
                leaf = pygame.Rect(hinge[0] - thick // 2, hinge[1], thick, rect.width)
            out.fill(theme.DOOR_OPEN, leaf)
            pygame.draw.rect(out, theme.DOOR_OUTLINE, leaf, 1)
            return
        colour = theme.DOOR_LOCKED if state is DoorState.LOCKED else theme.DOOR_CLOSED
        out.fill(colour, rect)
        pygame.draw.rect(out, theme.DOOR_OUTLINE, rect, outline)
        if state is DoorState.LOCKED:
            plate = max(3, round(min(rect.width, rect.height) * 0.7))
            lock = pygame.Rect(0, 0, plate, plate)
            lock.center = rect.center
            out.fill(theme.LOCK_MARK, lock)
            pygame.draw.rect(out, theme.DOOR_OUTLINE, lock, 1)
            if view.cell >= 40:  # crossed bars beside the plate: "locked" at a glance
                if edge.axis == "V":
                    ends = ((rect.left, rect.top + 3), (rect.right, lock.top - 2))
                    ends2 = ((rect.left, lock.bottom + 2), (rect.right, rect.bottom - 3))
                else:
                    ends = ((rect.left + 3, rect.top), (lock.left - 2, rect.bottom))
                    ends2 = ((lock.right + 2, rect.top), (rect.right - 3, rect.bottom))
                for (p, q) in (ends, ends2):
                    pygame.draw.line(out, theme.DOOR_OUTLINE, p, q, 2)
                    pygame.draw.line(out, theme.DOOR_OUTLINE, (p[0], q[1]), (q[0], p[1]), 2)

    # --- FOV ----------------------------------------------------------------------------

    def _blit_fov(
        self,
        surface: pygame.Surface,
        board: Board,
        view: View,
        fov: np.ndarray,
        region: tuple[int, int, int, int],
    ) -> None:
        mask = np.asarray(fov, dtype=bool)
        key = (mask.shape, mask.tobytes(), view.cell, region, board.width, board.height)
        cache = self._fov
        if cache is None or cache.key != key:
            cache = _FovCache(key, self._build_fov(board, view.cell, mask, region))
            self._fov = cache
        ox, oy = round(view.origin[0]), round(view.origin[1])
        rx0, ry0 = region[0], region[1]
        surface.blit(cache.surface, (ox + round(rx0 * view.cell), oy + round(ry0 * view.cell)))

    @staticmethod
    def _build_fov(
        board: Board, cell: float, mask: np.ndarray, region: tuple[int, int, int, int]
    ) -> pygame.Surface:
        """The shade over the hidden squares of ``region``: one fill per run of hidden squares."""
        rx0, ry0, rx1, ry1 = region
        local = View(cell=cell, origin=(-round(rx0 * cell), -round(ry0 * cell)))
        width = round(rx1 * cell) - round(rx0 * cell)
        height = round(ry1 * cell) - round(ry0 * cell)
        out = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
        out.fill((0, 0, 0, 0))
        hidden = np.ones((board.height, board.width), dtype=bool)
        h, w = min(board.height, mask.shape[0]), min(board.width, mask.shape[1])
        hidden[:h, :w] = ~mask[:h, :w]
        for y in range(ry0, ry1):
            row = hidden[y, rx0:rx1]
            if not row.any():
                continue
            edges = np.flatnonzero(np.diff(np.concatenate(([0], row.view(np.int8), [0]))))
            for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
                x0, y0 = local.pixel(rx0 + start, y)
                x1, y1 = local.pixel(rx0 + stop, y + 1)
                out.fill(theme.FOV_HIDDEN_SHADE, (x0, y0, x1 - x0, y1 - y0))
        return out

    # --- figures ------------------------------------------------------------------------

    def _draw_figures(
        self, surface: pygame.Surface, board: Board, view: View, overlay: Overlay
    ) -> None:
        dragged = overlay.dragging[0] if overlay.dragging is not None else None
        targets = set(overlay.target_ids())
        hidden = np.asarray(overlay.fov, dtype=bool) if overlay.fov is not None else None
        sides = board.sides()
        x0, y0, x1, y1 = view.visible_cells()
        squares: dict[Square, list[Figure]] = {}
        for figure in board.figures.values():
            fx, fy = figure.square
            if figure.id == dragged:
                continue  # it follows the cursor (_draw_dragged): no copy left behind, and the
                # figures of the square it is over keep their places and sizes
            if x0 - 1 <= fx <= x1 and y0 - 1 <= fy <= y1:
                squares.setdefault(figure.square, []).append(figure)
        for sq, figures in squares.items():
            for figure, (cx, cy), radius in self._token_places(view, sq, len(figures), figures):
                sprite = self.tokens.token(
                    figure, sides, radius, view.cell, len(figures) == 1, board.ruleset
                )
                if hidden is not None and _hidden(hidden, sq):
                    sprite = self.tokens.dim(sprite)
                surface.blit(sprite, sprite.get_rect(center=(cx, cy)))
                ring = None
                if figure.id == overlay.selected:
                    ring = theme.SELECT_RING
                elif figure.id in targets:
                    ring = theme.TARGET_RING
                if ring is not None:
                    width = max(2, round(view.cell * theme.RING_WIDTH))
                    pygame.draw.circle(surface, ring, (cx, cy), radius + width + 1, width)

    @staticmethod
    def _draw_start(surface: pygame.Surface, view: View, square: Square) -> None:
        """The ray's start without a figure: a ringed eye-dot in the square's middle."""
        cx, cy = view.square_centre(square)
        radius = max(4, round(view.cell * 0.22))
        width = max(2, round(view.cell * theme.RING_WIDTH))
        pygame.draw.circle(surface, theme.TOKEN_OUTLINE, (cx, cy), radius + width)
        pygame.draw.circle(surface, theme.SELECT_RING, (cx, cy), radius + width, width)
        pygame.draw.circle(surface, theme.SELECT_RING, (cx, cy), max(2, radius // 3))

    @staticmethod
    def _token_places(
        view: View, sq: Square, count: int, figures: Sequence[Figure]
    ) -> list[tuple[Figure, tuple[int, int], int]]:
        cell = view.cell
        if count == 1:
            return [(figures[0], view.square_centre(sq), max(3, round(cell * theme.TOKEN_RADIUS)))]
        if count == 2:
            radius = max(3, round(cell * 0.22))
            offsets = [(0.27, 0.5), (0.73, 0.5)]
        else:
            radius = max(2, round(cell * 0.19))
            columns = math.ceil(math.sqrt(count))
            rows = math.ceil(count / columns)
            offsets = [
                ((i % columns + 0.5) / columns, (i // columns + 0.5) / rows) for i in range(count)
            ]
        return [
            (figure, view.pixel(sq[0] + ox, sq[1] + oy), radius)
            for figure, (ox, oy) in zip(figures, offsets, strict=False)
        ]

    def _draw_dragged(
        self,
        surface: pygame.Surface,
        board: Board,
        view: View,
        dragging: tuple[int, tuple[float, float]],
    ) -> None:
        figure_id, (px, py) = dragging
        if figure_id not in board.figures:
            return
        figure = board.figure(figure_id)
        radius = max(3, round(view.cell * theme.TOKEN_RADIUS * 1.08))
        sprite = self.tokens.token(figure, board.sides(), radius, view.cell, True, board.ruleset)
        surface.blit(sprite, sprite.get_rect(center=(round(px), round(py))))

    # --- the ray ------------------------------------------------------------------------

    def _draw_ray_squares(self, surface: pygame.Surface, view: View, ray: RayShape) -> None:
        for sq, colour in ray.side_shades():
            self._blend_rect(surface, colour, pygame.Rect(view.square_rect(sq)))
        for sq in ray.blocking_squares:
            rect = pygame.Rect(view.square_rect(sq))
            self._blend_rect(surface, theme.BLOCKING_SQUARE_FILL, rect)
            surface.blit(self._hatch(rect.size, theme.BLOCKING_SQUARE_HATCH), rect)

    def _draw_ray(
        self, surface: pygame.Surface, board: Board, view: View, ray: RayShape, step: int | None
    ) -> None:
        cell = view.cell
        start = _screen(view, ray.start)
        end = _screen(view, ray.end)
        if start == end:
            return
        width = max(3, round(cell * theme.RAY_WIDTH))
        # start the line at the rim of the viewer's token so its label stays readable
        trim = cell * theme.TOKEN_RADIUS * 0.92 if board.figures_at(ray.origin) else 0.0
        length = math.dist(start, end)
        t_start = min(0.5, trim / length) if length else 0.0
        trim_end = cell * theme.TOKEN_RADIUS * 0.92 if board.figures_at(ray.target) else 0.0
        t_end = max(0.5, 1 - trim_end / length) if length else 1.0
        t_block = ray.block_t
        a = _lerp(start, end, t_start)
        end = _lerp(start, end, t_end)
        pygame.draw.line(surface, theme.RAY_HALO, _round(a), _round(end), width + 2)
        if t_block is None:
            pygame.draw.aaline(surface, theme.RAY_CLEAR, a, end, width)
        else:
            pivot = _lerp(start, end, min(max(t_block, t_start), t_end))
            if t_block > t_start:
                pygame.draw.aaline(surface, theme.RAY_CLEAR, a, pivot, width)
            pygame.draw.aaline(surface, theme.RAY_BLOCKED, pivot, end, width)
        end_colour = theme.RAY_CLEAR if t_block is None else theme.RAY_BLOCKED
        if not trim_end:
            pygame.draw.circle(surface, theme.RAY_HALO, _round(end), max(3, round(cell * 0.09)) + 1)
            pygame.draw.circle(surface, end_colour, _round(end), max(3, round(cell * 0.09)))
        tick = max(4, round(cell * theme.TICK_LENGTH / 2))
        tick_width = max(2, round(cell * 0.04))
        for edge_point, blocks, axis in ray.edge_ticks:
            x, y = _screen(view, edge_point)
            colour = theme.EDGE_TICK_BLOCKING if blocks else theme.EDGE_TICK
            if axis == "V":
                p, q = (x, y - tick), (x, y + tick)
            else:
                p, q = (x - tick, y), (x + tick, y)
            pygame.draw.line(surface, theme.TOKEN_OUTLINE, p, q, tick_width + 2)
            pygame.draw.line(surface, colour, p, q, tick_width)
        dot = max(3, round(cell * theme.CORNER_DOT))
        for corner, closed in ray.corner_dots:
            colour = (theme.CORNER_OPEN, theme.CORNER_ONE_SIDE, theme.CORNER_BOTH)[min(closed, 2)]
            centre = view.pixel(*corner)
            pygame.draw.circle(surface, theme.TOKEN_OUTLINE, centre, dot + 1)
            pygame.draw.circle(surface, colour, centre, dot)
        if step is not None:
            self._draw_step(surface, view, ray, step)

    @staticmethod
    def _draw_lines(surface: pygame.Surface, view: View, lines: Sequence[RayLine], scale: float) -> None:
        """The lines a rule decided by (not by the centre line) checked: green clear, red blocked."""
        width = max(2, round(3 * scale))
        for line in lines:
            p, q = view.to_screen(*line.start), view.to_screen(*line.end)
            pygame.draw.line(surface, theme.RULE_LINE_CLEAR if line.clear else theme.RULE_LINE_BLOCKED, p, q, width)

    def _draw_step(self, surface: pygame.Surface, view: View, ray: RayShape, step: int) -> None:
        if not 0 <= step < len(ray.steps):
            return
        kind, where = ray.steps[step]
        cell = view.cell
        width = max(3, round(cell * theme.STEP_WIDTH))
        if kind == "edge" and isinstance(where, Edge):
            a, b = self._edge_pixels(view, where)
            pygame.draw.line(surface, theme.STEP_HIGHLIGHT, a, b, width)
        elif kind == "corner":
            pygame.draw.circle(
                surface, theme.STEP_HIGHLIGHT, view.pixel(*where), max(6, round(cell * 0.22)), width
            )
        elif kind == "square":
            rect = pygame.Rect(view.square_rect(where)).inflate(-width, -width)
            pygame.draw.rect(surface, theme.STEP_HIGHLIGHT, rect, width)
        point = ray.step_points[step]
        if point is not None:
            pygame.draw.circle(
                surface, theme.STEP_HIGHLIGHT, _round(_screen(view, point)), max(6, round(cell * 0.16)), width
            )

    # --- markers and small helpers ------------------------------------------------------

    def _draw_marker(self, surface: pygame.Surface, view: View, marker: Marker) -> None:
        colour = theme.marker_colour(marker.severity)
        width = max(3, round(view.cell * theme.MARKER_WIDTH))
        rect: pygame.Rect | None = None
        if marker.region:  # the outline is on the regions' layer (_blit_regions): the label here
            if marker.square is None:
                return
            rect = pygame.Rect(view.square_rect(marker.square)).inflate(-2, -2)
            self._draw_marker_label(surface, view, marker, colour, rect)
            return
        if marker.edge is not None:
            a, b = self._edge_pixels(view, marker.edge)
            pad = max(4, round(view.cell * 0.15))
            rect = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]), abs(b[1] - a[1]))
            rect.inflate_ip(2 * pad, 2 * pad)
        elif marker.square is not None:
            rect = pygame.Rect(view.square_rect(marker.square)).inflate(-2, -2)
        if rect is None:
            return
        pygame.draw.rect(surface, colour, rect, width, border_radius=max(2, width))
        self._draw_marker_label(surface, view, marker, colour, rect)

    def _blit_regions(self, surface: pygame.Surface, view: View, markers: Sequence[Marker]) -> None:
        """Every region finding's outline (the edges between its squares and the others, merged
        into runs: a 1,000-square region is a few hundred lines, not 1,000 boxes), drawn once
        per view onto a colour-keyed layer and blitted each frame (hovering never redraws them)."""
        regions = tuple((m.region, m.severity) for m in markers if m.region)
        if not regions:
            return
        viewport = pygame.Rect(view.viewport)
        key = (regions, view.cell, view.origin, viewport.size)
        cached = self._region_layer
        if cached is None or cached[0] != key:
            layer = pygame.Surface(viewport.size)
            layer.fill(_LAYER_KEY)
            layer.set_colorkey(_LAYER_KEY, pygame.RLEACCEL)
            width = max(2, round(view.cell * theme.MARKER_WIDTH))
            left, top = view.to_grid(viewport.x, viewport.y)
            right, bottom = view.to_grid(viewport.right, viewport.bottom)
            for region, severity in regions:
                runs, (x0, y0, x1, y1) = self._region_runs(region)
                if x1 < left or x0 > right or y1 < top or y0 > bottom:
                    continue  # off the view
                colour = theme.marker_colour(severity)
                for (ax, ay), (bx, by) in runs:
                    a = _round(view.to_screen(ax, ay))
                    b = _round(view.to_screen(bx, by))
                    pygame.draw.line(layer, colour, (a[0] - viewport.x, a[1] - viewport.y),
                                     (b[0] - viewport.x, b[1] - viewport.y), width)
            cached = self._region_layer = (key, layer)
        surface.blit(cached[1], viewport.topleft)

    def _region_runs(
        self, region: frozenset[Square]
    ) -> tuple[list[tuple[tuple[int, int], tuple[int, int]]], tuple[int, int, int, int]]:
        """A region's outline runs and its bounding box in grid lines (cached per region)."""
        found = self._regions.get(region)
        if found is None:
            xs = [x for x, _ in region]
            ys = [y for _, y in region]
            found = (region_boundary(region), (min(xs), min(ys), max(xs) + 1, max(ys) + 1))
            remember(self._regions, region, found, limit=4096)
        return found

    def _draw_marker_label(
        self, surface: pygame.Surface, view: View, marker: Marker, colour: tuple[int, ...], rect: pygame.Rect
    ) -> None:
        if marker.label and view.cell >= 40:  # never tiny: on a dark plate, or no label
            self.tokens.plate_label(surface, marker.label, colour, rect, round(view.cell * 4))

    def _outline_square(
        self, surface: pygame.Surface, view: View, sq: Square, colour: tuple[int, ...]
    ) -> None:
        rect = pygame.Rect(view.square_rect(sq))
        key = ("outline", rect.size, colour)
        patch = self._patches.get(key)
        if patch is None:
            patch = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(patch, colour, patch.get_rect(), max(2, round(view.cell * 0.05)))
            remember(self._patches, key, patch)
        surface.blit(patch, rect)

    def _blend_rect(self, surface: pygame.Surface, colour: tuple[int, ...], rect: pygame.Rect) -> None:
        key = ("fill", rect.size, colour)
        patch = self._patches.get(key)
        if patch is None:
            patch = pygame.Surface(rect.size, pygame.SRCALPHA)
            patch.fill(colour)
            remember(self._patches, key, patch)
        surface.blit(patch, rect)

    def _waves(self, size: tuple[int, int]) -> pygame.Surface:
        """Three rows of waves: an impassable square (figures cannot enter, sight crosses)."""
        key = ("waves", size)
        patch = self._patches.get(key)
        if patch is None:
            w, h = size
            patch = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
            thick = max(1, round(h / 20))
            amp, period = max(1, h / 16), max(4, w / 3)
            for row in (0.3, 0.55, 0.8):
                points = [(x, h * row + amp * (1 if (x // (period / 2)) % 2 else -1) * 0.5)
                          for x in range(0, w + 1, max(1, int(period / 4)))]
                if len(points) > 1:
                    pygame.draw.lines(patch, theme.IMPASSABLE_WAVE + (230,), False, points, thick)
            remember(self._patches, key, patch)
        return patch

    def _draw_door_square(self, out: pygame.Surface, rect: pygame.Rect, state: DoorState) -> None:
        """A door drawn as a square (a roguelike's door tile): a leaf in a frame, shut (solid),
        open (the empty frame, the leaf folded against its side) or locked (dark, with a plate)."""
        cell = rect.width
        outline = max(1, round(cell * 0.04))
        frame = rect.inflate(-round(cell * 0.3), -round(cell * 0.16))
        if state is DoorState.OPEN:
            pygame.draw.rect(out, theme.DOOR_OUTLINE, frame, outline)
            leaf = pygame.Rect(frame.left, frame.top, max(2, round(frame.width * 0.2)), frame.height)
            out.fill(theme.DOOR_OPEN, leaf)
            pygame.draw.rect(out, theme.DOOR_OUTLINE, leaf, 1)
            return
        colour = theme.DOOR_LOCKED if state is DoorState.LOCKED else theme.DOOR_CLOSED
        out.fill(colour, frame)
        pygame.draw.rect(out, theme.DOOR_OUTLINE, frame, outline)
        if state is DoorState.LOCKED:
            plate = pygame.Rect(0, 0, max(3, round(cell * 0.2)), max(3, round(cell * 0.2)))
            plate.center = frame.center
            out.fill(theme.LOCK_MARK, plate)
            pygame.draw.rect(out, theme.DOOR_OUTLINE, plate, 1)
        else:  # the handle
            pygame.draw.circle(out, theme.DOOR_OUTLINE,
                               (frame.right - max(2, round(frame.width * 0.2)), frame.centery),
                               max(1, round(cell * 0.05)))

    def _hatch(self, size: tuple[int, int], colour: tuple[int, ...]) -> pygame.Surface:
        key = ("hatch", size, colour)
        patch = self._patches.get(key)
        if patch is None:
            w, h = size
            patch = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
            spacing = max(4, round(max(w, h) / 5))
            thick = max(1, round(max(w, h) / 24))
            for k in range(-h, w + h, spacing):
                pygame.draw.line(patch, colour, (k, h), (k + h, 0), thick)
            remember(self._patches, key, patch)
        return patch



def _mute_art(out: pygame.Surface, board: Board, local: View, region: tuple[int, int, int, int]) -> None:
    """Mute the art (tiles, a map's picture) so the overlays read first; void stays dark."""
    rx0, ry0, rx1, ry1 = region
    wash = pygame.Surface(out.get_size(), pygame.SRCALPHA)
    wash.fill(theme.ART_WASH)
    out.blit(wash, (0, 0))
    for sq in board.void:
        if rx0 <= sq[0] < rx1 and ry0 <= sq[1] < ry1:
            out.fill(theme.VOID, local.square_rect(sq))


def _screen(view: View, point: GridPoint) -> tuple[float, float]:
    return (
        round(view.origin[0]) + point[0] * view.cell,
        round(view.origin[1]) + point[1] * view.cell,
    )


def _round(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0]), round(point[1])


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _contains(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def _edge_in(edge: Edge, region: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = region
    return x0 - 1 <= edge.x <= x1 and y0 - 1 <= edge.y <= y1


def _hidden(mask: np.ndarray, sq: Square) -> bool:
    """Whether a square lies outside the field of view mask (``[y, x]``, True = seen)."""
    x, y = sq
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and not bool(mask[y, x])
