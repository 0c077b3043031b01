"""The window on virtual-tabletop maps: the picture, live reload, autosave and the linter's markers.

Real files in ``tmp_path`` (the demo board exported by ``sightline export``, the hand-made scenes),
the real loader, real pygame under the dummy driver, events posted with ``pygame.event.post``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pygame
import pytest
from support.window import Clock, centre, click, drag, grid_px
from support.window_files import open_app, touch_later

from game.cli import main
from game.core.board import DoorState, Edge
from game.play.session import Session
from game.ui.map_picture import DRAWN_WALL
from game.ui.watch import POLL_INTERVAL

REPO = Path(__file__).resolve().parent.parent
VTT = REPO / "tests" / "data" / "vtt"


def export_demo(folder: Path, target: str) -> Path:
    out = folder / ("demo.dd2vtt" if target == "uvtt" else "demo.json")
    assert main(["export", str(REPO / "maps" / "demo.tmx"), "--to", target, str(out), "--scale", "20"]) == 0
    return out


def figure_id(session: Session, name: str) -> int:
    return next(f.id for f in session.board.figures.values() if f.name == name)


def a_closed_door(session: Session) -> Edge:
    return next(edge for edge, door in sorted(session.board.doors.items()) if door.state is DoorState.CLOSED)


def door_point(app: object, edge: Edge) -> tuple[int, int]:
    (x0, y0), (x1, y1) = edge.ends()
    return grid_px(app, (x0 + x1) / 2, (y0 + y1) / 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", ["uvtt", "foundry"])
def test_moves_and_doors_autosave_and_come_back_on_a_vtt_map(tmp_path: Path, screen: pygame.Surface,
                                                             target: str) -> None:
    path = export_demo(tmp_path, target)
    state_file = tmp_path / "demo.sightline.json"
    app = open_app(path, screen, Clock())
    rook = figure_id(app.session, "Rook")
    start = app.board.figure(rook).square
    door = a_closed_door(app.session)
    drag(app, centre(app, start), centre(app, (start[0] + 1, start[1])))
    click(app, door_point(app, door))
    assert app.board.figure(rook).square == (start[0] + 1, start[1])
    assert app.board.doors[door].state is DoorState.OPEN
    saved = json.loads(state_file.read_text(encoding="utf-8"))
    assert saved["figures"][str(rook)]["square"] == [start[0] + 1, start[1]]
    again = Session.open(path)
    assert again.board.figure(rook).square == (start[0] + 1, start[1])
    assert again.board.doors[door].state is DoorState.OPEN
    assert not again.loaded.errors and not [f for f in again.loaded.findings if f.code.startswith("vtt-")]


def test_a_rewritten_uvtt_file_reloads_live_keeping_play(tmp_path: Path, screen: pygame.Surface) -> None:
    path = export_demo(tmp_path, "uvtt")
    clock = Clock()
    app = open_app(path, screen, clock)
    rook = figure_id(app.session, "Rook")
    start = app.board.figure(rook).square
    drag(app, centre(app, start), centre(app, (start[0] + 1, start[1])))
    doc = json.loads(path.read_text())
    doc["line_of_sight"].append([{"x": 2.4, "y": 13.1}, {"x": 5.6, "y": 12.9}])  # a wall a little off the grid
    path.write_text(json.dumps(doc))
    added = {Edge.parse(f"H({x},13)") for x in (2, 3, 4, 5)}
    assert not added & set(app.board.walls)
    touch_later(path)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    assert app.session.reload_error is None
    assert added <= set(app.board.walls)
    assert app.board.figure(rook).square == (start[0] + 1, start[1])
    assert any("reloaded demo.dd2vtt" in line for line in app.session.history.log)
    assert any(f.code == "vtt-off-grid" for f in app.session.loaded.findings)  # the linter's findings follow


def test_a_broken_vtt_rewrite_keeps_the_last_good_board(tmp_path: Path, screen: pygame.Surface) -> None:
    path = export_demo(tmp_path, "foundry")
    clock = Clock()
    app = open_app(path, screen, clock)
    good = app.board
    doc = json.loads(path.read_text())
    doc["walls"][0]["c"][1] = "ten"
    path.write_text(json.dumps(doc))
    touch_later(path)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    assert app.board is good
    error = app.session.reload_error
    assert error is not None and "walls[0].c[1] must be a number, not text" in error and "\n" not in error
    assert app.banner.rect is not None and app.banner.rect.bottom <= app.view.viewport[1]
    x, y = app.banner.rect.topleft
    banner = app.screen.get_at((x + 4, y + 4))
    assert banner.r > 2 * banner.g and banner.r > 2 * banner.b  # the window's error banner above the board


def test_a_changed_scene_picture_reloads_and_is_drawn(tmp_path: Path, screen: pygame.Surface) -> None:
    """The picture beside a Foundry scene is one of the map's files: a new picture redraws."""
    path = export_demo(tmp_path, "foundry")
    picture = tmp_path / "demo.png"
    clock = Clock()
    app = open_app(path, screen, clock)
    assert picture.resolve() in app.session.dependencies
    red = pygame.Surface((300, 300))
    red.fill((230, 0, 0))
    pygame.image.save(red, str(picture))
    touch_later(picture)
    clock.now += POLL_INTERVAL + 0.01
    app.frame()
    app.frame()
    colour = app.screen.get_at(centre(app, (3, 3)))
    assert colour.r > colour.g + 60  # the new picture, washed, under an empty square


def test_the_window_shows_the_picture_and_the_moved_drawing(screen: pygame.Surface) -> None:
    app = open_app(VTT / "real" / "oganm-test.dd2vtt", screen, Clock(), autosave=False)
    art = app.session.loaded.art
    cave = max((line for line in art.drawing if line.role == "wall"), key=lambda line: len(line.points))
    x, y = cave.points[len(cave.points) // 2]
    px, py = grid_px(app, x, y)
    assert any(tuple(app.screen.get_at((px + dx, py + dy)))[:3] == DRAWN_WALL
               for dx in range(-2, 3) for dy in range(-2, 3))
    floor = {tuple(app.screen.get_at(centre(app, (x, y))))[:3] for x in range(3, 15) for y in range(6, 12)}
    assert len(floor) > 20  # the painting, not the checker


def test_the_findings_of_a_vtt_map_show_in_the_window(tmp_path: Path, screen: pygame.Surface) -> None:
    path = shutil.copy(VTT / "uvtt" / "cave.uvtt", tmp_path / "cave.uvtt")
    app = open_app(Path(path), screen, Clock())
    for _ in range(5):  # the window lints in steps between frames
        app.frame()
    codes = {f.code for f in app.session.findings}
    assert {"vtt-off-grid", "region-unreachable"} <= codes  # the reader's findings and the linter's
