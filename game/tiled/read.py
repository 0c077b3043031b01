"""Tiled's reader: a checked, flattened Tiled map (:mod:`game.tiled.guard`) into plain records.

:func:`read_tiled` reads what the file says into :class:`~game.tiled.records.MapRecords`: the grid
(orientation, tile size, hex and stagger attributes), the map's properties, every layer, the tile
layers' gids, every object in grid units (Tiled's rules applied: templates were merged by the
guard; tile objects are anchored by their tileset's alignment and take their tile's class and
properties; rotation turns the points; layer offsets move them), the tileset tiles' classes,
properties and collision shapes, and the art (where each tile's pixels are). It gives no roles
and traces no walls: that is :mod:`game.tiled.derive`'s job, the same for every reader.

What reading finds (a custom property shadowing a Tiled attribute, an unknown tileset alignment,
two objects with one id, and the guard's and the Tiled project's notes) goes into the records'
``findings``; a malformed object is a one-line :class:`~game.core.errors.MapError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

from game.core.board import Stat
from game.core.errors import MapError
from game.core.findings import Finding, Severity
from game.tiled.geometry import Point
from game.tiled.guard import GID_MASK, ORIGIN, frac_attr, parse_number, read_properties
from game.tiled.prepare import PreparedMap
from game.tiled.project import resolve_enums
from game.tiled.records import (
    ArtLayer,
    CollisionShape,
    GridLayout,
    LayerRecord,
    MapArt,
    MapRecords,
    ObjectRecord,
    TileImage,
    TileRecord,
    TilesetRecord,
    tileset_of,
)

__all__ = [
    "ALIGNMENT", "TILED_ATTRIBUTES", "pixel_unit", "read_tiled", "screen_to_grid", "shadowing_properties",
]

#: tile properties a tile object does not inherit (they describe the tile's cells)
TILE_ONLY = ("void", "blocked", "walls")
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
#: the child element that gives an object (or a collision shape) its shape; none: a rectangle
SHAPE_TAGS = ("ellipse", "point", "polygon", "polyline", "text")
LAYER_TAGS = {"layer": "tile", "objectgroup": "object", "imagelayer": "image"}


def read_tiled(prepared: PreparedMap, project: Path | None = None) -> MapRecords:
    """The records of a map the guard prepared (:func:`game.tiled.prepare.prepare`).

    ``project`` is the Tiled project ``sightline.toml`` names (else the nearest one is looked for
    when the map holds int-stored enums). Raises :class:`MapError` for a malformed object.
    """
    return _TiledReader(prepared).read(project)


# --- small readers ----------------------------------------------------------------------------


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


def _shape_of(elem: ET.Element) -> str:
    """An object's shape by its child element: ellipse, point, polygon, polyline, text or rectangle."""
    for child in SHAPE_TAGS:
        if elem.find(child) is not None:
            return child
    return "rectangle"


def _points(elem: ET.Element, shape: str) -> list[Point]:
    """The local points of a polygon or polyline (ValueError naming a malformed pair)."""
    text = elem.find(shape).get("points", "")  # type: ignore[union-attr]
    local = []
    for pair in text.split():
        px, _, py = pair.partition(",")
        try:
            local.append((parse_number(px), parse_number(py)))
        except ValueError:
            raise ValueError(f"<{shape}> points: {pair[:20]!r} is not an x,y pair of numbers") from None
    return local


def _image_size(image: ET.Element) -> tuple[int, int]:
    """An ``<image>``'s width and height as the guard filled them in ((0, 0) when unknown)."""
    try:
        return int(image.get("width", "0") or 0), int(image.get("height", "0") or 0)
    except ValueError:
        return (0, 0)


def _optional_int(text: str | None) -> int | None:
    """A whole-number attribute, or None when absent or not a whole number."""
    try:
        return int((text or "").strip())
    except ValueError:
        return None


