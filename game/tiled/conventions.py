"""Other games' map conventions: tile roles, figure property names and presets (docs/maps.md).

A cell's role can come from the tiles painted on it. A *spec* names what to look for on a tile:
``wall`` matches a tile whose class is ``wall`` or that has a true bool property ``wall``;
``transparent=false`` matches a tile whose property ``transparent`` has that value. Roles for
cells: ``blocked`` (movement and sight), ``impassable`` (movement only), ``door`` (a door square)
and ``void``. They come from ``[tiles]`` in ``sightline.toml``, ``--tiles ROLE=SPEC,...`` and
presets; figure property names from ``[properties] side = "team"`` / ``--property side=team``.

>>> parse_tiles_option("blocked=wall,collides;impassable=passable=false")
{'blocked': ['wall', 'collides'], 'impassable': ['passable=false']}
>>> TileSpec.parse("transparent=false").matches("", {"transparent": False})
True
>>> TileSpec.parse("wall").matches("Wall", {}), TileSpec.parse("collides").matches("", {"collides": True})
(True, True)

This is the one place where names get roles: object classes (``[classes]``, ``--classes``, our own
role names), layers named or classed ``walls``, tile classes and properties, collision shapes'
classes, figure property names. :func:`load_conventions` merges them for one map; the derivation
(:mod:`game.tiled.derive`) asks :class:`Conventions` what a name means.

>>> parse_class_mapping("wall=collision-line, blocked=collision")
{'wall': ['collision-line'], 'blocked': ['collision']}
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.core import safe_toml
from game.core.board import Stat
from game.core.errors import MapError, UsageError
from game.tiled.guard import read_bytes

#: the roles an object can play; anything else is "other"
ROLES = ("wall", "window", "door", "figure", "blocked", "void")
#: cell roles a tile can give, in priority order (a tile matching two takes the first)
CELL_ROLES = ("void", "blocked", "door", "impassable")
#: the file beside a map that says how to read it
CLASSES_FILE = "sightline.toml"
#: object layers named or classed so: every object without a known class is a wall
WALL_LAYERS = ("walls",)
#: a figure's side when the map gives none
DEFAULT_SIDE = "neutral"
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
#: figure property names Sightline itself reads and a map may rename
FIGURE_PROPERTIES = ("side", "name")
COLLISION_MODES = ("read", "ignore")


def _bool_text(value: Stat) -> str:
    """A property value as matching text: ``true``/``false`` for bools, else folded text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().casefold()


