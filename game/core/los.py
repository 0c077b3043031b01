"""Exact line of sight (LOS) on a square grid: the verdict, every crossing, and why.

Pure: no pygame, no pytmx, no files, no clock. Verdicts use integers and
:class:`fractions.Fraction` only, never floats. The rule (DESIGN.md §4, rules file §1.3): a segment
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
* :func:`visible_from` / :func:`all_pairs` — numpy masks, many rays at once.

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

import weakref
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np

from game.core.board import Board, Corner, Edge, Square, corner_edges, fmt_square, is_enemy
from game.core.errors import PlacementError

__all__ = [
    "Crossing",
    "LosResult",
    "Ray",
    "Side",
    "all_pairs",
    "clear_caches",
    "is_close",
    "line_of_sight",
    "line_of_sight_reference",
    "mask_to_ascii",
    "ray_template",
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
        first = self.first_blocker
        if first is not None:
            text = first.explain()
            more = len(self.blockers) - 1
            if more:
                text += f" ({more} more blocker{'s' if more > 1 else ''} further on.)"
            return text
        if self.origin == self.target:
            return f"Clear: {fmt_square(self.origin)} is the same square."
        skims = [c for c in self.crossings if c.kind == "corner" and c.sides and any(s.closed for s in c.sides)]
        if skims:
            corner = skims[0]
            assert corner.corner is not None and corner.sides is not None
            side = next(s for s in corner.sides if s.closed)
            text = (
                f"Clear: the ray skims the corner {fmt_square(corner.corner)} where only the "
                f"{side.name} side is closed."
            )
            if len(skims) > 1:
                text = text[:-1] + f" (and {len(skims) - 1} more corner{'s' if len(skims) > 2 else ''})."
            return text
        return f"Clear: nothing blocks the ray from {fmt_square(self.origin)} to {fmt_square(self.target)}."

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

# Kinds of lookup entries: an event (edge or corner) the ray meets, combined with the square it
# enters next; the *_LAST kinds are for the last event, whose next square is the target.
(_VP, _VM, _VL, _HP, _HM, _HL, _CPP, _CMM, _CPM, _CMP, _CL_POS, _CL_NEG) = range(12)
_KINDS = 12


@dataclass(frozen=True)
class _RayTable:
    """Every ray of a board size, as flat lookup indices relative to the origin square.

    Rays are ordered by (dy, dx) for dy in -(H-1)..H-1, dx in -(W-1)..W-1, so for any origin the
    rays whose targets lie on the board form one contiguous run of elements per dy row.
    """

    width: int
    height: int
    rel: np.ndarray  # int32: kind * plane + y * stride + x, relative to the origin
    start: np.ndarray  # int64 (2H-1, 2W-1): first element of each ray
    end: np.ndarray  # int64 (2H-1, 2W-1): one past the last element


def _group_index(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups of the given sizes: the group of each element and its index inside the group."""
    total = int(counts.sum())
    group = np.repeat(np.arange(counts.size), counts)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return group, np.arange(total) - first[group]


