"""The window reads maps made for another game (issue #10): ``sightline play --tiles / --property
/ --preset`` reach the loader, live reload keeps them, and the autosave keeps door squares."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.core.board import DoorState
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
