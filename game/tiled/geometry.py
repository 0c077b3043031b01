"""Map geometry: the one place that turns drawn shapes into grid edges and squares (docs/maps.md).

The derivation (:mod:`game.tiled.derive`) traces every wall, window and door object once with
these functions and records the result on the object's :class:`~game.tiled.derive.ObjectInfo`
(``segments``, ``ends``, ``edges``, ``door_edge``, ``square``); the linter reads those records and
never re-derives them. Areas (``blocked``/``void`` shapes) and tiles' collision shapes are
measured here too. Everything is exact (``Fraction``); coordinates are in grid units (tile units
for collision shapes).

* :data:`SNAP`: a vertex within 1/8 cell (per axis) of a grid corner is snapped onto it;
* :data:`DOOR_REACH`: a door shape's centre must lie within 1/4 cell of an edge's midpoint;
* a rectangle thinner than half a cell is a wall along its long centre line, a larger one walls
  its outline; polylines are open paths, polygons (and skewed rectangles) closed ones.

>>> F = Fraction
>>> trace = trace_wall(wall_paths("polyline", F(0), F(2), F(2), F(0), ((F(0), F(2)), (F(2), F(2)))))
>>> [str(e) for e in trace.edges], trace.ends
(['H(0,2)', 'H(1,2)'], ((Fraction(0, 1), Fraction(2, 1)), (Fraction(2, 1), Fraction(2, 1))))
>>> trace_door("point", F(2), F(1, 2), F(0), F(0), ((F(2), F(1, 2)),)).edge
Edge(axis='V', x=2, y=0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from game.core.board import Corner, Edge, Square, fmt_square

Point = tuple[Fraction, Fraction]
Segment = tuple[Point, Point]

SNAP = Fraction(1, 8)  #: vertices this close (per axis) to a grid corner are snapped onto it
DOOR_REACH = Fraction(1, 4)  #: a door shape's centre must be this close to an edge midpoint
DOOR_MAX_LENGTH = Fraction(3, 2)  #: a door shape longer than this (in cells) is refused
THIN = Fraction(1, 2)  #: a rectangle thinner than this is a wall along its centre line
DOOR_SQUARE = Fraction(7, 8)  #: a door shape at least this big each way fills its square
DOOR_HINT = "draw the door as a one-square line along a grid edge, or a small shape centred on the edge"


def fmt_number(value: Fraction) -> str:
    """A coordinate for a message: exact when whole, else a short decimal.

    >>> fmt_number(Fraction(3)), fmt_number(Fraction(1, 8))
    ('3', '0.125')
    """
    return str(value) if value.denominator == 1 else f"{float(value):g}"


def fmt_point(p: Point) -> str:
    """A point for a message, ``(x,y)``."""
    return f"({fmt_number(p[0])},{fmt_number(p[1])})"


def snap(point: Point) -> tuple[Corner | None, bool]:
    """The grid corner within :data:`SNAP` of a point and whether it moved; ``(None, False)`` if none.

    >>> snap((Fraction(1, 16), Fraction(2))), snap((Fraction(1, 2), Fraction(0)))
    (((0, 2), True), (None, False))
    """
    x, y = point
    if x.denominator == 1 and y.denominator == 1:
        return (x.numerator, y.numerator), False
    rx, ry = round(x), round(y)
    if abs(x - rx) <= SNAP and abs(y - ry) <= SNAP:
        return (rx, ry), (x != rx or y != ry)
    return None, False


def unit_edges(a: Point, b: Point) -> list[Edge]:
    """The unit edges of one segment after snapping; [] when off-grid or diagonal.

    >>> [str(e) for e in unit_edges((Fraction(0), Fraction(2)), (Fraction(3), Fraction(2)))]
    ['H(0,2)', 'H(1,2)', 'H(2,2)']
    """
    sa, sb = snap(a)[0], snap(b)[0]
    if sa is None or sb is None or sa == sb:
        return []
    return _corner_run(sa, sb) or []


_EDGES: dict[tuple[str, int, int], Edge] = {}


def _edge(axis: str, x: int, y: int) -> Edge:
    """The unit edge ``axis(x,y)``, one shared object per edge (a map names the same edges again
    and again, and a frozen dataclass is slow to build)."""
    key = (axis, x, y)
    found = _EDGES.get(key)
    if found is None:
        if len(_EDGES) > 1 << 20:
            _EDGES.clear()
        found = _EDGES[key] = Edge("V" if axis == "V" else "H", x, y)
    return found


def _corner_run(a: Corner, b: Corner) -> list[Edge] | None:
    """The unit edges between two grid corners on one line; None when diagonal."""
    (ax, ay), (bx, by) = a, b
    known = _EDGES.get
    if ax == bx:
        lo, hi = (ay, by) if ay < by else (by, ay)
        return [known(("V", ax, y)) or _edge("V", ax, y) for y in range(lo, hi)]
    if ay == by:
        lo, hi = (ax, bx) if ax < bx else (bx, ax)
        return [known(("H", x, ay)) or _edge("H", x, ay) for x in range(lo, hi)]
    return None


def edge_in_map(edge: Edge, width: int, height: int) -> bool:
    """Whether an edge lies on a ``width`` x ``height`` map (its border included).

    >>> edge_in_map(Edge("V", 3, 0), 3, 2), edge_in_map(Edge("H", 3, 0), 3, 2)
    (True, False)
    """
    if edge.axis == "V":
        return 0 <= edge.x <= width and 0 <= edge.y < height
    return 0 <= edge.y <= height and 0 <= edge.x < width


def wall_paths(
    shape: str,
    x: Fraction,
    y: Fraction,
    width: Fraction,
    height: Fraction,
    points: Sequence[Point],
    skewed: bool = False,
) -> list[tuple[list[Point], bool]]:
    """The paths a wall or window shape draws, raw (pre-snap), each with whether it is closed.

    A rectangle (or tile object) thinner than half a cell is its long centre line; a larger one
    its outline; a rectangle rotated by other than a multiple of 90° (``skewed``) and polygons are
    their closed point lists; a polyline is open. Points, ellipses and text draw nothing.
    """
    if shape in ("ellipse", "point", "text"):
        return []
    if shape in ("rectangle", "tile") and not skewed:
        if min(width, height) < THIN:
            if width >= height:
                return [([(x, y + height / 2), (x + width, y + height / 2)], False)]
            return [([(x + width / 2, y), (x + width / 2, y + height)], False)]
        return [([(x, y), (x + width, y), (x + width, y + height), (x, y + height)], True)]
    return [(list(points), shape != "polyline")]


@dataclass(frozen=True)
class WallTrace:
    """What a wall or window shape puts on the grid.

    ``segments`` are the raw drawn segments, ``ends`` the free ends of open paths, ``edges``
    every unit edge the shape covers, once each (on the board when one was given; grouped by grid
    line in drawing order, along each line in order), ``repeated`` the edges it covers more than
    once, ``outside`` how many unit edges it runs past the board (repeats counted), ``problems``
    ``(code, detail)`` pairs (one per code), ``snapped`` how many vertices moved onto a corner.
    """

    segments: tuple[Segment, ...]
    ends: tuple[Point, ...]
    edges: tuple[Edge, ...]
    problems: tuple[tuple[str, str], ...]
    snapped: int
    repeated: tuple[Edge, ...] = ()
    outside: int = 0


#: a run of unit edges along one grid line: axis, the line's coordinate, start, end (exclusive)
_Run = tuple[str, int, int, int]


def trace_wall(paths: Sequence[tuple[Sequence[Point], bool]], board: tuple[int, int] | None = None) -> WallTrace:
    """Trace the paths of a wall or window shape (:func:`wall_paths`) onto grid edges, each
    segment clipped to ``board`` (width, height) when given before it is split into unit edges,
    so the work grows with the points and the board, never with how far a segment runs.

    >>> F = Fraction
    >>> far = trace_wall([([(F(0), F(1)), (F(10**9), F(1)), (F(0), F(1))], False)], (3, 2))
    >>> [str(e) for e in far.edges], len(far.repeated), far.outside
    (['H(0,1)', 'H(1,1)', 'H(2,1)'], 3, 1999999994)
    """
    if len(paths) == 1:
        plain = _plain_trace(paths[0][0], paths[0][1], board)
        if plain is not None:
            return plain
    return _general_trace(paths, board)


def _general_trace(paths: Sequence[tuple[Sequence[Point], bool]], board: tuple[int, int] | None) -> WallTrace:
    """:func:`trace_wall` for any paths: vertices snapped, problems found, runs clipped to the
    board and merged (repeats kept apart)."""
    segments: list[Segment] = []
    ends: list[Point] = []
    runs: list[_Run] = []
    problems: dict[str, str] = {}
    moved = outside = 0
    for path, closed in paths:
        if len(path) < 2:
            problems.setdefault("wall-off-grid", "has fewer than two points")
            continue
        path = list(path)
        raw = list(zip(path, path[1:], strict=False))
        if closed and len(path) > 2:
            raw.append((path[-1], path[0]))
        segments += raw
        if not closed and path[0] != path[-1]:
            ends += [path[0], path[-1]]
        corners: list[Corner | None] = []
        for point in path:
            px, py = point
            if px.denominator == 1 and py.denominator == 1:  # on a corner already (snap's fast path)
                corners.append((px.numerator, py.numerator))
                continue
            corner, shifted = snap(point)
            moved += shifted
            if corner is None:
                problems.setdefault(
                    "wall-off-grid",
                    f"vertex {fmt_point(point)} is not within 1/8 square of a grid corner",
                )
            corners.append(corner)
        pairs = list(zip(corners, corners[1:], strict=False))
        if closed and len(corners) > 2:
            pairs.append((corners[-1], corners[0]))
        for a, b in pairs:
            if a is None or b is None or a == b:
                continue
            run = _run(a, b)
            if run is None:
                problems.setdefault(
                    "wall-diagonal", f"segment {fmt_square(a)}-{fmt_square(b)} is diagonal"
                )
                continue
            kept = _clipped(run, board)
            outside += (run[3] - run[2]) - (kept[3] - kept[2] if kept else 0)
            if kept is not None:
                runs.append(kept)
    edges, repeated = _merge_runs(runs)
    return WallTrace(tuple(segments), tuple(ends), edges, tuple(problems.items()), moved, repeated, outside)


def _plain_trace(path: Sequence[Point], closed: bool, board: tuple[int, int] | None) -> WallTrace | None:
    """The trace of one path drawn the usual way, without the general case's bookkeeping: every
    vertex on a grid corner, every segment along a grid line, on the board, no two on the same
    grid line (so nothing is repeated or merged). None for any other path (:func:`trace_wall`
    traces it); the result is the one :func:`trace_wall`'s general case gives."""
    if len(path) < 2:
        return None
    corners: list[Corner] = []
    for px, py in path:
        if px.denominator != 1 or py.denominator != 1:
            return None
        corners.append((px.numerator, py.numerator))
    pairs = list(zip(corners, corners[1:], strict=False))
    if closed and len(corners) > 2:
        pairs.append((corners[-1], corners[0]))
    bounded = board is not None
    width, height = board if board is not None else (0, 0)
    known = _EDGES.get
    edges: list[Edge] = []
    lines: set[tuple[str, int]] = set()
    for (ax, ay), (bx, by) in pairs:
        if ax == bx and ay == by:
            continue
        if ax == bx:
            lo, hi = (ay, by) if ay < by else (by, ay)
            if (bounded and not (0 <= ax <= width and lo >= 0 and hi <= height)) or ("V", ax) in lines:
                return None
            lines.add(("V", ax))
            edges += [known(("V", ax, y)) or _edge("V", ax, y) for y in range(lo, hi)]
        elif ay == by:
            lo, hi = (ax, bx) if ax < bx else (bx, ax)
            if (bounded and not (0 <= ay <= height and lo >= 0 and hi <= width)) or ("H", ay) in lines:
                return None
            lines.add(("H", ay))
            edges += [known(("H", x, ay)) or _edge("H", x, ay) for x in range(lo, hi)]
        else:
            return None
    segments = list(zip(path, path[1:], strict=False))
    if closed and len(path) > 2:
        segments.append((path[-1], path[0]))
    ends = (path[0], path[-1]) if not closed and path[0] != path[-1] else ()
    return WallTrace(tuple(segments), ends, tuple(edges), (), 0, (), 0)


