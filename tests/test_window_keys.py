"""The window's one key table (game/ui/keys.py): the line-of-sight rule's keys are in it and in the
F1 help; the keys that mean something else while the rule's parameters are shown, the large
reader is open or the lesson menu is open (modal) say so; and a sweep of real key presses, in
each of those states, finds no key the window reacts to that the table does not list.

Real window under SDL's dummy driver, real posted pygame events, a real TMX map in ``tmp_path``
and the bundled lessons.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest
from support.window import Clock, key, write_map

from game.play.lessons import LESSONS_DIR, lesson_paths
from game.play.session import Session
from game.ui.app import App
from game.ui.help import help_rows, help_text
from game.ui.keys import CONTEXTS, KEY_BINDINGS, action_for, binding

RULE_KEYS = {
    "rule_next": ("K",), "rule_of_map": ("Shift+K",), "rule_parameters": ("J",),
    "rule_parameters_hide": ("Shift+J",), "rule_row_up": ("I",), "rule_row_down": ("U",),
    "rule_flip": ("H",), "rule_compare": ("X",), "rule_compare_with": ("Shift+X",),
}



def window(path: Path, screen: pygame.Surface) -> App:
    app = App(Session.open(path, autosave=False), screen=screen, time_source=Clock(), watch=False)
    pygame.event.clear()
    app.frame()
    return app


def test_the_rule_keys_are_in_the_table_and_in_the_f1_help() -> None:
    for action, chords in RULE_KEYS.items():
        entry = binding(action)
        assert entry.keys == chords and entry.group == "Line-of-sight rule"
    rows = dict(help_rows()["Line-of-sight rule"])
    assert rows["K"].startswith("the next line-of-sight rule")
    assert rows["Shift+X"].startswith("compare with the next rule")
    # the keys the parameter panel takes say when, and the plain bindings they shadow say when not
    assert rows["I"] == "while J shows the rule's parameters: select the parameter above"
    board_view = dict(help_rows()["Board view"])
    assert board_view["I"].endswith("(not while J shows the rule's parameters)")
    assert board_view["H"].endswith("(not while J shows the rule's parameters)")
    assert "not while" not in board_view["G"]
    assert "Click a rule parameter" in help_text()


def test_contextual_keys_win_only_in_their_state() -> None:
    shown = {"rule_parameters"}
    assert action_for(pygame.K_i, 0) == "reader_findings"
    assert action_for(pygame.K_i, 0, shown) == "rule_row_up"
    assert action_for(pygame.K_h, 0) == "coverage"
    assert action_for(pygame.K_h, 0, shown) == "rule_flip"
    assert action_for(pygame.K_u, 0) is None
    assert action_for(pygame.K_u, 0, shown) == "rule_row_down"
    assert action_for(pygame.K_i, pygame.KMOD_LSHIFT, shown) is None  # modifiers still exact
    assert action_for(pygame.K_k, pygame.KMOD_RSHIFT, shown) == "rule_of_map"
    assert action_for(pygame.K_k, pygame.KMOD_LCTRL) is None
    assert set(CONTEXTS) == {b.when for b in KEY_BINDINGS if b.when}


def test_i_u_h_steer_the_rule_panel_while_it_is_shown_and_do_their_own_jobs_otherwise(
    tmp_path: Path, screen: pygame.Surface,
) -> None:
    app = window(write_map(tmp_path / "board.tmx"), screen)
    board = app.board
    assert board is not None
    key(app, pygame.K_i)  # the findings reader
    assert app.reader.open and app.reader.kind == "findings"
    key(app, pygame.K_i)
    assert not app.reader.open
    key(app, pygame.K_h)
    assert app.presenter.heat_on
    key(app, pygame.K_h)
    assert not app.presenter.heat_on

    key(app, pygame.K_j)
    assert app.presenter.rules.shown and app.key_states() == {"rule_parameters"}
    assert app.presenter.notice is not None and app.presenter.notice[0] == "Rule parameters shown: I/U choose, H flips"
    row = app.presenter.rules.row
    key(app, pygame.K_u)
    assert app.presenter.rules.row == row + 1 and app.presenter.notice is not None and app.presenter.notice[0].startswith("Rule parameter: ")
    key(app, pygame.K_i)
    assert app.presenter.rules.row == row
    assert not app.reader.open  # I went to the panel, not to the findings
    key(app, pygame.K_h)
    assert not app.presenter.heat_on  # H flipped the parameter, not the heat map
    assert app.presenter.rules.rule(board).spec() == "arcadia,from=corners"

    key(app, pygame.K_j, pygame.KMOD_LSHIFT)
    assert not app.presenter.rules.shown and app.key_states() == frozenset()
    key(app, pygame.K_h)
    assert app.presenter.heat_on


def test_the_rule_panel_takes_its_keys_from_the_table() -> None:
    source = (Path(__file__).resolve().parent.parent / "game" / "ui" / "rule_panel.py").read_text(encoding="utf-8")
    assert "pygame.K_" not in source  # no key of its own: the window looks keys up in game/ui/keys.py
    assert "chords('rule_row_up')" in source and "chords('rule_next')" in source  # its hints name the table's keys


def test_k_and_x_with_their_shifts_drive_the_rule_through_the_table(tmp_path: Path, screen: pygame.Surface) -> None:
    app = window(write_map(tmp_path / "board.tmx"), screen)
    board = app.board
    assert board is not None
    key(app, pygame.K_k)
    assert app.presenter.rules.rule(board).spec() == "corners"
    key(app, pygame.K_k, pygame.KMOD_LCTRL)  # not a chord of the table: nothing
    assert app.presenter.rules.rule(board).spec() == "corners"
    key(app, pygame.K_k, pygame.KMOD_LSHIFT)
    assert app.presenter.rules.rule(board).spec() == "arcadia"
    assert app.presenter.notice is not None and app.presenter.notice[0] == "Line-of-sight rule: arcadia (the map's)"
    key(app, pygame.K_x)
    assert app.presenter.rules.comparing
    key(app, pygame.K_x, pygame.KMOD_LSHIFT)
    assert app.presenter.rules.comparing and app.presenter.rules.compare_with == "corners"
    key(app, pygame.K_x)
    assert not app.presenter.rules.comparing


# --- the sweep: every key the window reacts to is in the table ------------------------------

SWEPT_KEYS = [
    *range(pygame.K_a, pygame.K_z + 1), *range(pygame.K_0, pygame.K_9 + 1),
    *(getattr(pygame, f"K_F{n}") for n in range(1, 13)),
    pygame.K_TAB, pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_SPACE, pygame.K_BACKSPACE, pygame.K_DELETE,
    pygame.K_INSERT, pygame.K_HOME, pygame.K_END, pygame.K_PAGEUP, pygame.K_PAGEDOWN,
    pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN,
    pygame.K_PLUS, pygame.K_EQUALS, pygame.K_MINUS, pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET,
    pygame.K_COMMA, pygame.K_PERIOD, pygame.K_SLASH, pygame.K_SEMICOLON, pygame.K_QUOTE,
    pygame.K_BACKSLASH, pygame.K_BACKQUOTE, pygame.K_KP_PLUS, pygame.K_KP_MINUS, pygame.K_KP_ENTER,
]
SWEPT_MODS = [0, pygame.KMOD_LSHIFT, pygame.KMOD_LCTRL, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT, pygame.KMOD_LALT]


def look(app: App) -> tuple[object, ...]:
    """Everything a key could visibly change: the picture, the message, the help, running."""
    picture = hashlib.sha256(pygame.image.tobytes(app.screen, "RGB")).hexdigest()
    return picture, app.presenter.notice, app.help_on, app.running


@contextmanager
def inside(path: Path) -> Iterator[None]:
    import os

    old = Path.cwd()
    os.chdir(path)  # Ctrl+S and Ctrl+L write into the current folder
    try:
        yield
    finally:
        os.chdir(old)


LESSONS = lesson_paths(LESSONS_DIR)[:3]


def opened(state: str, path: Path, screen: pygame.Surface) -> App:
    """A window in ``state``: the map with Rook selected (and J, or I's findings reader), or the
    lessons in classroom mode with the lesson menu open (O)."""
    if state == "lesson_menu":
        app = App(None, screen=screen, lessons=LESSONS, start_in_lessons=True, time_source=Clock(), watch=False)
        pygame.event.clear()
        app.frame()
        key(app, pygame.K_F2)
        key(app, pygame.K_o)
    else:
        app = window(path, screen)
        app.presenter.select(10)  # Rook: the ray, the attack panel, the figure keys have something to act on
        if state == "rule_parameters":
            key(app, pygame.K_j)
        elif state == "reader":
            key(app, pygame.K_i)
    app.presenter.notice = None
    return app


#: per state, a key that visibly acts (in a state: one the state binds otherwise), or None
PROBES = {"": (pygame.K_k, 0), "rule_parameters": (pygame.K_u, 0), "reader": None,
          "lesson_menu": (pygame.K_DOWN, 0)}


@pytest.mark.parametrize("state", ["", "rule_parameters", "reader", "lesson_menu"])
def test_every_key_the_window_reacts_to_is_in_the_table(
    tmp_path: Path, screen: pygame.Surface, state: str,
) -> None:
    path = write_map(tmp_path / "board.tmx")

    def fresh() -> tuple[App, tuple[object, ...]]:
        screen.fill((0, 0, 0))  # no pixels of the last window: a seam the panel leaves would fade for frames
        app = opened(state, path, screen)
        for _ in range(200):  # the map check runs a step a frame (#11.3): let it finish
            if app.session is None or app.session.lint_run is None:
                break
            app.frame()
        seen = None
        for _ in range(10):  # then the panel follows in a frame or two
            app.frame()
            if look(app) == seen:
                break
            seen = look(app)
        else:
            raise AssertionError("the window does not settle without events")
        assert seen is not None
        assert app.key_states() == ({state} if state else set())
        return app, seen

    states = {state} if state else set()
    strays: list[str] = []
    with inside(tmp_path):
        app, before = fresh()
        app.frame()
        assert look(app) == before  # a frame without events changes nothing: the sweep can see keys
        probe = PROBES[state]
        if probe is not None:  # the sweep sees a key act (in a state: one only that state binds so)
            assert not state or action_for(*probe) != action_for(*probe, states)
            key(app, *probe)
            assert look(app) != before, pygame.key.name(probe[0])
            app, before = fresh()
        # every chord the table leaves unbound in this state: pressing it changes nothing
        for code in SWEPT_KEYS:
            for mod in SWEPT_MODS:
                if action_for(code, mod, states) is not None:
                    continue
                key(app, code, mod)
                if look(app) != before:
                    strays.append(f"{pygame.key.name(code)} mod={mod}")
                    app, before = fresh()
    assert strays == [], f"keys the window reacts to that game/ui/keys.py does not list: {strays}"
    assert action_for(pygame.K_u, 0, set()) is None  # so a table without the panel's state fails here


def test_the_lesson_menu_takes_only_its_own_keys() -> None:
    menu = {"lesson_menu"}
    assert action_for(pygame.K_q, 0, menu) is None and action_for(pygame.K_q, 0) == "quit"
    assert action_for(pygame.K_DOWN, 0, menu) == "menu_choose" and action_for(pygame.K_DOWN, 0) == "pan_down"
    assert action_for(pygame.K_o, 0, menu) == "menu_close" and action_for(pygame.K_ESCAPE, 0, menu) == "menu_close"
    assert action_for(pygame.K_KP_ENTER, 0, menu) == "menu_open"


def test_the_reader_scroll_keys_are_the_readers_own(tmp_path: Path, screen: pygame.Surface) -> None:
    from game.ui.reader import Reader

    chords = binding("reader_scroll").keys
    reader = Reader()
    reader.page_lines = 5
    for chord in chords:  # every chord the table gives the reader moves it (none is dead)
        code = {"Up": pygame.K_UP, "Down": pygame.K_DOWN, "PageUp": pygame.K_PAGEUP,
                "PageDown": pygame.K_PAGEDOWN, "Home": pygame.K_HOME, "End": pygame.K_END}[chord]
        assert reader.key(code), chord
        assert action_for(code, 0, {"reader"}) == "reader_scroll"
    assert action_for(pygame.K_UP, 0) == "pan_up" and action_for(pygame.K_HOME, 0) == "fit"
    rows = dict(help_rows()["Board view"])
    assert rows["Up"] == "pan up (not while the large reader is open)"
    app = window(write_map(tmp_path / "board.tmx"), screen)
    key(app, pygame.K_i)
    assert app.key_states() == {"reader"}
    centre = app.view.to_grid(480, 400)
    key(app, pygame.K_UP)  # the reader takes it: the board does not pan
    assert app.view.to_grid(480, 400) == centre
    key(app, pygame.K_i)
    key(app, pygame.K_UP)
    assert app.view.to_grid(480, 400) != centre  # the reader closed: Up pans again
