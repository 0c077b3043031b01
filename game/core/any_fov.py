"""Fast field of view for any-point rules: every square some line from the open origin square
reaches, at once, exactly.

Pure: integers only (no floats, no Fractions in the loop). It answers
:func:`game.core.profile_los.visible_from` for the profiles where every obstacle is a closed set
(:func:`applies`): ``from = to = any``, ``corner_touch = blocks``, ``along_wall = blocks``,
``along_square = blocks``, any ``figures`` and ``boundary``. Under those rules a line is blocked
exactly when it meets a wall edge (its end points included) or a blocking square other than A and
B (its edges and corners included), so B is in sight exactly when some segment from the open
square A to the open square B misses the closed union O of the walls and blocking squares. (The
boundary changes nothing: an edge of a void square is part of that closed square, and a line that
leaves the board's rectangle never comes back.)

How (a weak-visibility sweep of the open square A, by quadrants, in the dual plane of lines):

* Every free segment can be turned slightly (the free set is open), so it has a direction with
  both components non-zero: split by the quadrant of the direction. In one quadrant's local frame
  A is ``(0,1)²``, local cell ``(u, v)`` is ``[u, u+1] × [v, v+1]`` (``u, v >= 0``), and a line of
  direction ``(1 - t, t)``, ``0 < t < 1``, is ``{P : f_t(P) = c}`` with ``f_t(X, Y) = Y - t(X + Y)``.
  A point P lies strictly below the line iff ``c < f_t(P)``, i.e. iff the *dual line*
  ``c = Y_P - t (X_P + Y_P)`` passes above the dual point ``(t, c)``.
* Such a line misses a closed axis-parallel obstacle (a square, or a wall: a square of width or
  height 0) iff it passes strictly above its top-left corner TL or strictly below its bottom-right
  corner BR. It meets the open A iff it passes above ``(1, 0)`` and below ``(0, 1)``. So the lines
  that miss a set of obstacles form disjoint convex polygons of the ``(t, c)`` plane — the *views*
  — and each obstacle clips every view in two (above TL, below BR; either may be empty).
* Order. On a line of positive direction both coordinates grow, so an obstacle of local cell
  ``(u', v')`` (the cell itself, or its left edge ``X = u'`` or bottom edge ``Y = v'``) can stand
  between A and the open cell ``(u, v)`` only if ``u' <= u`` and ``v' <= v``; and when it is met by a
  line through the open cell ``(u, v)`` at all, it is met before that cell if ``u' + v' < u + v``,
  and never if ``u' + v' == u + v`` and ``(u', v') != (u, v)``. Hence, diagonal by diagonal
  (``d = u + v``): clip the views by the left and bottom walls of the diagonal's cells, decide the
  diagonal's cells, then clip by its blocking cells. The views hold exactly the lines not blocked
  before the cells being decided, and A's own right and top edges are the walls of cells ``(1, 0)``
  and ``(0, 1)``.
* Deciding a cell. The open cell is the strip ``f_t(BR) < c < f_t(TL)`` of the dual plane, whose
  sides differ by exactly 1; a convex view meets it iff one of its (closure's) vertices lies
  strictly below the upper side and one strictly above the lower side. Both corners lie on the
  diagonal ``X + Y = s = d + 1``, where a vertex ``(t, c)`` crosses at height ``Y = c + t s``: the
  cell of row ``v`` is reached iff ``min Y < v + 1`` and ``max Y > v`` over the vertices, i.e. the
  rows ``floor(min Y) <= v <= ceil(max Y) - 1``: one interval per view and diagonal.
  A view whose lines all cross the diagonal above the board's top row, or right of its last column,
  has left the board for good and is dropped.
* An obstacle can clip a view only if one of the view's lines meets its open cell or crosses the
  wall's open segment — then the view reaches the cell the obstacle belongs to. So only the cells
  of a view's interval are looked at.
* Vertices are kept in homogeneous integer coordinates ``(T, C, W)``, ``t = T/W``, ``c = C/W``,
  ``W > 0``, reduced by their gcd: the clip's intersection point is an integer combination of two
  vertices, and every comparison is an integer sign.

tests/test_any_fov.py checks it against the per-pair exact search (every pattern of small boards,
hypothesis on random ones).
"""

