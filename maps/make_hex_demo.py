"""Write the bundled hex demo: ``maps/hex-demo.tmx`` and its tileset ``maps/tiles/hex.tsx``
(called by ``maps/make_maps.py``); ``python maps/make_hex_demo.py --art`` also draws the tileset
image ``assets/tiles/hex.png`` (needs pygame).

Build tool only (not imported by the game). A pointy-top hexagonal map (``staggeraxis="y"``, odd
rows pushed, 56x64 px hexes with a 32 px side), drawn as a designer draws it in Tiled: a tile
layer (floor, rubble = blocked terrain), walls as polylines through Tiled's pixel hex corners, doors
as one-side lines, figures as points. The cases (docs/hex.md): Archer->Goblin is vector H5,
Knight->Orc is H6, Scout and Bandit stand in a one-hex corridor, a walled room has a closed door,
an open door and a gap. Deterministic; licence: the project's (MIT).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from game.core.hexgrid import HexEdge, HexGrid, HexLayout  # noqa: E402

LAYOUT = HexLayout(56, 64, 32)
WIDTH, HEIGHT = 14, 10
FLOOR, FLOOR2, RUBBLE = 1, 2, 3
FIGURES = [
    ("Archer", "blue", (1, 0)), ("Goblin", "red", (1, 2)), ("Knight", "blue", (5, 0)), ("Orc", "red", (5, 2)),
    ("Scout", "blue", (9, 5)), ("Bandit", "red", (12, 5)), ("Cleric", "blue", (4, 6)), ("Wolf", "red", (9, 6)),
]
CAPTION = (
    "Hex demo: Archer->Goblin is H5 (one rubble hex beside the centre line: hexside clear, hex-strict "
    "blocked); Knight->Orc is H6 (rubble on both sides: hexside blocked, gloomhaven clear); Scout and Bandit "
    "in a one-hex corridor; a walled room with a closed door, an open door and a gap"
)
TILESET = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="hex" tilewidth="56" tileheight="64" tilecount="3" columns="3">
 <image source="../../assets/tiles/hex.png" width="168" height="64"/>
 <tile id="2">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="rubble"/>
  </properties>
 </tile>
</tileset>
"""


def _boundary(grid: HexGrid, cells: set[tuple[int, int]]) -> list[HexEdge]:
    """The sides of ``cells`` facing a cell outside them."""
    out = []
    for cell in sorted(cells):
        for side, other in enumerate(grid.around(cell)):
            if other not in cells:
                out.append(grid.edges_of(cell)[side])
    return out


def _chains(edges: list[HexEdge]) -> list[list[tuple[int, int]]]:
    """Sides joined end to end into as few polylines as a walk finds (lattice corners)."""
    ends: dict[tuple[int, int], list[HexEdge]] = {}
    for edge in edges:
        ends.setdefault(edge.a, []).append(edge)
        ends.setdefault(edge.b, []).append(edge)
    left = set(edges)
    out = []
    while left:
        start = next((p for p, es in sorted(ends.items()) if sum(1 for e in es if e in left) == 1), None)
        if start is None:
            start = min(left).a
        path, here = [start], start
        while (step := next((e for e in sorted(ends[here]) if e in left), None)) is not None:
            left.discard(step)
            here = step.b if step.a == here else step.a
            path.append(here)
        out.append(path)
    return out


