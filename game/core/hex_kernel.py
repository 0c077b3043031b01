"""The hex paint's inner loops, compiled by numba: blockers placed, painted and read in one pass each.

Pure: integers only, no files of its own, no clock (numba keeps its compiled code in
``__pycache__`` beside this module, its own business). :mod:`game.core.hex_paint` imports this
module only when it paints a field, so a command that never paints a hex field never loads numba.
What each loop decides is defined in :mod:`game.core.hex_fov` (frames, blockers, keys, end rules)
and :mod:`game.core.hex_paint` (leaves and slope ranks); the loops here are those rules written
once, per point, where they were a dozen whole-array numpy passes (docs/hex.md, "The engine":
why compiled).

* :func:`place` — every blocker of every source: a blocking edge (taken at its top corner: a wall
  arm, or the wedge on the source's side blocks) as one leaf interval in the frame of each end, a
  corner blocking a line straight through it (``status``) as its one leaf.
* :func:`paint` — per leaf, the smallest key of the intervals holding it: intervals taken in
  order of frame and key (a counting sort: keys are levels), each leaf written once, written runs
  skipped by jumps; intervals of one leaf as a minimum where they lie.
* :func:`read` — every target of every source: seen iff its leaf's key is above its level; the
  cells it may end in marked (the end rule at a corner), a corner whose cells are all seen skipped.

tests/test_hex_fov.py, tests/test_hex_paint.py and tests/test_hex_cast.py compare the fields with
the exact walk and the reference on every rule; tests/test_hex_kernel.py checks :func:`paint`
against a plain minimum over each interval.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

__all__ = ["NOTHING", "paint", "place", "read"]

#: the key of a leaf no blocker holds
NOTHING = np.iinfo(np.int32).max

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(f: _F) -> _F:
    """``f`` compiled by numba (no Python objects inside), kept on disk once compiled; compiled
    anew in each process where numba finds no writable place for its cache."""
    try:
        return cast(_F, numba.njit(cache=True, nogil=True)(f))
    except RuntimeError:  # "cannot cache function …: no locator available"
        return cast(_F, numba.njit(nogil=True)(f))


@_compiled
def _frame(dx: int, dy: int, sextant: np.ndarray, forms: np.ndarray) -> tuple[int, int, int]:
    """Sextant, level and row of the lattice offset ``(dx, dy)`` (sextant -1 at ``(0, 0)``):
    :func:`game.core.hex_paint.frames` for one offset (``sextant``, ``forms``: its tables)."""
    s0 = (dy > 0) - (dy < 0)
    s1 = (dy - 3 * dx > 0) - (dy - 3 * dx < 0)
    s2 = (-dy - 3 * dx > 0) - (-dy - 3 * dx < 0)
    k = sextant[9 * s0 + 3 * s1 + s2 + 13]
    if k < 0:
        return -1, 0, 0
    return k, (forms[k, 0] * dx + forms[k, 1] * dy) >> 1, (forms[k, 2] * dx + forms[k, 3] * dy) >> 1


@_compiled
def place(
    sextant: np.ndarray, forms: np.ndarray, below_at: np.ndarray, upto_at: np.ndarray, span: int, pad: int, cum: np.ndarray, count: int,
    box: np.ndarray, code: np.ndarray, top: np.ndarray, stride: int, sx: np.ndarray, sy: np.ndarray,
    status: np.ndarray, blocks_through: np.ndarray, arms: np.ndarray, dl: np.ndarray, dj: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every blocker of every frame of the sources as leaf intervals ``[lo, hi)`` with keys.

    ``sextant`` / ``forms``: the sextant of an offset by the signs of three cross products, and
    each sextant's linear forms of level and row (:func:`game.core.hex_paint.frames`); ``below_at`` /
    ``upto_at`` / ``span``: how many leaf keys lie below / at most a slope ``row / level``, at
    ``level * span + row + pad`` (:class:`game.core.hex_paint.SlopeTables`, ``pad`` the columns
    before row 0); ``cum`` / ``count``:
    ranks to leaves within the sources' reach. Points that may block: byte offset ``box`` in a
    byte grid of ``stride`` columns, ``code``, ``top`` (1: a top corner). Sources: ``sx``, ``sy``
    (byte-grid coordinates). ``status``: :func:`game.core.hex_fov.status_table`, as bytes;
    ``blocks_through[c]``: some entry of it holds for code ``c``. ``arms``: per arm ``m`` of a top
    corner its ``dx, dy``, the mask of its wall and both wedges, of its wall and the wedge on the
    ``+`` side, on the ``-`` side, and which side ``+`` is (1: the cross product ``arm × wedge``
    is positive); ``dl`` / ``dj``: the arms' steps in each frame (:data:`game.core.hex_paint._DL`).
    """
    sources, n = sx.size, box.size
    most = sources * n * 7
    lo = np.empty(most, dtype=np.int32)
    hi = np.empty(most, dtype=np.int32)
    key = np.empty(most, dtype=np.int32)
    found = 0
    for i in range(n):
        c = code[i]
        x, y = box[i] % stride, box[i] // stride
        for s in range(sources):
            dx, dy = x - sx[s], y - sy[s]
            k1, l1, j1 = _frame(dx, dy, sextant, forms)
            if top[i]:
                for m in range(3):
                    ax, ay = arms[m, 0], arms[m, 1]
                    if c & arms[m, 2] == 0:
                        continue
                    side = ay * dx - ax * dy  # cross(arm, corner - source)
                    if side == 0:
                        continue  # an edge through the source runs along a bisector: the walk's
                    if c & (arms[m, 3] if (side > 0) == (arms[m, 5] == 1) else arms[m, 4]) == 0:
                        continue
                    k2, l2, j2 = _frame(dx + ax, dy + ay, sextant, forms)
                    edge_key = max(l1, l2) + 1
                    for end in range(2):
                        if end == 1 and k2 == k1:
                            break
                        ks, lh, jh = (k1, l1, j1) if end == 0 else (k2, l2, j2)
                        which = ks * 3 + m + 18 * end  # from the bottom corner: the arm backwards
                        far = lh + dl[which]
                        other_lower = lh * dj[which] < jh * dl[which]
                        if far > 0:
                            other = far * span + jh + dj[which] + pad
                        elif other_lower:
                            other = span - 1 + pad
                        else:
                            other = span + 2 + pad
                        here = lh * span + jh + pad
                        if other_lower:
                            lo_rank, hi_rank = upto_at[other], below_at[here]
                        else:
                            lo_rank, hi_rank = upto_at[here], below_at[other]
                        base = (6 * s + ks) * count
                        a, b = base + cum[lo_rank], base + cum[hi_rank]
                        if b > a:
                            lo[found], hi[found], key[found] = a, b, edge_key
                            found += 1
            if blocks_through[c]:
                ks, level, row = k1, l1, j1
                if ks < 0 or 2 * row == level:
                    continue  # the source itself; the bisector is the walk's
                half = 1 if 2 * row > level else 0
                if status[((ks * 2 + top[i]) * 2 + half) * 64 + c]:
                    base = (6 * s + ks) * count
                    here = level * span + row + pad
                    a = base + cum[below_at[here]]
                    if base + cum[upto_at[here]] > a:
                        lo[found], hi[found], key[found] = a, a + 1, level + 1
                        found += 1
    return lo[:found], hi[:found], key[:found]


