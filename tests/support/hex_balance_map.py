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
from support.hex_maps import Objects, hex_map_text

#: Tiled's pixel sizes of the map (a regular-looking pointy hex)
LAYOUT = HexLayout(32, 37, 18)


def balance_tmx(path: Path, grid: HexGrid, *, zones: Sequence[tuple[str, Sequence[Cell]]],
                walls: Sequence[tuple[Cell, Cell]] = (), figures: Sequence[tuple[str, str, Cell, str]] = (),
                props: str = "", layout: HexLayout = LAYOUT) -> Path:
    """Write the map to ``path``: ``zones`` (side, hexes) as deploy rectangles a few pixels
    around the drawn centres of their hexes, ``walls`` on the sides between two hexes,
    ``figures`` (name, side, hex, extra property XML) as points at drawn centres."""
    objects = Objects(grid, layout)
    objects.sides("wall", walls)
    for side, cells in zones:
        objects.around("deploy", cells, f'<property name="side" value="{side}"/>')
    for name, side, cell, extra in figures:
        objects.figure(name, side, cell, extra)
    path.write_text(hex_map_text(grid, layout, objects, props=props), encoding="utf-8")
    return path
