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
* Slopes are compared through the integer key ``(p << 42) // q``: two different fractions with
  denominators below 2**20 differ by more than 2**-40, so the keys keep their order and equal
  fractions get equal keys — an exact order, not a float approximation.
* The slopes of every target of a board size are sorted once (``O(n^2 log n)`` time, ``O(n^2)``
  memory, cached for two sizes); each origin paints its blockers' slope intervals into a segment
  tree with "keep the minimum" (``O(B log n)``), pushes the minima down and reads one leaf per
  target. Cost per origin: ``O(n^2)`` for the targets plus the blockers — whatever the rays'
  length.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["BlockerSet", "fov_mask", "fov_rows", "slope_table"]

_SHIFT = 42
_MAX_SIZE = 1 << 19  # keeps (2n+1) << 42 inside int64 and the key order exact
_FAR = np.iinfo(np.int32).max

# the 8 octants: (sign of x, sign of y, primary axis is y)
_OCTANTS = tuple((sx, sy, swap) for swap in (False, True) for sy in (1, -1) for sx in (1, -1))


def _key(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The exact order key of the fractions ``p/q`` (q > 0): ``floor(p * 2**42 / q)``."""
    return (p.astype(np.int64) << _SHIFT) // q.astype(np.int64)


@dataclass(frozen=True)
class SlopeTable:
    """The sorted slopes of one board size and, per position in octant 0, where its blocker's
    slope interval falls among them (leaf indices, half-open ``[lo, hi)``).

    Positions are ``[c, j]`` with ``0 <= j <= c < n``. ``corner[k, m]`` is the leaf of the slope
    ``(2m+1)/(2k+1)``, or ``count`` (a spare leaf no target reads) when no target has it.
    """

    n: int
    count: int  # distinct target slopes
    leaves: int  # a power of two > count
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
    cs, js = np.meshgrid(np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64), indexing="ij")
    tri = (js <= cs) & (cs >= 1)
    tri_c, tri_j = cs[tri], js[tri]  # meshgrid "ij" order: already by column
    keys = _key(tri_j, tri_c)
    sorted_keys = np.unique(keys)
    count = int(sorted_keys.size)
    leaves = 1 << max(1, int(count).bit_length())
    tri_leaf = np.searchsorted(sorted_keys, keys).astype(np.int32)
    column_start = np.concatenate(([0, 0], np.cumsum(np.arange(2, n + 1)))).astype(np.int64)

    def open_range(p0: np.ndarray, q0: np.ndarray, p1: np.ndarray, q1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Leaves strictly between p0/q0 and p1/q1 (q > 0 everywhere it matters)."""
        q0 = np.maximum(q0, 1)
        q1 = np.maximum(q1, 1)
        lo = np.searchsorted(sorted_keys, _key(p0, q0), side="right").astype(np.int32)
        hi = np.searchsorted(sorted_keys, _key(p1, q1), side="left").astype(np.int32)
        return lo, np.maximum(hi, lo)

    square_lo, square_hi = open_range(2 * js - 1, 2 * cs + 1, 2 * js + 1, 2 * cs - 1)
    across_lo, across_hi = open_range(2 * js - 1, 2 * cs + 1, 2 * js + 1, 2 * cs + 1)
    along_lo, along_hi = open_range(2 * js + 1, 2 * cs + 1, 2 * js + 1, 2 * cs - 1)
    ckeys = _key(2 * js + 1, 2 * cs + 1)
    if count:
        at = np.minimum(np.searchsorted(sorted_keys, ckeys), count - 1)
        corner = np.where(sorted_keys[at] == ckeys, at, count).astype(np.int32)
    else:  # a one-square board: no target, no ray
        corner = np.zeros(ckeys.shape, dtype=np.int32)
    return SlopeTable(
        n, count, leaves, tri_c.astype(np.int32), tri_j.astype(np.int32), tri_leaf, column_start,
        square_lo, square_hi, across_lo, across_hi, along_lo, along_hi, corner,
    )


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
    def from_arrays(cls, cells: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray) -> BlockerSet:
        """From bool arrays: blocking squares ``[y, x]`` (H, W), V edges (H, W+1), H edges (H+1, W)."""
        h, w = cells.shape
        cellp = np.ones((h + 2, w + 2), dtype=bool)  # off the board all around
        cellp[1:-1, 1:-1] = cells
        evp = np.zeros((h + 2, w + 1), dtype=bool)
        evp[1:-1] = vertical
        ehp = np.zeros((h + 1, w + 2), dtype=bool)
        ehp[:, 1:-1] = horizontal

        def cell(dy: int, dx: int) -> np.ndarray:  # square (x + dx, y + dy) for corners x 0..W, y 0..H
            return cellp[1 + dy : h + 2 + dy, 1 + dx : w + 2 + dx]

        v_here, v_north = evp[1:], evp[:-1]  # V(x, y), V(x, y-1)
        h_here, h_west = ehp[:, 1:], ehp[:, :-1]  # H(x, y), H(x-1, y)
        north_east = cell(-1, 0) | v_north | h_here
        south_west = cell(0, -1) | v_here | h_west
        north_west = cell(-1, -1) | v_north | h_west
        south_east = cell(0, 0) | h_here | v_here
        return cls(
            w, h,
            _where(cells), _where(vertical), _where(horizontal),
            _where(north_east & south_west), _where(north_west & south_east),
        )


def _where(array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.nonzero(array)
    return ys.astype(np.int64), xs.astype(np.int64)


def _line(g: np.ndarray, o: int, s: int) -> np.ndarray:
    """Octant index of a grid line at board coordinate ``g`` (the line ``k + 1/2`` from the origin)."""
    return g - o - 1 if s > 0 else o - g


def _octant_blockers(
    blockers: BlockerSet, table: SlopeTable, origin: tuple[int, int], octant: int, offset: int
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Leaf ranges ``[lo, hi)`` (shifted by ``offset``) and keys of the blockers of one octant."""
    ox, oy = origin
    sx, sy, swap = _OCTANTS[octant]
    w, h = blockers.width, blockers.height
    far = (w - 1 - ox if sx > 0 else ox, h - 1 - oy if sy > 0 else oy)
    primary = far[1] if swap else far[0]
    los: list[np.ndarray] = []
    his: list[np.ndarray] = []
    keys: list[np.ndarray] = []

    def emit(keep: np.ndarray, lo: np.ndarray, hi: np.ndarray, key: np.ndarray) -> None:
        if keep.any():
            los.append(lo[keep] + offset)
            his.append(hi[keep] + offset)
            keys.append(key[keep].astype(np.int32))

    if primary < 1:
        return los, his, keys
    ys, xs = blockers.cells
    c, j = (sy * (ys - oy), sx * (xs - ox)) if swap else (sx * (xs - ox), sy * (ys - oy))
    keep = (c >= 1) & (c < primary) & (j >= 0) & (j <= c)
    c, j = c[keep], j[keep]
    emit(np.ones(c.size, bool), table.square_lo[c, j], table.square_hi[c, j], c + 1)

    # edges across the primary axis: V edges (or H edges when the primary axis is y)
    ys, xs = blockers.horizontal if swap else blockers.vertical
    k, m = (_line(ys, oy, sy), sx * (xs - ox)) if swap else (_line(xs, ox, sx), sy * (ys - oy))
    keep = (k >= 0) & (k < primary) & (m >= 0) & (m <= k)
    k, m = k[keep], m[keep]
    emit(np.ones(k.size, bool), table.across_lo[k, m], table.across_hi[k, m], k + 1)

    # edges along the primary axis, inside a column
    ys, xs = blockers.vertical if swap else blockers.horizontal
    c, m = (sy * (ys - oy), _line(xs, ox, sx)) if swap else (sx * (xs - ox), _line(ys, oy, sy))
    keep = (c >= 1) & (c < primary) & (m >= 0) & (m < c)
    c, m = c[keep], m[keep]
    emit(np.ones(c.size, bool), table.along_lo[c, m], table.along_hi[c, m], c + 1)

    # corners whose two sides are closed for this direction
    ys, xs = blockers.corner_pos if sx * sy > 0 else blockers.corner_neg
    k, m = (_line(ys, oy, sy), _line(xs, ox, sx)) if swap else (_line(xs, ox, sx), _line(ys, oy, sy))
    keep = (k >= 0) & (k < primary) & (m >= 0) & (m <= k)
    k, m = k[keep], m[keep]
    leaf = table.corner[k, m]
    emit(np.ones(k.size, bool), leaf, leaf + 1, k + 1)
    return los, his, keys


def _paint(tree: np.ndarray, size: int, lo: np.ndarray, hi: np.ndarray, key: np.ndarray) -> None:
    """Segment tree over ``size`` leaves: every leaf in ``[lo, hi)`` keeps the minimum of its key."""
    left = lo.astype(np.int64) + size
    right = hi.astype(np.int64) + size
    key = key.astype(np.int32)
    while left.size:
        live = left < right
        if not live.all():
            left, right, key = left[live], right[live], key[live]
            if not left.size:
                break
        odd = (left & 1).astype(bool)
        if odd.any():
            np.minimum.at(tree, left[odd], key[odd])
            left = left + odd
        odd = (right & 1).astype(bool)
        if odd.any():
            right = right - odd
            np.minimum.at(tree, right[odd], key[odd])
        left >>= 1
        right >>= 1


def _push_down(tree: np.ndarray, size: int) -> np.ndarray:
    """Every leaf's minimum over its ancestors; returns the leaves."""
    level = 1
    while level < size:
        parents = tree[level : 2 * level]
        children = tree[2 * level : 4 * level].reshape(-1, 2)
        np.minimum(children, parents[:, None], out=children)
        level *= 2
    return tree[size : 2 * size]


def fov_rows(blockers: BlockerSet, origins: list[tuple[int, int]]) -> np.ndarray:
    """The visibility masks of several origins at once: bool ``(len(origins), H, W)``.

    Each mask has ``True`` for every square whose centre-to-centre ray from the origin meets no
    blocker, the origin included; void and blocked squares come out as seen or not by the same
    rule (callers mask them out). Batched so that numpy's per-call cost is shared.
    """
    w, h = blockers.width, blockers.height
    table = slope_table(max(w, h))
    leaves = table.leaves
    per_origin = 8 * leaves
    size = per_origin * len(origins)
    total = 1 << max(0, (size - 1).bit_length())
    tree = np.full(2 * total, _FAR, dtype=np.int32)
    los: list[np.ndarray] = []
    his: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    for i, origin in enumerate(origins):
        for octant in range(8):
            lo, hi, key = _octant_blockers(blockers, table, origin, octant, (i * 8 + octant) * leaves)
            los += lo
            his += hi
            keys += key
    if los:
        _paint(tree, total, np.concatenate(los), np.concatenate(his), np.concatenate(keys))
    first = _push_down(tree, total)
    out = np.zeros((len(origins), h, w), dtype=bool)
    flat = out.reshape(len(origins), -1)
    for i, (ox, oy) in enumerate(origins):
        if 0 <= ox < w and 0 <= oy < h:
            flat[i, oy * w + ox] = True
        for octant, (sx, sy, swap) in enumerate(_OCTANTS):
            far_x = w - 1 - ox if sx > 0 else ox
            far_y = h - 1 - oy if sy > 0 else oy
            primary, secondary = (far_y, far_x) if swap else (far_x, far_y)
            if primary < 1:
                continue
            end = int(table.column_start[primary + 1])
            c, j = table.tri_c[:end], table.tri_j[:end]
            base = (i * 8 + octant) * leaves
            seen = first[base + table.tri_leaf[:end]] > c
            if secondary < primary:
                seen &= j <= secondary
            c, j = c[seen], j[seen]
            if swap:
                xs, ys = ox + sx * j, oy + sy * c
            else:
                xs, ys = ox + sx * c, oy + sy * j
            flat[i, ys * w + xs] = True
    return out


def fov_mask(blockers: BlockerSet, origin: tuple[int, int]) -> np.ndarray:
    """The visibility mask of one origin: bool ``(H, W)`` (see :func:`fov_rows`).

    >>> cells = np.zeros((3, 3), dtype=bool); cells[1, 1] = True
    >>> b = BlockerSet.from_arrays(cells, np.zeros((3, 4), bool), np.zeros((4, 3), bool))
    >>> fov_mask(b, (0, 0)).astype(int)
    array([[1, 1, 1],
           [1, 1, 0],
           [1, 0, 0]])
    """
    return fov_rows(blockers, [origin])[0]