def _run(a: Corner, b: Corner) -> _Run | None:
    """The unit edges between two grid corners on one line as a run; None when diagonal."""
    (ax, ay), (bx, by) = a, b
    if ax == bx:
        return ("V", ax, ay, by) if ay < by else ("V", ax, by, ay)
    if ay == by:
        return ("H", ay, ax, bx) if ax < bx else ("H", ay, bx, ax)
    return None


def _clipped(run: _Run, board: tuple[int, int] | None) -> _Run | None:
    """The part of a run on a ``board`` (width, height; its border included), or None when no
    part is; the run itself when there is no board."""
    if board is None:
        return run
    axis, line, lo, hi = run
    across, along = board if axis == "V" else board[::-1]  # V(x, y): 0 <= x <= width, 0 <= y < height
    if not 0 <= line <= across:
        return None
    lo, hi = max(lo, 0), min(hi, along)
    return (axis, line, lo, hi) if lo < hi else None


def _merge_runs(runs: Sequence[_Run]) -> tuple[tuple[Edge, ...], tuple[Edge, ...]]:
    """The unit edges of runs once each, and those covered more than once: per grid line (in the
    order first drawn) the runs are sorted and swept, so the work is the runs' count (log) plus
    the edges out, never the runs' total length."""
    by_line: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for axis, line, lo, hi in runs:
        spans = by_line.get((axis, line))
        if spans is None:
            by_line[(axis, line)] = [(lo, hi)]
        else:
            spans.append((lo, hi))
    edges: list[Edge] = []
    repeated: list[Edge] = []
    for (axis, line), spans in by_line.items():
        if len(spans) == 1:  # the usual case: nothing to merge
            edges += _unit_run(axis, line, *spans[0])
            continue
        spans.sort()
        covered = twice = spans[0][0]  # the union so far ends at covered, the repeats at twice
        for lo, hi in spans:
            if lo < covered:  # [lo, covered) was drawn before: repeated
                stop = min(hi, covered)
                repeated += _unit_run(axis, line, max(lo, twice), stop)
                twice = max(twice, stop)
            edges += _unit_run(axis, line, max(lo, covered), hi)
            covered = max(covered, hi)
    return tuple(edges), tuple(repeated)


