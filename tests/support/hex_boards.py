"""Random hex boards and the hex rules (presets and overrides) the field tests run through."""

from __future__ import annotations

import random

from game.core.hex_board import HexBoard, HexFigure
from game.core.hex_rules import HEX_PARAMETERS, HEX_PRESETS
from game.core.hexgrid import HexGrid

RULES = [HEX_PRESETS[n] for n in HEX_PRESETS] + [
    preset.with_value(parameter, value)
    for preset in HEX_PRESETS.values()
    for parameter, values in HEX_PARAMETERS.items()
    for value in values
    if value != preset.get(parameter)
]


def random_board(rng: random.Random, width: int, height: int, density: float) -> HexBoard:
    """A board of any stagger with walls, doors, void, blocked terrain and figures at ``density``."""
    grid = HexGrid(width, height, rng.choice(["x", "y"]), rng.choice(["odd", "even"]))
    edges = sorted({e for c in grid.cells() for e in grid.edges_of(c)})
    cells = list(grid.cells())
    return HexBoard.build(
        grid,
        [e for e in edges if rng.random() < density],
        {e: rng.choice(["open", "closed", "locked"]) for e in edges if rng.random() < density / 3},
        [c for c in cells if rng.random() < density / 3],
        [c for c in cells if rng.random() < density],
        {c: [HexFigure("f", rng.choice(["red", "blue"]))] for c in cells if rng.random() < density},
        capacity=rng.choice([1, 2]),
    )

