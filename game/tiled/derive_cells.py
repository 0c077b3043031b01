"""The squares' roles and the tile walls, derived from a map's tile layers (records in, sets out).

A cell empty in every tile layer is void (when the map has any painted cell); a tile's role comes
from the conventions (:meth:`~game.tiled.conventions.Conventions.cell_role`: bool ``void`` /
``blocked``, else a mapped class or property); its ``walls`` property and its collision shapes
(:func:`~game.tiled.geometry.border_sides`) put walls on its cells' edges, turned as Tiled draws a
flipped tile. Hidden layers count like visible ones; a layer's offset moves its cells by whole
squares. Part of :func:`game.tiled.derive.derive_map`; what it meets becomes findings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from game.core.board import DoorState, Edge, Square, Stat
from game.core.findings import Finding, Severity
from game.core.words import a_or_an, plural
from game.tiled.conventions import CLASSES_FILE, Conventions, is_true, suggest_preset, unread_names
from game.tiled.geometry import axis_aligned, border_sides, shape_area, side_edges
from game.tiled.guard import GID_FLAGS, GID_MASK
from game.tiled.records import CollisionShape, MapRecords, TileLayerRecord, TileRecord

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
        self.role_cache: dict[int, str | None] = {}
        self.collision_cache: dict[int, _Collision | None] = {}
        #: the cells of every layer with a role or a wall on a side, as one mask of the board each
        #: (a cell painted in many layers, or with many tiles, is turned into squares and edges once)
        self.masks: dict[str, np.ndarray] = {}

    def note(self, code: str, message: str, hint: str) -> None:
        """A warning about the tile layers (no object, no square)."""
        self.findings.append(Finding(code, Severity.WARNING, message, hint=hint))

    def run(self) -> Cells:
        """Every tile layer's cells, in layer order."""
        layers = [(layer, self.shifted(layer)) for layer in self.records.tile_layers]
        if any(bool((g & GID_MASK).any()) for _, g in layers):
            empty = np.ones((self.height, self.width), dtype=bool)
            for _, gids in layers:
                empty &= (gids & GID_MASK) == 0
            ys, xs = np.nonzero(empty)
            self.cells.void.update(zip(xs.tolist(), ys.tolist(), strict=True))
            self.report_hidden_layers(layers)
        unread: dict[tuple[str, str], int] = {}
        for _, gids in layers:  # the cells of each gid, by one sort of the layer (not a pass per gid)
            flat = gids.ravel()
            order = np.argsort(flat, kind="stable")
            values, starts = np.unique(flat[order], return_index=True)
            ends = [*starts[1:].tolist(), flat.size]
            for raw, start, end in zip(values.tolist(), starts.tolist(), ends, strict=True):
                gid = raw & GID_MASK
                tile = self.records.tiles.get(gid) if gid else None
                if tile is not None:
                    self.paint(tile, order[start:end], raw, unread)
        self.report_unread(unread)
        self.collect()
        return self.cells

    def mark(self, key: str, where: np.ndarray) -> None:
        """Add the cells ``where`` (indices into the board, row by row) to the mask of a role or a
        wall side."""
        mask = self.masks.get(key)
        if mask is None:
            mask = self.masks[key] = np.zeros(self.width * self.height, dtype=bool)
        mask[where] = True

    def squares(self, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The x and y of cells given as indices into the board, row by row."""
        ys, xs = np.divmod(where, self.width)
        return xs, ys

    def collect(self) -> None:
        """The role and wall masks as squares and edges (the work is the board's, not the layers')."""
        for key, mask in self.masks.items():
            xs, ys = self.squares(np.flatnonzero(mask))
            if key in SIDES:
                self.cells.walls.update(side_edges(xs.tolist(), ys.tolist(), key))
            else:
                getattr(self.cells, key).update(zip(xs.tolist(), ys.tolist(), strict=True))

    def paint(self, tile: TileRecord, where: np.ndarray, raw: int, unread: dict[tuple[str, str], int]) -> None:
        """What one tile (``raw``: its gid with flip bits) gives the cells painted with it in one
        layer (``where``: indices into the board, row by row)."""
        gid, flags = raw & GID_MASK, raw & GID_FLAGS
        role = self.cell_role(tile)
        shapes = self.collision_of(tile)
        if not (role or shapes or "walls" in tile.properties):
            self.note_unread(tile, len(where), unread)
            return
        count = len(where)
        sides: list[str] = []
        if "walls" in tile.properties:
            sides += self.tile_wall_sides(tile.properties["walls"], gid, flags)
        if shapes is not None:
            role = role or shapes.role
            sides += turn_sides(shapes.sides, flags)
            self.cells.collision_cells += count if shapes.role else 0
            self.cells.collision_edges += count * len(shapes.sides)
        if role in ("void", "blocked", "impassable"):
            self.mark(role, where)
        elif role == "door":
            state = door_state(tile.properties, None, f"door tile {gid}", self.findings)
            xs, ys = self.squares(where)
            self.cells.doors.update(dict.fromkeys(zip(xs.tolist(), ys.tolist(), strict=True), state))
        for side in dict.fromkeys(sides):
            self.mark(side, where)

    def shifted(self, layer: TileLayerRecord) -> np.ndarray:
        """A tile layer's gids moved by its offset in whole squares (a finding if not whole)."""
        ox, oy = layer.offset
        tw, th = self.records.grid.tile_width, self.records.grid.tile_height
        dx, dy = round(ox / tw), round(oy / th)
        if (dx * tw, dy * th) != (ox, oy):
            self.note(
                "layer-offset",
                f"tile layer {layer.name!r} is offset by {ox:g},{oy:g} px, not a whole number of "
                f"squares; its cells are read {dx},{dy} squares over",
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

    def cell_role(self, tile: TileRecord) -> str | None:
        """The cell role of a tile (:meth:`Conventions.cell_role`), once per tile."""
        cached = self.role_cache.get(tile.gid, "")
        if cached != "":
            return cached
        role = self.conv.cell_role(tile.class_name, tile.properties)
        self.role_cache[tile.gid] = role
        return role

    # -- what nobody reads, and hidden layers
    def note_unread(self, tile: TileRecord, count: int, unread: dict[tuple[str, str], int]) -> None:
        """Count the ``count`` squares painted with a tile whose class or properties nothing reads."""
        names = unread_names(tile.class_name, tile.properties)
        if not names:
            return
        for key in names:
            unread[key] = unread.get(key, 0) + count

    def report_unread(self, unread: dict[tuple[str, str], int]) -> None:
        """One warning per tile class or property painted on the board that Sightline does not read."""
        if not unread:
            return
        preset = None if self.conv.preset else suggest_preset([n.partition("=")[0] for _, n in unread])
        also = f", or try --preset {preset}" if preset else ""
        for (kind, name), count in sorted(unread.items()):
            what = f"tile class {name!r}" if kind == "class" else f"tile property {name!r}"
            spec = name if kind == "class" or "=" in name else f"{name}=VALUE"
            self.note(
                "tile-unread",
                f"{what} is painted on {plural(count, 'square')} but has no Sightline role; ignored",
                f'map it in {CLASSES_FILE}, e.g. [tiles] blocked = ["{spec}"], or with '
                f"--tiles blocked={spec}{also}",
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
                    f"{plural(only, 'square')} would be void",
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
