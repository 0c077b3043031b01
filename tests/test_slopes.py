"""The slope kernel both shadow-casting engines share (game/core/slopes.py): exact keys, and the
one minimum-paint in both of its memory modes, against brute force."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import slopes


def test_keys_order_fractions_exactly() -> None:
    fractions = [Fraction(p, q) for q in range(1, 40) for p in range(0, 2 * q + 2)]
    keys = slopes.slope_key(np.array([f.numerator for f in fractions]), np.array([f.denominator for f in fractions]))
    pairs = list(zip(fractions, keys.tolist(), strict=True))
    for (f1, k1), (f2, k2) in zip(pairs, pairs[7:] + pairs[:7], strict=True):
        assert (f1 < f2) == (k1 < k2) and (f1 == f2) == (k1 == k2)
    distinct = slopes.distinct_sorted(keys)
    assert distinct.tolist() == sorted(set(keys.tolist()))


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 70), intervals=st.lists(st.tuples(st.integers(0, 70), st.integers(0, 70), st.integers(0, 200)), max_size=40))
def test_paint_min_is_the_brute_force_minimum(count: int, intervals: list[tuple[int, int, int]]) -> None:
    lo = np.array([min(a, b) % (count + 1) for a, b, _ in intervals], dtype=np.int32)
    hi = np.array([max(a, b) % (count + 1) for a, b, _ in intervals], dtype=np.int32)
    key = np.array([k for _, _, k in intervals], dtype=np.uint8)
    want = [min((int(k) for a, b, k in zip(lo, hi, key, strict=True) if a <= leaf < b), default=255) for leaf in range(count)]
    assert slopes.paint_min(count, lo, hi, key, count).tolist() == want
    assert slopes.paint_min(count, lo, hi, key.astype(np.int16)).tolist() == [w if w < 255 else 32767 for w in want]
    ok = hi > lo
    if ok.any():  # both memory modes directly (paint_min picks one by the table's size)
        length = hi[ok] - lo[ok]
        lev = slopes._floor_log2(count).take(length)
        levels = int(lev.max()) + 1
        for mode in (slopes._paint_table, slopes._paint_levels):
            assert mode(count, lo[ok], length, key[ok], lev, levels).tolist() == want, mode.__name__