@lru_cache(maxsize=4)
def _ray_table(width: int, height: int) -> _RayTable:
    """Build (vectorised) and cache the ray table of a board size."""
    stride, plane = width + 1, (width + 1) * (height + 1)
    dys, dxs = np.meshgrid(
        np.arange(-(height - 1), height, dtype=np.int64),
        np.arange(-(width - 1), width, dtype=np.int64),
        indexing="ij",
    )
    dx, dy = dxs.ravel(), dys.ravel()
    nx, ny = np.abs(dx), np.abs(dy)
    n_rays = dx.size

    # crossings of vertical grid lines (corners included)
    ray, k = _group_index(nx)
    rdx, rdy, rnx = dx[ray], dy[ray], nx[ray]
    east = rdx > 0
    line_x = np.where(east, k + 1, -k)
    num, den = rnx + (2 * k + 1) * rdy, 2 * rnx
    corner = num % den == 0
    row = num // den
    enter_x = np.where(east, line_x, line_x - 1)
    enter_y = np.where(corner & (rdy < 0), row - 1, row)
    last = (enter_x == rdx) & (enter_y == rdy)
    south = rdy > 0
    corner_kind = np.where(
        east, np.where(south, _CPP, _CPM), np.where(south, _CMP, _CMM)
    )
    corner_last = np.where(east == south, _CL_POS, _CL_NEG)
    kind_v = np.where(
        corner,
        np.where(last, corner_last, corner_kind),
        np.where(last, _VL, np.where(east, _VP, _VM)),
    )
    rel_v = kind_v * plane + row * stride + line_x
    corners_per_ray = np.bincount(ray[corner], minlength=n_rays)
    pos_v = k  # position inside the ray, before the horizontal crossings

    # crossings of horizontal grid lines (corners already counted above)
    ray_h, m = _group_index(ny)
    hdx, hdy, hny = dx[ray_h], dy[ray_h], ny[ray_h]
    south_h = hdy > 0
    line_y = np.where(south_h, m + 1, -m)
    num_h, den_h = hny + (2 * m + 1) * hdx, 2 * hny
    keep = num_h % den_h != 0
    ray_h, hdx, hdy, line_y, south_h = ray_h[keep], hdx[keep], hdy[keep], line_y[keep], south_h[keep]
    col = num_h[keep] // den_h[keep]
    enter_y_h = np.where(south_h, line_y, line_y - 1)
    last_h = (col == hdx) & (enter_y_h == hdy)
    kind_h = np.where(last_h, _HL, np.where(south_h, _HP, _HM))
    rel_h = kind_h * plane + line_y * stride + col

    counts = nx + ny - corners_per_ray
    starts = np.concatenate(([0], np.cumsum(counts)))
    rel = np.empty(int(starts[-1]), dtype=np.int32)
    rel[starts[ray] + pos_v] = rel_v
    h_counts = ny - corners_per_ray
    _, h_index = _group_index(h_counts)
    rel[starts[ray_h] + nx[ray_h] + h_index] = rel_h
    shape = (2 * height - 1, 2 * width - 1)
    return _RayTable(width, height, rel, starts[:-1].reshape(shape), starts[1:].reshape(shape))


class _BoardCache:
    """Per-board caches: geometry arrays per geometry version, lookups and masks per version."""

    def __init__(self) -> None:
        self.geometry_version = -1
        self.version = -1
        self.edges: tuple[np.ndarray, np.ndarray] | None = None
        self.terrain: np.ndarray | None = None
        self.on_board: np.ndarray | None = None
        self.lookups: dict[str | None, np.ndarray] = {}
        self.masks: OrderedDict[tuple[Square, str | None], np.ndarray] = OrderedDict()

    def refresh(self, board: Board) -> None:
        if board.geometry_version != self.geometry_version:
            self.geometry_version = board.geometry_version
            self.edges = None
            self.terrain = None
            self.on_board = None
        if board.version != self.version:
            self.version = board.version
            self.lookups.clear()
            self.masks.clear()


_CACHES: weakref.WeakKeyDictionary[Board, _BoardCache] = weakref.WeakKeyDictionary()
_MASK_CACHE_SIZE = 1024


def clear_caches() -> None:
    """Forget every per-board lookup and mask (ray templates and tables stay: they are geometry)."""
    _CACHES.clear()


def _cache(board: Board) -> _BoardCache:
    cache = _CACHES.get(board)
    if cache is None:
        cache = _CACHES[board] = _BoardCache()
    cache.refresh(board)
    return cache


