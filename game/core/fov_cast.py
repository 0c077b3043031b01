"""The recursive shadow caster: one origin's field of view at a cost that follows what it sees.

Pure: integers only (Python ints, exact rational slopes as numerator/denominator pairs; no
floats, no numpy in any decision). It answers the rule of :mod:`game.core.los` for every target of
one origin, like the octant engine of :mod:`game.core.fov`, but instead of painting every blocker
of the board it walks outward column by column and keeps only the slope intervals that are still
open, so it touches the squares it sees and the rim of their shadows — nothing behind the first
blocker. On a dense board that is a small part of the board; on an open board it is most of it,
and the caller stops it at a budget of visited squares and uses the octant engine instead
(:func:`game.core.los.visible_from` does: the cost is the smaller of the two, plus the budget).

The frame is the one of :mod:`game.core.fov`: in octant 0 (``0 <= dy <= dx``) the target
``(d, j)`` (column ``d >= 1``, row ``0 <= j <= d``) is seen along the slope ``j/d`` iff no blocker
of a column ``< d`` holds that slope; a blocking square ``(c, m)`` holds the open interval
``((2m-1)/(2c+1), (2m+1)/(2c-1))``, the edge on ``x = c + 1/2`` at row ``m`` (*across*) holds
``((2m-1)/(2c+1), (2m+1)/(2c+1))``, the edge on ``y = m + 1/2`` inside column ``c`` (*along*,
``m < c``) holds ``((2m+1)/(2c+1), (2m+1)/(2c-1))`` and a corner ``(c + 1/2, m + 1/2)`` whose two
sides are closed holds the single slope ``(2m+1)/(2c+1)``. Every blocker of row ``m`` lies inside
the square's interval, and their starts never decrease with ``m``, so one sweep over the rows a
still-open interval spans cuts it into what stays open for the next column: closed intervals,
with an end left out where a corner point cut it.

The board comes as one padded byte grid (:func:`flag_grid`): a ring of blocking squares around
it, and per square bit 1 "blocks sight", bit 2 "its east edge blocks", bit 4 "its south edge
blocks". An octant is then a base index and two strides, so every lookup is one index.

>>> import numpy as np
>>> cells = np.zeros((3, 3), dtype=bool); cells[1, 1] = True
>>> flags, near = flag_grid(cells, np.zeros((3, 4), bool), np.zeros((4, 3), bool))
>>> cast(flags, near, 3, 3, (0, 0), 1000).astype(int)
array([[1, 1, 1],
       [1, 1, 0],
       [1, 0, 0]])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["SQUARE", "EAST", "SOUTH", "CORNER_SE", "CORNER_SW", "cast", "flag_grid"]

#: bits of a square's flag byte: it blocks; its east edge blocks; its south edge blocks; its
#: south-east grid corner blocks a ray going south-east or north-west; one going south-west or
#: north-east (both sides of the corner closed, the corner rule of :mod:`game.core.los`)
SQUARE, EAST, SOUTH, CORNER_SE, CORNER_SW = 1, 2, 4, 8, 16

#: the 8 octants: (sign of x, sign of y, primary axis is y), the order of :mod:`game.core.fov`
_OCTANTS = tuple((sx, sy, swap) for swap in (False, True) for sy in (1, -1) for sx in (1, -1))

#: an open slope interval: low p, low q, low included, high p, high q, high included (q > 0)
_Interval = tuple[int, int, bool, int, int, bool]


def flag_grid(cells: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray) -> tuple[bytes, bytes]:
    """The padded byte grid of a board: ``(H + 2) × (W + 2)`` bytes, row by row, square ``(x, y)``
    at ``(y + 1) * (W + 2) + x + 1``; the ring around the board blocks. And beside it the *near*
    grid: byte 1 where the square or its west, north or north-west neighbour has any flag (every
    blocker of a row the sweep looks at is held by one of those four), 0 elsewhere, so the
    sweep skips open rows with ``bytes.find``.

    ``cells``: blocking squares ``[y, x]`` (H, W); ``vertical``: sight-blocking edges ``V(x, y)``
    as ``[y, x]`` (H, W+1); ``horizontal``: ``H(x, y)`` as ``[y, x]`` (H+1, W).
    """
    h, w = cells.shape
    grid = np.full((h + 2, w + 2), SQUARE, dtype=np.uint8)
    grid[1:-1, 1:-1] = cells
    grid[1:-1, : w + 1] |= vertical.view(np.uint8) << 1  # V(x, y) is the east edge of (x-1, y): EAST
    grid[: h + 1, 1:-1] |= horizontal.view(np.uint8) << 2  # H(x, y): the south edge of (x, y-1): SOUTH
    # the south-east corner of square s: its four squares s, e (east), so (south), se, and the
    # four edges meeting there: s's east and south edges, e's south edge, so's east edge
    here = grid[: h + 1, : w + 1]
    east = grid[: h + 1, 1:]
    south = grid[1:, : w + 1]
    south_east = grid[1:, 1:]
    # a ray going south-east passes between e (north-east of the corner) and so (south-west):
    # e is closed by itself (bit 1), s's east edge (bit 2 of s) or its own south edge (bit 4)
    ne_side = (east & (SQUARE | SOUTH)) | (here & EAST)
    sw_side = (south & (SQUARE | EAST)) | (here & SOUTH)
    # a ray going south-west passes between s (north-west) and se (south-east)
    nw_side = here & (SQUARE | EAST | SOUTH)
    se_side = (south_east & SQUARE) | (east & SOUTH) | (south & EAST)
    corner_se = (ne_side != 0) & (sw_side != 0)
    corner_sw = (nw_side != 0) & (se_side != 0)
    here |= corner_se.view(np.uint8) << 3  # CORNER_SE
    here |= corner_sw.view(np.uint8) << 4  # CORNER_SW
    near = grid != 0
    near[1:, :] |= near[:-1, :].copy()
    near[:, 1:] |= near[:, :-1].copy()
    return grid.tobytes(), near.tobytes()


def patch_flag_grid(
    flags: tuple[bytes, bytes], cells: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray, rows: list[int]
) -> tuple[bytes, bytes]:
    """:func:`flag_grid` of ``cells`` from the grids of an earlier ``cells`` that differs only in
    the board rows ``rows`` (the same edges): a figure moved. Each changed row rewrites the bytes
    it reaches — its own row and the one above (corner bits), the near grid one row further —
    from :func:`flag_grid` of the five board rows around it (rows past the board's edge are the
    real ring), so the answer is the same bytes a full build gives."""
    h, w = cells.shape
    grid = np.frombuffer(flags[0], dtype=np.uint8).reshape(h + 2, w + 2).copy()
    near = np.frombuffer(flags[1], dtype=bool).reshape(h + 2, w + 2).copy()
    for y in sorted(set(rows)):
        y0, y1 = max(y - 2, 0), min(y + 2, h - 1)  # the board rows of the window
        part, part_near = flag_grid(cells[y0 : y1 + 1], vertical[y0 : y1 + 1], horizontal[y0 : y1 + 2])
        part_grid = np.frombuffer(part, dtype=np.uint8).reshape(y1 - y0 + 3, w + 2)
        near_grid = np.frombuffer(part_near, dtype=bool).reshape(y1 - y0 + 3, w + 2)
        top, bottom = max(y, 0), y + 1  # padded rows y (the row above) and y + 1 (the square's own)
        grid[top : bottom + 1] = part_grid[top - y0 : bottom + 1 - y0]
        low, high = y, min(y + 2, h + 1)  # near: padded rows y .. y + 2
        near[low : high + 1] = near_grid[low - y0 : high + 1 - y0]
    return grid.tobytes(), near.tobytes()


class _Frame(NamedTuple):
    """One octant laid on the padded byte grid: ``step_d`` / ``step_j`` move one column / one row
    (in the octant's own axes), ``far_d`` / ``far_j`` are the last column and row inside the
    board; ``pbit`` is the flag of the edge *across* the primary axis (``pa``: the offset of the
    square that holds it), ``sbit`` of the edge *along* it (``sa``), ``cbit`` of the corner that
    blocks this octant's direction (``pc``: the offset of the square whose south-east corner it
    is, for the corner ``(d + 1/2, m + 1/2)``)."""

    step_d: int
    step_j: int
    far_d: int
    far_j: int
    pbit: int
    sbit: int
    pa: int
    sa: int
    pc: int
    cbit: int

    def cut(self) -> _Cut:
        """What :func:`_sweep` reads of the frame, as one plain tuple (unpacked at once)."""
        return self.step_j, self.pa, self.pbit, self.pc, self.cbit, self.sa, self.sbit


#: :meth:`_Frame.cut`: step_j, pa, pbit, pc, cbit, sa, sbit
_Cut = tuple[int, int, int, int, int, int, int]


def _frame(sx: int, sy: int, swap: bool, origin: tuple[int, int], width: int, height: int) -> _Frame:
    """The :class:`_Frame` of octant ``(sx, sy, swap)`` seen from ``origin``."""
    stride = width + 2
    ox, oy = origin
    if swap:
        step_d, step_j = sy * stride, sx
        far_d = height - 1 - oy if sy > 0 else oy
        far_j = width - 1 - ox if sx > 0 else ox
        pbit, sbit = SOUTH, EAST
    else:
        step_d, step_j = sx, sy * stride
        far_d = width - 1 - ox if sx > 0 else ox
        far_j = height - 1 - oy if sy > 0 else oy
        pbit, sbit = EAST, SOUTH
    pa = 0 if step_d > 0 else step_d  # the edge toward column d+1 belongs to that square
    sa = 0 if step_j > 0 else step_j
    cbit = CORNER_SE if sx * sy > 0 else CORNER_SW
    return _Frame(step_d, step_j, far_d, far_j, pbit, sbit, pa, sa, pa + sa, cbit)


def _start(flags: bytes, base: int, f: _Frame) -> list[_Interval]:
    """The slopes open at column 0: the across edge beside the origin holds (-1, 1), its corner
    the slope 1."""
    corner0 = not flags[base + f.pc] & f.cbit
    if flags[base + f.pa] & f.pbit:
        return [(1, 1, True, 1, 1, True)] if corner0 else []
    return [(0, 1, True, 1, 1, corner0)]


def cast(
    flags: bytes, near: bytes, width: int, height: int, origin: tuple[int, int], budget: int
) -> np.ndarray | None:
    """Every square seen from ``origin``: bool ``(height, width)`` ``[y, x]``, the origin included
    (blocking squares come out seen or not by the same rule; callers mask void out), or None when
    the walk would visit more than ``budget`` squares (the caller then uses the octant engine).

    ``flags`` and ``near`` are the :func:`flag_grid` of the board. The budget counts, in units
    of about the same cost, every (interval, column) step, every row with something that may
    block, and the squares marked seen by sixteens (one slice assignment marks a column's run).
    """
    seen = bytearray(len(flags))
    base = (origin[1] + 1) * (width + 2) + origin[0] + 1
    seen[base] = 1
    ones = b"\x01" * (max(width, height) + 1)
    left = budget
    for sx, sy, swap in _OCTANTS:
        f = _frame(sx, sy, swap, origin, width, height)
        if f.far_d >= 1:
            left = _cast_octant(flags, near, seen, base, f, _start(flags, base, f), left, ones)
            if left < 0:
                return None
    grid = np.frombuffer(bytes(seen), dtype=np.uint8).reshape(height + 2, width + 2)
    return grid[1:-1, 1:-1].astype(bool)


def _cast_octant(
    flags: bytes, near: bytes, seen: bytearray, base: int, f: _Frame, intervals: list[_Interval],
    left: int, ones: bytes,
) -> int:
    """Walk one octant outward column by column from the open ``intervals``: mark the targets
    each holds in ``seen``, then cut it by the rows it spans (:func:`_sweep`); returns the budget
    left (negative: the walk gave up)."""
    step_d, step_j, far_d, far_j = f.step_d, f.step_j, f.far_d, f.far_j
    cut = f.cut()
    d = 0
    while intervals:
        d += 1
        col = base + d * step_d
        d1, d0 = 2 * d + 1, 2 * d - 1
        last = d == far_d
        nxt: list[_Interval] = []
        for iv in intervals:
            lp, lq, li, hp, hq, hi = iv
            # the targets of column d inside [lo, hi]
            num = lp * d
            jlo = -((-num) // lq) if li else num // lq + 1
            num = hp * d
            jhi = num // hq if hi else -((-num) // hq) - 1
            if jhi > far_j:
                jhi = far_j
            if jlo <= jhi:
                count = jhi - jlo + 1
                left -= count >> 4  # one slice assignment: cheap per square
                first = col + jlo * step_j
                if step_j > 0:
                    seen[first : first + count * step_j : step_j] = ones[:count]
                else:
                    end = first + (count - 1) * step_j
                    seen[end : first + 1 : -step_j] = ones[:count]
            if last:
                continue
            # the rows whose square interval meets [lo, hi]
            ma = (lp * d0 - lq) // (2 * lq) + 1
            mb = -((-(hp * d1 + hq)) // (2 * hq)) - 1
            if ma < 0:
                ma = 0
            if mb > d:
                mb = d
            if mb > far_j + 1:
                mb = far_j + 1
            left -= 1
            if step_j > 0:
                row = near[col + ma * step_j : col + mb * step_j + 1 : step_j]
            else:
                row = near[col + mb * step_j : col + ma * step_j + 1 : -step_j][::-1]
            if 1 not in row:  # nothing in these rows can block: the interval stays open
                nxt.append(iv)
            else:
                left -= _sweep(flags, row, col, ma, d, cut, iv, nxt)
        if left < 0:
            return left
        # keep what can still reach a target: slopes <= far_j / (d + 1)
        intervals = [iv for iv in nxt if iv[0] * (d + 1) <= far_j * iv[1]]
    return left


def _sweep(
    flags: bytes, row: bytes, col: int, ma: int, d: int, cut: _Cut, iv: _Interval, nxt: list[_Interval]
) -> int:
    """Cut the open interval ``iv`` of column ``d`` by the blockers of its rows (``row``: the
    *near* bytes of rows ``ma..``) and append what stays open to ``nxt``; returns the cost (the
    rows looked at).

    A row's blockers are open slope intervals ``(a, b)`` — its square, the edge across the
    primary axis, the edge along it — or a single slope, its corner. Every blocker of a row lies
    inside that row's square interval and their starts never decrease, so one pass suffices:
    ``(cp/cq, c_in)`` is where the part still to decide starts; ``cut`` is the octant's
    :meth:`_Frame.cut`."""
    step_j, pa, pbit, pc, cbit, sa, sbit = cut
    cp, cq, c_in, hp, hq, hi = iv
    d1 = 2 * d + 1
    d0 = d1 - 2
    cost = 0
    pos = row.find(1)  # the rows that may block, found in C
    while pos >= 0:
        cost += 1
        m = ma + pos
        at = col + m * step_j
        pieces: list[tuple[int, int, int, int]]  # open (a, b), or a point when bq == 0
        if flags[at] & SQUARE:
            pieces = [(2 * m - 1, d1, 2 * m + 1, d0)]
        else:
            pieces = []
            if flags[at + pa] & pbit:  # across
                pieces.append((2 * m - 1, d1, 2 * m + 1, d1))
            if flags[at + pc] & cbit:  # the corner
                pieces.append((2 * m + 1, d1, 0, 0))
            if m < d and flags[at + sa] & sbit:  # along
                pieces.append((2 * m + 1, d1, 2 * m + 1, d0))
        stop = False
        for ap, aq, bp, bq in pieces:
            # a piece starting past hi (or at hi, open) ends the sweep
            if hp * aq < ap * hq or (not hi and ap * hq == hp * aq):
                stop = True
                break
            if bq == 0:  # a point
                s = ap * cq - cp * aq
                if s == 0:
                    c_in = False
                elif s > 0:
                    nxt.append((cp, cq, c_in, ap, aq, False))
                    cp, cq, c_in = ap, aq, False
                continue
            if bp * cq <= cp * bq:  # ends before the open part starts
                continue
            s = ap * cq - cp * aq
            if s > 0 or (s == 0 and c_in):
                if ap * hq < hp * aq:
                    nxt.append((cp, cq, c_in, ap, aq, True))
                else:  # the gap reaches hi: ap == hp (hi included, checked above)
                    nxt.append((cp, cq, c_in, hp, hq, hi))
            cp, cq, c_in = bp, bq, True
            if cp * hq > hp * cq or (cp * hq == hp * cq and not hi):
                return cost  # nothing of [lo, hi] is left after this piece
        if stop:
            break
        pos = row.find(1, pos + 1)
    # what is left from (cp/cq, c_in) on stays open
    s = cp * hq - hp * cq
    if s < 0 or (s == 0 and c_in and hi):
        nxt.append((cp, cq, c_in, hp, hq, hi))
    return cost
