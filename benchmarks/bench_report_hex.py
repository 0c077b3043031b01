"""``sightline report`` on a large hex map (issue #21: every pair over 2,500 standable hexes).

``report_hex_100x100``: ``sightline report MAP -o DIR`` in a fresh process on the generated
100×100 pointy-top hex map of ``bench_hex_balance.hex_map`` (a tenth of the hex sides walled,
2 % of the hexes rubble, no doors): 10,000 standable hexes, every pair under the map's rule
(``hexside``) and the two other hex presets side by side — 30,000 fields of view, each rule's
pairs kept as a compact bit table (12.5 MB a rule), every picture. Peak = the process's
``VmHWM``; the note gets its CPU seconds. Each door adds one more table of the report's rule.
Reference: the same command on the square map of the same size and density
(``bench_hex_balance.square_map``; one rule, its pairs by regions).

``python benchmarks/run.py --only report_hex_100x100`` (one run: about two minutes of CPU).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench_hex_balance import hex_map, square_map
from bench_speed import FreshRow
from harness import Benchmark


def benchmarks() -> list[Benchmark]:
    """``report_hex_100x100`` against the square report of the same density."""
    folder = Path(tempfile.mkdtemp(prefix="sightline-bench-report-hex-"))
    row = FreshRow(["report", str(hex_map(folder, size=100)), "-o", str(folder / "hex")])
    square = FreshRow(["report", str(square_map(folder, size=100)), "-o", str(folder / "square")])
    return [row.attach(Benchmark(
        "report_hex_100x100", row.run, square.run, repeat=1, reference_repeat=1, warmup=0, peak=row.peak,
        note="fresh process, generated 100x100 hex map (10% of sides walled, 2% rubble, no doors), 3 hex rules; "
             "peak = VmHWM; reference: the square report on the 100x100 square map of the same density",
    ))]