def is_true(value: Stat | None) -> bool:
    """Whether a property value means yes: bool true, a non-zero number, or "true"/"1"/"yes"."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    return isinstance(value, str) and value.strip().lower() in ("true", "1", "yes")


@dataclass(frozen=True)
class TileSpec:
    """What a tile role looks for: a class or bool property ``name``, or a property value."""

    name: str
    value: str | None = None

    @staticmethod
    def parse(text: str) -> TileSpec:
        """``wall`` or ``name=value``."""
        name, sep, value = text.partition("=")
        return TileSpec(name.strip(), value.strip().casefold() if sep else None)

    def matches(self, class_name: str, properties: Mapping[str, Stat]) -> bool:
        """Whether a tile of this class with these properties matches."""
        key = self.name.casefold()
        props = {k.casefold(): v for k, v in properties.items()}
        if self.value is None:
            return class_name.strip().casefold() == key or (key in props and is_true(props[key]))
        return key in props and _bool_text(props[key]) == self.value

    def __str__(self) -> str:
        """The spec as written: ``name`` or ``name=value``."""
        return self.name if self.value is None else f"{self.name}={self.value}"


@dataclass(frozen=True)
class Preset:
    """The conventions of a real project."""

    name: str
    about: str
    classes: Mapping[str, Sequence[str]] = field(default_factory=dict)
    tiles: Mapping[str, Sequence[str]] = field(default_factory=dict)
    properties: Mapping[str, str] = field(default_factory=dict)
    ignore_classes: frozenset[str] = frozenset()
    #: objects of these (their) classes carrying one of ``ledge_properties`` are one-way ledges:
    #: movement-only (impassable), not sight
    ledge_properties: frozenset[str] = frozenset()

    def names(self) -> frozenset[str]:
        """Every class and property name this preset reads (case-folded), to suggest it."""
        out = {n.casefold() for names in self.classes.values() for n in names}
        out |= {TileSpec.parse(s).name.casefold() for specs in self.tiles.values() for s in specs}
        out |= {n.casefold() for n in self.properties.values()} | set(self.ignore_classes)
        return frozenset(out)


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "tuxemon",
            "Tuxemon: collision rectangles, collision-line walls, one-way ledges, event objects",
            classes={"blocked": ["collision"], "wall": ["collision-line"]},
            ignore_classes=frozenset({"event", "interact"}),
            ledge_properties=frozenset({"enter_from", "exit_from"}),
        ),
        Preset(
            "phaser",
            "Phaser: tile property collides, Tile Collision Editor shapes",
            tiles={"blocked": ["collides"]},
        ),
        Preset(
            "roguelike",
            "roguelikes: tile class wall and door, passable/transparent properties",
            tiles={
                "blocked": ["wall", "transparent=false"],
                "door": ["door"],
                "impassable": ["passable=false"],
            },
        ),
    )
}


def get_preset(name: str, where: str = "--preset") -> Preset:
    """A preset by name (UsageError naming the known ones)."""
    preset = PRESETS.get(name.strip().casefold())
    if preset is None:
        raise UsageError(f"unknown preset {name!r} in {where} (use {', '.join(PRESETS)})")
    return preset


def suggest_preset(names: Sequence[str]) -> str | None:
    """The preset that reads most of these class or property names, if any.

    >>> suggest_preset(["collision-line", "event"]), suggest_preset(["lava"])
    ('tuxemon', None)
    """
    wanted = {n.casefold() for n in names}
    best = max(PRESETS.values(), key=lambda p: len(wanted & p.names()))
    return best.name if wanted & best.names() else None


def parse_tiles_option(text: str, where: str = "--tiles") -> dict[str, list[str]]:
    """Read ``ROLE=SPEC,SPEC;ROLE=SPEC`` (a spec may itself be ``name=value``)."""
    out: dict[str, list[str]] = {}
    role: str | None = None
    for part in text.replace(";", ",").split(","):
        item = part.strip()
        if not item:
            continue
        head, sep, rest = item.partition("=")
        if sep and head.strip().lower() in CELL_ROLES:
            role, item = head.strip().lower(), rest.strip()
        elif role is None:
            raise UsageError(
                f"{where} wants role=spec pairs, e.g. blocked=wall,collides (got {item!r}; "
                f"roles: {', '.join(CELL_ROLES)})"
            )
        if not item:
            raise UsageError(f"{where}: role {role} names no tile class or property")
        out.setdefault(role, []).append(item)
    return out


def parse_property_option(text: str, where: str = "--property") -> dict[str, str]:
    """Read ``ours=theirs`` figure property names, e.g. ``side=team``."""
    out: dict[str, str] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        ours, sep, theirs = part.partition("=")
        ours, theirs = ours.strip(), theirs.strip()
        if not sep or not ours or not theirs:
            raise UsageError(f"{where} wants ours=theirs, e.g. side=team (got {part.strip()!r})")
        if ours not in FIGURE_PROPERTIES:
            raise UsageError(
                f"{where}: Sightline reads the figure properties {', '.join(FIGURE_PROPERTIES)}, "
                f"not {ours!r} (rulesets read their own stats)"
            )
        out[ours] = theirs
    return out


@dataclass
class Conventions:
    """Everything that says how to read a map made for another game, merged from a preset,
    ``sightline.toml`` and the command line (later ones win): :func:`load_conventions`.

    ``role_of`` maps a case-folded class name to our object role (our own role names always map
    to themselves); ``project`` is the Tiled project ``sightline.toml`` names, ``files`` the
    ``sightline.toml`` read (for live reload).
    """

    tiles: dict[str, list[TileSpec]] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)
    collision: bool = True
    ignore_classes: frozenset[str] = frozenset()
    ledge_classes: frozenset[str] = frozenset()
    ledge_properties: frozenset[str] = frozenset()
    preset: str | None = None
    role_of: dict[str, str] = field(default_factory=lambda: {role: role for role in ROLES})
    project: Path | None = None
    files: list[Path] = field(default_factory=list)

    def add_tiles(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Add tile specs per role."""
        for role, specs in mapping.items():
            known = self.tiles.setdefault(role, [])
            for spec in [specs] if isinstance(specs, str) else specs:
                parsed = TileSpec.parse(spec)
                if parsed not in known:
                    known.append(parsed)

    def tile_role(self, class_name: str, properties: Mapping[str, Stat]) -> tuple[str, TileSpec] | None:
        """The cell role a tile takes, and the spec that gave it."""
        for role in CELL_ROLES:
            for spec in self.tiles.get(role, ()):
                if spec.matches(class_name, properties):
                    return role, spec
        return None

    def apply_preset(self, preset: Preset, classes: dict[str, list[str]]) -> None:
        """Take a preset's conventions (its classes go into ``classes``)."""
        self.preset = preset.name
        for role, names in preset.classes.items():
            classes.setdefault(role, []).extend(n for n in names if n not in classes.get(role, []))
        self.add_tiles(preset.tiles)
        self.properties.update(preset.properties)
        self.ignore_classes |= preset.ignore_classes
        if preset.ledge_properties:
            self.ledge_classes |= frozenset(n.casefold() for n in preset.classes.get("blocked", ()))
            self.ledge_properties |= preset.ledge_properties

    def add_classes(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Give every class name of ``mapping`` (ours -> theirs) its role; our role names keep theirs."""
        for ours, theirs in mapping.items():
            for name in [theirs] if isinstance(theirs, str) else theirs:
                self.role_of[name.strip().casefold()] = ours
        for role in ROLES:
            self.role_of[role] = role

    def object_role(
        self, class_name: str, layer_labels: Sequence[str], properties: Mapping[str, Stat]
    ) -> tuple[str, bool]:
        """An object's role, and whether its class is one nobody knows (to report).

        Its class's role (mapped, or one of ours); a class the preset ignores is ``ignored``;
        else its layer's role (:func:`layer_role`), else ``other``. A ``blocked`` object of a
        preset's ledge class carrying a ledge property is ``impassable`` (a one-way ledge: figures
        cannot cross it, sight can).

        >>> conv = Conventions()
        >>> conv.object_role("Wall", (), {}), conv.object_role("fence", ("walls",), {})
        (('wall', False), ('wall', False))
        >>> conv.object_role("fence", ("objects",), {})
        ('other', True)
        """
        folded = class_name.casefold()
        role = self.role_of.get(folded) if class_name else None
        if role is None and folded in self.ignore_classes:
            role = "ignored"  # the preset says this game's class means nothing for the board
        unknown = False
        if role is None:
            role = layer_role(layer_labels)
            unknown = bool(class_name) and role is None
        if (
            role == "blocked"
            and folded in self.ledge_classes
            and any(p in properties for p in self.ledge_properties)
        ):
            role = "impassable"
        return role or "other", unknown

    def cell_role(self, class_name: str, properties: Mapping[str, Stat]) -> str | None:
        """The cell role a tile gives its squares: bool ``void``/``blocked``, else the first mapped role."""
        if is_true(properties.get("void")):
            return "void"
        if is_true(properties.get("blocked")):
            return "blocked"
        found = self.tile_role(class_name, properties)
        return found[0] if found else None

    def shape_role(self, class_name: str, properties: Mapping[str, Stat]) -> str | None:
        """The cell role a collision shape's class gives (a tile spec, else an object role that
        is a cell role: ``blocked``, ``void``, ``door``); None for an unclassed shape."""
        if not class_name:
            return None
        mapped = self.tile_role(class_name, properties)
        if mapped:
            return mapped[0]
        role = self.role_of.get(class_name.casefold())
        return role if role in ("blocked", "void", "door") else None

    def figure_fields(
        self, name: str, properties: Mapping[str, Stat]
    ) -> tuple[str, str, dict[str, Stat]]:
        """A figure's name, side and stats from its object's name and properties, the map's own
        property names (``[properties] side = "team"``) read as ours.

        >>> Conventions(properties={"side": "team"}).figure_fields("Ann", {"team": "red", "life": 3})
        ('Ann', 'red', {'life': 3})
        """
        props = dict(properties)
        for ours, theirs in self.properties.items():
            if theirs in props and ours not in props:
                props[ours] = props.pop(theirs)
        if "name" in self.properties and isinstance(props.get("name"), str):
            name = str(props["name"]) or name
        stats = {k: v for k, v in props.items() if k not in ("side", "name")}
        side = str(props.get("side", "")).strip() or DEFAULT_SIDE
        return name, side, stats


def layer_role(labels: Sequence[str]) -> str | None:
    """The role a layer gives its objects without a known class: named or classed ``walls`` (the
    layer or a group around it) -> ``wall``.

    >>> layer_role(("Walls", "")), layer_role(("floor",))
    ('wall', None)
    """
    for label in labels:
        if label.strip().casefold() in WALL_LAYERS:
            return "wall"
    return None


def unread_names(class_name: str, properties: Mapping[str, Stat]) -> list[tuple[str, str]]:
    """The class and properties of a tile that look like a role nothing reads, as
    ``("class", name)`` / ``("property", name or name=value)`` (to report them).

    >>> unread_names("Water", {"solid": True, "depth": 3, "kind": "pit"})
    [('class', 'Water'), ('property', 'solid'), ('property', 'kind=pit')]
    """
    cls = class_name
    names = [("class", cls)] if cls and (cls.casefold() in ROLE_WORDS or suggest_preset([cls])) else []
    for k, v in properties.items():
        if k in TILE_READ:
            continue
        if str(v).strip().casefold() in ROLE_WORDS and not isinstance(v, bool):
            names.append(("property", f"{k}={str(v).strip()}"))
        elif k.casefold() in ROLE_WORDS:
            names.append(("property", k))
    return names


# --- which roles the map's classes have --------------------------------------------------


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
    """``WHERE maps class 'x' to two roles: a and b``."""
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
    """The ``[classes]`` table of a ``sightline.toml``, checked (known roles, one role a class)."""
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


def load_conventions(
    map_path: Path,
    *,
    classes: Mapping[str, Sequence[str]] | None = None,
    tiles: Mapping[str, Sequence[str]] | None = None,
    properties: Mapping[str, str] | None = None,
    preset: str | None = None,
    collision: bool | None = None,
) -> Conventions:
    r"""The conventions for one map: a preset (``preset``, else ``sightline.toml``'s), then
    ``sightline.toml`` beside the map, then the caller's (the command line's) ``classes``,
    ``tiles``, ``properties`` and ``collision``, each winning over the ones before.

    Our own role names always keep their role; within one source a class may have only one role
    (:func:`role_conflict`). Unknown roles and conflicts are one-line :class:`MapError`\ s.
    """
    conv = Conventions()
    toml = map_path.parent / CLASSES_FILE
    has_toml = os.path.lexists(toml)  # a pipe or a device of that name is refused, not skipped
    sources: list[Mapping[str, Sequence[str]]] = []
    config: dict[str, Any] = {}
    file_classes: dict[str, list[str]] = {}
    if has_toml:
        config = read_config(toml)
        file_classes = _read_classes_file(toml)
        conv.files.append(toml.resolve())
    conv.project = config.get("project")
    chosen = get_preset(preset) if preset else config.get("preset")
    if chosen is not None:
        preset_classes: dict[str, list[str]] = {}
        conv.apply_preset(chosen, preset_classes)
        sources.append(preset_classes)
    if has_toml:
        sources.append(file_classes)
        conv.add_tiles(config.get("tiles", {}))
        conv.properties.update(config.get("properties", {}))
        conv.collision = config.get("collision", True)
    _check_mapping(str(map_path), classes or {}, tiles or {})
    conv.add_tiles(tiles or {})
    conv.properties.update(properties or {})
    if collision is not None:
        conv.collision = collision
    for mapping in [*sources, classes or {}]:
        conv.add_classes(mapping)
    return conv


def _check_mapping(
    shown: str, classes: Mapping[str, Sequence[str]], tiles: Mapping[str, Sequence[str]]
) -> None:
    """Refuse unknown roles and a class given two roles in the caller's mappings."""
    for role in tiles:
        if role not in CELL_ROLES:
            raise MapError(
                f"unknown cell role {role!r} in the tile mapping", path=shown,
                hint=f"use {', '.join(CELL_ROLES)}",
            )
    for ours in classes:
        if ours not in ROLES:
            raise MapError(
                f"unknown role {ours!r} in the class mapping", path=shown, hint=f"use {', '.join(ROLES)}"
            )
    conflict = role_conflict(classes)
    if conflict:
        raise MapError(
            _conflict_message(conflict, "the class mapping"), path=shown, hint="give each class one role"
        )