def _unit_run(axis: str, line: int, lo: int, hi: int) -> list[Edge]:
    """The unit edges ``lo`` to ``hi`` (exclusive) along grid line ``axis`` ``line``."""
    known = _EDGES.get
    if axis == "V":
        return [known(("V", line, p)) or _edge("V", line, p) for p in range(lo, hi)]
    return [known(("H", p, line)) or _edge("H", p, line) for p in range(lo, hi)]


@dataclass(frozen=True)
class DoorTrace:
    """The edge a door shape sits on, or the problem ``(code, message)`` that keeps it off."""

    edge: Edge | None
    problem: tuple[str, str] | None
    snapped: int = 0


def centre_of(
    shape: str, x: Fraction, y: Fraction, width: Fraction, height: Fraction, points: Sequence[Point]
) -> Point:
    """The centre used for figures and door shapes: the point of a point object, else the box's."""
    if shape == "point" and points:
        return points[0]
    return x + width / 2, y + height / 2


def trace_door(
    shape: str,
    x: Fraction,
    y: Fraction,
    width: Fraction,
    height: Fraction,
    points: Sequence[Point],
) -> DoorTrace:
    """The edge a door object sits on (docs/maps.md "Doors").

    A two-point line along exactly one cell edge (vertices snapped), or any shape whose centre lies
    within :data:`DOOR_REACH` of an edge's midpoint and that is at most 1½ cells long.

    >>> F = Fraction
    >>> trace_door("polyline", F(2), F(1), F(0), F(2), ((F(2), F(1)), (F(2), F(3)))).problem[0]
    'door-too-long'
    """
    if shape in ("polyline", "polygon") and len(points) == 2:
        (a, moved_a), (b, moved_b) = snap(points[0]), snap(points[1])
        moved = moved_a + moved_b
        if a is None or b is None or a == b or (a[0] != b[0] and a[1] != b[1]):
            return DoorTrace(
                None, ("door-not-on-edge", "door line does not run along a grid edge; ignored"), moved
            )
        length = abs(a[0] - b[0]) + abs(a[1] - b[1])
        if length > 1:
            return DoorTrace(
                None,
                ("door-too-long", f"door line covers {length} edges; a door is one edge long; ignored"),
                moved,
            )
        edge = Edge("V", a[0], min(a[1], b[1])) if a[0] == b[0] else Edge("H", min(a[0], b[0]), a[1])
        return DoorTrace(edge, None, moved)
    cx, cy = centre_of(shape, x, y, width, height, points)
    vx, vy = Fraction(round(cx)), Fraction(math.floor(cy)) + Fraction(1, 2)
    hx, hy = Fraction(math.floor(cx)) + Fraction(1, 2), Fraction(round(cy))
    dv = (cx - vx) ** 2 + (cy - vy) ** 2
    dh = (cx - hx) ** 2 + (cy - hy) ** 2
    if min(dv, dh) > DOOR_REACH**2:
        return DoorTrace(
            None,
            (
                "door-not-on-edge",
                f"door centre {fmt_point((cx, cy))} is not within 1/4 square of an edge's midpoint; ignored",
            ),
        )
    if max(width, height) > DOOR_MAX_LENGTH:
        return DoorTrace(
            None,
            (
                "door-too-long",
                f"door is {fmt_number(max(width, height))} squares long; a door covers one edge; ignored",
            ),
        )
    if dv <= dh:
        return DoorTrace(Edge("V", int(vx), int(vy - Fraction(1, 2))), None)
    return DoorTrace(Edge("H", int(hx - Fraction(1, 2)), int(hy)), None)


