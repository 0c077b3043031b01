"""The slow, obviously correct reference for line of sight on hex boards.

Pure: integers (and Fractions only to order what a line meets); no fast path is used. Written
straight from the rule (docs/hex.md, "The rule"): for every candidate line between the permitted
points of A and B (centre or corners), every cell, edge and corner near the line is tested with
exact orientation tests:

* a blocking cell (not A or B) whose open interior the segment meets blocks (Cyrus-Beck clipping
  against the six open half-planes of the hexagon);
* a wall edge crossed at an interior point of both blocks; a wall edge the segment overlaps for a
  positive length is *run along*: ``along_wall = blocks`` blocks, ``clear`` lets the sector rule
  judge its two corners with the line pushed to one side, the same side at both (both are tried);
* an edge run along is also judged by ``touch`` from the cells on its two sides (point by point:
  ``blocks`` if either blocks, ``both-sides`` if both do);
* at every corner on the segment the **sector rule**: the wall arms at the corner cut the
  directions around it into sectors; the line is blocked when the direction it comes from and the
  direction it leaves in lie in different sectors (at a corner end point the line comes from, or
  goes into, its own hex's centre). Then ``touch`` for what the corner only touches: wall arms not
  run along and blocking cells neither entered nor ends: ``blocks`` any of them, ``both-sides``
  when both angular sides between the two directions hold one, ``clear`` never;
* at a corner end point ``endpoint_touch = clear`` keeps only the sector rule; ``blocks`` blocks
  on any wall arm there and judges the cells there by ``touch`` like any other point;
* a zero-length line (A and B share the corner) is judged by the sector rule alone (and with
  ``endpoint_touch = blocks`` by the walls at the corner).

B is in sight when some candidate line is clear; A always sees A.

>>> from game.core.hexgrid import HexGrid
>>> from game.core.hex_board import HexBoard, HexView
>>> from game.core.hex_rules import parse_hex_rule
>>> g = HexGrid(3, 3)
>>> b = HexBoard.build(g, blocked=[(0, 1)])
>>> reference(HexView(b, parse_hex_rule("hexside")), (1, 0), (1, 2)).clear
True
>>> reference(HexView(b, parse_hex_rule("hex-strict")), (1, 0), (1, 2)).explain()
'Blocked under hex-strict: the line from the centre of (1,0) to the centre of (1,2) touches blocked terrain at (0,1) at the corner (2,2) of (0,1), (1,0) and (1,1) (touch=blocks).'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key, lru_cache

from game.core.hex_board import HexView
from game.core.hex_result import HexSightResult, decide
from game.core.hexgrid import Cell, HexEdge, HexGrid, Point, fmt_point

__all__ = ["check_line", "reference"]

Vec = tuple[int, int]


def _sub(a: Point, b: Point) -> Vec:
    return (a[0] - b[0], a[1] - b[1])


def _cross(u: Vec, v: Vec) -> int:
    return u[0] * v[1] - u[1] * v[0]


def _dot(u: Vec, v: Vec) -> int:
    return u[0] * v[0] + u[1] * v[1]


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _angle_cmp(u: Vec, v: Vec) -> int:
    """Compare two directions by their angle in [0, 2π) (exact)."""
    hu = 0 if (u[1] > 0 or (u[1] == 0 and u[0] > 0)) else 1
    hv = 0 if (v[1] > 0 or (v[1] == 0 and v[0] > 0)) else 1
    if hu != hv:
        return hu - hv
    return -_sign(_cross(u, v))


class _Corner:
    """The local picture at a corner: three arms in angular order and the three wedges between
    them (wedge ``k`` between arm ``k`` and arm ``k + 1``) with their cells. Positions around the
    corner: ``2k`` is arm ``k``, ``2k + 1`` wedge ``k``. Geometry only (the board's walls are
    looked up by the caller)."""

    def __init__(self, grid: HexGrid, g: Point) -> None:
        cells = grid.corner_cells(g)
        ends: set[Point] = set()
        for c in cells:
            cs = grid.corners(c)
            i = cs.index(g)
            ends |= {cs[(i + 1) % 6], cs[(i - 1) % 6]}
        self.g = g
        self.arms: list[Vec] = sorted((_sub(e, g) for e in ends), key=cmp_to_key(_angle_cmp))
        self.edges = [HexEdge.of(g, (g[0] + v[0], g[1] + v[1])) for v in self.arms]
        self.cells: list[Cell] = []
        for k in range(3):
            u, w = self.arms[k], self.arms[(k + 1) % 3]
            self.cells.append(next(c for c in cells if self._between(u, _sub(grid.centre(c), g), w)))

    @staticmethod
    def _between(u: Vec, d: Vec, w: Vec) -> bool:
        return _cross(u, d) > 0 and _cross(d, w) > 0

    def position(self, d: Vec) -> int:
        """The position (arm or wedge) of a direction ``d`` leaving the corner."""
        for k, v in enumerate(self.arms):
            if _cross(v, d) == 0 and _dot(v, d) > 0:
                return 2 * k
        for k in range(3):
            if self._between(self.arms[k], d, self.arms[(k + 1) % 3]):
                return 2 * k + 1
        raise AssertionError("a direction lies on an arm or in a wedge")

    def pushed(self, position: int, line: Vec, side: int) -> int:
        """An arm position pushed into the wedge beside it on ``side`` (+1/-1) of the line."""
        if position % 2:
            return position
        k = position // 2
        for wedge in ((position + 1) % 6, (position - 1) % 6):
            other = self.arms[(k + 1) % 3] if wedge == (position + 1) % 6 else self.arms[(k - 1) % 3]
            bisector = (self.arms[k][0] + other[0], self.arms[k][1] + other[1])
            if _sign(_cross(line, bisector)) == side:
                return wedge
        raise AssertionError("one wedge lies on each side of an arm")

    @staticmethod
    def separated(p1: int, p2: int, walls: list[str | None]) -> bool:
        """The sector rule: both arcs strictly between positions p1 and p2 hold a wall arm."""
        if p1 == p2:
            return False
        arc1 = [(p1 + k) % 6 for k in range(1, (p2 - p1) % 6)]
        arc2 = [(p2 + k) % 6 for k in range(1, (p1 - p2) % 6)]
        return any(p % 2 == 0 and walls[p // 2] for p in arc1) and any(p % 2 == 0 and walls[p // 2] for p in arc2)

    def name(self) -> str:
        """``the corner (2,2) of (1,0), (0,1) and (1,1)``."""
        cells = sorted(self.cells)
        return f"the corner {fmt_point(self.g)} of {fmt_point(cells[0])}, {fmt_point(cells[1])} and {fmt_point(cells[2])}"


def _clip_interior(hexagon: tuple[Point, ...], p: Point, d: Vec) -> Fraction | None:
    """Where the segment ``p + t·d`` (0 <= t <= 1) first meets the open hexagon, or None."""
    orient = _sign(_cross(_sub(hexagon[1], hexagon[0]), _sub(hexagon[2], hexagon[0])))
    lo, hi = Fraction(-1), Fraction(2)
    for i, c in enumerate(hexagon):
        e = _sub(hexagon[(i + 1) % 6], c)
        alpha = orient * _cross(e, _sub(p, c))
        beta = orient * _cross(e, d)
        if beta == 0:
            if alpha <= 0:
                return None
        elif beta > 0:
            lo = max(lo, Fraction(-alpha, beta))
        else:
            hi = min(hi, Fraction(-alpha, beta))
    if lo < hi and lo < 1 and hi > 0:
        return max(lo, Fraction(0))
    return None


def _near_cells(grid: HexGrid, p: Point, q: Point) -> list[Cell]:
    """Every cell (on or off the map) whose centre lies within 3 lattice units of the segment's
    bounding box: every cell the segment can meet (a hex reaches 2 units from its centre)."""
    found = []
    for x in range(min(p[0], q[0]) - 3, max(p[0], q[0]) + 4):
        for y in range(min(p[1], q[1]) - 3, max(p[1], q[1]) + 4):
            cell = grid.cell_at((x, y))
            if cell is not None:
                found.append(cell)
    return found


@lru_cache(maxsize=1 << 14)
def _corner(grid: HexGrid, g: Point) -> _Corner:
    return _Corner(grid, g)


@dataclass(frozen=True)
class _Geometry:
    """What one segment meets, whatever the board holds: the cells whose open interior it meets,
    the edges it crosses at an interior point, the edges it runs along, the corners on it (with
    the positions it comes from and leaves to), each with the parameter ``t`` where it is met."""

    cells: tuple[tuple[Fraction, Cell], ...]
    crossed: tuple[tuple[Fraction, HexEdge], ...]
    runs: tuple[tuple[Fraction, HexEdge], ...]
    corners: tuple[tuple[Fraction, Point, int, int], ...]


@lru_cache(maxsize=1 << 16)
def _geometry(grid: HexGrid, a: Cell, b: Cell, p: Point, q: Point) -> _Geometry:
    d = _sub(q, p)
    length = _dot(d, d)
    near = _near_cells(grid, p, q)
    cells = []
    for c in near:
        t = _clip_interior(grid.corners(c), p, d)
        if t is not None:
            cells.append((t, c))
    crossed, runs = [], []
    for edge in sorted({e for c in near for e in grid.edges_of(c)}):
        o1, o2 = _cross(d, _sub(edge.a, p)), _cross(d, _sub(edge.b, p))
        if o1 == 0 and o2 == 0:
            s1, s2 = sorted((_dot(_sub(edge.a, p), d), _dot(_sub(edge.b, p), d)))
            if max(s1, 0) < min(s2, length):
                runs.append((Fraction(max(s1, 0), length), edge))
        elif o1 * o2 < 0:
            e = _sub(edge.b, edge.a)
            o3, o4 = _cross(e, _sub(p, edge.a)), _cross(e, _sub(q, edge.a))
            if o3 * o4 < 0:
                crossed.append((Fraction(o3, o3 - o4), edge))
    corners = []
    for g in sorted({g for c in near for g in grid.corners(c)}):
        s = _dot(_sub(g, p), d)
        if _cross(d, _sub(g, p)) != 0 or not 0 <= s <= length:
            continue
        corner = _corner(grid, g)
        came = _sub(grid.centre(a), g) if g == p else (-d[0], -d[1])
        goes = _sub(grid.centre(b), g) if g == q else d
        corners.append((Fraction(s, length), g, corner.position(came), corner.position(goes)))
    return _Geometry(tuple(cells), tuple(crossed), tuple(runs), tuple(corners))


Event = tuple[Fraction, int, str]


def _along_touch(view: HexView, a: Cell, b: Cell, edge: HexEdge) -> str | None:
    """``touch`` along a hexside: the two cells beside the edge (end cells never block)."""
    rule = view.profile.touch
    if rule == "clear":
        return None
    sides = [(c, why) for c in view.grid.edge_cells(edge) if c not in (a, b) and (why := view.cell(c))]
    where = view.board.edge_words(edge)
    if rule == "blocks" and sides:
        c, why = sides[0]
        return f"runs along the edge {where} beside {why} at {fmt_point(c)} (touch=blocks)"
    if rule == "both-sides" and len(sides) == 2:
        (c1, w1), (c2, w2) = sides
        return f"runs along the edge {where} with both sides closed: {w1} at {fmt_point(c1)}; {w2} at {fmt_point(c2)}"
    return None


def _touch_at(view: HexView, a: Cell, b: Cell, corner: _Corner, back: int, ahead: int, at_end: bool) -> str | None:
    """``touch`` (and ``endpoint_touch = blocks``) at a corner whose sector rule passed."""
    rule = view.profile
    walls = [view.wall(e) for e in corner.edges]
    if at_end and rule.endpoint_touch == "blocks" and any(walls):
        wall = next(w for w in walls if w)
        return f"ends at {corner.name()}, which lies on {wall} (endpoint_touch=blocks)"
    if rule.touch == "clear":
        return None
    touched: dict[int, str] = {}
    for k in range(3):
        if walls[k] and 2 * k not in (back, ahead):
            touched[2 * k] = f"the end of {walls[k]}"
        cell = corner.cells[k]
        if 2 * k + 1 not in (back, ahead) and cell not in (a, b) and (why := view.cell(cell)):
            touched[2 * k + 1] = f"{why} at {fmt_point(cell)}"
    if not touched:
        return None
    if rule.touch == "blocks":
        return f"touches {touched[min(touched)]} at {corner.name()} (touch=blocks)"
    side1 = [touched[p] for k in range(1, (back - ahead) % 6) if (p := (ahead + k) % 6) in touched]
    side2 = [touched[p] for k in range(1, (ahead - back) % 6) if (p := (back + k) % 6) in touched]
    if side1 and side2:
        return f"has both sides closed at {corner.name()}: {', '.join(side1)}; {', '.join(side2)}"
    return None


def _stretch(view: HexView, geo: _Geometry, edge: HexEdge, d: Vec) -> str | None:
    """A wall run along with ``along_wall = clear``: the line keeps one side of it for the whole
    edge; blocked when, for either side, the sector rule fails at one of its two corners."""
    at = {g: (back, ahead) for _, g, back, ahead in geo.corners}
    failures = []
    for side in (1, -1):
        bad = None
        for g in (edge.a, edge.b):
            corner = _corner(view.grid, g)
            back, ahead = at[g]
            walls = [view.wall(e) for e in corner.edges]
            if corner.separated(corner.pushed(back, d, side), corner.pushed(ahead, d, side), walls):
                bad = f"the walls meeting at {corner.name()} cut it"
                break
        if bad is None:
            return None
        failures.append(bad)
    return f"runs along {view.wall(edge)} and is cut on either side: {failures[0]}"


def _zero_length(view: HexView, a: Cell, b: Cell, g: Point) -> str | None:
    """A and B share the corner ``g``: the sector rule between their wedges (and with
    ``endpoint_touch = blocks`` any wall at the corner)."""
    corner = _corner(view.grid, g)
    grid = view.grid
    walls = [view.wall(e) for e in corner.edges]
    pa, pb = corner.position(_sub(grid.centre(a), g)), corner.position(_sub(grid.centre(b), g))
    if corner.separated(pa, pb, walls):
        return f"is cut by the walls meeting at {corner.name()}, between {fmt_point(a)} and {fmt_point(b)}"
    if view.profile.endpoint_touch == "blocks" and any(walls):
        wall = next(w for w in walls if w)
        return f"is the corner {fmt_point(g)}, which lies on {wall} (endpoint_touch=blocks)"
    return None


def check_line(view: HexView, a: Cell, b: Cell, p: Point, q: Point) -> str | None:
    """What first blocks the segment from ``p`` (A's centre or a corner of A) to ``q`` (B's), in
    words, or None when it is clear."""
    if p == q:
        return _zero_length(view, a, b, p)
    geo = _geometry(view.grid, a, b, p, q)
    d = _sub(q, p)
    rule = view.profile
    events: list[Event] = []
    for t, c in geo.cells:
        if c not in (a, b) and (why := view.cell(c)):
            events.append((t, 3, f"passes through hex {fmt_point(c)}, {why}"))
    for t, edge in geo.crossed:
        if wall := view.wall(edge):
            events.append((t, 1, f"crosses {wall}"))
    stretched: set[Point] = set()
    for t, edge in geo.runs:
        wall = view.wall(edge)
        if wall and rule.along_wall == "blocks":
            events.append((t, 2, f"runs along {wall} (along_wall=blocks)"))
        elif wall:
            stretched |= {edge.a, edge.b}
            if (why := _stretch(view, geo, edge, d)) is not None:
                events.append((t, 2, why))
        if (why := _along_touch(view, a, b, edge)) is not None:
            events.append((t, 2, why))
    for t, g, back, ahead in geo.corners:
        corner = _corner(view.grid, g)
        walls = [view.wall(e) for e in corner.edges]
        if g not in stretched and corner.separated(back, ahead, walls):
            events.append((t, 0, f"is cut by the walls meeting at {corner.name()}"))
            continue
        at_end = g in (p, q)
        if at_end and rule.endpoint_touch == "clear":
            continue
        if (why := _touch_at(view, a, b, corner, back, ahead, at_end)) is not None:
            events.append((t, 0, why))
    return min(events)[2] if events else None


def reference(view: HexView, a: Cell, b: Cell) -> HexSightResult:
    """The verdict for A → B under the view's rule, by testing every candidate line exactly: the
    first clear line, or the blocked candidates (up to 16) and how many were checked."""
    return decide(view.grid, a, b, view.viewer, view.profile, lambda p, q: check_line(view, a, b, p, q))
