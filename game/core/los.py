"""Exact line of sight (LOS) on a square grid: the verdict, every crossing, and why.

Pure: no pygame, no pytmx, no files, no clock. Verdicts use integers and
:class:`fractions.Fraction` only, never floats. The rule (docs/line-of-sight.md): a segment
runs from the centre of one square to the centre of another;

* it is **blocked** by an edge it crosses at an interior point if that edge is a wall or a
  closed/locked door (an open door and a window do not block sight);
* it is **blocked** by a square whose interior it crosses (not the two end squares) if that square
  is void, blocked terrain, or holds at least ``board.capacity`` enemies of the viewer;
* when it passes exactly through a grid corner, the two squares it passes *between* are the
  corner's **sides**; a side is closed if its square blocks or a wall/closed door on that square's
  two edges meets the corner. The corner blocks only if **both** sides are closed.

Three entry points answer the same question:

* :func:`line_of_sight_reference` — slow and obviously correct, straight from the rule (the oracle);
* :func:`line_of_sight` — the same :class:`LosResult` from a cached per-offset ray template (an
  integer supercover walk);
* :func:`verdict` / :func:`quick_ray` — the hover path: an integer walk (stopping at the first
  blocker for :func:`verdict`), the Fraction explanation only when asked for;
* :func:`visible_from` / :func:`pair_table` / :func:`all_pairs` — numpy masks from the octant
  engine of :mod:`game.core.fov` (exact slopes, cost ~ the board area per origin, no per-size
  ray table).

>>> board = Board.from_ascii([".....", ".....", "....."], walls=["V(2,1)"])
>>> line_of_sight(board, (0, 1), (4, 1)).explain()
'Blocked: wall V(2,1) between (1,1) and (2,1).'
>>> line_of_sight(board, (1, 0), (2, 1)).explain()
'Clear: the ray skims the corner (2,1) where only the south-west side is closed.'
>>> line_of_sight(board, (0, 0), (4, 2)) == line_of_sight_reference(board, (0, 0), (4, 2))
True
>>> visible_from(board, (0, 1)).astype(int)
array([[1, 1, 1, 1, 0],
       [1, 1, 0, 0, 0],
       [1, 1, 1, 1, 0]])
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np

from game.core.board import Board, Corner, Edge, Square, corner_edges, fmt_square, is_enemy
from game.core.errors import PlacementError
from game.core.fov import BlockerSet, batch_size, fov_half_rows, fov_rows
from game.core.fov_cast import cast, flag_grid

__all__ = [
    "Crossing",
    "LosResult",
    "Ray",
    "QuickRay",
    "Side",
    "Verdict",
    "all_pairs",
    "cast_budget",
    "clear_caches",
    "is_close",
    "line_of_sight",
    "line_of_sight_reference",
    "mask_to_ascii",
    "pair_bits",
    "pair_table",
    "quick_ray",
    "ray_template",
    "verdict",
    "visible_from",
]

CrossingKind = Literal["edge", "corner", "square"]
HALF = Fraction(1, 2)


# --- result types ---------------------------------------------------------------------------


def _fraction_text(value: Fraction) -> str:
    """A fraction as JSON-friendly text: ``"3/2"``, ``"2"``."""
    return str(value)


@dataclass(frozen=True)
class Side:
    """One side of a grid corner the ray passes through: a square and the two edges (arms) of that
    square that meet at the corner.

    ``closed`` when the square blocks sight or either arm is a wall or closed/locked door; ``why``
    lists the reasons (empty when open).
    """

    name: str
    square: Square
    arms: tuple[Edge, Edge]
    closed: bool
    why: str

    def as_json(self) -> dict[str, object]:
        """``{"name", "square", "arms", "closed", "why"}``."""
        return {
            "name": self.name,
            "square": list(self.square),
            "arms": [str(arm) for arm in self.arms],
            "closed": self.closed,
            "why": self.why,
        }


@dataclass(frozen=True)
class Crossing:
    """One thing the ray meets, in order along it: an edge, a grid corner, or a square.

    ``t`` is the ray parameter (0 at the origin centre, 1 at the target centre) where it meets the
    thing (for a square: where the ray enters it) and ``point`` the exact point there.
    ``between`` holds the squares before and after an edge or a corner. ``reason`` says what the
    thing is when it matters (``"wall V(2,2)"``, ``"blocked terrain"``, ...), empty otherwise.
    """

    kind: CrossingKind
    t: Fraction
    point: tuple[Fraction, Fraction]
    blocks: bool
    reason: str = ""
    edge: Edge | None = None
    corner: Corner | None = None
    square: Square | None = None
    between: tuple[Square, Square] | None = None
    sides: tuple[Side, Side] | None = None

    def explain(self) -> str:
        """One sentence about this step (the lesson mode shows it crossing by crossing).

        >>> b = Board.from_ascii(["...", ".#.", "..."])
        >>> [c.explain() for c in line_of_sight(b, (0, 1), (2, 1)).crossings]
        ['Crosses the open edge V(1,1) between (0,1) and (1,1).', 'Blocked: square (1,1) is blocked terrain.', 'Crosses the open edge V(2,1) between (1,1) and (2,1).']
        """
        if self.kind == "edge":
            assert self.edge is not None and self.between is not None
            a, b = (fmt_square(sq) for sq in self.between)
            if self.blocks:
                return f"Blocked: {self.reason} between {a} and {b}."
            if self.reason:
                return f"Crosses the {self.reason} between {a} and {b}."
            return f"Crosses the open edge {self.edge} between {a} and {b}."
        if self.kind == "square":
            assert self.square is not None
            where = fmt_square(self.square)
            if not self.blocks:
                return f"Passes through square {where}, which does not block."
            if self.reason in ("off the board", "blocked terrain"):
                return f"Blocked: square {where} is {self.reason}."
            return f"Blocked: square {where} holds {self.reason}."
        assert self.corner is not None and self.between is not None and self.sides is not None
        where = f"the corner {fmt_square(self.corner)}"
        a, b = (fmt_square(sq) for sq in self.between)
        closed = [side for side in self.sides if side.closed]
        if self.blocks:
            detail = ", ".join(f"{side.why} on the {side.name} side" for side in self.sides)
            return f"Blocked at {where} between {a} and {b}: {detail}."
        if closed:
            side = closed[0]
            return (
                f"Skims {where} between {a} and {b}: only the {side.name} side is closed "
                f"({side.why}), so it does not block."
            )
        return f"Passes through {where} between {a} and {b}; both sides are open."

    def as_json(self) -> dict[str, object]:
        """The crossing as a JSON object (see docs/line-of-sight.md).

        >>> b = Board.from_ascii(["..."], walls=["V(1,0)"])
        >>> line_of_sight(b, (0, 0), (2, 0)).crossings[0].as_json()["point"]
        ['1', '1/2']
        """
        out: dict[str, object] = {
            "kind": self.kind,
            "t": _fraction_text(self.t),
            "point": [_fraction_text(self.point[0]), _fraction_text(self.point[1])],
            "blocks": self.blocks,
            "reason": self.reason,
        }
        if self.edge is not None:
            out["edge"] = str(self.edge)
        if self.corner is not None:
            out["corner"] = list(self.corner)
        if self.square is not None:
            out["square"] = list(self.square)
        if self.between is not None:
            out["between"] = [list(sq) for sq in self.between]
        if self.sides is not None:
            out["sides"] = [side.as_json() for side in self.sides]
        out["explanation"] = self.explain()
        return out


@dataclass(frozen=True)
class LosResult:
    """The answer for one ray: every crossing in order, the verdict and the blockers.

    ``viewer`` is the side whose enemies block (None: every figure counts). The verdict is about
    squares; that a figure never targets itself (rules L29) is the rules layer's business.
    """

    origin: Square
    target: Square
    viewer: str | None
    crossings: tuple[Crossing, ...]

    @property
    def blockers(self) -> tuple[Crossing, ...]:
        """The crossings that block, in order along the ray."""
        return tuple(c for c in self.crossings if c.blocks)

    @property
    def clear(self) -> bool:
        """True when nothing along the ray blocks."""
        return not any(c.blocks for c in self.crossings)

    @property
    def first_blocker(self) -> Crossing | None:
        """The first crossing that blocks, or None when the ray is clear."""
        return next((c for c in self.crossings if c.blocks), None)

    def explain(self) -> str:
        """One sentence for the status line.

        >>> b = Board.from_ascii(["...", "...", "..."])
        >>> line_of_sight(b, (0, 0), (2, 2)).explain()
        'Clear: nothing blocks the ray from (0,0) to (2,2).'
        >>> line_of_sight(b, (1, 1), (1, 1)).explain()
        'Clear: (1,1) is the same square.'
        """
        skims = [c for c in self.crossings if c.kind == "corner" and c.sides and any(s.closed for s in c.sides)]
        first = self.first_blocker
        skim = skims[0] if skims and first is None else None
        return _explain_ray(self.origin, self.target, first, len(self.blockers), skim, len(skims))

    def drawing(self) -> list[DrawStep]:
        """Every crossing as a :data:`DrawStep` (as :meth:`QuickRay.drawing`; floats for drawing)."""
        out: list[DrawStep] = []
        for c in self.crossings:
            where = c.edge if c.kind == "edge" else c.corner if c.kind == "corner" else c.square
            assert where is not None
            closed = tuple(side.square for side in c.sides or () if side.closed)
            out.append((c.kind, where, (float(c.point[0]), float(c.point[1])), c.blocks, closed))
        return out

    @property
    def block_t(self) -> float | None:
        """Where the first blocker is along the ray (a float for drawing), None when clear."""
        first = self.first_blocker
        return None if first is None else float(first.t)

    def as_json(self) -> dict[str, object]:
        """``{"clear", "blockers", "crossings", "from", "to", "viewer", "explanation"}``."""
        crossings = [c.as_json() for c in self.crossings]
        return {
            "clear": self.clear,
            "blockers": [j for c, j in zip(self.crossings, crossings, strict=True) if c.blocks],
            "crossings": crossings,
            "from": list(self.origin),
            "to": list(self.target),
            "viewer": self.viewer,
            "explanation": self.explain(),
        }


#: The UI's name for one answered ray.
Ray = LosResult


# --- classification, straight from the rule (shared by both engines) -----------------------


def _check_square(board: Board, sq: Square) -> None:
    if not board.on_board(sq):
        where = "outside the board" if not board.in_bounds(sq) else "void (off the board)"
        raise PlacementError(
            f"square {fmt_square(sq)} is {where}; the board is {board.width}x{board.height}"
        )


def _edge_state(board: Board, edge: Edge) -> tuple[bool, str]:
    """Whether an edge blocks sight and what it is (empty text for a plain open edge)."""
    kind = board.edge_kind(edge)
    if kind == "door":
        state = board.doors[edge].state
        return state.blocks, f"{state.value} door on {edge}"
    if kind == "wall":
        return True, f"wall {edge}"
    if kind == "window":
        return False, f"window on {edge} (windows do not block sight)"
    return False, ""


def _edge_crossing(
    board: Board, edge: Edge, t: Fraction, point: tuple[Fraction, Fraction], before: Square, after: Square
) -> Crossing:
    blocks, reason = _edge_state(board, edge)
    return Crossing("edge", t, point, blocks, reason, edge=edge, between=(before, after))


def _square_crossing(
    board: Board, sq: Square, t: Fraction, point: tuple[Fraction, Fraction], viewer: str | None
) -> Crossing:
    reason = board.square_block_reason(sq, viewer)
    return Crossing("square", t, point, reason is not None, reason or "", square=sq)


def _corner_crossing(
    board: Board,
    corner: Corner,
    t: Fraction,
    point: tuple[Fraction, Fraction],
    before: Square,
    after: Square,
    viewer: str | None,
) -> Crossing:
    """Classify a grid corner the ray passes through from ``before`` to ``after`` (diagonal)."""
    x, y = corner
    north, east, south, west = corner_edges(corner)
    going_se_or_nw = (after[0] - before[0]) * (after[1] - before[1]) > 0
    if going_se_or_nw:  # passes between the north-east and south-west squares
        specs = (("north-east", (x, y - 1), (north, east)), ("south-west", (x - 1, y), (south, west)))
    else:  # passes between the north-west and south-east squares
        specs = (("north-west", (x - 1, y - 1), (north, west)), ("south-east", (x, y), (east, south)))
    sides = []
    for name, sq, arms in specs:
        reasons = []
        square_reason = board.square_block_reason(sq, viewer)
        if square_reason is not None:
            reasons.append(f"{square_reason} at {fmt_square(sq)}")
        for arm in arms:
            blocks, why = _edge_state(board, arm)
            if blocks:
                reasons.append(why)
        sides.append(Side(name, sq, arms, bool(reasons), ", ".join(reasons)))
    s1, s2 = sides
    closed = [s for s in sides if s.closed]
    if len(closed) == 2:
        reason = f"both sides closed: {s1.name} ({s1.why}), {s2.name} ({s2.why})"
    elif closed:
        reason = f"only the {closed[0].name} side is closed ({closed[0].why})"
    else:
        reason = "both sides open"
    return Crossing(
        "corner", t, point, len(closed) == 2, reason, corner=corner, between=(before, after), sides=(s1, s2)
    )


# --- the reference: slow and obviously correct ---------------------------------------------


def line_of_sight_reference(board: Board, a: Square, b: Square, viewer: str | None = None) -> LosResult:
    """Line of sight from square ``a`` to square ``b``, straight from the rule (the test oracle).

    Parametrise P(t) = A + t·(B − A) with Fractions, collect every t in (0, 1) where x or y is an
    integer, classify each as a corner (both integers) or an edge crossing, and the interior of every
    sub-interval as a crossed square. Raises :class:`PlacementError` for a square off the board.

    >>> b = Board.from_ascii(["....."] * 5)
    >>> [c.kind for c in line_of_sight_reference(b, (1, 1), (2, 2)).crossings]
    ['corner']
    """
    _check_square(board, a)
    _check_square(board, b)
    if a == b:
        return LosResult(a, b, viewer, ())
    x0, y0 = a[0] + HALF, a[1] + HALF
    dx, dy = b[0] - a[0], b[1] - a[1]

    def at(t: Fraction) -> tuple[Fraction, Fraction]:
        return x0 + t * dx, y0 + t * dy

    ts: set[Fraction] = set()
    for k in range(min(a[0], b[0]) + 1, max(a[0], b[0]) + 1):
        ts.add((k - x0) / dx)
    for k in range(min(a[1], b[1]) + 1, max(a[1], b[1]) + 1):
        ts.add((k - y0) / dy)
    events = sorted(ts)
    bounds = [Fraction(0), *events, Fraction(1)]
    cells = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        mx, my = at((lo + hi) / 2)
        cells.append((mx.numerator // mx.denominator, my.numerator // my.denominator))
    crossings: list[Crossing] = []
    for i, t in enumerate(events):
        px, py = at(t)
        before, after = cells[i], cells[i + 1]
        if px.denominator == 1 and py.denominator == 1:
            crossings.append(_corner_crossing(board, (int(px), int(py)), t, (px, py), before, after, viewer))
        elif px.denominator == 1:
            edge = Edge("V", int(px), py.numerator // py.denominator)
            crossings.append(_edge_crossing(board, edge, t, (px, py), before, after))
        else:
            edge = Edge("H", px.numerator // px.denominator, int(py))
            crossings.append(_edge_crossing(board, edge, t, (px, py), before, after))
        if after != b:
            crossings.append(_square_crossing(board, after, t, (px, py), viewer))
    return LosResult(a, b, viewer, tuple(crossings))


# --- the fast single ray: cached templates per offset --------------------------------------

#: One step of a template, relative to the origin square (0, 0): kind ("V", "H" or "C"), the
#: edge or corner coordinates, t, the point, and the square the ray enters.
_Step = tuple[str, int, int, Fraction, Fraction, Fraction, int, int]


@lru_cache(maxsize=1 << 16)
def ray_template(dx: int, dy: int) -> tuple[_Step, ...]:
    """The edges and corners a ray crosses from square (0, 0) to square (dx, dy), in order.

    They depend only on the offset, so templates are computed once (an integer supercover walk:
    compare the next vertical and horizontal crossing parameters, equal means a corner) and cached.
    Each step is ``(kind, x, y, t, px, py, enter_x, enter_y)`` with kind ``"V"``/``"H"`` (an edge
    ``V(x,y)``/``H(x,y)``) or ``"C"`` (corner ``(x,y)``), relative to the origin square.

    >>> [(s[0], s[1], s[2], str(s[3])) for s in ray_template(1, 1)]
    [('C', 1, 1, '1/2')]
    >>> [(s[0], s[1], s[2]) for s in ray_template(2, 1)]
    [('V', 1, 0), ('H', 1, 1), ('V', 2, 1)]
    """
    nx, ny = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    cx = cy = 0
    ix = iy = 0
    steps: list[_Step] = []
    while ix < nx or iy < ny:
        if ix < nx and iy < ny:
            order = (2 * ix + 1) * ny - (2 * iy + 1) * nx
        else:
            order = -1 if ix < nx else 1
        t = Fraction(2 * ix + 1, 2 * nx) if order <= 0 else Fraction(2 * iy + 1, 2 * ny)
        px, py = HALF + t * dx, HALF + t * dy
        line_x = cx + 1 if sx > 0 else cx
        line_y = cy + 1 if sy > 0 else cy
        if order == 0:
            kind, ex, ey = "C", line_x, line_y
            cx, cy, ix, iy = cx + sx, cy + sy, ix + 1, iy + 1
        elif order < 0:
            kind, ex, ey = "V", line_x, cy
            cx, ix = cx + sx, ix + 1
        else:
            kind, ex, ey = "H", cx, line_y
            cy, iy = cy + sy, iy + 1
        steps.append((kind, ex, ey, t, px, py, cx, cy))
    return tuple(steps)


def line_of_sight(board: Board, a: Square, b: Square, viewer: str | None = None) -> LosResult:
    """Line of sight from square ``a`` to square ``b`` for ``viewer`` (a side, or None).

    Returns the same :class:`LosResult` as :func:`line_of_sight_reference` (equal dataclasses),
    using the cached :func:`ray_template` of the offset. Raises :class:`PlacementError` for a square
    that is void or outside the board.

    >>> b = Board.from_ascii(["....."] * 3, doors={"V(2,1)": "open"})
    >>> line_of_sight(b, (0, 1), (4, 1)).clear
    True
    """
    _check_square(board, a)
    _check_square(board, b)
    if a == b:
        return LosResult(a, b, viewer, ())
    ax, ay = a
    crossings: list[Crossing] = []
    before = a
    for kind, ex, ey, t, px, py, cx, cy in ray_template(b[0] - ax, b[1] - ay):
        point = (px + ax, py + ay)
        after = (cx + ax, cy + ay)
        if kind == "C":
            crossings.append(_corner_crossing(board, (ex + ax, ey + ay), t, point, before, after, viewer))
        else:
            edge = Edge("V" if kind == "V" else "H", ex + ax, ey + ay)
            crossings.append(_edge_crossing(board, edge, t, point, before, after))
        if after != b:
            crossings.append(_square_crossing(board, after, t, point, viewer))
        before = after
    return LosResult(a, b, viewer, tuple(crossings))


# --- the hover path: integer walks, explanations on demand ----------------------------------


@dataclass(frozen=True)
class Verdict:
    """An integer verdict for one ray: clear or not, and the first blocker when blocked.

    ``kind`` is ``"edge"``, ``"corner"`` or ``"square"`` (None when clear); ``edge``, ``corner``
    or ``square`` says which; ``step`` is the blocker's index in :attr:`LosResult.crossings`.
    """

    clear: bool
    kind: CrossingKind | None = None
    edge: Edge | None = None
    corner: Corner | None = None
    square: Square | None = None
    step: int = -1


#: One step of an integer walk: kind, the edge / corner / square met, blocks, the closed corner
#: sides (squares), and the ray parameter at that step as the integer pair (numerator, denominator).
_WalkStep = tuple[CrossingKind, "Edge | Corner | Square", bool, tuple[Square, ...], int, int]


def _corner_sides(board: Board, corner: Corner, going_se_or_nw: bool, viewer: str | None) -> tuple[Square, ...]:
    """The closed sides (their squares) of a grid corner for a ray through it."""
    x, y = corner
    north, east, south, west = corner_edges(corner)
    if going_se_or_nw:
        specs = (((x, y - 1), north, east), ((x - 1, y), south, west))
    else:
        specs = (((x - 1, y - 1), north, west), ((x, y), east, south))
    return tuple(
        sq
        for sq, arm1, arm2 in specs
        if board.square_blocks_sight(sq, viewer) or board.edge_blocks_sight(arm1) or board.edge_blocks_sight(arm2)
    )


def _walk(board: Board, a: Square, b: Square, viewer: str | None, stop: bool) -> list[_WalkStep]:
    """Every crossing of the ray from ``a`` to ``b`` in order, in integers (the order of
    :attr:`LosResult.crossings`); with ``stop``, up to and including the first blocker."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    nx, ny = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    se_or_nw = dx * dy > 0
    cx, cy, ix, iy = ax, ay, 0, 0
    steps: list[_WalkStep] = []
    while ix < nx or iy < ny:
        if ix < nx and iy < ny:
            order = (2 * ix + 1) * ny - (2 * iy + 1) * nx
        else:
            order = -1 if ix < nx else 1
        line_x = cx + 1 if sx > 0 else cx
        line_y = cy + 1 if sy > 0 else cy
        num, den = (2 * ix + 1, 2 * nx) if order <= 0 else (2 * iy + 1, 2 * ny)
        if order == 0:
            corner = (line_x, line_y)
            closed = _corner_sides(board, corner, se_or_nw, viewer)
            steps.append(("corner", corner, len(closed) == 2, closed, num, den))
            cx, cy, ix, iy = cx + sx, cy + sy, ix + 1, iy + 1
        elif order < 0:
            edge = Edge("V", line_x, cy)
            steps.append(("edge", edge, board.edge_blocks_sight(edge), (), num, den))
            cx, ix = cx + sx, ix + 1
        else:
            edge = Edge("H", cx, line_y)
            steps.append(("edge", edge, board.edge_blocks_sight(edge), (), num, den))
            cy, iy = cy + sy, iy + 1
        if stop and steps[-1][2]:
            return steps
        if (cx, cy) != b:
            steps.append(("square", (cx, cy), board.square_blocks_sight((cx, cy), viewer), (), num, den))
            if stop and steps[-1][2]:
                return steps
    return steps


