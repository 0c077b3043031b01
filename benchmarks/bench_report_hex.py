"""``sightline report`` on a large hex map (issue #21: every pair over 2,500 standable hexes).

``report_hex_100x100``: ``sightline report MAP -o DIR`` in a fresh process on the generated
100×100 pointy-top hex map of ``bench_hex_balance.hex_map`` (a tenth of the hex sides walled,
2 % of the hexes rubble, no doors): 10,000 standable hexes, every pair under the map's rule
(``hexside``) and the two other hex presets side by side — 30,000 fields of view, each rule's
pairs kept as a compact bit table (12.5 MB a rule), every picture. Peak = the process's
``VmHWM``; the note gets its CPU seconds. Each door adds one more table of the report's rule.
Reference: the same command on the square map of the same size and density
(``bench_hex_balance.square_map``; one rule, its pairs by regions).

``report_hex_100x100_workers``: the same report with ``-j 2`` (game/play/workers.py: two worker
processes compute the rows of each pair table), reference ``-j 1`` in the same run; the speed-up
needs two idle CPUs (a shared machine gives less).

``python benchmarks/run.py --only report_hex_100x100`` (one run: about two minutes of CPU).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench_hex_balance import hex_map, square_map
from bench_speed import FreshRow
from harness import Benchmark


def benchmarks() -> list[Benchmark]:
    """``report_hex_100x100`` (one process, ``-j 1``) against the square report of the same
    density, and ``report_hex_100x100_workers`` (``-j 2``: two worker processes for the pair
    tables) against ``-j 1`` again, in the same run."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-report-hex-"))
    hexes = str(hex_map(folder, size=100))
    row = FreshRow(["report", hexes, "-o", str(folder / "hex"), "-j", "1"])
    square = FreshRow(["report", str(square_map(folder, size=100)), "-o", str(folder / "square")])
    workers = FreshRow(["report", hexes, "-o", str(folder / "hex-j2"), "-j", "2"])
    alone = FreshRow(["report", hexes, "-o", str(folder / "hex-j1"), "-j", "1"])
    return [
        row.attach(Benchmark(
            "report_hex_100x100", row.run, square.run, repeat=1, reference_repeat=1, warmup=0, peak=row.peak,
            note="fresh process, generated 100x100 hex map (10% of sides walled, 2% rubble, no doors), 3 hex rules, "
                 "-j 1 (no worker processes); peak = VmHWM; reference: the square report on the 100x100 square map "
                 "of the same density",
        )),
        workers.attach(Benchmark(
            "report_hex_100x100_workers", workers.run, alone.run, repeat=1, reference_repeat=1, warmup=0,
            peak=workers.peak,
            note="the same report with -j 2 (two spawned worker processes compute the pair tables' rows; CPU "
                 "seconds include them); peak = the parent's VmHWM only (each worker holds its own tables); "
                 "reference: -j 1 in the same run",
        )),
    ]
