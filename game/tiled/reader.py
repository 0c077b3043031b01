"""Load a Tiled ``.tmx`` map into a :class:`~game.core.board.Board`: the map is parsed once, here.

The map conventions are DESIGN.md §3 and ``docs/maps.md``: orthogonal maps only; a cell empty in
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

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

from game.core.board import Board, Door, DoorState, Edge, Figure, Square, Stat
from game.core.errors import MapError, SightlineError, UsageError
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural
from game.tiled.geometry import (
    DOOR_HINT,
    Point,
    Segment,
    centre_of,
    edge_in_map,
    fmt_point,
    side_edge,
    square_at,
    trace_door,
    trace_wall,
    wall_paths,
)
from game.tiled.guard import (
    GID_FLAGS,
    GID_MASK,
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
DEFAULT_RULESET = "arcadia"
DEFAULT_SIDE = "neutral"
CLASSES_FILE = "sightline.toml"
WALL_LAYERS = ("walls",)  # object layers named or classed so: every object is a wall
TILE_ONLY = ("void", "blocked", "walls")  # tile properties a tile object does not inherit


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
        self.findings.extend(shadowing_properties(root))
        self.width = int(root.get("width", "0"))
        self.height = int(root.get("height", "0"))
        self.tw = int(root.get("tilewidth", "1"))
        self.th = int(root.get("tileheight", "1"))
        self.tiles = self.read_tilesets(root)
        map_props = read_properties(root)
        objects, layer_count = self.read_objects(root)

        void, blocked, tile_walls = self.tile_layer_geometry(prepared)
        walls: set[Edge] = set(tile_walls)
        windows: set[Edge] = set()
        doors: dict[Edge, Door] = {}
        figures: list[Figure] = []
        for key, obj in list(objects.items()):
            if obj.role in ("wall", "window"):
                obj = objects[key] = self.edges_of(obj, obj.role)
                inside = (e for e in obj.edges if edge_in_map(e, self.width, self.height))
                (walls if obj.role == "wall" else windows).update(inside)
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
        self.sheets: dict[int, _Sheet] = {}
        for ts in root.findall("tileset"):
            first = int(ts.get("firstgid", "1"))
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
                tiles[first + local] = _Tile(
                    read_properties(tile),
                    (tile.get("class") or tile.get("type") or "").strip(),
                    rect,
                    offset,
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
                            walls.add(side_edge(x, y, side))
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
        inside = {e for e in trace.edges if edge_in_map(e, self.width, self.height)}
        outside = sum(1 for e in trace.edges if not edge_in_map(e, self.width, self.height))
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
        return replace(obj, segments=trace.segments, ends=trace.ends, edges=trace.edges)

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
