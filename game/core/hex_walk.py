"""What a straight segment meets on the hex lattice, in order: the exact walk of the fast paths.

Pure: integers only. Works in the **pointy frame** (flat-top grids are walked transposed, see
:class:`game.core.hexgrid.HexGrid`). Hex edges lie on the lines ``X = k``, ``X + Y = k`` and
``X - Y = k``; every point where the segment meets one of them is a candidate event, and between
two candidates the segment is inside one cell or runs along one edge. A point is located by its
nearest centres in the regular metric (``3·dX² + dY²`` in lattice units, the hexagons being the
Voronoi cells of their centres): one nearest centre is a cell's interior, two an edge, three a
corner. The walk of a segment depends only on its start point's class and its offset, so walks are
cached by ``(start mod the lattice period, offset)``.

>>> walk((0, 0), (4, 0), 0)   # odd rows pushed: centre (0,0) to centre (4,0) through (2,0)
(('cell', (0, 0)), ('edge', ((1, -1), (1, 1))), ('cell', (2, 0)), ('edge', ((3, -1), (3, 1))), ('cell', (4, 0)))
>>> [e[0] for e in walk((2, 0), (2, 6), 0)]
['cell', 'corner', 'run', 'corner', 'cell']
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd

__all__ = ["Event", "walk"]

Point = tuple[int, int]
#: ("cell", centre), ("edge", (end, end)) crossed at an interior point, ("corner", point),
#: ("run", (end, end)) run along; ends sorted
Event = tuple[str, object]


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b) if a and b else a or b


def _nearest(xn: int, yn: int, den: int, par: int) -> list[Point]:
    """The lattice centres nearest to the point ``(xn/den, yn/den)`` (``par``: the parity of
    ``X - Y/3`` at centres); one, two (an edge) or three (a corner)."""
    row = yn // (3 * den)
    best: list[Point] = []
    best_d = -1
    for r in (row, row + 1):
        cy = 3 * r
        base = (xn // den) - ((xn // den) - r - par) % 2  # a centre column at or left of x
        for cx in (base, base + 2):
            dx, dy = cx * den - xn, cy * den - yn
            dist = 3 * dx * dx + dy * dy
            if best_d < 0 or dist < best_d:
                best, best_d = [(cx, cy)], dist
            elif dist == best_d:
                best.append((cx, cy))
    return best


def _corner_of(centres: list[Point]) -> Point:
    """The corner shared by three mutually adjacent centres: their centroid, a lattice point."""
    return (sum(c[0] for c in centres) // 3, sum(c[1] for c in centres) // 3)


def _edge_of(c1: Point, c2: Point) -> tuple[Point, Point]:
    """The edge between two adjacent centres, as its sorted pair of end points."""
    dx, dy = c2[0] - c1[0], c2[1] - c1[1]
    mx2, my2 = c1[0] + c2[0], c1[1] + c2[1]  # twice the midpoint
    if dy == 0:  # side by side: a vertical edge
        ends = ((mx2 // 2, my2 // 2 - 1), (mx2 // 2, my2 // 2 + 1))
    else:  # one row apart: the edge is the perpendicular through the midpoint, half of (dy, -dx)/3
        ux, uy = dy // 3, -dx * 3 // 3
        ends = (((mx2 + ux) // 2, (my2 + uy) // 2), ((mx2 - ux) // 2, (my2 - uy) // 2))
    a, b = sorted(ends)
    return (a, b)


@lru_cache(maxsize=1 << 15)
def _walk_rel(sx: int, sy: int, dx: int, dy: int, par: int) -> tuple[Event, ...]:
    """The walk of the segment from ``(sx, sy)`` (reduced mod the lattice period) by ``(dx, dy)``."""
    steps = [s for s in (dx, dx + dy, dx - dy) if s]
    m = 1
    for s in steps:
        m = _lcm(m, abs(s))
    ts = {0, m}
    for start, step in ((sx, dx), (sx + sy, dx + dy), (sx - sy, dx - dy)):
        if not step:
            continue
        lo, hi = sorted((start * m, (start + step) * m))  # k·m between, as start·m + T·step
        for k in range(-(-lo // m), hi // m + 1):
            ts.add((k * m - start * m) // step)
    order = sorted(ts)
    out: list[Event] = []
    for i, t in enumerate(order):
        if 0 < t < m:
            here = _nearest(sx * m + t * dx, sy * m + t * dy, m, par)
            if len(here) == 3:
                out.append(("corner", _corner_of(here)))
            elif len(here) == 2:
                a, b = _edge_of(here[0], here[1])
                if (b[0] - a[0]) * dy != (b[1] - a[1]) * dx:  # not a point of an edge run along
                    out.append(("edge", (a, b)))
        elif t in (0, m):
            x, y = (sx, sy) if t == 0 else (sx + dx, sy + dy)
            here = _nearest(x, y, 1, par)
            if len(here) == 3:
                out.append(("corner", (x, y)))
        if i + 1 < len(order):
            mid = t + order[i + 1]
            here = _nearest(2 * sx * m + mid * dx, 2 * sy * m + mid * dy, 2 * m, par)
            region: Event = ("run", _edge_of(here[0], here[1])) if len(here) == 2 else ("cell", here[0])
            if not out or out[-1] != region:
                out.append(region)
    return tuple(out)


def walk(p: Point, q: Point, par: int) -> tuple[Event, ...]:
    """Everything the segment from ``p`` to ``q`` meets, in order (pointy frame; ``par`` is 0 when
    odd rows are pushed, 1 when even rows are: centres have ``X ≡ Y/3 + par`` mod 2): the cells whose interior it passes through, the
    edges it crosses at an interior point, the corners it passes (its end points included when
    they are corners) and the edges it runs along."""
    # the tiling is invariant under the translations by (2, 0) and (1, 3): reduce p to a base point
    r = p[1] // 3
    bx, by = p[0] - 2 * ((p[0] - r) // 2) - r, p[1] - 3 * r
    shift = (p[0] - bx, p[1] - by)
    rel = _walk_rel(bx, by, q[0] - p[0], q[1] - p[1], par)
    return tuple(_shifted(e, shift) for e in rel)


def _shifted(event: Event, s: Point) -> Event:
    kind, data = event
    if kind in ("edge", "run"):
        ends: tuple[Point, Point] = data  # type: ignore[assignment]
        (ax, ay), (bx, by) = ends
        return (kind, ((ax + s[0], ay + s[1]), (bx + s[0], by + s[1])))
    point: Point = data  # type: ignore[assignment]
    return (kind, (point[0] + s[0], point[1] + s[1]))
