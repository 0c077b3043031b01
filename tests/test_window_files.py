"""The window and files: live reload, autosave and restore, corrupt state, lessons, the commands.

Real TMX files in ``tmp_path``, the real loader, real pygame under the dummy driver.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pygame
import pytest
from support.window import (
    DOOR,
    FIGURES,
    ROOK,
    WALL,
    Clock,
    centre,
    click,
    drag,
    figure_xml,
    grid_px,
    key,
    move,
    tmx,
    write_map,
)
from support.window_files import open_app, touch_later  # noqa: F401

from game.cli import main
from game.commands.play import SCREENSHOT_FRAMES, check_window_options
from game.core.board import DoorState, Edge
from game.play.lessons import LessonTour, lesson_paths
from game.play.session import Session
from game.play.wording import plain
from game.ui.app import App
from game.ui.banner import BANNER_BG
from game.ui.watch import POLL_INTERVAL

NEW_WALL = "<object id='50' type='wall' x='0' y='96'><polyline points='0,0 64,0'/></object>"







# --- live reload --------------------------------------------------------------------------


def test_a_rewritten_map_reloads_keeping_moved_figures_and_doors(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    path = write_map(tmp_path / "board.tmx")
    app = open_app(path, screen, clock)
    drag(app, centre(app, (1, 1)), centre(app, (2, 3)))
    click(app, grid_px(app, 5.5, 2.0))
    assert app.board.figure(ROOK).square == (2, 3)
    write_map(path, extra=[NEW_WALL])
    touch_later(path)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    assert Edge.parse("H(0,3)") in app.board.walls and Edge.parse("H(1,3)") in app.board.walls
    assert app.board.figure(ROOK).square == (2, 3)
    assert app.board.doors[DOOR].state is DoorState.OPEN
    assert app.session.reload_error is None
    assert any("reloaded board.tmx" in line for line in app.session.history.log)


def test_a_broken_rewrite_keeps_the_last_good_board_and_shows_the_error(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    clock = Clock()
    path = write_map(tmp_path / "board.tmx")
    app = open_app(path, screen, clock)
    good = app.board
    path.write_text("<map orientation='orthogonal' width='7'", encoding="utf-8")  # truncated XML
    touch_later(path)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    assert app.board is good and Edge.parse("V(3,0)") in app.board.walls
    assert app.session.reload_error is not None and "board.tmx" in app.session.reload_error
    status, kind = app.last_frame.status_line
    assert kind == "error" and "last good board" in status
    assert app.banner.rect is not None and app.banner.rect.bottom <= app.view.viewport[1]  # above the board
    x, y = app.banner.rect.topleft
    assert tuple(app.screen.get_at((x + 4, y + 4)))[:3] == BANNER_BG
    # fixing the file clears the error
    write_map(path, extra=[NEW_WALL])
    touch_later(path)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    assert app.session.reload_error is None and Edge.parse("H(0,3)") in app.board.walls


def test_no_reload_while_nothing_changed(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    app = open_app(write_map(tmp_path / "board.tmx"), screen, clock)
    board = app.board
    for _ in range(3):
        clock.now += POLL_INTERVAL + 0.01
        app.frame()
    assert app.board is board


# --- autosave -----------------------------------------------------------------------------


def test_changes_autosave_and_restore_on_the_next_open_unless_fresh(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    path = write_map(tmp_path / "board.tmx")
    state_file = tmp_path / "board.sightline.json"
    app = open_app(path, screen, Clock())
    assert not state_file.exists()  # opening alone writes nothing
    drag(app, centre(app, (1, 1)), centre(app, (2, 3)))
    click(app, grid_px(app, 5.5, 2.0))
    saved = json.loads(state_file.read_text(encoding="utf-8"))
    assert saved["figures"][str(ROOK)]["square"] == [2, 3]
    assert saved["doors"][0]["state"] == "open"
    assert saved["selected"] == ROOK
    again = Session.open(path)
    assert again.board.figure(ROOK).square == (2, 3)
    assert again.board.doors[DOOR].state is DoorState.OPEN
    assert again.selected == ROOK
    assert "move Rook (1,1) -> (2,3)" in again.history.log
    fresh = Session.open(path, fresh=True)
    assert fresh.board.figure(ROOK).square == (1, 1)
    assert fresh.board.doors[DOOR].state is DoorState.CLOSED


def test_a_corrupt_state_file_is_set_aside_and_the_window_says_so(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    path = write_map(tmp_path / "board.tmx")
    (tmp_path / "board.sightline.json").write_text("{oops", encoding="utf-8")
    app = open_app(path, screen, Clock())
    assert app.board.figure(ROOK).square == (1, 1)
    assert (tmp_path / "board.sightline.json.corrupt-1").read_text(encoding="utf-8") == "{oops"
    status, kind = app.last_frame.status_line
    assert kind == "error" and "corrupt-1" in status


def test_undo_is_autosaved_too(tmp_path: Path, screen: pygame.Surface) -> None:
    path = write_map(tmp_path / "board.tmx")
    app = open_app(path, screen, Clock())
    drag(app, centre(app, (1, 1)), centre(app, (2, 3)))
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert Session.open(path).board.figure(ROOK).square == (1, 1)


# --- lessons ------------------------------------------------------------------------------


def write_lesson(
    path: Path, origin: str, target: str, expected: str, caption: str, size: tuple[int, int] = (7, 5)
) -> Path:
    figures = [figure_xml(*f) for f in FIGURES]
    props = {"caption": caption, "from": origin, "to": target, "expected": expected, "vector": path.stem}
    path.write_text(tmx([WALL, *figures], *size, props=props), encoding="utf-8")
    return path


def test_lessons_select_the_from_figure_step_the_crossings_and_change_board(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder / "L01.tmx", "1,1", "5,1", "blocked", "A wall stops the ray.")
    write_lesson(folder / "L02.tmx", "1,1", "1,3", "clear", "Nothing in the way.")
    app = App(None, screen=screen, time_source=Clock(), lessons=lesson_paths(folder))
    app.frame()
    assert app.presenter.lesson_mode and app.presenter.selected == ROOK and app.presenter.pinned == (5, 1)
    status, kind = app.last_frame.status_line
    assert kind == "lesson" and "A wall stops the ray." in status and "as expected" in status
    crossings = app.last_frame.ray.crossings
    assert len(crossings) >= 2
    key(app, pygame.K_n)
    assert app.presenter.tour.step == 0
    assert f"Step 1 of {len(crossings)}: {plain(crossings[0].explain())}" in app.last_frame.status
    key(app, pygame.K_n)
    assert app.presenter.tour.step == 1
    key(app, pygame.K_p)
    key(app, pygame.K_p)
    assert app.presenter.tour.step is None
    key(app, pygame.K_PAGEDOWN)
    assert app.presenter.tour.index == 1 and app.presenter.pinned == (1, 3) and "Nothing in the way." in app.last_frame.status
    key(app, pygame.K_RIGHTBRACKET)
    assert app.presenter.tour.index == 0
    key(app, pygame.K_l)  # no map behind the lessons: stays in them
    assert app.presenter.lesson_mode
    assert not (folder / "L01.sightline.json").exists()  # lessons never autosave


def test_l_leaves_the_lessons_back_to_the_map(tmp_path: Path, screen: pygame.Surface) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder / "L01.tmx", "1,1", "5,1", "blocked", "A wall.")
    session = Session.open(write_map(tmp_path / "board.tmx"))
    app = App(session, screen=screen, time_source=Clock(), lessons=lesson_paths(folder))
    app.frame()
    click(app, centre(app, (0, 4)))
    key(app, pygame.K_l)
    assert app.presenter.lesson_mode and app.session is not session
    key(app, pygame.K_l)
    assert not app.presenter.lesson_mode and app.session is session and app.presenter.selected == 13


def test_switching_boards_forgets_the_old_targets_and_pin_and_finds_the_hover_again(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder / "L01.tmx", "1,1", "5,1", "blocked", "A wall.")
    write_lesson(folder / "L02.tmx", "1,1", "1,3", "clear", "Open.", size=(16, 12))
    session = Session.open(write_map(tmp_path / "board.tmx"))
    app = App(session, screen=screen, time_source=Clock(), lessons=lesson_paths(folder))
    app.frame()
    click(app, centre(app, (1, 1)))
    click(app, centre(app, (5, 3)), button=3)  # Gob: the attack's target, and the pin
    assert app.presenter.attack.targets and app.presenter.pinned == (5, 3)
    key(app, pygame.K_l)  # the lesson board has figures with the same ids: none is a target
    assert app.presenter.lesson_mode and app.presenter.attack.targets == [] and app.presenter.pinned == (5, 1)
    key(app, pygame.K_PAGEDOWN)
    assert app.presenter.attack.targets == [] and app.presenter.pinned == (1, 3)
    # the mouse rests over the board; leaving redraws the ray to the square under it now
    spot = (app.view.viewport[2] // 3, app.view.viewport[3] // 2)
    move(app, spot)
    lesson_square = app.presenter.hover
    key(app, pygame.K_l)
    assert not app.presenter.lesson_mode and app.session is session
    assert app.presenter.attack.targets == [] and app.presenter.pinned is None
    assert app.presenter.hover == app.view.square_at(*spot) != lesson_square
    ray = app.last_frame.ray
    assert ray is not None and ray.target == app.presenter.hover


def test_l_in_lessons_only_says_there_is_no_board_to_go_back_to(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder / "L01.tmx", "1,1", "5,1", "blocked", "A wall.")
    app = App(None, screen=screen, time_source=Clock(), lessons=lesson_paths(folder))
    app.frame()
    key(app, pygame.K_l)
    assert app.presenter.lesson_mode
    status, kind = app.last_frame.status_line
    assert kind == "error" and status.startswith("lessons only: no board to go back to")


def test_a_broken_lesson_is_shown_not_raised(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "L01.tmx").write_text("not a map", encoding="utf-8")
    tour = LessonTour(lesson_paths(folder), lambda p: Session.open(p, autosave=False))
    assert tour.session is None and "L01.tmx" in (tour.error or "")


def test_the_bundled_lessons_open(screen: pygame.Surface) -> None:
    paths = lesson_paths()
    tour = LessonTour(paths[:3], lambda p: Session.open(p, autosave=False))
    assert tour.lesson is not None and tour.lesson.origin is not None, tour.error


# --- the commands -------------------------------------------------------------------------


def test_play_frames_screenshot_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "shots" / "board.png"
    out.parent.mkdir()
    assert main(["play", str(write_map(tmp_path / "board.tmx")), "--frames", "2", "--screenshot", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    assert sorted(p.name for p in out.parent.iterdir()) == ["board.png"]


def test_screenshot_alone_runs_a_few_frames_and_exits(tmp_path: Path) -> None:
    """Review item 4: ``--screenshot`` without ``--frames`` used to wait for a quit for ever."""
    out = tmp_path / "board.png"
    assert main(["play", str(write_map(tmp_path / "board.tmx")), "--screenshot", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 800)
    args = argparse.Namespace(frames=None, screenshot=out, size="900x600")
    assert check_window_options(args) == (900, 600) and args.frames == SCREENSHOT_FRAMES == 3
    args = argparse.Namespace(frames=5, screenshot=out, size="900x600")
    check_window_options(args)
    assert args.frames == 5  # an explicit --frames stays


@pytest.mark.parametrize("command", ["play", "lessons"])
def test_a_screenshot_in_a_missing_folder_is_refused_before_anything_runs(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review item 13: like ``render -o``, the folder is checked up front and never created: the
    error comes before the map is even looked for (the map here does not exist)."""
    out = tmp_path / "shots" / "board.png"
    code = main([command, str(tmp_path / "nope"), "--frames", "3", "--screenshot", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"cannot write {out}: folder {out.parent} does not exist" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_play_without_a_map_opens_the_demo(tmp_path: Path) -> None:
    out = tmp_path / "demo.png"
    assert main(["--frames", "1", "--screenshot", str(out), "--fresh", "--size", "900x600"]) == 0
    assert pygame.image.load(str(out)).get_size() == (900, 600)


def test_lessons_command_frames_screenshot(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    write_lesson(folder / "L01.tmx", "1,1", "5,1", "blocked", "A wall.")
    out = tmp_path / "lesson.png"
    assert main(["lessons", str(folder), "--frames", "1", "--screenshot", str(out)]) == 0
    assert out.exists()


def test_no_display_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    path = write_map(tmp_path / "board.tmx")
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"sightline play: no display available; try: sightline render {path} -o board.png\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--frames", "0"], "--frames must be at least 1"),
        (["--screenshot", "x.jpg", "--frames", "1"], "must name a .png"),
        (["--size", "big"], "not a window size"),
    ],
)
def test_bad_window_options_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["play", str(write_map(tmp_path / "board.tmx")), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_or_broken_map_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(tmp_path / "nope.tmx")]) == 2
    assert "no such map" in capsys.readouterr().err
    bad = tmp_path / "bad.tmx"
    bad.write_text("garbage", encoding="utf-8")
    assert main(["play", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sightline play: ") and err.count("\n") == 1


def test_a_display_that_does_not_answer_is_no_display(tmp_path: Path) -> None:
    """DISPLAY names no X server: SDL would fall back to an invisible window; we say so instead."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":9999", PYGAME_HIDE_SUPPORT_PROMPT="1")
    path = write_map(tmp_path / "board.tmx")
    done = subprocess.run(
        [sys.executable, "-m", "game", "play", str(path)],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("sightline play: no display available; try: sightline render")


def test_a_folder_that_refuses_the_autosave_is_said_once_and_play_goes_on(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    session = Session.open(write_map(tmp_path / "board.tmx"))
    session.state_file = tmp_path / "no-such-folder" / "board.sightline.json"
    assert session.move(ROOK, (2, 3)) is None
    assert session.move(ROOK, (2, 4)) is None
    assert session.board.figure(ROOK).square == (2, 4)
    assert session.save_error is not None
    assert sum("cannot autosave" in m for m in session.messages) == 1
