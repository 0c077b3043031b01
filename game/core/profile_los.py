"""Line of sight under any rule profile by its candidate lines: the engine of the rules that are
not decided by the centre line alone, and the one exact reference for every rule.

Pure: no pygame, no files, no clock. Integers and :class:`fractions.Fraction` only, never floats.
A rule (:mod:`game.core.profiles`) names the points of A's and B's squares a line may start and
end at (``from`` / ``to``: the centre, the 4 corners, or any interior point); B is in sight when
**some** permitted line is clear by the segment rule of :mod:`game.core.segment`. For ``centre`` and
``corners`` ends the candidates are the finitely many lines between those points; for ``any`` ends
the exact finite set of critical lines of :func:`_any_any_lines` / :func:`_any_fixed_lines`.

* :func:`decide` — the verdict, the deciding lines and how many were checked. ``complete=False``
  (the fast path) turns ``any`` lines only about obstacle points; ``complete=True`` (the
  reference) about every grid point of the hull of A and B;
* :func:`line_of_sight` — the fast path's :class:`~game.core.sight_result.Sight`;
* :func:`visible_from` / :func:`all_pairs` — fields of view and tables: the weak-visibility sweep
  of :mod:`game.core.any_fov` where every obstacle is closed, the corner shadow caster of
  :mod:`game.core.profile_fov` for corners to corners, else the verdict square by square.

The facade (:mod:`game.core.sight`) sends here the rules the centre-line engine of
:mod:`game.core.los` does not decide, and asks :func:`decide` with ``complete=True`` for the one
reference of every rule.

>>> from game.core.board import Board
>>> from game.core.profiles import parse_rule
>>> b = Board.from_ascii(["...", ".#.", "..."])
>>> r = line_of_sight(b, (0, 0), (2, 2), parse_rule("corners"))
>>> r.clear, r.explain()
(True, 'Clear under corners: the line from corner (1,0) to corner (3,2) is clear.')
>>> line_of_sight(b, (0, 0), (2, 2), parse_rule("any-point")).clear
False
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from game.core.any_fov import visible_any
from game.core.board import Board, Square, fmt_square
from game.core.los import mirror_upper
from game.core.profile_fov import corner_candidates, sight_arrays
from game.core.profile_pairs import point_planes, row_candidates
from game.core.profiles import Profile
from game.core.segment import (
    BoardView,
    cell_corners,
    centre_point,
    check_segment,
    check_square,
    view,
)
from game.core.sight_result import Crossing, DrawStep, EndKind, LineCheck, Point, Sight

__all__ = [
    "FAST_FOV_SQUARES",
    "LinesSource",
    "all_pairs",
    "any_field",
    "corner_field",
    "decide",
    "line_of_sight",
    "on_board_mask",
    "visible_from",
    "walk_field",
]


# --- candidate lines -------------------------------------------------------------------------


def _hull_points(a: Square, b: Square) -> list[tuple[int, int]]:
    """Every grid point of the closed convex hull of squares a and b."""
    pts = sorted({(x + i, y + j) for (x, y) in (a, b) for i in (0, 1) for j in (0, 1)})

    def cross(o: tuple[int, int], p: tuple[int, int], r: tuple[int, int]) -> int:
        return (p[0] - o[0]) * (r[1] - o[1]) - (p[1] - o[1]) * (r[0] - o[0])

    lower: list[tuple[int, int]] = []
    for pt in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], pt) <= 0:
            lower.pop()
        lower.append(pt)
    upper: list[tuple[int, int]] = []
    for pt in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], pt) <= 0:
            upper.pop()
        upper.append(pt)
    hull = lower[:-1] + upper[:-1]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    out = []
    for x in range(min(xs), max(xs) + 1):
        for y in range(min(ys), max(ys) + 1):
            if all(cross(hull[i], hull[(i + 1) % len(hull)], (x, y)) >= 0 for i in range(len(hull))):
                out.append((x, y))
    return out


def _chord_mid(sq: Square, c: Point, d: Point) -> Point | None:
    """The midpoint of the line ``c + λ·d`` inside the open square ``sq``, or None if it misses."""
    lo: Fraction | None = None
    hi: Fraction | None = None
    for axis in (0, 1):
        start, step = c[axis], d[axis]
        low, high = Fraction(sq[axis]), Fraction(sq[axis] + 1)
        if step == 0:
            if not low < start < high:
                return None
            continue
        l1, l2 = sorted(((low - start) / step, (high - start) / step))
        lo = l1 if lo is None else max(lo, l1)
        hi = l2 if hi is None else min(hi, l2)
    assert lo is not None and hi is not None
    if lo >= hi:
        return None
    mid = (lo + hi) / 2
    return (c[0] + mid * d[0], c[1] + mid * d[1])


def _any_any_lines(a: Square, b: Square, points: list[tuple[int, int]]) -> Iterator[tuple[Point, Point]]:
    """Critical candidate segments from A's interior to B's interior (see the proof below).

    Proof that these suffice. For a line ℓ meeting both open squares, the verdict of every segment
    of ℓ from A's interior to B's interior is the same (A's and B's interiors hold no obstacle), so
    it is a property of ℓ. Within the convex hull H of A ∪ B (where every such segment lies) it
    depends only on how ℓ lies relative to the *obstacle points* P (grid points where a wall arm or a
    blocking square meets, plus A's and B's corners): for each point, left, on, or right of ℓ
    (oriented from A to B). Indeed every obstacle is a wall segment or a closed square with corners
    in P, and whether ℓ misses it, crosses it, runs along its edge or touches it at a corner — and
    the sector and touch rules at that corner, and whether the meeting lies between A and B — is
    read off those signs. So the verdict is constant on each cell (of any dimension) of the
    arrangement, in the dual plane of lines, of the dual lines of P. Every cell that meets the
    (compact) set of lines through both squares has a vertex: move a line of the cell parallel
    until it meets a point u of P (it must, before it stops meeting A or B, whose corners are in
    P), then turn it about u until it meets a second point v; the line stays in the cell's closure
    throughout. The cells around such a vertex ℓ(u, v) are ℓ itself, the lines turned slightly
    about a point of P on ℓ (1-cells, still through that point), and the lines turned slightly about
    a point between two consecutive points of P on ℓ, or beyond the first or last (2-cells), one way
    or the other. "Slightly" is the exact angle δ below: with d the reduced integer direction of ℓ
    and the turning centre c = u + s·d, s a multiple of 1/2, every point w of P off ℓ has
    |d × (w − c)| = |d × (w − u)| ≥ 1, while |n × (w − c)| ≤ 4M² for n = d rotated by 90° and M the
    span of H, so turning d to d + δn with δ = 1/(16M² + 1) moves no point of P across the line.
    Each candidate is tested as the segment between the midpoints of its chords through A and B.
    """
    span = max(abs(b[0] - a[0]), abs(b[1] - a[1])) + 2
    delta = Fraction(1, 16 * span * span + 1)
    ca, cb = centre_point(a), centre_point(b)
    yield ca, cb
    seen: set[tuple[int, int, int]] = set()
    pset = set(points)
    for i, u in enumerate(points):
        for v in points[i + 1:]:
            ddx, ddy = v[0] - u[0], v[1] - u[1]
            g = math.gcd(ddx, ddy)
            rx, ry = ddx // g, ddy // g
            if rx < 0 or (rx == 0 and ry < 0):
                rx, ry = -rx, -ry
            key = (rx, ry, ry * u[0] - rx * u[1])
            if key in seen:
                continue
            seen.add(key)
            on_line = sorted(
                (w for w in pset if (w[0] - u[0]) * ry - (w[1] - u[1]) * rx == 0),
                key=lambda w: (w[0] - u[0]) * rx + (w[1] - u[1]) * ry,
            )
            steps = [((w[0] - u[0]) * rx + (w[1] - u[1]) * ry) // (rx * rx + ry * ry) for w in on_line]
            centres: list[Fraction] = [Fraction(s) for s in steps]
            centres += [Fraction(s1 + s2, 2) for s1, s2 in zip(steps, steps[1:], strict=False)]
            centres += [Fraction(2 * steps[0] - 1, 2), Fraction(2 * steps[-1] + 1, 2)]
            d = (Fraction(rx), Fraction(ry))
            lines: list[tuple[Point, Point]] = [((Fraction(u[0]), Fraction(u[1])), d)]
            for s in centres:
                c = (u[0] + s * rx, u[1] + s * ry)
                for sign in (1, -1):
                    lines.append((c, (rx - sign * delta * ry, ry + sign * delta * rx)))
            for c, dd in lines:
                p = _chord_mid(a, c, dd)
                if p is None:
                    continue
                q = _chord_mid(b, c, dd)
                if q is not None:
                    yield p, q


def _any_fixed_lines(
    free: Square, fixed: Point, other: Square, points: list[tuple[int, int]]
) -> Iterator[Point]:
    """Critical start points in the free square's interior for segments ending at ``fixed``.

    The same argument in one dimension: the verdict of a segment from the open square to the fixed
    point depends only on its direction, and only through the sides of the obstacle points P; the
    critical directions point at P; turning by δ (as above, the fixed point being a half-integer
    point, δ = 1/(16M² + 1) still moves no point of P across) reaches each open interval between them.
    """
    span = max(abs(free[0] - other[0]), abs(free[1] - other[1])) + 2
    delta = Fraction(1, 16 * span * span + 1)
    yield centre_point(free)
    for w in points:
        d = (w[0] - fixed[0], w[1] - fixed[1])
        if not (d[0] or d[1]):
            continue
        for dd in (d, (d[0] - delta * d[1], d[1] + delta * d[0]), (d[0] + delta * d[1], d[1] - delta * d[0])):
            p = _chord_mid(free, fixed, (Fraction(dd[0]), Fraction(dd[1])))
            if p is not None:
                yield p


def _endpoints(kind: str, sq: Square) -> list[tuple[Point, EndKind]]:
    if kind == "centre":
        return [(centre_point(sq), "centre")]
    return [(c, "corner") for c in cell_corners(sq)]
def _obstacle_points(geo: BoardView, a: Square, b: Square, complete: bool) -> list[tuple[int, int]]:
    hull = _hull_points(a, b)
    corners = {(int(x), int(y)) for x, y in cell_corners(a) + cell_corners(b)}
    if complete:
        return hull
    return [g for g in hull if g in corners or geo.obstacle_vertex(g, (a, b))]


def _candidates(geo: BoardView, a: Square, b: Square, profile: Profile, complete: bool) -> Iterator[LineCheck]:
    """Every candidate line of the profile's endpoint sets, checked, best-first."""
    fk, tk = profile.from_, profile.to
    if fk != "any" and tk != "any":
        for p, pk in _endpoints(fk, a):
            for q, qk in _endpoints(tk, b):
                yield check_segment(geo, a, b, p, q, pk, qk)
        return
    points = _obstacle_points(geo, a, b, complete)
    if fk == "any" and tk == "any":
        for p, q in _any_any_lines(a, b, points):
            yield check_segment(geo, a, b, p, q, "interior", "interior")
        return
    if fk == "any":
        for q, qk in _endpoints(tk, b):
            for p in _any_fixed_lines(a, q, b, points):
                yield check_segment(geo, a, b, p, q, "interior", qk)
        return
    for p, pk in _endpoints(fk, a):
        for q in _any_fixed_lines(b, p, a, points):
            yield check_segment(geo, a, b, p, q, pk, "interior")


