"""The board, derived from a map's records: one builder for every reader (docs/maps.md).

:func:`derive_map` takes what a reader read (:class:`~game.tiled.records.MapRecords`) and the map's
conventions (:func:`~game.tiled.conventions.load_conventions`) and builds the
:class:`~game.core.board.Board` with everything the linter and the window need
(:class:`LoadedMap`): every object gets its role from the conventions; walls and windows are traced
onto edges and doors onto one edge by :mod:`game.tiled.geometry` (the result recorded on the
object, :class:`ObjectInfo`); figures stand on the square holding their centre; ``blocked``,
``void`` and ``impassable`` areas mark the squares whose centres they cover; the tile layers give
squares their roles and tile walls (:mod:`game.tiled.derive_cells`). What it meets becomes
findings, after the reader's.

Square grids only (:data:`ORIENTATIONS`): the guard refuses other orientations before reading, and
this refuses records of any other grid, so a hex derivation plugs in here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from game.core.board import Board, Door, Edge, Figure, Square, Stat
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural
from game.tiled.conventions import CLASSES_FILE, Conventions, suggest_preset
from game.tiled.derive_cells import Cells, derive_cells, door_state
from game.tiled.geometry import (
    DOOR_HINT,
    Point,
    Segment,
    cells_inside,
    edge_in_map,
    fmt_point,
    square_at,
    trace_door,
    trace_wall,
    wall_paths,
)
from game.tiled.guard import orientation_error
from game.tiled.records import MapArt, MapRecords, ObjectRecord

__all__ = ["DEFAULT_RULESET", "ORIENTATIONS", "LoadedMap", "ObjectInfo", "derive_map"]

#: the grids the derivation builds boards on (Tiled's ``orientation``)
ORIENTATIONS = ("orthogonal",)
DEFAULT_RULESET = "arcadia"
DEFAULT_CAPACITY = 2
AREA_ROLES = ("blocked", "void", "impassable")


@dataclass(frozen=True)
class ObjectInfo(ObjectRecord):
    """One object of the map (its :class:`~game.tiled.records.ObjectRecord`) with the role the
    conventions gave it and what the derivation traced from its shape, once
    (:mod:`game.tiled.geometry`), for the linter and the window: a wall's or window's raw
    ``segments``, free ``ends``, unit ``edges`` on the map (once each) and the ``repeated`` ones
    it draws more than once; a door's
    ``door_edge``; a figure's ``square``. ``role`` is one of the conventions' roles,
    ``impassable`` (a ledge), ``ignored`` (a class the preset ignores) or ``other``.
    """

    role: str = "other"
    segments: tuple[Segment, ...] = ()
    ends: tuple[Point, ...] = ()
    edges: tuple[Edge, ...] = ()
    repeated: tuple[Edge, ...] = ()
    door_edge: Edge | None = None
    square: Square | None = None


@dataclass
class LoadedMap:
    """A loaded map: the board, what the loader found, every object, the art, what it depends on."""

    path: Path
    board: Board
    findings: list[Finding]
    objects: dict[int, ObjectInfo]
    art: MapArt | None
    stats: dict[str, int]
    dependencies: tuple[Path, ...]

    @property
    def errors(self) -> list[Finding]:
        """The findings of severity error."""
        return [f for f in self.findings if f.severity is Severity.ERROR]


def derive_map(records: MapRecords, conventions: Conventions) -> LoadedMap:
    """The loaded map of a reader's records under the map's conventions (see the module).

    Raises :class:`MapError` for a grid other than :data:`ORIENTATIONS`; everything else wrong in
    the map is a finding.
    """
    if records.grid.orientation not in ORIENTATIONS:
        raise orientation_error(records.grid.orientation, str(records.path))
    return _Deriver(records, conventions).derive()


def _info(record: ObjectRecord, role: str, **traced: object) -> ObjectInfo:
    """The record as an :class:`ObjectInfo` with its role and traces (built without the frozen
    ``__init__``: a big map has tens of thousands of objects)."""
    info = object.__new__(ObjectInfo)
    info.__dict__.update(
        record.__dict__, role=role, segments=(), ends=(), edges=(), repeated=(), door_edge=None, square=None
    )
    info.__dict__.update(traced)
    return info


@dataclass
class _Parts:
    """What the objects put on the board."""

    drawn_walls: set[Edge] = field(default_factory=set)  # every edge walls draw, off-map ones too
    windows: set[Edge] = field(default_factory=set)
    doors: dict[Edge, Door] = field(default_factory=dict)
    figures: list[Figure] = field(default_factory=list)
    areas: dict[str, set[Square]] = field(default_factory=lambda: {r: set() for r in AREA_ROLES})


class _Deriver:
    """One derivation (the state its steps share: conventions, findings, counts)."""

    def __init__(self, records: MapRecords, conventions: Conventions) -> None:
        """Start a derivation of ``records`` under ``conventions``."""
        self.records = records
        self.conv = conventions
        self.width, self.height = records.width, records.height
        self.findings: list[Finding] = list(records.findings)
        self.snapped = 0
        self.unknown: dict[str, list[int]] = {}

    def finding(
        self,
        code: str,
        severity: Severity,
        message: str,
        object_id: int | None = None,
        square: Square | None = None,
        hint: str | None = None,
    ) -> None:
        """Report one finding."""
        self.findings.append(Finding(code, severity, message, object_id, square, hint))

    def in_bounds(self, sq: Square) -> bool:
        """Whether a square is on the map."""
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def derive(self) -> LoadedMap:
        """The tile layers' cells, then every object, then the board and its numbers."""
        records = self.records
        cells = derive_cells(records, self.conv, self.findings)
        parts = _Parts()
        objects = {record.id: self.place(record, parts) for record in records.objects}
        self.report_hidden_objects(objects.values())
        self.report_unknown_classes()
        board = self.board(cells, parts)
        stats = self.stats(board, cells, parts, len(objects))
        files = (*records.files, *self.conv.files, *records.project_files)
        return LoadedMap(
            records.path, board, self.findings, objects, records.art, stats, tuple(dict.fromkeys(files))
        )

    # -- objects
    def place(self, record: ObjectRecord, parts: _Parts) -> ObjectInfo:
        """An object's role, and what it puts on the board by that role."""
        role, unknown = self.conv.object_role(record.class_name, record.layer_labels, record.properties)
        if unknown:
            self.unknown.setdefault(record.class_name, []).append(record.id)
        if role in ("wall", "window"):
            info = self.trace(record, role)
            (parts.drawn_walls if role == "wall" else parts.windows).update(info.edges)
            return info
        if role == "door":
            door = self.door_of(record)
            if door is None:
                return _info(record, role)
            parts.doors[door.edge] = door
            return _info(record, role, door_edge=door.edge)
        if role == "figure":
            figure = self.figure_of(record)
            if figure is None:
                return _info(record, role)
            parts.figures.append(figure)
            return _info(record, role, square=figure.square)
        if role in AREA_ROLES:
            parts.areas[role].update(self.area_of(record, role))
        return _info(record, role)

    def trace(self, obj: ObjectRecord, kind: str) -> ObjectInfo:
        """Trace a wall (or window) object onto grid edges, recorded on the object; errors for
        off-grid and diagonal parts, warnings for parts beyond the map."""
        if obj.shape in ("ellipse", "point", "text"):
            self.finding(
                "wall-shape",
                Severity.ERROR,
                f"a {kind} must be a line, polyline, polygon or rectangle, not {a_or_an(obj.shape)}; "
                "ignored",
                obj.id,
                hint=f"redraw the {kind} as a polyline along grid lines",
            )
            return _info(obj, kind)
        trace = trace_wall(wall_paths(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.skewed),
                           (self.width, self.height))
        self.snapped += trace.snapped
        for code, detail in trace.problems:
            self.finding(
                code,
                Severity.ERROR,
                f"{kind} {detail}; that part is ignored",
                obj.id,
                hint="draw walls along grid lines with View > Snapping > Snap to Grid on",
            )
        self.report_outside(obj.id, kind, len(trace.edges), trace.outside)
        return _info(obj, kind, segments=trace.segments, ends=trace.ends, edges=trace.edges,
                     repeated=trace.repeated)

    def report_outside(self, object_id: int, kind: str, inside: int, outside: int) -> None:
        """A warning when a wall's edges lie (partly) beyond the map (``inside`` edges on it, the
        trace clipped ``outside`` ones off)."""
        if outside and not inside:
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{kind} lies outside the map; ignored",
                object_id,
                hint="move it onto the map or delete it",
            )
        elif outside:
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{kind} runs {plural(outside, 'square')} past the map's edge; that part is ignored",
                object_id,
                hint="trim it to the map",
            )

    def door_of(self, obj: ObjectRecord) -> Door | None:
        """The door an object puts on the board, or None (with a finding)."""
        trace = trace_door(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points)
        self.snapped += trace.snapped
        if trace.problem is not None:
            code, message = trace.problem
            hint = "draw one door per edge" if code == "door-too-long" else DOOR_HINT
            self.finding(code, Severity.ERROR, message, obj.id, hint=hint)
            return None
        assert trace.edge is not None
        edge = trace.edge
        a_sq, b_sq = edge.squares()
        if not (self.in_bounds(a_sq) or self.in_bounds(b_sq)):
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"door {edge} is outside the map; ignored",
                obj.id,
            )
            return None
        return Door(edge, door_state(obj.properties, obj.id, "door", self.findings), obj.id, obj.name)

    def figure_of(self, obj: ObjectRecord) -> Figure | None:
        """The figure an object puts on the square holding its centre, or None (with an error)."""
        cx, cy = obj.centre
        square = square_at((cx, cy))
        if not self.in_bounds(square):
            self.finding(
                "figure-outside-board",
                Severity.ERROR,
                f"figure {obj.name or '#' + str(obj.id)} stands at {fmt_point((cx, cy))}, outside the "
                f"{self.width}x{self.height} map; not placed",
                obj.id,
                square,
                hint="move the figure onto the map",
            )
            return None
        name, side, stats = self.conv.figure_fields(obj.name, obj.properties)
        return Figure(obj.id, name, side, square, stats)

    def area_of(self, obj: ObjectRecord, role: str) -> set[Square]:
        """The squares a blocked, void or impassable area covers (warnings for a line or point,
        or an area beyond the map)."""
        if obj.shape in ("point", "polyline", "text"):
            self.finding(
                "area-shape",
                Severity.WARNING,
                f"a {role} area must be a rectangle, ellipse or polygon, not {a_or_an(obj.shape)}; "
                "ignored",
                obj.id,
                hint="draw a rectangle or polygon over the squares",
            )
            return set()
        cells = cells_inside(
            obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.skewed,
            (self.width, self.height),
        )
        if not cells and not (0 <= obj.x < self.width and 0 <= obj.y < self.height):
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{role} area lies outside the map; ignored",
                obj.id,
            )
        return cells

    # -- what the objects say about the map as a whole
    def report_hidden_objects(self, objects: Iterable[ObjectInfo]) -> None:
        """Hidden objects with a role count like visible ones; say so, per hidden layer or object."""
        hidden_layers = {r.name for r in self.records.layers if r.kind == "object" and r.hidden}
        per_layer: dict[str, list[ObjectInfo]] = {}
        for obj in objects:
            if obj.hidden and obj.role not in ("other", "ignored"):
                per_layer.setdefault(obj.layer, []).append(obj)
        for layer, objs in sorted(per_layer.items()):
            if layer in hidden_layers:
                self.finding(
                    "hidden-layer",
                    Severity.WARNING,
                    f"object layer {layer!r} is hidden but its {plural(len(objs), 'object')} "
                    f"({', '.join(sorted({o.role for o in objs}))}) count",
                    objs[0].id,
                    hint="Sightline reads hidden layers like visible ones; show the layer, or delete "
                    "it if it is not part of the board",
                )
                continue
            for obj in objs:
                self.finding(
                    "hidden-object",
                    Severity.WARNING,
                    f"{obj.role} {obj.name or '#' + str(obj.id)} is hidden in Tiled but counts",
                    obj.id,
                    hint="Sightline reads hidden objects like visible ones; show it, or delete it",
                )

    def report_unknown_classes(self) -> None:
        """One warning per class no convention gives a role (a preset suggested when one reads it)."""
        preset = None if self.conv.preset else suggest_preset(list(self.unknown))
        for class_name, ids in sorted(self.unknown.items()):
            shown_ids = ", ".join(str(i) for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
            self.finding(
                "unknown-class",
                Severity.WARNING,
                f"class {class_name!r} is not a Sightline class ({plural(len(ids), 'object')}: "
                f"{shown_ids}); ignored",
                ids[0],
                hint=f'map it in {CLASSES_FILE}, e.g. [classes] wall = ["{class_name}"], or with '
                "--classes, or use wall, window, door, figure, blocked, void"
                + (f", or try --preset {preset}" if preset else ""),
            )

    def capacity(self, value: Stat) -> int:
        """The map property ``capacity`` (figures per square); 2, with an error, unless a whole
        number of at least 1."""
        try:
            number = int(value) if not isinstance(value, bool) else 0
            if number >= 1 and str(value).strip() == str(number):
                return number
        except ValueError:
            pass
        self.finding(
            "capacity-invalid",
            Severity.ERROR,
            f"map property capacity={value!r} is not a whole number of at least 1; using 2",
            hint="set the int map property capacity to 1, 2, 3 ...",
        )
        return DEFAULT_CAPACITY

    # -- the board
    def board(self, cells: Cells, parts: _Parts) -> Board:
        """The board: tile cells and object areas (void over blocked over impassable), walls on
        the map, windows not under walls, doors, figures, and the map's properties."""
        properties = dict(self.records.properties)
        ruleset = str(properties.pop("ruleset", DEFAULT_RULESET)).strip().lower() or DEFAULT_RULESET
        capacity = self.capacity(properties.pop("capacity", DEFAULT_CAPACITY))
        void = cells.void | parts.areas["void"]
        blocked = cells.blocked | parts.areas["blocked"]
        impassable = cells.impassable | parts.areas["impassable"]
        walls = cells.walls | {e for e in parts.drawn_walls if edge_in_map(e, self.width, self.height)}
        windows = {e for e in parts.windows if edge_in_map(e, self.width, self.height)}
        return Board(
            self.width,
            self.height,
            void=void,
            blocked=blocked - void,
            impassable=impassable - void - blocked,
            door_squares={sq: st for sq, st in cells.doors.items() if sq not in void | blocked},
            walls=walls,
            windows=windows - walls,
            doors=parts.doors.values(),
            figures=parts.figures,
            capacity=capacity,
            ruleset=ruleset,
            properties=properties,
            name=self.records.path.stem,
        )

    def stats(self, board: Board, cells: Cells, parts: _Parts, objects: int) -> dict[str, int]:
        """The numbers ``sightline check --stats`` shows."""
        records = self.records
        stats = {
            "width": self.width,
            "height": self.height,
            "walls": len(board.walls),
            "windows": len(board.windows),
            "doors": len(parts.doors),
            "figures": len(parts.figures),
            "snapped_vertices": self.snapped,
            "objects": objects,
            "layers": len(records.layers),
            "tile_layers": len(records.tile_layers),
            "object_layers": sum(1 for r in records.layers if r.kind == "object"),
            "void": len(board.void),
            "blocked": len(board.blocked),
            "tilesets": len(records.tilesets),
            "impassable": len(board.impassable),
            "door_squares": len(board.door_squares),
            "collision_cells": cells.collision_cells,
            "collision_edges": cells.collision_edges,
        }
        if records.origin != (0, 0):
            stats["origin_x"], stats["origin_y"] = records.origin
        return stats