def table_names(
    path: Path, table: str, role: str, value: object, roles: Sequence[str], what: str, more: str = ""
) -> list[str]:
    """The names one role of a ``sightline.toml`` table lists (``[classes]``, ``[tiles]``), checked:
    a known role, given one name or a list of names (empty names dropped)."""
    if role not in roles:
        raise MapError(
            f"unknown role {role!r} in [{table}]", path=str(path), hint=f"use {', '.join(roles)}{more}"
        )
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MapError(f"[{table}] {role} must be {what} or a list of them", path=str(path))
    return [n for n in names if n.strip()]


#: the largest ``sightline.toml`` read (a few hundred bytes is usual)
MAX_TOML_BYTES = 1024 * 1024


def load_toml(path: Path) -> dict[str, Any]:
    """A ``sightline.toml`` as data: a regular file of at most :data:`MAX_TOML_BYTES` (a pipe or
    a device is refused unread) holding TOML; a one-line MapError in our words when it is not."""
    data = read_bytes(path, "settings", limit=MAX_TOML_BYTES,
                      hint=f"{CLASSES_FILE} must be a text file; remove what has its name")
    try:
        return safe_toml.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MapError("the file is not UTF-8 text", path=str(path), hint="save it again as UTF-8") from None
    except safe_toml.TomlError as exc:
        raise MapError(f"not valid TOML: {exc}", path=str(path), hint="fix it, or remove the file") from None


