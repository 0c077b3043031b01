"""The map linter: every problem a designer should fix before printing or sharing a map.

Pure: it reads a :class:`~game.tiled.LoadedMap`'s ``board``, ``objects`` and the loader's own
``findings``, and returns findings. No pytmx, no files, no clock. Wall, window and door geometry is
never derived here: the loader traced every object once (:mod:`game.tiled.geometry`) and recorded
its raw segments, free ends, unit edges and door edge on the :class:`~game.tiled.ObjectInfo`.

The loader (``game/tiled/reader.py``) already reports what it meets while building the board (off-grid
and diagonal walls, doors not on an edge, unknown classes, objects outside the map, figures outside
the board, reserved property names, ...). This module adds the board-level checks:

==========================  ========  ======================================================
code                        severity  what
==========================  ========  ======================================================
figure-in-void              error     a figure stands on a void (off-board) square
figure-on-blocked           error     a figure stands on blocked terrain
figure-over-capacity        error     more figures on a square than the map's capacity
door-not-in-wall            warning   no wall, window, door or board edge continues either end
door-on-border              warning   a door leads off the board
door-duplicate              error     two doors on one edge (only the last one counts)
wall-duplicate              warning   two wall objects cover exactly the same edges
wall-overlap                warning   wall/window objects share edges (ids of both)
wall-gap                    warning   a wall end stops less than 1/4 cell short of another wall
region-unreachable          error     squares nobody can walk to even with every door open, where a
                                      figure starts (a warning when no figure stands there)
region-sealed-by-doors      warning   squares cut off while the closed/locked doors stay shut
figure-no-target            warning   a figure sees no enemy and no enemy sees it (doors as drawn)
property-unknown            warning   a figure property the ruleset does not read (nearest name)
property-value              error     a figure property value the ruleset cannot use (format hint)
property-nonsense           error     a stat that reads but makes no sense (life 0, C 0 ...)
attack-unreachable          warning   an attack no figure can make on this map (ruleset files)
map-property-misspelt       warning   a map property one typo away from a known one
ruleset-unknown             error     the map's ``ruleset`` names no ruleset
==========================  ========  ======================================================

A map silences codes it breaks on purpose with the map property ``lint_ignore`` (a comma list).

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["...", ".~."], figures=[Figure(1, "Rook", "red", (1, 1))])
>>> [f.code for f in lint_board(board)]
['figure-in-void']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor
from typing import TYPE_CHECKING

from game.core.board import Board, Edge, Figure, Square, fmt_square
from game.core.errors import SightlineError
from game.core.findings import Finding, Severity
from game.core.words import plural_of
from game.designer.regions import check_regions
from game.designer.stats import check_attacks, check_figure_stats
from game.rules.registry import get_ruleset, ruleset_label, ruleset_names
from game.tiled.geometry import Point, snap, unit_edges

if TYPE_CHECKING:
    from game.tiled import LoadedMap, ObjectInfo

#: a wall end closer than this (in cells) to another wall, without touching it, is a gap
GAP = Fraction(1, 4)

#: figure properties Sightline itself reads, whatever the ruleset
SIGHTLINE_FIGURE_PROPERTIES = frozenset({"side"})
#: map properties Sightline itself reads (lessons add ``vector``, ``from``, ``to``, ``expected``)
SIGHTLINE_MAP_PROPERTIES = frozenset(
    {"ruleset", "capacity", "caption", "vector", "from", "to", "expected", "lint_ignore"}
)

_SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}
_FAR = 10**9


def lint(loaded: LoadedMap, *, strict: bool = False) -> list[Finding]:
    """The loader's findings plus the board-level checks, sorted (errors first, then object, square).

    ``strict`` turns every warning into an error (``sightline check --strict``); notes stay notes.
    """
    return lint_board(
        loaded.board, loaded.objects.values(), loaded.findings, strict=strict
    )


def lint_board(
    board: Board,
    objects: Iterable[ObjectInfo] = (),
    loader_findings: Iterable[Finding] = (),
    *,
    strict: bool = False,
) -> list[Finding]:
    """Lint a board and the map objects it was built from; see :func:`lint`.

    >>> board = Board.from_ascii(["...", "...", "..."], doors={"V(1,1)": "closed"})
    >>> [(f.code, f.square) for f in lint_board(board)]
    [('door-not-in-wall', (1, 1))]
    """
    found: list[Finding] = list(loader_findings)
    for check in board_checks(board, objects):
        found += check()
    ignored = ignored_codes(board)
    return finish((f for f in found if f.code not in ignored), strict=strict)


def board_checks(board: Board, objects: Iterable[ObjectInfo] = ()) -> list[Callable[[], list[Finding]]]:
    """The board-level checks of :func:`lint_board`, in its order, each ready to run: the one list
    both the whole check and the window's step-by-step check (``game.play.session.LintRun``) run.

    >>> len(board_checks(Board(2, 2))) > 5
    True
    """
    objs = list(objects)
    checks: list[Callable[[], list[Finding]]] = [lambda: check_figures(board)]
    if board.grid.kind == "square":  # wall and door objects on square edges (hex: game/tiled/hex_derive.py)
        checks += [lambda: check_doors(board, objs), lambda: check_wall_objects(board, objs)]
    return [
        *checks,
        lambda: check_regions(board),
        lambda: check_targets(board),
        lambda: check_properties(board, objs),
        lambda: check_figure_values(board),
        lambda: check_figure_stats(board),  # nonsense stats (game/designer/stats.py)
        lambda: check_attacks(board),  # attacks no figure can make (game/designer/stats.py)
    ]


def ignored_codes(board: Board) -> frozenset[str]:
    """Codes the map silences with its property ``lint_ignore`` (comma or space separated).

    For maps that break a rule on purpose, e.g. a lesson board whose attacker is walled in.

    >>> sorted(ignored_codes(Board(1, 1, properties={"lint_ignore": "region-unreachable, figure-no-target"})))
    ['figure-no-target', 'region-unreachable']
    """
    text = str(board.properties.get("lint_ignore", ""))
    return frozenset(code for code in text.replace(",", " ").split() if code)


def finish(findings: Iterable[Finding], *, strict: bool = False) -> list[Finding]:
    """Drop exact repeats, apply ``strict`` and sort by severity, object id, square, code."""
    seen: set[tuple[object, ...]] = set()
    out: list[Finding] = []
    for finding in findings:
        key = (finding.code, finding.object_id, finding.square, finding.message)
        if key in seen:
            continue
        seen.add(key)
        if strict and finding.severity is Severity.WARNING:
            finding = replace(finding, severity=Severity.ERROR)
        out.append(finding)
    out.sort(key=sort_key)
    return out


#: repeats of one code and severity from this many on are shown as one group
GROUP_AT = 3


@dataclass(frozen=True)
class FindingGroup:
    """Findings of one code and severity shown together (``sightline check`` text and GitHub
    output; JSON keeps every finding): the first stands for the group, with the count and the
    objects or squares (hexes) of the others."""

    findings: tuple[Finding, ...]
    cell: str = "square"  # what one cell of the board is called (the grid's noun)

    @property
    def first(self) -> Finding:
        """The finding that stands for the group."""
        return self.findings[0]

    @property
    def count(self) -> int:
        """How many findings the group holds."""
        return len(self.findings)

    def others(self, shown: int = 5) -> str:
        """Where the other findings are: ``objects 4, 7, 9 and 12 more`` or ``squares (1,2) ...``.

        >>> g = FindingGroup(tuple(Finding("x", Severity.WARNING, "m", i) for i in range(1, 10)))
        >>> g.others()
        'objects 2, 3, 4, 5, 6 and 3 more'
        >>> FindingGroup(tuple(Finding("x", Severity.WARNING, "m", None, (i, 0)) for i in range(3)), "hex").others()
        'hexes (1,0), (2,0)'
        """
        rest = self.findings[1:]
        placed = [
            ("object", str(f.object_id)) if f.object_id is not None
            else (self.cell, fmt_square(f.square)) if f.square is not None else None
            for f in rest
        ]
        places = [p for p in placed if p is not None]
        unplaced = len(placed) - len(places)
        kinds = {kind for kind, _ in places}
        if len(kinds) == 1:
            kind = next(iter(kinds))
            names = [name for _, name in places]
            head = f"{plural_of(kind)} " if len(names) > 1 else f"{kind} "
        else:
            names, head = [f"{kind} {name}" for kind, name in places], ""
        text = head + ", ".join(names[:shown]) if names else ""
        more = len(names) - min(len(names), shown) + unplaced
        if more:
            text += f"{' and ' if text else ''}{more} more"
        return text


def group_findings(
    findings: Sequence[Finding], at_least: int = GROUP_AT, cell: str = "square",
) -> list[Finding | FindingGroup]:
    """The findings in their order, every code and severity that repeats ``at_least`` times
    gathered into one :class:`FindingGroup` where its first finding stood (notes stay single:
    each says how a different layer or object was read). ``cell``: what the board calls one cell,
    for the groups' words.

    >>> fs = [Finding("a", Severity.WARNING, "1", 1), Finding("b", Severity.WARNING, "2", 2),
    ...       Finding("a", Severity.WARNING, "3", 3), Finding("a", Severity.WARNING, "4", 4)]
    >>> [(g.first.code, g.count) if isinstance(g, FindingGroup) else g.code for g in group_findings(fs)]
    [('a', 3), 'b']
    """
    by_kind: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        by_kind.setdefault((finding.code, finding.severity.value), []).append(finding)
    out: list[Finding | FindingGroup] = []
    done: set[tuple[str, str]] = set()
    for finding in findings:
        key = (finding.code, finding.severity.value)
        members = by_kind[key]
        if len(members) < at_least or finding.severity is Severity.NOTE:  # notes say different things
            out.append(finding)
        elif key not in done:
            done.add(key)
            out.append(FindingGroup(tuple(members), cell))
    return out


def sort_key(finding: Finding) -> tuple[int, int, int, int, str]:
    """Errors first, then by object id (None last), square (None last), code."""
    object_id = finding.object_id if finding.object_id is not None else _FAR
    x, y = finding.square if finding.square is not None else (_FAR, _FAR)
    return (_SEVERITY_ORDER.get(finding.severity, 9), object_id, x, y, finding.code)


# --- figures -------------------------------------------------------------------------------


def check_figures(board: Board) -> list[Finding]:
    """Figures in void squares, on blocked terrain, or past the square's capacity (errors).

    >>> b = Board.from_ascii([".#"], capacity=1, figures=[
    ...     Figure(1, "A", "red", (0, 0)), Figure(2, "B", "red", (0, 0)), Figure(3, "C", "red", (1, 0))])
    >>> [(f.code, f.object_id) for f in check_figures(b)]
    [('figure-on-blocked', 3), ('figure-over-capacity', 2)]
    """
    out: list[Finding] = []
    crowded: dict[Square, list[Figure]] = {}
    cell = board.grid.noun
    for figure in board.figures.values():
        sq = figure.square
        if not board.in_bounds(sq):
            out.append(Finding(
                "figure-outside-board", Severity.ERROR,
                f"figure {figure.label} stands at {fmt_square(sq)}, outside the "
                f"{board.width}x{board.height} map",
                figure.id, None, "move it onto the board",
            ))
        elif board.is_void(sq):
            out.append(Finding(
                "figure-in-void", Severity.ERROR,
                f"figure {figure.label} stands on {fmt_square(sq)}, a void (off-board) {cell}",
                figure.id, sq, f"move it onto a painted {cell}, or paint a tile under it",
            ))
        elif board.is_blocked_terrain(sq) or board.is_impassable(sq):
            what = "an impassable" if board.is_impassable(sq) else "a blocked terrain"
            if sq in board.door_squares:
                what = f"a {board.door_squares[sq].value} door"
            out.append(Finding(
                "figure-on-blocked", Severity.ERROR,
                f"figure {figure.label} stands on {fmt_square(sq)}, {what} {cell}",
                figure.id, sq, f"move it onto an open {cell}, or paint a tile that is not blocked",
            ))
        crowded.setdefault(sq, []).append(figure)
    for sq, figures in crowded.items():
        if len(figures) <= board.capacity:
            continue
        names = ", ".join(f"{f.label} (id {f.id})" for f in figures)
        extra = figures[board.capacity]
        out.append(Finding(
            "figure-over-capacity", Severity.ERROR,
            f"{len(figures)} figures on {fmt_square(sq)} but the capacity is {board.capacity}: {names}",
            extra.id, sq,
            f"move {len(figures) - board.capacity} of them, or raise the map property capacity",
        ))
    return out


# --- doors ---------------------------------------------------------------------------------


def _edge_square(board: Board, edge: Edge) -> Square:
    """The square a finding about an edge points at: the right/lower one if on the map."""
    before, after = edge.squares()
    if board.on_board(after) or not board.on_board(before) and board.in_bounds(after):
        return after
    return before


def _arm_supports(board: Board, arm: Edge) -> bool:
    """Whether an edge continuing a door's line anchors it: wall, window, door, or board edge."""
    if board.edge_kind(arm) is not None:
        return True
    a, b = arm.squares()
    return not (board.on_board(a) and board.on_board(b)) or (
        board.is_blocked_terrain(a) or board.is_blocked_terrain(b)
    )


