"""Write Sightline's bundled Tiled maps: the demo street, the LOS lessons and the ruleset samples.

Build tool only (not imported by the game). It writes plain TMX/TSX XML with the standard library
(no pytmx), so the output is exactly what Tiled 1.10 would save: orthogonal, 32 px grid, CSV tile
layers, an external tileset, walls/windows/doors as polylines along grid lines, figures as ellipses
(and one point) with their stats as custom properties. Run it from the repository root::

    python assets/make_art.py    # the tileset PNG (needs pygame)
    python maps/make_maps.py     # maps/tiles/street.tsx, maps/*.tmx, maps/lessons/*.tmx

Everything is deterministic: floor variants come from a ``random.Random`` seeded by the map name.
The maps are made for this project (licence: the project's, MIT). See ``maps/README.md``.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from game.core.board import Edge, Square  # noqa: E402

TILE = 32
FIRSTGID = 1
TILED_VERSION = ("1.10", "1.10.2")
Prop = str | int | bool


def _make_hex_demo(name: str = "make_hex_demo"):  # type: ignore[no-untyped-def]
    """``maps/make_hex_demo.py`` as a module (the hex demo's writer), or another hex writer."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the script runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _load_art():  # type: ignore[no-untyped-def]
    """``assets/make_art.py`` as a module (for its TILES list; pygame is not imported)."""
    spec = importlib.util.spec_from_file_location("make_art", REPO / "assets" / "make_art.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_art"] = module
    spec.loader.exec_module(module)
    return module


ART = _load_art()
GID: dict[str, int] = {spec.name: FIRSTGID + i for i, spec in enumerate(ART.TILES)}


# --- objects ---------------------------------------------------------------------------------


@dataclass
class Figure:
    """A figure object: drawn as an ellipse in its square (or a point), stats as properties."""

    name: str
    square: Square
    side: str
    stats: dict[str, Prop] = field(default_factory=dict)
    point: bool = False


@dataclass
class Door:
    """A door on one edge (``"V(2,2)"``) in a state: closed, open or locked."""

    edge: str
    state: str = "closed"


@dataclass
class Board:
    """Everything one TMX file holds, in grid terms."""

    name: str
    width: int
    height: int
    ground: list[list[str | None]]
    blocks: list[list[str | None]] | None = None
    walls: list[list[tuple[int, int]]] = field(default_factory=list)
    windows: list[str] = field(default_factory=list)
    doors: list[Door] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    properties: dict[str, Prop] = field(default_factory=dict)
    #: deployment zones: (side, x0, y0, x1, y1), the squares x0..x1-1, y0..y1-1 (docs/balance.md)
    zones: list[tuple[str, int, int, int, int]] = field(default_factory=list)


def edge_points(text: str) -> list[tuple[int, int]]:
    """The two grid corners of an edge in the Arcadia Quest rule's notation.

    >>> edge_points("V(2,1)"), edge_points("H(1,2)")
    ([(2, 1), (2, 2)], [(1, 2), (2, 2)])
    """
    a, b = Edge.parse(text).ends()
    return [a, b]


def _unit_edge(p: tuple[int, int], q: tuple[int, int]) -> Edge:
    if p[1] == q[1]:
        return Edge("H", min(p[0], q[0]), p[1])
    return Edge("V", p[0], min(p[1], q[1]))


def _walk(corners: Sequence[tuple[int, int]], closed: bool) -> list[tuple[tuple[int, int], Edge]]:
    """Unit steps along a rectilinear path: (start corner, edge) for each unit edge."""
    path = list(corners) + ([corners[0]] if closed else [])
    steps = []
    for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
        if ax != bx and ay != by:
            raise ValueError(f"diagonal wall segment {(ax, ay)}-{(bx, by)}")
        dx = (bx > ax) - (bx < ax)
        dy = (by > ay) - (by < ay)
        x, y = ax, ay
        while (x, y) != (bx, by):
            nxt = (x + dx, y + dy)
            steps.append(((x, y), _unit_edge((x, y), nxt)))
            x, y = nxt
    return steps


def _simplify(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop the vertices where the run goes straight on."""
    out = [points[0]]
    for i in range(1, len(points) - 1):
        (ax, ay), (bx, by), (cx, cy) = out[-1], points[i], points[i + 1]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) != 0:
            out.append(points[i])
    out.append(points[-1])
    return out


def wall_runs(
    corners: Sequence[tuple[int, int]], openings: Iterable[str], *, closed: bool = False
) -> list[list[tuple[int, int]]]:
    """Polylines along ``corners`` (a room outline when ``closed``), broken at door/window edges.

    >>> wall_runs([(0, 0), (3, 0)], ["H(1,0)"])
    [[(0, 0), (1, 0)], [(2, 0), (3, 0)]]
    >>> wall_runs([(0, 0), (2, 0), (2, 1), (0, 1)], ["V(0,0)"], closed=True)
    [[(0, 0), (2, 0), (2, 1), (0, 1)]]
    """
    gaps = {Edge.parse(o) for o in openings}
    steps = _walk(corners, closed)
    if closed and gaps:
        first_gap = next(i for i, (_, e) in enumerate(steps) if e in gaps)
        steps = steps[first_gap + 1 :] + steps[: first_gap + 1]
    runs: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for start, edge in steps:
        if edge in gaps:
            if len(current) > 1:
                runs.append(current)
            current = []
            continue
        a, b = edge.ends()
        end = b if start == a else a
        if not current:
            current = [start]
        current.append(end)
    if len(current) > 1:
        runs.append(current)
    return [_simplify(run) for run in runs]


def room(
    x0: int, y0: int, x1: int, y1: int, openings: Iterable[str] = ()
) -> list[list[tuple[int, int]]]:
    """Wall polylines around the squares x0..x1-1, y0..y1-1 (grid corners), minus openings."""
    return wall_runs([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], openings, closed=True)


# --- XML -------------------------------------------------------------------------------------


def _properties(parent: ET.Element, props: dict[str, Prop]) -> None:
    if not props:
        return
    node = ET.SubElement(parent, "properties")
    for key, value in props.items():
        attrs = {"name": key}
        if isinstance(value, bool):
            attrs["type"] = "bool"
            attrs["value"] = "true" if value else "false"
        elif isinstance(value, int):
            attrs["type"] = "int"
            attrs["value"] = str(value)
        else:
            attrs["value"] = str(value)
        ET.SubElement(node, "property", attrs)


def _write_xml(root: ET.Element, path: Path) -> None:
    """Save an XML tree as Tiled does (UTF-8, one-space indent), atomically."""
    ET.indent(root, space=" ")
    body = ET.tostring(root, encoding="unicode").replace(" />", "/>")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=path.suffix, dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def write_tileset(path: Path, image_png: Path) -> None:
    """``maps/tiles/street.tsx``: the tile sheet with ``terrain`` names and blocked/void flags."""
    width, height = ART.sheet_size()
    root = ET.Element("tileset", {
        "version": TILED_VERSION[0], "tiledversion": TILED_VERSION[1], "name": "street",
        "tilewidth": str(TILE), "tileheight": str(TILE), "tilecount": str(len(ART.TILES)),
        "columns": str(ART.COLUMNS),
    })
    image = os.path.relpath(image_png, path.parent)
    ET.SubElement(root, "image", {"source": Path(image).as_posix(), "width": str(width),
                                  "height": str(height)})
    for index, spec in enumerate(ART.TILES):
        tile = ET.SubElement(root, "tile", {"id": str(index)})
        props: dict[str, Prop] = {}
        if spec.blocked:
            props["blocked"] = True
        if spec.void:
            props["void"] = True
        props["terrain"] = spec.name
        _properties(tile, props)
    _write_xml(root, path)


def _polyline(group: ET.Element, oid: int, kind: str, points: list[tuple[int, int]],
              props: dict[str, Prop] | None = None, name: str = "") -> None:
    x0, y0 = points[0]
    attrs = {"id": str(oid)}
    if name:
        attrs["name"] = name
    attrs.update({"type": kind, "x": str(x0 * TILE), "y": str(y0 * TILE)})
    obj = ET.SubElement(group, "object", attrs)
    _properties(obj, props or {})
    rel = " ".join(f"{(x - x0) * TILE},{(y - y0) * TILE}" for x, y in points)
    ET.SubElement(obj, "polyline", {"points": rel})


def _figure_objects(group: ET.Element, figures: list[Figure], next_id: int) -> int:
    by_square: dict[Square, list[Figure]] = {}
    for fig in figures:
        by_square.setdefault(fig.square, []).append(fig)
    for fig in figures:
        mates = by_square[fig.square]
        slot = mates.index(fig)
        sx, sy = fig.square
        props: dict[str, Prop] = {"side": fig.side, **fig.stats}
        if fig.point:
            attrs = {"id": str(next_id), "name": fig.name, "type": "figure",
                     "x": str(sx * TILE + (8 + 16 * slot if len(mates) > 1 else 16)),
                     "y": str(sy * TILE + 16)}
            obj = ET.SubElement(group, "object", attrs)
            _properties(obj, props)
            ET.SubElement(obj, "point")
        else:
            size = 24 if len(mates) == 1 else 14
            ox = 4 if len(mates) == 1 else 2 + 14 * slot
            oy = 4 if len(mates) == 1 else 9
            attrs = {"id": str(next_id), "name": fig.name, "type": "figure",
                     "x": str(sx * TILE + ox), "y": str(sy * TILE + oy),
                     "width": str(size), "height": str(size)}
            obj = ET.SubElement(group, "object", attrs)
            _properties(obj, props)
            ET.SubElement(obj, "ellipse")
        next_id += 1
    return next_id


def _csv(grid: list[list[str | None]]) -> str:
    rows = [",".join(str(GID[c]) if c else "0" for c in row) for row in grid]
    return "\n" + ",\n".join(rows) + "\n"


def write_map(board: Board, path: Path, tileset: Path) -> None:
    """Write one board as an orthogonal TMX map with CSV layers and an external tileset."""
    root = ET.Element("map", {
        "version": TILED_VERSION[0], "tiledversion": TILED_VERSION[1],
        "orientation": "orthogonal", "renderorder": "right-down",
        "width": str(board.width), "height": str(board.height),
        "tilewidth": str(TILE), "tileheight": str(TILE), "infinite": "0",
        "nextlayerid": "0", "nextobjectid": "0",
    })
    _properties(root, board.properties)
    ET.SubElement(root, "tileset", {"firstgid": str(FIRSTGID),
                                    "source": os.path.relpath(tileset, path.parent)})
    layer_id = 1
    for lname, grid in (("ground", board.ground), ("blocks", board.blocks)):
        if grid is None:
            continue
        layer = ET.SubElement(root, "layer", {"id": str(layer_id), "name": lname,
                                              "width": str(board.width),
                                              "height": str(board.height)})
        data = ET.SubElement(layer, "data", {"encoding": "csv"})
        data.text = _csv(grid)
        layer_id += 1
    oid = 1
    walls = ET.SubElement(root, "objectgroup", {"id": str(layer_id), "name": "walls"})
    layer_id += 1
    for run in board.walls:
        _polyline(walls, oid, "wall", run)
        oid += 1
    if board.doors or board.windows:
        openings = ET.SubElement(root, "objectgroup", {"id": str(layer_id), "name": "openings"})
        layer_id += 1
        for door in board.doors:
            _polyline(openings, oid, "door", edge_points(door.edge), {"state": door.state},
                      name=f"door {door.edge}")
            oid += 1
        for window in board.windows:
            _polyline(openings, oid, "window", edge_points(window), name=f"window {window}")
            oid += 1
    if board.zones:
        group = ET.SubElement(root, "objectgroup", {"id": str(layer_id), "name": "deployment"})
        layer_id += 1
        for side, x0, y0, x1, y1 in board.zones:
            obj = ET.SubElement(group, "object", {
                "id": str(oid), "name": f"{side} deployment", "type": "deploy", "x": str(x0 * TILE),
                "y": str(y0 * TILE), "width": str((x1 - x0) * TILE), "height": str((y1 - y0) * TILE)})
            _properties(obj, {"side": side})
            oid += 1
    if board.figures:
        group = ET.SubElement(root, "objectgroup", {"id": str(layer_id), "name": "figures"})
        layer_id += 1
        oid = _figure_objects(group, board.figures, oid)
    root.set("nextlayerid", str(layer_id))
    root.set("nextobjectid", str(oid))
    if not len(walls):
        root.remove(walls)
    _write_xml(root, path)


# --- painting helpers ------------------------------------------------------------------------

STREET = ("cobble", "cobble", "cobble", "cobble-worn", "cobble-worn", "cobble-moss")
GROUND_CODES: dict[str, tuple[str, ...]] = {
    ".": STREET,
    "p": ("flagstone",),
    "g": ("grass", "grass", "grass-flowers"),
    "f": ("grass-flowers",),
    "d": ("dirt",),
    "w": ("wood-floor", "wood-floor", "wood-floor-knots"),
    "s": ("stone-floor", "stone-floor", "stone-floor-cracked"),
    "~": ("water",),
    "#": ("chasm",),
}
#: block code -> (block tile, ground code under it)
BLOCK_CODES: dict[str, tuple[str, str]] = {
    "R": ("roof-red", "."),
    "S": ("roof-slate", "."),
    "X": ("crates", "."),
    "B": ("barrels", "."),
    "T": ("tree", "g"),
    "H": ("hedge", "g"),
    "O": ("well", "p"),
}


def paint(rows: Sequence[str], seed: str) -> tuple[list[list[str | None]], list[list[str | None]]]:
    """Ground and block layers from ASCII rows; a space is an empty (void) cell."""
    rng = random.Random(seed)
    ground: list[list[str | None]] = []
    blocks: list[list[str | None]] = []
    for row in rows:
        g_row: list[str | None] = []
        b_row: list[str | None] = []
        for ch in row:
            if ch == " ":
                g_row.append(None)
                b_row.append(None)
            elif ch in BLOCK_CODES:
                tile, under = BLOCK_CODES[ch]
                g_row.append(rng.choice(GROUND_CODES[under]))
                b_row.append(tile)
            else:
                g_row.append(rng.choice(GROUND_CODES[ch]))
                b_row.append(None)
        ground.append(g_row)
        blocks.append(b_row)
    return ground, blocks


def _check(board: Board) -> Board:
    """Catch mistakes while generating: figures on good squares, at most capacity per square."""
    capacity = int(board.properties.get("capacity", 2))
    count: dict[Square, int] = {}
    for fig in board.figures:
        x, y = fig.square
        assert 0 <= x < board.width and 0 <= y < board.height, (board.name, fig.name)
        assert board.ground[y][x] is not None, (board.name, fig.name, "void")
        assert board.ground[y][x] not in ("water", "chasm"), (board.name, fig.name, "void tile")
        assert board.blocks is None or board.blocks[y][x] is None, (board.name, fig.name, "blocked")
        count[fig.square] = count.get(fig.square, 0) + 1
        assert count[fig.square] <= capacity, (board.name, fig.square)
    for row in (board.ground, *([board.blocks] if board.blocks else [])):
        assert len(row) == board.height and all(len(r) == board.width for r in row), board.name
    return board


# --- the demo street -------------------------------------------------------------------------

DEMO_ROWS = (
    # 0123456789ABCDE
    "~~~..HfgTg..SS#",  # 0
    "~~...gggfg.....",  # 1
    "~.wwwww.RR.ssss",  # 2
    "..wwwww.RR.ssss",  # 3
    "..wwwww.SX.ssss",  # 4
    "..wwwww.d..ssss",  # 5
    "......B........",  # 6
    ".RR..pppppp....",  # 7
    ".RR..ppOppp.XS.",  # 8
    ".....pppppp..S.",  # 9
    "...............",  # 10
    ".ssss..RR.wwww.",  # 11
    ".ssss..RR.wwww.",  # 12
    ".ssss.....wwww ",  # 13
    "..X..gg.B...   ",  # 14
)


def _hero(attacks: str, life: int, defense: int, **extra: Prop) -> dict[str, Prop]:
    return {"life": life, "defense": defense, "attacks": attacks, **extra}


def demo() -> Board:
    """The 15x15 street: a tavern, a guildhall, a crypt and a warehouse around a plaza."""
    ground, blocks = paint(DEMO_ROWS, "demo")
    walls = [
        # the Tavern (wood floor, x 2..6, y 2..5): open south door, closed east door, 2 windows
        *room(2, 2, 7, 6, ["H(4,6)", "V(7,3)", "H(3,2)", "H(5,2)"]),
        # the Guildhall (stone, x 11..14, y 2..5): street door west (closed), a strong room with
        # a locked door to the hall and an open back door onto the north street
        *room(11, 2, 15, 6, ["V(11,4)", "H(12,6)", "H(11,2)"]),
        *wall_runs([(11, 4), (13, 4), (13, 2)], ["H(12,4)"]),
        # the Crypt (stone, x 1..4, y 11..13): locked door north, open door east
        *room(1, 11, 5, 14, ["H(2,11)", "V(5,12)"]),
        # the Warehouse (wood, x 10..13, y 11..13): closed door north, open door west, a window
        *room(10, 11, 14, 14, ["H(11,11)", "V(10,12)", "V(14,12)"]),
        # the garden fence stub and a low wall beside the plaza (corners to skim)
        [(5, 7), (5, 10)],
        [(9, 0), (9, 2)],
    ]
    doors = [
        Door("H(4,6)", "open"),
        Door("V(7,3)", "closed"),
        Door("V(11,4)", "closed"),
        Door("H(12,4)", "locked"),
        Door("H(2,11)", "locked"),
        Door("V(5,12)", "open"),
        Door("H(11,11)", "closed"),
        Door("V(10,12)", "open"),
        Door("H(12,6)", "open"),
        Door("H(11,2)", "open"),
    ]
    windows = ["H(3,2)", "H(5,2)", "V(14,12)"]
    red = "Red Guild"
    blue = "Blue Guild"
    mon = "monsters"
    figures = [
        Figure("Ember", (4, 3), red, _hero("Short Bow:ranged:2; Dagger:melee:2", 5, 2)),
        Figure("Rook", (4, 5), red, _hero("Dusty Blade:melee:3", 6, 2)),
        Figure("Thistle", (3, 7), red, _hero("Fancy Blade:melee:2; Throwing Knives:ranged:2", 5, 2)),
        Figure("Vane", (6, 12), red, _hero("Staff of Sparks:ranged:3", 4, 1, wounds=1)),
        Figure("Sable", (12, 5), blue, _hero("Long Bow:ranged:3", 5, 1)),
        Figure("Wren", (11, 9), blue, _hero("Twin Axes:melee:3", 6, 2)),
        Figure("Fathom", (14, 7), blue, _hero("Tide Spear:melee:2; Harpoon:ranged:2", 5, 2)),
        Figure("Lark", (12, 12), blue, _hero("Crossbow:ranged:3", 4, 2), point=True),
        Figure("Snarl", (7, 4), mon, {"life": 2, "defense": 0, "attacks": "Rusty Knife:melee:2",
                                      "movement": 2}),
        Figure("Grub", (7, 4), mon, {"life": 2, "defense": 0, "attacks": "Sling:ranged:2",
                                     "movement": 2}),
        Figure("Mossback", (9, 12), mon, {"life": 6, "defense": 1, "attacks": "Club:melee:4",
                                          "movement": 2}),
        Figure("Hex", (12, 7), mon, {"life": 3, "defense": 1, "movement": 3,
                                     "attacks": "Hex Bolt:ranged:3; Claws:melee:1"}),
        Figure("Cinder", (4, 9), mon, {"life": 2, "defense": 1, "attacks": "Fire Spit:ranged:2",
                                       "movement": 2}),
        Figure("Gnash", (2, 12), mon, {"life": 4, "defense": 1, "attacks": "Bite:melee:3", "movement": 3,
                                       "wounds": 1}),
    ]
    return _check(Board(
        "demo", 15, 15, ground, blocks, walls, windows, doors, figures,
        {
            "caption": "Market street: two guilds, a goblin pair blocking the alley, doors to open "
                       "and corners to skim.",
            "ruleset": "arcadia",
            "capacity": 2,
        },
    ))


# --- the lessons (vectors L1-L30 of docs/line-of-sight.md) ------------------------------------------------

ARCHER = {"life": 5, "defense": 1, "attacks": "Short Bow:ranged:2; Dagger:melee:1"}
GOBLIN = {"life": 2, "defense": 0, "attacks": "Rusty Knife:melee:2"}
SQUIRE = {"life": 4, "defense": 2, "attacks": "Spear:melee:2"}


@dataclass
class Lesson:
    """One LOS lesson: a vector of docs/line-of-sight.md on a small board."""

    file: str
    vector: str
    frm: Square
    to: Square
    expected: str
    caption: str
    size: tuple[int, int] = (5, 5)
    walls: list[str] = field(default_factory=list)
    doors: list[Door] = field(default_factory=list)
    blk: list[Square] = field(default_factory=list)
    allies: list[Square] = field(default_factory=list)
    enemies: list[Square] = field(default_factory=list)
    off: list[Square] = field(default_factory=list)
    target_extra: bool = False
    attacker_side: str = "heroes"
    blocker_side: str = "monsters"
    no_target: bool = False
    #: linter codes this board breaks on purpose (every lesson: figures without a target in sight)
    lint_ignore: tuple[str, ...] = ()
    #: blocked terrain (crates) squares
    terrain: list[Square] = field(default_factory=list)
    #: the line-of-sight rule the lesson teaches (map property los_rule; empty: arcadia)
    los_rule: str = ""


S = "Two goblins (enemies of the archer) fill"

LESSONS: tuple[Lesson, ...] = (
    Lesson("L01", "L01", (0, 2), (4, 2), "clear",
           "A straight shot along an empty street: nothing is in the way, so the archer sees the "
           "goblin. Distance never matters."),
    Lesson("L02", "L02", (0, 2), (4, 2), "blocked",
           "The line from centre to centre crosses a wall, so there is no line of sight.",
           walls=["V(2,2)"]),
    Lesson("L03a", "L03", (0, 2), (4, 2), "blocked",
           "A closed door is a wall: the line crosses it, so the shot is blocked. Click the door "
           "to open it.", walls=["V(2,1)", "V(2,3)"], doors=[Door("V(2,2)", "closed")]),
    Lesson("L03b", "L03", (0, 2), (4, 2), "clear",
           "An open door is no wall at all: the line passes through the doorway, so the archer "
           "sees the goblin.", walls=["V(2,1)", "V(2,3)"], doors=[Door("V(2,2)", "open")]),
    Lesson("L04a", "L04", (0, 2), (4, 2), "blocked",
           f"{S} the middle square: a square holding two enemies of the shooter is Blocked and "
           "stops the line.", blk=[(2, 2)]),
    Lesson("L04b", "L04", (0, 2), (4, 2), "clear",
           "One enemy alone in the middle square does not block: it takes two enemies to fill a "
           "square.", enemies=[(2, 2)]),
    Lesson("L04c", "L04", (0, 2), (4, 2), "clear",
           "An ally and an enemy share the middle square: it is Full for the archer, not Blocked, "
           "so the line passes.", allies=[(2, 2)], enemies=[(2, 2)]),
    Lesson("L04d", "L04", (0, 2), (4, 2), "clear",
           "Two allies in the middle square never block their own side's line of sight.",
           allies=[(2, 2), (2, 2)]),
    Lesson("L05", "L05", (0, 2), (4, 2), "clear",
           "The target's own square never blocks, even with two enemies in it: you can always "
           "shoot into a full square.", target_extra=True),
    Lesson("L06", "L06", (1, 1), (2, 2), "clear",
           f"{S} one square beside the diagonal. The line skims the corner with only one side "
           "closed, so it is clear.", blk=[(2, 1)]),
    Lesson("L07", "L07", (1, 1), (2, 2), "blocked",
           "Both squares beside the diagonal hold two enemies: the corner is closed on both "
           "sides, so the line is blocked.", blk=[(2, 1), (1, 2)]),
    Lesson("L08", "L08", (1, 1), (2, 2), "clear",
           "A wall ends at the corner the line passes through: one side only, so the line "
           "skims past.", walls=["V(2,1)"]),
    Lesson("L09", "L09", (1, 1), (2, 2), "blocked",
           "Two walls meet at the corner, one on each side of the line: both sides are closed, "
           "so it is blocked.", walls=["V(2,1)", "H(1,2)"]),
    Lesson("L10", "L10", (1, 1), (2, 2), "blocked",
           "A straight wall runs right through the corner: it has a piece on each side of the "
           "line, so it blocks.", walls=["H(1,2)", "H(2,2)"]),
    Lesson("L11", "L11", (1, 1), (2, 2), "clear",
           "A wall ends at the corner, like a door frame: only one side is closed, so the line "
           "skims past.", walls=["H(2,2)"]),
    Lesson("L12", "L12", (1, 1), (2, 2), "blocked",
           "Enemies close one side of the corner and a wall closes the other: both sides closed, "
           "blocked.", blk=[(2, 1)], walls=["V(2,2)"]),
    Lesson("L13", "L13", (1, 1), (2, 2), "clear",
           "The enemies and the wall are on the same side of the corner: the other side is open, "
           "so the line is clear.", blk=[(2, 1)], walls=["H(2,2)"]),
    Lesson("L14", "L14", (0, 0), (1, 3), "clear",
           "A steep line passes exactly through a corner with one side blocked. Since the 2015 "
           "errata this skims at any angle, not only at 45 degrees.", blk=[(1, 1)]),
    Lesson("L15", "L15", (0, 0), (1, 3), "blocked",
           "The same steep line, but both sides of the corner hold two enemies: blocked.",
           blk=[(1, 1), (0, 2)]),
    Lesson("L16", "L16", (0, 0), (1, 3), "blocked",
           "Here the line runs through the middle of a square holding two enemies, not past a "
           "corner: blocked.", blk=[(0, 1)]),
    Lesson("L17", "L17", (0, 0), (2, 1), "blocked",
           "A shallow line crosses the wall a quarter of the way down its length: any crossing "
           "of a wall blocks.", walls=["V(1,0)"]),
    Lesson("L18", "L18", (0, 0), (2, 1), "blocked",
           "The same line crosses this wall at its middle: blocked.", walls=["H(1,1)"]),
    Lesson("L19a", "L19", (0, 0), (2, 1), "clear",
           "This wall is near but not on the line's path, so it does not matter: clear.",
           walls=["H(0,1)"]),
    Lesson("L19b", "L19", (0, 0), (2, 1), "clear",
           "Two enemies stand in a square next to the line, which never enters it: clear.",
           blk=[(0, 1)]),
    Lesson("L20", "L20", (0, 0), (2, 1), "blocked",
           "The line passes through the square with two enemies: blocked.", blk=[(1, 1)]),
    Lesson("L21", "L21", (0, 0), (2, 1), "blocked",
           "The line crosses a hole in the board. A line of sight can never leave the board.",
           off=[(1, 1)]),
    Lesson("L22", "L22", (0, 0), (1, 1), "clear",
           "One square beside the diagonal is off the board. It counts as one closed side, so "
           "the line skims the corner.", size=(3, 3), off=[(1, 0)]),
    Lesson("L23", "L23", (0, 0), (1, 1), "blocked",
           "Both squares beside the diagonal are off the board: the corner is closed on both "
           "sides, so the line is blocked.", size=(3, 3), off=[(1, 0), (0, 1)],
           lint_ignore=("region-unreachable",)),
    Lesson("L24", "L24", (0, 0), (0, 9), "clear",
           "Ten squares down a long corridor: distance is irrelevant for a ranged attack.",
           size=(1, 10)),
    Lesson("L25", "L25", (0, 0), (2, 2), "blocked",
           "A long diagonal passes through the centre square, which holds two enemies: blocked.",
           blk=[(1, 1)]),
    Lesson("L26", "L26", (0, 0), (2, 2), "blocked",
           "At the first corner both sides hold two enemies: blocked.", blk=[(1, 0), (0, 1)]),
    Lesson("L27", "L27", (0, 0), (2, 2), "clear",
           "The line touches two corners. Each has only one side closed (both on the same side "
           "of the line), so it is clear.", blk=[(1, 0), (2, 1)]),
    Lesson("L28", "L28", (0, 0), (2, 2), "clear",
           "Two corners, each with one closed side, even on opposite sides of the line: still "
           "clear, because each corner is judged on its own.", blk=[(1, 0), (1, 2)]),
    Lesson("L29a", "L29", (2, 2), (2, 2), "clear",
           "The archer and the goblin share a square: a figure always has line of sight to the "
           "others in its own square."),
    Lesson("L29b", "L29", (2, 2), (2, 2), "blocked",
           "A figure has no line of sight to itself: it can never target itself with a ranged "
           "attack.", no_target=True),
    Lesson("L30a", "L30", (0, 2), (4, 2), "clear",
           "Now a troll shoots. Two monsters in the middle square are its allies, so they do not "
           "block its line of sight.", attacker_side="monsters", blocker_side="monsters",
           blk=[(2, 2)]),
    Lesson("L30b", "L30", (0, 2), (4, 2), "blocked",
           "Two heroes in the middle square are enemies of the troll: for a monster, heroes "
           "block.", attacker_side="monsters", blocker_side="heroes", blk=[(2, 2)]),
)


#: each lesson's title (the heading and the lesson menu) and its question: the set-up and what to
#: predict, with no answer in it (classroom mode shows it before the reveal; the caption after)
ASK: dict[str, tuple[str, str]] = {
    "L01": ("An empty street", "An empty street, five squares long. Can the archer see the goblin?"),
    "L02": ("A wall", "A wall stands between (1,2) and (2,2). Can the archer see the goblin?"),
    "L03a": ("A closed door", "A closed door stands in the wall between (1,2) and (2,2). Can the archer see the "
             "goblin?"),
    "L03b": ("An open door", "The door in the wall between (1,2) and (2,2) is open. Can the archer see the goblin?"),
    "L04a": ("Two enemies in the middle", "Two goblins, enemies of the archer, stand on the middle square (2,2). "
             "Can the archer see the goblin on (4,2)?"),
    "L04b": ("One enemy in the middle", "One goblin, an enemy of the archer, stands on the middle square (2,2). "
             "Can the archer see the goblin on (4,2)?"),
    "L04c": ("An ally and an enemy", "A squire (the archer's ally) and a goblin share the middle square (2,2). "
             "Can the archer see the goblin on (4,2)?"),
    "L04d": ("Two allies in the middle", "Two squires, the archer's allies, stand on the middle square (2,2). "
             "Can the archer see the goblin on (4,2)?"),
    "L05": ("Two enemies on the target", "The goblin shares (4,2) with a goblin guard: two enemies of the archer "
            "on one square. Can the archer see the goblin?"),
    "L06": ("A corner, one side full", "Two goblins fill (2,1), one of the two squares beside the diagonal. Can "
            "the archer on (1,1) see the goblin on (2,2)?"),
    "L07": ("A corner, both sides full", "Two goblins fill (2,1) and two more fill (1,2): both squares beside "
            "the diagonal. Can the archer see the goblin on (2,2)?"),
    "L08": ("A wall ending at the corner", "A wall between (1,1) and (2,1) ends at the corner the archer and the "
            "goblin share. Can the archer see the goblin?"),
    "L09": ("Two walls meeting", "Two walls meet at the corner between the archer and the goblin, one on each "
            "side of the diagonal. Can the archer see the goblin?"),
    "L10": ("A wall through the corner", "A straight wall runs under (1,1) and (2,1), through the corner between "
            "the archer and the goblin. Can the archer see the goblin?"),
    "L11": ("A door frame", "A wall between (2,1) and (2,2) ends at the corner between the archer and the goblin, "
            "like a door frame. Can the archer see the goblin?"),
    "L12": ("Enemies and a wall, opposite", "Two goblins fill (2,1); a wall stands between (1,2) and (2,2), on the "
            "other side of the corner. Can the archer see the goblin?"),
    "L13": ("Enemies and a wall, one side", "Two goblins fill (2,1) and a wall stands under them: both on the "
            "same side of the corner. Can the archer see the goblin?"),
    "L14": ("A steep corner", "A steep line from (0,0) to (1,3) goes exactly through a corner; two goblins fill "
            "(1,1), beside it. Can the archer see the goblin?"),
    "L15": ("A steep corner, both sides full", "The same steep line; two goblins fill (1,1) and two more fill "
            "(0,2), both squares beside the corner. Can the archer see the goblin?"),
    "L16": ("A steep line, goblins below", "The same steep line from (0,0) to (1,3); two goblins fill (0,1). Can "
            "the archer see the goblin?"),
    "L17": ("A wall, a quarter along", "A shallow line from (0,0) to (2,1); a wall stands between (0,0) and "
            "(1,0). Can the archer see the goblin?"),
    "L18": ("A wall, halfway along", "The same shallow line; a wall stands between (1,0) and (1,1). Can the "
            "archer see the goblin?"),
    "L19a": ("A wall under the archer", "The same shallow line; a wall stands between (0,0) and (0,1), under the "
             "archer. Can the archer see the goblin?"),
    "L19b": ("Enemies under the archer", "The same shallow line; two goblins fill (0,1), under the archer. Can "
             "the archer see the goblin?"),
    "L20": ("Enemies next to the goblin", "The same shallow line; two goblins fill (1,1), next to the goblin. Can "
            "the archer see the goblin?"),
    "L21": ("A hole in the board", "Square (1,1) is a hole: it is not part of the board. Can the archer on (0,0) "
            "see the goblin on (2,1)?"),
    "L22": ("One side off the board", "Square (1,0), one of the two beside the diagonal, is off the board. Can "
            "the archer see the goblin on (1,1)?"),
    "L23": ("Both sides off the board", "Both squares beside the diagonal, (1,0) and (0,1), are off the board. "
            "Can the archer see the goblin on (1,1)?"),
    "L24": ("A long corridor", "The goblin stands ten squares down a corridor. Can the archer see it?"),
    "L25": ("A long diagonal", "Two goblins fill the centre square (1,1). Can the archer on (0,0) see the goblin "
            "on (2,2)?"),
    "L26": ("Two corners, the first full", "Two goblins fill (1,0) and two more fill (0,1), both squares beside "
            "the first corner. Can the archer see the goblin on (2,2)?"),
    "L27": ("Two corners, one side each", "Two goblins fill (1,0) and two more fill (2,1): one square beside each "
            "corner, both on the same side. Can the archer see the goblin on (2,2)?"),
    "L28": ("Two corners, opposite sides", "Two goblins fill (1,0) and two more fill (1,2): one square beside "
            "each corner, on opposite sides. Can the archer see the goblin on (2,2)?"),
    "L29a": ("Two figures, one square", "The archer and the goblin share square (2,2). Can the archer see the "
             "goblin?"),
    "L29b": ("Alone on a square", "The archer stands alone on (2,2). Can the archer see itself, and shoot at "
             "itself?"),
    "L30a": ("A monster shoots past monsters", "Now a troll shoots. Two goblins, monsters like the troll, stand "
             "on the middle square (2,2). Can the troll see the knight?"),
    "L30b": ("A monster shoots past heroes", "The troll again; two squires, heroes like the knight, stand on the "
             "middle square (2,2). Can the troll see the knight?"),
    "R01": ("corners: an empty middle", "Rule corners: lines from a corner of one square to a corner of the "
            "other. The middle square (1,0) is empty. Can the archer see the goblin?"),
    "R02": ("corners: one goblin", "Rule corners: one goblin stands on the middle square (1,0). Can the archer "
            "see the goblin on (2,0)?"),
    "R03": ("corners: a wall across", "Rule corners: a wall stands between (0,0) and (1,0), across the whole "
            "board. Can the archer see the goblin?"),
    "R04": ("corners: crates at a corner", "Rule corners: crates fill (1,0) and (0,1), at the corner (1,1) of "
            "the archer's square. Can the archer see the goblin on (2,2)?"),
    "R05": ("dnd5e: a crate in the middle", "Rule dnd5e: a crate fills (1,1). Can the archer see the goblin on "
            "(2,2), and with what cover?"),
    "R06": ("corners: walls east and south", "Rule corners: walls stand on the archer's east and south sides. "
            "Can the archer see the goblin on (1,1)?"),
    "R07": ("corners: a wall's end", "Rule corners: a wall between (0,0) and (1,0) ends at the corner those "
            "squares share with (1,1). Can the archer see the goblin on (1,1)?"),
    "R08": ("corners: round a wall", "Rule corners: a wall stands between the archer on (0,0) and the goblin "
            "on (1,0); its lower end is free. Can the archer see the goblin?"),
    "R09": ("dnd5e: a crate on the way", "Rule dnd5e: a crate fills (1,0), between the archer and the goblin "
            "on the top row. Can the archer see the goblin, and with what cover?"),
    "R10a": ("from/to = corners", "Rule corners (from = corners, to = corners): a crate fills the middle "
             "square (1,1). Can the archer see the goblin on (2,2)?"),
    "R10b": ("from/to = centre", "Rule corners with from = centre, to = centre: a crate fills the middle "
             "square (1,1). Can the archer see the goblin on (2,2)?"),
    "R11a": ("figures = any", "Rule corners (figures = any): one goblin stands on the middle square (1,0). Can "
             "the archer see the goblin on (2,0)?"),
    "R11b": ("figures = none", "Rule corners with figures = none: one goblin stands on the middle square (1,0). "
             "Can the archer see the goblin on (2,0)?"),
    "R12a": ("corner_touch = clear", "Rule corners (corner_touch = clear): crates fill (1,0) and (0,1). Can the "
             "archer see the goblin on (2,2)?"),
    "R12b": ("corner_touch = both-sides", "Rule corners with corner_touch = both-sides: crates fill (1,0) and "
             "(0,1). Can the archer see the goblin on (2,2)?"),
    "R13a": ("along_wall = clear", "Rule dnd5e (along_wall = clear): a crate fills the middle square of a "
             "one-row board. Can the archer see the goblin on (2,0)?"),
    "R13b": ("along_wall = blocks", "Rule dnd5e with along_wall = blocks: a crate fills the middle square of a "
             "one-row board. Can the archer see the goblin on (2,0)?"),
    "R14a": ("along_square = clear", "Rule dnd5e (along_square = clear): a crate fills (1,0) on the top row. "
             "Can the archer on (0,0) see the goblin on (2,0)?"),
    "R14b": ("along_square = blocks", "Rule dnd5e with along_square = blocks: a crate fills (1,0) on the top "
             "row. Can the archer on (0,0) see the goblin on (2,0)?"),
    "R15a": ("boundary = closed", "Rule dnd5e with along_wall = blocks (boundary = closed): a crate fills the "
             "middle of a one-row board. Can the archer see the goblin on (2,0)?"),
    "R15b": ("boundary = open", "Rule dnd5e with along_wall = blocks and boundary = open: a crate fills the "
             "middle of a one-row board. Can the archer see the goblin on (2,0)?"),
    "R16": ("any-point: crates at a corner", "Rule any-point: crates fill (1,0) and (0,1). Can the archer see "
            "the goblin on (2,2)?"),
}


def _lesson_board(lesson: Lesson) -> Board:
    width, height = lesson.size
    rows = ["".join(" " if (x, y) in lesson.off else "X" if (x, y) in lesson.terrain else "."
                    for x in range(width))
            for y in range(height)]
    ground, blocks = paint(rows, f"lesson-{lesson.file}")
    monsters_attack = lesson.attacker_side == "monsters"
    figures: list[Figure] = []
    if monsters_attack:
        figures.append(Figure("Troll", lesson.frm, "monsters",
                              {"life": 6, "defense": 1, "attacks": "Boulder:ranged:3; Club:melee:3"}))
    else:
        figures.append(Figure("Archer", lesson.frm, lesson.attacker_side, dict(ARCHER)))
    if not lesson.no_target:
        if monsters_attack:
            figures.append(Figure("Knight", lesson.to, "heroes", dict(SQUIRE)))
        else:
            figures.append(Figure("Goblin", lesson.to, "monsters", dict(GOBLIN)))
        if lesson.target_extra:
            figures.append(Figure("Goblin Guard", lesson.to, "monsters", dict(GOBLIN)))
    n = 0
    for sq in lesson.blk:
        for _ in range(2):
            n += 1
            if lesson.blocker_side == "monsters":
                figures.append(Figure(f"Goblin {n}", sq, "monsters", dict(GOBLIN)))
            else:
                figures.append(Figure(f"Squire {n}", sq, "heroes", dict(SQUIRE)))
    for i, sq in enumerate(lesson.allies, 1):
        figures.append(Figure(f"Squire {i}", sq, lesson.attacker_side, dict(SQUIRE)))
    for i, sq in enumerate(lesson.enemies, 1):
        figures.append(Figure(f"Goblin {i}", sq, "monsters", dict(GOBLIN)))
    title, question = ASK[lesson.file]
    props: dict[str, Prop] = {
        "caption": lesson.caption,
        "title": title,
        "question": question,
        "vector": lesson.vector,
        "from": f"{lesson.frm[0]},{lesson.frm[1]}",
        "to": f"{lesson.to[0]},{lesson.to[1]}",
        "expected": lesson.expected,
        "ruleset": "arcadia",
        "capacity": 2,
        "lint_ignore": ",".join(("figure-no-target", *lesson.lint_ignore)),
    }
    if lesson.los_rule:
        props["los_rule"] = lesson.los_rule
    walls = [edge_points(w) for w in lesson.walls]
    return _check(Board(lesson.file, width, height, ground, blocks if lesson.terrain else None, walls, [],
                        list(lesson.doors), figures, props))


# Lessons of the other rules (docs/line-of-sight.md, "Rule profiles"): vectors P1-P9 under the rule
# whose verdict they teach, then one pair of boards per parameter where flipping it flips the verdict.
# They live in maps/lessons/rules/ (R01...), each with the map property los_rule.
P4_TERRAIN = [(1, 0), (0, 1)]
#: boards whose wall or crates cut a square off on purpose
CUT = ("region-unreachable",)
RULE_LESSONS: tuple[Lesson, ...] = (
    Lesson("R01", "P1", (0, 0), (2, 0), "clear",
           "Rule corners (corner of one square to corner of the other): the free middle square lets "
           "a line from corner (1,0) to corner (2,1) through.", size=(3, 1), los_rule="corners"),
    Lesson("R02", "P2", (0, 0), (2, 0), "blocked",
           "Rule corners: any figure blocks its square, so one goblin in the middle blocks every "
           "corner line (through it, along its edge, or along the board's edge). Arcadia needs two.",
           size=(3, 1), enemies=[(1, 0)], los_rule="corners"),
    Lesson("R03", "P3", (0, 0), (2, 0), "blocked",
           "Rule corners: the wall splits the board; at its ends (1,0) and (1,1) the walls separate "
           "the two sides (the sector rule).", size=(3, 1), walls=["V(1,0)"], lint_ignore=CUT, los_rule="corners"),
    Lesson("R04", "P4", (0, 0), (2, 2), "clear",
           "Rule corners: the line from corner (1,1) only touches the two crates at its start; "
           "touching a corner does not block (Arcadia: both sides closed, blocked).",
           size=(3, 3), terrain=P4_TERRAIN, lint_ignore=CUT, los_rule="corners"),
    Lesson("R05", "P5", (0, 0), (2, 2), "clear",
           "Rule dnd5e: from corner (1,0) the line to (3,2) only touches the crates' corner, so the "
           "target is in sight, with three-quarters cover (3 of 4 lines cross the crates).",
           size=(3, 3), terrain=[(1, 1)], los_rule="dnd5e"),
    Lesson("R06", "P6", (0, 0), (1, 1), "blocked",
           "Rule corners: walls on the archer's east and south sides close every corner line "
           "(the walls meeting at (1,1) separate the squares).",
           size=(2, 2), walls=["V(1,0)", "H(0,1)"], lint_ignore=CUT, los_rule="corners"),
    Lesson("R07", "P7", (0, 0), (1, 1), "clear",
           "Rule corners: the wall only ends at (1,1); it separates nothing, so the corner line "
           "(1,1) to (2,2) is clear.", size=(2, 2), walls=["V(1,0)"], los_rule="corners"),
    Lesson("R08", "P8", (0, 0), (1, 0), "clear",
           "Rule corners [INTERP]: the two squares share the corner (1,1) at the wall's free end; "
           "peeking round the end of the wall is allowed.", size=(2, 2), walls=["V(1,0)"],
           los_rule="corners"),
    Lesson("R09", "P9", (0, 0), (2, 0), "clear",
           "Rule dnd5e: a line may run along the crates' lower edge (along_square=clear), so the "
           "target is in sight with half cover. Under corners it is blocked.",
           size=(3, 2), terrain=[(1, 0)], los_rule="dnd5e"),
    Lesson("R10a", "from/to", (0, 0), (2, 2), "clear",
           "Parameter from/to = corners: a corner line passes the crate in the middle.",
           size=(3, 3), terrain=[(1, 1)], los_rule="corners"),
    Lesson("R10b", "from/to", (0, 0), (2, 2), "blocked",
           "Parameter from/to = centre: the only line, centre to centre, crosses the crate.",
           size=(3, 3), terrain=[(1, 1)], los_rule="corners,from=centre,to=centre"),
    Lesson("R11a", "figures", (0, 0), (2, 0), "blocked",
           "Parameter figures = any: the single goblin in the middle blocks.",
           size=(3, 1), enemies=[(1, 0)], los_rule="corners"),
    Lesson("R11b", "figures", (0, 0), (2, 0), "clear",
           "Parameter figures = none: figures never block, so the middle square is free.",
           size=(3, 1), enemies=[(1, 0)], los_rule="corners,figures=none"),
    Lesson("R12a", "corner_touch", (0, 0), (2, 2), "clear",
           "Parameter corner_touch = clear: the line from corner (1,1) touches both crates and "
           "passes.", size=(3, 3), terrain=P4_TERRAIN, lint_ignore=CUT, los_rule="corners"),
    Lesson("R12b", "corner_touch", (0, 0), (2, 2), "blocked",
           "Parameter corner_touch = both-sides: touching crates on both sides of the line blocks.",
           size=(3, 3), terrain=P4_TERRAIN, lint_ignore=CUT, los_rule="corners,corner_touch=both-sides"),
    Lesson("R13a", "along_wall", (0, 0), (2, 0), "clear",
           "Parameter along_wall = clear: the line runs along the board's edge past the crate.",
           size=(3, 1), terrain=[(1, 0)], lint_ignore=CUT, los_rule="dnd5e"),
    Lesson("R13b", "along_wall", (0, 0), (2, 0), "blocked",
           "Parameter along_wall = blocks: running along the board's edge (a wall) blocks.",
           size=(3, 1), terrain=[(1, 0)], lint_ignore=CUT, los_rule="dnd5e,along_wall=blocks"),
    Lesson("R14a", "along_square", (0, 0), (2, 0), "clear",
           "Parameter along_square = clear: the line along the crate's lower edge passes.",
           size=(3, 2), terrain=[(1, 0)], los_rule="dnd5e"),
    Lesson("R14b", "along_square", (0, 0), (2, 0), "blocked",
           "Parameter along_square = blocks: running along the crate's edge blocks.",
           size=(3, 2), terrain=[(1, 0)], los_rule="dnd5e,along_square=blocks"),
    Lesson("R15a", "boundary", (0, 0), (2, 0), "blocked",
           "Parameter boundary = closed: the board's edge is a wall, and running along walls "
           "blocks here.", size=(3, 1), terrain=[(1, 0)], lint_ignore=CUT, los_rule="dnd5e,along_wall=blocks"),
    Lesson("R15b", "boundary", (0, 0), (2, 0), "clear",
           "Parameter boundary = open: the board's edge is no wall, so the line along it passes.",
           size=(3, 1), terrain=[(1, 0)], lint_ignore=CUT, los_rule="dnd5e,along_wall=blocks,boundary=open"),
    Lesson("R16", "any", (0, 0), (2, 2), "blocked",
           "Rule any-point: every line from the archer's square passes the corner (1,1), touching "
           "both crates; any touch blocks.", size=(3, 3), terrain=P4_TERRAIN, lint_ignore=CUT, los_rule="any-point"),
)


# --- one sample map per other ruleset --------------------------------------------------------

SAMPLE_ROWS = (
    # 0123456789AB
    "..gg.....~~~",  # 0
    ".wwwww...~~~",  # 1
    ".wwwww....~~",  # 2
    ".wwwww..T...",  # 3
    ".wwwww......",  # 4
    "......pppp..",  # 5
    "..X...pppp..",  # 6
    "......pppp.R",  # 7
    ".sss.......R",  # 8
    ".sss..ssss..",  # 9
    ".sss..ssss..",  # 10
    "......ssss..",  # 11
)


def _sample_walls() -> tuple[list[list[tuple[int, int]]], list[Door], list[str]]:
    walls = [
        *room(1, 1, 6, 5, ["H(3,5)", "V(6,2)", "H(2,1)"]),
        *room(1, 8, 4, 11, ["V(4,9)", "H(2,11)"]),
        *room(6, 9, 10, 12, ["H(7,9)", "V(10,10)"]),
    ]
    doors = [Door("H(3,5)", "open"), Door("V(6,2)", "closed"), Door("V(4,9)", "locked"),
             Door("H(2,11)", "open"),
             Door("H(7,9)", "open"), Door("V(10,10)", "closed")]
    return walls, doors, ["H(2,1)"]


def mage_knight() -> Board:
    """A keep courtyard: one hero against six enemy tokens with their printed stats."""
    ground, blocks = paint(SAMPLE_ROWS, "mage_knight")
    walls, doors, windows = _sample_walls()

    def enemy(attack: int, element: str, armor: int, fame: int, abilities: str = "",
              resistances: str = "", **extra: Prop) -> dict[str, Prop]:
        return {"attack": attack, "element": element, "armor": armor, "fame": fame,
                "abilities": abilities, "resistances": resistances, **extra}

    e = "enemies"
    figures = [
        Figure("Tovak", (7, 7), "hero", {"armor": 2, "hand_limit": 5, "level": 1, "fame": 0}),
        Figure("Prowlers", (7, 6), e, enemy(4, "physical", 3, 2)),
        Figure("Diggers", (8, 5), e, enemy(3, "physical", 3, 2, "fortified")),
        Figure("Wolf Riders", (5, 7), e, enemy(3, "physical", 4, 3, "swift")),
        Figure("Ironclads", (4, 6), e, enemy(4, "physical", 3, 4, "brutal", "physical")),
        Figure("Fire Mages", (7, 10), e, enemy(6, "fire", 5, 5, "", "fire")),
        Figure("Shocktroops", (10, 4), e, enemy(5, "physical", 3, 3, "unfortified,elusive",
                                                 elusive_armor=6)),
    ]
    return _check(Board("mage_knight", 12, 12, ground, blocks, walls, windows, doors, figures, {
        "caption": "Assault on a keep courtyard: Tovak (level 1) faces six enemy tokens.",
        "ruleset": "mage_knight", "site_fortified": False, "capacity": 2,
    }))


def conquest() -> Board:
    """Two First Blood warbands meeting in a village square."""
    ground, blocks = paint(SAMPLE_ROWS, "conquest")
    walls, doors, windows = _sample_walls()

    def warrior(a: int, c: int, x: int, v: int, d: int, e: int, w: int, r: int, rng: int,
                rules: str = "", **extra: Prop) -> dict[str, Prop]:
        return {"attacks": a, "clash": c, "barrage": x, "volley": v, "defence": d, "evasion": e,
                "wound_limit": w, "resolve": r, "range": rng, "rules": rules, **extra}

    hk = "Hundred Kingdoms"
    sp = "Spires"
    figures = [
        Figure("Household Knight", (3, 6), hk, warrior(4, 2, 0, 0, 3, 1, 3, 3, 0, "parry")),
        Figure("Longbowman", (0, 7), hk, warrior(2, 1, 3, 2, 1, 2, 2, 2, 12)),
        Figure("Militia Sergeant", (4, 7), hk, warrior(3, 2, 0, 0, 2, 1, 2, 2, 0)),
        Figure("Crossbowman", (7, 3), hk, warrior(2, 1, 3, 2, 2, 1, 2, 2, 6, wounds=1)),
        Figure("Brute Drone", (8, 7), sp, warrior(4, 2, 0, 0, 2, 0, 3, 3, 0,
                                                  "relentless blows")),
        Figure("Force-Grown Drone", (7, 10), sp, warrior(3, 2, 0, 0, 3, 0, 3, 2, 0,
                                                         "relentless blows")),
        Figure("Marksman", (10, 8), sp, warrior(2, 1, 4, 2, 1, 2, 2, 2, 8)),
    ]
    return _check(Board("conquest", 12, 12, ground, blocks, walls, windows, doors, figures, {
        "caption": "First Blood skirmish: a Hundred Kingdoms patrol meets a Spires raiding party.",
        "ruleset": "conquest", "capacity": 2,
    }))


def folklore() -> Board:
    """A party of three adventurers and four foes in a haunted hamlet."""
    ground, blocks = paint(SAMPLE_ROWS, "folklore")
    walls, doors, windows = _sample_walls()

    def person(valour: int, wits: int, senses: int, max_hp: int, armour: int, weapons: str,
               hp: int | None = None) -> dict[str, Prop]:
        return {"valour": valour, "wits": wits, "senses": senses,
                "hp": max_hp if hp is None else hp, "max_hp": max_hp, "armour": armour,
                "weapons": weapons}

    party = "party"
    foes = "foes"
    figures = [
        Figure("Aya", (2, 7), party, person(4, 2, 3, 24, 3, "Sword:valour:2:melee")),
        Figure("Ren", (3, 4), party, person(1, 5, 3, 18, 1,
                                            "Spell:wits:1:ranged; Staff:valour:0:melee")),
        Figure("Kiku", (7, 7), party, person(2, 3, 5, 20, 2,
                                             "Bow:wits:1:ranged; Knife:valour:1:melee")),
        Figure("Oni", (8, 6), foes, person(5, 1, 2, 30, 4, "Iron Club:valour:3:melee")),
        Figure("Kappa", (4, 8), foes, person(3, 2, 4, 16, 2, "Claw:valour:1:melee")),
        Figure("Fox Spirit", (7, 10), foes, person(1, 4, 4, 14, 1, "Foxfire:wits:2:ranged")),
        Figure("Tengu", (10, 8), foes, person(3, 3, 5, 18, 2,
                                              "Fan Gust:wits:1:ranged; Blade:valour:2:melee",
                                              hp=12)),
    ]
    return _check(Board("folklore", 12, 12, ground, blocks, walls, windows, doors, figures, {
        "caption": "A haunted hamlet at dusk: three adventurers against an oni and its "
                   "yokai friends.",
        "ruleset": "folklore", "capacity": 2,
    }))


# --- the balance scenario (docs/balance.md) ------------------------------------------------------

FORD_ROWS = (
    # 012345678901234567890
    "gggggg...HHH...gggggg",  # 0
    "gggggg.........gggggg",  # 1
    "ddd...T.......T...ddd",  # 2
    "ddd...............ddd",  # 3
    "ddd.......X.......ddd",  # 4
    "ddd...............ddd",  # 5
    "ddd...............ddd",  # 6
    "ddd...............ddd",  # 7
    "ddd.......X.......ddd",  # 8
    "ddd...............ddd",  # 9
    "ddd...T.......T...ddd",  # 10
    "gggggg.........gggggg",  # 11
    "gggggg...HHH...gggggg",  # 12
)


def ford() -> Board:
    """The balance report's worked example: a mirror-image field whose east rampart has a breach.

    Red deploys west (x 0..2), Blue east (x 18..20), each behind a rampart with an arrow slit (a
    window) in the middle; the field between mirrors left to right. The deliberate unfairness:
    Blue's rampart has a breach three squares wide where its slit should be, so Red's archers
    see deep into Blue's zone while Blue sees Red's only through the slit.
    """
    ground, blocks = paint(FORD_ROWS, "ford")
    walls = [
        *wall_runs([(3, 2), (3, 11)], ["V(3,6)"]),  # Red's rampart with its arrow slit
        *wall_runs([(18, 2), (18, 11)], ["V(18,5)", "V(18,6)", "V(18,7)"]),  # Blue's: the breach
        [(7, 1), (7, 3)], [(14, 1), (14, 3)], [(7, 10), (7, 12)], [(14, 10), (14, 12)],  # low walls
    ]

    def troop(attacks: str, life: int, defense: int) -> dict[str, Prop]:
        return {"life": life, "defense": defense, "attacks": attacks}

    archer = troop("Long Bow:ranged:3; Dagger:melee:1", 4, 1)
    knight = troop("Sword:melee:3", 6, 2)
    scout = troop("Javelin:ranged:2; Knife:melee:2", 4, 1)
    figures = [
        Figure("Red Archer", (2, 6), "Red", archer), Figure("Red Knight", (1, 4), "Red", knight),
        Figure("Red Scout", (1, 8), "Red", scout),
        Figure("Blue Archer", (18, 6), "Blue", archer), Figure("Blue Knight", (19, 4), "Blue", knight),
        Figure("Blue Scout", (19, 8), "Blue", scout),
    ]
    return _check(Board(
        "ford", 21, 13, ground, blocks, walls, ["V(3,6)"], [], figures,
        {"caption": "The Old Ford: two ramparts face each other across a field; one has a breach "
                    "(the balance report's worked example).", "ruleset": "arcadia", "capacity": 2,
         "lint_ignore": "figure-no-target"},  # the knights and scouts start hidden behind the ramparts
        zones=[("Red", 0, 3, 3, 10), ("Blue", 18, 3, 21, 10)],
    ))


def skirmish() -> Board:
    """The Lantern Watch against raiders at a crossroads: a game of its own, whose rules are the
    ruleset file ``skirmish.toml`` beside the map (written by hand, not by this script)."""
    ground, blocks = paint(SAMPLE_ROWS, "skirmish")
    walls, doors, windows = _sample_walls()

    def fighter(melee: int, ward: int, life: int, nerve: int, **extra: Prop) -> dict[str, Prop]:
        return {"melee": melee, "ward": ward, "life": life, "nerve": nerve, **extra}

    watch = "Lantern Watch"
    raiders = "Raiders"
    figures = [
        Figure("Captain Oda", (3, 6), watch, fighter(3, 2, 4, 3)),
        Figure("Archer Lin", (0, 7), watch, fighter(1, 1, 3, 4, shots=2, range=6)),
        Figure("Hound", (4, 7), watch, fighter(2, 1, 2, 5)),
        Figure("Crossbow Ren", (7, 3), watch, fighter(1, 1, 3, 4, shots=3, range=5, wounds=1)),
        Figure("Brute", (8, 7), raiders, fighter(4, 1, 5, 3)),
        Figure("Cutthroat", (7, 10), raiders, fighter(3, 2, 3, 4)),
        Figure("Slinger", (10, 8), raiders, fighter(1, 0, 2, 5, shots=2, range=5)),
    ]
    return _check(Board("skirmish", 12, 12, ground, blocks, walls, windows, doors, figures, {
        "caption": "Lantern Skirmish: the Lantern Watch holds a crossroads against raiders "
                   "(rules: skirmish.toml).",
        "ruleset": "file:skirmish.toml", "capacity": 2,
    }))


def _setup_text(lesson: Lesson) -> str:
    """The lesson's board in words, for docs/lessons.md."""
    sq = lambda s: f"({s[0]},{s[1]})"  # noqa: E731
    parts = []
    if lesson.size != (5, 5):
        parts.append(f"{lesson.size[0]}×{lesson.size[1]} board")
    if lesson.walls:
        parts.append("wall " + " + ".join(lesson.walls))
    parts += [f"{d.state} door {d.edge}" for d in lesson.doors]
    who = "monsters" if lesson.blocker_side == "monsters" else "heroes"
    parts += [f"2 {who} on {sq(b)}" for b in lesson.blk]
    if lesson.allies or lesson.enemies:
        parts.append(" + ".join(
            [f"ally on {sq(a)}" for a in lesson.allies] + [f"enemy on {sq(e)}" for e in lesson.enemies]))
    if lesson.target_extra:
        parts.append(f"a second enemy on the target square {sq(lesson.to)}")
    parts += [f"{sq(o)} off the board" for o in lesson.off]
    if lesson.attacker_side == "monsters":
        parts.insert(0, "a monster shoots")
    if lesson.no_target:
        parts.append("one figure, aiming at itself")
    elif lesson.frm == lesson.to:
        parts.append("shooter and target share the square")
    return "; ".join(parts) or "empty board"


def lessons_doc() -> str:
    """``docs/lessons.md``: what every lesson board teaches (generated with the maps)."""
    lines = [
        "# The line-of-sight lessons",
        "",
        "`sightline lessons` walks through the boards of `maps/lessons/`, one per test vector of the",
        "Arcadia Quest line-of-sight rule (vectors L1–L30 of the rules research; variants get a",
        "letter). Each board is small (5×5 unless the vector needs another size): an attacker (the",
        "Archer, or the Troll in L30) stands on the `from` square and an enemy target on `to`; a",
        "\"blocked square\" is two enemies of the attacker standing on it; off-board squares are left",
        "empty. The map properties `caption`, `vector`, `from`, `to` and `expected` carry what this",
        "page shows, and `tests/test_maps.py` checks every `expected` against the engine and against",
        "`sightline los MAP FROM TO --json`.",
        "",
        "The rule in one breath: draw a line from the centre of the attacker's square to the centre",
        "of the target's. It is blocked by any wall or closed door it crosses, by any square it passes",
        "through that is off the board, blocked terrain or holds two enemies of the attacker, and at a",
        "grid corner it passes exactly through only when **both** sides of that corner are closed.",
        "",
        "| lesson | vector | from → to | set-up | line of sight | what it teaches (read aloud) |",
        "|---|---|---|---|---|---|",
    ]
    for lesson in LESSONS:
        verdict = "**clear**" if lesson.expected == "clear" else "**blocked**"
        lines.append(
            f"| `{lesson.file}` {ASK[lesson.file][0]} | {lesson.vector} | ({lesson.frm[0]},{lesson.frm[1]}) → "
            f"({lesson.to[0]},{lesson.to[1]}) | {_setup_text(lesson)} | {verdict} | "
            f"{lesson.caption} |"
        )
    lines += [
        "",
        "Edges use the Arcadia Quest rule's notation: `V(x,y)` is the vertical segment from grid corner",
        "(x,y) to (x,y+1), between squares (x−1,y) and (x,y); `H(x,y)` is the horizontal segment from",
        "(x,y) to (x+1,y), between squares (x,y−1) and (x,y). Squares are (column, row) from the",
        "top-left, as in Tiled.",
        "",
        "L29b is about a *figure*: the line of sight between two squares is always clear inside one",
        "square, so `sightline los MAP 2,2 2,2` says clear; what L29b teaches (a figure cannot target",
        "itself) is enforced by the rulesets (`sightline attack` refuses it).",
        "",
        "These boards are generated by `maps/make_maps.py`; edit the `LESSONS` table there and run",
        "`python maps/make_maps.py` to change them (this page is rewritten at the same time).",
        "",
    ]
    return "\n".join(lines)


def main(out_dir: Path = HERE, docs: Path = REPO / "docs" / "lessons.md") -> None:
    """Write the tileset, the demo, the samples and every lesson into ``out_dir`` (``maps/``),
    and the lessons' page ``docs``.

    The tileset image is referred to as ``<out_dir>/../assets/tiles/street.png``.
    """
    tileset = out_dir / "tiles" / "street.tsx"
    write_tileset(tileset, out_dir.parent / "assets" / "tiles" / "street.png")
    write_map(demo(), out_dir / "demo.tmx", tileset)
    for make in (mage_knight, conquest, folklore, skirmish, ford):
        board = make()
        write_map(board, out_dir / f"{board.name}.tmx", tileset)
    _make_hex_demo().write(out_dir)  # maps/hex-demo.tmx and tiles/hex.tsx (#21)
    _make_hex_demo("make_hex_play").write(out_dir)  # maps/hex-skirmish.tmx, lessons/hex/ (#21)
    for lesson in LESSONS:
        write_map(_lesson_board(lesson), out_dir / "lessons" / f"{lesson.file}.tmx", tileset)
    (out_dir / "lessons" / "rules").mkdir(parents=True, exist_ok=True)
    for lesson in RULE_LESSONS:
        write_map(_lesson_board(lesson), out_dir / "lessons" / "rules" / f"{lesson.file}.tmx", tileset)
    docs.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".md", dir=docs.parent)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(lessons_doc())
    os.chmod(tmp, 0o644)
    os.replace(tmp, docs)
    print(f"wrote {tileset}, 5 maps, {len(LESSONS)} lessons, {len(RULE_LESSONS)} rule lessons and {docs}")


if __name__ == "__main__":
    main()
