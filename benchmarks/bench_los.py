"""Line of sight: field of view on a 100×100 board and all pairs on a 64×64 board (the README's speed table).

``fov_100x100``: ``visible_from`` from the centre of a 100×100 board with ~1,000 random walls and
~200 blocked squares (seeded). Each sample clears the per-board caches first, so the mask, the
blocking lookups and the edge arrays are built cold; the ray table of the board size (geometry
only, shared by every 100×100 board) is warm after the warm-up call. The reference is
``sight.reference`` (the one reference, arcadia) to every square from the same origin, once.

``all_pairs_64x64``: ``all_pairs`` on a 64×64 board with ~400 random walls and nothing else, caches
cleared before each sample (ray table warm). The full exact reference would take hours, so the
reference is ``sight.reference`` (the one reference, arcadia) on a seeded sample of 1,024 pairs = 1/16,384 of the
16.7 million ordered pairs; the harness scales its time by 16,384 (``reference_scale``), so the
printed reference and ratio are for the whole table.
"""

from __future__ import annotations

import random

from harness import Benchmark

from game.core import los, sight
from game.core.board import Board, Edge

FOV_SIZE = 100
PAIRS_SIZE = 64
PAIR_SAMPLE = 1024


def random_board(size: int, walls: int, blocked: int, seed: int) -> Board:
    """A size×size board with ``walls`` distinct interior wall edges and ``blocked`` squares."""
    rng = random.Random(seed)
    edges: set[Edge] = set()
    while len(edges) < walls:
        if rng.random() < 0.5:
            edges.add(Edge("V", rng.randint(1, size - 1), rng.randrange(size)))
        else:
            edges.add(Edge("H", rng.randrange(size), rng.randint(1, size - 1)))
    centre = (size // 2, size // 2)
    squares = {(rng.randrange(size), rng.randrange(size)) for _ in range(blocked)} - {centre}
    return Board(size, size, walls=edges, blocked=squares)


def benchmarks() -> list[Benchmark]:
    """``fov_100x100`` and ``all_pairs_64x64``."""
    fov_board = random_board(FOV_SIZE, 1000, 200, seed=100)
    centre = (FOV_SIZE // 2, FOV_SIZE // 2)

    def fov() -> object:
        los.clear_caches()
        return los.visible_from(fov_board, centre)

    def fov_reference() -> object:
        return [sight.reference(fov_board, centre, sq, "arcadia").clear for sq in fov_board.squares()]

    pairs_board = random_board(PAIRS_SIZE, 400, 0, seed=64)
    rng = random.Random(1024)
    cells = list(pairs_board.squares())
    sample = [(rng.choice(cells), rng.choice(cells)) for _ in range(PAIR_SAMPLE)]

    def pairs() -> object:
        los.clear_caches()
        return los.all_pairs(pairs_board)

    def pairs_reference() -> object:
        return [sight.reference(pairs_board, a, b, "arcadia").clear for a, b in sample]

    return [
        Benchmark(
            "fov_100x100",
            fov,
            fov_reference,
            repeat=50,
            reference_repeat=1,
            target_ms=3.0,
            note="cold mask and lookups, warm ray table; reference: exact reference to all 10,000 squares",
        ),
        Benchmark(
            "all_pairs_64x64",
            pairs,
            pairs_reference,
            repeat=3,
            reference_repeat=1,
            target_ms=3000.0,
            reference_scale=(PAIRS_SIZE * PAIRS_SIZE) ** 2 / PAIR_SAMPLE,
            note="walls only, cold; reference: exact reference on 1,024 sampled pairs, scaled to the table",
        ),
    ]
