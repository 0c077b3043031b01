"""Play-state robustness (issue #15 items 7, 9, 10, 11): what a state file may say is checked and
bounded, restored positions are checked like moves, our stale temporary files are cleaned, a
folder check reports every map, live reload keeps the last good board."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Board, Figure
from game.play.atomic import clean_leftovers
from game.play.savestate import FORMAT, MAX_TEXT, PlayState, load_state, state_path
from game.play.session import Session

REPO = Path(__file__).resolve().parent.parent


def state_doc(**extra: object) -> dict[str, object]:
    return {"format": FORMAT, "version": 1, "figures": {}, "doors": [], "log": [], "roll_log": [],
            "dice_seed": 7, **extra}


def copy_map(tmp_path: Path, name: str = "folklore") -> Path:
    (tmp_path / "maps").mkdir(exist_ok=True)
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "maps" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "assets" / "tiles", tmp_path / "assets" / "tiles", dirs_exist_ok=True)
    target = tmp_path / "maps" / f"{name}.tmx"
    shutil.copy(REPO / "maps" / f"{name}.tmx", target)
    return target


@pytest.mark.parametrize("text", [
    '{"format": "sightline-play-state", "version": 1, "dice_seed": Infinity}',
    '{"format": "sightline-play-state", "version": 1, "figures": {"15": {"stats": {"hp": NaN}}}}',
    '{"format": "sightline-play-state", "version": 1, "figures": {"15": {"square": [1e999, 0]}}}',
])
def test_a_state_file_with_non_finite_numbers_is_set_aside(tmp_path: Path, text: str) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text(text)
    found = load_state(path)
    assert found.state is None and "kept as m.sightline.json.corrupt-1" in (found.message or "")
    assert not path.exists() and (tmp_path / "m.sightline.json.corrupt-1").exists()


@pytest.mark.parametrize(("entry", "words"), [
    ({"dice": {"seed": 7, "draws": "x"}},
     'expected a whole number from 0 to 1000000 at roll_log[0].dice.draws, found "x"'),
    ({"dice": {"seed": 7, "draws": 20_000_000}},
     "expected a whole number from 0 to 1000000 at roll_log[0].dice.draws, found 20000000"),
    ("just text", 'expected an object at roll_log[0], found "just text"'),
])
def test_roll_log_entries_are_validated(tmp_path: Path, entry: object, words: str) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text(json.dumps(state_doc(roll_log=[entry])))
    found = load_state(path)
    assert found.state is None and words in (found.message or ""), found.message


def test_long_log_lines_are_cut_to_what_the_window_draws(tmp_path: Path) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text(json.dumps(state_doc(log=["x" * 40_000],
                                         roll_log=[{"summary": "y" * 40_000, "faces": {"hit": [1, 2]}}])))
    state = load_state(path).state
    assert state is not None
    assert len(state.log[0]) == MAX_TEXT and state.log[0].endswith("…")
    assert len(state.roll_log[0]["summary"]) == MAX_TEXT


def test_restored_positions_respect_capacity_and_say_what_was_not_restored() -> None:
    board = Board.from_ascii(["....", "...."], capacity=2)
    for fid in range(1, 5):
        board.place_figure(Figure(fid, f"F{fid}", "red", (fid - 1, 1)))
    play = PlayState.from_json(state_doc(figures={str(f): {"square": [0, 0]} for f in range(1, 5)}))
    notes = play.apply(board)
    on_target = [f.id for f in board.figures.values() if f.square == (0, 0)]
    assert len(on_target) == 2
    assert sum("already holds 2 figures (capacity 2)" in n for n in notes) == 2


def test_stale_temporary_files_of_our_naming_are_cleaned_at_start_up(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    folder = path.parent
    state = state_path(path)
    stale = [folder / f".{state.name}.{n:08x}.tmp" for n in range(5)]
    fresh = folder / f".{state.name}.deadbeef.tmp"
    other = folder / f".{state.name}.not-ours.tmp"
    for p in [*stale, fresh, other]:
        p.write_text("{")
    old = time.time() - 3600
    for p in [*stale, other]:
        os.utime(p, (old, old))
    Session.open(path)
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and other.exists()  # a writer may still be at work; not our name
    assert clean_leftovers(state, older_than=0) == 1 and not fresh.exists()


def test_a_folder_check_reports_every_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_map(tmp_path).parent
    (folder / "folklore.tmx").unlink()
    text = (REPO / "maps" / "folklore.tmx").read_text()
    bad = text.replace('name="valour" type="int" value="4"', 'name="valour" type="float" value="nan"', 1)
    assert bad != text
    (folder / "a_nan.tmx").write_text(bad)
    (folder / "b_good.tmx").write_text(text)
    code = main(["check", str(folder), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert [Path(m["path"]).name for m in doc["maps"]] == ["a_nan.tmx", "b_good.tmx"]
    assert all("error" not in m for m in doc["maps"])
    assert code == 1
    assert any(e["code"] == "property-value" and "valour" in e["message"] for e in doc["maps"][0]["errors"])


def test_live_reload_of_a_non_finite_stat_keeps_the_window_going(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    session = Session.open(path)
    text = path.read_text()
    path.write_text(text.replace('name="valour" type="int" value="4"', 'name="valour" type="float" value="inf"', 1))
    assert session.reload()
    assert any(f.code == "property-value" for f in session.findings)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder: the refusal cannot be staged")
def test_an_unreadable_subfolder_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "locked").mkdir()
    shutil.copy(REPO / "maps" / "folklore.tmx", tmp_path / "ok.tmx")
    os.chmod(tmp_path / "locked", 0)
    try:
        assert main(["check", str(tmp_path)]) == 2
        assert "cannot read this folder" in capsys.readouterr().err
    finally:
        os.chmod(tmp_path / "locked", 0o755)


# --- issue #27 items 8, 12, 13, 14: hostile play-state files ------------------------------------

#: Python's own message shapes; a set-aside note says what is wrong in our words instead
PYTHON_WORDS = ("invalid literal", "too many values to unpack", "not enough values", "is not a valid",
                "[Errno", "Expecting", "Exceeds the limit", "object is not", "NoneType", "maximum recursion")
BASE = '{"format": "sightline-play-state", "version": 1'


@pytest.mark.parametrize(("text", "reason"), [
    (BASE + ', "dice_seed": ' + "9" * 5000 + "}", "not JSON: line 1, column 63: a number has 5000 digits (at most 40)"),
    (BASE + ', "log": ' + "[" * 5000 + "]" * 5000 + "}", "not JSON: line 1, column 156: lists and objects are nested more than 100 deep"),
    (BASE + ', "figures": true}', "expected an object at figures, found true"),
    (BASE + ', "figures": {"x": {}}}', 'expected a figure\'s object id (a whole number) as a name in figures, found "x"'),
    (BASE + ', "figures": {"15": {"square": [3.7, 2.2]}}}', "expected a whole number from 0 to 1000000 at figures.15.square[0], found 3.7"),
    (BASE + ', "figures": {"15": {"square": [1]}}}', "expected a list of 2 whole numbers at figures.15.square, found a list of 1 item"),
    (BASE + ', "figures": {"15": {"stats": {"hp": 1e308}}}}', "expected a number from -1000000 to 1000000 at figures.15.stats.hp, found 1e+308"),
    (BASE + ', "doors": [{"edge": "V(1,1)", "state": "ajar"}]}', 'expected closed, open or locked at doors[0].state, found "ajar"'),
    (BASE + ', "doors": [{"edge": "V(1e5,1)", "state": "open"}]}', 'expected an edge written V(x,y) or H(x,y) at doors[0].edge, found "V(1e5,1)"'),
    (BASE + ', "doors": {"edge": "V(1,1)"}}', "expected a list at doors, found an object"),
    (BASE + ', "log": [1]}', "expected text at log[0], found 1"),
    (BASE + ', "dice": {"seed": 1.5}}', "expected a whole number from -9223372036854775808 to 9223372036854775808 at dice.seed, found 1.5"),
    ('{"format": "sightline-play-state", "version": "1"}', 'expected a whole number equal to 1 at version, found "1"'),
    ("{not json", "not JSON: line 1, column 2: a comma stands before a closing bracket, or a name in double quotes is missing"),
])
def test_a_hostile_state_file_is_set_aside_with_one_line_in_our_words(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text(text)
    found = load_state(path)
    assert found.state is None
    assert found.message == f"saved play state m.sightline.json was unusable ({reason}); kept as m.sightline.json.corrupt-1, starting fresh"
    assert not any(words in found.message for words in PYTHON_WORDS)
    assert (tmp_path / "m.sightline.json.corrupt-1").read_text() == text


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _folder(path: Path) -> None:
    (path / "inside").mkdir(parents=True)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="POSIX pipes and devices")
@pytest.mark.parametrize(("make", "kind"), [(_fifo, "a named pipe"), (_zero, "a device"), (_folder, "a folder")])
def test_a_pipe_a_device_or_a_folder_is_set_aside_unopened_and_the_map_opens_again(
        tmp_path: Path, make: object, kind: str) -> None:
    """Run in a child process with a time limit: a pipe that blocked the read would hang here."""
    path = copy_map(tmp_path)
    state = state_path(path)
    assert callable(make)
    make(state)
    script = (
        "import sys, json; from game.play.session import Session\n"
        "s = Session.open(sys.argv[1]); print(json.dumps(s.messages))\n"
        "s.save(); t = Session.open(sys.argv[1]); print(json.dumps(t.messages))\n"
    )
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == [f"saved play state folklore.sightline.json was unusable (it is {kind}, not a file); "
                     "kept as folklore.sightline.json.corrupt-1, starting fresh"]
    assert second == []  # the autosave wrote a real file; the next session opens it quietly
    aside = state.with_name(state.name + ".corrupt-1")
    assert os.path.lexists(aside) and state.is_file() and not state.is_symlink()


def test_an_oversized_state_file_is_set_aside_without_reading_it(tmp_path: Path) -> None:
    from game.play import savestate

    path = tmp_path / "m.sightline.json"
    with path.open("wb") as handle:
        handle.truncate(savestate.MAX_STATE_BYTES + 1)  # sparse: nothing to read, 32 MiB long
    found = load_state(path)
    assert found.message == ("saved play state m.sightline.json was unusable (it is 32.0 MiB, over the "
                             "32.0 MiB a play state may have); kept as m.sightline.json.corrupt-1, starting fresh")


def test_restored_squares_and_stats_are_what_the_file_says_or_nothing(tmp_path: Path) -> None:
    """Item 14: no rounding of a square, no stat the rules would refuse."""
    path = tmp_path / "m.sightline.json"
    path.write_text(json.dumps(state_doc(figures={"15": {"square": [3.0, 2], "stats": {"hp": 7, "note": "x"}}})))
    state = load_state(path).state
    assert state is not None and state.figures[15].square == (3, 2) and state.figures[15].stats == {"hp": 7, "note": "x"}
    assert all(type(v) is int for v in state.figures[15].square or ())
