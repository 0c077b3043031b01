"""Fast field of view for corner-to-corner rules: every square one origin sees, at once, exactly.

Pure: numpy and integers only (no floats in any decision). It answers the segment rule of
:mod:`game.core.segment` for every segment from a corner of the origin's square A to a corner
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
* Slopes are compared through the exact integer key of :func:`game.core.slopes.slope_key` (an
  exact order, no floats), as the centre engine of :mod:`game.core.fov` compares them.
* For each slope the smallest key over the blockers holding it: :func:`game.core.slopes.paint_min`,
  the paint the centre engine shares.
* What a grid point does to a line depends only on the 8 things around it (4 wall arms, 4
  squares): a 256-entry table per pair of directions, built once from the walk's own rule
  (:func:`game.core.segment.vertex_table`), so both paths share one definition.

How it stays fast (numpy calls on whole arrays, none per octant, blocker or target):

* All 32 octants (4 corners × 8) are cast in one paint. Octant ``o`` owns its own run of leaves
  in one array: the slopes with a column ``<= umax`` (its extent), in order. An interval never
  leaves its octant's run. Interval ends come from tables, not searches: ``below[q, p]`` /
  ``upto[q, p]`` count the slopes ``<`` / ``<=`` ``p/q``, and per extent a prefix count turns a
  slope's rank into its leaf.
* The blockers are placed for the 4 corners at once, each in the octant its position relative to
  the corner puts it in (both octants on a diagonal). Those past an octant's extent are kept: their
  key is beyond ``umax``, no target's slope falls in their interval, or their one slope has no leaf
  there (an empty interval). The rim's edges and grid points are left out: a segment from a corner
  on the board only meets them at its octant's end.
* The end points are read per quadrant, for the 4 corners at once, on the block of grid points
  each reaches (``[|dy| - 1, |dx| - 1]``: one table gives the slope's rank and octant). The 16
  lines along the grid are the rows of one array. A line stops at its first failing step (a
  cumulative AND). Along a wall stretch, a side push holds when its last failing point comes
  before the stretch's first.
* Cold means cold: only what depends on the board's size is kept between calls (slope tables,
  rank templates, the 256-entry tables per ``corner_touch``), as the arcadia engine keeps its ray
  templates. The board's contents are read again after every change, through
  :meth:`Board.sight_edge_array` and the terrain sets.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from game.core.board import Square
from game.core.segment import _VIEWS, BoardView, quadrant_of, vertex_table
from game.core.slopes import distinct_sorted, paint_min, slope_key

__all__ = ["axis_lines", "corner_candidates", "end_squares", "paint_points", "reach_points", "sight_arrays"]

# directions around a grid point as in game/core/segment.py: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE
_QUAD = {(1, 1): 1, (-1, 1): 3, (-1, -1): 5, (1, -1): 7}
#: the quadrants by index ``qd = 2 * (sx < 0) + (sy < 0)``; octant ``o = 8 * corner + 2 * qd + swap``
_SIGNS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: the arms along a grid line: direction, and its index in the profile's numbering
_ARMS = ((1, 0), (0, 1), (-1, 0), (0, -1))


@lru_cache(maxsize=4)
def _slopes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The slope templates of boards up to ``n`` squares a side (they depend on the size only).

    ``keys``: the sorted distinct keys of the slopes ``v/u``, ``1 <= v <= u <= n``; ``den``: per key
    the smallest column ``u`` it occurs in; ``ranks[j, i]``: the rank of the slope
    ``min(i, j) / max(i, j)``; ``below[q, p]`` / ``upto[q, p]``: how many keys are ``< p/q`` /
    ``<= p/q`` (``1 <= q <= n + 1``, ``0 <= p <= n + 2``; row 0 is never read).
    """
    u = np.arange(n + 1, dtype=np.int64)[:, None]
    v = np.arange(n + 1, dtype=np.int64)[None, :]
    valid = (v >= 1) & (v <= u)
    key = slope_key(v, np.maximum(u, 1))
    keys = distinct_sorted(key[valid])
    rank = np.searchsorted(keys, key).astype(np.int32)
    rank[~valid] = 0
    den = np.full(keys.size, n + 1, dtype=np.int64)
    np.minimum.at(den, rank[valid], np.broadcast_to(u, key.shape)[valid])
    q = np.arange(n + 2, dtype=np.int64)[:, None]
    p = np.arange(n + 3, dtype=np.int64)[None, :]
    key = slope_key(p, np.maximum(q, 1))
    below = np.searchsorted(keys, key, side="left").astype(np.int32)
    upto = np.searchsorted(keys, key, side="right").astype(np.int32)
    return keys, den, np.maximum(rank, rank.T), below, upto