def _in_line_arms(edge: Edge) -> tuple[Edge, Edge]:
    """The two edges continuing ``edge`` past its ends, in line with it."""
    if edge.axis == "V":
        return Edge("V", edge.x, edge.y - 1), Edge("V", edge.x, edge.y + 1)
    return Edge("H", edge.x - 1, edge.y), Edge("H", edge.x + 1, edge.y)


def check_doors(board: Board, objects: Sequence[ObjectInfo] = ()) -> list[Finding]:
    """Doors not in a wall line, doors leading off the board, two doors on one edge.

    >>> b = Board.from_ascii(["..", "~~"], doors={"H(0,1)": "open"})
    >>> [f.code for f in check_doors(b)]
    ['door-on-border']
    """
    out: list[Finding] = []
    for edge, door in sorted(board.doors.items()):
        a, b = edge.squares()
        sq = _edge_square(board, edge)
        if not (board.on_board(a) and board.on_board(b)):
            out.append(Finding(
                "door-on-border", Severity.WARNING,
                f"door {edge} is on the border of the board: it leads off the board",
                door.object_id, sq, "move the door to an edge between two board squares, or delete it",
            ))
            continue
        if not any(_arm_supports(board, arm) for arm in _in_line_arms(edge)):
            out.append(Finding(
                "door-not-in-wall", Severity.WARNING,
                f"door {edge} stands alone: no wall continues it at either end, so figures walk round it",
                door.object_id, sq, "draw a wall in line with the door on at least one side",
            ))
    by_edge: dict[Edge, list[int]] = {}
    for obj in objects:
        if obj.role == "door" and obj.door_edge is not None:
            by_edge.setdefault(obj.door_edge, []).append(obj.id)
    for edge, ids in sorted(by_edge.items()):
        if len(ids) < 2:
            continue
        ids.sort()
        listed = " and ".join(str(i) for i in ids)
        kept = board.doors.get(edge)
        keep = f"; only door {kept.object_id} counts" if kept and kept.object_id is not None else ""
        out.append(Finding(
            "door-duplicate", Severity.ERROR,
            f"objects {listed} are doors on the same edge {edge}{keep}",
            ids[-1], _edge_square(board, edge), "delete all but one door on that edge",
        ))
    return out


