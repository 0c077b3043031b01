"""What a map reader hands over: plain records of one map file, before any board is derived.

A reader turns a file into :class:`MapRecords` and knows nothing of walls, doors or squares'
roles; :func:`game.tiled.derive.derive_map` turns records into the board, once, for every reader.
Tiled's reader is :mod:`game.tiled.read` (``.tmx``/``.tmj``/``.json`` maps, ``.tsx``/``.tsj``
tilesets, ``.tx``/``.tj`` templates, every encoding, infinite maps, the Tiled project's enums).

Units: object coordinates are **grid units** (pixels divided by the map's tile width and height),
exact ``Fraction``\\ s, origin at the top-left of the board's square ``(0, 0)``; multiply by
:attr:`GridLayout.tile_width` / :attr:`~GridLayout.tile_height` for pixels. Tile layers are
``[y, x]`` arrays of Tiled gids (flip bits included) the size of the board.

What the records carry is what the file says, with Tiled's own rules applied (templates merged,
tile objects anchored by their tileset's alignment and given their tile's class and properties,
rotation applied to the points, layer offsets added); what it *means* for the board (a role for
a class name, an edge for a line, a square for a figure) is the derivation's and the
conventions' (:mod:`game.tiled.conventions`) business.

>>> rec = ObjectRecord(1, "gate", "door", "doors", ("doors",), "polyline", Fraction(2), Fraction(1),
...     Fraction(0), Fraction(1), ((Fraction(2), Fraction(1)), (Fraction(2), Fraction(2))), {})
>>> rec.centre, GridLayout().orientation
((Fraction(2, 1), Fraction(3, 2)), 'orthogonal')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from game.core.board import Edge, Square, Stat
from game.core.findings import Finding
from game.core.grid import SquareGrid
from game.tiled.geometry import Point, Segment, centre_of

__all__ = [
    "ArtLayer",
    "CollisionShape",
    "GridLayout",
    "LayerRecord",
    "MapArt",
    "MapRecords",
    "ObjectRecord",
    "TileImage",
    "TileLayerRecord",
    "TileRecord",
    "TilesetRecord",
    "cell_noun",
    "tileset_of",
]


def cell_noun(orientation: str) -> str:
    """What one cell of a map of Tiled's ``orientation`` is called in messages, before its board
    exists: the noun of the grid the derivation builds (:attr:`game.core.grid.Grid.noun`).

    >>> cell_noun("orthogonal"), cell_noun("isometric"), cell_noun("hexagonal")
    ('square', 'square', 'hex')
    """
    if orientation != "hexagonal":
        return SquareGrid.noun
    from game.core.hexgrid import HexGrid  # a square map's reading never loads the hex grid

    return HexGrid.noun


@dataclass(frozen=True)
class GridLayout:
    """The grid a map is drawn on: Tiled's orientation, a cell's size in pixels, and the
    hexagonal/staggered attributes (None when the file has none).

    ``orientation`` is ``orthogonal``, ``hexagonal``, ``staggered`` or ``isometric``;
    ``stagger_axis`` ``x`` or ``y``; ``stagger_index`` ``odd`` or ``even``; ``hex_side_length``
    the pixel length of a hex's flat side along the stagger axis (Tiled's ``hexsidelength``).
    """

    orientation: str = "orthogonal"
    tile_width: int = 1
    tile_height: int = 1
    stagger_axis: str | None = None
    stagger_index: str | None = None
    hex_side_length: int | None = None

    @property
    def noun(self) -> str:
        """What one cell of this grid is called in messages (:func:`cell_noun`)."""
        return cell_noun(self.orientation)


@dataclass(frozen=True)
class LayerRecord:
    """One layer of the file (groups flattened away): ``kind`` is ``tile``, ``object`` or
    ``image``; ``hidden`` when it or a group around it is hidden."""

    kind: str
    name: str
    hidden: bool = False


@dataclass
class TileLayerRecord:
    """One tile layer, decoded, with visibility, opacity and offset combined with its groups'.

    ``gids`` is uint32 ``[y, x]`` the size of the board, Tiled gids WITH flip bits; ``offset`` is
    in pixels (the derivation moves the cells by whole squares).
    """

    name: str
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: np.ndarray


@dataclass(frozen=True)
class TilesetRecord:
    """A tileset: its first gid, tile size in pixels, tile-object alignment, drawing offset and
    how many tiles it holds (``tile_count`` 0: unknown)."""

    name: str
    first_gid: int
    tile_size: tuple[int, int]
    alignment: str = "bottomleft"
    offset: tuple[int, int] = (0, 0)
    tile_count: int = 0


def tileset_of(gid: int, tilesets: Sequence[TilesetRecord]) -> TilesetRecord | None:
    """The tileset holding a gid (flip bits cleared): the last one whose first gid is not above
    it, if the gid lies within its tile count (a count of 0 is unknown: any gid past its first
    counts); None for a gid no tileset holds.

    >>> sets = [TilesetRecord("a", 1, (8, 8), tile_count=4), TilesetRecord("b", 5, (8, 8), tile_count=2)]
    >>> tileset_of(6, sets).name, tileset_of(7, sets), tileset_of(0, sets)
    ('b', None, None)
    """
    holder = None
    for ts in tilesets:
        if ts.first_gid <= gid and (holder is None or ts.first_gid >= holder.first_gid):
            holder = ts
    if holder is None or (holder.tile_count > 0 and gid >= holder.first_gid + holder.tile_count):
        return None
    return holder


@dataclass(frozen=True)
class CollisionShape:
    """One shape a tile carries (Tiled's Tile Collision Editor), in **tile units** (0..1 across the
    tile), points absolute within the tile (a rectangle's or ellipse's four box corners).

    ``rotated`` when turned by other than a whole turn. ``readable`` is False when a number of the
    shape is malformed, and ``points`` None when a polygon's or polyline's points are: the
    derivation refuses the map only if it uses the shape (as it always has).
    """

    id: str
    class_name: str
    properties: Mapping[str, Stat]
    kind: str
    x: Fraction
    y: Fraction
    width: Fraction
    height: Fraction
    points: tuple[Point, ...] | None = ()
    rotated: bool = False
    readable: bool = True


@dataclass(frozen=True)
class TileRecord:
    """A tileset tile the file says something about: class, properties, collision shapes.

    ``where`` names it for messages (``tile 3 of tileset 'walls'``), ``size`` is its tileset's tile
    size in pixels (at least 1x1).
    """

    gid: int
    class_name: str
    properties: Mapping[str, Stat]
    collision: tuple[CollisionShape, ...] = ()
    where: str = ""
    size: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class ObjectRecord:
    """One object of the map, in grid units (exact Fractions), before any role is given.

    ``shape`` is ``rectangle``, ``ellipse``, ``point``, ``polygon``, ``polyline``, ``text`` or
    ``tile``. ``x, y, width, height`` are the bounding box with a top-left origin (tile objects,
    which Tiled anchors by their tileset's alignment, are converted); ``points`` are absolute:
    polygon and polyline vertices, a rectangle's or tile's four corners (rotation applied), the
    point of a point object; none for ellipses and text. ``class_name`` is the object's class
    (or its tile's); ``properties`` its own over its tile's. ``layer`` is its layer's name and
    ``layer_labels`` the names and classes of its layer and every group around it (a layer named
    or classed ``walls`` makes walls). ``hidden``: hidden in the editor (object or layer);
    ``skewed``: rotated by other than a multiple of 90 degrees (traced as its points).
    """

    id: int
    name: str
    class_name: str
    layer: str
    layer_labels: tuple[str, ...]
    shape: str
    x: Fraction
    y: Fraction
    width: Fraction
    height: Fraction
    points: tuple[Point, ...]
    properties: dict[str, Stat] = field(hash=False)
    hidden: bool = False
    skewed: bool = False

    @property
    def centre(self) -> Point:
        """The centre used for figures and door shapes (the point itself for a point object)."""
        return centre_of(self.shape, self.x, self.y, self.width, self.height, self.points)

    @classmethod
    def from_points(
        cls,
        id: int,
        class_name: str,
        shape: str,
        points: Sequence[Point],
        *,
        name: str = "",
        layer: str = "",
        properties: Mapping[str, Stat] | None = None,
    ) -> ObjectRecord:
        """A record from absolute grid points (at least one), its box computed: how a reader of
        another format builds objects (a wall segment as a two-point ``polyline``, a door as a
        one-edge ``polyline`` with a ``state`` property, a token as a ``point``, or a
        ``rectangle`` given by its four corners, of class ``figure``; our role names need no
        mapping). An ellipse is given by its box's corners and, like text, keeps no points.

        >>> F = Fraction
        >>> door = ObjectRecord.from_points(7, "door", "polyline", [(F(2), F(1)), (F(2), F(2))],
        ...                                 properties={"state": "open"})
        >>> (door.x, door.y, door.width, door.height) == (2, 1, 0, 1)
        True
        """
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x, y = min(xs), min(ys)
        return cls(
            id, name, class_name, layer, (layer,), shape, x, y, max(xs) - x, max(ys) - y,
            () if shape in ("ellipse", "text") else tuple(points), dict(properties or {}),
        )


# --- the art: where every tile's pixels are (the window loads them; see game/ui/art.py) --------


@dataclass(frozen=True)
class TileImage:
    """Where one tile's pixels are: an image file, a sub-rectangle (None = whole image), an offset.

    ``colorkey`` is the tileset image's transparent colour (Tiled's ``trans``, ``RRGGBB``), if any.
    """

    image: Path
    rect: tuple[int, int, int, int] | None
    offset: tuple[int, int] = (0, 0)
    colorkey: str | None = None


@dataclass(frozen=True)
class ArtLayer:
    """One visible tile layer in draw order; ``gids`` is uint32 ``[y, x]`` WITH Tiled flip bits."""

    name: str
    opacity: float
    offset: tuple[float, float]
    gids: np.ndarray = field(hash=False, compare=False)


@dataclass(frozen=True)
class MapArt:
    """Plain data for the renderer: tile layers and where each tile's pixels are."""

    tile_width: int
    tile_height: int
    layers: tuple[ArtLayer, ...]
    tiles: dict[int, TileImage] = field(hash=False)
    background: str | None = None


# --- one map file --------------------------------------------------------------------------


@dataclass
class MapRecords:
    """Everything a reader read from one map file, for :func:`game.tiled.derive.derive_map`.

    ``width`` x ``height`` is the board in squares; ``origin`` the file's cell that is the board's
    ``(0, 0)`` (an infinite map's painted part starts anywhere). ``properties`` are the map's
    custom properties (``ruleset``, ``capacity`` and the rest). ``tiles`` holds the tileset tiles
    the file says something about, by gid (flip bits cleared). ``objects`` are in file order with
    unique ids. ``findings`` are what reading found (the derivation adds its own after them);
    ``files`` every file read (the map first, tilesets, templates), ``project_files`` the Tiled
    project that named the enums (both for live reload).
    """

    path: Path
    grid: GridLayout
    width: int
    height: int
    properties: dict[str, Stat] = field(default_factory=dict)
    origin: tuple[int, int] = (0, 0)
    layers: tuple[LayerRecord, ...] = ()
    tile_layers: tuple[TileLayerRecord, ...] = ()
    tilesets: tuple[TilesetRecord, ...] = ()
    tiles: Mapping[int, TileRecord] = field(default_factory=dict)
    objects: tuple[ObjectRecord, ...] = ()
    art: MapArt | None = None
    findings: list[Finding] = field(default_factory=list)
    files: tuple[Path, ...] = ()
    project_files: tuple[Path, ...] = ()


@dataclass(frozen=True)
class ObjectInfo(ObjectRecord):
    """One object of the map (its :class:`~game.tiled.records.ObjectRecord`) with the role the
    conventions gave it and what the derivation traced from its shape, once
    (:mod:`game.tiled.geometry`), for the linter and the window: a wall's or window's raw
    ``segments``, free ``ends``, unit ``edges`` on the map (once each) and the ``repeated`` ones
    it draws more than once; a door's
    ``door_edge``; a figure's ``square``. ``role`` is one of the conventions' roles,
    ``impassable`` (a ledge), ``ignored`` (a class the preset ignores) or ``other``.
    """

    role: str = "other"
    segments: tuple[Segment, ...] = ()
    ends: tuple[Point, ...] = ()
    edges: tuple[Edge, ...] = ()
    repeated: tuple[Edge, ...] = ()
    door_edge: Edge | None = None
    square: Square | None = None
