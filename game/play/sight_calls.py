"""Every line-of-sight question the presenter asks, in one place: the seam for the sight facade.

The presenter (``game/play/presenter.py``) asks the sight engine three things, all through this
module and nowhere else: the ray between two squares under a rule (:func:`cast_ray`, which
returns the presenter's own :class:`Ray` record for *any* rule), every square seen from one
(:func:`cast_field`) and the rule a map names (:func:`map_rule`).

Each body is one call of the sight facade (:mod:`game.core.sight`): ``sight.line``,
``sight.field`` and ``sight.rule_of``; :class:`Ray` wraps the facade's one result type
(:class:`~game.core.sight_result.Sight`) with what the painter draws, so the window draws one kind
of ray along one path whatever the rule.

>>> from game.core.board import Board
>>> from game.core.sight import parse_rule
>>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
>>> ray = cast_ray(board, (0, 0), (4, 0), map_rule(board), None)
>>> ray.clear, ray.rule.spec(), ray.centre_line, [kind for kind, *_ in ray.drawing()][:2]
(False, 'arcadia', True, ['edge', 'square'])
>>> other = cast_ray(board, (0, 0), (4, 0), parse_rule("corners"), None)
>>> other.clear, other.centre_line, other.drawing(), len(other.lines) > 0
(False, False, [], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from game.core.board import Board, Edge, Square
from game.core.hex_result import HexLine
from game.core.profiles import Profile

#: what the painter draws for one crossing of a centre-to-centre ray: kind, the edge / corner /
#: square, the point (floats, drawing only), whether it blocks, and the closed corner sides
DrawStep = tuple[str, Any, tuple[float, float], bool, tuple[Square, ...]]


@dataclass(frozen=True)
class RayLine:
    """One line the rule checked, for drawing: grid-unit floats (nothing exact is derived from
    them) and whether it is clear.

    On a grid whose lines are lattice points (hexes) a blocked line also says where to draw its
    blocker, as the engine found it (:class:`~game.core.hex_result.HexMeeting`): ``block_t``
    (0..1 along the line: green before, red after; the exact parameter as a float), the
    ``corners`` it is blocked at and the blocking ``cells``."""

    start: tuple[float, float]
    end: tuple[float, float]
    clear: bool
    block_t: float | None = None
    corners: tuple[tuple[int, int], ...] = ()
    cells: tuple[Square, ...] = ()

    def as_json(self) -> dict[str, object]:
        """``{"from": [x, y], "to": [x, y], "clear": bool}`` in grid units (plus ``block_t``,
        ``corners`` and ``cells`` when the line has them)."""
        out: dict[str, object] = {"from": list(self.start), "to": list(self.end), "clear": self.clear}
        if self.block_t is not None:
            out.update(block_t=self.block_t, corners=[list(c) for c in self.corners],
                       cells=[list(c) for c in self.cells])
        return out


class Ray:
    """The presenter's ray between two squares under one rule, whatever the rule.

    ``clear`` is the engine's exact verdict. What is drawn: with :attr:`centre_line` the
    centre-to-centre segment, green up to :attr:`block_t` and red after it, with every crossing
    of :meth:`drawing` (edge ticks, corner dots, blocking squares) — Arcadia's rule decides by
    that segment; otherwise the :attr:`lines` the rule checked (at most four), each green or red.
    :meth:`explain` is the engine's sentence (built when first read); :attr:`crossings` the exact
    crossings the lessons step through (none for a rule decided by other lines).
    """

    __slots__ = ("origin", "target", "viewer", "rule", "clear", "centre_line", "lines", "worded", "_found")

    def __init__(
        self, origin: Square, target: Square, viewer: str | None, rule: Profile, found: Any, *,
        centre_line: bool, lines: Sequence[RayLine] = (), worded: bool = False,
    ) -> None:
        self.origin, self.target, self.viewer, self.rule = origin, target, viewer, rule
        self.clear: bool = bool(found.clear)
        self.centre_line = centre_line
        self.lines = tuple(lines)
        #: the engine's sentence names every line's ends itself (hex cells and corners): the
        #: window says :meth:`explain` as it is and words no :attr:`checks`
        self.worded = worded
        self._found = found

    def __repr__(self) -> str:
        state = "clear" if self.clear else "blocked"
        return f"Ray({self.origin} -> {self.target}, {self.rule.spec()}, viewer={self.viewer!r}, {state})"

    @property
    def block_t(self) -> float | None:
        """Where the first blocker is along the centre line (0..1, a float for drawing); None
        when the ray is clear or not drawn as a centre line."""
        return self._found.block_t if self.centre_line else None

    def drawing(self) -> list[DrawStep]:
        """Every crossing of the centre line as a :data:`DrawStep` (none without a centre line)."""
        return list(self._found.drawing()) if self.centre_line else []

    @property
    def crossings(self) -> tuple[Any, ...]:
        """The exact crossings (each with ``explain()``) the lessons step through."""
        return tuple(self._found.crossings) if self.centre_line else ()

    def explain(self) -> str:
        """The engine's sentence: the verdict and what decided it."""
        return str(self._found.explain())

    @property
    def checks(self) -> tuple[Any, ...]:
        """The exact lines a rule not decided by the centre line decided by (the facade's
        :class:`~game.core.sight_result.LineCheck` s: ``start``, ``end``, ``start_kind``,
        ``end_kind``, ``blocker``); none for a centre-line ray. The window words them
        (``game/play/rule_words.py``); none when the engine words them itself (:attr:`worded`)."""
        return () if self.centre_line or self.worded else tuple(self._found.lines)

    @property
    def checked(self) -> int:
        """How many candidate lines the rule checked (1 for a centre-line ray)."""
        return 1 if self.centre_line else int(self._found.checked)

    @property
    def cover(self) -> Any:
        """The target's cover where the rule grades it (``system``, ``grade``, ``why``), else None."""
        return self._found.cover

    def as_json(self) -> dict[str, object]:
        """The ray for another front end: ends, rule, viewer, verdict, sentence and what to draw
        (``points``: the crossings along the centre line; ``lines``: the lines the rule checked)."""
        return {
            "from": list(self.origin),
            "to": list(self.target),
            "rule": self.rule.spec(),
            "viewer": self.viewer,
            "clear": self.clear,
            "explanation": self.explain(),
            "centre_line": self.centre_line,
            "block_t": self.block_t,
            "points": [
                {"kind": kind, "where": str(where) if isinstance(where, Edge) else list(where),
                 "at": list(point), "blocks": blocks, "closed_sides": [list(side) for side in sides]}
                for kind, where, point, blocks, sides in self.drawing()
            ],
            "lines": [line.as_json() for line in self.lines],
        }


