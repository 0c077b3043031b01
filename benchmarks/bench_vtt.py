"""Reading a Universal VTT file: ``uvtt_60x60_2000_read`` (issue 23's ``check`` target is 2 s for
the whole command on such a file; this row is the reader's share).

The file is generated: a 60x60 map at 50 pixels per square with an embedded flat PNG picture,
2,000 wall segments (half on the grid, half cave outlines off it), 40 doors, 20 obstacle
outlines. Timed: read and check every field, describe it in squares, and decide every wall and
door with the off-grid policy. The reference is ``json.loads`` of the same file: a ratio below 1
is the cost of the checks and the policy on top of plain parsing.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import random
import tempfile
from pathlib import Path

from harness import Benchmark

SIZE, PPG = 60, 50


def _picture() -> str:
    import pygame

    surface = pygame.Surface((SIZE * PPG, SIZE * PPG))
    surface.fill((120, 110, 100))
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "x.png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def write_uvtt(folder: Path, seed: int = 23) -> Path:
    """The benchmark file (see the module docstring)."""
    rng = random.Random(seed)
    lines: list[list[dict[str, float]]] = []
    segments = 0
    while segments < 1000:  # on the grid: L-shaped runs
        x, y = rng.randrange(1, SIZE - 4), rng.randrange(1, SIZE - 4)
        lines.append([{"x": x, "y": y}, {"x": x + 3, "y": y}, {"x": x + 3, "y": y + 2}])
        segments += 2
    while segments < 2000:  # caves: wobbly closed outlines of 20 segments
        cx, cy, r = rng.uniform(6, SIZE - 6), rng.uniform(6, SIZE - 6), rng.uniform(2, 5)
        ring = [{"x": round(cx + r * math.cos(a) + rng.uniform(-0.3, 0.3), 6),
                 "y": round(cy + r * math.sin(a) + rng.uniform(-0.3, 0.3), 6)}
                for a in (2 * math.pi * i / 20 for i in range(20))]
        lines.append([*ring, ring[0]])
        segments += 20
    portals = []
    for _ in range(40):
        x, y = rng.randrange(1, SIZE - 1), rng.randrange(1, SIZE - 1)
        portals.append({"position": {"x": x + 0.5, "y": y}, "bounds": [{"x": x, "y": y}, {"x": x + 1, "y": y}],
                        "rotation": 0, "closed": True, "freestanding": False})
    objects = []
    for _ in range(20):
        x, y = rng.uniform(1, SIZE - 2), rng.uniform(1, SIZE - 2)
        objects.append([{"x": x, "y": y}, {"x": x + 0.8, "y": y}, {"x": x + 0.8, "y": y + 0.8}, {"x": x, "y": y + 0.8}])
    doc = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": SIZE, "y": SIZE},
                                         "pixels_per_grid": PPG},
           "line_of_sight": lines, "objects_line_of_sight": objects, "portals": portals,
           "environment": {"baked_lighting": True, "ambient_light": "ffffffff"}, "lights": [],
           "image": _picture()}
    path = folder / "bench.dd2vtt"
    path.write_text(json.dumps(doc, indent="\t"))
    return path


def benchmarks() -> list[Benchmark]:
    """The Universal VTT reading row."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.tiled.offgrid import Budget, decide_path
    from game.tiled.uvtt import read_uvtt

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-vtt-"))
    path = write_uvtt(folder)

    def read_and_decide() -> object:
        scene = read_uvtt(path).scene()
        budget = Budget()
        decided = [decide_path(p.points, p.closed, budget) for p in scene.paths]
        decided += [decide_path((d.a, d.b), False, budget) for d in scene.doors]
        return decided

    def plain_json() -> object:
        return json.loads(path.read_bytes())

    return [Benchmark("uvtt_60x60_2000_read", read_and_decide, plain_json, repeat=10, reference_repeat=10,
                      note="read, check, describe and decide 2,000 wall segments, 40 doors (60x60, picture "
                           "embedded); reference: json.loads of the same file")]