def verdict(board: Board, a: Square, b: Square, viewer: str | None = None) -> Verdict:
    """Whether the ray from ``a`` to ``b`` is clear for ``viewer``, and its first blocker, by an
    integer walk that stops at the first blocker (no Fractions, no explanation).

    Equal to ``line_of_sight(board, a, b, viewer)``'s ``clear`` and ``first_blocker``. Raises
    :class:`PlacementError` for a square off the board.

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> verdict(board, (0, 0), (4, 0))
    Verdict(clear=False, kind='edge', edge=Edge(axis='V', x=3, y=0), corner=None, square=None, step=4)
    >>> verdict(board, (0, 0), (2, 0)).clear
    True
    """
    _check_square(board, a)
    _check_square(board, b)
    if a == b:
        return Verdict(True)
    steps = _walk(board, a, b, viewer, stop=True)
    kind, where, blocks, _closed, _num, _den = steps[-1]
    if not blocks:
        return Verdict(True)
    step = len(steps) - 1
    if kind == "edge":
        assert isinstance(where, Edge)
        return Verdict(False, kind, edge=where, step=step)
    assert not isinstance(where, Edge)
    if kind == "corner":
        return Verdict(False, kind, corner=where, step=step)
    return Verdict(False, kind, square=where, step=step)


