"""``sightline balance`` on hex maps (issue #21) against the same command on a square map.

* ``balance_hex_40x40``: ``sightline balance MAP -o DIR`` in a fresh process on a generated
  40×40 pointy-top hex map (a tenth of the hex sides walled in runs, 2 % of the hexes rubble, two
  deploy zones of 4×12 hexes on the west and east edges, no figures: "any figure"), every hex
  rule (3), every picture. Reference: the same command on a 40×40 square map of the same
  density (a tenth of the square sides walled, 2 % blocked, the same zones), every square rule
  (5). The ratio is hex / square; the square run does more rules (corner rules cost about 25
  times arcadia's fields), so compare it with ``--rules`` too: ``python
  benchmarks/bench_hex_balance.py`` prints the CPU time of both commands under their map's
  first rule alone and under every rule, and the small hex map of the tests, interleaved, with
  the load average.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import Benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from game.core.hexgrid import HexGrid, HexLayout  # noqa: E402

SIZE = 40
LAYOUT = HexLayout(32, 37, 18)
CELL = 32
ZONE = (4, 12)


def _zones(width: int, height: int, box: object) -> list[str]:
    """Two deploy objects (red west, blue east), ``box(cells)`` giving each one's pixel rectangle."""
    deep, tall = ZONE
    top = (height - tall) // 2
    out = []
    for side, x0 in (("red", 0), ("blue", width - deep)):
        cells = [(x, y) for x in range(x0, x0 + deep) for y in range(top, top + tall)]
        left, upper, w, h = box(cells)  # type: ignore[operator]
        out.append(f'<object id="ID" type="deploy" x="{left:g}" y="{upper:g}" width="{w:g}" height="{h:g}">'
                   f'<properties><property name="side" value="{side}"/></properties></object>')
    return out


def _write(path: Path, head: str, width: int, height: int, tile: str, objects: list[str], props: str = "") -> Path:
    numbered = [o.replace("ID", str(i), 1) for i, o in enumerate(objects, 1)]
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" {head} renderorder="right-down" width="{width}" '
        f'height="{height}" {tile} infinite="0" nextlayerid="2" nextobjectid="{len(numbered) + 1}">\n'
        f' <properties><property name="ruleset" value="arcadia"/>{props}</properties>\n'
        ' <objectgroup id="1" name="objects">\n  ' + "\n  ".join(numbered) + "\n </objectgroup>\n</map>\n",
        encoding="utf-8")
    return path


def hex_map(folder: Path, size: int = SIZE, seed: int = 40, walls: float = 0.1, blocked: float = 0.02) -> Path:
    """The generated hex map (see the module): walls as one-side polylines through the drawn
    corners, rubble as ``blocked`` rectangles round a hex's drawn centre."""
    rng = random.Random(seed)
    grid = HexGrid(size, size)
    cells = list(grid.cells())
    sides = sorted({grid.edge_between(a, b) for a in cells for b in grid.neighbours(a)}, key=str)
    objects = []
    for edge in rng.sample(sides, round(walls * len(sides))):
        (x0, y0), (x1, y1) = grid.point_px(edge.a, LAYOUT), grid.point_px(edge.b, LAYOUT)
        objects.append(f'<object id="ID" type="wall" x="{x0:g}" y="{y0:g}"><polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>')
    deep = ZONE[0]
    for cell in rng.sample([c for c in cells if deep <= c[0] < size - deep], round(blocked * len(cells))):
        cx, cy = grid.centre_px(cell, LAYOUT)
        objects.append(f'<object id="ID" type="blocked" x="{cx - 4:g}" y="{cy - 4:g}" width="8" height="8"/>')

    def box(zone: list[tuple[int, int]]) -> tuple[float, float, float, float]:
        xs, ys = zip(*(grid.centre_px(c, LAYOUT) for c in zone), strict=True)
        return min(xs) - 4, min(ys) - 4, max(xs) - min(xs) + 8, max(ys) - min(ys) + 8

    objects += _zones(size, size, box)
    head = 'orientation="hexagonal"'
    tile = (f'tilewidth="{LAYOUT.tilewidth}" tileheight="{LAYOUT.tileheight}" hexsidelength="{LAYOUT.hexsidelength}" '
            'staggeraxis="y" staggerindex="odd"')
    return _write(folder / f"hex{size}.tmx", head, size, size, tile, objects)


