"""Universal VTT maps (issue 23): reading, ``sightline check`` and the window's first frame.

The file is generated: a 60x60 map at 50 pixels per square with an embedded flat PNG picture,
2,000 wall segments (half on the grid, half cave outlines off it), 40 doors, 20 obstacle
outlines.

* ``uvtt_60x60_2000_read``: read and check every field, describe it in squares, and decide every
  wall and door with the off-grid policy. Reference: ``json.loads`` of the same file (a ratio
  below 1 is the cost of the checks and the policy on top of plain parsing).
* ``uvtt_60x60_2000_check_fresh``: ``sightline check bench.dd2vtt`` in a fresh process, start to
  exit (issue 23: <= 2 s). Reference: the same command on the file's **Tiled twin** (the board
  the policy decided, written as a ``.tmx`` of polylines, doors and blocked outlines), in the
  same run: the ratio is what reading the VTT file costs over reading the same board from Tiled.
* ``uvtt_60x60_2000_first_frame``: ``sightline play bench.dd2vtt --frames 1 --screenshot``
  in a fresh process, start to the first frame saved (issue 23: <= 1.5 s; the picture is decoded
  and drawn under the board). Reference: the same on the Tiled twin.
* ``*_cpu``: the CPU time (user + system) of the same fresh runs, the VTT file's and the twin's:
  on a shared machine whose cores are busy, the wall time of a fresh process is mostly waiting;
  its CPU time is what it costs.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from harness import Benchmark, fresh_env

SIZE, PPG = 60, 50
REPO = Path(__file__).resolve().parent.parent


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


def write_tiled_twin(path: Path) -> Path:
    """The board Sightline reads from the VTT file, drawn in Tiled (the references' map): the
    decided wall and window polylines, the doors, the blocked outlines, in 32-pixel squares."""
    from game.tiled import load_map

    loaded = load_map(path)
    cell = 32
    objects = []
    for obj in loaded.objects.values():
        points = " ".join(f"{float(x) * cell:g},{float(y) * cell:g}" for x, y in obj.points)
        shape = "polygon" if obj.shape == "polygon" else "polyline"
        props = ""
        if obj.role == "door":
            props = f'<properties><property name="state" value="{obj.properties["state"]}"/></properties>'
        objects.append(f'<object id="{obj.id}" type="{obj.role}" x="0" y="0">{props}<{shape} points="{points}"/></object>')
    board = loaded.board
    twin = path.with_name("twin.tmx")
    twin.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{board.width}" '
        f'height="{board.height}" tilewidth="{cell}" tileheight="{cell}" infinite="0" nextobjectid="99999">'
        f'<objectgroup id="1" name="twin">{"".join(objects)}</objectgroup></map>\n', encoding="utf-8")
    return twin


#: CPU milliseconds (user + system) of every fresh process run, by the run's name
CPU: dict[str, list[float]] = {}


def _fresh(*argv: str, name: str = "") -> None:
    """One fresh ``sightline`` process (dummy display), start to exit; its exit code may be 0 or
    1 (a check with findings), never 2. Its CPU time is kept in :data:`CPU` under ``name``."""
    env = fresh_env()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "game", *argv], env=env, cwd=REPO,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode in (0, 1), done.stderr
    if name:
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        CPU.setdefault(name, []).append(used * 1000.0)


def benchmarks() -> list[Benchmark]:
    """The Universal VTT rows: reading, the fresh check and the fresh first frame."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.tiled.offgrid import Budget, decide_path
    from game.tiled.uvtt import read_uvtt

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-vtt-"))
    path = write_uvtt(folder)
    twin = write_tiled_twin(path)

    def read_and_decide() -> object:
        scene = read_uvtt(path).scene()
        budget = Budget()
        decided = [decide_path(p.points, p.closed, budget) for p in scene.paths]
        decided += [decide_path((d.a, d.b), False, budget) for d in scene.doors]
        return decided

    def plain_json() -> object:
        return json.loads(path.read_bytes())

    def first_frame(map_path: Path, name: str) -> None:
        _fresh("play", str(map_path), "--frames", "1", "--screenshot", str(folder / "first.png"), "--fresh",
               name=name)

    runs = {"check": lambda: _fresh("check", str(path), name="check"),
            "check_twin": lambda: _fresh("check", str(twin), name="check_twin"),
            "frame": lambda: first_frame(path, "frame"), "frame_twin": lambda: first_frame(twin, "frame_twin")}

    def cpu(name: str) -> Callable[[], list[float]]:
        """The CPU times of the last 7 runs called ``name`` (run now when the row runs alone)."""
        def samples() -> list[float]:
            while len(CPU.get(name, ())) < 7:
                runs[name]()
            return CPU[name][-7:]
        return samples

    return [
        Benchmark("uvtt_60x60_2000_read", read_and_decide, plain_json, repeat=10, reference_repeat=10,
                  note="read, check, describe and decide 2,000 wall segments, 40 doors (60x60, picture "
                       "embedded); reference: json.loads of the same file"),
        Benchmark("uvtt_60x60_2000_check_fresh", runs["check"], runs["check_twin"], repeat=7,
                  reference_repeat=7, warmup=1, target_ms=2000.0,
                  note="sightline check on the file in a fresh process; reference: the same on its "
                       "Tiled twin (the decided board as a .tmx)"),
        Benchmark("uvtt_60x60_2000_first_frame", runs["frame"], runs["frame_twin"], repeat=7,
                  reference_repeat=7, warmup=1, target_ms=1500.0,
                  note="process start to the first frame saved (1280x800, dummy display, picture "
                       "drawn); reference: the same on the Tiled twin"),
        # the CPU time of the runs above (what the wall time is on a machine with a core to spare)
        Benchmark("uvtt_60x60_2000_check_cpu", run=lambda: None, samples=cpu("check"),
                  note="CPU time (user + system) of the check runs above; the twin's: "
                       "tiled_twin_60x60_check_cpu"),
        Benchmark("tiled_twin_60x60_check_cpu", run=lambda: None, samples=cpu("check_twin"),
                  note="CPU time of the check runs on the Tiled twin above"),
        Benchmark("uvtt_60x60_2000_first_frame_cpu", run=lambda: None, samples=cpu("frame"),
                  note="CPU time of the first-frame runs above; the twin's: tiled_twin_60x60_first_frame_cpu"),
        Benchmark("tiled_twin_60x60_first_frame_cpu", run=lambda: None, samples=cpu("frame_twin"),
                  note="CPU time of the first-frame runs on the Tiled twin above"),
    ]
