"""Write the bundled hex boards that are played and taught: ``maps/hex-skirmish.tmx`` (a small
Arcadia Quest fight on hexes: Close across hex sides, a shot along a hexside, a Payback walk) and
the hex lessons ``maps/lessons/hex/H01.tmx`` … (the line-of-sight cases of the hex rules: the
corner rule of Gloomhaven, lines touching a wall, a hexside between one and two blocking hexes,
a one-hex corridor, doors, figures). Called by ``maps/make_maps.py``; ``python
maps/make_hex_play.py`` writes them alone.

Build tool only (not imported by the game). Pointy-top hexes, odd rows pushed, the hex demo's
56x64 tiles (``maps/tiles/hex.tsx``, written by ``maps/make_hex_demo.py``); walls and doors are
one-side polylines through Tiled's pixel hex corners, figures are points, as a designer draws
them in Tiled. Every lesson's ``expected`` verdict is checked against the sight facade while it
is written. Deterministic; licence: the project's (MIT).
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from game.core import sight  # noqa: E402
from game.core.board import Figure as BoardFigure  # noqa: E402
from game.core.hex_sight import hex_board  # noqa: E402
from game.core.hexgrid import HexGrid, HexLayout  # noqa: E402

LAYOUT = HexLayout(56, 64, 32)  # the hex demo's tiles
FLOOR, FLOOR2, RUBBLE = 1, 2, 3
Cell = tuple[int, int]
Prop = str | int | bool
ARCHER: dict[str, Prop] = {"life": 5, "defense": 1, "attacks": "Short Bow:ranged:2; Dagger:melee:1"}
GOBLIN: dict[str, Prop] = {"life": 2, "defense": 0, "attacks": "Rusty Knife:melee:2", "movement": 2}


@dataclass
class Piece:
    """A figure drawn as a point on its hex."""

    name: str
    side: str
    cell: Cell
    stats: dict[str, Prop] = field(default_factory=dict)


@dataclass
class HexMap:
    """One hex board as a designer draws it: size, rubble and void hexes, walls and doors on
    the sides between two hexes, figures, map properties."""

    width: int
    height: int
    rubble: list[Cell] = field(default_factory=list)
    void: list[Cell] = field(default_factory=list)
    walls: list[tuple[Cell, Cell]] = field(default_factory=list)
    doors: list[tuple[Cell, Cell, str]] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    props: dict[str, Prop] = field(default_factory=dict)

    def board(self):  # type: ignore[no-untyped-def]
        """The board Sightline should read from this map (to check the verdicts against)."""
        grid = HexGrid(self.width, self.height)
        figures = [BoardFigure(i, p.name, p.side, p.cell, dict(p.stats)) for i, p in enumerate(self.pieces, 1)]
        return hex_board(self.width, self.height, walls=[grid.edge_between(a, b) for a, b in self.walls],
                         doors={grid.edge_between(a, b): s for a, b, s in self.doors}, void=self.void,
                         blocked=self.rubble, figures=figures, properties=dict(self.props))


def _properties(parent: ET.Element, props: dict[str, Prop]) -> None:
    node = ET.SubElement(parent, "properties")
    for key, value in props.items():
        attrs = {"name": key, "value": str(value)}
        if isinstance(value, bool):
            attrs.update(type="bool", value="true" if value else "false")
        elif isinstance(value, int):
            attrs["type"] = "int"
        ET.SubElement(node, "property", attrs)


def tmx(hexmap: HexMap, tileset: str) -> str:
    """The map's TMX text, its tileset at the relative path ``tileset``."""
    grid = HexGrid(hexmap.width, hexmap.height)
    root = ET.Element("map", {
        "version": "1.8", "tiledversion": "1.8.2", "orientation": "hexagonal", "renderorder": "right-down",
        "width": str(hexmap.width), "height": str(hexmap.height), "tilewidth": str(LAYOUT.tilewidth),
        "tileheight": str(LAYOUT.tileheight), "infinite": "0", "hexsidelength": str(LAYOUT.hexsidelength),
        "staggeraxis": "y", "staggerindex": "odd", "nextlayerid": "4", "nextobjectid": "1"})
    _properties(root, hexmap.props)
    ET.SubElement(root, "tileset", {"firstgid": "1", "source": tileset})
    layer = ET.SubElement(root, "layer", {"id": "1", "name": "ground", "width": str(hexmap.width),
                                          "height": str(hexmap.height)})
    rows = []
    for y in range(hexmap.height):
        row = [0 if (x, y) in hexmap.void else RUBBLE if (x, y) in hexmap.rubble
               else FLOOR if (x * 7 + y * 3) % 5 else FLOOR2 for x in range(hexmap.width)]
        rows.append(",".join(str(g) for g in row))
    ET.SubElement(layer, "data", {"encoding": "csv"}).text = "\n" + ",\n".join(rows) + "\n"
    oid = 1

    def px(point: tuple[int, int]) -> tuple[float, float]:
        return grid.point_px(point, LAYOUT)

    walls = ET.SubElement(root, "objectgroup", {"id": "2", "name": "walls"})
    for a, b, state in [(a, b, "") for a, b in hexmap.walls] + list(hexmap.doors):
        edge = grid.edge_between(a, b)
        (x0, y0), (x1, y1) = px(edge.a), px(edge.b)
        attrs = {"id": str(oid), "type": "door" if state else "wall", "x": f"{x0:g}", "y": f"{y0:g}"}
        if state:
            attrs["name"] = f"{state} door"
        node = ET.SubElement(walls, "object", attrs)
        if state:
            _properties(node, {"state": state})
        ET.SubElement(node, "polyline", {"points": f"0,0 {x1 - x0:g},{y1 - y0:g}"})
        oid += 1
    figures = ET.SubElement(root, "objectgroup", {"id": "3", "name": "figures"})
    for piece in hexmap.pieces:
        cx, cy = grid.centre_px(piece.cell, LAYOUT)
        node = ET.SubElement(figures, "object", {"id": str(oid), "name": piece.name, "type": "figure",
                                                  "x": f"{cx:g}", "y": f"{cy:g}"})
        _properties(node, {"side": piece.side, **piece.stats})
        ET.SubElement(node, "point")
        oid += 1
    root.set("nextobjectid", str(oid))
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode").replace(" />", "/>") + "\n"


