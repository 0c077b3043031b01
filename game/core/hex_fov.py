"""The field of view on hex boards: every cell one origin sees under a hex rule, exactly, by
shadow casting from the origin's centre or from each of its corners, done as one paint.

Pure: integers only (Python ints and numpy integer arrays; no float in any decision). It answers
:func:`game.core.hex_los.line` for every target at once, for every rule and override;
tests/test_hex_fov.py and tests/test_hex_paint.py check it against the exact walk and the
reference. How (docs/hex.md, "The
field of view"):

* **Frames.** Around the source point the plane splits into six sextants, between consecutive
  neighbour directions ``n_k``, ``n_{k+1}`` (lattice ``(2,0), (1,3), (-1,3), (-2,0), (-1,-3),
  (1,-3)``). A point ``s + ((L - j)·n_k + j·n_{k+1})/3`` has *level* ``L`` (three times its hex
  distance, the hex norm) and *row* ``j``, ``0 <= j < L`` (half-open: each point in one frame);
  centres and corners are exactly the integer ``(L, j)`` with ``L ≡ 2j`` (mod 3), from a centre
  and from a corner alike. A target is seen along the slope ``j/L``.
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
* **Painting.** Every blocker of every frame of the source (6 from a centre, 36 from the six
  corners) is placed and painted at once, the smallest key per slope (:mod:`game.core.hex_paint`
  and its compiled loops); every target reads its slope: seen iff that key is above its
  level. The bisectors are walked while open (their runs lower their key), corner sources'
  sextant starts are intervals of key 0. This covers every rule and override.
* **Ends.** A centre target needs nothing more. A corner target is decided per cell around it
  by the end rule (the sector rule between the way the line arrives and the cell, the cell it
  arrives through unless that is the target, ``endpoint_touch``), or by its last run along a
  hexside. The origin and its six neighbours are decided by the exact walk.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from game.core.hex_board import HexBoard
from game.core.hex_corner import WEDGES, corner_rule, position, side_wedge
from game.core.hex_paint import Blockers, Painted, box_top, paint, read, slope_tables
from game.core.hex_rules import HexProfile
from game.core.hexgrid import Cell

__all__ = ["NEIGHBOURS", "ON_BOARD", "Origin", "PaintPoints", "SightGrid", "SourceCast", "clear_caches", "origin", "paint_field", "sight_grid", "status_table"]

#: the six neighbour directions of the pointy frame, in circular order
NEIGHBOURS = _N = ((2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3))
_WALLS = 0b010101
BLOCKS, ON_BOARD = 1, 2


@dataclass(frozen=True)
class SightGrid:
    """One board under one rule and viewer, as a byte per lattice point of the pointy frame:
    at a centre bit 0 "the cell blocks" and bit 1 "on the board"; at a corner its code (bit ``p``
    for a closed position ``p``: a wall arm or a blocking wedge, :mod:`game.core.hex_corner`).
    Point ``(X, Y)`` is byte ``(Y - y0) * stride + X - x0``; the box reaches two cells past the map.
    The paint's lists of points (:attr:`points`) are made when first read: the lazy caster
    (:mod:`game.core.hex_cast`) reads the bytes only."""

    flags: bytes
    x0: int
    y0: int
    stride: int
    rows: int
    width: int  # pointy-frame columns and rows of the map
    height: int
    parity: int
    whole: bool  # no void cell: the centres and corner targets are the size's own (cached)
    codes: tuple[np.ndarray, np.ndarray] = field(repr=False, compare=False)  # top, bottom corner codes per padded cell
    onb: np.ndarray = field(repr=False, compare=False)  # padded cells on the board
    first: int = 0  # whether the padded arrays' first row is pushed

    @cached_property
    def points(self) -> PaintPoints:
        """The paint's lists of points (:class:`PaintPoints`), made when first read."""
        top, bottom = self.codes
        h, w = top.shape
        box = _cell_points(h, w, self.first)
        tops, bottoms = np.flatnonzero(top != 0), np.flatnonzero(bottom != 0) + h * w
        coded = np.concatenate((tops, bottoms))
        coded_top = np.zeros(coded.size, dtype=np.uint8)
        coded_top[: tops.size] = 1
        centres = _full_centres(h, w, self.first) if self.whole else _centres(self.onb, box)
        return PaintPoints(box.take(coded), coded_top, centres)


