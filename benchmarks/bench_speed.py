"""Benchmarks of where users waited (issue 28), each run as the user runs it: a fresh process.

``report_150x150_open``: ``sightline report`` on a generated 150×150 **open** map (a few walled
rooms with a door on each side, free-standing walls — about 3,000 wall segments — and 37 doors;
most of the floor is one region rays cross end to end). Timed: the whole command in a fresh
process; peak: that process's own high-water mark (``VmHWM`` from ``/proc/self/status``, the
largest of the runs). Targets: 30 s, 500 MB. ``report_200x200_open``: the same at 200×200 (66
doors, 5,300 segments); targets 90 s, 1 GB.

Also here: ``frame_findings_150x150`` (worst frame), ``compare_from_400x400``,
``compare_pairs_100x100_corners``, ``pair_table_128x128`` (against the numba-compiled walk when
installed) and ``frame_hover_150x150_cpu`` (CPU ms per frame): see each row's function.

Reference (the ratio): the same command on the code before this work, when the environment
variable ``SIGHTLINE_BEFORE`` names a source tree of it (a folder holding its ``game/``; e.g.
``git archive e84e4c9 game | tar -x -C /tmp/before``); without it the rows have no reference.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import FRESH_CHILD, Benchmark

REPO = Path(__file__).resolve().parent.parent
CPU_SECONDS: list[float] = []  #: CPU seconds of each fresh process run so far
CELL = 32


def make_open_map(folder: Path, size: int = 150, seed: int = 7) -> Path:
    """Write a generated open map of ``size`` × ``size`` into ``folder`` and return its path: a few
    walled rooms (a door on each side), free-standing walls (some ending in a door), a little
    blocked terrain; about 3,000 wall segments and 37 doors at 150×150, scaled by area."""
    rng = random.Random(seed)
    objects: list[str] = []

    def add(kind: str, body: str, x: int, y: int, props: str = "") -> None:
        extra = f"<properties>{props}</properties>" if props else ""
        objects.append(f'<object id="{len(objects) + 1}" class="{kind}" x="{x * CELL}" y="{y * CELL}">{extra}{body}</object>')

    def line(dx: int, dy: int) -> str:
        return f'<polyline points="0,0 {dx * CELL},{dy * CELL}"/>'

    states = ["open", "closed", "locked", "open"]
    segments = doors = 0
    want_segments, want_doors = size * size * 3000 // 22500, max(4, size * size * 37 // 22500)
    for _ in range(max(1, size * size * 5 // 22500)):  # rooms, one door gap per side
        rw, rh = rng.randrange(10, 18), rng.randrange(10, 18)
        x0, y0 = rng.randrange(1, size - rw - 1), rng.randrange(1, size - rh - 1)
        for side in range(4):
            length = rw if side < 2 else rh
            gap = rng.randrange(1, length - 1)
            for a, b in ((0, gap), (gap + 1, length)):
                if b > a:
                    if side < 2:
                        add("wall", line(b - a, 0), x0 + a, y0 + (0 if side == 0 else rh))
                    else:
                        add("wall", line(0, b - a), x0 + (0 if side == 2 else rw), y0 + a)
                    segments += b - a
            state = f'<property name="state" value="{states[doors % 4]}"/>'
            if side < 2:
                add("door", line(1, 0), x0 + gap, y0 + (0 if side == 0 else rh), state)
            else:
                add("door", line(0, 1), x0 + (0 if side == 2 else rw), y0 + gap, state)
            doors += 1
    while segments < want_segments:  # free-standing walls, some ending in a door
        length = rng.randrange(2, 9)
        x, y = rng.randrange(1, size - length - 1), rng.randrange(1, size - length - 1)
        if rng.random() < 0.5:
            add("wall", line(length, 0), x, y)
            if doors < want_doors and length >= 4:
                add("door", line(1, 0), x + length, y, f'<property name="state" value="{states[doors % 4]}"/>')
                doors += 1
        else:
            add("wall", line(0, length), x, y)
        segments += length
    for _ in range(size * size // 750):
        x, y = rng.randrange(size), rng.randrange(size)
        objects.append(f'<object id="{len(objects) + 1}" class="blocked" x="{x * CELL}" y="{y * CELL}" '
                       f'width="{CELL}" height="{CELL}"/>')
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{size}" height="{size}" tilewidth="{CELL}" tileheight="{CELL}" infinite="0" '
        f'nextlayerid="2" nextobjectid="{len(objects) + 1}">\n'
        ' <objectgroup id="1" name="objects">\n  ' + "\n  ".join(objects) + "\n </objectgroup>\n</map>\n"
    )
    path = folder / f"open{size}.tmx"
    path.write_text(text, encoding="utf-8")
    return path


def fresh(argv: list[str], source: Path = REPO) -> tuple[float, float]:
    """Run ``sightline ARGV`` in a fresh process on the code in ``source``: (ms, peak MB); its CPU
    seconds (user + system) are appended to :data:`CPU_SECONDS`."""
    env = dict(os.environ, PYTHONPATH=str(source), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # cwd: a folder holding no game/ — ``python -c`` puts the cwd first on sys.path, and run.py's
    # cwd (the repository) would shadow ``source``
    done = subprocess.run([sys.executable, "-c", FRESH_CHILD, *argv], capture_output=True, text=True, env=env, check=False,
                          cwd=tempfile.gettempdir())
    ms = (time.perf_counter() - start) * 1000.0
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_SECONDS.append(now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"sightline {' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    kb = [line for line in done.stderr.splitlines() if line.startswith("peak_kb=")][-1]
    return ms, int(kb.split("=")[1]) / 1024


class FreshRow:
    """A row timed in fresh processes: ``run``/``reference`` for the harness, ``peak`` the largest
    high-water mark of the timed runs (MB); the CPU seconds of each run (and of each run of the
    code before) go into the benchmark's note once :meth:`attach` names it."""

    def __init__(self, argv: list[str]) -> None:
        self.argv, self.peaks = argv, [0.0]
        self.cpu: list[float] = []
        self.cpu_before: list[float] = []
        self.peaks_before: list[float] = []
        self.bench: Benchmark | None = None
        self.note = ""

    def attach(self, bench: Benchmark) -> Benchmark:
        """Keep ``bench`` to write the CPU seconds into its note; returns it."""
        self.bench, self.note = bench, bench.note
        return bench

    def _noted(self) -> None:
        if self.bench is None:
            return
        parts = [f"CPU median {statistics.median(self.cpu):.1f} s"] if self.cpu else []
        if self.cpu_before:
            parts.append(f"before: CPU median {statistics.median(self.cpu_before):.1f} s, "
                         f"peak {max(self.peaks_before):.0f} MB")
        self.bench.note = self.note + ("; " + "; ".join(parts) if parts else "")

    def run(self) -> None:
        """One fresh run of the current code."""
        self.peaks.append(fresh(self.argv)[1])
        self.cpu.append(CPU_SECONDS[-1])
        self._noted()

    def before(self) -> None:
        """One fresh run of the code in ``SIGHTLINE_BEFORE``."""
        self.peaks_before.append(fresh(self.argv, Path(os.environ["SIGHTLINE_BEFORE"]))[1])
        self.cpu_before.append(CPU_SECONDS[-1])
        self._noted()

    def peak(self) -> float:
        """The largest peak seen."""
        return max(self.peaks)


