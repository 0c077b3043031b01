"""Walls that are not on the grid: the one policy that puts a virtual-tabletop drawing on edges.

Maps painted in Dungeondraft, DungeonFog or Foundry draw walls where the painting is: cave
outlines, diagonal walls, walls a little off the grid lines, doors centred on a grid corner
(docs/vtt.md has the measurements of real files). Sightline's rules need grid edges, so every
drawn path is replaced by a **staircase of grid edges**, decided exactly:

1. every vertex goes to its nearest grid corner: ``(floor(x + 1/2), floor(y + 1/2))``. A vertex
   within :data:`TOLERANCE` (1/8 square, the Tiled snap of :mod:`game.tiled.geometry`) of a
   corner lands on that corner, so everything drawn on the grid stays exactly as drawn; a vertex
   half-way between two corners goes to the one to the right / below;
2. two consecutive corners are joined by the 4-connected staircase of unit edges nearest the
   **drawn** segment: from the corner that comes first (smaller x, then smaller y), each step
   goes along x or along y, whichever lands on the corner nearer the drawn line (on a tie, x);
3. where the staircase of one off-grid segment steps straight back over the staircase of the
   off-grid segment before it (a wobbly outline hugging the middle of a square), both steps are
   dropped: they would be a one-edge spur that the drawing does not have. Steps of segments on
   the grid are never dropped, so what is drawn on the grid stays exactly as drawn.

Why this policy (and not marking the squares a wall passes through as blocked, or keeping exact
segments): it needs nothing from the sight engine, its verdicts are the same exact rule as for
Tiled maps, and it never opens a gap: a vertex shared by two walls (or by a wall and a door) goes
to one corner, so joined walls stay joined and a closed room stays closed. Blocking the squares a
wall crosses would close the one-square corridors that cave maps are full of. The price is a
deviation of at most about 0.7 square, reported per wall (:func:`deviation_message`).

Everything is integer arithmetic on the drawing's exact values; the cost is the number of edges
traced, charged to a :class:`Budget` so that no file can ask for unbounded work.

>>> F = Fraction
>>> d = decide_path(((F(0), F(0)), (F(2), F(1))), closed=False)
>>> d.corners, d.off_grid, round(d.deviation, 3)
(((0, 0), (1, 0), (1, 1), (2, 1)), 1, 0.447)
>>> decide_path(((F(1, 16), F(2)), (F(3), F(2))), closed=False).corners  # on the grid: as drawn
((0, 2), (3, 2))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from game.core.board import Corner
from game.core.errors import MapError
from game.core.words import plural
from game.tiled.geometry import SNAP

Point = tuple[Fraction, Fraction]

#: a vertex this close (per axis) to a grid corner counts as on the grid (the Tiled snap)
TOLERANCE = SNAP
#: the most unit edges one file may make the policy trace (bounds time and memory)
MAX_TRACED_EDGES = 2_000_000


class Budget:
    """How many more unit edges may be traced for one file.

    >>> b = Budget(3); b.charge(2); b.left
    1
    >>> b.charge(2)
    Traceback (most recent call last):
    ...
    game.core.errors.MapError: the walls would take more than 3 grid edges to trace, over Sightline's limit (simplify the walls, or check that their coordinates are in squares)
    """

    def __init__(self, limit: int = MAX_TRACED_EDGES) -> None:
        self.limit = limit
        self.left = limit

    def charge(self, edges: int) -> None:
        """Take ``edges`` from the budget; a MapError when it runs out."""
        self.left -= edges
        if self.left < 0:
            raise MapError(
                f"the walls would take more than {self.limit:,} grid edges to trace, over "
                "Sightline's limit",
                hint="simplify the walls, or check that their coordinates are in squares",
            )


def _round(value: Fraction) -> int:
    """``floor(value + 1/2)`` in integers."""
    d = value.denominator
    if d == 1:
        return value.numerator
    return (2 * value.numerator + d) // (2 * d)


def nearest_corner(point: Point) -> Corner:
    """The grid corner a vertex goes to (half-way: right / down).

    >>> F = Fraction
    >>> nearest_corner((F(12), F(29, 2))), nearest_corner((F(-1, 2), F(3, 8)))
    ((12, 15), (0, 0))
    """
    return _round(point[0]), _round(point[1])


def _near(value: Fraction, line: int) -> bool:
    """``|value - line| <= TOLERANCE`` in integers."""
    n, d = value.numerator, value.denominator
    return abs(n - line * d) * TOLERANCE.denominator <= TOLERANCE.numerator * d


def near_corner(point: Point) -> bool:
    """Whether a vertex lies within :data:`TOLERANCE` (per axis) of its nearest corner."""
    cx, cy = nearest_corner(point)
    return _near(point[0], cx) and _near(point[1], cy)


def on_grid(p: Point, q: Point) -> bool:
    """Whether a drawn segment is on the grid: both ends near corners that share a line.

    >>> F = Fraction
    >>> on_grid((F(0), F(0)), (F(0), F(3))), on_grid((F(0), F(0)), (F(1), F(1)))
    (True, False)
    >>> on_grid((F(12), F(16)), (F(12), F(31, 2)))  # along a line, but ending mid-edge
    False
    """
    if not (near_corner(p) and near_corner(q)):
        return False
    (ax, ay), (bx, by) = nearest_corner(p), nearest_corner(q)
    return ax == bx or ay == by


def _scale(*values: Fraction) -> int:
    """The least common multiple of the denominators: multiplied by it, every value is whole."""
    common = 1
    for value in values:
        common = common * value.denominator // math.gcd(common, value.denominator)
    return common


def staircase(p: Point, q: Point) -> list[Corner]:
    """The corners of the staircase for the drawn segment ``p``-``q``, in the order p to q.

    Consecutive corners are one unit apart. The same segment drawn the other way gives the same
    corners reversed (the walk always starts at the corner that comes first).

    >>> F = Fraction
    >>> staircase((F(0), F(0)), (F(1), F(1)))
    [(0, 0), (1, 0), (1, 1)]
    >>> staircase((F(1), F(1)), (F(0), F(0)))
    [(1, 1), (1, 0), (0, 0)]
    >>> staircase((F(0), F(0)), (F(3), F(0)))
    [(0, 0), (1, 0), (2, 0), (3, 0)]
    """
    return _Segment(p, q).staircase(nearest_corner(p), nearest_corner(q))


class _Segment:
    """A drawn segment scaled to integers (every coordinate times ``scale``), for its staircase
    and exact squared distances from grid corners."""

    def __init__(self, p: Point, q: Point) -> None:
        self.scale = scale = _scale(p[0], p[1], q[0], q[1])
        self.px, self.py, self.qx, self.qy = (v.numerator * (scale // v.denominator) for v in (*p, *q))
        self.dx, self.dy = self.qx - self.px, self.qy - self.py
        self.length2 = self.dx * self.dx + self.dy * self.dy

    def staircase(self, a: Corner, b: Corner) -> list[Corner]:
        """The staircase from ``a`` (the corner of the drawn start) to ``b`` (of the drawn end),
        walked from the corner that comes first (:func:`staircase`)."""
        if b < a:
            return self._walk(b, a)[::-1]
        return self._walk(a, b)

    def _walk(self, a: Corner, b: Corner) -> list[Corner]:
        scale, px, py, dx, dy = self.scale, self.px, self.py, self.dx, self.dy
        # the drawn line: g(C) = dx * (Cy - py) - dy * (Cx - px), scaled; its sign does not
        # depend on the direction the segment is drawn in up to a factor -1, which |.| ignores
        sx = 1 if b[0] > a[0] else -1
        sy = 1 if b[1] > a[1] else -1
        x, y = a
        bx, by = b
        g = dx * (y * scale - py) - dy * (x * scale - px)
        step_x, step_y = -dy * sx * scale, dx * sy * scale
        corners = [a]
        while x != bx or y != by:
            if y == by or (x != bx and abs(g + step_x) <= abs(g + step_y)):
                x += sx
                g += step_x
            else:
                y += sy
                g += step_y
            corners.append((x, y))
        return corners

    def end_moved2(self, corner: Corner, end: int) -> tuple[int, int]:
        """The squared distance the drawn start (``end`` 0) or end (1) moves to ``corner``."""
        x, y = (self.px, self.py) if end == 0 else (self.qx, self.qy)
        ux, uy = corner[0] * self.scale - x, corner[1] * self.scale - y
        return ux * ux + uy * uy, self.scale * self.scale

    def distance2(self, corner: Corner) -> tuple[int, int]:
        """The squared distance from a corner to the segment, as (numerator, denominator)."""
        cx, cy = corner[0] * self.scale, corner[1] * self.scale
        ux, uy = cx - self.px, cy - self.py
        t = ux * self.dx + uy * self.dy
        square = self.scale * self.scale
        if self.length2 == 0 or t <= 0:
            return ux * ux + uy * uy, square
        if t >= self.length2:
            vx, vy = cx - self.qx, cy - self.qy
            return vx * vx + vy * vy, square
        cross = ux * self.dy - uy * self.dx
        return cross * cross, self.length2 * square


@dataclass(frozen=True)
class PathDecision:
    """What the policy decided for one drawn path.

    ``corners`` is the decided grid path (its turning points only; a closed path ends where it
    starts), ``edges`` the number of unit edges on it, ``segments`` the drawn segments and
    ``off_grid`` how many of them were not on the grid (:func:`on_grid`). ``worst2`` is the
    square of the deviation: over the off-grid segments, the largest of how far a drawn end moved
    to its corner and how far a decided corner lies from the drawn segment it stands for;
    ``worst_at`` is that corner (None when nothing was off the grid).
    """

    corners: tuple[Corner, ...]
    edges: int
    segments: int
    off_grid: int
    worst2: Fraction
    worst_at: Corner | None

    @property
    def deviation(self) -> float:
        """The largest distance, in squares, between the decided edges and the drawing."""
        return math.sqrt(self.worst2)


def _turning_points(corners: list[Corner]) -> tuple[Corner, ...]:
    """The corners where a unit-step path turns (and its two ends); repeats dropped.

    >>> _turning_points([(0, 0), (1, 0), (2, 0), (2, 1), (2, 1)])
    ((0, 0), (2, 0), (2, 1))
    >>> _turning_points([(0, 0), (0, 1), (0, 0)])  # turning back is a turn
    ((0, 0), (0, 1), (0, 0))
    """
    out: list[Corner] = []
    for corner in corners:
        if out and corner == out[-1]:
            continue
        if len(out) >= 2:
            (ax, ay), (bx, by), (cx, cy) = out[-2], out[-1], corner
            straight_on = (ax == bx == cx and (by - ay) * (cy - by) > 0) or (
                ay == by == cy and (bx - ax) * (cx - bx) > 0)
            if straight_on:  # the same direction: b is no turning point (a path may turn back)
                out[-1] = corner
                continue
        out.append(corner)
    return tuple(out)


def decide_path(points: Sequence[Point], closed: bool, budget: Budget | None = None) -> PathDecision:
    """The grid path for a drawn path (see the module docstring); ``closed`` adds the segment from
    the last point back to the first. ``budget`` (default: a fresh one) is charged the edges."""
    budget = budget or Budget()
    ring = list(points)
    if closed and len(points) > 2 and points[0] != points[-1]:
        ring.append(points[0])
    at = [nearest_corner(p) for p in ring]  # each vertex's corner, and whether it lies near it
    near = [_near(p[0], c[0]) and _near(p[1], c[1]) for p, c in zip(ring, at, strict=True)]
    corners: list[Corner] = at[:1]
    off, floor = 0, 0
    worst, worst_at = (0, 1), None
    for i in range(len(ring) - 1):
        p, q, a, b = ring[i], ring[i + 1], at[i], at[i + 1]
        budget.charge(abs(b[0] - a[0]) + abs(b[1] - a[1]))
        if (a[0] == b[0] or a[1] == b[1]) and near[i] and near[i + 1]:  # on the grid
            corners.append(b)
            floor = len(corners) - 1
            continue
        off += 1
        drawn = _Segment(p, q)
        run = drawn.staircase(a, b)
        for corner in run[1:]:
            if len(corners) - 2 >= floor and corners[-2] == corner:
                corners.pop()  # a step straight back over an off-grid step: a spur, not a wall
            else:
                corners.append(corner)
        candidates = [(a, drawn.end_moved2(a, 0)), (b, drawn.end_moved2(b, 1))]
        candidates += [(c, drawn.distance2(c)) for c in run]
        for corner, (num, den) in candidates:
            if worst_at is None or num * worst[1] > worst[0] * den:
                worst, worst_at = (num, den), corner
    turns = _turning_points(corners)
    edges = sum(abs(x1 - x0) + abs(y1 - y0) for (x0, y0), (x1, y1) in zip(turns, turns[1:], strict=False))
    return PathDecision(turns, edges, max(0, len(ring) - 1), off, Fraction(*worst), worst_at)


def deviation_message(source: str, what: str, decision: PathDecision) -> str | None:
    """One line saying how the decided path differs from the drawing; None when it does not.

    >>> F = Fraction
    >>> d = decide_path(((F(0), F(0)), (F(2), F(1)), (F(2), F(3))), closed=False)
    >>> deviation_message("line_of_sight[4]", "wall", d)
    'line_of_sight[4]: wall with 1 of 2 segments off the grid, drawn as a staircase of 5 grid edges at most 0.45 squares from the drawing (the farthest at grid corner (1,0))'
    """
    if not decision.off_grid or decision.worst_at is None:
        return None
    x, y = decision.worst_at
    if not decision.edges:
        return (f"{source}: {what} shorter than the grid (its ends go to one corner, ({x},{y})); "
                "dropped")
    return (
        f"{source}: {what} with {decision.off_grid} of {plural(decision.segments, 'segment')} off "
        f"the grid, drawn as a staircase of {plural(decision.edges, 'grid edge')} at most {decision.deviation:.2f} "
        f"squares from the drawing (the farthest at grid corner ({x},{y}))"
    )


__all__ = [
    "MAX_TRACED_EDGES", "TOLERANCE", "Budget", "PathDecision", "decide_path", "deviation_message",
    "near_corner", "nearest_corner", "on_grid", "staircase",
]
