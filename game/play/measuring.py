"""Measuring over the board: the ruler (``M``) and the movement reach (``W``, digits set N).

The counting is :mod:`game.core.measure`; this module keeps what is switched on and works out
what the frame shows: the ruler's sentence and range rings (:class:`Ruler`) and the reach
(squares with the steps each takes). No pygame: ``game/ui/measure_overlay.py`` draws them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.core import measure
from game.core.board import Board, Square
from game.rules.registry import counts_diagonals

#: reach steps when the figure has no ``move`` / ``speed`` / ``movement`` stat
DEFAULT_STEPS = 4


@dataclass(frozen=True)
class Ruler:
    """The ruler from ``start`` to ``end``: its sentence, the range ring (every square as far
    away) and, for rules that count diagonals, the diagonal ring."""

    start: Square
    end: Square
    text: str
    ring: tuple[Square, ...]
    diagonal_ring: tuple[Square, ...]

    def as_json(self) -> dict[str, object]:
        """``{"from", "to", "text", "ring", "diagonal_ring"}`` (squares as ``[x, y]``)."""
        return {"from": list(self.start), "to": list(self.end), "text": self.text,
                "ring": [list(sq) for sq in self.ring], "diagonal_ring": [list(sq) for sq in self.diagonal_ring]}


def ruler(board: Board, start: Square, end: Square) -> Ruler:
    """The ruler between two squares (distance in the ruleset's counting, with its rings).

    >>> r = ruler(Board.from_ascii(["....."]), (0, 0), (2, 0))
    >>> r.text.split(":")[0], r.ring
    ('2 orthogonal steps', ((2, 0),))
    """
    counts = counts_diagonals(board.ruleset)
    text = measure.distance_words(board, start, end, counts)
    ring = tuple(measure.ring(board, start, measure.orthogonal(start, end)))
    diagonal: tuple[Square, ...] = ()
    if counts:
        diagonal = tuple(measure.ring(board, start, measure.with_diagonals(start, end), diagonal=True))
    return Ruler(start, end, text, ring, diagonal)


@dataclass
class Measuring:
    """What measuring shows now, and the reach worked out last (cached per board version)."""

    ruler: bool = False
    reach: bool = False
    #: None: the figure's move stat, else DEFAULT_STEPS
    steps: int | None = None
    _cache: tuple[tuple[Any, ...], dict[Square, int]] | None = None

    def steps_for(self, stats: Mapping[str, object] | None) -> int:
        """How many steps the reach shows: the chosen number, else the figure's move stat.

        >>> Measuring().steps_for({"move": 3}), Measuring(steps=6).steps_for({"move": 3})
        (3, 6)
        >>> Measuring().steps_for(None)
        4
        """
        if self.steps is not None:
            return self.steps
        for key in ("move", "speed", "movement"):
            value = (stats or {}).get(key)
            if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
                return int(value)
        return DEFAULT_STEPS

    def reach_from(self, board: Board, start: Square, side: str | None, mover: int | None,
                   stats: Mapping[str, object] | None) -> dict[Square, int]:
        """Every square reachable from ``start`` in :meth:`steps_for` steps, with its steps."""
        steps = self.steps_for(stats)
        key = (board.serial, board.version, start, steps, side, mover)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, measure.reach(board, start, steps, side, mover))
        return self._cache[1]
