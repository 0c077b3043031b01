"""Run every benchmark: ``python benchmarks/run.py [--json] [--only NAME] [--quick] [--save FILE]``.

``--save FILE`` also writes the run as JSON (rows, load averages at the start and the end, the
time); ``python benchmarks/run.py --markdown FILE`` prints a saved run as the README's speed table.

Each benchmark prints its median and p95 in milliseconds, the median of the slow exact reference
on the same input in the same run, and the ratio (reference / fast). Targets are the README's speed table.
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The fresh-process rows (``*_first``, ``first_frame_*``, ``los_400x400_fresh``) measure the
# program as a user runs it: pip compiles a package's bytecode when it installs it, so the game's
# modules are compiled here once and the children may read and write bytecode (an environment
# that sets PYTHONDONTWRITEBYTECODE would otherwise make every child recompile every module).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from harness import Benchmark, Result, measure  # noqa: E402


def discover() -> list[Benchmark]:
    """Every Benchmark of every ``bench_*.py`` module beside this file, in file order."""
    found: list[Benchmark] = []
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(path.stem)
        found.extend(module.benchmarks())
    return found


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--only", action="append", default=[], help="run only this benchmark (repeatable)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--save", metavar="FILE", help="also write the run as JSON to FILE")
    parser.add_argument("--markdown", metavar="FILE", help="print a saved run as a Markdown table, run nothing")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text(encoding="utf-8"))))
        return 0
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    start_load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    compileall.compile_dir(str(HERE.parent / "game"), quiet=1)
    results: list[Result] = []
    for bench in discover():
        if args.only and bench.name not in args.only:
            continue
        result = measure(bench, quick=args.quick)
        results.append(result)
        if not args.json:
            ref = "-" if result.reference_median_ms is None else f"{result.reference_median_ms:10.2f}"
            ratio = "-" if result.ratio is None else f"{result.ratio:8.1f}x"
            target = ""
            if result.meets_target is not None:
                mark = "ok" if result.meets_target else "MISSED"
                goal = [] if result.target_ms is None else [f"{result.target_stat} <= {result.target_ms:g} ms"]
                goal += [] if result.target_ratio is None else [f"ratio >= {result.target_ratio:g}"]
                target = f"  target {', '.join(goal)}: {mark}"
            peak = "" if result.peak_mb is None else f"  peak {result.peak_mb:.1f} MB"
            print(
                f"{result.name:26s} median {result.median_ms:9.3f} ms  p95 {result.p95_ms:9.3f} ms"
                f"  reference {ref} ms  ratio {ratio}{peak}{target}",
                flush=True,
            )
            if result.note:
                print(f"{'':26s} ({result.note})", flush=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    doc: dict[str, object] = {"benchmarks": [r.as_json() for r in results], "started": started,
                              "load_average_start": start_load}
    if load is not None:
        doc["load_average"] = [round(x, 2) for x in load]
    if args.save:
        Path(args.save).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(doc, indent=2))
    elif load is not None:
        print(f"load average at the end: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    return 0


def _ms(value: float) -> str:
    """A time as the table writes it: ms below a second, s above."""
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.3g} ms"


def _ratio(value: float) -> str:
    """A ratio as the table writes it: ``×12,345``, ``×18``, ``×1.5``, ``×0.35``."""
    return f"×{value:,.0f}" if value >= 10 else f"×{value:.2g}"


def markdown(doc: dict[str, Any]) -> str:
    """A saved run as the README's speed table: one row per benchmark (target, median or p95, peak
    memory, the reference's median and the ratio, all from that one run, and what the row measures:
    the first clause of its note) and the load averages.

    >>> print(markdown({"started": "then", "load_average_start": [1.0, 1.0, 1.0], "load_average": [2.0, 1.5, 1.2],
    ...     "benchmarks": [{"name": "x", "median_ms": 2.0, "p95_ms": 3.0, "reference_median_ms": 20.0,
    ...     "ratio": 10.0, "peak_mb": None, "target_ms": 5.0, "target_stat": "p95", "meets_target": True,
    ...     "note": "per-frame times; reference = caches off"}]}))
    One `benchmarks/run.py` run, started then; load average 1.00 at the start, 2.00 at the end.
    <BLANKLINE>
    | benchmark | target | measured | reference / peer (same run) | ratio | what |
    |---|---|---|---|---|---|
    | `x` | p95 ≤ 5 ms | 3 ms p95 (median 2 ms) | 20 ms | ×10 | per-frame times |
    """
    start, end = doc.get("load_average_start") or [0.0], doc.get("load_average") or [0.0]
    lines = [f"One `benchmarks/run.py` run, started {doc.get('started', '?')}; load average "
             f"{start[0]:.2f} at the start, {end[0]:.2f} at the end.", "",
             "| benchmark | target | measured | reference / peer (same run) | ratio | what |",
             "|---|---|---|---|---|---|"]
    for row in doc["benchmarks"]:
        stat = row.get("target_stat", "median")
        targets = [] if row.get("target_ms") is None else [f"{'p95 ' if stat == 'p95' else ''}≤ {_ms(row['target_ms'])}"]
        if row.get("target_ratio") is not None:
            targets.append(f"ratio ≥ {row['target_ratio']:g}")
        target = ", ".join(targets) or "—"
        shown = row["p95_ms"] if stat == "p95" else row["median_ms"]
        measured = f"{_ms(shown)} p95 (median {_ms(row['median_ms'])})" if stat == "p95" else _ms(shown)
        if row.get("peak_mb") is not None:
            measured += f", {row['peak_mb']:.0f} MB"
        if row.get("meets_target") is False:
            measured = f"**{measured}, missed**"
        reference = "—" if row.get("reference_median_ms") is None else _ms(row["reference_median_ms"])
        ratio = "—" if row.get("ratio") is None else _ratio(row["ratio"])
        what = str(row.get("note") or "").split(";")[0].strip().replace("|", "/")
        lines.append(f"| `{row['name']}` | {target} | {measured} | {reference} | {ratio} | {what} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