def _tile_count(ts: ET.Element) -> int:
    """How many tiles a tileset holds: its ``tilecount``, else its last tile id + 1 and what its
    image holds (0 when neither says)."""
    count = _optional_int(ts.get("tilecount"))
    if count is not None and count > 0:
        return count
    ids = [_optional_int(t.get("id")) for t in ts.findall("tile")]
    most = max((i + 1 for i in ids if i is not None), default=0)
    image = ts.find("image")
    tw, th = _optional_int(ts.get("tilewidth")) or 0, _optional_int(ts.get("tileheight")) or 0
    if image is not None and tw > 0 and th > 0:
        iw, ih = _image_size(image)
        spacing, margin = _optional_int(ts.get("spacing")) or 0, _optional_int(ts.get("margin")) or 0
        columns = max(0, (iw - 2 * margin + spacing) // (tw + spacing))
        rows = max(0, (ih - 2 * margin + spacing) // (th + spacing))
        most = max(most, columns * rows)
    return most


def pixel_unit(grid: GridLayout) -> tuple[int, int]:
    """The pixels of one cell along x and y in the space objects are stored in: the tile size,
    or for an isometric map tileheight x tileheight (Tiled stores its objects projected).

    >>> pixel_unit(GridLayout("isometric", 64, 32)), pixel_unit(GridLayout("orthogonal", 32, 16))
    ((32, 32), (32, 16))
    """
    if grid.orientation == "isometric":
        return grid.tile_height, grid.tile_height
    return grid.tile_width, grid.tile_height


def screen_to_grid(grid: GridLayout, screen: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """A shift on the screen (a layer offset, a picture's size) in cells of the grid: divided by
    the tile size, or on an isometric map turned back from the diamond's axes (one cell right is
    half a tile right and half down on the screen).

    >>> g = GridLayout("isometric", 64, 32)
    >>> screen_to_grid(g, (Fraction(32), Fraction(16))), screen_to_grid(g, (Fraction(-32), Fraction(16)))
    ((Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1)))
    """
    sx, sy = Fraction(screen[0]), Fraction(screen[1])
    tw, th = grid.tile_width, grid.tile_height
    if grid.orientation == "isometric":
        return sx / tw + sy / th, sy / th - sx / tw
    return sx / tw, sy / th


def read_grid(root: ET.Element) -> GridLayout:
    """The map's grid: orientation, tile size, and the hex/stagger attributes when present."""
    return GridLayout(
        (root.get("orientation") or "orthogonal").strip().lower(),
        int(root.get("tilewidth", "1")),
        int(root.get("tileheight", "1")),
        (root.get("staggeraxis") or "").strip().lower() or None,
        (root.get("staggerindex") or "").strip().lower() or None,
        _optional_int(root.get("hexsidelength")),
    )


def read_collision(tile: ET.Element, size: tuple[int, int]) -> tuple[CollisionShape, ...]:
    """A tile's collision shapes (its ``<objectgroup>``) in tile units."""
    group = tile.find("objectgroup")
    if group is None:
        return ()
    return tuple(_collision_shape(shape, size) for shape in group.findall("object"))


def _collision_shape(shape: ET.Element, size: tuple[int, int]) -> CollisionShape:
    """One collision shape in tile units; unreadable numbers are kept as a mark, not raised (the
    derivation refuses the map only if it uses the shape)."""
    tw, th = size
    kind = _shape_of(shape)
    sid = shape.get("id", "?")
    cls = (shape.get("class") or shape.get("type") or "").strip()
    props = read_properties(shape)
    try:
        x, y = frac_attr(shape, "x") / tw, frac_attr(shape, "y") / th
        w, h = frac_attr(shape, "width") / tw, frac_attr(shape, "height") / th
        rotated = frac_attr(shape, "rotation") % 360 != 0
    except ValueError:
        zero = Fraction(0)
        return CollisionShape(sid, cls, props, kind, zero, zero, zero, zero, readable=False)
    points: tuple[Point, ...] | None = ()
    if kind in ("polygon", "polyline"):
        try:
            points = tuple((x + px / tw, y + py / th) for px, py in _points(shape, kind))
        except ValueError:
            points = None
    elif kind in ("rectangle", "ellipse"):
        points = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    return CollisionShape(sid, cls, props, kind, x, y, w, h, points, rotated)


# --- custom properties that shadow Tiled's own attributes -----------------------------------


def _names(text: str) -> frozenset[str]:
    """A set of attribute names from a space-separated list."""
    return frozenset(text.split())


#: the attributes Tiled writes on each element; a custom property of the same name is legal in
#: Tiled, read by Sightline, and refused by pytmx-based tools (pytmx stores both on one object)
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


def nameless_properties(root: ET.Element) -> list[Finding]:
    """A warning for each custom property without a name (Tiled never writes one; a hand edit or
    another tool did): it is ignored, and says so.

    >>> root = ET.fromstring('<map><objectgroup><object id="3"><properties><property value="1"/>'
    ...                      '</properties></object></objectgroup></map>')
    >>> [(f.code, f.object_id, f.message) for f in nameless_properties(root)]
    [('property-nameless', 3, 'a custom property of object 3 has no name; ignored')]
    """
    out: list[Finding] = []
    for elem in root.iter():
        for props in elem.findall("properties"):
            for prop in props.findall("property"):
                if (prop.get("name") or "").strip():
                    continue
                raw = elem.get("id", "") if elem.tag == "object" else ""
                object_id = int(raw) if raw.strip().isdigit() else None
                what = f"object {object_id}" if object_id is not None else _element_words(elem)
                out.append(Finding(
                    "property-nameless", Severity.WARNING,
                    f"a custom property of {what} has no name; ignored", object_id,
                    hint="give it a name in Tiled, or delete it",
                ))
    return out


def _element_words(elem: ET.Element) -> str:
    """An element for a message: ``the map``, ``tile layer 'Ground'``, ``tile 3`` ..."""
    kind = {"map": "the map", "layer": "tile layer", "objectgroup": "object layer", "group": "group layer",
            "imagelayer": "image layer", "tileset": "tileset", "tile": "tile", "property": "a class property"}
    label = elem.get("name") or elem.get("id") or ""
    words = kind.get(elem.tag, f"<{elem.tag}>")
    return words if elem.tag == "map" or not label else f"{words} {label!r}" if elem.get("name") else f"{words} {label}"


# --- the art: where every tile's pixels are ---------------------------------------------------


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

    def cut(self, local: int, offset: tuple[int, int]) -> TileImage | None:
        """The image file, source rectangle and offset of tile ``local``, or None when it has none.

        A tileset image is cut as Tiled and pytmx cut it: tiles of ``tilewidth`` x ``tileheight``
        from ``margin``, ``spacing`` apart, row by row; an image-collection tile is its own image
        (or the sub-rectangle ``x, y, width, height`` Tiled 1.9+ stores). Rectangles are clipped to
        the image.
        """
        own = self.collection.get(local)
        if own is not None:
            path, size, rect, colorkey = own
        elif self.image is not None:
            path, size, colorkey = self.image, self.size, self.colorkey
            tw, th, sp, mg = self.tile_size[0], self.tile_size[1], self.spacing, self.margin
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


def read_art(
    records: MapRecords, prepared: PreparedMap, sheets: dict[int, _Sheet], background: str | None
) -> MapArt | None:
    """The art of the visible tile layers (None when there is none to draw, or an image is
    unreadable): a gid's pixels are in the last tileset whose first gid is not above it."""
    layers = tuple(
        ArtLayer(layer.name, layer.opacity, layer.offset, layer.gids)
        for layer in prepared.tile_layers
        if layer.visible
    )
    if prepared.unreadable_images or not layers or not sheets:
        return None
    used: set[int] = set()
    for layer in layers:
        used.update((np.unique(layer.gids) & GID_MASK).tolist())
    used.discard(0)
    offsets = {ts.first_gid: ts.offset for ts in records.tilesets}
    tiles: dict[int, TileImage] = {}
    for gid in sorted(used):
        image = _tile_image(gid, sheets, offsets)
        if image is not None:
            tiles[gid] = image
    if not tiles:
        return None
    return MapArt(records.grid.tile_width, records.grid.tile_height, layers, tiles, background)


def _tile_image(gid: int, sheets: dict[int, _Sheet], offsets: dict[int, tuple[int, int]]) -> TileImage | None:
    """The pixels of one gid: in the last tileset whose first gid is not above it (``offsets``
    holds every tileset's drawing offset by first gid), if that tileset has pictures."""
    first = max((f for f in offsets if f <= gid), default=None)
    if first is None or first not in sheets:
        return None
    return sheets[first].cut(gid - first, offsets[first])


# --- the reader -------------------------------------------------------------------------------


@dataclass
class _PendingObject:
    """An object element met while walking the layers, with what its layers say about it."""

    elem: ET.Element
    layer: str
    labels: tuple[str, ...]
    offset: Point
    hidden: bool


class _TiledReader:
    """One read of one prepared map (the state the steps share: findings, scales, tilesets)."""

    def __init__(self, prepared: PreparedMap) -> None:
        """Start reading a prepared map; the guard's findings come first."""
        self.prepared = prepared
        self.path = prepared.path
        self.shown = str(prepared.path)
        self.findings: list[Finding] = list(prepared.findings)
        self.tilesets: list[TilesetRecord] = []
        self.sheets: dict[int, _Sheet] = {}
        self.skewed: set[int] = set()  # ids of objects rotated by other than a multiple of 90°

    def read(self, project: Path | None) -> MapRecords:
        """Every record of the map, in the order the findings have always come in."""
        root = self.prepared.root
        # int-stored enums: their names from the Tiled project (game/tiled/project.py)
        project_files, notes = resolve_enums(root, self.path, self.shown, project)
        self.findings += notes
        self.findings += shadowing_properties(root)
        self.findings += nameless_properties(root)
        self.grid = read_grid(root)
        # pixels -> grid units, one shared Fraction per value (maps repeat their coordinates); an
        # isometric map keeps its objects in a projected space where a cell is tileheight x
        # tileheight pixels (Tiled's IsometricRenderer::pixelToTileCoords)
        self.unit = pixel_unit(self.grid)
        self._grid_x = lru_cache(maxsize=1 << 16)(partial(Fraction, denominator=self.unit[0]))
        self._grid_y = lru_cache(maxsize=1 << 16)(partial(Fraction, denominator=self.unit[1]))
        origin = (root.get(ORIGIN) or "0,0").split(",")
        self.origin = (int(origin[0]), int(origin[1]))
        width, height = int(root.get("width", "0")), int(root.get("height", "0"))
        tiles = self.read_tilesets(root)
        properties = read_properties(root)
        layers, pending = self.read_layers(root)
        records = MapRecords(
            self.path,
            self.grid,
            width,
            height,
            properties=properties,
            origin=self.origin,
            layers=layers,
            tile_layers=tuple(self.prepared.tile_layers),
            tilesets=tuple(self.tilesets),
            tiles=tiles,
            objects=self.read_objects(pending, tiles),
            findings=self.findings,
            files=tuple(self.prepared.dependencies),
            project_files=tuple(project_files),
        )
        records.art = read_art(records, self.prepared, self.sheets, root.get("backgroundcolor"))
        return records

    # -- tilesets
    def read_tilesets(self, root: ET.Element) -> dict[int, TileRecord]:
        """Every tileset's record and pictures; the records of the tiles the file describes."""
        tiles: dict[int, TileRecord] = {}
        for ts in root.findall("tileset"):
            record = self.tileset_record(ts)
            self.tilesets.append(record)
            sheet = _Sheet(record.tile_size, int(ts.get("spacing", "0") or 0), int(ts.get("margin", "0") or 0))
            image = ts.find("image")
            if image is not None and image.get("source"):
                sheet.image, sheet.size = Path(image.get("source", "")), _image_size(image)
                sheet.colorkey = (image.get("trans") or "").strip().lstrip("#") or None
            for tile in ts.findall("tile"):
                found = self.tile_record(ts.get("name", "?"), record.first_gid, tile, sheet)
                tiles[found.gid] = found
            if sheet.image is not None or sheet.collection:
                self.sheets[record.first_gid] = sheet
        self.tilesets.sort(key=lambda t: t.first_gid)
        return tiles

    def tileset_record(self, ts: ET.Element) -> TilesetRecord:
        """A tileset's first gid, tile size, alignment (a finding if Tiled does not define it) and
        drawing offset."""
        alignment = (ts.get("objectalignment") or "unspecified").strip().lower()
        if alignment not in ALIGNMENT and alignment != "unspecified":
            self.findings.append(
                Finding(
                    "tileset-alignment",
                    Severity.WARNING,
                    f"tileset {ts.get('name', '?')!r} has objectalignment={alignment!r}, which Tiled "
                    "does not define; tile objects are read bottom-left anchored",
                    hint="pick an Object Alignment in the tileset properties",
                )
            )
        offset_elem = ts.find("tileoffset")
        offset = (0, 0)
        if offset_elem is not None:
            offset = (int(float(offset_elem.get("x", "0"))), int(float(offset_elem.get("y", "0"))))
        return TilesetRecord(
            ts.get("name", "?"),
            int(ts.get("firstgid", "1")),
            (int(ts.get("tilewidth", "0") or 0), int(ts.get("tileheight", "0") or 0)),
            alignment if alignment in ALIGNMENT else self.default_alignment(),
            offset,
            _tile_count(ts),
        )

    def tile_record(self, tileset: str, first: int, tile: ET.Element, sheet: _Sheet) -> TileRecord:
        """One ``<tile>`` of a tileset: class, properties, collision shapes (and its own image,
        kept on the sheet)."""
        local = int(tile.get("id", "0"))
        rect = None
        if tile.get("width") and tile.get("height"):
            rect = (
                int(float(tile.get("x", "0"))),
                int(float(tile.get("y", "0"))),
                int(float(tile.get("width", "0"))),
                int(float(tile.get("height", "0"))),
            )
        size = (max(1, sheet.tile_size[0]), max(1, sheet.tile_size[1]))
        record = TileRecord(
            first + local,
            (tile.get("class") or tile.get("type") or "").strip(),
            read_properties(tile),
            read_collision(tile, size),
            f"tile {local} of tileset {tileset!r}",
            size,
        )
        own = tile.find("image")
        if own is not None and own.get("source"):
            key = (own.get("trans") or "").strip().lstrip("#") or None
            sheet.collection[local] = (Path(own.get("source", "")), _image_size(own), rect, key)
        return record

    def alignment_of(self, gid: int) -> str:
        """The ``objectalignment`` of the tileset holding ``gid`` (unspecified: Tiled's default)."""
        holder = None
        for ts in self.tilesets:
            if ts.first_gid <= gid:
                holder = ts
        return holder.alignment if holder is not None else self.default_alignment()

    def default_alignment(self) -> str:
        """Tiled's anchor of a tile object when its tileset says none: bottom-left on orthogonal
        maps, bottom (centre) on isometric ones."""
        return "bottom" if self.grid.orientation == "isometric" else "bottomleft"

    # -- layers
    def read_layers(self, root: ET.Element) -> tuple[tuple[LayerRecord, ...], list[_PendingObject]]:
        """Every layer (groups flattened) and every object element with its layer's name, labels,
        offset (pixels, the board's origin subtracted) and visibility."""
        layers: list[LayerRecord] = []
        pending: list[_PendingObject] = []
        ox, oy = self.origin
        start = (Fraction(-ox * self.unit[0]), Fraction(-oy * self.unit[1]))
        for elem, labels, screen, hidden in _walk(root, (), (Fraction(0), Fraction(0)), False):
            moved = screen_to_grid(self.grid, screen)
            offset = (start[0] + moved[0] * self.unit[0], start[1] + moved[1] * self.unit[1])
            layers.append(LayerRecord(LAYER_TAGS[elem.tag], elem.get("name", ""), hidden))
            if elem.tag != "objectgroup":
                continue
            for obj in elem.findall("object"):
                gone = hidden or obj.get("visible", "1").strip() in ("0", "false")
                pending.append(_PendingObject(obj, elem.get("name", ""), labels, offset, gone))
        return tuple(layers), pending

    # -- objects
    def read_objects(
        self, pending: list[_PendingObject], tiles: dict[int, TileRecord]
    ) -> tuple[ObjectRecord, ...]:
        """Every object's record, in file order; ids missing or repeated are renumbered (with a
        finding for a repeat)."""
        objects: dict[int, ObjectRecord] = {}
        ids = [p.elem.get("id", "").strip() for p in pending]
        next_id = max((int(i) for i in ids if i.isdigit()), default=0) + 1
        for item in pending:
            raw_id = item.elem.get("id")
            if raw_id is None or not raw_id.strip().isdigit():
                object_id, next_id = next_id, next_id + 1
            else:
                object_id = int(raw_id)
            record = self.object_record(item, object_id, tiles)
            if record.id in objects:
                self.findings.append(
                    Finding(
                        "object-id-duplicate",
                        Severity.WARNING,
                        f"two objects have id {record.id}; this one is numbered {next_id} here",
                        record.id,
                        hint="save the map again from Tiled",
                    )
                )
                if record.id in self.skewed:
                    self.skewed.add(next_id)
                record = replace(record, id=next_id)
                next_id += 1
            objects[record.id] = record
        # a repeated id shares its skew with its twin (as the board has always been traced)
        return tuple(
            replace(r, skewed=True) if r.id in self.skewed and not r.skewed else r
            for r in objects.values()
        )

    def object_record(
        self, item: _PendingObject, object_id: int, tiles: dict[int, TileRecord]
    ) -> ObjectRecord:
        """One object's record; a malformed number is a one-line MapError naming the object."""
        try:
            return self._object_record(item, object_id, tiles)
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            raise MapError(
                f"object {object_id} in layer {item.layer!r} has malformed geometry: {exc}",
                path=self.shown,
                object_id=object_id,
                hint="fix the attribute, or redraw the object in Tiled",
            ) from None

    def _object_record(
        self, item: _PendingObject, object_id: int, tiles: dict[int, TileRecord]
    ) -> ObjectRecord:
        """The object's shape, points and box in grid units, class, name and properties."""
        obj, offset = item.elem, item.offset
        gid = int(obj.get("gid", "0") or 0) & GID_MASK
        tile = tiles.get(gid) if gid else None
        if gid and tileset_of(gid, self.tilesets) is None:
            self.findings.append(Finding(
                "tile-gid-unknown", Severity.WARNING,
                f"tile object {object_id} shows tile gid {gid}, which no tileset holds; read as a "
                "rectangle with no tile class", object_id,
                hint="a tileset was removed or shortened: open the map in Tiled, add it back or "
                "replace the object",
            ))
        shape = "tile" if gid else _shape_of(obj)
        x0, y0 = frac_attr(obj, "x"), frac_attr(obj, "y")
        if offset[0] or offset[1]:
            x0, y0 = x0 + offset[0], y0 + offset[1]
        size = frac_attr(obj, "width"), frac_attr(obj, "height")
        local = self.local_points(obj, shape, gid, size)
        rotation = frac_attr(obj, "rotation")
        if shape == "tile" and self.grid.orientation == "isometric":
            rotation = Fraction(0)  # a picture turned on the screen; it stands where its feet are
        if rotation:
            cos, sin = _rotation(rotation)
            local = [(px * cos - py * sin, px * sin + py * cos) for px, py in local]
        absolute, box = self.place(x0, y0, local)
        class_name, name, properties = _described(obj, tile)
        skewed = bool(rotation) and rotation % 90 != 0
        if skewed:
            self.skewed.add(object_id)
        points = () if shape in ("ellipse", "text") else absolute
        return ObjectRecord(
            object_id, name, class_name, item.layer, item.labels, shape, *box, points, properties,
            item.hidden, skewed,
        )

    def local_points(
        self, obj: ET.Element, shape: str, gid: int, size: tuple[Fraction, Fraction]
    ) -> list[Point]:
        """An object's points relative to its (x, y), in pixels, before rotation: a polygon's or
        polyline's own, a point's origin, a rectangle's or tile's corners (a tile anchored by its
        tileset's alignment)."""
        if shape in ("polygon", "polyline"):
            return _points(obj, shape)
        if shape == "point":
            return [(Fraction(0), Fraction(0))]
        w, h = size
        left, top = Fraction(0), Fraction(0)
        if shape == "tile":  # the object's (x, y) is the tileset's alignment point of the tile
            ax, ay = ALIGNMENT.get(self.alignment_of(gid), ALIGNMENT["bottomleft"])
            if self.grid.orientation == "isometric":
                return self.iso_footprint(ax, ay, w, h)
            left, top = -ax * w, -ay * h
        return [(left, top), (left + w, top), (left + w, top + h), (left, top + h)]

    def iso_footprint(self, ax: Fraction, ay: Fraction, w: Fraction, h: Fraction) -> list[Point]:
        """Where a tile object of an isometric map stands, relative to its (x, y), in projected
        pixels: the half-cell square just above the bottom centre of its picture (its feet),
        so a figure snapped to a cell's bottom corner, or placed in its middle, stands on that
        cell. The picture is drawn on the screen; its feet are moved into the map's projected
        space (:func:`screen_to_grid`)."""
        feet = screen_to_grid(self.grid, ((Fraction(1, 2) - ax) * w, (1 - ay) * h))
        fx, fy = feet[0] * self.unit[0], feet[1] * self.unit[1]
        half = Fraction(self.unit[0], 2)
        return [(fx - half, fy - half), (fx, fy - half), (fx, fy), (fx - half, fy)]

    def place(
        self, x0: Fraction, y0: Fraction, local: list[Point]
    ) -> tuple[tuple[Point, ...], tuple[Fraction, Fraction, Fraction, Fraction]]:
        """Local pixel points moved to ``(x0, y0)`` and scaled to grid units, with their bounding
        box ``(x, y, width, height)``."""
        if x0.denominator == 1 and y0.denominator == 1 and all(
            px.denominator == 1 and py.denominator == 1 for px, py in local
        ):  # the usual case: whole pixels, so integers until one shared Fraction per coordinate
            ix, iy = x0.numerator, y0.numerator
            pxs = [ix + px.numerator for px, _ in local]
            pys = [iy + py.numerator for _, py in local]
            gx, gy = self._grid_x, self._grid_y
            absolute = tuple((gx(px), gy(py)) for px, py in zip(pxs, pys, strict=True))
            if not absolute:
                return absolute, (gx(ix), gy(iy), Fraction(0), Fraction(0))
            low_x, low_y = min(pxs), min(pys)
            return absolute, (gx(low_x), gy(low_y), gx(max(pxs) - low_x), gy(max(pys) - low_y))
        tw, th = self.unit
        absolute = tuple(((x0 + px) / tw, (y0 + py) / th) for px, py in local)
        if not absolute:
            return absolute, (x0 / tw, y0 / th, Fraction(0), Fraction(0))
        xs = [p[0] for p in absolute]
        ys = [p[1] for p in absolute]
        return absolute, (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _described(obj: ET.Element, tile: TileRecord | None) -> tuple[str, str, dict[str, Stat]]:
    """An object's class, name and properties: its own over its tile's (a tile object's class is
    its tile's unless it has one; the tile's cell properties ``void``, ``blocked``, ``walls`` are
    not inherited); a string property ``name`` names an object Tiled left unnamed."""
    properties = {k: v for k, v in tile.properties.items() if k not in TILE_ONLY} if tile else {}
    properties.update(read_properties(obj))
    class_name = (obj.get("class") or obj.get("type") or (tile.class_name if tile else "")).strip()
    name = obj.get("name") or ""
    if not name and isinstance(properties.get("name"), str):
        name = str(properties["name"])
    return class_name, name, properties


def _walk(
    parent: ET.Element, labels: tuple[str, ...], offset: Point, hidden: bool
) -> Iterator[tuple[ET.Element, tuple[str, ...], Point, bool]]:
    """Every layer under ``parent`` (groups entered, not yielded) with the names and classes of it
    and its groups, its offset in pixels (groups' added: they move what Tiled shows) and whether it
    or a group around it is hidden."""
    for elem in parent:
        if elem.tag not in ("layer", "objectgroup", "group", "imagelayer"):
            continue
        mine = (elem.get("class") or "", elem.get("name") or "", *labels)
        shifted = (offset[0] + frac_attr(elem, "offsetx"), offset[1] + frac_attr(elem, "offsety"))
        gone = hidden or elem.get("visible", "1").strip() in ("0", "false")
        if elem.tag == "group":
            yield from _walk(elem, mine, shifted, gone)
        else:
            yield elem, mine, shifted, gone