def door_square(
    shape: str, x: Fraction, y: Fraction, width: Fraction, height: Fraction, points: Sequence[Point]
) -> Square | None:
    """The square a door object fills, when it is drawn as a whole square rather than on an edge
    (a door tile placed as a tile object, a box over the doorway): a rectangle, tile, ellipse or
    polygon at least :data:`DOOR_SQUARE` of a square each way and at most
    :data:`DOOR_MAX_LENGTH`; the square holding its centre. None for any other door.

    >>> F = Fraction
    >>> door_square("tile", F(2), F(5), F(1), F(1), ()), door_square("rectangle", F(2), F(5), F(1), F(1, 4), ())
    ((2, 5), None)
    """
    if shape not in ("rectangle", "tile", "ellipse", "polygon"):
        return None
    if min(width, height) < DOOR_SQUARE or max(width, height) > DOOR_MAX_LENGTH:
        return None
    return square_at(centre_of(shape, x, y, width, height, points))


def strip_edges(x: Fraction, y: Fraction, width: Fraction, height: Fraction) -> list[Edge]:
    """The grid edges a thin collision rectangle stands for: thinner than :data:`THIN`, with its
    centre line or one long side within :data:`SNAP` of a grid line, it walls that line along
    every unit edge it covers at least half of; [] for any other rectangle.

    >>> F = Fraction
    >>> [str(e) for e in strip_edges(F(2), F(3), F(2), F(1, 3))]  # a third of a square, hugging y=3
    ['H(2,3)', 'H(3,3)']
    >>> strip_edges(F(2), F(3, 2) - F(1, 8), F(2), F(1, 4))  # in the middle of a row: no line
    []
    """
    if min(width, height) >= THIN:
        return []
    horizontal = width >= height
    low, thick = (y, height) if horizontal else (x, width)
    line = None
    for edge_at in (low + thick / 2, low, low + thick):
        if abs(edge_at - round(edge_at)) <= SNAP:
            line = round(edge_at)
            break
    if line is None:
        return []
    start, length = (x, width) if horizontal else (y, height)
    out: list[Edge] = []
    for cell in range(math.floor(start), math.ceil(start + length)):
        covered = min(start + length, Fraction(cell + 1)) - max(start, Fraction(cell))
        if covered >= Fraction(1, 2):
            out.append(_edge("H", cell, line) if horizontal else _edge("V", line, cell))
    return out


