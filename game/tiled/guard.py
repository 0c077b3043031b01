"""Safe reading of Tiled XML files, before the reader sees them (private to :mod:`game.tiled`).

Everything here is bounded: file size, cell count, decompressed size, tileset size. It refuses
XML entity declarations (the "billion laughs" bomb), decompresses layer data with a hard limit,
inlines external tilesets (``.tsx``) and object templates (``.tx``) so the reader gets one tree with
absolute image paths, and rewrites XML-encoded tile layers as CSV. Every problem becomes a
:class:`~game.core.errors.MapError` with one line a map designer can act on.

>>> xml = b'<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">'
>>> xml += b'<layer name="g" width="2" height="1"><data encoding="csv">1,0</data></layer></map>'
>>> parse_xml_bytes(xml, "m.tmx").tag
'map'
>>> parse_xml_bytes(b'<!DOCTYPE m [<!ENTITY a "x">]><map/>', "m.tmx")
Traceback (most recent call last):
...
game.core.errors.MapError: m.tmx: the file declares XML entities, which Sightline refuses for safety (save the map again from Tiled)
"""

from __future__ import annotations

import base64
import binascii
import copy
import math
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

from game.core.board import Stat
from game.core.errors import MapError
from game.core.findings import Finding, Severity
from game.tiled.records import TileLayerRecord

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_CELLS = 4_000_000
MAX_TOTAL_LAYER_CELLS = 32_000_000
MAX_TILESET_TILES = 1_000_000
#: the most pixels a tileset image may have once decoded (game/ui/art.py refuses the same)
MAX_IMAGE_PIXELS = 64 * 1024 * 1024
GID_FLAGS = 0xE0000000  # Tiled's flip bits (horizontal, vertical, diagonal)
GID_MASK = 0x1FFFFFFF

#: the root attribute holding an infinite map's origin (Tiled's cell at the board's (0,0))
ORIGIN = "sightline-origin"
CSV_HINT = "in Tiled: Map > Map Properties > Tile Layer Format = CSV, then save"
JSON_HINT = "open it in Tiled and use File > Save As... with the TMX format (.tmx)"


@dataclass
class PreparedMap:
    """A map checked and flattened for the reader: one tree, decoded layers, what it depends on."""

    path: Path
    root: ET.Element
    tile_layers: list[TileLayerRecord]
    dependencies: list[Path]
    findings: list[Finding] = field(default_factory=list)
    unreadable_images: list[Path] = field(default_factory=list)


def _display(path: Path) -> str:
    """A path as messages show it."""
    return str(path)


def read_bytes(path: Path, what: str = "map") -> bytes:
    """The bytes of a file, refusing missing files, directories, empty and oversized files."""
    shown = _display(path)
    if not path.exists():
        raise MapError(f"{what} file not found", path=shown, hint="check the path")
    if path.is_dir():
        raise MapError(f"is a directory, not a {what} file", path=shown, hint="name a .tmx file")
    if not path.is_file():  # a FIFO would block the read forever; a device never ends
        raise MapError(
            f"is not a regular file (a pipe, device or socket), so it cannot be a {what} file",
            path=shown, hint=f"name the {what} file itself",
        )
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise MapError(
                f"{what} file is {size // (1024 * 1024)} MiB, over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit",
                path=shown,
            )
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise MapError(f"cannot read the {what} file: {exc.strerror or exc}", path=shown) from None
    if not data.strip():
        raise MapError(f"the {what} file is empty", path=shown, hint="save it again from Tiled")
    return data


