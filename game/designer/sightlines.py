"""Rows of the line-of-sight relation, worked out once and kept (pure: numpy masks in and out).

The threat view and the balance report ask "what does this square see?" for many squares, and
ask it again after a figure moves. A field of view depends only on the board's geometry (walls,
windows, doors, void, blocked terrain: ``Board.geometry_version``), the rule, the viewer and the
squares whose figures block sight for that viewer under that rule; :class:`Sightlines` keys
every field it keeps by exactly those, so a move that changes none of them costs nothing.

The fields themselves come from the sight facade through a ``field`` function: by default
:func:`game.core.sight.field`; the window passes its own seam,
:func:`game.play.sight_calls.cast_field` (which asks the same).

>>> from game.core.board import Board, Figure
>>> from game.core.profiles import PRESETS
>>> board = Board.from_ascii(["....", "....", "...."], walls=["V(2,0)", "V(2,1)"])
>>> board.place_figure(Figure(1, "A", "red", (0, 0)))
>>> lines = Sightlines()
>>> view = lines.view(board, PRESETS["arcadia"], "red")
>>> bool(view.row((0, 0))[0, 3]), bool(view.row((0, 2))[2, 3]), len(lines)
(False, True, 2)
>>> figure_blockers(board, PRESETS["corners"], "blue")
frozenset({(0, 0)})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from game.core.board import Board, Square
from game.core.profiles import Profile

#: ``field(board, origin, rule, viewer) -> bool [y, x]``: every square seen from ``origin``
FieldFunction = Callable[[Board, Square, Profile, "str | None"], np.ndarray]

#: kept fields are dropped all at once past this many bytes (a 150x150 field is 22.5 kB)
MEMORY_LIMIT = 96 * 2**20


def engine_field(board: Board, origin: Square, rule: Profile, viewer: str | None) -> np.ndarray:
    """Every square seen from ``origin`` under ``rule`` for ``viewer``: the designer's call into
    the sight facade (:func:`game.core.sight.field`)."""
    from game.core import sight

    return sight.field(board, origin, rule, viewer=viewer)


def figure_blockers(board: Board, rule: Profile, viewer: str | None) -> frozenset[Square]:
    """The squares whose figures block sight under ``rule`` for ``viewer``: its ``figures``
    parameter says which (``enemies-at-capacity``: at least ``capacity`` enemies of the viewer,
    the board's own test; ``any``: any figure; ``none``: no square). The end squares of a line
    never block, so a field depends on figures only through these squares."""
    if rule.figures == "none":
        return frozenset()
    occupied = {figure.square for figure in board.figures.values()}
    if rule.figures == "any":
        return frozenset(occupied)
    return frozenset(sq for sq in occupied if board.square_blocks_sight(sq, viewer))


def symmetric(rule: Profile) -> bool:
    """Whether ``a`` sees ``b`` exactly when ``b`` sees ``a`` for a fixed viewer: lines start and
    end at the same kind of points (every preset; see docs/line-of-sight.md)."""
    return rule.from_ == rule.to


class Sightlines:
    """Fields of view kept by what they depend on (see the module's docstring).

    ``field`` is the sight engine's one-origin call; ``len()`` is how many fields are kept.
    """

    def __init__(self, field: FieldFunction | None = None) -> None:
        self.field = field or engine_field
        self._rows: dict[tuple[Any, ...], np.ndarray] = {}
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._rows)

    def view(self, board: Board, rule: Profile, viewer: str | None, geometry: object = None) -> View:
        """The fields of ``board`` under ``rule`` for ``viewer``. ``geometry`` names the board's
        geometry when ``board`` is a scratch copy of another (default: its own serial and
        geometry version)."""
        key = geometry if geometry is not None else (board.serial, board.geometry_version)
        return View(self, board, rule, viewer, (key, rule, viewer, figure_blockers(board, rule, viewer)))

    def _keep(self, key: tuple[Any, ...], mask: np.ndarray) -> None:
        if self._bytes + mask.nbytes > MEMORY_LIMIT:
            self._rows.clear()
            self._bytes = 0
        self._rows[key] = mask
        self._bytes += mask.nbytes


class View:
    """The fields of one board under one rule for one viewer (from :meth:`Sightlines.view`)."""

    def __init__(self, lines: Sightlines, board: Board, rule: Profile, viewer: str | None,
                 key: tuple[Any, ...]) -> None:
        self.lines, self.board, self.rule, self.viewer, self.key = lines, board, rule, viewer, key

    @property
    def symmetric(self) -> bool:
        """Whether a square sees another exactly when the other sees it (:func:`symmetric`)."""
        return symmetric(self.rule)

    def row(self, origin: Square) -> np.ndarray:
        """Bool ``[y, x]``: every square seen from ``origin`` (read-only; kept)."""
        key = (*self.key, origin)
        found = self.lines._rows.get(key)
        if found is None:
            found = np.asarray(self.lines.field(self.board, origin, self.rule, self.viewer), dtype=bool)
            found.setflags(write=False)
            self.lines._keep(key, found)
        return found

    def seen_from_any(self, origins: Iterable[Square]) -> np.ndarray:
        """Bool ``[y, x]``: the squares some square of ``origins`` sees."""
        out = np.zeros((self.board.height, self.board.width), dtype=bool)
        for origin in origins:
            out |= self.row(origin)
        return out

    def seeing(self, targets: Iterable[Square], candidates: np.ndarray | None = None) -> np.ndarray:
        """Bool ``[y, x]``: the squares that see some square of ``targets`` (of ``candidates``
        only, a bool mask, when given): the targets' own fields for a symmetric rule, else one
        field per candidate square."""
        targets = list(targets)
        if self.symmetric:
            out = self.seen_from_any(targets)
            return out if candidates is None else out & candidates
        out = np.zeros((self.board.height, self.board.width), dtype=bool)
        if not targets:
            return out
        ys = np.array([t[1] for t in targets])
        xs = np.array([t[0] for t in targets])
        pool = candidates if candidates is not None else np.ones_like(out)
        for y, x in zip(*np.nonzero(pool), strict=True):
            out[y, x] = bool(self.row((int(x), int(y)))[ys, xs].any())
        return out