def point_in_polygon(px: Fraction, py: Fraction, poly: Sequence[Point]) -> bool:
    """Whether a point lies inside a polygon (even-odd ray casting, exact).

    >>> F = Fraction
    >>> square = [(F(0), F(0)), (F(2), F(0)), (F(2), F(2)), (F(0), F(2))]
    >>> point_in_polygon(F(1), F(1), square), point_in_polygon(F(3), F(1), square)
    (True, False)
    """
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > py) != (y2 > py):
            cross = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if px < cross:
                inside = not inside
    return inside


def cells_inside(
    shape: str,
    x: Fraction,
    y: Fraction,
    width: Fraction,
    height: Fraction,
    points: Sequence[Point],
    skewed: bool,
    board: tuple[int, int],
) -> set[Square]:
    """The squares of a ``board`` (width, height) whose centres an area shape covers: a polygon
    (or a ``skewed`` rectangle) by its points, an ellipse by its box, a rectangle half-open.

    >>> F = Fraction
    >>> sorted(cells_inside("rectangle", F(1), F(0), F(2), F(1), (), False, (4, 4)))
    [(1, 0), (2, 0)]
    """
    x0, y0 = max(0, math.floor(x)), max(0, math.floor(y))
    x1 = min(board[0], math.ceil(x + width) + 1)
    y1 = min(board[1], math.ceil(y + height) + 1)
    polygon = list(points) if shape == "polygon" or skewed else None
    half = Fraction(1, 2)
    cells: set[Square] = set()
    for row in range(y0, y1):
        cy = row + half
        for column in range(x0, x1):
            cx = column + half
            if polygon is not None:
                inside = len(polygon) > 2 and point_in_polygon(cx, cy, polygon)
            elif shape == "ellipse":
                rx, ry = width / 2, height / 2
                inside = bool(rx and ry) and ((cx - x - rx) / rx) ** 2 + ((cy - y - ry) / ry) ** 2 <= 1
            else:
                inside = x <= cx < x + width and y <= cy < y + height
            if inside:
                cells.add((column, row))
    return cells


