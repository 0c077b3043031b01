"""The hex field of view as one paint: every blocker of every frame of a source, at once.

Pure: numpy and integers only (no floats in any decision). :mod:`game.core.hex_fov` casts from
the origin's centre (6 frames, one per sextant) or from its six corners (36 frames); its
docstring defines the frames ``(level, row)``, the blockers (an open slope interval or one slope,
and a *key*: the first level it blocks) and the targets (seen iff no blocker holding their slope
has a key at most their level). This module places those blockers with numpy and paints, for
every slope, the smallest key over the blockers holding it (:func:`game.core.slopes.paint_min`,
the kernel the square engines share); every target reads its slope's leaf. What stays in Python,
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
  passing straight through it (:func:`game.core.hex_fov.through_status`) holds its own slope from
  its level plus one; corners on a bisector are the runs' business and are left out.
* **Leaves.** The leaves of a frame are the slopes of its targets up to the source's reach (the
  largest level of the lattice box): from a centre to centres the slopes ``p/q``, ``q <= reach /
  3``; else every lattice slope ``j/L`` (``L ≡ 2j mod 3``). One sorted key table per reach of the
  board's size (:func:`_slopes`, :func:`game.core.slopes.slope_key`: an exact integer order);
  ``below[L, j]`` counts the keys ``< j/L``; per source, a prefix count over the keys whose
  smallest level is within its reach turns a rank into a leaf. An interval's ends are ranks from
  that table (an end outside ``[0, 1)`` is the run's start or end), never a search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.core.slopes import distinct_sorted, paint_min, slope_key

__all__ = ["Painted", "frames", "hex_norm", "paint"]

#: the six neighbour directions of the pointy frame, in circular order (as in game/core/hex_fov.py)
_N = ((2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3))
#: per sextant: level = (LX * x + LY * y) / 2 and row = (JX * x + JY * y) / 2 (the inverse of
#: ``3v = level * n_k + row * (n_{k+1} - n_k)``; every lattice offset has x + y even)
_LX = np.array([_N[(k + 1) % 6][1] - _N[k][1] for k in range(6)], dtype=np.int64)
_LY = np.array([_N[k][0] - _N[(k + 1) % 6][0] for k in range(6)], dtype=np.int64)
_JX = np.array([-_N[k][1] for k in range(6)], dtype=np.int64)
_JY = np.array([_N[k][0] for k in range(6)], dtype=np.int64)
#: the arms of a top corner (a bottom corner: y negated) and, per arm, the wedge after it
_ARMS = ((0, -2), (1, 1), (-1, 1))
_WEDGES = ((1, -1), (0, 2), (-1, -1))


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


@lru_cache(maxsize=4)
def _slopes(top: int, centres: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The leaf slopes up to level ``top`` (they depend on the board's size only): ``keys``, the
    sorted distinct keys; ``den``, per key its smallest level; ``below[L, j]`` (``0 <= j <= L <=
    top``, flat, stride ``top + 1``): how many keys are ``< j/L``. ``centres``: the slopes of
    centres seen from a centre (``3p / 3q``), else every lattice slope ``j/L`` with ``L ≡ 2j``
    (mod 3), ``0 <= j < L``."""
    level = np.arange(top + 1, dtype=np.int64)[:, None]
    row = np.arange(top + 1, dtype=np.int64)[None, :]
    leaf = (row < level) & ((level - 2 * row) % 3 == 0)
    if centres:
        leaf &= (level % 3 == 0) & (row % 3 == 0)
    key = slope_key(row, np.maximum(level, 1))
    keys = distinct_sorted(key[leaf])
    den = np.full(keys.size, top + 1, dtype=np.int64)
    np.minimum.at(den, np.searchsorted(keys, key[leaf]), np.broadcast_to(level, key.shape)[leaf])
    below = np.searchsorted(keys, key.ravel()).astype(np.int32)
    return keys, den, below


def _small(top: int) -> type[np.integer]:
    """The smallest integer type holding the keys (levels up to ``top + 1``) and its "none"."""
    return np.int16 if top + 2 < np.iinfo(np.int16).max else np.int32


