"""Mutants of every kind of file Sightline reads, and what a run on one must never do (#15, #27).

Shared by the CI fuzz test (``tests/test_fuzz.py``, a seeded few hundred) and the long run outside
CI (``benchmarks/fuzz_long.py``, ten thousand and more, each in a process of its own with a time
and memory limit). Not a test module itself.

A *case* is one file to mutate and the map the commands then read: a ``.tmx`` map, a ``.tmj`` map,
a ``.tsj`` tileset or a ``.tj`` template a ``.tmj`` map uses, a ``.tiled-project`` beside a map,
or a map's autosaved play state (``.sightline.json``). :func:`prepare_tree` copies the bundled maps
and ``tests/data/tiled`` into a work folder; :func:`mutant` writes one mutant over its case's file
(:func:`restore` puts the original back). XML files get :func:`mutate_xml` (numbers, attributes,
elements, encodings), JSON files :func:`mutate_json` (a value replaced by a hostile one, a member
or item removed, renamed or duplicated, a value wrapped, the text cut, re-encoded or garbled).

:func:`runs` lists the commands for a mutant (``check`` always, ``los``, ``odds``, ``render`` on
some; ``session`` = opening the map in play, which reads the play state). :func:`run_in_process`
runs one with ``SIGHTLINE_DEBUG=1`` semantics left to the caller, and :func:`judge` says what is
wrong with its outcome: an exception, an exit code other than 0/1/2, a refusal of more than one
line, Python's own message text (:data:`RAW`), or (``.tmx``) a refusal naming nothing in the map.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("tmx", "tmj", "tsj", "tj", "tiled-project", "play-state")

#: Python's own message shapes (exception names, ``int()``, ``json``, ``zlib``, ``os`` errors ...):
#: a one-line refusal quoting any of them shows the person our insides instead of what to fix
RAW = re.compile(
    r"Traceback|Exception|Error\b|internal error|invalid literal|could not convert|"
    r"too many values to unpack|not enough values to unpack|is not a valid [A-Z]\w+|\[Errno \d+\]|"
    r"Expecting (?:value|property name|',' delimiter|':' delimiter)|Unterminated string|Extra data|"
    r"Invalid control character|Invalid \\escape|Exceeds the limit|integer string conversion|"
    r"NoneType|has no attribute|object is not|unsupported operand|not subscriptable|"
    r"not supported between|index out of range|maximum recursion|division by zero|math range error|"
    r"cannot convert float|unhashable type|codec can't|Incorrect padding|Error -\d+ while|"
    r"incorrect header check|invalid (?:stored block|distance|code lengths)|"
    r"must be (?:str|int|real number|a real number), not|argument of type|expected str, bytes|"
    r"object of type|positional argument|unexpected keyword|Invalid literal"
)
#: what a ``.tmx`` refusal must mention: the map's element, object, attribute or place in the file
NAMES = re.compile(r"<\w+[ >]|\bsquares?\b|\bobject \d+|\blayer\b|\btileset\b|\bline \d+|\bproperty\b|"
                   r"\bfigures?\b|\bruleset\b|^sightline \w+: [^:/]+: |\bimage\b|Map Properties|"
                   r"\bthe map's\b|\battribute\b|\bUTF|\bgid\b|\btemplate\b")

#: the longest one-line message that is still a sentence (a refusal quoting a 100,000-character
#: value in full is not one)
MAX_MESSAGE = 1000
#: hostile number texts for XML attributes
NUMBERS = ["nan", "inf", "-inf", "1e999", "-1", "0", "", "abc", "1/0", "0x10", "3.5", "9" * 5000,
           "99999999999", "-99999999", " 4 ", "1e-999", "١٢"]
#: hostile JSON values, as raw JSON text (NaN, Infinity and 5,000-digit numbers are not what
#: json.dumps writes, so they go in as text)
JSON_VALUES = [
    "true", "false", "null", '""', '"x"', "0", "-1", "3.7", "1e308", "-1e308", "1e999", "NaN",
    "Infinity", "-Infinity", "9" * 50, "9" * 5000, "-" + "9" * 4400, "[]", "{}", "[1,2]", '{"a":1}',
    "[" * 5000 + "]" * 5000, '"0x10"', '"\\u0661\\u0662"', '"' + "x" * 100_000 + '"', "2147483648",
    "4294967296", "-2147483649", '"\\ud800"', "[null]", '[{"x":1e999}]', "[true, false]", "0.5",
]


@dataclass(frozen=True)
class Case:
    """One file to mutate (``target``) and the map the commands read (``map``), relative to the
    work folder; ``pair``: an attacker and a target for ``odds``."""

    format: str
    target: str
    map: str
    pair: tuple[str, str] | None = None


_PAIRS = {"demo": ("Ember", "Cinder"), "folklore": ("Kiku", "Oni"),
          "conquest": ("Longbowman", "Brute Drone"), "mage_knight": ("Tovak", "Prowlers")}
_TMJ = ("walls", "doors", "figures", "figures_class", "walls_class", "nonsquare", "encoding_zlib",
        "external", "templates")


def cases() -> dict[str, list[Case]]:
    """Every case, by format."""
    return {
        "tmx": [Case("tmx", f"maps/{m}.tmx", f"maps/{m}.tmx", _PAIRS[m]) for m in _PAIRS],
        "tmj": [Case("tmj", f"data/{m}.tmj", f"data/{m}.tmj") for m in _TMJ]
        + [Case("tmj", "data/tileset_templates/maps/room.tmj", "data/tileset_templates/maps/room.tmj"),
           Case("tmj", "data/project/maps/doors.tmj", "data/project/maps/doors.tmj")],
        "tsj": [Case("tsj", "data/tileset_templates/tilesets/walls.tsj", "data/tileset_templates/maps/room.tmj"),
                Case("tsj", "data/outdoor.tsj", "data/external.tmj"),
                Case("tsj", "data/outdoor.tsj", "data/templates.tmj")],
        "tj": [Case("tj", "data/templates/hero.tj", "data/templates.tmj"),
               Case("tj", "data/templates/door.tj", "data/templates.tmj")],
        "tiled-project": [Case("tiled-project", "data/project/game.tiled-project", "data/project/maps/doors.tmj")],
        "play-state": [Case("play-state", "maps/demo.sightline.json", "maps/demo.tmx", _PAIRS["demo"]),
                       Case("play-state", "maps/folklore.sightline.json", "maps/folklore.tmx", _PAIRS["folklore"])],
    }


def prepare_tree(root: Path) -> dict[str, bytes]:
    """Copy the bundled maps and ``tests/data/tiled`` into ``root``, write a real play state for
    each play-state case (a session moves a figure, opens a door and rolls an attack), and return
    every case's original bytes by target."""
    (root / "maps").mkdir(parents=True, exist_ok=True)
    for name in _PAIRS:
        shutil.copy(REPO / "maps" / f"{name}.tmx", root / "maps" / f"{name}.tmx")
    shutil.copytree(REPO / "maps" / "tiles", root / "maps" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "assets" / "tiles", root / "assets" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "tests" / "data" / "tiled", root / "data", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("pyweek27", "rs-tiled", "cases", "bad"))
    for case in cases()["play-state"]:
        _write_play_state(root / case.map, case.pair)
    return {case.target: (root / case.target).read_bytes() for group in cases().values() for case in group}


