"""The line-of-sight lessons: the boards of ``maps/lessons/`` one at a time, stepped crossing by crossing.

Each lesson map carries map properties ``caption`` (what it teaches: the answer and why), ``from``
and ``to`` (squares, ``"1,1"``), ``expected`` (``clear`` or ``blocked``), ``vector`` (the Arcadia
Quest rule's test vector, ``L07``), ``title`` (a few words for the heading and the lesson menu)
and ``question`` (the set-up and the question, with no answer in it: what classroom mode shows
before the reveal; a lesson without one gets :meth:`Lesson.ask`). The window selects the figure on ``from``, pins the ray to ``to`` and lets
``N`` / ``P`` walk the ray's crossings, each explained by ``Crossing.explain()``.

No pygame here: the tour is plain state the presenter (``game/play/presenter.py``) keeps and the
window draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.board import Board, Square, fmt_square, parse_square
from game.core.errors import SightlineError, UsageError
from game.core.words import plural
from game.play.viewpoint import sees_only_itself
from game.resources import bundled_maps

LESSONS_DIR = bundled_maps() / "lessons"


def lesson_paths(folder: Path = LESSONS_DIR) -> list[Path]:
    """The lesson maps of a folder, sorted by name (``L01.tmx``, ``L03a.tmx``, ...)."""
    paths = sorted(p for p in Path(folder).glob("*.tmx") if p.is_file())
    if not paths:
        raise UsageError(f"no lesson maps (*.tmx) in {folder}")
    return paths


@dataclass(frozen=True)
class Lesson:
    """What one lesson board says about itself."""

    path: Path
    caption: str
    origin: Square | None
    target: Square | None
    expected: str | None
    vector: str | None
    title: str = ""
    question: str = ""

    @classmethod
    def from_board(cls, path: Path, board: Board) -> Lesson:
        """Read the lesson's map properties; unreadable squares become None.

        >>> b = Board.from_ascii(["..."], properties={"caption": "Hi.", "from": "0,0", "to": "2,0"})
        >>> Lesson.from_board(Path("L01.tmx"), b).target
        (2, 0)
        """
        props = board.properties

        def square(key: str) -> Square | None:
            value = props.get(key)
            if value is None:
                return None
            try:
                return parse_square(str(value))
            except UsageError:
                return None

        expected = props.get("expected")
        vector = props.get("vector")
        return cls(
            path=path,
            caption=str(props.get("caption", "")),
            origin=square("from"),
            target=square("to"),
            expected=None if expected is None else str(expected).strip().lower(),
            vector=None if vector is None else str(vector),
            title=str(props.get("title", "")).strip(),
            question=str(props.get("question", "")).strip(),
        )

    @property
    def name(self) -> str:
        """The file's name (``L29a``): one per board, where two boards share a ``vector``."""
        return self.path.stem

    def ask(self, board: Board) -> str:
        """What to ask before the answer is shown: the ``question`` property, else a question
        made from the figures on ``from`` and ``to`` (never the caption, which gives the answer).

        >>> from game.core.board import Figure
        >>> b = Board.from_ascii(["..."], figures=[Figure(1, "Archer", "a", (0, 0)), Figure(2, "Orc", "b", (2, 0))])
        >>> Lesson(Path("X.tmx"), "…so it is clear.", (0, 0), (2, 0), "clear", None).ask(b)
        'Can Archer on (0,0) see Orc on (2,0)?'
        """
        if self.question:
            return self.question
        if self.origin is None or self.target is None:
            return "Clear or blocked?"
        here = board.figures_at(self.origin) if board.on_board(self.origin) else ()
        looker = here[0] if here else None
        there = [f for f in board.figures_at(self.target) if looker is None or f.id != looker.id] \
            if board.on_board(self.target) else []
        cell = board.grid.noun
        who = f"{looker.label} on {fmt_square(self.origin)}" if looker else f"the {cell} {fmt_square(self.origin)}"
        if there:
            return f"Can {who} see {there[0].label} on {fmt_square(self.target)}?"
        if looker is not None and self.origin == self.target:
            return f"Can {who} see itself?"
        return f"Can {who} see the {cell} {fmt_square(self.target)}?"


