"""The lazy hex shadow caster: one centre's field of view at a cost that follows what it sees.

Pure: integers only (Python ints; exact slopes as numerator/denominator pairs; no floats, no
numpy in any decision). It answers the rules whose lines go from the origin's centre to the
target's centre (``from = centre``, ``to = centre``: ``hexside``, ``hex-strict`` and their
overrides) exactly like the paint of :mod:`game.core.hex_fov`, with the same frames, blockers and
keys (its docstring defines them), but instead of placing every blocker of the board it walks
each sextant outward level by level and keeps only the slope intervals still open, so it touches
the points it sees and a rim of two rows around them — nothing behind the first blockers. On a
dense board that is a small part of the board; on an open board it is most of it, and the caller
stops it at a budget of visited points and paints instead (as the square engines do:
:mod:`game.core.fov_cast`).

* **Open slopes.** A sorted list of disjoint slope intervals ``(lo_p, lo_q, lo_in, hi_p, hi_q,
  hi_in)`` of the sextant, ``[0, 1]`` at the start (row ``L`` belongs to the next sextant, so no
  target there is read). A blocker with key ``K`` is cut from the list before level ``K`` is read:
  an open interval leaves its ends open, a single slope (a corner a line passes straight through,
  or a run along a hexside) splits an interval in two.
* **What a level visits.** At level ``L`` every lattice point of the rows each open interval spans,
  widened by two rows on each side. An arm moves a corner by ``(dL, dj)`` among ``±(1, 2)``,
  ``±(2, 1)``, ``±(1, -1)`` in the frame's level and row, so an end of an edge on the low side of an
  open slope ``s`` has ``s·L - j < dj - s·dL <= 2``: both ends of every edge that crosses an open
  slope are visited (tests/test_hex_cast.py shows one row is not enough). Each edge is placed
  from its top corner (and from its bottom corner near the source, where the top may lie at a
  level ``<= 0``) when it blocks from the source (a wall, or the cell on the source's side
  blocks), in this frame: the open interval between its ends' slopes (an end at a level ``<= 0``
  stands for the frame's far side), with the larger hex norm of its ends plus one as key. A
  visited corner inside the sextant, off its bisector, holds its own slope from its level plus
  one when its code blocks a line straight through it. Along one level the points are all centres
  or all corners of one kind: a step of three rows moves a point by ``n_{k+1} - n_k``, whose ``Y``
  is a multiple of 3.
* **Bisector and targets.** While slope 1/2 is open, the bisector's corner at that level is judged
  by :meth:`game.core.hex_fov.SourceCast.on_ray` (the runs along hexsides), whose blocker is one
  more single slope. No edge crosses the bisector (it runs along hexsides and through centres),
  so once it is all that is open the cast walks it alone. A centre at row ``0 <= j < L`` whose
  slope is open is seen.
"""

from __future__ import annotations

from functools import lru_cache

from game.core.hex_corner import ARMS, WEDGES
from game.core.hex_fov import NEIGHBOURS as _N
from game.core.hex_fov import ON_BOARD, Origin, SightGrid, SourceCast, status_table
from game.core.hex_rules import HexProfile

__all__ = ["SMALLEST", "budget", "cast_centres", "fits"]

_WIDEN = 2


ArmTerms = tuple[int, int, int, int, int, int, bool]


