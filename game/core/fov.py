"""The field-of-view engine: every square one origin sees, in exact integer arithmetic.

Pure: numpy and integers only (no floats in any decision, no files, no clock). The rule is the
one of :mod:`game.core.los` (centre to centre; edges crossed at interior points, squares whose
interior is crossed, corners blocked only when both sides are closed); this module answers it for
all targets of one origin at once, and :mod:`game.core.los` checks it against the Fraction
reference.

How (shadow casting by octants with exact slopes):

* Around an origin the plane splits into 8 octants. In octant 0 (``0 <= dy <= dx``) a target
  ``(d, j)`` (column ``d >= 1``, row ``0 <= j <= d``, relative to the origin) is seen along the
  slope ``j/d``. Everything a ray can meet is a *blocker* with a set of slopes and a *key*:
  a blocking square ``(c, j)`` blocks the open slope interval ``((2j-1)/(2c+1), (2j+1)/(2c-1))``
  and lies before every target of column ``>= c + 1``; a sight-blocking edge on the line
  ``x = k + 1/2`` blocks ``((2m-1)/(2k+1), (2m+1)/(2k+1))`` from column ``k + 1`` on; one on the
  line ``y = m + 1/2`` inside column ``c`` blocks ``((2m+1)/(2c+1), (2m+1)/(2c-1))`` from column
  ``c + 1``; a corner whose two sides are closed blocks the single slope ``(2m+1)/(2k+1)`` from
  column ``k + 1``. (A ray of slope <= 1 inside the target's own column stays in the target's row,
  so nothing in that column other than what the key admits can meet it.) The target is seen iff
  no blocker whose key is ``<= d`` holds its slope: ``M[slope] > d`` with ``M`` the smallest key
  over the blockers covering each slope.
* Slopes are compared through the exact integer key of :func:`game.core.slopes.slope_key`
  (``(p << 42) // q``: an exact order, not a float approximation).
* The slopes of every target of a board size are sorted once (``O(n^2 log n)`` time, ``O(n^2)``
  memory, cached for two sizes); each origin's blockers' slope intervals are painted with "keep
  the minimum" (:func:`game.core.slopes.paint_min`, the paint the corner engine shares) and
  every target reads one leaf. Cost per origin: ``O(n^2)`` for the targets plus the blockers —
  whatever the rays' length.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from game.core.slopes import distinct_sorted, paint_min, slope_key

__all__ = ["HALF", "BlockerSet", "CornerTerms", "batch_size", "corner_terms", "fov_half_rows", "fov_rows", "slope_table"]

_MAX_SIZE = 32_000  # keys (columns) fit int16; (2n+1) << 42 stays inside int64 and the key order exact
#: keys are columns (< 2**15 on every board this engine takes in int16; int32 beyond)
_KEY = np.int16
_FAR = np.iinfo(np.int16).max

# the 8 octants: (sign of x, sign of y, primary axis is y)
_OCTANTS = tuple((sx, sy, swap) for swap in (False, True) for sy in (1, -1) for sx in (1, -1))


@dataclass(frozen=True)
class SlopeTable:
    """The sorted slopes of one board size and, per position in octant 0, where its blocker's
    slope interval falls among them (leaf indices, half-open ``[lo, hi)``).

    Positions are ``[c, j]`` with ``0 <= j <= c < n``. ``corner[k, m]`` is the leaf of the slope
    ``(2m+1)/(2k+1)``, or ``count`` (a spare leaf no target reads) when no target has it.
    """

    n: int
    count: int  # distinct target slopes
    leaves: int  # leaves per octant region: count + 1 (the spare leaf of unseen corner slopes)
    tri_c: np.ndarray  # every target (c, j) of octant 0, by column: column
    tri_j: np.ndarray  # row
    tri_leaf: np.ndarray  # leaf of its slope
    column_start: np.ndarray  # targets of columns <= d are tri_*[: column_start[d + 1]]
    square_lo: np.ndarray
    square_hi: np.ndarray
    across_lo: np.ndarray  # edges on the lines x = k + 1/2, position [k, m]
    across_hi: np.ndarray
    along_lo: np.ndarray  # edges on the lines y = m + 1/2 inside column c, position [c, m]
    along_hi: np.ndarray
    corner: np.ndarray


@lru_cache(maxsize=2)
def slope_table(n: int) -> SlopeTable:
    """The :class:`SlopeTable` for boards whose larger side is ``n`` (cached for two sizes).

    >>> t = slope_table(3)
    >>> t.count  # slopes 0, 1/2, 1 (1/1 and 2/2 are the same slope)
    3
    """
    if not 1 <= n <= _MAX_SIZE:
        raise ValueError(f"board side {n} is outside 1..{_MAX_SIZE}")
    tri_c = np.repeat(np.arange(1, n, dtype=np.int64), np.arange(2, n + 1))
    column_start = np.concatenate(([0, 0], np.cumsum(np.arange(2, n + 1)))).astype(np.int64)
    tri_j = np.arange(tri_c.size, dtype=np.int64) - column_start[tri_c]
    keys = slope_key(tri_j, tri_c)
    sorted_keys = distinct_sorted(keys)
    count = int(sorted_keys.size)
    leaves = count + 1
    tri_leaf = np.searchsorted(sorted_keys, keys).astype(np.int32)

    # every position [c, j] with 0 <= j <= c < n (column 0 included: edges and corners there)
    cs = np.repeat(np.arange(n, dtype=np.int64), np.arange(1, n + 1))
    js = np.arange(cs.size, dtype=np.int64) - (cs * (cs + 1)) // 2
    low = np.searchsorted(sorted_keys, slope_key(2 * js - 1, 2 * cs + 1), side="right")  # > (2j-1)/(2c+1)
    mid_key = slope_key(2 * js + 1, 2 * cs + 1)
    mid = np.searchsorted(sorted_keys, mid_key, side="left")  # first >= (2j+1)/(2c+1)
    exact = np.zeros(mid.shape, dtype=bool)
    inside = mid < count
    exact[inside] = sorted_keys[mid[inside]] == mid_key[inside]
    high = np.searchsorted(sorted_keys, slope_key(2 * js + 1, np.maximum(2 * cs - 1, 1)), side="left")
    high = np.where(cs >= 1, high, count)  # column 0 has no square or along-edge blocker

    def grid(values: np.ndarray) -> np.ndarray:
        out = np.zeros((n, n), dtype=np.int32)
        out[cs, js] = values
        return out

    square_lo, square_hi = grid(low), grid(np.maximum(high, low))
    across_lo, across_hi = square_lo, grid(np.maximum(mid, low))
    along_lo = grid(mid + exact)
    along_hi = grid(np.maximum(high, mid + exact))
    corner = grid(np.where(exact, mid, count))
    return SlopeTable(
        n, count, leaves, tri_c.astype(np.int32), tri_j.astype(np.int32), tri_leaf, column_start,
        square_lo, square_hi, across_lo, across_hi, along_lo, along_hi, corner,
    )


@dataclass(frozen=True)
class OffsetTable:
    """For every offset ``(dx, dy)`` of a ``width`` × ``height`` board, indexed
    ``[dy + height - 1, dx + width - 1]``: the leaf its target reads (region included) and its
    column in that octant. O(W·H) memory, cached for two sizes per layout. In the ``half`` layout
    (octants 0, 1, 4, 5 only: ``dy >= 0``, regions 0..3) offsets with ``dy < 0`` read leaf 0 (their
    answers are not used)."""

    width: int
    height: int
    leaf: np.ndarray  # int32
    column: np.ndarray  # int16


#: the octants of the upper half-plane ``dy >= 0`` (targets after the origin in row-major order)
HALF = (0, 1, 4, 5)


def _leaves_of(
    table: SlopeTable, dx: np.ndarray, dy: np.ndarray, half: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The leaf (octant region included) and the column of targets at offsets ``(dx, dy)``."""
    ax, ay = np.abs(dx), np.abs(dy)
    swap = ay > ax
    c = np.maximum(ax, ay)
    j = np.minimum(ax, ay)
    # _OCTANTS order; a target on an axis (j == 0) takes the positive sign of the other axis
    octant = swap * 4 + (dy < 0) * 2 + (dx < 0)
    if half:  # octant 0, 1, 4, 5 -> region 0, 1, 2, 3
        octant = (octant & 1) | ((octant >> 1) & 2)
    flat = c * (c + 1) // 2 - 1 + j  # index in tri_* (by column, then row); -1 for the origin
    if table.tri_leaf.size:
        leaf = table.tri_leaf[np.maximum(flat, 0)].astype(np.int32)
    else:  # a one-square board
        leaf = np.zeros(flat.shape, dtype=np.int32)
    leaf += (octant * table.leaves).astype(np.int32)
    if half:
        leaf[np.broadcast_to(dy < 0, leaf.shape)] = 0
    return leaf, c.astype(_KEY)


