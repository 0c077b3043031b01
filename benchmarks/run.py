"""Run every benchmark: ``python benchmarks/run.py [--json] [--only NAME] [--quick]``.

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
from pathlib import Path

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
    args = parser.parse_args(argv)
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
            if result.target_ms is not None:
                mark = "ok" if result.meets_target else "MISSED"
                target = f"  target {result.target_stat} <= {result.target_ms:g} ms: {mark}"
            peak = "" if result.peak_mb is None else f"  peak {result.peak_mb:.1f} MB"
            print(
                f"{result.name:26s} median {result.median_ms:9.3f} ms  p95 {result.p95_ms:9.3f} ms"
                f"  reference {ref} ms  ratio {ratio}{peak}{target}",
                flush=True,
            )
            if result.note:
                print(f"{'':26s} ({result.note})", flush=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if args.json:
        doc: dict[str, object] = {"benchmarks": [r.as_json() for r in results]}
        if load is not None:
            doc["load_average"] = [round(x, 2) for x in load]
        print(json.dumps(doc, indent=2))
    elif load is not None:
        print(f"load average at the end: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
