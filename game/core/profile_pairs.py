"""Every pair of a symmetric corner rule, row by row: the corner caster of
:mod:`game.core.profile_fov` cast once per grid point and shared by the 4 squares around it.

Pure: numpy and integers only. :func:`row_candidates` gives, for every origin A of one board row,
what :func:`game.core.profile_fov.corner_candidates` with ``after=True`` gives for A alone — the
squares after A in row-major order that a segment from a corner of A to a corner of B, not along a
grid line, reaches clear, plus the segments along grid lines — exact positives; the caller walks
the squares sharing a corner with A (:func:`game.core.profile_los._corner_pairs`).

Why a grid point's cast serves every square around it: what a segment from a grid point ``p``
meets depends on ``p`` and the board, never on which square around ``p`` is A, except

* A never blocks. A is one of the 4 squares touching ``p``; a square touching ``p`` in the quadrant
  ``qd`` (``T``) stands in that quadrant only, holding every slope from column 2 on. So the cast
  leaves the 4 touching squares out, and A's combination puts ``T`` back: when ``T`` blocks and is
  not A, the quadrant reaches only its column-1 point ``p + (sx, sy)``, by the diagonal of ``T``,
  where every square but ``T`` itself is blocked by ``T``. That one square is read from the
  quadrant's slope-1 squares (``T``'s only corner in that plane is that point).
* What the start point lets through (:func:`game.core.segment.vertex_table` with A's quadrant
  at ``p``): applied per (A, corner, quadrant, slope 1) when combining.

The end rule at ``q`` depends only on ``q``, the quadrant, slope 1 and B, so each grid point's
squares are kept per (quadrant, slope 1) plane, as bits; A's squares are the OR of the planes its
4 corners allow — one ``bitwise_or`` over 32 rows of bits per A. Grid points are cast in chunks
of :data:`CHUNK` a paint (their octants in one :func:`game.core.slopes.paint_min`), a grid row's
planes kept while the two board rows that share it are combined.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.core.profile_fov import (
    _QUAD,
    _SIGNS,
    _fast,
    axis_lines,
    end_squares,
    paint_points,
    reach_points,
)
from game.core.segment import BoardView, vertex_table

__all__ = ["CHUNK", "point_planes", "row_candidates"]

#: grid points cast in one paint (bounds the arrays of one cast; 16 was quickest at 100 squares a side: 8 to 101 tried)
CHUNK = 16
#: A's corners ``ci`` (top left, top right, bottom left, bottom right): the quadrant index of
#: :data:`game.core.profile_fov._SIGNS` A lies in seen from that corner, and that quadrant as a
#: direction of :mod:`game.core.segment` (SE 1, SW 3, NE 7, NW 5)
_A_QD = np.array([0, 2, 1, 3], dtype=np.int64)
_A_DIR = (1, 3, 7, 5)


@lru_cache(maxsize=8)
def _start_tables(touch: str) -> np.ndarray:
    """Bool ``[ci, qd, slope 1, signature]``: a segment from A's corner ``ci`` into quadrant ``qd``
    passes its start point (the walk's vertex rule with A's quadrant there)."""
    out = np.zeros((4, 4, 2, 256), dtype=bool)
    for ci, qa in enumerate(_A_DIR):
        for qd, signs in enumerate(_SIGNS):
            for same in (0, 1):
                out[ci, qd, same] = ~vertex_table(touch, qa, _QUAD[signs], bool(same))
    return out


def point_planes(geo: BoardView, py: int) -> np.ndarray:
    """The squares each grid point ``(gx, py)`` of one grid row reaches, as bits: uint8
    ``[8 * gx + 2 * qd + slope 1, bytes]``, each row the packed padded board ``[y + 1, x + 1]``;
    the squares touching the point left out of its cast, every start allowed, downward quadrants
    cast to the rim and upward ones one row deep (what the squares after A need)."""
    fast = _fast(geo)
    w, h = fast.width, fast.height
    cells = (h + 2) * (w + 2)
    out = np.zeros((8 * (w + 1), (cells + 7) // 8), dtype=np.uint8)
    for first in range(0, w + 1, CHUNK):
        px = np.arange(first, min(w + 1, first + CHUNK), dtype=np.int32)
        py_all = np.full(px.size, py, dtype=np.int32)
        umax = np.zeros(8 * px.size, dtype=np.int32)
        vmax = np.zeros(8 * px.size, dtype=np.int32)
        for qd, (sx, sy) in enumerate(_SIGNS):
            xs = w - px if sx > 0 else px
            ys = h - py if sy > 0 else min(py, 1)
            o = 8 * np.arange(px.size) + 2 * qd
            live = (xs >= 1) & (ys >= 1)
            umax[o], vmax[o] = np.where(live, xs, 0), np.where(live, ys, 0)
            umax[o + 1], vmax[o + 1] = np.where(live, ys, 0), np.where(live, xs, 0)
        if not umax.any():
            continue
        allow = np.ones((umax.size, 2), dtype=bool)
        best, leaf_of = paint_points(fast, px, py_all, umax, max(py - 1, 0), exclude=None)
        mark = reach_points(fast, px, py_all, umax, vmax, allow, best, leaf_of, per_point=True)
        squares = np.zeros((mark.shape[0], h + 2, w + 2), dtype=bool)
        end_squares(fast, mark, squares)
        out[8 * first : 8 * (first + px.size)] = np.packbits(squares.reshape(mark.shape[0], cells), axis=1)
    return out


def row_candidates(geo: BoardView, ay: int, upper: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """Bool ``[ax, y, x]`` for every origin ``(ax, ay)`` of board row ``ay``: what
    :func:`game.core.profile_fov.corner_candidates` with ``after=True`` marks for it (exact
    positives; only the squares after it in row-major order are asked for), from the planes of
    grid rows ``ay`` (``upper``) and ``ay + 1`` (``lower``) of :func:`point_planes`."""
    fast = _fast(geo)
    w, h = fast.width, fast.height
    ax = np.arange(w)
    ci = np.arange(4)
    gx = ax[:, None] + (ci & 1)  # [ax, ci]: the corner's grid point
    gy = ay + (ci >> 1)
    start = _start_tables(fast.touch)
    sig = fast.sig[gy, gx]  # [ax, ci]
    allow = start[ci[None, :, None, None], np.arange(4)[None, None, :, None], np.arange(2), sig[:, :, None, None]]
    # T, the square touching the corner in quadrant qd: [ax, ci, qd]
    sx = np.array([s[0] for s in _SIGNS])
    sy = np.array([s[1] for s in _SIGNS])
    tx = gx[:, :, None] - (sx < 0)
    ty = gy[None, :, None] - (sy < 0)
    t_blocks = fast.padded[ty + 1, tx + 1] & (np.arange(4) != _A_QD[:, None])[None]
    chosen = allow & ~t_blocks[..., None]  # [ax, ci, qd, slope 1]
    planes = np.concatenate((upper, lower, np.zeros((1, upper.shape[1]), dtype=np.uint8)))
    index = ((ci >> 1) * upper.shape[0] + 8 * gx)[:, :, None, None] + 2 * np.arange(4)[:, None] + np.arange(2)
    index = np.where(chosen, index, planes.shape[0] - 1).reshape(w, 32)
    packed = np.bitwise_or.reduce(planes[index], axis=1)
    out = np.unpackbits(packed, axis=1, count=(h + 2) * (w + 2)).view(bool).reshape(w, h + 2, w + 2)
    # a blocking T that is not A: its quadrant reaches T alone, through the corner p + (sx, sy)
    a_i, c_i, q_i = np.nonzero(t_blocks & allow[..., 1])
    if a_i.size:
        t_at = (ty[0, c_i, q_i] + 1) * (w + 2) + tx[a_i, c_i, q_i] + 1
        plane = (c_i >> 1) * upper.shape[0] + 8 * gx[a_i, c_i] + 2 * q_i + 1
        bit = (planes[plane, t_at >> 3] >> (7 - (t_at & 7)).astype(np.uint8)) & 1
        hit = bit.astype(bool)
        out.reshape(w, -1)[a_i[hit], t_at[hit]] = True
    axis_lines(geo, fast, ax.astype(np.int32), ay, out)
    return out[:, 1:-1, 1:-1]