from __future__ import annotations

from math import gcd

import numpy as np

from game.core.board import Square

__all__ = ["applies", "visible_any"]

Vertex = tuple[int, int, int]  # (T, C, W): t = T / W, c = C / W, W > 0
Polygon = list[Vertex]

#: the lines through the open square A with a direction in the open quadrant: 0 < t < 1, -t < c < 1 - t
_START: Polygon = [(0, 0, 1), (1, -1, 1), (1, 0, 1), (0, 1, 1)]


def applies(profile: object) -> bool:
    """True when every obstacle of the profile is closed and both ends are ``any`` (see the
    module): the rules of family ``"any"`` (:attr:`game.core.profiles.Profile.family`)."""
    return getattr(profile, "family", None) == "any"


def _reduce(t: int, c: int, w: int) -> Vertex:
    g = gcd(gcd(t, c), w)
    return (t // g, c // g, w // g) if g > 1 else (t, c, w)


def _clip(poly: Polygon, y: int, s: int, above: bool) -> Polygon | None:
    """The part of a view whose lines pass strictly above (``above``) or strictly below the point
    with ``Y = y`` and ``X + Y = s``; None when that part has no interior."""
    sign = 1 if above else -1
    hs = [sign * (c + s * t - y * w) for t, c, w in poly]
    if min(hs) >= 0:
        return poly
    if max(hs) <= 0:
        return None
    out: Polygon = []
    n = len(poly)
    for i in range(n):
        h1, h2 = hs[i], hs[(i + 1) % n]
        v1 = poly[i]
        if h1 >= 0:
            out.append(v1)
        if (h1 > 0 > h2) or (h1 < 0 < h2):
            v2 = poly[(i + 1) % n]
            a1, a2 = abs(h1), abs(h2)
            out.append(_reduce(a1 * v2[0] + a2 * v1[0], a1 * v2[1] + a2 * v1[1], a1 * v2[2] + a2 * v1[2]))
    return out if _has_area(out) else None


def _has_area(poly: Polygon) -> bool:
    if len(poly) < 3:
        return False
    t0, c0, w0 = poly[0]
    for (t1, c1, w1), (t2, c2, w2) in zip(poly[1:], poly[2:], strict=False):
        if t0 * (c1 * w2 - c2 * w1) - c0 * (t1 * w2 - t2 * w1) + w0 * (t1 * c2 - t2 * c1):
            return True
    return False


def _rows(poly: Polygon, s: int) -> tuple[int, int]:
    """The rows ``v`` of the cells on diagonal ``X + Y = s`` that the view's lines reach (module)."""
    lo = hi = None
    for t, c, w in poly:
        y = c + t * s
        f = y // w
        g = -((-y) // w)
        if lo is None or f < lo:
            lo = f
        if hi is None or g > hi:
            hi = g
    assert lo is not None and hi is not None
    return lo, hi - 1


def _split(views: list[Polygon], obstacles: list[tuple[int, int, int, int, int]], s_of: int) -> list[Polygon]:
    """Clip every view by the obstacles ``(v, y_tl, s_tl, y_br, s_br)`` (sorted by ``v``) of the
    cells it reaches on the diagonal ``X + Y = s_of``."""
    out: list[Polygon] = []
    work = [(poly, 0) for poly in views]
    count = len(obstacles)
    while work:
        poly, start = work.pop()
        lo, hi = _rows(poly, s_of)
        k = start
        while k < count and obstacles[k][0] < lo:
            k += 1
        if k >= count or obstacles[k][0] > hi:
            out.append(poly)
            continue
        _, y_tl, s_tl, y_br, s_br = obstacles[k]
        above = _clip(poly, y_tl, s_tl, True)
        below = _clip(poly, y_br, s_br, False)
        if above is poly or below is poly:  # the obstacle only touches the view
            work.append((poly, k + 1))
            continue
        for piece in (above, below):
            if piece is not None:
                work.append((piece, k + 1))
    return out


def _quadrant(
    blocking: np.ndarray, vw: np.ndarray, hw: np.ndarray, a: Square, sx: int, sy: int,
) -> list[tuple[int, int, int]]:
    """The reached cells of one quadrant as ``(d, v_lo, v_hi)`` runs (local cell ``(d - v, v)``)."""
    h, w = blocking.shape
    ax, ay = a
    umax = w - 1 - ax if sx > 0 else ax
    vmax = h - 1 - ay if sy > 0 else ay
    us = np.arange(umax + 1)
    vs = np.arange(vmax + 1)
    wx = ax + sx * us
    wy = ay + sy * vs
    cells = blocking[np.ix_(wy, wx)].T.copy()  # [u, v]
    cells[0, 0] = False  # A never blocks
    xe = ax + us if sx > 0 else ax - us + 1  # the V edge at local X = u
    left = vw[np.ix_(wy + 1, xe)].T.copy()
    left[0, :] = False  # X = 0 is behind every line of this quadrant
    ye = ay + vs if sy > 0 else ay - vs + 1  # the H edge at local Y = v
    bottom = hw[np.ix_(ye, wx + 1)].T.copy()
    bottom[:, 0] = False
    walls: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for u, v in zip(*(arr.tolist() for arr in np.nonzero(left)), strict=True):
        # TL (u, v + 1), BR (u, v)
        walls.setdefault(u + v, []).append((v, v + 1, u + v + 1, v, u + v))
    for u, v in zip(*(arr.tolist() for arr in np.nonzero(bottom)), strict=True):
        # TL (u, v), BR (u + 1, v)
        walls.setdefault(u + v, []).append((v, v, u + v, v, u + v + 1))
    blocks: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for u, v in zip(*(arr.tolist() for arr in np.nonzero(cells)), strict=True):
        # TL (u, v + 1), BR (u + 1, v)
        blocks.setdefault(u + v, []).append((v, v + 1, u + v + 1, v, u + v + 1))
    for obstacles in (*walls.values(), *blocks.values()):
        obstacles.sort()
    runs: list[tuple[int, int, int]] = []
    views: list[Polygon] = [list(_START)]
    for d in range(1, umax + vmax + 1):
        s = d + 1
        if d in walls:
            views = _split(views, walls[d], s)
        v_first, v_last = max(0, d - umax), min(d, vmax)
        kept: list[Polygon] = []
        for poly in views:
            lo, hi = _rows(poly, s)
            if lo > vmax or hi < d - umax:
                continue  # every line of the view has left the board
            kept.append(poly)
            lo, hi = max(lo, v_first), min(hi, v_last)
            if lo <= hi:
                runs.append((d, lo, hi))
        views = kept
        if not views:
            break
        if d in blocks:
            views = _split(views, blocks[d], s)
    return runs


def visible_any(blocking: np.ndarray, vw: np.ndarray, hw: np.ndarray, a: Square) -> np.ndarray:
    """Bool ``[y, x]``: the squares some segment from the open square ``a`` reaches, missing every
    wall edge (``vw``: ``V(x, y)`` at ``[y + 1, x]``; ``hw``: ``H(x, y)`` at ``[y, x + 1]``) and every
    blocking square (``blocking[y, x]``, ``a`` itself never blocks), all of them closed.

    The caller masks void squares (they block, and are never in sight).

    >>> import numpy as np
    >>> blocking = np.zeros((3, 3), dtype=bool); blocking[1, 1] = True
    >>> vw = np.zeros((5, 4), dtype=bool); hw = np.zeros((4, 5), dtype=bool)
    >>> visible_any(blocking, vw, hw, (0, 0)).astype(int)
    array([[1, 1, 1],
           [1, 1, 1],
           [1, 1, 0]])
    """
    h, w = blocking.shape
    out = np.zeros((h, w), dtype=bool)
    ax, ay = a
    out[ay, ax] = True
    for sx in (1, -1):
        for sy in (1, -1):
            runs = _quadrant(blocking, vw, hw, a, sx, sy)
            if not runs:
                continue
            arr = np.array(runs, dtype=np.int64)
            d, lo, hi = arr[:, 0], arr[:, 1], arr[:, 2]
            counts = hi - lo + 1
            start = np.repeat(np.cumsum(counts) - counts, counts)
            v = np.repeat(lo, counts) + np.arange(int(counts.sum())) - start
            u = np.repeat(d, counts) - v
            out[ay + sy * v, ax + sx * u] = True
    return out