def looking_at_itself(board: Board, result: Any) -> Any:
    """The figure looking at itself when a lesson's ray is A -> A (rules §1.3, FAQ: a figure
    never has line of sight to itself), else None."""
    here = board.figures_at(result.origin) if board.on_board(result.origin) else ()
    if here and sees_only_itself(board, result.origin, result.target, here[0].id):
        return here[0]
    return None


@dataclass(frozen=True)
class LessonCheck:
    """One lesson board asked of the engine without a window (``sightline lessons --list``):
    its rule, its grid, the engine's verdict on its ray and whether the lesson expects it. The
    same words on square and hex boards; ``error`` when the board cannot be read."""

    name: str
    title: str
    grid: str
    rule: str
    origin: Square | None
    target: Square | None
    expected: str | None
    verdict: str | None
    explanation: str
    error: str = ""

    @property
    def agrees(self) -> bool:
        """The engine's verdict is the expected one (a lesson without ``expected`` agrees)."""
        return not self.error and (self.expected not in ("clear", "blocked") or self.expected == self.verdict)

    def line(self) -> str:
        """``H05 · A hexside with one blocking hex: (1,0) to (1,2) on hexes under hexside is clear, as expected``."""
        head = f"{self.name}{f' · {self.title}' if self.title else ''}"
        if self.error:
            return f"{head}: {self.error}"
        if self.verdict is None or self.origin is None or self.target is None:
            return f"{head}: names no ray (map properties from/to)"
        cells = "hexes" if self.grid == "hex" else "squares"
        said = f"{head}: {fmt_square(self.origin)} to {fmt_square(self.target)} on {cells} under {self.rule} is {self.verdict}"
        if self.expected in ("clear", "blocked"):
            said += ", as expected" if self.agrees else f", but the lesson expects {self.expected}!"
        return said

    def as_json(self) -> dict[str, object]:
        """The check as plain values (``from``/``to`` as ``[x, y]``)."""
        return {"name": self.name, "title": self.title, "grid": self.grid, "rule": self.rule,
                "from": None if self.origin is None else list(self.origin),
                "to": None if self.target is None else list(self.target), "expected": self.expected,
                "verdict": self.verdict, "agrees": self.agrees, "explanation": self.explanation,
                "error": self.error}


def check_lesson(path: Path, board: Board) -> LessonCheck:
    """Ask the sight facade about a lesson board's ray as the lesson tour does: from ``from`` to
    ``to`` under the map's rule, the figure on ``from`` looking (its side the viewer), a figure
    never seeing itself (L29b)."""
    from game.core import sight

    lesson = Lesson.from_board(path, board)
    rule = sight.rule_of(board)
    verdict: str | None = None
    explanation = ""
    a, b = lesson.origin, lesson.target
    if a is not None and b is not None and board.on_board(a) and board.on_board(b):
        here = board.figures_at(a)
        result = sight.line(board, a, b, rule, viewer=here[0].side if here else None)
        if looking_at_itself(board, result) is not None:
            verdict, explanation = "blocked", "A figure never has line of sight to itself."
        else:
            verdict, explanation = ("clear" if result.clear else "blocked"), result.explain()
    return LessonCheck(lesson.name, lesson.title, board.grid.kind, rule.spec(), a, b, lesson.expected,
                       verdict, explanation)