def _declares_entities(data: bytes) -> bool:
    """Whether XML bytes declare an entity (UTF-16 text decoded first)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            return True
        return "<!ENTITY" in text
    return b"<!ENTITY" in data


def _utf16_without_bom(data: bytes) -> bool:
    """UTF-16 (or UTF-32) text without a byte-order mark: a NUL byte among the first ones.

    >>> _utf16_without_bom("<?xml".encode("utf-16-le")), _utf16_without_bom(b"<?xml")
    (True, False)
    """
    return data[:2] in _UTF16_STARTS


#: how an XML file starts in UTF-16/32 without a byte-order mark: "<" or white space and a NUL
_UTF16_STARTS = frozenset(
    pair for c in b"< \t\r\n" for pair in (bytes([c, 0]), bytes([0, c]))
)


def parse_xml_bytes(data: bytes, shown: str) -> ET.Element:
    """Parse XML bytes, refusing entity declarations and reporting errors in one line."""
    if _utf16_without_bom(data):
        raise MapError(
            "the file is UTF-16 (or UTF-32) text without a byte-order mark, which Sightline refuses "
            "(its entity check could not read it)",
            path=shown, hint="save the map as UTF-8 from Tiled",
        )
    head = data.lstrip()[:1]
    if head in (b"{", b"["):
        raise MapError(
            "this is a Tiled JSON file; Sightline reads TMX (XML) maps", path=shown, hint=JSON_HINT
        )
    if _declares_entities(data):
        raise MapError(
            "the file declares XML entities, which Sightline refuses for safety",
            path=shown,
            hint="save the map again from Tiled",
        )
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise MapError(
            f"not well-formed XML ({reason}, line {line}, column {column})",
            path=shown,
            hint="the file may be truncated or not a Tiled map; save it again from Tiled",
        ) from None
    except LookupError as exc:  # an unknown encoding="..." in the XML declaration
        raise MapError(f"unreadable XML ({exc})", path=shown, hint="save it as UTF-8") from None
    except (ValueError, RecursionError) as exc:
        raise MapError(f"unreadable XML ({exc})", path=shown) from None


def parse_xml_file(path: Path, what: str) -> ET.Element:
    """Read and parse one map, tileset or template file safely: TMX/TSX/TX (XML), or Tiled JSON
    (``.tmj``, ``.tsj``, ``.tj``, ``.json``), which becomes the element tree of its XML twin."""
    data = read_bytes(path, what)
    if data.lstrip()[:1] in (b"{", b"[") or data[:4] in (b"\xef\xbb\xbf{", b"\xef\xbb\xbf["):
        from game.tiled.tmj import parse_json_bytes

        return parse_json_bytes(data, _display(path))
    return parse_xml_bytes(data, _display(path))


def int_attr(elem: ET.Element, name: str, default: int | None, shown: str) -> int:
    """An integer XML attribute, or a MapError naming it."""
    text = elem.get(name)
    if text is None:
        if default is None:
            raise MapError(
                f"<{elem.tag}> has no {name} attribute", path=shown, hint="save it again from Tiled"
            )
        return default
    try:
        return int(text.strip())
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if math.isfinite(value) and value == int(value):
            return int(value)
        raise MapError(f"<{elem.tag}> {name}={text!r} is not a whole number", path=shown) from None


def frac_attr(elem: ET.Element, name: str, default: Fraction = Fraction(0)) -> Fraction:
    """A number attribute as an exact Fraction (ValueError for nan/inf/garbage)."""
    text = elem.get(name)
    if text is None or not text.strip():
        return default
    try:
        return parse_number(text)
    except ValueError as exc:
        raise ValueError(f"<{elem.tag}> {name}={text[:20]!r}: {exc}") from None


@lru_cache(maxsize=1 << 16)
def parse_number(text: str) -> Fraction:
    """A decimal number as written in a TMX file, exactly (cached: maps repeat their numbers).

    >>> parse_number(" 12.5"), parse_number("1e2")
    (Fraction(25, 2), Fraction(100, 1))
    """
    cleaned = text.strip()
    mantissa, _, exponent = cleaned.lower().partition("e")
    if exponent and (len(exponent.lstrip("+-")) > 3 or not exponent.lstrip("+-").isdigit()
                     or abs(int(exponent)) > 64):
        raise ValueError("not a number Tiled writes (out of range)")
    if len(mantissa) > 40:
        raise ValueError("too many digits")
    try:
        return Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise ValueError("not a number") from None


# --- properties -------------------------------------------------------------------------------


def read_properties(elem: ET.Element) -> dict[str, Stat]:
    """The custom properties of an element, typed as in Tiled (int, float, bool, string).

    ``color`` and ``file`` become strings, ``object`` an int; the members of a class-typed
    property ``stats`` become ``stats.life``, ``stats.armor`` ... (nested classes likewise).

    >>> e = ET.fromstring('<o><properties><property name="life" type="int" value="3"/>'
    ...                   '<property name="open" type="bool" value="true"/>'
    ...                   '<property name="side" value="red"/></properties></o>')
    >>> read_properties(e)
    {'life': 3, 'open': True, 'side': 'red'}
    """
    out: dict[str, Stat] = {}
    for props in elem.findall("properties"):
        for prop in props.findall("property"):
            name = prop.get("name")
            if name is None:
                continue
            kind = prop.get("type", "string")
            raw = prop.get("value")
            if raw is None:
                raw = prop.text or ""
            if kind == "class":  # a class-typed property: its members, flattened as name.member
                for member, value in read_properties(prop).items():
                    out[f"{name}.{member}"] = value
                continue
            out[name] = _typed(kind, raw)
    return out


def _typed(kind: str, raw: str) -> Stat:
    """A property's text as its Tiled type (int, float, bool; anything else, or a bad number, as text)."""
    try:
        if kind in ("int", "object"):
            return int(raw.strip() or 0)
        if kind == "float":
            return float(raw)
        if kind == "bool":
            return raw.strip().lower() in ("true", "1", "yes")
    except ValueError:
        return raw
    return raw