# --- decisions ------------------------------------------------------------------------------------


def decide(
    board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, complete: bool
) -> tuple[bool, tuple[LineCheck, ...], int]:
    """The verdict for ``a`` → ``b``: ``(clear, deciding, checked)``: the clear line found (the
    first, best-first), or the blocked candidates (up to 16), and how many lines were checked.
    ``complete``: the reference's candidate set (every grid point of the hull for ``any``)."""
    if a == b:
        return True, (), 0
    geo = view(board, profile, viewer)
    blocked: list[LineCheck] = []
    count = 0
    for line in _candidates(geo, a, b, profile, complete):
        count += 1
        if line.clear:
            return True, (line,), count
        if len(blocked) < 16:
            blocked.append(line)
    return False, tuple(blocked), count


def _verdict(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, complete: bool) -> bool:
    """Only the verdict of :func:`decide` (stops at the first clear line)."""
    if a == b:
        return True
    geo = view(board, profile, viewer)
    return any(line.clear for line in _candidates(geo, a, b, profile, complete))


class LinesSource:
    """The :class:`~game.core.sight_result.SightSource` of a verdict decided by candidate lines."""

    def __init__(
        self, origin: Square, target: Square, viewer: str | None, profile: Profile, clear: bool,
        deciding: tuple[LineCheck, ...], checked: int,
    ) -> None:
        self.origin, self.target, self.viewer, self.profile = origin, target, viewer, profile
        self.clear, self.deciding, self._checked = clear, deciding, checked

    @property
    def checked(self) -> int:
        """How many candidate lines were checked."""
        return self._checked

    def lines(self) -> tuple[LineCheck, ...]:
        """The deciding lines."""
        return self.deciding

    def crossings(self) -> tuple[Crossing, ...]:
        """None: a candidate-line verdict lists its lines, not a centre line's crossings."""
        return ()

    def blockers(self) -> tuple[Crossing, ...]:
        """Each blocked deciding line's blocker (its exact point on that line)."""
        return tuple(found for line in self.deciding if (found := line.meeting()) is not None)

    def drawing(self) -> list[DrawStep]:
        """The blockers as drawing steps."""
        return [c.drawing() for c in self.blockers()]

    def block_t(self) -> float | None:
        """None: there is no one centre line to cut."""
        return None

    def explain(self) -> str:
        """One sentence: the rule, the verdict and the line(s) that decided it."""
        rule = self.profile.spec()
        if self.origin == self.target:
            return f"Clear under {rule}: {fmt_square(self.origin)} is the same square."
        if self.clear:
            return f"Clear under {rule}: the line from {self.deciding[0].describe()} is clear."
        shown = self.deciding if self._checked <= 16 else self.deciding[:4]
        parts = "; ".join(f"{line.describe()} {line.blocker}" for line in shown)
        more = self._checked - len(shown)
        tail = f"; and {more} more line{'s' if more != 1 else ''} blocked" if more > 0 else ""
        return f"Blocked under {rule}: every permitted line is blocked ({self._checked} checked): {parts}{tail}."

    def summary(self) -> str:
        """:meth:`explain` with only the first blocked line."""
        if self.clear or not self.deciding:
            return self.explain()
        first = self.deciding[0]
        more = self._checked - 1
        tail = f" ({more} more line{'s' if more != 1 else ''} blocked)" if more > 0 else ""
        return (f"Blocked under {self.profile.spec()}: every permitted line is blocked, e.g. "
                f"{first.describe()} {first.blocker}{tail}.")

    def fingerprint(self) -> tuple[object, ...]:
        """The deciding lines and how many were checked."""
        return (self.deciding, self._checked)

    def as_json(self) -> dict[str, object]:
        """``{"clear", "from", "to", "viewer", "lines", "checked"}``."""
        return {
            "clear": self.clear,
            "from": list(self.origin),
            "to": list(self.target),
            "viewer": self.viewer,
            "lines": [line.as_json() for line in self.deciding],
            "checked": self._checked,
        }


