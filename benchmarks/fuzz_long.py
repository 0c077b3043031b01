"""The long fuzz run, outside CI (issue #27): ten thousand mutants and more of every file Sightline
reads, each command in a process of its own with a time limit and a memory limit.

    python benchmarks/fuzz_long.py [--mutants 10000] [--seed 27] [--formats tmx,tmj,...]
                                   [--timeout 20] [--memory-gb 2] [--out DIR] [--code DIR] [--json]

The mutants and the verdicts are those of the CI fuzz test (``tests/fuzzing.py``): mutants of the
bundled ``.tmx`` maps, of ``.tmj`` maps, ``.tsj`` tilesets, ``.tj`` templates, a
``.tiled-project`` and of a map's play state, in turn. Each command (``check``, ``los``, ``odds``,
``render``, ``session`` = opening the map for play, and one real ``play --frames 1`` window in 25)
runs in a forked child of this process (the program is imported once, so a run costs its own work,
not Python's start-up) under ``resource.setrlimit(RLIMIT_AS)`` at ``--memory-gb`` and killed past
``--timeout`` seconds. Counted per format:

- internal errors: an exception, ``internal error`` on stderr, an exit code other than 0/1/2, a
  child killed by a signal;
- runs over the time limit; runs over the memory limit (a ``MemoryError`` under the limit, or a
  peak resident size past it);
- raw exception texts: a refusal or a window message quoting Python's own words
  (``tests/fuzzing.py``'s ``RAW``: ``invalid literal``, ``Expecting value``, ``[Errno``, ...);
- refusals of more than one line, over 1,000 characters (a value quoted in full), or naming
  neither the map nor the file.

It prints the counts and, for every class, the first reproductions; with ``--out`` each kept
mutant is written there (``<format>-<n>-<class>.<ext>``) with ``REPRODUCE.txt`` listing the
command. ``--code DIR`` runs another checkout's ``game`` (e.g. ``/work/main``) with today's mutants,
for before/after counts. Needs Linux (``fork``, ``RLIMIT_AS``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.pop("SIGHTLINE_DEBUG", None)  # the program's own last line of defence is part of the test
sys.path.insert(0, str(REPO / "tests"))

from fuzzing import (  # noqa: E402
    FORMATS,
    Case,
    Tally,
    cases,
    judge,
    mutant,
    prepare_tree,
    restore,
    run_in_process,
    runs,
)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--formats", default=None, help="comma-separated (default: all)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per command")
    parser.add_argument("--memory-gb", type=float, default=2.0)
    parser.add_argument("--out", type=Path, default=None, help="write the reproductions here")
    parser.add_argument("--code", type=Path, default=None, help="the checkout whose game/ to run")
    parser.add_argument("--examples", type=int, default=5, help="reproductions kept per class and format")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON too")
    return parser.parse_args()


def run_forked(argv: list[str], timeout_s: float, memory_bytes: int, scratch: Path) -> dict[str, object]:
    """Run one command in a forked child under the limits: its exit code, stderr, exception,
    seconds, peak resident size (MiB) and whether it was stopped or killed."""
    result_file = scratch / "result.json"
    result_file.unlink(missing_ok=True)
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: limits, run, write the outcome, leave without clean-up
        try:
            os.setsid()
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            code, err, raised = run_in_process(argv)
            result_file.write_text(json.dumps({"code": code, "err": err[:4000], "raised": raised[:2000]}))
        except BaseException as exc:  # noqa: BLE001 - even writing the outcome failed
            try:
                result_file.write_text(json.dumps({"code": None, "err": "", "raised": f"{type(exc).__name__}: {exc}"[:2000]}))
            finally:
                os._exit(70)
        os._exit(0)
    stopped = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - started > timeout_s:
            os.killpg(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            stopped = True
            break
        time.sleep(0.005)
    outcome: dict[str, object] = {"seconds": time.monotonic() - started, "peak_mib": usage.ru_maxrss / 1024,
                                  "stopped": stopped, "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None}
    if result_file.exists():
        outcome.update(json.loads(result_file.read_text()))
    else:
        outcome.update({"code": None, "err": "", "raised": ""})
    return outcome


def verdict(case: Case, argv: list[str], outcome: dict[str, object], memory_mib: float) -> list[tuple[str, str]]:
    """The problems of one run: the CI verdicts (fuzzing.judge) plus time, memory and signals."""
    said = f"{outcome['err']} {outcome['raised']}"
    if outcome["stopped"]:
        return [("over the time limit", f"stopped after {outcome['seconds']:.1f} s")]
    if "MemoryError" in said or "Out of memory" in said or "Cannot allocate memory" in said \
            or float(str(outcome["peak_mib"])) > memory_mib:
        return [("over the memory limit", f"peak {float(str(outcome['peak_mib'])):.0f} MiB: {said.strip()[:200]}")]
    if outcome["signal"] is not None:
        return [("internal error", f"killed by signal {outcome['signal']}")]
    if outcome["code"] is None and not outcome["raised"]:
        return [("internal error", "the child left no outcome")]
    code = outcome["code"]
    return judge(case, argv, code if isinstance(code, int) else None, str(outcome["err"]), str(outcome["raised"]))


def main() -> int:
    """Run the long fuzz and print the counts; exit 1 when anything failed."""
    args = _arguments()
    if args.code is not None:
        sys.path.insert(0, str(args.code.resolve()))
    import pygame  # noqa: F401 - imported once here, so every forked child starts warm

    import game
    import game.cli  # noqa: F401

    formats = tuple(args.formats.split(",")) if args.formats else FORMATS
    memory_bytes = int(args.memory_gb * 1024**3)
    rng = random.Random(args.seed)
    tally = Tally.empty()
    by_format = cases()
    seconds: dict[str, float] = {f: 0.0 for f in formats}
    slowest: dict[str, float] = {f: 0.0 for f in formats}
    peak: dict[str, float] = {f: 0.0 for f in formats}
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    reproduce: list[str] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root, scratch = Path(tmp) / "tree", Path(tmp) / "scratch"
        scratch.mkdir()
        originals = prepare_tree(root)
        for i in range(args.mutants):
            case = rng.choice(by_format[formats[i % len(formats)]])
            data, what = mutant(case, originals[case.target], rng)
            (root / case.target).write_bytes(data)
            tally.mutants[case.format] += 1
            for argv in runs(case, tally.mutants[case.format], root, with_window=True):
                outcome = run_forked(argv, args.timeout, memory_bytes, scratch)
                if outcome["code"] == 2:
                    tally.refusals[case.format] += 1
                seconds[case.format] += float(str(outcome["seconds"]))
                slowest[case.format] = max(slowest[case.format], float(str(outcome["seconds"])))
                peak[case.format] = max(peak[case.format], float(str(outcome["peak_mib"])))
                problems = verdict(case, argv, outcome, args.memory_gb * 1024)

                def keep(case: Case = case, data: bytes = data, argv: list[str] = argv,
                         problems: list[tuple[str, str]] = problems) -> str:
                    if args.out is None:
                        return ""
                    suffix = Path(case.target).name.split(".", 1)[1]
                    number = sum(tally.failures[case.format].values())
                    name = f"{case.format}-{number}-{problems[0][0].replace(' ', '-')}.{suffix}"
                    (args.out / name).write_bytes(data)
                    shown = " ".join([argv[0], *(Path(a).name if os.sep in a else a for a in argv[1:])])
                    reproduce.append(f"{name}: copy it over {case.target} in the fuzz tree "
                                     f"(tests/fuzzing.py prepare_tree), then: sightline {shown}")
                    return name

                tally.add(case, what, argv, problems, keep, limit=args.examples)
            restore(root, originals)
            if (i + 1) % 500 == 0:
                print(f"... {i + 1} mutants, {tally.total()} failing runs, {time.monotonic() - started:.0f} s",
                      file=sys.stderr, flush=True)
    if args.out is not None:
        (args.out / "REPRODUCE.txt").write_text("\n".join(reproduce) + "\n")
    _print(tally, formats, seconds, slowest, peak, time.monotonic() - started, Path(game.__file__).parent.parent, args)
    if args.json:
        print(json.dumps({"mutants": tally.mutants, "runs": tally.runs, "refusals": tally.refusals,
                          "failures": tally.failures, "examples": tally.examples}, indent=1))
    return 1 if tally.total() else 0


def _print(tally: Tally, formats: tuple[str, ...], seconds: dict[str, float], slowest: dict[str, float],
           peak: dict[str, float], wall: float, code: Path, args: argparse.Namespace) -> None:
    classes = ("internal error", "over the time limit", "over the memory limit", "raw exception text",
               "more than one line", "overlong message", "names nothing in the map", "names no file",
               "exit code")
    print(f"code: {code}  seed {args.seed}  limits {args.timeout:g} s, {args.memory_gb:g} GB  "
          f"wall {wall / 60:.1f} min  load {Path('/proc/loadavg').read_text().split()[:3]}")
    header = f"{'format':14} {'mutants':>7} {'runs':>6} {'refused':>7} " + " ".join(f"{c[:12]:>12}" for c in classes) + \
        f" {'mean s':>7} {'max s':>6} {'peak MiB':>8}"
    print(header)
    for fmt in formats:
        failures = tally.failures[fmt]
        count = tally.runs[fmt]
        print(f"{fmt:14} {tally.mutants[fmt]:7} {count:6} {tally.refusals[fmt]:7} "
              + " ".join(f"{failures.get(c, 0):12}" for c in classes)
              + f" {seconds[fmt] / max(count, 1):7.2f} {slowest[fmt]:6.1f} {peak[fmt]:8.0f}")
    for example in tally.examples:
        print(f"  [{example['format']}] {example['class']}: {example['command']} ({example['mutation']})"
              f"{' -> ' + example['file'] if example['file'] else ''}: {example['said']}")


if __name__ == "__main__":
    raise SystemExit(main())
