"""Preparing a Tiled map file for the reader (private to :mod:`game.tiled`): parse it under the
guard's limits (:mod:`game.tiled.guard`), crop an infinite map to what is painted, check the header,
inline external tilesets (``.tsx``) and object templates (``.tx``) with absolute image paths, and
decode every tile layer (CSV, base64, zlib/gzip with a hard limit). Every problem becomes a
:class:`~game.core.errors.MapError` with one line a map designer can act on."""

from __future__ import annotations

import base64
import binascii
import copy
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

from game.core.errors import MapError
from game.core.findings import Finding, Severity
from game.core.words import plural_of
from game.tiled.guard import (
    CSV_HINT,
    GID_FLAGS,
    GID_MASK,
    MAX_CELLS,
    MAX_IMAGE_PIXELS,
    MAX_OBJECTS,
    MAX_SHAPE_POINTS,
    MAX_TILESET_TILES,
    MAX_TOTAL_LAYER_CELLS,
    ORIGIN,
    display_name,
    image_size,
    int_attr,
    parse_xml_file,
    whole_or_zero,
)
from game.tiled.records import TileLayerRecord, cell_noun


@dataclass
class PreparedMap:
    """A map checked and flattened for the reader: one tree, decoded layers, what it depends on."""

    path: Path
    root: ET.Element
    tile_layers: list[TileLayerRecord]
    dependencies: list[Path]
    findings: list[Finding] = field(default_factory=list)
    unreadable_images: list[Path] = field(default_factory=list)



# --- the map ----------------------------------------------------------------------------------