# --- wall objects --------------------------------------------------------------------------


def _dist2_point_segment(p: Point, a: Point, b: Point) -> Fraction:
    """Squared distance from a point to a segment, exactly."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        t = Fraction(0)
    else:
        t = min(Fraction(1), max(Fraction(0), ((px - ax) * dx + (py - ay) * dy) / length2))
    qx, qy = ax + t * dx, ay + t * dy
    return (px - qx) ** 2 + (py - qy) ** 2


def _edge_segment(edge: Edge) -> tuple[Point, Point]:
    (x1, y1), (x2, y2) = edge.ends()
    return (Fraction(x1), Fraction(y1)), (Fraction(x2), Fraction(y2))


def _fmt_point(p: Point) -> str:
    def one(v: Fraction) -> str:
        return str(int(v)) if v.denominator == 1 else f"{float(v):.2f}"

    return f"({one(p[0])},{one(p[1])})"


def check_wall_objects(board: Board, objects: Sequence[ObjectInfo]) -> list[Finding]:
    """Duplicate or overlapping wall/window objects, and wall ends that stop just short of a wall."""
    out: list[Finding] = []
    structural = [o for o in objects if o.role in ("wall", "window")]
    edges_of = {o.id: list(o.edges) for o in structural}
    owners: dict[Edge, list[int]] = {}
    for obj in structural:
        mine = edges_of[obj.id]
        repeated = sorted(obj.repeated)
        if repeated:
            out.append(Finding(
                "wall-overlap", Severity.WARNING,
                f"{obj.role} {obj.id} runs twice along {_list_edges(repeated)}",
                obj.id, _edge_square(board, repeated[0]), "delete the repeated segment",
            ))
        for edge in dict.fromkeys(mine):
            owners.setdefault(edge, []).append(obj.id)
    shared: dict[tuple[int, int], list[Edge]] = {}
    for edge, ids in owners.items():
        for i, first in enumerate(ids):
            for second in ids[i + 1:]:
                shared.setdefault(tuple(sorted((first, second))), []).append(edge)  # type: ignore[arg-type]
    role = {o.id: o.role for o in structural}
    for (first, second), edges in sorted(shared.items()):
        edges.sort()
        sq = _edge_square(board, edges[0])
        kinds = f"{role[first]} {first} and {role[second]} {second}"
        if set(edges_of[first]) == set(edges_of[second]) and role[first] == role[second]:
            out.append(Finding(
                "wall-duplicate", Severity.WARNING,
                f"{kinds} are duplicates: both cover {_list_edges(edges)}",
                second, sq, f"delete object {second}",
            ))
            continue
        acts = ""
        if role[first] != role[second]:
            acts = " (a wall there wins: the edge blocks sight)"
        out.append(Finding(
            "wall-overlap", Severity.WARNING,
            f"{kinds} overlap on {_list_edges(edges)}{acts}",
            second, sq, f"trim object {second} so the two meet end to end",
        ))
    out += _check_gaps(board, structural)
    return out


def _list_edges(edges: Sequence[Edge], limit: int = 4) -> str:
    shown = ", ".join(str(e) for e in edges[:limit])
    more = f" and {len(edges) - limit} more" if len(edges) > limit else ""
    noun = "edge" if len(edges) == 1 else "edges"
    return f"{len(edges)} {noun} ({shown}{more})"


def _check_gaps(board: Board, structural: Sequence[ObjectInfo]) -> list[Finding]:
    """Free wall ends more than 1/8 cell off the grid that stop under 1/4 cell short of a wall."""
    out: list[Finding] = []
    raw = {o.id: o.segments for o in structural}
    object_edges_all = {e for o in structural for e in o.edges}
    # walls, windows and doors not drawn by these objects (tile walls, doors) as unit segments
    board_edges = [
        e for e in (*board.walls, *board.windows, *board.doors) if e not in object_edges_all
    ]
    for obj in structural:
        for end in obj.ends:
            if snap(end)[0] is not None:
                continue  # on the grid: it meets whatever passes through its corner
            best: tuple[Fraction, str, int | None, Point, Point] | None = None
            for other in structural:
                if other.id == obj.id:
                    continue
                for a, b in raw[other.id]:
                    d2 = _dist2_point_segment(end, a, b)
                    if best is None or d2 < best[0]:
                        best = (d2, f"{other.role} {other.id}", other.id, a, b)
            for edge in board_edges:
                a, b = _edge_segment(edge)
                d2 = _dist2_point_segment(end, a, b)
                if best is None or d2 < best[0]:
                    best = (d2, f"{board.edge_kind(edge)} {edge}", None, a, b)
            if best is None or best[0] == 0 or best[0] >= GAP * GAP:
                continue
            d2, what, _, a, b = best
            target = _nearest_corner_on(end, a, b)
            gap = _fmt_gap(d2)
            sq = (min(max(floor(end[0]), 0), board.width - 1), min(max(floor(end[1]), 0), board.height - 1))
            out.append(Finding(
                "wall-gap", Severity.WARNING,
                f"{obj.role} {obj.id} ends at {_fmt_point(end)}, {gap} cell short of {what}: "
                "figures and sight slip through the gap",
                obj.id, sq, f"move that end onto the grid corner {_fmt_point(target)}",
            ))
    return out


def _nearest_corner_on(p: Point, a: Point, b: Point) -> Point:
    """The grid corner nearest to the point of segment ab closest to p."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = Fraction(0) if length2 == 0 else min(
        Fraction(1), max(Fraction(0), ((px - ax) * dx + (py - ay) * dy) / length2)
    )
    return Fraction(round(ax + t * dx)), Fraction(round(ay + t * dy))


