"""The threat view on a hex map in the window (issue #21, the window on hex maps): badges, rings,
the danger map and its legend on the bundled hex skirmish (real .tmx, real reader, real rules),
at 1000x650, 1280x800 and 2400x1400, with real pygame events under the dummy driver.

The numbers are the designer's solver's, the same as on squares; the danger map counts ranges in
hex steps and is checked against brute force (the ruleset's own ``check`` with the figure placed
on each hex). The tint fills each hex's outline at Tiled's pixel layout, drawn once per danger
map and view (a hover frame blits it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest
from support.threats import _brute_danger

from game.core.hex_sight import hex_board
from game.designer.danger import Distances, danger_map
from game.designer.threats import ThreatSolver
from game.play.session import Session
from game.tiled import load_map
from game.ui.app import App
from game.ui.threat_overlay import RING_NEXT, RING_NOW, TINT_ALPHA, ramp_colours

REPO = Path(__file__).resolve().parent.parent
SKIRMISH = REPO / "maps" / "hex-skirmish.tmx"
SIZES = [(1000, 650), (1280, 800), (2400, 1400)]


def _window(tmp_path: Path, size: tuple[int, int]) -> App:
    """The real window on a copy of the hex skirmish (its tiles beside it), the Archer selected by
    a click on its hex."""
    (tmp_path / "maps").mkdir()
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "maps" / "tiles")
    shutil.copytree(REPO / "assets" / "tiles", tmp_path / "assets" / "tiles")
    shutil.copy(SKIRMISH, tmp_path / "maps" / SKIRMISH.name)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    app = App(Session.open(tmp_path / "maps" / SKIRMISH.name, autosave=False, fresh=True), screen=screen,
              watch=False, time_source=lambda: 0.0)
    app.presenter.threats.budget = 10.0  # the whole numbers in one frame (slicing: test_threat_window.py)
    pygame.event.clear()
    app.frame()
    board = app.board
    assert board is not None and board.grid.kind == "hex"
    archer = board.find_figure("Archer")
    _click(app, app.view.square_centre(archer.square))
    assert app.presenter.selected == archer.id
    return app


def _click(app: App, pos: tuple[int, int]) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    app.frame()


def _key(app: App, code: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0))
    app.frame()


def _move(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.frame()


def _ring_pixels(app: App, cell: tuple[int, int]) -> list[pygame.Color]:
    cx, cy = app.view.square_centre(cell)
    radius = max(6, round(app.view.cell * 0.5))
    return [app.screen.get_at((cx + dx, cy)) for dx in range(radius - 4, radius + 3)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_badges_and_rings_sit_on_the_hexes_of_the_enemies(tmp_path: Path, size: tuple[int, int]) -> None:
    app = _window(tmp_path, size)
    board = app.board
    assert board is not None
    shown = app.last_frame.threats
    assert shown is not None and not shown.working
    names = {board.figure(b.figure).name for b in shown.badges}
    assert names == {"Goblin", "Orc", "Imp", "Troll"}  # the Short Bow reaches every monster
    rings = {board.figure(r.figure).name: r.when for r in shown.rings}
    assert rings == {"Goblin": "now", "Imp": "now", "Orc": "next"}
    for name, colour in (("Goblin", RING_NOW), ("Orc", RING_NEXT)):
        found = _ring_pixels(app, board.find_figure(name).square)
        assert any(abs(c.r - colour[0]) < 40 and abs(c.g - colour[1]) < 50 and c.b < 90 for c in found), (name, found)
    rx, ry, rw, _ = app.view.square_rect(board.find_figure("Imp").square)
    plate = app.screen.get_at((rx + rw // 2, ry - 2))
    assert plate.r < 60 and plate.g < 60 and plate.b < 70  # the badge's dark plate over the hex
    assert app.overlays.threats.legend.startswith("Archer: badge")
    assert 0 < app.overlays.threats.legend_height < app.view.viewport[3] // 3


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_danger_map_fills_each_hex_it_counts(tmp_path: Path, size: tuple[int, int]) -> None:
    app = _window(tmp_path, size)
    board = app.board
    assert board is not None
    _key(app, pygame.K_h, pygame.KMOD_LSHIFT)
    assert app.last_frame.status == "danger map: enemies that could attack the selected figure on each hex"
    shown = app.last_frame.threats
    assert shown is not None and shown.danger is not None
    values, standable = shown.danger.values(), shown.danger.map.standable
    empty = [c for c in board.grid.cells() if standable[c[1], c[0]] and not board.figures_at(c)]
    top = float(values.max())
    assert top > 0
    for cell in (max(empty, key=lambda c: values[c[1], c[0]]), min(empty, key=lambda c: values[c[1], c[0]])):
        cx, cy = app.view.square_centre(cell)
        _, _, _, h = app.view.square_rect(cell)
        colour = app.screen.get_at((cx, cy - h // 4))  # inside the hex, above its numbers
        want = ramp_colours(values[cell[1], cell[0]] / top)
        tinted = [round(int(c) * TINT_ALPHA / 255) for c in want]
        assert all(t - 2 <= int(got) <= t + 255 - TINT_ALPHA + 2 for t, got in zip(tinted, colour[:3], strict=True)), (
            cell, colour, want)
    layer = app.overlays.threats._tint
    for cell in empty[:5]:  # hovering: the tint is blitted, not drawn again
        _move(app, app.view.square_centre(cell))
    assert app.overlays.threats._tint is layer
    assert "Danger to Archer" in app.overlays.threats.legend
    _key(app, pygame.K_h, pygame.KMOD_LSHIFT)
    assert "expect there next turn" in app.overlays.threats.legend
    assert app.overlays.threats._tint is not layer  # the damage view: drawn again once


def test_shift_b_draws_the_balance_report_beside_the_threat_view_on_a_hex_map(tmp_path: Path) -> None:
    app = _window(tmp_path, (1280, 800))
    _key(app, pygame.K_b, pygame.KMOD_LSHIFT)
    assert app.last_frame.status.startswith("balance report on")
    assert app.last_frame.balance is not None and app.last_frame.threats is not None


def test_the_hex_danger_map_agrees_with_a_brute_force_search() -> None:
    board = load_map(SKIRMISH).board
    solver = ThreatSolver()
    for name in ("Archer", "Troll"):
        figure = board.find_figure(name).id
        found = danger_map(solver, board, figure)
        cells = [c for c in board.grid.cells() if found.standable[c[1], c[0]]]
        assert len(cells) > 20
        for cell in cells[::3]:
            shown = found.at(cell)
            assert shown is not None
            assert shown[:2] == _brute_danger(board, figure, cell), (name, cell)


@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize("index", ["odd", "even"])
def test_the_danger_maps_ranges_count_hex_steps(axis: str, index: str) -> None:
    """The danger map's vectorised distances (a range's ``near``..``far``) are the grid's own hex
    steps from every origin, on either stagger axis and index (an orthogonal count of the cell
    names would differ for half the neighbours' neighbours)."""
    board = hex_board(9, 7, staggeraxis=axis, staggerindex=index)  # type: ignore[arg-type]
    grid = board.grid
    steps = Distances(board)
    for origin in grid.cells():
        found = steps.distance(origin, False)
        assert all(found[y, x] == grid.distance(origin, (x, y)) for x, y in grid.cells()), origin