def _explain_ray(
    origin: Square, target: Square, first: Crossing | None, blockers: int, skim: Crossing | None, skims: int
) -> str:
    """The status sentence of a ray (shared by :class:`LosResult` and :class:`QuickRay`)."""
    if first is not None:
        text = first.explain()
        more = blockers - 1
        if more:
            text += f" ({more} more blocker{'s' if more > 1 else ''} further on.)"
        return text
    if origin == target:
        return f"Clear: {fmt_square(origin)} is the same square."
    if skim is not None:
        assert skim.corner is not None and skim.sides is not None
        side = next(s for s in skim.sides if s.closed)
        text = (
            f"Clear: the ray skims the corner {fmt_square(skim.corner)} where only the "
            f"{side.name} side is closed."
        )
        if skims > 1:
            text = text[:-1] + f" (and {skims - 1} more corner{'s' if skims > 2 else ''})."
        return text
    return f"Clear: nothing blocks the ray from {fmt_square(origin)} to {fmt_square(target)}."


#: What the painter draws for one crossing: kind, the edge / corner / square, the point (floats,
#: drawing only), whether it blocks, and the closed corner sides.
DrawStep = tuple[CrossingKind, "Edge | Corner | Square", tuple[float, float], bool, tuple[Square, ...]]


class QuickRay:
    """A ray for the hover path: integer verdict and drawing steps now, explanation on demand.

    Built by :func:`quick_ray` from one integer walk. :attr:`clear`, :meth:`drawing`,
    :attr:`block_t` and :meth:`explain` cost no Fractions beyond the one or two crossings the
    sentence names; :attr:`crossings`, :attr:`first_blocker` and :meth:`as_json` build the full
    :class:`LosResult` (Fractions) the first time they are asked for (the panel's lesson mode and
    the JSON output show it), equal to :func:`line_of_sight`.
    """

    def __init__(self, board: Board, origin: Square, target: Square, viewer: str | None) -> None:
        self.origin, self.target, self.viewer = origin, target, viewer
        self._board = board
        self._version = (board.serial, board.version)
        self._steps = _walk(board, origin, target, viewer, stop=False) if origin != target else []
        self.clear = not any(step[2] for step in self._steps)
        self._full: LosResult | None = None
        self._text: str | None = None

    def __repr__(self) -> str:
        state = "clear" if self.clear else "blocked"
        return f"QuickRay({self.origin} -> {self.target}, viewer={self.viewer!r}, {state})"

    @property
    def result(self) -> LosResult:
        """The full :class:`LosResult` (built once, on first use)."""
        if self._full is None:
            board = self._board
            if (board.serial, board.version) != self._version:
                raise RuntimeError("the board changed since this ray was cast; cast it again")
            self._full = line_of_sight(board, self.origin, self.target, self.viewer)
        return self._full

    @property
    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing with its Fractions (builds the full result)."""
        return self.result.crossings

    @property
    def blockers(self) -> tuple[Crossing, ...]:
        """The blocking crossings (builds the full result)."""
        return self.result.blockers

    @property
    def first_blocker(self) -> Crossing | None:
        """The first blocking crossing (builds the full result)."""
        return self.result.first_blocker

    @property
    def block_t(self) -> float | None:
        """Where the first blocker is along the ray (0..1, a float for drawing), None when clear."""
        for _kind, _where, blocks, _closed, num, den in self._steps:
            if blocks:
                return num / den
        return None

    def drawing(self) -> list[DrawStep]:
        """Every crossing as a :data:`DrawStep` (floats for the points; nothing exact is derived
        from them)."""
        x0, y0 = self.origin[0] + 0.5, self.origin[1] + 0.5
        dx, dy = self.target[0] - self.origin[0], self.target[1] - self.origin[1]
        return [
            (kind, where, (x0 + dx * num / den, y0 + dy * num / den), blocks, closed)
            for kind, where, blocks, closed, num, den in self._steps
        ]

    def _crossing(self, index: int) -> Crossing:
        """The exact :class:`Crossing` of one step (a Fraction or two for its point)."""
        board, (ax, ay), viewer = self._board, self.origin, self.viewer
        kind, where, _blocks, _closed, num, den = self._steps[index]
        t = Fraction(num, den)
        dx, dy = self.target[0] - ax, self.target[1] - ay
        point = (ax + HALF + t * dx, ay + HALF + t * dy)
        before = self.origin
        for k in range(index - 1, -1, -1):
            if self._steps[k][0] == "square":
                before = self._steps[k][1]  # type: ignore[assignment]
                break
        if kind == "square":
            assert not isinstance(where, Edge)
            return _square_crossing(board, where, t, point, viewer)
        after = self.target
        if index + 1 < len(self._steps) and self._steps[index + 1][0] == "square":
            after = self._steps[index + 1][1]  # type: ignore[assignment]
        if kind == "edge":
            assert isinstance(where, Edge)
            return _edge_crossing(board, where, t, point, before, after)
        assert not isinstance(where, Edge)
        return _corner_crossing(board, where, t, point, before, after, viewer)

    def explain(self) -> str:
        """The same sentence as :meth:`LosResult.explain`, from the integer walk."""
        if self._text is None:
            blocking = [i for i, step in enumerate(self._steps) if step[2]]
            first = self._crossing(blocking[0]) if blocking else None
            skims = [i for i, step in enumerate(self._steps) if step[0] == "corner" and step[3]]
            skim = self._crossing(skims[0]) if skims and not blocking else None
            self._text = _explain_ray(self.origin, self.target, first, len(blocking), skim, len(skims))
        return self._text

    def as_json(self) -> dict[str, object]:
        """As :meth:`LosResult.as_json` (builds the full result)."""
        return self.result.as_json()


def quick_ray(board: Board, a: Square, b: Square, viewer: str | None = None) -> QuickRay:
    """The hover path's ray from ``a`` to ``b``: integer verdict and drawing steps, the Fraction
    explanation only when asked for (see :class:`QuickRay`). Raises :class:`PlacementError` for a
    square off the board.

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> ray = quick_ray(board, (0, 0), (4, 0))
    >>> ray.clear, ray.explain() == line_of_sight(board, (0, 0), (4, 0)).explain()
    (False, True)
    """
    _check_square(board, a)
    _check_square(board, b)
    return QuickRay(board, a, b, viewer)


def is_close(board: Board, a: Square, b: Square) -> bool:
    """Melee reach (rules §1.2): the same square, or orthogonal neighbours across an open edge.

    A wall or a closed/locked door is not open; an open door is. A window blocks movement, so it is
    **not** an open edge here (our reading: Close is the movement relation). Squares off the board
    are never Close.

    >>> b = Board.from_ascii(["....."] * 5, walls=["V(3,2)"])
    >>> is_close(b, (2, 2), (2, 2)), is_close(b, (2, 2), (3, 2)), is_close(b, (2, 2), (2, 3))
    (True, False, True)
    >>> is_close(b, (2, 2), (3, 3))
    False
    """
    if not (board.on_board(a) and board.on_board(b)):
        return False
    if a == b:
        return True
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        return False
    return not board.edge_blocks_movement(Edge.between(a, b))


# --- many rays at once: numpy tables ---------------------------------------------------------

class _BoardCache:
    """Per-board caches: geometry arrays per geometry version, lookups and masks per version."""

    def __init__(self) -> None:
        self.geometry_version = -1
        self.version = -1
        self.edges: tuple[np.ndarray, np.ndarray] | None = None
        self.terrain: np.ndarray | None = None
        self.on_board: np.ndarray | None = None
        self.blockers: dict[str | None, BlockerSet] = {}
        self.flags: dict[str | None, tuple[bytes, bytes]] = {}
        self.masks: OrderedDict[tuple[Square, str | None], np.ndarray] = OrderedDict()

    def refresh(self, board: Board) -> None:
        if board.geometry_version != self.geometry_version:
            self.geometry_version = board.geometry_version
            self.edges = None
            self.terrain = None
            self.on_board = None
        if board.version != self.version:
            self.version = board.version
            self.blockers.clear()
            self.flags.clear()
            self.masks.clear()


_CACHES: weakref.WeakKeyDictionary[Board, _BoardCache] = weakref.WeakKeyDictionary()
_MASK_CACHE_SIZE = 1024


def clear_caches() -> None:
    """Forget every per-board blocker set and mask (ray templates and slope tables stay: they
    depend on the board size only)."""
    _CACHES.clear()


def _cache(board: Board) -> _BoardCache:
    cache = _CACHES.get(board)
    if cache is None:
        cache = _CACHES[board] = _BoardCache()
    cache.refresh(board)
    return cache


def _edge_arrays(board: Board, cache: _BoardCache) -> tuple[np.ndarray, np.ndarray]:
    """Sight-blocking edges: V as [y, x] (H, W+1) and H as [y, x] (H+1, W), cached per geometry
    version (from :attr:`Board.sight_edge_codes`: one numpy scatter, no pass over Edge objects)."""
    if cache.edges is None:
        w, h = board.width, board.height
        codes = board.sight_edge_codes
        flat = np.zeros(h * (w + 1) + (h + 1) * w, dtype=bool)
        if codes:
            flat[np.fromiter(codes, dtype=np.intp, count=len(codes))] = True
        cache.edges = (flat[: h * (w + 1)].reshape(h, w + 1), flat[h * (w + 1) :].reshape(h + 1, w))
    return cache.edges


def _terrain_array(board: Board, cache: _BoardCache) -> np.ndarray:
    """Void or blocked terrain as a bool [y, x] array."""
    if cache.terrain is None:
        terrain = np.zeros((board.height, board.width), dtype=bool)
        squares = board.void | board.blocked
        if squares:
            xy = np.fromiter(itertools.chain.from_iterable(squares), dtype=np.intp, count=2 * len(squares))
            terrain[xy[1::2], xy[0::2]] = True
        cache.terrain = terrain
    return cache.terrain


def _cell_blocks(board: Board, cache: _BoardCache, viewer: str | None) -> np.ndarray:
    """Squares that block sight for ``viewer`` as a bool [y, x] array."""
    cells = _terrain_array(board, cache).copy()
    counts: dict[Square, int] = {}
    for figure in board.figures.values():
        if is_enemy(figure, viewer):
            counts[figure.square] = counts.get(figure.square, 0) + 1
    for (x, y), n in counts.items():
        if n >= board.capacity and board.in_bounds((x, y)):
            cells[y, x] = True
    return cells


def _blockers(board: Board, cache: _BoardCache, viewer: str | None) -> BlockerSet:
    """What blocks sight on this board version for ``viewer``, as coordinate arrays (cached)."""
    found = cache.blockers.get(viewer)
    if found is None:
        edge_v, edge_h = _edge_arrays(board, cache)
        found = cache.blockers[viewer] = BlockerSet.from_arrays(_cell_blocks(board, cache, viewer), edge_v, edge_h)
    return found


def _flags(board: Board, cache: _BoardCache, viewer: str | None) -> tuple[bytes, bytes]:
    """The caster's padded byte grid (:func:`game.core.fov_cast.flag_grid`) for ``viewer`` (cached)."""
    found = cache.flags.get(viewer)
    if found is None:
        edge_v, edge_h = _edge_arrays(board, cache)
        found = cache.flags[viewer] = flag_grid(_cell_blocks(board, cache, viewer), edge_v, edge_h)
    return found


