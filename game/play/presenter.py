"""The presenter: the play logic of the window, without the window.

One :class:`Presenter` holds what a person looking at a board in play has chosen and what the
board says back: the session shown (the map's, or a lesson's in the lesson tour), the selected
figure, the hovered and pinned squares, the ray's start and viewer (:mod:`game.play.viewpoint`),
the line-of-sight rule and its compare mode (:mod:`game.play.rule_choice`), the toggles (field
of view, heat map, coordinates, ruler, reach), classroom mode (:mod:`game.play.classroom`), the
attack being built (:class:`~game.play.attack.AttackController`), the drag of a figure, the
notices and banners. Every key of the window's table (``game/ui/keys.py``) and every gesture
lands on one of its methods; :meth:`Presenter.frame` turns the state into a
:class:`~game.play.frame.Frame`, plain data any front end draws.

No pygame: the window (``game/ui/app.py``) keeps events, layout and drawing. Every question to
the sight engine goes through :mod:`game.play.sight_calls`.

>>> from game.resources import bundled_maps
>>> p = Presenter(Session.open(bundled_maps() / "demo.tmx", autosave=False), clock=lambda: 0.0)
>>> p.start()
>>> p.cycle_selection(1); p.hover = (12, 5)
>>> frame = p.frame()
>>> p.board.figure(frame.selected).name, frame.ray.clear, frame.status
('Ember', False, 'Blocked: wall between (6,4) and (7,4). (4 more blockers further on.)')
>>> frame.as_json()["ray"]["points"][0]["kind"]
'edge'

"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from game.core.board import Board, BoardState, DoorState, Edge, Figure, Square, fmt_square
from game.core.errors import SightlineError
from game.core.profiles import Profile
from game.core.words import plural
from game.play.atomic import atomic_file
from game.play.attack import AttackController
from game.play.balance_view import BalanceShown, BalanceView
from game.play.classroom import Classroom, lecture
from game.play.findings import Marker, markers
from game.play.frame import Frame, Note
from game.play.lessons import LessonTour, lesson_paths
from game.play.measuring import Measuring, ruler
from game.play.reveal import Reveal
from game.play.roll_log import plain_text
from game.play.rule_choice import RuleChoice
from game.play.session import Session
from game.play.sight_calls import Ray, cast_ray, is_default_rule
from game.play.status import panel_info, status_line
from game.play.threat_view import ThreatFrame, ThreatView
from game.play.viewpoint import Viewpoint, step_cursor
from game.play.wording import WINDOW_PROMPTS, log_entries, plain

#: how long a refused drop flashes red, seconds
REFUSED_FLASH = 0.8
#: how long a refusal or a notice stays in the status line, seconds
NOTICE_TIME = 4.0

#: the toggles :meth:`Presenter.toggle` flips → the presenter's attribute
TOGGLES = {"fov": "fov_on", "heat": "heat_on", "coordinates": "coordinates_on"}
#: what the ruler and the reach say when switched on with no start to measure from
MEASURE_HINTS = {
    "ruler": "The ruler measures from the selected figure or the start {cell}: click one.",
    "reach": "The reach starts from the selected figure or the start {cell}: click one.",
}
#: the lesson menu's keys (the table's chords) → the step through the boards
MENU_STEPS = {"Up": -1, "Left": -1, "Down": 1, "Right": 1}


def door_words(board: Board, door: Any) -> str:
    """A door's edge as the status line says it: by the two cells it lies between (the grid's
    ``edge_cells``: on squares the words the window gives ``V(7,3)``).

    >>> from game.core.hex_sight import hex_board
    >>> b = hex_board(2, 1)
    >>> door_words(b, b.grid.edge_between((0, 0), (1, 0))), door_words(Board(2, 1), Edge("V", 1, 0))
    ('between (0,0) and (1,0)', 'between (0,0) and (1,0)')
    """
    a, b = board.grid.edge_cells(door)
    return f"between {fmt_square(a)} and {fmt_square(b)}"


@dataclass
class Drag:
    """A figure being dragged: which, and the board before the drag (undo, refusals)."""

    figure: int
    before: BoardState


class Presenter:
    """The board in play as a person sees it (see the module's docstring).

    ``clock`` gives the time (flashes and notices expire by it); ``tray`` reveals each attack
    (the window's dice tray); ``prompts`` word what the attack still needs, ``chords`` an
    action's keys (the window passes its own: its key table names them); ``caches`` off makes
    every frame recompute its rays and fields (the benchmarks' reference).
    """

    def __init__(
        self,
        session: Session | None,
        *,
        lessons: Sequence[Path] | None = None,
        lesson_options: Mapping[str, Any] | None = None,
        rule: Profile | None = None,
        clock: Callable[[], float] = time.monotonic,
        tray: Reveal | None = None,
        prompts: dict[str, str] | None = None,
        chords: Callable[[str], str] | None = None,
        caches: bool = True,
    ) -> None:
        if session is None and not lessons:
            raise ValueError("the window needs a map or lessons")
        self.main_session = session
        self.lesson_paths = list(lessons or [])
        #: how the lesson maps are read (``sightline lessons --classes/--tiles/--property/--preset``)
        self.lesson_options: dict[str, Any] = dict(lesson_options or {})
        self.tour: LessonTour | None = None
        self.lesson_mode = False
        self.clock = clock
        self.caches = caches
        self.hover: Square | None = None
        self.pinned: Square | None = None
        self.viewpoint = Viewpoint()
        self.classroom = Classroom()
        self.rules = RuleChoice(default=rule, chords=chords or (lambda action: action))
        self.measuring = Measuring()
        #: the selected figure's threats and danger map (``Shift+H``, ``Shift+A``)
        self.threats = ThreatView(clock=clock)
        #: the balance report over the board (``Shift+B``)
        self.balance = BalanceView(clock=clock)
        self.fov_on = False
        self.heat_on = False
        self.coordinates_on = True
        #: the finding clicked last: outlined on the board whatever its severity
        self.focused: Any = None
        #: notices that stay on a banner until dismissed: a corrupt autosave set aside, ...
        self.banners: list[str] = []
        self.notice: tuple[str, str, float] | None = None  # text, kind, until
        self.refused: tuple[Square | None, float] | None = None  # square, until
        self.drag: Drag | None = None
        self.attack = AttackController(lambda: self.session, tray=tray, on_message=self.notify,
                                       prompts=prompts if prompts is not None else WINDOW_PROMPTS)
        #: called with the session shown when it changes (the window fits and watches it)
        self.on_switch: Callable[[Session | None], None] = lambda session: None
        self._saved_main: int | None = None
        self._rays: dict[tuple[Any, ...], Ray] = {}
        self._fields: dict[tuple[Any, ...], np.ndarray] = {}
        self._markers: tuple[tuple[Any, ...], tuple[Marker, ...]] | None = None

    def start(self, lessons: bool = False) -> None:
        """Show the main map, or the lessons (``lessons``, or when there is no map)."""
        if lessons or self.main_session is None:
            self.toggle_lessons()
        else:
            self._switch_to(self.main_session)

    # --- the session on screen ---------------------------------------------------------------

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

    @property
    def presenting(self) -> bool:
        """Classroom mode on a lesson board."""
        return self.classroom.on and self.lesson_mode

    def _switch_to(self, session: Session | None) -> None:
        """Show this session. The old board's attack targets and pinned square go (their ids and
        squares mean nothing on another board); the session's messages go to the banner."""
        self.attack.dismiss()
        self.attack.targets = []
        self.pinned = None
        self.viewpoint.forget()
        self.threats.forget()
        self.on_switch(session)
        if session is not None:
            for message in session.messages:
                self.notify(message, "error")
                self.banners.append(message)  # stays until dismissed (click the banner, or Esc)
            session.messages.clear()
        self.forget()

    def forget(self) -> None:
        """Drop the cached rays and fields of view (the board was reloaded, or caches are off)."""
        self._rays.clear()
        self._fields.clear()
        self.rules.forget()

    def reload(self) -> bool:
        """Read the shown map again from disk (the window's file watcher, ``F5``); True when it
        was read, else the error is said and the last good board stays."""
        session = self.session
        if session is None:
            return False
        read = session.reload()
        if read:
            self.notify(f"reloaded {session.path.name}", "info")
        else:
            self.notify(f"map error: {session.reload_error}", "error")
        self.forget()
        self.threats.forget()
        return read

    # --- notices ---------------------------------------------------------------------------

    def notify(self, text: str, kind: str) -> None:
        """Say something in the status line for a few seconds (kind: info, blocked, error, finding)."""
        self.notice = (plain_text(text), kind, self.clock() + NOTICE_TIME)  # "→" the font lacks

    def current_notice(self) -> tuple[str, str] | None:
        """The notice shown now (text, kind), or None."""
        return None if self.notice is None else (self.notice[0], self.notice[1])

    def tick(self, dt: float) -> None:
        """Time passed: the dice tray moves on, flashes and notices expire."""
        self.attack.update(dt)
        now = self.clock()
        if self.refused is not None and now >= self.refused[1] and self.drag is None:
            self.refused = None  # a refusal under the dragged figure stays while it is held
        if self.notice is not None and now >= self.notice[2]:
            self.notice = None

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

    # --- selection and sight -----------------------------------------------------------------

    def cycle_selection(self, step: int) -> None:
        """Tab / Shift+Tab: the next (previous) figure by id."""
        board = self.board
        if board is None or not board.figures:
            return
        ids = sorted(board.figures)
        current = self.selected
        if current is None:
            self.select(ids[0] if step > 0 else ids[-1])
        else:
            self.select(ids[(ids.index(current) + step) % len(ids)])

    def point_at(self, square: Square | None) -> None:
        """The mouse is over ``square`` (None: off the board); it takes over from the keyboard cursor."""
        self.viewpoint.cursor = None
        self.hover = square if square is not None and self.board is not None else None

    def start_sight_at(self, square: Square) -> None:
        """Start the ray at a square without a figure (a click on an empty square, or ``S``).

        The selected figure is let go (its square was the start); clicking the start again
        takes the start away.
        """
        board = self.board
        if board is None or not board.in_bounds(square):
            return
        self.select(None)
        self.viewpoint.start = None if square == self.viewpoint.start else square

    def cell_noun(self) -> str:
        """What one cell of the board is called in messages (the grid's noun; ``square`` with no board)."""
        board = self.board
        return board.grid.noun if board is not None else "square"

    def cursor_square(self) -> Square | None:
        """The square ``S`` and ``E`` act on: the keyboard cursor, else the one under the mouse."""
        return self.viewpoint.cursor if self.viewpoint.cursor is not None else self.hover

    def sight_start_at_cursor(self) -> None:
        """S: start the ray at the cursor square (again: clear it)."""
        square = self.cursor_square()
        if square is None:
            self.notify(f"Move the cursor onto a {self.cell_noun()} first (Ctrl+arrows or the mouse).", "error")
            return
        self.start_sight_at(square)

    def sight_end_at_cursor(self) -> None:
        """E: pin the ray's end at the cursor square (again: unpin)."""
        square = self.cursor_square()
        if square is not None:
            self.pinned = None if square == self.pinned else square

    def next_viewer(self) -> None:
        """V: the next viewer side (auto, each side on the map, no side)."""
        if self.board is not None:
            self.viewpoint.cycle_viewer(self.board)
            self._rays.clear()
            self.notify(f"viewer: {self.viewpoint.viewer_label(self.board)}", "info")

    def move_cursor(self, dx: int, dy: int) -> None:
        """Ctrl+arrows: the keyboard cursor one square on (it starts in the middle)."""
        board = self.board
        if board is None:
            return
        start = self.viewpoint.cursor if self.viewpoint.cursor is not None else self.hover
        self.viewpoint.cursor = step_cursor(board, start, dx, dy)
        self.hover = self.viewpoint.cursor

    def toggle(self, name: str) -> None:
        """F, H, G, M, W: the field of view, the heat map, the coordinates, the ruler, the reach."""
        if name in MEASURE_HINTS:
            on = not getattr(self.measuring, name)
            setattr(self.measuring, name, on)
            if on and self.ray_start() is None:
                self.notify(MEASURE_HINTS[name].format(cell=self.cell_noun()), "info")
            return
        attribute = TOGGLES[name]
        setattr(self, attribute, not getattr(self, attribute))

    def threat(self, action: str) -> None:
        """Shift+H / Shift+A / Shift+B: the next danger-map mode (``danger``), threat badges and
        rings on or off (``marks``), the balance report on or off (``balance``); the sentence
        saying which goes to the status line."""
        if action == "balance":
            self.notify(self.balance.toggle(), "info")
            return
        words = self.threats.cycle_danger(self.cell_noun()) if action == "danger" else self.threats.toggle_marks()
        if self.selected is None and not self.lesson_mode:
            words += " (select a figure to see it)"
        self.notify(words, "info")

    def threat_frame(self) -> ThreatFrame | None:
        """The selected figure's threat view (None with nothing selected, in the lessons)."""
        board, selected = self.board, self.selected
        if board is None or selected is None or self.lesson_mode:
            return None
        return self.threats.frame(board, selected)

    def balance_frame(self) -> BalanceShown | None:
        """The balance overlay (None when off, in the lessons, without a map)."""
        session, board = self.session, self.board
        if session is None or board is None or self.lesson_mode:
            return None
        return self.balance.frame(board, getattr(session.loaded, "objects", {}), self.rules.rule(board, False))

    def set_reach_steps(self, chord: str) -> None:
        """1 … 9: the reach's number of steps (and the reach on)."""
        self.measuring.steps = int(chord)
        self.measuring.reach = True

    def rule(self, action: str) -> None:
        """A key of the line-of-sight rule: one of :class:`~game.play.rule_choice.RuleChoice`'s
        methods by name; the sentence it returns goes to the status line."""
        if self.board is not None:
            self.notify(self.rules.act(action, self.board, self.lesson_mode), "info")

    def flip_rule_parameter(self, parameter: str) -> None:
        """A click on a parameter row: flip it."""
        if self.board is not None:
            self.notify(self.rules.flip(self.board, self.lesson_mode, parameter), "info")

    # --- pointer gestures ----------------------------------------------------------------

    def grab(self, square: Square | None, door: Edge | None) -> tuple[int | None, str | None]:
        """A left press on ``square`` (or on ``door``): the figure it picks (the selected one's
        successor on a stack, else the first) and the end of the ray it would drag (``end``: the
        pinned square; ``start``: the start square with no figure selected)."""
        board = self.board
        if board is None:
            return None, None
        figures = board.figures_at(square) if square is not None and door is None else ()
        figure = None
        if figures:
            ids = [f.id for f in figures]
            figure = ids[0]
            if self.selected in ids:
                figure = ids[(ids.index(self.selected) + 1) % len(ids)] if len(ids) > 1 else ids[0]
        end = None
        if figure is None and door is None and square is not None:
            if square == self.pinned:
                end = "end"
            elif self.selected is None and square == self.viewpoint.start:
                end = "start"
        return figure, end

    def move_ray_end(self, end: str, square: Square) -> None:
        """An end of the ray dragged onto ``square``."""
        if end == "end":
            self.pinned = square
        else:
            self.viewpoint.start = square

    def begin_drag(self, figure_id: int) -> None:
        """A figure is picked up (its square and the board are remembered for the drop)."""
        if self.session is not None:
            self.drag = Drag(figure_id, self.session.board.state())

    def drag_to(self, square: Square | None) -> None:
        """Move the dragged figure live to ``square`` when it may stand there, else say why."""
        board, drag = self.board, self.drag
        if board is None or drag is None or square is None or drag.figure not in board.figures:
            return
        if board.figure(drag.figure).square == square:
            return
        reason = board.can_enter(drag.figure, square)
        if reason is None:
            board.move_figure(drag.figure, square)
            if self.refused is not None:
                self.refused = None
                self.notice = None
            return
        # show the refusal while dragging, not only on release: red square, the reason in the panel
        self.refused = (square, self.clock() + REFUSED_FLASH)
        self.notify(f"Cannot stand here: {reason}.", "blocked")

    def drop(self, square: Square | None) -> None:
        """The dragged figure let go over ``square``: one undoable move, or refused and back."""
        session, drag = self.session, self.drag
        self.drag = None
        if session is None or drag is None:
            return
        board, figure_id = session.board, drag.figure
        start = next(f.square for f in drag.before.figures if f.id == figure_id)
        if square is None:
            reason: str | None = "dropped outside the board"
        else:
            reason = None if square == start else board.can_enter(figure_id, square)
        if reason is not None:
            board.restore(drag.before)
            self.refused = (square, self.clock() + REFUSED_FLASH)
            self.notify(f"Refused: {reason}; {board.figure(figure_id).label} returns to {fmt_square(start)}.",
                        "blocked")
            session.history.note(f"refused: {reason}")
            return
        assert square is not None
        if board.figure(figure_id).square != square:  # the live move stopped short
            board.move_figure(figure_id, square)
        if square == start:
            board.restore(drag.before)
            return
        label = f"move {board.figure(figure_id).label} {fmt_square(start)} -> {fmt_square(square)}"
        session.record(label, drag.before)
        self.select(figure_id)

    def cancel_drag(self) -> bool:
        """Esc while dragging: the figure goes back (True), or nothing was dragged (False)."""
        if self.drag is None:
            return False
        if self.session is not None:
            self.session.board.restore(self.drag.before)
        self.drag = None
        return True

    def click(self, square: Square | None, door: Edge | None, figure: int | None) -> None:
        """A left click (no drag): a door cycles, a figure is selected, a door square cycles,
        an empty square starts the ray there."""
        session = self.session
        if door is not None and session is not None:
            state = session.cycle_door(door)
            self.notify(f"door {door_words(session.board, door)}: {state.value}", "info")
        elif figure is not None:
            self.select(figure)
        elif square is not None and session is not None and square in session.board.door_squares:
            self._cycle_door_square(session, square)
        elif square is not None and door is None and self.board is not None:
            self.start_sight_at(square)

    def _cycle_door_square(self, session: Session, square: Square) -> None:
        """A click on a door square cycles it closed → open → locked, as one undoable action."""
        new: DoorState = session.board.door_squares[square].next()
        where = f"door {session.board.grid.noun} {fmt_square(square)}"
        session.change(f"{where}: {new.value}", lambda b: b.set_door_square(square, new))
        self.notify(f"{where}: {new.value}", "info")

    def right_click(self, square: Square | None) -> None:
        """A right click: pin the ray's end there (again: unpin) and target the figure there."""
        self.pinned = None if square is None or square == self.pinned else square
        if not self.lesson_mode:
            self.attack.target_square(square)

    def escape(self) -> None:
        """Esc, after the window's own layers: the banner, then the pin and the target, then
        the start square, then the selection."""
        if self.dismiss_banner():
            return
        if (self.pinned is not None or self.attack.targets) and not self.lesson_mode:
            self.pinned = None  # the pin and the attack target go together
            self.attack.set_target(None)
        elif self.selected is None and self.viewpoint.start is not None:
            self.viewpoint.start = None
        else:
            self.select(None)

    # --- doors, history, attacks -----------------------------------------------------------

    def close_doors(self) -> None:
        """C: close every open door (locked doors stay locked)."""
        if self.session is not None:
            changed = self.session.close_all_doors()
            self.notify("closed every open door" if changed else "no door was open", "info")

    def undo(self) -> None:
        """Ctrl+Z: undo the last move, door change or whole attack."""
        if self.session is None:
            return
        self.attack.dismiss()  # a rolling attack lands first, so undo takes all of it back
        label = self.session.undo()
        line = self.session.history.log[-1] if label else "nothing to undo"
        if label and self.attack.repeats_undone:
            line += " — rolling again repeats its dice; D: new dice"
        self.notify(line, "info")

    def redo(self) -> None:
        """Ctrl+Y: redo what was undone."""
        if self.session is None:
            return
        self.attack.dismiss()
        label = self.session.redo()
        self.notify(self.session.history.log[-1] if label else "nothing to redo", "info")

    def cycle_target(self, step: int) -> None:
        """T / Shift+T: the next (previous) enemy as the target; the ray is pinned on it."""
        if self.lesson_mode or self.board is None:
            return
        if self.selected is None:
            self.notify("Select the attacker first: click a figure or press Tab.", "error")
            return
        self.attack.cycle_target(step)
        if self.attack.targets:
            self.pinned = self.board.figure(self.attack.targets[-1]).square

    def attack_action(self, name: str) -> None:
        """A, R, D, Shift+R: the attack flow's ``cycle_attack``, ``roll``, ``fresh_dice`` or
        ``perform`` (rest), by name; the lessons build no attack."""
        if not self.lesson_mode:
            getattr(self.attack, name)()

    # --- the lessons and classroom mode ------------------------------------------------------

    def toggle_lessons(self) -> None:
        """L: into the lessons, or back to the map."""
        if self.lesson_mode:
            if self.main_session is None:
                self.notify("lessons only: no board to go back to (Q quits)", "error")
                return
            self.lesson_mode = False
            self.select(self._saved_main)
            self._switch_to(self.main_session)
            return
        if self.tour is None:
            try:
                paths = self.lesson_paths or lesson_paths()
                options = self.lesson_options
                self.tour = LessonTour(paths, lambda p: Session.open(p, options=options, autosave=False))
            except SightlineError as exc:
                self.notify(f"no lessons: {exc}", "error")
                return
        self._saved_main = self.selected
        self.lesson_mode = True
        self.enter_lesson()

    def enter_lesson(self) -> None:
        """Show the tour's open lesson: its figure on ``from`` selected, ``to`` pinned."""
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

    def next_lesson(self, step: int) -> None:
        """PageDown / PageUp: the next (previous) lesson board."""
        if self.lesson_mode and self.tour is not None:
            if step > 0:
                self.tour.next_board()
            else:
                self.tour.prev_board()
            self.enter_lesson()

    def step(self, direction: int) -> None:
        """N / P: the next (previous) crossing of the lesson's ray (classroom: reveal first)."""
        if self.lesson_mode and self.tour is not None:
            if self.presenting and not self.classroom.revealed:
                self.reveal()  # the first N shows the answer, the next ones step
                return
            ray = self.ray()
            count = len(ray.crossings) if ray is not None else 0
            if direction > 0:
                self.tour.next_step(count)
            else:
                self.tour.prev_step(count)

    def toggle_classroom(self) -> bool:
        """F2: classroom mode on or off (into the lessons first when a map is shown); False
        when the lessons cannot be opened."""
        if not self.lesson_mode:
            self.toggle_lessons()
            if not self.lesson_mode:
                return False
            self.classroom.on = False
        self.classroom.on = not self.classroom.on
        self.classroom.new_board()
        self.classroom.menu = False
        return True

    def predict(self, verdict: str) -> None:
        """Y / B in classroom mode: the class predicts ``clear`` or ``blocked``."""
        if self.presenting:
            self.classroom.predict(verdict)

    def reveal(self) -> None:
        """Enter in classroom mode: show the engine's answer and how the class did."""
        if not self.presenting or self.tour is None:
            return
        ray = self.ray()
        if ray is not None:
            self.classroom.reveal(self.tour.index, self.tour.verdict(ray))

    def toggle_lesson_menu(self) -> None:
        """O in classroom mode: the lesson menu, the open board chosen."""
        if self.presenting and self.tour is not None:
            self.classroom.menu = not self.classroom.menu
            self.classroom.menu_index = self.tour.index

    def menu_step(self, chord: str) -> None:
        """Up / Down (Left / Right) while the lesson menu is open: choose another board."""
        room, tour = self.classroom, self.tour
        if tour is None:
            room.menu = False
            return
        room.menu_index = (room.menu_index + MENU_STEPS[chord]) % len(tour.paths)

    def menu_open(self) -> None:
        """Enter while the lesson menu is open: open the chosen board."""
        room, tour = self.classroom, self.tour
        room.menu = False
        if tour is not None:
            tour.wrapped = None
            tour.open(room.menu_index)
            self.enter_lesson()

    def menu_close(self) -> None:
        """Esc or O while the lesson menu is open."""
        self.classroom.menu = False

    # --- files -------------------------------------------------------------------------------

    def export_name(self) -> str:
        """The stem of exported files: ``sightline-MAP`` (a lesson's name in the lessons)."""
        if self.lesson_mode and self.tour is not None:
            return f"sightline-{self.tour.paths[self.tour.index].stem}"
        session = self.session
        return f"sightline-{session.path.stem}" if session is not None else "sightline"

    def export_log(self, folder: Path | None = None) -> None:
        """Ctrl+L: the log, every entry whole, as ``sightline-MAP-log.txt`` (in the current folder)."""
        session = self.session
        if session is None:
            return
        path = (folder or Path.cwd()) / f"{self.export_name()}-log.txt"
        lines = list(session.history.log) or ["(the log is empty)"]
        try:
            with atomic_file(path, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
        except SightlineError as exc:
            self.notify(str(exc), "error")
            return
        self.notify(f"saved the log ({len(lines)} lines) to {path}", "info")

    def log_text(self) -> tuple[str, int]:
        """The whole log as text (every entry whole) and its number of lines."""
        lines = list(self.session.history.log) if self.session is not None else []
        return "\n".join(lines) + "\n", len(lines)

    # --- what the frame shows ------------------------------------------------------------------

    def ray_start(self) -> tuple[Square, str | None] | None:
        """Where the ray (and ``F``'s field of view) starts and the viewer side, or None.

        The selected figure's square, else the square chosen with a click or ``S``; the viewer
        is the ``V`` choice (``auto``: the starting figure's side, else no side).
        """
        board, selected = self.board, self.selected
        if board is None:
            return None
        if selected is not None:
            figure: Figure = board.figure(selected)
            return figure.square, self.viewpoint.viewer(board, figure.side)
        start = self.viewpoint.start
        if start is None or not board.in_bounds(start):
            return None
        return start, self.viewpoint.viewer(board, None)

    def ray_endpoints(self) -> tuple[Square, Square, str | None] | None:
        """Origin, target and viewer of the ray to draw now, or None.

        A pinned target on the start square is a ray too (the same square: a lesson's A→A); a
        hovered one is not; while the selected figure is dragged the hovered square is not.
        """
        board, start = self.board, self.ray_start()
        if board is None or start is None:
            return None
        origin, viewer = start
        target = self.pinned
        dragging_selected = self.drag is not None and self.drag.figure == self.selected
        if target is None and not dragging_selected:
            target = self.hover
            if target == origin:
                return None
        if target is None or not board.on_board(target):
            return None
        return origin, target, viewer

    def ray(self) -> Ray | None:
        """The ray of :meth:`ray_endpoints` under the rule shown (cached per board version)."""
        ends, board = self.ray_endpoints(), self.board
        if ends is None or board is None or not board.on_board(ends[0]):
            return None
        rule = self.rules.rule(board, self.lesson_mode)
        key = (board.serial, board.version, *ends, rule)
        found = self._rays.get(key) if self.caches else None
        if found is None:
            found = cast_ray(board, ends[0], ends[1], rule, ends[2])
            if len(self._rays) > 256:
                self._rays.clear()
            self._rays[key] = found
        return found

    def field_of_view(self) -> np.ndarray | None:
        """What the ray's start sees when ``F`` is on (cached per board version)."""
        board, start = self.board, self.ray_start()
        if not self.fov_on or board is None or start is None:
            return None
        return self.rules.visible_from(board, start[0], start[1], self.rules.rule(board, self.lesson_mode))

    def reach(self) -> dict[Square, int] | None:
        """The movement reach from the ray's start when ``W`` is on (cached per board version)."""
        board, start = self.board, self.ray_start()
        if not self.measuring.reach or board is None or start is None:
            return None
        selected = self.selected
        figure = board.figure(selected) if selected is not None else None
        side = figure.side if figure is not None else start[1]
        return self.measuring.reach_from(board, start[0], side, selected, figure.stats if figure else None)

    def markers(self) -> tuple[Marker, ...]:
        """The findings outlined on the board (cached until the findings or the focus change)."""
        session = self.session
        key = (id(session), id(session.findings) if session else 0, len(session.findings) if session else 0,
               self.focused, self.lesson_mode)
        if self._markers is None or self._markers[0] != key:
            self._markers = (key, tuple(markers(session, self.focused, self.lesson_mode)))
        return self._markers[1]

    def frame(self) -> Frame:
        """Everything to draw now, as a :class:`~game.play.frame.Frame`."""
        if not self.caches:
            self.forget()
        board, ray = self.board, self.ray()
        status, kind = status_line(self, ray)
        panel = panel_info(self, status, kind)
        lecture_now = None
        if self.presenting and self.tour is not None:
            lecture_now = lecture(self.tour, self.classroom, ray, self.notice[0] if self.notice else None)
        if board is None:
            return Frame(status=status, status_kind=kind, panel=panel, banner=self.banner_text(),
                         lecture=lecture_now)
        hidden = self.presenting and not self.classroom.revealed  # predict, then reveal
        refused = None  # a refusal flashes, and stays while the figure is still held over it
        if self.refused is not None and (self.drag is not None or self.clock() < self.refused[1]):
            refused = self.refused[0]
        targets = () if self.lesson_mode else tuple(t for t in self.attack.targets if t in board.figures)
        rule = self.rules.rule(board, self.lesson_mode)
        start = self.ray_start()
        compare = None
        if self.rules.comparing and start is not None and board.on_board(start[0]):
            compare = self.rules.disagreement(board, start[0], start[1], self.lesson_mode)
        end = self.pinned or self.hover
        return Frame(
            board=board.serial, selected=self.selected, targets=targets, hover=self.hover,
            pinned=self.pinned, start=self.viewpoint.start if self.selected is None else None,
            ray=ray, verdict_hidden=hidden,
            step=self.tour.step if self.lesson_mode and self.tour is not None else None,
            field_of_view=self.field_of_view(), compare=compare,
            dragging=self.drag.figure if self.drag is not None else None, refused=refused,
            markers=self.markers(), reach=self.reach(),
            ruler=(ruler(board, start[0], end) if self.measuring.ruler and start is not None and end is not None
                   and board.in_bounds(end) else None),
            rule=rule, rule_badge=self.rules.shown or self.rules.comparing or not is_default_rule(rule),
            rule_rows=self._rule_rows(board) if self.rules.shown else (), rule_row=self.rules.row,
            notes=self._notes(board, compare),
            status=status, status_kind=kind, panel=panel, banner=self.banner_text(),
            heat=self.heat_on and not self.presenting, coordinates=self.coordinates_on, lecture=lecture_now,
            threats=self.threat_frame(), balance=self.balance_frame(),
        )

    def _rule_rows(self, board: Board) -> tuple[tuple[str, str, bool, str | None], ...]:
        """The rule's parameter rows: parameter, value, changed from the preset, our reading's why."""
        rule = self.rules.rule(board, self.lesson_mode)
        changed = rule.overrides()
        return tuple((parameter, str(value), parameter in changed, rule.interp(parameter))
                     for parameter, value in rule.values().items())

    def _notes(self, board: Board, compare: tuple[np.ndarray, np.ndarray] | None) -> tuple[Note, ...]:
        """What is written beside the rule's badge: the compare counts. (The ray's sentence, under
        any rule, is the side panel's: the status line.)"""
        if compare is None:
            return ()
        rule = self.rules.rule(board, self.lesson_mode).spec()
        other = self.rules.compared(board, self.lesson_mode).spec()
        cell = board.grid.kind  # "square", "hex": what a cell is called
        return ((f"Compare {rule} with {other}: {plural(int(compare[0].sum()), cell)} seen only under {rule}"
                 f" (blue), {int(compare[1].sum())} only under {other} (orange)", "text"),)

    def log_lines(self) -> list[str]:
        """The log, newest first, numbered by entry (a roll and its dice are one), in the
        window's words (the large reader)."""
        entries = log_entries(self.session.history.log) if self.session is not None else []
        return [f"{n}. {plain(entry)}" for n, entry in reversed(list(enumerate(entries, 1)))]

    def log_title(self) -> str:
        """``Log: 12 entries, newest first``."""
        count = len(self.session.history.log) if self.session is not None else 0
        return f"Log: {plural(count, 'entry')}, newest first"