def benchmarks() -> list[Benchmark]:
    """The issue-28 rows."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-speed-"))
    before = "SIGHTLINE_BEFORE" in os.environ
    rows = []
    for size, target, repeat in ((150, 30_000, 7), (200, 90_000, 3)):
        path = make_open_map(folder, size)
        row = FreshRow(["report", str(path), "-o", str(folder / f"report{size}")])
        rows.append(row.attach(Benchmark(
            f"report_{size}x{size}_open", row.run, row.before if before else None, repeat=repeat, warmup=0,
            reference_repeat=3 if size == 150 else 1, target_ms=target, peak=row.peak,
            note=f"fresh process, open {size}x{size} map; peak = VmHWM; reference: the code in SIGHTLINE_BEFORE",
        )))
    rows.extend(frame_rows())
    rows.append(compare_row())
    rows.append(pairs_compare_row())
    rows.append(pair_table_row())
    rows.append(hover_cpu_row())
    rows.extend(move_rows())
    return rows


def pairs_compare_row() -> Benchmark:
    """``compare_pairs_100x100_corners``: ``sightline compare MAP --rules arcadia,corners --json``
    (every pair) on the 100x100 load benchmark map (``bench_load.write_map``: 1,000 wall segments,
    30 doors), a fresh process per run; peak = VmHWM. Targets 15 s, 300 MB."""
    from bench_load import write_map

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-pairs-"))
    path = write_map(folder)
    row = FreshRow(["compare", str(path), "--rules", "arcadia,corners", "--limit", "5", "-o",
                    str(folder / "pairs.png")])
    before = "SIGHTLINE_BEFORE" in os.environ
    return row.attach(Benchmark(
        "compare_pairs_100x100_corners", row.run, row.before if before else None, repeat=3, warmup=0,
        reference_repeat=1, target_ms=15_000.0, peak=row.peak,
        note="fresh process, every pair of a 100x100 map (1,000 wall segments, 30 doors), arcadia vs corners; "
        "3 runs; reference: SIGHTLINE_BEFORE's code",
    ))


def pair_table_row() -> Benchmark:
    """``pair_table_128x128``: who sees whom among the standable squares of the 128x128 board of
    ``all_pairs_128x128`` (1,600 walls), as the designer keeps it (``sight.pair_bits_among``:
    each origin's upper half-plane, mirrored, one bit per pair), caches cold; peak by tracemalloc
    in one more run. Reference: the same pairs by the compiled integer walk
    (``peer_walk.numba_pairs``, each unordered pair walked once, compiled before timing) when numba
    is installed. Targets: ≤ 1.5× the walk (ratio ≥ 0.67), ≤ 100 MB."""
    import tracemalloc

    from bench_los import random_board
    from peer_walk import numba_pairs, numba_ready

    from game.core import los, sight
    from game.designer.coverage import standable_mask

    board = random_board(128, 1_600, 0, seed=128)
    keep = standable_mask(board)

    def run() -> None:
        los.clear_caches()
        sight.pair_bits_among(board, keep)

    def peak() -> float:
        los.clear_caches()
        tracemalloc.start()
        try:
            sight.pair_bits_among(board, keep)
            return tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()

    walk = numba_ready()
    return Benchmark(
        "pair_table_128x128", run, (lambda: numba_pairs(board, keep)) if walk else None, repeat=3, warmup=0,
        reference_repeat=1, peak=peak,
        note="pairs among 16,384 standable squares, bits, cold; target <= 1.5x the walk, <= 100 MB; reference: "
        + ("the numba-compiled integer walk (peer_walk.numba_pairs)" if walk else "none (numba not installed)"),
    )


def hover_cpu_row() -> Benchmark:
    """``frame_hover_150x150_cpu``: the CPU time (``time.process_time``) of each frame while the
    mouse sweeps the 150x150 benchmark map with a figure selected (``bench_ui._HoverRun``: the
    real window and painter, dummy display), so the machine's load neither hides nor fakes a
    result. Target: p95 ≤ 8 ms."""
    from bench_ui import FRAMES, _HoverRun, write_map

    path = write_map(Path(tempfile.mkdtemp(prefix="sightline-bench-hover-")), seed=150, size=150)

    def samples() -> list[float]:
        run = _HoverRun(path, 150)
        for _ in range(10):
            run.frame()
        out = []
        for _ in range(FRAMES):
            start = time.process_time()
            run.frame()
            out.append((time.process_time() - start) * 1000.0)
        return out

    return Benchmark(
        "frame_hover_150x150_cpu", run=lambda: None, samples=samples, target_ms=8.0, target_stat="p95",
        note="CPU ms per frame while the mouse sweeps the 150x150 map (the frame_hover_150x150 sweep); no reference",
    )


def compare_row() -> Benchmark:
    """``compare_from_400x400``: ``sightline compare MAP --from 200,200 --rules arcadia,corners``
    on the 400x400 load benchmark map (``bench_load.write_map``), a fresh process per run; peak
    = VmHWM. Targets 2 s, 300 MB."""
    from bench_load import write_map

    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-compare-"))
    path = write_map(folder, size=400, walls=31_000, doors=40)
    row = FreshRow(["compare", str(path), "--from", "200,200", "--rules", "arcadia,corners", "-o",
                    str(folder / "cmp.png")])
    before = "SIGHTLINE_BEFORE" in os.environ
    return row.attach(Benchmark(
        "compare_from_400x400", row.run, row.before if before else None, repeat=7, warmup=0, reference_repeat=1,
        target_ms=2000.0, peak=row.peak,
        note="fresh process (load_map included), 400x400 map, 31,000 wall segments; reference: SIGHTLINE_BEFORE's code",
    ))


def frame_rows() -> list[Benchmark]:
    """``frame_findings_150x150`` (worst frame, wall ms) and ``frame_findings_150x150_cpu`` (worst
    frame, CPU ms): the window on the 150x150 benchmark map (``bench_ui.write_map``: ~4,200 wall
    segments, 672 findings) from its first frame until the deferred map check has landed, then
    F3 through 20 region findings (each outlines its whole region). One sample per fresh window:
    its worst frame; 7 windows. Before: the same in ``SIGHTLINE_BEFORE``'s code (3 windows), in
    the note."""
    from bench_ui import write_map

    path = write_map(Path(tempfile.mkdtemp(prefix="sightline-bench-frames-")), seed=150, size=150)
    runs: list[tuple[float, float, int, int]] = []
    wall = Benchmark("frame_findings_150x150", lambda: None, target_ms=100.0, target_stat="median")
    cpu = Benchmark("frame_findings_150x150_cpu", lambda: None, target_ms=100.0, target_stat="median")

    def measure_all() -> None:
        if runs:
            return
        runs.extend(worst_frames(path) for _ in range(7))
        note = (f"worst frame per fresh window (7), check landing + F3 through {STEPPED} region findings, "
                f"{runs[0][3]} findings")
        wall.note = cpu.note = note
        if "SIGHTLINE_BEFORE" in os.environ:
            before = [worst_frames(path, Path(os.environ["SIGHTLINE_BEFORE"])) for _ in range(3)]
            wall.note += f"; before: median worst {statistics.median(b[0] for b in before):.0f} ms wall"
            cpu.note += f"; before: median worst {statistics.median(b[1] for b in before):.0f} ms CPU"

    def walls() -> list[float]:
        measure_all()
        return [r[0] for r in runs]

    def cpus() -> list[float]:
        measure_all()
        return [r[1] for r in runs]

    wall.samples, cpu.samples = walls, cpus
    return [wall, cpu]


STEPPED = 20  #: region findings stepped through (F3) after the check has landed
#: a fresh process: open the window on a map, draw frames until the deferred map check has landed
#: (and a few more); print the worst frame's wall and CPU milliseconds, frames drawn, findings
FRAMES_CHILD = """
import json, sys, time
import pygame
from game.play.session import Session
from game.ui.app import App
pygame.display.init()
pygame.font.init()
screen = pygame.display.set_mode((1280, 800))
session = Session.open({path!r}, autosave=False, defer_lint=True)
app = App(session, screen=screen, watch=False)
wall, cpu, after = [], [], 0
while after < 5 and len(wall) < 5000:
    t, c = time.perf_counter(), time.process_time()
    app.frame()
    wall.append((time.perf_counter() - t) * 1000.0)
    cpu.append((time.process_time() - c) * 1000.0)
    after += session.lint_run is None
regions = [f for f in session.findings if f.code.startswith("region-")][:{step}]
for finding in regions:  # F3 through the region findings: each outlines its whole region
    t, c = time.perf_counter(), time.process_time()
    app.focus_finding(finding)
    app.frame()
    wall.append((time.perf_counter() - t) * 1000.0)
    cpu.append((time.process_time() - c) * 1000.0)
print(json.dumps([max(wall), max(cpu), len(wall), len(session.findings), wall, cpu]))
"""


def worst_frames(path: Path, source: Path = REPO) -> tuple[float, float, int, int]:
    """Worst frame (wall ms, CPU ms), frames and findings of one fresh window on ``path`` (code
    in ``source``) from the first frame until the deferred map check has landed."""
    env = dict(os.environ, PYTHONPATH=str(source), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    code = FRAMES_CHILD.format(path=str(path), step=STEPPED)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False,
                          cwd=path.parent)
    if done.returncode != 0:
        raise RuntimeError(f"window on {path} failed: {done.stderr.strip()[-500:]}")
    wall, cpu, frames, findings, _walls, _cpus = json.loads(done.stdout.strip().splitlines()[-1])
    return wall, cpu, frames, findings



class _MoveRow:
    """One after-a-move row: a board of 60 figures; :meth:`step` moves one (seeded), then times
    the first field of view from a new origin, with the caches kept (patched) or cleared (built
    anew); the CPU medians of both go into the benchmark's note."""

    def __init__(self, rule: str) -> None:
        from bench_los import random_board

        from game.core import sight
        from game.core.board import Figure

        self.rule, self.board, self.rng = rule, random_board(100, 2_000, 500, 100), random.Random(28)
        self.free = [s for s in self.board.squares() if s not in self.board.blocked]
        self.rng.shuffle(self.free)
        for i, square in enumerate(self.free[:60]):
            self.board.place_figure(Figure(i + 1, f"F{i}", ("red", "blue")[i % 2], square))
        sight.field(self.board, (50, 50), rule, viewer="red")
        self.cpu: dict[bool, list[float]] = {False: [], True: []}
        self.bench: Benchmark | None = None

    def step(self, cold: bool) -> None:
        """Move a figure, then time the field (CPU kept for the note)."""
        from game.core import los, segment, sight

        figure, target = self.rng.randrange(1, 61), self.rng.choice(self.free[60:])
        if self.board.can_enter(figure, target) is None:
            self.board.move_figure(figure, target)
        if cold:
            los.clear_caches()
            segment.clear_views()
        start = time.process_time()
        sight.field(self.board, self.rng.choice(self.free[60:]), self.rule, viewer="red")
        self.cpu[cold].append((time.process_time() - start) * 1000.0)
        if self.bench is not None and self.cpu[False] and self.cpu[True]:
            self.bench.note = (
                f"{self.rule}, viewer red, dense 100x100 board, 60 figures: the first field after a figure's move, "
                f"arrays patched; reference: caches cleared, every array built anew; CPU median "
                f"{statistics.median(self.cpu[False]):.3f} ms patched vs {statistics.median(self.cpu[True]):.3f} ms rebuilt")


def move_rows() -> list[Benchmark]:
    """``fov_100x100_after_move`` (arcadia) and ``fov_100x100_corners_after_move``: the first field
    of view (``sight.field``, viewer red) from a new origin right after a figure moved, on the
    dense 100x100 board of ``fov_100x100_first`` with 60 figures of two sides: the board's arrays
    patched where the figure left and arrived (issue 28). Reference: the same after the board's
    caches were cleared (``los.clear_caches``, ``segment.clear_views``: every array built anew),
    the same kind of moves and origins. CPU medians of both in the note."""
    rows = []
    for label, rule in (("fov_100x100_after_move", "arcadia"), ("fov_100x100_corners_after_move", "corners")):
        row = _MoveRow(rule)
        row.bench = Benchmark(label, run=lambda row=row: row.step(False), reference=lambda row=row: row.step(True),
                              repeat=60, reference_repeat=60, warmup=0)
        rows.append(row.bench)
    return rows