def cast_budget(width: int, height: int) -> int:
    """How many squares the shadow caster may visit before :func:`visible_from` hands the origin to
    the octant engine: about what the octant engine costs on this board size, in caster steps."""
    return 512 + (width * height) // 4


def _on_board_mask(board: Board, cache: _BoardCache) -> np.ndarray:
    """Squares on the board (not void) as a bool [y, x] array, cached per geometry version."""
    if cache.on_board is None:
        on = np.ones((board.height, board.width), dtype=bool)
        for x, y in board.void:
            on[y, x] = False
        cache.on_board = on
    return cache.on_board


Engine = Literal["auto", "cast", "octant"]


def visible_from(board: Board, a: Square, viewer: str | None = None, *, engine: Engine = "auto") -> np.ndarray:
    """Every square visible from square ``a`` for ``viewer``: bool array (height, width), ``[y, x]``.

    Void squares are never visible. The origin square itself is marked visible when it is on the
    board: other figures standing there are visible (a figure does not target itself, rules L29,
    but that is the rules layer's business). An origin off the board sees nothing. The mask equals
    ``line_of_sight(board, a, b, viewer).clear`` for every on-board ``b``. The returned array is
    cached per (board version, square, viewer) and read-only; copy it to change it.

    ``engine``: ``"auto"`` runs the shadow caster of :mod:`game.core.fov_cast` (cost follows what
    the origin sees) and hands the origin to the octant engine of :mod:`game.core.fov` (cost ~ the
    board area) when the caster passes :func:`cast_budget`; ``"cast"`` / ``"octant"`` run one of
    them only, uncached (the tests and benchmarks compare them).

    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> visible_from(b, (0, 0)).astype(int)
    array([[1, 1, 1],
           [1, 1, 0],
           [1, 0, 0]])
    >>> bool((visible_from(b, (0, 0), engine="cast") == visible_from(b, (0, 0), engine="octant")).all())
    True
    """
    cache = _cache(board)
    key = (a, viewer)
    if engine == "auto":
        found = cache.masks.get(key)
        if found is not None:
            cache.masks.move_to_end(key)
            return found
    mask = np.zeros((board.height, board.width), dtype=bool)
    if board.on_board(a):
        w, h = board.width, board.height
        cast_mask = None
        if engine != "octant":
            budget = cast_budget(w, h) if engine == "auto" else 1 << 62
            cast_mask = cast(*_flags(board, cache, viewer), w, h, a, budget)
        mask = fov_rows(_blockers(board, cache, viewer), [a])[0] if cast_mask is None else cast_mask
        mask &= _on_board_mask(board, cache)
    mask.setflags(write=False)
    if engine == "auto":
        cache.masks[key] = mask
        if len(cache.masks) > _MASK_CACHE_SIZE:
            cache.masks.popitem(last=False)
    return mask


