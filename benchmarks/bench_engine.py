"""The LOS engine at every board size (issue #11): first calls, big boards, all pairs, peers.

* ``fov_100x100_first`` / ``fov_100x100_first_sparse`` / ``fov_400x400_first``: a fresh process
  per sample (python, numpy and the engine imported, numpy warmed on a 9×5 board), then the board
  is built (not timed) and the first ``visible_from`` on that board size is timed: the slope
  table of the size, the blocker arrays, the mask — nothing precomputed. Peak: tracemalloc
  around that call in one more fresh process (untimed: tracing slows Python objects). Reference: the peer below on the same board, same origin (so ``ratio`` is how
  many times faster the engine's *first* call is than the peer); with numba installed
  (``pip install -e '.[bench]'``) the 100×100 rows' peer is the same walk compiled
  (``peer_walk.numba_fov``, compiled before timing; target: the first call within 2× of it).
* ``fov_400x400``: a new origin on the 400×400 board each sample, per-board caches cleared (the
  slope table of the size stays warm). Reference: the peer from the same origin.
* ``all_pairs_128x128``: ``pair_bits`` (one bit per pair) on a 128×128 board with 1,600 walls,
  cold; peak by tracemalloc in one more (untimed) run. Reference: the one reference (sight.reference, arcadia) on 1,024 sampled pairs, scaled.
* ``peer_python_walk``: the plain-Python integer walk with early exit (benchmarks/peer_walk.py;
  tests/test_los_peer.py checks it agrees) on the dense 100×100 board; reference: the engine's
  warm ``visible_from`` there (ratio < 1: the peer is that much slower).
* ``peer_tcod``: tcod's C shadow casting (``FOV_SHADOW``, a different and simpler rule: blocking
  squares only, no walls on edges, no corner rule) on the same 400×400 blocking squares, where
  installed (``pip install -e '.[bench]'``); a yardstick only. Reference: the engine's
  ``fov_400x400`` from the same origin.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

from bench_los import random_board  # the one board generator, also the subprocess's
from harness import Benchmark
from peer_walk import numba_fov, numba_ready, peer_fov

from game.core import los, sight

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
FIRST_RUNS = 7


BOARDS = {
    "dense100": (100, 2_000, 500, 100),
    "sparse100": (100, 100, 20, 101),
    "dense400": (400, 16_000, 3_000, 400),
}

_CHILD = """
import json, sys, time, tracemalloc
sys.path.insert(0, {here!r}); sys.path.insert(0, {repo!r})
from bench_engine import BOARDS, random_board
from game.core import los, sight
los.visible_from(random_board(9, 5, 3, seed=1).copy(), (2, 2))  # numpy and the engine warm
size, walls, blocked, seed = BOARDS[{name!r}]
board = random_board(size, walls, blocked, seed)
if {peak!r}:
    tracemalloc.start()
