"""Exact line of sight under any rule profile (:mod:`game.core.profiles`), with cover grades.

Pure: no pygame, no files, no clock. Integers and :class:`fractions.Fraction` only, never floats.
The ``arcadia`` preset is decided by :mod:`game.core.los` itself (the same verdicts, the same
explanations); every other profile by the segment rule below. See docs/line-of-sight.md, "Rule
profiles", for the rule text this module implements.

The segment rule (one straight segment from ``p`` to ``q``; ``p`` is a corner or an interior
point of A's square, ``q`` of B's):

* walking the segment, every point where ``x`` or ``y`` is an integer is an *event*; between two
  events the segment is inside one square, or runs along one grid edge;
* inside a square other than A's and B's: blocked if the square blocks (void, blocked terrain,
  figures as the profile's ``figures`` says; off the map counts as void);
* crossing an edge at an interior point of the edge: blocked if the edge is a wall (a sight-blocking
  wall or door; with ``boundary = closed`` also every edge of a void or off-map square);
* running along an edge: ``along_wall`` for a wall edge, ``along_square`` when a blocking square lies
  on either side;
* at a grid point: the **sector rule** (the wall arms meeting there cut the directions around it
  into sectors; blocked when the line arrives in one sector and leaves in another; at a corner
  endpoint the arriving/leaving direction is the own square's diagonal; running along a wall arm,
  the direction is pushed to the side the line keeps for that whole stretch, both sides are tried);
  then ``corner_touch`` for what the point only touches (wall arms not run along, blocking squares
  neither entered nor run along): ``clear`` never, ``blocks`` always, ``both-sides`` when both angular
  sides between the arriving and leaving directions hold something touched.

>>> from game.core.board import Board
>>> from game.core.profiles import parse_rule
>>> b = Board.from_ascii(["...", ".#.", "..."])
>>> r = line_of_sight(b, (0, 0), (2, 2), parse_rule("corners"))
>>> r.clear, r.explain()
(True, 'Clear under corners: the line from corner (1,0) to corner (3,2) is clear.')
>>> line_of_sight(b, (0, 0), (2, 2), parse_rule("any-point")).clear
False
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np

from game.core import los
from game.core.any_fov import applies as any_fov_applies
from game.core.any_fov import visible_any
from game.core.board import Board, Edge, Square, fmt_square
from game.core.errors import PlacementError
from game.core.profile_fov import corner_candidates, fast_corner_rule, sight_arrays
from game.core.profiles import Profile

__all__ = [
    "CoverResult",
    "LineCheck",
    "ProfileResult",
    "all_pairs",
    "check_segment",
    "cover_of",
    "fmt_point",
    "line_of_sight",
    "line_of_sight_reference",
    "visible_from",
]

Point = tuple[Fraction, Fraction]
EndKind = Literal["centre", "corner", "interior"]
HALF = Fraction(1, 2)

# Directions around a grid point, y growing down: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE.
# Even positions are the four arms (edges), odd positions the four quadrants (squares).
_POS = {(1, 0): 0, (1, 1): 1, (0, 1): 2, (-1, 1): 3, (-1, 0): 4, (-1, -1): 5, (0, -1): 6, (1, -1): 7}
_NAMES = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def _sign(v: Fraction | int) -> int:
    return (v > 0) - (v < 0)


def _pos(vx: Fraction | int, vy: Fraction | int) -> int:
    return _POS[(_sign(vx), _sign(vy))]


def _arm(g: tuple[int, int], position: int) -> Edge:
    gx, gy = g
    return (Edge("H", gx, gy), Edge("V", gx, gy), Edge("H", gx - 1, gy), Edge("V", gx, gy - 1))[position // 2]


def _quadrant_square(g: tuple[int, int], position: int) -> Square:
    gx, gy = g
    return {1: (gx, gy), 3: (gx - 1, gy), 5: (gx - 1, gy - 1), 7: (gx, gy - 1)}[position]


def _quadrant_of(sq: Square, g: tuple[int, int]) -> int:
    return _pos(2 * sq[0] + 1 - 2 * g[0], 2 * sq[1] + 1 - 2 * g[1])


def fmt_point(p: Point) -> str:
    """An exact point as people write it: ``(1,0)``, ``(9/10,1/2)``.

    >>> fmt_point((Fraction(1), Fraction(3, 2)))
    '(1,3/2)'
    """
    return f"({p[0]},{p[1]})"


# --- the board as the profile sees it -------------------------------------------------------


class _Geo:
    """What one profile and viewer see of one board version: walls and blocking squares, cached."""

    def __init__(self, board: Board, profile: Profile, viewer: str | None, figures: str) -> None:
        self.board = board
        self.profile = profile
        self.viewer = viewer
        self.figures = figures
        self.closed = profile.boundary == "closed"
        self._walls: dict[Edge, str | None] = {}
        self._squares: dict[Square, str | None] = {}
        self._vertices: dict[tuple[object, ...], str | None] = {}
        self.fast: object | None = None  # game.core.profile_fov's arrays, built on first use

    def wall(self, edge: Edge) -> str | None:
        """Why an edge is a wall for sight, or None."""
        found = self._walls.get(edge, "?")
        if found != "?":
            return found
        board = self.board
        reason: str | None = None
        if board.edge_blocks_sight(edge):
            kind = board.edge_kind(edge)
            if kind == "door":
                reason = f"{board.doors[edge].state.value} door on {edge}"
            else:
                reason = f"wall {edge}"
        elif self.closed:
            s1, s2 = edge.squares()
            if not board.in_bounds(s1) or not board.in_bounds(s2):
                reason = f"the board's edge {edge}"
            elif board.is_void(s1) or board.is_void(s2):
                reason = f"the edge {edge} of a void square"
        self._walls[edge] = reason
        return reason

    def square(self, sq: Square) -> str | None:
        """Why a square blocks (as an obstacle, never asked for the end squares), or None."""
        found = self._squares.get(sq, "?")
        if found != "?":
            return found
        board = self.board
        reason: str | None
        if board.is_void(sq):
            reason = "off the board"
        elif sq in board.blocked:
            reason = "blocked terrain"
        elif self.figures == "enemies-at-capacity":
            reason = board.square_block_reason(sq, self.viewer)
        elif self.figures == "any":
            here = board.figures_at(sq)
            reason = "figure " + " and ".join(f.label for f in here) if here else None
        else:
            reason = None
        self._squares[sq] = reason
        return reason

    def vertex(
        self, g: tuple[int, int], p1: int, p2: int, ends: tuple[Square, Square], same: bool = False
    ) -> str | None:
        """:func:`_vertex` without a side push, memoised (the end squares matter only near ``g``)."""
        near = tuple(sq for sq in ends if abs(sq[0] * 2 + 1 - g[0] * 2) == 1 and abs(sq[1] * 2 + 1 - g[1] * 2) == 1)
        key = (g, p1, p2, near, same)
        found = self._vertices.get(key, "?")
        if found == "?":
            found = self._vertices[key] = _vertex(self, g, p1, p2, ends, None, same)
        return found

    def obstacle_vertex(self, g: tuple[int, int], ends: tuple[Square, Square]) -> bool:
        """Whether a wall arm or a blocking square (not an end square) meets grid point ``g``."""
        if any(self.wall(_arm(g, p)) for p in (0, 2, 4, 6)):
            return True
        return any(
            (sq := _quadrant_square(g, p)) not in ends and self.square(sq) for p in (1, 3, 5, 7)
        )


_GEO_CACHE: weakref.WeakKeyDictionary[Board, dict[tuple[object, ...], _Geo]] = weakref.WeakKeyDictionary()


def _geo(board: Board, profile: Profile, viewer: str | None, figures: str | None = None) -> _Geo:
    figures = figures or profile.figures
    per_board = _GEO_CACHE.setdefault(board, {})
    key = (board.version, profile, viewer, figures)
    found = per_board.get(key)
    if found is None:
        if len(per_board) > 64:
            per_board.clear()
        found = per_board[key] = _Geo(board, profile, viewer, figures)
    return found


# --- one segment ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineCheck:
    """One candidate line and its verdict: ``blocker`` is None when clear, else what blocks it."""

    start: Point
    end: Point
    start_kind: EndKind
    end_kind: EndKind
    blocker: str | None

    @property
    def clear(self) -> bool:
        """True when nothing blocks this line."""
        return self.blocker is None

    def describe(self) -> str:
        """``corner (1,0) to corner (3,2)``."""
        words = {"centre": "the centre", "corner": "corner", "interior": "point"}
        return f"{words[self.start_kind]} {fmt_point(self.start)} to {words[self.end_kind]} {fmt_point(self.end)}"

    def as_json(self) -> dict[str, object]:
        """``{"from", "to", "from_kind", "to_kind", "clear", "blocker"}`` (points as text)."""
        return {
            "from": [str(self.start[0]), str(self.start[1])],
            "to": [str(self.end[0]), str(self.end[1])],
            "from_kind": self.start_kind,
            "to_kind": self.end_kind,
            "clear": self.clear,
            "blocker": self.blocker,
        }


def _separated(p1: int, p2: int, walls: set[int]) -> bool:
    """The sector rule: both arcs strictly between directions p1 and p2 hold a wall arm."""
    if p1 == p2:
        return False
    arc1 = {(p1 + k) % 8 for k in range(1, (p2 - p1) % 8)}
    arc2 = {(p2 + k) % 8 for k in range(1, (p1 - p2) % 8)}
    return bool(arc1 & walls) and bool(arc2 & walls)


def _push(position: int, side: tuple[int, int]) -> int:
    """An arm direction pushed to one side (a quadrant); quadrants stay."""
    if position % 2:
        return position
    vx, vy = ((1, 0), (0, 1), (-1, 0), (0, -1))[position // 2]
    return _pos(vx if vx else side[0], vy if vy else side[1])


def _vertex_rule(
    walls: set[int], squares: set[int], p1: int, p2: int, side: tuple[int, int] | None, same: bool, touch_rule: str
) -> tuple[str, list[int], list[int]] | None:
    """The sector rule and corner_touch at one grid point, on positions only: ``walls`` the wall arms,
    ``squares`` the blocking quadrants (end squares left out). None when the line passes, else
    ``("sector", [], [])``, ``("touch", [p], [])`` or ``("both", side1, side2)`` (what was touched)."""
    q1, q2 = (p1, p2) if side is None else (_push(p1, side), _push(p2, side))
    if _separated(q1, q2, walls):
        return ("sector", [], [])
    if touch_rule == "clear" or (p1 == p2 and (same or touch_rule == "both-sides")):
        return None
    excluded = {p1, p2}
    for p in (p1, p2):
        if p % 2 == 0:
            excluded |= {(p + 1) % 8, (p - 1) % 8}
    touched = (walls | squares) - excluded
    if not touched:
        return None
    if touch_rule == "blocks":
        return ("touch", [min(touched)], [])
    t1 = [q for k in range(1, (p2 - p1) % 8) if (q := (p1 + k) % 8) in touched]
    t2 = [q for k in range(1, (p1 - p2) % 8) if (q := (p2 + k) % 8) in touched]
    if t1 and t2:
        return ("both", t1, t2)
    return None


@lru_cache(maxsize=1024)
def vertex_table(
    corner_touch: str, p1: int, p2: int, same: bool, side: tuple[int, int] | None = None
) -> np.ndarray:
    """Bool (256,): whether :func:`_vertex_rule` blocks a line arriving from direction ``p1`` and
    leaving in direction ``p2`` at a grid point whose wall arms and blocking squares are the bits
    of the index (bit p for direction p; ``side`` pushes along-wall directions). The fast FOV
    (:mod:`game.core.profile_fov`) looks grid points up in it."""
    return np.array(
        [_vertex_rule({p for p in (0, 2, 4, 6) if bits >> p & 1}, {p for p in (1, 3, 5, 7) if bits >> p & 1},
                      p1, p2, side, same, corner_touch) is not None
         for bits in range(256)],
        dtype=bool,
    )


def _vertex(
    geo: _Geo, g: tuple[int, int], p1: int, p2: int, ends: tuple[Square, Square], side: tuple[int, int] | None,
    same: bool = False,
) -> str | None:
    """The sector rule and corner_touch at grid point ``g`` (:func:`_vertex_rule`), in words;
    ``side`` pushes along-wall directions.

    ``same``: at a corner endpoint, the line's direction is exactly its own square's diagonal (it
    runs straight through the square's centre), so it touches nothing there. When it only heads
    into its own quadrant at another angle, one angular side is empty (both-sides never blocks)
    and everything else at the point is touched (``blocks`` blocks on any of it).
    """
    walls = {p for p in (0, 2, 4, 6) if geo.wall(_arm(g, p))}
    reasons: dict[int, str] = {}
    for p in (1, 3, 5, 7):
        sq = _quadrant_square(g, p)
        if sq not in ends and (reason := geo.square(sq)):
            reasons[p] = f"{reason} at {fmt_square(sq)}"
    found = _vertex_rule(walls, set(reasons), p1, p2, side, same, geo.profile.corner_touch)
    if found is None:
        return None
    where = fmt_square(g)
    kind, t1, t2 = found
    if kind == "sector":
        names = " and ".join(str(_arm(g, p)) for p in sorted(walls))
        return f"the walls meeting at {where} ({names}) separate the line's two sides"

    def what(p: int) -> str:
        return reasons[p] if p % 2 else f"wall end {_arm(g, p)}"

    if kind == "touch":
        return f"touches {what(t1[0])} at {where} (corner_touch=blocks)"
    return f"both sides closed at {where}: {', '.join(map(what, t1))}; {', '.join(map(what, t2))}"


def check_segment(
    geo: _Geo, a: Square, b: Square, p: Point, q: Point, p_kind: EndKind, q_kind: EndKind
) -> LineCheck:
    """Decide one segment from ``p`` (of square ``a``) to ``q`` (of square ``b``), exactly."""
    return LineCheck(p, q, p_kind, q_kind, _segment_blocker(geo, a, b, p, q, p_kind, q_kind))


def _segment_blocker(
    geo: _Geo, a: Square, b: Square, p: Point, q: Point, p_kind: EndKind, q_kind: EndKind
) -> str | None:
    ends = (a, b)
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    if dx == 0 and dy == 0:  # a zero-length line at a shared corner
        g = (int(px), int(py))
        if _corner_sector(geo, g, a, b):
            return f"the walls meeting at {fmt_square(g)} separate {fmt_square(a)} from {fmt_square(b)}"
        return None
    on_v = dx == 0 and px.denominator == 1  # runs along a vertical grid line
    on_h = dy == 0 and py.denominator == 1
    if on_v or on_h:
        ts: set[Fraction] = {Fraction(0), Fraction(1)}
        for start, step in ((px, dx), (py, dy)):
            if step:
                lo, hi = sorted((start, start + step))
                for k in range(math.ceil(lo), math.floor(hi) + 1):
                    ts.add((k - start) / step)
        forward = _pos(dx, dy)
        return _along_blocker(geo, a, b, p, (dx, dy), sorted(ts), on_v, forward, (forward + 4) % 8)
    ix, iy = math.floor(px), math.floor(py)
    steps = _template(px - ix, py - iy, dx, dy, p_kind == "corner", q_kind == "corner")
    diagonal = abs(dx) == abs(dy)
    for kind, x, y, extra in steps:
        x += ix
        y += iy
        if kind == 0:  # grid point: extra = (p1, p2), -1 meaning the own square's quadrant
            g = (x, y)
            p1 = _quadrant_of(a, g) if extra[0] < 0 else extra[0]
            p2 = _quadrant_of(b, g) if extra[1] < 0 else extra[1]
            reason = geo.vertex(g, p1, p2, ends, diagonal)
            if reason:
                return reason
        elif kind == 1:  # edge crossed: extra = axis
            reason = geo.wall(Edge("V" if extra[0] else "H", x, y))
            if reason:
                return f"crosses {reason}"
        else:  # square passed through
            sq = (x, y)
            if sq not in ends and (why := geo.square(sq)):
                where = fmt_square(sq)
                if why in ("off the board", "blocked terrain"):
                    return f"passes through square {where}, {why}"
                return f"passes through square {where}, which holds {why}"
    return None


@lru_cache(maxsize=1 << 16)
def _template(
    fx: Fraction, fy: Fraction, dx: Fraction, dy: Fraction, p_corner: bool, q_corner: bool
) -> tuple[tuple[int, int, int, tuple[int, int]], ...]:
    """The events of a segment that does not run along a grid line, relative to the square of its
    start (``fx, fy`` in [0, 1)): grid points (kind 0), edges crossed (1), squares passed (2)."""
    ts: set[Fraction] = {Fraction(0), Fraction(1)}
    for start, step in ((fx, dx), (fy, dy)):
        if step:
            lo, hi = sorted((start, start + step))
            for k in range(math.ceil(lo), math.floor(hi) + 1):
                ts.add((k - start) / step)
    events = sorted(ts)
    forward = _pos(dx, dy)
    backward = (forward + 4) % 8
    out: list[tuple[int, int, int, tuple[int, int]]] = []
    for i, t in enumerate(events):
        x, y = fx + t * dx, fy + t * dy
        is_vertex = x.denominator == 1 and y.denominator == 1
        if is_vertex and (0 < t < 1 or (t == 0 and p_corner) or (t == 1 and q_corner)):
            out.append((0, int(x), int(y), (-1 if t == 0 else backward, -1 if t == 1 else forward)))
        elif 0 < t < 1 and not is_vertex:
            if x.denominator == 1:
                out.append((1, int(x), math.floor(y), (1, 0)))
            else:
                out.append((1, math.floor(x), int(y), (0, 0)))
        if i + 1 == len(events):
            break
        mid_t = (t + events[i + 1]) / 2
        out.append((2, math.floor(fx + mid_t * dx), math.floor(fy + mid_t * dy), (0, 0)))
    return tuple(out)


def _along_blocker(
    geo: _Geo, a: Square, b: Square, p: Point, d: Point, events: list[Fraction], on_v: bool,
    forward: int, backward: int,
) -> str | None:
    """A segment between two corners that runs along a grid line: every event is a grid point."""
    ends = (a, b)
    profile = geo.profile
    (px, py), (dx, dy) = p, d
    vertices: list[tuple[tuple[int, int], int, int]] = []
    for t in events:
        g = (int(px + t * dx), int(py + t * dy))
        p1 = _quadrant_of(a, g) if t == 0 else backward
        p2 = _quadrant_of(b, g) if t == 1 else forward
        vertices.append((g, p1, p2))
    wall_edges: list[bool] = []
    for t0, t1 in zip(events, events[1:], strict=False):
        mid = (t0 + t1) / 2
        mx, my = px + mid * dx, py + mid * dy
        edge = Edge("V", int(mx), math.floor(my)) if on_v else Edge("H", math.floor(mx), int(my))
        wall = geo.wall(edge)
        if wall and profile.along_wall == "blocks":
            return f"runs along {wall} (along_wall=blocks)"
        if profile.along_square == "blocks":
            for sq in edge.squares():
                if sq not in ends and (why := geo.square(sq)):
                    return f"runs along the edge {edge} of {why} at {fmt_square(sq)} (along_square=blocks)"
        wall_edges.append(bool(wall))
    # a stretch of wall edges lies on one side of them for its whole length: try both sides
    normals = ((-_sign(dy), _sign(dx)), (_sign(dy), -_sign(dx)))
    i = 0
    n = len(wall_edges)
    plain = [True] * len(vertices)
    while i < n:
        if not wall_edges[i]:
            i += 1
            continue
        j = i
        while j < n and wall_edges[j]:
            j += 1
        stretch = vertices[i : j + 1]
        for k in range(i, j + 1):
            plain[k] = False
        failures = []
        for normal in normals:
            bad = next((r for g, p1, p2 in stretch if (r := _vertex(geo, g, p1, p2, ends, normal))), None)
            if bad is None:
                break
            failures.append(bad)
        else:
            return f"runs along a wall and is cut on either side: {failures[0]}"
        i = j
    for k, (g, p1, p2) in enumerate(vertices):
        if plain[k] and (reason := _vertex(geo, g, p1, p2, ends, None)):
            return reason
    return None


def _corner_sector(geo: _Geo, g: tuple[int, int], a: Square, b: Square) -> bool:
    """Zero-length line: True when the walls at ``g`` separate A's quadrant from B's."""
    walls = {p for p in (0, 2, 4, 6) if geo.wall(_arm(g, p))}
    return _separated(_quadrant_of(a, g), _quadrant_of(b, g), walls)


# --- candidate lines -------------------------------------------------------------------------


def _corners(sq: Square) -> list[Point]:
    x, y = sq
    return [(Fraction(x + i), Fraction(y + j)) for j in (0, 1) for i in (0, 1)]


def _centre(sq: Square) -> Point:
    return (sq[0] + HALF, sq[1] + HALF)


def _hull_points(a: Square, b: Square) -> list[tuple[int, int]]:
    """Every grid point of the closed convex hull of squares a and b."""
    pts = sorted({(x + i, y + j) for (x, y) in (a, b) for i in (0, 1) for j in (0, 1)})

    def cross(o: tuple[int, int], p: tuple[int, int], r: tuple[int, int]) -> int:
        return (p[0] - o[0]) * (r[1] - o[1]) - (p[1] - o[1]) * (r[0] - o[0])

    lower: list[tuple[int, int]] = []
    for pt in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], pt) <= 0:
            lower.pop()
        lower.append(pt)
    upper: list[tuple[int, int]] = []
    for pt in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], pt) <= 0:
            upper.pop()
        upper.append(pt)
    hull = lower[:-1] + upper[:-1]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    out = []
    for x in range(min(xs), max(xs) + 1):
        for y in range(min(ys), max(ys) + 1):
            if all(cross(hull[i], hull[(i + 1) % len(hull)], (x, y)) >= 0 for i in range(len(hull))):
                out.append((x, y))
    return out


def _chord_mid(sq: Square, c: Point, d: Point) -> Point | None:
    """The midpoint of the line ``c + λ·d`` inside the open square ``sq``, or None if it misses."""
    lo: Fraction | None = None
    hi: Fraction | None = None
    for axis in (0, 1):
        start, step = c[axis], d[axis]
        low, high = Fraction(sq[axis]), Fraction(sq[axis] + 1)
        if step == 0:
            if not low < start < high:
                return None
            continue
        l1, l2 = sorted(((low - start) / step, (high - start) / step))
        lo = l1 if lo is None else max(lo, l1)
        hi = l2 if hi is None else min(hi, l2)
    assert lo is not None and hi is not None
    if lo >= hi:
        return None
    mid = (lo + hi) / 2
    return (c[0] + mid * d[0], c[1] + mid * d[1])


def _any_any_lines(a: Square, b: Square, points: list[tuple[int, int]]) -> Iterator[tuple[Point, Point]]:
    """Critical candidate segments from A's interior to B's interior (see the proof below).

    Proof that these suffice. For a line ℓ meeting both open squares, the verdict of every segment
    of ℓ from A's interior to B's interior is the same (A's and B's interiors hold no obstacle), so
    it is a property of ℓ. Within the convex hull H of A ∪ B (where every such segment lies) it
    depends only on how ℓ lies relative to the *obstacle points* P (grid points where a wall arm or a
    blocking square meets, plus A's and B's corners): for each point, left, on, or right of ℓ
    (oriented from A to B). Indeed every obstacle is a wall segment or a closed square with corners
    in P, and whether ℓ misses it, crosses it, runs along its edge or touches it at a corner — and
    the sector and touch rules at that corner, and whether the meeting lies between A and B — is
    read off those signs. So the verdict is constant on each cell (of any dimension) of the
    arrangement, in the dual plane of lines, of the dual lines of P. Every cell that meets the
    (compact) set of lines through both squares has a vertex: move a line of the cell parallel
    until it meets a point u of P (it must, before it stops meeting A or B, whose corners are in
    P), then turn it about u until it meets a second point v; the line stays in the cell's closure
    throughout. The cells around such a vertex ℓ(u, v) are ℓ itself, the lines turned slightly
    about a point of P on ℓ (1-cells, still through that point), and the lines turned slightly about
    a point between two consecutive points of P on ℓ, or beyond the first or last (2-cells), one way
    or the other. "Slightly" is the exact angle δ below: with d the reduced integer direction of ℓ
    and the turning centre c = u + s·d, s a multiple of 1/2, every point w of P off ℓ has
    |d × (w − c)| = |d × (w − u)| ≥ 1, while |n × (w − c)| ≤ 4M² for n = d rotated by 90° and M the
    span of H, so turning d to d + δn with δ = 1/(16M² + 1) moves no point of P across the line.
    Each candidate is tested as the segment between the midpoints of its chords through A and B.
    """
    span = max(abs(b[0] - a[0]), abs(b[1] - a[1])) + 2
    delta = Fraction(1, 16 * span * span + 1)
    ca, cb = _centre(a), _centre(b)
    yield ca, cb
    seen: set[tuple[int, int, int]] = set()
    pset = set(points)
    for i, u in enumerate(points):
        for v in points[i + 1:]:
            ddx, ddy = v[0] - u[0], v[1] - u[1]
            g = math.gcd(ddx, ddy)
            rx, ry = ddx // g, ddy // g
            if rx < 0 or (rx == 0 and ry < 0):
                rx, ry = -rx, -ry
            key = (rx, ry, ry * u[0] - rx * u[1])
            if key in seen:
                continue
            seen.add(key)
            on_line = sorted(
                (w for w in pset if (w[0] - u[0]) * ry - (w[1] - u[1]) * rx == 0),
                key=lambda w: (w[0] - u[0]) * rx + (w[1] - u[1]) * ry,
            )
            steps = [((w[0] - u[0]) * rx + (w[1] - u[1]) * ry) // (rx * rx + ry * ry) for w in on_line]
            centres: list[Fraction] = [Fraction(s) for s in steps]
            centres += [Fraction(s1 + s2, 2) for s1, s2 in zip(steps, steps[1:], strict=False)]
            centres += [Fraction(2 * steps[0] - 1, 2), Fraction(2 * steps[-1] + 1, 2)]
            d = (Fraction(rx), Fraction(ry))
            lines: list[tuple[Point, Point]] = [((Fraction(u[0]), Fraction(u[1])), d)]
            for s in centres:
                c = (u[0] + s * rx, u[1] + s * ry)
                for sign in (1, -1):
                    lines.append((c, (rx - sign * delta * ry, ry + sign * delta * rx)))
            for c, dd in lines:
                p = _chord_mid(a, c, dd)
                if p is None:
                    continue
                q = _chord_mid(b, c, dd)
                if q is not None:
                    yield p, q


def _any_fixed_lines(
    free: Square, fixed: Point, other: Square, points: list[tuple[int, int]]
) -> Iterator[Point]:
    """Critical start points in the free square's interior for segments ending at ``fixed``.

    The same argument in one dimension: the verdict of a segment from the open square to the fixed
    point depends only on its direction, and only through the sides of the obstacle points P; the
    critical directions point at P; turning by δ (as above, the fixed point being a half-integer
    point, δ = 1/(16M² + 1) still moves no point of P across) reaches each open interval between them.
    """
    span = max(abs(free[0] - other[0]), abs(free[1] - other[1])) + 2
    delta = Fraction(1, 16 * span * span + 1)
    yield _centre(free)
    for w in points:
        d = (w[0] - fixed[0], w[1] - fixed[1])
        if d == (0, 0):
            continue
        for dd in (d, (d[0] - delta * d[1], d[1] + delta * d[0]), (d[0] + delta * d[1], d[1] - delta * d[0])):
            p = _chord_mid(free, fixed, (Fraction(dd[0]), Fraction(dd[1])))
            if p is not None:
                yield p


def _endpoints(kind: str, sq: Square) -> list[tuple[Point, EndKind]]:
    if kind == "centre":
        return [(_centre(sq), "centre")]
    return [(c, "corner") for c in _corners(sq)]


def _obstacle_points(geo: _Geo, a: Square, b: Square, complete: bool) -> list[tuple[int, int]]:
    hull = _hull_points(a, b)
    corners = {(int(x), int(y)) for x, y in _corners(a) + _corners(b)}
    if complete:
        return hull
    return [g for g in hull if g in corners or geo.obstacle_vertex(g, (a, b))]


def _candidates(geo: _Geo, a: Square, b: Square, profile: Profile, complete: bool) -> Iterator[LineCheck]:
    """Every candidate line of the profile's endpoint sets, checked, best-first."""
    fk, tk = profile.from_, profile.to
    if fk != "any" and tk != "any":
        for p, pk in _endpoints(fk, a):
            for q, qk in _endpoints(tk, b):
                yield check_segment(geo, a, b, p, q, pk, qk)
        return
    points = _obstacle_points(geo, a, b, complete)
    if fk == "any" and tk == "any":
        for p, q in _any_any_lines(a, b, points):
            yield check_segment(geo, a, b, p, q, "interior", "interior")
        return
    if fk == "any":
        for q, qk in _endpoints(tk, b):
            for p in _any_fixed_lines(a, q, b, points):
                yield check_segment(geo, a, b, p, q, "interior", qk)
        return
    for p, pk in _endpoints(fk, a):
        for q in _any_fixed_lines(b, p, a, points):
            yield check_segment(geo, a, b, p, q, pk, "interior")


# --- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverResult:
    """The cover of B from A: ``grade`` (``none``, ``half``, ``three-quarters``, ``total``, ``cover``,
    ``lesser``, ``standard``), the system, the chosen corner of A and its lines, and why."""

    system: str
    grade: str
    corner: Point | None
    lines: tuple[LineCheck, ...]
    why: str

    def as_json(self) -> dict[str, object]:
        """``{"system", "grade", "corner", "lines", "why"}``."""
        return {
            "system": self.system,
            "grade": self.grade,
            "corner": None if self.corner is None else [str(self.corner[0]), str(self.corner[1])],
            "lines": [line.as_json() for line in self.lines],
            "why": self.why,
        }


@dataclass(frozen=True)
class ProfileResult:
    """The verdict of one rule for one pair of squares, the line(s) that decided, and the cover."""

    origin: Square
    target: Square
    viewer: str | None
    profile: Profile
    clear: bool
    deciding: tuple[LineCheck, ...]
    checked: int
    arcadia: los.LosResult | None = None
    cover: CoverResult | None = None
    notes: tuple[str, ...] = field(default=())

    def explain(self) -> str:
        """One sentence: the rule, the verdict and the line(s) that decided it."""
        rule = self.profile.spec()
        if self.arcadia is not None:
            text = f"{self.arcadia.explain()[:-1]} (rule {rule})."
        elif self.origin == self.target:
            text = f"Clear under {rule}: {fmt_square(self.origin)} is the same square."
        elif self.clear:
            text = f"Clear under {rule}: the line from {self.deciding[0].describe()} is clear."
        else:
            shown = self.deciding if self.checked <= 16 else self.deciding[:4]
            parts = "; ".join(f"{line.describe()} {line.blocker}" for line in shown)
            more = self.checked - len(shown)
            tail = f"; and {more} more line{'s' if more != 1 else ''} blocked" if more > 0 else ""
            text = f"Blocked under {rule}: every permitted line is blocked ({self.checked} checked): {parts}{tail}."
        if self.cover is not None:
            text += f" Cover ({self.cover.system}): {self.cover.grade} — {self.cover.why}."
        return text

    def as_json(self) -> dict[str, object]:
        """The Arcadia JSON for the ``arcadia`` preset, else ``{"clear", "from", "to", "viewer",
        "lines", "checked", "explanation"}``; always ``"rule"``, and ``"cover"`` with cover."""
        if self.arcadia is not None:
            out = self.arcadia.as_json()
        else:
            out = {
                "clear": self.clear,
                "from": list(self.origin),
                "to": list(self.target),
                "viewer": self.viewer,
                "lines": [line.as_json() for line in self.deciding],
                "checked": self.checked,
            }
        out["rule"] = self.profile.as_json()
        if self.cover is not None:
            out["cover"] = self.cover.as_json()
        out["explanation"] = self.explain()
        return out


def _check_square(board: Board, sq: Square) -> None:
    if not board.on_board(sq):
        where = "outside the board" if not board.in_bounds(sq) else "void (off the board)"
        raise PlacementError(f"square {fmt_square(sq)} is {where}; the board is {board.width}x{board.height}")


def _decide_count(
    board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, complete: bool
) -> tuple[bool, tuple[LineCheck, ...], int]:
    geo = _geo(board, profile, viewer)
    blocked: list[LineCheck] = []
    count = 0
    for line in _candidates(geo, a, b, profile, complete):
        count += 1
        if line.clear:
            return True, (line,), count
        if len(blocked) < 16:
            blocked.append(line)
    return False, tuple(blocked), count


def _verdict(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, complete: bool) -> bool:
    if a == b:
        return True
    if profile.is_arcadia and not complete:
        return los.line_of_sight(board, a, b, viewer).clear
    geo = _geo(board, profile, viewer)
    return any(line.clear for line in _candidates(geo, a, b, profile, complete))


def _result(
    board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, complete: bool
) -> ProfileResult:
    _check_square(board, a)
    _check_square(board, b)
    cover = cover_of(board, a, b, profile, viewer) if profile.cover != "none" else None
    if profile.is_arcadia and not complete:
        ray = los.line_of_sight(board, a, b, viewer)
        return ProfileResult(a, b, viewer, profile, ray.clear, (), 1, arcadia=ray, cover=cover)
    if a == b:
        return ProfileResult(a, b, viewer, profile, True, (), 0, cover=cover)
    clear, deciding, checked = _decide_count(board, a, b, profile, viewer, complete)
    return ProfileResult(a, b, viewer, profile, clear, deciding, checked, cover=cover)


def line_of_sight(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None = None) -> ProfileResult:
    """Line of sight from ``a`` to ``b`` under ``profile`` (the fast path), with cover when asked.

    The ``arcadia`` preset is :func:`game.core.los.line_of_sight`. Raises PlacementError for a
    square off the board.

    >>> from game.core.profiles import parse_rule
    >>> b = Board.from_ascii(["..."], walls=["V(1,0)"])
    >>> line_of_sight(b, (0, 0), (2, 0), parse_rule("dnd5e")).cover.grade
    'total'
    """
    return _result(board, a, b, profile, viewer, complete=False)


def line_of_sight_reference(
    board: Board, a: Square, b: Square, profile: Profile, viewer: str | None = None
) -> ProfileResult:
    """The same verdict the slow way: the generic engine even for ``arcadia``, and for ``any``
    endpoints the candidate lines through **every** grid point of the hull, not only obstacle points.
    """
    return _result(board, a, b, profile, viewer, complete=True)


# --- cover -------------------------------------------------------------------------------------


def _corner_lines(geo: _Geo, a: Square, b: Square, corner: Point) -> tuple[LineCheck, ...]:
    return tuple(check_segment(geo, a, b, corner, q, "corner", "corner") for q in _corners(b))


def cover_of(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None = None) -> CoverResult:
    """The cover of ``b`` from ``a`` by the profile's ``cover`` system (docs: "Cover").

    >>> from game.core.profiles import parse_rule
    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> cover_of(b, (0, 0), (2, 2), parse_rule("dnd5e")).grade
    'three-quarters'
    """
    system = profile.cover
    if a == b:
        return CoverResult(system, "none", None, (), "the same square")
    if system == "pf2e":
        if not _verdict(board, a, b, profile, viewer, complete=False):
            return CoverResult(system, "total", None, (), "no permitted line is clear")
        geo = _geo(board, profile, viewer, "none")
        line = check_segment(geo, a, b, _centre(a), _centre(b), "centre", "centre")
        if not line.clear:
            return CoverResult(system, "standard", None, (line,), f"the centre line {line.blocker}")
        creatures = _geo(board, profile, viewer, "any")
        line2 = check_segment(creatures, a, b, _centre(a), _centre(b), "centre", "centre")
        if not line2.clear and "figure" in (line2.blocker or ""):
            return CoverResult(system, "lesser", None, (line2,), f"the centre line {line2.blocker}")
        return CoverResult(system, "none", None, (line,), "the centre line is clear")
    creatures = _geo(board, profile, viewer, "any")
    best: tuple[int, Point, tuple[LineCheck, ...]] | None = None
    for corner in _corners(a):
        lines = _corner_lines(creatures, a, b, corner)
        n = sum(not line.clear for line in lines)
        if best is None or n < best[0]:
            best = (n, corner, lines)
    assert best is not None
    n, corner, lines = best
    plain = _geo(board, profile, viewer, "none" if profile.figures == "none" else profile.figures)
    reachable = any(
        check_segment(plain, a, b, p, q, "corner", "corner").clear for p in _corners(a) for q in _corners(b)
    )
    blocked = [f"to {fmt_point(line.end)} {line.blocker}" for line in lines if not line.clear]
    detail = f"best corner {fmt_point(corner)}: {n} of 4 lines blocked" + (f" ({'; '.join(blocked)})" if blocked else "")
    if not reachable:
        return CoverResult(system, "total", corner, lines, "no corner line is clear of walls and blocking squares")
    if system == "pf1e":
        return CoverResult(system, "cover" if n else "none", corner, lines, detail)
    grade = "none" if n == 0 else "half" if n <= 2 else "three-quarters"
    return CoverResult(system, grade, corner, lines, detail)


# --- many pairs ---------------------------------------------------------------------------------


def visible_from(board: Board, a: Square, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """Every square visible from ``a`` under ``profile``: bool array (height, width), ``[y, x]``.

    ``arcadia`` is :func:`game.core.los.visible_from`. Void squares are never visible; the origin is.

    >>> from game.core.profiles import parse_rule
    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> visible_from(b, (0, 0), parse_rule("corners")).astype(int)
    array([[1, 1, 1],
           [1, 1, 1],
           [1, 1, 1]])
    """
    if profile.is_arcadia:
        return los.visible_from(board, a, viewer)
    mask = np.zeros((board.height, board.width), dtype=bool)
    if not board.on_board(a):
        return mask
    geo = _geo(board, profile, viewer)
    if any_fov_applies(profile):
        return visible_any(*sight_arrays(geo), a) & on_board_mask(board)
    if fast_corner_rule(profile) and board.width * board.height >= FAST_FOV_SQUARES:
        return _corner_fov(board, geo, a, profile, viewer)
    for b in board.squares():
        mask[b[1], b[0]] = _verdict(board, a, b, profile, viewer, complete=False)
    return mask


#: from this many squares on, corner rules' FOV is shadow cast; on smaller boards (every square near
#: the origin) the walk is quicker than the arrays' set-up
FAST_FOV_SQUARES = 36


def _corner_fov(board: Board, geo: _Geo, a: Square, profile: Profile, viewer: str | None) -> np.ndarray:
    """Corners to corners: the shadow-cast segments (:mod:`game.core.profile_fov`, exact positives),
    then the exact walk for what it leaves out — the segments along a grid line through a corner of
    A, every line to a square sharing a corner with A or blocking itself."""
    onb = on_board_mask(board)
    mask = corner_candidates(geo, a) & onb
    ax, ay = a
    h, w = mask.shape
    ys, xs = np.nonzero(~mask[max(ay - 1, 0) : ay + 2, max(ax - 1, 0) : ax + 2])
    for y, x in zip((ys + max(ay - 1, 0)).tolist(), (xs + max(ax - 1, 0)).tolist(), strict=True):
        if onb[y, x]:
            mask[y, x] = _verdict(board, a, (x, y), profile, viewer, complete=False)
    return mask


def on_board_mask(board: Board) -> np.ndarray:
    """Bool ``[y, x]``: the on-board squares (in bounds, not void)."""
    mask = np.ones((board.height, board.width), dtype=bool)
    for x, y in board.void:
        mask[y, x] = False
    return mask


def all_pairs(board: Board, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares under ``profile``: bool array (H, W, H, W)."""
    if profile.is_arcadia:
        return los.all_pairs(board, viewer)
    out = np.zeros((board.height, board.width, board.height, board.width), dtype=bool)
    # symmetric when from == to and no viewer-dependent figure rule (see tests/test_profile_los.py)
    symmetric = profile.from_ == profile.to and (profile.figures != "enemies-at-capacity" or viewer is None)
    fast = any_fov_applies(profile) or (fast_corner_rule(profile) and board.width * board.height >= FAST_FOV_SQUARES)
    if not symmetric or fast:
        for a in board.squares():
            out[a[1], a[0]] = visible_from(board, a, profile, viewer)
        return out
    squares = list(board.squares())
    for i, a in enumerate(squares):
        out[a[1], a[0], a[1], a[0]] = True
        for b in squares[i + 1:]:
            seen = _verdict(board, a, b, profile, viewer, complete=False)
            out[a[1], a[0], b[1], b[0]] = out[b[1], b[0], a[1], a[0]] = seen
    return out


def squares_of(board: Board) -> Iterable[Square]:
    """Every on-board square, row by row (a convenience for callers)."""
    return board.squares()