class PaintPoints(NamedTuple):
    """What the paint reads of a :class:`SightGrid` besides its bytes: the corners that may block
    (top corners first) and the on-board centres, as byte offsets, listed through per-size tables
    of each cell's points (no search through the whole box)."""

    coded: np.ndarray  # the byte offsets of the corners whose code is not 0 (they may block)
    coded_top: np.ndarray  # uint8: 1 for the top corners among them
    centres: np.ndarray  # the byte offsets of the on-board centres


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
    _set_cells(void, board.void)
    inner |= void
    if profile.obstacles == "blocks":
        _set_cells(inner, board.blocked)
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


def _set_cells(a: np.ndarray, cells: frozenset[Cell]) -> None:
    """Set ``a[y, x]`` for every cell ``(x, y)`` of a set (cells of the map: no bounds check)."""
    if cells:
        xy = np.fromiter(itertools.chain.from_iterable(cells), dtype=np.intp, count=2 * len(cells))
        a[xy[1::2], xy[0::2]] = True


def _build(board: HexBoard, profile: HexProfile, viewer: str | None) -> SightGrid:
    """The byte grid (:class:`SightGrid`) of a board: blocking cells and on-board cells, the walls
    for sight (with ``boundary = closed`` every edge touching a void or off-map cell), and every
    corner's code, per cell (each corner is the top or the bottom corner of exactly one cell:
    :func:`game.core.hex_kernel.grid_bytes`)."""
    from game.core import hex_kernel  # numba: loaded by the first field only

    grid = board.grid
    wp, hp = (grid.width, grid.height) if grid.pointy else (grid.height, grid.width)
    blk, onb = _blocking_cells(board, profile, viewer, wp, hp)
    h, w = blk.shape
    sides = np.zeros((3, h, w), dtype=np.uint8)
    col, row, side = board.sight_sides
    inside = (col >= -3) & (col < w - 3) & (row >= -3) & (row < h - 3)
    sides[side[inside], row[inside] + 3, col[inside] + 3] = 1
    top, bottom, flags = hex_kernel.grid_bytes(blk.view(np.uint8), onb.view(np.uint8), sides, grid.parity, profile.boundary == "closed")
    # the lattice box: cell (column c, row r) of the padded arrays has its centre at byte row
    # 3r + 2, column 2c + pushed(r); its top corner 2 rows above, its bottom corner 2 below
    x0, y0 = -6, -11
    stride, nrows = 2 * w, 3 * h + 2
    first = ((0 - 3) & 1) ^ grid.parity  # whether the arrays' first row is pushed
    return SightGrid(
        flags.tobytes(), x0, y0, stride, nrows, wp, hp, grid.parity, not board.void, (top, bottom), onb, first,
    )


@lru_cache(maxsize=8)
def _cell_points(h: int, w: int, first: int) -> np.ndarray:
    """Per padded cell ``r * w + c`` of an ``h`` × ``w`` board (pointy frame, pad included): the
    byte offset in the lattice box of its top corner, then (from ``h * w`` on) of its bottom
    corner, then (from ``2 * h * w``) of its centre."""
    r = np.arange(h, dtype=np.int64)[:, None]
    c = 2 * np.arange(w, dtype=np.int64)[None, :] + (first ^ (r & 1))
    rows = np.concatenate([np.broadcast_to(3 * r + dy, (h, w)).ravel() for dy in (0, 4, 2)])
    cols = np.concatenate([c.ravel()] * 3)
    found: np.ndarray = rows * (2 * w) + cols
    return found


