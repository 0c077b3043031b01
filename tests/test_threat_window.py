"""The threat view in the window: the presenter's ThreatFrame, drawn badges, rings, danger map and
legend, at 1000x650, 1280x800 and 2400x1400, with real pygame events under the dummy driver.

The window shows the same numbers as the designer's solver (and so as ``sightline odds`` and
``sightline attack``: tests/test_threats.py); its work is sliced a few milliseconds a frame and
ends in the same numbers as worked out at once.
"""

from __future__ import annotations

import pygame
import pytest

from game.core.board import Square
from game.designer.danger import danger_map
from game.designer.threats import ThreatSolver
from game.play.presenter import Presenter
from game.play.session import Session
from game.play.threat_view import ThreatView
from game.resources import bundled_maps
from game.ui.app import App
from game.ui.keys import action_for
from game.ui.threat_overlay import RING_NOW, ramp_colours

DEMO = bundled_maps() / "demo.tmx"
SIZES = [(1000, 650), (1280, 800), (2400, 1400)]


class Ticker:
    """A clock that moves on by ``step`` seconds each time it is read (slicing runs out)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 100.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _session() -> Session:
    return Session.open(DEMO, autosave=False, fresh=True)


def _window(size: tuple[int, int]) -> App:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    app = App(_session(), screen=screen, watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    return app


def _key(app: App, code: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0))
    app.frame()


# --- the presenter --------------------------------------------------------------------------


def test_the_frame_carries_the_solvers_badges_and_rings() -> None:
    presenter = Presenter(_session(), clock=lambda: 0.0)
    board = presenter.board
    assert board is not None
    assert presenter.frame().threats is None  # nothing selected
    solver = ThreatSolver()
    for figure in sorted(board.figures):
        presenter.select(figure)
        shown = presenter.frame().threats
        assert shown is not None and not shown.working
        view = solver.figure(board, figure)
        expected = {t.target: t.now for t in view.targets if t.now is not None}
        assert {b.figure: (b.attack, b.hit, b.take_out) for b in shown.badges} == {
            i: (c.attack, float(c.hit), None if c.take_out is None else float(c.take_out)) for i, c in expected.items()}
        rings = {r.figure: r.when for r in shown.rings}
        for threat in view.threatened_by:
            when = "now" if threat.now is not None else "next" if threat.next_turn is not None else None
            assert rings.get(threat.attacker) == when, (figure, threat.attacker)
    assert presenter.frame().as_json()["threats"]["figure"] == figure  # type: ignore[index]


def test_shift_h_cycles_the_danger_map_and_shift_a_hides_the_marks() -> None:
    assert action_for(pygame.K_h, pygame.KMOD_LSHIFT) == "danger_map"
    assert action_for(pygame.K_a, pygame.KMOD_LSHIFT) == "threat_marks"
    presenter = Presenter(_session(), clock=lambda: 0.0)
    presenter.select(presenter.board.find_figure("Ember").id)  # type: ignore[union-attr]
    assert presenter.frame().threats.danger is None  # type: ignore[union-attr]
    presenter.threat("danger")
    shown = presenter.frame().threats
    assert shown is not None and shown.danger is not None and shown.danger.mode == "attackers"
    expected = danger_map(ThreatSolver(), presenter.board, shown.figure)  # type: ignore[arg-type]
    assert (shown.danger.map.next_turn == expected.next_turn).all()
    assert shown.danger.legend.startswith("Danger to Ember: enemies that could attack it there")
    presenter.threat("danger")
    assert presenter.frame().threats.danger.mode == "damage"  # type: ignore[union-attr]
    presenter.threat("danger")
    assert presenter.frame().threats.danger is None  # type: ignore[union-attr]
    presenter.threat("marks")
    shown = presenter.frame().threats
    assert shown is not None and shown.badges == () and shown.rings == ()
    assert presenter.current_notice() == ("threat badges and rings off", "info")


def test_no_threats_in_the_lessons() -> None:
    presenter = Presenter(_session(), clock=lambda: 0.0)
    presenter.toggle_lessons()
    assert presenter.selected is not None and presenter.frame().threats is None


def test_sliced_work_ends_in_the_same_numbers_and_says_it_is_working() -> None:
    board = _session().board
    ember = board.find_figure("Ember").id
    at_once = ThreatView(clock=lambda: 0.0).frame(board, ember)
    sliced = ThreatView(clock=Ticker(0.004), budget=0.005)
    sliced.mode = "attackers"
    frames = [sliced.frame(board, ember)]
    while frames[-1].working:
        frames.append(sliced.frame(board, ember))
        assert len(frames) < 500
    assert len(frames) > 2 and frames[0].badges == () and "working out…" in frames[0].legend
    assert frames[-1].badges == at_once.badges and frames[-1].rings == at_once.rings
    assert frames[-1].danger is not None


def test_a_move_shows_the_old_numbers_until_the_new_ones_are_ready() -> None:
    session = _session()
    board = session.board
    ember = board.find_figure("Ember").id
    view = ThreatView(clock=Ticker(0.004), budget=0.005)
    shown = view.frame(board, ember)
    while shown.working:
        shown = view.frame(board, ember)
    before = shown.badges
    assert before  # Cinder, in sight from (4,3)
    board.move_figure(ember, (6, 3))  # out of Cinder's sight
    first = view.frame(board, ember)
    assert first.working and first.badges == before
    while first.working:
        first = view.frame(board, ember)
    assert first.badges == () and {r.when for r in first.rings} == {"next"}


# --- drawn --------------------------------------------------------------------------------


def _ember_selected(size: tuple[int, int]) -> App:
    """The window with Ember picked by a real click on its token (press and release)."""
    app = _window(size)
    board = app.board
    assert board is not None
    ember = board.find_figure("Ember")
    spot = app.view.square_centre(ember.square)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot, button=1))
    app.frame()
    assert app.presenter.selected == ember.id
    app.frame()
    return app


def _centre(app: App, square: Square) -> tuple[int, int]:
    return app.view.square_centre(square)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rings_badges_and_legend_are_drawn_and_fit(size: tuple[int, int]) -> None:
    app = _ember_selected(size)
    board = app.board
    assert board is not None
    cinder = board.find_figure("Cinder").square
    cx, cy = _centre(app, cinder)
    radius = max(6, round(app.view.cell * 0.5))
    ring = [app.screen.get_at((cx + dx, cy)) for dx in range(radius - 4, radius + 3)]
    assert any(abs(c.r - RING_NOW[0]) < 40 and c.g < 90 and c.b < 90 for c in ring), ring
    rx, ry, rw, _ = app.view.square_rect(cinder)
    plate = app.screen.get_at((rx + rw // 2, ry - 2))
    assert plate.r < 60 and plate.g < 60 and plate.b < 70  # the badge's dark plate above the token
    overlay = app.overlays.threats
    assert overlay.legend.startswith("Ember (") or overlay.legend.startswith("Ember")
    assert 0 < overlay.legend_height < app.view.viewport[3] // 3  # one or two lines, not the board


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_danger_map_is_tinted_under_the_figures(size: tuple[int, int]) -> None:
    app = _ember_selected(size)
    board = app.board
    assert board is not None
    square = next(sq for sq in board.squares() if not board.figures_at(sq) and sq[1] > 6)
    before = app.screen.get_at(_centre(app, square))
    _key(app, pygame.K_h, pygame.KMOD_LSHIFT)
    shown = app.last_frame.threats
    assert shown is not None and shown.danger is not None
    values = shown.danger.values()
    hot = max((sq for sq in board.squares() if shown.danger.map.standable[sq[1], sq[0]] and not board.figures_at(sq)),
              key=lambda sq: values[sq[1], sq[0]])
    colour = app.screen.get_at(_centre(app, hot))
    red = ramp_colours(values[hot[1], hot[0]] / values.max())
    assert colour.r > colour.b and int(red[0]) > int(red[2])
    assert app.screen.get_at(_centre(app, square)) != before
    assert "Danger to Ember" in app.overlays.threats.legend
    _key(app, pygame.K_h, pygame.KMOD_LSHIFT)
    assert "expect there next turn" in app.overlays.threats.legend


def test_dragging_updates_the_threats_live() -> None:
    app = _ember_selected((1280, 800))
    board = app.board
    assert board is not None
    ember = board.find_figure("Ember")
    assert {b.figure for b in app.last_frame.threats.badges} == {board.find_figure("Cinder").id}  # type: ignore[union-attr]
    start, end = _centre(app, ember.square), _centre(app, (6, 3))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.frame()
    for i in range(1, 7):
        pos = (start[0] + (end[0] - start[0]) * i // 6, start[1] + (end[1] - start[1]) * i // 6)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
        app.frame()
    assert board.figure(ember.id).square == (6, 3)  # moved live, not dropped yet
    assert app.last_frame.threats is not None and app.last_frame.threats.badges == ()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame()
    assert app.last_frame.threats is not None and app.last_frame.threats.badges == ()


# --- the balance report over the board (Shift+B) --------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_shift_b_shows_the_fords_balance_report_over_the_board(size: tuple[int, int]) -> None:
    from game.designer.balance import balance
    from game.ui.balance_images import SEEN

    pygame.display.init()
    pygame.font.init()
    app = App(Session.open(bundled_maps() / "ford.tmx", autosave=False, fresh=True),
              screen=pygame.display.set_mode(size), watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    assert app.last_frame.balance is None
    exposed = (19, 6)  # a Blue zone square seen through the breach by Red's three slit squares
    before = app.screen.get_at(app.view.square_centre(exposed))
    _key(app, pygame.K_b, pygame.KMOD_LSHIFT)
    shown = app.last_frame.balance
    assert shown is not None
    board = app.board
    assert board is not None
    report = balance(board, app.presenter.session.loaded.objects, rules=["arcadia"])  # type: ignore[union-attr]
    numbers = report.rules[0]
    assert {s: len(q) for s, q in shown.zones} == {"Blue": 21, "Red": 21}
    for side in numbers.sides:
        zone = next(q for s, q in shown.zones if s == side.side)
        assert all(shown.watched[y, x] == side.watched[y, x] for x, y in zone)
    assert int(shown.watched[6, 19]) == 3 and int(shown.watched[6, 0]) == 9
    assert int((shown.watched > 0).sum()) == 12  # 9 Blue squares, 3 Red ones
    after = app.screen.get_at(app.view.square_centre(exposed))
    assert after != before and after.r > after.b and abs(after.r - SEEN[0]) < 60  # tinted orange
    assert "Red sees 43% of Blue" in app.overlays.balance.legend and "Blue sees 14% of Red" in app.overlays.balance.legend
    assert "Red sees more of Blue's zone" in app.overlays.balance.legend
    assert 0 < app.overlays.balance.legend_height < app.view.viewport[3] // 3
    _key(app, pygame.K_b, pygame.KMOD_LSHIFT)
    assert app.last_frame.balance is None and app.overlays.balance.legend == ""


def test_the_balance_overlay_follows_the_geometry() -> None:
    from game.core.board import Edge
    from game.play.balance_view import BalanceView

    session = Session.open(bundled_maps() / "ford.tmx", autosave=False, fresh=True)
    view = BalanceView(clock=lambda: 0.0)
    view.toggle()
    board = session.board
    first = view.frame(board, session.loaded.objects)
    assert first is not None and "no finding" not in first.legend
    for y in (5, 7):
        board.set_wall(Edge("V", 18, y))
    soon = view.frame(board, session.loaded.objects)  # asked again too soon: the last numbers, working
    assert soon is not None and soon.working and (soon.watched == first.watched).all()
    assert soon.legend.endswith("working out…")
    view.clock = lambda: 10.0
    repaired = view.frame(board, session.loaded.objects)
    assert repaired is not None and "no finding" in repaired.legend
    assert int((repaired.watched > 0).sum()) == 6  # 3 squares each way
