"""The grid seam: what a board's cells, edges and corners are, in one small protocol.

Pure: no pygame, no files. A :class:`Grid` names its cells as Tiled does (``(x, y)``, column and
row from the top-left, 0-based, on square and hex maps alike, so a map's bounds are a
``width`` × ``height`` rectangle of cell names) and says how they touch: neighbours across an
edge, the two cells of an edge, the corners and the centre of a cell. Corners and centres are
points of an **integer lattice**, so every exact decision is an integer test; the pixel layout is
only for drawing.

* :class:`SquareGrid` (``kind = "square"``): an edge is :class:`~game.core.board.Edge`
  (``V(x,y)`` / ``H(x,y)``); the corner ``(x, y)`` of the grid is the lattice point ``(2x, 2y)``
  and the centre of square ``(x, y)`` is ``(2x + 1, 2y + 1)``; distance counts orthogonal steps.
* A hex grid (``kind = "hex"``, ``game/core/hexgrid.py``) implements the same protocol with the
  lattice of the hex rules (pointy-top: centre ``(2x + s(y), 3y)``).

The board holds its grid (:attr:`game.core.board.Board.grid`); the sight engines, movement reach
and the Close test ask it, so nothing outside a grid's own code assumes square edges.

>>> g = SquareGrid(3, 2)
>>> g.kind, g.neighbours((0, 0)), g.centre((1, 1)), g.corners((0, 0))
('square', ((1, 0), (0, 1)), (3, 3), ((0, 0), (2, 0), (2, 2), (0, 2)))
>>> e = g.edge_between((0, 0), (1, 0))
>>> str(e), g.edge_cells(e), g.edge_ends(e), g.distance((0, 0), (2, 1))
('V(1,0)', ((0, 0), (1, 0)), ((2, 0), (2, 2)), 3)
>>> g.cell_at_px(70.0, 10.0, Layout(32, 32)), g.cell_polygon_px((2, 0), Layout(32, 32))[0]
((2, 0), (64.0, 0.0))
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol, TypeVar

from game.core.errors import UsageError

__all__ = ["Cell", "Corner", "Edge", "EdgeT", "Grid", "GridKind", "LatticePoint", "Layout", "SquareGrid", "corner_edges"]

Cell = tuple[int, int]
#: a grid corner of the square grid, ``(x, y)`` at the top-left of square ``(x, y)``
Corner = tuple[int, int]
#: a point of the grid's integer lattice (corners and centres of cells)
LatticePoint = tuple[int, int]
GridKind = Literal["square", "hex"]
#: a grid's own edge type (:class:`Edge` on squares)
EdgeT = TypeVar("EdgeT", bound=Hashable)
_EDGE_RE = re.compile(r"^\s*([VH])\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*$")


@dataclass(frozen=True, order=True)
class Edge:
    """One unit segment of the square grid, between two orthogonally adjacent squares:
    ``V(x,y)`` is the segment ``(x,y)-(x,y+1)`` between squares ``(x-1,y)`` and ``(x,y)``,
    ``H(x,y)`` the segment ``(x,y)-(x+1,y)`` between ``(x,y-1)`` and ``(x,y)``.

    >>> Edge.between((2, 2), (3, 2))
    Edge(axis='V', x=3, y=2)
    >>> str(Edge("H", 1, 2)), Edge("H", 1, 2).squares()
    ('H(1,2)', ((1, 1), (1, 2)))
    """

    axis: Literal["V", "H"]
    x: int
    y: int

    @staticmethod
    def between(a: Cell, b: Cell) -> Edge:
        """The edge shared by two orthogonally adjacent squares (ValueError otherwise)."""
        (ax, ay), (bx, by) = a, b
        if ay == by and abs(ax - bx) == 1:
            return Edge("V", max(ax, bx), ay)
        if ax == bx and abs(ay - by) == 1:
            return Edge("H", ax, max(ay, by))
        raise ValueError(f"squares {a} and {b} are not orthogonal neighbours")

    @staticmethod
    def parse(text: str) -> Edge:
        """Read ``V(x,y)`` or ``H(x,y)``.

        >>> Edge.parse("V(2, 1)")
        Edge(axis='V', x=2, y=1)
        """
        match = _EDGE_RE.match(text)
        if not match:
            raise UsageError(f"not an edge: {text!r} (write V(x,y) or H(x,y))")
        axis: Literal["V", "H"] = "V" if match.group(1) == "V" else "H"
        return Edge(axis, int(match.group(2)), int(match.group(3)))

    def squares(self) -> tuple[Cell, Cell]:
        """The two squares this edge separates (left/right for V, above/below for H)."""
        if self.axis == "V":
            return (self.x - 1, self.y), (self.x, self.y)
        return (self.x, self.y - 1), (self.x, self.y)

    def ends(self) -> tuple[Corner, Corner]:
        """The two grid corners at the ends of this edge."""
        if self.axis == "V":
            return (self.x, self.y), (self.x, self.y + 1)
        return (self.x, self.y), (self.x + 1, self.y)

    def __str__(self) -> str:
        return f"{self.axis}({self.x},{self.y})"


def corner_edges(corner: Corner) -> tuple[Edge, Edge, Edge, Edge]:
    """The four edges that meet at a grid corner: north, east, south, west arms.

    >>> [str(e) for e in corner_edges((2, 2))]
    ['V(2,1)', 'H(2,2)', 'V(2,2)', 'H(1,2)']
    """
    x, y = corner
    return Edge("V", x, y - 1), Edge("H", x, y), Edge("V", x, y), Edge("H", x - 1, y)


@dataclass(frozen=True)
class Layout:
    """How a grid is drawn: the pixel size of one cell's box (a map's tile width and height; for
    hexes Tiled's ``tilewidth`` / ``tileheight``, with ``side`` its ``hexsidelength``) and the
    pixel where the box of cell ``(0, 0)`` starts. Floats: drawing only, never a verdict."""

    cell_w: float
    cell_h: float
    x0: float = 0.0
    y0: float = 0.0
    side: float = 0.0


class Grid(Protocol[EdgeT]):
    """A board's topology: cells named ``(x, y)`` as Tiled names them, edges between cells,
    corners and centres as integer lattice points, distance in steps, and a pixel layout.

    ``EdgeT`` is the grid's own edge type (:class:`Edge` on squares); the board keeps walls and
    doors in sets of them and never looks inside one.
    """

    @property
    def kind(self) -> GridKind:
        """``"square"`` or ``"hex"``: which engines and rule presets fit."""
        ...

    @property
    def noun(self) -> str:
        """What one cell is called in messages: ``"square"`` or ``"hex"``."""
        ...

    @property
    def width(self) -> int:
        """Cells per row."""
        ...

    @property
    def height(self) -> int:
        """Rows."""
        ...

    def in_bounds(self, cell: Cell) -> bool:
        """Whether ``cell`` is one of the map's ``width`` × ``height`` cells."""
        ...

    def cells(self) -> Iterator[Cell]:
        """Every cell in bounds, row by row."""
        ...

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells in bounds that share an edge with ``cell``."""
        ...

    def edge_between(self, a: Cell, b: Cell) -> EdgeT:
        """The edge two neighbouring cells share (ValueError when they share none)."""
        ...

    def edges_of(self, cell: Cell) -> tuple[EdgeT, ...]:
        """Every edge of ``cell``, the rim's included."""
        ...

    def edge_cells(self, edge: EdgeT) -> tuple[Cell, Cell]:
        """The two cells an edge separates (either may be out of bounds)."""
        ...

    def edge_ends(self, edge: EdgeT) -> tuple[LatticePoint, LatticePoint]:
        """The lattice points at the two ends of an edge."""
        ...

    def edge_index(self, edge: EdgeT) -> int | None:
        """A dense number for every edge on or inside the rim (``0 <= i < edge_count``), None for
        an edge outside it: the sight engines keep edge states in arrays by this number."""
        ...

    @property
    def edge_count(self) -> int:
        """How many edges :meth:`edge_index` numbers."""
        ...

    def corners(self, cell: Cell) -> tuple[LatticePoint, ...]:
        """The corners of ``cell`` as lattice points, clockwise (y grows downwards)."""
        ...

    def centre(self, cell: Cell) -> LatticePoint:
        """The centre of ``cell`` as a lattice point."""
        ...

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps from ``a`` to ``b`` across edges on an empty board."""
        ...

    def lattice_px(self, point: tuple[float, float], layout: Layout) -> tuple[float, float]:
        """The pixel of a lattice point (floats: drawing only)."""
        ...

    def cell_polygon_px(self, cell: Cell, layout: Layout) -> list[tuple[float, float]]:
        """The outline of ``cell`` in pixels, its :meth:`corners` in order."""
        ...

    def cell_at_px(self, x: float, y: float, layout: Layout) -> Cell:
        """The cell under pixel ``(x, y)`` (maybe out of bounds: ask :meth:`in_bounds`)."""
        ...


@dataclass(frozen=True)
class SquareGrid:
    """The square grid of a ``width`` × ``height`` map (see the module docstring).

    >>> g = SquareGrid(2, 1)
    >>> [str(e) for e in g.edges_of((0, 0))], g.edge_count
    (['H(0,0)', 'V(0,0)', 'V(1,0)', 'H(0,1)'], 7)
    >>> g.edge_index(Edge("V", 1, 0)), g.edge_index(Edge("H", 0, 1)), g.edge_index(Edge("V", 9, 9))
    (1, 5, None)
    """

    width: int
    height: int
    kind: GridKind = "square"
    noun: ClassVar[str] = "square"

    def in_bounds(self, cell: Cell) -> bool:
        """Whether ``cell`` lies inside the map's width × height."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def cells(self) -> Iterator[Cell]:
        """Every square, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The orthogonal neighbours in bounds: north, west, east, south."""
        x, y = cell
        return tuple(c for c in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)) if self.in_bounds(c))

    def edge_between(self, a: Cell, b: Cell) -> Edge:
        """The edge two orthogonal neighbours share (ValueError otherwise)."""
        return Edge.between(a, b)

    def edges_of(self, cell: Cell) -> tuple[Edge, ...]:
        """North, west, east and south edges of a square."""
        x, y = cell
        return Edge("H", x, y), Edge("V", x, y), Edge("V", x + 1, y), Edge("H", x, y + 1)

    def edge_cells(self, edge: Edge) -> tuple[Cell, Cell]:
        """The two squares an edge separates (left/right for ``V``, above/below for ``H``)."""
        return edge.squares()

    def edge_ends(self, edge: Edge) -> tuple[LatticePoint, LatticePoint]:
        """The lattice points at the ends of an edge: grid corner ``(x, y)`` is ``(2x, 2y)``."""
        (x1, y1), (x2, y2) = edge.ends()
        return (2 * x1, 2 * y1), (2 * x2, 2 * y2)

    def edge_index(self, edge: Edge) -> int | None:
        """``V(x, y)`` is ``y * (W + 1) + x``, ``H(x, y)`` is ``H * (W + 1) + y * W + x``; None
        off the rim (the numbering of :attr:`game.core.board.Board.sight_edge_codes`)."""
        w, h = self.width, self.height
        if edge.axis == "V":
            return edge.y * (w + 1) + edge.x if 0 <= edge.x <= w and 0 <= edge.y < h else None
        return h * (w + 1) + edge.y * w + edge.x if 0 <= edge.x < w and 0 <= edge.y <= h else None

    @property
    def edge_count(self) -> int:
        """``H * (W + 1)`` vertical plus ``(H + 1) * W`` horizontal edges."""
        return self.height * (self.width + 1) + (self.height + 1) * self.width

    def corners(self, cell: Cell) -> tuple[LatticePoint, ...]:
        """Top-left, top-right, bottom-right, bottom-left, as lattice points."""
        x, y = cell
        return (2 * x, 2 * y), (2 * x + 2, 2 * y), (2 * x + 2, 2 * y + 2), (2 * x, 2 * y + 2)

    def centre(self, cell: Cell) -> LatticePoint:
        """``(2x + 1, 2y + 1)``."""
        return 2 * cell[0] + 1, 2 * cell[1] + 1

    def distance(self, a: Cell, b: Cell) -> int:
        """Orthogonal steps (Manhattan distance), the way figures move here."""
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def lattice_px(self, point: tuple[float, float], layout: Layout) -> tuple[float, float]:
        """A lattice unit is half a cell."""
        return layout.x0 + point[0] * layout.cell_w / 2, layout.y0 + point[1] * layout.cell_h / 2

    def cell_polygon_px(self, cell: Cell, layout: Layout) -> list[tuple[float, float]]:
        """The square's four corners in pixels."""
        return [self.lattice_px(p, layout) for p in self.corners(cell)]

    def cell_at_px(self, x: float, y: float, layout: Layout) -> Cell:
        """The square whose box holds the pixel."""
        return math.floor((x - layout.x0) / layout.cell_w), math.floor((y - layout.y0) / layout.cell_h)