def _write_play_state(map_path: Path, pair: tuple[str, str] | None) -> None:
    """A play state as the window writes it: a figure moved, a door cycled, an attack rolled."""
    from game.core.board import Edge
    from game.play.attack import AttackController
    from game.play.session import Session

    session = Session.open(map_path)
    session.seed_source = lambda: 7
    by_name = {f.name: f.id for f in session.board.state().figures}
    if pair is not None and pair[0] in by_name and pair[1] in by_name:
        session.selected = by_name[pair[0]]
        flow = AttackController(lambda: session)
        with contextlib.suppress(Exception):
            flow.set_target(by_name[pair[1]])
            flow.roll()
    for figure in session.board.state().figures:
        x, y = figure.square
        if session.move(figure.id, (x + 1, y)) is None or session.move(figure.id, (x, y + 1)) is None:
            break
    for edge in list(session.board.doors)[:1]:
        session.cycle_door(Edge.parse(str(edge)))
    session.save()
    assert session.state_file.is_file(), "the session wrote no play state"


def restore(root: Path, originals: dict[str, bytes]) -> None:
    """Put every case file back as it was and remove what a run left (set-aside play states)."""
    for target, data in originals.items():
        (root / target).write_bytes(data)
    for leftover in (root / "maps").glob("*.corrupt-*"):
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover)
        else:
            leftover.unlink()


