"""The Tiled extension in the real editor: a headless Tiled saves a map, the extension checks it.

Runs only where the ``tiled`` program exists (Debian package ``tiled``; ``.ci/run`` installs it).
``sightline tiled install --dir`` puts the real extension into a private Tiled config folder (own
HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, ``QT_QPA_PLATFORM=offscreen``) beside the test-only
``tests/tiled/harness.js``. Tiled is started with no file; a second ``tiled MAP`` hands the copy of
``tests/tiled/three_defects.tmx`` to it. The harness then saves it (the extension's save hook runs
``sightline check --json``), activates every issue posted, checks an unreadable map and a missing
program, writes what happened to a JSON file, and quits. Every wait is bounded.

The map is ``tests/data/lint/clean.tmx`` (no findings) plus three planted defects: wall 11 off the
grid, door 12 in the middle of a square, figure 13 on a void square. Its objects use ``type=``,
which Tiled 1.8 keeps on save (it drops the ``class=`` of maps written by Tiled 1.9+).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.tiled_editor import _wait_for, hand_map, headless_env

from game.cli import main
from game.commands.tiled import EXTENSION, PROGRAM_LINE

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "tiled" / "harness.js"
MAP = HERE / "tiled" / "three_defects.tmx"
BROKEN = HERE / "data" / "lint" / "truncated.tmx"
CLASS_MAP = HERE / "data" / "lint" / "clean.tmx"  # written by Tiled 1.10: class="wall"
TILED = shutil.which("tiled")
#: a map name that runs commands if any shell reads it (issue #27 item 11)
HOSTILE_NAME = "a&calc&;$(touch pwned)`touch pwned2`%PATH%.tmx"
#: the stand-in program for "open in Sightline": it writes the arguments it was given
RECORDER = ("import json, os, sys\n"
            "with open(os.environ['SIGHTLINE_TEST_RECORDED'], 'w') as f:\n"
            "    json.dump(sys.argv[1:], f)\n")
#: the planted defects: object id -> the finding's code
PLANTED = {11: "wall-off-grid", 12: "door-not-on-edge", 13: "figure-in-void"}

NO_TILED = "the tiled program is not installed (Debian/Ubuntu: apt-get install tiled; .ci/run installs it)"


@pytest.fixture(scope="module")
def tiled_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Install, run the headless Tiled once, and return the harness's results."""
    if TILED is None:
        pytest.skip(NO_TILED)
    root = tmp_path_factory.mktemp("tiled")
    home, config, runtime = root / "home", root / "config", root / "runtime"
    for folder in (home, config, runtime):
        folder.mkdir()
    runtime.chmod(0o700)
    extensions = config / "tiled" / "extensions"
    assert main(["tiled", "install", "--dir", str(extensions)]) == 0
    shutil.copy(HARNESS, extensions / "harness.js")
    work = root / "maps"
    work.mkdir()
    map_copy = work / "three_defects.tmx"
    shutil.copy(MAP, map_copy)
    broken = work / "broken.tmx"
    shutil.copy(BROKEN, broken)
    class_map = work / "from_tiled_1_10.tmx"
    shutil.copy(CLASS_MAP, class_map)
    hostile = work / HOSTILE_NAME
    shutil.copy(MAP, hostile)
    recorded = root / "recorded.json"
    recorder = root / "recorder"
    recorder.write_text(f"#!{sys.executable}\n" + RECORDER, encoding="utf-8")
    recorder.chmod(0o755)
    results = root / "results.json"
    env = headless_env(  # no sightline on its PATH: the extension must use the installed path
        home, config, runtime, SIGHTLINE_TEST_RESULTS=str(results), SIGHTLINE_TEST_BROKEN_MAP=str(broken),
        SIGHTLINE_TEST_CLASS_MAP=str(class_map), SIGHTLINE_TEST_HOSTILE_MAP=str(hostile),
        SIGHTLINE_TEST_RECORDER=str(recorder), SIGHTLINE_TEST_RECORDED=str(recorded),
    )
    assert TILED is not None
    hand_map(TILED, env, map_copy, results, root / "tiled.log")  # the harness quits Tiled
    doc: dict[str, object] = json.loads(results.read_text(encoding="utf-8"))
    doc["_map"] = str(map_copy)
    doc["_broken"] = str(broken)
    doc["_class_map_text"] = class_map.read_text(encoding="utf-8")
    doc["_saved_text"] = map_copy.read_text(encoding="utf-8")
    doc["_extension"] = (extensions / "sightline.js").read_text(encoding="utf-8")
    doc["_hostile"] = str(hostile)
    doc["_recorded"] = json.loads(recorded.read_text(encoding="utf-8")) if recorded.exists() else None
    doc["_pwned"] = sorted(str(p) for p in root.rglob("pwned*")) + sorted(str(p) for p in Path.cwd().glob("pwned*"))
    return doc


