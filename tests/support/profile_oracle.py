"""Helpers of test_profile_oracle.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from game.core.board import Board, Edge, Figure
from game.core.profiles import PRESETS, Profile

F = Fraction


Pt = tuple[Fraction, Fraction]


def _cross(o: Pt, u: Pt, v: Pt) -> Fraction:
    return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])


def _pseudo(v: Pt) -> Fraction:
    """A number in [0, 4) increasing with the angle of v (y down: from east through south)."""
    x, y = v
    if x > 0 and y >= 0:
        return y / (x + y)
    if x <= 0 and y > 0:
        return 1 + (-x) / (-x + y)
    if x < 0 and y <= 0:
        return 2 + (-y) / (-x - y)
    return 3 + x / (x - y)


def _strictly_ccw_between(a: Fraction, w: Fraction, b: Fraction) -> bool:
    """w strictly inside the turn from a to b with increasing pseudo-angle (mod 4)."""
    span = (b - a) % 4
    off = (w - a) % 4
    return 0 < off < span


class Oracle:
    """Decides a profile for one board and viewer by brute force (the board must not change while
    the oracle is in use: its walls and squares are memoised)."""

    def __init__(self, board: Board, profile: Profile, viewer: str | None, figures: str | None = None) -> None:
        self.board = board
        self.profile = profile
        self.viewer = viewer
        self.figures = figures or profile.figures
        self._walls: dict[Edge, bool] = {}  # memo: a board's walls and squares, asked often
        self._squares: dict[tuple[int, int], bool] = {}

    # obstacles, straight from the text
    def is_wall(self, e: Edge) -> bool:
        found = self._walls.get(e)
        if found is None:
            found = self._walls[e] = self._is_wall(e)
        return found

    def _is_wall(self, e: Edge) -> bool:
        if self.board.edge_blocks_sight(e):
            return True
        if self.profile.boundary != "closed":
            return False
        s1, s2 = e.squares()
        return not self.board.on_board(s1) or not self.board.on_board(s2)

    def blocks(self, sq: tuple[int, int], ends: tuple[tuple[int, int], tuple[int, int]]) -> bool:
        if sq in ends:
            return False
        found = self._squares.get(sq)
        if found is None:
            found = self._squares[sq] = self._blocks(sq)
        return found

    def _blocks(self, sq: tuple[int, int]) -> bool:
        b = self.board
        if not b.on_board(sq) or sq in b.blocked:
            return True
        here = b.figures_at(sq)
        if self.figures == "any":
            return bool(here)
        if self.figures == "enemies-at-capacity":
            return sum(1 for f in here if self.viewer is None or f.side != self.viewer) >= b.capacity
        return False

    def segment_clear(self, a, b, p: Pt, q: Pt, p_corner: bool, q_corner: bool) -> bool:
        """Whether the segment p→q (p in square a, q in b) is clear on this board."""
        return self.judge((a, b), segment_geometry(a, b, p, q, p_corner, q_corner))

    def judge(self, ends, seg: Segment) -> bool:
        """The board's verdict on a segment whose geometry is ``seg`` (the text's clauses in order)."""
        prof = self.profile
        if seg.point is not None:
            g, before, after = seg.point
            return not self._separated(g, before, after, None)
        # squares whose open interior the segment meets, walls it crosses
        if any(self.blocks(s, ends) for s in seg.met) or any(self.is_wall(e) for e in seg.crossed):
            return False
        for e in seg.along:
            if self.is_wall(e) and prof.along_wall == "blocks":
                return False
            if prof.along_square == "blocks" and any(self.blocks(s, ends) for s in e.squares()):
                return False
        wall_along = [e for e in seg.along if self.is_wall(e)]
        points = seg.points

        # stretches of wall edges along the segment: each keeps one side
        def on_stretch(g: Pt, stretch: list[Edge]) -> bool:
            return any(g in [(F(c[0]), F(c[1])) for c in e.ends()] for e in stretch)

        stretches = self._stretches(wall_along)
        for stretch in stretches:
            ok_side = False
            for normal in seg.normals:
                if all(not self._separated(g, bf, af, normal) for g, bf, af in points if on_stretch(g, stretch)):
                    ok_side = True
                    break
            if not ok_side:
                return False
        for g, bf, af in points:
            if not any(on_stretch(g, s) for s in stretches) and self._separated(g, bf, af, None):
                return False
            if self._touch_blocks(g, bf, af, ends):
                return False
        return True

    # helpers
    @staticmethod
    def _between(p: Pt, q: Pt, g: Pt) -> bool:
        return min(p[0], q[0]) <= g[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= g[1] <= max(p[1], q[1])

    @staticmethod
    def _overlap(p: Pt, q: Pt, u: Pt, w: Pt) -> bool:
        axis = 0 if p[0] != q[0] else 1
        lo, hi = sorted((p[axis], q[axis]))
        elo, ehi = sorted((u[axis], w[axis]))
        return min(hi, ehi) > max(lo, elo)

    @staticmethod
    def _meets_open_square(p: Pt, q: Pt, sx: int, sy: int) -> bool:
        lo, hi = F(0), F(1)
        for axis, low in ((0, sx), (1, sy)):
            start, step = p[axis], q[axis] - p[axis]
            if step == 0:
                if not (low < start < low + 1):
                    return False
                continue
            t1, t2 = sorted(((low - start) / step, (low + 1 - start) / step))
            lo, hi = max(lo, t1), min(hi, t2)
        return lo < hi

    @staticmethod
    def _stretches(edges: list[Edge]) -> list[list[Edge]]:
        """Group collinear unit edges into maximal runs of consecutive edges."""
        rest = sorted(edges, key=lambda e: (e.x, e.y))
        out: list[list[Edge]] = []
        for e in rest:
            if out and set(out[-1][-1].ends()) & set(e.ends()):
                out[-1].append(e)
            else:
                out.append([e])
        return out

    def _arms(self, g: Pt) -> list[tuple[Pt, bool]]:
        gx, gy = int(g[0]), int(g[1])
        arms = [((F(1), F(0)), Edge("H", gx, gy)), ((F(0), F(1)), Edge("V", gx, gy)),
                ((F(-1), F(0)), Edge("H", gx - 1, gy)), ((F(0), F(-1)), Edge("V", gx, gy - 1))]
        return [(d, self.is_wall(e)) for d, e in arms]

    def _separated(self, g: Pt, before: Pt, after: Pt, normal: Pt | None) -> bool:
        walls = [d for d, wall in self._arms(g) if wall]

        def push(v: Pt) -> Pt:
            if normal is None or (v[0] != 0 and v[1] != 0):
                return v
            n = (F(_sign(normal[0])), F(_sign(normal[1])))
            return (4 * _unit(v[0]) + n[0], 4 * _unit(v[1]) + n[1])

        b, a = _pseudo(push(before)), _pseudo(push(after))
        if a == b:
            return False
        one = any(_strictly_ccw_between(b, _pseudo(w), a) for w in walls)
        two = any(_strictly_ccw_between(a, _pseudo(w), b) for w in walls)
        return one and two

    def _touch_blocks(self, g: Pt, before: Pt, after: Pt, ends) -> bool:
        rule = self.profile.corner_touch
        b, a = _pseudo(before), _pseudo(after)
        if rule == "clear" or a == b:
            return False
        dirs = [before, after]
        touched: list[Fraction] = []
        for d, wall in self._arms(g):
            if wall and not any(_parallel_same(d, v) for v in dirs):
                touched.append(_pseudo(d))
        gx, gy = int(g[0]), int(g[1])
        for sx, sy in ((gx, gy), (gx - 1, gy), (gx - 1, gy - 1), (gx, gy - 1)):
            c = (F(sx) + F(1, 2) - g[0], F(sy) + F(1, 2) - g[1])
            entered = any(_sign(v[0]) == _sign(c[0]) and _sign(v[1]) == _sign(c[1]) for v in dirs)
            along = any((v[1] == 0 and _sign(v[0]) == _sign(c[0])) or (v[0] == 0 and _sign(v[1]) == _sign(c[1]))
                        for v in dirs)
            if not entered and not along and self.blocks((sx, sy), ends):
                touched.append(_pseudo(c))
        if not touched:
            return False
        if rule == "blocks":
            return True
        one = any(_strictly_ccw_between(b, t, a) for t in touched)
        two = any(_strictly_ccw_between(a, t, b) for t in touched)
        return one and two

    # candidates
    def visible(self, a, b) -> bool:
        if a == b:
            return True
        key = (self.profile.from_, self.profile.to, a, b)
        segments = _SEGMENTS.get(key)
        if segments is None:  # they depend on the squares and the endpoint sets only: each once
            segments = _SEGMENTS[key] = _Segments(a, b, self.candidates(a, b))
        ends = (a, b)
        return any(self.judge(ends, seg) for seg in segments)

    def candidates(self, a, b):
        prof = self.profile

        def fixed(kind, sq):
            if kind == "centre":
                return [((F(sq[0]) + F(1, 2), F(sq[1]) + F(1, 2)), False)]
            return [((F(sq[0] + i), F(sq[1] + j)), True) for i in (0, 1) for j in (0, 1)]

        if prof.from_ != "any" and prof.to != "any":
            for p, pc in fixed(prof.from_, a):
                for q, qc in fixed(prof.to, b):
                    yield p, q, pc, qc
            return
        xs0, xs1 = min(a[0], b[0]), max(a[0], b[0]) + 1
        ys0, ys1 = min(a[1], b[1]), max(a[1], b[1]) + 1
        grid = [(F(x), F(y)) for x in range(xs0, xs1 + 1) for y in range(ys0, ys1 + 1)]
        m = max(xs1 - xs0, ys1 - ys0) + 2
        delta = F(1, 64 * m * m + 7)
        lines = []
        if prof.from_ == "any" and prof.to == "any":
            for i, u in enumerate(grid):
                for v in grid[i + 1:]:
                    d = (v[0] - u[0], v[1] - u[1])
                    g = math.gcd(int(d[0]), int(d[1]))
                    d = (d[0] / g, d[1] / g)
                    for k in range(-4 * m, 4 * m + 1):
                        c = (u[0] + F(k, 2) * d[0], u[1] + F(k, 2) * d[1])
                        if not (xs0 - 1 <= c[0] <= xs1 + 1 and ys0 - 1 <= c[1] <= ys1 + 1):
                            continue
                        lines.append((c, d))
                        lines.append((c, (d[0] - delta * d[1], d[1] + delta * d[0])))
                        lines.append((c, (d[0] + delta * d[1], d[1] - delta * d[0])))
            for c, d in lines:
                p = _chord_mid(a, c, d)
                q = _chord_mid(b, c, d) if p is not None else None
                if q is not None:
                    yield p, q, False, False
            return
        free, fixed_sq, kind, free_first = (a, b, prof.to, True) if prof.from_ == "any" else (b, a, prof.from_, False)
        for f, fc in fixed(kind, fixed_sq):
            for w in grid:
                d = (w[0] - f[0], w[1] - f[1])
                if d == (0, 0):
                    continue
                for dd in (d, (d[0] - delta * d[1], d[1] + delta * d[0]), (d[0] + delta * d[1], d[1] - delta * d[0])):
                    p = _chord_mid(free, f, dd)
                    if p is not None:
                        yield (p, f, False, fc) if free_first else (f, p, fc, False)


@dataclass(frozen=True)
class Segment:
    """What the segment p→q between squares a and b meets on the grid, read by :meth:`Oracle.judge`.

    ``point`` is set when p = q (a grid point shared by both squares): the point and the directions
    to the two centres. Otherwise ``met`` are the squares whose open interior the segment meets,
    ``crossed`` the unit edges it crosses at an interior point of both, ``along`` the unit edges it
    runs along, ``points`` the grid points on it that count (an end point only when it is a corner)
    with the directions back and on, and ``normals`` the two sides of the segment.
    """

    point: tuple[Pt, Pt, Pt] | None
    met: tuple[tuple[int, int], ...] = ()
    crossed: tuple[Edge, ...] = ()
    along: tuple[Edge, ...] = ()
    points: tuple[tuple[Pt, Pt, Pt], ...] = ()
    normals: tuple[Pt, ...] = ()


class _Segments:
    """One pair's candidate segments under one endpoint rule, deduplicated, their geometry measured
    as far as some board has needed (a clear line ends the search, as it always did)."""

    def __init__(self, a, b, candidates: Iterator[tuple[Pt, Pt, bool, bool]]) -> None:
        self.a, self.b = a, b
        self.candidates = candidates
        self.seen: set[tuple[Pt, Pt, bool, bool]] = set()
        self.segments: list[Segment] = []

    def __iter__(self) -> Iterator[Segment]:
        i = 0
        while True:
            if i == len(self.segments):
                for c in self.candidates:  # the next candidate not seen yet
                    if c not in self.seen:
                        self.seen.add(c)
                        self.segments.append(segment_geometry(self.a, self.b, *c))
                        break
                else:
                    return
            yield self.segments[i]
            i += 1


_SEGMENTS: dict[tuple[object, ...], _Segments] = {}


def segment_geometry(a, b, p: Pt, q: Pt, p_corner: bool, q_corner: bool) -> Segment:
    """Every square, edge and grid point of the bounding box (plus one) tested against p→q."""
    centre_a = (F(a[0]) + F(1, 2), F(a[1]) + F(1, 2))
    centre_b = (F(b[0]) + F(1, 2), F(b[1]) + F(1, 2))
    if p == q:
        g = p
        return Segment(point=(g, (centre_a[0] - g[0], centre_a[1] - g[1]), (centre_b[0] - g[0], centre_b[1] - g[1])))
    xs = [p[0], q[0]]
    ys = [p[1], q[1]]
    x0, x1 = math.floor(min(xs)) - 1, math.ceil(max(xs)) + 1
    y0, y1 = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1
    met = [(sx, sy) for sx in range(x0, x1 + 1) for sy in range(y0, y1 + 1)
           if Oracle._meets_open_square(p, q, sx, sy)]
    crossed: list[Edge] = []
    along: list[Edge] = []
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            for e in (Edge("V", x, y), Edge("H", x, y)):
                u, w = ((F(c[0]), F(c[1])) for c in e.ends())
                ou, ow = _cross(p, q, u), _cross(p, q, w)
                if ou * ow < 0 and _cross(u, w, p) * _cross(u, w, q) < 0:
                    crossed.append(e)
                if ou == 0 and ow == 0 and Oracle._overlap(p, q, u, w):
                    along.append(e)
    points = []
    for gx in range(x0, x1 + 1):
        for gy in range(y0, y1 + 1):
            g = (F(gx), F(gy))
            if _cross(p, q, g) != 0 or not Oracle._between(p, q, g):
                continue
            if g == p and not p_corner or g == q and not q_corner:
                continue
            before = (centre_a[0] - g[0], centre_a[1] - g[1]) if g == p else (p[0] - g[0], p[1] - g[1])
            after = (centre_b[0] - g[0], centre_b[1] - g[1]) if g == q else (q[0] - g[0], q[1] - g[1])
            points.append((g, before, after))
    d = (q[0] - p[0], q[1] - p[1])
    return Segment(None, tuple(met), tuple(crossed), tuple(along), tuple(points), ((-d[1], d[0]), (d[1], -d[0])))


def _sign(v) -> int:
    return (v > 0) - (v < 0)


def _unit(v) -> Fraction:
    return F(_sign(v))


def _parallel_same(d: Pt, v: Pt) -> bool:
    return _cross((F(0), F(0)), d, v) == 0 and d[0] * v[0] + d[1] * v[1] > 0


def _chord_mid(sq, c: Pt, d: Pt) -> Pt | None:
    lo: Fraction | None = None
    hi: Fraction | None = None
    for axis in (0, 1):
        if d[axis] == 0:
            if not (sq[axis] < c[axis] < sq[axis] + 1):
                return None
            continue
        t1, t2 = sorted(((sq[axis] - c[axis]) / d[axis], (sq[axis] + 1 - c[axis]) / d[axis]))
        lo = t1 if lo is None else max(lo, t1)
        hi = t2 if hi is None else min(hi, t2)
    if lo is None or hi is None or lo >= hi:
        return None
    t = (lo + hi) / 2
    return (c[0] + t * d[0], c[1] + t * d[1])


VECTORS = {
    "P1": (["..."], [], [(0, 0), (2, 0)], {"arcadia": True, "corners": True, "dnd5e": True, "pf2e": True, "any-point": True}),
    "P2": (["..."], ["fig"], [(0, 0), (2, 0)], {"arcadia": True, "corners": False, "dnd5e": True, "pf2e": True, "any-point": True}),
    "P3": (["..."], ["V(1,0)"], [(0, 0), (2, 0)], dict.fromkeys(PRESETS, False)),
    "P4": ([".#.", "#..", "..."], [], [(0, 0), (2, 2)], {"arcadia": False, "corners": True, "dnd5e": True, "pf2e": True, "any-point": False}),
    "P5": (["...", ".#.", "..."], [], [(0, 0), (2, 2)], {"arcadia": False, "corners": True, "dnd5e": True, "pf2e": True, "any-point": False}),
    "P6": (["..", ".."], ["V(1,0)", "H(0,1)"], [(0, 0), (1, 1)], dict.fromkeys(PRESETS, False)),
    "P7": (["..", ".."], ["V(1,0)"], [(0, 0), (1, 1)], dict.fromkeys(PRESETS, True)),
    "P8": (["..", ".."], ["V(1,0)"], [(0, 0), (1, 0)], {"arcadia": False, "corners": True, "dnd5e": True, "pf2e": True, "any-point": False}),
    "P9": ([".#.", "..."], [], [(0, 0), (2, 0)], {"arcadia": False, "corners": False, "dnd5e": True, "pf2e": True, "any-point": False}),
}


def vector_board(name: str) -> tuple[Board, tuple[int, int], tuple[int, int], str | None]:
    """The board of vector P1..P9 (figures on the far side: an enemy of the viewer ``hero``)."""
    rows, walls, (a, b), _ = VECTORS[name]
    figures = []
    if "fig" in walls:
        figures = [Figure(1, "Goblin", "monsters", (1, 0))]
        walls = []
    board = Board.from_ascii(rows, walls=walls, figures=figures)
    return board, a, b, "hero" if figures else None
