"""The window reads maps made for another game (issue #10): ``sightline play --tiles / --property
/ --preset`` reach the loader, live reload keeps them, and the autosave keeps door squares."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.core.board import DoorState
from game.play.savestate import PlayState
from game.play.session import Session

TILED = Path(__file__).resolve().parent / "data" / "tiled"
TILES = "blocked=wall;door=door"
#: roguelike.tmx read with TILES: its wall ring, the closed door square (3,1), the open one (3,2)
RING = {(x, y) for x in range(7) for y in range(4) if x in (0, 6) or y in (0, 3)}
DOORS = {(3, 1): DoorState.CLOSED, (3, 2): DoorState.OPEN}


def roguelike(tmp_path: Path) -> Path:
    """A copy of tests/data/tiled/cases/roguelike.tmx (its walls and doors are tile classes
    only ``--tiles`` or ``--preset roguelike`` reads), so its autosave lands in ``tmp_path``."""
    (tmp_path / "cases").mkdir()
    shutil.copy(TILED / "tiles.png", tmp_path / "tiles.png")
    return Path(shutil.copy(TILED / "cases" / "roguelike.tmx", tmp_path / "cases" / "roguelike.tmx"))


def test_session_open_with_tiles_has_the_walls_and_keeps_them_on_reload(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    assert not Session.open(path, autosave=False).board.blocked  # without the mapping: nothing
    session = Session.open(path, options={"tiles": {"blocked": ["wall"], "door": ["door"]}}, autosave=False)
    assert session.board.blocked == RING | {(3, 1)}
    assert session.board.door_squares == DOORS
    assert session.reload(), session.reload_error
    assert session.board.blocked == RING | {(3, 1)} and session.board.door_squares == DOORS


def test_preset_and_classes_together_and_classes_alone_still_work(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    session = Session.open(path, classes={"wall": ["fence"]}, options={"preset": "roguelike"}, autosave=False)
    assert session.options == {"preset": "roguelike", "classes": {"wall": ["fence"]}}
    assert session.classes == {"wall": ["fence"]}
    assert session.board.impassable == {(5, 1)} and session.board.door_squares == DOORS
    assert session.reload() and session.board.impassable == {(5, 1)}
    assert Session.open(path, classes={"wall": ["fence"]}, autosave=False).options == {"classes": {"wall": ["fence"]}}


def test_play_with_tiles_through_the_cli_draws_the_walls(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    plain, mapped = tmp_path / "plain.png", tmp_path / "mapped.png"
    assert main(["play", str(path), "--frames", "2", "--screenshot", str(plain)]) == 0
    assert main(["play", str(path), "--tiles", TILES, "--frames", "2", "--screenshot", str(mapped)]) == 0
    a, b = pygame.image.load(str(plain)), pygame.image.load(str(mapped))
    assert a.get_size() == b.get_size() == (1280, 800)
    # the mapped walls are painted: the two pictures differ on the board
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")


def test_play_with_the_preset_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "preset.png"
    assert main(["play", str(roguelike(tmp_path)), "--preset", "roguelike", "--frames", "2", "--screenshot", str(out)]) == 0
    assert out.exists()


@pytest.mark.parametrize("argv, words", [
    (["--tiles", "wall"], "role=spec"),
    (["--preset", "nethack"], "nethack"),
])
def test_bad_map_options_of_play_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    out = tmp_path / "never.png"
    assert main(["play", str(roguelike(tmp_path)), *argv, "--screenshot", str(out)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


# --- the autosave keeps door squares ------------------------------------------------------------

PRESET = {"preset": "roguelike"}


def test_an_opened_door_square_survives_a_restart(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    session = Session.open(path, options=PRESET)
    assert session.change("door square (3,1): open", lambda b: b.set_door_square((3, 1), DoorState.OPEN))
    assert session.move(1, (3, 1)) is None  # the Rogue steps into the opened doorway
    doc = json.loads(session.state_file.read_text(encoding="utf-8"))
    assert doc["door_squares"] == [{"square": [3, 1], "state": "open"}]
    again = Session.open(path, options=PRESET)
    assert again.board.door_squares == {(3, 1): DoorState.OPEN, (3, 2): DoorState.OPEN}
    assert again.board.figure(1).square == (3, 1) and again.messages == []
    assert (3, 1) not in again.board.blocked
    assert Session.open(path, options=PRESET, fresh=True).board.door_squares == DOORS


def test_a_state_file_without_door_squares_still_loads(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    old = {"format": "sightline-play-state", "version": 1, "figures": {"1": {"square": [2, 2]}},
           "doors": [], "log": ["Rogue to (2,2)"], "roll_log": [], "dice_seed": None}
    (tmp_path / "cases" / "roguelike.sightline.json").write_text(json.dumps(old), encoding="utf-8")
    session = Session.open(path, options=PRESET)
    assert session.board.figure(1).square == (2, 2) and session.messages == []
    assert session.board.door_squares == DOORS
    assert PlayState.from_json(old).door_squares == []


def test_a_saved_door_square_that_is_gone_is_a_note(tmp_path: Path) -> None:
    path = roguelike(tmp_path)
    session = Session.open(path, options=PRESET)
    session.change("door square (3,1): locked", lambda b: b.set_door_square((3, 1), DoorState.LOCKED))
    # read again without door tiles: (3,1) is floor now, and the saved state is not dropped silently
    walls_only = Session.open(path, options={"tiles": {"blocked": ["wall"]}})
    assert "the door square (3,1) is no longer on the map" in walls_only.messages
    assert walls_only.board.door_squares == {}


@pytest.mark.parametrize("entry", [
    {"square": [3], "state": "open"},
    {"square": [3, 1], "state": "ajar"},
    {"square": ["3", 1], "state": "open"},
    {"state": "open"},
])
def test_a_malformed_door_square_sets_the_file_aside(tmp_path: Path, entry: dict[str, object]) -> None:
    path = roguelike(tmp_path)
    state = tmp_path / "cases" / "roguelike.sightline.json"
    state.write_text(json.dumps({"format": "sightline-play-state", "version": 1, "door_squares": [entry]}))
    session = Session.open(path, options=PRESET)
    assert session.board.door_squares == DOORS
    assert any("unusable" in m and "corrupt-1" in m for m in session.messages)
    assert not state.exists() and (tmp_path / "cases" / "roguelike.sightline.json.corrupt-1").exists()


# --- sightline lessons takes the same map options ------------------------------------------------


def test_lessons_with_tiles_through_the_cli_draws_the_walls(tmp_path: Path) -> None:
    folder = roguelike(tmp_path).parent  # a folder of lessons: roguelike.tmx alone
    plain, mapped = tmp_path / "plain.png", tmp_path / "mapped.png"
    assert main(["lessons", str(folder), "--frames", "2", "--screenshot", str(plain)]) == 0
    assert main(["lessons", str(folder), "--tiles", TILES, "--frames", "2", "--screenshot", str(mapped)]) == 0
    a, b = pygame.image.load(str(plain)), pygame.image.load(str(mapped))
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")  # the walls are painted
    preset = tmp_path / "preset.png"  # the preset reads the same tiles
    assert main(["lessons", str(folder), "--preset", "roguelike", "--frames", "2", "--screenshot", str(preset)]) == 0
    c = pygame.image.load(str(preset))
    assert pygame.image.tobytes(c, "RGB") != pygame.image.tobytes(a, "RGB")


def test_the_lesson_window_reads_its_boards_with_the_options(tmp_path: Path) -> None:
    from game.ui.app import App

    path = roguelike(tmp_path)
    pygame.display.init()
    screen = pygame.display.set_mode((1280, 800))
    options = {"tiles": {"blocked": ["wall"], "door": ["door"]}, "classes": {"wall": ["fence"]}}
    app = App(None, screen=screen, lessons=[path], start_in_lessons=True, lesson_options=options)
    assert app.board is not None and app.presenter.lesson_mode
    assert app.board.blocked == RING | {(3, 1)} and app.board.door_squares == DOORS
    assert app.session is not None and app.session.options == options
    bare = App(None, screen=screen, lessons=[path], start_in_lessons=True)
    assert bare.board is not None and not bare.board.blocked


@pytest.mark.parametrize("argv, words", [
    (["--tiles", "wall"], "role=spec"),
    (["--preset", "nethack"], "nethack"),
    (["--classes", "wall"], "wall"),
    (["--property", "side"], "side"),
])
def test_bad_map_options_of_lessons_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    out = tmp_path / "never.png"
    assert main(["lessons", str(roguelike(tmp_path).parent), *argv, "--screenshot", str(out)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()