def read_config(path: Path) -> dict[str, Any]:
    """The ``[tiles]``, ``[properties]``, ``preset`` and ``project`` of a ``sightline.toml``, checked."""
    data = load_toml(path)
    out: dict[str, Any] = {}
    preset = data.get("preset")
    if preset is not None:
        if not isinstance(preset, str):
            raise MapError("preset must be a name", path=str(path), hint=f"use {', '.join(PRESETS)}")
        try:
            out["preset"] = get_preset(preset, "preset =")
        except UsageError as exc:
            raise MapError(str(exc), path=str(path)) from None
    tiles = data.get("tiles", {})
    if not isinstance(tiles, dict):
        raise MapError("[tiles] must be a table", path=str(path), hint='e.g. blocked = ["wall"]')
    specs: dict[str, list[str]] = {}
    for role, value in tiles.items():
        if role == "collision":
            if value not in COLLISION_MODES:
                raise MapError(
                    f"[tiles] collision = {value!r}", path=str(path), hint='use "read" or "ignore"'
                )
            out["collision"] = value == "read"
            continue
        specs[role] = table_names(
            path, "tiles", role, value, CELL_ROLES, "a spec", ' (or collision = "ignore")'
        )
    out["tiles"] = specs
    props = data.get("properties", {})
    if not isinstance(props, dict) or not all(isinstance(v, str) for v in props.values()):
        raise MapError(
            "[properties] must map our names to theirs", path=str(path), hint='e.g. side = "team"'
        )
    for ours in props:
        if ours not in FIGURE_PROPERTIES:
            raise MapError(
                f"[properties] {ours}: Sightline reads only {', '.join(FIGURE_PROPERTIES)}",
                path=str(path),
            )
    out["properties"] = dict(props)
    project = data.get("project")
    if project is not None:  # the Tiled project holding the map's enums (game/tiled/project.py)
        if not isinstance(project, str) or not project.strip():
            raise MapError("project must name a .tiled-project file", path=str(path),
                           hint='e.g. project = "../game.tiled-project"')
        out["project"] = (path.parent / project.strip()).resolve()
    return out


__all__ = [
    "CELL_ROLES",
    "CLASSES_FILE",
    "DEFAULT_SIDE",
    "ROLES",
    "ROLE_WORDS",
    "TILE_READ",
    "WALL_LAYERS",
    "layer_role",
    "load_conventions",
    "parse_class_mapping",
    "role_conflict",
    "unread_names",
    "Conventions",
    "PRESETS",
    "Preset",
    "TileSpec",
    "get_preset",
    "load_toml",
    "is_true",
    "parse_property_option",
    "parse_tiles_option",
    "read_config",
    "suggest_preset",
    "table_names",
]