@_compiled
def paint(total: int, count: int, lo: np.ndarray, hi: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Per leaf ``0 .. total - 1`` the smallest ``key`` (int32, at least 0) of the intervals
    ``[lo, hi)`` holding it, :data:`NOTHING` where none does; no interval crosses from one frame
    of ``count`` leaves to the next.

    Intervals longer than one leaf in order of frame, then key (a counting sort), each leaf
    written by the first that holds it: ``ahead[i] > i`` says every leaf of ``[i, ahead[i])`` is
    written; each interval walks its leaves by those jumps, writes the ones not yet written, then
    points every leaf it passed to where it stopped. Then the intervals of one leaf, each a
    minimum where it lies."""
    out = np.full(total, NOTHING, dtype=np.int32)
    if lo.size == 0:
        return out
    largest, longer = 0, 0
    for i in range(key.size):
        largest = max(largest, key[i])
        longer += hi[i] - lo[i] > 1
    keys = largest + 1
    first = np.zeros((total // count + 1) * keys + 1, dtype=np.int64)
    for i in range(key.size):
        if hi[i] - lo[i] > 1:
            first[lo[i] // count * keys + key[i] + 1] += 1
    for v in range(first.size - 1):
        first[v + 1] += first[v]
    order = np.empty(longer, dtype=np.int32)
    for i in range(key.size):
        if hi[i] - lo[i] > 1:
            b = lo[i] // count * keys + key[i]
            order[first[b]] = i
            first[b] += 1
    ahead = np.arange(total + 1, dtype=np.int32)
    for j in range(order.size):
        i = order[j]
        start, end, value = lo[i], hi[i], key[i]
        at = start
        while at < end:
            jump = ahead[at]
            if jump == at:
                out[at] = value
                at += 1
            else:
                at = jump
        k = start
        while k < end:
            jump = ahead[k]
            ahead[k] = at
            k = k + 1 if jump <= k else jump
    for i in range(key.size):  # one leaf each (most are corners): no need to skip anything
        if hi[i] - lo[i] == 1 and key[i] < out[lo[i]]:
            out[lo[i]] = key[i]
    return out


@_compiled
def _mark(x: int, y: int, flags: np.ndarray, seen: np.ndarray, grid: np.ndarray) -> None:
    """Mark the cell of the lattice centre ``(x, y)`` seen when it is on the board (``grid``: as
    for :func:`read`)."""
    if flags[(y - grid[1]) * grid[2] + x - grid[0]] & grid[5]:
        row = y // 3
        seen[row * grid[3] + (x - ((row & 1) ^ grid[4])) // 2] = 1


@_compiled
def _done(x: int, y: int, flip: int, flags: np.ndarray, seen: np.ndarray, grid: np.ndarray, wedges: np.ndarray) -> bool:
    """Every cell around the corner ``(x, y)`` is off the board or seen already."""
    for q in range(3):
        cx, cy = x + wedges[q, 0], y + wedges[q, 1] * flip
        if flags[(cy - grid[1]) * grid[2] + cx - grid[0]] & grid[5]:
            row = cy // 3
            if not seen[row * grid[3] + (cx - ((row & 1) ^ grid[4])) // 2]:
                return False
    return True


@_compiled
def read(
    sextant: np.ndarray, forms: np.ndarray, below_at: np.ndarray, span: int, pad: int, cum: np.ndarray, count: int,
    leaf_min: np.ndarray, targets: np.ndarray, sx: np.ndarray, sy: np.ndarray, corners: bool,
    flags: np.ndarray, seen: np.ndarray, grid: np.ndarray, ends: np.ndarray, wedges: np.ndarray,
) -> None:
    """Mark in ``seen`` the cells of the targets (byte offsets) the sources (byte-grid coordinates
    ``sx``, ``sy``) see. A target is seen iff its leaf's key is above its level; a corner target
    on a sextant's bisector is the walk's (never read); the source point itself is seen from a
    centre, never from a corner (its neighbours' cells are walked). A centre target marks its
    cell; a corner target the cells around it that the end rule lets the line reach (``ends``:
    ``game.core.hex_fov._end_table``, per ``code * 6 + back``, bit ``q`` for the wedge
    ``wedges[q]``). A corner whose cells are all seen already is not read again. ``grid``:
    ``x0, y0, stride, width, parity, on_board`` of the byte grid ``flags`` (``on_board``: the flag
    of a centre whose cell is on the board); ``pad``: as for :func:`place`."""
    x0, y0, stride = grid[0], grid[1], grid[2]
    for j in range(targets.size):
        x, y = targets[j] % stride, targets[j] // stride
        gx, gy = x + x0, y + y0
        flip = 1 if gy % 3 == 1 else -1
        if corners and _done(gx, gy, flip, flags, seen, grid, wedges):
            continue
        for s in range(sx.size):
            ks, level, row = _frame(x - sx[s], y - sy[s], sextant, forms)
            if ks < 0:
                clear = not corners
            else:  # a corner on a bisector: its walk's
                clear = not (corners and 2 * row == level) and leaf_min[(6 * s + ks) * count + cum[below_at[level * span + row + pad]]] > level
            if not clear:
                continue
            if not corners:
                _mark(gx, gy, flags, seen, grid)
                break
            dx, dy = sx[s] - x, (sy[s] - y) * flip
            back = 3 if dy > abs(dx) else (1 if dx > 0 else 5)
            allowed = ends[flags[targets[j]] * 6 + back]
            for q in range(3):
                if allowed >> q & 1:
                    _mark(gx + wedges[q, 0], gy + wedges[q, 1] * flip, flags, seen, grid)
