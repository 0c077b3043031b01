"""``sightline export`` and the round trip: Tiled → Universal VTT / Foundry → Sightline, through load_map.

A board exported and read back by ``load_map`` (the VTT reader's records, the one derivation) must
be the same board, with the same line of sight from every square.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.core import los
from game.core.board import Board
from game.tiled import load_map
from game.tiled.foundry import read_foundry

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
MAPS = [REPO / "maps" / "demo.tmx", REPO / "maps" / "conquest.tmx", DATA / "tiled" / "doors.tmx",
        DATA / "tiled" / "walls.tmx", DATA / "tiled" / "figures.tmx", DATA / "vtt" / "uvtt" / "room.tmx"]


def same_board(board: Board) -> dict[str, Any]:
    """What must survive the round trip (a wall under a door is the door's, so it is left out)."""
    doors = {e: d.state for e, d in board.doors.items()}
    walls = set(board.walls) - set(doors)
    return {
        "size": (board.width, board.height), "walls": walls, "doors": doors,
        "windows": set(board.windows) - walls - set(doors), "blocked": board.blocked, "void": board.void,
        "impassable": board.impassable, "door squares": dict(board.door_squares),
        "figures": sorted((f.name, f.side, f.square, dict(f.stats)) for f in board.figures.values()),
        "properties": dict(board.properties), "capacity": board.capacity, "ruleset": board.ruleset,
    }


def fields_of_view(board: Board) -> dict[tuple[int, int], object]:
    """What every on-board square sees (with no viewer: every figure counts)."""
    return {sq: los.visible_from(board, sq).tobytes() for sq in board.squares() if board.on_board(sq)}


def export(tmp_path: Path, map_path: Path, target: str, capsys: pytest.CaptureFixture[str],
           *options: str) -> tuple[Path, str]:
    out = tmp_path / (map_path.stem + (".dd2vtt" if target == "uvtt" else ".json"))
    code = main(["export", str(map_path), "--to", target, str(out), "--scale", "20", *options])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return out, captured.out


@pytest.mark.parametrize("map_path", MAPS, ids=lambda p: p.name)
@pytest.mark.parametrize("target", ["uvtt", "foundry"])
def test_a_tiled_board_comes_back_the_same(tmp_path: Path, map_path: Path, target: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    tiled = load_map(map_path).board
    out, _ = export(tmp_path, map_path, target, capsys)
    loaded = load_map(out)
    assert same_board(loaded.board) == same_board(tiled)
    assert fields_of_view(loaded.board) == fields_of_view(tiled)
    assert [f for f in loaded.findings if f.code.startswith("vtt-")] == []  # read without a word


@pytest.mark.parametrize("target", ["uvtt", "foundry"])
def test_impassable_and_door_squares_come_back_too(tmp_path: Path, target: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The roguelike case map read with its preset: wall tiles (blocked), door squares closed and
    open, water (impassable): the squares' layer of the VTT reader gives them back."""
    case = DATA / "tiled" / "cases" / "roguelike.tmx"
    tiled = load_map(case, preset="roguelike").board
    assert tiled.impassable and tiled.door_squares and tiled.blocked  # the case has each role
    out, _ = export(tmp_path, case, target, capsys, "--preset", "roguelike")
    loaded = load_map(out)
    assert same_board(loaded.board) == same_board(tiled)
    assert fields_of_view(loaded.board) == fields_of_view(tiled)
    assert loaded.stats["tile_layers"] == 1 and loaded.stats["impassable"] == len(tiled.impassable)


def test_the_axis_aligned_dungeondraft_room_sees_as_its_tiled_twin() -> None:
    """room.dd2vtt (walls stopping at the portals, a window, a pillar outline) and room.tmx (the
    same board drawn in Tiled): the same board, the same line of sight from every square."""
    tiled = load_map(DATA / "vtt" / "uvtt" / "room.tmx").board
    uvtt = load_map(DATA / "vtt" / "uvtt" / "room.dd2vtt").board
    assert same_board(uvtt) == same_board(tiled)
    assert fields_of_view(uvtt) == fields_of_view(tiled)


def test_the_uvtt_file_has_the_formats_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, printed = export(tmp_path, REPO / "maps" / "demo.tmx", "uvtt", capsys)
    assert printed.splitlines() == [
        f"wrote {out}: 15x15 squares, 58 wall edges, 10 doors, 3 window edges, picture at 20 pixels per square",
        "note: Universal VTT has no tokens; the 14 figures are kept for Sightline only",
    ]
    doc = json.loads(out.read_text())
    assert doc["resolution"] == {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 15, "y": 15}, "pixels_per_grid": 20}
    picture = base64.b64decode(doc["image"])
    assert picture[:8] == b"\x89PNG\r\n\x1a\n" and picture[16:24] == (300).to_bytes(4, "big") * 2
    door = next(p for p in doc["portals"] if p["sightline"]["kind"] == "door")
    assert set(door) == {"position", "bounds", "rotation", "closed", "freestanding", "sightline"}
    assert all(len(line) == 2 for line in doc["line_of_sight"])


def test_the_foundry_scene_has_its_picture_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, printed = export(tmp_path, REPO / "maps" / "demo.tmx", "foundry", capsys)
    assert printed.splitlines()[0] == (
        f"wrote {out} and demo.png: 15x15 squares, 58 wall edges, 10 doors, 3 window edges, 14 tokens, "
        "grid of 20 pixels")
    doc = json.loads(out.read_text())
    assert doc["background"] == {"src": "demo.png"} and (tmp_path / "demo.png").read_bytes()[:4] == b"\x89PNG"
    assert doc["grid"] == {"type": 1, "size": 20, "distance": 5, "units": "ft"} and doc["padding"] == 0
    assert {w["door"] for w in doc["walls"]} == {0, 1}
    assert all(len(w["_id"]) == 16 and w["_id"].isalnum() for w in doc["walls"] + doc["tokens"])
    assert read_foundry(out).scene().picture is not None


@pytest.mark.parametrize(("args", "expected"), [
    (["maps/demo.tmx", "--to", "uvtt", "out.json"], "--to uvtt writes a .dd2vtt, .uvtt or .df2vtt file, not 'out.json'"),
    (["maps/demo.tmx", "--to", "foundry", "out.dd2vtt"], "--to foundry writes a .json file, not 'out.dd2vtt'"),
    (["maps/demo.tmx", "--to", "uvtt", "no/such/folder/x.dd2vtt"], "cannot write no/such/folder/x.dd2vtt"),
    (["maps/demo.tmx", "--to", "uvtt", "x.uvtt", "--scale", "500"], "--scale must be between 8 and 200 pixels per square, not 500"),
    (["maps/nothere.tmx", "--to", "uvtt", "x.uvtt"], "map file not found"),
    (["maps/demo.tmx", "--to", "roll20", "x.uvtt"], "argument --to: invalid choice: 'roll20'"),
])
def test_bad_export_requests_are_one_line(args: list[str], expected: str, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(REPO)
    code = main(["export", *(str(tmp_path / a) if a.startswith("x.") else a for a in args)])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())
