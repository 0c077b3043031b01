"""The centre-line engine: exact line of sight from centre to centre, the verdict, every crossing,
and why (the rule of Arcadia Quest, the ``arcadia`` preset, and every rule the facade sends here).

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

Callers ask the facade (:mod:`game.core.sight`: ``line``, ``field``, ``pairs``); this module is
its engine for the rules decided by the centre line:

* :func:`line_of_sight` — the :class:`~game.core.sight_result.Sight` of one ray from an integer
  walk: verdict and drawing steps in integers (the hover path), the Fraction crossings
  (:func:`crossings`, from a cached per-offset ray template) and the sentence only when read;
* :func:`verdict` — the walk that stops at the first blocker;
* :func:`exact_crossings` — the crossings straight from the rule with Fractions, through the
  segment events of :mod:`game.core.segment`: the centre line's part of the one reference
  (:func:`game.core.sight.reference`);
* :func:`visible_from` / :func:`pair_table` / :func:`pair_bits` / :func:`all_pairs` — numpy
  masks from the shadow caster of :mod:`game.core.fov_cast` and the octant engine of
  :mod:`game.core.fov` (exact slopes).

>>> board = Board.from_ascii([".....", ".....", "....."], walls=["V(2,1)"])
>>> line_of_sight(board, (0, 1), (4, 1)).explain()
'Blocked: wall V(2,1) between (1,1) and (2,1).'
>>> line_of_sight(board, (1, 0), (2, 1)).explain()
'Clear: the ray skims the corner (2,1) where only the south-west side is closed.'
>>> crossings(board, (0, 0), (4, 2)) == exact_crossings(board, (0, 0), (4, 2))
True
>>> visible_from(board, (0, 1)).astype(int)
array([[1, 1, 1, 1, 0],
       [1, 1, 0, 0, 0],
       [1, 1, 1, 1, 0]])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from game.core.board import Board, Corner, Edge, Square, corner_edges, fmt_square
from game.core.los_tables import (  # the numpy tables (game/core/los_tables.py), re-exported
    all_pairs,
    cast_budget,
    clear_caches,
    mirror_upper,
    pair_bits,
    pair_bits_among,
    pair_table,
    visible_from,
)
from game.core.profiles import PRESETS, Profile
from game.core.segment import HALF, check_square, segment_events
from game.core.sight_result import Crossing, CrossingKind, DrawStep, LineCheck, Side, Sight

__all__ = [
    "CentreLine",
    "Verdict",
    "all_pairs",
    "cast_budget",
    "clear_caches",
    "crossings",
    "exact_crossings",
    "is_close",
    "line_of_sight",
    "mask_to_ascii",
    "mirror_upper",
    "pair_bits",
    "pair_bits_among",
    "pair_table",
    "ray_template",
    "verdict",
    "visible_from",
]

#: the rule this engine decides by default
ARCADIA = PRESETS["arcadia"]


# --- classification, straight from the rule (every path's words) --------------------------


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


# --- the crossings straight from the rule: the centre line's part of the one reference ------


def exact_crossings(board: Board, a: Square, b: Square, viewer: str | None = None) -> tuple[Crossing, ...]:
    """Every crossing of the segment from the centre of ``a`` to the centre of ``b``, straight from
    the rule: the exact events of the segment (:func:`game.core.segment.segment_events`: every
    ``t`` where ``x`` or ``y`` is an integer, in Fractions) classified one by one — a grid corner
    by its two sides, an edge by its state, every square passed through other than ``b``. The
    one reference (:func:`game.core.sight.reference`) explains a centre-line rule's verdict by
    them. Raises :class:`PlacementError` for a square off the board.

    >>> b = Board.from_ascii(["....."] * 5)
    >>> [c.kind for c in exact_crossings(b, (1, 1), (2, 2))]
    ['corner']
    """
    check_square(board, a)
    check_square(board, b)
    if a == b:
        return ()
    (ax, ay), dx, dy = a, b[0] - a[0], b[1] - a[1]
    x0, y0 = ax + HALF, ay + HALF
    events = segment_events(HALF, HALF, Fraction(dx), Fraction(dy), False, False)
    out: list[Crossing] = []
    before = a
    for i, (kind, x, y, extra) in enumerate(events):
        if kind == 2:
            continue
        after = (events[i + 1][1] + ax, events[i + 1][2] + ay)  # the square the segment enters
        x, y = x + ax, y + ay
        if kind == 0:
            t = (x - x0) / dx
            point = (Fraction(x), y0 + t * dy)
            out.append(_corner_crossing(board, (x, y), t, point, before, after, viewer))
        elif extra[0]:  # V(x, y): the segment meets x
            t = (x - x0) / dx
            point = (Fraction(x), y0 + t * dy)
            out.append(_edge_crossing(board, Edge("V", x, y), t, point, before, after))
        else:
            t = (y - y0) / dy
            point = (x0 + t * dx, Fraction(y))
            out.append(_edge_crossing(board, Edge("H", x, y), t, point, before, after))
        if after != b:
            out.append(_square_crossing(board, after, t, point, viewer))
        before = after
    return tuple(out)


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


def crossings(board: Board, a: Square, b: Square, viewer: str | None = None) -> tuple[Crossing, ...]:
    """Every crossing of the centre line from ``a`` to ``b`` for ``viewer``, from the cached
    :func:`ray_template` of the offset: equal to :func:`exact_crossings`. Raises
    :class:`PlacementError` for a square that is void or outside the board.

    >>> b = Board.from_ascii(["....."] * 3, doors={"V(2,1)": "open"})
    >>> [c.reason for c in crossings(b, (0, 1), (2, 1)) if c.kind == "edge"]
    ['', 'open door on V(2,1)']
    """
    check_square(board, a)
    check_square(board, b)
    if a == b:
        return ()
    ax, ay = a
    out: list[Crossing] = []
    before = a
    for kind, ex, ey, t, px, py, cx, cy in ray_template(b[0] - ax, b[1] - ay):
        point = (px + ax, py + ay)
        after = (cx + ax, cy + ay)
        if kind == "C":
            out.append(_corner_crossing(board, (ex + ax, ey + ay), t, point, before, after, viewer))
        else:
            edge = Edge("V" if kind == "V" else "H", ex + ax, ey + ay)
            out.append(_edge_crossing(board, edge, t, point, before, after))
        if after != b:
            out.append(_square_crossing(board, after, t, point, viewer))
        before = after
    return tuple(out)


# --- the hover path: integer walks, explanations on demand ----------------------------------


@dataclass(frozen=True)
class Verdict:
    """An integer verdict for one ray: clear or not, and the first blocker when blocked.

    ``kind`` is ``"edge"``, ``"corner"`` or ``"square"`` (None when clear); ``edge``, ``corner``
    or ``square`` says which; ``step`` is the blocker's index in :func:`crossings`.
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
    :func:`crossings`); with ``stop``, up to and including the first blocker."""
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
    check_square(board, a)
    check_square(board, b)
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
    """The status sentence of a ray (from its crossings, or from the walk's steps)."""
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


def _centre_line(origin: Square, target: Square, first: Crossing | None) -> LineCheck:
    """The centre line as a :class:`~game.core.sight_result.LineCheck` (its first blocker in
    words, as the other rules' lines say theirs)."""
    start = (origin[0] + HALF, origin[1] + HALF)
    end = (target[0] + HALF, target[1] + HALF)
    if first is None:
        return LineCheck(start, end, "centre", "centre", None)
    if first.kind == "edge":
        words = f"crosses {first.reason}"
    elif first.kind == "square":
        words = f"passes through square {fmt_square(first.where)}, {first.reason}"  # type: ignore[arg-type]
    else:
        words = f"passes the corner {fmt_square(first.where)}: {first.reason}"  # type: ignore[arg-type]
    return LineCheck(start, end, "centre", "centre", words, (first.kind, first.where))


def _named(text: str, rule: Profile) -> str:
    """The sentence, naming the rule when it is not the default preset (an override, a cover)."""
    return text if rule == ARCADIA else f"{text[:-1]} (rule {rule.spec()})."


class CrossingsSource:
    """The :class:`~game.core.sight_result.SightSource` of a centre line whose crossings are all
    known (the reference's, or the walk's once they are asked for)."""

    checked = 1

    def __init__(
        self, origin: Square, target: Square, viewer: str | None, rule: Profile, found: tuple[Crossing, ...]
    ) -> None:
        self.origin, self.target, self.viewer, self.rule = origin, target, viewer, rule
        self._crossings = found

    def lines(self) -> tuple[LineCheck, ...]:
        """The centre line."""
        blocking = self.blockers()
        return (_centre_line(self.origin, self.target, blocking[0] if blocking else None),)

    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing, in order."""
        return self._crossings

    def blockers(self) -> tuple[Crossing, ...]:
        """The crossings that block, in order along the ray."""
        return tuple(c for c in self._crossings if c.blocks)

    def drawing(self) -> list[DrawStep]:
        """Every crossing as a :data:`~game.core.sight_result.DrawStep`."""
        return [c.drawing() for c in self._crossings]

    def block_t(self) -> float | None:
        """Where the first blocker is along the ray (a float for drawing), None when clear."""
        first = next((c for c in self._crossings if c.blocks), None)
        return None if first is None else float(first.t)

    def explain(self) -> str:
        """The status sentence: the first blocker (and how many more), or why it is clear.

        >>> b = Board.from_ascii(["...", "...", "..."])
        >>> line_of_sight(b, (0, 0), (2, 2)).explain(), line_of_sight(b, (1, 1), (1, 1)).explain()
        ('Clear: nothing blocks the ray from (0,0) to (2,2).', 'Clear: (1,1) is the same square.')
        """
        skims = [c for c in self._crossings if c.kind == "corner" and c.sides and any(s.closed for s in c.sides)]
        blocking = self.blockers()
        first = blocking[0] if blocking else None
        skim = skims[0] if skims and first is None else None
        return _named(_explain_ray(self.origin, self.target, first, len(blocking), skim, len(skims)), self.rule)

    def summary(self) -> str:
        """The status sentence (it is short)."""
        return self.explain()

    def fingerprint(self) -> tuple[object, ...]:
        """Every crossing's ``(kind, where, blocks, closed sides, t)``."""
        return tuple((c.kind, c.where, c.blocks, tuple(s.square for s in c.sides or () if s.closed), c.t)
                     for c in self._crossings)

    def as_json(self) -> dict[str, object]:
        """``{"clear", "blockers", "crossings", "from", "to", "viewer"}``."""
        found = [c.as_json() for c in self._crossings]
        return {
            "clear": not any(c.blocks for c in self._crossings),
            "blockers": [j for c, j in zip(self._crossings, found, strict=True) if c.blocks],
            "crossings": found,
            "from": list(self.origin),
            "to": list(self.target),
            "viewer": self.viewer,
        }


class CentreLine:
    """The :class:`~game.core.sight_result.SightSource` of the hover path: the integer walk now,
    the Fractions on demand.

    :meth:`drawing`, :meth:`block_t` and :meth:`explain` cost no Fractions beyond the one or two
    crossings the sentence names; :meth:`crossings`, :meth:`blockers`, :meth:`lines` and
    :meth:`as_json` build every crossing (:func:`crossings`) the first time they are asked for
    (the lesson mode, the panel and the JSON show them), on the board as it was cast.
    """

    checked = 1

    def __init__(self, board: Board, origin: Square, target: Square, viewer: str | None, rule: Profile) -> None:
        self.origin, self.target, self.viewer, self.rule = origin, target, viewer, rule
        self._board = board
        self._version = (board.serial, board.version)
        self.steps = _walk(board, origin, target, viewer, stop=False) if origin != target else []
        self._full: CrossingsSource | None = None
        self._text: str | None = None
        self._drawing: tuple[DrawStep, ...] | None = None

    def full(self) -> CrossingsSource:
        """Every crossing with its Fractions (built once, on first use)."""
        if self._full is None:
            board = self._board
            if (board.serial, board.version) != self._version:
                raise RuntimeError("the board changed since this ray was cast; cast it again")
            found = crossings(board, self.origin, self.target, self.viewer)
            self._full = CrossingsSource(self.origin, self.target, self.viewer, self.rule, found)
        return self._full

    def lines(self) -> tuple[LineCheck, ...]:
        """The centre line (builds the crossings)."""
        return self.full().lines()

    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing (builds them)."""
        return self.full().crossings()

    def blockers(self) -> tuple[Crossing, ...]:
        """The blocking crossings (builds the crossings)."""
        return self.full().blockers()

    def block_t(self) -> float | None:
        """Where the first blocker is along the ray (0..1, a float for drawing), None when clear."""
        for _kind, _where, blocks, _closed, num, den in self.steps:
            if blocks:
                return num / den
        return None

    def drawing(self) -> list[DrawStep]:
        """Every crossing as a :data:`~game.core.sight_result.DrawStep` (floats for the points;
        nothing exact is derived from them), computed once (the painter asks twice for a new ray).
        Each point is one integer division, ``((2a + 1)·den + 2d·num) / (2·den)``, so it is the
        float of the exact point."""
        if self._drawing is None:
            ax, ay = self.origin
            dx, dy = self.target[0] - ax, self.target[1] - ay
            kx, ky, tx, ty = 2 * ax + 1, 2 * ay + 1, 2 * dx, 2 * dy
            self._drawing = tuple(
                (kind, where, ((kx * den + tx * num) / (2 * den), (ky * den + ty * num) / (2 * den)), blocks, closed)
                for kind, where, blocks, closed, num, den in self.steps
            )
        return list(self._drawing)

    def _crossing(self, index: int) -> Crossing:
        """The exact :class:`~game.core.sight_result.Crossing` of one step (a Fraction or two)."""
        board, (ax, ay), viewer = self._board, self.origin, self.viewer
        kind, where, _blocks, _closed, num, den = self.steps[index]
        t = Fraction(num, den)
        dx, dy = self.target[0] - ax, self.target[1] - ay
        point = (ax + HALF + t * dx, ay + HALF + t * dy)
        before = next((s[1] for s in reversed(self.steps[:index]) if s[0] == "square"), self.origin)
        if kind == "square":
            assert not isinstance(where, Edge)
            return _square_crossing(board, where, t, point, viewer)
        following = self.steps[index + 1] if index + 1 < len(self.steps) else None
        after = following[1] if following is not None and following[0] == "square" else self.target
        assert not isinstance(before, Edge) and not isinstance(after, Edge)
        if kind == "edge":
            assert isinstance(where, Edge)
            return _edge_crossing(board, where, t, point, before, after)
        assert not isinstance(where, Edge)
        return _corner_crossing(board, where, t, point, before, after, viewer)

    def explain(self) -> str:
        """The same sentence as :meth:`CrossingsSource.explain`, from the integer walk."""
        if self._text is None:
            blocking = [i for i, step in enumerate(self.steps) if step[2]]
            first = self._crossing(blocking[0]) if blocking else None
            skims = [i for i, step in enumerate(self.steps) if step[0] == "corner" and step[3]]
            skim = self._crossing(skims[0]) if skims and not blocking else None
            text = _explain_ray(self.origin, self.target, first, len(blocking), skim, len(skims))
            self._text = _named(text, self.rule)
        return self._text

    def summary(self) -> str:
        """The status sentence (it is short)."""
        return self.explain()

    def fingerprint(self) -> tuple[object, ...]:
        """As :meth:`CrossingsSource.fingerprint`, from the walk (no board read: the board may
        have changed since)."""
        return tuple((kind, where, blocks, closed, Fraction(num, den)) for kind, where, blocks, closed, num, den in self.steps)

    def as_json(self) -> dict[str, object]:
        """As :meth:`CrossingsSource.as_json` (builds the crossings)."""
        return self.full().as_json()


def line_of_sight(
    board: Board, a: Square, b: Square, viewer: str | None = None, *, rule: Profile = ARCADIA
) -> Sight:
    """Line of sight from square ``a`` to square ``b`` for ``viewer`` (a side, or None) by the
    centre line: the :class:`~game.core.sight_result.Sight` of one integer walk (the hover path;
    the Fractions only when read). ``rule`` is the rule the Sight names (a rule this engine
    decides: see :func:`game.core.sight.family`). Raises :class:`PlacementError` for a square that
    is void or outside the board.

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> ray = line_of_sight(board, (0, 0), (4, 0))
    >>> ray.clear, ray.block_t, ray.explain()
    (False, 0.625, 'Blocked: wall V(3,0) between (2,0) and (3,0).')
    """
    check_square(board, a)
    check_square(board, b)
    source = CentreLine(board, a, b, viewer, rule)
    return Sight(a, b, viewer, rule, not any(step[2] for step in source.steps), source)


def is_close(board: Board, a: Square, b: Square) -> bool:
    """Melee reach (rules §1.2): the same square, or neighbours (sharing an edge of the board's
    grid: orthogonal on squares) across an open edge.

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
    grid = board.grid
    if b not in grid.neighbours(a):
        return False
    return not board.edge_blocks_movement(grid.edge_between(a, b))




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
