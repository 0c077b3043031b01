"""Safe reading of virtual-tabletop JSON files (Universal VTT, Foundry scenes), for :mod:`game.tiled`.

Everything here is bounded, with the Tiled guard's budgets where they apply:

* the file is at most :data:`~game.tiled.guard.MAX_FILE_BYTES` (read by the same guard);
* an embedded picture (Universal VTT's ``"image"``: a base64 string, usually most of the file) is
  cut out of the text before the JSON is parsed, and kept as bytes;
* what is left (walls, doors, lights, tokens ...) is at most :data:`MAX_STRUCTURE_BYTES` and holds
  at most :data:`MAX_OBJECTS` JSON lists and objects, counted before parsing, so a wall list of a
  million points costs a scan of its text, not its parse;
* the rest is parsed by :func:`game.core.safe_json.loads`, the one guarded JSON reader (depth,
  digits, ``NaN``/``Infinity`` refused, every refusal in our words), with numbers read exactly as
  written (``0.1`` is one tenth, not the nearest double), so every decision made on them is made on
  the file's own numbers.

Then :class:`Fields` reads values by their place in the file (``line_of_sight[3][5].x``) through
:class:`game.core.safe_json.Field`, which type-checks each one: every problem is a
:class:`~game.core.errors.MapError` of one line naming that place, in the file's own words.

>>> doc = parse_text(b'{"a": [{"x": 1, "y": 2.5}], "image": "iVBORw0K"}', "m.dd2vtt")
>>> f = Fields("m.dd2vtt")
>>> f.point(f.array(doc.doc["a"], "a")[0], "a[0]")
(Fraction(1, 1), Fraction(5, 2))
>>> doc.cut, doc.doc["image"]  # a short picture stays in place; a long one is cut out
({}, 'iVBORw0K')
>>> parse_text(b'{"x": NaN}', "m.dd2vtt")
Traceback (most recent call last):
...
game.core.errors.MapError: m.dd2vtt: not valid JSON: line 1, column 7: NaN is not a number JSON has (write a number) (export it again)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from game.core import safe_json
from game.core.board import DoorState, Square, Stat
from game.core.errors import MapError
from game.core.safe_json import Field, JsonError, describe
from game.tiled.guard import read_bytes

#: the most text a VTT file may hold once its embedded picture is cut out (walls, lights, tokens)
MAX_STRUCTURE_BYTES = 16 * 1024 * 1024
#: the most JSON objects (points, walls, tokens ...) a VTT file may hold
MAX_OBJECTS = 300_000
#: a string value of one of these keys, longer than :data:`CUT_AT` bytes, is cut out before parsing
CUT_KEYS = ("image",)
CUT_AT = 4096
Point = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class RawJson:
    """A parsed VTT file: the JSON document, and the long strings cut out of it by key."""

    doc: dict[str, Any]
    cut: dict[str, bytes] = field(default_factory=dict)
    size: int = 0


def read_json_file(path: Path, what: str) -> RawJson:
    """Read a VTT JSON file through the guard (size limit, not a pipe, not empty) and parse it."""
    data = read_bytes(path, what)
    return parse_text(data, str(path), size=len(data))


def _cut_strings(data: bytes, shown: str) -> tuple[bytes, dict[str, bytes]]:
    """The text with each long ``"image": "..."`` string replaced by a short marker, and the cuts."""
    cut: dict[str, bytes] = {}
    pieces: list[bytes] = []
    at = 0
    for key in CUT_KEYS:
        for match in re.finditer(rb'"' + key.encode() + rb'"\s*:\s*"', data):
            start = match.end()
            if start < at:
                continue
            end = start
            while True:
                end = data.find(b'"', end)
                if end < 0:
                    raise MapError(f'the "{key}" text never ends', path=shown,
                                   hint="the file is truncated; export it again")
                backslashes = len(data[start:end]) - len(data[start:end].rstrip(b"\\"))
                if backslashes % 2 == 0:
                    break
                end += 1
            if end - start < CUT_AT:
                continue
            if key in cut:
                raise MapError(f'the file holds two "{key}" values', path=shown,
                               hint="export it again from the map maker")
            cut[key] = data[start:end].replace(b"\\/", b"/")
            pieces += [data[at:start], f"\\u0000cut:{key}".encode()]
            at = end
    pieces.append(data[at:])
    return b"".join(pieces), cut


def parse_text(data: bytes, shown: str, *, size: int | None = None) -> RawJson:
    """Parse VTT JSON bytes within the limits of this module; one-line MapError when it cannot."""
    text, cut = _cut_strings(data, shown)
    if len(text) > MAX_STRUCTURE_BYTES:
        raise MapError(
            f"the file holds {len(text) / 2**20:.1f} MiB of walls, lights and other data besides "
            f"its picture, over the {MAX_STRUCTURE_BYTES // 2**20} MiB limit",
            path=shown, hint="simplify the walls (fewer cave points) and export it again",
        )
    try:
        doc = safe_json.loads(text, max_containers=MAX_OBJECTS, parse_float=Fraction)
    except JsonError as exc:
        if exc.limit == "containers":
            raise MapError(
                f"the file holds more than {MAX_OBJECTS:,} JSON objects (points, walls, lights ...), "
                "over Sightline's limit", path=shown,
                hint="simplify the walls (fewer cave points) and export it again",
            ) from None
        raise MapError(f"not valid JSON: {exc}", path=shown, hint="export it again") from None
    if not isinstance(doc, dict):
        raise MapError("the file is not a JSON object", path=shown,
                       hint="name a Universal VTT file or a Foundry scene export")
    return RawJson(doc, cut, len(data) if size is None else size)


def show(value: Fraction | int) -> str:
    """A number for a message, short (``2.5``, ``1e+300``), even when too big for a double.

    >>> show(Fraction(5, 2)), show(Fraction(10) ** 400)
    ('2.5', '1e+400')
    """
    try:
        return f"{float(value):g}"
    except OverflowError:
        value = Fraction(value)
        return f"{(Decimal(value.numerator) / Decimal(value.denominator)).normalize():.6g}"


class Fields:
    """Typed reads of a parsed JSON document (:class:`game.core.safe_json.Field`), each naming its
    place when the value is wrong; numbers come back exact (``Fraction``).

    ``where`` is the value's place in the file's own words (``portals[2].bounds``).

    >>> f = Fields("m.json")
    >>> f.number(3, "grid"), f.integer(4.0, "n"), f.boolean(False, "closed")
    (Fraction(3, 1), 4, False)
    >>> f.number("3", "walls[0].c[1]")
    Traceback (most recent call last):
    ...
    game.core.errors.MapError: m.json: expected a number at walls[0].c[1], found "3"
    """

    def __init__(self, shown: str, hint: str | None = None) -> None:
        self.shown = shown
        self.hint = hint

    def fail(self, message: str, hint: str | None = None) -> NoReturn:
        """Raise the one-line MapError for this file."""
        raise MapError(message, path=self.shown, hint=hint or self.hint)

    def read(self, value: object, where: str, reader: Callable[[Field], Any]) -> Any:
        """``reader`` applied to the value as a field at ``where``; its JsonError as this file's
        MapError."""
        try:
            return reader(Field(value, where))
        except JsonError as exc:
            self.fail(str(exc))

    def number(self, value: object, where: str) -> Fraction:
        """A finite JSON number, exactly as written."""
        return Fraction(self.read(value, where, Field.number))

    def integer(self, value: object, where: str) -> int:
        """A whole JSON number (``4`` or ``4.0``)."""
        return int(self.read(value, where, Field.whole))

    def boolean(self, value: object, where: str) -> bool:
        """``true`` or ``false``."""
        return bool(self.read(value, where, Field.flag))

    def string(self, value: object, where: str) -> str:
        """A JSON string."""
        return str(self.read(value, where, Field.text))

    def array(self, value: object, where: str) -> list[Any]:
        """A JSON list."""
        return [item.value for item in self.read(value, where, Field.items)]

    def obj(self, value: object, where: str) -> Mapping[str, Any]:
        """A JSON object."""
        found: Mapping[str, Any] = self.read(value, where, Field.object)
        return found

    def point(self, value: object, where: str) -> Point:
        """An ``{"x": .., "y": ..}`` object as an exact point."""
        item = self.obj(value, where)
        for axis in ("x", "y"):
            if axis not in item:
                self.fail(f"{where} has no {axis}", hint="a point is written {\"x\": 1, \"y\": 2}")
        return self.number(item["x"], f"{where}.x"), self.number(item["y"], f"{where}.y")

    def optional(self, item: Mapping[str, Any], key: str, default: Any) -> Any:
        """``item[key]``, or ``default`` when the key is absent or null."""
        value = item.get(key)
        return default if value is None else value

    def square(self, value: object, where: str) -> Square:
        """A square written ``[x, y]``."""
        pair = self.array(value, where)
        if len(pair) != 2:
            self.fail(f"{where} must be a square [x, y]")
        return self.integer(pair[0], f"{where}[0]"), self.integer(pair[1], f"{where}[1]")

    def door_state(self, value: object, where: str) -> DoorState:
        """``closed``, ``open`` or ``locked``."""
        text = self.string(value, where)
        try:
            return DoorState(text.strip().lower())
        except ValueError:
            self.fail(f"{where} is {text!r}; a door is closed, open or locked")

    def properties(self, value: object, where: str) -> dict[str, Stat]:
        """Map or figure properties: text, finite numbers and true/false only."""
        out: dict[str, Stat] = {}
        for key, item in self.obj(value, where).items():
            if isinstance(item, bool | str | int):
                out[key] = item
            elif isinstance(item, Fraction | float):
                out[key] = float(self.number(item, f"{where}.{key}"))
            else:
                self.fail(f"expected text, a number, true or false at {where}.{key}, found {describe(item)}")
        return out

    def extension(self, value: object, where: str, roles: tuple[str, ...]) -> dict[str, Any]:
        """What Sightline's own export adds to a file (``where``: ``sightline`` in a Universal
        VTT file, ``flags.sightline`` in a Foundry scene): squares by cell role, door squares
        with their states, map properties. Empty when the file has none."""
        ext = self.obj(value, where)
        if not ext:
            return {}
        out: dict[str, Any] = {
            role: frozenset(self.square(sq, f"{where}.{role}[{i}]")
                            for i, sq in enumerate(self.array(self.optional(ext, role, []), f"{where}.{role}")))
            for role in roles
        }
        doors: dict[Square, DoorState] = {}
        for i, item in enumerate(self.array(self.optional(ext, "door_squares", []), f"{where}.door_squares")):
            at = f"{where}.door_squares[{i}]"
            entry = self.obj(item, at)
            doors[self.square(entry.get("square"), f"{at}.square")] = self.door_state(entry.get("state"), f"{at}.state")
        out["door_squares"] = doors
        out["properties"] = self.properties(self.optional(ext, "properties", {}), f"{where}.properties")
        out["raw"] = ext
        return out


__all__ = [
    "CUT_AT", "MAX_OBJECTS", "MAX_STRUCTURE_BYTES", "Fields", "Point", "RawJson",
    "parse_text", "read_json_file", "show",
]
