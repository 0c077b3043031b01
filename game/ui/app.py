"""The interactive window: the board on the left, the pygame_gui side panel on the right.

One :class:`App` runs one frame at a time: :meth:`App.frame` reads the pygame events
(:meth:`App.handle_event`), advances the clock-driven parts (:meth:`App.update`: the dice, the
flashes, the file watcher) and draws (:meth:`App.draw`). Tests post real pygame events and call
``frame()``; the clock is injected (``time_source``) so they step time exactly.

The window keeps events, layout and drawing. What is selected, hovered, pinned, which rule and
toggles are on, the lessons, the attack being built and what the status line and the panel say
belong to the presenter (:class:`~game.play.presenter.Presenter`, no pygame), which hands the
window a :class:`~game.play.frame.Frame` to draw each frame. Keys come from the single table of
``game/ui/keys.py``, each bound straight to the method that does it (the presenter's, the
reader's, or the window's own below: view, layout, pictures, the clipboard).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game import startup
from game.core.board import Board, Edge, Square
from game.core.errors import SightlineError
from game.core.profiles import Profile
from game.core.words import plural
from game.play.findings import finding_area, map_check_state
from game.play.frame import Frame
from game.play.presenter import Presenter
from game.play.rule_words import exact_lines
from game.play.session import Session
from game.play.wording import WINDOW_PROMPTS, plain
from game.ui import classroom, theme
from game.ui.attack_panel import AttackSection
from game.ui.banner import Banner
from game.ui.board_labels import draw_card, draw_coordinates, free_area
from game.ui.design_overlays import DesignOverlays
from game.ui.dice_tray import DiceTray
from game.ui.display import open_window, save_screenshot
from game.ui.heat import CoverageOverlay
from game.ui.help import HelpOverlay
from game.ui.hex_painter import painter_for
from game.ui.keys import action_for, binding_for, chords, handler
from game.ui.measure_overlay import draw_reach, draw_ruler
from game.ui.painter import Overlay
from game.ui.panel import (
    LESSON_TEXT_PX,
    PANEL_WIDTH,
    CentreOn,
    FindingsSection,
    OpenReader,
    SidePanel,
)
from game.ui.reader import Reader, filtered
from game.ui.rule_panel import RulePanel
from game.ui.scale import logical_size, ui_scale_for
from game.ui.view import View
from game.ui.watch import FileWatcher

__all__ = ["App", "run_window"]

DEFAULT_SIZE = (1280, 800)
#: pixels the mouse must travel before a press becomes a drag
DRAG_THRESHOLD = 4
ZOOM_STEP = 1.15
#: seconds between two refreshes of the side panel's text while a figure is dragged
PANEL_DRAG_INTERVAL = 0.12
FPS = 60
#: classroom mode: the share of the window's width the lesson text column takes
CLASSROOM_COLUMN = 0.3

GUI_THEME: dict[str, Any] = {
    "#side_panel": {"colours": {"dark_bg": "#1E2026", "normal_border": "#3A3E48"}},
    "#section_heading": {
        "colours": {"normal_text": "#FFD666"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "text_box": {
        "colours": {"dark_bg": "#25282F", "normal_border": "#3A3E48"},
        # a slimmer margin than pygame_gui's 5 px: at 1280x800 the log shows a third line
        "misc": {"line_spacing": "1.1", "padding": "5,3"},
    },
    "selection_list": {"colours": {"dark_bg": "#25282F"}},
    # the map check's rows: a long finding goes on over several rows, read from the left
    "@selection_list_item": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}},
}


@dataclass
class _Press:
    """A left-button press that may become a click, a door click or a drag."""

    pos: tuple[int, int]
    square: Square | None
    door: Edge | None
    figure: int | None
    dragging: bool = False
    #: which end of the ray a press on an empty square drags: "start", "end" or None
    end: str | None = None


@dataclass
class _Pan:
    """A right- or middle-button press: a pan when dragged, a pin (right button) when not."""

    button: int
    start: tuple[int, int]
    last: tuple[int, int]
    moved: bool = False


class App:
    """The window on one session (and, with ``lessons``, the lesson tour)."""

    def __init__(
        self,
        session: Session | None,
        *,
        screen: pygame.Surface | None = None,
        size: tuple[int, int] = DEFAULT_SIZE,
        time_source: Callable[[], float] = time.monotonic,
        lessons: Sequence[Path] | None = None,
        start_in_lessons: bool = False,
        watch: bool = True,
        caches: bool = True,
        ui_scale: float | None = None,
        rule: Profile | None = None,
        lesson_options: Mapping[str, Any] | None = None,
    ) -> None:
        if not pygame.display.get_init():
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        self.dice_tray = DiceTray(rules=lambda: self.presenter.attack.ruleset)  # draws the rules' own dice
        #: the play logic: selection, sight, rule, toggles, lessons, attack, status (no pygame)
        self.presenter = Presenter(session, lessons=lessons, lesson_options=lesson_options, rule=rule,
                                   clock=time_source, tray=self.dice_tray, prompts=WINDOW_PROMPTS,
                                   chords=chords, caches=caches)
        self.screen = screen if screen is not None else pygame.display.set_mode(size, pygame.RESIZABLE)
        self.time = time_source
        self.watch_enabled = watch
        self.caches = caches
        self.running = True
        self.help_on = False
        self.help = HelpOverlay(self.presenter.cell_noun)  # in the map's cells' words
        #: the large log / findings reader over the board (Shift+L, I; game/ui/reader.py)
        self.reader = Reader()
        #: the coverage heat map (H; computed off the frame loop, game/ui/heat.py)
        self.heat = CoverageOverlay()
        #: the threat view and the balance report over the board (game/ui/design_overlays.py)
        self.overlays = DesignOverlays()
        #: the rule's shading, sentences, badge and parameter rows (game/ui/rule_panel.py)
        self.rule_panel = RulePanel()
        #: what was drawn last: the frame, the hover card, classroom mode's card (tests read them)
        self.last_frame = Frame()
        self.last_card: pygame.Rect | None = None
        self.last_callout: pygame.Rect | None = None
        #: the red banner over the board (game/ui/banner.py)
        self.banner = Banner()
        #: the cell size the last fit chose: a resize refits while the user has not zoomed
        self._fit_cell: float | None = None
        self.mouse_pos: tuple[int, int] = (0, 0)
        self.press: _Press | None = None
        self.pan_press: _Pan | None = None
        self._last_time = self.time()
        self._panel_refreshed = -1e9
        #: the UI scale asked for (``--ui-scale``; None follows the window, game/ui/scale.py)
        self.ui_scale_setting = ui_scale
        self.ui_scale = ui_scale_for(self.screen.get_size(), ui_scale)
        self._gui_surface: pygame.Surface | None = None
        self.manager = self._new_manager()
        #: the room kept above the board (the banner) and below it (heat legend, rule strip)
        self._bands: tuple[int, int] = (0, 0)
        self.view = View(viewport=self._board_viewport())
        self.panel = SidePanel(self.manager, self._panel_rect())
        self.attack_section = AttackSection(self.presenter.attack)
        self.panel.add_section(self.attack_section, 3)
        self.painter = painter_for(None)
        self.watcher = FileWatcher((), time_source=self.time)
        self.presenter.on_switch = self._shown
        self.presenter.start(lessons=start_in_lessons)

    # --- the session on screen -----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The session shown now (the presenter's)."""
        return self.presenter.session

    @property
    def board(self) -> Board | None:
        """The board shown now."""
        return self.presenter.board

    def _shown(self, session: Session | None) -> None:
        """The presenter shows another session: new painter for its art, fit the board, watch its
        files; the hovered square is found again under the mouse on the new view."""
        self.painter = painter_for(session)
        for warning in self.painter.warnings:
            self.presenter.notify(warning, "error")
        if session is not None:
            self.fit()
            self.watcher.watch(session.dependencies if self.watch_enabled else ())
            pygame.display.set_caption(f"Sightline: {session.path.name}")
        self.presenter.hover = self._square_under_mouse()

    def _square_under_mouse(self) -> Square | None:
        """The square under the mouse now (None off the board or over the panel)."""
        if self.board is None or not self.view.in_viewport(*self.mouse_pos):
            return None
        return self.view.square_at(*self.mouse_pos)

    # --- layout ---------------------------------------------------------------------------

    def _new_manager(self) -> pygame_gui.UIManager:
        """The GUI manager for the UI scale: it lays out at the *logical* size (window / scale)."""
        manager = pygame_gui.UIManager(self._logical_size(), GUI_THEME)
        manager.mouse_pos_scale_factor = [1 / self.ui_scale, 1 / self.ui_scale]
        manager.preload_fonts(
            [
                {"name": "noto_sans", "point_size": 14, "style": "bold"},
                {"name": "noto_sans", "point_size": 14, "style": "italic"},
                {"name": "noto_sans", "point_size": LESSON_TEXT_PX, "style": "regular", "antialiased": "1"},
            ]
        )
        self._gui_surface = None
        return manager

    def _logical_size(self) -> tuple[int, int]:
        """The window's size in UI units (pixels at UI scale 1)."""
        width, height = self.screen.get_size()
        return logical_size((width, height), self.ui_scale)

    def _panel_width(self) -> int:
        """The panel's width in UI units."""
        return min(PANEL_WIDTH, max(200, self._logical_size()[0] // 3))

    def _panel_screen_width(self) -> int:
        """The panel's width on the screen, in pixels (classroom mode: the lesson text column)."""
        if self.presenter.presenting:
            return round(self.screen.get_width() * CLASSROOM_COLUMN)
        return min(self.screen.get_width(), round(self._panel_width() * self.ui_scale))

    def _board_viewport(self) -> tuple[int, int, int, int]:
        """The board area: left of the panel, between the band above (the banner) and the band
        below (the heat legend, the rule's strip) that overlays would otherwise cover it with."""
        width, height = self.screen.get_size()
        top, bottom = self._bands
        return 0, top, max(1, width - self._panel_screen_width()), max(1, height - top - bottom)

    def _bands_for(self, frame: Frame) -> tuple[int, int]:
        """How much room the banner needs above the board and the heat legend and the rule's
        strip need below it this frame."""
        width = max(1, self.screen.get_width() - self._panel_screen_width())
        top = self.banner.height(frame.banner, width, self.ui_scale)
        bottom = self.rule_panel.height(frame, width, self.ui_scale)
        if frame.heat and self.board is not None:
            bottom += self.heat.legend_height(self.board, frame.hover, width, self.ui_scale)
        limit = self.screen.get_height() // 2  # the board keeps at least half the window
        return min(top, limit // 2), min(bottom, limit)

    def _fit_bands(self, frame: Frame) -> None:
        """Lay the board out again when a band above or below it changed height (a banner came
        or went, the rule's parameters were shown, ...): as a resize does, the zoom and the
        middle stay, or the board is fitted again when the user has not zoomed."""
        bands = self._bands_for(frame)
        if bands != self._bands:
            self._bands = bands
            self._new_viewport()

    def _panel_rect(self) -> pygame.Rect:
        """The panel's rectangle in UI units (the GUI manager's coordinates)."""
        width, height = self._logical_size()
        return pygame.Rect(width - self._panel_width(), 0, self._panel_width(), height)

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: new viewport, panel laid out again.

        The zoom stays, and the grid point at the middle of the board area stays at its middle
        (only opening a map and ``Home`` fit the whole board).
        """
        display = pygame.display.get_surface()
        if display is not None and self.screen.get_size() != display.get_size():
            self.screen = display  # pygame-ce resizes the display surface itself
        scale = ui_scale_for(self.screen.get_size(), self.ui_scale_setting)
        if scale != self.ui_scale:  # new type sizes: a new GUI manager, the panel built on it
            self.ui_scale = scale
            self.manager = self._new_manager()
            self.panel.rebind(self.manager)
        self.manager.set_window_resolution(self._logical_size())
        self._new_viewport()
        self.panel.layout(self._panel_rect())

    def _new_viewport(self) -> None:
        """The board area changed: keep the zoom and the grid point in its middle, or fit the
        board again when the user has not zoomed since the last fit."""
        x, y, w, h = self.view.viewport
        centre = self.view.to_grid(x + w / 2, y + h / 2)
        fitted = self._fit_cell is not None and abs(self.view.cell - self._fit_cell) < 1e-9
        self.view.viewport = self._board_viewport()
        if fitted:  # the user never zoomed since the last fit: the board follows the window
            self.fit()
        else:
            x, y, w, h = self.view.viewport
            cx, cy = self.view.to_screen(*centre)
            self.view.pan(x + w / 2 - cx, y + h / 2 - cy)

    def fit(self) -> None:
        """Home: fit the whole board, and remember the zoom that fit chose (see :meth:`resize`)."""
        if self.board is not None:
            self.view.use_grid(self.board.grid)  # squares, or a hex map's pixel layout
            self.view.fit(self.board.width, self.board.height)
            self._fit_cell = self.view.cell

    def zoom(self, steps: int) -> None:
        """+ / -: zoom in (out) around the middle of the board area."""
        x, y, w, h = self.view.viewport
        self.view.zoom_at(ZOOM_STEP**steps, x + w / 2, y + h / 2)

    def pan_by(self, dx: int, dy: int) -> None:
        """The arrows: the board moves by two squares (at least 40 px) that way."""
        step = max(self.view.cell * 2, 40.0)
        self.view.pan(dx * step, dy * step)

    def present(self) -> None:
        """F2: classroom mode on or off (into the lessons first when a map is shown)."""
        if self.presenter.toggle_classroom():
            self.view.viewport = self._board_viewport()  # the board area changed width
            self.panel.layout(self._panel_rect())
            self.fit()

    # --- one frame ------------------------------------------------------------------------

    def frame(self) -> None:
        """Handle the pending events, update and draw once (no waiting)."""
        for event in pygame.event.get():
            self.handle_event(event)
        now = self.time()
        dt = max(0.0, now - self._last_time)
        self._last_time = now
        self.update(dt)
        self.draw()
        pygame.display.flip()
        self._lint_step()

    def _lint_step(self) -> None:
        """One step of a deferred map check, after the frame is on the screen (#11.3): the first
        frame never waits for the whole-board checks; the panel shows how far they are."""
        sessions = (self.presenter.main_session, self.session)
        for session in {id(s): s for s in sessions if s is not None}.values():
            if session.lint_run is not None:
                session.lint_step()
                return

    def run(self, frames: int | None = None, screenshot: Path | None = None) -> int:
        """The main loop: until quit, or ``frames`` frames; then save ``screenshot`` if asked."""
        clock = pygame.time.Clock()
        count = 0
        while self.running and (frames is None or count < frames):
            self.frame()
            if count == 0:
                startup.over(freeze=True)  # the collector resumes after the first frame
            count += 1
            if frames is None:
                clock.tick(FPS)
        if screenshot is not None:
            save_screenshot(self.screen, screenshot)
        return 0

    def update(self, dt: float) -> None:
        """Time-driven work: the GUI's animations, the dice, expiring flashes, reloading changed maps."""
        self.manager.update(dt)
        self.presenter.tick(dt)
        watching = self.watch_enabled and self.session is not None and self.press is None
        if watching and self.watcher.poll():
            self.reload()

    def reload(self) -> None:
        """F5, or a watched file changed: read the shown map again (the view stays where it is)."""
        session = self.session
        if session is None:
            return
        if self.presenter.reload():
            cell, origin = self.view.cell, self.view.origin
            self.painter = painter_for(session)
            self.view.use_grid(session.board.grid)  # and its size
            self.view.cell, self.view.origin = cell, origin
        self.watcher.watch(session.dependencies if self.watch_enabled else ())

    # --- events ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """One pygame event: GUI first, then the window, keys and the board."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
            return
        if hasattr(event, "pos"):
            self.mouse_pos = tuple(int(v) for v in event.pos)  # type: ignore[assignment]
        if self.presenter.classroom.menu and event.type == pygame.KEYDOWN:
            self._key(event)  # the menu is modal: only its keys of the table count
            return
        if self.reader.open and self._reader_event(event):
            return
        parameter = self.rule_panel.row_at(event) if self.board is not None and not self.attack_section.typing else None
        if parameter is not None:  # a click on the rule's parameter rows flips that row
            self.presenter.flip_rule_parameter(parameter)
            return
        presenting = self.presenter.presenting
        consumed = False if presenting and event.type != pygame.KEYDOWN else self.manager.process_events(event)
        request = self.panel.process_event(event)
        if isinstance(request, CentreOn):
            self.focus_finding(request.finding)
            return
        if isinstance(request, OpenReader):
            if self.reader.kind != request.kind:
                self.reader.toggle(request.kind)
            return
        if event.type == pygame.KEYDOWN:
            if self.attack_section.typing:  # the play entry has the keyboard
                if event.key == pygame.K_ESCAPE and self.attack_section.play_entry is not None:
                    self.attack_section.play_entry.unfocus()
                return
            self._key(event)
        elif event.type == pygame.MOUSEWHEEL:
            if self.view.in_viewport(*self.mouse_pos):
                self.view.zoom_at(ZOOM_STEP ** max(-5, min(5, event.y)), *self.mouse_pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 1 and self.banner.rect is not None and self.banner.rect.collidepoint(event.pos):
                self.presenter.dismiss_banner()  # the banner stands above the board: a click dismisses it
            elif not consumed and self.view.in_viewport(*event.pos):
                self._mouse_down(event.button, event.pos)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._mouse_up(event.button, event.pos)

    def key_states(self) -> frozenset[str]:
        """The states of :data:`game.ui.keys.CONTEXTS` that hold now (their keys win)."""
        states = set()
        if self.presenter.classroom.menu:
            states.add("lesson_menu")
        if self.reader.open:
            states.add("reader")
        if self.presenter.rules.shown and self.board is not None:
            states.add("rule_parameters")
        return frozenset(states)

    def _key(self, event: pygame.event.Event) -> bool:
        """Look a key press up in the table (game/ui/keys.py) and run the method bound to it;
        False when the table binds nothing to it in the window's present state."""
        found = binding_for(event.key, event.mod, self.key_states())
        if found is None:
            return False
        entry, chord = found
        if entry.idle and self.press is not None:
            return True  # nothing is rolled or undone while a mouse button is held
        handler(self, entry)(*entry.arguments(chord, event.key))
        return True

    def _reader_event(self, event: pygame.event.Event) -> bool:
        """The reader's share of the events (scroll keys, wheel, clicks, resizing): True if taken."""
        reader = self.reader
        area = pygame.Rect(self.view.viewport)
        if event.type == pygame.KEYDOWN:  # the table's reader_scroll keys (game/ui/keys.py)
            return action_for(event.key, event.mod, self.key_states()) == "reader_scroll" and self._key(event)
        if event.type == pygame.MOUSEWHEEL:
            if reader.rect is not None and reader.rect.collidepoint(self.mouse_pos):
                reader.scroll_by(-3 * event.y)
                return True
            return False
        if event.type == pygame.MOUSEMOTION and reader.resizing:
            reader.drag_to(event.pos[1], area)
            return True
        if event.type == pygame.MOUSEBUTTONUP and reader.resizing:
            reader.resizing = False
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if reader.handle_at(event.pos):
                reader.resizing = True
                return True
            hit = reader.click(event.pos)
            if hit is None:
                return False
            what, value = hit
            if what == "button" and value == "close":
                reader.close()
            elif what == "button" and value == "save":
                self.presenter.export_log()
            elif what == "button" and value == "copy":
                self.copy_log()
            elif what == "button":
                reader.severity = value
                reader.scroll = 0
            elif what == "entry" and reader.kind == "findings":
                shown = self._filtered_findings()
                if 0 <= value < len(shown):
                    self.focus_finding(shown[value][1])
            return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return reader.rect is not None and reader.rect.collidepoint(event.pos)
        return False

    def _mouse_down(self, button: int, pos: tuple[int, int]) -> None:
        if self.help_on:
            self.help_on = False
            return
        attack = self.presenter.attack
        if self.board is None:
            return
        if button == 1 and attack.tray.active:
            if attack.tray.busy:  # a click while the dice roll finishes them
                attack.skip()
                return
            attack.dismiss()
        if button == 1:
            square = self.view.square_at(*pos)
            door = self._door_at(pos)
            figure, end = self.presenter.grab(square, door)
            self.press = _Press(pos, square, door, figure, end=end)
        elif button in (2, 3):
            self.pan_press = _Pan(button, pos, pos)

    def _door_at(self, pos: tuple[int, int]) -> Edge | None:
        board = self.board
        if board is None:
            return None
        edge = self.view.nearest_edge(*pos, max(5.0, self.view.cell * 0.2))
        return edge if edge is not None and edge in board.doors else None

    def _mouse_motion(self, pos: tuple[int, int]) -> None:
        square = self.view.square_at(*pos)
        if self.reader.rect is not None and self.reader.rect.collidepoint(pos):
            square = None  # over the reader: no square of the board under it is hovered
        self.presenter.point_at(square)
        pan = self.pan_press
        if pan is not None:
            if not pan.moved and math.dist(pos, pan.start) >= DRAG_THRESHOLD:
                pan.moved = True
            if pan.moved:
                self.view.pan(pos[0] - pan.last[0], pos[1] - pan.last[1])
            pan.last = pos
        press = self.press
        if press is None or (press.end is None and press.figure is None):
            return
        if not press.dragging and math.dist(pos, press.pos) >= DRAG_THRESHOLD:
            press.dragging = True
            if press.end is None and press.figure is not None:
                self.presenter.begin_drag(press.figure)
        if press.dragging and press.end is not None:
            if square is not None:  # drag an end of the ray
                self.presenter.move_ray_end(press.end, square)
        elif press.dragging:
            self.presenter.drag_to(square)

    def _mouse_up(self, button: int, pos: tuple[int, int]) -> None:
        if button in (2, 3) and self.pan_press is not None and self.pan_press.button == button:
            pan, self.pan_press = self.pan_press, None
            if button == 3 and not pan.moved:
                self.presenter.right_click(self.view.square_at(*pos))
            return
        if button != 1 or self.press is None:
            return
        press, self.press = self.press, None
        if press.end is not None and press.dragging:
            return  # an end of the ray was dragged: it stays where it was let go
        if press.dragging and press.figure is not None:
            self.presenter.drop(self.view.square_at(*pos))
        else:
            self.presenter.click(press.square, press.door, press.figure)

    # --- the window's own actions (bound in game/ui/keys.py) ---------------------------------

    def toggle_help(self) -> None:
        """F1: open the help, turn its page, close it after the last page."""
        if self.help_on and self.help.next_page():
            return
        self.help_on = not self.help_on

    def quit(self) -> None:
        """Q: stop the main loop (the play state is already saved)."""
        self.running = False

    def escape(self) -> None:
        """Esc: the innermost thing first (and the message goes: the neutral hint comes back)."""
        self.presenter.notice = None
        if self.help_on:
            self.help_on = False
        elif self.reader.open:
            self.reader.close()
        elif self.attack_section.close_rules() or self.presenter.attack.dismiss():  # the `?` list first
            pass
        elif self.press is not None and self.press.dragging and self.presenter.cancel_drag():
            self.press = None
        else:
            self.presenter.escape()

    def play_entry(self) -> None:
        """Enter: type the play into the attack panel (classroom mode: reveal the answer)."""
        if self.presenter.presenting:
            self.presenter.reveal()
        elif not self.presenter.lesson_mode:
            self.attack_section.focus_play()

    def _filtered_findings(self) -> list[tuple[int, Any]]:
        """The map check's findings the severity filter keeps, with their numbers."""
        session = self.session
        if session is None or self.presenter.lesson_mode:
            return []
        return filtered(session.findings, self.reader.severity)

    def finding_filter(self) -> None:
        """F4: which findings the panel and the reader list: all, errors, warnings."""
        severity = self.reader.next_filter()
        self.presenter.notify(
            f"Map check: showing {'every finding' if severity == 'all' else severity + 's only'}", "info")

    def step_finding(self, step: int) -> None:
        """F3 / Shift+F3: the next (previous) finding of the filter: centred, outlined, explained."""
        shown = [f for _, f in self._filtered_findings()]
        if not shown:
            self.presenter.notify("Map check: no finding to go to", "info")
            return
        focused = self.presenter.focused
        index = shown.index(focused) if focused in shown else (-1 if step > 0 else 0)
        self.focus_finding(shown[(index + step) % len(shown)])
        if self.reader.kind == "findings":
            self.reader.show_entry(shown.index(self.presenter.focused))

    def focus_finding(self, finding: Any) -> None:
        """A finding clicked in the panel: centre the board on it and outline it.

        A finding without a square (a diagonal wall, an object off the grid) is found through
        its object id in the loaded map: the board centres on the object and outlines the
        squares under it.
        """
        self.presenter.focused = finding
        self.presenter.notify(plain(FindingsSection.full_text(finding)), "finding")  # the row may be cut short
        if finding.square is not None:
            self.centre_on(finding.square)
            return
        found = finding_area(self.session, finding)
        if found is not None:
            self._centre_point(*found[0])

    def centre_on(self, square: Square | None) -> None:
        """Put a square in the middle of the board area (a clicked finding)."""
        if square is None:
            return
        self._centre_point(*self.view.grid_centre(square))
        self.presenter.hover = square

    def _centre_point(self, gx: float, gy: float) -> None:
        x, y, w, h = self.view.viewport
        if self.reader.open and not self.presenter.presenting:  # the middle of what the reader leaves free
            h -= self.reader.area(pygame.Rect(self.view.viewport)).h
        cx, cy = self.view.to_screen(gx, gy)
        self.view.pan(x + w / 2 - cx, y + h / 2 - cy)

    def export_view(self) -> None:
        """Ctrl+S: the window as it is now, as a PNG in the current folder."""
        path = Path.cwd() / f"{self.presenter.export_name()}.png"
        try:
            save_screenshot(self.screen, path)
        except SightlineError as exc:
            self.presenter.notify(str(exc), "error")
            return
        self.presenter.notify(f"saved {path}", "info")

    def export_steps(self) -> None:
        """Ctrl+Shift+S: the lesson board with its whole ray, then one PNG per crossing."""
        p = self.presenter
        if not p.lesson_mode or p.tour is None or self.board is None:
            p.notify("Ctrl+Shift+S saves a lesson's steps: open the lessons first (L).", "error")
            return
        from game.ui.render import render_surface, save_png

        ray = p.ray()
        if ray is None:
            p.notify("this lesson names no ray to step through", "error")
            return
        art = getattr(self.session.loaded, "art", None) if self.session is not None else None
        written = []
        try:
            for step in [None, *range(len(ray.crossings))]:
                overlay = Overlay(selected=p.selected, ray=ray, step=step, scale=self.ui_scale)
                text = p.tour.explain(ray) if step is None else (
                    f"Step {step + 1} of {len(ray.crossings)}: {ray.crossings[step].explain()}")
                surface = render_surface(self.board, art, scale=48, overlay=overlay, legend=plain(text).splitlines())
                suffix = "" if step is None else f"-step{step + 1}"
                written.append(save_png(surface, Path.cwd() / f"{p.export_name()}{suffix}.png"))
        except SightlineError as exc:
            p.notify(str(exc), "error")
            return
        p.notify(f"saved {len(written)} pictures: {written[0].name} …", "info")

    def copy_log(self) -> None:
        """Ctrl+C: the whole log, every entry whole, onto the clipboard (paste it anywhere)."""
        if self.session is None:
            return
        text, count = self.presenter.log_text()
        try:
            pygame.scrap.put_text(text)
        except pygame.error as exc:  # no clipboard on this system
            self.presenter.notify(f"cannot copy the log: {exc}; Ctrl+L saves it as a file", "error")
            return
        self.presenter.notify(f"copied the log ({plural(count, 'line')}) to the clipboard", "info")

    # --- drawing ----------------------------------------------------------------------------

    def overlay(self, frame: Frame | None = None) -> Overlay:
        """Everything the painter draws over the board for ``frame`` (the last frame drawn)."""
        frame = frame if frame is not None else self.last_frame
        dragging = None
        if frame.dragging is not None and self.press is not None and self.press.dragging:
            dragging = (frame.dragging, (float(self.mouse_pos[0]), float(self.mouse_pos[1])))
        heat = self._draw_heat if (frame.heat or self.overlays.shades(frame)) and self.board is not None else None
        return Overlay(
            selected=frame.selected, target=frame.targets[0] if frame.targets else None, targets=frame.targets,
            hover=frame.hover,
            ray=None if frame.verdict_hidden else frame.ray,  # predict, then reveal: drawn neutral
            step=frame.step, fov=frame.field_of_view, refused=frame.refused, dragging=dragging,
            markers=frame.markers, start=frame.start, under_figures=heat, scale=self.ui_scale,
        )

    def _draw_heat(self, surface: pygame.Surface) -> None:
        """The coverage tint and the danger map, under the figures (the painter calls it)."""
        if self.board is not None:
            if self.last_frame.heat:
                self.heat.draw(surface, self.view, self.board, self.ui_scale)
            self.overlays.draw_under(surface, self.view, self.board, self.last_frame)

    def draw(self) -> None:
        """Board, banner, panel, help: one picture on the screen surface."""
        if not self.caches:
            self.painter.invalidate()
        frame = self.last_frame = self.presenter.frame()
        self._fit_bands(frame)
        board = self.board
        x, y, w, h = self.view.viewport
        below = pygame.Rect(x, y + h, w, self.screen.get_height() - y - h)
        self.screen.fill(theme.BACKGROUND, pygame.Rect(x, 0, w, self.screen.get_height()))
        if board is not None:
            self.painter.draw(self.screen, board, self.view, self.overlay(frame))
            self.overlays.draw_over(self.screen, self.view, board, frame, self.ui_scale)
            legend = 0
            if frame.heat:
                legend = self.heat.legend_height(board, frame.hover, w, self.ui_scale)
                self.heat.draw_legend(self.screen, self.view, board, frame.hover, self.ui_scale,
                                      pygame.Rect(below.x, below.y, below.w, legend))
            self._draw_measuring(frame)
            if not self.presenter.lesson_mode:  # under the hover card, which follows the mouse
                self.dice_tray.draw_over(self.screen, self.view, board, self.presenter.attack, self.ui_scale,
                                         free_area(self.view, board, self.ui_scale, frame.coordinates))
            self._draw_labels(board, frame)
            hovered = self.presenter.threats.hovered(frame.threats, frame.hover) if frame.threats else ""
            self.overlays.draw_legends(self.screen, self.view, frame, hovered, self.ui_scale)
            strip = pygame.Rect(below.x, below.y + legend, below.w, max(0, below.h - legend))
            self.rule_panel.draw(self.screen, self.view, frame, strip, self.ui_scale)
        self._draw_reader()
        self.banner.draw(self.screen, (x, 0, w, y), frame.banner, self.ui_scale)
        if frame.lecture is not None:
            column = pygame.Rect(self.screen.get_width() - self._panel_screen_width(), 0,
                                 self._panel_screen_width(), self.screen.get_height())
            area = free_area(self.view, board, self.ui_scale, frame.coordinates) if board is not None else None
            card = classroom.draw_lecture(self.screen, self.view, column, frame.lecture, frame.ray, area)
            self.last_callout = card if card is not None else self.last_callout
            if self.help_on:
                self.help.draw(self.screen)
            return
        now = self.time()
        dragging = self.press is not None and self.press.dragging
        if not dragging or now - self._panel_refreshed >= PANEL_DRAG_INTERVAL:
            # while dragging, the panel's text boxes follow at a few frames a second: re-laying
            # out their text every frame would cost more than drawing the board
            self._panel_refreshed = now
            info = dataclasses.replace(frame.panel, extra={**frame.panel.extra, "finding_filter": self.reader.severity})
            self.panel.refresh(info, budget=1 if dragging else None)
        self._draw_gui()
        if self.help_on:
            self._draw_help()

    def _draw_measuring(self, frame: Frame) -> None:
        """The reach tint and the ruler over the board, clipped to the board area."""
        if frame.reach is None and frame.ruler is None:
            return
        old_clip = self.screen.get_clip()
        self.screen.set_clip(pygame.Rect(self.view.viewport))
        if frame.reach is not None:
            draw_reach(self.screen, self.view, frame.reach, self.ui_scale)
        if frame.ruler is not None:
            draw_ruler(self.screen, self.view, frame.ruler, self.ui_scale)
        self.screen.set_clip(old_clip)

    def _draw_labels(self, board: Board, frame: Frame) -> None:
        """Coordinates on the board's edges and the hover card of the figures under the mouse."""
        old_clip = self.screen.get_clip()
        self.screen.set_clip(pygame.Rect(self.view.viewport))
        if frame.coordinates:
            draw_coordinates(self.screen, self.view, board, self.ui_scale)
        self.last_card = None
        hover = frame.hover
        under_mouse = self.view.in_viewport(*self.mouse_pos) and self.view.square_at(*self.mouse_pos) == hover
        if (hover is not None and under_mouse and self.press is None and board.in_bounds(hover)
                and not self.presenter.presenting):
            figures = board.figures_at(hover)
            if figures:
                self.last_card = draw_card(
                    self.screen, figures, board, self.mouse_pos, pygame.Rect(self.view.viewport), self.ui_scale
                )
        self.screen.set_clip(old_clip)

    def _draw_reader(self) -> None:
        """The large log or findings reader over the bottom of the board area."""
        reader, session, p = self.reader, self.session, self.presenter
        if not reader.open or p.presenting:
            return
        area = pygame.Rect(self.view.viewport)
        if reader.kind == "log":
            reader.draw_log(self.screen, area, self.ui_scale, p.log_title(), p.log_lines())
            return
        if reader.kind == "ray":
            ray = p.ray()
            title, lines = exact_lines(ray) if ray is not None else ("Line of sight, exact", [])
            reader.draw_ray(self.screen, area, self.ui_scale, title, lines, p.cell_noun())
            return
        findings = list(session.findings) if session is not None and not p.lesson_mode else []
        state = map_check_state(session) if session is not None else None
        reader.draw_findings(self.screen, area, self.ui_scale, findings, self._filtered_findings(), state,
                             p.focused)

    def _draw_gui(self) -> None:
        """The side panel: straight onto the screen at scale 1, else drawn at the logical size
        and scaled up into the panel's place."""
        if self.ui_scale == 1.0:
            # the panel's elements leave its margins unpainted: clear them, or what an overlay drew
            # there (the help, the dice) stays on screen for frames
            width, height = self.screen.get_size()
            self.screen.fill(theme.BACKGROUND, pygame.Rect(width - self._panel_screen_width(), 0,
                                                            self._panel_screen_width(), height))
            self.manager.draw_ui(self.screen)
            return
        size = self._logical_size()
        if self._gui_surface is None or self._gui_surface.get_size() != size:
            self._gui_surface = pygame.Surface(size)
        self._gui_surface.fill(theme.BACKGROUND)
        self.manager.draw_ui(self._gui_surface)
        rect = self._panel_rect().clip(self._gui_surface.get_rect())
        width, height = self.screen.get_size()
        target = (self._panel_screen_width(), height)
        scaled = pygame.transform.smoothscale(self._gui_surface.subsurface(rect), target)
        self.screen.blit(scaled, (width - target[0], 0))

    def _draw_help(self) -> None:
        """The F1 card, laid out at the logical size and scaled like the panel."""
        if self.ui_scale == 1.0:
            self.help.draw(self.screen)
            return
        small = pygame.transform.smoothscale(self.screen, self._logical_size())
        self.help.draw(small)
        self.screen.blit(pygame.transform.smoothscale(small, self.screen.get_size()), (0, 0))


def run_window(
    session: Session | None,
    *,
    lessons: Sequence[Path] | None = None,
    frames: int | None = None,
    screenshot: Path | None = None,
    size: tuple[int, int] = DEFAULT_SIZE,
    map_hint: str = "MAP",
    ui_scale: float | None = None,
    present: bool = False,
    rule: Profile | None = None,
    lesson_options: Mapping[str, Any] | None = None,
) -> int:
    """Open the window on a session (or the lessons) and run it; returns the exit code.

    ``present``: start the lessons in classroom mode (large type, the verdict on the board);
    ``lesson_options``: ``load_map`` keyword arguments for the lesson maps.
    """
    screen = open_window(size, headless_ok=frames is not None, map_hint=map_hint)
    try:
        app = App(session, screen=screen, lessons=lessons, start_in_lessons=session is None, ui_scale=ui_scale,
                  rule=rule, lesson_options=lesson_options)
        if present:
            app.present()
        return app.run(frames=frames, screenshot=screenshot)
    finally:
        pygame.display.quit()
