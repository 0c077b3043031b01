"""The hex field of view as one paint: every blocker of every frame of a source, at once.

Pure: numpy and integers only (no floats in any decision). :mod:`game.core.hex_fov` casts from
the origin's centre (6 frames, one per sextant) or from its six corners (36 frames); its
docstring defines the frames ``(level, row)``, the blockers (an open slope interval or one slope,
and a *key*: the first level it blocks) and the targets (seen iff no blocker holding their slope
has a key at most their level). This module keeps the per-size slope tables and drives the
compiled loops of :mod:`game.core.hex_kernel`, which place those blockers, paint for every slope
the smallest key over the blockers holding it, and read every target's leaf. What stays in Python,
in :mod:`game.core.hex_fov`: the runs along hexsides on each sextant's bisector (slope 1/2), the
sextants' starts at a corner source, and the end rules at corner targets on a bisector.

* **Half-open frames.** A point ``v`` (lattice offset from the source, ``v != 0``) lies in exactly
  one sextant: ``k`` with ``cross(n_k, v) >= 0 > cross(n_{k+1}, v)``, i.e. rows ``0 <= j < level``.
  The ray between two sextants belongs to the one it starts (row 0). :func:`frames` finds ``k``
  from the signs of three cross products (a 27-entry table), then ``(level, row)`` from ``k``'s
  two linear forms. Every corner a line passes straight through sits on one ray and what it
  does does not depend on which side of the ray one looks from (the ray is no arm: the arms are
  the bisectors), so each frame decides its own points.
* **Blockers.** An edge that blocks (a wall, or its cell on the source's side blocks) is placed
  in the frame of each of its ends (one piece when both ends share a frame): the open interval
  between its ends' slopes in that frame, an end behind the source (level <= 0) replaced by the
  frame's far side; its key is the larger hex norm of its ends plus one, whatever the frame (an
  edge spans at most 60 degrees, so no third frame meets it). A corner whose code blocks a line
  passing straight through it (``hex_fov.status_table``) holds its own slope from
  its level plus one; corners on a bisector are the runs' business and are left out.
* **Leaves.** The leaves of a frame are the slopes of its targets up to the source's reach (the
  largest level of the lattice box): from a centre to centres the slopes ``p/q``, ``q <= reach /
  3``; else every lattice slope ``j/L`` (``L ≡ 2j mod 3``). One sorted key table per reach of the
  board's size (:func:`slope_tables`, :func:`game.core.slopes.slope_key`: an exact integer
  order); ``below_at`` counts the keys ``< j/L``; per source, a prefix count over the keys whose
  smallest level is within its reach turns a rank into a leaf. An interval's ends are ranks from
  that table (an end outside ``[0, 1)`` is the run's start or end), never a search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.core.hex_corner import ARMS, WEDGES
from game.core.slopes import distinct_sorted, slope_key

__all__ = ["Blockers", "Painted", "SlopeTables", "box_top", "frames", "hex_norm", "paint", "read", "slope_tables"]

#: the six neighbour directions of the pointy frame, in circular order (as in game/core/hex_fov.py)
_N = ((2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3))
#: per sextant: level = (LX * x + LY * y) / 2 and row = (JX * x + JY * y) / 2 (the inverse of
#: ``3v = level * n_k + row * (n_{k+1} - n_k)``; every lattice offset has x + y even)
_LX = np.array([_N[(k + 1) % 6][1] - _N[k][1] for k in range(6)], dtype=np.int64)
_LY = np.array([_N[k][0] - _N[(k + 1) % 6][0] for k in range(6)], dtype=np.int64)
_JX = np.array([-_N[k][1] for k in range(6)], dtype=np.int64)
_JY = np.array([_N[k][0] for k in range(6)], dtype=np.int64)


def _sextant_table() -> np.ndarray:
    """``[9 * (s0 + 1) + 3 * (s1 + 1) + s2 + 1]``: the sextant of an offset whose cross products
    with ``n_0, n_1, n_2`` have signs ``s0, s1, s2`` (``-1`` for the source itself)."""
    out = np.full(27, -1, dtype=np.int64)
    for s0 in (-1, 0, 1):
        for s1 in (-1, 0, 1):
            for s2 in (-1, 0, 1):
                c = (s0, s1, s2, -s0, -s1, -s2)  # cross(n_k, v) for k = 0..5
                found = [k for k in range(6) if c[k] >= 0 > c[(k + 1) % 6]]
                if len(found) == 1:
                    out[9 * (s0 + 1) + 3 * (s1 + 1) + s2 + 1] = found[0]
    return out


_SEXTANT = _sextant_table()
#: per sextant ``k``: ``LX, LY, JX, JY`` (level and row as linear forms), flat, for the compiled loops
_FORMS = np.stack((_LX, _LY, _JX, _JY), axis=1).ravel()


def hex_norm(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The level of lattice offsets (three times their hex distance)."""
    level: np.ndarray = np.maximum(np.maximum(np.abs(3 * x - y), np.abs(3 * x + y)), np.abs(2 * y)) >> 1
    return level