class _Preparer:
    """One preparation of one map file (the state its checks share)."""

    def __init__(self, path: Path, orientations: tuple[str, ...] = ("orthogonal",)) -> None:
        """Start preparing the map at ``path``, refusing grids other than ``orientations``."""
        self.path = path
        self.orientations = orientations
        self.shown = display_name(path)
        self.base = path.parent
        self.deps: list[Path] = [path.resolve()]
        self.findings: list[Finding] = []
        self.unreadable: list[Path] = []
        self.tsx_cache: dict[Path, ET.Element] = {}
        self.tx_cache: dict[Path, ET.Element] = {}
        self.total_cells = 0
        self.checked_images: dict[Path, tuple[int, int] | None] = {}
        self.image_pixels = 0  # the pixels of every image kept so far: one budget for the map
        self.over_budget = False  # an image went past it: the map is drawn in the vector style
        self.ts_by_path: dict[Path, int] = {}
        self.noun = cell_noun("orthogonal")  # what one cell is called in messages (the map's, once read)

    def add_dep(self, path: Path) -> None:
        """Note a file the map depends on (once)."""
        if path not in self.deps:
            self.deps.append(path)

    # -- entry point
    def run(self) -> PreparedMap:
        """Parse, crop an infinite map, check the header, inline tilesets and templates, decode layers."""
        root = parse_xml_file(self.path, "map")
        if root.tag != "map":
            raise MapError(
                f"not a Tiled map (the root element is <{root.tag}>, not <map>)",
                path=self.shown,
                hint="open a .tmx map file",
            )
        orientation = (root.get("orientation") or "orthogonal").strip().lower()
        self.noun = cell_noun(orientation)
        if root.get("infinite", "0").strip() not in ("0", "", "false"):
            self.crop_infinite(root)
        self.check_header(root, orientation)
        self.inline_tilesets(root)
        self.apply_templates(root)
        self.check_objects(root)
        layers = list(self.decode_layers(root, True, 1.0, (0.0, 0.0)))
        return PreparedMap(self.path, root, layers, self.deps, self.findings, self.unreadable)

    def check_header(self, root: ET.Element, orientation: str) -> None:
        """Refuse an unsupported ``orientation`` (the root's, as :meth:`run` read it), a missing
        or absurd size, a tile size under 1x1."""
        if orientation not in self.orientations:
            raise orientation_error(orientation, self.shown)
        width = int_attr(root, "width", None, self.shown)
        height = int_attr(root, "height", None, self.shown)
        tw = int_attr(root, "tilewidth", None, self.shown)
        th = int_attr(root, "tileheight", None, self.shown)
        if width < 1 or height < 1:
            raise MapError(
                f"the map is {width}x{height} {plural_of(self.noun)}; it needs at least one", path=self.shown
            )
        if width * height > MAX_CELLS:
            raise MapError(
                f"the map is {width}x{height} = {width * height:,} {plural_of(self.noun)}, over the {MAX_CELLS:,} limit",
                path=self.shown,
                hint="a board game board is much smaller; check Map > Map Properties",
            )
        if tw < 1 or th < 1:
            raise MapError(
                f"the map's tile size is {tw}x{th} pixels; it must be at least 1x1", path=self.shown
            )
        self.width, self.height = width, height

    def check_objects(self, root: ET.Element) -> None:
        """Refuse more objects, or more points in all their lines and polygons, than a check
        finishes with in time (:data:`MAX_OBJECTS`, :data:`MAX_SHAPE_POINTS`)."""
        objects = points = 0
        for elem in root.iter():
            if elem.tag == "object":
                objects += 1
            elif elem.tag in ("polyline", "polygon"):
                points += (elem.get("points") or "").strip().count(" ") + 1
        if objects > MAX_OBJECTS:
            raise MapError(f"the map has {objects:,} objects, over the {MAX_OBJECTS:,} limit", path=self.shown,
                           hint="draw long walls as one polyline each, or split the map")
        if points > MAX_SHAPE_POINTS:
            raise MapError(
                f"the map's lines and polygons have {points:,} points in all, over the {MAX_SHAPE_POINTS:,} limit",
                path=self.shown, hint="simplify the lines (fewer points), or split the map",
            )

    # -- tilesets
    def resolve(self, base: Path, source: str) -> Path:
        """A file named by ``source`` relative to ``base`` (absolute names as they are), ``..``
        taken away by the name as Tiled does, links not followed: a refusal names the file as the
        map names it, not what a link points at."""
        return Path(os.path.abspath(base / source)) if not Path(source).is_absolute() else Path(source)

    def load_tsx(self, path: Path, referrer: str) -> ET.Element:
        """An external tileset's tree (cached; a one-line MapError when missing or not a tileset)."""
        if path in self.tsx_cache:
            return self.tsx_cache[path]
        if path.exists() and not path.is_file():
            raise MapError(
                f"tileset {path} is not a regular file (a folder, pipe or device), so it cannot be "
                "a .tsx tileset",
                path=referrer,
                hint="point the map's <tileset source> at the .tsx file",
            )
        if not path.is_file():
            raise MapError(
                f"tileset file {path} not found",
                path=referrer,
                hint="put the .tsx beside the map where Tiled expects it, or embed the tileset",
            )
        root = parse_xml_file(path, "tileset")
        if root.tag != "tileset":
            raise MapError(f"{path.name} is not a Tiled tileset (root <{root.tag}>)", path=referrer)
        self.add_dep(path)
        self.tsx_cache[path] = root
        return root

    def flatten_tileset(self, ts: ET.Element, base: Path, firstgid: int, shown: str) -> ET.Element:
        """An embedded copy of a tileset with absolute image paths and checked image sizes."""
        flat = copy.deepcopy(ts)
        flat.attrib.pop("source", None)
        flat.set("firstgid", str(firstgid))
        tw = int_attr(flat, "tilewidth", 0, shown)
        th = int_attr(flat, "tileheight", 0, shown)
        image = flat.find("image")
        if image is not None:
            self.fix_image(flat, image, base, shown)
            image = flat.find("image")
        if image is not None:
            if tw < 1 or th < 1:
                raise MapError(
                    f"tileset {flat.get('name', '?')} has tile size {tw}x{th}", path=shown
                )
            spacing = int_attr(flat, "spacing", 0, shown)
            margin = int_attr(flat, "margin", 0, shown)
            iw = int_attr(image, "width", 0, shown)
            ih = int_attr(image, "height", 0, shown)
            count = max(0, (iw - 2 * margin + spacing) // (tw + spacing)) * max(
                0, (ih - 2 * margin + spacing) // (th + spacing)
            )
            if count > MAX_TILESET_TILES or spacing < 0 or margin < 0:
                raise MapError(
                    f"tileset {flat.get('name', '?')} declares {count:,} tiles (image {iw}x{ih}), over the limit",
                    path=shown,
                )
        for tile in flat.findall("tile"):
            timage = tile.find("image")
            if timage is not None:
                self.fix_image(tile, timage, base, shown)
            # Tiled writes a template path relative to the file holding the object: for a
            # collision shape that is the tileset, so anchor it here, before the map's templates
            # are applied relative to the map
            for obj in tile.findall("objectgroup/object"):
                source = obj.get("template")
                if source:
                    obj.set("template", str(self.resolve(base, source)))
        return flat

    def fix_image(self, owner: ET.Element, image: ET.Element, base: Path, shown: str) -> None:
        """Absolute image path, width/height filled from the file; unreadable images dropped."""
        source = image.get("source")
        if not source:
            owner.remove(image)  # embedded image data: not supported, vector style
            self.findings.append(
                Finding(
                    "tileset-image-unreadable",
                    Severity.WARNING,
                    "a tileset image is embedded in the file, which Sightline does not read; drawing the vector style",
                    hint="keep tileset images as separate files",
                )
            )
            return
        path = self.resolve(base, source)
        if path not in self.checked_images:
            size = image_size(path) if path.is_file() else None
            reason = ""
            counted = size
            if size == (0, 0):  # a WebP header: count the size the tileset declares
                counted = (whole_or_zero(image.get("width")), whole_or_zero(image.get("height")))
            pixels = counted[0] * counted[1] if counted is not None else 0
            hint = "fix the image path in the tileset, or ignore this for a vector-style board"
            silent = False  # one finding for the budget, not one for every image past it
            if counted is not None and self.image_pixels + pixels > MAX_IMAGE_PIXELS:
                silent, reason = self.over_budget, self.budget_refusal(counted, pixels)
                hint = "scale the images down or use fewer of them, or ignore this for a vector-style board"
                self.over_budget, size = True, None
            elif size is not None:
                self.image_pixels += pixels
            self.checked_images[path] = size
            if size is None:
                self.unreadable.append(path)
                if not reason:
                    reason = (
                        "is missing" if not path.exists()
                        else "is not a regular file (a pipe or device)" if not path.is_file()
                        else "is not an image Sightline recognises"
                    )
                if not silent:
                    self.findings.append(Finding(
                        "tileset-image-unreadable", Severity.WARNING,
                        f"tileset image {path} {reason}; drawing the vector style", hint=hint,
                    ))
            else:
                self.add_dep(path)
        size = self.checked_images[path]
        if size is None:
            owner.remove(image)
            return
        image.set("source", str(path))
        if size != (0, 0):
            image.set("width", image.get("width") or str(size[0]))
            image.set("height", image.get("height") or str(size[1]))
        elif not (image.get("width") and image.get("height")):
            owner.remove(image)

    def budget_refusal(self, size: tuple[int, int], pixels: int) -> str:
        """Why an image is not drawn: it would take the map's images past the one pixel budget
        they share (counted from the files' headers, before anything is decoded)."""
        budget = f"{MAX_IMAGE_PIXELS // (1024 * 1024)}-megapixel budget"
        if not self.image_pixels:
            return f"is {size[0]}×{size[1]} pixels, over the {budget}"
        total = (self.image_pixels + pixels) / (1024 * 1024)
        return (f"is {size[0]}×{size[1]} pixels; with the map's other tileset images that is "
                f"{total:,.0f} megapixels, over the {budget} all of a map's images share")

    def inline_tilesets(self, root: ET.Element) -> None:
        """Replace every external tileset reference by a flattened copy of the tileset."""
        for index, ts in enumerate(list(root)):
            if ts.tag != "tileset":
                continue
            firstgid = int_attr(ts, "firstgid", None, self.shown)
            if firstgid < 1:
                raise MapError(
                    f"a tileset has firstgid {firstgid}; it must be at least 1", path=self.shown
                )
            source = ts.get("source")
            if source:
                path = self.resolve(self.base, source)
                tsx = self.load_tsx(path, self.shown)
                flat = self.flatten_tileset(tsx, path.parent, firstgid, display_name(path))
                self.ts_by_path.setdefault(path, firstgid)
            else:
                flat = self.flatten_tileset(ts, self.base, firstgid, self.shown)
            root[index] = flat

    # -- templates
    def load_tx(self, path: Path) -> ET.Element:
        """An object template's tree (cached; a one-line MapError when missing or not a template)."""
        if path in self.tx_cache:
            return self.tx_cache[path]
        if path.exists() and not path.is_file():
            raise MapError(
                f"template {path} is not a regular file (a folder, pipe or device), so it cannot be "
                "a .tx template",
                path=self.shown,
                hint="point the object's template at the .tx file, or detach the object from it in Tiled",
            )
        if not path.is_file():
            raise MapError(
                f"template file {path} not found",
                path=self.shown,
                hint="put the .tx template there (its path is relative to the map or tileset that uses it), "
                "or detach the objects from it in Tiled",
            )
        root = parse_xml_file(path, "template")
        if root.tag != "template" or root.find("object") is None:
            raise MapError(f"{path.name} is not a Tiled object template", path=self.shown)
        self.add_dep(path)
        self.tx_cache[path] = root
        return root

    def template_gid(self, root: ET.Element, template: ET.Element, tx_path: Path, gid: int) -> int:
        """Map a gid local to a template onto the map's gids (adding the tileset if needed)."""
        flags, local = gid & GID_FLAGS, gid & GID_MASK
        ts = template.find("tileset")
        if ts is None:
            return gid
        tfirst = int_attr(ts, "firstgid", 1, str(tx_path))
        source = ts.get("source")
        key = self.resolve(tx_path.parent, source) if source else None
        firstgid = self.ts_by_path.get(key) if key is not None else None
        if firstgid is None:
            tsx = self.load_tsx(key, str(tx_path)) if key is not None else ts
            firstgid = self.next_firstgid(root)
            flat = self.flatten_tileset(
                tsx, key.parent if key else tx_path.parent, firstgid, display_name(key) if key else str(tx_path)
            )
            # insert after the last tileset, with the others
            position = max((i + 1 for i, e in enumerate(root) if e.tag == "tileset"), default=0)
            root.insert(position, flat)
            if key is not None:
                self.ts_by_path[key] = firstgid
        return (local - tfirst + firstgid) | flags

    def next_firstgid(self, root: ET.Element) -> int:
        """The first gid after every tileset of the map (for a template's own tileset)."""
        top = 1
        for ts in root.findall("tileset"):
            first = int_attr(ts, "firstgid", 1, self.shown)
            count = int_attr(ts, "tilecount", 0, self.shown)
            ids = [int_attr(t, "id", 0, self.shown) for t in ts.findall("tile")]
            top = max(top, first + max(count, max(ids, default=-1) + 1))
        return top

    def apply_templates(self, root: ET.Element) -> None:
        """Merge every object's template into the object (the object's attributes win); a
        template whose object uses a template itself is a finding (:meth:`note_nested_template`:
        that part is not applied, so a loop of templates ends at once)."""
        for group in root.iter("objectgroup"):
            for obj in group.findall("object"):
                source = obj.get("template")
                if not source:
                    continue
                tx_path = self.resolve(self.base, source)
                template = self.load_tx(tx_path)
                self.merge_template(root, obj, template, tx_path)
                del obj.attrib["template"]

    def merge_template(
        self, root: ET.Element, obj: ET.Element, template: ET.Element, tx_path: Path
    ) -> None:
        """Merge one template into ``obj``: its attributes, shape and properties, the object's
        winning (its ``template`` attribute is the caller's to remove)."""
        tobj = template.find("object")
        assert tobj is not None
        if tobj.get("template"):
            self.note_nested_template(tx_path, obj)
        for key, value in tobj.attrib.items():
            if key in ("id", "x", "y", "template"):
                continue
            if key not in obj.attrib:
                if key == "gid":
                    value = str(self.template_gid(root, template, tx_path, int(value)))
                obj.set(key, value)
        # shape children: the instance keeps its own, else the template's
        shapes = ("ellipse", "point", "polygon", "polyline", "text")
        if not any(obj.find(s) is not None for s in shapes):
            for s in shapes:
                child = tobj.find(s)
                if child is not None:
                    obj.append(copy.deepcopy(child))
        # properties: the template's, overridden by the instance's
        tprops = tobj.find("properties")
        if tprops is not None:
            mine = obj.find("properties")
            if mine is None:
                mine = ET.SubElement(obj, "properties")
            names = {p.get("name") for p in mine.findall("property")}
            for prop in tprops.findall("property"):
                if prop.get("name") not in names:
                    mine.append(copy.deepcopy(prop))

    def note_nested_template(self, tx_path: Path, obj: ET.Element) -> None:
        """A warning (once per template) for a template whose object uses a template itself,
        which Tiled never writes: it is not applied; a chain that comes back is a cycle."""
        if any(f.code in ("template-nested", "template-cycle") and tx_path.name in f.message for f in self.findings):
            return
        chain = [tx_path]
        while True:
            template = self.tx_cache.get(chain[-1])
            inner = template.find("object") if template is not None else None
            source = inner.get("template") if inner is not None else None
            if not source:
                break
            nxt = self.resolve(chain[-1].parent, source)
            if nxt in chain:
                chain.append(nxt)
                break
            try:
                self.load_tx(nxt)
            except MapError:
                break
            chain.append(nxt)
        cycle = len(chain) > 1 and chain[-1] in chain[:-1]
        raw = obj.get("id", "")
        self.findings.append(Finding(
            "template-cycle" if cycle else "template-nested", Severity.WARNING,
            f"template {tx_path.name} uses template {chain[1].name if len(chain) > 1 else '?'}"
            + (f", which leads back to {chain[-1].name}: a cycle" if cycle else "")
            + "; a template cannot use a template, so that part is not applied",
            int(raw) if raw.strip().isdigit() else None,
            hint="open the template in Tiled and detach its object from the other template",
        ))

    # -- tile layers
    def decode_layers(
        self, parent: ET.Element, visible: bool, opacity: float, offset: tuple[float, float]
    ) -> Iterator[TileLayerRecord]:
        """Every tile layer under ``parent``, decoded, groups' visibility, opacity and offset combined."""
        for elem in parent:
            if elem.tag not in ("layer", "group"):
                continue
            vis = visible and elem.get("visible", "1").strip() not in ("0", "false")
            try:
                op = opacity * float(elem.get("opacity", "1"))
                off = (
                    offset[0] + float(elem.get("offsetx", "0")),
                    offset[1] + float(elem.get("offsety", "0")),
                )
            except ValueError:
                raise MapError(
                    f"layer {elem.get('name', '?')!r} has a malformed opacity or offset",
                    path=self.shown,
                ) from None
            if elem.tag == "group":
                yield from self.decode_layers(elem, vis, op, off)
                continue
            yield TileLayerRecord(elem.get("name", ""), vis, op, off, self.decode_layer(elem))

    def decode_layer(self, layer: ET.Element) -> np.ndarray:
        """One finite tile layer's gids ``[y, x]``, checked against the map's size and the cell limit."""
        name = layer.get("name", "")
        where = f"tile layer {name!r}"
        w = int_attr(layer, "width", self.width, self.shown)
        h = int_attr(layer, "height", self.height, self.shown)
        if (w, h) != (self.width, self.height):
            raise MapError(
                f"{where} is {w}x{h} but the map is {self.width}x{self.height}",
                path=self.shown,
                hint="save the map again from Tiled",
            )
        cells = w * h
        self.total_cells += cells
        if self.total_cells > MAX_TOTAL_LAYER_CELLS:
            raise MapError(
                f"the tile layers hold more than {MAX_TOTAL_LAYER_CELLS:,} cells in total",
                path=self.shown,
            )
        data = layer.find("data")
        if data is None:
            return np.zeros((h, w), dtype=np.uint32)
        if data.find("chunk") is not None:
            raise MapError(
                f"{where} is stored in chunks, but the map is not infinite",
                path=self.shown,
                hint="save the map again from Tiled",
            )
        return self.decode_block(data, data, w, h, where)

    def decode_block(
        self, data: ET.Element, block: ET.Element, w: int, h: int, where: str
    ) -> np.ndarray:
        """Decode a layer's ``<data>`` (or one ``<chunk>`` of it) into gids ``[y, x]``."""
        encoding = (data.get("encoding") or "").strip().lower()
        if encoding == "":
            return self.decode_xml_tiles(data, block, w, h, where)
        text = block.text or ""
        if encoding == "csv":
            return self.decode_csv(text, w, h, where)
        if encoding != "base64":
            raise MapError(
                f"{where} uses the unknown encoding {encoding!r}", path=self.shown, hint=CSV_HINT
            )
        compression = (data.get("compression") or "").strip().lower()
        return self.decode_base64(text, compression, w, h, where)

    def decode_xml_tiles(
        self, data: ET.Element, block: ET.Element, w: int, h: int, where: str
    ) -> np.ndarray:
        """Gids written as ``<tile gid=…>`` elements; the block is rewritten as CSV text."""
        tiles = block.findall("tile")
        if len(tiles) != w * h:
            raise MapError(
                f"{where} has {len(tiles)} XML tiles, expected {w}x{h}",
                path=self.shown,
                hint=CSV_HINT,
            )
        try:
            values = [int(t.get("gid", "0")) for t in tiles]
        except ValueError:
            raise MapError(
                f"{where} has a malformed tile gid", path=self.shown, hint=CSV_HINT
            ) from None
        grid = self.check_gids(np.array(values, dtype=np.uint64), where)
        for t in tiles:
            block.remove(t)
        if block is data:
            data.set("encoding", "csv")
        block.text = ",".join(str(v) for v in values)
        return grid.reshape(h, w)

    def decode_csv(self, text: str, w: int, h: int, where: str) -> np.ndarray:
        """Gids written as comma-separated numbers."""
        cells = w * h
        try:
            values = list(map(int, filter(str.strip, text.replace("\n", "").replace("\r", "").split(","))))
        except ValueError:
            raise MapError(
                f"{where} has malformed CSV data",
                path=self.shown,
                hint="save it again from Tiled",
            ) from None
        if len(values) != cells:
            raise MapError(
                f"{where} has {len(values)} tiles, expected {w}x{h} = {cells}", path=self.shown
            )
        if values and (max(values) > 0xFFFFFFFF or min(values) < 0):
            raise MapError(f"{where} has a tile gid out of range", path=self.shown)
        return np.array(values, dtype=np.uint32).reshape(h, w)

    def decode_base64(self, text: str, compression: str, w: int, h: int, where: str) -> np.ndarray:
        """Gids as little-endian 32-bit words in base64, maybe zlib-, gzip- or zstd-compressed."""
        cells = w * h
        try:
            raw = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise MapError(
                f"{where} has malformed base64 data",
                path=self.shown,
                hint="save it again from Tiled",
            ) from None
        expected = cells * 4
        if compression in ("zlib", "gzip"):
            raw = self.inflate(raw, expected, where)
        elif compression == "zstd":
            raw = self.inflate(raw, expected, where, "zstd")
        elif compression:
            raise MapError(
                f"{where} uses the unknown compression {compression!r}",
                path=self.shown,
                hint=CSV_HINT,
            )
        if len(raw) != expected:
            raise MapError(
                f"{where} holds {len(raw) // 4} tiles, expected {w}x{h} = {cells}", path=self.shown
            )
        return np.frombuffer(raw, dtype="<u4").astype(np.uint32).reshape(h, w)

    def inflate(self, raw: bytes, expected: int, where: str, method: str = "zlib") -> bytes:
        """Decompress zlib or gzip data (or zstd, with the ``zstandard`` wheel), refusing anything
        larger than the layer (a bomb)."""
        import io

        import zstandard

        try:
            if method == "zstd":
                with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw)) as reader:
                    out, tail = reader.read(expected + 1), b""
            else:
                inflater = zlib.decompressobj(wbits=47)  # zlib or gzip header, detected
                out = inflater.decompress(raw, expected + 1)
                tail = inflater.unconsumed_tail
        except (zlib.error, zstandard.ZstdError):  # their texts ("Error -3 while ...") say nothing to a person
            raise MapError(
                f"{where} has corrupt compressed data (it is not {'zstd' if method == 'zstd' else 'zlib or gzip'} "
                "data, or it is cut short)",
                path=self.shown,
                hint="save it again from Tiled",
            ) from None
        if len(out) > expected or tail:
            raise MapError(
                f"{where} decompresses to more data than its {expected // 4:,} tiles (corrupt or hostile file)",
                path=self.shown,
            )
        return out

    def crop_infinite(self, root: ET.Element) -> None:
        """An infinite map's chunks as one finite grid: cropped to the painted cells of every tile
        layer (negative chunk coordinates included), its origin kept in ``sightline-origin``."""
        tw = int_attr(root, "tilewidth", None, self.shown)
        th = int_attr(root, "tileheight", None, self.shown)
        if tw < 1 or th < 1:
            return  # check_header refuses the tile size
        pieces = self.read_chunks(root)
        x0, y0, x1, y1 = _painted_bounds(pieces)
        width, height = x1 - x0, y1 - y0
        if width * height > MAX_CELLS:
            raise MapError(
                f"the painted part of the infinite map is {width}x{height} {plural_of(self.noun)}, over the "
                f"{MAX_CELLS:,} limit",
                path=self.shown,
            )
        for layer, chunks in pieces:
            _write_cropped(layer, chunks, (x0, y0, x1, y1))
        root.set("width", str(width))
        root.set("height", str(height))
        root.set("infinite", "0")
        root.set(ORIGIN, f"{x0},{y0}")
        self.findings.append(
            Finding(
                "map-infinite",
                Severity.WARNING,
                f"infinite map: the board is its painted part, {width}x{height} {plural_of(self.noun)} from "
                f"Tiled's cell ({x0},{y0}); {plural_of(self.noun)} are counted from there",
                hint="fine; or untick Map > Map Properties > Infinite to fix the board's extent",
            )
        )

    def read_chunks(self, root: ET.Element) -> list[tuple[ET.Element, list[_Chunk]]]:
        """Every tile layer of an infinite map with its decoded chunks ``(x, y, gids)``."""
        pieces: list[tuple[ET.Element, list[_Chunk]]] = []
        cells = 0
        for layer in root.iter("layer"):
            data = layer.find("data")
            chunks: list[_Chunk] = []
            if data is not None:
                where = f"tile layer {layer.get('name', '')!r}"
                for chunk in data.findall("chunk"):
                    cx = int_attr(chunk, "x", 0, self.shown)
                    cy = int_attr(chunk, "y", 0, self.shown)
                    cw = int_attr(chunk, "width", None, self.shown)
                    ch = int_attr(chunk, "height", None, self.shown)
                    cells += max(cw, 0) * max(ch, 0)
                    if cw < 1 or ch < 1 or cells > MAX_TOTAL_LAYER_CELLS:
                        raise MapError(f"{where} has a chunk of {cw}x{ch} tiles", path=self.shown)
                    chunks.append((cx, cy, self.decode_block(data, chunk, cw, ch, where)))
            pieces.append((layer, chunks))
        return pieces

    def check_gids(self, values: np.ndarray, where: str) -> np.ndarray:
        """Gids as uint32, refusing any beyond 32 bits."""
        if values.size and int(values.max()) > 0xFFFFFFFF:
            raise MapError(f"{where} has a tile gid out of range", path=self.shown)
        return values.astype(np.uint32)