def _centres(onb: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The on-board centres as byte offsets (:func:`_cell_points`)."""
    h, w = onb.shape
    found: np.ndarray = box.take(np.flatnonzero(onb) + 2 * h * w)
    return found


@lru_cache(maxsize=8)
def _full_centres(h: int, w: int, first: int) -> np.ndarray:
    """:func:`_centres` of a board with no void cell (the pad of 3 off the board)."""
    onb = np.zeros((h, w), dtype=bool)
    onb[3:-3, 3:-3] = True
    found = _centres(onb, _cell_points(h, w, first))
    found.setflags(write=False)  # shared by every board of this size
    return found



def _wedge_centre(g: tuple[int, int], p: int) -> tuple[int, int]:
    """The centre of the cell at odd position ``p`` of corner ``g`` (pointy frame)."""
    dx, dy = WEDGES[p // 2]
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



Interval = tuple[int, int, bool, int, int, bool]  # low p, q, included; high p, q, included
Piece = tuple[int, int, int, int]  # open (a/b .. c/d), or the single slope a/b when d == 0
Units = dict[int, tuple[tuple[int, int], int, bool]]  # far level -> (near corner, back, from the source)


class SourceCast:
    """What stays exact and sequential in one source's cast (pointy frame): each sextant's start
    at a corner source, the walk along its bisector (runs along hexsides judged as units) and the
    marking of the targets seen in ``seen`` (over the pointy frame's cells)."""

    def __init__(
        self, sg: SightGrid, flags: bytearray, source: tuple[int, int], a_centre: tuple[int, int],
        profile: HexProfile, corners: bool, seen: bytearray, runs: dict[tuple[object, ...], bool],
    ) -> None:
        self.sg, self.flags, self.s, self.a = sg, flags, source, a_centre
        self.runs = runs  # the runs along hexsides judged so far (shared by the field's casts)
        self.rule = profile
        self.touch, self.etouch = profile.touch, profile.endpoint_touch
        self.corners, self.seen = corners, seen
        box = [(x, y) for x in (-2, 2 * sg.width + 1) for y in (-3, 3 * sg.height)]
        #: the largest level of a point of the board's cells seen from the source
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
        self.seen[self.cell_at(centre)] = 1

    def cell_at(self, centre: tuple[int, int]) -> int:
        """The index in ``seen`` of the cell of a lattice centre (on the board)."""
        row = centre[1] // 3
        return row * self.sg.width + (centre[0] - ((row & 1) ^ self.sg.parity)) // 2

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
        ``ahead2`` (``target``: ``g2`` is the line's end in the cell of that centre). Remembered
        for the field: the bisectors of the origin's corners run along the same lines."""
        key = (g1, back1, g2, ahead2, d, from_source, target)
        found = self.runs.get(key)
        if found is None:
            found = self.runs[key] = self._unit_blocked(g1, back1, g2, ahead2, d, from_source, target)
        return found

    def _unit_blocked(
        self, g1: tuple[int, int], back1: int, g2: tuple[int, int], ahead2: int, d: tuple[int, int],
        from_source: bool, target: tuple[int, int] | None,
    ) -> bool:
        """:meth:`unit_blocked`, judged."""
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
            if not self.flag(*centre) & ON_BOARD or self.seen[self.cell_at(centre)]:
                continue  # off the board, or seen already
            if not self.unit_blocked(g1, back1, g2, q, d, from_source, centre):
                self.mark(centre)

    # --- one sextant ------------------------------------------------------------------------------


    def start(self, k: int) -> tuple[list[Interval], dict[int, list[Piece]], Units]:
        """The open slopes of sextant ``k`` at the source, the blockers already known, and the run
        leaving the source (a corner) along the sextant's bisector, if any."""
        pending: dict[int, list[Piece]] = {}
        units: Units = {}
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
        pending: dict[int, list[Piece]], units: Units,
    ) -> None:
        """A corner on the sextant's bisector (slope 1/2), where lines run along hexsides: the near
        corner of a run judges the run as one unit (a blocker of slope 1/2 past its far corner);
        the far corner, as a target, is reached along the run."""
        top = g[1] % 3 == 1
        ahead = position(d, top)
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

    def bisector(self, k: int, key: int, pending: dict[int, list[Piece]], units: Units) -> int:
        """Walk sextant ``k``'s bisector (slope 1/2) while no blocker whose key is at most the level
        holds it (``key``: the smallest painted there; ``pending`` and ``units`` from :meth:`start`):
        each run along a hexside is judged as one unit, corner targets on it are ended here
        (:meth:`on_ray`). Returns the bisector's smallest key, the runs' blockers included. The
        points of the bisector at even levels are ``s + (level / 2) · d``; every third is a
        centre (nothing to judge), the walk stops where they leave the lattice box."""
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        d = ((nk[0] + nk1[0]) // 3, (nk[1] + nk1[1]) // 3)
        if pending:
            key = min(key, min(pending))
        sg, flags = self.sg, self.flags
        stride, rows, x0, y0 = sg.stride, sg.rows, sg.x0, sg.y0
        gx, gy = self.s
        level = 2
        while level < key:
            pending.clear()
            gx += d[0]
            gy += d[1]
            x, y = gx - x0, gy - y0
            if not (0 <= x < stride and 0 <= y < rows):
                break
            if gy % 3:
                self.on_ray((gx, gy), level, True, flags[y * stride + x], d, pending, units)
                if pending:
                    key = min(key, min(pending))
            level += 2
        return key


    def finish(self, seen_at: np.ndarray, sx: np.ndarray | int = 0, sy: np.ndarray | int = 0) -> None:
        """Mark the cells of the centre targets seen (``seen_at``: their byte offsets) or, for corner
        targets seen from the source points ``(sx, sy)``, the cells the end rule lets each reach
        (vectorised; the corners on the bisectors are ended during their walk)."""
        sg = self.sg
        if not seen_at.size:
            return
        xs = seen_at % sg.stride + sg.x0
        ys = seen_at // sg.stride + sg.y0
        flags = np.frombuffer(self.flags, dtype=np.uint8)
        if not self.corners:
            self._mark_all(xs, ys, flags)
            return
        flip = np.where(ys % 3 == 1, 1, -1)
        dx, dy = sx - xs, (sy - ys) * flip
        back = np.where(dy > np.abs(dx), 3, np.where(dx > 0, 1, 5))
        allowed = _end_table(self.touch, self.etouch)[flags[seen_at].astype(np.int64) * 6 + back]
        for bit, (wx, wy) in enumerate(WEDGES):
            chosen = (allowed >> bit & 1).astype(bool)
            self._mark_all(xs[chosen] + wx, ys[chosen] + wy * flip[chosen], flags)

    def _mark_all(self, xs: np.ndarray, ys: np.ndarray, flags: np.ndarray) -> None:
        """Mark the cells of lattice centres (only those on the board)."""
        sg = self.sg
        on = (flags[(ys - sg.y0) * sg.stride + xs - sg.x0] & ON_BOARD).astype(bool)
        xs, ys = xs[on], ys[on]
        rows = ys // 3
        cols = (xs - ((rows & 1) ^ sg.parity)) // 2
        seen = np.frombuffer(self.seen, dtype=np.uint8)
        seen[rows * sg.width + cols] = 1




@lru_cache(maxsize=8)
def status_table(touch: str) -> np.ndarray:
    """Bool ``[k, top, half, code]``, flat: a corner with that code, off sextant ``k``'s bisector in
    its ``half`` (1: rows above the bisector), blocks a line passing straight through it. The line
    comes from and goes to the same two positions at every corner of a kind in one half of a
    sextant (the arms lie on the bisectors), so two sample slopes say it."""
    through = _through_table(touch)
    out = np.zeros((6, 2, 2, 64), dtype=bool)
    for k in range(6):
        nk, nk1 = _N[k], _N[(k + 1) % 6]
        for top in (False, True):
            for half, sample in enumerate((3, 9)):  # slopes 1/4 and 3/4, at level 12
                v = ((12 - sample) * nk[0] + sample * nk1[0]) // 3, ((12 - sample) * nk[1] + sample * nk1[1]) // 3
                table = through[position((-v[0], -v[1]), top) * 6 + position(v, top)]
                out[k, int(top), half] = np.frombuffer(table, dtype=np.uint8).astype(bool)
    return out.ravel()


def _start_pieces(i: int, k: int, intervals: list[Interval]) -> list[tuple[int, int, int, int, int, int, int]]:
    """The slopes a corner source's sextant start closes, as open intervals of key 0."""
    if not intervals:
        return [(i, k, -1, 1, 2, 1, 0)]
    lp, lq, _, hp, hq, _ = intervals[0]
    out = []
    if (lp, lq) != (0, 1):
        out.append((i, k, -1, 1, lp, lq, 0))
    if (hp, hq) != (1, 1):
        out.append((i, k, hp, hq, 2, 1, 0))
    return out


def _corner_targets(sg: SightGrid) -> np.ndarray:
    """The corners of the on-board cells as byte offsets (the same array for every board of a
    size with no void cell)."""
    if sg.whole:
        return _whole_corner_targets(sg.stride, sg.rows, sg.parity)
    return _corner_points(sg.stride, sg.rows, sg.points.centres)


def _corner_points(stride: int, rows: int, centres: np.ndarray) -> np.ndarray:
    mark = np.zeros(stride * rows, dtype=bool)
    for dx, dy in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)):
        mark[centres + (dy * stride + dx)] = True
    return np.flatnonzero(mark)


@lru_cache(maxsize=8)
def _whole_corner_targets(stride: int, rows: int, parity: int) -> np.ndarray:
    """:func:`_corner_points` of a board with no void, from its size's centres
    (:func:`_full_centres`: ``stride = 2w``, ``rows = 3h + 2`` of the padded arrays, their first
    row pushed unless the grid pushes even rows)."""
    found = _corner_points(stride, rows, _full_centres((rows - 2) // 3, stride // 2, 1 ^ parity))
    found.setflags(write=False)  # shared by every board of this size
    return found


def _sources(sg: SightGrid, casts: list[SourceCast]) -> tuple[np.ndarray, np.ndarray]:
    """The sources' byte-grid coordinates."""
    return np.array([c.s[0] - sg.x0 for c in casts], dtype=np.int64), np.array([c.s[1] - sg.y0 for c in casts], dtype=np.int64)


def _paint(
    sg: SightGrid, flags: bytearray, casts: list[SourceCast], profile: HexProfile,
) -> tuple[Painted, list[list[tuple[dict[int, list[Piece]], Units]]]]:
    """Every blocker of every frame of the sources in one paint (:mod:`game.core.hex_paint`) and
    per frame the start of its bisector's walk."""
    t = slope_tables(box_top(sg.stride, sg.rows), profile.from_ == "centre" and profile.to == "centre")
    code = np.frombuffer(flags, dtype=np.uint8).take(sg.points.coded).astype(np.int64)
    sx, sy = _sources(sg, casts)
    starts, walks = [], []
    for i, cast in enumerate(casts):
        per = []
        for k in range(6):
            intervals, pending, units = cast.start(k)
            starts.extend(_start_pieces(i, k, intervals))
            per.append((pending, units))
        walks.append(per)
    points = sg.points
    blockers = Blockers(points.coded, code, points.coded_top, sg.stride, sx, sy, status_table(profile.touch))
    return paint(t, max(c.top_level for c in casts), blockers, starts), walks


def _read(sg: SightGrid, painted: Painted, casts: list[SourceCast]) -> None:
    """Every target read from its leaf, for all sources at once, and the cells of those seen marked
    (the end rule at corner targets; the bisectors' corners were ended during their walks)."""
    cast = casts[0]
    corners = cast.corners
    targets = _corner_targets(sg) if corners else sg.points.centres
    sx, sy = _sources(sg, casts)
    grid = (sg.x0, sg.y0, sg.stride, sg.width, sg.parity, ON_BOARD)
    read(painted, targets, sx, sy, corners, cast.flags, cast.seen, grid, _end_table(cast.touch, cast.etouch))


@dataclass
class Origin:
    """One origin's cast, ready to run: the board's byte grid, its flags with the origin's own
    cell cleared, one :class:`SourceCast` per source point (the centre, or the six corners) and
    the cells marked seen so far (``seen``, over the pointy frame's cells)."""

    sg: SightGrid
    flags: bytearray
    casts: list[SourceCast]
    seen: bytearray
    pointy: bool

    def mask(self) -> np.ndarray:
        """The cells marked seen: bool ``(height, width)``, ``[y, x]`` of the map."""
        mask = np.frombuffer(bytes(self.seen), dtype=np.uint8).reshape(self.sg.height, self.sg.width).astype(bool)
        return mask if self.pointy else mask.T

    def forget(self) -> None:
        """Unmark every cell (a cast given up half way)."""
        self.seen[:] = bytes(len(self.seen))


def origin(board: HexBoard, a: Cell, profile: HexProfile, viewer: str | None = None) -> Origin:
    """The :class:`Origin` of cell ``a`` under a rule and viewer."""
    grid = board.grid
    sg = sight_grid(board, profile, viewer)
    flags = bytearray(sg.flags)
    ac = grid.pointy_frame(grid.centre(a))
    corners = [(ac[0] + x, ac[1] + y) for x, y in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))]
    for g in corners:  # the origin's own cell never blocks
        p = position((ac[0] - g[0], ac[1] - g[1]), g[1] % 3 == 1)
        flags[(g[1] - sg.y0) * sg.stride + g[0] - sg.x0] &= ~(1 << p) & 0xFF
    seen = bytearray(sg.width * sg.height)
    to_corners = profile.to == "corners"
    runs: dict[tuple[object, ...], bool] = {}
    sources = [ac] if profile.from_ == "centre" else corners
    casts = [SourceCast(sg, flags, s, ac, profile, to_corners, seen, runs) for s in sources]
    return Origin(sg, flags, casts, seen, grid.pointy)


def paint_field(o: Origin) -> np.ndarray:
    """Every cell visible from the origin by one paint of every blocker of the board: bool
    ``(height, width)``, ``[y, x]``. The origin, and from corners its six neighbours, are not
    decided here (the caller walks them)."""
    casts = o.casts
    painted, walks = _paint(o.sg, o.flags, casts, casts[0].rule)
    for i, cast in enumerate(casts):
        for sextant in range(6):
            painted.set_half(6 * i + sextant, cast.bisector(sextant, painted.half(6 * i + sextant), *walks[i][sextant]))
    _read(o.sg, painted, casts)
    return o.mask()
