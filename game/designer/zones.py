"""Deployment zones and the board's symmetries, for the balance report (pure).

**Zones.** A map marks where each side deploys with objects of class ``deploy`` (or ``spawn``)
carrying a string property ``side``: rectangles, ellipses or polygons covering the squares whose
centres they hold (the same tracing as blocked and void areas), several objects of one side
adding up (on a hex map, the hexes whose drawn centres they hold, on Tiled's pixel layout).
A map without such objects takes each side's figures' squares as its zone. A
square a figure cannot stand on (void, blocked terrain) is never part of a zone.

**Symmetries.** Those of the board's **on-board cells** (every cell but void), not of the map's
rectangle: a playing area made symmetric by void cells around it has its own. The eight
reflections and rotations of a square grid (the four rotations and four reflections of a square;
of an oblong the half turn and the two mirrors). On a hex grid the twelve of the hex lattice (six
rotations, six reflections), computed in cube coordinates
(:meth:`~game.core.hexgrid.HexGrid.cube`). Each is taken about the centroid of the on-board cells
(a symmetry of a finite set fixes it) and kept only where the shift that fixes it is whole and
it maps those cells onto themselves (integers only) — on hexes under Tiled's offset layout (its
stagger axis and index): on a full map with rows staggered, the left-right mirror never does,
the half turn only with an even number of rows, the top-bottom mirror only with an odd one.
:func:`swaps` finds those that map one zone exactly onto the other and back.

>>> from game.core.board import Board, Figure
>>> board = Board(6, 3)
>>> board.place_figure(Figure(1, "A", "red", (0, 1)))
>>> board.place_figure(Figure(2, "B", "blue", (5, 1)))
>>> first, second = zones_from(board, {})
>>> first.side, sorted(first.squares), second.source
('blue', [(5, 1)], 'figures')
>>> [t.name for t in swaps(board, first, second)]
['mirror left-right', 'half turn']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from game.core.board import Board, Square, fmt_square
from game.core.errors import UsageError
from game.core.hexgrid import HexGrid
from game.rules.reach import cell_noun

if TYPE_CHECKING:
    from game.tiled import ObjectInfo

#: the object role of a deployment zone (classes ``deploy`` and ``spawn``)
ZONE_ROLE = "deploy"


@dataclass(frozen=True)
class Zone:
    """Where one side deploys: its squares and where they came from (``objects`` or ``figures``)."""

    side: str
    squares: frozenset[Square]
    source: str
    object_ids: tuple[int, ...] = ()

    def mask(self, board: Board) -> np.ndarray:
        """Bool ``[y, x]`` of the zone's squares."""
        out = np.zeros((board.height, board.width), dtype=bool)
        for x, y in self.squares:
            out[y, x] = True
        return out

    def as_json(self) -> dict[str, object]:
        """``{"side", "source", "objects", "squares": [[x, y], ...]}`` (row by row)."""
        return {"side": self.side, "source": self.source, "objects": list(self.object_ids),
                "squares": [list(sq) for sq in sorted(self.squares, key=lambda s: (s[1], s[0]))]}


def _standable(board: Board, sq: Square) -> bool:
    return board.on_board(sq) and not board.is_blocked_terrain(sq)


def zones_from(board: Board, objects: Mapping[int, ObjectInfo]) -> list[Zone]:
    """Every side's zone, sides sorted by name: from the map's ``deploy`` objects (and ``spawn``
    objects with a ``side``; a ``spawn`` without one is another project's and left alone) when
    it has any, else from the figures. UsageError when fewer than two sides have a zone."""
    marked: dict[str, set[Square]] = {}
    ids: dict[str, list[int]] = {}
    for obj in objects.values():
        side = str(obj.properties.get("side", "") or "").strip()
        spawn = obj.class_name.strip().lower() == "spawn" and bool(side)  # a spawn point of a side
        if obj.role != ZONE_ROLE and not spawn:
            continue
        if not side:
            raise UsageError(f"deploy object {obj.id} has no side: give it a string property side")
        cells = zone_cells(board, obj)
        marked.setdefault(side, set()).update(sq for sq in cells if _standable(board, sq))
        ids.setdefault(side, []).append(obj.id)
    if marked:
        zones = [Zone(side, frozenset(sq), "objects", tuple(ids[side])) for side, sq in sorted(marked.items())]
    else:
        by_side: dict[str, set[Square]] = {}
        for figure in board.figures.values():
            by_side.setdefault(figure.side, set()).add(figure.square)
        zones = [Zone(side, frozenset(sq), "figures") for side, sq in sorted(by_side.items())]
    zones = [z for z in zones if z.squares]
    if len(zones) < 2:
        found = ", ".join(z.side for z in zones) or "none"
        raise UsageError(
            f"the balance report needs two sides with a deployment zone (found: {found}); draw "
            "objects of class deploy with a property side, or place figures of two sides"
        )
    return zones