# --- images -----------------------------------------------------------------------------------


def image_size(path: Path) -> tuple[int, int] | None:
    """Width and height from an image file's header (PNG, GIF, BMP, JPEG, WebP); None if not an image.

    WebP files are recognised but report (0, 0) (their size comes from the tileset).
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(64 * 1024)
    except OSError:
        return None
    return header_size(head)


def header_size(head: bytes) -> tuple[int, int] | None:
    """:func:`image_size` from an image's first bytes (64 KiB is plenty for a JPEG's header).

    >>> header_size(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8) + (3).to_bytes(4, "big") + (2).to_bytes(4, "big"))
    (3, 2)
    """
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return struct.unpack("<HH", head[6:10])
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(w), abs(h)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return (0, 0)
    if head.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(head):
            if head[i] != 0xFF:
                i += 1
                continue
            marker = head[i + 1]
            if marker in (
                0xC0,
                0xC1,
                0xC2,
                0xC3,
                0xC5,
                0xC6,
                0xC7,
                0xC9,
                0xCA,
                0xCB,
                0xCD,
                0xCE,
                0xCF,
            ):
                h, w = struct.unpack(">HH", head[i + 5 : i + 9])
                return w, h
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            (length,) = struct.unpack(">H", head[i + 2 : i + 4])
            i += 2 + length
        return (0, 0)
    return None


# --- the map ----------------------------------------------------------------------------------


class _Preparer:
    """One preparation of one map file (the state its checks share)."""

    def __init__(self, path: Path, orientations: tuple[str, ...] = ("orthogonal",)) -> None:
        """Start preparing the map at ``path``, refusing grids other than ``orientations``."""
        self.path = path
        self.orientations = orientations
        self.shown = _display(path)
        self.base = path.parent
        self.deps: list[Path] = [path.resolve()]
        self.findings: list[Finding] = []
        self.unreadable: list[Path] = []
        self.tsx_cache: dict[Path, ET.Element] = {}
        self.tx_cache: dict[Path, ET.Element] = {}
        self.total_cells = 0
        self.checked_images: dict[Path, tuple[int, int] | None] = {}
        self.ts_by_path: dict[Path, int] = {}

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
        if root.get("infinite", "0").strip() not in ("0", "", "false"):
            self.crop_infinite(root)
        self.check_header(root)
        self.inline_tilesets(root)
        self.apply_templates(root)
        layers = list(self.decode_layers(root, True, 1.0, (0.0, 0.0)))
        return PreparedMap(self.path, root, layers, self.deps, self.findings, self.unreadable)

    def check_header(self, root: ET.Element) -> None:
        """Refuse an unsupported orientation, a missing or absurd size, a tile size under 1x1."""
        orientation = (root.get("orientation") or "orthogonal").strip().lower()
        if orientation not in self.orientations:
            raise orientation_error(orientation, self.shown)
        width = int_attr(root, "width", None, self.shown)
        height = int_attr(root, "height", None, self.shown)
        tw = int_attr(root, "tilewidth", None, self.shown)
        th = int_attr(root, "tileheight", None, self.shown)
        if width < 1 or height < 1:
            raise MapError(
                f"the map is {width}x{height} squares; it needs at least one", path=self.shown
            )
        if width * height > MAX_CELLS:
            raise MapError(
                f"the map is {width}x{height} = {width * height:,} squares, over the {MAX_CELLS:,} limit",
                path=self.shown,
                hint="a board game board is much smaller; check Map > Map Properties",
            )
        if tw < 1 or th < 1:
            raise MapError(
                f"the map's tile size is {tw}x{th} pixels; it must be at least 1x1", path=self.shown
            )
        self.width, self.height = width, height

    # -- tilesets
    def resolve(self, base: Path, source: str) -> Path:
        """A file named by ``source`` relative to ``base`` (absolute names as they are)."""
        return (base / source).resolve() if not Path(source).is_absolute() else Path(source)

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
            if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
                reason = (f"is {size[0]}×{size[1]} pixels, over the "
                          f"{MAX_IMAGE_PIXELS // (1024 * 1024)}-megapixel budget")
                size = None
            self.checked_images[path] = size
            if size is None:
                self.unreadable.append(path)
                if not reason:
                    reason = (
                        "is missing" if not path.exists()
                        else "is not a regular file (a pipe or device)" if not path.is_file()
                        else "is not an image Sightline recognises"
                    )
                self.findings.append(
                    Finding(
                        "tileset-image-unreadable",
                        Severity.WARNING,
                        f"tileset image {path} {reason}; drawing the vector style",
                        hint="fix the image path in the tileset, or ignore this for a vector-style board",
                    )
                )
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
                flat = self.flatten_tileset(tsx, path.parent, firstgid, _display(path))
                self.ts_by_path.setdefault(path, firstgid)
            else:
                flat = self.flatten_tileset(ts, self.base, firstgid, self.shown)
            root[index] = flat

    # -- templates
    def load_tx(self, path: Path) -> ET.Element:
        """An object template's tree (cached; a one-line MapError when missing or not a template)."""
        if path in self.tx_cache:
            return self.tx_cache[path]
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
                tsx, key.parent if key else tx_path.parent, firstgid, str(tx_path)
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
        """Merge every object's template into the object (the object's attributes win)."""
        for group in root.iter("objectgroup"):
            for obj in group.findall("object"):
                source = obj.get("template")
                if not source:
                    continue
                tx_path = self.resolve(self.base, source)
                template = self.load_tx(tx_path)
                self.merge_template(root, obj, template, tx_path)

    def merge_template(
        self, root: ET.Element, obj: ET.Element, template: ET.Element, tx_path: Path
    ) -> None:
        """Merge one template into ``obj``: its attributes, shape and properties, the object's winning."""
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
        del obj.attrib["template"]

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
        except (zlib.error, zstandard.ZstdError) as exc:
            raise MapError(
                f"{where} has corrupt compressed data ({exc})",
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
                f"the painted part of the infinite map is {width}x{height} squares, over the {MAX_CELLS:,} limit",
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
                f"infinite map: the board is its painted part, {width}x{height} squares from "
                f"Tiled's cell ({x0},{y0}); squares are counted from there",
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


# --- saying what is wrong when a reader gives up ---------------------------------------------

#: attributes Tiled writes as whole numbers / as numbers (what the readers convert)
_INT_ATTRS = frozenset({"columns", "duration", "firstgid", "gid", "id", "margin", "nextobjectid",
                        "spacing", "tile", "tilecount", "tileheight", "tileid", "tilewidth",
                        "nextlayerid"})
_FLOAT_ATTRS = frozenset({"height", "width", "x", "y", "opacity", "rotation", "probability",
                          "offsetx", "offsety", "parallaxx", "parallaxy"})
_NEEDS = {"tileset": ("firstgid",), "property": ("name",), "image": ("source",),
          "layer": ("width", "height"), "map": ("width", "height", "tilewidth", "tileheight")}


def explain_unreadable(root: ET.Element) -> str:
    """What in the tree a reader could not take, in the map's terms (element, attribute, object
    id) — never the reader's exception text; a general sentence when nothing stands out.

    >>> explain_unreadable(ET.fromstring('<map width="2" height="2" tilewidth="8" tileheight="8">'
    ...     '<objectgroup><object id="4" x="abc"/></objectgroup></map>'))
    "<object id=4> x='abc' is not a number"
    >>> explain_unreadable(ET.fromstring('<tileset><properties><property value="1"/></properties></tileset>'))
    '<property value=1> has no name attribute'
    """
    parents = {child: parent for parent in root.iter() for child in parent}
    for elem in root.iter():
        owner = parents.get(parents.get(elem, elem))
        if elem.tag in ("polyline", "polygon") and elem.get("points") is None:
            return f"{_where(parents.get(elem, elem))} has a <{elem.tag}> without points"
        problem = _property_problem(elem, owner) or _attribute_problem(elem, elem is root)
        if problem:
            return problem
    return "an element or attribute is not as Tiled writes it"


def _property_problem(elem: ET.Element, owner: ET.Element | None) -> str | None:
    """What is wrong with a ``<property>`` (no value, a number that is not one), or None."""
    if elem.tag != "property" or elem.get("name") is None:
        return None
    kind, value = elem.get("type", "string"), elem.get("value", elem.text)
    shown = f"{_where(owner) if owner is not None else '<map>'} property {elem.get('name')!r}"
    if value is None:
        return f"{shown} has no value"
    try:
        if kind in ("int", "object"):
            int(value.strip())
        elif kind == "float" and not math.isfinite(float(value)):
            return f"{shown} = {value[:20]!r} is not a finite number"
    except ValueError:
        return f"{shown} = {value[:20]!r} is not {'a whole number' if kind != 'float' else 'a number'} (its type is {kind})"
    return None


def _attribute_problem(elem: ET.Element, is_root: bool) -> str | None:
    """A missing attribute an element needs, or a number attribute that is not one, or None."""
    where = _where(elem)
    for attr in _NEEDS.get(elem.tag, ()):
        if elem.get(attr) is None and not (elem.tag == "tileset" and is_root):
            return f"{where} has no {attr} attribute"
    for attr, text in elem.attrib.items():
        if attr in _INT_ATTRS:
            try:
                int(text.strip())
            except ValueError:
                return f"{where} {attr}={text[:20]!r} is not a whole number"
        elif attr in _FLOAT_ATTRS:
            try:
                number = float(text)
            except ValueError:
                return f"{where} {attr}={text[:20]!r} is not a number"
            if not math.isfinite(number):
                return f"{where} {attr}={text[:20]!r} is not a finite number"
    return None


def _where(elem: ET.Element) -> str:
    """An element for a message: its tag and the first of id, name, firstgid, value it has."""
    for key in ("id", "name", "firstgid", "value"):
        if elem.get(key) is not None:
            return f"<{elem.tag} {key}={elem.get(key, '')[:20]}>"
    return f"<{elem.tag}>"
