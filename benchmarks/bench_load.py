"""Loading a map: ``load_100x100_1000_walls`` (the README's speed table: <= 300 ms median), and
``los_400x400_fresh``: ``sightline los MAP 203,205 --json`` in a fresh process on a generated
400x400 map (31,000 wall segments, 40 doors): start to exit, peak RSS of the process (issue 11:
<= 2 s and <= 300 MB). Most of that is starting Python and loading the map.

The maps are generated in a temporary folder: a CSV tile layer with an embedded tileset, wall
segments (two-point lines, polylines, rectangle outlines), doors and figures. The reference of
the load is a plain ``pytmx.TiledMap(path)`` parse of the same file, which builds no board: a
ratio below 1 is the cost of Sightline's checks and board building on top of pytmx. The fresh
``los`` has no reference.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import FRESH_CHILD, Benchmark, fresh_env

SIZE = 100
CELL = 32
REPO = Path(__file__).resolve().parent.parent


def write_map(folder: Path, seed: int = 7, size: int = SIZE, walls: int = 1000, doors: int = 30) -> Path:
    """Write a benchmark map into ``folder`` and return its path (default: the 100x100 one with
    1,000 wall segments and 30 doors)."""
    side = size
    path = folder / ("bench.tmx" if size == SIZE else f"bench{size}.tmx")
    rng = random.Random(seed)
    objects: list[str] = []
    next_id = 1
    segments = 0

    def add(body: str) -> None:
        nonlocal next_id
        objects.append(body.format(id=next_id))
        next_id += 1

    while segments < walls * 2 // 5:  # two-point lines
        x, y = rng.randrange(side), rng.randrange(side)
        dx, dy = (1, 0) if rng.random() < 0.5 else (0, 1)
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {dx * CELL},{dy * CELL}"/></object>'
        )
        segments += 1
    while segments < walls * 4 // 5:  # L-shaped polylines, two segments each
        x, y = rng.randrange(1, side - 3), rng.randrange(1, side - 3)
        a, b = rng.randint(1, 3) * CELL, rng.randint(1, 3) * CELL
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {a},0 {a},{b}"/></object>'
        )
        segments += 2
    while segments < walls:  # 1x1 rectangles: four segments each
        x, y = rng.randrange(side - 1), rng.randrange(side - 1)
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}"/>'
        )
        segments += 4
    for _ in range(doors):
        x, y = rng.randrange(1, side), rng.randrange(side)
        state = rng.choice(["open", "closed", "locked"])
        add(
            f'<object id="{{id}}" class="door" x="{x * CELL}" y="{y * CELL}"><properties>'
            f'<property name="state" value="{state}"/></properties><polyline points="0,0 0,{CELL}"/></object>'
        )
    for i in range(30):
        x, y = rng.randrange(side), rng.randrange(side)
        add(
            f'<object id="{{id}}" name="F{i}" class="figure" x="{x * CELL + 16}" y="{y * CELL + 16}">'
            f'<properties><property name="side" value="{"red" if i % 2 else "blue"}"/>'
            f'<property name="life" type="int" value="4"/></properties><point/></object>'
        )
    rows = []
    for y in range(side):
        rows.append(
            ",".join("0" if (x + y) % 37 == 0 else str(1 + (x * y) % 4) for x in range(side))
        )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{side}" '
        f'height="{side}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" nextobjectid="{next_id}">\n'
        f' <tileset firstgid="1" name="floor" tilewidth="{CELL}" tileheight="{CELL}" tilecount="4" columns="4">\n'
        f'  <image source="tiles.png" width="{4 * CELL}" height="{CELL}"/>\n'
        '  <tile id="3"><properties><property name="blocked" type="bool" value="true"/></properties></tile>\n'
        " </tileset>\n"
        f' <layer id="1" name="Ground" width="{side}" height="{side}">\n  <data encoding="csv">\n'
        + ",\n".join(rows)
        + "\n</data>\n </layer>\n"
        ' <objectgroup id="2" name="Objects">\n  '
        + "\n  ".join(objects)
        + "\n </objectgroup>\n</map>\n"
    )
    path.write_text(text, encoding="utf-8")
    png = Path(__file__).resolve().parent.parent / "tests" / "data" / "maps" / "tiles.png"
    (folder / "tiles.png").write_bytes(png.read_bytes())
    return path


def benchmarks() -> list[Benchmark]:
    """The load benchmark with its pytmx reference, and the fresh ``los`` on the 400x400 map."""
    import pytmx

    from game.tiled import load_map

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-load-"))
    path = write_map(folder)
    loaded = load_map(path)
    assert loaded.stats["walls"] > 900 and not loaded.errors, loaded.stats

    big = write_map(folder, seed=400, size=400, walls=31_000, doors=40)
    peaks: list[float] = []

    def fresh_los() -> list[float]:
        times = []
        argv = [sys.executable, "-c", FRESH_CHILD, "los", str(big), "203,205", "--json"]
        subprocess.run(argv, check=True, cwd=REPO, capture_output=True, env=fresh_env())  # writes the bytecode cache
        for _ in range(7):
            start = time.perf_counter()
            done = subprocess.run(argv, check=True, cwd=REPO, capture_output=True, text=True, env=fresh_env())
            times.append((time.perf_counter() - start) * 1000.0)
            assert json.loads(done.stdout)["from"] == [203, 205]
            peaks.append(int(done.stderr.rsplit("peak_kb=", 1)[1].split()[0]) / 1024)
        return times

    return [
        Benchmark(
            name="los_400x400_fresh", run=lambda: None, samples=fresh_los, target_ms=2000.0,
            peak=lambda: max(peaks),
            note="sightline los MAP 203,205 --json in a fresh process, generated 400x400 map (31,000 "
            "wall segments, 40 doors); 7 runs; peak = the process's VmHWM; no reference",
        ),
        Benchmark(
            name="load_100x100_1000_walls",
            run=lambda: load_map(path),
            reference=lambda: pytmx.TiledMap(str(path)),
            repeat=15,
            reference_repeat=5,
            target_ms=300.0,
            note="reference = plain pytmx.TiledMap(path), no board: ratio < 1 is our overhead",
        )
    ]
