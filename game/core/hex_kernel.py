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
* :func:`grid_bytes` — the board's byte grid (:func:`game.core.hex_fov.sight_grid`): every
  corner's code from the cells around it and their sides, in one pass over the cells.

Helpers called from a loop take scalars or small tables only: a loop that called a helper with
its big arrays for every cell ran twenty times slower.

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
    :func:`game.core.hex_paint.frames` for one offset (``sextant``: per sign pattern; ``forms``:
    per sextant ``LX, LY, JX, JY``, flat)."""
    s0 = (dy > 0) - (dy < 0)
    s1 = (dy - 3 * dx > 0) - (dy - 3 * dx < 0)
    s2 = (-dy - 3 * dx > 0) - (-dy - 3 * dx < 0)
    k = sextant[9 * s0 + 3 * s1 + s2 + 13]
    if k < 0:
        return -1, 0, 0
    return k, (forms[4 * k] * dx + forms[4 * k + 1] * dy) >> 1, (forms[4 * k + 2] * dx + forms[4 * k + 3] * dy) >> 1


@_compiled
def place(
    sextant: np.ndarray, forms: np.ndarray, below_at: np.ndarray, upto_at: np.ndarray, span: int, pad: int, cum: np.ndarray, count: int,
    box: np.ndarray, code: np.ndarray, top: np.ndarray, stride: int, sx: np.ndarray, sy: np.ndarray,
    status: np.ndarray, blocks_through: np.ndarray, arms: np.ndarray, dl: np.ndarray, dj: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every blocker of every frame of the sources as leaf intervals ``[lo, hi)`` with keys.

    ``sextant`` / ``forms``: the sextant of an offset by the signs of three cross products, and
    each sextant's linear forms of level and row (:func:`_frame`); ``below_at`` /
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
def read(
    sextant: np.ndarray, forms: np.ndarray, below_at: np.ndarray, span: int, pad: int, cum: np.ndarray, count: int,
    leaf_min: np.ndarray, targets: np.ndarray, sx: np.ndarray, sy: np.ndarray, corners: bool,
    flags: np.ndarray, seen: np.ndarray, grid: tuple[int, int, int, int, int, int], ends: np.ndarray, wedges: np.ndarray,
) -> None:
    """Mark in ``seen`` the cells of the targets (byte offsets) the sources (byte-grid coordinates
    ``sx``, ``sy``) see. A target is seen iff its leaf's key is above its level; a corner target
    on a sextant's bisector is the walk's (never read); the source point itself is seen from a
    centre, never from a corner (its neighbours' cells are walked). A centre target marks its
    cell; a corner target the cells around it that the end rule lets the line reach (``ends``:
    ``game.core.hex_fov._end_table``, per ``code * 6 + back``, bit ``q`` for the wedge
    ``wedges[q]``). A corner whose cells are all seen already is not read again. ``grid``:
    ``x0, y0, stride, width, parity, on_board`` of the byte grid ``flags`` (``on_board``: the flag
    of a centre whose cell is on the board); the rest as for :func:`place`."""
    x0, y0, stride, width, parity, on_board = grid
    cells = np.empty(3, dtype=np.int64)  # the seen index of the cells around a corner, -1 off the board
    for j in range(targets.size):
        x, y = targets[j] % stride, targets[j] // stride
        gx, gy = x + x0, y + y0
        flip = 1 if gy % 3 == 1 else -1
        if corners:
            done = True
            for q in range(3):
                cx, cy = gx + wedges[q, 0], gy + wedges[q, 1] * flip
                cells[q] = -1
                if flags[(cy - y0) * stride + cx - x0] & on_board:
                    r = cy // 3
                    cells[q] = r * width + (cx - ((r & 1) ^ parity)) // 2
                    done = done and seen[cells[q]] != 0
            if done:
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
                if flags[targets[j]] & on_board:
                    r = gy // 3
                    seen[r * width + (gx - ((r & 1) ^ parity)) // 2] = 1
                break
            dx, dy = sx[s] - x, (sy[s] - y) * flip
            back = 3 if dy > abs(dx) else (1 if dx > 0 else 5)
            allowed = ends[flags[targets[j]] * 6 + back]
            for q in range(3):
                if allowed >> q & 1 and cells[q] >= 0:
                    seen[cells[q]] = 1


@_compiled
def grid_bytes(
    blk: np.ndarray, onb: np.ndarray, sides: np.ndarray, parity: int, closed: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The byte grid of :func:`game.core.hex_fov.sight_grid` from padded per-cell arrays (pointy
    frame, a pad of 3 cells, row ``r`` of the arrays is map row ``r - 3``): ``blk`` (the cell
    blocks), ``onb`` (on the board), ``sides[s]`` (the cell's side ``s`` blocks sight: 0 up-right,
    1 right, 2 down-right), all 0/1 bytes; ``parity``: the grid's (a row ``r`` is pushed right
    when ``(r - 3) & 1 ^ parity``); ``closed``: every side of a void or off-map cell is a wall.
    Returns each cell's top-corner and bottom-corner codes and the lattice box's bytes (``3h + 2``
    rows of ``2w``: a cell's centre at row ``3r + 2``, column ``2c`` plus its push, its top corner
    two rows above, its bottom corner two below; a centre's byte holds bit 0 "blocks" and bit 1
    "on the board"). Past the arrays' edge a cell blocks, is off the board and has no side."""
    h, w = blk.shape
    # one more cell all round, so that every neighbour is an index: b blocks, v off the board
    b = np.ones((h + 2, w + 2), dtype=np.uint8)
    v = np.ones((h + 2, w + 2), dtype=np.uint8)
    s = np.zeros((3, h + 2, w + 2), dtype=np.uint8)
    for r in range(h):
        for c in range(w):
            b[r + 1, c + 1] = blk[r, c]
            v[r + 1, c + 1] = 1 - onb[r, c]
            for k in range(3):
                s[k, r + 1, c + 1] = sides[k, r, c]
    if closed:  # a side of a void or off-map cell, on either side of it, is a wall
        for r in range(1, h + 1):
            push = ((r - 4) & 1) ^ parity
            for c in range(1, w + 1):
                here = v[r, c]
                s[0, r, c] |= here | v[r - 1, c + push]  # up-right
                s[1, r, c] |= here | v[r, c + 1]
                s[2, r, c] |= here | v[r + 1, c + push]  # down-right
    top = np.zeros((h, w), dtype=np.uint8)
    bottom = np.zeros((h, w), dtype=np.uint8)
    flags = np.zeros((3 * h + 2, 2 * w), dtype=np.uint8)
    for r in range(1, h + 1):
        push = ((r - 4) & 1) ^ parity
        left, right = push - 1, push  # the column steps to the up/down-left and -right cells
        for c in range(1, w + 1):
            t = (
                s[1, r - 1, c + left]
                | b[r - 1, c + right] << 1
                | s[0, r, c] << 2
                | b[r, c] << 3
                | s[2, r - 1, c + left] << 4
                | b[r - 1, c + left] << 5
            )
            u = (
                s[1, r + 1, c + left]
                | b[r + 1, c + right] << 1
                | s[2, r, c] << 2
                | b[r, c] << 3
                | s[0, r + 1, c + left] << 4
                | b[r + 1, c + left] << 5
            )
            top[r - 1, c - 1] = t
            bottom[r - 1, c - 1] = u
            x = push + 2 * (c - 1)
            flags[3 * (r - 1), x] = t
            flags[3 * (r - 1) + 4, x] = u
            flags[3 * (r - 1) + 2, x] = b[r, c] | (1 - v[r, c]) << 1
    return top, bottom, flags
