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

import math
import struct
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree as ET

from game.core.board import Stat
from game.core.errors import MapError
from game.tiled.files import FileRefused, read_regular_file

MAX_FILE_BYTES = 64 * 1024 * 1024
#: the size limits: a map at all of them at once is checked within the Tiled extension's 20
#: seconds on a loaded machine (docs/robustness.md gives the measurements): squares of the board,
#: tile-layer cells in all layers, objects, points of all lines and polygons
MAX_CELLS = 250_000
MAX_TOTAL_LAYER_CELLS = 4_000_000
MAX_OBJECTS = 30_000
MAX_SHAPE_POINTS = 150_000
MAX_TILESET_TILES = 1_000_000
#: the most pixels all of a map's tileset images may have together once decoded (4 bytes each:
#: 256 MiB), counted from the files' headers before anything is decoded (game/ui/art.py checks
#: the images it decodes against the same budget)
MAX_IMAGE_PIXELS = 64 * 1024 * 1024
GID_FLAGS = 0xE0000000  # Tiled's flip bits (horizontal, vertical, diagonal)
GID_MASK = 0x1FFFFFFF

#: the root attribute holding an infinite map's origin (Tiled's cell at the board's (0,0))
ORIGIN = "sightline-origin"
CSV_HINT = "in Tiled: Map > Map Properties > Tile Layer Format = CSV, then save"
JSON_HINT = "open it in Tiled and use File > Save As... with the TMX format (.tmx)"


def display_name(path: Path) -> str:
    """A path as messages show it."""
    return str(path)


def read_bytes(path: Path, what: str = "map", limit: int = MAX_FILE_BYTES, hint: str | None = None) -> bytes:
    """The bytes of a file (:func:`game.tiled.files.read_regular_file`), refusing missing files,
    folders, pipes and devices, files over ``limit`` bytes and empty files, each in one line
    (``hint``: what to do about a folder, pipe or device of the file's name)."""
    shown = display_name(path)
    try:
        data = read_regular_file(path, limit)
    except FileNotFoundError:
        raise MapError(f"{what} file not found", path=shown, hint="check the path") from None
    except FileRefused as exc:
        if exc.kind == "a folder":
            raise MapError(f"is a directory, not a {what} file", path=shown, hint=hint or "name a .tmx file") from None
        if exc.kind:  # a FIFO would block the read forever; a device never ends
            raise MapError(
                f"is not a regular file (it is {exc.kind}), so it cannot be a {what} file",
                path=shown, hint=hint or f"name the {what} file itself",
            ) from None
        if exc.size is not None:
            raise MapError(f"{what} file is {_mib(exc.size)}, over the {_mib(limit)} limit", path=shown) from None
        raise MapError(f"cannot read the {what} file: {exc}", path=shown) from None
    if not data.strip():
        raise MapError(f"the {what} file is empty", path=shown, hint="save it again from Tiled")
    return data


def _mib(size: int) -> str:
    """A file size for a refusal: whole MiB (``100 MiB``), or bytes under one MiB."""
    return f"{size // (1024 * 1024)} MiB" if size >= 1024 * 1024 else f"{size:,} bytes"


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
        raise MapError(
            f"not well-formed XML ({xml_words(str(exc))}, line {line}, column {column})",
            path=shown,
            hint="the file may be truncated or not a Tiled map; save it again from Tiled",
        ) from None
    except LookupError:  # an unknown encoding="..." in the XML declaration
        raise MapError("unreadable XML (its declaration names a text encoding Sightline does not know)",
                       path=shown, hint="save it as UTF-8") from None
    except (ValueError, RecursionError):
        raise MapError("unreadable XML (an encoding or nesting Sightline cannot read)", path=shown,
                       hint="save it again from Tiled, as UTF-8") from None


