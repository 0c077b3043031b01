"""Hexagonal Tiled maps as hex boards: the derivation of :mod:`game.tiled.derive` on a
:class:`~game.core.hexgrid.HexGrid` (docs/hex.md, "Drawing a hex board in Tiled").

The tile layers give cells their roles exactly as on square maps (the same
:func:`~game.tiled.derive_cells.derive_cells`: classes, properties, presets, ``sightline.toml``);
objects are placed on Tiled's own pixel hexes (the map's ``tilewidth``, ``tileheight``,
``hexsidelength``, ``staggeraxis``, ``staggerindex``; :class:`~game.core.hexgrid.HexLayout`):

* a wall or window (polyline, polygon, rectangle outline) marks every hex side it runs along:
  each vertex snaps to the nearest drawn hex corner when it is within the snapping tolerance of
  square maps (:data:`~game.tiled.geometry.SNAP` of a tile, per axis); two consecutive corners
  must be the two ends of one side. A vertex off the corners, or a stretch that cuts across a hex,
  is an error finding and that part is ignored — never a guess;
* a door is a two-point line along one side, or a small shape whose centre lies within
  :data:`~game.tiled.geometry.DOOR_REACH` of a tile of a side's midpoint;
* a figure stands on the hex whose drawn polygon holds its centre; a blocked, void or impassable
  area covers the hexes whose drawn centres it holds.

Walls from tile sides and tile collision shapes are square-map readings: on a hex map they are
left out with one finding.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import cast

from game.core.board import Board, Door, Edge, Figure, Square
from game.core.errors import MapError
from game.core.findings import Severity
from game.core.grid import Grid
from game.core.hexgrid import HexEdge, HexGrid, HexLayout, StaggerAxis, StaggerIndex
from game.core.words import a_or_an, plural
from game.tiled.conventions import Conventions
from game.tiled.derive import AREA_ROLES, DERIVERS, ObjectInfo, _Deriver, _info, _Parts
from game.tiled.derive_cells import Cells, door_state
from game.tiled.geometry import DOOR_REACH, SNAP, wall_paths
from game.tiled.records import MapRecords, ObjectRecord

__all__ = ["HexDeriver", "hex_cells_inside", "hex_grid_of"]

PxPoint = tuple[Fraction, Fraction]
WALL_HINT = "draw walls along hex sides with View > Snapping > Snap to Grid on, a vertex at every hex corner"


def hex_grid_of(records: MapRecords) -> tuple[HexGrid, HexLayout]:
    """The hex grid and Tiled's pixel sizes of a hexagonal map's records (Tiled's defaults for
    missing attributes: ``staggeraxis="y"``, ``staggerindex="odd"``, ``hexsidelength=0``);
    :class:`MapError` of one line for values Tiled never writes. An infinite map cropped to its
    painted cells from an odd row (pointy) or column (flat) flips the stagger index, so every cell
    keeps its place."""
    g = records.grid
    axis, index = g.stagger_axis or "y", g.stagger_index or "odd"
    if axis not in ("x", "y") or index not in ("odd", "even"):
        bad = f"staggeraxis={axis!r}" if axis not in ("x", "y") else f"staggerindex={index!r}"
        raise MapError(f"a hexagonal map with {bad}", path=str(records.path),
                       hint="set staggeraxis to x or y and staggerindex to odd or even (Map > Map Properties)")
    side = g.hex_side_length or 0
    if side < 0:
        raise MapError(f"a hexagonal map with hexsidelength={side}", path=str(records.path),
                       hint="set Hex Side Length to 0 or more (Map > Map Properties)")
    shift = records.origin[1] if axis == "y" else records.origin[0]
    if shift % 2:
        index = "even" if index == "odd" else "odd"
    layout = HexLayout(g.tile_width, g.tile_height, side)
    return HexGrid(records.width, records.height, cast(StaggerAxis, axis), cast(StaggerIndex, index), layout), layout


def origin_shift(records: MapRecords, grid: HexGrid, layout: HexLayout) -> tuple[Fraction, Fraction]:
    """What to add to a record's pixel (the reader subtracted the crop origin as whole tiles,
    the square way) to place it on the cropped hex grid: Tiled's pixel of the origin cell on the
    whole map, less where the cropped grid draws its cell (0, 0)."""
    ox, oy = records.origin
    if (ox, oy) == (0, 0):
        return Fraction(0), Fraction(0)
    g = records.grid
    whole = HexGrid(max(1, ox + 1), max(1, oy + 1), grid.staggeraxis,
                    cast(StaggerIndex, g.stagger_index or "odd"))
    wx, wy = whole.cell_origin_px((ox, oy), layout)
    cx, cy = grid.cell_origin_px((0, 0), layout)
    return Fraction(ox * g.tile_width - (wx - cx)), Fraction(oy * g.tile_height - (wy - cy))


class HexDeriver(_Deriver):
    """One derivation of a hexagonal map (see the module): the square derivation with the
    objects traced on hex sides and the board on the hex grid."""

    def __init__(self, records: MapRecords, conventions: Conventions) -> None:
        """Start a derivation of a hexagonal map's ``records``."""
        super().__init__(records, conventions)
        self.hexes, self.layout = hex_grid_of(records)
        self.unit = (Fraction(records.grid.tile_width), Fraction(records.grid.tile_height))
        self.on_map: dict[Edge, bool] = {}
        self.shift = origin_shift(records, self.hexes, self.layout)
        #: the same as floats, to snap far from the tolerance's edge without Fractions
        self.funit, self.fshift = (float(self.unit[0]), float(self.unit[1])), (float(self.shift[0]), float(self.shift[1]))
        self.tolerance = (float(SNAP * self.unit[0]), float(SNAP * self.unit[1]))

    def board(self, cells: Cells, parts: _Parts) -> Board:
        """The square derivation's board on the hex grid; walls from tile sides and collision
        shapes (square sides) are left out with one warning."""
        if cells.walls:
            self.finding("hex-tile-walls", Severity.WARNING,
                         f"{plural(len(cells.walls), 'wall')} from tile sides or tile collision shapes left out: "
                         "they are square sides, and this is a hex map", hint=WALL_HINT)
            cells.walls = set()
        return super().board(cells, parts)

    # -- the seam
    def grid(self) -> Grid[Edge] | None:
        """The board's hex grid."""
        seam: Grid[HexEdge] = self.hexes
        return cast("Grid[Edge]", seam)  # the board keeps a grid's edges without looking inside

    def edge_in_map(self, edge: Edge) -> bool:
        """Whether a hex side has a cell of the map on either side (remembered per side)."""
        found = self.on_map.get(edge)
        if found is None:  # numbered exactly when a cell of the map lies on either side
            found = self.on_map[edge] = self.hexes.edge_index(cast(HexEdge, edge)) is not None
        return found

    def in_bounds(self, sq: Square) -> bool:
        """Whether a cell is on the map."""
        return self.hexes.in_bounds(sq)

    # -- pixels
    def px(self, point: tuple[Fraction, Fraction]) -> PxPoint:
        """A record's point (grid units: pixels over the tile size) as Tiled's pixel."""
        return point[0] * self.unit[0] + self.shift[0], point[1] * self.unit[1] + self.shift[1]

    def corner_of(self, point: tuple[Fraction, Fraction]) -> tuple[tuple[int, int] | None, bool]:
        """The hex corner a vertex snaps to (within :data:`SNAP` of a tile per axis) and whether
        it moved; ``(None, False)`` off every corner."""
        fx = float(point[0]) * self.funit[0] + self.fshift[0]
        fy = float(point[1]) * self.funit[1] + self.fshift[1]
        corner, (cx, cy) = self.hexes.snap_px(fx, fy, self.layout)  # exact: Tiled's pixels are integers or halves
        dx, dy = abs(cx - fx), abs(cy - fy)
        tx, ty = self.tolerance
        if dx < tx - 1e-6 and dy < ty - 1e-6 and (dx > 1e-6 or dy > 1e-6 or (dx == 0 and dy == 0)):
            return corner, dx > 0 or dy > 0  # clearly inside the tolerance, clearly moved or not
        if dx > tx + 1e-6 or dy > ty + 1e-6:
            return None, False  # clearly off every corner
        x, y = self.px(point)  # near a threshold: decide exactly
        ex, ey = abs(Fraction(cx) - x), abs(Fraction(cy) - y)
        if ex <= SNAP * self.unit[0] and ey <= SNAP * self.unit[1]:
            return corner, bool(ex or ey)
        return None, False

    def is_side(self, c: tuple[int, int], d: tuple[int, int]) -> bool:
        """Whether two hex corners are the two ends of one side: in the pointy frame they differ
        by (±1, ±1) or (0, ±2) (every such pair of corners is a side)."""
        (cx, cy), (dx, dy) = self.hexes.pointy_frame(c), self.hexes.pointy_frame(d)
        return (abs(cx - dx), abs(cy - dy)) in ((1, 1), (0, 2))

    def where(self, point: tuple[Fraction, Fraction]) -> str:
        """A record's point as Tiled's pixel, for findings: ``(44,18)``."""
        x, y = self.px(point)
        return f"({_num(x)},{_num(y)})"

    # -- objects
    def place_as(self, record: ObjectRecord, role: str, parts: _Parts) -> ObjectInfo:
        """Walls, windows, doors and areas on hex sides and cells; figures and the rest as on
        squares (their cell found by :meth:`figure_of`)."""
        if role in ("wall", "window"):
            info = self.trace(record, role)
            (parts.drawn_walls if role == "wall" else parts.windows).update(info.edges)
            return info
        if role == "door":
            door = self.door_of(record)
            if door is not None:
                parts.doors[door.edge] = door
            return _info(record, role, door_edge=door.edge if door is not None else None)
        if role in AREA_ROLES:
            parts.areas[role].update(self.area_of(record, role))
            return _info(record, role)
        return super().place_as(record, role, parts)

    def trace(self, obj: ObjectRecord, kind: str) -> ObjectInfo:
        """A wall or window traced onto hex sides: errors for vertices off the corners and for
        stretches that cut across a hex (that part ignored), a warning for sides off the map."""
        paths = wall_paths(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.skewed)
        if not paths:
            self.finding("wall-shape", Severity.ERROR,
                         f"a {kind} must be a line, polyline, polygon or rectangle, not {a_or_an(obj.shape)}; ignored",
                         obj.id, hint=f"redraw the {kind} as a polyline along hex sides")
            return _info(obj, kind)
        edges: list[HexEdge] = []
        for path, closed in paths:
            points = path + path[:1] if closed and len(path) > 2 else path
            corners = []
            for point in points:
                corner, moved = self.corner_of(point)
                self.snapped += moved
                if corner is None:
                    self.finding("wall-off-grid", Severity.ERROR,
                                 f"{kind} vertex at {self.where(point)} is not on a hex corner; that part is ignored",
                                 obj.id, hint=WALL_HINT)
                corners.append(corner)
            for (p, c), (q, d) in zip(zip(points, corners, strict=True), zip(points[1:], corners[1:], strict=True), strict=False):
                if c is None or d is None or c == d:
                    continue
                edge = HexEdge.of(c, d)
                if not self.is_side(c, d):
                    self.finding("wall-across-hex", Severity.ERROR,
                                 f"{kind} from {self.where(p)} to {self.where(q)} cuts across a hex instead of "
                                 "running along one hex side; that part is ignored", obj.id, hint=WALL_HINT)
                    continue
                edges.append(edge)
        self.report_hex_outside(obj.id, kind, cast("list[Edge]", edges))
        return _info(obj, kind, edges=tuple(edges))

    def report_hex_outside(self, object_id: int, kind: str, edges: object) -> None:
        """A warning when a wall's sides lie (partly) beyond the map."""
        sides = cast("list[Edge]", edges)
        outside = sum(1 for e in sides if not self.edge_in_map(e))
        if outside:
            self.finding("object-outside-map", Severity.WARNING,
                         f"{kind} runs along {plural(outside, 'hex side')} past the map's edge; that part is ignored"
                         if outside < len(sides) else f"{kind} lies outside the map; ignored",
                         object_id, hint="move it onto the map or trim it")

    def door_of(self, obj: ObjectRecord) -> Door | None:
        """The door on one hex side: a two-point line along it, or a shape centred near its
        midpoint; None with an error finding otherwise."""
        edge: HexEdge | None = None
        if obj.shape == "polyline" and len(obj.points) == 2:
            (c, _), (d, _) = self.corner_of(obj.points[0]), self.corner_of(obj.points[1])
            if c is not None and d is not None and self.is_side(c, d):
                edge = HexEdge.of(c, d)
        else:
            edge = self.nearest_side(obj.centre)
        if edge is None:
            self.finding("door-off-edge", Severity.ERROR,
                         f"door at {self.where(obj.centre)} is not on one hex side; ignored", obj.id,
                         hint="draw the door as a line from one hex corner to the next, or a small shape centred on a hex side")
            return None
        if not self.edge_in_map(cast(Edge, edge)):
            self.finding("object-outside-map", Severity.WARNING, f"door {edge} is outside the map; ignored", obj.id)
            return None
        return Door(cast(Edge, edge), door_state(obj.properties, obj.id, "door", self.findings), obj.id, obj.name)

    def nearest_side(self, point: tuple[Fraction, Fraction]) -> HexEdge | None:
        """The hex side whose drawn midpoint lies within :data:`DOOR_REACH` of a tile (per axis)
        of a point, or None."""
        x, y = self.px(point)
        cell = self.hexes.cell_at_px(float(x), float(y), self.layout)
        best: tuple[float, HexEdge] | None = None
        for edge in self.hexes.edges_of(cell):
            (ax, ay), (bx, by) = (self.hexes.point_px(p, self.layout) for p in (edge.a, edge.b))
            dx, dy = abs((ax + bx) / 2 - float(x)), abs((ay + by) / 2 - float(y))
            near = dx <= DOOR_REACH * self.unit[0] and dy <= DOOR_REACH * self.unit[1]
            if near and (best is None or dx * dx + dy * dy < best[0]):
                best = (dx * dx + dy * dy, edge)
        return None if best is None else best[1]

    def figure_of(self, obj: ObjectRecord) -> Figure | None:
        """The figure an object puts on the hex whose drawn polygon holds its centre."""
        x, y = self.px(obj.centre)
        cell = self.hexes.cell_at_px(float(x), float(y), self.layout)
        if not self.hexes.in_bounds(cell):
            self.finding("figure-outside-board", Severity.ERROR,
                         f"figure {obj.name or '#' + str(obj.id)} stands at {self.where(obj.centre)}, outside the "
                         f"{self.width}x{self.height} hex map; not placed", obj.id, hint="move the figure onto the map")
            return None
        name, side, stats = self.conv.figure_fields(obj.name, obj.properties)
        return Figure(obj.id, name, side, cell, stats)

    def area_of(self, obj: ObjectRecord, role: str) -> set[Square]:
        """The hexes whose drawn centres a blocked, void or impassable area holds."""
        if obj.shape in ("point", "polyline", "text"):
            self.finding("area-shape", Severity.WARNING,
                         f"a {role} area must be a rectangle, ellipse or polygon, not {a_or_an(obj.shape)}; ignored",
                         obj.id, hint="draw a rectangle or polygon over the hexes")
            return set()
        found = hex_cells_inside(obj, self.hexes, self.layout)
        if not found:
            self.finding("object-outside-map", Severity.WARNING, f"{role} area holds no hex's centre; ignored", obj.id,
                         hint="stretch it over the centres of the hexes it marks")
        return found


