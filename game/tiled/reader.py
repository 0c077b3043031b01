"""Load a Tiled ``.tmx`` map into a :class:`~game.core.board.Board`: the map is parsed once, here.

The map conventions are in ``docs/maps.md``: orthogonal maps only; a cell empty in
every visible tile layer is void; tile properties ``void``, ``blocked`` and ``walls``; objects of
class ``wall``, ``window``, ``door``, ``figure``, ``blocked`` and ``void`` (or any class mapped
onto them by ``sightline.toml`` / ``--classes``); every object of a layer named or classed
``walls`` is a wall. Files are first checked and flattened by :mod:`game.tiled.guard` (size and
decompression limits, no XML entities, external tilesets and templates inlined), then read here
into plain data: the board, every object with the geometry the loader derived for it
(:mod:`game.tiled.geometry`), and the tile art (image file, source rectangle, offset and flip bits
per tile) that the window hands to pytmx's image loader. This package never imports pytmx.

>>> parse_class_mapping("wall=collision-line, blocked=collision")
{'wall': ['collision-line'], 'blocked': ['collision']}
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import numpy as np

from game.core.board import Board, Door, DoorState, Edge, Figure, Square, Stat
from game.core.errors import MapError, SightlineError, UsageError
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural
from game.tiled.conventions import (
    CELL_ROLES,
    Conventions,
    get_preset,
    is_true,
    load_toml,
    read_config,
    suggest_preset,
    table_names,
)
from game.tiled.geometry import (
    DOOR_HINT,
    Point,
    Segment,
    centre_of,
    edge_in_map,
    fmt_point,
    side_edge,
    snap,
    square_at,
    trace_door,
    trace_wall,
    wall_paths,
)
from game.tiled.guard import (
    GID_FLAGS,
    GID_MASK,
    ORIGIN,
    PreparedMap,
    TileLayerData,
    explain_unreadable,
    frac_attr,
    parse_number,
    parse_xml_file,
    prepare,
    read_properties,
)
from game.tiled.project import resolve_enums

#: the roles an object can play; anything else is "other"
ROLES = ("wall", "window", "door", "figure", "blocked", "void")
DEFAULT_RULESET = "arcadia"
DEFAULT_SIDE = "neutral"
CLASSES_FILE = "sightline.toml"
WALL_LAYERS = ("walls",)  # object layers named or classed so: every object is a wall
TILE_ONLY = ("void", "blocked", "walls")  # tile properties a tile object does not inherit
#: a tile object's anchor for each tileset ``objectalignment``, as fractions of its width and height
ALIGNMENT: dict[str, tuple[Fraction, Fraction]] = {
    "topleft": (Fraction(0), Fraction(0)),
    "top": (Fraction(1, 2), Fraction(0)),
    "topright": (Fraction(1), Fraction(0)),
    "left": (Fraction(0), Fraction(1, 2)),
    "center": (Fraction(1, 2), Fraction(1, 2)),
    "right": (Fraction(1), Fraction(1, 2)),
    "bottomleft": (Fraction(0), Fraction(1)),
    "bottom": (Fraction(1, 2), Fraction(1)),
    "bottomright": (Fraction(1), Fraction(1)),
}
#: tile properties Sightline reads without a mapping (door tiles read their state too)
TILE_READ = frozenset({"void", "blocked", "walls", "state", "open", "locked"})
#: tile property names (or values) that say a game gives the tile a role: unread, they are reported
ROLE_WORDS = frozenset(
    {
        "wall", "walls", "door", "doors", "collides", "collide", "collision", "solid", "obstacle",
        "block", "blocks", "blocking", "passable", "walkable", "transparent", "opaque",
        "impassable", "water", "pit", "hole", "void",
    }
)


# --- the data handed to the rest of the program ------------------------------------------------


@dataclass(frozen=True)
class TileImage:
    """Where one tile's pixels are: an image file, a sub-rectangle (None = whole image), an offset.

    ``colorkey`` is the tileset image's transparent colour (Tiled's ``trans``, ``RRGGBB``), if any.
    """

    image: Path
    rect: tuple[int, int, int, int] | None
    offset: tuple[int, int] = (0, 0)
    colorkey: str | None = None


@dataclass(frozen=True)
class ArtLayer:
    """One visible tile layer in draw order; ``gids`` is uint32 ``[y, x]`` WITH Tiled flip bits."""

    name: str
    opacity: float
    offset: tuple[float, float]
    gids: np.ndarray = field(hash=False, compare=False)


@dataclass(frozen=True)
class MapArt:
    """Plain data for the renderer: tile layers and where each tile's pixels are."""

    tile_width: int
    tile_height: int
    layers: tuple[ArtLayer, ...]
    tiles: dict[int, TileImage] = field(hash=False)
    background: str | None = None


@dataclass(frozen=True)
class ObjectInfo:
    """One object of an object layer, in grid units (exact Fractions), before snapping.

    ``x, y, width, height`` are the bounding box with a top-left origin (tile objects, which Tiled
    anchors bottom-left, are converted); ``points`` are absolute (polygons, polylines, rectangle
    corners, the point of a point object).

    What the loader derived from the shape, once (:mod:`game.tiled.geometry`), for the linter and
    the window: a wall's or window's raw ``segments``, free ``ends`` and unit ``edges`` (drawing
    order, repeats kept); a door's ``door_edge``; a figure's ``square``.
    """

    id: int
    name: str
    role: str
    class_name: str
    layer: str
    shape: str
    x: Fraction
    y: Fraction
    width: Fraction
    height: Fraction
    points: tuple[tuple[Fraction, Fraction], ...]
    properties: dict[str, Stat] = field(hash=False)
    segments: tuple[Segment, ...] = ()
    ends: tuple[Point, ...] = ()
    edges: tuple[Edge, ...] = ()
    door_edge: Edge | None = None
    square: Square | None = None
    hidden: bool = False  #: hidden in Tiled (the object or its layer); it counts all the same

    @property
    def centre(self) -> tuple[Fraction, Fraction]:
        """The centre used for figures and door shapes (the point itself for a point object)."""
        return centre_of(self.shape, self.x, self.y, self.width, self.height, self.points)


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


# --- which files are maps --------------------------------------------------------------------

#: the file endings of Tiled maps (``.json`` only when the file is a Tiled map, see is_map_file)
MAP_SUFFIXES = (".tmx", ".tmj", ".json")


def is_map_file(path: Path) -> bool:
    """Whether a file is a Tiled map by its name: ``.tmx``, ``.tmj``, or a ``.json`` file whose
    top-level object is a Tiled map (``"type": "map"``; tilesets and templates are not maps)."""
    suffix = path.suffix.lower()
    if suffix in (".tmx", ".tmj"):
        return path.is_file()
    if suffix != ".json" or not path.is_file():
        return False
    import json

    try:
        if path.stat().st_size > 64 * 1024 * 1024:
            return False
        doc = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and (doc.get("type") == "map" or "layers" in doc)


# --- class mapping --------------------------------------------------------------------------