def all_pairs(board: Board, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares: bool array (H, W, H, W), ``[ay, ax, by, bx]``.

    ``table[ay, ax]`` equals ``visible_from(board, (ax, ay), viewer)``; rows of void squares are
    empty. Memory: (W·H)² bytes for the answer and nothing of that size besides (no transposed
    copy); see :func:`pair_table` for a table over chosen squares only. Built like
    :func:`pair_bits`: the upper half-plane of every origin, then mirrored block by block.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,0)", "H(0,1)"])
    >>> all_pairs(b)[0, 0].astype(int)
    array([[1, 0],
           [0, 0]])
    """
    w, h = board.width, board.height
    n = w * h
    flat = np.zeros((n, n), dtype=bool)
    for index, first, rows in _upper_rows(board, viewer):
        flat[index, first:] = rows
    _mirror_bool(flat)
    index = np.flatnonzero(_on_board_mask(board, _cache(board)))
    flat[index, index] = True
    return flat.reshape(h, w, h, w)


def _upper_rows(board: Board, viewer: str | None) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
    """For batches of on-board origins (row-major order): their flat indices, the first flat target
    index ``first`` of the rows, and bool ``(len, W·H - first)``: visibility of every target after
    its origin in row-major order (False at and before it, and on void squares)."""
    w, h = board.width, board.height
    n = w * h
    cache = _cache(board)
    on = _on_board_mask(board, cache)
    ys, xs = np.nonzero(on)
    blockers = _blockers(board, cache, viewer)
    step = batch_size(w, h, 4)
    flat_on = on.reshape(-1)
    for start in range(0, ys.size, step):
        cy, cx = ys[start : start + step], xs[start : start + step]
        first_row, rows = fov_half_rows(blockers, [(int(x), int(y)) for x, y in zip(cx, cy, strict=True)])
        first = first_row * w
        index = cy * w + cx
        flat_rows = rows.reshape(len(index), n - first)
        flat_rows &= flat_on[first:]
        flat_rows &= np.arange(first, n)[None, :] > index[:, None]
        yield index, first, flat_rows


_BLOCK = 1024  # rows and columns of one mirrored block (a multiple of 8)


def _mirror_bool(flat: np.ndarray) -> None:
    """``flat |= flat.T`` for a square bool table whose lower triangle is empty, block by block
    (no transposed copy of the whole table)."""
    n = flat.shape[0]
    for i0 in range(0, n, _BLOCK):
        i1 = min(n, i0 + _BLOCK)
        for j0 in range(i0, n, _BLOCK):
            j1 = min(n, j0 + _BLOCK)
            flat[j0:j1, i0:i1] |= flat[i0:i1, j0:j1].T.copy()


def _mirror_bits(bits: np.ndarray, n: int) -> None:
    """As :func:`_mirror_bool` for the bit table of :func:`pair_bits` (rows of ``n`` bits)."""
    for i0 in range(0, n, _BLOCK):
        i1 = min(n, i0 + _BLOCK)
        for j0 in range(i0, n, _BLOCK):
            j1 = min(n, j0 + _BLOCK)
            part = np.unpackbits(bits[i0:i1, j0 // 8 : (j1 + 7) // 8], axis=1, count=j1 - j0)
            packed = np.packbits(np.ascontiguousarray(part.T), axis=1)
            bits[j0:j1, i0 // 8 : i0 // 8 + packed.shape[1]] |= packed


def pair_bits(board: Board, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares as bits: uint8 ``(W·H, ceil(W·H / 8))``, row
    ``ay * W + ax``, bit ``by * W + bx`` of that row (``np.unpackbits(..., count=W·H)`` gives it
    back). Equal to :func:`all_pairs` at one bit per pair: a 128×128 board takes 33.5 MB.

    The rule is symmetric for a fixed viewer (the same segment both ways), so each origin casts
    only its upper half-plane (the targets after it in row-major order) and the table is mirrored
    block by block: half the casting, no transposed copy.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,0)", "H(0,1)"])
    >>> np.unpackbits(pair_bits(b)[0], count=4).tolist()
    [1, 0, 0, 0]
    """
    w, h = board.width, board.height
    n = w * h
    out = np.zeros((n, (n + 7) // 8), dtype=np.uint8)
    for index, first, rows in _upper_rows(board, viewer):
        start = first // 8 * 8  # pack from a byte boundary: the bits before ``first`` stay 0
        if start < first:
            rows = np.concatenate([np.zeros((len(index), first - start), dtype=bool), rows], axis=1)
        out[index, start // 8 :] = np.packbits(rows, axis=1)
    _mirror_bits(out, n)
    index = np.flatnonzero(_on_board_mask(board, _cache(board)))
    out[index, index // 8] |= (128 >> (index % 8)).astype(np.uint8)
    return out


def pair_table(
    board: Board, origins: list[Square], targets: np.ndarray, viewer: str | None = None
) -> np.ndarray:
    """Visibility from each of ``origins`` to the squares of the bool mask ``targets`` ``[y, x]``:
    bool ``(len(origins), H, W)``, False outside ``targets``.

    Only the listed origins are cast (the designer lists squares that can hold a figure), in
    batches, one byte per answer; void squares are never seen.
    """
    cache = _cache(board)
    blockers = _blockers(board, cache, viewer)
    keep = targets & _on_board_mask(board, cache)
    out = np.zeros((len(origins), board.height, board.width), dtype=bool)
    step = batch_size(board.width, board.height)
    for start in range(0, len(origins), step):
        chunk = origins[start : start + step]
        rows = fov_rows(blockers, chunk)
        rows &= keep
        out[start : start + len(chunk)] = rows
    return out


def mask_to_ascii(board: Board, mask: np.ndarray, origin: Square | None = None) -> list[str]:
    """A visibility mask as text rows: ``@`` origin, ``o`` visible, ``.`` hidden, ``~`` void.

    The format of ``sightline los MAP X,Y`` and of the golden files in ``tests/golden/los/``.

    >>> b = Board.from_ascii(["...~", "...."], walls=["V(2,0)", "V(2,1)"])
    >>> mask_to_ascii(b, visible_from(b, (0, 0)), (0, 0))
    ['@o.~', 'oo..']
    """
    rows = []
    for y in range(board.height):
        chars = []
        for x in range(board.width):
            if (x, y) == origin:
                chars.append("@")
            elif not board.on_board((x, y)):
                chars.append("~")
            else:
                chars.append("o" if mask[y, x] else ".")
        rows.append("".join(chars))
    return rows