def frames(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The half-open frame of lattice offsets ``(x, y)``: sextant ``k`` (-1 for ``(0, 0)``), level
    and row (``0 <= row < level``)."""
    k = _SEXTANT.take(9 * np.sign(y) + 3 * np.sign(y - 3 * x) + np.sign(-y - 3 * x) + 13)
    level, row = in_frame(k, x, y)
    return k, level, row


def in_frame(k: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``(level, row)`` of offsets ``(x, y)`` in sextant ``k``'s frame (inside it or not)."""
    return (_LX.take(k) * x + _LY.take(k) * y) >> 1, (_JX.take(k) * x + _JY.take(k) * y) >> 1


#: per sextant and arm of a top corner: the arm's (level, row) in that frame (frames are linear)
_ARM_DELTA = np.array([[[(_LX[k] * ax + _LY[k] * ay) >> 1, (_JX[k] * ax + _JY[k] * ay) >> 1] for ax, ay in ARMS] for k in range(6)])
#: the same per ``3 * k + arm``, then (from 18 on) walked backwards from the bottom corner
_DL = np.concatenate((_ARM_DELTA[:, :, 0].ravel(), -_ARM_DELTA[:, :, 0].ravel())).astype(np.int32)
_DJ = np.concatenate((_ARM_DELTA[:, :, 1].ravel(), -_ARM_DELTA[:, :, 1].ravel())).astype(np.int32)
#: the columns of the rank tables before row 0 and after row ``level``
_PAD = 3


@dataclass(frozen=True)
class SlopeTables:
    """What depends on the board's size only (its largest level ``top``, see :func:`box_top`). The
    leaves: from a centre to centres the slopes ``p/q`` (``3q <= top``), else every lattice slope
    ``j/L`` (``L ≡ 2j`` mod 3, ``0 <= j < L <= top``), as exact keys
    (:func:`game.core.slopes.slope_key`), sorted; ``den``: per key its smallest level.
    ``below_at`` / ``upto_at``: how many keys are ``<`` / ``<=`` a slope ``p/q``, for any ``p/q``
    with ``1 <= q <= top`` and ``-3 <= p <= q + 3``, at ``q * span + p + 3`` (a slope below 0
    counts none, one at least 1 all)."""

    keys: np.ndarray
    den: np.ndarray
    below_at: np.ndarray
    upto_at: np.ndarray
    span: int
    top: int


#: how many slopes :func:`slope_tables` ranks at once (bounds its temporaries on big boards)
_CHUNK = 1 << 19


def box_top(stride: int, rows: int) -> int:
    """The largest level between two points of a lattice box of ``stride`` columns and ``rows``
    rows, plus 2 (the hex norm is convex: its largest value is at a corner of the offsets).

    >>> box_top(9, 7)
    17
    """
    x = np.array([stride - 1, stride - 1], dtype=np.int64)
    y = np.array([rows - 1, 1 - rows], dtype=np.int64)
    return int(hex_norm(x, y).max()) + 2


@lru_cache(maxsize=4)
def slope_tables(top: int, centres: bool) -> SlopeTables:
    """The (cached) :class:`SlopeTables` up to level ``top`` (``centres``: from a centre to centres)."""
    span = top + 2 * _PAD + 1
    lv = np.arange(top + 1, dtype=np.int64)[:, None]
    rw = np.arange(-_PAD, top + _PAD + 1, dtype=np.int64)[None, :]
    leaf = (rw >= 0) & (rw < lv) & ((lv - 2 * rw) % 3 == 0)
    if centres:
        leaf &= (lv % 3 == 0) & (rw % 3 == 0)
    key = slope_key(rw, np.maximum(lv, 1))
    keys = distinct_sorted(key[leaf])
    den = np.full(keys.size, top + 1, dtype=np.int64)
    np.minimum.at(den, np.searchsorted(keys, key[leaf]), np.broadcast_to(lv, key.shape)[leaf])
    flat = key.ravel()
    below_at, upto_at = _banded(flat.size, 2, lambda a, b: (np.searchsorted(keys, flat[a:b]), np.searchsorted(keys, flat[a:b], side="right")))
    return SlopeTables(keys, den, below_at, upto_at, span, top)


def _banded(size: int, count: int, part: Callable[[int, int], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """``count`` int32 arrays of ``size`` filled :data:`_CHUNK` entries at a time by ``part(a, b)``
    (entries ``a .. b - 1`` of each; its temporaries bounded on big boards)."""
    out = tuple(np.empty(size, dtype=np.int32) for _ in range(count))
    for a in range(0, size, _CHUNK):
        b = min(a + _CHUNK, size)
        for whole, found in zip(out, part(a, b), strict=True):
            whole[a:b] = found
    return out


@dataclass
class Painted:
    """The smallest key per leaf of every frame ``f = 6 * source + k``: frame ``f``'s leaves are
    ``f * count .. f * count + count - 1``, ``cum[rank]`` turns a rank into a leaf of a frame (the
    keys within the sources' reach; the frames of one source's corners differ by a few levels of
    reach at most, so they share the largest)."""

    t: SlopeTables
    cum: np.ndarray
    count: int
    leaf_min: np.ndarray

    def leaf(self, frame: np.ndarray | int, rank: np.ndarray) -> np.ndarray:
        """The leaves of ranks in frames ``frame``."""
        found: np.ndarray = frame * self.count + self.cum.take(rank)
        return found

    def half(self, frame: int) -> int:
        """The smallest key on the bisector (slope 1/2) of a frame."""
        return int(self.leaf_min[self._half_leaf(frame)])

    def set_half(self, frame: int, key: int) -> None:
        """Lower the key on the bisector of a frame (the runs along hexsides, judged in Python)."""
        at = self._half_leaf(frame)
        self.leaf_min[at] = min(int(self.leaf_min[at]), key)

    def _half_leaf(self, frame: int) -> int:
        return frame * self.count + int(self.cum[self.t.below_at[2 * self.t.span + 1 + _PAD]])


@dataclass(frozen=True)
class Blockers:
    """What may block, for :func:`paint`: the points whose code is not 0 (byte offsets ``box``,
    ``code``, ``top``: 1 for a top corner) in a byte grid of ``stride`` columns; the sources
    (byte-grid coordinates ``sx``, ``sy``); ``status``: which codes block a line passing straight
    through (:func:`game.core.hex_fov.status_table`)."""

    box: np.ndarray
    code: np.ndarray
    top: np.ndarray
    stride: int
    sx: np.ndarray
    sy: np.ndarray
    status: np.ndarray


def _arm_table() -> np.ndarray:
    """Per arm ``m`` of a top corner: ``dx, dy``, the mask of its wall and both wedges beside it,
    of its wall and the wedge on the ``+`` side, on the ``-`` side, and 1 when ``+`` is the side
    where ``cross(arm, wedge) > 0`` (the wedge after the arm)."""
    out = []
    for m, (ax, ay) in enumerate(ARMS):
        wall, plus, minus = 1 << 2 * m, 1 << (2 * m + 1) % 6, 1 << (2 * m - 1) % 6
        wx, wy = WEDGES[((2 * m + 1) % 6) // 2]
        out.append((ax, ay, wall | plus | minus, wall | plus, wall | minus, int(ax * wy - ay * wx > 0)))
    return np.array(out, dtype=np.int64)


_ARM_TABLE = _arm_table()
#: the wedges' centres from a top corner, by position // 2 (a bottom corner: y negated)
_WEDGE_TABLE = np.array(WEDGES, dtype=np.int64)


def paint(t: SlopeTables, reach: int, blockers: Blockers, starts: list[tuple[int, int, int, int, int, int, int]]) -> Painted:
    """Paint every frame of the sources: ``reach`` the largest level from any source; every
    blocker (:class:`Blockers`: an edge in the frame of each end, a corner blocking a line straight
    through it as its one leaf) placed and painted by :mod:`game.core.hex_kernel`; ``starts``
    ``(source, k, lo_p, lo_q, hi_p, hi_q, key)`` a few more open intervals (a corner source's
    sextant starts, ``q <= 2``), applied to the painted leaves."""
    from game.core import hex_kernel  # numba: loaded by the first field only

    cum = np.zeros(t.keys.size + 1, dtype=np.int32)
    np.cumsum(t.den <= reach, out=cum[1:])
    count = int(cum[-1])
    b = blockers
    status = b.status.view(np.uint8)
    lo, hi, key = hex_kernel.place(
        _SEXTANT, _FORMS, t.below_at, t.upto_at, t.span, _PAD, cum, count, b.box, b.code, b.top, b.stride,
        b.sx, b.sy, status, status.reshape(-1, 64).max(axis=0), _ARM_TABLE, _DL, _DJ,
    )
    p = Painted(t, cum, count, hex_kernel.paint(6 * b.sx.size * count, count, lo, hi, key))
    for src_i, kk, lo_p, lo_q, hi_p, hi_q, zero in starts:  # a few long intervals of key 0: sliced
        base = (6 * src_i + kk) * count
        lo_leaf = base + int(p.cum[t.upto_at[lo_q * t.span + lo_p + _PAD]])
        hi_leaf = base + int(p.cum[t.below_at[hi_q * t.span + hi_p + _PAD]])
        np.minimum(p.leaf_min[lo_leaf:hi_leaf], zero, out=p.leaf_min[lo_leaf:hi_leaf])
    return p


def read(
    p: Painted, targets: np.ndarray, sx: np.ndarray, sy: np.ndarray, corners: bool, flags: bytearray,
    seen: bytearray, grid: tuple[int, int, int, int, int, int], ends: np.ndarray,
) -> None:
    """Mark in ``seen`` the cells of the targets (byte offsets in the byte grid ``flags``) that the
    sources (byte-grid coordinates ``sx``, ``sy``) see: :func:`game.core.hex_kernel.read` (``grid``:
    ``x0, y0, stride, width, parity, on_board``; ``ends``: the end rule's table at corner
    targets)."""
    from game.core import hex_kernel

    t = p.t
    hex_kernel.read(
        _SEXTANT, _FORMS, t.below_at, t.span, _PAD, p.cum, p.count, p.leaf_min, targets, sx, sy, corners,
        np.frombuffer(flags, dtype=np.uint8), np.frombuffer(seen, dtype=np.uint8), grid,
        ends, _WEDGE_TABLE,
    )
