"""Fast field of view for corner-to-corner rules: every square one origin sees, at once, exactly.

Pure: numpy and integers only (no floats in any decision). It answers the segment rule of
:mod:`game.core.profile_los` for every segment from a corner of the origin's square A to a corner
of another square B that does **not** run along a grid line; :func:`corner_candidates` returns the
squares some such segment reaches. Its positives are exact; the caller
(:func:`game.core.profile_los.visible_from`) decides the rest — segments along grid lines, squares
that share a corner with A, target squares that block themselves — with the exact walk.

How (shadow casting from a grid point, by octants, with exact slopes):

* From a corner ``p`` of A the plane splits into 8 octants. In local coordinates of one octant a
  target grid point is ``(u, v)`` with ``1 <= v <= u`` (``v = 0`` runs along a grid line and is
  left to the walk), seen along the slope ``v/u``. Every obstacle a segment of slope ``s`` can meet
  before reaching column ``u`` is a *blocker*: an open slope interval (or one slope) and a *key*,
  the first column it stands before:

  - a blocking square ``[c, c+1] x [r, r+1]`` is passed through exactly when
    ``r/(c+1) < s < (r+1)/c`` and ``u >= c + 1``;
  - a wall on the line ``u = k`` spanning ``[r, r+1]`` is crossed at an interior point exactly when
    ``r/k < s < (r+1)/k`` and ``u >= k + 1``;
  - a wall on the line ``v = m`` spanning ``[c, c+1]`` exactly when ``m/(c+1) < s < m/c`` and
    ``u >= c + 1``;
  - a grid point ``(k, m)`` the segment passes straight through blocks the slope ``m/k`` from
    column ``k + 1`` on when the sector rule or ``corner_touch`` blocks a line passing straight
    through it in that diagonal direction.

  The target is clear iff no blocker with key ``<= u`` holds its slope, and the start and end
  grid points pass the sector rule with A's and B's quadrants. (A segment of slope in ``(0, 1]``
  meets nothing else: it runs along no edge, and it meets A's or B's square only as the quadrant
  it leaves from or arrives in, which the rules leave out anyway.)
* Slopes are compared through ``(v << 42) // u``: fractions with denominators below 2**20 that
  differ, differ by more than 2**-40, so the keys keep their order (an exact order, no floats).
* For each slope the smallest key over the blockers holding it: each interval is painted into a
  sparse table at its two covering powers of two, then minima are pushed down level by level.
* What a grid point does to a line depends only on the 8 things around it (4 wall arms, 4
  squares): a 256-entry table per pair of directions, built once from the walk's own rule
  (:func:`game.core.profile_los.vertex_table`), so both paths share one definition.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from game.core.board import Square

if TYPE_CHECKING:
    from game.core.profile_los import _Geo

__all__ = ["corner_candidates", "fast_corner_rule"]

_SHIFT = 42
_FAR = np.iinfo(np.int32).max

# directions around a grid point as in profile_los: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE
_QUAD = {(1, 1): 1, (-1, 1): 3, (-1, -1): 5, (1, -1): 7}


def fast_corner_rule(profile: object) -> bool:
    """True when :func:`corner_candidates` applies: corners to corners."""
    return getattr(profile, "from_", None) == "corners" and getattr(profile, "to", None) == "corners"


@lru_cache(maxsize=4)
def _slopes(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys of the slopes ``v/u`` (``1 <= v <= u <= n``) and ``rank[u, v]``."""
    u = np.arange(n + 1, dtype=np.int64)[:, None]
    v = np.arange(n + 1, dtype=np.int64)[None, :]
    valid = (v >= 1) & (v <= u)
    key = (v << _SHIFT) // np.maximum(u, 1)
    keys = np.unique(key[valid])
    rank = np.searchsorted(keys, key).astype(np.int32)
    rank[~valid] = 0
    return keys, rank