# --- the skirmish -----------------------------------------------------------------------------

def skirmish() -> HexMap:
    """A small Arcadia Quest fight on hexes (docs/hex.md, "Attacks on hexes")."""
    heroes, monsters = "Red Guild", "monsters"
    return HexMap(
        8, 6,
        rubble=[(4, 1), (4, 2)],
        walls=[((2, 3), (2, 2)), ((2, 3), (3, 2)), ((6, 4), (5, 3)), ((6, 4), (6, 3))],
        doors=[((6, 4), (5, 4), "open")],
        pieces=[
            Piece("Archer", heroes, (1, 4), ARCHER),
            Piece("Knight", heroes, (2, 3), {"life": 6, "defense": 2, "attacks": "Sword:melee:3"}),
            Piece("Goblin", monsters, (1, 3), GOBLIN),
            Piece("Orc", monsters, (2, 2), {"life": 4, "defense": 1, "attacks": "Club:melee:3", "movement": 2}),
            Piece("Imp", monsters, (6, 2), {"life": 2, "defense": 0, "attacks": "Fire Spit:ranged:2",
                                            "movement": 3}),
            Piece("Troll", monsters, (6, 4), {"life": 6, "defense": 2, "attacks": "Fists:melee:4",
                                              "movement": 2}),
        ],
        props={
            "caption": "Hex skirmish (Arcadia Quest on hexes): the Knight is Close to the Goblin across an "
                       "open side but not to the Orc behind the wall; the Archer shoots the Imp past the "
                       "rubble along a hexside; the Troll waits in an open doorway.",
            "ruleset": "arcadia", "capacity": 2, "los_rule": "hexside",
        },
    )


# --- the lessons ------------------------------------------------------------------------------

@dataclass
class HexLesson:
    """One hex lesson: a line from the Archer's hex to the Goblin's under one hex rule."""

    file: str
    title: str
    rule: str
    size: tuple[int, int]
    frm: Cell
    to: Cell
    expected: str
    caption: str
    question: str
    vector: str = ""
    rubble: list[Cell] = field(default_factory=list)
    void: list[Cell] = field(default_factory=list)
    walls: list[tuple[Cell, Cell]] = field(default_factory=list)
    doors: list[tuple[Cell, Cell, str]] = field(default_factory=list)
    guards: list[Cell] = field(default_factory=list)
    lint_ignore: tuple[str, ...] = ("figure-no-target",)

    def hexmap(self) -> HexMap:
        """The lesson's board: the Archer on ``frm``, the Goblin on ``to``, goblin guards."""
        pieces = [Piece("Archer", "heroes", self.frm, ARCHER), Piece("Goblin", "monsters", self.to, GOBLIN)]
        pieces += [Piece(f"Guard {i}", "monsters", cell, GOBLIN) for i, cell in enumerate(self.guards, 1)]
        props: dict[str, Prop] = {
            "caption": self.caption, "title": self.title, "question": self.question,
            "vector": self.vector or self.file, "from": f"{self.frm[0]},{self.frm[1]}",
            "to": f"{self.to[0]},{self.to[1]}", "expected": self.expected, "los_rule": self.rule,
            "ruleset": "arcadia", "capacity": 2, "lint_ignore": ",".join(self.lint_ignore),
        }
        return HexMap(*self.size, rubble=list(self.rubble), void=list(self.void), walls=list(self.walls),
                      doors=list(self.doors), pieces=pieces, props=props)


