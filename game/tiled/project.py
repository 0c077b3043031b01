"""Enum names from the map's Tiled project (``.tiled-project``): int-stored enums read as names.

Tiled keeps custom property types in the project file, not in the map: ``propertyTypes`` is a
list of types, and an enum there is ``{"type": "enum", "name", "values": [...], "storageType":
"int" | "string", "valuesAsFlags": bool}``. A property of an enum type stored as ``int`` is saved
in the map as ``<property type="int" propertytype="DoorState" value="1"/>``: the value is the
index into ``values`` or, with ``valuesAsFlags``, the bits of the chosen values (bit ``i`` for
``values[i]``, at most 31 of them). Without the project the map holds only the number.

This module finds the project (``project = "…"`` in ``sightline.toml``, else the nearest
``*.tiled-project`` in the map's folder or a folder above it) and rewrites such properties in the
map's element tree into the strings Tiled itself writes for string-stored enums: the value's
name, or the chosen names joined by commas in the enum's order (:meth:`EnumType.names` gives
them as a set). A number that is no value of its enum is a one-line :class:`MapError`.

>>> doors = EnumType("DoorState", ("closed", "open", "locked"))
>>> doors.text(1)
'open'
>>> sorted(EnumType("Traits", ("flying", "large", "undead"), flags=True).names(5))
['flying', 'undead']
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from game.core.errors import MapError
from game.core.findings import Finding, Severity
from game.core.safe_json import Field, JsonError, loads
from game.tiled.guard import read_bytes

__all__ = ["PROJECT_SUFFIX", "EnumType", "ProjectTypes", "find_project", "read_enums", "read_project", "resolve_enums"]

PROJECT_SUFFIX = ".tiled-project"
#: how many folders above the map are searched for a project
SEARCH_DEPTH = 8
#: Tiled stores flags in a 32-bit signed integer
MAX_FLAGS = 31


@dataclass(frozen=True)
class EnumType:
    """One enum of a Tiled project."""

    name: str
    values: tuple[str, ...]
    flags: bool = False
    storage: str = "string"

    def names(self, number: int) -> str | frozenset[str]:
        """The value an int-stored number means: a name, or (flags) the set of chosen names.

        ValueError, saying why, when the number is no value of this enum.

        >>> EnumType("D", ("closed", "open")).names(2)
        Traceback (most recent call last):
        ...
        ValueError: 2 is not a value of the enum D (0 closed, 1 open)
        """
        if not self.flags:
            if 0 <= number < len(self.values):
                return self.values[number]
            raise ValueError(f"{number} is not a value of the enum {self.name} ({self.listing()})")
        if number < 0 or number >> len(self.values):
            raise ValueError(
                f"{number} sets a flag the enum {self.name} does not have (its flags: {self.listing()})"
            )
        return frozenset(v for i, v in enumerate(self.values) if number >> i & 1)

    def text(self, number: int) -> str:
        """:meth:`names` as the string Tiled writes for a string-stored enum (flags: "a,b")."""
        found = self.names(number)
        if isinstance(found, str):
            return found
        return ",".join(v for v in self.values if v in found)

    def listing(self) -> str:
        """The values with their numbers: ``0 closed, 1 open`` (flags: ``1 a, 2 b, 4 c``)."""
        return ", ".join(f"{1 << i if self.flags else i} {v}" for i, v in enumerate(self.values)) or "no values"


def find_project(map_path: Path, setting: Path | None = None) -> tuple[Path | None, list[Finding]]:
    """The project that holds the map's types: ``setting`` (``sightline.toml``'s ``project``)
    when given, else the only ``*.tiled-project`` of the nearest folder that has one, from the
    map's own folder up. Several in one folder: none, with a warning saying how to choose; one
    that is not a regular file (a pipe, a device, a folder): none, with a warning saying so."""
    if setting is not None:
        return setting, []
    folder = map_path.resolve().parent
    for _ in range(SEARCH_DEPTH + 1):
        try:
            found = sorted(folder.glob(f"*{PROJECT_SUFFIX}"))
        except OSError:
            found = []
        if len(found) == 1 and not found[0].is_file():  # a pipe would block, a device never ends
            return None, [Finding(
                "tiled-project-unreadable", Severity.WARNING,
                f"Tiled project {found[0]} is not a regular file (a folder, pipe or device), so it is "
                "not read: enum numbers are not read as names",
                hint="put the .tiled-project file Tiled saves there, or remove what has its name",
            )]
        if len(found) == 1:
            return found[0], []
        if found:
            names = ", ".join(p.name for p in found)
            return None, [Finding(
                "tiled-project-several", Severity.WARNING,
                f"{len(found)} Tiled projects in {folder} ({names}): enum numbers are not read as names",
                hint="name the map's project in sightline.toml beside the map: "
                f"project = {json.dumps(found[0].name, ensure_ascii=False)}",
            )]
        if folder.parent == folder:
            break
        folder = folder.parent
    return None, []


@dataclass(frozen=True)
class ProjectTypes:
    """What Sightline takes from a project: its enums, and for each class the enum (or class)
    type of its members (a JSON map keeps only a class property's member values)."""

    enums: dict[str, EnumType]
    classes: dict[str, dict[str, str]]


def read_project(path: Path) -> ProjectTypes:
    """The enums and class member types of a ``.tiled-project``; a one-line :class:`MapError`
    when the file is missing, not a Tiled project, or holds a field of the wrong type (named by
    its place: ``propertyTypes[2].values[0]``)."""
    enums: dict[str, EnumType] = {}
    classes: dict[str, dict[str, str]] = {}
    try:
        for entry in _property_types(path):
            kind = entry.key("type").text(default="")
            if kind == "class":
                classes.setdefault(entry.key("name").text(), _class_members(entry))
            elif kind == "enum":
                enum = _enum(entry, path)
                enums.setdefault(enum.name, enum)
    except JsonError as exc:
        raise MapError(str(exc), path=str(path),
                       hint="open it in Tiled and save it again") from None
    return ProjectTypes(enums, classes)


def _property_types(path: Path) -> list[Field]:
    """The ``propertyTypes`` list of a project file, each type an object (one-line MapErrors for
    a broken file; JsonError for a field of the wrong type)."""
    data = read_bytes(path, "Tiled project")
    try:
        doc = loads(data)
    except JsonError as exc:
        raise MapError(f"the Tiled project is not valid JSON: {exc}",
                       path=str(path), hint="open it in Tiled and save it again") from None
    if not isinstance(doc, dict):
        raise MapError("not a Tiled project (no JSON object)", path=str(path))
    types = Field(doc).key("propertyTypes").items(default=())
    for entry in types:
        entry.object()
    return types


def _class_members(entry: Field) -> dict[str, str]:
    """A class type's members that name their type: member name -> type name."""
    out: dict[str, str] = {}
    for member in entry.key("members").items(default=()):
        declared = member.key("propertyType").text(default=None)
        if declared is not None:
            out[member.key("name").text()] = declared
    return out


def _enum(entry: Field, path: Path) -> EnumType:
    """An enum type of the project, checked (a list of names; at most 31 flags)."""
    name = entry.key("name").text()
    values = [value.text() for value in entry.key("values").items(default=())]
    flags = entry.key("valuesAsFlags").flag(default=False)
    if flags and len(values) > MAX_FLAGS:
        raise MapError(f"the enum {name[:40]} has {len(values)} flags; Tiled stores at most {MAX_FLAGS}",
                       path=str(path))
    storage = entry.key("storageType").choice(("int", "string"), default="string")
    return EnumType(name, tuple(values), flags, storage)


def read_enums(path: Path) -> dict[str, EnumType]:
    """The enums of a ``.tiled-project`` (see :func:`read_project`)."""
    return read_project(path).enums


def _typed_members(prop: ET.Element, types: ProjectTypes) -> None:
    """Give a class property's members the types its class declares (JSON maps omit them).
    Called in document order, so a nested class member is typed before its own members."""
    members = types.classes.get(prop.get("propertytype") or "")
    if not members:
        return
    for child in prop.findall("properties/property"):
        declared = members.get(child.get("name") or "")
        if declared is not None and not child.get("propertytype"):
            child.set("propertytype", declared)


def _owned_properties(elem: ET.Element, where: tuple[str, int | None]) -> Iterator[
    tuple[ET.Element, tuple[str, int | None]]
]:
    """Every ``<property>`` under ``elem`` with the words that say whose it is."""
    for child in elem:
        if child.tag == "property":
            yield child, where
            yield from _owned_properties(child, where)  # a class property's members
        elif child.tag == "properties":
            yield from _owned_properties(child, where)
        elif child.tag == "object":
            oid = child.get("id")
            yield from _owned_properties(child, ("", int(oid) if oid and oid.strip().isdigit() else None))
        elif child.tag in ("layer", "objectgroup", "imagelayer", "group"):
            yield from _owned_properties(child, (f"layer {child.get('name', '?')!r}: ", None))
        elif child.tag == "tileset":
            yield from _owned_properties(child, (f"tileset {child.get('name', '?')!r}: ", None))
        elif child.tag == "tile":
            yield from _owned_properties(child, (f"{where[0]}tile {child.get('id', '?')}: ", None))
        else:
            yield from _owned_properties(child, where)


def resolve_enums(root: ET.Element, map_path: Path, shown: str, setting: Path | None = None) -> tuple[
    list[Path], list[Finding]
]:
    """Rewrite the int-stored enum properties of a map's tree into their names (see the module);
    returns the project read (a dependency, for live reload) and any findings.

    The project is only looked for when the map has such a property; an enum the project does not
    define, or no project at all, leaves the number (the readers then say what it costs)."""
    if not any(p.get("propertytype") and p.get("type") in ("int", "class") for p in root.iter("property")):
        return [], []
    project, findings = find_project(map_path, setting)
    if project is None:
        return [], findings
    types = read_project(project)
    enums = types.enums
    for prop in root.iter("property"):
        if prop.get("type") == "class":
            _typed_members(prop, types)
    for prop, (what, object_id) in _owned_properties(root, ("", None)):
        enum = enums.get(prop.get("propertytype") or "")
        if enum is None or prop.get("type") != "int":
            continue
        raw = (prop.get("value") or prop.text or "0").strip()
        try:
            number = int(raw)
        except ValueError:
            continue  # not a number at all: read as the text it is
        try:
            text = enum.text(number)
        except ValueError as exc:
            raise MapError(
                f"{what}property {prop.get('name')!r}: {exc}", path=shown, object_id=object_id,
                hint=f"in Tiled, choose one of the enum's values again; {project.name} defines them",
            ) from None
        prop.set("type", "string")
        prop.set("value", text)
    return [project.resolve()], findings

