"""Universal VTT files (``.dd2vtt``, ``.uvtt``, ``.df2vtt``): read, type-check, describe in grid units.

The format is Dungeondraft's (also written by DungeonFog, Arkenforge, Dungeon Alchemist and
others; docs/vtt.md lists them and what Sightline reads): one JSON object with

* ``format`` (a number: 0.2, 0.3, 1.0 ...);
* ``resolution``: ``map_origin`` {x, y} and ``map_size`` {x, y} in squares, ``pixels_per_grid``;
* ``line_of_sight``: wall polylines, lists of {x, y} points in squares (absolute: the board's
  top-left is ``map_origin``);
* ``objects_line_of_sight``: outlines of obstacles (furniture, pillars, trees): Sightline makes
  every square whose centre lies inside one **blocked terrain**;
* ``portals``: doors and windows, each ``position``, ``bounds`` (two points), ``rotation``
  (radians), ``closed``, ``freestanding``. Dungeondraft's ``closed`` is its "block light" switch:
  a portal that blocks light is a closed **door**, one that lets light through a **window**
  (blocks movement, not sight);
* ``lights`` and ``environment``: read and checked, not used (line of sight ignores lighting);
* ``image``: the board's picture, base64 PNG (or WebP/JPEG).

A file Sightline wrote (``sightline export``) also carries a ``sightline`` object with what the
format cannot say (door states, void squares, figures, map properties) and a ``sightline`` tag
on each portal; other tools ignore both.

:func:`read_uvtt` checks every field (one-line :class:`~game.core.errors.MapError` naming the
field, e.g. ``portals[2].bounds[1].x must be a number, not text``) and returns a
:class:`UvttFile` in the file's terms; :meth:`UvttFile.scene` describes it in grid units
(:class:`~game.tiled.vtt_scene.VttScene`).

>>> import json
>>> raw = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0},
...     "map_size": {"x": 3, "y": 2}, "pixels_per_grid": 64},
...     "line_of_sight": [[{"x": 1, "y": 0}, {"x": 1, "y": 2}]], "portals": []}
>>> uvtt = parse_uvtt(json.dumps(raw).encode(), "room.dd2vtt")
>>> uvtt.size, uvtt.line_of_sight
((3, 2), (((Fraction(1, 1), Fraction(0, 1)), (Fraction(1, 1), Fraction(2, 1))),))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from game.core.board import DoorState, Stat
from game.core.findings import Finding, Severity
from game.core.words import plural
from game.tiled.guard import MAX_CELLS, MAX_IMAGE_PIXELS
from game.tiled.vtt_json import Fields, Point, RawJson, parse_text, read_json_file, show
from game.tiled.vtt_scene import (
    EmbeddedPicture,
    VttArea,
    VttDoor,
    VttFigure,
    VttPath,
    VttScene,
)

#: the file endings of Universal VTT files
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
#: the keys of the format that Sightline reads (anything else is reported, not silently dropped)
KNOWN_KEYS = frozenset({
    "format", "resolution", "line_of_sight", "objects_line_of_sight", "portals", "lights",
    "environment", "image", "sightline",
})
#: the most points a file's walls, outlines and portals may hold together
MAX_POINTS = 200_000
#: the most squares a point may lie off the map, in units of the map's larger side (or 16)
FAR = 1
HINT = "export the map again from your map maker"
#: the extension's cell roles (squares only Sightline's own export lists)
EXTENSION_CELLS = ("void", "impassable")


@dataclass(frozen=True)
class UvttPortal:
    """One portal as written. ``kind``/``state`` come from Sightline's own tag, when present."""

    index: int
    position: Point
    bounds: tuple[Point, Point] | None
    rotation: Fraction
    closed: bool
    freestanding: bool
    kind: str | None = None
    state: DoorState | None = None


@dataclass(frozen=True)
class UvttLight:
    """One light as written (read and checked; Sightline's line of sight does not use light)."""

    index: int
    position: Point
    range: Fraction
    intensity: Fraction
    color: str
    shadows: bool


@dataclass(frozen=True)
class UvttFile:
    """A Universal VTT file in its own terms; points are relative to ``map_origin`` (in squares).

    ``size`` is the board in whole squares (``map_size`` rounded up); ``extension`` the checked
    ``sightline`` object of a file Sightline wrote (empty otherwise).
    """

    path: Path
    format: float
    origin: Point
    map_size: Point
    size: tuple[int, int]
    pixels_per_grid: int
    line_of_sight: tuple[tuple[Point, ...], ...]
    objects_line_of_sight: tuple[tuple[Point, ...], ...]
    portals: tuple[UvttPortal, ...]
    lights: tuple[UvttLight, ...]
    environment: Mapping[str, Any]
    image: EmbeddedPicture | None
    extension: Mapping[str, Any]
    unknown_keys: tuple[str, ...]
    findings: tuple[Finding, ...]

    def scene(self) -> VttScene:
        """The map in grid units: walls, doors and windows, obstacle outlines, what the extension
        adds (see the module docstring for how portals are read)."""
        return _Describer(self).scene()


