"""Virtual-tabletop maps as the reader's records: the VTT formats' step of :func:`~game.tiled.load_map`.

A Universal VTT file (``.dd2vtt``, ``.uvtt``, ``.df2vtt``) or a Foundry scene (``.json``) is read
and checked by its own reader (:mod:`game.tiled.uvtt`, :mod:`game.tiled.foundry`), described in
squares (:class:`~game.tiled.vtt_scene.VttScene`), and then handed to the one derivation as the
same records a Tiled map gives (:class:`~game.tiled.records.MapRecords`), with our role names as
classes (:func:`scene_records`):

* every drawn wall or window is one ``polyline`` of class ``wall`` / ``window`` whose points are
  the grid corners the off-grid policy decided (:func:`~game.tiled.offgrid.decide_path`); how far
  that is from the drawing is one finding per path (``vtt-off-grid``), and the drawn segments that
  moved are kept for the renderer (:class:`VttArt`'s ``drawing``);
* every door is a two-point ``polyline`` of class ``door`` with a ``state`` property, one per grid
  edge its decided path covers;
* obstacle outlines are ``polygon``\\ s of class ``blocked`` (every square whose centre they hold);
* figures are ``point``\\ s of class ``figure`` (name, ``side`` and stats as properties); their ids
  come first (1, 2, ...), so that a wall added to the file does not renumber them (the autosave
  keys figures by id);
* the squares only Sightline's own export lists (void, blocked, impassable, door squares) are one
  tile layer of tiles the derivation reads as those cell roles (:data:`CELL_TILES`).

The picture (embedded or beside the scene) and where it lies go to the renderer in the art.

>>> from game.tiled.uvtt import parse_uvtt
>>> doc = (b'{"format": 0.3, "resolution": {"map_size": {"x": 3, "y": 2}, "pixels_per_grid": 10},'
...        b' "line_of_sight": [[{"x": 0.5, "y": 0}, {"x": 2.4, "y": 2}]]}')
>>> records = scene_records(parse_uvtt(doc, "m.dd2vtt").scene())
>>> wall = records.objects[0]
>>> wall.class_name, [(int(x), int(y)) for x, y in wall.points]
('wall', [(1, 0), (1, 1), (2, 1), (2, 2)])
>>> [f.code for f in records.findings]
['vtt-off-grid']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from game.core.board import DoorState, Square, Stat
from game.core.errors import MapError
from game.core.findings import Finding, Severity
from game.tiled.foundry import check_foundry, looks_like_scene
from game.tiled.guard import read_bytes
from game.tiled.offgrid import Budget, PathDecision, decide_path, deviation_message, on_grid
from game.tiled.records import (
    GridLayout,
    LayerRecord,
    MapArt,
    MapRecords,
    ObjectRecord,
    TileLayerRecord,
    TileRecord,
    TilesetRecord,
)
from game.tiled.uvtt import UVTT_SUFFIXES, read_uvtt
from game.tiled.vtt_json import parse_text
from game.tiled.vtt_scene import EmbeddedPicture, FilePicture, Point, VttScene

__all__ = [
    "CELL_TILES", "DrawnLine", "VttArt", "is_vtt_name", "read_vtt", "read_vtt_scene", "scene_records",
]

#: the tile specs (``--tiles`` style) of the cell roles the squares' layer uses beyond the
#: derivation's own bool ``void`` / ``blocked`` properties
CELL_TILES = {"impassable": ["sightline-impassable"], "door": ["sightline-door"]}
#: the name of that tile layer (``sightline check --stats`` counts it)
SQUARES_LAYER = "squares (Sightline's export)"
#: gids of the squares' layer: 0 is void (no tile)
FLOOR, BLOCKED, IMPASSABLE = 1, 2, 3
DOOR_GIDS = {DoorState.CLOSED: 4, DoorState.OPEN: 5, DoorState.LOCKED: 6}
HINT = "draw it along grid lines in the map maker to keep it exactly as drawn"
#: the most square-side tests the obstacle outlines may ask of the derivation (about a second)
MAX_AREA_TESTS = 1_000_000


@dataclass(frozen=True)
class DrawnLine:
    """Drawn segments the off-grid policy moved, as the map maker drew them: a polyline in squares
    (floats: it is only drawn), ``role`` ``wall``, ``window`` or ``door``."""

    role: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class VttArt(MapArt):
    """The art of a virtual-tabletop map: its picture, the box it covers (``x, y, width,
    height`` in squares), and the drawn lines that are not where the board has them."""

    picture: EmbeddedPicture | FilePicture | None = None
    picture_box: tuple[float, float, float, float] | None = None
    drawing: tuple[DrawnLine, ...] = ()


def is_vtt_name(path: Path) -> bool:
    """Whether a file's name alone makes it a virtual-tabletop file (``.dd2vtt``, ``.uvtt``,
    ``.df2vtt``; a ``.json`` file may be a Foundry scene or a Tiled map: :func:`read_vtt_scene`)."""
    return path.suffix.lower() in UVTT_SUFFIXES


def read_vtt_scene(path: Path) -> VttScene | None:
    """The scene of a virtual-tabletop file in squares, or None when the file is not one (a Tiled
    ``.json`` map or anything else: the Tiled reader says what is wrong with it).

    A ``.json`` file is read as a Foundry scene when its text names a ``grid`` but no
    ``tilewidth`` or ``layers`` (every Tiled map names both), and is one when its top-level object
    has Foundry's ``grid``, ``width`` and ``height``; a scene that is not valid JSON is refused in
    the scene's terms.
    """
    if is_vtt_name(path):
        return read_uvtt(path).scene()
    if path.suffix.lower() != ".json":
        return None
    try:
        data = read_bytes(path, "map")
    except MapError:
        return None  # the Tiled reader says what is wrong with the file, in its words
    if b'"grid"' not in data or b'"tilewidth"' in data or b'"layers"' in data:
        return None
    raw = parse_text(data, str(path), size=len(data))
    if not looks_like_scene(raw.doc):
        return None
    return check_foundry(path, raw).scene()


def read_vtt(path: Path) -> MapRecords | None:
    """The records of a virtual-tabletop file (:func:`scene_records`); None when it is not one."""
    scene = read_vtt_scene(path)
    return None if scene is None else scene_records(scene)


def scene_records(scene: VttScene, budget: Budget | None = None) -> MapRecords:
    """A scene as the records the derivation reads (see the module docstring). ``budget`` bounds
    the edges the off-grid policy traces (default: one file's budget)."""
    return _Records(scene, budget or Budget()).build()


def _section(source: str) -> str:
    """The part of the file a drawing comes from (``line_of_sight[3]`` -> ``line_of_sight``): its
    records' layer."""
    return source.split("[", 1)[0]


def _corner_points(corners: tuple[tuple[int, int], ...]) -> tuple[Point, ...]:
    return tuple((Fraction(x), Fraction(y)) for x, y in corners)


class _Records:
    """One scene's records (the ids, findings and drawn lines its steps share)."""

    def __init__(self, scene: VttScene, budget: Budget) -> None:
        self.scene = scene
        self.budget = budget
        self.objects: list[ObjectRecord] = []
        self.findings: list[Finding] = list(scene.findings)
        self.drawing: list[DrawnLine] = []

    def next_id(self) -> int:
        """The id the next record gets (ids are 1, 2, ... in the order records are made)."""
        return len(self.objects) + 1

    def build(self) -> MapRecords:
        """Figures first, then walls and windows, doors, outlines; the squares' layer; the art."""
        scene = self.scene
        for figure in scene.figures:
            properties: dict[str, Stat] = {**figure.stats, "side": figure.side}
            self.objects.append(ObjectRecord.from_points(
                self.next_id(), "figure", "point", [figure.centre], name=figure.name,
                layer=_section(figure.source), properties=properties))
        for path in scene.paths:
            self.path(path.source, path.role, path.points, path.closed)
        for door in scene.doors:
            self.door(door.source, door.a, door.b, door.state)
        _charge_areas(scene)
        for area in scene.areas:
            self.objects.append(ObjectRecord.from_points(
                self.next_id(), area.role, "polygon", area.points, name=area.source,
                layer=_section(area.source)))
        squares = _squares_layer(scene)
        ppg = max(1, scene.pixels_per_square)
        records = MapRecords(
            scene.path, GridLayout("orthogonal", ppg, ppg), scene.width, scene.height,
            properties=dict(scene.properties),
            layers=(LayerRecord("tile", SQUARES_LAYER),) if squares is not None else (),
            tile_layers=(squares,) if squares is not None else (),
            tiles=_square_tiles() if squares is not None else {},
            # the tileset holding those gids, so that the derivation knows every square's tile
            tilesets=(TilesetRecord(SQUARES_LAYER, FLOOR, (ppg, ppg), tile_count=max(DOOR_GIDS.values())),)
            if squares is not None else (),
            objects=tuple(self.objects), findings=self.findings, files=_files(scene),
        )
        box = scene.picture_box
        records.art = VttArt(
            ppg, ppg, (), {}, None, scene.picture,
            None if box is None else (float(box[0]), float(box[1]), float(box[2]), float(box[3])),
            tuple(self.drawing),
        )
        return records

    def decide(self, source: str, role: str, points: tuple[Point, ...], closed: bool) -> PathDecision:
        """The policy's grid path for a drawing: its deviation is a finding (naming the next
        object), its off-grid segments kept for the renderer."""
        decision = decide_path(points, closed, self.budget)
        message = deviation_message(source, role, decision)
        if message is not None:
            if decision.edges:
                self.findings.append(Finding("vtt-off-grid", Severity.WARNING, message, self.next_id(), None, HINT))
            else:
                self.findings.append(Finding("vtt-too-short", Severity.WARNING, message, None, None,
                                             f"draw the {role} at least one square long, or delete it"))
            self.keep_drawing(role, points, closed)
        return decision

    def keep_drawing(self, role: str, points: tuple[Point, ...], closed: bool) -> None:
        """The runs of off-grid segments of a drawn path, as polylines for the renderer."""
        ring = list(points) + ([points[0]] if closed and len(points) > 2 and points[0] != points[-1] else [])
        run: list[tuple[float, float]] = []
        for p, q in zip(ring, ring[1:], strict=False):
            if on_grid(p, q):
                if len(run) > 1:
                    self.drawing.append(DrawnLine(role, tuple(run)))
                run = []
                continue
            if not run:
                run.append((float(p[0]), float(p[1])))
            run.append((float(q[0]), float(q[1])))
        if len(run) > 1:
            self.drawing.append(DrawnLine(role, tuple(run)))

    def path(self, source: str, role: str, points: tuple[Point, ...], closed: bool) -> None:
        """A wall or window: one polyline along the decided corners (none when too short)."""
        decision = self.decide(source, role, points, closed)
        if decision.edges:
            self.objects.append(ObjectRecord.from_points(
                self.next_id(), role, "polyline", _corner_points(decision.corners), name=source,
                layer=_section(source)))

    def door(self, source: str, a: Point, b: Point, state: DoorState) -> None:
        """A door: one two-point door line per grid edge of its decided path."""
        decision = self.decide(source, "door", (a, b), False)
        corners = decision.corners
        for (x0, y0), (x1, y1) in zip(corners, corners[1:], strict=False):
            step = (1 if x1 > x0 else -1 if x1 < x0 else 0, 1 if y1 > y0 else -1 if y1 < y0 else 0)
            for i in range(abs(x1 - x0) + abs(y1 - y0)):
                p = (x0 + step[0] * i, y0 + step[1] * i)
                q = (p[0] + step[0], p[1] + step[1])
                self.objects.append(ObjectRecord.from_points(
                    self.next_id(), "door", "polyline", _corner_points((p, q)), name=source,
                    layer=_section(source), properties={"state": state.value}))


def _charge_areas(scene: VttScene) -> None:
    """Refuse outlines whose squares would take too long to find: the derivation tests each square
    of an outline's box (on the board) against each of its sides (:data:`MAX_AREA_TESTS` in all)."""
    tests = 0
    for area in scene.areas:
        xs, ys = [p[0] for p in area.points], [p[1] for p in area.points]
        columns = max(0, min(scene.width, math.ceil(max(xs)) + 1) - max(0, math.floor(min(xs))))
        rows = max(0, min(scene.height, math.ceil(max(ys)) + 1) - max(0, math.floor(min(ys))))
        tests += columns * rows * len(area.points)
        if tests > MAX_AREA_TESTS:
            raise MapError(
                f"the obstacle outlines (up to {area.source}) have too many points over too many "
                f"squares to fill (over {MAX_AREA_TESTS:,} square-side tests), over Sightline's limit",
                path=str(scene.path), hint="simplify the large outlines in the map maker")


def _squares_layer(scene: VttScene) -> TileLayerRecord | None:
    """The squares Sightline's own export lists, as one tile layer (None when it lists none)."""
    cells = scene.cells
    if not (any(cells.values()) or scene.door_squares):
        return None
    gids = np.full((scene.height, scene.width), FLOOR, dtype=np.uint32)

    def paint(squares: Iterable[Square], gid: int) -> None:
        for x, y in squares:
            if 0 <= x < scene.width and 0 <= y < scene.height:
                gids[y, x] = gid

    paint(cells.get("impassable", ()), IMPASSABLE)
    paint(cells.get("blocked", ()), BLOCKED)
    for state, gid in DOOR_GIDS.items():
        paint([sq for sq, s in scene.door_squares.items() if s is state], gid)
    paint(cells.get("void", ()), 0)
    return TileLayerRecord(SQUARES_LAYER, True, 1.0, (0.0, 0.0), gids)


def _square_tiles() -> dict[int, TileRecord]:
    """The tiles of the squares' layer: a floor, blocked (the bool ``blocked`` property), and the
    impassable and door tiles of :data:`CELL_TILES` (a door tile with its ``state``)."""
    tiles = {
        FLOOR: TileRecord(FLOOR, "", {}, where="floor square"),
        BLOCKED: TileRecord(BLOCKED, "", {"blocked": True}, where="blocked square"),
        IMPASSABLE: TileRecord(IMPASSABLE, CELL_TILES["impassable"][0], {}, where="impassable square"),
    }
    for state, gid in DOOR_GIDS.items():
        tiles[gid] = TileRecord(gid, CELL_TILES["door"][0], {"state": state.value}, where="door square")
    return tiles


def _files(scene: VttScene) -> tuple[Path, ...]:
    """The files the map depends on (for live reload): the file, and a scene's picture."""
    files = [scene.path.resolve()]
    if isinstance(scene.picture, FilePicture) and scene.picture.found is not None:
        files.append(scene.picture.found.resolve())
    return tuple(files)