CORRIDOR = [(1, 1), (2, 1), (3, 1), (4, 1)]
#: the sides of the corridor's hexes that face the rows above and below it
CORRIDOR_WALLS = [(c, n) for c in CORRIDOR for n in HexGrid(6, 3).neighbours(c) if n[1] != 1]
SPLIT = ("figure-no-target", "region-unreachable")

HEX_LESSONS: tuple[HexLesson, ...] = (
    HexLesson("H01", "Neighbours see each other", "hexside", (2, 2), (0, 0), (0, 1), "clear",
              "Two hexes that share an open side always see each other, under every hex rule "
              "(vector H4: the second row is pushed, so (0,1) touches (0,0)).",
              "The goblin stands on the hex just below the archer's. Can the archer see it?", "H4"),
    HexLesson("H02", "The corner rule of Gloomhaven", "gloomhaven", (4, 3), (0, 1), (3, 1), "clear",
              "Gloomhaven draws lines from any corner of the archer's hex to any corner of the target's: "
              "the wall between (1,1) and (2,1) cuts the centre line, but the line from the north corner "
              "of (0,1) to the north corner of (3,1) passes above it without touching it.",
              "A wall stands on one side between (1,1) and (2,1), right across the row. Can the archer "
              "see the goblin under the Gloomhaven rule?", walls=[((1, 1), (2, 1))]),
    HexLesson("H03", "Gloomhaven: touching a wall blocks", "gloomhaven", (3, 1), (0, 0), (2, 0), "blocked",
              "Vector H2: on a board one hex high every corner line crosses the wall beside the archer, "
              "touches its ends or runs along the board's edge, which is a wall too; Gloomhaven blocks a "
              "line that touches any part of a wall.",
              "A wall stands between the archer's hex and the next one, on a board one hex high. Can "
              "the archer see the goblin under the Gloomhaven rule?", "H2", walls=[((0, 0), (1, 0))],
              lint_ignore=SPLIT),
    HexLesson("H04", "Gloomhaven: obstacles do not block", "gloomhaven", (3, 3), (1, 0), (1, 2), "clear",
              "Vector H6 under Gloomhaven: rubble is an obstacle, and obstacles never block a Gloomhaven "
              "line; only walls and hexes off the map tiles do.",
              "Rubble fills both hexes between the archer and the goblin. Can the archer see it under "
              "the Gloomhaven rule?", "H6", rubble=[(0, 1), (1, 1)]),
    HexLesson("H05", "A hexside with one blocking hex", "hexside", (3, 3), (1, 0), (1, 2), "clear",
              "Vector H5: the centre line runs exactly along the side between the rubble (0,1) and the "
              "floor (1,1). Under the hexside rule a line along a hexside is blocked only when the hexes "
              "on both sides block; here one side is open.",
              "The centre line runs along the side of one rubble hex. Can the archer see the goblin "
              "under the hexside rule?", "H5", rubble=[(0, 1)]),
    HexLesson("H06", "A hexside between two blocking hexes", "hexside", (3, 3), (1, 0), (1, 2), "blocked",
              "Vector H6: rubble on both sides of the hexside the centre line runs along, so both sides "
              "block and the hexside rule blocks the line.",
              "Now rubble lies on both sides of the hexside the centre line runs along. Can the archer "
              "see the goblin under the hexside rule?", "H6", rubble=[(0, 1), (1, 1)]),
    HexLesson("H07", "Strict: touching a blocking hex", "hex-strict", (3, 3), (1, 0), (1, 2), "blocked",
              "Vector H5 under hex-strict: the centre line runs along a side of the rubble hex (0,1), "
              "touching it, and the strict rule blocks any line that touches a blocking hex.",
              "The board of H05 again, one rubble hex beside the centre line. Can the archer see the "
              "goblin under the strict rule?", "H5", rubble=[(0, 1)]),
    HexLesson("H08", "A line touching the end of a wall", "hexside", (3, 3), (1, 0), (1, 2), "clear",
              "The centre line passes exactly through the corner (2,2) where the wall between (1,0) and "
              "(1,1) ends. It touches the wall on one side only, so under the hexside rule (both sides "
              "must be closed) the line is clear.",
              "A wall runs from the archer's hex down to a corner the centre line passes through. Can "
              "the archer see the goblin under the hexside rule?", walls=[((1, 0), (1, 1))]),
    HexLesson("H09", "Strict: touching the end of a wall", "hex-strict", (3, 3), (1, 0), (1, 2), "blocked",
              "The board of H08 under hex-strict: the centre line touches the end of the wall at the "
              "corner (2,2), and touching a wall blocks.",
              "The board of H08 again. Can the archer see the goblin under the strict rule?",
              walls=[((1, 0), (1, 1))]),
    HexLesson("H10", "A one-hex corridor", "gloomhaven", (6, 3), (1, 1), (4, 1), "clear",
              "Archer and goblin stand at the two ends of a corridor one hex wide, walled above and "
              "below. Every corner of their hexes lies on a wall; a line may still start there, judged "
              "as coming from inside the hex ([INTERP] endpoint_touch = clear), and the line from the "
              "north-east corner of (1,1) to the south-east corner of (4,1) runs down the corridor "
              "without touching a wall.",
              "A corridor one hex wide, walls on both sides, the archer at one end and the goblin at the "
              "other. Can the archer see it under the Gloomhaven rule?",
              walls=CORRIDOR_WALLS, lint_ignore=SPLIT),
    HexLesson("H11", "A closed door on a hexside", "hexside", (3, 3), (0, 1), (2, 1), "blocked",
              "A closed door is a wall on its side: the centre line crosses it, so the shot is blocked.",
              "A closed door stands between the archer's hex and the next one, walls above and below "
              "it. Can the archer see the goblin?",
              walls=[((0, 1), (0, 0)), ((0, 1), (0, 2))], doors=[((0, 1), (1, 1), "closed")]),
    HexLesson("H12", "An open door on a hexside", "hexside", (3, 3), (0, 1), (2, 1), "clear",
              "An open door is no wall at all: the centre line passes through the doorway.",
              "The same door, now open. Can the archer see the goblin?",
              walls=[((0, 1), (0, 0)), ((0, 1), (0, 2))], doors=[((0, 1), (1, 1), "open")]),
    HexLesson("H13", "Two enemies fill a hex", "hexside", (3, 1), (0, 0), (2, 0), "blocked",
              "Under the hexside rule a hex blocks when it holds as many enemies of the archer as it has "
              "room for (capacity 2): the two goblin guards in the middle block the centre line. One "
              "guard alone would not.",
              "Two goblin guards stand in the middle hex. Can the archer see the goblin behind them?",
              guards=[(1, 0), (1, 0)]),
    HexLesson("H14", "Off the map", "hexside", (4, 2), (0, 0), (3, 0), "clear",
              "The hexes under the row are off the map (no tile): their sides are walls, but the centre "
              "line along the row only crosses the open sides between the row's own hexes.",
              "Most of the second row has no tiles: it is off the map. Can the archer see the goblin "
              "along the first row?", void=[(1, 1), (2, 1), (3, 1)]),
)


