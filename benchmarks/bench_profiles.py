"""Line of sight under the rule profiles (game/core/profile_los.py) next to the arcadia engine.

``profile_fov_<preset>_<N>x<N>``: ``sight.field`` (the facade) from the centre of an N×N board with
walls on ~10 % of the interior edges and ~2 % blocked squares (seeded), caches cleared before each
sample. The "reference" column is the **arcadia FOV** (``los.visible_from``, cold) on the same board
in the same run, so the printed ratio is arcadia / profile: the issue's targets are a profile FOV
within 8× of arcadia (corner presets) and 50× (any-point), i.e. a ratio of at least 1/8 and 1/50.
``fov_100x100_corners`` / ``fov_100x100_dnd5e``: the same on the issue's 100×100 board (the corner
rules' shadow casting, game/core/profile_fov.py), 21 samples of each side: cold, the profile
engine's per-board caches cleared before each, only the tables that depend on the board's size
kept (as arcadia keeps its ray templates). ``fov_100x100_any_point``: the any-point preset's FOV on
the same board (the weak-visibility sweep of game/core/any_fov.py; the issue's target is a ratio
of at least 1/50). The load average at import is in the note.
"""

from __future__ import annotations

import os
import random

from harness import Benchmark

from game.core import los, sight
from game.core.board import Board, Edge
from game.core.profiles import PRESETS

SIZES = {"corners": 24, "dnd5e": 24, "pf2e": 24, "any-point": 24}
#: the issue's target board, row -> (preset, target ratio arcadia/profile): corner presets' FOV
#: within 8× of the arcadia FOV, any-point's within 50×
TARGET_ROWS = {
    "fov_100x100_corners": ("corners", "0.125"),
    "fov_100x100_dnd5e": ("dnd5e", "0.125"),
    "fov_100x100_any_point": ("any-point", "0.02"),
}


def random_board(size: int, seed: int) -> Board:
    """A size×size board with walls on ~10 % of the interior edges and ~2 % blocked squares."""
    rng = random.Random(seed)
    edges = {Edge("V", x, y) for x in range(1, size) for y in range(size) if rng.random() < 0.1}
    edges |= {Edge("H", x, y) for x in range(size) for y in range(1, size) if rng.random() < 0.1}
    centre = (size // 2, size // 2)
    blocked = {(x, y) for x in range(size) for y in range(size) if rng.random() < 0.02} - {centre}
    return Board(size, size, walls=edges, blocked=blocked)


def benchmarks() -> list[Benchmark]:
    """One FOV benchmark per non-arcadia preset."""
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    out = []
    for row, (name, target) in TARGET_ROWS.items():
        board = random_board(100, seed=100)
        profile = PRESETS[name]

        def fast100(board: Board = board, profile: object = profile) -> object:
            sight.clear_caches()
            return sight.field(board, (50, 50), profile)  # type: ignore[arg-type]

        def arcadia100(board: Board = board) -> object:
            los.clear_caches()
            return los.visible_from(board, (50, 50))

        out.append(Benchmark(
            row, fast100, arcadia100, repeat=21, reference_repeat=21, warmup=1,
            note=f"reference = arcadia FOV, same board, same run; target ratio >= {target}; load average {load}",
        ))
    for name, size in SIZES.items():
        board = random_board(size, seed=size)
        centre = (size // 2, size // 2)
        profile = PRESETS[name]

        def fast(board: Board = board, centre: tuple[int, int] = centre, profile: object = profile) -> object:
            sight.clear_caches()
            return sight.field(board, centre, profile)  # type: ignore[arg-type]

        def arcadia(board: Board = board, centre: tuple[int, int] = centre) -> object:
            los.clear_caches()
            return los.visible_from(board, centre)

        out.append(Benchmark(
            f"profile_fov_{name}_{size}x{size}", fast, arcadia, repeat=3, reference_repeat=5, warmup=0,
            note=f"reference = arcadia FOV on the same board; ratio = arcadia/profile; load average {load}",
        ))
    return out
