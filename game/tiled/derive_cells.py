"""The squares' roles and the tile walls, derived from a map's tile layers (records in, sets out).

A cell empty in every tile layer is void (when the map has any painted cell); a tile's role comes
from the conventions (:meth:`~game.tiled.conventions.Conventions.cell_role`: bool ``void`` /
``blocked``, else a mapped class or property); its ``walls`` property and its collision shapes
(:func:`~game.tiled.geometry.border_sides`) put walls on its cells' edges, turned as Tiled draws a
flipped tile. Hidden layers count like visible ones; a layer's offset moves its cells by whole
squares. Part of :func:`game.tiled.derive.derive_map`; what it meets becomes findings.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from game.core.board import DoorState, Edge, Square, Stat
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural, plural_of
from game.tiled.conventions import (
    CLASSES_FILE,
    Conventions,
    is_true,
    suggest_preset,
    tile_word_role,
    toml_line,
    unread_names,
)
from game.tiled.geometry import axis_aligned, border_sides, shape_area, side_edges
from game.tiled.guard import GID_FLAGS, GID_MASK
from game.tiled.records import CollisionShape, MapRecords, TileLayerRecord, TileRecord, tileset_of

__all__ = ["Cells", "derive_cells", "door_state", "turn_sides"]

#: Tiled's flip bits on a gid: horizontal, vertical, diagonal (anti-diagonal transpose)
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
SIDES = ("N", "E", "S", "W")


@dataclass
class Cells:
    """What the tile layers put on the board, and how much the collision shapes gave."""

    void: set[Square] = field(default_factory=set)
    blocked: set[Square] = field(default_factory=set)
    walls: set[Edge] = field(default_factory=set)
    impassable: set[Square] = field(default_factory=set)
    doors: dict[Square, DoorState] = field(default_factory=dict)
    #: cells no tile layer paints that are read as floor (``empty = "floor"``, or a board drawn as
    #: walls only); 0 when they are void
    empty_floor: int = 0
    collision_cells: int = 0
    collision_edges: int = 0


@dataclass(frozen=True)
class _Collision:
    """What a tile's collision shapes give every cell painted with it."""

    role: str | None
    sides: tuple[str, ...]


def derive_cells(records: MapRecords, conventions: Conventions, findings: list[Finding]) -> Cells:
    """Void, blocked, impassable and door squares and tile walls from the records' tile layers;
    findings (layer offsets, hidden layers, collision shapes, tile walls, door states, tiles
    nobody reads) are appended to ``findings``."""
    return _CellDeriver(records, conventions, findings).run()


def door_state(
    props: Mapping[str, Stat], object_id: int | None, what: str, findings: list[Finding]
) -> DoorState:
    """A door's state from ``state`` (closed/open/locked), bool ``locked`` or ``open``; closed,
    with a warning, when ``state`` says something else."""
    state = props.get("state")
    if "state" in props and isinstance(state, int) and not isinstance(state, bool):
        findings.append(Finding(
            "door-state-number",
            Severity.WARNING,
            f"{what} state is the number {state} (an int-valued enum, whose names the map "
            "does not hold); using closed",
            object_id,
            hint="keep the map's Tiled project (.tiled-project, which holds the enum's names) in the "
            "map's folder or a folder above it, or make the enum store strings (Custom Types Editor), "
            "or set the string property state to closed, open or locked",
        ))
        return DoorState.CLOSED
    if "state" in props:
        text = str(state).strip().lower()
        if isinstance(state, str) and text in {s.value for s in DoorState}:
            return DoorState(text)
        findings.append(Finding(
            "door-state-unknown",
            Severity.WARNING,
            f"{what} state {state!r} is not closed, open or locked; using closed",
            object_id,
            hint="set the string property state to closed, open or locked",
        ))
        return DoorState.CLOSED
    if "locked" in props and is_true(props["locked"]):
        return DoorState.LOCKED
    if "open" in props:
        return DoorState.OPEN if is_true(props["open"]) else DoorState.CLOSED
    return DoorState.CLOSED


