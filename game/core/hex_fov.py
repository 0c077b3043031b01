"""The field of view on hex boards: every cell one origin sees under a hex rule, exactly, by
shadow casting from the origin's centre or from each of its corners.

Pure: integers only (Python ints; numpy builds the per-board byte grid, never a verdict). It
answers :func:`game.core.hex_los.line` for every target at once, for every rule and override;
tests/test_hex_fov.py checks it against the exact walk and the reference. How (docs/hex.md, "The
field of view"):

* **Frames.** Around the source point the plane splits into six sextants, between consecutive
  neighbour directions ``n_k``, ``n_{k+1}`` (lattice ``(2,0), (1,3), (-1,3), (-2,0), (-1,-3),
  (1,-3)``). A point ``s + ((L - j)·n_k + j·n_{k+1})/3`` has *level* ``L`` (three times its hex
  distance, the hex norm) and *row* ``j``, ``0 <= j <= L``; centres and corners are exactly the
  integer ``(L, j)`` with ``L ≡ 2j`` (mod 3), from a centre and from a corner alike. A target is
  seen along the slope ``j/L``.
* **Blockers.** Everything that can block is an open slope interval or a single slope, with a
  *key*: it blocks the targets of its slopes whose level is at least the key. A wall edge, or an
  edge whose cell on the source's side blocks (the far edges of a blocking cell), holds the open
  interval between its ends' slopes from the level of its farther end plus one (checked for every
  source and target kind: no target of the interval lies at a level between its ends). A corner
  the line passes straight through holds its slope from its level plus one when the sector rule,
  ``touch``, or the blocking cell the line leaves through it (a blocking cell's far corner) says
  so. On the sextant's bisector (slope 1/2) lines run along hexsides: each run with its two
  corners is one unit, judged as the walk judges it, holding slope 1/2 from its far corner's
  level plus one. Blocking cells block by their far edges and far corners, so a cell never hides
  its own centre or corners.
* **Casting.** Level by level, the open slope intervals are cut by the blockers whose key is
  reached; the targets inside them are seen. Blockers are found at the corners in (and a few
  rows around) the open intervals, so the cost follows what the source sees.
* **Ends.** A centre target needs nothing more. A corner target is decided per cell around it
  by the end rule (the sector rule between the way the line arrives and the cell, the cell it
  arrives through unless that is the target, ``endpoint_touch``), or by its last run along a
  hexside. The origin and its six neighbours are decided by the exact walk.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.core.hex_board import HexBoard
from game.core.hex_corner import corner_rule, position, side_wedge
from game.core.hex_rules import HexProfile
from game.core.hexgrid import Cell

__all__ = ["SightGrid", "clear_caches", "field_cast", "sight_grid"]

#: the six neighbour directions of the pointy frame, in circular order
_N = ((2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3))
#: arm and wedge-centre offsets of a top corner (a bottom corner: y negated), by position // 2
_ARMS = ((0, -2), (1, 1), (-1, 1))
_WEDGES = ((1, -1), (0, 2), (-1, -1))
#: rows scanned on each side of an open interval to find the edges whose cone meets it (an edge
#: taken at its farther end reaches at most 2 rows past that end; docs/hex.md)
_WIDEN = 2
_WALLS = 0b010101
BLOCKS, ON_BOARD = 1, 2
def _frame_of(k: int, v: tuple[int, int]) -> tuple[int, int]:
    """The ``(level, row)`` of a lattice offset ``v`` in sextant ``k``'s frame (the inverse of
    ``v = ((level - row)·n_k + row·n_{k+1}) / 3``)."""
    nk, nk1 = _N[k], _N[(k + 1) % 6]
    det = nk[0] * nk1[1] - nk[1] * nk1[0]
    alpha3 = 3 * (nk1[1] * v[0] - nk1[0] * v[1])
    beta3 = 3 * (nk[0] * v[1] - nk[1] * v[0])
    return (alpha3 + beta3) // det, beta3 // det


#: per sextant, per corner kind (top: True): the frame deltas (level, row) of its three arms
_ARM_FRAMES: tuple[dict[bool, list[tuple[int, int]]], ...] = tuple(
    {top: [_frame_of(k, (x, y if top else -y)) for x, y in _ARMS] for top in (True, False)} for k in range(6)
)
#: per corner code: the arms that may block (a wall, or a blocking cell beside)
_CANDIDATE_ARMS = tuple(
    tuple(m for m in range(3) if code >> (2 * m) & 1 or code >> ((2 * m + 1) % 6) & 1 or code >> ((2 * m - 1) % 6) & 1)
    for code in range(64)
)


@dataclass(frozen=True)
class SightGrid:
    """One board under one rule and viewer, as a byte per lattice point of the pointy frame:
    at a centre bit 0 "the cell blocks" and bit 1 "on the board"; at a corner its code (bit ``p``
    for a closed position ``p``: a wall arm or a blocking wedge, :mod:`game.core.hex_corner`).
    Point ``(X, Y)`` is byte ``(Y - y0) * stride + X - x0``; the box reaches two cells past the map."""

    flags: bytes
    nz: bytes  # 1 at every corner whose code is not 0 (something there can block), else 0
    x0: int
    y0: int
    stride: int
    rows: int
    width: int  # pointy-frame columns and rows of the map
    height: int
    parity: int


_GRIDS: weakref.WeakKeyDictionary[HexBoard, dict[tuple[object, ...], SightGrid]] = weakref.WeakKeyDictionary()


def clear_caches() -> None:
    """Forget every per-board byte grid."""
    _GRIDS.clear()


def sight_grid(board: HexBoard, profile: HexProfile, viewer: str | None) -> SightGrid:
    """The (cached) :class:`SightGrid` of a board for a rule's obstacles and a viewer."""
    key = (profile.figures, profile.obstacles, profile.boundary, viewer)
    per_board = _GRIDS.setdefault(board, {})
    found = per_board.get(key)
    if found is None:
        if len(per_board) > 16:
            per_board.clear()
        found = per_board[key] = _build(board, profile, viewer)
    return found