class LessonTour:
    """Which lesson is open and which crossing of its ray is highlighted.

    ``opener(path)`` returns a session for a lesson map (raising :class:`SightlineError` for a
    broken one); the tour keeps the error to show instead of crashing.
    """

    def __init__(self, paths: Sequence[Path], opener: Callable[[Path], Any]) -> None:
        if not paths:
            raise UsageError("no lessons to show")
        self.paths = list(paths)
        self.opener = opener
        self.index = 0
        self.step: int | None = None
        self.session: Any = None
        self.lesson: Lesson | None = None
        self.error: str | None = None
        #: set by next_board/prev_board when they went round the end of the list
        self.wrapped: str | None = None
        self._titles: list[str] | None = None
        self.open(0)

    def open(self, index: int) -> None:
        """Open lesson ``index`` (wrapping around) with the step reset."""
        self.index = index % len(self.paths)
        self.step = None
        path = self.paths[self.index]
        try:
            self.session = self.opener(path)
        except SightlineError as exc:
            self.session = None
            self.lesson = None
            self.error = f"{path.name}: {exc}"
            return
        self.error = None
        self.lesson = Lesson.from_board(path, self.session.board)

    def _title_of(self, index: int) -> str:
        """The ``title`` of board ``index`` (the open one's from memory)."""
        if index == self.index and self.lesson is not None:
            return self.lesson.title
        try:
            board = self.opener(self.paths[index]).board
        except SightlineError:
            return ""
        return str(board.properties.get("title", "")).strip()

    def next_board(self) -> None:
        """The next lesson (after the last comes the first: :attr:`wrapped` says so)."""
        self.wrapped = "after the last lesson, back to the first" if self.index + 1 == len(self.paths) else None
        self.open(self.index + 1)

    def prev_board(self) -> None:
        """The previous lesson (before the first comes the last: :attr:`wrapped` says so)."""
        self.wrapped = "before the first lesson, on to the last" if self.index == 0 else None
        self.open(self.index - 1)

    def next_step(self, crossings: int) -> None:
        """Highlight the next crossing; past the last, back to the whole ray."""
        if crossings <= 0:
            self.step = None
        elif self.step is None:
            self.step = 0
        elif self.step + 1 < crossings:
            self.step += 1
        else:
            self.step = None

    def prev_step(self, crossings: int) -> None:
        """Highlight the previous crossing; before the first, the whole ray."""
        if crossings <= 0:
            self.step = None
        elif self.step is None:
            self.step = crossings - 1
        elif self.step == 0:
            self.step = None
        else:
            self.step -= 1

    def heading(self) -> str:
        """``Lesson 3 of 34: L03a · A closed door`` (the file's name, then the lesson's title)."""
        name = self.paths[self.index].stem
        title = f" · {self.lesson.title}" if self.lesson is not None and self.lesson.title else ""
        return f"Lesson {self.index + 1} of {len(self.paths)}: {name}{title}"

    def menu_names(self) -> tuple[str, ...]:
        """Every board for the lesson menu: its file's name and, once read, its title.

        The titles are read when first asked: each board is opened once (a broken one has none)."""
        if self._titles is None:
            self._titles = [self._title_of(index) for index in range(len(self.paths))]
        return tuple(f"{path.stem}  {title}".rstrip() for path, title in zip(self.paths, self._titles, strict=True))

    def _self_sight(self, result: Any) -> Any:
        """The figure looking at itself when the ray is A -> A (rules §1.3, FAQ), else None."""
        board = self.session.board if self.session is not None else None
        return None if board is None else looking_at_itself(board, result)

    def verdict(self, result: Any) -> str:
        """``clear`` or ``blocked`` for this lesson's ray: the engine's, except that a figure
        never has line of sight to itself (lesson L29b)."""
        if self._self_sight(result) is not None:
            return "blocked"
        return "clear" if result.clear else "blocked"

    def ray_words(self, result: Any) -> str:
        """``(1,1) to (4,3)``, or ``Archer on (2,2) to itself``."""
        figure = self._self_sight(result)
        if figure is not None:
            return f"{figure.label} on {fmt_square(result.origin)} to itself"
        return f"{fmt_square(result.origin)} to {fmt_square(result.target)}"

    def explain(self, result: Any) -> str:
        """The panel text: caption, verdict against the expectation, then the current step."""
        if self.error is not None:
            return f"{self.heading()}\n{self.error}"
        lesson = self.lesson
        assert lesson is not None
        if result is None:
            lines = [self.heading(), lesson.caption, "This lesson names no ray (map properties from/to)."]
            return "\n".join(line for line in lines if line)
        verdict = self.verdict(result)
        ray = self.ray_words(result)
        if lesson.expected in ("clear", "blocked"):
            agree = "as expected" if lesson.expected == verdict else f"but the lesson expects {lesson.expected}!"
            lines = [f"{self.heading()}: {ray} is {verdict}, {agree}"]
        else:
            lines = [f"{self.heading()}: {ray} is {verdict}"]
        if self.wrapped:
            lines[0] += f" ({self.wrapped})"
        if lesson.caption:
            lines.append(lesson.caption)
        crossings = list(result.crossings)
        if verdict == "blocked" and result.clear:  # the A -> A case above
            lines.append("A figure has line of sight to another figure in its own square, never to itself.")
        elif self.step is None:
            lines.append(result.explain())
            if crossings:
                lines.append(f"N / P: step through its {plural(len(crossings), 'crossing')}.")
        else:
            lines.append(f"Step {self.step + 1} of {len(crossings)}: {crossings[self.step].explain()}")
        return "\n".join(lines)