def zone_cells(board: Board, obj: ObjectInfo) -> set[Square]:
    """The cells a zone object covers: on squares those whose centres its shape holds
    (:func:`game.tiled.geometry.cells_inside`), on hexes those whose drawn centres it holds
    (:func:`game.tiled.hex_derive.hex_cells_inside`, Tiled's pixel layout of the map): the
    tracing of blocked and void areas."""
    grid = board.grid
    if isinstance(grid, HexGrid):
        from game.tiled.hex_derive import hex_cells_inside

        if grid.pixels is None:  # a board read from a map always has them
            raise UsageError(f"deploy object {obj.id}: the hex board has no pixel sizes to place it with")
        return hex_cells_inside(obj, grid, grid.pixels)
    from game.tiled.geometry import cells_inside

    return cells_inside(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.skewed,
                        (board.width, board.height))


@dataclass(frozen=True)
class Symmetry:
    """One reflection or rotation of the board: its name and the cell it sends each cell to."""

    name: str
    apply: Callable[[Square], Square]

    def edge(self, board: Board, edge: Any) -> Any:
        """The edge between the images of the two cells ``edge`` separates (the board's grid's)."""
        a, b = board.grid.edge_cells(edge)
        return board.grid.edge_between(self.apply(a), self.apply(b))


#: the square grid's reflections and rotations other than the identity, as linear maps of
#: ``(x, y)`` (x right, y down): each new coordinate is ``(sign, index)`` of an old one
_SQUARE_MAPS: tuple[tuple[str, tuple[tuple[int, int], tuple[int, int]]], ...] = (
    ("mirror left-right", ((-1, 0), (1, 1))),
    ("mirror top-bottom", ((1, 0), (-1, 1))),
    ("half turn", ((-1, 0), (-1, 1))),
    ("quarter turn", ((-1, 1), (1, 0))),
    ("three-quarter turn", ((1, 1), (-1, 0))),
    ("mirror on the main diagonal", ((1, 1), (1, 0))),
    ("mirror on the other diagonal", ((-1, 1), (-1, 0))),
)


