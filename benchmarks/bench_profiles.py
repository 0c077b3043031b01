"""Line of sight under the rule profiles (game/core/profile_los.py) next to the arcadia engine.

``profile_fov_<preset>_<N>x<N>``: ``profile_los.visible_from`` from the centre of an N×N board with
walls on ~10 % of the interior edges and ~2 % blocked squares (seeded), caches cleared before each
sample. The "reference" column is the **arcadia FOV** (``los.visible_from``, cold) on the same board
in the same run, so the printed ratio is arcadia / profile: the issue's targets are a profile FOV
within 8× of arcadia (corner presets) and 50× (any-point), i.e. a ratio of at least 1/8 and 1/50.
The boards are smaller than the 100×100 target board because the profile engine is a per-target
exact walk in Python (see docs/line-of-sight.md, "Speed"); the load average at import is in the note.
"""

from __future__ import annotations

import os
import random

from harness import Benchmark

from game.core import los, profile_los
from game.core.board import Board, Edge
from game.core.profiles import PRESETS

SIZES = {"corners": 24, "dnd5e": 24, "pf2e": 24, "any-point": 8}


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
    for name, size in SIZES.items():
        board = random_board(size, seed=size)
        centre = (size // 2, size // 2)
        profile = PRESETS[name]

        def fast(board: Board = board, centre: tuple[int, int] = centre, profile: object = profile) -> object:
            profile_los._GEO_CACHE.clear()
            return profile_los.visible_from(board, centre, profile)  # type: ignore[arg-type]

        def arcadia(board: Board = board, centre: tuple[int, int] = centre) -> object:
            los.clear_caches()
            return los.visible_from(board, centre)

        out.append(Benchmark(
            f"profile_fov_{name}_{size}x{size}", fast, arcadia, repeat=3, reference_repeat=5, warmup=0,
            note=f"reference = arcadia FOV on the same board; ratio = arcadia/profile; load average {load}",
        ))
    return out
