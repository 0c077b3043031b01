"""A bounded, seeded fuzz test of everything Sightline reads (issues #15 and #27): mutants of the
bundled ``.tmx`` maps, of ``.tmj`` maps, ``.tsj`` tilesets, ``.tj`` templates, a ``.tiled-project``
and of a map's autosaved play state, put through the real commands in-process (``check`` always,
``los``/``odds``/``render`` on some; ``session`` = opening the map for play, which reads the play
state) with ``SIGHTLINE_DEBUG=1``, so an unexpected exception surfaces as one.

Asserted for each format: no exception, exit codes 0/1/2 only, every refusal (exit 2) one line
naming the map (``.tmx``: its element, object or place; the others: the file) and none quoting
Python's own message text (:data:`fuzzing.RAW`). The mutations and the verdicts live in
``tests/fuzzing.py``, shared with the long run outside CI (``benchmarks/fuzz_long.py``: ten
thousand mutants and more, each in its own process with a time and memory limit).

``python tests/test_fuzz.py [MUTANTS] [FORMAT...]`` prints the figures.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pytest
from fuzzing import (
    FORMATS,
    Tally,
    cases,
    judge,
    mutant,
    prepare_tree,
    restore,
    run_in_process,
    runs,
)


def fuzz(formats: tuple[str, ...], mutants: int, seed: int = 15, budget_s: float = 45.0) -> Tally:
    """Run up to ``mutants`` mutants of ``formats`` in turn (stopping after ``budget_s`` seconds)."""
    os.environ["SIGHTLINE_DEBUG"] = "1"
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    rng = random.Random(seed)
    tally = Tally.empty()
    by_format = cases()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        originals = prepare_tree(root)
        for i in range(mutants):
            if time.monotonic() - start > budget_s:
                break
            case = rng.choice(by_format[formats[i % len(formats)]])
            data, what = mutant(case, originals[case.target], rng)
            (root / case.target).write_bytes(data)
            tally.mutants[case.format] += 1
            for argv in runs(case, tally.mutants[case.format], root):
                code, err, raised = run_in_process(argv)
                if code == 2:
                    tally.refusals[case.format] += 1
                tally.add(case, what, argv, judge(case, argv, code, err, raised))
            restore(root, originals)
    return tally


def _budget(seconds: float) -> float:
    return seconds if os.environ.get("CI") else seconds * 1.1


def test_fuzzed_maps_never_crash_and_refusals_name_the_map() -> None:
    tally = fuzz(("tmx",), 400, budget_s=_budget(40.0))
    assert tally.mutants["tmx"] >= 50, tally
    assert not tally.total(), (tally.failures["tmx"], tally.examples)


def test_fuzzed_play_states_are_set_aside_in_our_words_and_never_crash() -> None:
    """Item 8, 13, 14: whatever the play state holds, the map opens (set aside with one line)."""
    tally = fuzz(("play-state",), 200, seed=27, budget_s=_budget(20.0))
    assert tally.mutants["play-state"] >= 40, tally
    assert not tally.total(), (tally.failures["play-state"], tally.examples)


@pytest.mark.parametrize("kind", ["tmj", "tsj", "tj", "tiled-project"])
def test_fuzzed_json_files_never_crash_and_refusals_are_ours(kind: str) -> None:
    tally = fuzz((kind,), 150, seed=7, budget_s=_budget(8.0))
    assert tally.mutants[kind] >= 25, tally
    assert not tally.total(), (tally.failures[kind], tally.examples)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1200
    chosen = tuple(sys.argv[2:]) or FORMATS
    result = fuzz(chosen, count, budget_s=float("inf"))
    for fmt in chosen:
        print(f"{fmt}: mutants {result.mutants[fmt]}, runs {result.runs[fmt]}, "
              f"refusals {result.refusals[fmt]}, failures {result.failures[fmt] or 'none'}")
    for example in result.examples:
        print(f"  [{example['format']}] {example['class']}: {example['command']} ({example['mutation']}): "
              f"{example['said']}")
