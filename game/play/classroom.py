"""Classroom mode for the lessons (``sightline lessons --present``, ``F2``): its state and its words.

Each board starts with *predict, then reveal*: the ray is drawn in a neutral colour, the class
says "clear" or "blocked" (``Y`` / ``B`` record it), ``Enter`` reveals the engine's answer
(``N`` / ``P`` reveal too, then step along the ray). ``O`` opens the lesson menu with the
progress so far.

:class:`Classroom` is the state; :func:`lecture` turns it, the lesson tour and the ray into
:class:`Lecture`: what the lesson column and the card on the board say, each line with a *role*
(``prompt``, ``muted``, ``text``, ``clear``, ``blocked``) and a *size* (``body``, ``small``,
``big``, ``bigger``) that ``game/ui/classroom.py`` turns into colours and pixels. No pygame.

>>> room = Classroom(on=True)
>>> room.predict("clear"); room.reveal(0, "blocked"); room.results
{0: False}
>>> room.progress(3)
'1 of 3 boards revealed · the class was right on 0'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.play.lessons import LessonTour
from game.play.wording import plain

#: one line of the column or the card: text, role, size
Line = tuple[str, str, str]
#: what the room is asked before the reveal, and the keys that answer (the only words about a
#: verdict shown before it: the lesson's question has none)
PROMPT = "Clear or blocked?"
KEYS_BEFORE = "Y clear · B blocked · Enter reveals"


@dataclass
class Classroom:
    """Whether classroom mode is on, the current board's prediction and every board's result."""

    on: bool = False
    revealed: bool = False
    prediction: str | None = None
    #: lesson index -> whether the class predicted right (revealed boards only)
    results: dict[int, bool | None] = field(default_factory=dict)
    menu: bool = False
    menu_index: int = 0

    def new_board(self) -> None:
        """Another board: hide its answer until revealed again."""
        self.revealed = False
        self.prediction = None

    def predict(self, verdict: str) -> None:
        """The class says ``clear`` or ``blocked`` (before the reveal; again to change it)."""
        if not self.revealed:
            self.prediction = verdict

    def reveal(self, index: int, actual: str) -> None:
        """Show the answer and remember how the class did on board ``index``."""
        if not self.revealed:
            self.revealed = True
            self.results[index] = None if self.prediction is None else self.prediction == actual

    def progress(self, total: int) -> str:
        """``5 of 37 boards revealed · the class was right on 4``."""
        right = sum(1 for ok in self.results.values() if ok)
        return f"{len(self.results)} of {total} boards revealed · the class was right on {right}"


@dataclass(frozen=True)
class Lecture:
    """What classroom mode shows: the lesson column, the card on the board and the menu."""

    column: tuple[Line, ...]
    #: the card beside the ray (empty: no card)
    card: tuple[Line, ...] = ()
    #: where the card points, in grid units (None: the centre of the ray's target square)
    anchor: tuple[float, float] | None = None
    #: the ray is drawn neutral, its verdict hidden (before the reveal)
    neutral: bool = False
    #: a message for the room (a refused key, a saved picture), on its own card
    notice: str | None = None
    #: the lesson menu: every board's name (empty: the menu is closed), the open and the chosen one
    menu: tuple[str, ...] = ()
    index: int = 0
    chosen: int = 0
    progress: str = ""
    #: per board of the menu: True right, False wrong, None seen without a prediction; absent unseen
    results: tuple[tuple[int, bool | None], ...] = ()

    def as_json(self) -> dict[str, object]:
        """The lecture as plain JSON data."""
        return {
            "column": [list(line) for line in self.column], "card": [list(line) for line in self.card],
            "anchor": list(self.anchor) if self.anchor is not None else None, "neutral": self.neutral,
            "notice": self.notice, "menu": list(self.menu), "index": self.index, "chosen": self.chosen,
            "progress": self.progress, "results": [[i, ok] for i, ok in self.results],
        }


def ray_point(ray: Any, crossing: Any) -> tuple[float, float]:
    """Where on the board a crossing of the ray lies, in grid units."""
    point = getattr(crossing, "point", None)
    if point is not None:
        return float(point[0]), float(point[1])
    t = float(getattr(crossing, "t", 0.5))
    ox, oy = ray.origin[0] + 0.5, ray.origin[1] + 0.5
    tx, ty = ray.target[0] + 0.5, ray.target[1] + 0.5
    return ox + (tx - ox) * t, oy + (ty - oy) * t


def lecture(tour: LessonTour, room: Classroom, ray: Any, notice: str | None) -> Lecture:
    """What the column and the card say for this lesson, this ray and the room's state.

    Before the reveal the column asks the lesson's question (its set-up, no answer); the caption,
    which says the answer and why, comes with the reveal."""
    column: list[Line] = [(tour.heading(), "prompt", "body"), (room.progress(len(tour.paths)), "muted", "small")]
    asking = not room.revealed  # no ray yet is no reveal either: the caption waits
    if tour.error:
        column.append((tour.error, "blocked", "body"))
    elif tour.lesson is not None and asking:
        column.append((tour.lesson.ask(tour.session.board), "text", "body"))
    elif tour.lesson is not None:
        column.append((tour.lesson.caption, "text", "body"))
    card: list[Line] = []
    anchor = None
    if ray is not None:
        verdict = tour.verdict(ray)
        if not room.revealed:
            said = f"The class says: {room.prediction}." if room.prediction else PROMPT
            column += [(said, "prompt", "body"), (KEYS_BEFORE, "muted", "small")]
            card = [(PROMPT, "prompt", "big")]
        else:
            card = [(f"{tour.ray_words(ray)}: {verdict.upper()}", verdict, "bigger")]
            if room.prediction:
                right = room.prediction == verdict
                card.append((f"The class said {room.prediction}: {'right' if right else 'wrong'}.",
                             "clear" if right else "blocked", "body"))
            step, crossings = tour.step, ray.crossings
            if step is not None and 0 <= step < len(crossings):
                card.append((plain(f"Step {step + 1} of {len(crossings)}: {crossings[step].explain()}"),
                             "text", "body"))
                anchor = ray_point(ray, crossings[step])
            else:
                card.append((plain(ray.explain()) if ray.clear == (verdict == "clear") else
                             "A figure sees another figure in its own square, never itself.", "text", "body"))
            column.append(("N / P: step along the ray · O: lessons · ] next board", "muted", "small"))
    menu = tour.menu_names() if room.menu else ()
    return Lecture(tuple(column), tuple(card), anchor, ray is not None and not room.revealed, notice, menu,
                   tour.index, room.menu_index, room.progress(len(tour.paths)), tuple(room.results.items()))