def axis_aligned(points: Sequence[Point]) -> bool:
    """Whether every segment of a path is horizontal or vertical."""
    return all(a[0] == b[0] or a[1] == b[1] for a, b in zip(points, points[1:], strict=False))


def shape_area(kind: str, points: Sequence[Point], width: Fraction, height: Fraction) -> Fraction:
    """The area of a closed shape (0 for lines and points); an ellipse's is close to, not exactly,
    pi/4 of its box (enough to decide "most of a tile").

    >>> F = Fraction
    >>> shape_area("polygon", [(F(0), F(0)), (F(1), F(0)), (F(0), F(1))], F(1), F(1))
    Fraction(1, 2)
    """
    if kind == "ellipse":
        return width * height * Fraction(355, 452)  # pi/4, close enough to decide "most of the tile"
    if len(points) > 2 and kind != "polyline":
        ring = zip(points, [*points[1:], *points[:1]], strict=True)
        return abs(sum((a[0] * b[1] - b[0] * a[1] for a, b in ring), Fraction(0))) / 2
    return Fraction(0)


def _thin_sides(x: Fraction, y: Fraction, w: Fraction, h: Fraction) -> list[str]:
    """The tile edge a thin rectangle or ellipse lies along (N/E/S/W), or []."""
    quarter, most = Fraction(1, 4), Fraction(3, 4)
    if w >= most and h <= quarter:
        cy = y + h / 2
        return ["N"] if cy <= quarter else ["S"] if cy >= most else []
    if h >= most and w <= quarter:
        cx = x + w / 2
        return ["W"] if cx <= quarter else ["E"] if cx >= most else []
    return []


