"""Classroom mode (``sightline lessons --present``, F2): predict then reveal with the keyboard alone,
large type, the verdict on the board, the lesson menu, PNG exports. Real window, dummy driver."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from support.window import key, near

from game.cli import main
from game.play.lessons import LESSONS_DIR, lesson_paths
from game.ui import classroom, theme
from game.ui.app import App


@pytest.fixture
def room() -> App:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1920, 1080))
    window = App(None, screen=screen, lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    pygame.event.clear()
    window.frame()
    return window


def ray_pixels(window: App, colour: tuple[int, int, int]) -> int:
    ray = window.presenter.ray()
    assert ray is not None
    (ax, ay), (bx, by) = window.view.square_centre(ray.origin), window.view.square_centre(ray.target)
    hits = 0
    for i in range(1, 20):
        x, y = ax + (bx - ax) * i // 20, ay + (by - ay) * i // 20
        hits += near(window.screen.get_at((x, y)), colour, 30)
    return hits


def test_predict_then_reveal_with_the_keyboard_alone(room: App) -> None:
    key(room, pygame.K_F2)
    assert room.presenter.presenting and not room.presenter.classroom.revealed
    assert room.overlay().ray is None  # the verdict's colour is hidden
    assert ray_pixels(room, theme.RAY_CLEAR) == 0 and ray_pixels(room, classroom.NEUTRAL_RAY) > 5
    # the side panel is gone: the board and the lesson column share the window
    assert room.view.viewport[2] == 1920 - round(1920 * 0.3)
    key(room, pygame.K_y)
    assert room.presenter.classroom.prediction == "clear"
    key(room, pygame.K_RETURN)
    assert room.presenter.classroom.revealed and room.presenter.classroom.results == {0: True}  # L01 is clear
    assert ray_pixels(room, theme.RAY_CLEAR) > 5
    key(room, pygame.K_RIGHTBRACKET)  # next board: hidden again
    assert room.presenter.tour.index == 1 and not room.presenter.classroom.revealed
    key(room, pygame.K_n)  # N reveals first ...
    assert room.presenter.classroom.revealed and room.presenter.tour.step is None and room.presenter.classroom.results[1] is None
    key(room, pygame.K_n)  # ... then steps
    assert room.presenter.tour.step == 0


def test_the_verdict_and_the_step_are_large_type_on_the_board(room: App) -> None:
    assert classroom.text_size(1080) >= 28
    key(room, pygame.K_F2)
    key(room, pygame.K_RETURN)
    key(room, pygame.K_n)
    # the callout card sits on the board area and its lines are at least 28 px tall
    face = classroom.font(classroom.text_size(1080))
    assert face.get_height() >= 28 and classroom.font(classroom.text_size(1080) + 8).get_height() > 28
    x, y, w, h = room.view.viewport
    ray = room.presenter.ray()
    end = room.view.square_centre(ray.target)
    card = classroom.draw_callout(room.screen, end, [("Blocked", classroom.BLOCKED, 38)], pygame.Rect(x, y, w, h))
    assert pygame.Rect(x, y, w, h).contains(card) and card.h >= 38


def test_the_lesson_menu_opens_a_board_and_shows_progress(room: App) -> None:
    key(room, pygame.K_F2)
    key(room, pygame.K_b)
    key(room, pygame.K_RETURN)
    assert room.presenter.classroom.results == {0: False}
    key(room, pygame.K_o)
    assert room.presenter.classroom.menu
    for _ in range(3):
        key(room, pygame.K_DOWN)
    key(room, pygame.K_RETURN)
    assert not room.presenter.classroom.menu and room.presenter.tour.index == 3 and not room.presenter.classroom.revealed
    assert "1 of 37 boards revealed" in room.presenter.classroom.progress(len(room.presenter.tour.paths))


def test_the_wrap_from_the_last_lesson_to_the_first_is_said(room: App) -> None:
    key(room, pygame.K_LEFTBRACKET)  # before the first: the last
    assert room.presenter.tour.index == len(room.presenter.tour.paths) - 1
    assert "on to the last" in room.last_frame.status
    key(room, pygame.K_RIGHTBRACKET)
    assert room.presenter.tour.index == 0 and "back to the first" in room.last_frame.status


def test_ctrl_s_saves_the_view_and_ctrl_shift_s_every_step(
    room: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    room.presenter.tour.open([p.stem for p in room.presenter.tour.paths].index("L06"))
    room.presenter.enter_lesson()
    room.frame()
    key(room, pygame.K_s, pygame.KMOD_LCTRL)
    assert (tmp_path / "sightline-L06.png").is_file()
    key(room, pygame.K_s, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)
    crossings = len(room.presenter.ray().crossings)
    steps = sorted(p.name for p in tmp_path.glob("sightline-L06-step*.png"))
    assert len(steps) == crossings >= 1
    picture = pygame.image.load(str(tmp_path / "sightline-L06-step1.png"))
    assert picture.get_width() >= 5 * 48


def test_lessons_present_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "present.png"
    code = main(["lessons", "--present", "--size", "1920x1080", "--screenshot", str(out)])
    assert code == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1920, 1080)
    # the lesson column's background on the right, not the pygame_gui side panel
    assert near(picture.get_at((1900, 1000)), classroom.COLUMN_BG, 6)


def test_the_callout_never_covers_the_rays_squares(room: App) -> None:
    key(room, pygame.K_F2)
    assert room.presenter.tour is not None
    for name in ("L06", "L01", "L12"):
        names = [p.stem for p in room.presenter.tour.paths]
        if name not in names:
            continue
        while room.presenter.tour.index != names.index(name):
            key(room, pygame.K_RIGHTBRACKET)
        ray = room.presenter.ray()
        assert ray is not None
        ends = [pygame.Rect(room.view.square_rect(sq)) for sq in (ray.origin, ray.target)]
        assert room.last_callout is not None and not any(room.last_callout.colliderect(e) for e in ends)  # the question
        key(room, pygame.K_RETURN)
        key(room, pygame.K_n)  # revealed, stepped: the verdict's card
        assert room.last_callout is not None and not any(room.last_callout.colliderect(e) for e in ends), name