def turn_sides(sides: Sequence[str], flags: int) -> list[str]:
    """Tile sides N/E/S/W as a flipped tile shows them (diagonal flip first, then H, then V).

    >>> turn_sides(["N", "E"], FLIP_D), turn_sides(["E"], FLIP_H | FLIP_V)
    (['W', 'S'], ['W'])
    """
    out = list(sides)
    if flags & FLIP_D:
        out = [{"N": "W", "W": "N", "E": "S", "S": "E"}[s] for s in out]
    if flags & FLIP_H:
        out = [{"E": "W", "W": "E"}.get(s, s) for s in out]
    if flags & FLIP_V:
        out = [{"N": "S", "S": "N"}.get(s, s) for s in out]
    return out


class _CellDeriver:
    """One derivation of the tile layers (the state its steps share: caches, counts, findings)."""

    def __init__(self, records: MapRecords, conventions: Conventions, findings: list[Finding]) -> None:
        """Start a derivation of the tile layers of ``records``."""
        self.records = records
        self.conv = conventions
        self.findings = findings
        self.width, self.height = records.width, records.height
        self.cells = Cells()
        self.role_cache: dict[tuple[int, str], str | None] = {}
        self.preset_layers: frozenset[str] | None = None
        self.iso_noted = False
        self.collision_cache: dict[int, _Collision | None] = {}
        #: the cells of every layer with a role or a wall on a side, as one mask of the board each
        #: (a cell painted in many layers, or with many tiles, is turned into squares and edges once)
        self.masks: dict[str, np.ndarray] = {}
        #: what one cell is called in messages (the grid's noun: square, or hex on a hex map)
        self.noun = records.grid.noun

    def note(self, code: str, message: str, hint: str) -> None:
        """A warning about the tile layers (no object, no square)."""
        self.findings.append(Finding(code, Severity.WARNING, message, hint=hint))

    def run(self) -> Cells:
        """Every tile layer's cells, in layer order: a layer with a role (``[layers]``, or named
        for it) gives it to every painted cell, the others' tiles give theirs; cells empty in
        every layer are void, or floor (``empty = "floor"``, or when every painted tile layer is
        a layer of walls: a board drawn as walls only)."""
        layers = [(layer, self.shifted(layer)) for layer in self.records.tile_layers]
        self.preset_layers = self.limit_preset(layers)
        roles = [self.layer_role(layer, gids) for layer, gids in layers]
        if any(bool((g & GID_MASK).any()) for _, g in layers):
            empty = np.ones((self.height, self.width), dtype=bool)
            for _, gids in layers:
                empty &= (gids & GID_MASK) == 0
            if self.empty_is_floor(layers, roles):
                self.cells.empty_floor = int(empty.sum())
            else:
                ys, xs = np.nonzero(empty)
                self.cells.void.update(zip(xs.tolist(), ys.tolist(), strict=True))
            self.report_hidden_layers(layers)
        unread: dict[tuple[str, str], np.ndarray] = {}
        for (layer, gids), role in zip(layers, roles, strict=True):
            if role is not None:
                self.paint_layer(layer, gids, *role)
                continue
            for raw, where in self.groups(gids):
                gid = raw & GID_MASK
                tile = self.records.tiles.get(gid) if gid else None
                if tile is not None:
                    self.paint(tile, where, raw, layer.name, unread)
        self.report_unread(unread)
        self.report_unknown_gids(layers)
        self.collect()
        return self.cells

    @staticmethod
    def groups(gids: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
        """Each gid of a layer (with its flip bits) and the cells painted with it, as indices into
        the board row by row: one sort of the layer, not a pass over it per gid."""
        flat = gids.ravel()
        order = np.argsort(flat, kind="stable")
        values, starts = np.unique(flat[order], return_index=True)
        ends = [*starts[1:].tolist(), flat.size]
        for raw, start, end in zip(values.tolist(), starts.tolist(), ends, strict=True):
            yield raw, order[start:end]

    def mark(self, key: str, where: np.ndarray) -> None:
        """Add the cells ``where`` (indices into the board, row by row) to the mask of a role or a
        wall side."""
        mask = self.masks.get(key)
        if mask is None:
            mask = self.masks[key] = np.zeros(self.width * self.height, dtype=bool)
        mask[where] = True

    def squares(self, where: np.ndarray) -> list[Square]:
        """The squares of cells given as indices into the board, row by row."""
        ys, xs = np.divmod(where, self.width)
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    def collect(self) -> None:
        """The role and wall masks as squares and edges (the work is the board's, not the layers')."""
        for key, mask in self.masks.items():
            ys, xs = np.divmod(np.flatnonzero(mask), self.width)
            if key in SIDES:
                self.cells.walls.update(side_edges(xs.tolist(), ys.tolist(), key))
            else:
                getattr(self.cells, key).update(zip(xs.tolist(), ys.tolist(), strict=True))

    def empty_is_floor(
        self, layers: list[tuple[TileLayerRecord, np.ndarray]], roles: list[tuple[str, str] | None]
    ) -> bool:
        """Whether the cells empty in every tile layer are floor: ``empty = "floor"``, or (unless
        ``empty = "void"``) every painted tile layer gives its cells ``blocked`` (a note says so)."""
        if self.conv.empty is not None:
            return self.conv.empty == "floor"
        painted = [role for (_, gids), role in zip(layers, roles, strict=True) if bool((gids & GID_MASK).any())]
        if not painted or not all(role is not None and role[0] == "blocked" for role in painted):
            return False
        self.findings.append(Finding(
            "layer-role", Severity.NOTE,
            "every painted tile layer is a layer of walls, so the empty cells are read as the floor "
            "(a board drawn as walls only)",
            hint=f"if the empty cells are off the board, say so in {CLASSES_FILE}: "
            + toml_line("layers", "empty", ["void"]),
        ))
        return True

    def paint(
        self, tile: TileRecord, where: np.ndarray, raw: int, layer: str,
        unread: dict[tuple[str, str], np.ndarray],
    ) -> None:
        """What one tile (``raw``: its gid with flip bits) painted on ``layer`` gives its cells
        (``where``: indices into the board, row by row)."""
        gid, flags = raw & GID_MASK, raw & GID_FLAGS
        role = self.cell_role(tile, layer)
        shapes = self.collision_of(tile)
        if not (role or shapes or "walls" in tile.properties):
            if self.conv.tile_role(tile.class_name, tile.properties, None) is None:
                self.note_unread(tile, where, unread)  # read on other layers: not unread
            return
        sides: list[str] = []
        if "walls" in tile.properties:
            sides += self.tile_wall_sides(tile.properties["walls"], gid, flags)
        if shapes is not None:
            role = role or shapes.role
            sides += turn_sides(shapes.sides, flags)
            self.cells.collision_cells += len(where) if shapes.role else 0
            self.cells.collision_edges += len(where) * len(shapes.sides)
        self.give(role, where, tile, gid)
        for side in dict.fromkeys(sides):
            self.mark(side, where)

    def give(self, role: str | None, where: np.ndarray, tile: TileRecord | None, gid: int) -> None:
        """Give the cells ``where`` (indices into the board) a cell role (a door square's state
        from its tile's properties)."""
        if role in ("void", "blocked", "impassable"):
            self.mark(role, where)
        elif role == "door":
            props = tile.properties if tile is not None else {}
            state = door_state(props, None, f"door tile {gid}", self.findings)
            self.cells.doors.update(dict.fromkeys(self.squares(where), state))

    # -- layers with a role of their own
    def layer_role(self, layer: TileLayerRecord, gids: np.ndarray) -> tuple[str, str] | None:
        """The role a tile layer gives every cell painted on it and where it came from
        (:meth:`Conventions.tile_layer_role`), or None: its tiles give theirs (a layer named for a
        role whose tiles give roles of their own keeps them)."""
        role, source = self.conv.tile_layer_role(layer.name)
        if role is None:
            return None
        if role == "":
            self.note("layer-role", f"tile layer {layer.name!r} is mapped to a role only object layers "
                      "take; its tiles are read as usual", "map a tile layer to blocked, impassable, void, "
                      "door or floor")
            return None
        if source == "layer-name" and any(
            self.own_role(raw & GID_MASK, layer.name) for raw in np.unique(gids).tolist() if raw & GID_MASK
        ):
            return None
        return role, source

    def paint_layer(self, layer: TileLayerRecord, gids: np.ndarray, role: str, source: str) -> None:
        """Give every painted cell of a tile layer the layer's role (tile ``walls`` still count),
        with a note when the role comes from the layer's name."""
        painted = 0
        for raw, where in self.groups(gids):
            gid, flags = raw & GID_MASK, raw & GID_FLAGS
            if not gid:
                continue
            painted += len(where)
            tile = self.records.tiles.get(gid)
            self.give(role, where, tile, gid)
            if tile is not None and "walls" in tile.properties:
                for side in dict.fromkeys(self.tile_wall_sides(tile.properties["walls"], gid, flags)):
                    self.mark(side, where)
        if source == "layer-name" and painted:
            cells = plural_of(self.noun)
            read_as = {"floor": "plain floor", "door": f"door {cells}"}.get(role, f"{role} {cells}")
            self.findings.append(Finding(
                "layer-role", Severity.NOTE,
                f"tile layer {layer.name!r}: its {plural(painted, 'painted ' + self.noun)} "
                f"{'is' if painted == 1 else 'are'} read as "
                f"{read_as}, by the layer's name",
                hint="if that is wrong, give the layer its role in "
                f"{CLASSES_FILE}: {toml_line('layers', 'floor', [layer.name])}",
            ))

    def own_role(self, gid: int, layer: str) -> bool:
        """Whether a tile gives its cells a role or walls of its own (its class or properties, or
        its collision shapes)."""
        tile = self.records.tiles.get(gid)
        if tile is None:
            return False
        return bool(self.cell_role(tile, layer) or "walls" in tile.properties or self.collision_of(tile))

    def limit_preset(self, layers: list[tuple[TileLayerRecord, np.ndarray]]) -> frozenset[str] | None:
        """The tile layers a preset's tile specs are limited to on this map (the layers it names
        that the map has, with a note), or None: every layer."""
        wanted = self.conv.preset_layers
        names = [layer.name for layer, _ in layers]
        found = sorted({n for n in names if n.strip().casefold() in wanted})
        has_specs = any(spec.preset for specs in self.conv.tiles.values() for spec in specs)
        if not (found and has_specs and len(names) > len(found)):
            return None
        self.findings.append(Finding(
            "layer-role", Severity.NOTE,
            f"the {self.conv.preset} preset reads its tile properties on tile "
            f"{'layer' if len(found) == 1 else 'layers'} {', '.join(map(repr, found))} only "
            "(the layer the game collides with)",
            hint="to read them on other layers too, write them with @: "
            f"{CLASSES_FILE}: {toml_line('tiles', 'blocked', ['collides@' + '|'.join(names)])}",
        ))
        return frozenset(n.strip().casefold() for n in found)

    def shifted(self, layer: TileLayerRecord) -> np.ndarray:
        """A tile layer's gids moved by its offset in whole squares (a finding if not whole)."""
        ox, oy = layer.offset
        tw, th = self.records.grid.tile_width, self.records.grid.tile_height
        dx, dy = round(ox / tw), round(oy / th)
        if (dx * tw, dy * th) != (ox, oy):
            self.note(
                "layer-offset",
                f"tile layer {layer.name!r} is offset by {ox:g},{oy:g} px, not a whole number of "
                f"{plural_of(self.noun)}; its cells are read {dx},{dy} {plural_of(self.noun)} over",
                "set the layer offset to a multiple of the tile size (or 0)",
            )
        if not (dx or dy):
            return layer.gids
        out = np.zeros_like(layer.gids)
        h, w = layer.gids.shape
        sx0, sx1 = max(0, -dx), min(w, w - dx)
        sy0, sy1 = max(0, -dy), min(h, h - dy)
        if sx1 > sx0 and sy1 > sy0:
            out[sy0 + dy : sy1 + dy, sx0 + dx : sx1 + dx] = layer.gids[sy0:sy1, sx0:sx1]
        return out

    def cell_role(self, tile: TileRecord, layer: str = "") -> str | None:
        """The cell role of a tile painted on ``layer`` (:meth:`Conventions.cell_role`), once per
        tile and layer."""
        key = (tile.gid, layer)
        cached = self.role_cache.get(key, "")
        if cached != "":
            return cached
        role = self.conv.cell_role(tile.class_name, tile.properties, layer, self.preset_layers)
        self.role_cache[key] = role
        return role

    # -- what nobody reads, and hidden layers
    def note_unread(self, tile: TileRecord, where: np.ndarray, unread: dict[tuple[str, str], np.ndarray]) -> None:
        """Mark the squares ``where`` (indices into the board) painted with a tile whose class or
        properties nothing reads."""
        names = unread_names(tile.class_name, tile.properties)
        if not names:
            return
        for key in names:
            mask = unread.get(key)
            if mask is None:
                mask = unread[key] = np.zeros(self.width * self.height, dtype=bool)
            mask[where] = True

    def report_unread(self, unread: dict[tuple[str, str], np.ndarray]) -> None:
        """One warning per tile class or property painted on the board that Sightline does not
        read, with the board squares it covers (a square counted once, whatever its layers)."""
        if not unread:
            return
        preset = None if self.conv.preset else suggest_preset([n.partition("=")[0] for _, n in unread])
        also = f", or try --preset {preset}" if preset else ""
        for (kind, name), painted in sorted(unread.items(), key=lambda item: item[0]):
            what = {"class": f"tile class {name!r}", "bool": f"bool tile property {name!r} (true)"}.get(
                kind, f"tile property {name!r}")
            count = int(painted.sum())
            role = tile_word_role(name)
            self.note(
                "tile-unread",
                f"{what} is painted on {plural(count, self.noun)} of the board but has no Sightline "
                "role; ignored",
                f"read it with --tiles {role}={name}{also}; or in {CLASSES_FILE}: "
                + toml_line("tiles", role, [name]),
            )

    def report_unknown_gids(self, layers: list[tuple[TileLayerRecord, np.ndarray]]) -> None:
        """A warning per tile layer painted with gids no tileset holds (the cells count as
        painted; nothing else is read from them)."""
        tilesets = self.records.tilesets
        for layer, gids in layers:
            bad: dict[int, int] = {}
            values, counts = np.unique(gids & GID_MASK, return_counts=True)
            for gid, count in zip(values.tolist(), counts.tolist(), strict=True):
                if gid and tileset_of(gid, tilesets) is None:
                    bad[gid] = count
            if bad:
                shown = ", ".join(str(g) for g in sorted(bad)[:5]) + (" ..." if len(bad) > 5 else "")
                self.note(
                    "tile-gid-unknown",
                    f"tile layer {layer.name!r} paints {plural(sum(bad.values()), self.noun)} with "
                    f"{'a tile' if len(bad) == 1 else 'tiles'} no tileset holds (gid {shown}); "
                    f"they count as painted {plural_of(self.noun)} with no role",
                    "a tileset was removed or shortened: open the map in Tiled, add the tileset "
                    "back or erase those cells",
                )

    def report_hidden_layers(self, layers: list[tuple[TileLayerRecord, np.ndarray]]) -> None:
        """A warning for each hidden tile layer that puts squares on the board."""
        shown = np.zeros((self.height, self.width), dtype=bool)
        for layer, gids in layers:
            if layer.visible:
                shown |= (gids & GID_MASK) != 0
        for layer, gids in layers:
            if layer.visible:
                continue
            only = int((((gids & GID_MASK) != 0) & ~shown).sum())
            if only:
                self.note(
                    "hidden-layer",
                    f"tile layer {layer.name!r} is hidden but counts: without it "
                    f"{plural(only, self.noun)} would be void",
                    "Sightline reads hidden layers like visible ones; show the layer, or delete "
                    "it if it is not part of the board",
                )

    # -- walls of tiles
    def tile_wall_sides(self, value: Stat, gid: int, flags: int) -> list[str]:
        """The sides a tile's ``walls`` property names, as the flipped tile shows them."""
        letters = [
            p.strip().upper()
            for p in str(value).replace(";", ",").replace(" ", ",").split(",")
            if p.strip()
        ]
        bad = [p for p in letters if p not in SIDES]
        if bad:
            self.note(
                "tile-walls-invalid",
                f"tile {gid} has walls={value!r}: {', '.join(bad)} is not one of N, E, S, W; ignored",
                "write the sides as a list such as N,E",
            )
        return turn_sides([p for p in letters if p in SIDES], flags)

    def collision_of(self, tile: TileRecord) -> _Collision | None:
        """The role and wall sides a tile's collision shapes give its cells (None: no shapes, or
        ``collision = "ignore"``). A partial or diagonal shape is a finding naming the tile."""
        if not tile.collision or not self.conv.collision:
            return None
        if self.records.grid.orientation == "isometric":  # drawn on the diamond's picture, not its square
            if not self.iso_noted:
                self.iso_noted = True
                self.note("collision-shape", f"collision shapes of an isometric map's tiles ({tile.where} "
                          "and any others) are not read: they are drawn on the tile's picture, not on "
                          "its square", "give those tiles a class or property and map it with [tiles]")
            return None
        if tile.gid in self.collision_cache:
            return self.collision_cache[tile.gid]
        role: str | None = None
        sides: list[str] = []
        for shape in tile.collision:
            got = self.collision_shape(shape, tile)
            if got is None:
                continue
            shape_role, shape_sides = got
            role = role or shape_role
            sides += [s for s in shape_sides if s not in sides]
        result = _Collision(role, tuple(sides)) if (role or sides) else None
        self.collision_cache[tile.gid] = result
        return result

    def collision_shape(self, shape: CollisionShape, tile: TileRecord) -> tuple[str | None, list[str]] | None:
        """One collision shape: ``(cell role, wall sides)``, or None (with a finding) if unusable.

        Most of the tile (3/4 of its area): the cell takes the shape's role (``blocked`` when it
        has none); thin along the tile's edges: walls. A malformed number refuses the map.
        """
        cell_role = self.conv.shape_role(shape.class_name, shape.properties)
        if not shape.readable:
            raise ValueError(f"collision shape {shape.id} of {tile.where} has a malformed number")
        problem = _shape_problem(shape)
        if problem is None:
            points = shape.points or ()
            area = shape_area(shape.kind, points, shape.width, shape.height)
            if area >= Fraction(3, 4):
                return cell_role or "blocked", []  # most of the tile: the cell takes the role
            sides = border_sides(shape.kind, points, shape.x, shape.y, shape.width, shape.height)
            if sides:  # along the tile's edges: walls
                return None, sides
            problem = (
                "is diagonal" if shape.kind in ("polyline", "polygon") and not axis_aligned(points)
                else f"covers part of the tile ({float(area) * 100:.0f} %)"
            )
        self.note(
            "collision-shape",
            f"collision shape {shape.id} of {tile.where} {problem}; ignored",
            "draw it over the whole tile (blocked), or as a thin shape along one tile edge (a wall)",
        )
        return None


def _shape_problem(shape: CollisionShape) -> str | None:
    """Why a collision shape cannot be read (rotated, a point or text), or None."""
    if shape.rotated:
        return "is rotated"
    if shape.kind in ("point", "text"):
        return f"is {a_or_an(shape.kind)}"
    if shape.points is None:
        raise ValueError(f"collision shape {shape.id} has malformed points")
    return None
