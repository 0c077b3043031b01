"""Loading a map: ``load_100x100_1000_walls`` (the README's speed table: <= 300 ms median).

The map is generated in a temporary folder: 100x100 squares, a CSV tile layer with an embedded
tileset, 1,000 wall segments (two-point lines, polylines, rectangle outlines), doors and figures.
The reference is a plain ``pytmx.TiledMap(path)`` parse of the same file, which builds no board:
a ratio below 1 is the cost of Sightline's checks and board building on top of pytmx.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from harness import Benchmark

SIZE = 100
CELL = 32


def write_map(folder: Path, seed: int = 7) -> Path:
    """Write the benchmark map into ``folder`` and return its path."""
    rng = random.Random(seed)
    objects: list[str] = []
    next_id = 1
    segments = 0

    def add(body: str) -> None:
        nonlocal next_id
        objects.append(body.format(id=next_id))
        next_id += 1

    while segments < 400:  # two-point lines
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        dx, dy = (1, 0) if rng.random() < 0.5 else (0, 1)
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {dx * CELL},{dy * CELL}"/></object>'
        )
        segments += 1
    while segments < 800:  # L-shaped polylines, two segments each
        x, y = rng.randrange(1, SIZE - 3), rng.randrange(1, SIZE - 3)
        a, b = rng.randint(1, 3) * CELL, rng.randint(1, 3) * CELL
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {a},0 {a},{b}"/></object>'
        )
        segments += 2
    while segments < 1000:  # 1x1 rectangles: four segments each
        x, y = rng.randrange(SIZE - 1), rng.randrange(SIZE - 1)
        add(
            f'<object id="{{id}}" class="wall" x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}"/>'
        )
        segments += 4
    for _ in range(30):
        x, y = rng.randrange(1, SIZE), rng.randrange(SIZE)
        state = rng.choice(["open", "closed", "locked"])
        add(
            f'<object id="{{id}}" class="door" x="{x * CELL}" y="{y * CELL}"><properties>'
            f'<property name="state" value="{state}"/></properties><polyline points="0,0 0,{CELL}"/></object>'
        )
    for i in range(30):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        add(
            f'<object id="{{id}}" name="F{i}" class="figure" x="{x * CELL + 16}" y="{y * CELL + 16}">'
            f'<properties><property name="side" value="{"red" if i % 2 else "blue"}"/>'
            f'<property name="life" type="int" value="4"/></properties><point/></object>'
        )
    rows = []
    for y in range(SIZE):
        rows.append(
            ",".join("0" if (x + y) % 37 == 0 else str(1 + (x * y) % 4) for x in range(SIZE))
        )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{SIZE}" '
        f'height="{SIZE}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" nextobjectid="{next_id}">\n'
        f' <tileset firstgid="1" name="floor" tilewidth="{CELL}" tileheight="{CELL}" tilecount="4" columns="4">\n'
        f'  <image source="tiles.png" width="{4 * CELL}" height="{CELL}"/>\n'
        '  <tile id="3"><properties><property name="blocked" type="bool" value="true"/></properties></tile>\n'
        " </tileset>\n"
        f' <layer id="1" name="Ground" width="{SIZE}" height="{SIZE}">\n  <data encoding="csv">\n'
        + ",\n".join(rows)
        + "\n</data>\n </layer>\n"
        ' <objectgroup id="2" name="Objects">\n  '
        + "\n  ".join(objects)
        + "\n </objectgroup>\n</map>\n"
    )
    path = folder / "bench.tmx"
    path.write_text(text, encoding="utf-8")
    png = Path(__file__).resolve().parent.parent / "tests" / "data" / "maps" / "tiles.png"
    (folder / "tiles.png").write_bytes(png.read_bytes())
    return path


def benchmarks() -> list[Benchmark]:
    """The load benchmark and its pytmx reference."""
    import pytmx

    from game.tiled import load_map

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-load-"))
    path = write_map(folder)
    loaded = load_map(path)
    assert loaded.stats["walls"] > 900 and not loaded.errors, loaded.stats

    return [
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