def hex_cells_inside(obj: ObjectRecord, hexes: HexGrid, layout: HexLayout) -> set[Square]:
    """The cells of ``hexes`` (drawn with ``layout``) whose drawn centres an area's shape holds
    (a rectangle, ellipse or polygon; boundary included, exactly): the tracing of blocked, void
    and impassable areas, and of the balance report's deployment zones."""
    unit = (Fraction(layout.tilewidth), Fraction(layout.tileheight))
    inside = _shape_test(obj, unit)
    found = set()
    corners = [hexes.cell_at_px(float(x * unit[0]), float(y * unit[1]), layout)
               for x in (obj.x, obj.x + obj.width) for y in (obj.y, obj.y + obj.height)]
    xs, ys = range(min(c[0] for c in corners) - 1, max(c[0] for c in corners) + 2), range(
        min(c[1] for c in corners) - 1, max(c[1] for c in corners) + 2)
    for cell in ((x, y) for y in ys for x in xs if hexes.in_bounds((x, y))):
        cx, cy = hexes.centre_px(cell, layout)
        if inside(Fraction(cx), Fraction(cy)):
            found.add(cell)
    return found


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{float(v):.1f}"


def _shape_test(obj: ObjectRecord, unit: tuple[Fraction, Fraction]) -> Callable[[Fraction, Fraction], bool]:
    """Whether a pixel lies in an area's shape (boundary included), exactly."""
    ux, uy = unit
    if obj.shape == "ellipse":
        cx, cy = (obj.x + obj.width / 2) * ux, (obj.y + obj.height / 2) * uy
        rx, ry = obj.width * ux / 2, obj.height * uy / 2
        return lambda x, y: rx > 0 and ry > 0 and ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1
    polygon = [(p[0] * ux, p[1] * uy) for p in obj.points]
    return lambda x, y: _in_polygon(polygon, x, y)


def _in_polygon(polygon: list[tuple[Fraction, Fraction]], x: Fraction, y: Fraction) -> bool:
    """Even-odd rule, the boundary included."""
    inside = False
    n = len(polygon)
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if cross == 0 and min(ax, bx) <= x <= max(ax, bx) and min(ay, by) <= y <= max(ay, by):
            return True
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


DERIVERS["hexagonal"] = HexDeriver
