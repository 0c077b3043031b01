"""Hexagonal Tiled maps written as a designer draws them, for the hex tests: walls and doors as
polylines through the drawn hex corners of a side, figures as points at drawn centres, in a map
header as Tiled 1.8 writes it (:func:`hex_map_text`); :func:`hex_tmx` adds a tile layer."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from game.core.grid import Cell
from game.core.hexgrid import HexGrid, HexLayout


def _tileset_png(path: Path, layout: HexLayout) -> None:
    """A real two-tile image (floor, rock) for the map's tileset."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    surface = pygame.Surface((2 * layout.tilewidth, layout.tileheight))
    surface.fill((200, 190, 160))
    surface.fill((90, 80, 70), (layout.tilewidth, 0, layout.tilewidth, layout.tileheight))
    pygame.image.save(surface, str(path))


def _px(grid: HexGrid, layout: HexLayout, point: tuple[int, int]) -> tuple[float, float]:
    """Tiled's pixel of a lattice point (a hex corner or centre) of the grid."""
    return grid.point_px(point, layout)


class Objects:
    """The objects of one object layer, numbered from 1 in the order they are added."""

    def __init__(self, grid: HexGrid, layout: HexLayout) -> None:
        self.grid, self.layout = grid, layout
        self.xml: list[str] = []

    @property
    def next_id(self) -> int:
        """The id the next object gets."""
        return len(self.xml) + 1

    def sides(self, kind: str, pairs: Sequence[tuple[Cell, Cell]]) -> None:
        """A ``kind`` (wall, door, window) polyline on the side between each pair of hexes."""
        for a, b in pairs:
            edge = self.grid.edge_between(a, b)
            (x0, y0), (x1, y1) = _px(self.grid, self.layout, edge.a), _px(self.grid, self.layout, edge.b)
            self.xml.append(f'<object id="{self.next_id}" type="{kind}" x="{x0:g}" y="{y0:g}">'
                            f'<polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>')

    def figure(self, name: str, side: str, cell: Cell, extra: str = "") -> None:
        """A figure point at the drawn centre of ``cell`` (``extra``: more property XML)."""
        cx, cy = self.grid.centre_px(cell, self.layout)
        self.xml.append(f'<object id="{self.next_id}" name="{name}" type="figure" x="{cx:g}" y="{cy:g}"><properties>'
                        f'<property name="side" value="{side}"/>{extra}</properties><point/></object>')

    def around(self, kind: str, cells: Sequence[Cell], properties: str = "") -> None:
        """A ``kind`` rectangle a few pixels around the drawn centres of ``cells``."""
        xs, ys = zip(*(self.grid.centre_px(c, self.layout) for c in cells), strict=True)
        left, top = min(xs) - 4, min(ys) - 4
        self.xml.append(f'<object id="{self.next_id}" type="{kind}" x="{left:g}" y="{top:g}" width="{max(xs) + 4 - left:g}" '
                        f'height="{max(ys) + 4 - top:g}"><properties>{properties}</properties></object>')


def hex_map_text(grid: HexGrid, layout: HexLayout, objects: Objects, *, props: str = "", before: str = "",
                 extra: str = "") -> str:
    """A hexagonal map's TMX: ``before`` (tilesets and tile layers, ids from 1) then the object
    layer ``things`` with ``objects`` and the raw XML ``extra``."""
    layers = before.count("<layer ") + 1
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{grid.width}" height="{grid.height}" tilewidth="{layout.tilewidth}" tileheight="{layout.tileheight}" infinite="0" hexsidelength="{layout.hexsidelength}" staggeraxis="{grid.staggeraxis}" staggerindex="{grid.staggerindex}" nextlayerid="{layers + 1}" nextobjectid="{objects.next_id + 10}">
 <properties>{props}</properties>{before}
 <objectgroup id="{layers}" name="things">
  {chr(10).join(objects.xml)}
  {extra}
 </objectgroup>
</map>
"""


def hex_tmx(
    tmp: Path, grid: HexGrid, layout: HexLayout, *, blocked: list = (), void: list = (),  # type: ignore[assignment]
    walls: list = (), doors: list = (), figures: list = (), extra: str = "", props: str = "",  # type: ignore[assignment]
) -> Path:
    """A hexagonal .tmx drawn as a designer draws it in Tiled: a tile layer (0 = no tile = void,
    1 floor, 2 rock = blocked), walls and doors as polylines through the drawn hex corners of the
    given cell pairs, figures as points at drawn centres."""
    _tileset_png(tmp / "hex.png", layout)
    rows = []
    for y in range(grid.height):
        rows.append(",".join("0" if (x, y) in void else "2" if (x, y) in blocked else "1" for x in range(grid.width)))
    objects = Objects(grid, layout)
    objects.sides("wall", walls)
    objects.sides("door", doors)
    for name, side, cell in figures:
        objects.figure(name, side, cell)
    tiles = f"""
 <tileset firstgid="1" name="hex" tilewidth="{layout.tilewidth}" tileheight="{layout.tileheight}" tilecount="2" columns="2">
  <image source="hex.png" width="{2 * layout.tilewidth}" height="{layout.tileheight}"/>
  <tile id="1" type="rock"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{grid.width}" height="{grid.height}">
  <data encoding="csv">
{(',' + chr(10)).join(rows)}
</data>
 </layer>"""
    path = tmp / "map.tmx"
    path.write_text(hex_map_text(grid, layout, objects, props=props, before=tiles, extra=extra), encoding="utf-8")
    return path