def _fmt_gap(d2: Fraction) -> str:
    """An approximate distance for the message (the verdict itself is exact)."""
    return f"{float(d2) ** 0.5:.2f}"


# --- sight ---------------------------------------------------------------------------------


def check_targets(board: Board) -> list[Finding]:
    """Figures that see no enemy and that no enemy sees, at their start squares, doors as drawn,
    under the map's line-of-sight rule (the default when ``los_rule`` is wrong: that is its own
    finding).

    Figures of a map with a single side are not checked (they have no enemies).
    """
    figures = list(board.figures.values())
    if len({f.side for f in figures}) < 2:
        return []
    from game.core import sight  # pure; imported late so the linter loads without it

    rule = sight.rule_or_default(board)
    on_board = [f for f in figures if board.on_board(f.square)]
    masks = {}
    for figure in on_board:
        key = (figure.square, figure.side)
        if key not in masks:
            masks[key] = sight.field(board, figure.square, rule, viewer=figure.side)
    out: list[Finding] = []
    for figure in on_board:
        enemies = [e for e in on_board if e.side != figure.side]
        if not enemies:
            continue
        sees = masks[(figure.square, figure.side)]
        if any(bool(sees[e.square[1], e.square[0]]) for e in enemies):
            continue
        seen = any(
            bool(masks[(e.square, e.side)][figure.square[1], figure.square[0]]) for e in enemies
        )
        if seen:
            continue
        out.append(Finding(
            "figure-no-target", Severity.WARNING,
            f"figure {figure.label} ({figure.side}) starts with no enemy in sight and in sight of "
            "no enemy (doors as drawn)",
            figure.id, figure.square, "fine for a hidden start; otherwise move it or open a line",
        ))
    return out