def test_install_writes_this_sightline_into_the_copy(tiled_run: dict[str, object]) -> None:
    program = tiled_run["installed_program"]
    assert isinstance(program, str) and Path(program).is_absolute() and Path(program).is_file()
    assert Path(program).parent == Path(sys.executable).parent
    assert f'var SIGHTLINE_PROGRAM = {json.dumps(program)};' in str(tiled_run["_extension"])


def test_saving_posts_exactly_the_three_planted_defects(tiled_run: dict[str, object]) -> None:
    assert "exception" not in tiled_run, tiled_run.get("exception")
    assert tiled_run["tiled"] and tiled_run["actions"] == ["SightlineCheck", "SightlineLos", "SightlineOpen"]
    assert 'name="saved_by_test"' in str(tiled_run["_saved_text"])  # Tiled really saved the file
    saved = tiled_run["saved"]
    assert isinstance(saved, list)
    assert sorted(issue["object_id"] for issue in saved) == sorted(PLANTED)
    for issue in saved:
        assert issue["severity"] == "error"
        assert issue["file"] == tiled_run["_map"]
        text = issue["text"]
        assert text.startswith("Sightline: three_defects.tmx: object ")
        assert f"object {issue['object_id']}" in text and f"[{PLANTED[issue['object_id']]}]" in text
    figure = next(issue for issue in saved if issue["object_id"] == 13)
    assert figure["square"] == [5, 3] and "object 13 (5,3):" in figure["text"]
    check = tiled_run["check"]
    assert isinstance(check, dict)
    assert check["errors"] == 3 and check["warnings"] == 0 and check["exitCode"] == 1


def test_activating_an_issue_selects_its_object(tiled_run: dict[str, object]) -> None:
    assert tiled_run["selected_before"]["objects"] == []  # type: ignore[index]
    activated = tiled_run["activated"]
    assert isinstance(activated, dict)
    assert set(activated) == {str(i) for i in PLANTED}
    for object_id, selection in activated.items():
        assert selection["objects"] == [int(object_id)]
        assert selection["layer"] == "objects"
    assert tiled_run["selected_after_clear"]["objects"] == []  # type: ignore[index]


def test_an_unreadable_map_and_a_missing_program_are_one_issue_each(tiled_run: dict[str, object]) -> None:
    unreadable = tiled_run["unreadable"]
    assert isinstance(unreadable, list) and len(unreadable) == 1
    assert unreadable[0]["severity"] == "error"
    assert unreadable[0]["text"].startswith("Sightline: cannot read broken.tmx: ")
    assert "not well-formed XML" in unreadable[0]["text"]
    missing = tiled_run["missing"]
    assert isinstance(missing, list) and len(missing) == 1
    assert "cannot find the sightline program" in missing[0]["text"]
    assert "sightline tiled install" in missing[0]["text"]


def test_a_square_finding_selects_that_square(tiled_run: dict[str, object]) -> None:
    assert tiled_run["square"]["area"] == [2, 1, 1, 1]  # type: ignore[index]
    assert tiled_run["square"]["objects"] == []  # type: ignore[index]


def test_line_of_sight_from_the_selection(tiled_run: dict[str, object]) -> None:
    pair = tiled_run["los_pair"]
    assert isinstance(pair, list) and len(pair) == 1
    assert pair[0].startswith("Sightline: Ann (object 4) on (1,1) -> Goblin (object 5) on (4,1): ")
    fov = tiled_run["los_fov"]
    assert isinstance(fov, list) and len(fov) == 2
    assert fov[0].startswith("Sightline: Ann (object 4) on (1,1) sees ") and "square(s)" in fov[0]
    png = Path(str(tiled_run["_map"])).with_name("three_defects-fov-1-1.png")
    assert fov[1] == f"Sightline: field of view drawn in {png}"
    assert png.read_bytes().startswith(b"\x89PNG")


