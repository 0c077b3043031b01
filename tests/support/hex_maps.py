"""Hexagonal Tiled maps written as a designer draws them, for the hex tests."""

from __future__ import annotations

import os
from pathlib import Path

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
    return grid.point_px(point, layout)


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
    objects = []
    oid = 1
    for kind, pairs in (("wall", walls), ("door", doors)):
        for a, b in pairs:
            edge = grid.edge_between(a, b)
            (x0, y0), (x1, y1) = _px(grid, layout, edge.a), _px(grid, layout, edge.b)
            objects.append(f'<object id="{oid}" type="{kind}" x="{x0:g}" y="{y0:g}">'
                           f'<polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>')
            oid += 1
    for name, side, cell in figures:
        cx, cy = grid.centre_px(cell, layout)
        objects.append(f'<object id="{oid}" name="{name}" type="figure" x="{cx:g}" y="{cy:g}">'
                       f'<properties><property name="side" value="{side}"/></properties><point/></object>')
        oid += 1
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{grid.width}" height="{grid.height}" tilewidth="{layout.tilewidth}" tileheight="{layout.tileheight}" infinite="0" hexsidelength="{layout.hexsidelength}" staggeraxis="{grid.staggeraxis}" staggerindex="{grid.staggerindex}" nextlayerid="3" nextobjectid="{oid + 10}">
 <properties>{props}</properties>
 <tileset firstgid="1" name="hex" tilewidth="{layout.tilewidth}" tileheight="{layout.tileheight}" tilecount="2" columns="2">
  <image source="hex.png" width="{2 * layout.tilewidth}" height="{layout.tileheight}"/>
  <tile id="1" type="rock"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{grid.width}" height="{grid.height}">
  <data encoding="csv">
{(',' + chr(10)).join(rows)}
</data>
 </layer>
 <objectgroup id="2" name="things">
  {chr(10).join(objects)}
  {extra}
 </objectgroup>
</map>
"""
    path = tmp / "map.tmx"
    path.write_text(text, encoding="utf-8")
    return path