# --- properties ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KnownProperties:
    """The property names a ruleset reads, or None when the ruleset is unknown."""

    names: frozenset[str] | None
    problem: str | None = None


def known_properties(ruleset: str) -> KnownProperties:
    """Property names the map's ruleset reads (``Ruleset.known_properties``); for an unknown
    ruleset, no names and the registry's one-line problem.

    >>> "life" in known_properties("").names   # the default ruleset's
    True
    >>> known_properties("chess")
    KnownProperties(names=None, problem="unknown ruleset 'chess' (known: ...)")
    """
    try:
        rules = get_ruleset(ruleset)
    except SightlineError as exc:
        return KnownProperties(None, str(exc))
    return KnownProperties(frozenset(rules.known_properties))


def check_properties(board: Board, objects: Sequence[ObjectInfo] = ()) -> list[Finding]:
    """Figure properties the ruleset does not read (nearest known name suggested), map typos.

    >>> b = Board.from_ascii([".."], figures=[Figure(4, "Ann", "red", (0, 0), {"lfe": 3})])
    >>> [(f.code, f.hint) for f in check_properties(b) if f.code == "property-unknown"]
    [('property-unknown', 'did you mean life?')]
    """
    known = known_properties(board.ruleset)
    out: list[Finding] = []
    if known.names is None:
        if known.problem is not None:
            names = ruleset_names()
            out.append(Finding(
                "ruleset-unknown", Severity.ERROR,
                f"the map property ruleset is {board.ruleset!r}: {known.problem}", None, None,
                f"set ruleset to {', '.join(names[:-1])} or {names[-1]}" if len(names) > 1
                else f"set ruleset to {names[0]}",
            ))
        return out
    ruleset = ruleset_label(board.ruleset)
    figure_names = known.names | SIGHTLINE_FIGURE_PROPERTIES
    for figure in sorted(board.figures.values(), key=lambda f: f.id):
        for key in sorted(figure.stats):
            if key in figure_names:
                continue
            close = near_miss(key, figure_names)
            hint = f"did you mean {close}?" if close else (
                f"the {ruleset} ruleset reads: {', '.join(sorted(figure_names))}"
            )
            out.append(Finding(
                "property-unknown", Severity.WARNING,
                f"figure {figure.label} has property {key!r}, which the {ruleset} ruleset "
                "does not read",
                figure.id, figure.square, hint,
            ))
    map_names = known.names | SIGHTLINE_MAP_PROPERTIES
    for key in sorted(board.properties):
        if key in map_names:
            continue
        close = near_miss(key, map_names)
        if close:
            out.append(Finding(
                "map-property-misspelt", Severity.WARNING,
                f"map property {key!r} is not read by Sightline or the {ruleset} ruleset",
                None, None, f"did you mean {close}?",
            ))
    return out