def _window(table: SlopeTable, origin: tuple[int, int], width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_leaves_of` for every square of the board seen from one origin, ``[y, x]``."""
    dy = (np.arange(height, dtype=np.int32) - origin[1])[:, None]
    dx = (np.arange(width, dtype=np.int32) - origin[0])[None, :]
    return _leaves_of(table, dx, dy)


@lru_cache(maxsize=4)
def offset_table(width: int, height: int, half: bool = False) -> OffsetTable:
    """The :class:`OffsetTable` of a board size (built from :func:`slope_table`)."""
    table = slope_table(max(width, height))
    dy = np.arange(-(height - 1), height, dtype=np.int32)[:, None]
    dx = np.arange(-(width - 1), width, dtype=np.int32)[None, :]
    leaf, column = _leaves_of(table, dx, dy, half)
    return OffsetTable(width, height, leaf, column)


@dataclass(frozen=True)
class BlockerSet:
    """What blocks sight on one board for one viewer, as coordinate arrays (board coordinates).

    ``cells``: blocking squares ``(y, x)``; ``vertical``: sight-blocking edges ``V(x, y)``;
    ``horizontal``: ``H(x, y)``; ``corner_pos`` / ``corner_neg``: grid corners ``(y, x)`` that
    block a ray going south-east or north-west / south-west or north-east (both sides closed).
    """

    width: int
    height: int
    cells: tuple[np.ndarray, np.ndarray]
    vertical: tuple[np.ndarray, np.ndarray]
    horizontal: tuple[np.ndarray, np.ndarray]
    corner_pos: tuple[np.ndarray, np.ndarray]
    corner_neg: tuple[np.ndarray, np.ndarray]

    @classmethod
    def from_arrays(
        cls, cells: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray, terms: CornerTerms | None = None
    ) -> BlockerSet:
        """From bool arrays: blocking squares ``[y, x]`` (H, W), V edges (H, W+1), H edges (H+1, W);
        ``terms``: :func:`corner_terms` of these edges when kept (they change with the edges only)."""
        h, w = cells.shape
        if terms is None:
            terms = corner_terms(vertical, horizontal)
        return cls(w, h, _where(cells), _where(vertical), _where(horizontal), *_corners(cells, terms))

    def with_cells(self, cells: np.ndarray, terms: CornerTerms) -> BlockerSet:
        """The same board with the blocking squares ``cells`` (figures moved; the edges, whose
        :func:`corner_terms` are ``terms``, unchanged): the edges' arrays are shared, the squares'
        and corners' arrays built anew. Equal to :meth:`from_arrays` of the same arrays."""
        pos, neg = _corners(cells, terms)
        return replace(self, cells=_where(cells), corner_pos=pos, corner_neg=neg)


#: per grid point ``[y, x]`` (H+1, W+1), what the edges alone close of its 4 sides (north-east,
#: south-west, north-west, south-east): :func:`corner_terms`
CornerTerms = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def corner_terms(vertical: np.ndarray, horizontal: np.ndarray) -> CornerTerms:
    """The edges' part of every grid point's 4 sides (a side is closed by its square or by a wall
    on that square's two edges meeting the point): depends on the edges only, so a figure's move
    reuses it. V edges ``[y, x]`` (H, W+1), H edges (H+1, W)."""
    h = vertical.shape[0]
    w = horizontal.shape[1]
    evp = np.zeros((h + 2, w + 1), dtype=bool)
    evp[1:-1] = vertical
    ehp = np.zeros((h + 1, w + 2), dtype=bool)
    ehp[:, 1:-1] = horizontal
    v_here, v_north = evp[1:], evp[:-1]  # V(x, y), V(x, y-1)
    h_here, h_west = ehp[:, 1:], ehp[:, :-1]  # H(x, y), H(x-1, y)
    return v_north | h_here, v_here | h_west, v_north | h_west, h_here | v_here


def _corners(cells: np.ndarray, terms: CornerTerms) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``corner_pos`` and ``corner_neg`` of :class:`BlockerSet` from the blocking squares and the
    edges' :func:`corner_terms`."""
    h, w = cells.shape
    cellp = np.ones((h + 2, w + 2), dtype=bool)  # off the board all around
    cellp[1:-1, 1:-1] = cells

    def cell(dy: int, dx: int) -> np.ndarray:  # square (x + dx, y + dy) for corners x 0..W, y 0..H
        return cellp[1 + dy : h + 2 + dy, 1 + dx : w + 2 + dx]

    ne, sw, nw, se = terms
    north_east = cell(-1, 0) | ne
    south_west = cell(0, -1) | sw
    north_west = cell(-1, -1) | nw
    south_east = cell(0, 0) | se
    return _where(north_east & south_west), _where(north_west & south_east)


def _where(array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.nonzero(array)
    return ys.astype(np.int32), xs.astype(np.int32)  # board coordinates < 2**15


def _line(g: np.ndarray, o: np.ndarray, s: int) -> np.ndarray:
    """Octant index of a grid line at board coordinate ``g`` (the line ``k + 1/2`` from the origin)."""
    line: np.ndarray = g - o - 1 if s > 0 else o - g
    return line


def _extents(blockers: BlockerSet, ox: np.ndarray, oy: np.ndarray, octant: int) -> tuple[np.ndarray, np.ndarray]:
    """How far the board reaches from each origin in one octant: primary and secondary extent."""
    sx, sy, swap = _OCTANTS[octant]
    far_x = blockers.width - 1 - ox if sx > 0 else ox
    far_y = blockers.height - 1 - oy if sy > 0 else oy
    return (far_y, far_x) if swap else (far_x, far_y)


def _octant_blockers(
    blockers: BlockerSet, table: SlopeTable, ox: np.ndarray, oy: np.ndarray, octant: int
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """For origins ``(ox, oy)`` (column vectors): the origin index, leaf range ``[lo, hi)`` and key
    of every blocker of one octant."""
    sx, sy, swap = _OCTANTS[octant]
    primary, _ = _extents(blockers, ox, oy, octant)
    who: list[np.ndarray] = []
    los: list[np.ndarray] = []
    his: list[np.ndarray] = []
    keys: list[np.ndarray] = []

    def emit(c: np.ndarray, j: np.ndarray, keep: np.ndarray, lo_of: np.ndarray, hi_of: np.ndarray | None) -> None:
        i, b = np.nonzero(keep)
        if not i.size:
            return
        cc, jj = c[i, b] if c.shape[0] > 1 else c[0, b], j[i, b] if j.shape[0] > 1 else j[0, b]
        lo = lo_of[cc, jj]
        who.append(i)
        los.append(lo)
        his.append(lo + 1 if hi_of is None else hi_of[cc, jj])
        keys.append(cc + 1)

    def frame(ys: np.ndarray, xs: np.ndarray, kind_x: str, kind_y: str) -> tuple[np.ndarray, np.ndarray]:
        """Octant coordinates (primary, secondary) of board coordinates; "s" square, "l" line."""
        fx = sx * (xs[None, :] - ox) if kind_x == "s" else _line(xs[None, :], ox, sx)
        fy = sy * (ys[None, :] - oy) if kind_y == "s" else _line(ys[None, :], oy, sy)
        return (fy, fx) if swap else (fx, fy)

    ys, xs = blockers.cells
    if ys.size:
        c, j = frame(ys, xs, "s", "s")
        emit(c, j, (c >= 1) & (c < primary) & (j >= 0) & (j <= c), table.square_lo, table.square_hi)
    # edges across the primary axis: V edges (H edges when the primary axis is y)
    ys, xs = blockers.horizontal if swap else blockers.vertical
    if ys.size:
        k, m = frame(ys, xs, "s", "l") if swap else frame(ys, xs, "l", "s")
        emit(k, m, (k >= 0) & (k < primary) & (m >= 0) & (m <= k), table.across_lo, table.across_hi)
    # edges along the primary axis, inside a column
    ys, xs = blockers.vertical if swap else blockers.horizontal
    if ys.size:
        c, m = frame(ys, xs, "l", "s") if swap else frame(ys, xs, "s", "l")
        emit(c, m, (c >= 1) & (c < primary) & (m >= 0) & (m < c), table.along_lo, table.along_hi)
    # corners whose two sides are closed for this direction
    ys, xs = blockers.corner_pos if sx * sy > 0 else blockers.corner_neg
    if ys.size:
        k, m = frame(ys, xs, "l", "l")
        keep = (k >= 0) & (k < primary) & (m >= 0) & (m <= k)
        emit(k, m, keep, table.corner, None)
    return who, los, his, keys


def batch_size(width: int, height: int, regions: int = 8) -> int:
    """How many origins :func:`fov_rows` (``regions=8``) or :func:`fov_half_rows` (``4``) should
    take at once on this board size: enough to share numpy's per-call cost, few enough that the
    paint (``regions`` octant regions per origin) holds about 2**21 leaves."""
    per_origin = regions * slope_table(max(width, height)).leaves
    return max(1, (1 << 21) // per_origin)


def fov_rows(blockers: BlockerSet, origins: list[tuple[int, int]]) -> np.ndarray:
    """The visibility masks of several origins at once: bool ``(len(origins), H, W)``.

    Each mask has ``True`` for every square whose centre-to-centre ray from the origin meets no
    blocker, the origin included; void and blocked squares come out as seen or not by the same
    rule (callers mask them out). All origins and octants share each numpy call.
    """
    return _cast_rows(blockers, origins, tuple(range(8)), 0)


def fov_half_rows(blockers: BlockerSet, origins: list[tuple[int, int]]) -> tuple[int, np.ndarray]:
    """Like :func:`fov_rows` for the upper half-plane only (octants :data:`HALF`): returns the
    first row ``y0`` (the smallest origin row) and bool ``(len(origins), H - y0, W)`` for the rows
    ``y0..H-1``, right for every target after its origin in row-major order (``dy > 0``, or
    ``dy == 0`` and ``dx > 0``) and unspecified before it. The rule is symmetric for a fixed viewer,
    so these answers with their mirror images are the whole pair table at half the cost."""
    first = min(o[1] for o in origins) if origins else 0
    return first, _cast_rows(_rows_from(blockers, first), origins, HALF, first)


def _rows_from(blockers: BlockerSet, row: int) -> BlockerSet:
    """The blockers at board rows ``>= row``: every blocker the upper half-plane of an origin on a
    row ``>= row`` can meet (its squares, edges and corners all lie at or below the origin's row)."""

    def keep(pair: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        ys, xs = pair
        chosen = ys >= row
        return ys[chosen], xs[chosen]

    return BlockerSet(
        blockers.width, blockers.height,
        keep(blockers.cells), keep(blockers.vertical), keep(blockers.horizontal),
        keep(blockers.corner_pos), keep(blockers.corner_neg),
    )


def _cast_rows(
    blockers: BlockerSet, origins: list[tuple[int, int]], octants: tuple[int, ...], first_row: int
) -> np.ndarray:
    """Paint the blockers of ``octants`` for every origin, read the targets of rows
    ``first_row..H-1``: bool ``(len(origins), H - first_row, W)``."""
    w, h = blockers.width, blockers.height
    count = len(origins)
    out = np.zeros((count, h - first_row, w), dtype=bool)
    if not count:
        return out
    table = slope_table(max(w, h))
    leaves = table.leaves
    regions = len(octants)
    total = regions * leaves * count
    ox = np.array([o[0] for o in origins], dtype=np.int32)[:, None]
    oy = np.array([o[1] for o in origins], dtype=np.int32)[:, None]
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for slot, octant in enumerate(octants):
        who, los, his, keys = _octant_blockers(blockers, table, ox, oy, octant)
        for i, lo, hi, key in zip(who, los, his, keys, strict=True):
            base = (i * regions + slot) * leaves
            parts.append((lo + base, hi + base, key))
    if parts:
        first = paint_min(
            total,
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]).astype(_KEY),
            leaves,  # an interval stays inside its octant's region
        )
    else:
        first = np.full(total, _FAR, dtype=_KEY)
    if count == 1 and regions == 8:  # one origin: its own window, not the table of every offset
        leaf, column = _window(table, origins[0], w, h)
        np.greater(first[leaf], column, out=out[0])
        return out
    # each origin reads a window of the offset table (a view), its own painted regions
    offsets = offset_table(w, h, regions == 4)
    height = h - first_row
    for number, (x, y) in enumerate(origins):
        r, c = h - 1 - y + first_row, w - 1 - x
        leaf = offsets.leaf[r : r + height, c : c + w] + np.int32(number * regions * leaves)
        np.greater(first.take(leaf), offsets.column[r : r + height, c : c + w], out=out[number])
    return out
