"""Issue #27's hostile inputs (items 7-10, 12-14): each reproduction is a file and a real command,
and each test states the fixed behaviour. The files are in ``tests/data/hostile/`` (listed in its
README) or generated here when large.

Fixed behaviour, everywhere: one line in our words (exit 2) or the map's findings (exit 0/1), never
an internal error, never Python's own message text (``tests/fuzzing.py``'s ``RAW``), never more
than 20 s (the Tiled extension's limit) or 2 GB. A command that could hang or eat memory runs in a
child process under ``RLIMIT_AS`` and a time limit, so a failing test fails fast.

The tests not fixed yet are ``xfail(strict=True)``: the fix belongs in ``game/tiled/`` (the reader
being rebuilt now), and the fix phase turns them green. Each reason names the item.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzzing import RAW
from support.pictures import huge_png

from game.cli import main

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "data" / "hostile"
TILED = HERE / "data" / "tiled"
LIMIT_S = 20.0
LIMIT_GB = 2.0


def reader_lands(item: str) -> pytest.MarkDecorator:
    """The mark of a reproduction the reader's rebuild fixes."""
    return pytest.mark.xfail(strict=True, reason=f"#27 item {item}: fixed when the reader lands")


@dataclass(frozen=True)
class Outcome:
    """What one command did: exit code (None: stopped), stdout, stderr, seconds."""

    code: int | None
    out: str
    err: str
    seconds: float


def run_limited(argv: list[str], *, cwd: Path, timeout: float = LIMIT_S, memory_gb: float = LIMIT_GB) -> Outcome:
    """``sightline ARGV`` in a child process under ``RLIMIT_AS`` = ``memory_gb`` and ``timeout``."""
    limit = int(memory_gb * 1024**3)

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("SIGHTLINE_DEBUG", None)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "game", *argv], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return Outcome(None, "", f"stopped after {timeout:g} s", timeout)
    return Outcome(done.returncode, done.stdout, done.stderr, time.monotonic() - started)


def run_here(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Outcome:
    """``sightline ARGV`` in this process (for inputs that cannot hang or grow)."""
    os.environ.pop("SIGHTLINE_DEBUG", None)
    started = time.monotonic()
    code = main(argv)
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err, time.monotonic() - started)


def assert_refused(outcome: Outcome, *words: str) -> str:
    """Exit 2 with one line in our words holding every one of ``words``; returns the line."""
    line = outcome.err.strip()
    assert outcome.code == 2, outcome
    assert line and "\n" not in line, outcome.err
    assert not RAW.search(line), line
    for word in words:
        assert word in line, (word, line)
    return line


def assert_bounded(outcome: Outcome) -> None:
    """Finished within the limits: exit 0/1 (findings) or one line in our words (exit 2)."""
    assert outcome.code is not None, f"over {LIMIT_S:g} s"
    assert "MemoryError" not in outcome.err and "internal error" not in outcome.err, outcome.err[-400:]
    assert outcome.code in (0, 1, 2), outcome
    if outcome.code == 2:
        assert_refused(outcome)


# --- item 7: JSON of the wrong type --------------------------------------------------------------

WRONG_TYPES = [
    ("layers_true.tmj", "layers"),
    ("properties_true.tmj", "properties"),
    ("polyline_numbers.tmj", "polyline"),
    ("data_null.tmj", "data"),
    ("data_dict.tmj", "data"),
    ("data_nan.tmj", "NaN"),
    ("data_inf.tmj", "Infinity"),
    ("data_fraction.tmj", "data"),
    ("chunk_data_null.tmj", "data"),
    ("chunk_data_nan.tmj", "NaN"),
]