def near_miss(word: str, names: Iterable[str]) -> str | None:
    """The known name ``word`` is a typo of: one edit away (a letter missing, extra, wrong or two
    swapped; two edits for names of eight letters or more), ignoring case; None when no name is
    that close, or when ``word`` only contains a name or a name contains it (``inside`` is not a
    typo of ``side``, nor ``hp`` of ``hp_max``); a name that is a whole part of a dotted or
    underscored word is meant (``stats.attacks`` -> ``attacks``).

    >>> near_miss("lfe", ["life", "side"]), near_miss("inside", ["side"]), near_miss("defence", ["defense"])
    ('life', None, 'defense')
    >>> near_miss("stats.attacks", ["attacks", "life"])
    'attacks'
    """
    low = word.casefold()
    known = sorted(names)
    parts = [p for p in re.split(r"[._\-\s]+", low) if p]
    if len(parts) > 1:  # a flattened class property (stats.attacks) or a prefixed name (my_life)
        whole = [name for name in known if name.casefold() in parts]
        if whole:
            return whole[0]
    best: tuple[int, str] | None = None
    for name in known:
        other = name.casefold()
        if other == low or other in low or low in other:
            continue
        allowed = 2 if max(len(low), len(other)) >= 8 else 1
        distance = _edits(low, other, allowed)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, name)
    return best[1] if best else None


