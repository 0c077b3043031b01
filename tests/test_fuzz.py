"""A bounded fuzz test of the map reader and the commands (issue #15): mutated bundled maps.

Each mutant is one of the bundled maps with one change: a number attribute rewritten (nan, inf,
1e999, -1, garbage, empty, a 5000-digit number), an attribute removed or renamed, an element
removed, duplicated or renamed, or the whole file re-encoded (UTF-16 without a byte-order mark,
Latin-1, cut short). Each is run through the real commands in-process (``check`` always,
``odds`` and ``render`` on some) with ``SIGHTLINE_DEBUG=1``, so an unexpected exception surfaces
as one. Asserted: no exception, exit codes 0/1/2 only, every refusal (exit 2) one line naming
the map's element, object or file position, and none quoting a raw Python exception.

``python tests/test_fuzz.py [MUTANTS]`` prints the figures (mutants, commands, failures by class).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

REPO = Path(__file__).resolve().parent.parent
MAPS = ("demo", "folklore", "conquest", "mage_knight")
PAIRS = {"demo": ("Ember", "Cinder"), "folklore": ("Kiku", "Oni"),
         "conquest": ("Longbowman", "Brute Drone"), "mage_knight": ("Tovak", "Prowlers")}
NUMBERS = ["nan", "inf", "-inf", "1e999", "-1", "0", "", "abc", "1/0", "0x10", "3.5", "9" * 5000,
           "99999999999", "-99999999", " 4 ", "1e-999", "١٢"]
#: what a refusal must mention: the map's element, object, attribute or place in the file
NAMES = re.compile(r"<\w+[ >]|\bsquare\b|\bobject \d+|\blayer\b|\btileset\b|\bline \d+|\bproperty\b|\bfigures?\b|\bruleset\b|^sightline \w+: [^:/]+: |"
                   r"\bimage\b|Map Properties|\bthe map's\b|\battribute\b|\bUTF|\bgid\b|\btemplate\b")
#: a raw Python exception quoted to the user
RAW = re.compile(r"Error\b|Exception|Traceback|invalid literal|NoneType|has no attribute|"
                 r"object is not|unsupported operand|not subscriptable|Invalid literal")


@dataclass
class Figures:
    """What a fuzz run saw."""

    mutants: int = 0
    commands: int = 0
    refusals: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    raw_refusals: int = 0
    examples: dict[str, str] = field(default_factory=dict)

    def fail(self, kind: str, detail: str) -> None:
        self.failures[kind] += 1
        self.examples.setdefault(kind, detail[:400])


def _mutate(text: str, rng: random.Random) -> tuple[bytes, str]:
    """One mutant of a map's text and a word on what was done."""
    kind = rng.choice(["number", "number", "number", "attribute", "element", "encoding"])
    if kind == "encoding":
        how = rng.choice(["utf16", "latin1", "cut"])
        if how == "utf16":
            return text.encode("utf-16-le"), "encoding utf-16 without BOM"
        if how == "latin1":
            return text.replace("Oni", "Öni").encode("latin-1", "replace"), "encoding latin-1"
        return text.encode()[: rng.randrange(1, len(text))], "cut short"
    root = ET.fromstring(text)
    elements = list(root.iter())
    if kind == "number":
        candidates = [(e, k) for e in elements for k, v in e.attrib.items()
                      if re.fullmatch(r"-?[\d.]+", v) or k in ("points", "value")]
        elem, key = rng.choice(candidates)
        value = rng.choice(NUMBERS)
        if key == "points":
            value = f"0,0 {value},{rng.choice(NUMBERS)}"
        elem.set(key, value)
        what = f"number <{elem.tag}> {key}={value[:12]!r}"
    elif kind == "attribute":
        elem = rng.choice([e for e in elements if e.attrib])
        key = rng.choice(sorted(elem.attrib))
        if rng.random() < 0.5:
            del elem.attrib[key]
            what = f"attribute <{elem.tag}> {key} removed"
        else:
            elem.set(key + "x", elem.attrib.pop(key))
            what = f"attribute <{elem.tag}> {key} renamed"
    else:
        parents = [(p, c) for p in elements for c in list(p)]
        parent, child = rng.choice(parents)
        how = rng.choice(["remove", "duplicate", "rename"])
        if how == "remove":
            parent.remove(child)
        elif how == "duplicate":
            parent.append(child)
        else:
            child.tag = rng.choice(["object", "layer", "tileset", "property", "data", "polyline", "bogus"])
        what = f"element <{child.tag}> {how}"
    return ET.tostring(root, encoding="utf-8", xml_declaration=True), what


def _run(argv: list[str]) -> tuple[int | None, str, str]:
    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main_entry(argv)
    except BaseException as exc:  # noqa: BLE001 - this is what the fuzz test looks for
        return None, err.getvalue(), "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return code, err.getvalue(), ""


def main_entry(argv: list[str]) -> int:
    from game.cli import main

    return main(argv)


def fuzz(mutants: int, seed: int = 15, budget_s: float = 45.0) -> Figures:
    """Run up to ``mutants`` mutants (stopping after ``budget_s`` seconds) and count."""
    os.environ["SIGHTLINE_DEBUG"] = "1"
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    rng = random.Random(seed)
    figures = Figures()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "maps").mkdir()
        shutil.copytree(REPO / "maps" / "tiles", root / "maps" / "tiles")
        shutil.copytree(REPO / "assets" / "tiles", root / "assets" / "tiles")
        sources = {name: (REPO / "maps" / f"{name}.tmx").read_text(encoding="utf-8") for name in MAPS}
        for i in range(mutants):
            if time.monotonic() - start > budget_s:
                break
            name = rng.choice(MAPS)
            data, what = _mutate(sources[name], rng)
            path = root / "maps" / f"mutant_{i}.tmx"
            path.write_bytes(data)
            figures.mutants += 1
            runs = [["check", str(path)]]
            if i % 3 == 0:
                runs.append(["odds", str(path), *PAIRS[name]])
            if i % 7 == 0:
                runs.append(["render", str(path), "-o", str(root / "out.png")])
            for argv in runs:
                figures.commands += 1
                code, err, raised = _run(argv)
                tag = f"{argv[0]} on {name} ({what})"
                if raised:
                    figures.fail("exception", f"{tag}: {raised}")
                    continue
                if code not in (0, 1, 2):
                    figures.fail("exit code", f"{tag}: exit {code}")
                if code == 2:
                    figures.refusals += 1
                    refusal = err.strip()
                    if "\n" in refusal:
                        figures.fail("more than one line", f"{tag}: {refusal}")
                    if RAW.search(refusal):
                        figures.raw_refusals += 1
                        figures.fail("raw exception quoted", f"{tag}: {refusal}")
                    elif not NAMES.search(refusal):  # a figure label starts rules' answers
                        figures.fail("names nothing in the map", f"{tag}: {refusal}")
            path.unlink()
    return figures


def test_fuzzed_maps_never_crash_and_refusals_name_the_map() -> None:
    figures = fuzz(400, budget_s=40.0 if os.environ.get("CI") else 45.0)
    assert figures.mutants >= 50, figures
    assert not figures.failures, (dict(figures.failures), figures.examples)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1200
    result = fuzz(count, budget_s=float("inf"))
    share = result.raw_refusals / result.refusals if result.refusals else 0.0
    print(f"mutants {result.mutants}, commands {result.commands}, refusals {result.refusals}, "
          f"raw-exception refusals {result.raw_refusals} ({share:.1%})")
    print("failures by class:", dict(result.failures) or "none")
    for kind, example in result.examples.items():
        print(f"  {kind}: {example}")