def _key(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    return (p.astype(np.int64) << _SHIFT) // np.maximum(q, 1).astype(np.int64)


def _paint_min(count: int, lo: np.ndarray, hi: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Per leaf ``0..count-1``: the smallest key of the intervals ``[lo, hi)`` holding it."""
    ok = hi > lo
    lo, hi, key = lo[ok], hi[ok], key[ok]
    levels = max(1, int(count).bit_length())
    table = np.full((levels, count), _FAR, dtype=np.int32)
    if lo.size:
        length = hi - lo
        powers = 1 << np.arange(levels, dtype=np.int64)
        lev = np.searchsorted(powers, length, side="right") - 1
        np.minimum.at(table, (lev, lo), key)
        np.minimum.at(table, (lev, hi - powers[lev]), key)
        for level in range(int(lev.max()), 0, -1):
            half = 1 << (level - 1)
            row = table[level]
            below = table[level - 1]
            np.minimum(below, row, out=below)
            np.minimum(below[half:], row[: count - half], out=below[half:])
    return table[0]


class _Fast:
    """The arrays of one board, profile and viewer (cached on the profile engine's ``_Geo``)."""

    def __init__(self, geo: _Geo) -> None:
        from game.core.profile_los import vertex_table

        board = geo.board
        w, h = board.width, board.height
        self.width, self.height = w, h
        blk = np.ones((h + 2, w + 2), dtype=bool)  # padded: off the board blocks
        inner = np.zeros((h, w), dtype=bool)
        for x, y in board.void | board.blocked:
            inner[y, x] = True  # geo.square: void and blocked terrain always block
        for sq in {f.square for f in board.figures.values()}:
            if board.in_bounds(sq) and geo.square(sq):
                inner[sq[1], sq[0]] = True
        blk[1:-1, 1:-1] = inner
        self.blocking = inner
        self.padded = blk
        closed = geo.closed
        vw = np.full((h + 2, w + 1), closed, dtype=bool)  # V(x, y) at [y + 1, x]
        hw = np.full((h + 1, w + 2), closed, dtype=bool)  # H(x, y) at [y, x + 1]
        vw[1:-1, 1:-1] = False
        hw[1:-1, 1:-1] = False
        doors = board.doors
        shut = [e for e, door in doors.items() if door.state.blocks]
        edges = [e for e in board.walls if e not in doors] + shut
        for axis, array, xmax, ymax in (("V", vw, w, h - 1), ("H", hw, w - 1, h)):
            xy = np.array([(e.x, e.y) for e in edges if e.axis == axis], dtype=np.int64).reshape(-1, 2)
            xy = xy[(xy[:, 0] >= 0) & (xy[:, 0] <= xmax) & (xy[:, 1] >= 0) & (xy[:, 1] <= ymax)]
            if axis == "V":
                array[xy[:, 1] + 1, xy[:, 0]] = True
            else:
                array[xy[:, 1], xy[:, 0] + 1] = True
        if closed:
            for x, y in board.void:
                vw[y + 1, x] = vw[y + 1, x + 1] = True
                hw[y, x + 1] = hw[y + 1, x + 1] = True
        self.vw, self.hw = vw, hw
        # the wall edges inside the board's rectangle, for the blockers
        vy, vx = np.nonzero(vw[1:-1, :])
        hy, hx = np.nonzero(hw[:, 1:-1])
        self.v_edges = (vx.astype(np.int64), vy.astype(np.int64))
        self.h_edges = (hx.astype(np.int64), hy.astype(np.int64))
        by, bx = np.nonzero(inner)
        self.squares = (bx.astype(np.int64), by.astype(np.int64))
        # the signature of every grid point (gx, gy), [gy, gx]: bit p for direction p
        sig = np.zeros((h + 1, w + 1), dtype=np.int32)
        sig |= hw[:, 1:].astype(np.int32) << 0  # E: H(gx, gy)
        sig |= vw[1:, :].astype(np.int32) << 2  # S: V(gx, gy)
        sig |= hw[:, :-1].astype(np.int32) << 4  # W: H(gx-1, gy)
        sig |= vw[:-1, :].astype(np.int32) << 6  # N: V(gx, gy-1)
        sig |= blk[1:, 1:].astype(np.int32) << 1  # SE: (gx, gy)
        sig |= blk[1:, :-1].astype(np.int32) << 3  # SW: (gx-1, gy)
        sig |= blk[:-1, :-1].astype(np.int32) << 5  # NW: (gx-1, gy-1)
        sig |= blk[:-1, 1:].astype(np.int32) << 7  # NE: (gx, gy-1)
        self.sig = sig
        touch = geo.profile.corner_touch
        self._touch = touch
        self._table = vertex_table
        # straight through a grid point: NW<->SE (sx * sy = 1) and NE<->SW
        self.through = {
            1: np.nonzero(vertex_table(touch, 5, 1, False)[sig]),
            -1: np.nonzero(vertex_table(touch, 7, 3, False)[sig]),
        }
        self._end: dict[tuple[int, int, bool], np.ndarray] = {}

    def end_blocked(self, back: int, quadrant: int, same: bool) -> np.ndarray:
        """Bool ``[gy, gx]``: a segment arriving from direction ``back`` into ``quadrant`` is blocked."""
        key = (back, quadrant, same)
        found = self._end.get(key)
        if found is None:
            found = self._end[key] = self._table(self._touch, back, quadrant, same)[self.sig]
        return found

    def wall_along(self, g: tuple[int, int], e: tuple[int, int], n: int) -> np.ndarray:
        """Bool (n,): the edges ``j = 0..n-1`` from grid point ``g + j·e`` to ``g + (j+1)·e`` are walls."""
        gx, gy = g
        j = np.arange(n)
        if e[1] == 0:  # H(x, gy) at hw[gy, x + 1]
            x = gx + j if e[0] > 0 else gx - j - 1
            return self.hw[gy, x + 1]
        y = gy + j if e[1] > 0 else gy - j - 1
        return self.vw[y + 1, gx]

    def beside(self, g: tuple[int, int], e: tuple[int, int], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The two squares beside each edge of :meth:`wall_along`: ``(x1, y1, x2, y2)``."""
        gx, gy = g
        j = np.arange(n)
        if e[1] == 0:
            x = gx + j if e[0] > 0 else gx - j - 1
            return x, np.full(n, gy - 1), x, np.full(n, gy)
        y = gy + j if e[1] > 0 else gy - j - 1
        return np.full(n, gx - 1), y, np.full(n, gx), y


def _fast(geo: _Geo) -> _Fast:
    found = getattr(geo, "fast", None)
    if found is None:
        found = _Fast(geo)
        geo.fast = found
    return found


def _cell(coord: np.ndarray, origin: int, sign: int) -> np.ndarray:
    """Local index of the unit cells ``[x, x+1]`` seen from grid line ``origin`` in direction ``sign``."""
    return coord - origin if sign > 0 else origin - coord - 1


def _octant(
    fast: _Fast, a: Square, p: tuple[int, int], sx: int, sy: int, swap: bool, start: tuple[bool, bool],
    keys: np.ndarray, rank: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """World grid points ``(qx, qy)`` of one octant (world direction signs ``sx, sy``; ``swap``: y is
    the primary axis) whose segment from ``p`` is clear before its end point (and at the start),
    with ``diag`` (slope 1)."""
    px, py = p
    su, sv = (sy, sx) if swap else (sx, sy)
    w, h = fast.width, fast.height
    if not swap:
        pu, pv = px, py
        umax = w - px if su > 0 else px
        vmax = h - py if sv > 0 else py
    else:
        pu, pv = py, px
        umax = h - py if su > 0 else py
        vmax = w - px if sv > 0 else px
    if umax < 1 or vmax < 1:
        return None
    count = keys.size
    los, his, ks = [], [], []
    # blocking squares (A never blocks: it is one end of every segment)
    bx, by = fast.squares
    if fast.blocking[a[1], a[0]]:
        other = (bx != a[0]) | (by != a[1])
        bx, by = bx[other], by[other]
    sp, ss = (bx, by) if not swap else (by, bx)
    c = _cell(sp, pu, su)
    r = _cell(ss, pv, sv)
    keep = (c >= 0) & (r >= 0) & (r <= c) & (c + 1 < umax) & (r < vmax)
    c, r = c[keep], r[keep]
    los.append(np.searchsorted(keys, _key(r, c + 1), side="right"))
    his.append(np.where(c == 0, count, np.searchsorted(keys, _key(r + 1, c), side="left")))
    ks.append(c + 2)  # the square of the last column is judged at the end point (it may be B)
    # walls on the lines u = k (world V edges unless swapped)
    ex, ey = fast.v_edges if not swap else fast.h_edges
    ep, es = (ex, ey) if not swap else (ey, ex)
    k = su * (ep - pu)
    r = _cell(es, pv, sv)
    keep = (k >= 1) & (r >= 0) & (r < k) & (k < umax) & (r < vmax)
    k, r = k[keep], r[keep]
    los.append(np.searchsorted(keys, _key(r, k), side="right"))
    his.append(np.searchsorted(keys, _key(r + 1, k), side="left"))
    ks.append(k + 1)
    # walls on the lines v = m (world H edges unless swapped)
    ex, ey = fast.h_edges if not swap else fast.v_edges
    ep, es = (ex, ey) if not swap else (ey, ex)
    c = _cell(ep, pu, su)
    m = sv * (es - pv)
    keep = (m >= 1) & (c >= 0) & (m <= c) & (c < umax) & (m <= vmax)
    c, m = c[keep], m[keep]
    los.append(np.searchsorted(keys, _key(m, c + 1), side="right"))
    his.append(np.where(c == 0, count, np.searchsorted(keys, _key(m, c), side="left")))
    ks.append(c + 1)
    # grid points passed straight through
    gy, gx = fast.through[su * sv]
    gp, gs = (gx, gy) if not swap else (gy, gx)
    k = su * (gp - pu)
    m = sv * (gs - pv)
    keep = (m >= 1) & (m <= k) & (k < umax) & (m <= vmax)
    k, m = k[keep], m[keep]
    leaf = rank[k, m].astype(np.int64)
    los.append(leaf)
    his.append(leaf + 1)
    ks.append(k + 1)
    best = _paint_min(count, np.concatenate(los), np.concatenate(his), np.concatenate(ks).astype(np.int32))
    uu = np.arange(1, umax + 1)[:, None]
    vv = np.arange(1, vmax + 1)[None, :]
    inside = vv <= uu
    clear = inside & (best[rank[uu, np.minimum(vv, uu)]] > uu)
    diag = vv == uu
    block_plain, block_diag = start
    if block_plain:
        clear &= diag
    if block_diag:
        clear &= ~diag
    iu, iv = np.nonzero(clear)
    du, dv = su * (iu + 1), sv * (iv + 1)
    if not swap:
        return px + du, py + dv, iu == iv
    return px + dv, py + du, iu == iv


def corner_candidates(geo: _Geo, a: Square) -> np.ndarray:
    """Bool ``[y, x]``: the squares B that some segment from a corner of ``a`` to a corner of B,
    not running along a grid line, reaches clear — exact positives (see the module docstring).

    ``a`` must be on the board. Squares sharing a corner with ``a`` may be missed (never wrongly
    shown): the caller walks them. (A's own square never blocks, so its bit in the grid-point
    patterns is never read: at a corner of A a segment leaves from A's quadrant or, passing
    straight through, arrives from it — either way the rule leaves that quadrant out.)
    """
    from game.core.profile_los import _quadrant_of, vertex_table

    fast = _fast(geo)
    w, h = fast.width, fast.height
    keys, rank = _slopes(max(w, h))
    out = np.zeros((h, w), dtype=bool)
    ax, ay = a
    for p in ((ax, ay), (ax + 1, ay), (ax, ay + 1), (ax + 1, ay + 1)):
        qa = _quadrant_of(a, p)
        for (sx, sy), forward in _QUAD.items():
            here = fast.sig[p[1], p[0]]  # A does not block, so its bit is clear
            start = (
                bool(vertex_table(fast._touch, qa, forward, False)[here]),
                bool(vertex_table(fast._touch, qa, forward, True)[here]),
            )
            if all(start):
                continue
            parts = [
                found for swap in (False, True)
                if (found := _octant(fast, a, p, sx, sy, swap, start, keys, rank)) is not None
            ]
            if not parts:
                continue
            qx = np.concatenate([f[0] for f in parts])
            qy = np.concatenate([f[1] for f in parts])
            diag = np.concatenate([f[2] for f in parts])
            back = _QUAD[(-sx, -sy)]
            # the square the segment's last stretch runs through: q's quadrant behind it
            li, lj = int(sx > 0), int(sy > 0)
            last = fast.padded[qy - lj + 1, qx - li + 1]
            for i in (0, 1):
                for j in (0, 1):
                    bx, by = qx - i, qy - j
                    onb = (bx >= 0) & (bx < w) & (by >= 0) & (by < h)
                    if (i, j) != (li, lj):
                        onb &= ~last
                    if not onb.any():
                        continue
                    quadrant = _QUAD[(1 - 2 * i, 1 - 2 * j)]
                    gx, gy, dd = qx[onb], qy[onb], diag[onb]
                    bad = np.where(
                        dd, fast.end_blocked(back, quadrant, True)[gy, gx],
                        fast.end_blocked(back, quadrant, False)[gy, gx],
                    )
                    out[by[onb][~bad], bx[onb][~bad]] = True
    _axis_lines(geo, fast, a, out)
    return out


_ARMS = {(1, 0): 0, (0, 1): 2, (-1, 0): 4, (0, -1): 6}


def _axis_lines(geo: _Geo, fast: _Fast, a: Square, out: np.ndarray) -> None:
    """The segments from a corner of ``a`` that run along a grid line, one pass per line: the walk's
    along rule (:func:`game.core.profile_los._along_blocker`) for every end point at once."""
    from game.core.profile_los import _quadrant_of, vertex_table

    profile = geo.profile
    wall_blocks = profile.along_wall == "blocks"
    square_blocks = profile.along_square == "blocks"
    touch = profile.corner_touch
    w, h = fast.width, fast.height
    ax, ay = a
    padded = fast.padded
    for p in ((ax, ay), (ax + 1, ay), (ax, ay + 1), (ax + 1, ay + 1)):
        px, py = p
        qa = _quadrant_of(a, p)
        for e, fwd in _ARMS.items():
            ex, ey = e
            n = (w - px if ex > 0 else px) if ey == 0 else (h - py if ey > 0 else py)
            if n < 1:
                continue
            back = (fwd + 4) % 8
            normals = ((-ey, ex), (ey, -ex))
            t = np.arange(n + 1)
            gxs, gys = px + t * ex, py + t * ey
            sig = fast.sig[gys, gxs]
            walls = fast.wall_along(p, e, n).tolist()
            x1, y1, x2, y2 = fast.beside(p, e, n)
            side1 = (padded[y1 + 1, x1 + 1] & ((x1 != ax) | (y1 != ay))).tolist()  # A never blocks
            side2 = (padded[y2 + 1, x2 + 1] & ((x2 != ax) | (y2 != ay))).tolist()
            sides: tuple[tuple[int, int] | None, ...] = (None, *normals)
            good = [(~vertex_table(touch, back, fwd, False, s)[sig]).tolist() for s in sides]
            start = [not vertex_table(touch, qa, fwd, False, s)[sig[0]] for s in sides]
            ends = {
                (qx, qy): [(~vertex_table(touch, back, _QUAD[(qx, qy)], False, s)[sig]).tolist() for s in sides]
                for qx in (1, -1) for qy in (1, -1)
            }
            x1l, y1l, x2l, y2l = x1.tolist(), y1.tolist(), x2.tolist(), y2.tolist()
            ok1 = ok2 = True
            gx_list, gy_list = gxs.tolist(), gys.tolist()
            for k in range(1, n + 1):
                v = k - 1  # the grid point before the edge just walked is now an inner (or start) point
                in_wall = walls[v]
                before = walls[v - 1] if v >= 1 else False
                plain_v, n1_v, n2_v = (start if v == 0 else (good[0][v], good[1][v], good[2][v]))
                if not in_wall and not before:
                    if not plain_v:
                        break
                elif in_wall and not before:
                    ok1, ok2 = n1_v, n2_v
                else:
                    ok1, ok2 = ok1 and n1_v, ok2 and n2_v
                    if not in_wall and not (ok1 or ok2):
                        break
                if in_wall and wall_blocks:
                    break
                if v >= 1 and square_blocks and (side1[v - 1] or side2[v - 1]):
                    break  # an edge before the last one runs along a blocking square
                gx, gy = gx_list[k], gy_list[k]
                for (qx, qy), verdicts in ends.items():
                    bx, by = gx + (qx - 1) // 2, gy + (qy - 1) // 2
                    if not (0 <= bx < w and 0 <= by < h) or out[by, bx]:
                        continue
                    if square_blocks and (
                        (side1[v] and (x1l[v], y1l[v]) != (bx, by)) or (side2[v] and (x2l[v], y2l[v]) != (bx, by))
                    ):
                        continue
                    if in_wall:
                        seen = (ok1 and verdicts[1][k]) or (ok2 and verdicts[2][k])
                    else:
                        seen = verdicts[0][k]
                    if seen:
                        out[by, bx] = True


def board_blocking(geo: _Geo) -> np.ndarray:
    """Bool ``[y, x]``: the on-board squares that block under the geo's profile and viewer."""
    return _fast(geo).blocking