def square_map(folder: Path, size: int = SIZE, seed: int = 40, walls: float = 0.1, blocked: float = 0.02) -> Path:
    """The square map of the same density: unit walls on a tenth of the square sides between two
    squares, 2 % of the squares blocked, the same zones."""
    rng = random.Random(seed)
    sides = [("V", x, y) for x in range(1, size) for y in range(size)] + [("H", x, y) for x in range(size) for y in range(1, size)]
    objects = []
    for axis, x, y in rng.sample(sides, round(walls * len(sides))):
        end = f"0,{CELL}" if axis == "V" else f"{CELL},0"
        objects.append(f'<object id="ID" type="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {end}"/></object>')
    deep = ZONE[0]
    cells = [(x, y) for x in range(deep, size - deep) for y in range(size)]
    for x, y in rng.sample(cells, round(blocked * size * size)):
        objects.append(f'<object id="ID" type="blocked" x="{x * CELL + 12}" y="{y * CELL + 12}" width="8" height="8"/>')

    def box(zone: list[tuple[int, int]]) -> tuple[float, float, float, float]:
        xs, ys = zip(*zone, strict=True)
        return min(xs) * CELL + 4, min(ys) * CELL + 4, (max(xs) - min(xs) + 1) * CELL - 8, (max(ys) - min(ys) + 1) * CELL - 8

    objects += _zones(size, size, box)
    return _write(folder / f"square{size}.tmx", 'orientation="orthogonal"', size, size,
                  f'tilewidth="{CELL}" tileheight="{CELL}"', objects)


def small_hex_map(folder: Path) -> Path:
    """The 5×2 hex map of tests/test_hex_balance.py (its numbers worked out by hand there)."""
    grid = HexGrid(5, 2)
    edge = grid.edge_between((2, 0), (3, 0))
    (x0, y0), (x1, y1) = grid.point_px(edge.a, LAYOUT), grid.point_px(edge.b, LAYOUT)
    objects = [f'<object id="ID" type="wall" x="{x0:g}" y="{y0:g}"><polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>']

    def box(zone: list[tuple[int, int]]) -> tuple[float, float, float, float]:
        xs, ys = zip(*(grid.centre_px(c, LAYOUT) for c in zone), strict=True)
        return min(xs) - 4, min(ys) - 4, max(xs) - min(xs) + 8, max(ys) - min(ys) + 8

    for side, cells in (("red", [(0, 0), (0, 1)]), ("blue", [(4, 0), (4, 1)])):
        left, top, w, h = box(cells)
        objects.append(f'<object id="ID" type="deploy" x="{left:g}" y="{top:g}" width="{w:g}" height="{h:g}">'
                       f'<properties><property name="side" value="{side}"/></properties></object>')
    tile = (f'tilewidth="{LAYOUT.tilewidth}" tileheight="{LAYOUT.tileheight}" hexsidelength="{LAYOUT.hexsidelength}" '
            'staggeraxis="y" staggerindex="odd"')
    return _write(folder / "five.tmx", 'orientation="hexagonal"', 5, 2, tile, objects)


def command_cpu(path: Path, out: Path, rules: str | None = None) -> tuple[float, float]:
    """CPU seconds (user + system of the child) and wall seconds of ``sightline balance`` in a
    fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    args = [sys.executable, "-m", "game", "balance", str(path), "-o", str(out)] + (["--rules", rules] if rules else [])
    subprocess.run(args, check=True, cwd=REPO, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def benchmarks() -> list[Benchmark]:
    """``balance_hex_40x40`` (reference: the square 40×40 map of the same density)."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-hex-balance-"))
    hexes, squares = hex_map(folder), square_map(folder)
    runs = {"n": 0}

    def run(path: Path) -> None:
        runs["n"] += 1
        command_cpu(path, folder / f"out-{runs['n']}")

    return [Benchmark("balance_hex_40x40", run=lambda: run(hexes), reference=lambda: run(squares), repeat=5,
                      reference_repeat=5, warmup=0,
                      note="sightline balance in a fresh process on a generated 40x40 hex map (10% of sides walled, "
                      "2% rubble, 2 zones of 4x12, no figures), 3 hex rules, every picture; reference = the 40x40 "
                      "square map of the same density, 5 square rules")]


def main() -> int:
    """Print the CPU time of the command on the three maps, interleaved, with the load average."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-hex-balance-"))
    maps = {"hex 5x2 (tests)": (small_hex_map(folder), "hexside"), "hex 40x40": (hex_map(folder), "hexside"),
            "square 40x40": (square_map(folder), "arcadia")}
    times: dict[str, list[tuple[float, float]]] = {f"{k} {m}": [] for k in maps for m in ("first rule", "every rule")}
    print(f"load average before: {os.getloadavg()}")
    for n in range(3):
        for name, (path, rule) in maps.items():
            times[f"{name} first rule"].append(command_cpu(path, folder / f"a{n}{len(times)}", rule))
            times[f"{name} every rule"].append(command_cpu(path, folder / f"b{n}{len(times)}"))
    for key, found in times.items():
        cpu = sorted(c for c, _ in found)[len(found) // 2]
        wall = sorted(w for _, w in found)[len(found) // 2]
        print(f"{key:32s} median CPU {cpu:6.2f} s  wall {wall:6.2f} s  ({len(found)} runs)")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