start = time.perf_counter()
los.visible_from(board, (size // 2, size // 2))
ms = (time.perf_counter() - start) * 1000.0
print(json.dumps([ms, tracemalloc.get_traced_memory()[1] / 1e6]))
"""


def first_call(name: str) -> tuple[list[float], list[float]]:
    """Times (fresh processes, untraced) and peak (MB, one more fresh process under tracemalloc)
    of the first ``visible_from`` on board ``name``. Tracing every allocation slows small Python
    objects far more than numpy calls, so the timed runs do not trace."""
    times, peaks = [], []
    env = dict(os.environ, PYTHONHASHSEED="0")
    for run in range(FIRST_RUNS + 1):
        traced = run == FIRST_RUNS
        code = _CHILD.format(here=str(HERE), repo=str(REPO), name=name, peak=traced)
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env)
        ms, peak = json.loads(out.stdout.strip().splitlines()[-1])
        (peaks if traced else times).append(peak if traced else ms)
    return times, peaks


def benchmarks() -> list[Benchmark]:
    """The engine rows of issue #11."""
    boards = {name: random_board(*spec) for name, spec in BOARDS.items()}
    peaks: dict[str, float] = {}

    def first(name: str) -> Benchmark:
        size = BOARDS[name][0]
        board = boards[name]
        centre = (size // 2, size // 2)

        def samples() -> list[float]:
            times, mb = first_call(name)
            peaks[name] = max(mb)
            return times

        label = {"dense100": "fov_100x100_first", "sparse100": "fov_100x100_first_sparse"}.get(name, "fov_400x400_first")
        target = 10.0 if size == 100 else 150.0
        compiled = size == 100 and numba_ready()  # the compiled walk is the peer when installed
        peer = (lambda: numba_fov(board, centre)) if compiled else (lambda: peer_fov(board, centre))
        return Benchmark(
            label, run=lambda: None, samples=samples,
            reference=peer if size == 100 else None,
            reference_repeat=9 if compiled else 3, target_ms=target, peak=lambda: peaks[name],
            note=f"fresh process per sample ({FIRST_RUNS}); first call on a new board size, nothing precomputed"
            + ("; reference: the numba-compiled walk (peer_walk.numba_fov: the board's arrays built, then the "
               "walk; compiled before timing), same board and origin; target <= 2x it" if compiled else
               "; reference: peer_python_walk, same board and origin" if size == 100 else ""),
        )

    big = boards["dense400"]
    rng = random.Random(4)
    cells = list(big.squares())

    def fov400() -> object:
        los.clear_caches()
        return los.visible_from(big, rng.choice(cells))

    pairs_board = random_board(128, 1_600, 0, seed=128)
    sample_rng = random.Random(1024)
    pair_cells = list(pairs_board.squares())
    sample = [(sample_rng.choice(pair_cells), sample_rng.choice(pair_cells)) for _ in range(1024)]
    def pairs() -> object:
        los.clear_caches()
        return los.pair_bits(pairs_board)

    def pairs_peak() -> float:
        """One more cold run under tracemalloc (untimed: tracing slows the timed run)."""
        los.clear_caches()
        tracemalloc.start()
        try:
            los.pair_bits(pairs_board)
            return tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()

    dense = boards["dense100"]

    def warm_fov() -> object:
        los.clear_caches()
        return los.visible_from(dense, (50, 50))

    rows = [
        first("dense100"),
        first("sparse100"),
        first("dense400"),
        Benchmark(
            "fov_400x400", fov400, lambda: peer_fov(big, (200, 200)), repeat=9, reference_repeat=1,
            note="new origin each sample, per-board caches cleared; reference: peer_python_walk from the centre",
        ),
        Benchmark(
            "all_pairs_128x128", pairs,
            lambda: [sight.reference(pairs_board, a, b, "arcadia").clear for a, b in sample],
            repeat=1, warmup=0, reference_repeat=1, target_ms=10_000.0,
            reference_scale=(128 * 128) ** 2 / len(sample), peak=pairs_peak,
            note="pair_bits, cold, one untraced run (each takes seconds), peak from one more traced run; "
            "reference: the one reference (sight.reference, arcadia) on 1,024 pairs, scaled",
        ),
        Benchmark(
            "peer_python_walk", lambda: peer_fov(dense, (50, 50)), warm_fov, repeat=3, reference_repeat=9,
            note="the plain-Python integer walk on the dense 100x100 board; reference: the engine (ratio < 1: peer slower)",
        ),
    ]
    try:
        import tcod.map
        from tcod import libtcodpy
    except ImportError:
        return rows
    import numpy as np

    transparent = np.ones((400, 400), dtype=bool)
    for x, y in big.blocked:
        transparent[y, x] = False

    rows.append(
        Benchmark(
            "peer_tcod",
            lambda: tcod.map.compute_fov(transparent, (200, 200), radius=0, light_walls=True, algorithm=libtcodpy.FOV_SHADOW),
            lambda: (los.clear_caches(), los.visible_from(big, (200, 200))),
            repeat=20, reference_repeat=5,
            note="tcod FOV_SHADOW on the 400x400 blocking squares (a simpler rule, yardstick only); reference: the engine",
        )
    )
    return rows