def is_uvtt_file(path: Path) -> bool:
    """Whether a file is a Universal VTT file by its name (``.dd2vtt``, ``.uvtt``, ``.df2vtt``)."""
    return path.suffix.lower() in UVTT_SUFFIXES


def read_uvtt(path: str | Path) -> UvttFile:
    """Read and check a Universal VTT file; a one-line MapError for anything unusable."""
    path = Path(path)
    raw = read_json_file(path, "Universal VTT")
    return _Reader(path, raw).read()


def parse_uvtt(data: bytes, shown: str) -> UvttFile:
    """:func:`read_uvtt` for bytes already in memory (``shown`` names them in messages)."""
    return _Reader(Path(shown), parse_text(data, shown)).read()


class _Reader:
    """Checks one file field by field (the place of each value in its messages)."""

    def __init__(self, path: Path, raw: RawJson) -> None:
        self.path = path
        self.raw = raw
        self.f = Fields(str(path), HINT)
        self.findings: list[Finding] = []
        self.points = 0
        self.far = 16
        self.size: tuple[int, int] = (1, 1)
        self.origin: Point = (Fraction(0), Fraction(0))

    def warn(self, code: str, message: str, hint: str | None = None) -> None:
        self.findings.append(Finding(code, Severity.WARNING, message, None, None, hint))

    def read(self) -> UvttFile:
        doc, f = self.raw.doc, self.f
        if "resolution" not in doc:
            f.fail("no resolution: this is not a Universal VTT file",
                   hint="export the map as Universal VTT (.dd2vtt, .uvtt)")
        fmt = self.format(doc.get("format"))
        origin, map_size, ppg = self.resolution(f.obj(doc["resolution"], "resolution"))
        los = self.paths(doc, "line_of_sight")
        objects = self.paths(doc, "objects_line_of_sight")
        portals = tuple(
            self.portal(item, f"portals[{i}]", i)
            for i, item in enumerate(f.array(f.optional(doc, "portals", []), "portals"))
        )
        lights = tuple(
            self.light(item, f"lights[{i}]", i)
            for i, item in enumerate(f.array(f.optional(doc, "lights", []), "lights"))
        )
        environment = self.environment(f.optional(doc, "environment", {}))
        image = self.image(doc.get("image"), map_size, ppg)
        extension = self.extension(f.optional(doc, "sightline", {}))
        unknown = tuple(sorted(key for key in doc if key not in KNOWN_KEYS))
        if unknown:
            self.warn("vtt-unread", f"the file's {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} "
                      "not part of the Universal VTT format Sightline reads; ignored")
        if lights:
            self.warn("vtt-lighting-ignored",
                      f"{plural(len(lights), 'light')} (and the environment) are read but not used: "
                      "Sightline's line of sight does not depend on light")
        return UvttFile(self.path, fmt, origin, map_size, self.size, ppg, los, objects, portals,
                        lights, environment, image, extension, unknown, tuple(self.findings))

    def format(self, value: object) -> float:
        if value is None:
            self.f.fail("no format number: this is not a Universal VTT file")
        if isinstance(value, str):  # a few writers put the number in quotes
            try:
                value = float(value)
            except ValueError:
                self.f.fail(f"format must be a number, not {value!r}")
        number = self.f.number(value, "format")
        if number <= 0:
            self.f.fail(f"format must be a positive number, not {show(number)}")
        return float(number)

    def resolution(self, res: Mapping[str, Any]) -> tuple[Point, Point, int]:
        f = self.f
        for key in ("map_size", "pixels_per_grid"):
            if key not in res:
                f.fail(f"resolution has no {key}")
        origin = f.point(res["map_origin"], "resolution.map_origin") if "map_origin" in res else (
            Fraction(0), Fraction(0))
        size = f.point(res["map_size"], "resolution.map_size")
        if size[0] <= 0 or size[1] <= 0:
            f.fail(f"resolution.map_size is {_fmt(size)}: a map needs at least one square")
        width, height = math.ceil(size[0]), math.ceil(size[1])
        if width * height > MAX_CELLS:
            f.fail(f"the map is {width}x{height} squares, over the limit of {MAX_CELLS:,} squares")
        if (width, height) != size:
            self.warn("vtt-partial-square", f"resolution.map_size {_fmt(size)} is not whole squares: "
                      f"the board is {width}x{height}")
        ppg = f.integer(res["pixels_per_grid"], "resolution.pixels_per_grid")
        if not 1 <= ppg <= 4096:
            f.fail(f"resolution.pixels_per_grid is {ppg}; it must be between 1 and 4096")
        self.origin, self.size = origin, (width, height)
        self.far = FAR * max(width, height, 16)
        return origin, size, ppg

    def point(self, value: object, where: str) -> Point:
        """A point of the map, relative to the origin; refused when far outside the map."""
        x, y = self.f.point(value, where)
        if self.origin[0] or self.origin[1]:
            x, y = x - self.origin[0], y - self.origin[1]
        w, h, far = self.size[0], self.size[1], self.far
        if not (-far <= x <= w + far and -far <= y <= h + far):
            self.f.fail(
                f"{where} is ({show(x)}, {show(y)}) squares from the map's corner, far "
                f"outside the {w}x{h} map", hint="coordinates are in squares, not pixels",
            )
        return x, y

    def count(self, n: int, where: str) -> None:
        self.points += n
        if self.points > MAX_POINTS:
            self.f.fail(f"the file holds more than {MAX_POINTS:,} points (at {where}), over "
                        "Sightline's limit", hint="simplify the walls (fewer cave points)")

    def paths(self, doc: Mapping[str, Any], key: str) -> tuple[tuple[Point, ...], ...]:
        f = self.f
        out = []
        for i, path in enumerate(f.array(f.optional(doc, key, []), key)):
            where = f"{key}[{i}]"
            items = f.array(path, where)
            self.count(len(items), where)
            out.append(tuple(self.point(p, f"{where}[{j}]") for j, p in enumerate(items)))
        return tuple(out)

    def portal(self, value: object, where: str, index: int) -> UvttPortal:
        f = self.f
        item = f.obj(value, where)
        position = self.point(item["position"], f"{where}.position") if "position" in item else None
        bounds: tuple[Point, Point] | None = None
        if item.get("bounds") is not None:
            pair = f.array(item["bounds"], f"{where}.bounds")
            if len(pair) != 2:
                f.fail(f"{where}.bounds has {len(pair)} points; a portal's bounds are two points")
            self.count(2, where)
            bounds = (self.point(pair[0], f"{where}.bounds[0]"), self.point(pair[1], f"{where}.bounds[1]"))
        if position is None:
            if bounds is None:
                f.fail(f"{where} has neither a position nor bounds")
            position = ((bounds[0][0] + bounds[1][0]) / 2, (bounds[0][1] + bounds[1][1]) / 2)
        rotation = f.number(f.optional(item, "rotation", 0), f"{where}.rotation")
        closed = f.boolean(f.optional(item, "closed", True), f"{where}.closed")
        freestanding = f.boolean(f.optional(item, "freestanding", False), f"{where}.freestanding")
        kind, state = self.portal_tag(f.optional(item, "sightline", {}), f"{where}.sightline")
        return UvttPortal(index, position, bounds, rotation, closed, freestanding, kind, state)

    def portal_tag(self, value: object, where: str) -> tuple[str | None, DoorState | None]:
        tag = self.f.obj(value, where)
        if not tag:
            return None, None
        kind = self.f.string(tag.get("kind"), f"{where}.kind")
        if kind not in ("door", "window"):
            self.f.fail(f"{where}.kind is {kind!r}; it must be door or window")
        state = None
        if kind == "door":
            state = self.f.door_state(tag.get("state", "closed"), f"{where}.state")
        return kind, state

    def light(self, value: object, where: str, index: int) -> UvttLight:
        f = self.f
        item = f.obj(value, where)
        position = self.point(item.get("position"), f"{where}.position")
        number = {key: f.number(f.optional(item, key, 0), f"{where}.{key}") for key in ("range", "intensity")}
        color = f.string(f.optional(item, "color", "ffffffff"), f"{where}.color")
        if not _is_hex_colour(color):
            f.fail(f"{where}.color is {color!r}; a colour is 6 or 8 hex digits (AARRGGBB)")
        shadows = f.boolean(f.optional(item, "shadows", True), f"{where}.shadows")
        return UvttLight(index, position, number["range"], number["intensity"], color, shadows)

    def environment(self, value: object) -> Mapping[str, Any]:
        env = self.f.obj(value, "environment")
        if "baked_lighting" in env:
            self.f.boolean(env["baked_lighting"], "environment.baked_lighting")
        if env.get("ambient_light") is not None:
            colour = self.f.string(env["ambient_light"], "environment.ambient_light")
            if not _is_hex_colour(colour):
                self.f.fail(f"environment.ambient_light is {colour!r}; a colour is 6 or 8 hex digits")
        return env

    def image(self, value: object, size: Point, ppg: int) -> EmbeddedPicture | None:
        if value is None:
            return None
        text = self.raw.cut.get("image")
        if text is None:
            text = self.f.string(value, "image").encode("ascii", "replace")
        if not text:
            return None
        picture = EmbeddedPicture.sniff(text)
        if picture.kind == "unknown":
            self.warn("vtt-picture-unreadable", "the embedded picture is not a PNG, WebP or JPEG "
                      "image; the board is drawn without it", HINT)
            return None
        if picture.width * picture.height > MAX_IMAGE_PIXELS:
            self.warn("vtt-picture-too-big", f"the embedded picture is {picture.width}x{picture.height} "
                      f"pixels, over the limit of {MAX_IMAGE_PIXELS // 2**20} megapixels; the board is "
                      "drawn without it", "export with a lower grid resolution (pixels per grid)")
            return None
        expected = (round(size[0] * ppg), round(size[1] * ppg))
        if picture.width and (abs(picture.width - expected[0]) > 2 or abs(picture.height - expected[1]) > 2):
            self.warn("vtt-picture-size", f"the picture is {picture.width}x{picture.height} pixels; "
                      f"{_fmt(size)} squares at {ppg} pixels per grid make {expected[0]}x{expected[1]}: "
                      "it is stretched onto the board")
        return picture

    def extension(self, value: object) -> Mapping[str, Any]:
        """The ``sightline`` object of a file Sightline wrote, checked (empty when absent)."""
        f = self.f
        out = f.extension(value, "sightline", EXTENSION_CELLS)
        if out:
            out["figures"] = tuple(
                self.figure(item, f"sightline.figures[{i}]")
                for i, item in enumerate(f.array(f.optional(out["raw"], "figures", []), "sightline.figures"))
            )
        return out

    def figure(self, value: object, where: str) -> tuple[str, str, Point, dict[str, Stat]]:
        f = self.f
        item = f.obj(value, where)
        name = f.string(f.optional(item, "name", ""), f"{where}.name")
        side = f.string(f.optional(item, "side", ""), f"{where}.side")
        centre = self.point(item.get("centre"), f"{where}.centre")
        stats = f.properties(f.optional(item, "stats", {}), f"{where}.stats")
        return name, side, centre, stats


