"""``sightline check --suggest``: the ``sightline.toml`` that reads a map best, from its records.

:func:`suggest` reads a map's records once (:mod:`game.tiled.read`) and gathers what they say
about the game they were made for: layers named for a role (``walls``, ``Collision``, ``NPCs``),
tile classes and properties that sound like a role (``collides``, ``solid``, class ``wall``),
object classes and names that do (``enemy``, ``door``, ``PlayerSpawn``), a preset that reads
them. From that evidence it builds a few candidate mappings (with and without the preset,
``empty = "floor"`` for a board drawn as walls only, each tile layer as the walls when nothing
else blocks), derives the board under each (:func:`game.tiled.derive.derive_map`) and keeps the
one whose board is most plausible: fewest sanity findings (:mod:`game.tiled.sanity`), then
fewest errors, then fewest names left unread, then the simplest mapping. How sure it is follows
from how the best board looks and how far the runner-up is behind.

The words a name is made of say what it stands for (:func:`~game.tiled.conventions.role_of_words`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from game.core.findings import Finding, Severity
from game.core.words import plural, plural_of
from game.tiled.conventions import (
    CLASSES_FILE,
    OBJECT_WORDS,
    PRESETS,
    ROLES,
    Conventions,
    layer_name_role,
    role_of_words,
    suggest_preset,
    tile_word_role,
    toml_line,
    unread_names,
    words_of,
)
from game.tiled.derive import LoadedMap, derive_map
from game.tiled.guard import GID_MASK
from game.tiled.records import MapRecords
from game.tiled.sanity import SANITY_CODES, standable

__all__ = ["Suggestion", "conventions_of", "suggest"]

@dataclass
class Suggestion:
    """What ``check --suggest`` proposes for one map: the ``sightline.toml`` table, how sure it
    is (``sure``, ``likely``, ``a guess``), why, and the findings of the board it reads."""

    path: Path
    table: dict[str, Any]
    confidence: str
    reasons: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    before: list[Finding] = field(default_factory=list)

    def toml(self) -> str:
        """The suggestion as the text of a ``sightline.toml`` (comments say how sure and why)."""
        lines = [f"# {CLASSES_FILE} suggested by `sightline check --suggest` for {self.path.name}",
                 f"# how sure: {self.confidence}"]
        lines += [f"# - {reason}" for reason in self.reasons]
        if "preset" in self.table:
            lines.append(f'preset = "{self.table["preset"]}"')
        for table in ("layers", "tiles", "classes", "names"):
            entries = self.table.get(table)
            if not entries:
                continue
            lines.append(f"[{table}]")
            for key, values in entries.items():
                text = toml_line(table, key, values).split(" = ", 1)[1]
                lines.append(f"{key} = {text}")
        if self.table.get("match_names"):
            lines += ["[objects]", 'match = "name"']
        for ours, theirs in self.table.get("properties", {}).items():
            lines += ["[properties]", f"{ours} = {json.dumps(theirs, ensure_ascii=False)}"]
        if len(lines) == 2 + len(self.reasons):
            lines.append("# nothing to map: Sightline reads this map as it is")
        return "\n".join(lines) + "\n"


def suggest(path: Path) -> Suggestion:
    """The ``sightline.toml`` that reads the map at ``path`` best (see the module); a one-line
    :class:`~game.core.errors.MapError` when the map cannot be read at all."""
    from game.tiled.reader import read_records  # the reader imports this package's modules

    records = read_records(path)
    evidence = _Evidence(records)
    base = derive_map(records, conventions_of({}))
    scored = []
    for table in evidence.candidates():
        loaded = derive_map(records, conventions_of(table))
        scored.append((_score(loaded, table), _signature(loaded), table))
    scored.sort(key=lambda item: item[0])
    best_score, best_board, best = scored[0]
    runner = next((score for score, board, _ in scored[1:] if board != best_board), None)
    loaded = derive_map(records, conventions_of(best))
    confidence = _confidence(best_score, runner)
    return Suggestion(path, best, confidence, evidence.reasons(best, loaded), loaded.findings, base.findings)


def _signature(loaded: LoadedMap) -> tuple[object, ...]:
    """What a reading makes of the board, to tell different readings from the same one twice."""
    board = loaded.board
    return (board.walls, board.windows, board.blocked, board.void, board.impassable,
            frozenset(board.door_squares.items()), frozenset(board.doors),
            frozenset(f.square for f in board.figures.values()))


def conventions_of(table: Mapping[str, Any]) -> Conventions:
    """The conventions a ``sightline.toml`` table says (no file read): ``preset``, ``classes``,
    ``tiles``, ``layers``, ``names``, ``match_names``."""
    conv = Conventions()
    classes: dict[str, list[str]] = {}
    if table.get("preset"):
        conv.apply_preset(PRESETS[table["preset"]], classes)
    conv.add_tiles(table.get("tiles", {}))
    conv.add_layers(table.get("layers", {}))
    conv.add_names(table.get("names", {}))
    conv.properties.update(table.get("properties", {}))
    conv.match_names = bool(table.get("match_names"))
    for mapping in (classes, table.get("classes", {})):
        conv.add_classes(mapping)
    return conv


#: derived roles that agree with the role an object's words name
AGREES = {
    "figure": {"figure"}, "door": {"door"}, "wall": {"wall", "blocked", "window", "impassable"},
    "blocked": {"wall", "blocked", "window", "impassable"}, "impassable": {"impassable", "blocked"},
    "void": {"void", "blocked"}, "ignore": {"other", "ignored"},
}
Score = tuple[int, int, int, int, float, int]


def _score(loaded: LoadedMap, table: Mapping[str, Any]) -> Score:
    """How implausible a reading is (lower is better): sanity findings, errors, objects read
    against what their class or name says, names nobody reads, how little of the board a figure
    can stand on, how big the mapping is."""
    findings = loaded.findings
    sanity = sum(1 for f in findings if f.code in SANITY_CODES)
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    unread = sum(1 for f in findings if f.code in ("unknown-class", "tile-unread", "collision-rectangle")
                 and f.severity is Severity.WARNING)
    against = 0
    for obj in loaded.objects.values():
        said = role_of_words(words_of(obj.class_name or obj.name), OBJECT_WORDS)
        if said is not None and obj.role not in AGREES[said]:
            against += 1
    board = loaded.board
    share = standable(board) / max(1, board.width * board.height)
    size = sum(len(v) if isinstance(v, Mapping | list) else 1 for v in table.values())
    return sanity, errors, against, unread, -round(min(share, 0.6), 1), size


def _confidence(best: Score, runner: Score | None) -> str:
    """``sure`` when the board is plausible and every other reading of it is not; ``likely`` when
    it is plausible; ``a guess`` when even the best reading has sanity findings."""
    if best[0]:
        return "a guess (even this reading leaves the board implausible: see the findings)"
    if runner is None or runner[:4] > best[:4]:
        return "sure (the board looks right, and every other reading tried looks wrong)"
    return "likely (the board looks right; another reading tried looks no worse, so check it)"


#: properties games keep a figure's side in, as Sightline's ``side``
SIDE_WORDS = ("team", "faction", "party", "allegiance", "alliance")


class _Evidence:
    """What a map's records say about the game they were made for."""

    def __init__(self, records: MapRecords) -> None:
        """Gather the evidence of ``records``."""
        self.records = records
        self.painted = [(layer.name, layer.gids) for layer in records.tile_layers
                        if bool((layer.gids & GID_MASK).any())]
        self.total = records.width * records.height
        self.tiles = self.tile_evidence()
        self.classes, self.names, self.object_layers = self.object_evidence()
        self.side = self.side_evidence()
        self.tile_layers = {name: role for name, _ in self.painted
                            if (role := _tile_layer_role(name)) is not None}

    def tile_evidence(self) -> dict[str, list[str]]:
        """Tile classes and properties that sound like a role, as ``[tiles]`` specs."""
        out: dict[str, list[str]] = {}
        used = {g for _, gids in self.painted for g in np.unique(gids & GID_MASK).tolist() if g}
        for gid in sorted(used):
            tile = self.records.tiles.get(gid)
            if tile is None:
                continue
            for _, name in unread_names(tile.class_name, tile.properties):
                role = tile_word_role(name)
                if name not in out.setdefault(role, []):
                    out[role].append(name)
        return {role: names for role, names in out.items() if names}

    def object_evidence(self) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, str]]:
        """Object classes and names that sound like a role (``[classes]``, ``[names]``) and the
        object layers named for one (``[layers]``)."""
        classes: dict[str, list[str]] = {}
        names: dict[str, list[str]] = {}
        layers: dict[str, str] = {}
        shapes: dict[str, list[bool]] = {}
        for obj in self.records.objects:
            if obj.class_name and obj.class_name.casefold() not in ROLES:
                role = role_of_words(words_of(obj.class_name), OBJECT_WORDS)
                if role and role not in ("ignore",) and obj.class_name not in classes.setdefault(role, []):
                    classes[role].append(obj.class_name)
            elif not obj.class_name and obj.name:
                role = role_of_words(words_of(obj.name), OBJECT_WORDS)
                if role:
                    key = obj.name.strip()
                    shapes.setdefault(key, []).append(
                        obj.shape in ("rectangle", "tile") and min(obj.width, obj.height) >= Fraction(1, 2))
                    if key not in names.setdefault(role, []):
                        names[role].append(key)
            guessed = layer_name_role(obj.layer)
            if guessed is not None and not obj.class_name:
                layers[obj.layer] = guessed
        # a "wall" drawn as boxes is a collision box: blocked squares, not an outline
        for key in list(names.get("wall", [])):
            if shapes.get(key) and sum(shapes[key]) * 2 > len(shapes[key]):
                names["wall"].remove(key)
                names.setdefault("blocked", []).append(key)
        return ({r: v for r, v in classes.items() if v}, {r: v for r, v in names.items() if v}, layers)

    def side_evidence(self) -> str | None:
        """The property the map's figures keep their side in, when it is not ``side``: ``team``,
        ``faction`` ... on the objects whose class or name says figure."""
        said = [obj for obj in self.records.objects
                if role_of_words(words_of(obj.class_name or obj.name), OBJECT_WORDS) == "figure"
                or obj.class_name.casefold() == "figure"]
        if not said or any("side" in obj.properties for obj in said):
            return None
        for name in SIDE_WORDS:
            if any(name in {k.casefold() for k in obj.properties} for obj in said):
                return next(k for obj in said for k in obj.properties if k.casefold() == name)
        return None

    def candidates(self) -> list[dict[str, Any]]:
        """The mappings worth deriving: the evidence with and without a preset, the empty cells
        as floor or void, each painted tile layer as the walls."""
        base: dict[str, Any] = {}
        layers: dict[str, list[str]] = {}
        for name, role in {**self.object_layers, **self.tile_layers}.items():
            if name not in self.named_layers():
                layers.setdefault(role, []).append(name)
        if layers:
            base["layers"] = layers
        if self.tiles:
            base["tiles"] = self.tiles
        if self.classes:
            base["classes"] = self.classes
        if self.names:
            base["names"] = self.names
        if self.side:
            base["properties"] = {"side": self.side}
        out = [dict(base), {}]
        words = [n.partition("=")[0] for names in self.tiles.values() for n in names]
        words += [n for names in self.classes.values() for n in names]
        preset = suggest_preset(words)
        if preset:
            out.append({**base, "preset": preset})
            out.append({"preset": preset})
        for name, _ in self.painted:
            out.append(_with_layer(base, "blocked", name))
            out.append(_with_layer(_with_layer(base, "blocked", name), "empty", "floor"))
        out.append(_with_layer(base, "empty", "floor"))
        unique: list[dict[str, Any]] = []
        for table in out:
            if table not in unique:
                unique.append(table)
        return unique

    def named_layers(self) -> set[str]:
        """The object layers whose every object a ``[names]`` entry already covers."""
        covered = {n.casefold() for names in self.names.values() for n in names}
        by_layer: dict[str, list[bool]] = {}
        for obj in self.records.objects:
            by_layer.setdefault(obj.layer, []).append(obj.name.strip().casefold() in covered)
        return {layer for layer, flags in by_layer.items() if flags and all(flags)}

    def reasons(self, table: Mapping[str, Any], loaded: LoadedMap) -> list[str]:
        """Why the suggestion maps what it maps, one line each, and what the board it reads is."""
        out: list[str] = []
        for role, names in table.get("layers", {}).items():
            if role == "empty":
                out.append("the cells no tile layer paints are the floor (a board drawn as walls only)")
            else:
                out.append(f"layer{'s' if len(names) > 1 else ''} {', '.join(map(repr, names))}: {role}")
        for role, specs in table.get("tiles", {}).items():
            out.append(f"tiles with {', '.join(specs)}: {role}")
        for role, names in table.get("classes", {}).items():
            out.append(f"object class{'es' if len(names) > 1 else ''} {', '.join(map(repr, names))}: {role}")
        for role, names in table.get("names", {}).items():
            out.append(f"objects named {', '.join(map(repr, names))}: {role}")
        if table.get("preset"):
            out.append(f"the {table['preset']} preset reads this game's names")
        for ours, theirs in table.get("properties", {}).items():
            out.append(f"figures keep their {ours} in the property {theirs!r}")
        board = loaded.board
        out.append(f"the board: {board.width}x{board.height}, {standable(board)} {plural_of(board.grid.noun)} to stand on, "
                   f"{len(board.walls)} walls, {len(board.blocked)} blocked, {len(board.void)} void, "
                   f"{plural(len(board.figures), 'figure')}, {plural(len(board.doors) + len(board.door_squares), 'door')}")
        return out


def _tile_layer_role(name: str) -> str | None:
    """The role a tile layer's name says (a layer of walls is ``blocked``)."""
    role = layer_name_role(name)
    return {"wall": "blocked", "blocked": "blocked", "door": "door"}.get(role or "")


def _with_layer(table: Mapping[str, Any], role: str, name: str) -> dict[str, Any]:
    """A copy of a table with one more ``[layers]`` entry."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in table.items()}
    layers = {k: list(v) for k, v in out.get("layers", {}).items()}
    if role == "empty":
        layers["empty"] = [name]
    elif name not in layers.get(role, []):
        for names in layers.values():
            if name in names:
                names.remove(name)
        layers.setdefault(role, []).append(name)
    out["layers"] = {k: v for k, v in layers.items() if v}
    return out

