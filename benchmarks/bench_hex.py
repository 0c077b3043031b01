"""Hex boards: the field of view through the sight facade (``sight.field`` on a Board on a
HexGrid: game/core/hex_sight.py, the paint of game/core/hex_fov.py and hex_paint.py) next to the square arcadia
field of view (``sight.field`` on a square board) of the same size and wall density, in the same
run; and ``sightline los`` on a generated 400×400 hex map in a fresh process (``--fresh``).

``python benchmarks/bench_hex.py`` (standalone): each row times the hex field from the centre of a
random hex board (walls on ~10 % of the edges between cells, ~2 % blocked cells, seeded) and the
square arcadia field from the centre of benchmarks/bench_profiles.py's square board of the same
size (walls on ~10 % of the interior edges, ~2 % blocked squares), **interleaved** sample by
sample (so both see the same load on a shared machine), caches cleared before each sample (the
first call on a board: only what depends on the board's size or the rule is kept, as for the
square engines). Medians of 9 samples; "reference" is the square field, ratio = square / hex as in
run.py. The issue's targets: hex ``field`` 200×200 ``hexside`` within 2× the square field (ratio
≥ 0.5); 100×100 ``gloomhaven`` within 8× (ratio ≥ 0.125). The ``*_open`` rows use a sparse board
(1 % walls, no blocked cells) on both sides. ``--cpu`` times CPU time instead of wall time.

``--origins`` prints the cost per origin with the board's byte grid kept (many origins of one
board: the window, ``report``, ``compare``): the paint, the lazy caster and the field's own choice,
on dense and open boards of 128, 160, 200 and 256 hexes a side; it sets where the lazy caster starts
(``hex_cast.SMALLEST``).

``benchmarks()`` gives the same rows to benchmarks/run.py (not interleaved there).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_profiles import random_board as square_board  # noqa: E402
from harness import Benchmark, percentile  # noqa: E402

from game.core import hex_sight, los, sight  # noqa: E402
from game.core.board import Board, Edge  # noqa: E402
from game.core.hexgrid import HexEdge, HexGrid, HexLayout  # noqa: E402

#: row -> (hex preset, board side, density: "dense" or "open", target ratio square/hex)
ROWS = {
    "hex_field_200x200_hexside": ("hexside", 200, "dense", 0.5),
    "hex_field_100x100_gloomhaven": ("gloomhaven", 100, "dense", 0.125),
    "hex_field_100x100_hexside": ("hexside", 100, "dense", None),
    "hex_field_200x200_hex_strict": ("hex-strict", 200, "dense", None),
    "hex_field_100x100_hexside_open": ("hexside", 100, "open", None),
    "hex_field_100x100_gloomhaven_open": ("gloomhaven", 100, "open", None),
}


def hex_board(size: int, seed: int, walls: float = 0.1, blocked: float = 0.02) -> Board:
    """A size×size pointy-top hex board: each edge between two cells a wall with probability
    ``walls``, each cell blocked terrain with probability ``blocked`` (never the centre)."""
    rng = random.Random(seed)
    grid = HexGrid(size, size)
    edges = set()
    for cell in grid.cells():
        for side in (0, 1, 2):  # each edge between two cells once
            other = grid.around(cell)[side]
            if grid.in_bounds(other) and rng.random() < walls:
                edges.add(grid.edges_of(cell)[side])
    centre = (size // 2, size // 2)
    terrain = {c for c in grid.cells() if rng.random() < blocked} - {centre}
    return hex_sight.hex_board(size, size, walls=edges, blocked=terrain)


def open_square_board(size: int, seed: int) -> Board:
    """The square counterpart of an open hex board: 1 % walls, no blocked squares."""
    rng = random.Random(seed)
    edges = {Edge("V", x, y) for x in range(1, size) for y in range(size) if rng.random() < 0.01}
    edges |= {Edge("H", x, y) for x in range(size) for y in range(1, size) if rng.random() < 0.01}
    return Board(size, size, walls=edges)


def _runners(row: str) -> tuple[Callable[[], object], Callable[[], object]]:
    preset, size, density, _ = ROWS[row]
    centre = (size // 2, size // 2)
    if density == "dense":
        hexes, squares = hex_board(size, seed=size), square_board(size, seed=size)
    else:
        hexes, squares = hex_board(size, seed=size, walls=0.01, blocked=0.0), open_square_board(size, seed=size)

    def hex_field() -> object:
        hex_sight.clear_caches()  # the first call on the board: its HexBoard derived too
        return sight.field(hexes, centre, preset)

    def square_field() -> object:
        los.clear_caches()
        return sight.field(squares, centre, "arcadia")

    return hex_field, square_field


def benchmarks() -> list[Benchmark]:
    """The rows for benchmarks/run.py: hex field, reference = the square arcadia field."""
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    out = []
    for row, (_, _, _, target) in ROWS.items():
        hex_field, square_field = _runners(row)
        goal = f"target ratio >= {target}" if target else "no target"
        out.append(Benchmark(
            row, hex_field, square_field, repeat=9, reference_repeat=9, warmup=1, target_ratio=target,
            note=f"reference = square arcadia field, same size and density; {goal}; load average {load}",
        ))
    out.append(fresh_los_row())
    return out


def fresh_los_row() -> Benchmark:
    """``hex_los_cli_400x400_fresh`` for benchmarks/run.py: ``sightline los`` on the generated
    400x400 hex map (:func:`write_hex_map`) in a fresh process per run, peak = VmHWM; targets
    2 s, 300 MB."""
    import tempfile

    from bench_speed import FreshRow

    path = Path(tempfile.mkdtemp(prefix="sightline-bench-hex-")) / "hex400.tmx"
    a, b = write_hex_map(path)
    row = FreshRow(["los", str(path), a, b])
    return row.attach(Benchmark(
        "hex_los_cli_400x400_fresh", row.run, repeat=7, warmup=0, target_ms=2000.0, peak=row.peak,
        note="sightline los on a generated 400x400 hex map (8,182 wall polylines), fresh process; peak = VmHWM",
    ))


def _interleaved(row: str, samples: int, clock: Callable[[], float]) -> tuple[list[float], list[float]]:
    hex_field, square_field = _runners(row)
    hex_field()
    square_field()
    hexes, squares = [], []
    for _ in range(samples):
        start = clock()
        hex_field()
        hexes.append((clock() - start) * 1000)
        start = clock()
        square_field()
        squares.append((clock() - start) * 1000)
    return hexes, squares


def _wall_runs(grid: HexGrid, rng: random.Random, share: float, longest: int = 12) -> list[list[HexEdge]]:
    """Walls as a designer draws them: runs of up to ``longest`` hex sides, each a random walk from
    corner to corner between cells of the map, until ``share`` of the sides between cells are walls
    (one polyline object per run keeps the map under the reader's object limit)."""
    inner = [grid.edges_of(c)[side] for c in grid.cells() for side in (0, 1, 2) if grid.in_bounds(grid.around(c)[side])]
    by_corner: dict[tuple[int, int], list[HexEdge]] = {}
    for edge in inner:
        by_corner.setdefault(edge.a, []).append(edge)
        by_corner.setdefault(edge.b, []).append(edge)
    goal, used, runs = int(share * len(inner)), set[HexEdge](), []
    while len(used) < goal:
        at, run = rng.choice(inner).a, []
        for _ in range(rng.randint(1, longest)):
            free = [e for e in by_corner[at] if e not in used]
            if not free:
                break
            edge = rng.choice(free)
            used.add(edge)
            run.append(edge)
            at = edge.b if edge.a == at else edge.a
        if run:
            runs.append(run)
    return runs


def _run_start(run: list[HexEdge]) -> tuple[int, int]:
    """The corner a run of sides starts at (the end of its first side not shared with the next)."""
    if len(run) > 1 and run[0].a in (run[1].a, run[1].b):
        return run[0].b
    return run[0].a


def write_hex_map(path: Path, size: int = 400, seed: int = 400) -> tuple[str, str]:
    """A size×size pointy-top hexagonal .tmx drawn as a designer would (a tile layer, ~2 % rock
    tiles, ~10 % of the sides between cells walls, drawn as polylines of up to 12 sides) and a pair
    to ask."""
    rng = random.Random(seed)
    grid, layout = HexGrid(size, size), HexLayout(32, 37, 18)
    centre = (size // 2, size // 2)
    rock = {c for c in grid.cells() if rng.random() < 0.02} - {centre}
    rows = ",\n".join(",".join("2" if (x, y) in rock else "1" for x in range(size)) for y in range(size))
    objects = []
    for i, run in enumerate(_wall_runs(grid, rng, 0.1), start=1):
        corners = [_run_start(run)]
        for edge in run:
            corners.append(edge.b if edge.a == corners[-1] else edge.a)
        px = [grid.point_px(c, layout) for c in corners]
        x0, y0 = px[0]
        points = " ".join(f"{x - x0:g},{y - y0:g}" for x, y in px)
        objects.append(f'<object id="{i}" type="wall" x="{x0:g}" y="{y0:g}"><polyline points="{points}"/></object>')
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="hexagonal" renderorder="right-down" width="{size}" height="{size}" tilewidth="32" tileheight="37" infinite="0" hexsidelength="18" staggeraxis="y" staggerindex="odd" nextlayerid="3" nextobjectid="{len(objects) + 1}">
 <tileset firstgid="1" name="hex" tilewidth="32" tileheight="37" tilecount="2" columns="2">
  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{size}" height="{size}"><data encoding="csv">
{rows}
</data></layer>
 <objectgroup id="2" name="walls">{"".join(objects)}</objectgroup>
</map>
""", encoding="utf-8")
    c = size // 2
    return f"{c},{c}", f"{c + 7},{c + 5}"


def fresh_los(samples: int) -> None:
    """``sightline los`` on a generated 400×400 hex map, each run a fresh process
    (``bench_speed.fresh``): wall time, CPU time and the process's peak memory (VmHWM), medians
    (targets: ≤ 2 s, ≤ 300 MB)."""
    import tempfile

    from bench_speed import CPU_SECONDS, fresh

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hex400.tmx"
        a, b = write_hex_map(path)
        runs = [fresh(["los", str(path), a, b]) for _ in range(samples)]
        times, peaks, cpus = [ms / 1000 for ms, _ in runs], [mb for _, mb in runs], CPU_SECONDS[-samples:]
        print(f"{'hex_los_cli_400x400_fresh':34s} median {statistics.median(times):9.3f} s   "
              f"max {max(times):.3f} s  CPU median {statistics.median(cpus):.3f} s  peak memory median {statistics.median(peaks):.0f} MB "
              f"(max {max(peaks):.0f} MB)  targets <= 2 s, <= 300 MB: "
              f"{'ok' if statistics.median(times) <= 2 and max(peaks) <= 300 else 'MISSED'}", flush=True)


def origins(samples: int) -> None:
    """``--origins``: the CPU time per origin of the field with the byte grid kept (as the window,
    ``report`` and ``compare`` ask for many origins of one board), from ``samples`` random origins
    of dense and open boards of 128, 160, 200 and 256 hexes a side under ``hexside``: the paint alone,
    the lazy caster alone (no budget) and the field's own choice ("auto": the caster within its
    budget from 180×180 cells on, else the paint). Where the paint is cheaper on average sets
    :data:`game.core.hex_cast.SMALLEST`."""
    from game.core import hex_los
    from game.core.hex_rules import parse_hex_rule

    rule = parse_hex_rule("hexside")
    print(f"{'board':22s} {'paint':>9s} {'lazy':>9s} {'auto':>9s}   (ms CPU per origin, {samples} origins)")
    for size in (128, 160, 200, 256):
        for density, walls, blocked in (("dense", 0.1, 0.02), ("open", 0.01, 0.0)):
            board = hex_sight.hex_input(hex_board(size, seed=size, walls=walls, blocked=blocked))
            rng = random.Random(size)
            cells = [(rng.randrange(size), rng.randrange(size)) for _ in range(samples)]
            times = []
            for engine in ("paint", "lazy", "cast"):
                hex_los.field(board, cells[0], rule, engine=engine)  # the byte grid and tables made
                start = time.process_time()
                for cell in cells:
                    hex_los.field(board, cell, rule, engine=engine)
                times.append((time.process_time() - start) * 1000 / samples)
            print(f"{size}x{size} {density:11s} {times[0]:9.2f} {times[1]:9.2f} {times[2]:9.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Time every row, interleaved, and print it as benchmarks/run.py does."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", action="append", default=[], help="run only this row (repeatable)")
    parser.add_argument("--samples", type=int, default=9, help="samples per side (default 9)")
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not wall time")
    parser.add_argument("--fresh", action="store_true", help="also time sightline los on a 400x400 hex map, fresh processes")
    parser.add_argument("--origins", action="store_true",
                        help="only the field's cost per origin: paint, lazy caster, the field's choice (hexside)")
    args = parser.parse_args(argv)
    if args.origins:
        print(f"load average at the start: {', '.join(f'{v:.2f}' for v in os.getloadavg())}", flush=True)
        origins(max(args.samples, 40))
        print(f"load average at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
        return 0
    clock = time.process_time if args.cpu else time.perf_counter
    start_load = os.getloadavg()
    print(f"load average at the start: {start_load[0]:.2f}, {start_load[1]:.2f}, {start_load[2]:.2f}"
          f" ({'CPU' if args.cpu else 'wall'} time)", flush=True)
    for row, (_, _, _, target) in ROWS.items():
        if args.only and row not in args.only:
            continue
        hexes, squares = _interleaved(row, args.samples, clock)
        median, reference = statistics.median(hexes), statistics.median(squares)
        ratio = reference / median
        mark = ""
        if target is not None:
            mark = f"  target ratio >= {target:g}: {'ok' if ratio >= target else 'MISSED'}"
        print(f"{row:34s} median {median:9.3f} ms  p95 {percentile(hexes, 95):9.3f} ms"
              f"  reference {reference:10.2f} ms  ratio {ratio:8.2f}x{mark}", flush=True)
    if args.fresh:
        fresh_los(args.samples)
    end = os.getloadavg()
    print(f"load average at the end: {end[0]:.2f}, {end[1]:.2f}, {end[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
