"""Load a Tiled ``.tmx`` map into a :class:`~game.core.board.Board` (the only module that uses pytmx).

The map conventions are DESIGN.md §3 and ``docs/maps.md``: orthogonal maps only; a cell empty in
every visible tile layer is void; tile properties ``void``, ``blocked`` and ``walls``; objects of
class ``wall``, ``window``, ``door``, ``figure``, ``blocked`` and ``void`` (or any class mapped
onto them by ``sightline.toml`` / ``--classes``); every object of a layer named or classed
``walls`` is a wall. Files are first checked and flattened by :mod:`game.tiled.guard` (size and
decompression limits, no XML entities, external tilesets and templates inlined), then parsed by
pytmx, which supplies the tileset image geometry for the renderer. No pytmx object leaves here.

>>> parse_class_mapping("wall=collision-line, blocked=collision")
{'wall': ['collision-line'], 'blocked': ['collision']}
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

from game.core.board import Board, Door, DoorState, Edge, Figure, Square, Stat, fmt_square
from game.core.errors import MapError, SightlineError, UsageError
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural
from game.tiled.guard import (
    GID_FLAGS,
    GID_MASK,
    MANGLE,
    PreparedMap,
    explain_unreadable,
    frac_attr,
    parse_number,
    parse_xml_file,
    prepare,
    read_properties,
)

#: the roles an object can play; anything else is "other"
ROLES = ("wall", "window", "door", "figure", "blocked", "void")
SNAP = Fraction(1, 8)  # vertices this close to a grid corner are snapped onto it
DOOR_REACH = Fraction(1, 4)  # a door shape's centre must be this close to an edge midpoint
DOOR_MAX_LENGTH = Fraction(3, 2)  # a door shape longer than this (in cells) is refused
DEFAULT_RULESET = "arcadia"
DEFAULT_SIDE = "neutral"
CLASSES_FILE = "sightline.toml"
WALL_LAYERS = ("walls",)  # object layers named or classed so: every object is a wall
TILE_ONLY = ("void", "blocked", "walls")  # tile properties a tile object does not inherit


# --- the data handed to the rest of the program ------------------------------------------------


@dataclass(frozen=True)
class TileImage:
    """Where one tile's pixels are: an image file, a sub-rectangle (None = whole image), an offset."""

    image: Path
    rect: tuple[int, int, int, int] | None
    offset: tuple[int, int] = (0, 0)


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

    @property
    def centre(self) -> tuple[Fraction, Fraction]:
        """The centre used for figures and door shapes (the point itself for a point object)."""
        if self.shape == "point" and self.points:
            return self.points[0]
        return self.x + self.width / 2, self.y + self.height / 2


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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"cannot read {path.name}: {exc}", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"not valid TOML ({exc})", path=str(path)) from None
    table = data.get("classes", {})
    if not isinstance(table, dict):
        raise MapError(
            "[classes] must be a table", path=str(path), hint='e.g. wall = ["collision-line"]'
        )
    out: dict[str, list[str]] = {}
    for ours, theirs in table.items():
        if ours not in ROLES:
            raise MapError(
                f"unknown role {ours!r} in [classes]",
                path=str(path),
                hint=f"use {', '.join(ROLES)}",
            )
        names = [theirs] if isinstance(theirs, str) else theirs
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise MapError(
                f"[classes] {ours} must be a class name or a list of them", path=str(path)
            )
        out[ours] = [n for n in names if n.strip()]
    conflict = role_conflict(out)
    if conflict:
        raise MapError(
            _conflict_message(conflict, "[classes]"), path=str(path), hint="give each class one role"
        )
    return out


# --- entry point ----------------------------------------------------------------------------


def load_map(path: str | Path, *, classes: Mapping[str, Sequence[str]] | None = None) -> LoadedMap:
    """Load a ``.tmx`` map; raises :class:`MapError` (one line: file, object, fix) for anything unusable.

    ``classes`` maps our roles onto the map's own class names (added to ``sightline.toml``'s).
    """
    path = Path(path)
    try:
        return _Loader(path, classes).load()
    except MapError:
        raise
    except SightlineError as exc:
        raise MapError(str(exc), path=str(path)) from None
    except RecursionError:
        raise MapError("the map is nested too deeply to read", path=str(path)) from None
    except MemoryError:
        raise MapError("the map is too large to read", path=str(path)) from None
    except Exception:  # noqa: BLE001 - a bad map must never become a traceback
        try:
            why = explain_unreadable(parse_xml_file(path, "map"))
        except MapError:
            why = "an element or attribute is not as Tiled writes it"
        raise MapError(
            f"cannot read this map: {why}", path=str(path),
            hint="fix it, or open the map in Tiled and save it again",
        ) from None


