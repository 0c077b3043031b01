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
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.core.board import Stat
from game.core.errors import MapError, UsageError

#: cell roles a tile can give, in priority order (a tile matching two takes the first)
CELL_ROLES = ("void", "blocked", "door", "impassable")
#: figure property names Sightline itself reads and a map may rename
FIGURE_PROPERTIES = ("side", "name")
COLLISION_MODES = ("read", "ignore")


def _bool_text(value: Stat) -> str:
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
    ``sightline.toml`` and the command line (later ones win)."""

    tiles: dict[str, list[TileSpec]] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)
    collision: bool = True
    ignore_classes: frozenset[str] = frozenset()
    ledge_classes: frozenset[str] = frozenset()
    ledge_properties: frozenset[str] = frozenset()
    preset: str | None = None

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


def load_toml(path: Path) -> dict[str, Any]:
    """A ``sightline.toml`` as data; a one-line MapError when it cannot be read or parsed."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"cannot read {path.name}: {exc}", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"not valid TOML ({exc})", path=str(path)) from None


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