def test_opening_a_map_from_tiled_1_9_in_tiled_1_8_warns_once(tiled_run: dict[str, object]) -> None:
    posted = tiled_run["class_map"]
    assert isinstance(posted, list)
    if not str(tiled_run["tiled"]).startswith("1.8."):
        assert posted == []  # Tiled 1.9+ keeps class= on save: nothing to warn about
        return
    assert len(posted) == 1 and posted[0]["severity"] == "warning"
    assert posted[0]["text"].startswith("Sightline: from_tiled_1_10.tmx was written by Tiled 1.9 or later")
    assert 'class="wall"' in str(tiled_run["_class_map_text"])  # only opened, never saved


def test_open_in_sightline_starts_the_program_itself_never_a_shell(tiled_run: dict[str, object]) -> None:
    """Item 11: every platform gets ``PROGRAM play --detach MAP``; on Windows only a .exe."""
    launches = tiled_run["launch"]
    assert isinstance(launches, list) and len(launches) == 3 * 5 * 4
    for launch in launches:
        command = launch["command"]
        if launch["platform"] == "windows" and not launch["program"].lower().endswith(".exe"):
            assert set(command) == {"problem"}, launch
            assert command["problem"].startswith(f"Sightline: {launch['program']} is not a .exe program; ")
            assert "sightline tiled install" in command["problem"]
        else:
            assert command == {"program": launch["program"], "args": ["play", "--detach", launch["map"]]}, launch


def test_open_in_sightline_hands_a_hostile_map_name_over_as_it_is(tiled_run: dict[str, object]) -> None:
    assert tiled_run["opened_file"] == tiled_run["_hostile"]
    assert tiled_run["_recorded"] == ["play", "--detach", tiled_run["_hostile"]]
    opened = tiled_run["opened"]
    assert isinstance(opened, dict) and opened["started"] and opened["exitCode"] == 0 and opened["said"] == ""
    assert tiled_run["_pwned"] == []  # no shell ran $(...) or `...`


def test_play_detach_starts_the_window_and_returns_at_once(tmp_path: Path) -> None:
    """The window ``--detach`` starts outlives the command: here it runs 2 frames and saves them."""
    hostile = tmp_path / HOSTILE_NAME
    shutil.copy(MAP, hostile)
    shot = tmp_path / "shot.png"
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "game", "play", "--detach", str(hostile), "--frames", "2",
                           "--screenshot", str(shot)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr
    assert time.monotonic() - started < 30
    assert _wait_for(shot, 60) and shot.read_bytes().startswith(b"\x89PNG")
    assert not list(tmp_path.glob("pwned*"))


def test_play_detach_refuses_a_missing_map_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--detach", str(tmp_path / "none.tmx")]) == 2
    assert capsys.readouterr().err == f"sightline play: no such map: {tmp_path / 'none.tmx'}\n"


# --- `sightline tiled install` without Tiled -------------------------------------------------


def test_install_goes_to_the_xdg_config_folder_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if sys.platform.startswith("win") or sys.platform == "darwin":
        pytest.skip("the XDG folder is the Linux/Unix default")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert main(["tiled", "install"]) == 0
    target = tmp_path / "cfg" / "tiled" / "extensions" / EXTENSION
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"installed the Sightline extension for Tiled: {target}"
    text = target.read_text(encoding="utf-8")
    source = (HERE.parent / "extras" / "tiled" / EXTENSION).read_text(encoding="utf-8")
    assert PROGRAM_LINE.sub("", text) == PROGRAM_LINE.sub("", source)  # only that line differs
    assert 'var SIGHTLINE_PROGRAM = "";' in source and 'var SIGHTLINE_PROGRAM = "";' not in text
    assert main(["tiled", "install"]) == 0  # installing again replaces the copy
    assert sorted(p.name for p in target.parent.iterdir()) == [EXTENSION]


def test_install_into_a_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "extensions"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["tiled", "install", "--dir", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err == f"sightline tiled: --dir {blocker} is a file, not a folder (name the extensions folder)\n"
    assert main(["tiled"]) == 2
    assert "required: ACTION" in capsys.readouterr().err


def test_the_wheel_ships_the_extension(wheel_packages: list[str]) -> None:
    import tomllib

    setuptools = tomllib.loads((HERE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    package = "game._bundled.tiled"
    assert package in wheel_packages
    folder = HERE.parent / setuptools["package-dir"][package]
    shipped = {p for glob in setuptools["package-data"][package] for p in folder.glob(glob)}
    assert folder / EXTENSION in shipped