# --- geometry helpers -----------------------------------------------------------------------

Point = tuple[Fraction, Fraction]


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


def _snap(point: Point) -> tuple[tuple[int, int] | None, bool]:
    """The grid corner within 1/8 cell of a point (and whether it moved), or None."""
    x, y = point
    if x.denominator == 1 and y.denominator == 1:
        return (x.numerator, y.numerator), False
    rx, ry = round(x), round(y)
    if abs(x - rx) <= SNAP and abs(y - ry) <= SNAP:
        return (rx, ry), (x != rx or y != ry)
    return None, False


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


def _fmt(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):g}"


def _fmt_point(p: Point) -> str:
    return f"({_fmt(p[0])},{_fmt(p[1])})"


def _true(value: Stat | None) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    return isinstance(value, str) and value.strip().lower() in ("true", "1", "yes")


# --- the loader -----------------------------------------------------------------------------


@dataclass
class _Tile:
    properties: dict[str, Stat]
    class_name: str
    rect: tuple[int, int, int, int] | None
    offset: tuple[int, int]


class _Loader:
    def __init__(self, path: Path, classes: Mapping[str, Sequence[str]] | None) -> None:
        self.path = path
        self.shown = str(path)
        self.findings: list[Finding] = []
        self.extra_deps: list[Path] = []
        self.classes = classes or {}
        self.role_of: dict[str, str] = {}
        self.snapped = 0
        self.unknown: dict[str, list[int]] = {}
        self.skewed: set[int] = set()  # objects rotated by other than a multiple of 90 degrees

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
        if toml.is_file():
            sources.append(_read_classes_file(toml))
            self.extra_deps.append(toml.resolve())
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
        self.width = int(root.get("width", "0"))
        self.height = int(root.get("height", "0"))
        self.tw = int(root.get("tilewidth", "1"))
        self.th = int(root.get("tileheight", "1"))
        self.tiles = self.read_tilesets(root)
        map_props = read_properties(root)
        objects, layer_count = self.read_objects(root)
        tile_images = self.pytmx_images(root)

        void, blocked, tile_walls = self.tile_layer_geometry(prepared)
        walls: set[Edge] = set(tile_walls)
        windows: set[Edge] = set()
        doors: dict[Edge, Door] = {}
        figures: list[Figure] = []
        for obj in objects.values():
            if obj.role == "wall":
                walls.update(self.edges_of(obj, "wall"))
            elif obj.role == "window":
                windows.update(self.edges_of(obj, "window"))
            elif obj.role == "door":
                door = self.door_of(obj)
                if door is not None:
                    doors[door.edge] = door
            elif obj.role == "figure":
                figure = self.figure_of(obj)
                if figure is not None:
                    figures.append(figure)
            elif obj.role in ("blocked", "void"):
                cells = self.cells_inside(obj)
                (blocked if obj.role == "blocked" else void).update(cells)
        for class_name, ids in sorted(self.unknown.items()):
            shown_ids = ", ".join(str(i) for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
            self.finding(
                "unknown-class",
                Severity.WARNING,
                f"class {class_name!r} is not a Sightline class ({plural(len(ids), 'object')}: {shown_ids}); ignored",
                ids[0],
                hint=f'map it in {CLASSES_FILE}, e.g. [classes] wall = ["{class_name}"], or with --classes, '
                "or use wall, window, door, figure, blocked, void",
            )

        ruleset = str(map_props.pop("ruleset", DEFAULT_RULESET)).strip().lower() or DEFAULT_RULESET
        capacity = self.capacity(map_props.pop("capacity", 2))
        board = Board(
            self.width,
            self.height,
            void=void,
            blocked=blocked - void,
            walls=walls,
            windows=windows - walls,
            doors=doors.values(),
            figures=figures,
            capacity=capacity,
            ruleset=ruleset,
            properties=map_props,
            name=self.path.stem,
        )
        art = self.art(prepared, tile_images, root.get("backgroundcolor"))
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
        }
        deps = tuple(dict.fromkeys([*prepared.dependencies, *self.extra_deps]))
        return LoadedMap(self.path, board, self.findings, objects, art, stats, deps)

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
        for ts in root.findall("tileset"):
            first = int(ts.get("firstgid", "1"))
            offset_elem = ts.find("tileoffset")
            offset = (0, 0)
            if offset_elem is not None:
                offset = (
                    int(float(offset_elem.get("x", "0"))),
                    int(float(offset_elem.get("y", "0"))),
                )
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
                tiles[first + local] = _Tile(
                    read_properties(tile),
                    (tile.get("class") or tile.get("type") or "").strip(),
                    rect,
                    offset,
                )
            self.ts_offsets[first] = offset
        self.tileset_firsts = sorted(self.ts_offsets)
        return tiles

    def tile_offset(self, gid: int) -> tuple[int, int]:
        firsts = [f for f in self.tileset_firsts if f <= gid]
        if not firsts:
            return (0, 0)
        return self.ts_offsets[firsts[-1]]

    # -- objects
    def read_objects(self, root: ET.Element) -> tuple[dict[int, ObjectInfo], int]:
        objects: dict[int, ObjectInfo] = {}
        self.object_layers = 0
        layer_count = 0
        pending: list[tuple[ET.Element, str, str | None, Point]] = []

        def walk(parent: ET.Element, group_role: str | None, offset: Point) -> None:
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
                if elem.tag == "group":
                    walk(elem, role, shifted)
                elif elem.tag == "objectgroup":
                    self.object_layers += 1
                    for obj in elem.findall("object"):
                        pending.append((obj, elem.get("name", ""), role, shifted))

        walk(root, None, (Fraction(0), Fraction(0)))
        ids = [o.get("id", "").strip() for o, _, _, _ in pending]
        next_id = max((int(i) for i in ids if i.isdigit()), default=0) + 1
        for obj, layer_name, layer_role, offset in pending:
            raw_id = obj.get("id")
            if raw_id is None or not raw_id.strip().isdigit():
                object_id, next_id = next_id, next_id + 1
            else:
                object_id = int(raw_id)
            info = self.object_info(obj, object_id, layer_name, layer_role, offset)
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
        x0, y0 = frac_attr(obj, "x") + offset[0], frac_attr(obj, "y") + offset[1]
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
        elif shape == "tile":
            local = [(Fraction(0), -h), (w, -h), (w, Fraction(0)), (Fraction(0), Fraction(0))]
        else:
            local = [(Fraction(0), Fraction(0)), (w, Fraction(0)), (w, h), (Fraction(0), h)]
        rotation = frac_attr(obj, "rotation")
        if rotation:
            cos, sin = _rotation(rotation)
            local = [(px * cos - py * sin, px * sin + py * cos) for px, py in local]
        if all(v.denominator == 1 for v in (x0, y0, *(c for p in local for c in p))):
            ix, iy = x0.numerator, y0.numerator  # the usual case: whole pixels, cheap Fractions
            absolute = tuple(
                (Fraction(ix + px.numerator, self.tw), Fraction(iy + py.numerator, self.th))
                for px, py in local
            )
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
        if role is None:
            role = layer_role
            if class_name and layer_role is None:
                self.unknown.setdefault(class_name, []).append(object_id)
        name = obj.get("name") or ""
        if not name and isinstance(properties.get("name"), str):
            name = str(properties["name"])
        if rotation % 90 != 0:
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
    ) -> tuple[set[Square], set[Square], set[Edge]]:
        void: set[Square] = set()
        blocked: set[Square] = set()
        walls: set[Edge] = set()
        visible = [layer.gids for layer in prepared.tile_layers if layer.visible]
        if visible and any(bool((g & GID_MASK).any()) for g in visible):
            empty = np.ones((self.height, self.width), dtype=bool)
            for gids in visible:
                empty &= (gids & GID_MASK) == 0
            ys, xs = np.nonzero(empty)
            void.update(zip(xs.tolist(), ys.tolist(), strict=True))
        special = {
            gid
            for gid, tile in self.tiles.items()
            if gid > 0 and any(k in tile.properties for k in ("void", "blocked", "walls"))
        }
        if not special:
            return void, blocked, walls
        for layer in prepared.tile_layers:
            raw_values = np.unique(layer.gids)
            for raw in raw_values.tolist():
                gid = raw & GID_MASK
                if gid not in special:
                    continue
                props = self.tiles[gid].properties
                ys, xs = np.nonzero(layer.gids == raw)
                cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
                if _true(props.get("void")):
                    void.update(cells)
                if _true(props.get("blocked")):
                    blocked.update(cells)
                if "walls" in props:
                    sides = self.tile_wall_sides(props["walls"], gid, raw & GID_FLAGS)
                    for x, y in cells:
                        for side in sides:
                            walls.add(_side_edge(x, y, side))
        return void, blocked, walls

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
        # follow the tile's flips, as Tiled draws it: diagonal first, then horizontal, then vertical
        if flags & 0x20000000:
            sides = [{"N": "W", "W": "N", "E": "S", "S": "E"}[s] for s in sides]
        if flags & 0x80000000:
            sides = [{"E": "W", "W": "E"}.get(s, s) for s in sides]
        if flags & 0x40000000:
            sides = [{"N": "S", "S": "N"}.get(s, s) for s in sides]
        return sides

    # -- walls and windows
    def edges_of(self, obj: ObjectInfo, kind: str) -> set[Edge]:
        """The edges a wall (or window) object covers; errors for off-grid and diagonal parts."""
        if obj.shape in ("ellipse", "point", "text"):
            self.finding(
                "wall-shape",
                Severity.ERROR,
                f"a {kind} must be a line, polyline, polygon or rectangle, not {a_or_an(obj.shape)}; "
                "ignored",
                obj.id,
                hint=f"redraw the {kind} as a polyline along grid lines",
            )
            return set()
        paths: list[tuple[list[Point], bool]] = []
        if obj.shape in ("rectangle", "tile") and obj.id not in self.skewed:
            x, y, w, h = obj.x, obj.y, obj.width, obj.height
            if min(w, h) < Fraction(1, 2):
                if w >= h:
                    paths.append(([(x, y + h / 2), (x + w, y + h / 2)], False))
                else:
                    paths.append(([(x + w / 2, y), (x + w / 2, y + h)], False))
            else:
                paths.append(([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], True))
        else:
            paths.append((list(obj.points), obj.shape != "polyline"))
        edges: set[Edge] = set()
        problems: dict[str, str] = {}
        outside = 0
        for points, closed in paths:
            if len(points) < 2:
                problems.setdefault("wall-off-grid", "has fewer than two points")
                continue
            snapped = []
            for point in points:
                corner, moved = _snap(point)
                self.snapped += moved
                if corner is None:
                    problems.setdefault(
                        "wall-off-grid",
                        f"vertex {_fmt_point(point)} is not within 1/8 square of a grid corner",
                    )
                snapped.append(corner)
            pairs = list(zip(snapped, snapped[1:], strict=False))
            if closed and len(snapped) > 2:
                pairs.append((snapped[-1], snapped[0]))
            for a, b in pairs:
                if a is None or b is None or a == b:
                    continue
                if a[0] != b[0] and a[1] != b[1]:
                    problems.setdefault(
                        "wall-diagonal", f"segment {fmt_square(a)}-{fmt_square(b)} is diagonal"
                    )
                    continue
                axis = "V" if a[0] == b[0] else "H"
                fixed, (lo, hi) = (
                    (a[0], sorted((a[1], b[1]))) if axis == "V" else (a[1], sorted((a[0], b[0])))
                )
                fixed_limit, run_limit = (
                    (self.width, self.height) if axis == "V" else (self.height, self.width)
                )
                inside = 0
                if 0 <= fixed <= fixed_limit:
                    for run in range(max(lo, 0), min(hi, run_limit)):
                        edges.add(Edge("V", fixed, run) if axis == "V" else Edge("H", run, fixed))
                        inside += 1
                outside += (hi - lo) - inside
        for code, detail in problems.items():
            self.finding(
                code,
                Severity.ERROR,
                f"{kind} {detail}; that part is ignored",
                obj.id,
                hint="draw walls along grid lines with View > Snapping > Snap to Grid on",
            )
        if outside and not edges:
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
        return edges

    # -- doors
    def door_of(self, obj: ObjectInfo) -> Door | None:
        hint = "draw the door as a one-square line along a grid edge, or a small shape centred on the edge"
        edge: Edge | None = None
        if obj.shape in ("polyline", "polygon") and len(obj.points) == 2:
            (a, moved_a), (b, moved_b) = _snap(obj.points[0]), _snap(obj.points[1])
            self.snapped += moved_a + moved_b
            if a is None or b is None or a == b or (a[0] != b[0] and a[1] != b[1]):
                self.finding(
                    "door-not-on-edge",
                    Severity.ERROR,
                    "door line does not run along a grid edge; ignored",
                    obj.id,
                    hint=hint,
                )
                return None
            length = abs(a[0] - b[0]) + abs(a[1] - b[1])
            if length > 1:
                self.finding(
                    "door-too-long",
                    Severity.ERROR,
                    f"door line covers {length} edges; a door is one edge long; ignored",
                    obj.id,
                    hint="draw one door per edge",
                )
                return None
            edge = (
                Edge("V", a[0], min(a[1], b[1]))
                if a[0] == b[0]
                else Edge("H", min(a[0], b[0]), a[1])
            )
        else:
            cx, cy = obj.centre
            vx, vy = Fraction(round(cx)), Fraction(math.floor(cy)) + Fraction(1, 2)
            hx, hy = Fraction(math.floor(cx)) + Fraction(1, 2), Fraction(round(cy))
            dv = (cx - vx) ** 2 + (cy - vy) ** 2
            dh = (cx - hx) ** 2 + (cy - hy) ** 2
            if min(dv, dh) > DOOR_REACH**2:
                self.finding(
                    "door-not-on-edge",
                    Severity.ERROR,
                    f"door centre {_fmt_point((cx, cy))} is not within 1/4 square of an edge's midpoint; ignored",
                    obj.id,
                    hint=hint,
                )
                return None
            if max(obj.width, obj.height) > DOOR_MAX_LENGTH:
                self.finding(
                    "door-too-long",
                    Severity.ERROR,
                    f"door is {_fmt(max(obj.width, obj.height))} squares long; a door covers one edge; ignored",
                    obj.id,
                    hint="draw one door per edge",
                )
                return None
            edge = (
                Edge("V", int(vx), int(vy - Fraction(1, 2)))
                if dv <= dh
                else Edge("H", int(hx - Fraction(1, 2)), int(hy))
            )
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
        props = obj.properties
        if "state" in props:
            text = str(props["state"]).strip().lower()
            if isinstance(props["state"], str) and text in {s.value for s in DoorState}:
                return DoorState(text)
            self.finding(
                "door-state-unknown",
                Severity.WARNING,
                f"door state {props['state']!r} is not closed, open or locked; using closed",
                obj.id,
                hint="set the string property state to closed, open or locked",
            )
            return DoorState.CLOSED
        if "locked" in props and _true(props["locked"]):
            return DoorState.LOCKED
        if "open" in props:
            return DoorState.OPEN if _true(props["open"]) else DoorState.CLOSED
        return DoorState.CLOSED

    # -- figures
    def in_bounds(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def figure_of(self, obj: ObjectInfo) -> Figure | None:
        cx, cy = obj.centre
        square = (math.floor(cx), math.floor(cy))
        if not self.in_bounds(square):
            self.finding(
                "figure-outside-board",
                Severity.ERROR,
                f"figure {obj.name or '#' + str(obj.id)} stands at {_fmt_point((cx, cy))}, outside the {self.width}x{self.height} map; not placed",
                obj.id,
                square,
                hint="move the figure onto the map",
            )
            return None
        stats = {k: v for k, v in obj.properties.items() if k not in ("side", "name")}
        side = str(obj.properties.get("side", "")).strip() or DEFAULT_SIDE
        return Figure(obj.id, obj.name, side, square, stats)

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

    # -- art through pytmx
    def pytmx_images(
        self, root: ET.Element
    ) -> dict[int, tuple[Path, tuple[int, int, int, int] | None]]:
        """Tiled gid -> (image path, rect) as pytmx computes them (margin, spacing, collections)."""
        import pytmx  # imported here, lazily: no other module of the program imports it

        _protect_for_pytmx(root, self)
        tiled_map = pytmx.TiledMap()
        tiled_map.filename = str(self.path)
        try:
            tiled_map.parse_xml(root)
        except Exception:  # noqa: BLE001 - pytmx raises bare Exception, TypeError ...
            raise MapError(
                f"cannot read this map: {explain_unreadable(root)}", path=self.shown,
                hint="fix it, or open the map in Tiled and save it again",
            ) from None
        out: dict[int, tuple[Path, tuple[int, int, int, int] | None]] = {}
        for tiled_gid, entries in list(tiled_map.gidmap.items()):
            for pytmx_gid, _flags in entries:
                if pytmx_gid < len(tiled_map.images) and tiled_map.images[pytmx_gid]:
                    image = tiled_map.images[pytmx_gid]
                    source, rect = image[0], image[1]
                    out[int(tiled_gid)] = (
                        Path(source),
                        tuple(int(v) for v in rect) if rect else None,
                    )
                    break
        return out

    def art(
        self,
        prepared: PreparedMap,
        images: dict[int, tuple[Path, tuple[int, int, int, int] | None]],
        background: str | None,
    ) -> MapArt | None:
        layers = tuple(
            ArtLayer(layer.name, layer.opacity, layer.offset, layer.gids)
            for layer in prepared.tile_layers
            if layer.visible
        )
        if prepared.unreadable_images or not layers or not images:
            return None
        used: set[int] = set()
        for layer in layers:
            used.update((np.unique(layer.gids) & GID_MASK).tolist())
        used.discard(0)
        tiles: dict[int, TileImage] = {}
        for gid in used:
            if gid not in images:
                continue
            source, rect = images[gid]
            tile = self.tiles.get(gid)
            if tile is not None and tile.rect is not None and rect is None:
                rect = tile.rect
            tiles[gid] = TileImage(source, rect, self.tile_offset(gid))
        if not tiles:
            return None
        return MapArt(self.tw, self.th, layers, tiles, background)


def _side_edge(x: int, y: int, side: str) -> Edge:
    return {
        "N": Edge("H", x, y),
        "S": Edge("H", x, y + 1),
        "W": Edge("V", x, y),
        "E": Edge("V", x + 1, y),
    }[side]


# --- pytmx's gaps -----------------------------------------------------------------------------


@cache
def _reserved_names() -> dict[str, frozenset[str]]:
    """Names pytmx refuses as custom properties, per element tag (its own attributes and methods)."""
    import pytmx

    parent = pytmx.TiledMap()
    parent.filename = "reserved.tmx"
    samples = {
        "map": (pytmx.pytmx.TiledMap, None),
        "layer": (
            pytmx.pytmx.TiledTileLayer,
            '<layer width="1" height="1"><data encoding="csv">0</data></layer>',
        ),
        "objectgroup": (pytmx.pytmx.TiledObjectGroup, "<objectgroup/>"),
        "group": (pytmx.pytmx.TiledGroupLayer, "<group/>"),
        "object": (pytmx.pytmx.TiledObject, '<object id="1"/>'),
        "tileset": (
            pytmx.pytmx.TiledTileset,
            '<tileset firstgid="1" tilewidth="1" tileheight="1"/>',
        ),
    }
    out: dict[str, frozenset[str]] = {}
    for tag, (cls, xml) in samples.items():
        if xml is None:
            instance = pytmx.TiledMap()
        elif tag in ("objectgroup", "object"):
            instance = cls(parent, ET.fromstring(xml), None)
        else:
            instance = cls(parent, ET.fromstring(xml))
        out[tag] = frozenset(vars(instance)) | frozenset(dir(cls))
    return out


def _protect_for_pytmx(root: ET.Element, loader: _Loader) -> None:
    """Rename custom properties pytmx would refuse, neutralise types it crashes on, drop image layers."""
    import pytmx

    known_types = set(pytmx.pytmx.prop_type) - {"class"}
    for prop in root.iter("property"):
        if prop.get("type", "string") not in known_types:
            prop.set("type", "string")
            prop.attrib.pop("propertytype", None)
            for child in list(prop):
                prop.remove(child)
    reserved = _reserved_names()

    def protect(elem: ET.Element, object_id: int | None) -> None:
        names = reserved.get(elem.tag, frozenset()) | set(elem.attrib)
        for props in elem.findall("properties"):
            for prop in props.findall("property"):
                name = prop.get("name", "")
                if name in names:
                    prop.set("name", MANGLE + name)
                    what = f"{elem.tag} {elem.get('name', '')!r}".replace(" ''", "")
                    loader.finding(
                        "reserved-property",
                        Severity.WARNING,
                        f"custom property {name!r} on {what} is a name pytmx reserves; Sightline reads it, "
                        "other pytmx-based tools will refuse the map",
                        object_id,
                        hint=f"rename the property {name!r}",
                    )

    protect(root, None)
    for elem in root.iter():
        if elem.tag in ("layer", "objectgroup", "group", "tileset"):
            protect(elem, None)
        elif elem.tag == "object":
            raw = elem.get("id", "")
            protect(elem, int(raw) if raw.isdigit() else None)
    for parent in [root, *root.iter("group")]:
        for child in list(parent):
            if child.tag == "imagelayer":
                parent.remove(child)