def _fixing_shift(total: tuple[int, ...], image: tuple[int, ...], n: int) -> tuple[int, ...] | None:
    """The whole shift ``t`` with ``image + n·t = total`` (a symmetry of ``n`` points fixes their
    centroid, ``total / n``), or None when it is not whole: integers only."""
    if any((t - i) % n for t, i in zip(total, image, strict=True)):
        return None
    return tuple((t - i) // n for t, i in zip(total, image, strict=True))


def symmetries(board: Board) -> list[Symmetry]:
    """The board's reflections and rotations other than the identity that map its **on-board
    cells** (every cell but void) onto themselves: a playing area made symmetric by void around
    it keeps its symmetries, whatever the map's rectangle (see the module). Exact: each linear
    map of the grid about the centroid of those cells, kept when the shift fixing the centroid is
    whole and the cells' image is the cells."""
    cells = list(board.squares())
    if isinstance(board.grid, HexGrid):
        return hex_symmetries(board.grid, cells)
    n = len(cells)
    if not n:
        return []
    total = (sum(x for x, _ in cells), sum(y for _, y in cells))
    have = set(cells)
    out = []
    for name, m in _SQUARE_MAPS:
        shift = _fixing_shift(total, (m[0][0] * total[m[0][1]], m[1][0] * total[m[1][1]]), n)
        if shift is None:
            continue
        send = _square_map(m, (shift[0], shift[1]))
        if all(send(c) in have for c in cells):
            out.append(Symmetry(name, send))
    return out


def _square_map(m: tuple[tuple[int, int], tuple[int, int]], shift: Square) -> Callable[[Square], Square]:
    """The square map ``(x, y) ↦ m · (x, y) + shift`` (cells off the board map too)."""

    def send(cell: Square) -> Square:
        return (m[0][0] * cell[m[0][1]] + shift[0], m[1][0] * cell[m[1][1]] + shift[1])

    return send


#: a cube transform: (q, r, s) -> ((sign, index), ...) for each new coordinate
_Cube = tuple[int, int, int]
_Linear = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
#: 60° clockwise on screen in the pointy frame (q, r, s) -> (-r, -s, -q); the left-right mirror
#: of the pointy frame (q, r, s) -> (s, r, q)
_TURN: _Linear = ((-1, 1), (-1, 2), (-1, 0))
_MIRROR: _Linear = ((1, 2), (1, 1), (1, 0))
_IDENTITY: _Linear = ((1, 0), (1, 1), (1, 2))


def _apply(m: _Linear, c: _Cube) -> _Cube:
    return (m[0][0] * c[m[0][1]], m[1][0] * c[m[1][1]], m[2][0] * c[m[2][1]])


def _then(first: _Linear, second: _Linear) -> _Linear:
    """The linear map ``second ∘ first``."""
    out = []
    for sign, index in second:
        s2, i2 = first[index]
        out.append((sign * s2, i2))
    return (out[0], out[1], out[2])


def hex_linear_maps() -> list[_Linear]:
    """The twelve symmetries of the hex lattice about a centre, as maps of cube coordinates: the
    identity and the turns by 60° · k (k = 1 … 5), then the six mirrors."""
    turns = [_IDENTITY]
    for _ in range(5):
        turns.append(_then(turns[-1], _TURN))
    return turns + [_then(t, _MIRROR) for t in turns]


def _screen(grid: HexGrid, c: _Cube) -> tuple[float, float]:
    """Where cube coordinates lie on the screen (x right, y up; floats: naming only)."""
    q, r, _ = c
    x, y = math.sqrt(3) * (q + r / 2), -1.5 * r
    return (x, y) if grid.pointy else (-y, -x)  # a flat-top map is the pointy frame transposed


def hex_name(grid: HexGrid, m: _Linear) -> str:
    """A symmetry's name on the screen: ``half turn``, ``turn by 60° clockwise``, ``mirror
    left-right``, ``mirror top-bottom``, ``mirror on the line rising at 30°`` …"""
    e1, e2 = (1, 0, -1), (0, 1, -1)
    b = np.array([_screen(grid, e1), _screen(grid, e2)]).T
    a = np.array([_screen(grid, _apply(m, e1)), _screen(grid, _apply(m, e2))]).T
    lin = a @ np.linalg.inv(b)
    angle = round(math.degrees(math.atan2(lin[1, 0], lin[0, 0]))) % 360
    if np.linalg.det(lin) > 0:
        if angle == 180:
            return "half turn"
        return f"turn by {angle}° anticlockwise" if angle < 180 else f"turn by {360 - angle}° clockwise"
    axis = (angle // 2) % 180
    if axis == 0:
        return "mirror top-bottom"
    if axis == 90:
        return "mirror left-right"
    return f"mirror on the line rising at {axis}°" if axis < 90 else f"mirror on the line falling at {180 - axis}°"


def hex_symmetries(grid: HexGrid, cells: Sequence[Square] | None = None) -> list[Symmetry]:
    """The symmetries of the hex lattice (other than the identity) that map ``cells`` (default:
    every cell of the map) onto themselves: each linear map of :func:`hex_linear_maps` about the
    centroid of the cells' cube coordinates (a symmetry of a finite set fixes its centroid), kept
    when the shift that fixes the centroid is whole and every cell's image is one of the cells."""
    chosen = list(grid.cells()) if cells is None else list(cells)
    cubes = [grid.cube(c) for c in chosen]
    n = len(cubes)
    if not n:
        return []
    total = (sum(c[0] for c in cubes), sum(c[1] for c in cubes), sum(c[2] for c in cubes))
    have = set(chosen)
    out = []
    for m in hex_linear_maps()[1:]:
        shift = _fixing_shift(total, _apply(m, total), n)
        if shift is None:
            continue
        send = _hex_map(grid, m, (shift[0], shift[1], shift[2]))
        if all(send(c) in have for c in chosen):
            out.append(Symmetry(hex_name(grid, m), send))
    return out


def _hex_map(grid: HexGrid, m: _Linear, shift: _Cube) -> Callable[[Square], Square]:
    """The cell map ``cube ↦ m · cube + shift`` (cells off the map map too)."""

    def send(cell: Square) -> Square:
        q, r, s = _apply(m, grid.cube(cell))
        return grid.cell_of_cube((q + shift[0], r + shift[1], s + shift[2]))

    return send


def symmetry_note(board: Board, first: Zone, second: Zone) -> str:
    """One sentence when no symmetry swaps the two zones: which symmetries the map's cells have
    (on a hex map, which its stagger rules out), else ``""``."""
    if swaps(board, first, second):
        return ""
    found = [t.name for t in symmetries(board)]
    grid = board.grid
    if isinstance(grid, HexGrid):
        stagger = (f"its {'rows' if grid.pointy else 'columns'} are staggered ({grid.staggerindex} ones pushed, "
                   f"{grid.height if grid.pointy else grid.width} of them)")
        if not found:
            return (f"No reflection or rotation of the hex grid maps this map's cells onto its cells: {stagger}, "
                    "so there is no symmetry to check.")
        return (f"No reflection or rotation maps the zones onto each other; the map's cells allow only "
                f"{', '.join(found)} ({stagger}).")
    if not found:
        return "No reflection or rotation of the board maps its squares onto its squares."
    return f"No reflection or rotation of the board maps the zones onto each other (the board allows {', '.join(found)})."


def swaps(board: Board, first: Zone, second: Zone) -> list[Symmetry]:
    """The symmetries that map ``first`` exactly onto ``second`` and ``second`` onto ``first``."""
    return [t for t in symmetries(board)
            if {t.apply(sq) for sq in first.squares} == second.squares
            and {t.apply(sq) for sq in second.squares} == first.squares]


def _at(board: Board, edge: Any, image: bool = False) -> str:
    """Where an edge is, in the words of its grid: ``V(3,5)`` (``at V(3,5)`` for the image) on
    squares, ``between (2,0) and (3,0)`` on hexes (its two cells: a hex side's lattice points
    mean nothing to a designer)."""
    if isinstance(board.grid, HexGrid):
        a, b = board.grid.edge_cells(edge)
        return f"between {fmt_square(a)} and {fmt_square(b)}"
    return f"at {edge}" if image else str(edge)


def geometry_breaks(board: Board, symmetry: Symmetry) -> list[str]:
    """What in the board's geometry the symmetry does not map onto its like: walls, windows,
    doors (and their states), void (off the map counts as void), blocked and impassable squares;
    one phrase each. A symmetry of :func:`symmetries` maps the on-board cells onto themselves, so
    void never differs under it."""
    out: list[str] = []
    for name, edges in (("wall", board.walls), ("window", board.windows)):
        for edge in sorted(edges, key=str):
            image = symmetry.edge(board, edge)
            if image not in edges:
                out.append(f"{name} {_at(board, edge)} has no {name} {_at(board, image, True)}")
    doors = board.doors
    for edge, door in sorted(doors.items(), key=lambda item: str(item[0])):
        mirrored = symmetry.edge(board, edge)
        image = doors.get(mirrored)
        if image is None or image.state != door.state:
            there = "no door" if image is None else f"a {image.state.value} door"
            out.append(f"{door.state.value} door {_at(board, edge)} has {there} {_at(board, mirrored, True)}")
    noun = cell_noun(board)
    inside = board.grid.in_bounds
    for name, squares in (("void", board.void), ("blocked", board.blocked), ("impassable", board.impassable)):
        for sq in sorted(squares, key=lambda s: (s[1], s[0])):
            image = symmetry.apply(sq)
            if image not in squares and (name != "void" or inside(image)):  # off the map is void
                out.append(f"{name} {noun} {fmt_square(sq)} has none at {fmt_square(image)}")
    return out