def _edits(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance of two words (insert, delete, replace, swap two
    neighbours), or ``limit + 1`` once it is sure to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1]


def check_figure_values(board: Board) -> list[Finding]:
    """Figure property values the map's ruleset cannot use (``Ruleset.figure_problems``): an
    unreadable ``attacks`` string, a life of ``"lots"``, a negative defence ... (errors).

    >>> b = Board.from_ascii([".."], figures=[
    ...     Figure(4, "Ann", "red", (0, 0), {"attacks": "Sword-melee-3", "life": "lots"})])
    >>> [(f.code, f.object_id, f.message) for f in check_figure_values(b)][1]
    ('property-value', 4, "figure Ann: property 'life' must be a number, not 'lots'")
    """
    try:
        rules = get_ruleset(board.ruleset)
    except SightlineError:
        return []  # an unknown ruleset is reported by check_properties
    hint = (f"fix the value: {rules.doc_page} gives the format of every figure property"
            if rules.doc_page else f"fix the value to one the {rules.name} rules read")
    out: list[Finding] = []
    for figure in sorted(board.figures.values(), key=lambda f: f.id):
        for problem in rules.figure_problems(figure):
            out.append(Finding(
                "property-value", Severity.ERROR, f"figure {figure.label}: {problem}",
                figure.id, figure.square, hint,
            ))
    return out


__all__ = [
    "check_figure_values",
    "KnownProperties",
    "check_doors",
    "check_figures",
    "check_properties",
    "check_targets",
    "check_wall_objects",
    "finish",
    "FindingGroup",
    "GROUP_AT",
    "group_findings",
    "ignored_codes",
    "known_properties",
    "near_miss",
    "lint",
    "lint_board",
    "sort_key",
    "unit_edges",
]