#: the most checked lines a ray of a rule decided by other lines draws
DRAWN_LINES = 4


def cast_ray(board: Board, origin: Square, target: Square, rule: Profile, viewer: str | None) -> Ray:
    """The ray from ``origin`` to ``target`` under ``rule`` for ``viewer``: the one call the
    presenter makes for a ray (``sight.line``; a centre-line rule's exact sentence is built only
    when read). Raises the engine's placement error for a square off the board."""
    from game.core import sight

    found = sight.line(board, origin, target, rule, viewer=viewer)
    if sight.by_centre_line(rule, board.grid.kind):
        return Ray(origin, target, viewer, rule, found, centre_line=True)
    lines = [_ray_line(board, line) for line in found.lines[:DRAWN_LINES]]
    return Ray(origin, target, viewer, rule, found, centre_line=False, lines=lines,
               worded=board.grid.kind != "square")


def _ray_line(board: Board, line: Any) -> RayLine:
    """A checked line for drawing; a blocked hex line with the engine's meeting point
    (:class:`~game.core.hex_result.HexLine`): green up to it, red after, its corners and cells."""
    start = (float(line.start[0]), float(line.start[1]))
    end = (float(line.end[0]), float(line.end[1]))
    met = line.met if isinstance(line, HexLine) else None
    if line.clear or met is None:
        return RayLine(start, end, line.clear)
    return RayLine(start, end, False, float(met.t), met.corners, met.cells)


def cast_field(board: Board, origin: Square, rule: Profile, viewer: str | None) -> np.ndarray:
    """Every square seen from ``origin`` under ``rule``: bool ``[y, x]`` (``sight.field``)."""
    from game.core import sight

    return sight.field(board, origin, rule, viewer=viewer)


def is_default_rule(rule: Profile, board: Board | None = None) -> bool:
    """Whether ``rule`` decides as the rule of a map that names none (no badge is needed)."""
    from game.core import sight

    return rule.values() == sight.default_rule(board.grid.kind if board is not None else "square").values()


def map_rule(board: Board) -> Profile:
    """The rule the map names in ``los_rule`` (the grid's default when it names none; a wrong one
    is an error of ``sightline check`` and refused by ``sightline play``): the rule attacks judge
    sight by (``sight.rule_of``)."""
    from game.core import sight

    return sight.rule_or_default(board)