def _arm_terms() -> tuple[tuple[ArmTerms, ...], ...]:
    """Per corner kind (0 bottom, 1 top): per arm ``(ax, ay, wall | plus | minus bits, wall bit,
    plus bit, minus bit, plus_side)``: the arm's end offset, and on which side of the arm the wedge
    after it lies (the wedge before it on the other)."""
    out = []
    for flip in (-1, 1):
        arms: list[ArmTerms] = []
        for m, (ax, ay) in enumerate(ARMS):
            ay *= flip
            wx, wy = WEDGES[((2 * m + 1) % 6) // 2]
            wy *= flip
            wall, plus, minus = 1 << 2 * m, 1 << (2 * m + 1) % 6, 1 << (2 * m - 1) % 6
            arms.append((ax, ay, wall | plus | minus, wall, plus, minus, ax * wy - ay * wx > 0))
        out.append(tuple(arms))
    return tuple(out)


_ARM_TERMS = _arm_terms()


Interval = tuple[int, int, bool, int, int, bool]  # low p, q, included; high p, q, included
Piece = tuple[int, int, int, int]  # open (a/b .. c/d), or the single slope a/b when d == 0
Pending = dict[int, list[Piece]]  # key level -> the blockers from that level on


def _cut(ivs: list[Interval], a: int, b: int, c: int, d: int) -> list[Interval]:
    """The open slopes less the open interval ``(a/b, c/d)``, or less the one slope ``a/b`` when
    ``d == 0``."""
    out: list[Interval] = []
    if d == 0:
        for iv in ivs:
            lp, lq, li, hp, hq, hi = iv
            lo_cmp = a * lq - lp * b
            hi_cmp = hp * b - a * hq
            if (lo_cmp > 0 or (lo_cmp == 0 and li)) and (hi_cmp > 0 or (hi_cmp == 0 and hi)):
                if lo_cmp > 0:
                    out.append((lp, lq, li, a, b, False))
                if hi_cmp > 0:
                    out.append((a, b, False, hp, hq, hi))
            else:
                out.append(iv)
        return out
    for iv in ivs:
        lp, lq, li, hp, hq, hi = iv
        if hp * b <= a * hq or lp * d >= c * lq:  # wholly at or below a/b, or at or above c/d
            out.append(iv)
            continue
        low = lp * b - a * lq
        if low < 0:
            out.append((lp, lq, li, a, b, True))
        elif low == 0 and li:
            out.append((a, b, True, a, b, True))
        high = hp * d - c * hq
        if high > 0:
            out.append((c, d, True, hp, hq, hi))
        elif high == 0 and hi:
            out.append((c, d, True, c, d, True))
    return out


def _is_open(ivs: list[Interval], p: int, q: int) -> bool:
    """Whether the slope ``p/q`` is open."""
    for lp, lq, li, hp, hq, hi in ivs:
        lo = p * lq - lp * q
        if lo < 0 or (lo == 0 and not li):
            return False
        top = hp * q - p * hq
        if top > 0 or (top == 0 and hi):
            return True
    return False


def fits(profile: HexProfile) -> bool:
    """Whether a rule's lines run from centre to centre (the rules this caster answers)."""
    return profile.from_ == "centre" and profile.to == "centre"


#: boards with fewer cells paint every origin: the paint's cost grows with the board, the cast's
#: with what the origin sees, and below this size the paint is cheaper on average
#: (``python benchmarks/bench_hex.py --origins``; "The lazy caster" in docs/hex.md)
SMALLEST = 180 * 180
#: with a budget, more targets than this looked at on one level of a sextant give the origin to
#: the paint at once: a wide front is an open part of the board
FRONT = 24


def budget(width: int, height: int) -> int | None:
    """How many lattice points the caster may visit before the caller paints instead: about twice
    what the paint costs on this board size, in caster steps (a sixth of it per sextant); None below
    :data:`SMALLEST` cells (paint at once).

    >>> budget(160, 160), budget(200, 200)
    (None, 5768)
    """
    cells = width * height
    return 768 + cells // 8 if cells >= SMALLEST else None


def cast_centres(o: Origin, limit: int | None = None) -> bool:
    """Mark in ``o.seen`` every centre the origin's centre sees (a rule that :func:`fits`), sextant
    by sextant. With a ``limit``, give up (False, ``o.seen`` partly marked) once a sextant visits
    more than a sixth of it: an origin that sees far in one direction goes to the paint early."""
    cast = o.casts[0]
    status = _status_bytes(cast.touch)
    allowance = 1 << 62 if limit is None else limit // 6
    front = 1 << 62 if limit is None else FRONT
    return all(_sextant(o.sg, o.flags, cast, status, k, allowance, front) >= 0 for k in range(6))


@lru_cache(maxsize=8)
def _status_bytes(touch: str) -> bytes:
    """:func:`game.core.hex_fov.status_table` as bytes (one index per corner, no numpy)."""
    return bytes(status_table(touch).astype("uint8"))


class _Frame:
    """Sextant ``k`` of one source: the lattice steps of its rows and levels."""

    def __init__(self, sg: SightGrid, cast: SourceCast, k: int) -> None:
        nkx, nky = _N[k]
        n1x, n1y = _N[(k + 1) % 6]
        self.k, self.n = k, (nkx, nky)
        self.sx, self.sy = cast.s
        self.forms = (n1y - nky, nkx - n1x, -nky, nkx)  # level = (a·x + b·y) / 2, row = (c·x + d·y) / 2
        self.step = (n1x - nkx, n1y - nky)  # three rows on
        self.d = ((nkx + n1x) // 3, (nky + n1y) // 3)  # two levels on along the bisector
        self.flat = self.step[1] * sg.stride + self.step[0]


def _sextant(
    sg: SightGrid, flags: bytearray, cast: SourceCast, status: bytes, k: int, left: int, front: int = 1 << 62,
) -> int:
    """Cast sextant ``k``; returns the budget left (negative: exhausted, or more than ``front``
    targets looked at on one level)."""
    f = _Frame(sg, cast, k)
    sx, sy = cast.s
    (nkx, nky), (stepx, stepy) = f.n, f.step
    ivs: list[Interval] = [(0, 1, True, 1, 1, True)]
    pending: Pending = {}
    units: dict[int, tuple[tuple[int, int], int, bool]] = {}
    half_open = True  # slope 1/2 (the bisector) is open
    level = 1
    while level <= cast.top_level:
        cuts = pending.pop(level, None)
        if cuts:
            for piece in cuts:
                ivs = _cut(ivs, *piece)
            if not ivs:
                break
            half_open = _is_open(ivs, 1, 2)
            if half_open and len(ivs) == 1 and ivs[0][1] == 2 * ivs[0][0] and ivs[0][4] == 2 * ivs[0][3]:
                _bisector(sg, flags, cast, level, f.d, pending, units)
                break
        j0 = (2 * level) % 3  # the first row of a lattice point: j ≡ 2L (mod 3)
        vx0 = (level * nkx + j0 * stepx) // 3
        vy0 = (level * nky + j0 * stepy) // 3
        kind = (sy + vy0) % 3
        if kind == 0:
            looked = _read(ivs, level, j0, sx + vx0, sy + vy0, f.step, flags, sg, cast.seen)
            if looked > front:
                return -1  # a wide front: an open part of the board, where the paint is cheaper
            left -= looked
        else:
            if half_open and not level & 1:
                _on_bisector(sg, flags, cast, level, f.d, pending, units)
            left -= _corners(sg, flags, f, ivs, level, (j0, vx0, vy0), kind == 1, status, pending)
            if left < 0:
                return left
        level += 1
    return left


def _on_bisector(
    sg: SightGrid, flags: bytearray, cast: SourceCast, level: int, d: tuple[int, int],
    pending: Pending, units: dict[int, tuple[tuple[int, int], int, bool]],
) -> None:
    """The bisector's corner at an even level: a run along a hexside starts or ends there
    (:meth:`SourceCast.on_ray`); a run with no closed position at either corner is clear."""
    gx, gy = cast.s[0] + d[0] * (level // 2), cast.s[1] + d[1] * (level // 2)
    bx, by = gx - sg.x0, gy - sg.y0
    if not (0 <= bx < sg.stride and 0 <= by < sg.rows):
        return
    nx, ny = bx + d[0], by + d[1]
    ahead = flags[ny * sg.stride + nx] if 0 <= nx < sg.stride and 0 <= ny < sg.rows else 1
    here = flags[by * sg.stride + bx]
    if here or ahead:
        cast.on_ray((gx, gy), level, True, here, d, pending, units)


def _codes(sg: SightGrid, flags: bytearray, f: _Frame, fx: int, fy: int, count: int) -> bytes:
    """The bytes of ``count`` points three rows apart from box point ``(fx, fy)``, some off the
    box (0 there); :func:`_corners` slices the box itself when all are on it."""
    stepx, stepy = f.step
    stride, rows = sg.stride, sg.rows
    return bytes(
        flags[(fy + i * stepy) * stride + fx + i * stepx] if 0 <= fx + i * stepx < stride and 0 <= fy + i * stepy < rows else 0
        for i in range(count)
    )


def _corners(
    sg: SightGrid, flags: bytearray, f: _Frame, ivs: list[Interval], level: int, origin: tuple[int, int, int],
    tp: bool, status: bytes, pending: Pending,
) -> int:
    """Visit the corners of a corner level (``tp``: top corners) in each open interval's rows,
    widened by :data:`_WIDEN` where the corners place edges: the blockers they hold go to
    ``pending``, unless they lie wholly outside the open slopes of the rows they were found in
    (the open slopes only shrink). ``origin``: the row ``j0`` of the level's first lattice point
    and its offset from the source. Returns how many points were visited."""
    j0, vx0, vy0 = origin
    lx, ly, jx, jy = f.forms
    stepx, stepy = f.step
    # an edge that cuts an open slope has both ends visited: each is placed from its top
    # corner, and from its bottom corner too near the source (where the top may lie behind)
    terms = _ARM_TERMS[1] if tp else (_ARM_TERMS[0] if level <= 3 else ())
    widen = _WIDEN if terms else 0  # a corner's own slope matters inside the open slopes only
    row_status = (f.k * 2 + tp) * 2
    # each open interval's rows, widened, merged: (first row, last row, low p, q, high p, q)
    spans: list[tuple[int, int, int, int, int, int]] = []
    for lp, lq, _, hp, hq, _ in ivs:
        if lq == 2 * lp and hq == 2 * hp:  # the bisector alone: no edge crosses it
            continue
        a = -((-lp * level) // lq) - widen
        b = (hp * level) // hq + widen
        if spans and a <= spans[-1][1] + 1:
            last = spans[-1]
            spans[-1] = (last[0], max(b, last[1]), last[2], last[3], hp, hq)
        else:
            spans.append((a, b, lp, lq, hp, hq))
    visited = 0
    stride, rows, flat = sg.stride, sg.rows, f.flat
    for a, b, slp, slq, shp, shq in spans:
        first = (a - j0 + 2) // 3  # steps from row j0 to the first row >= a
        count = (b - j0) // 3 - first + 1
        if count <= 0:
            continue
        visited += count
        vx1, vy1 = vx0 + first * stepx, vy0 + first * stepy
        fx, fy = f.sx + vx1 - sg.x0, f.sy + vy1 - sg.y0
        ex, ey = fx + (count - 1) * stepx, fy + (count - 1) * stepy
        if 0 <= fx < stride and 0 <= fy < rows and 0 <= ex < stride and 0 <= ey < rows:
            base = fy * stride + fx
            end = base + count * flat
            codes: bytes | bytearray = flags[base : end if end >= 0 else None : flat]
        else:
            codes = _codes(sg, flags, f, fx, fy, count)
        for i, byte in enumerate(codes):
            if not byte:
                continue
            j = j0 + 3 * (first + i)
            vx, vy = vx1 + i * stepx, vy1 + i * stepy
            for ax, ay, anyb, wall, plus, minus, plus_side in terms:
                if not byte & anyb:
                    continue
                side = ay * vx - ax * vy
                if side == 0 or not byte & (wall | (plus if (side > 0) == plus_side else minus)):
                    continue  # an edge through the source (the bisector's), or one that does not block
                ox, oy = vx + ax, vy + ay
                lo_ = (lx * ox + ly * oy) // 2
                jo = (jx * ox + jy * oy) // 2
                if lo_ > 0:
                    piece = (jo, lo_, j, level) if jo * level < j * lo_ else (j, level, jo, lo_)
                else:
                    piece = (-1, 1, j, level) if level * (jo - j) < j * (lo_ - level) else (j, level, 2, 1)
                if piece[2] * slq <= slp * piece[3] or piece[0] * shq >= shp * piece[1]:
                    continue  # wholly outside the span's open slopes: it never cuts anything
                key = max(level, level - j, j, lo_, lo_ - jo, jo) + 1  # hex norms: max(L, L - j, j)
                pending.setdefault(key, []).append(piece)
            if 0 < j < level and 2 * j != level and status[(row_status + (2 * j > level)) * 64 + byte]:
                pending.setdefault(level + 1, []).append((j, level, 0, 0))
    return visited


def _bisector(
    sg: SightGrid, flags: bytearray, cast: SourceCast, level: int, d: tuple[int, int],
    pending: Pending, units: dict[int, tuple[tuple[int, int], int, bool]],
) -> None:
    """Walk on from ``level`` while only the bisector (slope 1/2) is open: no edge crosses it, so
    only its runs (:meth:`SourceCast.on_ray`) can close it; mark its centres (levels ``≡ 0 mod 6``)."""
    sx, sy = cast.s
    dx, dy = d
    x0, y0, stride, rows, width, parity = sg.x0, sg.y0, sg.stride, sg.rows, sg.width, sg.parity
    seen = cast.seen
    for even in range(level + (level & 1), cast.top_level + 1, 2):
        for at_level in (even - 1, even):
            cuts = pending.pop(at_level, None)
            if cuts and (1, 2, 0, 0) in cuts:  # nothing else holds slope 1/2
                return
        half = even // 2
        gx, gy = sx + dx * half, sy + dy * half
        bx, by = gx - x0, gy - y0
        if not (0 <= bx < stride and 0 <= by < rows):
            return
        if gy % 3 == 0:
            if flags[by * stride + bx] & ON_BOARD:
                row = gy // 3
                seen[row * width + (gx - ((row & 1) ^ parity)) // 2] = 1
        else:
            _on_bisector(sg, flags, cast, even, d, pending, units)


def _read(
    ivs: list[Interval], level: int, j0: int, gx: int, gy: int, step: tuple[int, int],
    flags: bytearray, sg: SightGrid, seen: bytearray,
) -> int:
    """Mark the on-board centres of a centre level whose slope is open (rows ``0 <= j < level``;
    ``(gx, gy)`` the point of row ``j0``); returns how many points were looked at."""
    x0, y0, stride, rows, width, parity = sg.x0, sg.y0, sg.stride, sg.rows, sg.width, sg.parity
    stepx, stepy = step
    looked = 0
    for lp, lq, li, hp, hq, hi in ivs:
        a = -((-lp * level) // lq)  # the first row at or above the low end
        if a * lq == lp * level and not li:
            a += 1
        b = (hp * level) // hq
        if b * hq == hp * level and not hi:
            b -= 1
        b = min(b, level - 1)
        first = max(0, (a - j0 + 2) // 3)
        last = (b - j0) // 3
        for n in range(first, last + 1):
            looked += 1
            cx, cy = gx + n * stepx, gy + n * stepy
            bx, by = cx - x0, cy - y0
            if 0 <= bx < stride and 0 <= by < rows and flags[by * stride + bx] & ON_BOARD:
                row = cy // 3
                seen[row * width + (cx - ((row & 1) ^ parity)) // 2] = 1
    return looked