def role_conflict(mapping: Mapping[str, Sequence[str]]) -> tuple[str, str, str] | None:
    """The first class given two roles in ``mapping``, as ``(class, first role, second role)``.

    Class names match ignoring case; a class named like one of our roles always has that role.

    >>> role_conflict({"wall": ["fence"], "blocked": ["rock", "Fence"]})
    ('fence', 'wall', 'blocked')
    >>> role_conflict({"blocked": ["wall"]}), role_conflict({"wall": ["wall", "hedge"]})
    (('wall', 'wall', 'blocked'), None)
    """
    seen: dict[str, tuple[str, str]] = {role: (role, role) for role in ROLES}
    for ours, theirs in mapping.items():
        for name in [theirs] if isinstance(theirs, str) else theirs:
            key = name.strip().casefold()
            first = seen.setdefault(key, (name.strip(), ours))
            if first[1] != ours:
                return first[0], first[1], ours
    return None


def _conflict_message(conflict: tuple[str, str, str], where: str) -> str:
    name, first, second = conflict
    return f"{where} maps class {name!r} to two roles: {first} and {second}"


def parse_class_mapping(text: str) -> dict[str, list[str]]:
    """Read ``--classes`` text: ``ours=theirs`` pairs separated by commas or semicolons.

    A role may be given several times (``wall=a,wall=b``); ``|`` also separates names. A class
    given two roles is a :class:`UsageError`.

    >>> parse_class_mapping("wall=collision-line|fence; blocked=collision, wall=hedge")
    {'wall': ['collision-line', 'fence', 'hedge'], 'blocked': ['collision']}
    >>> parse_class_mapping("wal=x")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: unknown role 'wal' in --classes (use wall, window, door, figure, blocked, void)
    >>> parse_class_mapping("void=Location,wall=Location")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --classes maps class 'Location' to two roles: void and wall (give each class one role)
    """
    out: dict[str, list[str]] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        ours, sep, theirs = part.partition("=")
        ours = ours.strip().lower()
        names = [n.strip() for n in theirs.split("|") if n.strip()]
        if not sep or not names:
            raise UsageError(
                f"--classes wants role=class pairs, e.g. wall=collision-line (got {part.strip()!r})"
            )
        if ours not in ROLES:
            raise UsageError(f"unknown role {ours!r} in --classes (use {', '.join(ROLES)})")
        known = out.setdefault(ours, [])
        for name in names:
            if name.casefold() not in {k.casefold() for k in known}:
                known.append(name)
        conflict = role_conflict(out)
        if conflict:
            raise UsageError(f"{_conflict_message(conflict, '--classes')} (give each class one role)")
    return out


def _read_classes_file(path: Path) -> dict[str, list[str]]:
    data = load_toml(path)
    table = data.get("classes", {})
    if not isinstance(table, dict):
        raise MapError(
            "[classes] must be a table", path=str(path), hint='e.g. wall = ["collision-line"]'
        )
    out: dict[str, list[str]] = {}
    for ours, theirs in table.items():
        out[ours] = table_names(path, "classes", ours, theirs, ROLES, "a class name")
    conflict = role_conflict(out)
    if conflict:
        raise MapError(
            _conflict_message(conflict, "[classes]"), path=str(path), hint="give each class one role"
        )
    return out


# --- entry point ----------------------------------------------------------------------------


def load_map(
    path: str | Path,
    *,
    classes: Mapping[str, Sequence[str]] | None = None,
    tiles: Mapping[str, Sequence[str]] | None = None,
    properties: Mapping[str, str] | None = None,
    preset: str | None = None,
    collision: bool | None = None,
) -> LoadedMap:
    """Load a Tiled map (``.tmx``, ``.tmj`` or ``.json``); raises :class:`MapError` (one line:
    file, object, fix) for anything unusable.

    ``classes`` maps our object roles onto the map's own class names, ``tiles`` our cell roles
    onto tile classes and properties, ``properties`` our figure property names onto theirs;
    ``preset`` names a set of conventions (:data:`~game.tiled.conventions.PRESETS`) and
    ``collision`` (default: read) turns the Tile Collision Editor shapes on or off. All of them
    are added to (and win over) ``sightline.toml``'s.
    """
    path = Path(path)
    try:
        options = _Options(classes or {}, tiles or {}, properties or {}, preset, collision)
        with collector_paused():
            return _Loader(path, options).load()
    except MapError:
        raise
    except SightlineError as exc:
        raise MapError(str(exc), path=str(path)) from None
    except RecursionError:
        raise MapError("the map is nested too deeply to read", path=str(path)) from None
    except MemoryError:
        raise MapError("the map is too large to read", path=str(path)) from None
    except ImportError:
        raise  # a missing module is our installation's fault, not the map's
    except Exception:  # noqa: BLE001 - a bad map must never become a traceback
        try:
            why = explain_unreadable(parse_xml_file(path, "map"))
        except MapError:
            why = "an element or attribute is not as Tiled writes it"
        raise MapError(
            f"cannot read this map: {why}", path=str(path),
            hint="fix it, or open the map in Tiled and save it again",
        ) from None


def _evolve(obj: ObjectInfo, **changes: Any) -> ObjectInfo:
    """``dataclasses.replace`` for the loader's hot path: a copy of ``obj`` with ``changes``
    (field names only; ObjectInfo has no ``__post_init__``), without the frozen ``__init__``."""
    new = object.__new__(ObjectInfo)
    new.__dict__.update(obj.__dict__, **changes)
    return new


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a map loads (restored after, as it was; nests).

    A big map makes tens of thousands of small objects that all stay alive; the collector would
    walk all of them again and again as they pile up (about a third of the load of a 400×400
    map with 15,000 wall objects). Loading makes no reference cycles worth collecting, and
    plain reference counting still frees everything it drops. A one-shot command can hold the
    pause until it has dropped the map, so that the collector never walks it at all.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# --- shape helpers ---------------------------------------------------------------------------


def _rotation(degrees: Fraction) -> tuple[Fraction, Fraction]:
    """cos and sin of a clockwise rotation, exact for multiples of 90 degrees."""
    if degrees % 90 == 0:
        return {
            0: (Fraction(1), Fraction(0)),
            1: (Fraction(0), Fraction(1)),
            2: (Fraction(-1), Fraction(0)),
            3: (Fraction(0), Fraction(-1)),
        }[int(degrees / 90) % 4]
    rad = math.radians(float(degrees))
    return Fraction(round(math.cos(rad), 12)), Fraction(round(math.sin(rad), 12))


def _point_in_polygon(px: Fraction, py: Fraction, poly: Sequence[Point]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > py) != (y2 > py):
            cross = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if px < cross:
                inside = not inside
    return inside


# --- the loader -----------------------------------------------------------------------------


@dataclass
class _Tile:
    properties: dict[str, Stat]
    class_name: str
    rect: tuple[int, int, int, int] | None
    offset: tuple[int, int]
    shapes: list[ET.Element] = field(default_factory=list)  # Tile Collision Editor objects
    where: str = ""  # "tile 3 of tileset 'walls'"
    size: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class _Collision:
    """What a tile's collision shapes give every cell painted with it."""

    role: str | None
    sides: tuple[str, ...]


@dataclass
class _Sheet:
    """A tileset's pictures: one image cut into tiles, and/or one image per tile (a collection)."""

    tile_size: tuple[int, int]
    spacing: int
    margin: int
    image: Path | None = None
    size: tuple[int, int] = (0, 0)
    colorkey: str | None = None
    collection: dict[
        int, tuple[Path, tuple[int, int], tuple[int, int, int, int] | None, str | None]
    ] = field(default_factory=dict)


