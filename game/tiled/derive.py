"""The board, derived from a map's records: one builder for every reader (docs/maps.md).

:func:`derive_map` takes what a reader read (:class:`~game.tiled.records.MapRecords`) and the map's
conventions (:func:`~game.tiled.settings.load_conventions`) and builds the
:class:`~game.core.board.Board` with everything the linter and the window need
(:class:`LoadedMap`): every object gets its role from the conventions; walls and windows are traced
onto edges and doors onto one edge by :mod:`game.tiled.geometry` (the result recorded on the
object, :class:`ObjectInfo`); figures stand on the square holding their centre; ``blocked``,
``void`` and ``impassable`` areas mark the squares whose centres they cover; the tile layers give
squares their roles and tile walls (:mod:`game.tiled.derive_cells`). What it meets becomes
findings, after the reader's.

Square grids only (:data:`ORIENTATIONS`: orthogonal, and isometric maps, whose diamonds are a
square grid turned on the screen): the guard refuses other orientations before reading, and this
refuses records of any other grid, so a hex derivation plugs in here. Boards that cannot be what
the designer meant are findings too (:mod:`game.tiled.sanity`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from game.core.board import Board, Door, DoorState, Edge, Figure, Square, Stat
from game.core.findings import Finding, Severity
from game.core.grid import Grid
from game.core.words import a_or_an, plural
from game.tiled.conventions import (
    CLASSES_FILE,
    OBJECT_WORDS,
    Conventions,
    role_of_words,
    suggest_preset,
    toml_line,
    words_of,
)
from game.tiled.derive_cells import Cells, derive_cells, door_state
from game.tiled.geometry import (
    DOOR_HINT,
    cells_inside,
    door_square,
    edge_in_map,
    fmt_point,
    snap,
    square_at,
    strip_edges,
    trace_door,
    trace_wall,
    wall_paths,
)
from game.tiled.prepare import orientation_error
from game.tiled.records import MapArt, MapRecords, ObjectInfo, ObjectRecord
from game.tiled.sanity import sanity_findings

__all__ = ["DEFAULT_RULESET", "DERIVERS", "ORIENTATIONS", "LoadedMap", "ObjectInfo", "derive_map"]

#: the grids the derivation builds boards on (Tiled's ``orientation``): an isometric map is a
#: square grid drawn as diamonds, read as the squares it is (staggered isometric is not); a
#: hexagonal map is a hex board (game/tiled/hex_derive.py)
ORIENTATIONS = ("orthogonal", "isometric", "hexagonal")
DEFAULT_RULESET = "arcadia"
DEFAULT_CAPACITY = 2
AREA_ROLES = ("blocked", "void", "impassable")
#: roles as a note names what they made of several objects
ROLE_WORDS_PLURAL = {
    "door": "doors", "figure": "figures", "wall": "walls", "window": "windows",
    "blocked": "blocked areas", "void": "void areas", "impassable": "impassable areas",
    "ignored": "nothing (ignored)",
}


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
    orientation = records.grid.orientation
    if orientation in DERIVER_MODULES and orientation not in DERIVERS:
        importlib.import_module(DERIVER_MODULES[orientation])  # it adds itself to DERIVERS
    return DERIVERS.get(orientation, _Deriver)(records, conventions).derive()


def _ids(ids: list[int], shown: int = 5) -> str:
    """``objects 3, 5, 9 ...``: a few object ids for a grouped finding."""
    head = ", ".join(str(i) for i in ids[:shown])
    return f"object{'s' if len(ids) > 1 else ''} {head}{' ...' if len(ids) > shown else ''}"


def _ruleset_name(value: object) -> str:
    """The map property ``ruleset`` as the board keeps it: a game's name in lower case, or a
    ruleset file's ``file:PATH`` with the path as written (file names may differ by case).

    >>> _ruleset_name(" Conquest "), _ruleset_name("File:Rules/Skirmish.toml"), _ruleset_name("")
    ('conquest', 'file:Rules/Skirmish.toml', 'arcadia')
    """
    text = str(value).strip()
    if text[:5].lower() == "file:":
        return "file:" + text[5:].strip()
    return text.lower() or DEFAULT_RULESET


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
    door_squares: dict[Square, DoorState] = field(default_factory=dict)


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
        #: objects that took their role from their layer's name, by layer (for one note each)
        self.by_layer_name: dict[str, list[ObjectInfo]] = {}
        #: rectangles read as collision boxes, and those that mark nothing, by kind (grouped)
        self.boxes: dict[str, list[int]] = {"read": [], "nothing": []}
        self.last_source = "none"

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
        self.report_layer_names()
        self.report_boxes()
        board = self.board(cells, parts)
        stats = self.stats(board, cells, parts, len(objects))
        art = records.art
        if records.grid.orientation == "isometric":
            art = None  # its pictures are diamonds: the board is drawn as its squares
            self.finding(
                "map-isometric", Severity.NOTE,
                "an isometric map: read as the square grid its diamonds stand for (x runs down-right, "
                "y down-left on Tiled's screen); render and the window draw it as squares",
            )
        self.findings += sanity_findings(records, board, stats, objects.values(), self.conv)
        files = (*records.files, *self.conv.files, *records.project_files)
        return LoadedMap(
            records.path, board, self.findings, objects, art, stats, tuple(dict.fromkeys(files))
        )

    # -- objects
    def place(self, record: ObjectRecord, parts: _Parts) -> ObjectInfo:
        """An object's role, and what it puts on the board by that role."""
        info = self.place_by_role(record, parts)
        if self.last_source == "layer-name" and info.role not in ("other", "ignored"):
            self.by_layer_name.setdefault(record.layer, []).append(info)
        return info

    def place_by_role(self, record: ObjectRecord, parts: _Parts) -> ObjectInfo:
        """What an object puts on the board by the role the conventions give it."""
        role, unknown, self.last_source = self.conv.object_role(
            record.class_name, record.layer_labels, record.properties, record.name
        )
        if unknown:
            self.unknown.setdefault(record.class_name, []).append(record.id)
        return self.place_as(record, role, parts)

    def place_as(self, record: ObjectRecord, role: str, parts: _Parts) -> ObjectInfo:
        """What an object of ``role`` puts on the board (a hex derivation places walls, doors and
        areas on hex sides and cells itself)."""
        if role in ("wall", "window"):
            boxed = self.collision_box(record, role, parts) if role == "wall" else None
            if boxed is not None:
                return boxed
            info = self.trace(record, role)
            (parts.drawn_walls if role == "wall" else parts.windows).update(info.edges)
            return info
        if role == "door":
            square = door_square(record.shape, record.x, record.y, record.width, record.height, record.points)
            edge = trace_door(record.shape, record.x, record.y, record.width, record.height, record.points)
            if square is not None and edge.problem is not None and self.in_bounds(square):
                # a door filling its square (a door tile placed as an object): a door square
                parts.door_squares[square] = door_state(record.properties, record.id, "door", self.findings)
                return _info(record, role, square=square)
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
            cells = self.area_of(record, role)
            if not cells and record.shape in ("rectangle", "tile") and not record.skewed:
                edges = strip_edges(record.x, record.y, record.width, record.height)
                if edges:  # a thin collision strip along a grid line: a wall
                    parts.drawn_walls.update(edges)
                    return _info(record, role, edges=tuple(edges))
                self.boxes["nothing"].append(record.id)
            parts.areas[role].update(cells)
        return _info(record, role)

    def collision_box(self, record: ObjectRecord, role: str, parts: _Parts) -> ObjectInfo | None:
        """A wall rectangle off the grid read as a collision box (games draw collision rectangles
        anywhere): the squares whose centres it covers are blocked, or, thinner than half a square
        along a grid line, it walls that line; one that does neither marks nothing (grouped in
        one finding). None for anything else (traced as a wall)."""
        if record.shape not in ("rectangle", "tile") or record.skewed:
            return None
        paths = wall_paths(record.shape, record.x, record.y, record.width, record.height, record.points)
        if all(snap(p)[0] is not None for path, _ in paths for p in path):
            return None  # on the grid: Sightline's own wall (outline, or centre line)
        cells = cells_inside(record.shape, record.x, record.y, record.width, record.height,
                             record.points, False, (self.width, self.height))
        edges = [] if cells else strip_edges(record.x, record.y, record.width, record.height)
        self.boxes["read" if cells or edges else "nothing"].append(record.id)
        parts.areas["blocked"].update(cells)
        parts.drawn_walls.update(edges)
        return _info(record, role, edges=tuple(edges))

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
        """One warning per class no convention gives a role (a preset suggested when one reads it;
        the hint's mapping guessed from the class's words, as valid TOML)."""
        preset = None if self.conv.preset else suggest_preset(list(self.unknown))
        for class_name, ids in sorted(self.unknown.items()):
            shown_ids = ", ".join(str(i) for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
            role = role_of_words(words_of(class_name), OBJECT_WORDS)
            role = role if role in ("wall", "door", "figure", "blocked", "void") else "wall"
            self.finding(
                "unknown-class",
                Severity.WARNING,
                f"class {class_name!r} is not a Sightline class ({plural(len(ids), 'object')}: "
                f"{shown_ids}); ignored",
                ids[0],
                hint=f"read it with --classes {role}={class_name}"
                + (f", or try --preset {preset}" if preset else "")
                + f", or use wall, window, door, figure, blocked, void; or in {CLASSES_FILE}: "
                + toml_line("classes", role, [class_name]),
            )

    def report_layer_names(self) -> None:
        """A note per object layer whose objects took their role from the layer's name."""
        for layer, objs in sorted(self.by_layer_name.items()):
            roles = sorted({o.role for o in objs})
            names: dict[str, int] = {}
            for obj in objs:
                names[obj.name or "(unnamed)"] = names.get(obj.name or "(unnamed)", 0) + 1
            named = ""
            if len(names) > 1:
                ranked = sorted(names.items(), key=lambda item: (-item[1], item[0]))
                named = " (" + ", ".join(f"{n} {c}" for n, c in ranked[:6]) + (" ..." if len(ranked) > 6 else "") + ")"
            shown = ", ".join(ROLE_WORDS_PLURAL.get(role, role) for role in roles)
            self.finding(
                "layer-role", Severity.NOTE,
                f"object layer {layer!r}: its {plural(len(objs), 'object')}{named} "
                f"{'is' if len(objs) == 1 else 'are'} read as {shown}, by the layer's name",
                objs[0].id,
                hint=f"if that is wrong, give the layer its role in {CLASSES_FILE}: "
                + toml_line("layers", "ignore", [layer]),
            )

    def report_boxes(self) -> None:
        """One finding for the rectangles read as collision boxes, one for those marking nothing."""
        read, nothing = self.boxes["read"], self.boxes["nothing"]
        if read:
            self.finding(
                "collision-rectangle", Severity.NOTE,
                f"{plural(len(read), 'wall rectangle')} off the grid ({_ids(read)}) "
                f"{'is' if len(read) == 1 else 'are'} read as collision boxes: the squares whose "
                "centres they cover are blocked, thin strips along a grid line are walls",
                read[0],
                hint="draw walls along grid lines (View > Snapping > Snap to Grid) if you meant walls",
            )
        if nothing:
            one = len(nothing) == 1
            self.finding(
                "collision-rectangle", Severity.WARNING,
                f"{plural(len(nothing), 'rectangle')} ({_ids(nothing)}) "
                + ("looks like a collision box but covers" if one else "look like collision boxes but cover")
                + " no square's centre and lie" + ("s" if one else "") + " along no grid line; ignored",
                nothing[0],
                hint="stretch each over the squares it blocks (a box covering a square's centre "
                "blocks it), or draw it along a grid line (a wall)",
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
        ruleset = _ruleset_name(properties.pop("ruleset", DEFAULT_RULESET))
        capacity = self.capacity(properties.pop("capacity", DEFAULT_CAPACITY))
        void = cells.void | parts.areas["void"]
        blocked = cells.blocked | parts.areas["blocked"]
        impassable = cells.impassable | parts.areas["impassable"]
        walls = cells.walls | {e for e in parts.drawn_walls if self.edge_in_map(e)}
        windows = {e for e in parts.windows if self.edge_in_map(e)}
        return Board(
            self.width,
            self.height,
            void=void,
            blocked=blocked - void,
            impassable=impassable - void - blocked,
            door_squares={
                sq: st for sq, st in {**cells.doors, **parts.door_squares}.items()
                if sq not in void | blocked
            },
            walls=walls,
            windows=windows - walls,
            doors=parts.doors.values(),
            figures=parts.figures,
            capacity=capacity,
            ruleset=ruleset,
            properties=properties,
            name=self.records.path.stem,
            grid=self.grid(),
        )

    def edge_in_map(self, edge: Edge) -> bool:
        """Whether an edge lies on the map or its rim (a hex derivation asks its grid)."""
        return edge_in_map(edge, self.width, self.height)

    def grid(self) -> Grid[Edge] | None:
        """The board's grid: None, the square grid (a hex derivation gives its hex grid)."""
        return None

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
            "empty_floor": cells.empty_floor,
            "collision_cells": cells.collision_cells,
            "collision_edges": cells.collision_edges,
        }
        if records.origin != (0, 0):
            stats["origin_x"], stats["origin_y"] = records.origin
        return stats


#: orientation -> its derivation when not the square one: game/tiled/hex_derive.py adds
#: "hexagonal" when it is imported, which :func:`derive_map` does on the first such map (a square
#: map's start-up never loads the hex engines)
DERIVERS: dict[str, type[_Deriver]] = {}
#: orientation -> the module whose import registers its derivation
DERIVER_MODULES = {"hexagonal": "game.tiled.hex_derive"}