def hex_demo() -> str:
    """The demo map's TMX text."""
    grid = HexGrid(WIDTH, HEIGHT)
    gids = {(x, y): FLOOR if (x * 7 + y * 3) % 5 else FLOOR2 for x in range(WIDTH) for y in range(HEIGHT)}
    for cell in ((0, 1), (4, 1), (5, 1)):  # H5 beside Archer->Goblin, H6 between Knight and Orc
        gids[cell] = RUBBLE
    for cell in ((12, 8), (13, 8), (13, 9), (12, 9), (11, 9), (13, 7)):
        gids[cell] = 0  # void: no tile
    room = {(x, y) for y in range(5, 9) for x in range(2, 8)} | {(3, 4), (4, 4), (5, 4), (6, 4)}
    room -= {(7, 8)}
    closed, opened = grid.edge_between((4, 4), (4, 3)), grid.edge_between((7, 6), (8, 6))
    gap = grid.edge_between((2, 7), (1, 7))
    walls = [e for e in _boundary(grid, room) if e not in (closed, opened, gap)]
    corridor = [(9, 5), (10, 5), (11, 5), (12, 5)]
    for cell in corridor:
        walls += [grid.edges_of(cell)[s] for s, o in enumerate(grid.around(cell)) if o not in corridor and o[1] != 5]

    def px(p: tuple[int, int]) -> tuple[float, float]:
        return grid.point_px(p, LAYOUT)

    objects: dict[str, list[str]] = {"walls": [], "doors": [], "figures": []}
    oid = 1
    for path in _chains(walls):
        x0, y0 = px(path[0])
        points = " ".join(f"{px(p)[0] - x0:g},{px(p)[1] - y0:g}" for p in path)
        objects["walls"].append(f' <object id="{oid}" type="wall" x="{x0:g}" y="{y0:g}">\n'
                                f'  <polyline points="{points}"/>\n </object>')
        oid += 1
    for edge, state in ((closed, "closed"), (opened, "open")):
        (x0, y0), (x1, y1) = px(edge.a), px(edge.b)
        objects["doors"].append(
            f' <object id="{oid}" name="{state} door" type="door" x="{x0:g}" y="{y0:g}">\n  <properties>\n'
            f'   <property name="state" value="{state}"/>\n  </properties>\n'
            f'  <polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/>\n </object>')
        oid += 1
    for name, side, cell in FIGURES:
        cx, cy = grid.centre_px(cell, LAYOUT)
        objects["figures"].append(
            f' <object id="{oid}" name="{name}" type="figure" x="{cx:g}" y="{cy:g}">\n  <properties>\n'
            f'   <property name="side" value="{side}"/>\n  </properties>\n  <point/>\n </object>')
        oid += 1
    rows = ",\n".join(",".join(str(gids[(x, y)]) for x in range(WIDTH)) for y in range(HEIGHT))
    groups = "\n".join(
        f' <objectgroup id="{i}" name="{name}">\n' + "\n".join(objects[name]) + "\n </objectgroup>"
        for i, name in enumerate(("walls", "doors", "figures"), start=2)
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{WIDTH}" height="{HEIGHT}" tilewidth="{LAYOUT.tilewidth}" tileheight="{LAYOUT.tileheight}" infinite="0" hexsidelength="{LAYOUT.hexsidelength}" staggeraxis="y" staggerindex="odd" nextlayerid="5" nextobjectid="{oid}">
 <properties>
  <property name="caption" value="{CAPTION}"/>
  <property name="los_rule" value="hexside"/>
 </properties>
 <tileset firstgid="1" source="tiles/hex.tsx"/>
 <layer id="1" name="ground" width="{WIDTH}" height="{HEIGHT}">
  <data encoding="csv">
{rows}
</data>
 </layer>
{groups}
</map>
"""


def write(out_dir: Path) -> None:
    """Write ``hex-demo.tmx`` and ``tiles/hex.tsx`` into ``out_dir`` (``maps/``)."""
    (out_dir / "tiles").mkdir(parents=True, exist_ok=True)
    (out_dir / "tiles" / "hex.tsx").write_text(TILESET, encoding="utf-8", newline="\n")
    (out_dir / "hex-demo.tmx").write_text(hex_demo(), encoding="utf-8", newline="\n")


def draw_art(path: Path) -> None:
    """Draw the three hex tiles (floor, floor, rubble) into ``path`` (needs pygame)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    colours = ((205, 196, 170), (193, 184, 158), (118, 108, 96))
    sheet = pygame.Surface((LAYOUT.tilewidth * len(colours), LAYOUT.tileheight), pygame.SRCALPHA)
    shape = HexGrid(1, 1).cell_polygon_px((0, 0), LAYOUT)
    for i, colour in enumerate(colours):
        points = [(x + LAYOUT.tilewidth * i, y) for x, y in shape]
        pygame.draw.polygon(sheet, colour, points)
        if i == 2:
            for dx, dy, r in ((18, 26, 9), (36, 34, 11), (26, 44, 7)):
                pygame.draw.circle(sheet, (88, 80, 70), (LAYOUT.tilewidth * i + dx, dy), r)
        pygame.draw.polygon(sheet, (150, 140, 120), points, 1)
    pygame.image.save(sheet, str(path))


if __name__ == "__main__":
    write(HERE)
    if "--art" in sys.argv:
        draw_art(REPO / "assets" / "tiles" / "hex.png")
    print("wrote maps/hex-demo.tmx, maps/tiles/hex.tsx" + (", assets/tiles/hex.png" if "--art" in sys.argv else ""))