def _blocking_cells(board: HexBoard, profile: HexProfile, viewer: str | None, wp: int, hp: int) -> tuple[np.ndarray, np.ndarray]:
    """Pointy-frame ``[row, column]`` arrays with a pad of 3: blocking cells and on-board cells."""
    grid = board.grid
    blk = np.ones((hp + 6, wp + 6), dtype=bool)
    onb = np.zeros((hp + 6, wp + 6), dtype=bool)
    inner = np.zeros((grid.height, grid.width), dtype=bool)  # [y, x] of the map: void or blocking
    void = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in board.void:
        void[y, x] = True
    inner |= void
    if profile.obstacles == "blocks":
        for x, y in board.blocked:
            inner[y, x] = True
    if profile.figures != "none":
        for (x, y), people in board.figures:
            if not grid.in_bounds((x, y)):
                continue
            if profile.figures == "any" or sum(viewer is None or f.side != viewer for f in people) >= board.capacity:
                inner[y, x] = True
    if not grid.pointy:
        inner, void = inner.T, void.T
    blk[3:-3, 3:-3] = inner
    onb[3:-3, 3:-3] = ~void
    return blk, onb


def _shift(a: np.ndarray, dx: int, dy: int, fill: int) -> np.ndarray:
    """``out[y, x] = a[y + dy, x + dx]``, ``fill`` where that falls outside."""
    h, w = a.shape
    out = np.full((h, w), fill, dtype=a.dtype)
    out[max(0, -dy): h - max(0, dy), max(0, -dx): w - max(0, dx)] = a[max(0, dy): h - max(0, -dy), max(0, dx): w - max(0, -dx)]
    return out


def _neighbour(a: np.ndarray, pushed: np.ndarray, dx: int, dy: int, fill: int) -> np.ndarray:
    """``a`` at every cell's neighbour ``(x + dx + pushed(y), y + dy)`` (pointy frame, ``dy = ±1``;
    ``pushed``: bool ``(rows, 1)``, alternating from row to row), ``fill`` where that is outside:
    two strided copies, one per kind of row."""
    h, w = a.shape
    out = np.full((h, w), fill, dtype=a.dtype)
    for first in (0, 1):
        shift = dx + int(pushed[first, 0])
        y0 = first if first + dy >= 0 else first + 2
        y1 = h if (h - 1) + dy < h else h - 1  # the last row whose neighbour row exists
        if y0 >= y1:
            continue
        xo, xi = slice(max(0, -shift), w - max(0, shift)), slice(max(0, shift), w - max(0, -shift))
        out[y0:y1:2, xo] = a[y0 + dy : y1 + dy : 2, xi]
    return out


def _build(board: HexBoard, profile: HexProfile, viewer: str | None) -> SightGrid:
    """The byte grid (:class:`SightGrid`) of a board: blocking cells and on-board cells, the walls
    for sight (with ``boundary = closed`` every edge touching a void or off-map cell), and every
    corner's code, vectorised over the cells (each corner is the top or the bottom corner of
    exactly one cell)."""
    grid = board.grid
    wp, hp = (grid.width, grid.height) if grid.pointy else (grid.height, grid.width)
    blk, onb = _blocking_cells(board, profile, viewer, wp, hp)
    h, w = blk.shape
    rows = np.arange(h) - 3
    pushed = (((rows & 1) ^ grid.parity) == 1)[:, None]
    sides = np.zeros((3, h, w), dtype=bool)
    col, row, side = board.sight_sides
    inside = (col >= -3) & (col < w - 3) & (row >= -3) & (row < h - 3)
    sides[side[inside], row[inside] + 3, col[inside] + 3] = True
    if profile.boundary == "closed":
        vo = ~onb
        sides[0] |= vo | _neighbour(vo, pushed, 0, -1, True)
        sides[1] |= vo | _shift(vo, 1, 0, True)
        sides[2] |= vo | _neighbour(vo, pushed, 0, 1, True)
    u8 = np.uint8
    b8, s8 = blk.view(u8), sides.view(u8)  # bools as 0/1 bytes, no copies
    top = _neighbour(s8[1], pushed, -1, -1, 0)
    top |= _neighbour(b8, pushed, 0, -1, 1) << 1
    top |= s8[0] << 2
    top |= b8 << 3
    top |= _neighbour(s8[2], pushed, -1, -1, 0) << 4
    top |= _neighbour(b8, pushed, -1, -1, 1) << 5
    bottom = _neighbour(s8[1], pushed, -1, 1, 0)
    bottom |= _neighbour(b8, pushed, 0, 1, 1) << 1
    bottom |= s8[2] << 2
    bottom |= b8 << 3
    bottom |= _neighbour(s8[0], pushed, -1, 1, 0) << 4
    bottom |= _neighbour(b8, pushed, -1, 1, 1) << 5
    # the lattice box: cell (column c, row r) of the padded arrays has its centre at byte row
    # 3r + 2, column 2c + pushed(r); its top corner 2 rows above, its bottom corner 2 below
    x0, y0 = -6, -11
    stride, nrows = 2 * w, 3 * h + 2
    flags = np.zeros((nrows, stride), dtype=u8)
    first = int(pushed[0, 0])  # the pushed rows are the odd or the even ones of the arrays
    for r0 in (0, 1):
        c0 = first ^ (r0 & 1)
        flags[3 * r0 : 3 * h : 6, c0::2] = top[r0::2]
        flags[3 * r0 + 4 : 3 * h + 4 : 6, c0::2] = bottom[r0::2]
    nz = flags != 0
    for r0 in (0, 1):
        c0 = first ^ (r0 & 1)
        flags[3 * r0 + 2 : 3 * h + 2 : 6, c0::2] = b8[r0::2] | onb[r0::2].view(u8) << 1
    return SightGrid(flags.tobytes(), nz.tobytes(), x0, y0, stride, nrows, wp, hp, grid.parity)


