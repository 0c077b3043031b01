"""The window: ``frame_drag_40x40`` (the README's speed table: p95 <= 8 ms, headless) and ``startup_demo``.

``frame_drag_40x40``: a generated 40x40 map (seeded walls, doors, two sides of figures, loaded
by the real loader), the real window at 1280x800 under the dummy SDL driver, FOV on and a ray
pinned to a far square, and a figure dragged across the whole board by posted MOUSEMOTION
events, a third of a square per frame. Each sample is one full frame (events, update, draw,
flip). The reference is the same frame with every cache of the window disabled (the painter's
static layer, FOV shade and LOS/FOV results rebuilt every frame: a full redraw); the LOS engine's
own ray templates stay warm. A slow-reference LOS per frame would be far too slow to time.

``hover_hex_100x100`` (and ``hover_hex_100x100_cpu``, the same frames in CPU time): the window on
a generated 100x100 hex map (``bench_hex.write_hex_map``: pointy-top, squashed 32x37 hexes, ~10 %
of the sides walls, ~2 % rock), a ray from a clicked empty hex in the middle, the mouse on a new
spot every frame (a new ray each frame); the reference is the same sweep on a 100x100 square map
(``write_map``), frame for frame, in the same run.

``startup_demo``: a fresh process from start to the first frame saved on the demo map
(``python -m game play maps/demo.tmx --frames 1 --screenshot ... --fresh``); no reference.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from harness import Benchmark, fresh_env

SIZE = 40
CELL = 32
FRAMES = 240
REPO = Path(__file__).resolve().parent.parent


def write_map(folder: Path, seed: int = 11, size: int = SIZE) -> Path:
    """A size x size map (40: ~300 wall segments, 20 doors, 24 figures of two sides; 150: the
    same density, ~4,200 wall segments)."""
    SIZE = size  # noqa: N806 - the generator below reads the size under its old name
    rng = random.Random(seed)
    walls = 150 * size * size // 1600
    objects: list[str] = []

    def add(body: str) -> None:
        objects.append(body.replace("{id}", str(len(objects) + 1)))

    for _ in range(walls):
        x, y = rng.randrange(1, SIZE - 3), rng.randrange(1, SIZE - 3)
        a, b = rng.randint(1, 3) * CELL, rng.randint(1, 3) * CELL
        add(f'<object id="{{id}}" type="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {a},0 {a},{b}"/></object>')
    for _ in range(20):
        x, y = rng.randrange(1, SIZE), rng.randrange(SIZE)
        state = rng.choice(["open", "closed", "locked"])
        add(
            f'<object id="{{id}}" type="door" x="{x * CELL}" y="{y * CELL}"><properties>'
            f'<property name="state" value="{state}"/></properties><polyline points="0,0 0,{CELL}"/></object>'
        )
    squares = rng.sample([(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) != (0, 0)], 24)
    figures = [(0, 0, "red")] + [(x, y, "red" if i % 2 else "monsters") for i, (x, y) in enumerate(squares)]
    for i, (x, y, side) in enumerate(figures):
        add(
            f'<object id="{{id}}" name="F{i}" type="figure" x="{x * CELL + 16}" y="{y * CELL + 16}">'
            f'<properties><property name="side" value="{side}"/>'
            f'<property name="life" type="int" value="4"/></properties><point/></object>'
        )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{SIZE}" '
        f'height="{SIZE}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" nextobjectid="9999">'
        f'<objectgroup id="1" name="things">{"".join(objects)}</objectgroup></map>\n'
    )
    path = folder / f"bench{size}.tmx"
    path.write_text(text, encoding="utf-8")
    return path



def open_window(path: Path, *, caches: bool = True) -> tuple[Any, Any]:
    """pygame and the real window (1280x800, dummy driver) on ``path``, without autosave."""
    import pygame

    from game.play.session import Session
    from game.ui.app import App

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800))
    return pygame, App(Session.open(path, autosave=False), screen=screen, watch=False, caches=caches)

class _HoverRun:
    """The window on a 150x150 map with a figure selected, the mouse sweeping across the board
    (hover only: each frame casts a new ray through the real app and painter)."""

    def __init__(self, path: Path, size: int) -> None:
        pygame, self.app = open_window(path)
        self.pygame = pygame
        app = self.app
        board = app.board
        assert board is not None
        app.presenter.select(min(f.id for f in board.figures.values() if f.square == (0, 0)))
        pygame.event.clear()
        app.frame()
        x0, y0, w, h = app.view.viewport
        self.path = [
            (x0 + 5 + (i * 37) % max(1, w - 10), y0 + 5 + (i * 53) % max(1, h - 10)) for i in range(FRAMES)
        ]
        self.step = 0

    def frame(self) -> None:
        pos = self.path[self.step % len(self.path)]
        self.step += 1
        self.pygame.event.post(self.pygame.event.Event(self.pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        self.app.frame()


class _HexHoverRun:
    """The window on a generated hex map: a ray from a clicked empty hex in the middle, the mouse
    on a new spot of the board every frame."""

    def __init__(self, path: Path, size: int) -> None:
        pygame, self.app = open_window(path)
        self.pygame = pygame
        app = self.app
        pygame.event.clear()
        app.frame()
        board = app.board
        assert board is not None
        middle = next(c for c in sorted(board.grid.cells(), key=lambda c: abs(c[0] - size // 2) + abs(c[1] - size // 2))
                      if not board.figures_at(c) and board.can_enter(None, c) is None)
        start = app.view.square_centre(middle)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=start, button=1))
        app.frame()
        assert app.presenter.viewpoint.start == middle
        x0, y0, w, h = app.view.viewport
        self.path = [(x0 + 5 + (i * 37) % max(1, w - 10), y0 + 5 + (i * 53) % max(1, h - 10)) for i in range(FRAMES)]
        self.step = 0

    frame = _HoverRun.frame


class _DragRun:
    """The window on the 40x40 map with a figure picked up, ready to be dragged frame by frame."""

    def __init__(self, path: Path, caches: bool) -> None:
        pygame, self.app = open_window(path, caches=caches)
        self.pygame = pygame
        app = self.app
        board = app.board
        assert board is not None
        hero = min(f.id for f in board.figures.values() if f.square == (0, 0))
        app.presenter.select(hero)
        app.presenter.fov_on = True
        app.presenter.pinned = (SIZE - 1, SIZE // 2)
        pygame.event.clear()
        app.frame()
        start = app.view.square_centre((0, 0))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
        app.frame()
        # a path across the board and back: a third of a square per frame
        cell = app.view.cell
        self.path = []
        for i in range(FRAMES):
            t = i / FRAMES
            u = 2 * t if t < 0.5 else 2 - 2 * t
            gx = 0.5 + u * (SIZE - 1)
            gy = 0.5 + (SIZE - 1) * (0.5 + 0.45 * ((i // 30) % 2 * 2 - 1) * u)
            x, y = app.view.to_screen(gx, gy)
            self.path.append((round(x), round(y)))
        self.step = 0
        del cell

    def frame(self) -> None:
        pos = self.path[self.step % len(self.path)]
        self.step += 1
        self.pygame.event.post(
            self.pygame.event.Event(self.pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
        )
        self.app.frame()


BIG = 150


def write_big_map(folder: Path, seed: int = 5) -> Path:
    """A 150x150 map without figures (like the Tuxemon maps): ~2,000 seeded wall segments."""
    rng = random.Random(seed)
    objects = []
    for n in range(2000):
        x, y = rng.randrange(1, BIG - 3), rng.randrange(1, BIG - 3)
        a, b = rng.randint(1, 3) * CELL, rng.randint(1, 3) * CELL
        objects.append(
            f'<object id="{n + 1}" type="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {a},0 {a},{b}"/></object>'
        )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{BIG}" '
        f'height="{BIG}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" nextobjectid="9999">'
        f'<objectgroup id="1" name="things">{"".join(objects)}</objectgroup></map>\n'
    )
    path = folder / "bench150-empty.tmx"  # not bench150.tmx: write_map(size=150) writes that one
    path.write_text(text, encoding="utf-8")
    return path


class _SightRun:
    """The window on the 150x150 map: a ray from a clicked empty square, F on, the mouse hovering
    a new square every frame (a new ray each frame; the field of view stays cached)."""

    def __init__(self, path: Path, caches: bool) -> None:
        pygame, self.app = open_window(path, caches=caches)
        self.pygame = pygame
        app = self.app
        pygame.event.clear()
        app.frame()
        start = app.view.square_centre((BIG // 2, BIG // 2))
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=start, button=1))
        app.frame()
        assert app.presenter.viewpoint.start == (BIG // 2, BIG // 2)
        app.presenter.fov_on = True
        app.frame()
        self.path = []
        for i in range(FRAMES):
            t = i / FRAMES
            gx = 0.5 + t * (BIG - 1)
            gy = 0.5 + (BIG - 1) * (0.5 + 0.4 * ((i // 20) % 2 * 2 - 1) * t)
            x, y = app.view.to_screen(gx, gy)
            self.path.append((round(x), round(y)))
        self.step = 0

    def frame(self) -> None:
        pos = self.path[self.step % len(self.path)]
        self.step += 1
        self.pygame.event.post(
            self.pygame.event.Event(self.pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        )
        self.app.frame()


def benchmarks() -> list[Benchmark]:
    """``frame_drag_40x40``, ``frame_sight_150x150`` and ``startup_demo``."""
    import time

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-ui-"))
    path = write_map(folder)
    state: dict[str, _DragRun] = {}

    def fast() -> _DragRun:
        if "fast" not in state:
            state["fast"] = _DragRun(path, caches=True)
        return state["fast"]

    def samples() -> list[float]:
        run = fast()
        for _ in range(10):  # warm up: first sprites, first static layer
            run.frame()
        out = []
        for _ in range(FRAMES):
            start = time.perf_counter()
            run.frame()
            out.append((time.perf_counter() - start) * 1000.0)
        return out

    def reference() -> None:
        if "slow" not in state:
            state["slow"] = _DragRun(path, caches=False)
        state["slow"].frame()

    big = write_big_map(folder)
    sight: dict[str, _SightRun] = {}

    def sight_samples() -> list[float]:
        if "fast" not in sight:
            sight["fast"] = _SightRun(big, caches=True)
        run = sight["fast"]
        for _ in range(10):
            run.frame()
        out = []
        for _ in range(FRAMES):
            start = time.perf_counter()
            run.frame()
            out.append((time.perf_counter() - start) * 1000.0)
        return out

    def sight_reference() -> None:
        if "slow" not in sight:
            sight["slow"] = _SightRun(big, caches=False)
        sight["slow"].frame()

    def startup() -> None:
        out = folder / "startup.png"
        env = fresh_env()
        subprocess.run(
            [sys.executable, "-m", "game", "play", str(REPO / "maps" / "demo.tmx"), "--frames", "1",
             "--screenshot", str(out), "--fresh"],
            check=True, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    big = write_map(folder, seed=150, size=150)

    def hover_samples() -> list[float]:
        run = _HoverRun(big, 150)
        for _ in range(10):
            run.frame()
        out = []
        for _ in range(FRAMES):
            start = time.perf_counter()
            run.frame()
            out.append((time.perf_counter() - start) * 1000.0)
        return out

    def first_frame() -> None:
        out = folder / "first150.png"
        env = fresh_env()
        subprocess.run(
            [sys.executable, "-m", "game", "play", str(big), "--frames", "1", "--screenshot", str(out), "--fresh"],
            check=True, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    from bench_hex import write_hex_map

    hexes = folder / "hex100.tmx"
    write_hex_map(hexes, size=100, seed=100)
    squares = write_map(folder, seed=100, size=100)
    hovers: dict[str, Any] = {}

    def hex_hover(clock: Any) -> list[float]:
        if "hex" not in hovers:
            hovers["hex"] = _HexHoverRun(hexes, 100)
        run = hovers["hex"]
        for _ in range(10):
            run.frame()
        out = []
        for _ in range(FRAMES):
            start = clock()
            run.frame()
            out.append((clock() - start) * 1000.0)
        return out

    def square_hover() -> None:
        if "square" not in hovers:
            hovers["square"] = _HexHoverRun(squares, 100)
            for _ in range(10):
                hovers["square"].frame()
        hovers["square"].frame()

    return [
        Benchmark(
            "hover_hex_100x100", run=lambda: None, samples=lambda: hex_hover(time.perf_counter),
            reference=square_hover, reference_repeat=FRAMES, target_ms=16.0, target_stat="p95",
            note="per-frame wall times hovering a new spot each frame on a generated 100x100 hex map, the ray "
            "from a clicked empty hex, 1280x800 dummy display, the real app and hex painter; reference = the "
            "same sweep on a 100x100 square map (a peer, not a slow path)",
        ),
        Benchmark(
            "hover_hex_100x100_cpu", run=lambda: None, samples=lambda: hex_hover(time.process_time),
            target_ms=16.0, target_stat="p95",
            note="the same frames as hover_hex_100x100 in CPU time (process_time): what the frame costs on a busy machine",
        ),
        Benchmark(
            "frame_hover_150x150", run=lambda: None, samples=hover_samples, target_ms=16.0, target_stat="p95",
            note="per-frame times while the mouse sweeps a 150x150 map (~4,200 wall segments, 20 doors), "
            "1280x800 dummy display, the real app and painter; no reference",
        ),
        Benchmark(
            "first_frame_150x150", run=first_frame, repeat=7, warmup=1, target_ms=1500.0,
            note="process start to the first frame saved on the 150x150 map (dummy display); no reference",
        ),
        Benchmark(
            "frame_drag_40x40",
            run=lambda: None,
            samples=samples,
            reference=reference,
            reference_repeat=20,
            target_ms=8.0,
            target_stat="p95",
            note="per-frame times while dragging on a 40x40 board, FOV + pinned ray on, 1280x800 dummy "
            "display; reference = the same frame with the window's caches off (full redraw)",
        ),
        Benchmark(
            "frame_sight_150x150",
            run=lambda: None,
            samples=sight_samples,
            reference=sight_reference,
            reference_repeat=3,
            target_stat="p95",
            note="per-frame times hovering a new square each frame on a 150x150 map without figures, "
            "the ray from a clicked empty square, F on, 1280x800 dummy display; reference = caches off "
            "(the field of view and the board rebuilt every frame)",
        ),
        Benchmark(
            "startup_demo",
            run=startup,
            repeat=5,
            warmup=1,
            note="process start to the first frame saved, demo map, dummy display; no reference",
        ),
    ]
