"""Exact line of sight on hex boards: one pair (``line``), one origin (``field``), every pair
(``pairs``), under any hex rule (:mod:`game.core.hex_rules`).

Pure: integers only, never floats. The rule is docs/hex.md's; the board is a
:class:`game.core.hex_board.HexBoard`. ``line`` walks each candidate line exactly
(:func:`game.core.hex_walk.walk`: the cells, edges and corners it meets, in order) and judges
every step with the rule (corners by :func:`game.core.hex_corner.corner_rule`); ``field`` is the
shadow caster of :mod:`game.core.hex_fov`. Both are proven against the slow reference
(:mod:`game.core.hex_reference`) in tests/test_hex_*.py.

>>> from game.core.hexgrid import HexGrid
>>> from game.core.hex_board import HexBoard
>>> from game.core.hex_rules import parse_hex_rule
>>> g = HexGrid(3, 3)
>>> b = HexBoard.build(g, blocked=[(0, 1), (1, 1)])
>>> line(b, (1, 0), (1, 2), parse_hex_rule("hexside")).explain()
'Blocked under hexside: the line from the centre of (1,0) to the centre of (1,2) has both sides closed at the corner (2,2) of (0,1), (1,0) and (1,1): blocked terrain at (1,1); blocked terrain at (0,1).'
>>> line(b, (1, 0), (1, 2), parse_hex_rule("gloomhaven")).clear
True
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import numpy as np

from game.core import hex_cast, hex_fov
from game.core.errors import PlacementError
from game.core.hex_board import HexBoard, HexView
from game.core.hex_corner import ARMS, WEDGES, corner_rule, position, side_wedge
from game.core.hex_result import HexMeeting, HexSightResult, candidate_points, decide
from game.core.hex_rules import HexProfile
from game.core.hex_walk import Event, walk
from game.core.hexgrid import Cell, HexEdge, HexGrid, Point, fmt_point

__all__ = ["CAST_CELLS", "check_placement", "field", "field_by_lines", "line", "line_verdict", "pairs", "segment_blocker",
           "segment_meeting", "view_of"]


@lru_cache(maxsize=32)
def view_of(board: HexBoard, profile: HexProfile, viewer: str | None = None) -> HexView:
    """The (cached) :class:`HexView` of a board under a rule for a viewer."""
    return HexView(board, profile, viewer)


def check_placement(board: HexBoard, cell: Cell) -> None:
    """PlacementError for a cell off the map or void (the ends of a line must be on the board)."""
    if not board.on_board(cell):
        where = "outside the map" if not board.grid.in_bounds(cell) else "void (off the board)"
        raise PlacementError(
            f"hex {fmt_point(cell)} is {where}; the map is {board.grid.width}x{board.grid.height}"
        )


@lru_cache(maxsize=1 << 15)
def _corner_geometry(grid: HexGrid, g: Point) -> tuple[tuple[HexEdge, ...], tuple[Cell, ...]]:
    """The arms (as the grid's edges) and wedge cells of a corner given in the pointy frame."""
    flip = 1 if g[1] % 3 == 1 else -1
    edges = tuple(HexEdge.of(grid.pointy_frame(g), grid.pointy_frame((g[0] + x, g[1] + flip * y))) for x, y in ARMS)
    cells = tuple(grid.cell_at(grid.pointy_frame((g[0] + x, g[1] + flip * y))) for x, y in WEDGES)
    return edges, cells  # type: ignore[return-value]


class _Corner:
    """A corner met by a segment, in the pointy frame: its arms' walls and wedges' cells."""

    def __init__(self, view: HexView, g: Point, ends: tuple[Cell, Cell]) -> None:
        self.g, self.top = g, g[1] % 3 == 1
        self.edges, self.cells = _corner_geometry(view.grid, g)
        self.reasons: dict[int, str] = {}
        for k in range(3):
            if wall := view.wall(self.edges[k]):
                self.reasons[2 * k] = wall
            if self.cells[k] not in ends and (why := view.cell(self.cells[k])):
                self.reasons[2 * k + 1] = f"{why} at {fmt_point(self.cells[k])}"
        self.code = sum(1 << p for p in self.reasons)
        self.view = view

    def position(self, d: tuple[int, int]) -> int:
        return position(d, self.top)

    def name(self) -> str:
        c = sorted(self.cells)
        return f"the corner {fmt_point(self.view.grid.pointy_frame(self.g))} of {fmt_point(c[0])}, {fmt_point(c[1])} and {fmt_point(c[2])}"

    def named_cells(self, found: tuple[str, tuple[int, ...], tuple[int, ...]]) -> tuple[Cell, ...]:
        """The blocking cells the corner's verdict (:func:`corner_rule`) names (its odd positions)."""
        return tuple(self.cells[p // 2] for p in (*found[1], *found[2]) if p % 2 == 1)

    def words(self, found: tuple[str, tuple[int, ...], tuple[int, ...]]) -> str:
        """The corner's verdict (:func:`corner_rule`) in words."""
        kind, first, second = found

        def thing(p: int) -> str:
            return f"the end of {self.reasons[p]}" if p % 2 == 0 else self.reasons[p]

        if kind == "sector":
            return f"is cut by the walls meeting at {self.name()}"
        if kind == "endpoint":
            return f"ends at {self.name()}, which lies on {self.reasons[first[0]]} (endpoint_touch=blocks)"
        if kind == "touch":
            return f"touches {thing(first[0])} at {self.name()} (touch=blocks)"
        return f"has both sides closed at {self.name()}: {', '.join(map(thing, first))}; {', '.join(map(thing, second))}"


def _run_blocker(view: HexView, edge: HexEdge, ends: tuple[Cell, Cell]) -> tuple[str, tuple[Cell, ...]] | None:
    """``along_wall`` and ``touch`` along an edge the line runs along: the words and the blocking
    cells they name."""
    rule = view.profile
    wall = view.wall(edge)
    if wall and rule.along_wall == "blocks":
        return f"runs along {wall} (along_wall=blocks)", ()
    if rule.touch == "clear":
        return None
    sides = [(c, why) for c in view.grid.edge_cells(edge) if c not in ends and (why := view.cell(c))]
    where = view.board.edge_words(edge)
    if rule.touch == "blocks" and sides:
        return (f"runs along the edge {where} beside {sides[0][1]} at {fmt_point(sides[0][0])} (touch=blocks)",
                (sides[0][0],))
    if rule.touch == "both-sides" and len(sides) == 2:
        (c1, w1), (c2, w2) = sides
        return (f"runs along the edge {where} with both sides closed: {w1} at {fmt_point(c1)}; {w2} at {fmt_point(c2)}",
                (c1, c2))
    return None


def _stretch_blocker(
    view: HexView, edge: HexEdge, corners: tuple[tuple[_Corner, int, int], tuple[_Corner, int, int]],
    d: tuple[int, int],
) -> tuple[str, Point] | None:
    """A wall run along with ``along_wall = clear``: the line keeps one side of it; blocked when the
    sector rule fails at one of its two corners for either side (the words and, in the pointy
    frame, the corner the words name)."""
    failures: list[_Corner] = []
    for side in (1, -1):
        bad = None
        for corner, back, ahead in corners:
            bp = side_wedge(back, d, side, corner.top) if back % 2 == 0 and _along(corner, back, edge) else None
            ap = side_wedge(ahead, d, side, corner.top) if ahead % 2 == 0 and _along(corner, ahead, edge) else None
            if corner_rule(corner.code, back, ahead, "clear", False, "clear", bp, ap):
                bad = corner
                break
        if bad is None:
            return None
        failures.append(bad)
    cut = failures[0]
    return f"runs along {view.wall(edge)} and is cut on either side: the walls meeting at {cut.name()} cut it", cut.g


def _along(corner: _Corner, arm: int, edge: HexEdge) -> bool:
    return corner.edges[arm // 2] == edge


#: what first blocks a segment: the words, the walk's events (pointy frame), the index of the event
#: that blocks (-1: the segment is one corner), the corner the words are decided at (pointy frame)
#: and the blocking cells they name
_Block = tuple[str, tuple[Event, ...], int, Point | None, tuple[Cell, ...]]


def segment_blocker(view: HexView, a: Cell, b: Cell, p: Point, q: Point) -> str | None:
    """What first blocks the segment from ``p`` (the centre or a corner of A) to ``q`` (of B), in
    words, or None when it is clear (the fast walk)."""
    found = _first_block(view, a, b, p, q)
    return None if found is None else found[0]


def segment_meeting(view: HexView, a: Cell, b: Cell, p: Point, q: Point) -> HexMeeting | None:
    """Where the segment from ``p`` to ``q`` first meets what blocks it (:class:`HexMeeting`:
    exact ``t`` and lattice point, the corner and cells its words name), None when it is clear.

    ``t`` comes from the walk itself: a corner's own parameter, an edge crossing's, or the
    parameter of the event before (where a run along a closed edge starts, where a blocking cell
    is entered); a wall stretch cut at a corner meets it at that corner."""
    found = _first_block(view, a, b, p, q)
    if found is None:
        return None
    _, events, index, corner, cells = found
    grid = view.grid
    pp, qq = grid.pointy_frame(p), grid.pointy_frame(q)
    if corner is not None:
        t = _point_t(pp, qq, corner)
    else:
        while index > 0 and events[index][0] in ("cell", "run"):
            index -= 1  # the corner or edge crossing where the cell or the run begins
        t = _event_t(pp, qq, events[index]) if index >= 0 else Fraction(0)
    point = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
    corners = () if corner is None else (grid.pointy_frame(corner),)
    return HexMeeting(t, point, corners, cells)


def _point_t(pp: Point, qq: Point, g: Point) -> Fraction:
    """The parameter of a lattice point ``g`` on the segment pp→qq (0 for a segment of no length)."""
    dx, dy = qq[0] - pp[0], qq[1] - pp[1]
    length = dx * dx + dy * dy
    return Fraction(0) if length == 0 else Fraction((g[0] - pp[0]) * dx + (g[1] - pp[1]) * dy, length)


def _event_t(pp: Point, qq: Point, event: Event) -> Fraction:
    """The parameter along pp→qq of a walk's corner or edge crossing (a cell or run: 0)."""
    kind, data = event
    if kind == "corner":
        return _point_t(pp, qq, data)  # type: ignore[arg-type]
    if kind != "edge":
        return Fraction(0)
    ends: tuple[Point, Point] = data  # type: ignore[assignment]
    (ax, ay), (bx, by) = ends
    dx, dy = qq[0] - pp[0], qq[1] - pp[1]
    ex, ey = bx - ax, by - ay
    return Fraction((ax - pp[0]) * ey - (ay - pp[1]) * ex, dx * ey - dy * ex)


def _first_block(view: HexView, a: Cell, b: Cell, p: Point, q: Point) -> _Block | None:
    """The walk of the segment from ``p`` to ``q`` judged step by step: what first blocks it
    (:data:`_Block`), or None when it is clear."""
    grid = view.grid
    ends = (a, b)
    pp, qq = grid.pointy_frame(p), grid.pointy_frame(q)
    ca, cb = grid.pointy_frame(grid.centre(a)), grid.pointy_frame(grid.centre(b))
    if pp == qq:
        corner = _Corner(view, pp, ends)
        back, ahead = corner.position((ca[0] - pp[0], ca[1] - pp[1])), corner.position((cb[0] - pp[0], cb[1] - pp[1]))
        found = corner_rule(corner.code & 0b010101, back, ahead, "clear", True, view.profile.endpoint_touch)
        return None if found is None else (corner.words(found), (), -1, pp, corner.named_cells(found))
    d = (qq[0] - pp[0], qq[1] - pp[1])
    events = walk(pp, qq, grid.parity)
    corners: dict[int, tuple[_Corner, int, int]] = {}
    for i, (kind, data) in enumerate(events):
        if kind == "corner":
            g: Point = data  # type: ignore[assignment]
            corner = _Corner(view, g, ends)
            came = (ca[0] - g[0], ca[1] - g[1]) if g == pp else (-d[0], -d[1])
            goes = (cb[0] - g[0], cb[1] - g[1]) if g == qq else d
            corners[i] = (corner, corner.position(came), corner.position(goes))
    stretched = {j for i, (kind, data) in enumerate(events) if kind == "run" and view.wall(_edge(grid, data)) for j in (i - 1, i + 1)}
    for i, (kind, data) in enumerate(events):
        if kind == "cell":
            cell = grid.cell_at(grid.pointy_frame(data))  # type: ignore[arg-type]
            assert cell is not None
            if cell not in ends and (why := view.cell(cell)):
                return f"passes through hex {fmt_point(cell)}, {why}", events, i, None, (cell,)
        elif kind == "edge":
            if wall := view.wall(_edge(grid, data)):
                return f"crosses {wall}", events, i, None, ()
        elif kind == "run":
            edge = _edge(grid, data)
            if run := _run_blocker(view, edge, ends):
                return run[0], events, i, None, run[1]
            if view.wall(edge) and (cut := _stretch_blocker(view, edge, (corners[i - 1], corners[i + 1]), d)):
                return cut[0], events, i, cut[1], ()
        else:
            corner, back, ahead = corners[i]
            endpoint = data in (pp, qq)
            rule = view.profile
            # at a wall stretch's corner the sector rule is the stretch's: here the rest only
            push = back if i in stretched else None
            found = corner_rule(corner.code, back, ahead, rule.touch, endpoint, rule.endpoint_touch, push, push)
            if found is not None:
                return corner.words(found), events, i, corner.g, corner.named_cells(found)
    return None


def _edge(grid: HexGrid, data: object) -> HexEdge:
    """A walk's edge (pointy frame) as the grid's edge."""
    ends: tuple[Point, Point] = data  # type: ignore[assignment]
    return HexEdge.of(grid.pointy_frame(ends[0]), grid.pointy_frame(ends[1]))


def line(board: HexBoard, a: Cell, b: Cell, profile: HexProfile, viewer: str | None = None) -> HexSightResult:
    """Line of sight from ``a`` to ``b`` under ``profile``: the first clear candidate line, or every
    candidate's blocker (up to 16 kept). PlacementError for an end off the board."""
    check_placement(board, a)
    check_placement(board, b)
    view = view_of(board, profile, viewer)
    found = decide(board.grid, a, b, viewer, profile, lambda p, q: segment_blocker(view, a, b, p, q))
    if found.clear:
        return found
    met = tuple(replace(check, meeting=segment_meeting(view, a, b, check.start, check.end)) for check in found.deciding)
    return replace(found, deciding=met)


def line_verdict(board: HexBoard, a: Cell, b: Cell, profile: HexProfile, viewer: str | None = None) -> bool:
    """Only the verdict of :func:`line` (ends assumed on the board)."""
    if a == b:
        return True
    view = view_of(board, profile, viewer)
    return any(
        segment_blocker(view, a, b, p, q) is None
        for p, _ in candidate_points(board.grid, a, profile.from_)
        for q, _ in candidate_points(board.grid, b, profile.to)
    )


#: from this many cells on, ``field`` casts shadows; on smaller boards walking every line is quicker
CAST_CELLS = 36


def field(
    board: HexBoard, a: Cell, profile: HexProfile, viewer: str | None = None, *, engine: str = "auto",
) -> np.ndarray:
    """Every cell visible from ``a``: bool array ``(height, width)``, ``[y, x]``; void never, the
    origin always (when on the board; an origin off the board sees nothing).

    ``engine``: ``"auto"`` walks every line below :data:`CAST_CELLS` cells and casts shadows from
    there on (``"cast"``): a rule from centre to centre by the lazy caster
    (:mod:`game.core.hex_cast`) within its budget on a board of :data:`hex_cast.SMALLEST` cells or
    more, else by the paint (:mod:`game.core.hex_fov`).
    ``"lazy"`` (the lazy caster with no budget, where the rule fits), ``"paint"`` and ``"walk"``
    force one engine (the tests compare them)."""
    grid = board.grid
    if not board.on_board(a):
        return np.zeros((grid.height, grid.width), dtype=bool)
    if engine == "walk" or (engine == "auto" and grid.width * grid.height < CAST_CELLS):
        return field_by_lines(board, a, profile, viewer)
    o = hex_fov.origin(board, a, profile, viewer)
    mask = None
    limit = hex_cast.budget(grid.width, grid.height)
    if hex_cast.fits(profile) and (engine == "lazy" or (engine != "paint" and limit is not None)):
        if hex_cast.cast_centres(o, None if engine == "lazy" else limit):
            mask = o.mask()
        else:
            o.forget()
    if mask is None:
        mask = hex_fov.paint_field(o)
    mask[a[1], a[0]] = True
    if profile.from_ == "corners":  # a line from a corner of A may touch a neighbour there: walk
        for cell in grid.around(a):
            if board.on_board(cell):
                mask[cell[1], cell[0]] = line_verdict(board, a, cell, profile, viewer)
    return mask


def field_by_lines(board: HexBoard, a: Cell, profile: HexProfile, viewer: str | None = None) -> np.ndarray:
    """:func:`field` by the exact walk to every cell (the slow way, for tests and small boards)."""
    grid = board.grid
    mask = np.zeros((grid.height, grid.width), dtype=bool)
    if not board.on_board(a):
        return mask
    for cell in grid.cells():
        if board.on_board(cell):
            mask[cell[1], cell[0]] = line_verdict(board, a, cell, profile, viewer)
    return mask


def pairs(board: HexBoard, profile: HexProfile, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of cells: bool ``(H, W, H, W)``, ``[ay, ax, by, bx]``."""
    grid = board.grid
    out = np.zeros((grid.height, grid.width, grid.height, grid.width), dtype=bool)
    for x, y in grid.cells():
        out[y, x] = field(board, (x, y), profile, viewer)
    return out