# --- mutations ---------------------------------------------------------------------------------


def mutant(case: Case, original: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutant of a case's file and a few words on what was done."""
    text = original.decode("utf-8")
    if case.format == "tmx":
        return mutate_xml(text, rng)
    return mutate_json(text, rng)


def mutate_xml(text: str, rng: random.Random) -> tuple[bytes, str]:
    """One change to an XML file: a number attribute rewritten (nan, inf, 1e999, garbage, a
    5000-digit number ...), an attribute removed or renamed, an element removed, duplicated or
    renamed, or the whole file re-encoded (UTF-16 without a byte-order mark, Latin-1, cut short)."""
    kind = rng.choice(["number", "number", "number", "attribute", "element", "encoding"])
    if kind == "encoding":
        return _reencode(text, rng)
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


def _reencode(text: str, rng: random.Random) -> tuple[bytes, str]:
    how = rng.choice(["utf16", "latin1", "cut", "garble"])
    if how == "utf16":
        return text.encode("utf-16-le"), "encoding utf-16 without BOM"
    if how == "latin1":
        return text.replace("e", "é", 3).encode("latin-1", "replace"), "encoding latin-1"
    data = text.encode()
    if how == "cut":
        return data[: rng.randrange(1, len(data))], "cut short"
    at = rng.randrange(len(data))
    junk = rng.choice([b"\x00", b"\xff", b"}", b"]", b",", b'"', b"\\", b"<", b"&"])
    return data[:at] + junk + data[at:], f"byte {junk!r} inserted at {at}"


#: a placeholder json.dumps writes as a string, replaced by raw JSON text afterwards
_RAW_MARK = "\x00raw\x00"


def mutate_json(text: str, rng: random.Random) -> tuple[bytes, str]:
    """One change to a JSON file: a value (any, at any depth) replaced by a hostile one
    (:data:`JSON_VALUES`), a member or item removed, a member renamed, an item duplicated, a value
    wrapped in a list or an object, or the text re-encoded, cut or garbled."""
    kind = rng.choice(["value", "value", "value", "value", "remove", "rename", "duplicate", "wrap", "encoding"])
    if kind == "encoding":
        return _reencode(text, rng)
    doc = json.loads(text)
    places = list(_places(doc, ()))
    path = rng.choice(places)
    parent, key = _parent(doc, path)
    where = _shown_path(path)
    if kind == "value" or parent is None:
        raw = rng.choice(JSON_VALUES)
        if parent is None:
            return raw.encode(), f"whole document = {raw[:16]}"
        parent[key] = _RAW_MARK
        out = json.dumps(doc, indent=1).replace(json.dumps(_RAW_MARK), raw, 1)
        return out.encode(), f"{where} = {raw[:16]}"
    if kind == "remove":
        del parent[key]
        what = f"{where} removed"
    elif kind == "rename" and isinstance(parent, dict):
        parent[f"{key}x"] = parent.pop(key)
        what = f"{where} renamed"
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
        what = f"{where} duplicated"
    else:
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"value": parent[key]}
        what = f"{where} wrapped"
    return json.dumps(doc, indent=1).encode(), what


