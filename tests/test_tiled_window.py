"""The window's click on a door square (a roguelike's door tile): real pygame, real posted events."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.core.board import DoorState
from game.play.session import Session
from game.ui.app import App

CASES = Path(__file__).resolve().parent / "data" / "tiled" / "cases"


@pytest.fixture
def app(tmp_path: Path) -> App:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800))
    shutil.copy(CASES / "roguelike.tmx", tmp_path / "roguelike.tmx")
    shutil.copy(CASES.parent / "tiles.png", tmp_path.parent / "tiles.png")
    (tmp_path / "sightline.toml").write_text('preset = "roguelike"\n')
    window = App(Session.open(tmp_path / "roguelike.tmx"), screen=screen, time_source=lambda: 0.0)
    pygame.event.clear()
    window.frame()
    return window


def click(app: App, pos: tuple[int, int]) -> None:
    for event in (
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ):
        pygame.event.post(event)
    app.frame()


def test_click_a_door_square_cycles_it_and_undo_takes_it_back(app: App) -> None:
    assert app.board is not None
    door = app.view.square_centre((3, 1))
    assert app.board.door_squares[(3, 1)] is DoorState.CLOSED
    click(app, door)
    assert app.board.door_squares[(3, 1)] is DoorState.OPEN
    assert (3, 1) not in app.board.blocked
    click(app, door)
    assert app.board.door_squares[(3, 1)] is DoorState.LOCKED
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL,
                                         unicode="", scancode=0))
    app.frame()
    assert app.board.door_squares[(3, 1)] is DoorState.OPEN
    click(app, app.view.square_centre((2, 1)))  # a plain floor square changes nothing
    assert app.board.door_squares == {(3, 1): DoorState.OPEN, (3, 2): DoorState.OPEN}