def _edge_arrays(board: Board, cache: _BoardCache) -> tuple[np.ndarray, np.ndarray]:
    """Sight-blocking edges: V as [y, x] (H, W+1) and H as [y, x] (H+1, W)."""
    if cache.edges is None:
        w, h = board.width, board.height
        v = np.zeros((h, w + 1), dtype=bool)
        hh = np.zeros((h + 1, w), dtype=bool)
        for edge in set(board.walls) | set(board.doors):
            if not board.edge_blocks_sight(edge):
                continue
            if edge.axis == "V" and 0 <= edge.x <= w and 0 <= edge.y < h:
                v[edge.y, edge.x] = True
            elif edge.axis == "H" and 0 <= edge.x < w and 0 <= edge.y <= h:
                hh[edge.y, edge.x] = True
        cache.edges = (v, hh)
    return cache.edges


def _terrain_array(board: Board, cache: _BoardCache) -> np.ndarray:
    """Void or blocked terrain as a bool [y, x] array."""
    if cache.terrain is None:
        terrain = np.zeros((board.height, board.width), dtype=bool)
        for x, y in board.void | board.blocked:
            terrain[y, x] = True
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


def _lookup(board: Board, cache: _BoardCache, viewer: str | None) -> np.ndarray:
    """The flat lookup of every kind of event (see ``_RayTable``) for this board and viewer."""
    found = cache.lookups.get(viewer)
    if found is not None:
        return found
    w, h = board.width, board.height
    cells = _cell_blocks(board, cache, viewer)
    edge_v, edge_h = _edge_arrays(board, cache)
    cellp = np.ones((h + 2, w + 2), dtype=bool)  # off the board all around
    cellp[1:-1, 1:-1] = cells
    evp = np.zeros((h + 2, w + 1), dtype=bool)
    evp[1:-1] = edge_v
    ehp = np.zeros((h + 1, w + 2), dtype=bool)
    ehp[:, 1:-1] = edge_h

    def cell(dy: int, dx: int) -> np.ndarray:  # C(y + dy, x + dx) over y in 0..H, x in 0..W
        return cellp[1 + dy : h + 2 + dy, 1 + dx : w + 2 + dx]

    v_here = evp[1:]  # V(x, y)
    v_north = evp[:-1]  # V(x, y-1)
    h_here = ehp[:, 1:]  # H(x, y)
    h_west = ehp[:, :-1]  # H(x-1, y)
    north_east = cell(-1, 0) | v_north | h_here
    south_west = cell(0, -1) | v_here | h_west
    north_west = cell(-1, -1) | v_north | h_west
    south_east = cell(0, 0) | h_here | v_here
    c_pos = north_east & south_west
    c_neg = north_west & south_east
    table = np.empty((_KINDS, h + 1, w + 1), dtype=bool)
    table[_VP] = v_here | cell(0, 0)
    table[_VM] = v_here | cell(0, -1)
    table[_VL] = v_here
    table[_HP] = h_here | cell(0, 0)
    table[_HM] = h_here | cell(-1, 0)
    table[_HL] = h_here
    table[_CPP] = c_pos | cell(0, 0)
    table[_CMM] = c_pos | cell(-1, -1)
    table[_CPM] = c_neg | cell(-1, 0)
    table[_CMP] = c_neg | cell(0, -1)
    table[_CL_POS] = c_pos
    table[_CL_NEG] = c_neg
    flat = np.append(table.ravel(), False)  # the sentinel of _blocked_rays
    cache.lookups[viewer] = flat
    return flat


