"""Int-stored enums read as names from the map's Tiled project (game/tiled/project.py).

Real files: ``tests/data/tiled/project/game.tiled-project`` (enums DoorState, Side and the flags
enum Traits stored as int, Mood stored as string, a class Stats with a Traits member) above
``maps/doors.tmx`` and its JSON twin ``maps/doors.tmj``; projects written into ``tmp_path`` for
the cases that need their own folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import DoorState
from game.core.errors import MapError
from game.tiled import load_map
from game.tiled.project import EnumType, find_project, read_enums

DATA = Path(__file__).resolve().parent / "data" / "tiled" / "project"
PROJECT = DATA / "game.tiled-project"


def figures(path: Path) -> dict[str, tuple[str, dict[str, object]]]:
    board = load_map(path).board
    return {f.name: (f.side, dict(f.stats)) for f in board.figures.values()}


@pytest.mark.parametrize("name", ["doors.tmx", "doors.tmj"])
def test_int_enums_read_as_their_names_from_the_project_above_the_map(name: str) -> None:
    loaded = load_map(DATA / "maps" / name)
    assert {d.object_id: d.state for d in loaded.board.doors.values()} == {
        1: DoorState.OPEN, 2: DoorState.LOCKED, 3: DoorState.OPEN,  # 1, 2 (int) and "open" (string)
    }
    assert "door-state-number" not in {f.code for f in loaded.findings}
    found = figures(DATA / "maps" / name)
    assert found["Wraith"] == ("monsters", {"mood": "angry", "stats.traits": "flying,undead"})  # flags 5 = 1 + 4
    assert found["Knight"] == ("red", {"traits": ""})  # no flag set
    assert PROJECT.resolve() in loaded.dependencies  # an edit of the project reloads the map


def test_the_project_reader_takes_the_enums_and_their_storage() -> None:
    enums = read_enums(PROJECT)
    assert enums["DoorState"] == EnumType("DoorState", ("closed", "open", "locked"), False, "int")
    assert enums["Traits"].flags and enums["Traits"].names(6) == frozenset({"large", "undead"})
    assert enums["Mood"].storage == "string"
    assert "Stats" not in enums  # a class, not an enum


def test_an_out_of_range_index_is_one_line_naming_the_object_and_the_values() -> None:
    with pytest.raises(MapError) as caught:
        load_map(DATA / "bad" / "door_out_of_range.tmx")
    text = str(caught.value)
    assert "object 2: property 'state': 3 is not a value of the enum DoorState (0 closed, 1 open, 2 locked)" in text
    assert "\n" not in text


def test_out_of_range_through_the_cli_is_exit_2_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "bad" / "door_out_of_range.tmx")]) == 2
    err = capsys.readouterr().err
    assert "3 is not a value of the enum DoorState" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_check_through_the_cli_reads_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "maps" / "doors.tmx"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    codes = {f["code"] for m in doc["maps"] for f in m["errors"] + m["warnings"]}
    assert "door-state-number" not in codes and "door-state-unknown" not in codes


def copy_map(folder: Path, name: str = "doors.tmx") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(DATA / "maps" / name, folder / name))


def project(path: Path, *types: dict[str, object]) -> Path:
    path.write_text(json.dumps({"propertyTypes": list(types)}), encoding="utf-8")
    return path


DOOR_STATE = {"id": 1, "name": "DoorState", "type": "enum", "storageType": "int",
              "values": ["closed", "open", "locked"], "valuesAsFlags": False}


def test_flag_bits_beyond_the_enum_are_one_line(tmp_path: Path) -> None:
    path = copy_map(tmp_path / "maps")
    text = path.read_text(encoding="utf-8").replace('propertytype="Traits" value="5"', 'propertytype="Traits" value="9"')
    path.write_text(text, encoding="utf-8")
    shutil.copy(PROJECT, tmp_path / "game.tiled-project")
    with pytest.raises(MapError, match=r"object 4: property 'traits': 9 sets a flag the enum Traits does not have "
                                       r"\(its flags: 1 flying, 2 large, 4 undead\)"):
        load_map(path)


def test_without_a_project_the_number_stays_and_the_door_warning_says_where_to_put_it(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    assert find_project(path) == (None, [])
    loaded = load_map(path)
    assert {d.object_id: d.state for d in loaded.board.doors.values()}[1] == DoorState.CLOSED
    warning = next(f for f in loaded.findings if f.code == "door-state-number")
    assert warning.hint is not None and ".tiled-project" in warning.hint
    assert figures(path)["Wraith"][1]["stats.traits"] == 5


def test_an_enum_the_project_does_not_define_stays_a_number(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    project(tmp_path / "other.tiled-project", DOOR_STATE)  # no Side, no Traits
    found = figures(path)
    assert found["Knight"][1] == {"traits": 0} and found["Wraith"][0] == "1"
    assert load_map(path).board.doors  # DoorState still read


def test_two_projects_in_one_folder_read_none_and_say_how_to_choose(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    project(tmp_path / "a.tiled-project", DOOR_STATE)
    project(tmp_path / "b.tiled-project", {**DOOR_STATE, "values": ["open", "closed", "locked"]})
    loaded = load_map(path)
    several = [f for f in loaded.findings if f.code == "tiled-project-several"]
    assert len(several) == 1 and several[0].hint == 'name the map\'s project in sightline.toml beside the map: project = "a.tiled-project"'
    # sightline.toml names one: its names are read
    (tmp_path / "sightline.toml").write_text('project = "b.tiled-project"\n', encoding="utf-8")
    loaded = load_map(path)
    assert {d.object_id: d.state for d in loaded.board.doors.values()}[1] == DoorState.CLOSED  # b: 1 is closed
    assert "tiled-project-several" not in {f.code for f in loaded.findings}


def test_a_broken_or_missing_named_project_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_map(tmp_path)
    (tmp_path / "game.tiled-project").write_text('{"propertyTypes": [', encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game.tiled-project: the Tiled project is not valid JSON" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "game.tiled-project").unlink()
    (tmp_path / "sightline.toml").write_text('project = "gone.tiled-project"\n', encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "gone.tiled-project" in err and "not found" in err and len(err.strip().splitlines()) == 1


def test_a_map_without_enum_properties_never_reads_the_project(tmp_path: Path) -> None:
    (tmp_path / "game.tiled-project").write_text("not json", encoding="utf-8")
    plain = tmp_path / "plain.tmx"
    plain.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" width="2" height="2"'
        ' tilewidth="32" tileheight="32" infinite="0"><objectgroup id="1" name="o"/></map>\n', encoding="utf-8")
    assert load_map(plain).board.width == 2