#: one chunk of an infinite map's tile layer: its cell x, y and its gids ``[y, x]``
_Chunk = tuple[int, int, np.ndarray]


def _painted_bounds(pieces: list[tuple[ET.Element, list[_Chunk]]]) -> tuple[int, int, int, int]:
    """The cells ``x0, y0, x1, y1`` (end exclusive) holding every painted tile of every chunk;
    every chunk's extent when nothing is painted; one cell when there are no chunks."""
    painted = [
        (cx + int(xs.min()), cy + int(ys.min()), cx + int(xs.max()) + 1, cy + int(ys.max()) + 1)
        for _, chunks in pieces
        for cx, cy, grid in chunks
        for ys, xs in [np.nonzero(grid & GID_MASK)]
        if xs.size
    ]
    if not painted:
        painted = [(cx, cy, cx + g.shape[1], cy + g.shape[0]) for _, c in pieces for cx, cy, g in c]
    return (
        min((b[0] for b in painted), default=0),
        min((b[1] for b in painted), default=0),
        max((b[2] for b in painted), default=1),
        max((b[3] for b in painted), default=1),
    )


def _write_cropped(layer: ET.Element, chunks: list[_Chunk], bounds: tuple[int, int, int, int]) -> None:
    """Replace a layer's chunks by one CSV ``<data>`` covering ``bounds``."""
    x0, y0, x1, y1 = bounds
    width, height = x1 - x0, y1 - y0
    grid = np.zeros((height, width), dtype=np.uint32)
    for cx, cy, part in chunks:
        ph, pw = part.shape
        gx0, gy0 = max(cx, x0), max(cy, y0)
        gx1, gy1 = min(cx + pw, x1), min(cy + ph, y1)
        if gx1 > gx0 and gy1 > gy0:
            grid[gy0 - y0 : gy1 - y0, gx0 - x0 : gx1 - x0] = part[gy0 - cy : gy1 - cy, gx0 - cx : gx1 - cx]
    for child in list(layer):
        if child.tag == "data":
            layer.remove(child)
    data = ET.SubElement(layer, "data", encoding="csv")
    data.text = ",".join(str(v) for v in grid.ravel().tolist())
    layer.set("width", str(width))
    layer.set("height", str(height))


def orientation_error(orientation: str, shown: str) -> MapError:
    """The one-line refusal of a map on a grid Sightline does not build boards on (a staggered
    map's rows are shifted by half a tile, so it is no square grid, though it looks isometric)."""
    why = " (its rows are shifted by half a tile: no square grid)" if orientation == "staggered" else ""
    return MapError(
        f"{orientation} maps are not supported{why}; Sightline reads orthogonal, isometric "
        "(square-grid) and hexagonal maps",
        path=shown,
        hint="in Tiled, make a new map with File > New > Orientation: Orthogonal, Isometric or Hexagonal",
    )


def prepare(path: Path, orientations: tuple[str, ...] = ("orthogonal",)) -> PreparedMap:
    """Read a map file safely: one tree for the reader, decoded tile layers, dependencies, findings.

    A map whose orientation is not one of ``orientations`` (the grids the derivation builds) is
    refused here, before anything else is read."""
    return _Preparer(path, orientations).run()