Interval = tuple[int, int, bool, int, int, bool]  # low p, q, included; high p, q, included
Piece = tuple[int, int, int, int]  # open (a/b .. c/d), or the single slope a/b when d == 0


def _cut(intervals: list[Interval], pieces: list[Piece]) -> list[Interval]:
    """The open slopes left once every piece (an open interval or a single slope) is removed.
    (Exact integer comparisons, inlined: this runs once per level with blockers.)"""
    for ap, aq, bp, bq in pieces:
        out: list[Interval] = []
        for iv in intervals:
            lp, lq, li, hp, hq, hi = iv
            if bq == 0:  # the single slope a
                low = ap * lq - lp * aq  # sign of a - l
                high = hp * aq - ap * hq  # sign of h - a
                if low < 0 or high < 0 or (low == 0 and not li) or (high == 0 and not hi):
                    out.append(iv)
                    continue
                if low > 0:
                    out.append((lp, lq, li, ap, aq, False))
                if high > 0:
                    out.append((ap, aq, False, hp, hq, hi))
                continue
            # the open interval (a, b): keep [l, min(h, a)] and [max(l, b), h]
            if ap * hq >= hp * aq or bp * lq <= lp * bq:
                out.append(iv)  # no overlap: a >= h or b <= l
                continue
            low = ap * lq - lp * aq
            if low > 0 or (low == 0 and li):
                out.append((lp, lq, li, ap, aq, True))
            high = hp * bq - bp * hq
            if high > 0 or (high == 0 and hi):
                out.append((bp, bq, True, hp, hq, hi))
        intervals = out
        if not intervals:
            break
    return intervals


def _inside(intervals: list[Interval], p: int, q: int) -> bool:
    """Whether the slope ``p/q`` lies in the open set."""
    for lp, lq, li, hp, hq, hi in intervals:
        low = p * lq - lp * q
        if low < 0 or (low == 0 and not li):
            continue
        high = hp * q - p * hq
        if high > 0 or (high == 0 and hi):
            return True
    return False


def _add_span(spans: list[list[int]], level: int, lp: int, lq: int, hp: int, hq: int) -> None:
    """Add the rows of a level searched for an open interval ``[lp/lq, hp/hq]`` (``_WIDEN`` rows
    on each side), merged with the last span when they overlap (intervals come in order)."""
    wlo, whi = (lp * level) // lq - _WIDEN, -((-hp * level) // hq) + _WIDEN
    if spans and wlo <= spans[-1][1]:
        if whi > spans[-1][1]:
            spans[-1][1] = whi
    else:
        spans.append([wlo, whi])