def _places(value: Any, path: tuple[Any, ...]) -> Any:
    yield path
    if isinstance(value, dict):
        for key, member in value.items():
            yield from _places(member, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _parent(doc: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    if not path:
        return None, None
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    return parent, path[-1]


def _shown_path(path: tuple[Any, ...]) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top)"


# --- runs and verdicts -------------------------------------------------------------------------


def runs(case: Case, index: int, root: Path, *, with_window: bool = False) -> list[list[str]]:
    """The commands one mutant is put through (``session MAP``: open the map for play)."""
    map_path = str(root / case.map)
    if case.format == "play-state":
        out = [["session", map_path]]
        if case.pair is not None and index % 3 == 0:
            out.append(["odds", map_path, *case.pair])
        if with_window and index % 25 == 0:
            out.append(["play", map_path, "--frames", "1"])
        return out
    out = [["check", map_path]]
    if index % 3 == 0:
        out.append(["odds", map_path, *case.pair] if case.pair else ["los", map_path, "0,0"])
    if index % 7 == 0:
        out.append(["render", map_path, "-o", str(root / "out.png")])
    return out


def open_session(map_path: str) -> tuple[int, str]:
    """``session MAP``: open the map for play as the window does (the play state is read and laid
    over the board); returns (0, every message, one per line) or (2, the refusal)."""
    from game.core.errors import SightlineError
    from game.play.session import Session

    try:
        session = Session.open(Path(map_path), defer_lint=True)
    except SightlineError as exc:
        return 2, f"sightline play: {exc}\n"
    return 0, "".join(f"{m}\n" for m in session.messages)


def run_in_process(argv: list[str]) -> tuple[int | None, str, str]:
    """Run one command here: (exit code, stderr, the exception raised or "")."""
    from game.cli import main

    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            if argv[0] == "session":
                code, said = open_session(argv[1])
                err.write(said)
            else:
                code = main(argv)
    except BaseException as exc:  # noqa: BLE001 - this is what the fuzz run looks for
        return None, err.getvalue(), "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return code, err.getvalue(), ""


def judge(case: Case, argv: list[str], code: int | None, err: str, raised: str) -> list[tuple[str, str]]:
    """What is wrong with one run's outcome, as (class, detail) pairs; empty when nothing is."""
    if raised:
        return [("internal error", raised)]
    problems: list[tuple[str, str]] = []
    if code not in (0, 1, 2):
        problems.append(("exit code", f"exit {code}"))
    said = err.strip()
    if "internal error" in said:
        problems.append(("internal error", said))
        return problems
    if argv[0] == "session":  # every message the window would show: one line each, our words
        for line in said.splitlines():
            if RAW.search(line):
                problems.append(("raw exception text", line))
            elif len(line) > MAX_MESSAGE:
                problems.append(("overlong message", line))
        return problems
    if code == 2:
        if "\n" in said:
            problems.append(("more than one line", said))
        if len(said) > MAX_MESSAGE:
            problems.append(("overlong message", f"{len(said):,} characters: {said[:200]}"))
        elif RAW.search(said):
            problems.append(("raw exception text", said))
        elif case.format == "tmx" and not NAMES.search(said):
            problems.append(("names nothing in the map", said))
        elif case.format != "tmx" and not _names_a_file(said, case):
            problems.append(("names no file", said))
    return problems


def _names_a_file(said: str, case: Case) -> bool:
    names = {Path(case.target).name, Path(case.map).name}
    return any(name in said for name in names) or bool(re.search(r"\b(?:figure|square|attack)", said))


@dataclass
class Tally:
    """Counts of a fuzz run, by format: mutants, runs, refusals, and failures by class (with the
    first few reproductions of each)."""

    mutants: dict[str, int]
    runs: dict[str, int]
    refusals: dict[str, int]
    failures: dict[str, dict[str, int]]
    examples: list[dict[str, str]]

    @classmethod
    def empty(cls) -> Tally:
        return cls({f: 0 for f in FORMATS}, {f: 0 for f in FORMATS}, {f: 0 for f in FORMATS},
                   {f: {} for f in FORMATS}, [])

    def add(self, case: Case, what: str, argv: list[str], problems: list[tuple[str, str]],
            keep: Callable[[], str] | None = None, limit: int = 5) -> None:
        """Count one run's problems (``keep`` saves the mutant and returns where, for examples)."""
        self.runs[case.format] += 1
        for kind, detail in problems:
            by_kind = self.failures[case.format]
            by_kind[kind] = by_kind.get(kind, 0) + 1
            if by_kind[kind] <= limit:
                self.examples.append({"format": case.format, "class": kind, "mutation": what,
                                      "command": " ".join([argv[0], *(Path(a).name if os.sep in a else a for a in argv[1:])]),
                                      "said": detail[:300], "file": keep() if keep else ""})

    def total(self, kind: str | None = None) -> int:
        """All failures (of one class)."""
        return sum(n for by_kind in self.failures.values() for k, n in by_kind.items() if kind in (None, k))