@dataclass
class Painted:
    """The smallest key per leaf of every frame ``f = 6 * source + k``, and how to find a leaf:
    ``cum[source]`` turns a rank of :func:`_slopes` into a leaf of the source's frames, frame
    ``f``'s leaves start at ``offset[f]``."""

    keys: np.ndarray
    below: np.ndarray
    top: int
    cum: np.ndarray  # (sources, ranks + 1)
    offset: np.ndarray  # (6 * sources,)
    leaf_min: np.ndarray

    def rank(self, p: np.ndarray, q: np.ndarray, upto: bool) -> np.ndarray:
        """How many keys are ``< p/q`` (``upto``: ``<=``), ``q >= 1``; ``p/q`` below 0 or at least
        1 counts none or all."""
        pc = np.clip(p, 0, q)
        r = self.below.take(q * (self.top + 1) + pc)
        if upto:
            n = self.keys.size
            hit = self.keys.take(np.minimum(r, n - 1)) == slope_key(pc, q)
            r = r + (hit & (r < n))
        ranks: np.ndarray = np.where(p < 0, 0, np.where(p >= q, self.keys.size, r))
        return ranks

    def leaf(self, source: np.ndarray, k: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The leaf of a rank in frame ``(source, k)``."""
        found: np.ndarray = self.offset.take(6 * source + k) + self.cum[source, rank]
        return found

    def half(self, source: int, k: int) -> int:
        """The smallest key on the bisector (slope 1/2) of a frame."""
        return int(self.leaf_min[self._half_leaf(source, k)])

    def set_half(self, source: int, k: int, key: int) -> None:
        """Lower the key on the bisector of a frame (the runs along hexsides, judged in Python)."""
        at = self._half_leaf(source, k)
        self.leaf_min[at] = min(int(self.leaf_min[at]), key)

    def _half_leaf(self, source: int, k: int) -> int:
        r = int(self.rank(np.array([1]), np.array([2]), False)[0])
        return int(self.offset[6 * source + k] + self.cum[source, r])

    def seen(self, source: np.ndarray, k: np.ndarray, level: np.ndarray, row: np.ndarray) -> np.ndarray:
        """Whether targets ``(level, row)`` of frames ``(source, k)`` are seen (level >= 1)."""
        rank = self.below.take(level * (self.top + 1) + row)
        result: np.ndarray = self.leaf_min.take(self.leaf(source, k, rank)) > level
        return result


def _pieces(
    p: Painted, src: np.ndarray, k: np.ndarray, lo: tuple[np.ndarray, np.ndarray], hi: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The leaves ``[lo, hi)`` of open slope intervals ``(lo, hi)`` in frames ``(src, k)``."""
    return p.leaf(src, k, p.rank(*lo, True)), p.leaf(src, k, p.rank(*hi, False))


def _edge_pieces(
    p: Painted, src: np.ndarray, x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Blocking edges (offsets of their ends from their source): leaves ``[lo, hi)`` and keys, one
    piece in the frame of each end (one when both share a frame)."""
    key = np.maximum(hex_norm(x1, y1), hex_norm(x2, y2)) + 1
    k1, l1, j1 = frames(x1, y1)
    k2 = frames(x2, y2)[0]
    both = k2 != k1
    ks = np.concatenate((k1, k2[both]))
    hx, hy = np.concatenate((x1, x2[both])), np.concatenate((y1, y2[both]))
    ox, oy = np.concatenate((x2, x1[both])), np.concatenate((y2, y1[both]))
    srcs, keys = np.concatenate((src, src[both])), np.concatenate((key, key[both]))
    lh, jh = in_frame(ks, hx, hy)
    lo_, jo = in_frame(ks, ox, oy)
    ahead = lo_ > 0
    lo_safe = np.where(ahead, lo_, 1)
    # both ends ahead: the open interval between their slopes; the other end behind the source:
    # from this end's slope to the frame's far side (slope 2 or -1) the way the edge turns
    other_lower = np.where(ahead, jo * lh < jh * lo_safe, lh * jo - jh * lo_ <= 0)
    op = np.where(ahead, jo, np.where(other_lower, -1, 2))
    oq = np.where(ahead, lo_safe, 1)
    lo_p, lo_q = np.where(other_lower, op, jh), np.where(other_lower, oq, lh)
    hi_p, hi_q = np.where(other_lower, jh, op), np.where(other_lower, lh, oq)
    lo, hi = _pieces(p, srcs, ks, (lo_p, lo_q), (hi_p, hi_q))
    return lo, hi, keys


def paint(
    top: int, reach: list[int], centres: bool, edges: tuple[np.ndarray, ...],
    corners: tuple[np.ndarray, ...], starts: list[tuple[int, int, int, int, int, int, int]],
) -> Painted:
    """Paint every frame of the sources: ``top`` the largest level in the lattice box (from any
    point of it), ``reach`` the largest level per source, ``centres`` from a centre to centres;
    ``edges`` ``(source, x1, y1, x2, y2)`` the blocking edges (offsets of their ends from their
    source), ``corners`` ``(source, k, level, row)`` the corners blocking a line straight through
    them; ``starts`` ``(source, k, lo_p, lo_q, hi_p, hi_q, key)`` more open intervals (a corner
    source's sextant starts)."""
    keys, den, below = _slopes(top, centres)
    nsrc = len(reach)
    cum = np.zeros((nsrc, keys.size + 1), dtype=np.int64)
    for s, r in enumerate(reach):
        np.cumsum(den <= r, out=cum[s, 1:])
    counts = np.repeat(cum[:, -1], 6)
    offset = np.concatenate(([0], np.cumsum(counts)[:-1]))
    kind = _small(top)
    p = Painted(keys, below, top, cum, offset, np.zeros(0, dtype=kind))
    los, his, ks = [], [], []
    if edges[0].size:
        lo, hi, key = _edge_pieces(p, *edges)
        los.append(lo)
        his.append(hi)
        ks.append(key)
    src, k, level, row = corners
    if src.size:
        lo = p.leaf(src, k, p.rank(row, level, False))
        hi = p.leaf(src, k, p.rank(row, level, True))
        los.append(lo)
        his.append(hi)
        ks.append(level + 1)
    if starts:
        st = np.array(starts, dtype=np.int64)
        lo, hi = _pieces(p, st[:, 0], st[:, 1], (st[:, 2], st[:, 3]), (st[:, 4], st[:, 5]))
        los.append(lo)
        his.append(hi)
        ks.append(st[:, 6])
    total = int(counts.sum())
    if los:
        p.leaf_min = paint_min(total, np.concatenate(los), np.concatenate(his), np.concatenate(ks).astype(kind))
    else:
        p.leaf_min = np.full(total, np.iinfo(kind).max, dtype=kind)
    return p