def _fmt(point: Point) -> str:
    return f"{show(point[0])}x{show(point[1])}"


def _is_hex_colour(text: str) -> bool:
    """``rrggbb`` or ``aarrggbb`` (a leading ``#`` allowed).

    >>> _is_hex_colour("ffeccd8b"), _is_hex_colour("#fff"), _is_hex_colour("zz0000")
    (True, False, False)
    """
    digits = text[1:] if text.startswith("#") else text
    return len(digits) in (6, 8) and all(c in "0123456789abcdefABCDEF" for c in digits)


class _Describer:
    """A checked file in grid units (:meth:`UvttFile.scene`)."""

    def __init__(self, uvtt: UvttFile) -> None:
        self.uvtt = uvtt
        self.next_id = 0

    def ident(self) -> int:
        self.next_id += 1
        return self.next_id

    def scene(self) -> VttScene:
        u = self.uvtt
        paths = [VttPath(self.ident(), f"line_of_sight[{i}]", "wall", pts)
                 for i, pts in enumerate(u.line_of_sight) if len(pts) >= 2]
        areas = [VttArea(self.ident(), f"objects_line_of_sight[{i}]", "blocked", pts)
                 for i, pts in enumerate(u.objects_line_of_sight) if len(pts) >= 3]
        findings = list(u.findings)
        doors: list[VttDoor] = []
        for portal in u.portals:
            where = f"portals[{portal.index}]"
            if portal.bounds is None:
                findings.append(Finding("vtt-portal-unplaced", Severity.WARNING,
                                        f"{where} has no bounds, so no extent; ignored", None, None, HINT))
                continue
            a, b = portal.bounds
            kind = portal.kind or ("door" if portal.closed else "window")
            if kind == "window":
                paths.append(VttPath(self.ident(), where, "window", (a, b)))
            else:
                doors.append(VttDoor(self.ident(), where, a, b, portal.state or DoorState.CLOSED))
        ext = u.extension
        figures = [VttFigure(self.ident(), f"sightline.figures[{i}]", name, side, centre, stats)
                   for i, (name, side, centre, stats) in enumerate(ext.get("figures", ()))]
        cells = {role: ext[role] for role in EXTENSION_CELLS if ext.get(role)}
        return VttScene(
            u.path, "uvtt", u.size[0], u.size[1], tuple(paths), tuple(doors), tuple(areas),
            tuple(figures), cells, dict(ext.get("door_squares", {})),
            dict(ext.get("properties", {})), u.image, u.pixels_per_grid, tuple(findings),
            (Fraction(0), Fraction(0), u.map_size[0], u.map_size[1]),
        )


__all__ = [
    "KNOWN_KEYS", "MAX_POINTS", "UVTT_SUFFIXES", "UvttFile", "UvttLight", "UvttPortal",
    "is_uvtt_file", "parse_uvtt", "read_uvtt",
]
