"""The interactive window (game/ui/app.py) under the dummy SDL driver, driven by real pygame events.

Each test posts real events (``pygame.event.post``) and runs the window one frame at a time; the
clock is injected so flashes and file polling are stepped exactly. Maps are tiny TMX files
written into ``tmp_path`` and read by the real loader.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from support.window import (  # noqa: F401
    ALLY,
    DOOR,
    DOOR_XML,
    FIGURES,
    GOB,
    ORC,
    ROOK,
    WALL,
    Clock,
    brightness,
    centre,
    click,
    drag,
    figure_xml,
    grid_px,
    key,
    move,
    near,
    post,
    tmx,
    write_map,
)

from game.core.board import DoorState
from game.play.presenter import REFUSED_FLASH
from game.play.session import Session
from game.ui import theme
from game.ui.app import App
from game.ui.help import help_text
from game.ui.keys import KEY_BINDINGS, MOUSE_ACTIONS, action_for, handler

# --- driving the window -------------------------------------------------------------------


# --- selection ----------------------------------------------------------------------------


def test_click_selects_a_figure_and_clicking_a_stack_cycles_through_it(app: App) -> None:
    assert app.presenter.selected is None
    click(app, centre(app, (1, 1)))
    assert app.presenter.selected == ROOK
    click(app, centre(app, (5, 3)))
    assert app.presenter.selected == GOB
    click(app, centre(app, (5, 3)))
    assert app.presenter.selected == ORC
    assert "Orc" in app.last_frame.panel.figure[0]


def test_tab_and_shift_tab_cycle_the_selection(app: App) -> None:
    key(app, pygame.K_TAB)
    assert app.presenter.selected == ROOK
    key(app, pygame.K_TAB)
    assert app.presenter.selected == GOB
    key(app, pygame.K_TAB, pygame.KMOD_LSHIFT)
    assert app.presenter.selected == ROOK
    key(app, pygame.K_TAB, pygame.KMOD_LSHIFT)
    assert app.presenter.selected == ALLY
    key(app, pygame.K_ESCAPE)
    assert app.presenter.selected is None


# --- the ray ------------------------------------------------------------------------------


def test_hover_draws_the_ray_green_then_red_past_the_wall_and_explains_it(app: App) -> None:
    click(app, centre(app, (1, 1)))
    move(app, centre(app, (5, 1)))
    assert app.presenter.hover == (5, 1)
    assert app.last_frame.ray is not None and not app.last_frame.ray.clear
    status, kind = app.last_frame.status_line
    assert kind == "blocked" and "wall between (2,1) and (3,1)" in status and "V(" not in status
    # the ray runs along y = 1.5: green before the wall at x = 3, red after it
    assert near(app.screen.get_at(grid_px(app, 2.4, 1.5)), theme.RAY_CLEAR)
    assert near(app.screen.get_at(grid_px(app, 3.6, 1.5)), theme.RAY_BLOCKED)


def test_a_clear_ray_is_green_to_its_end(app: App) -> None:
    click(app, centre(app, (1, 1)))
    move(app, centre(app, (1, 3)))
    assert app.last_frame.ray.clear and app.last_frame.status_kind == "clear"
    assert near(app.screen.get_at(grid_px(app, 1.5, 2.5)), theme.RAY_CLEAR)


def test_right_click_pins_the_target_until_unpinned(app: App) -> None:
    click(app, centre(app, (1, 1)))
    click(app, centre(app, (5, 1)), button=3)
    assert app.presenter.pinned == (5, 1)
    move(app, centre(app, (0, 3)))
    assert app.last_frame.ray is not None and app.last_frame.ray.target == (5, 1)
    click(app, centre(app, (5, 1)), button=3)
    assert app.presenter.pinned is None


def test_fov_toggle_darkens_a_hidden_square_only(app: App) -> None:
    click(app, centre(app, (1, 1)))
    move(app, (5, 5))  # cursor away from the board: no ray
    hidden, visible = (4, 0), (0, 0)  # (4,0) is behind the wall V(3,0)
    probe_hidden = grid_px(app, 4.2, 0.2)
    probe_visible = grid_px(app, 0.2, 0.2)
    before_hidden = app.screen.get_at(probe_hidden)
    before_visible = app.screen.get_at(probe_visible)
    key(app, pygame.K_f)
    assert app.presenter.fov_on
    mask = app.presenter.field_of_view()
    assert not mask[hidden[1], hidden[0]] and mask[visible[1], visible[0]]
    assert brightness(app.screen.get_at(probe_hidden)) < brightness(before_hidden) - 60
    assert app.screen.get_at(probe_visible) == before_visible
    key(app, pygame.K_f)
    assert app.screen.get_at(probe_hidden) == before_hidden


# --- dragging -----------------------------------------------------------------------------


def test_drag_moves_a_figure_snapping_to_the_square(app: App) -> None:
    drag(app, centre(app, (1, 1)), (centre(app, (1, 3))[0] + 9, centre(app, (1, 3))[1] - 7))
    assert app.board.figure(ROOK).square == (1, 3)
    assert app.session.history.undo_stack[-1].label == "move Rook (1,1) -> (1,3)"
    assert app.presenter.selected == ROOK


def test_the_fov_follows_the_dragged_figure_live(app: App) -> None:
    click(app, centre(app, (1, 1)))
    key(app, pygame.K_f)
    assert not app.presenter.field_of_view()[0, 4]
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre(app, (1, 1)), button=1))
    app.frame()
    move(app, centre(app, (2, 3)), buttons=(1, 0, 0))
    move(app, centre(app, (4, 3)), buttons=(1, 0, 0))
    assert app.board.figure(ROOK).square == (4, 3)  # moved live, not yet dropped
    assert app.presenter.field_of_view()[0, 4]  # from (4,3) the square (4,0) is in sight
    assert app.overlay().dragging is not None
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre(app, (4, 3)), button=1))
    app.frame()
    assert len(app.session.history.undo_stack) == 1


def test_drop_on_a_full_square_is_refused_and_the_figure_returns(app: App, clock: Clock) -> None:
    drag(app, centre(app, (1, 1)), centre(app, (5, 3)))
    assert app.board.figure(ROOK).square == (1, 1)
    assert not app.session.history.can_undo
    assert app.overlay().refused == (5, 3)
    status, kind = app.last_frame.status_line
    assert kind == "blocked" and "capacity 2" in status and "returns to (1,1)" in status
    # the refused square flashes red
    flash = app.screen.get_at(grid_px(app, 5.1, 3.9))
    assert flash[0] > flash[1] + 60 and flash[0] > flash[2] + 60
    clock.now += REFUSED_FLASH + 0.1
    app.frame()
    assert app.overlay().refused is None


def test_drop_off_the_board_is_refused(app: App) -> None:
    x, y, w, h = app.view.viewport
    drag(app, centre(app, (1, 1)), (x + 3, y + 3))
    assert app.board.figure(ROOK).square == (1, 1)
    assert "outside the board" in app.last_frame.status


# --- doors, undo, redo --------------------------------------------------------------------


def test_click_a_door_cycles_it_and_undo_redo_walk_through(app: App) -> None:
    door_px = grid_px(app, 5.5, 2.0)
    click(app, door_px)
    assert app.board.doors[DOOR].state is DoorState.OPEN
    click(app, door_px)
    assert app.board.doors[DOOR].state is DoorState.LOCKED
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert app.board.doors[DOOR].state is DoorState.OPEN
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert app.board.doors[DOOR].state is DoorState.CLOSED
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert app.board.doors[DOOR].state is DoorState.OPEN
    key(app, pygame.K_z, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)
    assert app.board.doors[DOOR].state is DoorState.LOCKED


def test_undo_and_redo_lines_say_what_happened_not_the_old_state(app: App) -> None:
    door_px = grid_px(app, 5.5, 2.0)
    click(app, door_px)
    click(app, door_px)  # closed -> open -> locked
    click(app, door_px)  # -> closed
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert app.board.doors[DOOR].state is DoorState.LOCKED
    line = "undid: door H(5,2): closed; door H(5,2) back to locked"
    shown = "undid: door between (5,1) and (5,2): closed; door between (5,1) and (5,2) back to locked"
    assert app.session.history.log[-1] == line and app.last_frame.status_line == (shown, "info")
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert app.session.history.log[-1] == "redid: door H(5,2): closed; door H(5,2) now closed"


def test_esc_takes_the_last_message_with_it(app: App) -> None:
    hint = "Click a figure or press Tab to select it. F1 lists every key."
    click(app, centre(app, (1, 1)))
    click(app, grid_px(app, 5.5, 2.0))
    move(app, (app.view.viewport[2] + 50, 10))  # over the panel: no ray, the message shows
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert app.last_frame.status.startswith("redid: door between (5,1) and (5,2): open")
    key(app, pygame.K_ESCAPE)  # deselects: the neutral hint, not the stale "redid"
    assert app.presenter.selected is None and app.last_frame.status_line == (hint, "info")
    click(app, centre(app, (1, 1)))
    move(app, (app.view.viewport[2] + 50, 10))
    key(app, pygame.K_r)  # no target: the roll is refused with its reason
    assert app.last_frame.status_kind == "error" and "target" in app.last_frame.status
    key(app, pygame.K_ESCAPE)
    assert app.presenter.selected is None and app.last_frame.status_line == (hint, "info")


def test_undo_takes_back_a_drag_and_c_closes_all_doors(app: App) -> None:
    drag(app, centre(app, (1, 1)), centre(app, (2, 3)))
    click(app, grid_px(app, 5.5, 2.0))
    assert app.board.doors[DOOR].state is DoorState.OPEN
    key(app, pygame.K_c)
    assert app.board.doors[DOOR].state is DoorState.CLOSED
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.board.figure(ROOK).square == (1, 1)
    assert app.session.history.log[-1] == "undid: move Rook (1,1) -> (2,3); Rook back on (1,1)"


def test_opening_a_door_updates_the_fov_live(app: App) -> None:
    click(app, centre(app, (1, 3)))  # an empty square: nothing selected
    assert app.presenter.selected is None
    click(app, centre(app, (5, 3)))
    assert app.presenter.selected == GOB
    key(app, pygame.K_f)
    assert not app.presenter.field_of_view()[0, 5]  # (5,0) lies behind the closed door H(5,2)
    click(app, grid_px(app, 5.5, 2.0))
    assert app.board.doors[DOOR].state is DoorState.OPEN
    assert app.presenter.field_of_view()[0, 5]


# --- view ---------------------------------------------------------------------------------


def test_wheel_zooms_around_the_cursor_and_home_fits(app: App) -> None:
    fitted = app.view.cell
    pos = centre(app, (2, 2))
    grid_before = app.view.to_grid(*pos)
    move(app, pos)
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0))
    app.frame()
    assert app.view.cell > fitted
    after = app.view.to_grid(*pos)
    assert abs(after[0] - grid_before[0]) < 1e-6 and abs(after[1] - grid_before[1]) < 1e-6
    key(app, pygame.K_HOME)
    assert app.view.cell == pytest.approx(fitted)


def test_right_drag_and_arrow_keys_pan(app: App) -> None:
    origin = app.view.origin
    start = centre(app, (3, 3))
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=3))
    app.frame()
    move(app, (start[0] + 40, start[1] + 10), buttons=(0, 0, 1))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0] + 40, start[1] + 10), button=3))
    app.frame()
    assert app.view.origin == pytest.approx((origin[0] + 40, origin[1] + 10))
    assert app.presenter.pinned is None  # a drag is a pan, not a pin
    key(app, pygame.K_LEFT)
    assert app.view.origin[0] > origin[0] + 40


# --- help ---------------------------------------------------------------------------------


def test_f1_shows_the_help_overlay_and_esc_closes_it(app: App) -> None:
    probe = (20, 20)
    plain = app.screen.get_at(probe)
    key(app, pygame.K_F1)
    assert app.help_on
    assert brightness(app.screen.get_at(probe)) < brightness(plain)
    key(app, pygame.K_ESCAPE)
    assert not app.help_on


def test_every_key_runs_a_method_and_is_in_the_help(app: App) -> None:
    text = help_text()
    for binding in KEY_BINDINGS:
        assert callable(handler(app, binding)), binding.action  # the presenter's, the reader's, the window's
        assert " / ".join(binding.keys) in text
    assert not [name for name in dir(App) if name.startswith("action_")]  # no forwarding layer
    for mouse in MOUSE_ACTIONS:
        assert mouse.gesture in text


def test_key_chords_need_their_exact_modifiers() -> None:
    assert action_for(pygame.K_z, pygame.KMOD_LCTRL) == "undo"
    assert action_for(pygame.K_z, 0) is None
    assert action_for(pygame.K_TAB, pygame.KMOD_RSHIFT) == "select_prev"
    assert action_for(pygame.K_EQUALS, pygame.KMOD_SHIFT) == "zoom_in"  # "+" on a US keyboard
    assert action_for(pygame.K_f, pygame.KMOD_CAPS) == "toggle_fov"
    assert action_for(pygame.K_q, pygame.KMOD_CTRL) is None


def test_q_quits(app: App) -> None:
    key(app, pygame.K_q)
    assert not app.running


def test_docs_window_md_lists_every_key_and_gesture() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "window.md").read_text(encoding="utf-8")
    for binding in KEY_BINDINGS:
        for chord in binding.keys:
            assert f"`{chord}`" in docs, chord
    for mouse in MOUSE_ACTIONS:
        assert mouse.gesture in docs, mouse.gesture


def test_clicking_a_finding_centres_the_board_on_its_square(tmp_path: Path, screen: pygame.Surface) -> None:
    from game.ui.panel import FindingsSection

    crowd = [figure_xml(60 + i, f"Extra{i}", "red", (6, 4)) for i in range(3)]  # 3 > capacity 2
    path = tmp_path / "crowd.tmx"
    path.write_text(tmx([WALL, DOOR_XML, *crowd]), encoding="utf-8")
    window = App(Session.open(path), screen=screen, time_source=Clock())
    window.frame()
    findings = [f for f in window.session.findings if f.square == (6, 4)]
    assert findings, window.session.findings
    section = window.panel.section(FindingsSection)
    index = window.session.findings.index(findings[0])
    row = section.list.item_list[index]["button_element"]
    assert row is not None
    click(window, row.rect.center)
    window.frame()  # the row's press event reaches the list ...
    window.frame()  # ... whose selection event reaches the window
    x, y, w, h = window.view.viewport
    cx, cy = window.view.square_centre((6, 4))
    assert abs(cx - (x + w / 2)) <= 1 and abs(cy - (y + h / 2)) <= 1
    assert window.presenter.focused == findings[0]
    assert any(m.square == (6, 4) for m in window.overlay().markers)


def test_clicking_a_finding_without_a_square_centres_on_its_object_and_outlines_it(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    from game.ui.panel import FindingsSection

    diagonal = "<object id='7' type='wall' x='160' y='0'><polyline points='0,0 32,64'/></object>"
    path = tmp_path / "diagonal.tmx"
    path.write_text(tmx([WALL, diagonal], width=12, height=9), encoding="utf-8")
    window = App(Session.open(path), screen=screen, time_source=Clock())
    window.frame()
    findings = [f for f in window.session.findings if f.object_id == 7 and f.square is None]
    assert findings, window.session.findings
    assert not any(m.square in ((5, 0), (5, 1)) for m in window.overlay().markers)
    section = window.panel.section(FindingsSection)
    row = section.list.item_list[window.session.findings.index(findings[0])]["button_element"]
    click(window, row.rect.center)
    window.frame()
    window.frame()
    assert window.presenter.focused == findings[0]
    assert window.last_frame.status_line == (FindingsSection.full_text(findings[0]), "finding")  # whole
    x, y, w, h = window.view.viewport
    cx, cy = window.view.to_screen(5.5, 1.0)  # the middle of the wall from corner (5,0) to (6,2)
    assert abs(cx - (x + w / 2)) <= 1 and abs(cy - (y + h / 2)) <= 1
    outlined = {m.square for m in window.overlay().markers}
    assert {(5, 0), (5, 1)} <= outlined