def lesson_board(lesson: HexLesson):  # type: ignore[no-untyped-def]
    """The lesson's board, its expected verdict checked against the sight facade."""
    board = lesson.hexmap().board()
    verdict = "clear" if sight.line(board, lesson.frm, lesson.to, lesson.rule, viewer="heroes").clear else "blocked"
    if verdict != lesson.expected:
        raise SystemExit(f"{lesson.file}: the engine says {verdict}, the lesson expects {lesson.expected}")
    return board


def write(out_dir: Path) -> None:
    """Write ``hex-skirmish.tmx`` and ``lessons/hex/H*.tmx`` into ``out_dir`` (``maps/``)."""
    (out_dir / "hex-skirmish.tmx").write_text(tmx(skirmish(), "tiles/hex.tsx"), encoding="utf-8", newline="\n")
    folder = out_dir / "lessons" / "hex"
    folder.mkdir(parents=True, exist_ok=True)
    for lesson in HEX_LESSONS:
        lesson_board(lesson)
        (folder / f"{lesson.file}.tmx").write_text(tmx(lesson.hexmap(), "../../tiles/hex.tsx"),
                                                   encoding="utf-8", newline="\n")


if __name__ == "__main__":
    write(HERE)
    print(f"wrote maps/hex-skirmish.tmx and {len(HEX_LESSONS)} hex lessons in maps/lessons/hex/")
