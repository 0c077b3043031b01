"""The threat view and the balance report (issue 24).

* ``threats_drag_demo``: the real window (1280x800, dummy display) on the demo map, Ember
  selected with its threat badges and rings on, dragged across the board a third of a square
  per frame; each sample is one whole frame (events, update, draw, flip). Target: p95 <= 16 ms.
  Reference: the same frames with the threat view off (``Shift+A``): the ratio is the view's cost.
* ``danger_80x71``: the danger map of a figure on a generated 80x71 map with 20 figures (rooms of
  8 squares, a door in every wall, ten Arcadia figures a side): each update moves one enemy one
  square, then works the map out again (what changes while a figure is dragged). Target:
  <= 100 ms median. Reference: the same map worked out cold (a fresh solver: nothing kept).
* ``balance_80x71`` / ``balance_150x150``: ``sightline balance MAP -o DIR`` in a fresh process
  on a generated 80x71 map with two deployment zones (west and east) and on a generated 150x150
  map (rooms of 10, two zones), every rule (5), every picture; peak = the process's VmHWM.
  Targets: <= 10 s and <= 500 MB; <= 60 s and <= 1 GB. No reference.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import FRESH_CHILD, Benchmark

REPO = Path(__file__).resolve().parent.parent
CELL = 32
FRAMES = 240


def write_map(folder: Path, width: int = 80, height: int = 71, room: int = 8, figures: int = 20,
              seed: int = 24, zone: tuple[int, int] = (6, 16)) -> Path:
    """A generated map: rooms of ``room`` squares walled on the grid with a door in the middle of
    every wall (open, closed or locked), ``figures`` Arcadia figures of two sides (red west, blue
    east) and two deployment zones of ``zone`` (width, height) squares on the middle of the west
    and east edges."""
    rng = random.Random(seed)
    objects: list[str] = []

    def add(body: str) -> None:
        objects.append(body.replace("ID", str(len(objects) + 1), 1))

    states = ("open", "closed", "locked", "open")
    for x in range(room, width, room):
        for y0 in range(0, height, room):
            y1 = min(y0 + room, height)
            door = y0 + (y1 - y0) // 2
            for a, b in ((y0, door), (door + 1, y1)):
                if b > a:
                    add(f'<object id="ID" type="wall" x="{x * CELL}" y="{a * CELL}"><polyline points="0,0 0,{(b - a) * CELL}"/></object>')
            add(f'<object id="ID" type="door" x="{x * CELL}" y="{door * CELL}"><properties><property name="state" '
                f'value="{states[(x + y0) % 4]}"/></properties><polyline points="0,0 0,{CELL}"/></object>')
    for y in range(room, height, room):
        for x0 in range(0, width, room):
            x1 = min(x0 + room, width)
            door = x0 + (x1 - x0) // 2
            for a, b in ((x0, door), (door + 1, x1)):
                if b > a:
                    add(f'<object id="ID" type="wall" x="{a * CELL}" y="{y * CELL}"><polyline points="0,0 {(b - a) * CELL},0"/></object>')
            add(f'<object id="ID" type="door" x="{door * CELL}" y="{y * CELL}"><properties><property name="state" '
                f'value="{states[(x0 + y) % 4]}"/></properties><polyline points="0,0 {CELL},0"/></object>')
    deep, tall = zone
    top = (height - tall) // 2
    for side, x0 in (("red", 0), ("blue", width - deep)):
        add(f'<object id="ID" name="{side} zone" type="deploy" x="{x0 * CELL}" y="{top * CELL}" '
            f'width="{deep * CELL}" height="{tall * CELL}"><properties><property name="side" value="{side}"/>'
            '</properties></object>')
    attacks = ("Bow:ranged:2; Knife:melee:1", "Sword:melee:3", "Spear:melee:2; Javelin:ranged:2")
    taken: set[tuple[int, int]] = set()
    for i in range(figures):
        side = "red" if i % 2 == 0 else "blue"
        while True:
            x = rng.randrange(width // 2) if side == "red" else width // 2 + rng.randrange(width // 2)
            y = rng.randrange(height)
            if (x, y) not in taken:
                taken.add((x, y))
                break
        add(f'<object id="ID" name="{side}{i}" type="figure" x="{x * CELL + 16}" y="{y * CELL + 16}"><properties>'
            f'<property name="side" value="{side}"/><property name="life" type="int" value="4"/>'
            f'<property name="defense" type="int" value="1"/><property name="attacks" value="{attacks[i % 3]}"/>'
            '</properties><point/></object>')
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" '
        f'nextlayerid="2" nextobjectid="{len(objects) + 1}">\n'
        ' <properties><property name="ruleset" value="arcadia"/></properties>\n'
        ' <objectgroup id="1" name="objects">\n  ' + "\n  ".join(objects) + "\n </objectgroup>\n</map>\n"
    )
    path = folder / f"balance{width}x{height}.tmx"
    path.write_text(text, encoding="utf-8")
    return path


class _Drag:
    """The real window on the demo map, Ember picked up, a path across the board."""

    def __init__(self, marks: bool) -> None:
        import pygame

        from game.play.session import Session
        from game.resources import bundled_maps
        from game.ui.app import App

        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode((1280, 800))
        self.pygame = pygame
        self.app = app = App(Session.open(bundled_maps() / "demo.tmx", autosave=False), screen=screen, watch=False)
        board = app.board
        assert board is not None
        ember = board.find_figure("Ember")
        app.presenter.select(ember.id)
        app.presenter.threats.marks = marks
        pygame.event.clear()
        for _ in range(40):  # the first numbers, the sprites, the static layer
            app.frame()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.view.square_centre(ember.square), button=1))
        app.frame()
        # along the street and back, a third of a square per frame: (4,3) -> (4,6) -> (13,6) -> (4,6)
        corners = [(4.5, 3.5), (4.5, 6.5), (13.5, 6.5), (13.5, 9.5), (4.5, 9.5), (4.5, 6.5)]
        points: list[tuple[float, float]] = []
        for (ax, ay), (bx, by) in zip(corners, corners[1:], strict=False):
            n = max(1, round(3 * (abs(bx - ax) + abs(by - ay))))
            points += [(ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(n)]
        self.path = [tuple(round(v) for v in app.view.to_screen(*p)) for p in points]
        self.step = 0

    def frame(self) -> None:
        pos = self.path[self.step % len(self.path)]
        self.step += 1
        self.pygame.event.post(self.pygame.event.Event(self.pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
        self.app.frame()


def _frames(run: _Drag) -> list[float]:
    out = []
    for _ in range(FRAMES):
        start = time.perf_counter()
        run.frame()
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def benchmarks() -> list[Benchmark]:
    """``threats_drag_demo`` (and its peer ``threats_drag_demo_off``), ``danger_80x71``,
    ``balance_80x71``, ``balance_150x150``."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-balance-"))
    state: dict[str, Any] = {}

    def drag_samples() -> list[float]:
        if "on" not in state:
            state["on"] = _Drag(marks=True)
        return _frames(state["on"])

    def drag_reference() -> None:
        if "off" not in state:
            state["off"] = _Drag(marks=False)
        state["off"].frame()

    def plain_samples() -> list[float]:
        if "off" not in state:
            state["off"] = _Drag(marks=False)
        return _frames(state["off"])

    from game.designer.danger import danger_map
    from game.designer.threats import ThreatSolver
    from game.tiled import load_map

    map80 = write_map(folder)
    board = load_map(map80).board
    hero = min(f.id for f in board.figures.values() if f.side == "red")
    mover = max(f.id for f in board.figures.values() if f.side == "blue")
    solver = ThreatSolver()
    danger_map(solver, board, hero)  # warm: what the window keeps between frames
    moves = {"n": 0}

    def danger_update() -> None:
        figure = board.figure(mover)
        x, y = figure.square
        step = 1 if moves["n"] % 2 == 0 else -1
        moves["n"] += 1
        for target in ((x + step, y), (x, y + step), (x - step, y), (x, y - step)):
            if board.can_enter(mover, target) is None:
                board.move_figure(mover, target)
                break
        danger_map(solver, board, hero)

    def danger_cold() -> None:
        danger_map(ThreatSolver(), board, hero)

    peaks: dict[str, list[float]] = {"80": [], "150": []}
    map150 = write_map(folder, 150, 150, room=10, figures=20, seed=150, zone=(10, 24))

    def fresh(path: Path, key: str, runs: int) -> list[float]:
        times = []
        for n in range(runs):
            out = folder / f"report-{key}-{n}"
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", FRESH_CHILD, "balance", str(path), "-o", str(out)],
                                  check=True, cwd=REPO, capture_output=True, text=True)
            times.append((time.perf_counter() - start) * 1000.0)
            peaks[key].append(int(done.stderr.rsplit("peak_kb=", 1)[1].split()[0]) / 1024)
        return times

    return [
        Benchmark("threats_drag_demo", run=lambda: None, samples=drag_samples, reference=drag_reference,
                  reference_repeat=FRAMES, target_ms=16.0, target_stat="p95",
                  note="per-frame times dragging Ember across the demo map with its threat badges and rings on, "
                  "1280x800 dummy display; reference = the same frames with the threat view off"),
        Benchmark("threats_drag_demo_off", run=lambda: None, samples=plain_samples,
                  note="the peer of threats_drag_demo: the same drag with the threat view off, for its p95"),
        Benchmark("danger_80x71", run=danger_update, reference=danger_cold, repeat=15, reference_repeat=3,
                  target_ms=100.0,
                  note="one enemy moved one square, then the danger map again (20 figures, rooms of 8, 80x71); "
                  "reference = the danger map worked out cold (a fresh solver)"),
        Benchmark("balance_80x71", run=lambda: None, samples=lambda: fresh(map80, "80", 7), target_ms=10_000.0,
                  peak=lambda: max(peaks["80"]),
                  note="sightline balance MAP -o DIR in a fresh process: 2 zones of 6x16, 20 figures, 5 rules, "
                  "every picture; 7 runs; peak = VmHWM; no reference"),
        Benchmark("balance_150x150", run=lambda: None, samples=lambda: fresh(map150, "150", 7), target_ms=60_000.0,
                  peak=lambda: max(peaks["150"]),
                  note="sightline balance on a generated 150x150 map (rooms of 10, 2 zones of 10x24, 20 figures), "
                  "5 rules, every picture; 7 runs; peak = VmHWM; no reference"),
    ]