def _segment_side(a: Point, b: Point) -> str | None:
    """The tile edge (N/E/S/W) a segment runs along, snapped, within one tile; None if none."""
    ca, cb = snap(a)[0], snap(b)[0]
    if ca is None or cb is None or ca == cb or not all(0 <= c <= 1 for c in (*ca, *cb)):
        return None
    if ca[1] == cb[1] and ca[1] in (0, 1):
        return "N" if ca[1] == 0 else "S"
    if ca[0] == cb[0] and ca[0] in (0, 1):
        return "W" if ca[0] == 0 else "E"
    return None


def border_sides(
    kind: str, points: Sequence[Point], x: Fraction, y: Fraction, w: Fraction, h: Fraction
) -> list[str]:
    """The tile edges (N/E/S/W) a collision shape draws, in tile units: a thin rectangle or ellipse
    along one edge, or a line whose every segment runs along the tile's border; [] otherwise.

    >>> F = Fraction
    >>> border_sides("polyline", [(F(0), F(0)), (F(1), F(0)), (F(1), F(1))], F(0), F(0), F(1), F(1))
    ['N', 'E']
    """
    if kind in ("rectangle", "ellipse"):
        return _thin_sides(x, y, w, h)
    if kind not in ("polyline", "polygon") or len(points) < 2:
        return []
    pairs = list(zip(points, points[1:], strict=False))
    if kind == "polygon":
        pairs.append((points[-1], points[0]))
    sides: list[str] = []
    for a, b in pairs:
        side = _segment_side(a, b)
        if side is None:
            return []
        if side not in sides:
            sides.append(side)
    return sides


def square_at(point: Point) -> Square:
    """The square holding a point (a figure stands on the square holding its centre).

    >>> square_at((Fraction(5, 2), Fraction(1, 2)))
    (2, 0)
    """
    return math.floor(point[0]), math.floor(point[1])


def side_edge(x: int, y: int, side: str) -> Edge:
    """The edge on side ``N``, ``E``, ``S`` or ``W`` of square ``(x, y)``.

    >>> str(side_edge(2, 3, "E"))
    'V(3,3)'
    """
    return side_edges([x], [y], side)[0]


def side_edges(xs: Sequence[int], ys: Sequence[int], side: str) -> list[Edge]:
    """The edges on side ``side`` (``N``, ``E``, ``S`` or ``W``) of the squares ``(xs[i], ys[i])``,
    each edge one shared object (a board's tile walls: up to a million of them).

    >>> [str(e) for e in side_edges([0, 2], [0, 3], "S")]
    ['H(0,1)', 'H(2,4)']
    """
    axis = "H" if side in ("N", "S") else "V"
    dx, dy = {"N": (0, 0), "S": (0, 1), "W": (0, 0), "E": (1, 0)}[side]
    known = _EDGES.get
    return [known((axis, x + dx, y + dy)) or _edge(axis, x + dx, y + dy) for x, y in zip(xs, ys, strict=True)]


__all__ = [
    "DOOR_HINT",
    "DOOR_MAX_LENGTH",
    "DOOR_REACH",
    "DOOR_SQUARE",
    "SNAP",
    "DoorTrace",
    "Point",
    "Segment",
    "WallTrace",
    "axis_aligned",
    "border_sides",
    "cells_inside",
    "door_square",
    "centre_of",
    "edge_in_map",
    "fmt_number",
    "fmt_point",
    "point_in_polygon",
    "shape_area",
    "side_edge",
    "side_edges",
    "snap",
    "square_at",
    "strip_edges",
    "trace_door",
    "trace_wall",
    "unit_edges",
    "wall_paths",
]
