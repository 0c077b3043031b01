"""Hex boards as Tiled numbers them, on an integer lattice where every sight test is exact.

Pure: no pygame, no files. A cell is ``(x, y)``, Tiled's column and row. ``staggeraxis="y"``
staggers rows (pointy-top hexes), ``"x"`` columns (flat-top hexes); ``staggerindex`` says whether
the odd or the even rows (columns) are pushed by half a hex. Sight is decided on the **regular**
hex grid of the same cells (docs/hex.md, "The lattice"), in integer lattice coordinates:

* pointy-top: the centre of ``(x, y)`` is ``X = 2x + s(y)``, ``Y = 3y`` (``s(y) = 1`` on a pushed
  row); its corners, clockwise on screen from the top, are ``(X, Y-2)``, ``(X+1, Y-1)``,
  ``(X+1, Y+1)``, ``(X, Y+2)``, ``(X-1, Y+1)``, ``(X-1, Y-1)``;
* flat-top: the same with the axes swapped (centre ``X = 3x``, ``Y = 2y + s(x)``; the corners
  are the pointy list transposed, so corner ``i`` of a cell is corner ``i`` of its transposed cell).

Side ``i`` of a cell runs from corner ``i`` to corner ``i + 1``; ``around(cell)[i]`` lies across
it. An edge is a :class:`HexEdge`, the sorted pair of its lattice end points. The pixels are only
for drawing: :class:`HexLayout` and the ``*_px`` methods place cells exactly as Tiled's hexagonal
renderer does (``tileToScreenCoords``, ``tileToScreenPolygon``, ``screenToTileCoords`` of Tiled's
``src/libtiled/hexagonalrenderer.cpp``, 1.10.1 and later).

>>> g = HexGrid(3, 3)                       # pointy-top, odd rows pushed
>>> g.centre((1, 0)), g.centre((0, 1)), g.centre((1, 2))
((2, 0), (1, 3), (2, 6))
>>> g.corners((0, 0))
((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
>>> str(g.edge_between((0, 1), (1, 1))), g.distance((0, 0), (2, 2))
('(2,2)-(2,4)', 3)
>>> HexGrid(3, 3, "x").centre((1, 0)), HexGrid(3, 3, "y", "even").centre((0, 0))
((3, 1), (1, 0))
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar, Literal

from game.core.grid import GridKind, Layout

__all__ = ["Cell", "HexEdge", "HexGrid", "HexLayout", "Point", "StaggerAxis", "StaggerIndex", "fmt_point"]

Cell = tuple[int, int]
Point = tuple[int, int]
StaggerAxis = Literal["x", "y"]
StaggerIndex = Literal["odd", "even"]

#: corners of a pointy-top cell relative to its centre, clockwise on screen from the top
_POINTY_CORNERS: tuple[Point, ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
#: centres of the six neighbours relative to a pointy-top centre, neighbour i across side i
_POINTY_NEIGHBOURS: tuple[Point, ...] = ((1, -3), (2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3))


def fmt_point(p: Point) -> str:
    """A lattice point or a cell as people write it: ``(2,-1)``.

    >>> fmt_point((2, -1))
    '(2,-1)'
    """
    return f"({p[0]},{p[1]})"


@dataclass(frozen=True, order=True)
class HexEdge:
    """One side of a hex: the sorted pair of its two lattice end points (both corners).

    >>> e = HexEdge.of((2, 4), (2, 2))
    >>> e, str(e)
    (HexEdge(a=(2, 2), b=(2, 4)), '(2,2)-(2,4)')
    """

    a: Point
    b: Point

    @staticmethod
    def of(p: Point, q: Point) -> HexEdge:
        """The edge between two lattice points, in canonical (sorted) order."""
        return HexEdge(p, q) if p <= q else HexEdge(q, p)

    def __str__(self) -> str:
        return f"{fmt_point(self.a)}-{fmt_point(self.b)}"


def _trunc_half(n: int) -> int:
    """``n / 2`` truncated toward zero, as C++ integer division does."""
    return -((-n) // 2) if n < 0 else n // 2


@dataclass(frozen=True)
class HexLayout:
    """The pixel sizes of a hex map (``tilewidth``, ``tileheight``, ``hexsidelength``). They only
    size the drawing; :meth:`params` derives Tiled's renderer parameters for a stagger axis."""

    tilewidth: int
    tileheight: int
    hexsidelength: int

    def params(self, staggeraxis: StaggerAxis) -> dict[str, int]:
        """Tiled's ``RenderParams``: side lengths and offsets, column width, row height, and the
        drawn tile size (Tiled >= 1.10.1 rounds it from the side offsets, not the map's size).
        Computed once per layout and axis (read it, never change it).

        >>> HexLayout(32, 37, 18).params("y")["row_height"]
        27
        """
        return _params(self, staggeraxis)

    def _params(self, staggeraxis: StaggerAxis) -> dict[str, int]:
        side_x = self.hexsidelength if staggeraxis == "x" else 0
        side_y = self.hexsidelength if staggeraxis == "y" else 0
        offset_x = _trunc_half(self.tilewidth - side_x)
        offset_y = _trunc_half(self.tileheight - side_y)
        column_width = offset_x + side_x
        row_height = offset_y + side_y
        return {
            "side_x": side_x, "side_y": side_y, "offset_x": offset_x, "offset_y": offset_y,
            "column_width": column_width, "row_height": row_height,
            "tile_width": column_width + offset_x, "tile_height": row_height + offset_y,
        }


