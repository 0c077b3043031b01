"""The autosaved play state (game/play/savestate.py): capture, JSON round trip, atomic files, corruption."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from game.core.board import Board, DoorState, Edge, Figure
from game.core.errors import SightlineError
from game.play.savestate import (
    FORMAT,
    PlayState,
    PlayStateError,
    load_state,
    save_state,
    state_path,
)

DOOR = Edge.parse("V(2,0)")


def make_board() -> Board:
    board = Board.from_ascii(["....", "...."], doors={"V(2,0)": "closed"})
    board.place_figure(Figure(7, "Rook", "red", (0, 0), {"life": 5}))
    board.place_figure(Figure(8, "Gob", "monsters", (3, 1), {"life": 2, "exhausted": "Bite"}))
    return board


def test_state_file_sits_beside_the_map() -> None:
    assert state_path(Path("maps/demo.tmx")) == Path("maps/demo.sightline.json")


def test_an_untouched_board_captures_no_changes() -> None:
    board = make_board()
    play = PlayState.capture(board.state(), board.state())
    assert play.figures == {} and play.doors == [] and not play.changes_board


def test_capture_records_moves_stats_removals_and_doors_only() -> None:
    board = make_board()
    original = board.state()
    board.move_figure(7, (1, 1))
    board.update_figure(7, wounds=2)
    board.update_figure(8, exhausted=None)
    board.set_door(DOOR, DoorState.LOCKED)
    play = PlayState.capture(original, board.state(), dice_seed=42, roll_log=[{"faces": [1, 6]}])
    assert play.figures[7].square == (1, 1) and play.figures[7].stats == {"wounds": 2}
    assert play.figures[8].square is None and play.figures[8].stats == {"exhausted": None}
    assert [(d.edge, d.state) for d in play.doors] == [(DOOR, DoorState.LOCKED)]
    board.remove_figure(8)
    assert PlayState.capture(original, board.state()).figures[8].removed


def test_json_round_trip_and_apply_reproduce_the_board(tmp_path: Path) -> None:
    board = make_board()
    original = board.state()
    board.move_figure(7, (1, 1))
    board.update_figure(7, wounds=2)
    board.update_figure(8, exhausted=None)
    board.set_door(DOOR, DoorState.OPEN)
    board.remove_figure(8)
    play = PlayState.capture(original, board.state(), log=["a", "b"], dice_seed=3, selected=7)
    path = tmp_path / "m.sightline.json"
    save_state(path, play)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["dice_seed"] == 3 and data["roll_log"] == []
    loaded = load_state(path)
    assert loaded.message is None and loaded.state is not None
    fresh = make_board()
    assert loaded.state.apply(fresh) == []
    assert fresh.state() == board.state()
    assert loaded.state.log == ["a", "b"] and loaded.state.selected == 7


def test_apply_skips_what_no_longer_exists_and_says_so() -> None:
    board = make_board()
    original = board.state()
    board.move_figure(7, (3, 0))
    board.set_door(DOOR, DoorState.OPEN)
    play = PlayState.capture(original, board.state())
    play.figures[99] = play.figures[7]
    smaller = Board.from_ascii(["...", "..."])  # (3,0) is gone, and so is the door
    smaller.place_figure(Figure(7, "Rook", "red", (0, 0)))
    notes = play.apply(smaller)
    assert smaller.figure(7).square == (0, 0)
    assert any("(3,0) is no longer on the board" in n for n in notes)
    assert any("figure 99" in n for n in notes)
    assert any("door on V(2,0)" in n for n in notes)


def test_doors_are_found_by_object_id_when_their_edge_moved() -> None:
    from game.core.board import Door

    old = Board(4, 2, doors=[Door(DOOR, DoorState.CLOSED, object_id=5)])
    original = old.state()
    old.set_door(DOOR, DoorState.OPEN)
    play = PlayState.from_json(PlayState.capture(original, old.state()).to_json())
    moved = Board(4, 2, doors=[Door(Edge.parse("V(3,1)"), DoorState.CLOSED, object_id=5)])
    assert play.apply(moved) == []
    assert moved.doors[Edge.parse("V(3,1)")].state is DoorState.OPEN


def test_missing_file_is_nothing_and_no_message(tmp_path: Path) -> None:
    loaded = load_state(tmp_path / "none.sightline.json")
    assert loaded.state is None and loaded.message is None


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"format": "something-else", "version": 1}',
        '{"format": "sightline-play-state", "version": 99}',
        '{"format": "sightline-play-state", "version": 1, "figures": {"x": {}}}',
        '{"format": "sightline-play-state", "version": 1, "doors": [{"edge": "Q(1,1)", "state": "open"}]}',
        '{"format": "sightline-play-state", "version": 1, "doors": [{"edge": "V(1,1)", "state": "ajar"}]}',
        '{"format": "sightline-play-state", "version": 1, "figures": {"1": {"square": [1]}}}',
        '{"format": "sightline-play-state", "version": 1, "figures": {"1": {"stats": {"a": [1]}}}}',
    ],
)
def test_a_corrupt_file_is_set_aside_with_a_message(tmp_path: Path, text: str) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text(text, encoding="utf-8")
    loaded = load_state(path)
    assert loaded.state is None
    assert loaded.message is not None and "m.sightline.json.corrupt-1" in loaded.message
    assert not path.exists()
    assert (tmp_path / "m.sightline.json.corrupt-1").read_text(encoding="utf-8") == text


def test_set_aside_never_overwrites_an_earlier_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "m.sightline.json"
    (tmp_path / "m.sightline.json.corrupt-1").write_text("old", encoding="utf-8")
    path.write_text("garbage", encoding="utf-8")
    assert "corrupt-2" in (load_state(path).message or "")
    assert (tmp_path / "m.sightline.json.corrupt-1").read_text(encoding="utf-8") == "old"


def test_from_json_names_the_problem() -> None:
    with pytest.raises(PlayStateError, match="newer Sightline"):
        PlayState.from_json({"format": FORMAT, "version": 2})


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "m.sightline.json"
    path.write_text("previous", encoding="utf-8")
    save_state(path, PlayState(dice_seed=1))
    assert json.loads(path.read_text(encoding="utf-8"))["dice_seed"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.sightline.json"]


def test_a_save_that_fails_at_the_last_step_raises_oserror_and_keeps_what_was_there(
    tmp_path: Path,
) -> None:
    """The final rename fails (the target is a folder, for root too): nothing is lost or left over."""
    path = tmp_path / "m.sightline.json"
    path.mkdir()
    (path / "previous").write_text("previous", encoding="utf-8")
    with pytest.raises(OSError) as info:
        save_state(path, PlayState(dice_seed=1))
    assert isinstance(info.value, SightlineError) and str(info.value).startswith(f"cannot write {path}: ")
    assert (path / "previous").read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.sightline.json"]  # no temporary file


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_saved_state_has_normal_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        save_state(tmp_path / "m.sightline.json", PlayState(dice_seed=1))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "m.sightline.json").stat().st_mode) == 0o644


def test_save_where_no_file_can_be_is_one_line_oserror(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    for path in (tmp_path / "missing" / "m.sightline.json", tmp_path / "file.txt" / "m.sightline.json"):
        with pytest.raises(OSError) as info:
            save_state(path, PlayState())
        assert isinstance(info.value, SightlineError)
        assert str(info.value).startswith(f"cannot write {path}: ") and "\n" not in str(info.value)
        assert info.value.strerror and "cannot write" not in info.value.strerror
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]
