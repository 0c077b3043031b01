"""Benchmark of the map designer's coverage report: ``report_40x40``.

Setup writes a generated 40×40 map (5×5 rooms of 8×8 squares walled with polylines, 40 doors in
every state, 16 figures of two sides, some blocked terrain) into a temporary folder. The timed run
is what ``sightline report`` does: load the map, lint it, build the all-pairs table, the per-door
effects, every PNG and the HTML page. Target: under 10 s (issue 6).

``report_150x150``: the same on a generated 150x150 map (rooms of 10, ~4,200 wall segments, 40
doors). Target: under 60 s (issue 11).

Reference: the same numbers the plain way, without images: the all-pairs table and one more
all-pairs table per door, toggled (``game.designer.coverage.door_effects_reference``). The ratio says how
much the shortcuts (each region of the board cast on its own crop, each door's pairs recomputed
only among the squares it can reach) save on top of the pictures.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from harness import Benchmark

SIZE = 40
ROOM = 8


def make_map(folder: Path, seed: int = 40, size: int = SIZE, room: int = ROOM) -> Path:
    """Write a generated benchmark map (default 40×40, rooms of 8) into ``folder``; return its path."""
    SIZE, ROOM = size, room  # noqa: N806 - the generator below reads the old names
    rng = random.Random(seed)
    cell = 32
    objects: list[str] = []
    next_id = 1

    def add(kind: str, body: str, x: float, y: float, props: str = "", extra: str = "") -> None:
        nonlocal next_id
        properties = f"<properties>{props}</properties>" if props else ""
        objects.append(f'<object id="{next_id}" class="{kind}" x="{x}" y="{y}"{extra}>{properties}{body}</object>')
        next_id += 1

    # room walls: every ROOM-th grid line, as long polylines, leaving the door edges to doors
    for k in range(ROOM, SIZE, ROOM):
        add("wall", f'<polyline points="0,0 0,{SIZE * cell}"/>', k * cell, 0)
        add("wall", f'<polyline points="0,0 {SIZE * cell},0"/>', 0, k * cell)
    states = ["open", "closed", "locked", "open"]
    doors = 0
    for k in range(ROOM, SIZE, ROOM):
        for room in range(SIZE // ROOM):
            for axis in "VH":
                if doors >= 40:
                    break
                along = room * ROOM + rng.randrange(1, ROOM - 1)
                state = f'<property name="state" value="{states[doors % 4]}"/>'
                if axis == "V":
                    add("door", f'<polyline points="0,0 0,{cell}"/>', k * cell, along * cell, state)
                else:
                    add("door", f'<polyline points="0,0 {cell},0"/>', along * cell, k * cell, state)
                doors += 1
    for _ in range(30):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        add("blocked", "", x * cell, y * cell, extra=f' width="{cell}" height="{cell}"')
    for i in range(16):
        side = "Red Guild" if i % 2 else "monsters"
        props = (f'<property name="side" value="{side}"/><property name="life" type="int" value="3"/>'
                 '<property name="attacks" value="Blade:melee:2"/>')
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        add("figure", "<point/>", x * cell + 16, y * cell + 16, props)
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{SIZE}" height="{SIZE}" tilewidth="{cell}" tileheight="{cell}" infinite="0" '
        f'nextlayerid="2" nextobjectid="{next_id}">\n'
        ' <properties><property name="lint_ignore" value="figure-on-blocked,figure-over-capacity"/></properties>\n'
        ' <objectgroup id="1" name="objects">\n  ' + "\n  ".join(objects) + "\n </objectgroup>\n</map>\n"
    )
    path = folder / f"bench{size}.tmx"
    path.write_text(text, encoding="utf-8")
    return path


def benchmarks() -> list[Benchmark]:
    """``report_40x40``: the whole ``sightline report`` on the generated 40×40 map."""
    from game.commands.report import write_report
    from game.designer.coverage import door_effects_reference, visibility_table
    from game.tiled import load_map

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-report-"))
    path = make_map(folder)
    out = folder / "report"

    def run() -> None:
        write_report(load_map(path), out)

    def reference() -> None:
        board = load_map(path).board
        visibility_table(board)
        door_effects_reference(board)

    big = make_map(folder, seed=150, size=150, room=10)
    big_out = folder / "report150"

    def run_big() -> None:
        write_report(load_map(big), big_out)

    return [
        Benchmark(
            "report_150x150", run_big, repeat=7, warmup=0, target_ms=60_000,
            note="generated 150x150 map, rooms of 10 (14+14 wall polylines = 4,200 wall segments, 40 doors); 7 runs",
        ),
        Benchmark(
            "report_40x40", run, reference, repeat=7, reference_repeat=1, target_ms=10_000,
            note="reference: all-pairs table + one all-pairs table per door (40 doors), no images",
        )
    ]
