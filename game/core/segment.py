"""One segment under a line-of-sight rule, exactly: the geometry kernel every sight engine shares.

Pure: no pygame, no files, no clock. Integers and :class:`fractions.Fraction` only, never floats.
See docs/line-of-sight.md, "Rule profiles", for the rule text. This module is what the engines of
:mod:`game.core.profile_los` (candidate lines), :mod:`game.core.profile_fov` (corner fields),
:mod:`game.core.cover` (cover grades) and the crossings of :mod:`game.core.los` (the centre line)
have in common, once:

* the board **as a rule sees it** (:class:`BoardView`, cached per board version, rule and viewer):
  which edges are walls and which squares block, in words;
* the **directions around a grid point** (0 east, 1 south-east, ... 7 north-east; even ones the four
  wall arms, odd ones the four quadrants) and the grid point's rule: the **sector rule** (the wall
  arms meeting there cut the directions into sectors; a line arriving in one and leaving in another
  is blocked) and ``corner_touch`` for what the point only touches (:func:`vertex_rule`, and
  :func:`vertex_table`, its 256-entry lookup by the things around the point);
* the **events of a segment** (:func:`segment_events`: grid points, edges crossed, squares passed,
  in order, exact) and the **segment's verdict** (:func:`check_segment`):

  - walking the segment, every point where ``x`` or ``y`` is an integer is an *event*; between two
    events the segment is inside one square, or runs along one grid edge;
  - inside a square other than A's and B's: blocked if the square blocks (void, blocked terrain,
    figures as the rule's ``figures`` says; off the map counts as void);
  - crossing an edge at an interior point of the edge: blocked if the edge is a wall (a
    sight-blocking wall or door; with ``boundary = closed`` also every edge of a void or off-map
    square);
  - running along an edge: ``along_wall`` for a wall edge, ``along_square`` when a blocking square
    lies on either side;
  - at a grid point: the sector rule (at a corner endpoint the arriving/leaving direction is the
    own square's diagonal; running along a wall arm, the direction is pushed to the side the line
    keeps for that whole stretch, both sides are tried), then ``corner_touch``: ``clear`` never,
    ``blocks`` always, ``both-sides`` when both angular sides between the arriving and leaving
    directions hold something touched.

>>> from game.core.profiles import parse_rule
>>> b = Board.from_ascii(["...", ".#.", "..."])
>>> corner_a, corner_b = (Fraction(1), Fraction(0)), (Fraction(3), Fraction(2))
>>> line = check_segment(view(b, parse_rule("corners"), None), (0, 0), (2, 2), corner_a, corner_b, "corner", "corner")
>>> line.clear, line.describe()
(True, 'corner (1,0) to corner (3,2)')
>>> check_segment(view(b, parse_rule("corners"), None), (0, 0), (2, 2), centre_point((0, 0)), centre_point((2, 2)), "centre", "centre").blocker
'passes through square (1,1), blocked terrain'
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction
from functools import lru_cache

import numpy as np

from game.core.board import Board, Corner, Edge, Square, fmt_square
from game.core.errors import PlacementError
from game.core.profiles import Profile
from game.core.sight_result import CrossingKind, EndKind, LineCheck, Point

__all__ = [
    "BoardView",
    "HALF",
    "arm",
    "centre_point",
    "cell_corners",
    "check_segment",
    "check_square",
    "clear_views",
    "quadrant_of",
    "quadrant_square",
    "segment_events",
    "vertex_rule",
    "vertex_table",
    "view",
]

HALF = Fraction(1, 2)
#: what blocks a segment: the words, the kind of thing, and the edge, grid point or square
Hit = tuple[str, CrossingKind, "Edge | Corner | Square"]



# --- directions around a grid point -----------------------------------------------------------

# y growing down: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE. Even positions are the four arms
# (edges), odd positions the four quadrants (squares).
_POS = {(1, 0): 0, (1, 1): 1, (0, 1): 2, (-1, 1): 3, (-1, 0): 4, (-1, -1): 5, (0, -1): 6, (1, -1): 7}


def _sign(v: Fraction | int) -> int:
    return (v > 0) - (v < 0)


def _pos(vx: Fraction | int, vy: Fraction | int) -> int:
    return _POS[(_sign(vx), _sign(vy))]


def arm(g: Corner, position: int) -> Edge:
    """The wall arm of grid point ``g`` in direction ``position`` (0, 2, 4 or 6).

    >>> str(arm((2, 2), 0)), str(arm((2, 2), 6))
    ('H(2,2)', 'V(2,1)')
    """
    gx, gy = g
    return (Edge("H", gx, gy), Edge("V", gx, gy), Edge("H", gx - 1, gy), Edge("V", gx, gy - 1))[position // 2]


def quadrant_square(g: Corner, position: int) -> Square:
    """The square of grid point ``g`` in direction ``position`` (1, 3, 5 or 7)."""
    gx, gy = g
    return {1: (gx, gy), 3: (gx - 1, gy), 5: (gx - 1, gy - 1), 7: (gx, gy - 1)}[position]


def quadrant_of(sq: Square, g: Corner) -> int:
    """The direction (1, 3, 5 or 7) in which square ``sq`` lies from its corner ``g``.

    >>> quadrant_of((0, 0), (1, 1)), quadrant_of((1, 1), (1, 1))
    (5, 1)
    """
    return _pos(2 * sq[0] + 1 - 2 * g[0], 2 * sq[1] + 1 - 2 * g[1])


# --- the board as a rule sees it ----------------------------------------------------------------


class BoardView:
    """What one rule and viewer see of one board version: walls and blocking squares in words,
    cached (:func:`view` keeps one per board version, rule, viewer and figure rule)."""

    def __init__(self, board: Board, profile: Profile, viewer: str | None, figures: str) -> None:
        self.board = board
        self.profile = profile
        self.viewer = viewer
        self.figures = figures
        self.closed = profile.boundary == "closed"
        self._walls: dict[Edge, str | None] = {}
        self._squares: dict[Square, str | None] = {}
        self._vertices: dict[tuple[object, ...], str | None] = {}
        self.fast: object | None = None  # the corner field's arrays (game/core/profile_fov.py), built on first use

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
        self, g: Corner, p1: int, p2: int, ends: tuple[Square, Square], same: bool = False
    ) -> str | None:
        """The grid point's rule in words (:func:`vertex_rule`) without a side push, memoised (the
        end squares matter only near ``g``)."""
        near = tuple(sq for sq in ends if abs(sq[0] * 2 + 1 - g[0] * 2) == 1 and abs(sq[1] * 2 + 1 - g[1] * 2) == 1)
        key = (g, p1, p2, near, same)
        found = self._vertices.get(key, "?")
        if found == "?":
            found = self._vertices[key] = _vertex(self, g, p1, p2, ends, None, same)
        return found

    def obstacle_vertex(self, g: tuple[int, int], ends: tuple[Square, Square]) -> bool:
        """Whether a wall arm or a blocking square (not an end square) meets grid point ``g``."""
        if any(self.wall(arm(g, p)) for p in (0, 2, 4, 6)):
            return True
        return any(
            (sq := quadrant_square(g, p)) not in ends and self.square(sq) for p in (1, 3, 5, 7)
        )


_VIEWS: weakref.WeakKeyDictionary[Board, dict[tuple[object, ...], BoardView]] = weakref.WeakKeyDictionary()


def view(board: Board, profile: Profile, viewer: str | None, figures: str | None = None) -> BoardView:
    """The :class:`BoardView` of ``board``'s current version under ``profile`` for ``viewer``
    (``figures`` overrides the profile's figure rule: cover counts creatures), cached."""
    figures = figures or profile.figures
    per_board = _VIEWS.setdefault(board, {})
    key = (board.version, profile, viewer, figures)
    found = per_board.get(key)
    if found is None:
        if len(per_board) > 64:
            per_board.clear()
        found = per_board[key] = BoardView(board, profile, viewer, figures)
    return found


def clear_views() -> None:
    """Forget every cached :class:`BoardView` (the benchmarks' cold calls)."""
    _VIEWS.clear()

# --- a grid point ----------------------------------------------------------------------------


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


def vertex_rule(
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
    """Bool (256,): whether :func:`vertex_rule` blocks a line arriving from direction ``p1`` and
    leaving in direction ``p2`` at a grid point whose wall arms and blocking squares are the bits
    of the index (bit p for direction p; ``side`` pushes along-wall directions). The fast FOV
    (:mod:`game.core.profile_fov`) looks grid points up in it."""
    return np.array(
        [vertex_rule({p for p in (0, 2, 4, 6) if bits >> p & 1}, {p for p in (1, 3, 5, 7) if bits >> p & 1},
                      p1, p2, side, same, corner_touch) is not None
         for bits in range(256)],
        dtype=bool,
    )


def _vertex(
    geo: BoardView, g: Corner, p1: int, p2: int, ends: tuple[Square, Square], side: tuple[int, int] | None,
    same: bool = False,
) -> str | None:
    """The sector rule and corner_touch at grid point ``g`` (:func:`vertex_rule`), in words;
    ``side`` pushes along-wall directions.

    ``same``: at a corner endpoint, the line's direction is exactly its own square's diagonal (it
    runs straight through the square's centre), so it touches nothing there. When it only heads
    into its own quadrant at another angle, one angular side is empty (both-sides never blocks)
    and everything else at the point is touched (``blocks`` blocks on any of it).
    """
    walls = {p for p in (0, 2, 4, 6) if geo.wall(arm(g, p))}
    reasons: dict[int, str] = {}
    for p in (1, 3, 5, 7):
        sq = quadrant_square(g, p)
        if sq not in ends and (reason := geo.square(sq)):
            reasons[p] = f"{reason} at {fmt_square(sq)}"
    found = vertex_rule(walls, set(reasons), p1, p2, side, same, geo.profile.corner_touch)
    if found is None:
        return None
    where = fmt_square(g)
    kind, t1, t2 = found
    if kind == "sector":
        names = " and ".join(str(arm(g, p)) for p in sorted(walls))
        return f"the walls meeting at {where} ({names}) separate the line's two sides"

    def what(p: int) -> str:
        return reasons[p] if p % 2 else f"wall end {arm(g, p)}"

    if kind == "touch":
        return f"touches {what(t1[0])} at {where} (corner_touch=blocks)"
    return f"both sides closed at {where}: {', '.join(map(what, t1))}; {', '.join(map(what, t2))}"


# --- one segment --------------------------------------------------------------------------------


def check_segment(
    geo: BoardView, a: Square, b: Square, p: Point, q: Point, p_kind: EndKind, q_kind: EndKind
) -> LineCheck:
    """Decide one segment from ``p`` (of square ``a``) to ``q`` (of square ``b``), exactly: the
    :class:`~game.core.sight_result.LineCheck` with what blocks it (in words, and where)."""
    hit = _segment_blocker(geo, a, b, p, q, p_kind, q_kind)
    if hit is None:
        return LineCheck(p, q, p_kind, q_kind, None)
    return LineCheck(p, q, p_kind, q_kind, hit[0], (hit[1], hit[2]))


def _segment_blocker(
    geo: BoardView, a: Square, b: Square, p: Point, q: Point, p_kind: EndKind, q_kind: EndKind
) -> Hit | None:
    ends = (a, b)
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    if dx == 0 and dy == 0:  # a zero-length line at a shared corner
        g = (int(px), int(py))
        if _corner_sector(geo, g, a, b):
            return f"the walls meeting at {fmt_square(g)} separate {fmt_square(a)} from {fmt_square(b)}", "corner", g
        return None
    on_v = dx == 0 and px.denominator == 1  # runs along a vertical grid line
    on_h = dy == 0 and py.denominator == 1
    if on_v or on_h:
        forward = _pos(dx, dy)
        return _along_blocker(geo, a, b, p, (dx, dy), _event_ts(px, py, dx, dy), on_v, forward, (forward + 4) % 8)
    ix, iy = math.floor(px), math.floor(py)
    steps = segment_events(px - ix, py - iy, dx, dy, p_kind == "corner", q_kind == "corner")
    diagonal = abs(dx) == abs(dy)
    for kind, x, y, extra in steps:
        x += ix
        y += iy
        if kind == 0:  # grid point: extra = (p1, p2), -1 meaning the own square's quadrant
            g = (x, y)
            p1 = quadrant_of(a, g) if extra[0] < 0 else extra[0]
            p2 = quadrant_of(b, g) if extra[1] < 0 else extra[1]
            reason = geo.vertex(g, p1, p2, ends, diagonal)
            if reason:
                return reason, "corner", g
        elif kind == 1:  # edge crossed: extra = axis
            edge = Edge("V" if extra[0] else "H", x, y)
            reason = geo.wall(edge)
            if reason:
                return f"crosses {reason}", "edge", edge
        else:  # square passed through
            sq = (x, y)
            if sq not in ends and (why := geo.square(sq)):
                where = fmt_square(sq)
                if why in ("off the board", "blocked terrain"):
                    return f"passes through square {where}, {why}", "square", sq
                return f"passes through square {where}, which holds {why}", "square", sq
    return None


def _event_ts(px: Fraction, py: Fraction, dx: Fraction, dy: Fraction) -> list[Fraction]:
    """Every ``t`` in [0, 1] where ``(px, py) + t (dx, dy)`` has an integer ``x`` or ``y``, the
    ends included, in order."""
    ts: set[Fraction] = {Fraction(0), Fraction(1)}
    for start, step in ((px, dx), (py, dy)):
        if step:
            lo, hi = sorted((start, start + step))
            for k in range(math.ceil(lo), math.floor(hi) + 1):
                ts.add((k - start) / step)
    return sorted(ts)


@lru_cache(maxsize=1 << 16)
def segment_events(
    fx: Fraction, fy: Fraction, dx: Fraction, dy: Fraction, p_corner: bool, q_corner: bool
) -> tuple[tuple[int, int, int, tuple[int, int]], ...]:
    """The events of a segment that does not run along a grid line, in order, relative to the
    square of its start (``fx, fy`` in [0, 1), ``dx, dy`` the segment): ``(kind, x, y, extra)``
    with kind 0 a grid point ``(x, y)`` passed (or a corner end, when ``p_corner`` / ``q_corner``;
    ``extra`` the arriving and leaving directions, -1 for the own square's quadrant), 1 an edge
    crossed at an interior point (``extra[0]`` 1 for ``V(x, y)``, 0 for ``H(x, y)``), 2 a square
    passed through (the first is the start's, the last the end's). Cached per shape.

    >>> [(k, x, y) for k, x, y, _ in segment_events(HALF, HALF, Fraction(2), Fraction(1), False, False)]
    [(2, 0, 0), (1, 1, 0), (2, 1, 0), (1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1)]
    """
    events = _event_ts(fx, fy, dx, dy)
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
    geo: BoardView, a: Square, b: Square, p: Point, d: Point, events: list[Fraction], on_v: bool,
    forward: int, backward: int,
) -> Hit | None:
    """A segment between two corners that runs along a grid line: every event is a grid point."""
    ends = (a, b)
    profile = geo.profile
    (px, py), (dx, dy) = p, d
    vertices: list[tuple[tuple[int, int], int, int]] = []
    for t in events:
        g = (int(px + t * dx), int(py + t * dy))
        p1 = quadrant_of(a, g) if t == 0 else backward
        p2 = quadrant_of(b, g) if t == 1 else forward
        vertices.append((g, p1, p2))
    wall_edges: list[bool] = []
    for t0, t1 in zip(events, events[1:], strict=False):
        mid = (t0 + t1) / 2
        mx, my = px + mid * dx, py + mid * dy
        edge = Edge("V", int(mx), math.floor(my)) if on_v else Edge("H", math.floor(mx), int(my))
        wall = geo.wall(edge)
        if wall and profile.along_wall == "blocks":
            return f"runs along {wall} (along_wall=blocks)", "edge", edge
        if profile.along_square == "blocks":
            for sq in edge.squares():
                if sq not in ends and (why := geo.square(sq)):
                    return f"runs along the edge {edge} of {why} at {fmt_square(sq)} (along_square=blocks)", "edge", edge
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
        failures: list[tuple[str, Corner]] = []
        for normal in normals:
            bad = next(((r, g) for g, p1, p2 in stretch if (r := _vertex(geo, g, p1, p2, ends, normal))), None)
            if bad is None:
                break
            failures.append(bad)
        else:
            return f"runs along a wall and is cut on either side: {failures[0][0]}", "corner", failures[0][1]
        i = j
    for k, (g, p1, p2) in enumerate(vertices):
        if plain[k] and (reason := _vertex(geo, g, p1, p2, ends, None)):
            return reason, "corner", g
    return None


def _corner_sector(geo: BoardView, g: Corner, a: Square, b: Square) -> bool:
    """Zero-length line: True when the walls at ``g`` separate A's quadrant from B's."""
    walls = {p for p in (0, 2, 4, 6) if geo.wall(arm(g, p))}
    return _separated(quadrant_of(a, g), quadrant_of(b, g), walls)


# --- the points of a square ------------------------------------------------------------------


def check_square(board: Board, sq: Square) -> None:
    """Raise :class:`PlacementError` for a square that is void or outside the board."""
    if not board.on_board(sq):
        where = "outside the board" if not board.in_bounds(sq) else "void (off the board)"
        raise PlacementError(f"square {fmt_square(sq)} is {where}; the board is {board.width}x{board.height}")


def cell_corners(sq: Square) -> list[Point]:
    """The four corners of a square as exact points, in reading order."""
    x, y = sq
    return [(Fraction(x + i), Fraction(y + j)) for j in (0, 1) for i in (0, 1)]


def centre_point(sq: Square) -> Point:
    """The centre of a square as an exact point."""
    return (sq[0] + HALF, sq[1] + HALF)


