"""The benchmark harness: time a fast path and its slow reference on the same input, same run.

A benchmark module ``benchmarks/bench_<topic>.py`` defines ``benchmarks() -> list[Benchmark]``.
Setup work belongs in that function (or in closures), not in the timed callables.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Benchmark:
    """One named measurement: ``run`` is timed ``repeat`` times, ``reference`` ``reference_repeat`` times."""

    name: str
    run: Callable[[], object]
    reference: Callable[[], object] | None = None
    repeat: int = 30
    reference_repeat: int = 3
    target_ms: float | None = None
    target_stat: str = "median"  # or "p95"
    note: str = ""
    warmup: int = 1
    #: the reference ran on a sample of the input: its median is multiplied by this to compare
    reference_scale: float = 1.0
    #: for benchmarks whose samples come from elsewhere (e.g. frame times measured in a loop)
    samples: Callable[[], list[float]] | None = None
    #: peak memory of the measured work in MB (tracemalloc, or a subprocess's report), if measured
    peak: Callable[[], float] | None = None
    #: a target on the ratio reference / fast (e.g. 0.5: at most twice the peer's time), if any
    target_ratio: float | None = None


@dataclass
class Result:
    """Figures of one benchmark, in milliseconds."""

    name: str
    median_ms: float
    p95_ms: float
    reference_median_ms: float | None
    ratio: float | None
    target_ms: float | None
    target_stat: str
    note: str
    peak_mb: float | None = None
    target_ratio: float | None = None

    @property
    def meets_target(self) -> bool | None:
        """Whether the targets (median or p95 in ms; the ratio) are met, None if there is none."""
        if self.target_ms is None and self.target_ratio is None:
            return None
        met = True
        if self.target_ms is not None:
            met = (self.median_ms if self.target_stat == "median" else self.p95_ms) <= self.target_ms
        if self.target_ratio is not None:
            met = met and self.ratio is not None and self.ratio >= self.target_ratio
        return met

    def as_json(self) -> dict[str, object]:
        """The JSON row of the README's speed table plus the target."""
        return {
            "name": self.name,
            "median_ms": round(self.median_ms, 4),
            "p95_ms": round(self.p95_ms, 4),
            "reference_median_ms": None if self.reference_median_ms is None else round(self.reference_median_ms, 4),
            "ratio": None if self.ratio is None else round(self.ratio, 2),
            "peak_mb": None if self.peak_mb is None else round(self.peak_mb, 1),
            "target_ms": self.target_ms,
            "target_stat": self.target_stat,
            "target_ratio": self.target_ratio,
            "meets_target": self.meets_target,
            "note": self.note,
        }


#: the program of a fresh ``sightline`` process in a benchmark: run the command line, then print
#: its own peak memory on stderr (``peak_kb=N``: ``VmHWM`` from ``/proc/self/status``, the
#: high-water mark of this process image; ``ru_maxrss`` would not do: Linux keeps it across the
#: fork and exec, so a child would report its parent's size when the parent is larger)
FRESH_CHILD = (
    "import atexit, sys\n"
    "def _peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM'):\n"
    "            sys.stderr.write('peak_kb=%s\\n' % line.split()[1])\n"
    "atexit.register(_peak)\n"
    "from game.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def fresh_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh ``sightline`` process in a benchmark: a dummy display, and
    Python's bytecode cache allowed (``PYTHONDONTWRITEBYTECODE`` dropped) as an installed copy runs
    (``pip install`` compiles it; an editable install writes it on the first run), so a
    fresh-process row times starting the program, not compiling it. The row's untimed warm-up run
    writes the cache."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(extra)
    return env


def _time(fn: Callable[[], object], repeat: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0
    """
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100.0 * len(ordered) + 0.5 - 1e-9)))
    return ordered[rank - 1]


def measure(bench: Benchmark, quick: bool = False) -> Result:
    """Run one benchmark (and its reference) and return its figures."""
    repeat = max(3, bench.repeat // 5) if quick else bench.repeat
    samples = bench.samples() if bench.samples is not None else _time(bench.run, repeat, bench.warmup)
    ref_median = None
    if bench.reference is not None:
        ref_repeat = 1 if quick else bench.reference_repeat
        ref_median = statistics.median(_time(bench.reference, ref_repeat, 0)) * bench.reference_scale
    median = statistics.median(samples)
    ratio = None if ref_median is None or median == 0 else ref_median / median
    peak = bench.peak() if bench.peak is not None else None
    return Result(
        bench.name, median, percentile(samples, 95), ref_median, ratio, bench.target_ms, bench.target_stat, bench.note,
        peak, bench.target_ratio,
    )