@dataclass(frozen=True)
class HexGrid:
    """A ``width`` × ``height`` hex map: cell names, the lattice, neighbours, edges, distance,
    and Tiled's pixel layout. Methods take and return cells off the map too (as lattice points
    they are as good as any); :meth:`in_bounds` says which are on it."""

    width: int
    height: int
    staggeraxis: StaggerAxis = "y"
    staggerindex: StaggerIndex = "odd"
    #: the map's own Tiled pixel sizes, for drawing only (never part of a verdict or of equality)
    pixels: HexLayout | None = field(default=None, compare=False, repr=False)
    #: :attr:`parity`, kept (read for every lattice point the reader snaps)
    _par: int = field(init=False, compare=False, repr=False)

    #: the grid seam's kind (:class:`game.core.grid.Grid`): hex engines and hex rules fit
    kind: ClassVar[GridKind] = "hex"
    #: what one cell is called in messages
    noun: ClassVar[str] = "hex"

    def __post_init__(self) -> None:
        if self.staggeraxis not in ("x", "y"):
            raise ValueError(f"staggeraxis must be x or y, not {self.staggeraxis!r}")
        if self.staggerindex not in ("odd", "even"):
            raise ValueError(f"staggerindex must be odd or even, not {self.staggerindex!r}")
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a hex map needs at least one cell, not {self.width}x{self.height}")
        object.__setattr__(self, "_par", int(self.staggerindex == "even"))

    # --- the pointy frame: flat-top grids are pointy-top grids with both axes swapped ----------

    @property
    def pointy(self) -> bool:
        """True for ``staggeraxis="y"`` (pointy-top hexes, rows staggered)."""
        return self.staggeraxis == "y"

    def _t(self, p: tuple[int, int]) -> tuple[int, int]:
        """A cell or lattice point in the pointy frame (swapped on a flat-top grid; an involution)."""
        return p if self.staggeraxis == "y" else (p[1], p[0])

    def pointy_frame(self, p: tuple[int, int]) -> tuple[int, int]:
        """A cell or lattice point in the pointy frame and back (swaps the axes on a flat-top grid,
        keeps them on a pointy-top one; its own inverse). The fast paths walk in this frame."""
        return self._t(p)

    @property
    def parity(self) -> int:
        """In the pointy frame a centre ``(X, Y)`` has ``X ≡ Y/3 + parity`` (mod 2): 0 when odd
        rows (columns) are pushed, 1 when even ones are."""
        return self._par

    def pushed(self, index: int) -> bool:
        """Whether row (pointy) or column (flat) ``index`` is pushed by half a hex.

        >>> HexGrid(2, 2).pushed(1), HexGrid(2, 2, staggerindex="even").pushed(1)
        (True, False)
        """
        return bool((index & 1) ^ (self.staggerindex == "even"))

    def _centre_p(self, x: int, y: int) -> Point:
        return (2 * x + self.pushed(y), 3 * y)

    def _cell_p(self, point: Point) -> Cell | None:
        px, py = point
        if py % 3:
            return None
        y = py // 3
        rest = px - self.pushed(y)
        return None if rest % 2 else (rest // 2, y)

    # --- cells ------------------------------------------------------------------------------

    def in_bounds(self, cell: Cell) -> bool:
        """Whether ``cell`` is on the map (``0 <= x < width``, ``0 <= y < height``)."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def cells(self) -> Iterator[Cell]:
        """Every cell of the map, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def centre(self, cell: Cell) -> Point:
        """The lattice point at the centre of ``cell``."""
        return self._t(self._centre_p(*self._t(cell)))

    def cell_at(self, point: Point) -> Cell | None:
        """The cell whose centre is the lattice point ``point``, or None.

        >>> g = HexGrid(3, 3); g.cell_at((3, 3)), g.cell_at((2, 3))
        ((1, 1), None)
        """
        found = self._cell_p(self._t(point))
        return None if found is None else self._t(found)

    def corners(self, cell: Cell) -> tuple[Point, ...]:
        """The six corners of ``cell`` (corner ``i`` and ``i + 1`` bound side ``i``)."""
        cx, cy = self._centre_p(*self._t(cell))
        return tuple(self._t((cx + dx, cy + dy)) for dx, dy in _POINTY_CORNERS)

    def is_corner(self, point: Point) -> bool:
        """Whether ``point`` is a corner of some cell (on or off the map)."""
        return self._corner_p(*self._t(point))

    def _corner_p(self, px: int, py: int) -> bool:
        """:meth:`is_corner` in the pointy frame: the top corner of a cell ``2`` above its centre,
        or the bottom corner ``2`` below it."""
        kind = py % 3
        if kind == 0:
            return False
        row = (py + 2) // 3 if kind == 1 else (py - 2) // 3
        return (px - ((row & 1) ^ self._par)) % 2 == 0

    def corner_cells(self, point: Point) -> tuple[Cell, Cell, Cell]:
        """The three cells meeting at a corner (ValueError for a point that is no corner).

        >>> HexGrid(3, 3).corner_cells((2, 2))
        ((1, 0), (0, 1), (1, 1))
        """
        if not self.is_corner(point):
            raise ValueError(f"{fmt_point(point)} is not a corner of the hex lattice")
        px, py = self._t(point)
        if py % 3 == 1:  # the top corner of the cell below it
            centres = ((px, py + 2), (px - 1, py - 1), (px + 1, py - 1))
        else:  # the bottom corner of the cell above it
            centres = ((px, py - 2), (px - 1, py + 1), (px + 1, py + 1))
        found = [self._cell_p(c) for c in centres]
        return tuple(self._t(c) for c in found if c is not None)  # type: ignore[return-value]

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells on the map sharing an edge with ``cell`` (the grid seam's question).

        >>> HexGrid(3, 3).neighbours((0, 0))
        ((1, 0), (0, 1))
        """
        return tuple(c for c in self.around(cell) if self.in_bounds(c))

    def around(self, cell: Cell) -> tuple[Cell, ...]:
        """The six cells sharing an edge with ``cell`` (some may be off the map); neighbour ``i``
        lies across side ``i``.

        >>> HexGrid(3, 3).around((1, 1))
        ((2, 0), (2, 1), (2, 2), (1, 2), (0, 1), (1, 0))
        """
        cx, cy = self._centre_p(*self._t(cell))
        out = []
        for dx, dy in _POINTY_NEIGHBOURS:
            found = self._cell_p((cx + dx, cy + dy))
            assert found is not None
            out.append(self._t(found))
        return tuple(out)

    # --- edges ------------------------------------------------------------------------------

    def edges_of(self, cell: Cell) -> tuple[HexEdge, ...]:
        """The six sides of ``cell``, side ``i`` from corner ``i`` to corner ``i + 1``."""
        c = self.corners(cell)
        return tuple(HexEdge.of(c[i], c[(i + 1) % 6]) for i in range(6))

    def edge_between(self, a: Cell, b: Cell) -> HexEdge:
        """The edge shared by two neighbouring cells (ValueError otherwise)."""
        for side, other in enumerate(self.around(a)):
            if other == b:
                return self.edges_of(a)[side]
        raise ValueError(f"cells {fmt_point(a)} and {fmt_point(b)} are not neighbours")

    def edge_ends(self, edge: HexEdge) -> tuple[Point, Point]:
        """The two lattice end points (corners) of an edge."""
        return edge.a, edge.b

    def edge_cells(self, edge: HexEdge) -> tuple[Cell, Cell]:
        """The two cells on either side of an edge, sorted (ValueError for a non-edge).

        >>> HexGrid(3, 3).edge_cells(HexEdge.of((2, 2), (2, 4)))
        ((0, 1), (1, 1))
        """
        a, b = self.pointy_frame(edge.a), self.pointy_frame(edge.b)
        if (abs(a[0] - b[0]), abs(a[1] - b[1])) not in ((1, 1), (0, 2)) or not (self.is_corner(edge.a) and self.is_corner(edge.b)):
            raise ValueError(f"{edge} is not an edge of the hex lattice")
        col, row, side = self.edge_side(edge)  # the cell whose side 0, 1 or 2 it is, and across it
        x = 2 * col + ((row & 1) ^ self.parity)
        dx, dy = _POINTY_NEIGHBOURS[side]
        here, there = self._cell_p((x, 3 * row)), self._cell_p((x + dx, 3 * row + dy))
        assert here is not None and there is not None
        first, second = sorted((self._t(here), self._t(there)))
        return first, second

    # --- distance ---------------------------------------------------------------------------

    def edge_side(self, edge: HexEdge) -> tuple[int, int, int]:
        """The edge as ``(column, row, side)`` in the pointy frame: side 0, 1 or 2 (north-east,
        east, south-east) of that cell, so every edge has one name.

        >>> g = HexGrid(3, 3)
        >>> g.edge_side(g.edge_between((0, 1), (1, 1))), g.edge_side(g.edges_of((1, 0))[0])
        ((0, 1, 1), (1, 0, 0))
        """
        a, b = sorted((self.pointy_frame(edge.a), self.pointy_frame(edge.b)))
        dx, dy = b[0] - a[0], b[1] - a[1]
        side = 1 if dx == 0 else 0 if dy > 0 else 2
        cx = a[0] - 1 if side == 1 else a[0]
        cy = a[1] + (2 if side == 0 else -2 if side == 2 else 1)
        row = cy // 3
        return (cx - ((row & 1) ^ self.parity)) // 2, row, side

    def _frame_size(self) -> tuple[int, int]:
        return (self.width, self.height) if self.pointy else (self.height, self.width)

    def edge_index(self, edge: HexEdge) -> int | None:
        """A number below :attr:`edge_count` for every edge of a cell on the map (the rim's
        included), None for the others: ``3 · cell + side`` over the map's cells and a ring
        around them (:meth:`edge_side`). ValueError for a pair of points that is no edge."""
        (ax, ay), (bx, by) = self._t(edge.a), self._t(edge.b)
        if (ax, ay) > (bx, by):
            ax, ay, bx, by = bx, by, ax, ay
        dx, dy = bx - ax, by - ay
        if (dx, abs(dy)) not in ((1, 1), (0, 2)) or not (self._corner_p(ax, ay) and self._corner_p(bx, by)):
            raise ValueError(f"{edge} is not an edge of the hex lattice")
        side = 1 if dx == 0 else 0 if dy > 0 else 2  # as edge_side names it
        row = (ay + (2 if side == 0 else -2 if side == 2 else 1)) // 3
        col = ((ax - 1 if side == 1 else ax) - ((row & 1) ^ self._par)) // 2
        w, h = self._frame_size()
        if not (0 <= col < w and 0 <= row < h):  # then the cell across it must be on the map
            ndx, ndy = _POINTY_NEIGHBOURS[side]
            there = self._cell_p((2 * col + ((row & 1) ^ self._par) + ndx, 3 * row + ndy))
            if there is None or not (0 <= there[0] < w and 0 <= there[1] < h):
                return None
        return ((row + 1) * (w + 2) + col + 1) * 3 + side

    @property
    def edge_count(self) -> int:
        """Three sides for every cell of the map and of the ring around it."""
        w, h = self._frame_size()
        return 3 * (w + 2) * (h + 2)

    def cube(self, cell: Cell) -> tuple[int, int, int]:
        """Cube coordinates ``(q, r, s)``, ``q + r + s = 0`` (up to a shift fixed per grid).

        >>> HexGrid(3, 3).cube((1, 1)), HexGrid(3, 3).cube((0, 2))
        ((1, 1, -2), (-1, 2, -1))
        """
        x, y = self._t(cell)
        cx, _ = self._centre_p(x, y)
        q = (cx - y - (self.staggerindex == "even")) // 2
        return (q, y, -q - y)

    def cell_of_cube(self, cube: tuple[int, int, int]) -> Cell:
        """The cell of cube coordinates (the inverse of :meth:`cube`)."""
        q, r, _ = cube
        cx = 2 * q + r + (self.staggerindex == "even")
        found = self._cell_p((cx, 3 * r))
        assert found is not None
        return self._t(found)

    def distance(self, a: Cell, b: Cell) -> int:
        """Hex steps between two cells (cube distance)."""
        qa, ra, sa = self.cube(a)
        qb, rb, sb = self.cube(b)
        return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))

    def transposed(self) -> HexGrid:
        """The same board drawn with the other stagger axis: cell ``(x, y)`` becomes ``(y, x)``,
        every lattice point ``(X, Y)`` becomes ``(Y, X)``."""
        axis: StaggerAxis = "x" if self.staggeraxis == "y" else "y"
        return HexGrid(self.height, self.width, axis, self.staggerindex, self.pixels)

    # --- pixels, as Tiled draws them --------------------------------------------------------

    def cell_origin_px(self, cell: Cell, layout: HexLayout) -> tuple[int, int]:
        """The top-left pixel of a cell's tile box (Tiled's ``tileToScreenCoords``)."""
        p = layout.params(self.staggeraxis)
        x, y = cell
        if self.pointy:
            return x * (p["tile_width"] + p["side_x"]) + (p["column_width"] if self.pushed(y) else 0), y * p["row_height"]
        return x * p["column_width"], y * (p["tile_height"] + p["side_y"]) + (p["row_height"] if self.pushed(x) else 0)

    def cell_polygon_px(self, cell: Cell, layout: Layout | HexLayout) -> list[tuple[float, float]]:
        """The six pixel corners of a cell as Tiled draws it (``tileToScreenPolygon`` without its
        two repeated points), vertex ``i`` at lattice corner ``i``; a :class:`~game.core.grid.Layout`
        (the grid seam's) also shifts them by its ``x0``, ``y0``.

        >>> HexGrid(2, 2).cell_polygon_px((0, 1), HexLayout(14, 12, 6))[:2]
        [(14.0, 9.0), (21.0, 12.0)]
        """
        hexes, x0, y0 = _hex_layout(layout)
        p = hexes.params(self.staggeraxis)
        ox, oy = self.cell_origin_px(cell, hexes)
        sx, sy, cw, rh = p["offset_x"], p["offset_y"], p["column_width"], p["row_height"]
        tw, th = p["tile_width"], p["tile_height"]
        if self.pointy:  # top, upper right, lower right, bottom, lower left, upper left
            rel = ((cw, 0), (tw, sy), (tw, rh), (cw, th), (0, rh), (0, sy))
        else:  # left, lower left, lower right, right, upper right, upper left
            rel = ((0, sy), (sx, th), (cw, th), (tw, sy), (cw, 0), (sx, 0))
        return [(float(x0 + ox + dx), float(y0 + oy + dy)) for dx, dy in rel]

    def lattice_px(self, point: tuple[float, float], layout: Layout) -> tuple[float, float]:
        """The pixel of a lattice point (:meth:`point_px`, shifted by the layout's ``x0``, ``y0``);
        a point between lattice points (a line's drawing) by the same piecewise-linear map."""
        hexes, x0, y0 = _hex_layout(layout)
        px, py = self._point_px_float(point, hexes)
        return x0 + px, y0 + py

    def centre_px(self, cell: Cell, layout: HexLayout) -> tuple[float, float]:
        """The pixel centre of a cell: the middle of its drawn tile box."""
        p = layout.params(self.staggeraxis)
        ox, oy = self.cell_origin_px(cell, layout)
        return ox + p["tile_width"] / 2, oy + p["tile_height"] / 2

    def point_px(self, point: Point, layout: HexLayout) -> tuple[float, float]:
        """The pixel of a lattice centre or corner as Tiled draws it (other lattice points are
        placed by the same per-axis piecewise-linear map, monotone in each axis)."""
        return self._point_px_float(point, layout)

    def _point_px_float(self, point: tuple[float, float], layout: HexLayout) -> tuple[float, float]:
        """:meth:`point_px` for any point of the plane: along the staggered axis linear between
        the lattice levels ``3y - 1``, ``3y``, ``3y + 1`` (corner, centre, corner), across it
        linear (one lattice unit is half a column)."""
        p = layout.params(self.staggeraxis)
        px, py = (point[0], point[1]) if self.pointy else (point[1], point[0])
        shift = p["column_width"] if self.pointy else p["row_height"]
        step = p["row_height"] if self.pointy else p["column_width"]
        offset = p["offset_y"] if self.pointy else p["offset_x"]
        full = p["tile_height"] if self.pointy else p["tile_width"]
        y = math.floor((py + 1) / 3)  # the row whose band [3y-1, 3y+2) holds py
        k = py - 3 * y  # in [-1, 2)
        levels = ((-1.0, offset), (0.0, full / 2), (1.0, step), (2.0, step + offset))
        along = 0.0
        for (k0, v0), (k1, v1) in zip(levels, levels[1:], strict=False):
            if k0 <= k <= k1:
                along = v0 + (v1 - v0) * (k - k0)
                break
        along += y * step
        across = (px + 1) * shift
        return (across, along) if self.pointy else (along, across)

    def cell_at_px(self, x: float, y: float, layout: Layout | HexLayout) -> Cell:
        """The cell whose drawn polygon (:meth:`cell_polygon_px`) holds a pixel, boundary
        included; may be off the map. Tiled's status bar (:meth:`tiled_cell_at_px`) names the
        nearest of four centres instead, which differs near the points of squashed hexes.

        >>> g, lay = HexGrid(3, 3), HexLayout(40, 20, 10)
        >>> g.cell_at_px(38, 7, lay), g.tiled_cell_at_px(38, 7, lay)
        ((0, 0), (0, 1))
        """
        hexes, x0, y0 = _hex_layout(layout)
        x, y = x - x0, y - y0
        guess = self.tiled_cell_at_px(x, y, hexes)
        for cell in (guess, *self.around(guess)):
            if _inside(self.cell_polygon_px(cell, hexes), x, y):
                return cell
        return guess

    def tiled_cell_at_px(self, x: float, y: float, layout: HexLayout) -> Cell:
        """The cell Tiled's status bar names for a pixel (``screenToTileCoords``: the nearest of
        four candidate centres around a grid-aligned reference tile)."""
        p = layout.params(self.staggeraxis)
        even = self.staggerindex == "even"
        cw, rh, tw, th = p["column_width"], p["row_height"], p["tile_width"], p["tile_height"]
        if self.pointy:
            y -= th if even else p["offset_y"]
        else:
            x -= tw if even else p["offset_x"]
        ref_x, ref_y = _floor(x / (cw * 2)), _floor(y / (rh * 2))
        rel_x, rel_y = x - ref_x * cw * 2, y - ref_y * rh * 2
        if self.pointy:
            ref_y = ref_y * 2 + even
            top, cx = p["side_y"] // 2, tw // 2
            cy = top + rh
            centres = ((cx, top), (cx - cw, cy), (cx + cw, cy), (cx, cy + rh))
            offsets = ((0, 0), (-1, 1), (0, 1), (0, 2))
        else:
            ref_x = ref_x * 2 + even
            left, cy = p["side_x"] // 2, th // 2
            cx = left + cw
            centres = ((left, cy), (cx, cy - rh), (cx, cy + rh), (cx + cw, cy))
            offsets = ((0, 0), (1, -1), (1, 0), (2, 0))
        best = min(range(4), key=lambda i: (centres[i][0] - rel_x) ** 2 + (centres[i][1] - rel_y) ** 2)
        return ref_x + offsets[best][0], ref_y + offsets[best][1]

    def corner_at_px(self, x: float, y: float, layout: HexLayout) -> Point:
        """The lattice corner drawn nearest to a pixel (how a vertex drawn in Tiled snaps to the
        grid); ties go to the first of the cell's corners.

        >>> g, lay = HexGrid(3, 3), HexLayout(32, 37, 18)
        >>> g.corner_at_px(*g.point_px((2, 2), lay), lay)
        (2, 2)
        """
        return self.snap_px(x, y, layout)[0]

    def snap_px(self, x: float, y: float, layout: HexLayout) -> tuple[Point, tuple[float, float]]:
        """:meth:`corner_at_px` and that corner's pixel (:meth:`point_px`), found together."""
        p = layout.params(self.staggeraxis)
        across, along = (x, y) if self.pointy else (y, x)
        shift = p["column_width"] if self.pointy else p["row_height"]
        step = p["row_height"] if self.pointy else p["column_width"]
        offset = p["offset_y"] if self.pointy else p["offset_x"]
        row = math.floor(along / max(1, step))
        # the corner levels drawn nearest along the staggered axis: 3y - 1 at y*step + offset,
        # 3y + 1 at y*step + step; on each level every other lattice column is a corner
        levels = sorted([(abs(y * step + o - along), 3 * y + k, y * step + o)
                         for y in (row - 1, row, row + 1) for k, o in ((-1, offset), (1, step))])[:2]
        col = round(across / max(1, shift)) - 1
        best: tuple[float, Point, tuple[float, float]] | None = None
        for _, level, drawn in levels:
            # corners of level 3y - 1 and 3y + 1 lie on the columns of rows y - 1 and y + 1
            need = (((level + 1) // 3 + 1) & 1) ^ self._par
            for lx in ((col,) if (col - need) % 2 == 0 else (col - 1, col + 1)):
                corner = (lx, level) if self.pointy else (level, lx)
                dist = ((lx + 1) * shift - across) ** 2 + (drawn - along) ** 2
                if best is None or dist < best[0]:
                    at = (float((lx + 1) * shift), float(drawn))  # point_px of the corner, exactly
                    best = (dist, corner, at if self.pointy else (at[1], at[0]))
        assert best is not None
        return best[1], best[2]

    def size_px(self, layout: HexLayout) -> tuple[int, int]:
        """The pixel size of the whole map (Tiled's ``boundingRect`` of every cell)."""
        p = layout.params(self.staggeraxis)
        if self.pointy:
            w = self.width * (p["tile_width"] + p["side_x"]) + (p["column_width"] if self.height > 1 else 0)
            return w, self.height * p["row_height"] + p["offset_y"]
        h = self.height * (p["tile_height"] + p["side_y"]) + (p["row_height"] if self.width > 1 else 0)
        return self.width * p["column_width"] + p["offset_x"], h


@lru_cache(maxsize=64)
def _params(layout: HexLayout, staggeraxis: StaggerAxis) -> dict[str, int]:
    return layout._params(staggeraxis)


def _hex_layout(layout: Layout | HexLayout) -> tuple[HexLayout, float, float]:
    """The Tiled sizes and the pixel origin of a layout (the seam's floats rounded to Tiled's
    integer sizes: a hex map's sizes are integers)."""
    if isinstance(layout, HexLayout):
        return layout, 0.0, 0.0
    return HexLayout(round(layout.cell_w), round(layout.cell_h), round(layout.side)), layout.x0, layout.y0


def _floor(v: float) -> int:
    """``qFloor``."""
    i = int(v)
    return i - 1 if v < i else i


def _inside(polygon: list[tuple[float, float]], x: float, y: float) -> bool:
    """Whether a pixel lies in a convex polygon (either winding), its boundary included."""
    signs = set()
    for i, (ax, ay) in enumerate(polygon):
        bx, by = polygon[(i + 1) % len(polygon)]
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if cross:
            signs.add(cross > 0)
    return len(signs) <= 1