def _wedge_centre(g: tuple[int, int], p: int) -> tuple[int, int]:
    """The centre of the cell at odd position ``p`` of corner ``g`` (pointy frame)."""
    dx, dy = _WEDGES[p // 2]
    return (g[0] + dx, g[1] + (dy if g[1] % 3 == 1 else -dy))


@lru_cache(maxsize=8)
def _through_table(touch: str) -> tuple[bytes, ...]:
    """Per ``back * 6 + ahead``: 64 bytes, 1 where a corner with that code blocks a line passing
    straight through it from the wedge ``back`` (whose cell, if it blocks, the line leaves)."""
    out = []
    for back in range(6):
        for ahead in range(6):
            out.append(bytes(
                1 if back % 2 and (code >> back & 1 or corner_rule(code, back, ahead, touch, False) is not None) else 0
                for code in range(64)
            ))
    return tuple(out)


@lru_cache(maxsize=8)
def _end_table(touch: str, endpoint_touch: str) -> np.ndarray:
    """Per ``code * 6 + back``: bit ``q // 2`` set when a line ending at a corner with that code,
    arriving through the wedge ``back``, may end in the cell at position ``q`` (the end rule)."""
    out = np.zeros(64 * 6, dtype=np.uint8)
    for code in range(64):
        for back in (1, 3, 5):
            bits = 0
            for q in (1, 3, 5):
                if q != back and code >> back & 1:
                    continue
                if corner_rule(code & ~(1 << q), back, q, touch, True, endpoint_touch) is None:
                    bits |= 1 << (q // 2)
            out[code * 6 + back] = bits
    return out


class _Cast:
    """Shadow casting from one source point (pointy frame). ``vis`` marks (over the lattice box)
    every point seen; corners on the sextants' bisectors are judged here, as they are met, and
    marked in ``seen`` (over the pointy frame's cells), the other corners after the cast."""

    def __init__(
        self, sg: SightGrid, flags: bytearray, source: tuple[int, int], a_centre: tuple[int, int],
        profile: HexProfile, corners: bool, seen: bytearray,
    ) -> None:
        self.sg, self.flags, self.s, self.a = sg, flags, source, a_centre
        self.rule = profile
        self.touch, self.etouch = profile.touch, profile.endpoint_touch
        self.corners, self.seen = corners, seen
        self.vis = bytearray(len(flags))
        self.through = _through_table(profile.touch)
        self.statuses: dict[bool, list[bytes]] = {}
        self.k, self.nk, self.nk1, self.d = 0, _N[0], _N[1], (1, 1)
        self.ik = self.ik1 = self.step = self.gap = self.safe = 0
        self.arms = _ARM_FRAMES[0]
        self.done: set[tuple[int, int, int]] = set()
        self.pending: dict[int, list[Piece]] = {}
        self.units: dict[int, tuple[tuple[int, int], int, bool]] = {}
        self.ones = b"\x01" * (sg.stride + sg.rows + 64)
        self.marks: list[tuple[int, int, int]] = []  # (start, count, gap) of every strided mark
        #: marks are kept from a centre to centres only (the ring cast, which on a dense board sees
        #: little of a big box); a cast to corners passes over the box (its marks would be many)
        self.record = source == a_centre and not corners
        self.base = (source[1] - sg.y0) * sg.stride + source[0] - sg.x0
        box = [(x, y) for x in (-2, 2 * sg.width + 1) for y in (-3, 3 * sg.height)]
        self.top_level = max(
            max(abs(3 * (x - source[0]) - (y - source[1])), abs(2 * (y - source[1])), abs(3 * (x - source[0]) + (y - source[1])))
            for x, y in box
        ) // 2 + 4

    def flag(self, x: int, y: int) -> int:
        sg = self.sg
        cx, cy = x - sg.x0, y - sg.y0
        if 0 <= cx < sg.stride and 0 <= cy < sg.rows:
            return self.flags[cy * sg.stride + cx]
        return 0

    def mark(self, centre: tuple[int, int]) -> None:
        """Mark the cell of a lattice centre seen, when it is on the board."""
        if not self.flag(*centre) & ON_BOARD:
            return
        sg = self.sg
        row = centre[1] // 3
        self.seen[row * sg.width + (centre[0] - ((row & 1) ^ sg.parity)) // 2] = 1

    def end_at(self, g: tuple[int, int], back: int) -> None:
        """A corner target reached through the wedge at position ``back``: mark each cell around it
        that the end rule lets the line reach."""
        code = self.flag(*g)
        for q in (1, 3, 5):
            centre = _wedge_centre(g, q)
            if not self.flag(*centre) & ON_BOARD:
                continue
            if q != back and code >> back & 1:
                continue
            if corner_rule(code & ~(1 << q), back, q, self.touch, True, self.etouch) is None:
                self.mark(centre)

    def unit_blocked(
        self, g1: tuple[int, int], back1: int, g2: tuple[int, int], ahead2: int, d: tuple[int, int],
        from_source: bool, target: tuple[int, int] | None = None,
    ) -> bool:
        """A run along the hexside from corner ``g1`` to corner ``g2`` in direction ``d``, with its
        two corners: the line comes into ``g1`` from position ``back1`` and leaves ``g2`` at
        ``ahead2`` (``target``: ``g2`` is the line's end in the cell of that centre)."""
        top1, top2 = g1[1] % 3 == 1, g2[1] % 3 == 1
        p1, p2 = position(d, top1), position((-d[0], -d[1]), top2)
        code1, code2 = self.flag(*g1), self.flag(*g2)
        if target is not None:  # the target's cell never blocks: clear its bit at both corners
            code1 &= ~sum(1 << q for q in (1, 3, 5) if _wedge_centre(g1, q) == target)
            code2 &= ~sum(1 << q for q in (1, 3, 5) if _wedge_centre(g2, q) == target)
        rule = self.rule
        wall = code1 >> p1 & 1
        if wall and rule.along_wall == "blocks":
            return True
        beside = (code1 >> ((p1 + 1) % 6) & 1) + (code1 >> ((p1 - 1) % 6) & 1)
        if (self.touch == "blocks" and beside) or (self.touch == "both-sides" and beside == 2):
            return True
        if not from_source and code1 >> back1 & 1:
            return True
        end = target is not None
        if not wall:
            return (
                corner_rule(code1, back1, p1, self.touch, from_source, self.etouch) is not None
                or corner_rule(code2, p2, ahead2, self.touch, end, self.etouch) is not None
            )
        if corner_rule(code1, back1, p1, self.touch, from_source, self.etouch, back1, back1) is not None:
            return True
        if corner_rule(code2, p2, ahead2, self.touch, end, self.etouch, ahead2, ahead2) is not None:
            return True
        for side in (1, -1):
            s1, s2 = side_wedge(p1, d, side, top1), side_wedge(p2, d, side, top2)
            if corner_rule(code1 & _WALLS, back1, p1, "clear", False, "clear", back1, s1) is None and corner_rule(
                code2 & _WALLS, p2, ahead2, "clear", False, "clear", s2, ahead2
            ) is None:
                return False
        return True

    def end_of_run(self, unit: tuple[tuple[int, int], int, bool], g2: tuple[int, int], d: tuple[int, int]) -> None:
        """A corner target reached along a hexside: each cell around it, with the run judged for it."""
        g1, back1, from_source = unit
        for q in (1, 3, 5):
            centre = _wedge_centre(g2, q)
            if not self.flag(*centre) & ON_BOARD:
                continue
            if not self.unit_blocked(g1, back1, g2, q, d, from_source, centre):
                self.mark(centre)

    # --- one sextant ------------------------------------------------------------------------------

    def start(self, k: int) -> tuple[list[Interval], dict[int, list[Piece]], dict[int, tuple[tuple[int, int], int, bool]]]:
        """The open slopes of sextant ``k`` at the source, the blockers already known, and the run
        leaving the source (a corner) along the sextant's bisector, if any."""
        pending: dict[int, list[Piece]] = {}
        units: dict[int, tuple[tuple[int, int], int, bool]] = {}
        s, a = self.s, self.a
        if s == a:
            return [(0, 1, True, 1, 1, True)], pending, units
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        top = s[1] % 3 == 1
        code = self.flag(*s)
        home = position((a[0] - s[0], a[1] - s[1]), top)

        def allowed(d: tuple[int, int]) -> bool:
            return corner_rule(code, home, position(d, top), self.touch, True, self.etouch) is None

        ray = (nk[0] + nk1[0], nk[1] + nk1[1])
        if position(ray, top) % 2:  # the whole sextant leaves into one wedge
            return ([(0, 1, True, 1, 1, True)] if allowed(ray) else []), pending, units
        low, high = allowed(nk), allowed(nk1)
        iv: list[Interval] = [((0 if low else 1), (1 if low else 2), True, (1 if high else 1), (1 if high else 2), True)]
        g2 = (s[0] + ray[0] // 3, s[1] + ray[1] // 3)
        d = (ray[0] // 3, ray[1] // 3)
        back2 = position(d, g2[1] % 3 == 1)  # straight on past the run's far corner
        if self.unit_blocked(s, home, g2, back2, d, True):
            pending[3] = [(1, 2, 0, 0)]
        units[2] = (s, home, True)
        return iv, pending, units

    def on_ray(
        self, g: tuple[int, int], level: int, seen: bool, code: int, d: tuple[int, int],
        pending: dict[int, list[Piece]], units: dict[int, tuple[tuple[int, int], int, bool]],
    ) -> None:
        """A corner on the sextant's bisector (slope 1/2), where lines run along hexsides: the near
        corner of a run judges the run as one unit (a blocker of slope 1/2 past its far corner);
        the far corner, as a target, is reached along the run."""
        top = g[1] % 3 == 1
        ahead = position(d, top)
        sg = self.sg
        self.vis[(g[1] - sg.y0) * sg.stride + g[0] - sg.x0] = 0  # decided here, not after the cast
        if ahead % 2 == 0:  # a run starts here
            back = position((-d[0], -d[1]), top)
            if seen and self.corners:
                self.end_at(g, back)
            g2 = (g[0] + d[0], g[1] + d[1])
            if self.unit_blocked(g, back, g2, position(d, g2[1] % 3 == 1), d, False):
                pending.setdefault(level + 3, []).append((1, 2, 0, 0))
            units[level + 2] = (g, back, False)
        elif seen and self.corners and level in units:
            self.end_of_run(units[level], g, d)

    def edges(
        self, g: tuple[int, int], v: tuple[int, int], top: bool, code: int, level: int, j: int,
        arms: list[tuple[int, int]], done: set[tuple[int, int, int]], pending: dict[int, list[Piece]],
    ) -> None:
        """The edges at corner ``g`` (offset ``v`` from the source) that block: a wall, or an edge
        whose cell on the source's side blocks; each holds the open interval of its ends' slopes
        from its farther end's level plus one. An edge is taken at its farther end, or at its end
        inside the sextant when the other lies outside."""
        inside = 0 <= j <= level
        far_here = level if inside else max(level - j, j)
        for m in _CANDIDATE_ARMS[code]:
            dl, dj = arms[m]
            l2, j2 = level + dl, j + dj
            there_inside = 0 <= j2 <= l2
            far_there = l2 if there_inside else max(abs(l2), abs(l2 - j2), abs(j2))
            if (far_there > far_here or (far_there == far_here and (dl, dj) > (0, 0))) and not (inside and not there_inside):
                continue  # taken at its other end
            ax, ay = _ARMS[m][0], _ARMS[m][1] if top else -_ARMS[m][1]
            side = ay * v[0] - ax * v[1]  # cross(arm, source - g)
            if side == 0:
                continue  # on a line through the source: a run, judged on the bisector
            if not code >> (2 * m) & 1:
                q = (2 * m + 1) % 6
                wx, wy = _WEDGES[q // 2][0], _WEDGES[q // 2][1] if top else -_WEDGES[q // 2][1]
                if (ax * wy - ay * wx > 0) != (side > 0):
                    q = (2 * m - 1) % 6
                if not code >> q & 1:
                    continue
            edge = (g[0] + g[0] + ax, g[1] + g[1] + ay, m if top else 3 + m)  # its midpoint, doubled
            if edge in done:
                continue
            done.add(edge)
            if l2 > 0:
                piece = (j, level, j2, l2) if j * l2 < j2 * level else (j2, l2, j, level)
            elif level * j2 - j * l2 > 0:
                piece = (j, level, 2, 1)
            else:
                piece = (-1, 1, j, level)
            if piece[0] * piece[3] >= piece[2] * piece[1] or piece[2] <= 0 or piece[0] >= piece[1]:
                continue  # empty, or entirely below slope 0 or above slope 1
            pending.setdefault(max(far_here, far_there) + 1, []).append(piece)

    def _clamp(self, k: int, level: int, lo: int, hi: int) -> tuple[int, int]:
        """Rows ``lo..hi`` of a level cut to the points inside the lattice box."""
        sg = self.sg
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        for c, a_lo, a_hi in ((0, sg.x0 + 1, sg.x0 + sg.stride - 2), (1, sg.y0 + 1, sg.y0 + sg.rows - 2)):
            a = level * nk[c] + 3 * self.s[c]  # 3 * coordinate = a + j * b
            b = nk1[c] - nk[c]
            if b > 0:
                lo, hi = max(lo, -((a - 3 * a_lo) // b)), min(hi, (3 * a_hi - a) // b)
            elif b < 0:
                lo, hi = max(lo, -((3 * a_hi - a) // -b)), min(hi, (a - 3 * a_lo) // -b)
            elif not 3 * a_lo <= a <= 3 * a_hi:
                return 1, 0
        return lo, hi

    def _safe(self, k: int) -> int:
        """The last level whose rows ``-_WIDEN .. level + _WIDEN`` all lie inside the lattice box."""
        good, bad = 0, self.top_level + 1  # levels grow outwards from a source inside the box
        while bad - good > 1:
            mid = (good + bad) // 2
            if self._clamp(k, mid, -_WIDEN, mid + _WIDEN) == (-_WIDEN, mid + _WIDEN):
                good = mid
            else:
                bad = mid
        return good

    def sextant(self, k: int) -> None:
        """Cast through sextant ``k``. A level holds one kind of point (its level mod 3 says which):
        centres, only marked; corners, marked when they are targets and searched for blockers
        around the open slopes. From a centre to centres the three levels of a ring go together
        (blockers found at a ring's corners only matter to the next ring's centres)."""
        intervals, pending, units = self.start(k)
        self.frame(k, pending, units)
        if self.s == self.a and not self.corners:
            self._by_rings(intervals, pending)
        else:
            self._by_levels(k, intervals, pending)

    def frame(self, k: int, pending: dict[int, list[Piece]], units: dict[int, tuple[tuple[int, int], int, bool]]) -> None:
        """Set up sextant ``k``: its strides in the byte grid, its arms' frame deltas, the status
        tables of the corners passed straight through, the last level inside the box."""
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        stride = self.sg.stride
        self.k, self.nk, self.nk1 = k, nk, nk1
        self.d = ((nk[0] + nk1[0]) // 3, (nk[1] + nk1[1]) // 3)
        self.ik, self.ik1 = nk[1] * stride + nk[0], nk1[1] * stride + nk1[0]
        self.step = self.ik1 - self.ik
        self.gap = abs(self.step)
        self.arms = _ARM_FRAMES[k]
        self.done = set()
        self.pending, self.units = pending, units
        self.safe = self._safe(k)
        # a corner off the bisector is passed straight through from one wedge to another, the same
        # two for every corner of a kind in one half of the sextant: its status table
        self.statuses = {}
        for top in (True, False):
            halves = []
            for sample in (3, 9):  # slopes 1/4 and 3/4, at level 12
                v = ((12 - sample) * nk[0] + sample * nk1[0]) // 3, ((12 - sample) * nk[1] + sample * nk1[1]) // 3
                halves.append(self.through[position((-v[0], -v[1]), top) * 6 + position(v, top)])
            self.statuses[top] = halves

    def _by_levels(self, k: int, intervals: list[Interval], pending: dict[int, list[Piece]]) -> None:
        """The cast level by level: cut, mark the targets, search the corners for blockers."""
        nk, nk1 = self.nk, self.nk1
        kinds = []  # per level mod 3: (its rows' residue, corners?, marked?)
        for r in range(3):
            residue = (2 * r) % 3
            corners_here = (self.s[1] + ((r - residue) * nk[1] + residue * nk1[1]) // 3) % 3 != 0
            kinds.append((residue, corners_here, corners_here == self.corners))
        level = 0
        while intervals and level < self.top_level:
            level += 1
            residue, corners_here, mark = kinds[level % 3]
            if level in pending:
                if not (corners_here or mark):  # an idle level: cut at the next one
                    pending.setdefault(level + 1, []).extend(pending.pop(level))
                    continue
                intervals = _cut(intervals, pending.pop(level))
                if not intervals:
                    break
            elif not (corners_here or mark):
                continue
            if mark and corners_here:  # corner targets: one pass over the intervals for both
                spans: list[list[int]] = []
                self.mark_level(level, residue, intervals, spans)
                self.scan(level, residue, intervals, True, spans)
            elif mark:
                self.mark_level(level, residue, intervals)
            else:
                self.scan(level, residue, intervals, False)

    def _by_rings(self, intervals: list[Interval], pending: dict[int, list[Piece]]) -> None:
        """The cast ring by ring, from a centre to centres: cut once per ring, mark its centres,
        search its two levels of corners with the same open slopes (a superset is enough)."""
        level = 0  # a centre level; its two corner levels follow
        mark, scan, top_level = self.mark_level, self.scan, self.top_level
        while intervals and level < top_level:
            if level:
                cuts = pending.pop(level - 2, []) + pending.pop(level - 1, []) + pending.pop(level, [])
                if cuts:
                    intervals = _cut(intervals, cuts)
                    if not intervals:
                        break
                mark(level, 0, intervals)
            scan(level + 1, 2, intervals, False)
            scan(level + 2, 1, intervals, False)
            level += 3

    def mark_level(self, level: int, residue: int, intervals: list[Interval], spans: list[list[int]] | None = None) -> None:
        """Mark every point of a level inside the open slopes seen (strided slices of ``vis``);
        with ``spans``, also collect the rows :meth:`scan` searches (in the same pass)."""
        ik, ik1, step, gap, base = self.ik, self.ik1, self.step, self.gap, self.base
        vis, ones, marks = self.vis, self.ones, self.marks if self.record else None
        for lp, lq, li, hp, hq, hi in intervals:
            if spans is not None:
                _add_span(spans, level, lp, lq, hp, hq)
            num = lp * level
            jlo = -((-num) // lq) if li else num // lq + 1
            num = hp * level
            jhi = num // hq if hi else -((-num) // hq) - 1
            if jlo < 0:
                jlo = 0
            if jhi > level:
                jhi = level
            if level > self.safe:
                jlo, jhi = self._clamp(self.k, level, jlo, jhi)
            jlo += (residue - jlo) % 3
            jhi -= (jhi - residue) % 3
            if jlo <= jhi:
                count = (jhi - jlo) // 3 + 1
                start = base + ((level - jlo) * ik + jlo * ik1) // 3
                if step < 0:
                    start += (count - 1) * step
                vis[start : start + count * gap : gap] = ones[:count]
                if marks is not None:
                    marks.append((start, count, gap))

    def scan(
        self, level: int, residue: int, intervals: list[Interval], marked: bool, spans: list[list[int]] | None = None,
    ) -> None:
        """The corners of a level in (and ``_WIDEN`` rows around) the open slopes whose code is not
        0: their blockers. ``marked``: this level's open points are marked in ``vis`` already;
        ``spans``: the rows to search, when :meth:`mark_level` collected them."""
        if spans is None:
            spans = []
            for lp, lq, _, hp, hq, _ in intervals:
                _add_span(spans, level, lp, lq, hp, hq)
        if level % 2 == 0 and _inside(intervals, 1, 2):
            self.ray_point(self.k, level, self.d, self.pending, self.units)
        ik, ik1, step, gap, base = self.ik, self.ik1, self.step, self.gap, self.base
        vis, nz, flags = self.vis, self.sg.nz, self.flags
        sx, sy, x0, y0, stride = self.s[0], self.s[1], self.sg.x0, self.sg.y0, self.sg.stride
        statuses, edges, arms, done, pending = self.statuses, self.edges, self.arms, self.done, self.pending
        for wlo, whi in spans:
            if wlo < -_WIDEN:
                wlo = -_WIDEN
            if whi > level + _WIDEN:
                whi = level + _WIDEN
            if level > self.safe:
                wlo, whi = self._clamp(self.k, level, wlo, whi)
            wlo += (residue - wlo) % 3
            whi -= (whi - residue) % 3
            if wlo > whi:
                continue
            count = (whi - wlo) // 3 + 1
            start = base + ((level - wlo) * ik + wlo * ik1) // 3
            if step < 0:
                start += (count - 1) * step
            row = nz[start : start + count * gap : gap]
            pos = row.find(1)
            while pos >= 0:
                at = start + pos * gap
                j = (3 * (at - base) - level * ik) // step
                code = flags[at]
                g = (at % stride + x0, at // stride + y0)
                top = g[1] % 3 == 1
                # off the bisector, a corner passed straight through whose slope is open blocks it
                if 2 * j != level and 0 <= j <= level and statuses[top][2 * j > level][code] and (
                    vis[at] if marked else _inside(intervals, j, level)
                ):
                    pending.setdefault(level + 1, []).append((j, level, 0, 0))
                edges(g, (g[0] - sx, g[1] - sy), top, code, level, j, arms[top], done, pending)
                pos = row.find(1, pos + 1)

    def ray_point(
        self, k: int, level: int, d: tuple[int, int], pending: dict[int, list[Piece]],
        units: dict[int, tuple[tuple[int, int], int, bool]],
    ) -> None:
        """The point of the bisector at an even level, while the bisector is open."""
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        j = level // 2
        g = (self.s[0] + ((level - j) * nk[0] + j * nk1[0]) // 3, self.s[1] + ((level - j) * nk[1] + j * nk1[1]) // 3)
        sg = self.sg
        x, y = g[0] - sg.x0, g[1] - sg.y0
        if g[1] % 3 and 0 <= x < sg.stride and 0 <= y < sg.rows:
            self.on_ray(g, level, True, self.flag(*g), d, pending, units)

    def finish(self) -> None:
        """Mark the cells of the centres seen and, for corner targets, the cells the end rule lets
        each corner seen reach (vectorised; the bisectors' corners were judged during the cast)."""
        sg = self.sg
        seen_at = self.seen_points()
        if not seen_at.size:
            return
        xs = seen_at % sg.stride + sg.x0
        ys = seen_at // sg.stride + sg.y0
        flags = np.frombuffer(self.flags, dtype=np.uint8)
        kind = ys % 3
        if not self.corners:
            keep = kind == 0
            self._mark_all(xs[keep], ys[keep], flags)
            return
        keep = kind != 0
        xs, ys, at = xs[keep], ys[keep], seen_at[keep]
        flip = np.where(ys % 3 == 1, 1, -1)
        dx, dy = self.s[0] - xs, (self.s[1] - ys) * flip
        back = np.where(dy > np.abs(dx), 3, np.where(dx > 0, 1, 5))
        allowed = _end_table(self.touch, self.etouch)[flags[at].astype(np.int64) * 6 + back]
        for bit, (wx, wy) in enumerate(_WEDGES):
            chosen = (allowed >> bit & 1).astype(bool)
            self._mark_all(xs[chosen] + wx, ys[chosen] + wy * flip[chosen], flags)

    def seen_points(self) -> np.ndarray:
        """The byte offsets of the points marked in ``vis`` (some twice): from the strided marks
        when there are few (a cast that saw little), else by a pass over the whole box."""
        vis = np.frombuffer(self.vis, dtype=np.uint8)
        if not self.record or len(self.marks) > len(self.vis) >> 8:
            return np.flatnonzero(vis)
        if not self.marks:
            return np.zeros(0, dtype=np.int64)
        m = np.array(self.marks, dtype=np.int64)
        counts = m[:, 1]
        skip = np.repeat(np.cumsum(counts) - counts, counts)
        at: np.ndarray = np.repeat(m[:, 0], counts) + (np.arange(int(counts.sum())) - skip) * np.repeat(m[:, 2], counts)
        kept: np.ndarray = at[vis[at] != 0]
        return kept  # points on the bisectors were decided during the cast

    def _mark_all(self, xs: np.ndarray, ys: np.ndarray, flags: np.ndarray) -> None:
        """Mark the cells of lattice centres (only those on the board)."""
        sg = self.sg
        on = (flags[(ys - sg.y0) * sg.stride + xs - sg.x0] & ON_BOARD).astype(bool)
        xs, ys = xs[on], ys[on]
        rows = ys // 3
        cols = (xs - ((rows & 1) ^ sg.parity)) // 2
        seen = np.frombuffer(self.seen, dtype=np.uint8)
        seen[rows * sg.width + cols] = 1


def field_cast(board: HexBoard, a: Cell, profile: HexProfile, viewer: str | None = None) -> np.ndarray:
    """Every cell visible from ``a`` by shadow casting: bool ``(height, width)``, ``[y, x]``. The
    origin, and from corners its six neighbours, are not decided here (the caller walks them)."""
    grid = board.grid
    sg = sight_grid(board, profile, viewer)
    flags = bytearray(sg.flags)
    ac = grid.pointy_frame(grid.centre(a))
    corners = [(ac[0] + x, ac[1] + y) for x, y in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))]
    for g in corners:  # the origin's own cell never blocks
        p = position((ac[0] - g[0], ac[1] - g[1]), g[1] % 3 == 1)
        flags[(g[1] - sg.y0) * sg.stride + g[0] - sg.x0] &= ~(1 << p) & 0xFF
    seen = bytearray(sg.width * sg.height)
    for s in [ac] if profile.from_ == "centre" else corners:
        cast = _Cast(sg, flags, s, ac, profile, profile.to == "corners", seen)
        for k in range(6):
            cast.sextant(k)
        cast.finish()
    mask = np.frombuffer(bytes(seen), dtype=np.uint8).reshape(sg.height, sg.width).astype(bool)
    return mask if grid.pointy else mask.T
