"""Where a map's conventions come from (docs/maps.md): the ``sightline.toml`` beside the map, a
preset, and the command line's options (``--classes``, ``--tiles``, ``--property``, ``--layers``,
``--names``), merged into one :class:`~game.tiled.conventions.Conventions` by
:func:`load_conventions`. Every mistake in them is one line naming the file, table or option.

>>> parse_tiles_option("blocked=wall,collides;impassable=passable=false")
{'blocked': ['wall', 'collides'], 'impassable': ['passable=false']}
>>> parse_layers_option("blocked=walls|Collision, empty=floor")
{'blocked': ['walls', 'Collision'], 'empty': ['floor']}
>>> parse_class_mapping("wall=collision-line, blocked=collision")
{'wall': ['collision-line'], 'blocked': ['collision']}
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from game.core import safe_toml
from game.core.errors import MapError, UsageError
from game.tiled.conventions import (
    CELL_ROLES,
    CLASSES_FILE,
    COLLISION_MODES,
    DEFAULT_SIDE,
    EMPTY_MODES,
    FIGURE_PROPERTIES,
    LAYER_NAMES,
    LAYER_ROLES,
    NAME_ROLES,
    OBJECT_WORDS,
    PRESETS,
    ROLE_WORDS,
    ROLES,
    TILE_LAYER_ROLES,
    TILE_READ,
    TILE_WORDS,
    WALL_LAYERS,
    Conventions,
    ObjectRole,
    Preset,
    TileSpec,
    get_preset,
    is_true,
    layer_name_role,
    layer_role,
    role_of_words,
    suggest_preset,
    tile_word_role,
    toml_line,
    unread_names,
    words_of,
)
from game.tiled.guard import read_bytes


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


def parse_role_pairs(
    text: str, where: str, roles: Sequence[str], what: str, example: str
) -> dict[str, list[str]]:
    """Read ``ROLE=NAME[|NAME],ROLE=NAME`` (commas or semicolons between pairs) for ``--classes``,
    ``--layers`` and ``--names``: a known role each (a role may come again), names kept as written
    (spaces inside are fine), each once ignoring case.

    >>> parse_role_pairs("figure=player|zombie; blocked=wall", "--names", NAME_ROLES, "name", "figure=enemy")
    {'figure': ['player', 'zombie'], 'blocked': ['wall']}
    """
    out: dict[str, list[str]] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        ours, sep, theirs = part.partition("=")
        ours = ours.strip().lower()
        names = [n.strip() for n in theirs.split("|") if n.strip()]
        if not sep or not names:
            raise UsageError(f"{where} wants role={what} pairs, e.g. {example} (got {part.strip()!r})")
        if ours not in roles:
            raise UsageError(f"unknown role {ours!r} in {where} (use {', '.join(roles)})")
        known = out.setdefault(ours, [])
        known += [n for n in names if n.casefold() not in {k.casefold() for k in known}]
    return out


def parse_layers_option(text: str, where: str = "--layers") -> dict[str, list[str]]:
    """Read ``--layers ROLE=LAYER[|LAYER],...`` (and ``empty=floor``): layer roles
    (:data:`LAYER_ROLES`).

    >>> parse_layers_option("empty=walls")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: --layers: empty is void or floor, not 'walls'
    """
    out = parse_role_pairs(text, where, (*LAYER_ROLES, "empty"), "layer", "blocked=walls,empty=floor")
    for mode in out.get("empty", ()):
        if mode.casefold() not in EMPTY_MODES:
            raise UsageError(f"{where}: empty is void or floor, not {mode!r}")
    return out


def parse_names_option(text: str, where: str = "--names") -> dict[str, list[str]]:
    """Read ``--names ROLE=NAME[|NAME],...``: object names that give a role (:data:`NAME_ROLES`)."""
    return parse_role_pairs(text, where, NAME_ROLES, "name", "figure=enemy|player,wall=wall")


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
    out = parse_role_pairs(text, "--classes", ROLES, "class", "wall=collision-line")
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
    layers: Mapping[str, Sequence[str]] | None = None,
    names: Mapping[str, Sequence[str]] | None = None,
) -> Conventions:
    r"""The conventions for one map: a preset (``preset``, else ``sightline.toml``'s), then
    ``sightline.toml`` beside the map, then the caller's (the command line's) ``classes``,
    ``tiles``, ``properties``, ``collision``, ``layers`` (layer roles, ``empty``) and ``names``
    (object names' roles), each winning over the ones before.

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
        conv.add_layers(config.get("layers", {}))
        conv.add_names(config.get("names", {}))
        conv.match_names = config.get("match_names", False)
    _check_mapping(str(map_path), classes or {}, tiles or {})
    conv.add_tiles(tiles or {})
    conv.properties.update(properties or {})
    conv.add_layers(layers or {})
    conv.add_names(names or {})
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
    """The ``[tiles]``, ``[properties]``, ``[layers]``, ``[names]``, ``[objects]``, ``preset`` and
    ``project`` of a ``sightline.toml``, checked."""
    data = load_toml(path)
    out: dict[str, Any] = _read_layers_and_names(path, data)
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


def _read_layers_and_names(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """``[layers]`` (roles of layers, ``empty = "floor"``), ``[names]`` (roles of object names)
    and ``[objects] match = "name"`` of a ``sightline.toml``, checked."""
    out: dict[str, Any] = {}
    for table, roles, what in (("layers", (*LAYER_ROLES, "empty"), "a layer name"),
                               ("names", NAME_ROLES, "an object name")):
        value = data.get(table, {})
        if not isinstance(value, dict):
            raise MapError(f"[{table}] must be a table", path=str(path),
                           hint='e.g. blocked = ["walls"]' if table == "layers" else 'e.g. figure = ["enemy"]')
        out[table] = {role: table_names(path, table, role, names, roles, what) for role, names in value.items()}
    for mode in out["layers"].get("empty", ()):
        if mode.casefold() not in EMPTY_MODES:
            raise MapError(f"[layers] empty = {mode!r}", path=str(path), hint='use "void" or "floor"')
    objects = data.get("objects", {})
    match = objects.get("match", "class") if isinstance(objects, dict) else None
    if match not in ("class", "name"):
        raise MapError("[objects] match must be \"class\" or \"name\"", path=str(path),
                       hint='match = "name" reads object names like classes')
    out["match_names"] = match == "name"
    return out


__all__ = [
    "CELL_ROLES",
    "EMPTY_MODES",
    "LAYER_NAMES",
    "LAYER_ROLES",
    "NAME_ROLES",
    "TILE_LAYER_ROLES",
    "ObjectRole",
    "layer_name_role",
    "parse_layers_option",
    "parse_names_option",
    "parse_role_pairs",
    "toml_line",
    "tile_word_role",
    "OBJECT_WORDS",
    "TILE_WORDS",
    "role_of_words",
    "words_of",
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