def _blocked_rays(
    table: _RayTable, lookup: np.ndarray, origin: Square, rows: slice, cols: slice
) -> np.ndarray:
    """Whether each ray from ``origin`` to the targets in ``rows`` × ``cols`` (board rows and
    columns) is blocked, as a bool array; the ray to the origin itself comes out unspecified."""
    ox, oy = origin
    w, h = table.width, table.height
    r0, r1 = rows.start + h - 1 - oy, rows.stop + h - 1 - oy
    c0, c1 = cols.start + w - 1 - ox, cols.stop + w - 1 - ox
    starts = table.start[r0:r1, c0:c1]
    row_start = starts[:, 0]
    row_end = table.end[r0:r1, c1 - 1]
    pieces = [table.rel[s:e] for s, e in zip(row_start.tolist(), row_end.tolist(), strict=True)]
    # one sentinel at the end (the lookup's last entry, always False), so that an empty last ray
    # (the origin) still has a valid start
    total = int((row_end - row_start).sum())
    idx = np.empty(total + 1, dtype=np.int32)
    np.concatenate(pieces, out=idx[:-1])
    idx[:-1] += oy * (w + 1) + ox
    idx[-1] = lookup.size - 1
    values = lookup.take(idx)
    lengths = row_end - row_start
    row_offset = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    seg = (starts - row_start[:, None] + row_offset[:, None]).ravel()
    return np.logical_or.reduceat(values, seg).reshape(starts.shape)


def _on_board_mask(board: Board, cache: _BoardCache) -> np.ndarray:
    """Squares on the board (not void) as a bool [y, x] array, cached per geometry version."""
    if cache.on_board is None:
        on = np.ones((board.height, board.width), dtype=bool)
        for x, y in board.void:
            on[y, x] = False
        cache.on_board = on
    return cache.on_board


def visible_from(board: Board, a: Square, viewer: str | None = None) -> np.ndarray:
    """Every square visible from square ``a`` for ``viewer``: bool array (height, width), ``[y, x]``.

    Void squares are never visible. The origin square itself is marked visible when it is on the
    board: other figures standing there are visible (a figure does not target itself, rules L29,
    but that is the rules layer's business). An origin off the board sees nothing. The mask equals
    ``line_of_sight(board, a, b, viewer).clear`` for every on-board ``b``. The returned array is
    cached per (board version, square, viewer) and read-only; copy it to change it.

    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> visible_from(b, (0, 0)).astype(int)
    array([[1, 1, 1],
           [1, 1, 0],
           [1, 0, 0]])
    """
    cache = _cache(board)
    key = (a, viewer)
    found = cache.masks.get(key)
    if found is not None:
        cache.masks.move_to_end(key)
        return found
    mask = np.zeros((board.height, board.width), dtype=bool)
    if board.on_board(a):
        table = _ray_table(board.width, board.height)
        lookup = _lookup(board, cache, viewer)
        blocked = _blocked_rays(table, lookup, a, slice(0, board.height), slice(0, board.width))
        mask = ~blocked & _on_board_mask(board, cache)
        mask[a[1], a[0]] = True
    mask.setflags(write=False)
    cache.masks[key] = mask
    if len(cache.masks) > _MASK_CACHE_SIZE:
        cache.masks.popitem(last=False)
    return mask


def all_pairs(board: Board, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares: bool array (H, W, H, W), ``[ay, ax, by, bx]``.

    ``table[ay, ax]`` equals ``visible_from(board, (ax, ay), viewer)``. For one viewer, LOS is
    symmetric (walls, corners and blocking squares do not depend on the direction), so only the
    rays to squares later in row order are cast and mirrored. Memory: (W·H)² bytes.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,0)", "H(0,1)"])
    >>> all_pairs(b)[0, 0].astype(int)
    array([[1, 0],
           [0, 0]])
    """
    w, h = board.width, board.height
    cache = _cache(board)
    out = np.zeros((h, w, h, w), dtype=bool)
    on = _on_board_mask(board, cache)
    table = _ray_table(w, h)
    lookup = _lookup(board, cache, viewer)
    for oy in range(h):
        for ox in range(w):
            if not on[oy, ox]:
                continue
            blocked = _blocked_rays(table, lookup, (ox, oy), slice(oy, h), slice(0, w))
            seen = ~blocked & on[oy:]
            seen[0, : ox + 1] = False
            out[oy, ox, oy:] = seen
    flat = out.reshape(h * w, h * w)
    flat |= flat.T.copy()
    diagonal = np.arange(h * w)
    flat[diagonal, diagonal] = on.ravel()
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