def _small(n: int) -> type[np.integer]:
    """The smallest integer type holding the columns ``0 .. n + 2`` (the paint's keys), to keep
    the paint's table and the comparisons with it small."""
    return next(t for t in (np.uint8, np.uint16, np.int32) if n + 2 < np.iinfo(t).max)


@lru_cache(maxsize=4)
def _block_templates(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``[j, i]`` for ``0 <= i, j <= n`` (a grid point ``|dx| = i``, ``|dy| = j`` from a corner):
    its column ``max(i, j)`` (in :func:`_small`'s type) and where its slope is looked up, the rank
    of :func:`_slopes` plus ``count + 1`` when ``j > i`` (y is the primary axis: the other octant)."""
    i = np.arange(n + 1, dtype=np.int32)
    _keys, den, ranks, _below, _upto = _slopes(n)
    swapped = i[:, None] > i[None, :]
    return np.maximum(i[None, :], i[:, None]).astype(_small(n)), ranks + swapped * np.int32(den.size + 1)


@lru_cache(maxsize=8)
def _end_tables(touch: str) -> np.ndarray:
    """Bool ``[qd, 2 * i + j, same, signature]``: a segment of quadrant ``qd`` arriving at a grid
    point ``q`` and ending in the square ``q - (i, j)`` is blocked there (the walk's vertex rule,
    :func:`game.core.segment.vertex_table`)."""

    out = np.zeros((4, 4, 2, 256), dtype=bool)
    for qd, (sx, sy) in enumerate(_SIGNS):
        back = _QUAD[(-sx, -sy)]
        for i in (0, 1):
            for j in (0, 1):
                for same in (0, 1):
                    out[qd, 2 * i + j, same] = vertex_table(touch, back, _QUAD[(1 - 2 * i, 1 - 2 * j)], bool(same))
    return out


#: the 16 lines along the grid from A's corners, corner-major: the corner's offset from A's top
#: left, the arm (index into _ARMS), and A's quadrant at that corner (SE, SW, NE, NW)
_LINE_CORNER = np.repeat(np.array([(0, 0), (1, 0), (0, 1), (1, 1)], dtype=np.int32), 4, axis=0)
_LINE_ARM = np.tile(np.arange(4, dtype=np.int32), 4)
_LINE_QA = np.repeat(np.array([1, 3, 7, 5], dtype=np.int32), 4)
_IJ = np.array([(0, 0), (0, 1), (1, 0), (1, 1)], dtype=np.int32)  # index 2 * i + j


@lru_cache(maxsize=8)
def _axis_tables(touch: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the lines along arm ``e`` (:data:`_ARMS`), the walk's vertex rule as lookups by grid-point
    signature, ``s`` the side push (0 none, 1 and 2 the two normals), True where the line passes:
    ``start[qa, e, s, sig]`` leaving a corner of A (A in quadrant ``qa``), ``through[e, s, sig]``
    passing a grid point straight along the line, ``end[e, 2 * i + j, s, sig]`` at an end point
    into the square ``q - (i, j)``."""
    start = np.zeros((8, 4, 3, 256), dtype=bool)
    through = np.zeros((4, 3, 256), dtype=bool)
    end = np.zeros((4, 4, 3, 256), dtype=bool)
    for ei, (ex, ey) in enumerate(_ARMS):
        fwd, back = 2 * ei, (2 * ei + 4) % 8
        for s, side in enumerate((None, (-ey, ex), (ey, -ex))):
            through[ei, s] = ~vertex_table(touch, back, fwd, False, side)
            for qa in (1, 3, 5, 7):
                start[qa, ei, s] = ~vertex_table(touch, qa, fwd, False, side)
            for i in (0, 1):
                for j in (0, 1):
                    end[ei, 2 * i + j, s] = ~vertex_table(touch, back, _QUAD[(1 - 2 * i, 1 - 2 * j)], False, side)
    return start, through, end


class _Fast:
    """The arrays of one board, rule and viewer (cached on the rule's :class:`~game.core.segment.BoardView`).

    ``base``: the arrays of an earlier version of the same board, rule and viewer with the same
    geometry, and ``moved`` the squares whose figures changed since (:func:`_fast` finds them):
    the edges' arrays are shared, the blocking squares judged again at ``moved`` only, and what
    reads them (the padded squares, the grid points' signatures) built from them."""

    vw: np.ndarray
    hw: np.ndarray
    v_edges: tuple[np.ndarray, np.ndarray]
    h_edges: tuple[np.ndarray, np.ndarray]
    blocking: np.ndarray
    padded: np.ndarray
    squares: tuple[np.ndarray, np.ndarray]
    sig: np.ndarray
    through: dict[int, tuple[np.ndarray, ...]]

    def __init__(self, geo: BoardView, base: _Fast | None = None, moved: frozenset[Square] = frozenset()) -> None:
        board = geo.board
        self.version, self.geometry = board.version, board.geometry_version
        self.width, self.height = board.width, board.height
        self.touch = geo.profile.corner_touch
        if base is None:
            self._edges(geo)
            inner = np.zeros((self.height, self.width), dtype=bool)
            terrain = board.void | board.blocked  # geo.square: void and blocked terrain always block
            if terrain:
                xy = np.fromiter(itertools.chain.from_iterable(terrain), dtype=np.intp, count=2 * len(terrain))
                inner[xy[1::2], xy[0::2]] = True
            moved = frozenset(f.square for f in board.figures.values())
        else:
            self.vw, self.hw, self.v_edges, self.h_edges = base.vw, base.hw, base.v_edges, base.h_edges
            inner = base.blocking.copy()
        for sq in moved:
            if board.in_bounds(sq):
                inner[sq[1], sq[0]] = geo.square(sq) is not None
        self._squares(inner)

    def _edges(self, geo: BoardView) -> None:
        """The walls as the rule sees them (the board's edge closed or not): ``vw``, ``hw`` and the
        blockers' walls ``v_edges``, ``h_edges``; they change with the geometry only."""
        board = geo.board
        w, h = self.width, self.height
        closed = geo.closed
        vw = np.full((h + 2, w + 1), closed, dtype=bool)  # V(x, y) at [y + 1, x]
        hw = np.full((h + 1, w + 2), closed, dtype=bool)  # H(x, y) at [y, x + 1]
        vw[1:-1, 1:-1] = False
        hw[1:-1, 1:-1] = False
        # the sight-blocking walls and doors on or inside the rim, as the board keeps them:
        # V(x, y) is y * (w + 1) + x, H(x, y) is h * (w + 1) + y * w + x
        codes = board.sight_edge_array()
        if codes.size:
            flat = np.zeros(h * (w + 1) + (h + 1) * w, dtype=bool)
            flat[codes] = True
            vw[1:-1, :] |= flat[: h * (w + 1)].reshape(h, w + 1)
            hw[:, 1:-1] |= flat[h * (w + 1) :].reshape(h + 1, w)
        if closed:
            for x, y in board.void:
                vw[y + 1, x] = vw[y + 1, x + 1] = True
                hw[y, x + 1] = hw[y + 1, x + 1] = True
        self.vw, self.hw = vw, hw
        # the blockers' walls: the edges strictly inside the board's rectangle (a segment from a
        # corner on the board meets the rim, its edges and grid points, only at or past the end of
        # its octant: at the column umax, or at v = vmax, which no slope of a target there crosses)
        vy, vx = np.nonzero(vw[1:-1, 1:-1])
        hy, hx = np.nonzero(hw[1:-1, 1:-1])
        self.v_edges = (vx.astype(np.int32) + 1, vy.astype(np.int32))
        self.h_edges = (hx.astype(np.int32), hy.astype(np.int32) + 1)

    def _squares(self, inner: np.ndarray) -> None:
        """From the blocking squares ``inner`` ``[y, x]``: ``blocking``, ``padded`` (off the board
        blocks), the blockers' ``squares``, every grid point's signature ``sig`` and the grid points
        a line passes straight through (``through``)."""
        h, w = inner.shape
        vw, hw = self.vw, self.hw
        blk = np.ones((h + 2, w + 2), dtype=bool)  # padded: off the board blocks
        blk[1:-1, 1:-1] = inner
        self.blocking = inner
        self.padded = blk
        by, bx = np.nonzero(inner)
        self.squares = (bx.astype(np.int32), by.astype(np.int32))
        # the signature of every grid point (gx, gy), [gy, gx]: bit p for direction p
        sig = hw[:, 1:].astype(np.uint8)  # E: H(gx, gy)
        sig |= vw[1:, :].astype(np.uint8) << 2  # S: V(gx, gy)
        sig |= hw[:, :-1].astype(np.uint8) << 4  # W: H(gx-1, gy)
        sig |= vw[:-1, :].astype(np.uint8) << 6  # N: V(gx, gy-1)
        sig |= blk[1:, 1:].astype(np.uint8) << 1  # SE: (gx, gy)
        sig |= blk[1:, :-1].astype(np.uint8) << 3  # SW: (gx-1, gy)
        sig |= blk[:-1, :-1].astype(np.uint8) << 5  # NW: (gx-1, gy-1)
        sig |= blk[:-1, 1:].astype(np.uint8) << 7  # NE: (gx, gy-1)
        self.sig = sig
        touch = self.touch
        # straight through a grid point inside the rim: NW<->SE (sx * sy = 1) and NE<->SW
        self.through = {
            sign: tuple(t.astype(np.int32) + 1 for t in np.nonzero(vertex_table(touch, p1, p2, False)[sig[1:-1, 1:-1]]))
            for sign, (p1, p2) in ((1, (5, 1)), (-1, (7, 3)))
        }


def _fast(geo: BoardView) -> _Fast:
    """The arrays of ``geo`` (built once per view): patched from those of an earlier version of
    the same board, rule and viewer when only figures changed since (:meth:`Board.figure_squares_since`;
    the views the board still caches are searched), else built."""
    found = getattr(geo, "fast", None)
    if found is None:
        board = geo.board
        base: _Fast | None = None
        for other in _VIEWS.get(board, {}).values():
            done = other.fast
            if (isinstance(done, _Fast) and other.profile == geo.profile and other.viewer == geo.viewer
                    and other.figures == geo.figures and done.geometry == board.geometry_version
                    and done.version <= board.version and (base is None or done.version > base.version)):
                base = done
        moved = board.figure_squares_since(base.version) if base is not None else None
        found = _Fast(geo) if moved is None else _Fast(geo, base, moved)
        geo.fast = found
    return found


def _cell(d: np.ndarray) -> np.ndarray:
    """Local index of the unit cell ``[x, x+1]`` at ``d = x - origin`` seen from the grid line
    ``origin``, in the direction of ``d``'s sign: ``d`` when ``d >= 0``, else ``-1 - d`` (``~d``)."""
    cell: np.ndarray = d ^ (d >> 31)
    return cell


def corner_candidates(geo: BoardView, a: Square, after: bool = False) -> np.ndarray:
    """Bool ``[y, x]``: the squares B that some segment from a corner of ``a`` to a corner of B,
    not running along a grid line, reaches clear — exact positives (see the module docstring).

    ``a`` must be on the board. Squares sharing a corner with ``a`` may be missed (never wrongly
    shown): the caller walks them. (A's own square never blocks, so its bit in the grid-point
    patterns is never read: at a corner of A a segment leaves from A's quadrant or, passing
    straight through, arrives from it — either way the rule leaves that quadrant out.)

    ``after``: only the squares after ``a`` in row-major order are asked for (a symmetric table
    mirrors the rest), the others may be missed. A segment to a square in a lower row never goes
    up, and one to a square in A's row goes up one row at most, so the quadrants going up are
    cast one row deep.
    """
    fast = _fast(geo)
    w, h = fast.width, fast.height
    out = np.zeros((h + 2, w + 2), dtype=bool)  # padded: [y + 1, x + 1], a ring of squares off the board
    ax, ay = a
    corners = ((ax, ay), (ax + 1, ay), (ax, ay + 1), (ax + 1, ay + 1))
    touch = fast.touch
    # per octant: its extent (umax 0: nothing to cast) and what the start point lets through
    umax = np.zeros(32, dtype=np.int32)
    vmax = np.zeros(32, dtype=np.int32)
    allow = np.zeros((32, 2), dtype=bool)  # [o, slope 1]
    for ci, p in enumerate(corners):
        px, py = p
        qa = quadrant_of(a, p)
        here = fast.sig[py, px]  # A does not block, so its bit is clear
        for qd, (sx, sy) in enumerate(_SIGNS):
            forward = _QUAD[(sx, sy)]
            plain = not vertex_table(touch, qa, forward, False)[here]
            diag = not vertex_table(touch, qa, forward, True)[here]
            xs = w - px if sx > 0 else px
            ys = h - py if sy > 0 else min(py, 1) if after else py
            if not (plain or diag) or xs < 1 or ys < 1:
                continue
            o = 8 * ci + 2 * qd
            umax[o], vmax[o], umax[o + 1], vmax[o + 1] = xs, ys, ys, xs
            allow[o : o + 2] = (plain, diag)
    if umax.any():
        best, leaf_of = _paint_octants(fast, a, corners, umax, max(ay - 1, 0) if after else 0)
        _end_points(fast, corners, umax, vmax, allow, best, leaf_of, out)
    _axis_lines(geo, fast, a, out)
    return out[1:-1, 1:-1]


def _from_row(pair: tuple[np.ndarray, np.ndarray], ys: np.ndarray, top: int) -> tuple[np.ndarray, np.ndarray]:
    """The blockers of ``pair`` (sorted by their row ``ys``, as ``np.nonzero`` gives them) from row
    ``top`` on."""
    start = int(np.searchsorted(ys, top))
    return pair[0][start:], pair[1][start:]


def _paint_octants(
    fast: _Fast, a: Square, corners: tuple[tuple[int, int], ...], umax: np.ndarray, top: int = 0
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every blocker of every octant of ``a``'s 4 corners painted at once (:func:`paint_points`
    with ``a`` never blocking)."""
    px = np.array([p[0] for p in corners], dtype=np.int32)
    py = np.array([p[1] for p in corners], dtype=np.int32)
    return paint_points(fast, px, py, umax, top, a)


def _leaf_layout(umax: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Where each octant's leaves lie in one paint: ``prefix[row, g]`` counts the slopes of rank
    ``< g`` with a column ``<= `` the row's extent (one row per distinct extent of ``umax``, the last
    all 0: nothing to cast), ``row[o]`` and ``offset[o]`` (its first leaf) per octant, and the
    number of leaves (``den``: per slope rank its smallest column, :func:`_slopes`)."""
    sizes = sorted(set(umax[umax > 0].tolist()))
    prefix = np.zeros((len(sizes) + 1, den.size + 1), dtype=np.int32)  # leaves before rank g, per size
    for i, size in enumerate(sizes):
        np.cumsum(den <= size, out=prefix[i, 1:])
    row = np.full(umax.size, len(sizes), dtype=np.int32)
    offset = np.zeros(umax.size, dtype=np.int32)
    total = 0
    for oc in np.flatnonzero(umax).tolist():
        row[oc] = i = sizes.index(int(umax[oc]))
        offset[oc] = total
        total += int(prefix[i, -1])
    return prefix, row, offset, total


def paint_points(
    fast: _Fast, px: np.ndarray, py: np.ndarray, umax: np.ndarray, top: int = 0, exclude: Square | None = None
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every blocker of every octant of the grid points ``(px[i], py[i])`` painted at once: per
    leaf the smallest key holding it, and ``(offset, row, prefix)``, which maps (octant ``o``,
    slope rank ``g`` of :func:`_slopes`) to its leaf ``offset[o] + prefix[row[o], g]``. Point
    ``i``'s octants are ``8 * i + 2 * qd + swap`` (``umax``: their extents, 0 for none).

    Octant ``o`` owns the leaves from ``offset[o]`` on, one per slope with a column ``<= umax[o]``
    in order, so one paint serves them all and no interval crosses into another octant's leaves (an
    octant with nothing to cast maps every slope to an empty interval). The blockers are found for
    all points at once, each in the octant its position relative to the point puts it in (a
    square or grid point on the diagonal in both). Blockers past an octant's extent are harmless
    and kept: their key is beyond ``umax``, or past ``vmax`` no target's slope falls in theirs.
    ``top``: only the blockers at grid rows ``>= top`` (every segment cast stays there).
    ``exclude``: the square A that never blocks (one origin's corners); None: the 4 squares
    touching each point are left out of its octants (:mod:`game.core.profile_pairs` judges them:
    one blocks its quadrant from column 2 on, and nothing else)."""
    n = max(fast.width, fast.height)
    _keys, den, _ranks, below, upto = _slopes(n)
    count = den.size
    prefix, row, offset, total = _leaf_layout(umax, den)
    px4, py4 = px.astype(np.int32)[:, None], py.astype(np.int32)[:, None]
    oct4 = 8 * np.arange(px.size, dtype=np.int32)[:, None]
    below, upto, wide = below.ravel(), upto.ravel(), n + 3  # [q, p] at q * wide + p
    # per blocker: octant, the global ranks its slope interval [lo, hi) starts and ends at, its key
    octs, los, his, ks = [], [], [], []

    def add(o: np.ndarray, lo: np.ndarray, hi: np.ndarray, key: np.ndarray) -> None:
        octs.append(o.ravel())
        los.append(lo.ravel())
        his.append(hi.ravel())
        ks.append(key.ravel())

    def quadrant(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        found: np.ndarray = oct4 + ((dx >> 29) & 4) + ((dy >> 30) & 2)  # 4 · (dx < 0) + 2 · (dy < 0)
        return found

    # blocking squares (A never blocks: it is one end of every segment): in the octant's own
    # coordinates the cell (c, r), r <= c, holds the slopes (r/(c+1), (r+1)/c) from column c + 2 on
    # (the square of the last column is judged at the end point: it may be B)
    bx, by = _from_row(fast.squares, fast.squares[1], top)
    if exclude is not None:
        other = (bx != exclude[0]) | (by != exclude[1])
        bx, by = bx[other], by[other]
    dx, dy = bx - px4, by - py4
    cx, cy, base = _cell(dx), _cell(dy), quadrant(dx, dy)
    c, r = np.maximum(cx, cy), np.minimum(cx, cy)
    at = c * wide + r
    lo, hi = upto.take(at + wide), np.where(c == 0, count, below.take(at + 1))
    if exclude is None:
        hi = np.where(c == 0, lo, hi)  # a square touching the point: left out (an empty interval)
    add(base + (cy > cx), lo, hi, c + 2)
    diag = cx == cy
    add(base[diag] + 1, lo[diag], hi[diag], c[diag] + 2)
    # walls: crossed on a line u = k (V edges unless swapped) at a row r < k, the slopes
    # (r/k, (r+1)/k) from column k + 1 on; or on a line v = m (H edges unless swapped) at a column
    # c >= m, the slopes (m/(c+1), m/c) from column c + 1 on (m = 0, an edge in line with the
    # corner, holds no slope)
    v_edges, h_edges = _from_row(fast.v_edges, fast.v_edges[1], top), _from_row(fast.h_edges, fast.h_edges[1], top)
    for (ex, ey), swap in ((v_edges, 0), (h_edges, 1)):
        dx, dy = ex - px4, ey - py4
        k, cr = (np.abs(dy), _cell(dx)) if swap else (np.abs(dx), _cell(dy))
        on_u = cr < k
        at = np.maximum(k, cr) * wide + np.minimum(k, cr)
        lo = upto.take(np.where(on_u, at, at + wide))
        hi = below.take(at + on_u)
        add(quadrant(dx, dy) + (on_u if swap else ~on_u), lo, hi, np.maximum(k, cr) + 1)
    # grid points passed straight through (NW<->SE where sx * sy = 1, NE<->SW where -1): the slope
    # m/k from column k + 1 on (an empty interval when the octant has no leaf for it)
    for sign, (gy_all, gx_all) in fast.through.items():
        gy, gx = _from_row((gy_all, gx_all), gy_all, top)
        dx, dy = gx - px4, gy - py4
        adx, ady, base = np.abs(dx), np.abs(dy), quadrant(dx, dy)
        k = np.maximum(adx, ady)
        m = np.where((dx ^ dy) >= 0 if sign > 0 else (dx ^ dy) < 0, np.minimum(adx, ady), 0)  # 0: no slope
        at = k * wide + m
        lo, hi = below.take(at), upto.take(at)
        add(base + (ady > adx), lo, hi, k + 1)
        diag = adx == ady
        add(base[diag] + 1, lo[diag], hi[diag], k[diag] + 1)
    o = np.concatenate(octs)
    start, shift = offset.take(o), row.take(o) * (count + 1)
    flat = prefix.ravel()
    lo = start + flat.take(shift + np.concatenate(los))
    hi = start + flat.take(shift + np.concatenate(his))
    key = np.concatenate(ks).astype(_small(n))
    # an interval stays in its octant's run of leaves: at most `count` long
    return paint_min(total, lo, hi, key, count), (offset, row, prefix)


def _end_points(
    fast: _Fast, corners: tuple[tuple[int, int], ...], umax: np.ndarray, vmax: np.ndarray,
    allow: np.ndarray, best: np.ndarray, leaf_of: tuple[np.ndarray, np.ndarray, np.ndarray], out: np.ndarray,
) -> None:
    """Mark in ``out`` (padded ``[y + 1, x + 1]``) the squares B with a corner ``q`` that a clear
    segment from one of ``corners`` ends at (:func:`reach_points` and :func:`end_squares`)."""
    px = np.array([p[0] for p in corners], dtype=np.int32)
    py = np.array([p[1] for p in corners], dtype=np.int32)
    mark = reach_points(fast, px, py, umax, vmax, allow, best, leaf_of, per_point=False)
    end_squares(fast, mark, out[None])


def reach_points(
    fast: _Fast, px: np.ndarray, py: np.ndarray, umax: np.ndarray, vmax: np.ndarray,
    allow: np.ndarray, best: np.ndarray, leaf_of: tuple[np.ndarray, np.ndarray, np.ndarray], per_point: bool,
) -> np.ndarray:
    """Bool ``[plane, gy, gx]``: the grid points ``q`` a segment from a point ``(px[i], py[i])``
    reaches clear before ``q``, plane ``2 * qd + (slope 1)`` (``+ 8 * i`` when ``per_point``, else
    every point in the same 8 planes), as :func:`paint_points` painted them.

    Per quadrant, for all points at once, the block of grid points ``q`` each reaches,
    ``[|dy| - 1, |dx| - 1]``: the segment to ``q`` (column ``u = max(|dx|, |dy|)``) is clear before
    ``q`` when no blocker of key ``<= u`` holds its slope; ``allow[o]`` (octant ``o``: plain, slope
    1): what the start point lets through."""
    w, h = fast.width, fast.height
    offset, row, prefix = leaf_of
    column, lookup = _block_templates(max(w, h))
    wide = 2 * prefix.shape[1]  # a pair of octants' leaves by slope rank, see _block_templates
    count = px.size
    mark = np.zeros((8 * count if per_point else 8, h + 1, w + 1), dtype=bool)
    base = 8 * np.arange(count) if per_point else np.zeros(count, dtype=np.int64)
    each = np.arange(count)
    for qd, (sx, sy) in enumerate(_SIGNS):
        o = 8 * each + 2 * qd  # this quadrant's octant pair at each point
        xs4, ys4 = umax[o], vmax[o]
        xs, ys = int(xs4.max()), int(ys4.max())
        if not xs:
            continue
        # the leaf of each slope rank in the octant of u = |dx|, then in the one of u = |dy|
        pairs = np.stack((o, o + 1), axis=1).ravel()
        leaves = prefix[row[pairs]] + offset[pairs][:, None]
        at = lookup[1 : ys + 1, 1 : xs + 1] + (wide * np.arange(count, dtype=np.int32))[:, None, None]
        clear = best.take(leaves.take(at)) > column[1 : ys + 1, 1 : xs + 1]  # [point, |dy| - 1, |dx| - 1]
        t = np.arange(1, min(xs, ys) + 1, dtype=np.int32)
        slope1 = clear[:, t - 1, t - 1] & allow[o, 1:] & (t <= np.minimum(xs4, ys4)[:, None])
        plane = np.broadcast_to((base + 2 * qd + 1)[:, None], slope1.shape)
        mark[plane[slope1], (py[:, None] + sy * t)[slope1], (px[:, None] + sx * t)[slope1]] = True
        clear[:, t - 1, t - 1] = False
        for ci in np.flatnonzero((xs4 > 0) & allow[o, 0]).tolist():
            x, y, gx, gy = int(xs4[ci]), int(ys4[ci]), int(px[ci]), int(py[ci])
            ysl = slice(gy + 1, gy + y + 1) if sy > 0 else slice(gy - y, gy)
            xsl = slice(gx + 1, gx + x + 1) if sx > 0 else slice(gx - x, gx)
            mark[base[ci] + 2 * qd, ysl, xsl] |= clear[ci, :y, :x][::sy, ::sx]
    return mark


def end_squares(fast: _Fast, mark: np.ndarray, out: np.ndarray) -> None:
    """Mark in ``out[k]`` (padded: ``[k, y + 1, x + 1]``, a ring of squares off the board) the
    squares B around the grid points ``q`` of ``mark`` (:func:`reach_points`) whose own rule with
    B's quadrant lets the segment end there; ``k`` is the plane of ``mark`` when ``out`` has as
    many, else 0 (every plane into one)."""
    w, h = fast.width, fast.height
    cells = (h + 1) * (w + 1)
    plane, at = np.divmod(np.flatnonzero(mark), cells)
    qy, qx = np.divmod(at, w + 1)
    same, quad = plane & 1, (plane >> 1) & 3
    # in the padded out: q's square q - (i, j) is at q's index minus step[2i + j]; the segment's
    # last stretch runs through the one of 2i + j = 3 - quad, the square behind q
    wide = w + 2
    index = (qy + 1) * wide + qx + 1
    step = np.array([0, wide, 1, wide + 1], dtype=index.dtype)
    last = fast.padded.ravel().take(index - step.take(3 - quad))
    code = quad * 2048 + same * 256 + fast.sig.ravel().take(at)  # [quad, 2i + j, same, sig] flat
    table = _end_tables(fast.touch).ravel()
    if out.shape[0] == mark.shape[0]:
        index = index + plane * (wide * (h + 2))
    flat = out.reshape(-1)
    for ij in range(4):
        seen = (quad == 3 - ij) | ~last
        seen &= ~table.take(code + 512 * ij)
        flat[(index - step[ij])[seen]] = True


def _axis_lines(geo: BoardView, fast: _Fast, a: Square, out: np.ndarray) -> None:
    """The segments from a corner of ``a`` that run along a grid line (:func:`axis_lines` of one
    origin)."""
    axis_lines(geo, fast, np.array([a[0]], dtype=np.int32), a[1], out[None])


def axis_lines(geo: BoardView, fast: _Fast, ax: np.ndarray, ay: int, out: np.ndarray) -> None:
    """The segments from a corner of each origin ``(ax[m], ay)`` that run along a grid line, into
    ``out[m]``: the walk's along rule (:func:`game.core.segment._along_blocker`) for every end
    point of the 16 lines of each (4 corners × 4 arms) at once, one row per line, column ``t`` the
    grid point ``p + t·e``.

    Walking to ``g_k``, the grid point ``g_v`` (``v = k - 1``) before the edge ``v`` just walked
    is inner (the start for ``v = 0``); the walk stops at the first ``v`` where: the point, between
    two open edges, stops the line; the edge ``v - 1`` ends a wall stretch and neither side push
    passed every point of the stretch; the edge is a wall and ``along_wall`` blocks; or with
    ``along_square`` blocking, the edge ``v - 1`` runs along a blocking square. (``out`` is padded
    as in :func:`end_squares`.)"""
    profile = geo.profile
    square_blocks = profile.along_square == "blocks"
    w, h = fast.width, fast.height
    origins = ax.size
    line_arm, line_qa = np.tile(_LINE_ARM, origins), np.tile(_LINE_QA, origins)
    owner = np.repeat(np.arange(origins), 16)  # the origin of each line
    ax_line = ax.astype(np.int32)[owner][:, None]
    arms = np.array(_ARMS, dtype=np.int32)
    x0, y0 = np.tile(_LINE_CORNER[:, :1], (origins, 1)) + ax_line, np.tile(_LINE_CORNER[:, 1:], (origins, 1)) + ay
    ex, ey = arms[line_arm, :1], arms[line_arm, 1:]
    size = np.where(ey == 0, np.where(ex > 0, w - x0, x0), np.where(ey > 0, h - y0, y0))  # edges to the rim
    t = np.arange(int(size.max()) + 1, dtype=np.int32)[None, :]
    gx = np.clip(x0 + t * ex, 0, w)  # beyond a line's end: clipped, never used
    gy = np.clip(y0 + t * ey, 0, h)
    sig = fast.sig[gy, gx]
    start, through, end = _axis_tables(profile.corner_touch)
    arm = line_arm[:, None]
    passes = through[arm[:, :, None], np.arange(3)[None, :, None], sig[:, None, :-1]]  # [line, s, v]
    passes[:, :, 0] = start[line_qa, line_arm, :, sig[:, 0]]
    plain, push1, push2 = passes[:, 0], passes[:, 1], passes[:, 2]
    # the edges v (g_v to g_v+1) and the squares beside them
    xe, ye = np.minimum(gx[:, :-1], gx[:, 1:]), np.minimum(gy[:, :-1], gy[:, 1:])
    level = ey == 0  # along a row: H edges
    wall = np.where(level, fast.hw[ye, np.minimum(xe + 1, w + 1)], fast.vw[np.minimum(ye + 1, h + 1), xe])
    edges = t[:, :-1]
    before = np.zeros_like(wall)
    before[:, 1:] = wall[:, :-1]
    stretch = np.maximum.accumulate(np.where(wall & ~before, edges, -1), axis=1)  # its first point
    ok1 = np.maximum.accumulate(np.where(push1, -1, edges), axis=1) < stretch
    ok2 = np.maximum.accumulate(np.where(push2, -1, edges), axis=1) < stretch
    stop = (~wall & ~before & ~plain) | (before & ~wall & ~(ok1 | ok2)) | (edges >= size)
    if profile.along_wall == "blocks":
        stop |= wall
    if square_blocks:
        x1, y1 = np.where(level, xe, gx[:, :-1] - 1), np.where(level, gy[:, :-1] - 1, ye)
        x2, y2 = np.where(level, xe, gx[:, :-1]), np.where(level, gy[:, :-1], ye)
        side1 = fast.padded[y1 + 1, x1 + 1] & ((x1 != ax_line) | (y1 != ay))  # A never blocks
        side2 = fast.padded[y2 + 1, x2 + 1] & ((x2 != ax_line) | (y2 != ay))
        stop[:, 1:] |= side1[:, :-1] | side2[:, :-1]
    alive = np.logical_and.accumulate(~stop, axis=1)
    # the end points g_k (k = v + 1) of the live lines, each with the 4 squares around it
    line, v = np.nonzero(alive)
    k = v + 1
    gxk, gyk, sigk = gx[line, k], gy[line, k], sig[line, k]
    bx, by = gxk - _IJ[:, :1], gyk - _IJ[:, 1:]  # [2 * i + j, point]
    e_arm, e_ij = line_arm[line], np.arange(4)[:, None]
    on_wall = wall[line, v]
    seen = np.where(
        on_wall,
        (ok1[line, v] & end[e_arm, e_ij, 1, sigk]) | (ok2[line, v] & end[e_arm, e_ij, 2, sigk]),
        end[e_arm, e_ij, 0, sigk],
    )
    if square_blocks:
        s1, s2 = side1[line, v], side2[line, v]
        seen &= ~((s1 & ((x1[line, v] != bx) | (y1[line, v] != by))) | (s2 & ((x2[line, v] != bx) | (y2[line, v] != by))))
    out[np.broadcast_to(owner[line], seen.shape)[seen], by[seen] + 1, bx[seen] + 1] = True  # padded: off the board on the ring


def sight_arrays(geo: BoardView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board as the geo's profile and viewer see it, built once per board version: the
    blocking squares ``[y, x]``, the V walls (``V(x, y)`` at ``[y + 1, x]``) and the H walls
    (``H(x, y)`` at ``[y, x + 1]``) — what :func:`game.core.any_fov.visible_any` reads."""
    fast = _fast(geo)
    return fast.blocking, fast.vw, fast.hw
