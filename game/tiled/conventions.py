"""Other games' map conventions: tile roles, figure property names and presets (docs/maps.md).

A cell's role can come from the tiles painted on it. A *spec* names what to look for on a tile:
``wall`` matches a tile whose class is ``wall`` or that has a true bool property ``wall``;
``transparent=false`` matches a tile whose property ``transparent`` has that value. Roles for
cells: ``blocked`` (movement and sight), ``impassable`` (movement only), ``door`` (a door square)
and ``void``. They come from ``[tiles]`` in ``sightline.toml``, ``--tiles ROLE=SPEC,...`` and
presets; figure property names from ``[properties] side = "team"`` / ``--property side=team``.

>>> TileSpec.parse("transparent=false").matches("", {"transparent": False})
True
>>> TileSpec.parse("wall").matches("Wall", {}), TileSpec.parse("collides").matches("", {"collides": True})
(True, True)

This is the one place where names get roles: object classes (``[classes]``, ``--classes``, our own
role names), object names (``[names]``, ``--names``, ``[objects] match = "name"``), layers
(``[layers]``, ``--layers``, and layers named for their role: ``walls``, ``Collision``,
``doors``, ``npcs`` ...), tile classes and properties (optionally on some layers only:
``collides@World``), collision shapes' classes, figure property names. :func:`game.tiled.settings.load_conventions`
merges them for one map; the derivation (:mod:`game.tiled.derive`) asks :class:`Conventions`
what a name means.

>>> layer_name_role("Collisions Layer"), layer_name_role("HouseWalls")
('blocked', None)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from game.core.board import Stat
from game.core.errors import UsageError

#: the roles an object can play; anything else is "other"
ROLES = ("wall", "window", "door", "figure", "blocked", "void")
#: classes of deployment zones (``side`` property): nothing on the board, read by the balance
#: report (docs/balance.md); class name -> role
ZONE_CLASSES = {"deploy": "deploy"}
#: cell roles a tile can give, in priority order (a tile matching two takes the first)
CELL_ROLES = ("void", "blocked", "door", "impassable")
#: the file beside a map that says how to read it
CLASSES_FILE = "sightline.toml"
#: object layers named or classed so: every object without a known class is a wall
WALL_LAYERS = ("walls",)
#: roles a layer can give: every painted cell of a tile layer (``wall`` there means ``blocked``:
#: a wall tile fills its square; ``floor``: plain board squares, their tiles' roles not read), or
#: every object of an object layer that has no role of its own (``ignore``: nothing)
LAYER_ROLES = ("wall", "window", "door", "figure", "blocked", "void", "impassable", "floor", "ignore")
#: the roles a tile layer can take, and what each gives its painted cells
TILE_LAYER_ROLES = {
    "wall": "blocked", "blocked": "blocked", "void": "void", "impassable": "impassable",
    "door": "door", "floor": "floor", "ignore": "floor",
}
#: what a cell empty in every tile layer is: ``void`` (off the board, the default) or ``floor``
#: (a board drawn as walls only: the empty cells are the corridors)
EMPTY_MODES = ("void", "floor")
#: roles an object's name can give (``[names]``, ``--names``)
NAME_ROLES = (*ROLES, "impassable", "ignore")
#: layer names that say what the layer holds, as games name them (``Collision``, ``obstacles``,
#: ``NPCs`` ...): read so with a note in ``sightline check``; ``[layers]`` overrides. A tile layer
#: named for walls is read only when its tiles give no role of their own.
LAYER_NAMES: dict[str, str] = {
    **dict.fromkeys(("walls", "wall"), "wall"),
    **dict.fromkeys(
        ("collision", "collisions", "collide", "collides", "collider", "colliders", "obstacles",
         "obstacle", "solid", "solids", "blocked", "blocking", "blockers"), "blocked"),
    **dict.fromkeys(("doors", "door"), "door"),
    **dict.fromkeys(
        ("npcs", "npc", "enemies", "enemy", "monsters", "mobs", "figures", "units", "characters"),
        "figure"),
    **dict.fromkeys(("items", "pickups", "loot", "collectibles"), "ignore"),
}
#: words a layer's name may add to its role word (``Collision Layer``, ``walls_tiles``)
_LAYER_FILLER = frozenset({"layer", "layers", "tiles", "tile", "objects", "object", "map"})
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
#: role words whose "no" is the role (``passable=false`` blocks; ``transparent=true`` says nothing)
NEGATIVE_WORDS = frozenset({"passable", "walkable", "transparent"})
#: figure property names Sightline itself reads and a map may rename
FIGURE_PROPERTIES = ("side", "name")
COLLISION_MODES = ("read", "ignore")


def toml_line(table: str, key: str, values: Sequence[str]) -> str:
    """One line of ``sightline.toml`` that sets ``[table] key = [values]``, as valid TOML (a dotted
    key; the names quoted and escaped), for hints a designer copies.

    >>> print(toml_line("classes", "wall", ['say "hi"']))
    classes.wall = ["say \\"hi\\""]
    >>> from game.core import safe_toml
    >>> safe_toml.loads(toml_line("tiles", "blocked", ["a/b", "c"]))
    {'tiles': {'blocked': ['a/b', 'c']}}
    """
    items = [json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f") for v in values]
    if key == "empty" and len(items) == 1:  # layers.empty = "floor": one value, not a list
        return f"{table}.{key} = {items[0]}"
    return f"{table}.{key} = [{', '.join(items)}]"


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
    """What a tile role looks for: a class or bool property ``name``, or a property value, on
    every tile layer or only on ``layers`` (case-folded names: ``collides@World|Walls``).

    ``preset`` marks a preset's spec: on a map with a layer the preset names
    (:attr:`Preset.layers`), it matches on those layers only.

    >>> spec = TileSpec.parse("collides=true@World")
    >>> spec.matches("", {"collides": True}, "world"), spec.matches("", {"collides": True}, "Ground")
    (True, False)
    """

    name: str
    value: str | None = None
    layers: frozenset[str] | None = None
    preset: bool = False

    @staticmethod
    def parse(text: str, preset: bool = False) -> TileSpec:
        """``wall``, ``name=value``, either with ``@Layer`` or ``@Layer|Other``."""
        text, at, where = text.partition("@")
        layers = frozenset(n.strip().casefold() for n in where.split("|") if n.strip()) if at else None
        name, sep, value = text.partition("=")
        return TileSpec(name.strip(), value.strip().casefold() if sep else None, layers or None, preset)

    def matches(
        self,
        class_name: str,
        properties: Mapping[str, Stat],
        layer: str | None = "",
        preset_layers: frozenset[str] | None = None,
    ) -> bool:
        """Whether a tile of this class with these properties matches, painted on ``layer``
        (``preset_layers``: the layers a preset's specs are limited to on this map, if any;
        ``layer`` None: on whatever layer)."""
        if layer is not None:
            folded = layer.strip().casefold()
            if self.layers is not None and folded not in self.layers:
                return False
            if self.preset and preset_layers is not None and folded not in preset_layers:
                return False
        key = self.name.casefold()
        props = {k.casefold(): v for k, v in properties.items()}
        if self.value is None:
            return class_name.strip().casefold() == key or (key in props and is_true(props[key]))
        return key in props and _bool_text(props[key]) == self.value

    def __str__(self) -> str:
        """The spec as written: ``name`` or ``name=value``, with ``@layers`` when limited."""
        text = self.name if self.value is None else f"{self.name}={self.value}"
        return text + (f"@{'|'.join(sorted(self.layers))}" if self.layers else "")


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
    #: the tile layers this game usually collides with (case-folded): on a map that has one of
    #: them, the preset's tile specs count on those layers only (a note says so)
    layers: frozenset[str] = frozenset()

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
            "Phaser: tile property collides (on the layer the game collides with, when the map "
            "names one: World, Walls, Collision, Platforms ...), Tile Collision Editor shapes",
            tiles={"blocked": ["collides"]},
            layers=frozenset(
                {"world", "walls", "wall", "collision", "collisions", "collides", "obstacles",
                 "solid", "platforms", "blocked"}
            ),
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


class ObjectRole(NamedTuple):
    """An object's role and where it came from: ``source`` is ``class``, ``name``, ``layer`` (a
    ``[layers]`` mapping or a layer named ``walls``), ``layer-name`` (a layer named for its role,
    :data:`LAYER_NAMES`: reported as a note) or ``none``; ``unknown`` when its class is one nobody
    knows (reported)."""

    role: str
    unknown: bool
    source: str


@dataclass
class Conventions:
    """Everything that says how to read a map made for another game, merged from a preset,
    ``sightline.toml`` and the command line (later ones win): :func:`game.tiled.settings.load_conventions`.

    ``role_of`` maps a case-folded class name to our object role (our own role names always map
    to themselves); ``name_role_of`` an object name to a role (``[names]``), and ``match_names``
    reads object names like classes (``[objects] match = "name"``); ``layer_roles`` a case-folded
    layer name to a layer role (``[layers]``) and ``empty`` what an unpainted cell is (``void``,
    ``floor``, or None: void unless every painted tile layer is walls);
    ``preset_layers`` the layers a preset's tile specs prefer. ``project`` is the Tiled project
    ``sightline.toml`` names, ``files`` the ``sightline.toml`` read (for live reload).
    """

    tiles: dict[str, list[TileSpec]] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)
    collision: bool = True
    ignore_classes: frozenset[str] = frozenset()
    ledge_classes: frozenset[str] = frozenset()
    ledge_properties: frozenset[str] = frozenset()
    preset: str | None = None
    role_of: dict[str, str] = field(default_factory=lambda: {role: role for role in ROLES} | ZONE_CLASSES)
    name_role_of: dict[str, str] = field(default_factory=dict)
    match_names: bool = False
    layer_roles: dict[str, str] = field(default_factory=dict)
    empty: str | None = None
    preset_layers: frozenset[str] = frozenset()
    project: Path | None = None
    files: list[Path] = field(default_factory=list)

    def add_tiles(self, mapping: Mapping[str, Sequence[str]], preset: bool = False) -> None:
        """Add tile specs per role (``preset``: a preset's, limited to its layers on a map that
        has them)."""
        for role, specs in mapping.items():
            known = self.tiles.setdefault(role, [])
            for spec in [specs] if isinstance(specs, str) else specs:
                parsed = TileSpec.parse(spec, preset)
                if parsed not in known:
                    known.append(parsed)

    def tile_role(
        self,
        class_name: str,
        properties: Mapping[str, Stat],
        layer: str | None = "",
        preset_layers: frozenset[str] | None = None,
    ) -> tuple[str, TileSpec] | None:
        """The cell role a tile painted on ``layer`` takes, and the spec that gave it."""
        for role in CELL_ROLES:
            for spec in self.tiles.get(role, ()):
                if spec.matches(class_name, properties, layer, preset_layers):
                    return role, spec
        return None

    def apply_preset(self, preset: Preset, classes: dict[str, list[str]]) -> None:
        """Take a preset's conventions (its classes go into ``classes``)."""
        self.preset = preset.name
        for role, names in preset.classes.items():
            classes.setdefault(role, []).extend(n for n in names if n not in classes.get(role, []))
        self.add_tiles(preset.tiles, preset=True)
        self.properties.update(preset.properties)
        self.ignore_classes |= preset.ignore_classes
        self.preset_layers = preset.layers
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

    def add_names(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Give every object name of ``mapping`` (role -> their names) that role."""
        for ours, theirs in mapping.items():
            for name in [theirs] if isinstance(theirs, str) else theirs:
                self.name_role_of[name.strip().casefold()] = ours

    def add_layers(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Give every layer of ``mapping`` (role -> layer names) that role; ``empty`` sets what
        an unpainted cell is."""
        for ours, theirs in mapping.items():
            names = [theirs] if isinstance(theirs, str) else list(theirs)
            if ours == "empty":
                self.empty = names[-1].strip().casefold() if names else None
                continue
            for name in names:
                self.layer_roles[name.strip().casefold()] = ours

    def object_role(
        self,
        class_name: str,
        layer_labels: Sequence[str],
        properties: Mapping[str, Stat],
        name: str = "",
    ) -> ObjectRole:
        """An object's role (:class:`ObjectRole`): its class's (mapped, or one of ours); a class
        the preset ignores is ``ignored``; else its name's (``[names]``, or any class name when
        ``match_names``); else its layer's (:meth:`object_layer_role`); else ``other``. A
        ``blocked`` object of a preset's ledge class carrying a ledge property is ``impassable``
        (a one-way ledge: figures cannot cross it, sight can).

        >>> conv = Conventions()
        >>> conv.object_role("Wall", (), {}).role, conv.object_role("fence", ("walls",), {}).role
        ('wall', 'wall')
        >>> conv.object_role("fence", ("objects",), {})
        ObjectRole(role='other', unknown=True, source='none')
        >>> Conventions(match_names=True).object_role("", ("Obstacles",), {}, "door").source
        'name'
        """
        folded = class_name.casefold()
        role = self.role_of.get(folded) if class_name else None
        source = "class"
        if role is None and folded in self.ignore_classes:
            role = "ignored"  # the preset says this game's class means nothing for the board
        if role is None and name:
            key = name.strip().casefold()
            role = self.name_role_of.get(key) or (self.role_of.get(key) if self.match_names else None)
            source = "name"
        if role is None:
            role, source = self.object_layer_role(layer_labels)
            if source == "layer-name" and class_name:
                role, source = None, "none"  # a layer's name speaks for its unclassed objects only
        unknown = bool(class_name) and role is None
        if (
            role == "blocked"
            and folded in self.ledge_classes
            and any(p in properties for p in self.ledge_properties)
        ):
            role = "impassable"
        if role == "ignore":
            role = "ignored"
        return ObjectRole(role or "other", unknown, source if role else "none")

    def object_layer_role(self, labels: Sequence[str]) -> tuple[str | None, str]:
        """The role an object layer gives its objects that have none of their own, and where it
        came from: a ``[layers]`` mapping of the layer or a group around it (``layer``), a layer
        named or classed ``walls`` (``layer``), a layer named for its role (``layer-name``,
        :data:`LAYER_NAMES`), else ``(None, "none")``.

        >>> Conventions().object_layer_role(("", "NPCs")), Conventions().object_layer_role(("floor",))
        (('figure', 'layer-name'), (None, 'none'))
        """
        for label in labels:
            role = self.layer_roles.get(label.strip().casefold())
            if role is not None:
                return ("ignore" if role == "floor" else role), "layer"
        if layer_role(labels):
            return "wall", "layer"
        for label in labels:
            guessed = layer_name_role(label)
            if guessed is not None:
                return guessed, "layer-name"
        return None, "none"

    def tile_layer_role(self, name: str) -> tuple[str | None, str]:
        """The cell role a tile layer gives every cell painted on it (:data:`TILE_LAYER_ROLES`:
        ``blocked``, ``void``, ``impassable``, ``door`` or ``floor``) and where it came from:
        ``layer`` (``[layers]``), ``layer-name`` (named for its role, :data:`LAYER_NAMES`; the
        derivation applies it only when the layer's tiles give no role of their own), else
        ``(None, "none")``; a role no tile layer can take (``figure``) is ``("", "layer")``.

        >>> Conventions().tile_layer_role("Collision"), Conventions().tile_layer_role("Ground")
        (('blocked', 'layer-name'), (None, 'none'))
        """
        role = self.layer_roles.get(name.strip().casefold())
        if role is not None:
            return TILE_LAYER_ROLES.get(role, ""), "layer"
        guessed = layer_name_role(name)
        if guessed in TILE_LAYER_ROLES:
            return TILE_LAYER_ROLES[guessed], "layer-name"
        return None, "none"

    def cell_role(
        self,
        class_name: str,
        properties: Mapping[str, Stat],
        layer: str = "",
        preset_layers: frozenset[str] | None = None,
    ) -> str | None:
        """The cell role a tile gives its squares: bool ``void``/``blocked``, else the first mapped
        role (:meth:`tile_role`, on ``layer``)."""
        if is_true(properties.get("void")):
            return "void"
        if is_true(properties.get("blocked")):
            return "blocked"
        found = self.tile_role(class_name, properties, layer, preset_layers)
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


#: words in a tile's class or property name and the cell role they stand for
TILE_WORDS: dict[str, str] = {
    **dict.fromkeys(("wall", "walls", "collides", "collide", "collision", "solid", "obstacle",
                     "block", "blocks", "blocking", "blocked", "opaque", "rock", "tree"), "blocked"),
    **dict.fromkeys(("door", "doors", "gate"), "door"),
    **dict.fromkeys(("water", "pit", "hole", "lava", "impassable", "chasm"), "impassable"),
    "void": "void",
}
#: words in an object's class or name and the role they stand for (``ignore``: nothing)
OBJECT_WORDS: dict[str, str] = {
    **dict.fromkeys(("npc", "npcs", "enemy", "enemies", "player", "players", "monster", "hero",
                     "mob", "unit", "character", "spawn", "actor", "boss", "figure", "zombie",
                     "guard", "soldier", "knight", "goblin", "orc", "skeleton"), "figure"),
    **dict.fromkeys(("door", "doors", "gate"), "door"),
    **dict.fromkeys(("wall", "walls", "fence", "line"), "wall"),
    **dict.fromkeys(("collision", "collider", "obstacle", "obstacles", "solid", "block", "blocker",
                     "rock", "tree", "crate", "box", "barrel", "breakable"), "blocked"),
    **dict.fromkeys(("hole", "pit", "void"), "void"),
    **dict.fromkeys(("item", "items", "pickup", "coin", "chest", "potion", "key", "health", "ammo",
                     "weapon", "shotgun", "gun", "loot", "event", "trigger", "sensor", "warp",
                     "teleport", "sign", "light", "sound", "camera", "exit", "start", "goal"), "ignore"),
}

def words_of(name: str) -> list[str]:
    """The words of a name, split at anything not a letter or digit and at camelCase humps."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^0-9a-z]+", spaced.casefold()) if w]


#: the roles in the order a name's words are tried: the more particular first (a
#: ``collision-line`` is a wall, an ``EnemySpawn`` a figure, a ``health_pickup`` nothing)
WORD_ORDER = ("figure", "door", "wall", "impassable", "void", "blocked", "ignore")
#: words that make a name's role a wall whatever else it says (``collision-line``)
LINE_WORDS = frozenset({"line", "lines", "edge", "edges", "fence"})


def role_of_words(words: Sequence[str], table: Mapping[str, str]) -> str | None:
    """The role the words of a name stand for: of the roles its words name, the most particular
    (:data:`WORD_ORDER`); a line word makes a collision word a wall.

    >>> role_of_words(words_of("collision-line"), OBJECT_WORDS), role_of_words(words_of("EnemySpawn_2"), OBJECT_WORDS)
    ('wall', 'figure')
    """
    roles = {table[w] for w in words if w in table}
    if "blocked" in roles and LINE_WORDS & set(words):
        roles.add("wall")
    return next((role for role in WORD_ORDER if role in roles), None)


def tile_word_role(spec: str) -> str:
    """The cell role a tile spec most likely stands for, by its words (``Water`` impassable,
    ``passable=false`` impassable, ``transparent=false`` blocked, ``collides`` blocked); blocked
    when the words say nothing.

    >>> tile_word_role("Water"), tile_word_role("passable=false"), tile_word_role("kind=pit")
    ('impassable', 'impassable', 'impassable')
    """
    key, _, value = spec.partition("=")
    if key.casefold() in NEGATIVE_WORDS and value.casefold() in ("false", "0", "no"):
        return "blocked" if key.casefold() == "transparent" else "impassable"
    role = role_of_words(words_of(value or key), TILE_WORDS) or role_of_words(words_of(key), TILE_WORDS)
    return role if role in CELL_ROLES else "blocked"


def layer_name_role(name: str) -> str | None:
    """The role a layer's name says it holds (:data:`LAYER_NAMES`), its words ``layer``,
    ``tiles``, ``objects`` aside; None when the name says none.

    >>> layer_name_role("walls_tiles"), layer_name_role("Walls level 2"), layer_name_role("NPC Layer")
    ('wall', None, 'figure')
    """
    words = [w for w in re.split(r"[^0-9a-z]+", name.casefold()) if w]
    words = [w for w in words if w not in _LAYER_FILLER] or words
    return LAYER_NAMES.get(" ".join(words))


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
    ``("class", name)``, ``("bool", name)`` (a bool property that is true; a false one says the
    tile has no such role) or ``("property", name=value)`` (to report them, with the spec that
    reads them).

    >>> unread_names("Water", {"solid": True, "depth": 3, "kind": "pit", "collides": False, "walkable": 0})
    [('class', 'Water'), ('bool', 'solid'), ('property', 'kind=pit'), ('property', 'walkable=0')]
    >>> unread_names("", {"transparent": True, "passable": False})
    [('property', 'passable=false')]
    """
    cls = class_name
    names = [("class", cls)] if cls and (cls.casefold() in ROLE_WORDS or suggest_preset([cls])) else []
    for k, v in properties.items():
        if k in TILE_READ:
            continue
        if isinstance(v, bool):
            if k.casefold() in NEGATIVE_WORDS and not v:
                names.append(("property", f"{k}=false"))
            elif v and k.casefold() in ROLE_WORDS - NEGATIVE_WORDS:
                names.append(("bool", k))
        elif str(v).strip().casefold() in ROLE_WORDS or k.casefold() in ROLE_WORDS:
            names.append(("property", f"{k}={_bool_text(v)}"))
    return names
