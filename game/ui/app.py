"""The interactive window: the board on the left, the pygame_gui side panel on the right.

One :class:`App` runs one frame at a time: :meth:`App.frame` reads the pygame events
(:meth:`App.handle_event`), advances the clock-driven parts (:meth:`App.update`: the refused-drop
flash, the file watcher) and draws (:meth:`App.draw`). Tests post real pygame events and call
``frame()``; the clock is injected (``time_source``) so they step time exactly.

The window never decides a rule: sight comes from ``game.core.los``, legality of a drop from
``Board.can_enter``, and every change goes through the :class:`~game.play.session.Session` (undo,
log, autosave). Keys come from the single table of ``game/ui/keys.py``; each action ``x`` there
is the method ``action_x`` here.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pygame_gui

from game.core.board import Board, BoardState, DoorState, Edge, Square, fmt_square
from game.core.errors import SightlineError
from game.core.profiles import Profile
from game.core.words import plural
from game.play.atomic import atomic_file, cannot_write
from game.play.attack import AttackController
from game.play.session import Session
from game.ui import classroom, theme
from game.ui.attack_panel import AttackSection
from game.ui.board_labels import draw_card, draw_coordinates
from game.ui.classroom import Classroom
from game.ui.dice_tray import DiceTray
from game.ui.heat import CoverageOverlay
from game.ui.help import HelpOverlay
from game.ui.keys import action_for
from game.ui.lessons import LessonTour
from game.ui.measure_overlay import Measuring, draw_reach, draw_ruler
from game.ui.odds_chart import chart_font_path
from game.ui.painter import BoardPainter, Marker, Overlay
from game.ui.panel import (
    LESSON_TEXT_PX,
    PANEL_WIDTH,
    CentreOn,
    FindingsSection,
    OpenReader,
    PanelInfo,
    SidePanel,
)
from game.ui.reader import SEVERITY_COLOURS, Entry, Reader, filtered, severity_of
from game.ui.rule_panel import RulePanel
from game.ui.scale import logical_size, ui_scale_for
from game.ui.sight import Sight, sees_only_itself, step_cursor
from game.ui.view import View
from game.ui.watch import FileWatcher
from game.ui.wording import WINDOW_PROMPTS, plain

DEFAULT_SIZE = (1280, 800)
#: how long a refused drop flashes red, seconds
REFUSED_FLASH = 0.8
#: how long a refusal or a notice stays in the status line, seconds
NOTICE_TIME = 4.0
#: pixels the mouse must travel before a press becomes a drag
DRAG_THRESHOLD = 4
ZOOM_STEP = 1.15
#: seconds between two refreshes of the side panel's text while a figure is dragged
PANEL_DRAG_INTERVAL = 0.12
FPS = 60

#: SDL video drivers that show nothing on a screen
HEADLESS_DRIVERS = ("dummy", "offscreen")

BANNER_BG = (120, 24, 24)
BANNER_TEXT = (255, 236, 236)

GUI_THEME: dict[str, Any] = {
    "#side_panel": {"colours": {"dark_bg": "#1E2026", "normal_border": "#3A3E48"}},
    "#section_heading": {
        "colours": {"normal_text": "#FFD666"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "text_box": {
        "colours": {"dark_bg": "#25282F", "normal_border": "#3A3E48"},
        "misc": {"line_spacing": "1.1"},
    },
    "selection_list": {"colours": {"dark_bg": "#25282F"}},
    # the map check's rows: a long finding goes on over several rows, read from the left
    "@selection_list_item": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}},
}


class NoDisplayError(SightlineError):
    """No display to open a window on (and no ``--frames`` run asked for a headless one)."""


def display_available() -> bool:
    """Whether a window can be expected to open (the dummy/offscreen drivers always can).

    On Linux and the BSDs a desktop session sets ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY``;
    elsewhere (Windows, macOS) there is always a display and ``set_mode`` decides.
    """
    driver = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in HEADLESS_DRIVERS:
        return True
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    if os.environ.get("DISPLAY") or wayland_socket_exists():
        return True
    return driver not in ("", "x11", "wayland")  # e.g. kmsdrm: let set_mode decide


def wayland_socket_exists() -> bool:
    """Whether ``WAYLAND_DISPLAY`` names a socket that is there (a stale variable is ignored).

    >>> import os
    >>> saved = os.environ.pop("WAYLAND_DISPLAY", None)
    >>> os.environ["WAYLAND_DISPLAY"] = "/nonexistent/wayland-9"
    >>> wayland_socket_exists()
    False
    >>> _ = os.environ.pop("WAYLAND_DISPLAY") if saved is None else os.environ.update(WAYLAND_DISPLAY=saved)
    """
    name = os.environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"), name)
    return path.exists()


@dataclass
class _Press:
    """A left-button press that may become a click, a door click or a drag."""

    pos: tuple[int, int]
    square: Square | None
    door: Edge | None
    figure: int | None
    before: BoardState | None = None
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
        if session is None and not lessons:
            raise ValueError("the window needs a map or lessons")
        if not pygame.display.get_init():
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        self.screen = screen if screen is not None else pygame.display.set_mode(size, pygame.RESIZABLE)
        self.time = time_source
        self.main_session = session
        self.lesson_paths = list(lessons or [])
        #: how the lesson maps are read (``sightline lessons --classes/--tiles/--property/--preset``)
        self.lesson_options: dict[str, Any] = dict(lesson_options or {})
        self.tour: LessonTour | None = None
        self.lesson_mode = False
        self.watch_enabled = watch
        self.caches = caches
        self.running = True
        self.fov_on = False
        self.help_on = False
        self.help = HelpOverlay()
        self.hover: Square | None = None
        self.pinned: Square | None = None
        #: the ray's start without a figure, and whose eyes (game/ui/sight.py)
        self.sight = Sight()
        #: classroom mode for the lessons (game/ui/classroom.py)
        self.classroom = Classroom()
        #: notices that stay on a banner until dismissed: a corrupt autosave set aside, ...
        self.banners: list[str] = []
        #: coordinate labels on the board's edges (G)
        self.coordinates_on = True
        #: the large log / findings reader over the board (Shift+L, I; game/ui/reader.py)
        self.reader = Reader()
        #: the coverage heat map (H; computed off the frame loop, game/ui/heat.py)
        self.heat = CoverageOverlay()
        self.last_card: pygame.Rect | None = None
        #: classroom mode: where the verdict's card was drawn last (tests read it)
        self.last_callout: pygame.Rect | None = None
        self._marker_cache: tuple[tuple[Any, ...], list[Marker]] | None = None
        self._banner_rect: pygame.Rect | None = None
        #: the ruler and the movement reach (game/ui/measure_overlay.py)
        self.measuring = Measuring()
        #: the line-of-sight rule: switcher, parameter panel, compare mode (game/ui/rule_panel.py)
        self.rules = RulePanel(default=rule)
        self._reach_cache: tuple[tuple[Any, ...], dict[Square, int]] | None = None
        self.last_ruler: str | None = None
        self._last_key: int | None = None
        #: the cell size the last fit chose: a resize refits while the user has not zoomed
        self._fit_cell: float | None = None
        #: the finding clicked last in the panel: outlined on the board whatever its severity
        self.focused: Any = None
        self.mouse_pos: tuple[int, int] = (0, 0)
        self.press: _Press | None = None
        self.pan_press: _Pan | None = None
        self.refused: tuple[Square | None, float] | None = None
        self.notice: tuple[str, str, float] | None = None  # text, kind, until
        self._saved_main: tuple[int | None, Square | None] = (None, None)
        self._los_cache: dict[tuple[Any, ...], Any] = {}
        self._fov_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._last_time = self.time()
        self._panel_refreshed = -1e9
        self._banner: tuple[str, int, pygame.Surface] | None = None
        self._banner_font_cache: pygame.font.Font | None = None
        self.last_ray: Any = None
        self.last_status: tuple[str, str] = ("", "info")
        #: the UI scale asked for (``--ui-scale``; None follows the window, game/ui/scale.py)
        self.ui_scale_setting = ui_scale
        self.ui_scale = ui_scale_for(self.screen.get_size(), ui_scale)
        self._gui_surface: pygame.Surface | None = None
        self.manager = self._new_manager()
        self.view = View(viewport=self._board_viewport())
        self.panel = SidePanel(self.manager, self._panel_rect())
        #: the attack being built and the dice tray revealing the last one (game/ui/attack_panel.py)
        self.dice_tray = DiceTray()
        self.attack = AttackController(lambda: self.session, tray=self.dice_tray,
                                       on_message=self._notify, prompts=WINDOW_PROMPTS)
        self.attack_section = AttackSection(self.attack)
        self.panel.add_section(self.attack_section, 3)
        self.painter = BoardPainter(None)
        self.watcher = FileWatcher((), time_source=self.time)
        if start_in_lessons or session is None:
            self.action_lessons()
        else:
            self._switch_to(session)

    # --- the session on screen -----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The session shown now: the lesson's in lesson mode, else the main map's."""
        if self.lesson_mode and self.tour is not None:
            return self.tour.session
        return self.main_session

    @property
    def board(self) -> Board | None:
        """The board shown now."""
        session = self.session
        return session.board if session is not None else None

    @property
    def selected(self) -> int | None:
        """The selected figure's id (None when nothing is selected or it left the board)."""
        session = self.session
        if session is None or session.selected not in session.board.figures:
            return None
        return session.selected

    def select(self, figure_id: int | None) -> None:
        """Select a figure (None deselects)."""
        if self.session is not None:
            self.session.selected = figure_id

    def _switch_to(self, session: Session | None) -> None:
        """Show this session: new painter for its art, fit the board, watch its files.

        The old board's attack targets and pinned square go (their ids and squares mean nothing
        on another board); the hovered square is found again under the mouse on the new view.
        """
        self.attack.dismiss()
        self.attack.targets = []
        self.pinned = None
        self.sight.forget()
        self.painter = BoardPainter(getattr(session.loaded, "art", None) if session else None)
        for warning in self.painter.warnings:
            self._notify(warning, "error")
        if session is not None:
            self._fit()
            self.watcher.watch(session.dependencies if self.watch_enabled else ())
            for message in session.messages:
                self._notify(message, "error")
                self.banners.append(message)  # stays until dismissed (click the banner, or Esc)
            session.messages.clear()
            pygame.display.set_caption(f"Sightline: {session.path.name}")
        self._los_cache.clear()
        self._fov_cache.clear()
        self.hover = self._square_under_mouse()

    def _square_under_mouse(self) -> Square | None:
        """The square under the mouse now (None off the board or over the panel)."""
        if self.board is None or not self.view.in_viewport(*self.mouse_pos):
            return None
        return self.view.square_at(*self.mouse_pos)

    # --- layout ---------------------------------------------------------------------------

    def _new_manager(self) -> pygame_gui.UIManager:
        """The GUI manager for the current UI scale: it lays out and draws at the *logical* size
        (the window divided by the scale), and the panel is scaled up onto the screen."""
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
        if self.presenting:
            return round(self.screen.get_width() * CLASSROOM_COLUMN)
        return min(self.screen.get_width(), round(self._panel_width() * self.ui_scale))

    @property
    def presenting(self) -> bool:
        """Classroom mode on a lesson board."""
        return self.classroom.on and self.lesson_mode

    def _board_viewport(self) -> tuple[int, int, int, int]:
        width, height = self.screen.get_size()
        return 0, 0, max(1, width - self._panel_screen_width()), max(1, height)

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
            self._banner = None
            self._banner_font_cache = None
        self.manager.set_window_resolution(self._logical_size())
        x, y, w, h = self.view.viewport
        centre = self.view.to_grid(x + w / 2, y + h / 2)
        fitted = self._fit_cell is not None and abs(self.view.cell - self._fit_cell) < 1e-9
        self.view.viewport = self._board_viewport()
        if fitted:  # the user never zoomed since the last fit: the board follows the window
            self._fit()
        else:
            x, y, w, h = self.view.viewport
            cx, cy = self.view.to_screen(*centre)
            self.view.pan(x + w / 2 - cx, y + h / 2 - cy)
        self.panel.layout(self._panel_rect())

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
        for session in {id(s): s for s in (self.main_session, self.session) if s is not None}.values():
            if session.lint_run is not None:
                session.lint_step()
                return

    def run(self, frames: int | None = None, screenshot: Path | None = None) -> int:
        """The main loop: until quit, or ``frames`` frames; then save ``screenshot`` if asked
        (``play`` and ``lessons`` always give ``frames`` with a screenshot)."""
        clock = pygame.time.Clock()
        count = 0
        while self.running and (frames is None or count < frames):
            self.frame()
            count += 1
            if frames is None:
                clock.tick(FPS)
        if screenshot is not None:
            save_screenshot(self.screen, screenshot)
        return 0

    def update(self, dt: float) -> None:
        """Time-driven work: the GUI's animations, expiring flashes, reloading changed maps."""
        self.manager.update(dt)
        self.attack.update(dt)
        now = self.time()
        held = self.press is not None and self.press.dragging  # a refusal under the cursor stays
        if self.refused is not None and now >= self.refused[1] and not held:
            self.refused = None
        if self.notice is not None and now >= self.notice[2]:
            self.notice = None
        watching = self.watch_enabled and self.session is not None and self.press is None
        if watching and self.watcher.poll():
            self.reload()

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
        if self.classroom.menu and event.type == pygame.KEYDOWN:
            self._key(event)  # the menu is modal: only its keys of the table count
            return
        if self.reader.open and self._reader_event(event):
            return
        if not self.attack_section.typing and (said := self.rules.handle_event(event, self.board, self.lesson_mode)):
            self._notify(said, "info")  # a click on the rule panel's rows (game/ui/rule_panel.py)
            return
        if self.presenting and event.type != pygame.KEYDOWN:  # no side panel to talk to
            consumed = False
        else:
            consumed = self.manager.process_events(event)
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
            return
        if event.type == pygame.MOUSEWHEEL:
            if self.view.in_viewport(*self.mouse_pos):
                factor = ZOOM_STEP ** max(-5, min(5, event.y))
                self.view.zoom_at(factor, *self.mouse_pos)
            return
        if event.type == pygame.MOUSEBUTTONDOWN:
            if consumed or not self.view.in_viewport(*event.pos):
                return
            self._mouse_down(event.button, event.pos)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._mouse_up(event.button, event.pos)

    def key_states(self) -> frozenset[str]:
        """The states of :data:`game.ui.keys.CONTEXTS` that hold now (their keys win)."""
        states = set()
        if self.classroom.menu:
            states.add("lesson_menu")
        if self.reader.open:
            states.add("reader")
        if self.rules.shown and self.board is not None:
            states.add("rule_parameters")
        return frozenset(states)

    def _key(self, event: pygame.event.Event) -> bool:
        """Look a key press up in the table (game/ui/keys.py) and run its action; False when the
        table binds nothing to it in the window's present state."""
        action = action_for(event.key, event.mod, self.key_states())
        self._last_key = event.key
        if action == "escape":
            self.notice = None  # Esc answers the message too: the neutral hint comes back
        if action is None:
            return False
        getattr(self, f"action_{action}")()
        return True

    def action_reader_scroll(self) -> None:
        """Up, Down, PageUp, PageDown, Home, End while the large reader is open."""
        if self._last_key is not None:
            self.reader.key(self._last_key)

    def action_menu_choose(self) -> None:
        """Up, Down, Left, Right while the lesson menu is open."""
        if self._last_key is not None:
            self._menu_key(self._last_key)

    def action_menu_open(self) -> None:
        """Enter while the lesson menu is open."""
        self._menu_key(pygame.K_RETURN)

    def action_menu_close(self) -> None:
        """Esc or O while the lesson menu is open."""
        self._menu_key(pygame.K_ESCAPE)

    def _rule_action(self, action: str) -> None:
        """A key of the line-of-sight rule (game/ui/rule_panel.py): run it, say what it did."""
        if self.board is not None:
            self._notify(self.rules.act(action, self.board, self.lesson_mode), "info")

    def action_rule_next(self) -> None:
        """K."""
        self._rule_action("rule_next")

    def action_rule_of_map(self) -> None:
        """Shift+K."""
        self._rule_action("rule_of_map")

    def action_rule_parameters(self) -> None:
        """J."""
        self._rule_action("rule_parameters")

    def action_rule_parameters_hide(self) -> None:
        """Shift+J."""
        self._rule_action("rule_parameters_hide")

    def action_rule_row_up(self) -> None:
        """I while the rule's parameters are shown."""
        self._rule_action("rule_row_up")

    def action_rule_row_down(self) -> None:
        """U while the rule's parameters are shown."""
        self._rule_action("rule_row_down")

    def action_rule_flip(self) -> None:
        """H while the rule's parameters are shown."""
        self._rule_action("rule_flip")

    def action_rule_compare(self) -> None:
        """X."""
        self._rule_action("rule_compare")

    def action_rule_compare_with(self) -> None:
        """Shift+X."""
        self._rule_action("rule_compare_with")

    def _reader_event(self, event: pygame.event.Event) -> bool:
        """The reader's share of the events (scroll keys, wheel, clicks, resizing): True when
        it took the event."""
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
                self.action_export_log()
            elif what == "button" and value == "copy":
                self.action_copy_log()
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

    def _filtered_findings(self) -> list[tuple[int, Any]]:
        """The map check's findings the severity filter keeps, with their numbers."""
        session = self.session
        if session is None or self.lesson_mode:
            return []
        return filtered(session.findings, self.reader.severity)

    def action_reader_log(self) -> None:
        """Shift+L: the whole log in the large reader (again: close it)."""
        self.reader.toggle("log")

    def action_reader_findings(self) -> None:
        """I: the map check's findings in the large reader (again: close it)."""
        self.reader.toggle("findings")

    def action_finding_filter(self) -> None:
        """F4: which findings the panel and the reader list: all, errors, warnings."""
        severity = self.reader.next_filter()
        self._notify(f"Map check: showing {'every finding' if severity == 'all' else severity + 's only'}", "info")

    def action_finding_next(self) -> None:
        """F3: the next finding (of the filter): centred on the board, outlined, explained."""
        self._step_finding(1)

    def action_finding_prev(self) -> None:
        """Shift+F3: the previous finding."""
        self._step_finding(-1)

    def _step_finding(self, step: int) -> None:
        shown = [f for _, f in self._filtered_findings()]
        if not shown:
            self._notify("Map check: no finding to go to", "info")
            return
        index = shown.index(self.focused) if self.focused in shown else (-1 if step > 0 else 0)
        self.focus_finding(shown[(index + step) % len(shown)])
        if self.reader.kind == "findings":
            self.reader.show_entry(shown.index(self.focused))

    def action_coverage(self) -> None:
        """H: the coverage heat map (how many squares see each square), on or off."""
        self.heat.on = not self.heat.on

    def _draw_heat(self, surface: pygame.Surface) -> None:
        """The coverage tint, under the figures (the painter calls it)."""
        if self.board is not None:
            self.heat.draw(surface, self.view, self.board, self.ui_scale)

    def _draw_reader(self) -> None:
        """The large log or findings reader over the bottom of the board area."""
        reader, session = self.reader, self.session
        if not reader.open or self.presenting:
            return
        area = pygame.Rect(self.view.viewport)
        if reader.kind == "log":
            log = list(session.history.log)[::-1] if session is not None else []
            entries = [Entry(f"{len(log) - n}. {plain(line)}") for n, line in enumerate(log)]
            title = f"Log: {plural(len(log), 'entry')}, newest first"
            buttons = [("copy", "Copy (Ctrl+C)", False), ("save", "Save to file (Ctrl+L)", False),
                       ("close", "Close (Esc)", False)]
            reader.draw(self.screen, area, self.ui_scale, title, entries, buttons, empty="Nothing has happened yet.")
            return
        findings = list(session.findings) if session is not None and not self.lesson_mode else []
        shown = self._filtered_findings()
        entries = [Entry(plain(FindingsSection.full_text(f, n)), SEVERITY_COLOURS.get(severity_of(f), (230, 232, 240)))
                   for n, f in shown]
        counts = {sev: sum(1 for f in findings if severity_of(f) == sev) for sev in ("error", "warning")}
        state = map_check_state(session) if session is not None else None
        words = FindingsSection.counts(findings) if findings else ("clean" if not state else "")
        title = f"Map check: {words}{' ' + state if state else ''}".replace(": ·", ":")
        buttons = [
            ("all", f"All ({len(findings)})", reader.severity == "all"),
            ("error", f"Errors ({counts['error']})", reader.severity == "error"),
            ("warning", f"Warnings ({counts['warning']})", reader.severity == "warning"),
            ("close", "Close (Esc)", False),
        ]
        selected = next((i for i, (_, f) in enumerate(shown) if f == self.focused), None)
        empty = "No findings." if reader.severity == "all" else f"No {reader.severity}s (F4: the others)."
        reader.draw(self.screen, area, self.ui_scale, title, entries, buttons, selected, empty=empty)

    def _mouse_down(self, button: int, pos: tuple[int, int]) -> None:
        if self.help_on:
            self.help_on = False
            return
        if button == 1 and self._banner_rect is not None and self._banner_rect.collidepoint(pos):
            self.dismiss_banner()
            return
        board = self.board
        if board is None:
            return
        if button == 1 and self.attack.tray.active:
            if self.attack.tray.busy:  # a click while the dice roll finishes them
                self.attack.skip()
                return
            self.attack.dismiss()
        if button == 1:
            square = self.view.square_at(*pos)
            door = self._door_at(pos)
            figures = board.figures_at(square) if square is not None and door is None else ()
            figure = self._pick(figures) if figures else None
            end = None
            if figure is None and door is None and square is not None:
                if square == self.pinned:
                    end = "end"
                elif self.selected is None and square == self.sight.start:
                    end = "start"
            self.press = _Press(pos, square, door, figure, end=end)
        elif button in (2, 3):
            self.pan_press = _Pan(button, pos, pos)

    def _pick(self, figures: Sequence[Any]) -> int:
        """The figure a click on a stack means: the selected one's successor, else the first."""
        ids = [f.id for f in figures]
        if self.selected in ids:
            return ids[(ids.index(self.selected) + 1) % len(ids)] if len(ids) > 1 else ids[0]
        return ids[0]

    def _door_at(self, pos: tuple[int, int]) -> Edge | None:
        board = self.board
        if board is None:
            return None
        tolerance = max(5.0, self.view.cell * 0.2)
        edge = self.view.nearest_edge(*pos, tolerance)
        return edge if edge is not None and edge in board.doors else None

    def _mouse_motion(self, pos: tuple[int, int]) -> None:
        square = self.view.square_at(*pos)
        if self.reader.rect is not None and self.reader.rect.collidepoint(pos):
            square = None  # over the reader: no square of the board under it is hovered
        self.sight.cursor = None  # the mouse takes over from the keyboard cursor
        self.hover = square if square is not None and self.board is not None else None
        pan = self.pan_press
        if pan is not None:
            if not pan.moved and math.dist(pos, pan.start) >= DRAG_THRESHOLD:
                pan.moved = True
            if pan.moved:
                self.view.pan(pos[0] - pan.last[0], pos[1] - pan.last[1])
            pan.last = pos
        press = self.press
        if press is not None and press.end is not None:
            if not press.dragging and math.dist(pos, press.pos) >= DRAG_THRESHOLD:
                press.dragging = True
            if press.dragging and square is not None:  # drag an end of the ray
                if press.end == "end":
                    self.pinned = square
                else:
                    self.sight.start = square
            return
        if press is None or press.figure is None or self.session is None:
            return
        if not press.dragging and math.dist(pos, press.pos) >= DRAG_THRESHOLD:
            press.dragging = True
            press.before = self.session.board.state()
        if press.dragging:
            self._drag_to(press.figure, square)

    def _drag_to(self, figure_id: int, square: Square | None) -> None:
        """Move the dragged figure live to the square under the cursor when it may stand there."""
        board = self.board
        if board is None or square is None or figure_id not in board.figures:
            return
        if board.figure(figure_id).square == square:
            return
        reason = board.can_enter(figure_id, square)
        if reason is None:
            board.move_figure(figure_id, square)
            if self.refused is not None:
                self.refused = None
                self.notice = None
            return
        # show the refusal while dragging, not only on release: red square, the reason in the panel
        self.refused = (square, self.time() + REFUSED_FLASH)
        self._notify(f"Cannot stand here: {reason}.", "blocked")

    def _mouse_up(self, button: int, pos: tuple[int, int]) -> None:
        if button in (2, 3) and self.pan_press is not None and self.pan_press.button == button:
            pan, self.pan_press = self.pan_press, None
            if button == 3 and not pan.moved:
                square = self.view.square_at(*pos)
                self.pinned = None if square is None or square == self.pinned else square
                if not self.lesson_mode:
                    self.attack.target_square(square)
            return
        if button != 1 or self.press is None:
            return
        press, self.press = self.press, None
        if press.end is not None and press.dragging:
            return  # an end of the ray was dragged: it stays where it was let go
        if press.dragging and press.figure is not None:
            self._drop(press, self.view.square_at(*pos))
        elif press.door is not None and self.session is not None:
            state = self.session.cycle_door(press.door)
            self._notify(f"door {press.door}: {state.value}", "info")
        elif press.figure is not None:
            self.select(press.figure)
        elif press.square is not None and press.square in self.session_board_door_squares():
            self._cycle_door_square(press.square)
        elif press.square is not None and press.door is None and self.board is not None:
            self.start_sight_at(press.square)

    def start_sight_at(self, square: Square) -> None:
        """Start the ray at a square without a figure (a click on an empty square, or ``S``).

        The selected figure is let go (its square was the start); clicking the start again
        takes the start away.
        """
        board = self.board
        if board is None or not board.in_bounds(square):
            return
        self.select(None)
        self.sight.start = None if square == self.sight.start else square

    def session_board_door_squares(self) -> Mapping[Square, DoorState]:
        """The door squares (roguelike door tiles) of the board in play."""
        return self.session.board.door_squares if self.session is not None else {}

    def _cycle_door_square(self, square: Square) -> None:
        """A click on a door square cycles it closed → open → locked, as one undoable action."""
        assert self.session is not None
        new = self.session.board.door_squares[square].next()
        where = f"door square {fmt_square(square)}"
        self.session.change(f"{where}: {new.value}", lambda b: b.set_door_square(square, new))
        self._notify(f"{where}: {new.value}", "info")

    def _drop(self, press: _Press, square: Square | None) -> None:
        session = self.session
        assert session is not None and press.figure is not None and press.before is not None
        board = session.board
        figure_id = press.figure
        start = next(f.square for f in press.before.figures if f.id == figure_id)
        if square is None:
            reason = "dropped outside the board"
        elif square == start:
            reason = None
        else:
            reason = board.can_enter(figure_id, square)
        if reason is not None:
            board.restore(press.before)
            self.refused = (square, self.time() + REFUSED_FLASH)
            self._notify(f"Refused: {reason}; {board.figure(figure_id).label} returns to {fmt_square(start)}.", "blocked")
            session.history.note(f"refused: {reason}")
            return
        assert square is not None
        if board.figure(figure_id).square != square:  # the live move stopped short
            board.move_figure(figure_id, square)
        if square == start:
            board.restore(press.before)
            return
        label = f"move {board.figure(figure_id).label} {fmt_square(start)} -> {fmt_square(square)}"
        session.record(label, press.before)
        self.select(figure_id)

    def centre_on(self, square: Square | None) -> None:
        """Put a square in the middle of the board area (a clicked finding)."""
        if square is None:
            return
        self._centre_point(square[0] + 0.5, square[1] + 0.5)
        self.hover = square

    def _centre_point(self, gx: float, gy: float) -> None:
        x, y, w, h = self.view.viewport
        if self.reader.open and not self.presenting:  # the middle of what the reader leaves free
            h -= self.reader.area(pygame.Rect(self.view.viewport)).h
        cx, cy = self.view.to_screen(gx, gy)
        self.view.pan(x + w / 2 - cx, y + h / 2 - cy)

    def focus_finding(self, finding: Any) -> None:
        """A finding clicked in the panel: centre the board on it and outline it.

        A finding without a square (a diagonal wall, an object off the grid) is found through
        its object id in the loaded map: the board centres on the object and outlines the
        squares under it.
        """
        self.focused = finding
        self._notify(plain(FindingsSection.full_text(finding)), "finding")  # the row may be cut short
        if finding.square is not None:
            self.centre_on(finding.square)
            return
        found = finding_area(self.session, finding)
        if found is None:
            return
        (gx, gy), _ = found
        self._centre_point(gx, gy)

    # --- actions (one per entry of game/ui/keys.py) ---------------------------------------

    def _cycle_selection(self, step: int) -> None:
        board = self.board
        if board is None or not board.figures:
            return
        ids = sorted(board.figures)
        current = self.selected
        if current is None:
            self.select(ids[0] if step > 0 else ids[-1])
        else:
            self.select(ids[(ids.index(current) + step) % len(ids)])

    def action_select_next(self) -> None:
        """Tab."""
        self._cycle_selection(+1)

    def action_select_prev(self) -> None:
        """Shift+Tab."""
        self._cycle_selection(-1)

    def action_toggle_fov(self) -> None:
        """F."""
        self.fov_on = not self.fov_on

    def action_close_doors(self) -> None:
        """C."""
        if self.session is not None:
            changed = self.session.close_all_doors()
            self._notify("closed every open door" if changed else "no door was open", "info")

    def action_zoom_in(self) -> None:
        """+."""
        x, y, w, h = self.view.viewport
        self.view.zoom_at(ZOOM_STEP, x + w / 2, y + h / 2)

    def action_zoom_out(self) -> None:
        """-."""
        x, y, w, h = self.view.viewport
        self.view.zoom_at(1 / ZOOM_STEP, x + w / 2, y + h / 2)

    def _pan_step(self) -> float:
        return max(self.view.cell * 2, 40.0)

    def action_pan_left(self) -> None:
        """Left arrow: the board moves right, showing what is left of it."""
        self.view.pan(self._pan_step(), 0)

    def action_pan_right(self) -> None:
        """Right arrow."""
        self.view.pan(-self._pan_step(), 0)

    def action_pan_up(self) -> None:
        """Up arrow."""
        self.view.pan(0, self._pan_step())

    def action_pan_down(self) -> None:
        """Down arrow."""
        self.view.pan(0, -self._pan_step())

    def action_fit(self) -> None:
        """Home."""
        self._fit()

    def _fit(self) -> None:
        """Fit the whole board and remember the zoom that fit chose (see :meth:`resize`)."""
        if self.board is not None:
            self.view.fit(self.board.width, self.board.height)
            self._fit_cell = self.view.cell

    def action_undo(self) -> None:
        """Ctrl+Z."""
        if self.session is None or self.press is not None:
            return
        self.attack.dismiss()  # a rolling attack lands first, so undo takes all of it back
        label = self.session.undo()
        line = self.session.history.log[-1] if label else "nothing to undo"
        if label and self.attack.repeats_undone:
            line += " — rolling again repeats its dice; D: new dice"
        self._notify(line, "info")

    def action_redo(self) -> None:
        """Ctrl+Y, Ctrl+Shift+Z."""
        if self.session is None or self.press is not None:
            return
        self.attack.dismiss()
        label = self.session.redo()
        self._notify(self.session.history.log[-1] if label else "nothing to redo", "info")

    def action_reload(self) -> None:
        """F5."""
        self.reload()

    def action_help(self) -> None:
        """F1: open the help, turn its page, close it after the last page."""
        if self.help_on and self.help.next_page():
            return
        self.help_on = not self.help_on

    def action_escape(self) -> None:
        """Esc: the innermost thing first."""
        if self.help_on:
            self.help_on = False
        elif self.reader.open:
            self.reader.close()
        elif self.attack_section.close_rules() or self.attack.dismiss():  # the `?` list first
            pass
        elif self.press is not None and self.press.dragging and self.press.before is not None:
            if self.session is not None:
                self.session.board.restore(self.press.before)
            self.press = None
        elif self.dismiss_banner():
            pass
        elif (self.pinned is not None or self.attack.targets) and not self.lesson_mode:
            self.pinned = None  # the pin and the attack target go together
            self.attack.set_target(None)
        elif self.selected is None and self.sight.start is not None:
            self.sight.start = None
        else:
            self.select(None)

    def _cursor_square(self) -> Square | None:
        """The square ``S`` and ``E`` act on: the keyboard cursor, else the one under the mouse."""
        return self.sight.cursor if self.sight.cursor is not None else self.hover

    def action_sight_start(self) -> None:
        """S."""
        square = self._cursor_square()
        if square is None:
            self._notify("Move the cursor onto a square first (Ctrl+arrows or the mouse).", "error")
            return
        self.start_sight_at(square)

    def action_sight_end(self) -> None:
        """E."""
        square = self._cursor_square()
        if square is not None:
            self.pinned = None if square == self.pinned else square

    def action_viewer_next(self) -> None:
        """V."""
        if self.board is not None:
            self.sight.cycle_viewer(self.board)
            self._los_cache.clear()
            self._notify(f"viewer: {self.sight.viewer_label(self.board)}", "info")

    def _move_cursor(self, dx: int, dy: int) -> None:
        board = self.board
        if board is None:
            return
        start = self.sight.cursor if self.sight.cursor is not None else self.hover
        self.sight.cursor = step_cursor(board, start, dx, dy)
        self.hover = self.sight.cursor

    def action_cursor_left(self) -> None:
        """Ctrl+Left."""
        self._move_cursor(-1, 0)

    def action_cursor_right(self) -> None:
        """Ctrl+Right."""
        self._move_cursor(1, 0)

    def action_cursor_up(self) -> None:
        """Ctrl+Up."""
        self._move_cursor(0, -1)

    def action_cursor_down(self) -> None:
        """Ctrl+Down."""
        self._move_cursor(0, 1)

    def action_target_next(self) -> None:
        """T."""
        self._target(+1)

    def action_target_prev(self) -> None:
        """Shift+T."""
        self._target(-1)

    def _target(self, step: int) -> None:
        if self.lesson_mode or self.board is None:
            return
        if self.selected is None:
            self._notify("Select the attacker first: click a figure or press Tab.", "error")
            return
        self.attack.cycle_target(step)
        if self.attack.targets:
            self.pinned = self.board.figure(self.attack.targets[-1]).square

    def action_attack_next(self) -> None:
        """A."""
        if not self.lesson_mode:
            self.attack.cycle_attack()

    def action_roll(self) -> None:
        """R."""
        if not self.lesson_mode and self.press is None:
            self.attack.roll()

    def action_play_entry(self) -> None:
        """Enter (classroom mode: reveal the answer)."""
        if self.presenting:
            self.action_reveal()
        elif not self.lesson_mode:
            self.attack_section.focus_play()

    def action_fresh_dice(self) -> None:
        """D."""
        if not self.lesson_mode:
            self.attack.fresh_dice()

    def action_skip_dice(self) -> None:
        """Space."""
        self.attack.skip()

    def action_rest(self) -> None:
        """Shift+R."""
        if not self.lesson_mode and self.press is None:
            self.attack.perform()

    def action_quit(self) -> None:
        """Q."""
        self.running = False

    def action_lessons(self) -> None:
        """L: into the lessons, or back to the map."""
        if self.lesson_mode:
            if self.main_session is None:
                self._notify("lessons only: no board to go back to (Q quits)", "error")
                return
            self.lesson_mode = False
            self.select(self._saved_main[0])
            self._switch_to(self.main_session)
            return
        if self.tour is None:
            try:
                from game.ui.lessons import lesson_paths

                paths = self.lesson_paths or lesson_paths()
                options = self.lesson_options
                self.tour = LessonTour(paths, lambda p: Session.open(p, options=options, autosave=False))
            except SightlineError as exc:
                self._notify(f"no lessons: {exc}", "error")
                return
        self._saved_main = (self.selected, None)
        self.lesson_mode = True
        self._enter_lesson()

    def _enter_lesson(self) -> None:
        tour = self.tour
        assert tour is not None
        self.classroom.new_board()
        self._switch_to(tour.session)
        if tour.session is None or tour.lesson is None:
            return
        origin, target = tour.lesson.origin, tour.lesson.target
        figures = tour.session.board.figures_at(origin) if origin is not None else ()
        tour.session.selected = figures[0].id if figures else None
        self.pinned = target

    def action_step_next(self) -> None:
        """N."""
        if self.lesson_mode and self.tour is not None:
            if self.presenting and not self.classroom.revealed:
                self.action_reveal()  # the first N shows the answer, the next ones step
                return
            self.tour.next_step(self._crossing_count())

    def action_step_prev(self) -> None:
        """P."""
        if self.lesson_mode and self.tour is not None:
            if self.presenting and not self.classroom.revealed:
                self.action_reveal()
                return
            self.tour.prev_step(self._crossing_count())

    # --- classroom mode (game/ui/classroom.py) ---------------------------------------------

    def action_present(self) -> None:
        """F2: classroom mode on or off (into the lessons first when a map is shown)."""
        if not self.lesson_mode:
            self.action_lessons()
            if not self.lesson_mode:
                return
            self.classroom.on = False
        self.classroom.on = not self.classroom.on
        self.classroom.new_board()
        self.classroom.menu = False
        self._relayout()
        self._fit()

    def _relayout(self) -> None:
        """The board area changed width (classroom mode on or off)."""
        self.view.viewport = self._board_viewport()
        self.panel.layout(self._panel_rect())

    def action_predict_clear(self) -> None:
        """Y."""
        if self.presenting:
            self.classroom.predict("clear")

    def action_predict_blocked(self) -> None:
        """B."""
        if self.presenting:
            self.classroom.predict("blocked")

    def action_reveal(self) -> None:
        """Enter in classroom mode: show the engine's answer and how the class did."""
        if not self.presenting or self.tour is None:
            return
        ray = self.compute_ray()
        if ray is None:
            return
        self.classroom.reveal(self.tour.index, self.tour.verdict(ray))

    def action_lesson_menu(self) -> None:
        """O."""
        if self.presenting and self.tour is not None:
            self.classroom.menu = not self.classroom.menu
            self.classroom.menu_index = self.tour.index

    def _menu_key(self, key: int) -> None:
        """Keys while the lesson menu is open: Up/Down choose, Enter opens, Esc/O close."""
        room, tour = self.classroom, self.tour
        if tour is None:
            room.menu = False
            return
        if key in (pygame.K_UP, pygame.K_LEFT):
            room.menu_index = (room.menu_index - 1) % len(tour.paths)
        elif key in (pygame.K_DOWN, pygame.K_RIGHT):
            room.menu_index = (room.menu_index + 1) % len(tour.paths)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            room.menu = False
            tour.wrapped = None
            tour.open(room.menu_index)
            self._enter_lesson()
        elif key in (pygame.K_ESCAPE, pygame.K_o):
            room.menu = False

    def action_export_view(self) -> None:
        """Ctrl+S: the window as it is now, as a PNG in the current folder."""
        name = self._export_name()
        path = Path.cwd() / f"{name}.png"
        try:
            save_screenshot(self.screen, path)
        except SightlineError as exc:
            self._notify(str(exc), "error")
            return
        self._notify(f"saved {path}", "info")

    def action_export_steps(self) -> None:
        """Ctrl+Shift+S: the lesson board with its whole ray, then one PNG per crossing."""
        if not self.lesson_mode or self.tour is None or self.board is None:
            self._notify("Ctrl+Shift+S saves a lesson's steps: open the lessons first (L).", "error")
            return
        from game.ui.render import render_surface, save_png

        ray = self.compute_ray()
        if ray is None:
            self._notify("this lesson names no ray to step through", "error")
            return
        session = self.session
        art = getattr(session.loaded, "art", None) if session is not None else None
        name = self._export_name()
        written = []
        try:
            for step in [None, *range(len(ray.crossings))]:
                overlay = Overlay(selected=self.selected, ray=ray, step=step)
                text = self.tour.explain(ray) if step is None else (
                    f"Step {step + 1} of {len(ray.crossings)}: {ray.crossings[step].explain()}")
                surface = render_surface(self.board, art, scale=48, overlay=overlay, legend=plain(text).splitlines())
                suffix = "" if step is None else f"-step{step + 1}"
                written.append(save_png(surface, Path.cwd() / f"{name}{suffix}.png"))
        except SightlineError as exc:
            self._notify(str(exc), "error")
            return
        self._notify(f"saved {len(written)} pictures: {written[0].name} …", "info")

    def action_export_log(self) -> None:
        """Ctrl+L: the log, every entry whole, as ``sightline-MAP-log.txt`` in the current folder."""
        session = self.session
        if session is None:
            return
        path = Path.cwd() / f"{self._export_name()}-log.txt"
        lines = list(session.history.log) or ["(the log is empty)"]
        try:
            with atomic_file(path, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
        except SightlineError as exc:
            self._notify(str(exc), "error")
            return
        self._notify(f"saved the log ({len(lines)} lines) to {path}", "info")

    def action_copy_log(self) -> None:
        """Ctrl+C: the whole log, every entry whole, onto the clipboard (paste it anywhere)."""
        session = self.session
        if session is None:
            return
        lines = list(session.history.log)
        try:
            pygame.scrap.put_text("\n".join(lines) + "\n")
        except pygame.error as exc:  # no clipboard on this system
            self._notify(f"cannot copy the log: {exc}; Ctrl+L saves it as a file", "error")
            return
        self._notify(f"copied the log ({plural(len(lines), 'line')}) to the clipboard", "info")

    def _export_name(self) -> str:
        if self.lesson_mode and self.tour is not None:
            return f"sightline-{self.tour.paths[self.tour.index].stem}"
        session = self.session
        return f"sightline-{session.path.stem}" if session is not None else "sightline"

    def action_lesson_next(self) -> None:
        """PageDown, ]."""
        if self.lesson_mode and self.tour is not None:
            self.tour.next_board()
            self._enter_lesson()

    def action_lesson_prev(self) -> None:
        """PageUp, [."""
        if self.lesson_mode and self.tour is not None:
            self.tour.prev_board()
            self._enter_lesson()

    def _crossing_count(self) -> int:
        ray = self.compute_ray()
        return len(ray.crossings) if ray is not None else 0

    # --- reload ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Reload the shown map from disk (the watcher calls this when a file changed)."""
        session = self.session
        if session is None:
            return
        if session.reload():
            viewport_cell, origin = self.view.cell, self.view.origin
            self.painter = BoardPainter(getattr(session.loaded, "art", None))
            self.view.cell, self.view.origin = viewport_cell, origin
            self.view.board_size = (session.board.width, session.board.height)
            self._notify(f"reloaded {session.path.name}", "info")
        else:
            self._notify(f"map error: {session.reload_error}", "error")
        self.watcher.watch(session.dependencies if self.watch_enabled else ())
        self._los_cache.clear()
        self._fov_cache.clear()

    # --- what to draw ---------------------------------------------------------------------

    def _notify(self, text: str, kind: str) -> None:
        self.notice = (text, kind, self.time() + NOTICE_TIME)

    def ray_start(self) -> tuple[Square, str | None] | None:
        """Where the ray (and ``F``'s field of view) starts and the viewer side, or None.

        The selected figure's square, else the square chosen with a click or ``S``; the viewer
        is the ``V`` choice (``auto``: the starting figure's side, else no side).
        """
        board, selected = self.board, self.selected
        if board is None:
            return None
        if selected is not None:
            figure = board.figure(selected)
            return figure.square, self.sight.viewer(board, figure.side)
        start = self.sight.start
        if start is None or not board.in_bounds(start):
            return None
        return start, self.sight.viewer(board, None)

    def ray_endpoints(self) -> tuple[Square, Square, str | None] | None:
        """Origin, target and viewer of the ray to draw now, or None.

        A pinned target on the start square is a ray too (the same square: a lesson's A→A); a
        hovered one is not.
        """
        board, selected = self.board, self.selected
        start = self.ray_start()
        if board is None or start is None:
            return None
        origin, viewer = start
        target = self.pinned
        dragging_selected = self.press is not None and self.press.dragging and self.press.figure == selected
        if target is None and not dragging_selected:
            target = self.hover
            if target == origin:
                return None
        if target is None or not board.on_board(target):
            return None
        return origin, target, viewer

    def compute_ray(self) -> Any:
        """The :class:`~game.core.sight_result.Sight` of :meth:`ray_endpoints` (cached per board
        serial and version), or None: an integer verdict and drawing steps; the Fraction
        explanation is built only when the lessons or the panel ask for the crossings."""
        ends = self.ray_endpoints()
        board = self.board
        if ends is None or board is None:
            return None
        from game.core import sight

        rule = self.rules.rule(board, self.lesson_mode)
        if not sight.by_centre_line(rule, board.grid.kind):
            return None  # another rule's lines are drawn by the rule panel
        key = (board.serial, board.version, *ends, rule)
        result = self._los_cache.get(key) if self.caches else None
        if result is None:
            result = sight.line(board, ends[0], ends[1], rule, viewer=ends[2])
            if len(self._los_cache) > 256:
                self._los_cache.clear()
            self._los_cache[key] = result
        return result

    def compute_fov(self) -> np.ndarray | None:
        """The selected figure's field of view when ``F`` is on (cached per board version)."""
        board, start = self.board, self.ray_start()
        if not self.fov_on or board is None or start is None:
            return None
        origin, viewer = start
        rule = self.rules.rule(board, self.lesson_mode)
        key = (board.serial, board.version, origin, viewer, rule)
        mask = self._fov_cache.get(key) if self.caches else None
        if mask is None:
            from game.core import sight

            mask = sight.field(board, origin, rule, viewer=viewer)
            if len(self._fov_cache) > 64:
                self._fov_cache.clear()
            self._fov_cache[key] = mask
        return mask

    def _markers(self, session: Session | None) -> list[Marker]:
        """The findings outlined on the board (cached until the findings or the focus change)."""
        key = (id(session), id(session.findings) if session else 0, len(session.findings) if session else 0,
               self.focused, self.lesson_mode)
        cached = self._marker_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        markers: list[Marker] = []
        if session is not None and not self.lesson_mode:
            for finding in session.findings:
                severity = str(getattr(finding.severity, "value", finding.severity))
                if severity != "error" and finding != self.focused:
                    continue  # warnings are outlined only when clicked in the panel
                region = finding_region(session, finding)
                if region:  # a region finding outlines the whole region, its label on the first square
                    markers.append(Marker(finding.square, None, severity, finding.code, region=frozenset(region)))
                elif finding.square is not None:
                    markers.append(Marker(finding.square, None, severity, finding.code))
                elif finding == self.focused:  # an object without a square: the squares under it
                    found = finding_area(session, finding)
                    for n, square in enumerate(found[1] if found is not None else ()):
                        markers.append(Marker(square, None, severity, "" if n else finding.code))
        self._marker_cache = (key, markers)
        return markers

    def overlay(self) -> Overlay:
        """Everything over the board this frame."""
        board = self.board
        ray = self.compute_ray()
        self.last_ray = ray
        target_figure = None  # a hovered figure is not a target: only the attack's get the ring
        attack_targets: tuple[int, ...] = ()
        if self.attack.targets and not self.lesson_mode and board is not None:
            attack_targets = tuple(t for t in self.attack.targets if t in board.figures)
            target_figure = attack_targets[0] if attack_targets else None  # not the hovered one
        refused = None
        if self.refused is not None and self.time() < self.refused[1]:
            refused = self.refused[0]
        dragging = None
        if self.press is not None and self.press.dragging and self.press.figure is not None:
            dragging = (self.press.figure, (float(self.mouse_pos[0]), float(self.mouse_pos[1])))
        session = self.session
        markers = self._markers(session)
        if self.presenting and not self.classroom.revealed:
            ray = None  # predict, then reveal: the ray is drawn neutral (draw_classroom)
        return Overlay(
            selected=self.selected,
            target=target_figure,
            targets=attack_targets,
            hover=self.hover,
            ray=ray,
            step=self.tour.step if self.lesson_mode and self.tour is not None else None,
            fov=self.compute_fov(),
            refused=refused,
            dragging=dragging,
            markers=markers,
            start=self.sight.start if self.selected is None else None,
            under_figures=self._draw_heat if self.heat.on and not self.presenting and board is not None else None,
        )

    def status(self, ray: Any) -> tuple[str, str]:
        """The status line and its kind (info, clear, blocked, error, lesson), in the window's
        words (places named by squares only, plain blocking reasons: game/ui/wording.py)."""
        text, kind = self._status(ray)
        return plain(text), kind

    def _status(self, ray: Any) -> tuple[str, str]:
        session = self.session
        if session is not None and session.reload_error:
            return f"Map error, showing the last good board:\n{session.reload_error}", "error"
        if self.notice is not None and self.notice[1] in ("blocked", "error", "finding"):
            return self.notice[0], self.notice[1]
        if self.lesson_mode and self.tour is not None:
            return self.tour.explain(ray), "lesson"
        board, selected = self.board, self.selected
        if ray is not None and board is not None:
            if sees_only_itself(board, ray.origin, ray.target, selected):
                return SELF_SIGHT, "blocked"
            text = ray.explain()
            if selected is None or self.sight.choice != "auto":
                text = f"{self.viewer_words()}: {text}"
            return text, "clear" if ray.clear else "blocked"
        if self.notice is not None:
            return self.notice[0], self.notice[1]
        if board is None:
            return "", "info"
        if selected is None and self.sight.start is not None:
            return (
                f"Hover a square to see the ray {self.viewer_words()[:1].lower()}{self.viewer_words()[1:]}. "
                "Right-click pins the end; drag either end; "
                "V changes the viewer side, F shades what it cannot see.",
                "info",
            )
        if selected is None and not board.figures:
            return (
                "Click any square to start a ray there (or Ctrl+arrows and S), then hover or "
                "right-click its end. F1 lists every key.",
                "info",
            )
        if selected is None:
            return "Click a figure or press Tab to select it. F1 lists every key.", "info"
        figure = board.figure(selected)
        return (
            f"Hover a square to see the ray from {figure.label} on {fmt_square(figure.square)} "
            f"(as seen by {figure.side}). Right-click pins a target.",
            "info",
        )

    def viewer_words(self) -> str:
        """Where the ray starts and whose enemies block, in words: ``from (2,3), viewer red``."""
        board, start = self.board, self.ray_start()
        if board is None or start is None:
            return ""
        selected = self.selected
        side = board.figure(selected).side if selected is not None else None
        return f"From {fmt_square(start[0])}, viewer {self.sight.viewer_label(board, side)}"

    def panel_info(self, ray: Any) -> PanelInfo:
        """What the side panel shows this frame."""
        session = self.session
        status, kind = self.status(ray)
        self.last_status = (status, kind)
        if session is None:
            return PanelInfo(title="Lessons", status=status, status_kind=kind, extra={"lessons": True})
        board = session.board
        title = board.name or session.path.stem
        parts = [f"{board.width}×{board.height}", f"ruleset {board.ruleset}", plural(len(board.figures), "figure")]
        subtitle = " · ".join(parts)
        caption = board.properties.get("caption")
        if caption and not self.lesson_mode:
            subtitle += f"\n{caption}"
        figure_lines: list[str] = []
        selected = self.selected
        if selected is not None:
            figure = board.figure(selected)
            figure_lines = [figure.label, f"{figure.side} · on {fmt_square(figure.square)} · id {figure.id}"]
            figure_lines += figure_stat_lines(figure.stats)
        return PanelInfo(
            title=title,
            subtitle=subtitle,
            figure=figure_lines,
            status=status,
            status_kind=kind,
            findings=session.findings if not self.lesson_mode else (),
            log=session.history.log,
            log_serial=session.history.serial,
            extra={"lessons": self.lesson_mode, "map_check": map_check_state(session),
                   "finding_filter": self.reader.severity},
        )

    def draw(self) -> None:
        """Board, banner, panel, help: one picture on the screen surface."""
        if not self.caches:
            self.painter.invalidate()
            self._los_cache.clear()
            self._fov_cache.clear()
        board = self.board
        overlay = self.overlay() if board is not None else Overlay()
        if board is not None:
            self.painter.draw(self.screen, board, self.view, overlay)
            if self.heat.on and not self.presenting:
                self.heat.draw_legend(self.screen, self.view, board, self.hover, self.ui_scale)
            self._draw_measuring(board)
            self._draw_labels(board)
            self.rules.draw(self.screen, self.view, board, self.ray_start(), self.ray_endpoints(),
                            self.ui_scale, self.lesson_mode)
            if not self.lesson_mode:
                self._draw_attack(board)
        else:
            self.screen.fill(theme.BACKGROUND, self.view.viewport)
        self._draw_reader()
        self._draw_banner()
        if self.presenting:
            self._draw_classroom()
            if self.help_on:
                self.help.draw(self.screen)
            return
        info = self.panel_info(overlay.ray)
        now = self.time()
        dragging = self.press is not None and self.press.dragging
        if not dragging or now - self._panel_refreshed >= PANEL_DRAG_INTERVAL:
            # while dragging, the panel's text boxes follow at a few frames a second: re-laying
            # out their text every frame would cost more than drawing the board
            self._panel_refreshed = now
            self.panel.refresh(info, budget=1 if dragging else None)
        self._draw_gui()
        if self.help_on:
            self._draw_help()

    def compute_reach(self) -> dict[Square, int] | None:
        """The movement reach from the ray's start when ``W`` is on (cached per board version)."""
        board, start = self.board, self.ray_start()
        if not self.measuring.reach or board is None or start is None:
            return None
        selected = self.selected
        figure = board.figure(selected) if selected is not None else None
        steps = self.measuring.steps_for(figure.stats if figure is not None else None)
        side = figure.side if figure is not None else start[1]
        key = (board.serial, board.version, start[0], steps, side, selected)
        if self._reach_cache is None or self._reach_cache[0] != key:
            from game.core.measure import reach

            self._reach_cache = (key, reach(board, start[0], steps, side, selected))
        return self._reach_cache[1]

    def _draw_measuring(self, board: Board) -> None:
        """The reach tint and the ruler over the board, clipped to the board area."""
        found = self.compute_reach()
        start = self.ray_start()
        end = self.pinned or self.hover
        self.last_ruler = None
        if found is None and not (self.measuring.ruler and start is not None and end is not None):
            return
        old_clip = self.screen.get_clip()
        self.screen.set_clip(pygame.Rect(self.view.viewport))
        if found is not None:
            draw_reach(self.screen, self.view, found, self.ui_scale)
        if self.measuring.ruler and start is not None and end is not None and board.in_bounds(end):
            self.last_ruler = draw_ruler(self.screen, self.view, board, start[0], end, self.ui_scale)
        self.screen.set_clip(old_clip)

    def _draw_labels(self, board: Board) -> None:
        """Coordinates on the board's edges and the hover card of the figures under the mouse."""
        old_clip = self.screen.get_clip()
        self.screen.set_clip(pygame.Rect(self.view.viewport))
        if self.coordinates_on:
            draw_coordinates(self.screen, self.view, board, self.ui_scale)
        self.last_card = None
        hover = self.hover
        under_mouse = self.view.in_viewport(*self.mouse_pos) and self.view.square_at(*self.mouse_pos) == hover
        if (hover is not None and under_mouse and self.press is None and board.in_bounds(hover)
                and not self.presenting):
            figures = board.figures_at(hover)
            if figures:
                self.last_card = draw_card(
                    self.screen, figures, board, self.mouse_pos, pygame.Rect(self.view.viewport), self.ui_scale
                )
        self.screen.set_clip(old_clip)

    def action_coordinates(self) -> None:
        """G."""
        self.coordinates_on = not self.coordinates_on

    def action_ruler(self) -> None:
        """M."""
        self.measuring.ruler = not self.measuring.ruler
        if self.measuring.ruler and self.ray_start() is None:
            self._notify("The ruler measures from the selected figure or the start square: click one.", "info")

    def action_reach(self) -> None:
        """W."""
        self.measuring.reach = not self.measuring.reach
        if self.measuring.reach and self.ray_start() is None:
            self._notify("The reach starts from the selected figure or the start square: click one.", "info")

    def action_reach_steps(self) -> None:
        """1 … 9: the reach's number of steps (and W on)."""
        key = self._last_key
        if key is not None and pygame.K_1 <= key <= pygame.K_9:
            self.measuring.steps = key - pygame.K_0
            self.measuring.reach = True

    def _draw_classroom(self) -> None:
        """Classroom mode: the neutral ray before the reveal, the verdict and the step on the
        board beside the ray, the lesson text in large type on the right, the menu over all."""
        tour, board = self.tour, self.board
        if tour is None:
            return
        width, height = self.screen.get_size()
        size = classroom.text_size(height)
        ray = self.last_ray
        column = pygame.Rect(width - self._panel_screen_width(), 0, self._panel_screen_width(), height)
        room = self.classroom
        blocks: list[tuple[str, tuple[int, int, int], int]] = [
            (tour.heading(), classroom.PROMPT, size),
            (room.progress(len(tour.paths)), classroom.MUTED, max(20, size * 2 // 3)),
        ]
        if tour.error:
            blocks.append((tour.error, classroom.BLOCKED, size))
        elif tour.lesson is not None:
            blocks.append((tour.lesson.caption, classroom.TEXT, size))
        area = pygame.Rect(self.view.viewport)
        if ray is not None and board is not None:
            verdict = tour.verdict(ray)
            colour = classroom.CLEAR if verdict == "clear" else classroom.BLOCKED
            start = self.view.square_centre(ray.origin)
            end = self.view.square_centre(ray.target)
            if not room.revealed:
                pygame.draw.line(self.screen, classroom.NEUTRAL_RAY, start, end, max(3, round(self.view.cell * 0.06)))
                said = f"The class says: {room.prediction}." if room.prediction else "Clear or blocked?"
                blocks.append((said, classroom.PROMPT, size))
                blocks.append(("Y clear · B blocked · Enter reveals", classroom.MUTED, max(20, size * 2 // 3)))
                self.last_callout = classroom.draw_callout(
                    self.screen, end, [("Clear or blocked?", classroom.PROMPT, size + 6)], area, self._ray_squares(ray))
            else:
                lines = [(f"{tour.ray_words(ray)}: {verdict.upper()}", colour, size + 8)]
                if room.prediction:
                    right = room.prediction == verdict
                    lines.append((f"The class said {room.prediction}: {'right' if right else 'wrong'}.",
                                  classroom.CLEAR if right else classroom.BLOCKED, size))
                anchor = end
                step = tour.step
                if step is not None and 0 <= step < len(ray.crossings):
                    crossing = ray.crossings[step]
                    lines.append((plain(f"Step {step + 1} of {len(ray.crossings)}: {crossing.explain()}"),
                                  classroom.TEXT, size))
                    gx, gy = ray_point(ray, crossing)
                    px, py = self.view.to_screen(gx, gy)
                    anchor = (round(px), round(py))
                else:
                    lines.append((plain(ray.explain()) if ray.clear == (verdict == "clear") else
                                  "A figure sees another figure in its own square, never itself.",
                                  classroom.TEXT, size))
                avoid = [*self._ray_squares(ray), pygame.Rect(anchor[0] - 12, anchor[1] - 12, 24, 24)]
                self.last_callout = classroom.draw_callout(self.screen, anchor, lines, area, avoid)
                blocks.append(("N / P: step along the ray · O: lessons · ] next board", classroom.MUTED,
                               max(20, size * 2 // 3)))
        classroom.draw_column(self.screen, column, blocks)
        if self.notice is not None:
            classroom.draw_callout(self.screen, (area.x, area.bottom), [(self.notice[0], classroom.TEXT, size)], area)
        if room.menu:
            classroom.draw_menu(self.screen, [p.stem for p in tour.paths], tour.index, room.menu_index, room)

    def _ray_squares(self, ray: Any) -> list[pygame.Rect]:
        """The screen rectangles of the ray's two end squares (a callout never covers them)."""
        return [pygame.Rect(self.view.square_rect(square)) for square in (ray.origin, ray.target)]

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

    def _draw_attack(self, board: Board) -> None:
        """The dice tray over the board (the painter rings every target)."""
        targets = [t for t in self.attack.targets if t in board.figures]
        if self.attack.tray.active:
            landing = self.view.square_centre(board.figure(targets[0]).square) if targets else None
            hit = self.attack.landing_figure()  # who takes the damage (a failed block: the hero)
            landing_at = (
                self.view.square_centre(board.figure(hit).square)
                if hit is not None and hit in board.figures else None
            )
            scale = self.ui_scale
            if scale != 1.0:  # the tray is laid out in UI units and scaled like the panel
                x, y, w, h = self.view.viewport
                layer = pygame.Surface((max(1, round(w / scale)), max(1, round(h / scale))), pygame.SRCALPHA)
                self.dice_tray.draw(layer, layer.get_rect(), _shrink(landing, scale), _shrink(landing_at, scale))
                self.screen.blit(pygame.transform.smoothscale(layer, (w, h)), (x, y))
                return
            old_clip = self.screen.get_clip()
            self.screen.set_clip(pygame.Rect(self.view.viewport))
            self.dice_tray.draw(self.screen, pygame.Rect(self.view.viewport), landing, landing_at)
            self.screen.set_clip(old_clip)

    def _banner_font(self) -> pygame.font.Font:
        """The panel's typeface for the error banner (pygame's default font spaces it unevenly)."""
        font = self._banner_font_cache
        if font is None:
            path = chart_font_path()
            size = round(13 * self.ui_scale)
            font = pygame.font.Font(path, size) if path is not None else self.painter.font(round(17 * self.ui_scale))
            self._banner_font_cache = font
        return font

    def banner_text(self) -> str | None:
        """What the red banner says now: the reload error (until the file is fixed), a broken
        lesson, else the oldest notice not yet dismissed."""
        session = self.session
        if session is not None and session.reload_error:
            return f"Map error (showing the last good board): {session.reload_error}"
        if self.lesson_mode and self.tour is not None and self.tour.error:
            return self.tour.error
        if self.banners and not self.lesson_mode:
            more = f" (+{len(self.banners) - 1} more)" if len(self.banners) > 1 else ""
            return f"{self.banners[0]}{more}   [click or Esc: dismiss]"
        return None

    def dismiss_banner(self) -> bool:
        """Take the oldest notice off the banner; False when there was none."""
        if self.banners and not self.lesson_mode:
            self.banners.pop(0)
            return True
        return False

    def _draw_banner(self) -> None:
        """The banner over the top of the board, wrapped onto as many lines as it needs."""
        text = self.banner_text()
        self._banner_rect = None
        if text is None:
            return
        x, y, w, _ = self.view.viewport
        if self._banner is None or self._banner[:2] != (text, w):
            font = self._banner_font()
            lines = classroom.wrap(font, text, max(40, w - 24))
            line_h = font.get_linesize()
            band = pygame.Surface((w, line_h * len(lines) + 14))
            band.fill(BANNER_BG)
            for n, line in enumerate(lines):
                band.blit(font.render(line, True, BANNER_TEXT), (12, 7 + n * line_h))
            self._banner = (text, w, band)
        self.screen.blit(self._banner[2], (x, y))
        self._banner_rect = pygame.Rect(x, y, *self._banner[2].get_size())


def _shrink(point: tuple[int, int] | None, scale: float) -> tuple[int, int] | None:
    """A screen point in UI units (for parts drawn at the logical size)."""
    return None if point is None else (round(point[0] / scale), round(point[1] / scale))


#: what a same-square ray with nobody else there says (rules §1.3, FAQ; lesson L29b)
SELF_SIGHT = (
    "Blocked: a figure has no line of sight to itself (it can see another figure in its own "
    "square, never itself)."
)


#: classroom mode: the share of the window's width the lesson text column takes
CLASSROOM_COLUMN = 0.3


def ray_point(ray: Any, crossing: Any) -> tuple[float, float]:
    """Where on the board a crossing of the ray lies, in grid units."""
    point = getattr(crossing, "point", None)
    if point is not None:
        return float(point[0]), float(point[1])
    t = float(getattr(crossing, "t", 0.5))
    ox, oy = ray.origin[0] + 0.5, ray.origin[1] + 0.5
    tx, ty = ray.target[0] + 0.5, ray.target[1] + 0.5
    return ox + (tx - ox) * t, oy + (ty - oy) * t


#: the most squares outlined for one clicked finding's object
FOCUS_SQUARES = 24


def finding_area(session: Session | None, finding: Any) -> tuple[tuple[float, float], list[Square]] | None:
    """Where a finding without a square is: the centre of its object (grid units) and the board
    squares under the object's shape, from the loaded map's objects (None when unknown).

    A diagonal wall from corner (9,0) to (10,2) is centred at (9.5, 1) and covers (9,0), (9,1).
    """
    if session is None or finding.object_id is None:
        return None
    info = (getattr(session.loaded, "objects", None) or {}).get(finding.object_id)
    if info is None:
        return None
    points = list(info.points) or [(info.x, info.y), (info.x + info.width, info.y + info.height)]
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    board = session.board

    def span(low: float, high: float, size: int) -> range:
        first = math.floor(low)
        last = max(first, math.ceil(high) - 1)
        return range(max(0, first), min(size - 1, last) + 1)

    squares = [(x, y) for y in span(top, bottom, board.height) for x in span(left, right, board.width)]
    return ((left + right) / 2, (top + bottom) / 2), squares[:FOCUS_SQUARES]


def map_check_state(session: Session) -> str | None:
    """What the map check heading adds to its counts: the check still running, or the board it
    describes when the saved file is broken (None: the check is complete and current)."""
    progress = session.lint_progress
    if session.reload_error:
        return "· last good board"
    if progress is not None:
        return f"· checking, {progress[0]} of {progress[1]} done…"
    return None


#: the linter's region findings and whether their regions are walked with every door open
REGION_CODES = {"region-unreachable": True, "region-sealed-by-doors": False}


def finding_region(session: Session, finding: Any) -> list[Square]:
    """Every square of the region a region finding is about (empty for other findings).

    The linter names a region by its first square; the window outlines all of it, found again
    with the linter's own walk (``game.designer.lint.walk_regions``).
    """
    doors_open = REGION_CODES.get(finding.code)
    if doors_open is None or finding.square is None:
        return []
    from game.designer.lint import walk_regions

    for region in walk_regions(session.board, doors_open=doors_open):
        if finding.square in region:
            return list(region)
    return []


def figure_stat_lines(stats: Mapping[str, Any]) -> list[str]:
    """A figure's stats for the panel: short ones on one line, long ones (attacks) one per line.

    Empty values (a blank ``rules`` property) are left out; the panel wraps long lines.

    >>> figure_stat_lines({"life": 5, "defense": 2, "attacks": "Blade:melee:3; Bow:ranged:2"})
    ['life 5 · defense 2', 'attacks: Blade:melee:3; Bow:ranged:2']
    >>> figure_stat_lines({"rules": "", "resolve": 2})
    ['resolve 2']
    """
    shown = {key: value for key, value in stats.items() if str(value).strip()}
    short = [f"{key} {value}" for key, value in shown.items() if len(str(value)) <= 12]
    long = [f"{key}: {value}" for key, value in shown.items() if len(str(value)) > 12]
    return ([" · ".join(short)] if short else []) + long


def save_screenshot(surface: pygame.Surface, out: Path) -> None:
    """Save the screen as a PNG atomically (``game.play.atomic``: temporary file, then rename).

    A missing folder is not created (``play`` checks the path before the first frame, as
    ``render`` does); a file that cannot be written is one :class:`~game.play.atomic.OutputError` line
    (``cannot write PATH: reason``), never a traceback.
    """
    out = Path(out)
    try:
        with atomic_file(out, "wb") as handle:
            pygame.image.save(surface, handle, out.name)
    except pygame.error as exc:  # SDL's own write errors are not OSErrors
        raise cannot_write(out, str(exc)) from exc


def open_window(size: tuple[int, int], *, headless_ok: bool, map_hint: str) -> pygame.Surface:
    """Initialise pygame and open the window; :class:`NoDisplayError` when there is no display.

    With ``headless_ok`` (a ``--frames`` run) and no display, the dummy driver is used instead.
    SDL quietly falls back to an invisible "offscreen" window when ``DISPLAY`` names no X
    server; that counts as no display too.
    """
    hint = f"no display available; try: sightline render {map_hint} -o board.png"
    if not display_available():
        if not headless_ok:
            raise NoDisplayError(hint)
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    asked = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    x11_only = (
        not asked
        and sys.platform.startswith("linux")
        and bool(os.environ.get("DISPLAY"))
        and not wayland_socket_exists()
    )
    if x11_only:  # no Wayland session: don't let SDL probe it (and print errors) after X fails
        os.environ["SDL_VIDEODRIVER"] = "x11"
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS and asked not in HEADLESS_DRIVERS:
            raise pygame.error(f"SDL chose the {driver} driver")
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        set_minimum_size()
    except pygame.error as exc:
        pygame.display.quit()
        if x11_only:
            del os.environ["SDL_VIDEODRIVER"]
        if not headless_ok:
            raise NoDisplayError(f"{hint} ({exc})") from exc
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.key.set_repeat(350, 40)
    return screen


#: the smallest window the panel's text fits whole in (a real window cannot be made smaller)
MINIMUM_SIZE = (960, 600)


def set_minimum_size() -> None:
    """Ask the window system not to let the window shrink below :data:`MINIMUM_SIZE`."""
    window_type = getattr(pygame, "Window", None)
    if window_type is None or pygame.display.get_driver() in HEADLESS_DRIVERS:
        return
    with contextlib.suppress(pygame.error, AttributeError, ValueError):  # an old SDL: no minimum
        window_type.from_display_module().minimum_size = MINIMUM_SIZE


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
            app.action_present()
        return app.run(frames=frames, screenshot=screenshot)
    finally:
        pygame.display.quit()