@reader_lands("7")
@pytest.mark.parametrize("command", ["check", "los", "render"])
@pytest.mark.parametrize(("name", "field"), WRONG_TYPES)
def test_a_wrong_json_type_is_one_line_naming_the_field(
        name: str, field: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = {"check": ["check", str(HOSTILE / name)], "los": ["los", str(HOSTILE / name), "0,0"],
            "render": ["render", str(HOSTILE / name), "-o", str(tmp_path / "out.png")]}[command]
    assert_refused(run_here(argv, capsys), name, field)


def test_a_folder_check_reports_every_map_even_past_one_that_fails_inside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 7: one map that fails (today inside the reader, after the fix with a refusal) never
    stops the others being checked, and ``--json`` still prints every map."""
    shutil.copy(HOSTILE / "layers_true.tmj", tmp_path / "a_bad.tmj")
    shutil.copy(TILED / "walls.tmj", tmp_path / "b_good.tmj")
    outcome = run_here(["check", "--json", str(tmp_path)], capsys)
    bad, good = json.loads(outcome.out)["maps"]
    assert (Path(bad["path"]).name, Path(good["path"]).name) == ("a_bad.tmj", "b_good.tmj")
    assert bad["error"].startswith(f"{tmp_path / 'a_bad.tmj'}: ") and "Error" not in bad["error"]
    assert good["errors"] and "error" not in good
    assert outcome.code == 2
    text = run_here(["check", str(tmp_path)], capsys)
    assert text.code == 2 and text.err.count("\n") == 1 and "b_good.tmj" in text.out


@reader_lands("7")
def test_a_folder_check_reports_every_map_past_one_with_a_wrong_json_type(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(HOSTILE / "layers_true.tmj", tmp_path / "a_bad.tmj")
    shutil.copy(TILED / "walls.tmj", tmp_path / "b_good.tmj")
    outcome = run_here(["check", "--json", str(tmp_path)], capsys)
    doc = json.loads(outcome.out)
    assert [Path(m["path"]).name for m in doc["maps"]] == ["a_bad.tmj", "b_good.tmj"]
    bad, good = doc["maps"]
    assert "layers" in bad["error"] and not RAW.search(bad["error"])
    assert good["errors"] and "error" not in good
    assert outcome.code == 2


@reader_lands("7")
@pytest.mark.parametrize(("field", "value"), [("tilewidth", [32]), ("imagewidth", [True, False])])
@pytest.mark.parametrize("map_name", ["external.tmj", "templates.tmj"])
def test_a_wrong_type_in_a_tileset_names_the_tileset_file_and_field(
        field: str, value: object, map_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzz: the refusal blamed the template that uses the tileset (``hero.tj:
    tileset outdoor has tile size 0x32``) and showed Python's ``[True, False]``."""
    tree = tmp_path / "tiled"
    shutil.copytree(TILED, tree, ignore=shutil.ignore_patterns("pyweek27", "rs-tiled", "cases"))
    doc = json.loads((tree / "outdoor.tsj").read_text(encoding="utf-8"))
    doc[field] = value
    (tree / "outdoor.tsj").write_text(json.dumps(doc), encoding="utf-8")
    line = assert_refused(run_here(["los", str(tree / map_name), "0,0"], capsys), "outdoor.tsj", field)
    assert "True" not in line


@reader_lands("7, 13")
def test_a_json_syntax_error_is_said_in_our_words(capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_refused(run_here(["check", str(HOSTILE / "syntax_error.tmj")], capsys), "syntax_error.tmj", "line 3")
    assert "Expecting" not in line


# --- item 8: integers of more than 4,300 digits in a map, a tileset, a project ------------------


def _huge(text: str, old: str) -> str:
    assert old in text
    return text.replace(old, old.split(":")[0] + ":" + "9" * 5000, 1)


@reader_lands("8")
@pytest.mark.parametrize("command", ["check", "los", "render"])
@pytest.mark.parametrize(("target", "old", "map_name"), [
    ("walls.tmj", '"width":6', "walls.tmj"),
    ("walls.tmj", '"x":32', "walls.tmj"),
    ("outdoor.tsj", '"tilecount":4', "external.tmj"),
    ("project/game.tiled-project", '"id": 1', "project/maps/doors.tmj"),
])
def test_a_5000_digit_integer_is_one_line_not_an_internal_error(
        target: str, old: str, map_name: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = tmp_path / "tiled"
    shutil.copytree(TILED, tree, ignore=shutil.ignore_patterns("pyweek27", "rs-tiled", "cases"))
    path = tree / target
    path.write_text(_huge(path.read_text(encoding="utf-8"), old), encoding="utf-8")
    map_path = str(tree / map_name)
    argv = {"check": ["check", map_path], "los": ["los", map_path, "0,0"],
            "render": ["render", map_path, "-o", str(tmp_path / "out.png")]}[command]
    assert_refused(run_here(argv, capsys), Path(target).name, "digits")


# --- item 9: one pixel budget for all a map's images ------------------------------------------------

BIG_SIDE = 7874  # 62 megapixels: under the 64-megapixel budget alone, ten of them far over it


@pytest.fixture(scope="module")
def ten_big_images(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2x1 map using ten tilesets, each one 62-megapixel image (ten files, 2.5 MB in all)."""
    folder = tmp_path_factory.mktemp("big_images")
    huge_png(folder / "big0.png", BIG_SIDE, BIG_SIDE, rgba=True)
    tilesets, gids = [], []
    columns = BIG_SIDE // 32
    for i in range(10):
        if i:
            shutil.copy(folder / "big0.png", folder / f"big{i}.png")
        first = 1 + i * columns * columns
        gids.append(first)
        tilesets.append(f'<tileset firstgid="{first}" name="big{i}" tilewidth="32" tileheight="32" '
                        f'tilecount="{columns * columns}" columns="{columns}"><image source="big{i}.png" '
                        f'width="{BIG_SIDE}" height="{BIG_SIDE}"/></tileset>')
    layers = "".join(f'<layer id="{i + 1}" name="l{i}" width="2" height="1"><data encoding="csv">{gid},{gid}</data></layer>'
                     for i, gid in enumerate(gids))
    (folder / "big.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="orthogonal" '
        'renderorder="right-down" width="2" height="1" tilewidth="32" tileheight="32" infinite="0" '
        f'nextlayerid="11" nextobjectid="1">{"".join(tilesets)}{layers}</map>\n', encoding="utf-8")
    return folder / "big.tmx"


@pytest.mark.slow
@reader_lands("9")
def test_the_pixel_budget_counts_every_image_of_the_map(ten_big_images: Path) -> None:
    """Refused before decoding (or drawn in the vector style with a warning saying why), never
    decoded until memory runs out (unlimited: 51 s and 6 GB; under 2 GB: SDL's "Out of memory")."""
    outcome = run_limited(["render", str(ten_big_images), "-o", str(ten_big_images.with_suffix(".png"))],
                          cwd=ten_big_images.parent)
    assert "Out of memory" not in outcome.err, outcome.err[-300:]
    if outcome.code == 0:
        assert "megapixel" in outcome.err, outcome.err
    else:
        assert_refused(outcome, "megapixel")


# --- item 10: wall geometry bounded by the board ---------------------------------------------------


@pytest.mark.slow
@reader_lands("10")
@pytest.mark.parametrize("name", ["wall_far.tmj", "rect_far.tmj"])
def test_a_wall_far_past_a_small_board_is_checked_in_time(name: str) -> None:
    assert_bounded(run_limited(["check", str(HOSTILE / name)], cwd=HOSTILE))


@pytest.mark.slow
@reader_lands("10")
def test_a_wall_of_100000_points_is_checked_in_linear_time(tmp_path: Path) -> None:
    points = [{"x": 32 * ((i + 1) // 2 % 2), "y": 32 * (i // 2 % 10)} for i in range(100_000)]
    doc = json.loads((HOSTILE / "wall_far.tmj").read_text(encoding="utf-8"))
    doc["layers"][0]["objects"][0]["polyline"] = points
    path = tmp_path / "long_wall.tmj"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert_bounded(run_limited(["check", str(path)], cwd=tmp_path))


# --- item 12: a Tiled project that is a pipe or a device -----------------------------------------


@reader_lands("12")
@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="POSIX pipes and devices")
@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_project_that_is_not_a_file_is_said_not_ignored(kind: str, tmp_path: Path) -> None:
    (tmp_path / "maps").mkdir()
    shutil.copy(TILED / "project" / "maps" / "doors.tmj", tmp_path / "maps" / "doors.tmj")
    project = tmp_path / "game.tiled-project"
    if kind == "pipe":
        os.mkfifo(project)
    else:
        project.symlink_to("/dev/zero")
    outcome = run_limited(["check", "--json", str(tmp_path / "maps" / "doors.tmj")], cwd=tmp_path)
    assert outcome.code is not None, "the check hung on the pipe"
    if outcome.code == 2:
        assert_refused(outcome, "game.tiled-project")
        return
    findings = [f["message"] + " " + (f["hint"] or "") for m in json.loads(outcome.out)["maps"]
                for f in m["errors"] + m["warnings"]]
    assert any("game.tiled-project" in text and "not a" in text for text in findings), findings


@reader_lands("12")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")
def test_a_sightline_toml_that_is_a_pipe_is_said_not_ignored(tmp_path: Path) -> None:
    shutil.copy(TILED / "walls.tmx", tmp_path / "walls.tmx")
    os.mkfifo(tmp_path / "sightline.toml")
    outcome = run_limited(["check", "--json", str(tmp_path / "walls.tmx")], cwd=tmp_path)
    assert outcome.code is not None, "the check hung on the pipe"
    if outcome.code == 2:
        assert_refused(outcome, "sightline.toml")
        return
    findings = [f["message"] for m in json.loads(outcome.out)["maps"] for f in m["errors"] + m["warnings"]]
    assert any("sightline.toml" in text for text in findings), findings


# --- item 13: no raw library text --------------------------------------------------------------------


@reader_lands("13")
def test_a_toml_syntax_error_is_said_in_our_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(TILED / "walls.tmx", tmp_path / "walls.tmx")
    (tmp_path / "sightline.toml").write_text('preset = "tuxemon"\nclasses = [\n', encoding="utf-8")
    line = assert_refused(run_here(["check", str(tmp_path / "walls.tmx")], capsys), "sightline.toml")
    assert re.search(r"\bline \d+", line) and "Invalid value" not in line and "at end of document" not in line


@reader_lands("13")
@pytest.mark.parametrize("command", ["check", "odds"])
def test_a_refusal_never_quotes_a_5000_digit_attribute_in_full(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The one line stays a sentence: a hostile value is shown cut short (the fuzz found it)."""
    text = (TILED / "figures.tmx").read_text(encoding="utf-8")
    path = tmp_path / "wide.tmx"
    path.write_text(text.replace('width="5"', 'width="' + "9" * 5000 + '"', 1), encoding="utf-8")
    argv = ["check", str(path)] if command == "check" else ["odds", str(path), "Alice", "Bob"]
    line = assert_refused(run_here(argv, capsys), "wide.tmx")
    assert len(line) < 1000, f"{len(line):,} characters"


@reader_lands("13")
def test_corrupt_zlib_data_is_said_in_our_words(capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_refused(run_here(["check", str(HOSTILE / "zlib_corrupt.tmx")], capsys), "zlib_corrupt.tmx", "ground")
    assert "Error -3" not in line and "while decompressing" not in line


# --- item 14: sizes that finish, template cycles -----------------------------------------------------


@pytest.mark.slow
@reader_lands("14")
def test_an_infinite_map_of_two_far_chunks_is_checked_in_time(tmp_path: Path) -> None:
    chunk = {"width": 16, "height": 16, "data": [1] * 256}
    doc = {"type": "map", "orientation": "orthogonal", "renderorder": "right-down", "width": 16, "height": 16,
           "tilewidth": 32, "tileheight": 32, "infinite": True, "nextlayerid": 2, "nextobjectid": 1,
           "tilesets": [{"firstgid": 1, "name": "tiles", "tilewidth": 32, "tileheight": 32, "tilecount": 4,
                         "columns": 2, "image": str(TILED / "tiles.png"), "imagewidth": 64, "imageheight": 64,
                         "margin": 0, "spacing": 0}],
           "layers": [{"type": "tilelayer", "id": 1, "name": "ground", "x": 0, "y": 0, "width": 16, "height": 16,
                       "startx": 0, "starty": 0, "opacity": 1, "visible": True,
                       "chunks": [dict(chunk, x=0, y=0), dict(chunk, x=1984, y=1984)]}]}
    path = tmp_path / "far_chunks.tmj"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert_bounded(run_limited(["check", str(path)], cwd=tmp_path))


@reader_lands("14")
@pytest.mark.parametrize(("name", "files"), [("uses_a.tmx", ("a.tx", "b.tx")), ("uses_self.tmx", ("self.tx",))])
def test_a_template_cycle_is_a_finding(name: str, files: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    outcome = run_here(["check", "--json", str(HOSTILE / "cycle" / name)], capsys)
    if outcome.code == 2:
        assert_refused(outcome, "template", *files)
        return
    maps = json.loads(outcome.out)["maps"]
    texts = [f["message"] for m in maps for f in m["errors"] + m["warnings"]]
    assert any("template" in t and all(f in t for f in files) for t in texts), texts
