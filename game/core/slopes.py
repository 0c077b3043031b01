"""Exact slopes and the one minimum-paint: the kernel the shadow-casting engines share.

Pure: numpy and integers only (no floats in any decision, no files, no clock). Both field-of-view
engines that cast by octants — the centre engine of :mod:`game.core.fov` and the corner engine
of :mod:`game.core.profile_fov` — order slopes ``p/q`` by an exact integer key and paint, for
every slope, the smallest *key* (the first column a blocker stands before) over the slope
intervals holding it. This module is that arithmetic, once.

* :func:`slope_key`: ``(p << 42) // q`` for ``q > 0``. Two different fractions with denominators
  below 2**20 differ by more than 2**-40, so their keys differ and keep their order, and equal
  fractions get equal keys: an exact order, not a float approximation.
* :func:`distinct_sorted`: the sorted distinct keys (without ``np.unique``, which imports
  ``numpy.ma`` — tens of milliseconds — on a first call).
* :func:`paint_min`: per leaf, the minimum key of the half-open leaf intervals ``[lo, hi)``
  holding it — a sparse table: each interval is written at its two covering powers of two, then
  the minima are pushed down level by level.

>>> import numpy as np
>>> keys = slope_key(np.array([1, 1, 2, 0]), np.array([2, 3, 4, 5]))
>>> bool(keys[0] == keys[2]), bool(keys[1] < keys[0]), distinct_sorted(keys).size
(True, True, 3)
>>> paint_min(6, np.array([0, 2, 5]), np.array([3, 6, 5]), np.array([7, 4, 1], dtype=np.int16)).tolist()
[7, 7, 4, 4, 4, 4]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["SHIFT", "distinct_sorted", "paint_min", "slope_key"]

#: the key's shift: exact for denominators below 2**20 (boards up to 32,000 squares a side keep
#: ``(2n + 1) << 42`` inside int64)
SHIFT = 42
#: above this many table bytes the paint keeps two levels at a time instead of the whole table
_TABLE_BYTES = 1 << 23


def slope_key(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The exact order key of the fractions ``p/q`` (``q > 0``): ``floor(p * 2**42 / q)``, int64."""
    return (np.asarray(p).astype(np.int64) << SHIFT) // np.asarray(q).astype(np.int64)


def distinct_sorted(keys: np.ndarray) -> np.ndarray:
    """The distinct values of ``keys``, sorted."""
    ordered = np.sort(keys, axis=None)
    if ordered.size:
        ordered = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    return ordered


@lru_cache(maxsize=4)
def _floor_log2(n: int) -> np.ndarray:
    """``[x]``: the largest ``l`` with ``2**l <= x``, for ``1 <= x <= n`` (entry 0 unused)."""
    out = np.zeros(n + 1, dtype=np.int8)
    for level in range(1, max(1, n.bit_length())):
        out[1 << level :] += 1
    return out


def paint_min(
    count: int, lo: np.ndarray, hi: np.ndarray, key: np.ndarray, longest: int | None = None
) -> np.ndarray:
    """Per leaf ``0 .. count - 1``: the smallest ``key`` of the intervals ``[lo, hi)`` holding it,
    the maximum of ``key``'s dtype where none does (empty intervals hold nothing).

    ``longest`` bounds the intervals' length (computed when not given). Each interval is written
    at the two entries of level ``l = floor(log2(length))`` that cover it (``[lo, lo + 2**l)`` and
    ``[hi - 2**l, hi)``); pushing a level's minima down to the level below (each entry covers
    two entries of half its span) leaves at level 0 every leaf's minimum. The whole table when
    it is small; two levels at a time, intervals grouped by level, when it is not.
    """
    far = np.iinfo(key.dtype).max
    ok = hi > lo
    if not ok.all():
        lo, hi, key = lo[ok], hi[ok], key[ok]
    if not lo.size:
        return np.full(count, far, dtype=key.dtype)
    length = hi - lo
    if longest is None:
        longest = int(length.max())
    lev = _floor_log2(max(longest, 1)).take(length)
    levels = int(lev.max()) + 1
    if levels * (count + 1) * key.itemsize <= _TABLE_BYTES:
        return _paint_table(count, lo, length, key, lev, levels)
    return _paint_levels(count, lo, length, key, lev, levels)


def _paint_table(
    count: int, lo: np.ndarray, length: np.ndarray, key: np.ndarray, lev: np.ndarray, levels: int
) -> np.ndarray:
    """:func:`paint_min` with the whole sparse table at once: two scattered writes in all."""
    wide = count + 1
    table = np.full(levels * wide, np.iinfo(key.dtype).max, dtype=key.dtype)
    at = lev.astype(np.intp) * wide + lo
    np.minimum.at(table, at, key)
    np.minimum.at(table, at + length - (np.intp(1) << lev), key)
    table = table.reshape(levels, wide)
    for level in range(levels - 1, 0, -1):
        half = 1 << (level - 1)
        row = table[level]
        below = table[level - 1]
        np.minimum(below, row, out=below)
        np.minimum(below[half:], row[: wide - half], out=below[half:])
    return table[0, :count]


def _paint_levels(
    count: int, lo: np.ndarray, length: np.ndarray, key: np.ndarray, lev: np.ndarray, levels: int
) -> np.ndarray:
    """:func:`paint_min` keeping two levels at a time (memory ~ two rows of leaves): the
    intervals grouped by level, each level written, then pushed down into a fresh row."""
    order = np.argsort(lev, kind="stable")
    bounds = np.searchsorted(lev.take(order), np.arange(levels + 1))
    row = np.full(count, np.iinfo(key.dtype).max, dtype=key.dtype)
    spare = np.empty_like(row)  # the two rows take turns: no fresh row per level
    for level in range(levels - 1, -1, -1):
        part = order[bounds[level] : bounds[level + 1]]
        if part.size:
            start, value = lo.take(part), key.take(part)
            np.minimum.at(row, start, value)
            np.minimum.at(row, start + (length.take(part) - (1 << level)), value)
        if level:
            half = 1 << (level - 1)
            spare[:half] = row[:half]
            np.minimum(row[half:], row[: count - half], out=spare[half:])
            row, spare = spare, row
    return row