def _image_size(image: ET.Element) -> tuple[int, int]:
    """An ``<image>``'s width and height as the guard filled them in ((0, 0) when unknown)."""
    try:
        return int(image.get("width", "0") or 0), int(image.get("height", "0") or 0)
    except ValueError:
        return (0, 0)


@dataclass(frozen=True)
class _Options:
    """What the caller (the command line) says about the map's conventions."""

    classes: Mapping[str, Sequence[str]]
    tiles: Mapping[str, Sequence[str]]
    properties: Mapping[str, str]
    preset: str | None
    collision: bool | None


class _Loader:
    def __init__(self, path: Path, options: _Options) -> None:
        self.path = path
        self.shown = str(path)
        self.findings: list[Finding] = []
        self.extra_deps: list[Path] = []
        self.options = options
        self.classes = options.classes
        self.conv = Conventions()
        self.role_of: dict[str, str] = {}
        self.snapped = 0
        self.collision_cells = 0
        self.collision_edges = 0
        self.role_cache: dict[int, str | None] = {}
        self.collision_cache: dict[int, _Collision | None] = {}
        self.hidden_layers: set[str] = set()
        self.hidden_objects: set[int] = set()
        self.unknown: dict[str, list[int]] = {}
        self.skewed: set[int] = set()  # objects rotated by other than a multiple of 90 degrees
        #: ``project = "…"`` of sightline.toml: the Tiled project with the map's enums
        self.project: Path | None = None

    def finding(
        self,
        code: str,
        severity: Severity,
        message: str,
        object_id: int | None = None,
        square: Square | None = None,
        hint: str | None = None,
    ) -> None:
        self.findings.append(Finding(code, severity, message, object_id, square, hint))

    def read_class_mapping(self) -> None:
        """Our role for every class name: ``sightline.toml``'s, overridden by ``classes=``.

        Our own role names always keep their role. Within one source a class may have only one
        role (:func:`role_conflict`); ``classes=`` (``--classes``) wins over the file.
        """
        toml = self.path.parent / CLASSES_FILE
        sources: list[Mapping[str, Sequence[str]]] = []
        config: dict[str, Any] = {}
        if toml.is_file():
            config = read_config(toml)
            file_classes = _read_classes_file(toml)
            self.extra_deps.append(toml.resolve())
        self.project = config.get("project")
        preset = config.get("preset")
        if self.options.preset:
            preset = get_preset(self.options.preset)
        if preset is not None:
            preset_classes: dict[str, list[str]] = {}
            self.conv.apply_preset(preset, preset_classes)
            sources.append(preset_classes)
        if toml.is_file():
            sources.append(file_classes)
            self.conv.add_tiles(config.get("tiles", {}))
            self.conv.properties.update(config.get("properties", {}))
            self.conv.collision = config.get("collision", True)
        for role in self.options.tiles:
            if role not in CELL_ROLES:
                raise MapError(
                    f"unknown cell role {role!r} in the tile mapping",
                    path=self.shown,
                    hint=f"use {', '.join(CELL_ROLES)}",
                )
        self.conv.add_tiles(self.options.tiles)
        self.conv.properties.update(self.options.properties)
        if self.options.collision is not None:
            self.conv.collision = self.options.collision
        for ours in self.classes:
            if ours not in ROLES:
                raise MapError(
                    f"unknown role {ours!r} in the class mapping",
                    path=self.shown,
                    hint=f"use {', '.join(ROLES)}",
                )
        conflict = role_conflict(self.classes)
        if conflict:
            raise MapError(
                _conflict_message(conflict, "the class mapping"),
                path=self.shown,
                hint="give each class one role",
            )
        sources.append(self.classes)
        for mapping in sources:
            for ours, theirs in mapping.items():
                for name in [theirs] if isinstance(theirs, str) else theirs:
                    self.role_of[name.strip().casefold()] = ours
        for role in ROLES:
            self.role_of[role] = role

    # -- the whole load
    def load(self) -> LoadedMap:
        prepared = prepare(self.path)
        self.read_class_mapping()
        self.findings.extend(prepared.findings)
        root = prepared.root
        # int-stored enums: their names from the Tiled project (game/tiled/project.py)
        project, notes = resolve_enums(root, self.path, self.shown, self.project)
        self.extra_deps.extend(project)
        self.findings.extend(notes)
        self.findings.extend(shadowing_properties(root))
        self.width = int(root.get("width", "0"))
        self.height = int(root.get("height", "0"))
        self.tw = int(root.get("tilewidth", "1"))
        self.th = int(root.get("tileheight", "1"))
        # pixels -> grid units, one shared Fraction per value (maps repeat their coordinates)
        self._grid_x = lru_cache(maxsize=1 << 16)(partial(Fraction, denominator=self.tw))
        self._grid_y = lru_cache(maxsize=1 << 16)(partial(Fraction, denominator=self.th))
        origin = (root.get(ORIGIN) or "0,0").split(",")
        self.origin = (int(origin[0]), int(origin[1]))
        self.tiles = self.read_tilesets(root)
        map_props = read_properties(root)
        objects, layer_count = self.read_objects(root)

        void, blocked, tile_walls, impassable, door_squares = self.tile_layer_geometry(prepared)
        walls: set[Edge] = set(tile_walls)
        drawn_walls: set[Edge] = set()  # every edge the wall objects draw, off-map ones too
        windows: set[Edge] = set()
        doors: dict[Edge, Door] = {}
        figures: list[Figure] = []
        for key, obj in list(objects.items()):
            if obj.role in ("wall", "window"):
                obj = objects[key] = self.edges_of(obj, obj.role)
                (drawn_walls if obj.role == "wall" else windows).update(obj.edges)
            elif obj.role == "door":
                door = self.door_of(obj)
                if door is not None:
                    doors[door.edge] = door
                    objects[key] = replace(obj, door_edge=door.edge)
            elif obj.role == "figure":
                figure = self.figure_of(obj)
                if figure is not None:
                    figures.append(figure)
                    objects[key] = replace(obj, square=figure.square)
            elif obj.role in ("blocked", "void", "impassable"):
                cells = self.cells_inside(obj)
                {"blocked": blocked, "void": void, "impassable": impassable}[obj.role].update(cells)
        walls.update(e for e in drawn_walls if edge_in_map(e, self.width, self.height))
        windows = {e for e in windows if edge_in_map(e, self.width, self.height)}
        self.report_hidden_objects(objects)
        preset = None if self.conv.preset else suggest_preset(list(self.unknown))
        for class_name, ids in sorted(self.unknown.items()):
            shown_ids = ", ".join(str(i) for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
            self.finding(
                "unknown-class",
                Severity.WARNING,
                f"class {class_name!r} is not a Sightline class ({plural(len(ids), 'object')}: {shown_ids}); ignored",
                ids[0],
                hint=f'map it in {CLASSES_FILE}, e.g. [classes] wall = ["{class_name}"], or with --classes, '
                "or use wall, window, door, figure, blocked, void"
                + (f", or try --preset {preset}" if preset else ""),
            )

        ruleset = str(map_props.pop("ruleset", DEFAULT_RULESET)).strip().lower() or DEFAULT_RULESET
        capacity = self.capacity(map_props.pop("capacity", 2))
        board = Board(
            self.width,
            self.height,
            void=void,
            blocked=blocked - void,
            impassable=impassable - void - blocked,
            door_squares={sq: st for sq, st in door_squares.items() if sq not in void | blocked},
            walls=walls,
            windows=windows - walls,
            doors=doors.values(),
            figures=figures,
            capacity=capacity,
            ruleset=ruleset,
            properties=map_props,
            name=self.path.stem,
        )
        art = self.art(prepared, root.get("backgroundcolor"))
        stats = {
            "width": self.width,
            "height": self.height,
            "walls": len(board.walls),
            "windows": len(board.windows),
            "doors": len(doors),
            "figures": len(figures),
            "snapped_vertices": self.snapped,
            "objects": len(objects),
            "layers": layer_count,
            "tile_layers": len(prepared.tile_layers),
            "object_layers": self.object_layers,
            "void": len(board.void),
            "blocked": len(board.blocked),
            "tilesets": len(root.findall("tileset")),
            "impassable": len(board.impassable),
            "door_squares": len(board.door_squares),
            "collision_cells": self.collision_cells,
            "collision_edges": self.collision_edges,
        }
        if self.origin != (0, 0):
            stats["origin_x"], stats["origin_y"] = self.origin
        deps = tuple(dict.fromkeys([*prepared.dependencies, *self.extra_deps]))
        return LoadedMap(self.path, board, self.findings, objects, art, stats, deps)

    def report_hidden_objects(self, objects: Mapping[int, ObjectInfo]) -> None:
        """Hidden objects with a role count like visible ones; say so, per hidden layer or object."""
        per_layer: dict[str, list[ObjectInfo]] = {}
        for obj in objects.values():
            if obj.hidden and obj.role not in ("other", "ignored"):
                per_layer.setdefault(obj.layer, []).append(obj)
        for layer, objs in sorted(per_layer.items()):
            if layer in self.hidden_layers:
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

    def capacity(self, value: Stat) -> int:
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
        return 2

    # -- tilesets
    def read_tilesets(self, root: ET.Element) -> dict[int, _Tile]:
        tiles: dict[int, _Tile] = {}
        self.ts_offsets: dict[int, tuple[int, int]] = {}
        self.sheets: dict[int, _Sheet] = {}
        self.ts_alignment: dict[int, str] = {}
        for ts in root.findall("tileset"):
            first = int(ts.get("firstgid", "1"))
            alignment = (ts.get("objectalignment") or "unspecified").strip().lower()
            if alignment not in ALIGNMENT and alignment != "unspecified":
                self.finding(
                    "tileset-alignment",
                    Severity.WARNING,
                    f"tileset {ts.get('name', '?')!r} has objectalignment={alignment!r}, which Tiled "
                    "does not define; tile objects are read bottom-left anchored",
                    hint="pick an Object Alignment in the tileset properties",
                )
            self.ts_alignment[first] = alignment if alignment in ALIGNMENT else "bottomleft"
            offset_elem = ts.find("tileoffset")
            offset = (0, 0)
            if offset_elem is not None:
                offset = (
                    int(float(offset_elem.get("x", "0"))),
                    int(float(offset_elem.get("y", "0"))),
                )
            sheet = _Sheet(
                (int(ts.get("tilewidth", "0") or 0), int(ts.get("tileheight", "0") or 0)),
                int(ts.get("spacing", "0") or 0),
                int(ts.get("margin", "0") or 0),
            )
            image = ts.find("image")
            if image is not None and image.get("source"):
                sheet.image, sheet.size = Path(image.get("source", "")), _image_size(image)
                sheet.colorkey = (image.get("trans") or "").strip().lstrip("#") or None
            for tile in ts.findall("tile"):
                local = int(tile.get("id", "0"))
                rect = None
                if tile.get("width") and tile.get("height"):
                    rect = (
                        int(float(tile.get("x", "0"))),
                        int(float(tile.get("y", "0"))),
                        int(float(tile.get("width", "0"))),
                        int(float(tile.get("height", "0"))),
                    )
                group = tile.find("objectgroup")
                tiles[first + local] = _Tile(
                    read_properties(tile),
                    (tile.get("class") or tile.get("type") or "").strip(),
                    rect,
                    offset,
                    group.findall("object") if group is not None else [],
                    f"tile {local} of tileset {ts.get('name', '?')!r}",
                    (max(1, sheet.tile_size[0]), max(1, sheet.tile_size[1])),
                )
                own = tile.find("image")
                if own is not None and own.get("source"):
                    key = (own.get("trans") or "").strip().lstrip("#") or None
                    sheet.collection[local] = (Path(own.get("source", "")), _image_size(own), rect, key)
            self.ts_offsets[first] = offset
            if sheet.image is not None or sheet.collection:
                self.sheets[first] = sheet
        self.tileset_firsts = sorted(self.ts_offsets)
        return tiles

    def alignment_of(self, gid: int) -> str:
        """The ``objectalignment`` of the tileset holding ``gid`` (orthogonal default bottomleft)."""
        firsts = [f for f in self.tileset_firsts if f <= gid]
        return self.ts_alignment.get(firsts[-1], "bottomleft") if firsts else "bottomleft"

    # -- objects
    def read_objects(self, root: ET.Element) -> tuple[dict[int, ObjectInfo], int]:
        objects: dict[int, ObjectInfo] = {}
        self.object_layers = 0
        layer_count = 0
        pending: list[tuple[ET.Element, str, str | None, Point]] = []

        def walk(parent: ET.Element, group_role: str | None, offset: Point, hidden: bool = False) -> None:
            nonlocal layer_count
            for elem in parent:
                if elem.tag not in ("layer", "objectgroup", "group", "imagelayer"):
                    continue
                layer_count += elem.tag != "group"
                role = self.layer_role(elem) or group_role
                # layer offsets move what Tiled shows, so they move the objects too (pixels)
                shifted = (
                    offset[0] + frac_attr(elem, "offsetx"),
                    offset[1] + frac_attr(elem, "offsety"),
                )
                gone = hidden or elem.get("visible", "1").strip() in ("0", "false")
                if elem.tag == "group":
                    walk(elem, role, shifted, gone)
                elif elem.tag == "objectgroup":
                    self.object_layers += 1
                    if gone:
                        self.hidden_layers.add(elem.get("name", ""))
                    for obj in elem.findall("object"):
                        pending.append((obj, elem.get("name", ""), role, shifted))
                        if gone or obj.get("visible", "1").strip() in ("0", "false"):
                            self.hidden_objects.add(id(obj))

        ox, oy = self.origin
        walk(root, None, (Fraction(-ox * self.tw), Fraction(-oy * self.th)))
        ids = [o.get("id", "").strip() for o, _, _, _ in pending]
        next_id = max((int(i) for i in ids if i.isdigit()), default=0) + 1
        for obj, layer_name, layer_role, offset in pending:
            raw_id = obj.get("id")
            if raw_id is None or not raw_id.strip().isdigit():
                object_id, next_id = next_id, next_id + 1
            else:
                object_id = int(raw_id)
            info = self.object_info(obj, object_id, layer_name, layer_role, offset)
            if id(obj) in self.hidden_objects:
                info = replace(info, hidden=True)
            if info.id in objects:
                self.finding(
                    "object-id-duplicate",
                    Severity.WARNING,
                    f"two objects have id {info.id}; this one is numbered {next_id} here",
                    info.id,
                    hint="save the map again from Tiled",
                )
                if info.id in self.skewed:
                    self.skewed.add(next_id)
                info = replace(info, id=next_id)
                next_id += 1
            objects[info.id] = info
        return objects, layer_count

    def layer_role(self, elem: ET.Element) -> str | None:
        """The role a layer gives objects without a known class: ``walls`` -> wall."""
        for label in (elem.get("class") or "", elem.get("name") or ""):
            if label.strip().casefold() in WALL_LAYERS:
                return "wall"
        return None

    def object_info(
        self, obj: ET.Element, object_id: int, layer: str, layer_role: str | None, offset: Point
    ) -> ObjectInfo:
        try:
            return self._object_info(obj, object_id, layer, layer_role, offset)
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            raise MapError(
                f"object {object_id} in layer {layer!r} has malformed geometry: {exc}",
                path=self.shown,
                object_id=object_id,
                hint="fix the attribute, or redraw the object in Tiled",
            ) from None

    def _object_info(
        self, obj: ET.Element, object_id: int, layer: str, layer_role: str | None, offset: Point
    ) -> ObjectInfo:
        gid = int(obj.get("gid", "0") or 0) & GID_MASK
        tile = self.tiles.get(gid) if gid else None
        if gid:
            shape = "tile"
        else:
            shape = "rectangle"
            for child in ("ellipse", "point", "polygon", "polyline", "text"):
                if obj.find(child) is not None:
                    shape = child
                    break
        x0, y0 = frac_attr(obj, "x"), frac_attr(obj, "y")
        if offset[0] or offset[1]:
            x0, y0 = x0 + offset[0], y0 + offset[1]
        w, h = frac_attr(obj, "width"), frac_attr(obj, "height")
        if shape in ("polygon", "polyline"):
            text = obj.find(shape).get("points", "")  # type: ignore[union-attr]
            local = []
            for pair in text.split():
                px, _, py = pair.partition(",")
                try:
                    local.append((parse_number(px), parse_number(py)))
                except ValueError:
                    raise ValueError(f"<{shape}> points: {pair[:20]!r} is not an x,y pair of numbers") from None
        elif shape == "point":
            local = [(Fraction(0), Fraction(0))]
        elif shape == "tile":  # the object's (x, y) is the tileset's alignment point of the tile
            ax, ay = ALIGNMENT.get(self.alignment_of(gid), ALIGNMENT["bottomleft"])
            left, top = -ax * w, -ay * h
            local = [(left, top), (left + w, top), (left + w, top + h), (left, top + h)]
        else:
            local = [(Fraction(0), Fraction(0)), (w, Fraction(0)), (w, h), (Fraction(0), h)]
        rotation = frac_attr(obj, "rotation")
        if rotation:
            cos, sin = _rotation(rotation)
            local = [(px * cos - py * sin, px * sin + py * cos) for px, py in local]
        if x0.denominator == 1 and y0.denominator == 1 and all(
            px.denominator == 1 and py.denominator == 1 for px, py in local
        ):  # the usual case: whole pixels, so integers until one shared Fraction per coordinate
            ix, iy = x0.numerator, y0.numerator
            pxs = [ix + px.numerator for px, _ in local]
            pys = [iy + py.numerator for _, py in local]
            gx, gy = self._grid_x, self._grid_y
            absolute = tuple((gx(px), gy(py)) for px, py in zip(pxs, pys, strict=True))
            if absolute:
                low_x, low_y = min(pxs), min(pys)
                bx, by = gx(low_x), gy(low_y)
                bw, bh = gx(max(pxs) - low_x), gy(max(pys) - low_y)
            else:
                bx, by, bw, bh = gx(ix), gy(iy), Fraction(0), Fraction(0)
        else:
            absolute = tuple(((x0 + px) / self.tw, (y0 + py) / self.th) for px, py in local)
            if absolute:
                xs = [p[0] for p in absolute]
                ys = [p[1] for p in absolute]
                bx, by, bw, bh = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
            else:
                bx, by, bw, bh = x0 / self.tw, y0 / self.th, Fraction(0), Fraction(0)
        points = () if shape in ("ellipse", "text") else absolute
        properties = (
            {k: v for k, v in tile.properties.items() if k not in TILE_ONLY} if tile else {}
        )
        properties.update(read_properties(obj))
        class_name = (
            obj.get("class") or obj.get("type") or (tile.class_name if tile else "")
        ).strip()
        role = self.role_of.get(class_name.casefold()) if class_name else None
        if role is None and class_name.casefold() in self.conv.ignore_classes:
            role = "ignored"  # the preset says this game's class means nothing for the board
        if role is None:
            role = layer_role
            if class_name and layer_role is None:
                self.unknown.setdefault(class_name, []).append(object_id)
        if (
            role == "blocked"
            and class_name.casefold() in self.conv.ledge_classes
            and any(p in properties for p in self.conv.ledge_properties)
        ):
            role = "impassable"  # a one-way ledge: figures cannot cross it, sight can
        name = obj.get("name") or ""
        if not name and isinstance(properties.get("name"), str):
            name = str(properties["name"])
        if rotation and rotation % 90 != 0:
            self.skewed.add(object_id)
        return ObjectInfo(
            object_id,
            name,
            role or "other",
            class_name,
            layer,
            shape,
            bx,
            by,
            bw,
            bh,
            points,
            properties,
        )

    # -- tile layers: void, blocked, tile walls
    def tile_layer_geometry(
        self, prepared: PreparedMap
    ) -> tuple[set[Square], set[Square], set[Edge], set[Square], dict[Square, DoorState]]:
        """Void, blocked, walls, impassable and door squares from the tile layers.

        Hidden layers count like visible ones (docs/maps.md "Hidden layers and objects"); a
        layer's offset moves its cells by whole squares.
        """
        void: set[Square] = set()
        blocked: set[Square] = set()
        walls: set[Edge] = set()
        impassable: set[Square] = set()
        doors: dict[Square, DoorState] = {}
        layers = [(layer, self.shifted(layer)) for layer in prepared.tile_layers]
        if any(bool((g & GID_MASK).any()) for _, g in layers):
            empty = np.ones((self.height, self.width), dtype=bool)
            for _, gids in layers:
                empty &= (gids & GID_MASK) == 0
            ys, xs = np.nonzero(empty)
            void.update(zip(xs.tolist(), ys.tolist(), strict=True))
            self.report_hidden_layers(layers)
        unread: dict[tuple[str, str], int] = {}
        for _, gids in layers:
            for raw in np.unique(gids).tolist():
                gid = raw & GID_MASK
                tile = self.tiles.get(gid) if gid else None
                if tile is None:
                    continue
                role = self.cell_role(gid, tile)
                shapes = self.collision_of(gid, tile)
                if not (role or shapes or "walls" in tile.properties):
                    self.note_unread(tile, gids, raw, unread)
                    continue
                ys, xs = np.nonzero(gids == raw)
                cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
                sides: list[str] = []
                if "walls" in tile.properties:
                    sides += self.tile_wall_sides(tile.properties["walls"], gid, raw & GID_FLAGS)
                if shapes is not None:
                    role = role or shapes.role
                    sides += self.turn_sides(shapes.sides, raw & GID_FLAGS)
                    self.collision_cells += len(cells) if shapes.role else 0
                    self.collision_edges += len(cells) * len(shapes.sides)
                if role == "void":
                    void.update(cells)
                elif role == "blocked":
                    blocked.update(cells)
                elif role == "impassable":
                    impassable.update(cells)
                elif role == "door":
                    state = self.state_of(tile.properties, None, f"door tile {gid}")
                    doors.update(dict.fromkeys(cells, state))
                for x, y in cells:
                    for side in sides:
                        walls.add(side_edge(x, y, side))
        self.report_unread(unread)
        return void, blocked, walls, impassable, doors

    def shifted(self, layer: TileLayerData) -> np.ndarray:
        """A tile layer's gids moved by its offset in whole squares (a finding if not whole)."""
        ox, oy = layer.offset
        dx, dy = round(ox / self.tw), round(oy / self.th)
        if (dx * self.tw, dy * self.th) != (ox, oy):
            self.finding(
                "layer-offset",
                Severity.WARNING,
                f"tile layer {layer.name!r} is offset by {ox:g},{oy:g} px, not a whole number of "
                f"squares; its cells are read {dx},{dy} squares over",
                hint="set the layer offset to a multiple of the tile size (or 0)",
            )
        if not (dx or dy):
            return layer.gids
        out = np.zeros_like(layer.gids)
        h, w = layer.gids.shape
        sx0, sx1 = max(0, -dx), min(w, w - dx)
        sy0, sy1 = max(0, -dy), min(h, h - dy)
        if sx1 > sx0 and sy1 > sy0:
            out[sy0 + dy : sy1 + dy, sx0 + dx : sx1 + dx] = layer.gids[sy0:sy1, sx0:sx1]
        return out

    def cell_role(self, gid: int, tile: _Tile) -> str | None:
        """The cell role of a tile: bool ``void``/``blocked``, else the first mapped role."""
        cached = self.role_cache.get(gid, "")
        if cached != "":
            return cached
        role: str | None = None
        if is_true(tile.properties.get("void")):
            role = "void"
        elif is_true(tile.properties.get("blocked")):
            role = "blocked"
        else:
            found = self.conv.tile_role(tile.class_name, tile.properties)
            role = found[0] if found else None
        self.role_cache[gid] = role
        return role

    def note_unread(
        self, tile: _Tile, gids: np.ndarray, raw: int, unread: dict[tuple[str, str], int]
    ) -> None:
        """Count the squares painted with a tile whose class or properties nothing reads."""
        cls = tile.class_name
        names = [("class", cls)] if cls and (cls.casefold() in ROLE_WORDS or suggest_preset([cls])) else []
        for k, v in tile.properties.items():
            if k in TILE_READ:
                continue
            if str(v).strip().casefold() in ROLE_WORDS and not isinstance(v, bool):
                names.append(("property", f"{k}={str(v).strip()}"))
            elif k.casefold() in ROLE_WORDS:
                names.append(("property", k))
        if not names:
            return
        count = int((gids == raw).sum())
        for key in names:
            unread[key] = unread.get(key, 0) + count

    def report_unread(self, unread: dict[tuple[str, str], int]) -> None:
        """One warning per tile class or property painted on the board that Sightline does not read."""
        if not unread:
            return
        preset = None if self.conv.preset else suggest_preset([n.partition("=")[0] for _, n in unread])
        also = f", or try --preset {preset}" if preset else ""
        for (kind, name), count in sorted(unread.items()):
            what = f"tile class {name!r}" if kind == "class" else f"tile property {name!r}"
            spec = name if kind == "class" or "=" in name else f"{name}=VALUE"
            self.finding(
                "tile-unread",
                Severity.WARNING,
                f"{what} is painted on {plural(count, 'square')} but has no Sightline role; ignored",
                hint=f'map it in {CLASSES_FILE}, e.g. [tiles] blocked = ["{spec}"], or with '
                f"--tiles blocked={spec}{also}",
            )

    def report_hidden_layers(self, layers: list[tuple[TileLayerData, np.ndarray]]) -> None:
        """A warning for each hidden tile layer that puts squares on the board."""
        shown = np.zeros((self.height, self.width), dtype=bool)
        for layer, gids in layers:
            if layer.visible:
                shown |= (gids & GID_MASK) != 0
        for layer, gids in layers:
            if layer.visible:
                continue
            only = int((((gids & GID_MASK) != 0) & ~shown).sum())
            if only:
                self.finding(
                    "hidden-layer",
                    Severity.WARNING,
                    f"tile layer {layer.name!r} is hidden but counts: without it "
                    f"{plural(only, 'square')} would be void",
                    hint="Sightline reads hidden layers like visible ones; show the layer, or delete "
                    "it if it is not part of the board",
                )

    def turn_sides(self, sides: Sequence[str], flags: int) -> list[str]:
        """Tile sides N/E/S/W as a flipped tile shows them (diagonal flip first, then H, then V)."""
        out = list(sides)
        if flags & 0x20000000:
            out = [{"N": "W", "W": "N", "E": "S", "S": "E"}[s] for s in out]
        if flags & 0x80000000:
            out = [{"E": "W", "W": "E"}.get(s, s) for s in out]
        if flags & 0x40000000:
            out = [{"N": "S", "S": "N"}.get(s, s) for s in out]
        return out

    def collision_of(self, gid: int, tile: _Tile) -> _Collision | None:
        """The role and wall sides a tile's collision shapes give its cells (None: no shapes, or
        ``collision = "ignore"``). A partial or diagonal shape is a finding naming the tile."""
        if not tile.shapes or not self.conv.collision:
            return None
        if gid in self.collision_cache:
            return self.collision_cache[gid]
        role: str | None = None
        sides: list[str] = []
        for shape in tile.shapes:
            got = self.collision_shape(shape, tile)
            if got is None:
                continue
            shape_role, shape_sides = got
            role = role or shape_role
            sides += [s for s in shape_sides if s not in sides]
        result = _Collision(role, tuple(sides)) if (role or sides) else None
        self.collision_cache[gid] = result
        return result

    def collision_shape(self, shape: ET.Element, tile: _Tile) -> tuple[str | None, list[str]] | None:
        """One collision shape: ``(cell role, wall sides)``, or None (with a finding) if unusable."""
        tw, th = tile.size
        sid = shape.get("id", "?")
        cls = (shape.get("class") or shape.get("type") or "").strip()
        mapped = self.conv.tile_role(cls, read_properties(shape)) if cls else None
        cell_role = mapped[0] if mapped else None
        object_role = self.role_of.get(cls.casefold()) if cls else None
        if object_role in ("blocked", "void", "door") and cell_role is None:
            cell_role = object_role
        x, y = frac_attr(shape, "x") / tw, frac_attr(shape, "y") / th
        w, h = frac_attr(shape, "width") / tw, frac_attr(shape, "height") / th
        kind = next((k for k in ("ellipse", "point", "polygon", "polyline", "text")
                     if shape.find(k) is not None), "rectangle")
        problem = None
        if frac_attr(shape, "rotation") % 360 != 0:
            problem = "is rotated"
        elif kind in ("point", "text"):
            problem = f"is {a_or_an(kind)}"
        points: list[Point] = []
        if kind in ("polygon", "polyline") and problem is None:
            for pair in (shape.find(kind).get("points", "") or "").split():  # type: ignore[union-attr]
                px, _, py = pair.partition(",")
                points.append((x + parse_number(px) / tw, y + parse_number(py) / th))
        elif kind in ("rectangle", "ellipse"):
            points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        area = Fraction(0)
        if kind == "ellipse":
            area = w * h * Fraction(355, 452)  # pi/4, close enough to decide "most of the tile"
        elif len(points) > 2 and kind != "polyline":
            ring = zip(points, points[1:] + points[:1], strict=True)
            area = abs(sum((a[0] * b[1] - b[0] * a[1] for a, b in ring), Fraction(0))) / 2
        if problem is None and area >= Fraction(3, 4):
            return cell_role or "blocked", []  # most of the tile: the cell takes the role
        if problem is None:
            sides = _border_sides(kind, points, x, y, w, h)
            if sides:  # along the tile's edges: walls
                return None, sides
            problem = (
                "is diagonal" if kind in ("polyline", "polygon") and not _axis_aligned(points)
                else f"covers part of the tile ({float(area) * 100:.0f} %)"
            )
        self.finding(
            "collision-shape",
            Severity.WARNING,
            f"collision shape {sid} of {tile.where} {problem}; ignored",
            hint="draw it over the whole tile (blocked), or as a thin shape along one tile edge (a wall)",
        )
        return None

    def tile_wall_sides(self, value: Stat, gid: int, flags: int) -> list[str]:
        letters = [
            p.strip().upper()
            for p in str(value).replace(";", ",").replace(" ", ",").split(",")
            if p.strip()
        ]
        bad = [p for p in letters if p not in ("N", "E", "S", "W")]
        if bad:
            self.finding(
                "tile-walls-invalid",
                Severity.WARNING,
                f"tile {gid} has walls={value!r}: {', '.join(bad)} is not one of N, E, S, W; ignored",
                hint="write the sides as a list such as N,E",
            )
        sides = [p for p in letters if p in ("N", "E", "S", "W")]
        return self.turn_sides(sides, flags)  # as Tiled draws the flipped tile

    # -- walls and windows
    def edges_of(self, obj: ObjectInfo, kind: str) -> ObjectInfo:
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
            return obj
        trace = trace_wall(
            wall_paths(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.id in self.skewed)
        )
        self.snapped += trace.snapped
        for code, detail in trace.problems:
            self.finding(
                code,
                Severity.ERROR,
                f"{kind} {detail}; that part is ignored",
                obj.id,
                hint="draw walls along grid lines with View > Snapping > Snap to Grid on",
            )
        width, height = self.width, self.height
        outside = sum(1 for e in trace.edges if not edge_in_map(e, width, height))
        inside = len(trace.edges) - outside  # with repeats: only "none at all" matters below
        if outside and not inside:
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{kind} lies outside the map; ignored",
                obj.id,
                hint="move it onto the map or delete it",
            )
        elif outside:
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{kind} runs {plural(outside, 'square')} past the map's edge; that part is ignored",
                obj.id,
                hint="trim it to the map",
            )
        return _evolve(obj, segments=trace.segments, ends=trace.ends, edges=trace.edges)

    # -- doors
    def door_of(self, obj: ObjectInfo) -> Door | None:
        """The door an object puts on the board (its edge is recorded by the caller), or None."""
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
        return Door(edge, self.door_state(obj), obj.id, obj.name)

    def door_state(self, obj: ObjectInfo) -> DoorState:
        return self.state_of(obj.properties, obj.id, "door")

    def state_of(self, props: Mapping[str, Stat], object_id: int | None, what: str) -> DoorState:
        """A door's state from ``state`` (closed/open/locked), bool ``locked`` or ``open``."""
        if "state" in props and isinstance(props["state"], int) and not isinstance(props["state"], bool):
            self.finding(
                "door-state-number",
                Severity.WARNING,
                f"{what} state is the number {props['state']} (an int-valued enum, whose names the map "
                "does not hold); using closed",
                object_id,
                hint="keep the map's Tiled project (.tiled-project, which holds the enum's names) in the "
                "map's folder or a folder above it, or make the enum store strings (Custom Types Editor), "
                "or set the string property state to closed, open or locked",
            )
            return DoorState.CLOSED
        if "state" in props:
            text = str(props["state"]).strip().lower()
            if isinstance(props["state"], str) and text in {s.value for s in DoorState}:
                return DoorState(text)
            self.finding(
                "door-state-unknown",
                Severity.WARNING,
                f"{what} state {props['state']!r} is not closed, open or locked; using closed",
                object_id,
                hint="set the string property state to closed, open or locked",
            )
            return DoorState.CLOSED
        if "locked" in props and is_true(props["locked"]):
            return DoorState.LOCKED
        if "open" in props:
            return DoorState.OPEN if is_true(props["open"]) else DoorState.CLOSED
        return DoorState.CLOSED

    # -- figures
    def in_bounds(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def figure_of(self, obj: ObjectInfo) -> Figure | None:
        cx, cy = obj.centre
        square = square_at((cx, cy))
        if not self.in_bounds(square):
            self.finding(
                "figure-outside-board",
                Severity.ERROR,
                f"figure {obj.name or '#' + str(obj.id)} stands at {fmt_point((cx, cy))}, outside the {self.width}x{self.height} map; not placed",
                obj.id,
                square,
                hint="move the figure onto the map",
            )
            return None
        props = dict(obj.properties)
        name = obj.name
        for ours, theirs in self.conv.properties.items():
            if theirs in props and ours not in props:
                props[ours] = props.pop(theirs)
        if "name" in self.conv.properties and isinstance(props.get("name"), str):
            name = str(props["name"]) or name
        stats = {k: v for k, v in props.items() if k not in ("side", "name")}
        side = str(props.get("side", "")).strip() or DEFAULT_SIDE
        return Figure(obj.id, name, side, square, stats)

    # -- blocked / void areas
    def cells_inside(self, obj: ObjectInfo) -> set[Square]:
        if obj.shape in ("point", "polyline", "text"):
            self.finding(
                "area-shape",
                Severity.WARNING,
                f"a {obj.role} area must be a rectangle, ellipse or polygon, not {a_or_an(obj.shape)}; "
                "ignored",
                obj.id,
                hint="draw a rectangle or polygon over the squares",
            )
            return set()
        cells: set[Square] = set()
        x0 = max(0, math.floor(obj.x))
        y0 = max(0, math.floor(obj.y))
        x1 = min(self.width, math.ceil(obj.x + obj.width) + 1)
        y1 = min(self.height, math.ceil(obj.y + obj.height) + 1)
        polygon = list(obj.points) if obj.shape == "polygon" or obj.id in self.skewed else None
        half = Fraction(1, 2)
        for y in range(y0, y1):
            cy = y + half
            for x in range(x0, x1):
                cx = x + half
                if polygon is not None:
                    inside = len(polygon) > 2 and _point_in_polygon(cx, cy, polygon)
                elif obj.shape == "ellipse":
                    rx, ry = obj.width / 2, obj.height / 2
                    inside = (
                        bool(rx and ry)
                        and ((cx - obj.x - rx) / rx) ** 2 + ((cy - obj.y - ry) / ry) ** 2 <= 1
                    )
                else:
                    inside = obj.x <= cx < obj.x + obj.width and obj.y <= cy < obj.y + obj.height
                if inside:
                    cells.add((x, y))
        if not cells and not (0 <= obj.x < self.width and 0 <= obj.y < self.height):
            self.finding(
                "object-outside-map",
                Severity.WARNING,
                f"{obj.role} area lies outside the map; ignored",
                obj.id,
            )
        return cells

    # -- art: where every tile's pixels are (plain data; the window loads them with pytmx)
    def tile_image(self, gid: int) -> TileImage | None:
        """The image file, source rectangle and offset of one tile, or None when it has none.

        A tileset image is cut as Tiled and pytmx cut it: tiles of ``tilewidth`` x ``tileheight``
        from ``margin``, ``spacing`` apart, row by row; an image-collection tile is its own image
        (or the sub-rectangle ``x, y, width, height`` Tiled 1.9+ stores). Rectangles are clipped to
        the image.
        """
        firsts = [f for f in self.tileset_firsts if f <= gid]
        if not firsts:
            return None
        sheet = self.sheets.get(firsts[-1])
        if sheet is None:
            return None
        offset = self.ts_offsets[firsts[-1]]
        local = gid - firsts[-1]
        own = sheet.collection.get(local)
        if own is not None:
            path, size, rect, colorkey = own
        elif sheet.image is not None:
            path, size, colorkey = sheet.image, sheet.size, sheet.colorkey
            tw, th, sp, mg = sheet.tile_size[0], sheet.tile_size[1], sheet.spacing, sheet.margin
            columns = len(range(mg, size[0] + 1 - tw, tw + sp))
            rows = len(range(mg, size[1] + 1 - th, th + sp))
            if not 0 <= local < columns * rows:
                return None
            rect = (mg + (local % columns) * (tw + sp), mg + (local // columns) * (th + sp), tw, th)
        else:
            return None
        if rect is not None and size != (0, 0):
            x0, y0 = max(0, rect[0]), max(0, rect[1])
            x1, y1 = min(size[0], rect[0] + rect[2]), min(size[1], rect[1] + rect[3])
            if x1 <= x0 or y1 <= y0:
                return None
            rect = (x0, y0, x1 - x0, y1 - y0)
        return TileImage(path, rect, offset, colorkey)

    def art(self, prepared: PreparedMap, background: str | None) -> MapArt | None:
        layers = tuple(
            ArtLayer(layer.name, layer.opacity, layer.offset, layer.gids)
            for layer in prepared.tile_layers
            if layer.visible
        )
        if prepared.unreadable_images or not layers or not self.sheets:
            return None
        used: set[int] = set()
        for layer in layers:
            used.update((np.unique(layer.gids) & GID_MASK).tolist())
        used.discard(0)
        tiles: dict[int, TileImage] = {}
        for gid in sorted(used):
            image = self.tile_image(gid)
            if image is not None:
                tiles[gid] = image
        if not tiles:
            return None
        return MapArt(self.tw, self.th, layers, tiles, background)



def _axis_aligned(points: Sequence[Point]) -> bool:
    return all(a[0] == b[0] or a[1] == b[1] for a, b in zip(points, points[1:], strict=False))


def _border_sides(
    kind: str, points: Sequence[Point], x: Fraction, y: Fraction, w: Fraction, h: Fraction
) -> list[str]:
    """The tile edges (N/E/S/W) a thin shape or a line along the tile's border draws, or []."""
    quarter, most = Fraction(1, 4), Fraction(3, 4)
    if kind in ("rectangle", "ellipse"):
        if w >= most and h <= quarter:
            cy = y + h / 2
            return ["N"] if cy <= quarter else ["S"] if cy >= most else []
        if h >= most and w <= quarter:
            cx = x + w / 2
            return ["W"] if cx <= quarter else ["E"] if cx >= most else []
        return []
    if kind not in ("polyline", "polygon") or len(points) < 2:
        return []
    pairs = list(zip(points, points[1:], strict=False))
    if kind == "polygon":
        pairs.append((points[-1], points[0]))
    sides: list[str] = []
    for a, b in pairs:
        ca, cb = snap(a)[0], snap(b)[0]
        if ca is None or cb is None or ca == cb:
            return []
        if not all(0 <= c <= 1 for c in (*ca, *cb)):
            return []
        if ca[1] == cb[1] and ca[1] in (0, 1):
            side = "N" if ca[1] == 0 else "S"
        elif ca[0] == cb[0] and ca[0] in (0, 1):
            side = "W" if ca[0] == 0 else "E"
        else:
            return []
        if side not in sides:
            sides.append(side)
    return sides


# --- custom properties that shadow Tiled's own attributes -----------------------------------

#: the attributes Tiled writes on each element; a custom property of the same name is legal in
#: Tiled, read by Sightline, and refused by pytmx-based tools (pytmx stores both on one object)
def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


TILED_ATTRIBUTES: dict[str, frozenset[str]] = {
    "map": _names(
        "version tiledversion class orientation renderorder width height tilewidth tileheight "
        "hexsidelength staggeraxis staggerindex parallaxoriginx parallaxoriginy backgroundcolor "
        "nextlayerid nextobjectid infinite compressionlevel properties"
    ),
    "layer": _names(
        "id name class x y width height opacity visible tintcolor offsetx offsety parallaxx "
        "parallaxy locked data properties"
    ),
    "objectgroup": _names(
        "id name class x y width height opacity visible tintcolor offsetx offsety parallaxx "
        "parallaxy locked color draworder properties"
    ),
    "group": _names(
        "id name class opacity visible tintcolor offsetx offsety parallaxx parallaxy locked "
        "properties"
    ),
    "object": _names(
        "id name type class x y width height rotation gid visible template properties"
    ),
    "tileset": _names(
        "firstgid source name class tilewidth tileheight spacing margin tilecount columns "
        "objectalignment tilerendersize fillmode properties"
    ),
}


def shadowing_properties(root: ET.Element) -> list[Finding]:
    """A warning for each custom property named like an attribute of its element (``type`` on an
    object, ``name`` on a layer ...): Sightline reads it, but pytmx-based tools refuse the map."""
    out: list[Finding] = []
    for elem in root.iter():
        names = TILED_ATTRIBUTES.get(elem.tag)
        if names is None:
            continue
        raw = elem.get("id", "") if elem.tag == "object" else ""
        object_id = int(raw) if raw.strip().isdigit() else None
        for props in elem.findall("properties"):
            for prop in props.findall("property"):
                name = prop.get("name", "")
                if name in names or name in elem.attrib:
                    what = f"{elem.tag} {elem.get('name', '')!r}".replace(" ''", "")
                    out.append(
                        Finding(
                            "reserved-property",
                            Severity.WARNING,
                            f"custom property {name!r} on {what} is also a Tiled attribute name; "
                            "Sightline reads it, pytmx-based tools will refuse the map",
                            object_id,
                            hint=f"rename the property {name!r}",
                        )
                    )
    return out
