"""A small hex map with two deployment zones, written as a designer draws it in Tiled: pointy-top
hexes (or flat-top), walls as polylines through the drawn hex corners of a side, each side's
zone a ``deploy`` rectangle around the drawn centres of its hexes, figures as points. No tile
layer (every hex is on the board). Used by tests/test_hex_balance.py, whose numbers are worked
out by hand on it (see that module)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from game.core.grid import Cell
from game.core.hexgrid import HexGrid, HexLayout

#: Tiled's pixel sizes of the map (a regular-looking pointy hex)
LAYOUT = HexLayout(32, 37, 18)


def balance_tmx(path: Path, grid: HexGrid, *, zones: Sequence[tuple[str, Sequence[Cell]]],
                walls: Sequence[tuple[Cell, Cell]] = (), figures: Sequence[tuple[str, str, Cell, str]] = (),
                props: str = "", layout: HexLayout = LAYOUT) -> Path:
    """Write the map to ``path``: ``zones`` (side, hexes) as deploy rectangles a few pixels
    around the drawn centres of their hexes, ``walls`` on the sides between two hexes,
    ``figures`` (name, side, hex, extra property XML) as points at drawn centres."""
    objects = []
    oid = 1
    for a, b in walls:
        edge = grid.edge_between(a, b)
        (x0, y0), (x1, y1) = grid.point_px(edge.a, layout), grid.point_px(edge.b, layout)
        objects.append(f'<object id="{oid}" type="wall" x="{x0:g}" y="{y0:g}">'
                       f'<polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>')
        oid += 1
    for side, cells in zones:
        xs, ys = zip(*(grid.centre_px(c, layout) for c in cells), strict=True)
        left, top = min(xs) - 4, min(ys) - 4
        objects.append(f'<object id="{oid}" type="deploy" x="{left:g}" y="{top:g}" width="{max(xs) + 4 - left:g}" '
                       f'height="{max(ys) + 4 - top:g}"><properties><property name="side" value="{side}"/>'
                       "</properties></object>")
        oid += 1
    for name, side, cell, extra in figures:
        cx, cy = grid.centre_px(cell, layout)
        objects.append(f'<object id="{oid}" name="{name}" type="figure" x="{cx:g}" y="{cy:g}"><properties>'
                       f'<property name="side" value="{side}"/>{extra}</properties><point/></object>')
        oid += 1
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{grid.width}" height="{grid.height}" tilewidth="{layout.tilewidth}" tileheight="{layout.tileheight}" infinite="0" hexsidelength="{layout.hexsidelength}" staggeraxis="{grid.staggeraxis}" staggerindex="{grid.staggerindex}" nextlayerid="2" nextobjectid="{oid}">
 <properties>{props}</properties>
 <objectgroup id="1" name="things">
  {chr(10).join(objects)}
 </objectgroup>
</map>
"""
    path.write_text(text, encoding="utf-8")
    return path