def line_of_sight(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None = None) -> Sight:
    """Line of sight from ``a`` to ``b`` under ``profile`` by its candidate lines (the fast path;
    no cover: the facade adds it). Raises PlacementError for a square off the board.

    >>> from game.core.profiles import parse_rule
    >>> b = Board.from_ascii(["..."], walls=["V(1,0)"])
    >>> r = line_of_sight(b, (0, 0), (2, 0), parse_rule("corners"))
    >>> r.clear, r.checked, r.first_blocker.explain()
    (False, 16, "Blocked: corner (0,0) to corner (2,0) runs along the board's edge H(0,0) (along_wall=blocks).")
    """
    check_square(board, a)
    check_square(board, b)
    clear, deciding, checked = decide(board, a, b, profile, viewer, complete=False)
    return Sight(a, b, viewer, profile, clear, LinesSource(a, b, viewer, profile, clear, deciding, checked))


# --- many pairs ---------------------------------------------------------------------------------


def visible_from(board: Board, a: Square, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """Every square visible from ``a`` under ``profile``: bool array (height, width), ``[y, x]``,
    by the field of the rule's family (:func:`any_field`, :func:`corner_field`, else
    :func:`walk_field`). Void squares are never visible; the origin is.

    >>> from game.core.profiles import parse_rule
    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> visible_from(b, (0, 0), parse_rule("corners")).astype(int)
    array([[1, 1, 1],
           [1, 1, 1],
           [1, 1, 1]])
    """
    field = {"any": any_field, "corners": corner_field}.get(profile.family, walk_field)
    return field(board, a, profile, viewer)


def walk_field(board: Board, a: Square, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """The field of view by the verdict of every square (any rule; the others' fallback)."""
    mask = np.zeros((board.height, board.width), dtype=bool)
    if not board.on_board(a):
        return mask
    for b in board.squares():
        mask[b[1], b[0]] = _verdict(board, a, b, profile, viewer, complete=False)
    return mask


def any_field(board: Board, a: Square, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """The field of view of a rule of family ``"any"``: the weak-visibility sweep of
    :mod:`game.core.any_fov`."""
    if not board.on_board(a):
        return np.zeros((board.height, board.width), dtype=bool)
    seen: np.ndarray = visible_any(*sight_arrays(view(board, profile, viewer)), a) & on_board_mask(board)
    return seen


#: from this many squares on, corner rules' FOV is shadow cast; on smaller boards (every square near
#: the origin) the walk is quicker than the arrays' set-up
FAST_FOV_SQUARES = 36


def corner_field(board: Board, a: Square, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """The field of view of a rule of family ``"corners"``: the shadow-cast segments
    (:mod:`game.core.profile_fov`, exact positives), then the exact walk for what it leaves out —
    every line to a square sharing a corner with A (on boards of fewer than
    :data:`FAST_FOV_SQUARES` squares, the walk alone)."""
    if not board.on_board(a) or board.width * board.height < FAST_FOV_SQUARES:
        return walk_field(board, a, profile, viewer)
    return _corner_cast(board, a, profile, viewer)


def _corner_cast(board: Board, a: Square, profile: Profile, viewer: str | None, after: bool = False) -> np.ndarray:
    """:func:`corner_field` on a board of any size (the tests run it on 3×3 boards). ``after``:
    right for ``a`` and the squares after it in row-major order only (see :func:`_corner_pairs`)."""
    onb = on_board_mask(board)
    mask: np.ndarray = corner_candidates(view(board, profile, viewer), a, after) & onb
    return _walk_neighbours(board, a, profile, viewer, mask, onb, after)


def _walk_neighbours(
    board: Board, a: Square, profile: Profile, viewer: str | None, mask: np.ndarray, onb: np.ndarray, after: bool,
) -> np.ndarray:
    """``mask`` (the caster's exact positives from ``a``) completed by the walk's verdict for every
    square sharing a corner with ``a`` that it left out (after ``a`` only, with ``after``)."""
    ax, ay = a
    ys, xs = np.nonzero(~mask[max(ay - 1, 0) : ay + 2, max(ax - 1, 0) : ax + 2])
    for y, x in zip((ys + max(ay - 1, 0)).tolist(), (xs + max(ax - 1, 0)).tolist(), strict=True):
        if onb[y, x] and not (after and (y, x) < (ay, ax)):
            mask[y, x] = _verdict(board, a, (x, y), profile, viewer, complete=False)
    return mask


def _corner_pairs(board: Board, profile: Profile, viewer: str | None, out: np.ndarray) -> np.ndarray:
    """:func:`all_pairs` of a symmetric corner rule into the zeroed ``out`` ``[ay, ax, by, bx]``:
    each origin's squares after it in row-major order (:func:`game.core.profile_pairs.row_candidates`:
    each grid point cast once for the 4 squares around it, a board row at a time; then the walk
    for what they leave out), and the table is mirrored."""
    w, n = board.width, board.width * board.height
    flat = out.reshape(n, n)
    geo = view(board, profile, viewer)
    onb = on_board_mask(board)
    lower = point_planes(geo, 0)
    for ay in range(board.height):
        upper, lower = lower, point_planes(geo, ay + 1)
        found = row_candidates(geo, ay, upper, lower)
        for ax in range(w):
            if not onb[ay, ax]:
                continue
            i = ay * w + ax
            mask = _walk_neighbours(board, (ax, ay), profile, viewer, found[ax] & onb, onb, True)
            flat[i, i:] = mask.reshape(-1)[i:]
    mirror_upper(flat)
    return out


def on_board_mask(board: Board) -> np.ndarray:
    """Bool ``[y, x]``: the on-board squares (in bounds, not void)."""
    mask = np.ones((board.height, board.width), dtype=bool)
    for x, y in board.void:
        mask[y, x] = False
    return mask


def all_pairs(board: Board, profile: Profile, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares under ``profile``: bool array (H, W, H, W)."""
    out = np.zeros((board.height, board.width, board.height, board.width), dtype=bool)
    # symmetric when from == to and no viewer-dependent figure rule (see tests/test_profile_los.py)
    symmetric = profile.from_ == profile.to and (profile.figures != "enemies-at-capacity" or viewer is None)
    fast = profile.family == "any" or (profile.family == "corners" and board.width * board.height >= FAST_FOV_SQUARES)
    if symmetric and profile.family == "corners" and fast:
        return _corner_pairs(board, profile, viewer, out)
    if not symmetric or fast:
        for a in board.squares():
            out[a[1], a[0]] = visible_from(board, a, profile, viewer)
        return out
    squares = list(board.squares())
    for i, a in enumerate(squares):
        out[a[1], a[0], a[1], a[0]] = True
        for b in squares[i + 1:]:
            seen = _verdict(board, a, b, profile, viewer, complete=False)
            out[a[1], a[0], b[1], b[0]] = out[b[1], b[0], a[1], a[0]] = seen
    return out