#: expat's messages (the start of each) → ours
_XML_WORDS: tuple[tuple[str, str], ...] = (
    ("no element found", "the text ends before the document does"),
    ("mismatched tag", "a closing tag does not match the tag it closes"),
    ("unclosed token", "the text ends inside a tag"),
    ("unclosed CDATA", "a CDATA section is never closed"),
    ("junk after document element", "there is more after the document's last closing tag"),
    ("duplicate attribute", "an attribute is written twice in one tag"),
    ("undefined entity", "an &name; names no character XML knows"),
    ("unbound prefix", "a name uses a prefix (prefix:name) that is never declared"),
    ("reference to invalid character", "a &#number; names a character XML does not allow"),
    ("XML or text declaration not at start", "the <?xml ...?> declaration is not at the very start"),
    ("unknown encoding", "its declaration names a text encoding Sightline does not know"),
    ("encoding specified in XML declaration is incorrect", "its declaration names the wrong text encoding"),
    ("syntax error", "this is not XML"),
    ("not well-formed", "a character here is not allowed in XML"),
)


def xml_words(message: str) -> str:
    """Our words for one of expat's messages (``mismatched tag: line 3, column 2``).

    >>> xml_words("mismatched tag: line 3, column 2")
    'a closing tag does not match the tag it closes'
    """
    return next((ours for start, ours in _XML_WORDS if message.startswith(start)), "the XML is not well-formed here")


def parse_xml_file(path: Path, what: str) -> ET.Element:
    """Read and parse one map, tileset or template file safely: TMX/TSX/TX (XML), or Tiled JSON
    (``.tmj``, ``.tsj``, ``.tj``, ``.json``), which becomes the element tree of its XML twin."""
    data = read_bytes(path, what)
    if data.lstrip()[:1] in (b"{", b"[") or data[:4] in (b"\xef\xbb\xbf{", b"\xef\xbb\xbf["):
        from game.tiled.tmj import parse_json_bytes

        return parse_json_bytes(data, display_name(path))
    return parse_xml_bytes(data, display_name(path))


def int_attr(elem: ET.Element, name: str, default: int | None, shown: str) -> int:
    """An integer XML attribute, or a MapError naming it."""
    text = elem.get(name)
    if text is None:
        if default is None:
            raise MapError(
                f"<{elem.tag}> has no {name} attribute", path=shown, hint="save it again from Tiled"
            )
        return default
    shown_value = _cut(text)
    if len(text) > MAX_NUMBER_TEXT:  # int() itself refuses 4,300 digits, and a message would quote them
        raise MapError(f"<{elem.tag}> {name}={shown_value} is out of range (Tiled writes whole numbers "
                       f"of at most 10 digits)", path=shown)
    try:
        value = int(text.strip())
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            number = float("nan")
        if not (math.isfinite(number) and number == int(number)):
            raise MapError(f"<{elem.tag}> {name}={shown_value} is not a whole number", path=shown) from None
        value = int(number)
    if abs(value) > MAX_WHOLE:
        raise MapError(f"<{elem.tag}> {name}={shown_value} is out of range (Tiled writes whole numbers "
                       f"of at most 10 digits)", path=shown)
    return value


#: the longest text a number attribute may have, and the largest whole number read (Tiled's
#: numbers are 32 bits: a gid with its flip flags is at most 4294967295)
MAX_NUMBER_TEXT = 40
MAX_WHOLE = 2**32


def _cut(text: str, keep: int = 20) -> str:
    """An attribute's text for a message: quoted, cut short when long (a hostile file's value
    must not become a 5,000-character line).

    >>> _cut("12"), _cut("9" * 5000)
    ("'12'", "'99999999999999999999…' (5,000 characters)")
    """
    if len(text) <= keep:
        return repr(text)
    return f"{text[:keep]!r}"[:-1] + f"…' ({len(text):,} characters)"


def whole_or_zero(text: str | None) -> int:
    """A declared image size: a whole number of at most 9 digits, else 0."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) <= 9 else 0


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
