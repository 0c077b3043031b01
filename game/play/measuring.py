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
    """The ruler between two squares (distance in the ruleset's counting, with its rings); on
    any other grid, steps across the grid's edges (:func:`grid_ruler`).

    >>> r = ruler(Board.from_ascii(["....."]), (0, 0), (2, 0))
    >>> r.text.split(":")[0], r.ring
    ('2 orthogonal steps', ((2, 0),))
    """
    if board.grid.kind != "square":
        return grid_ruler(board, start, end)
    counts = counts_diagonals(board.ruleset)
    text = measure.distance_words(board, start, end, counts)
    ring = tuple(measure.ring(board, start, measure.orthogonal(start, end)))
    diagonal: tuple[Square, ...] = ()
    if counts:
        diagonal = tuple(measure.ring(board, start, measure.with_diagonals(start, end), diagonal=True))
    return Ruler(start, end, text, ring, diagonal)


#: cube steps to the six neighbours, in order round a hex (a ring is walked along them)
_CUBE_STEPS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def grid_ruler(board: Board, start: Square, end: Square) -> Ruler:
    """The ruler on a hex board: hex steps (the grid's distance) and the ring of every cell on
    the board as many steps away.

    >>> from game.core.hex_sight import hex_board
    >>> r = grid_ruler(hex_board(5, 5), (2, 2), (3, 2))
    >>> r.text, len(r.ring), grid_ruler(hex_board(5, 5), (0, 0), (0, 0)).text
    ('1 hex step', 6, '0 hex steps')
    """
    grid: Any = board.grid
    steps = grid.distance(start, end)
    text = f"{steps} hex step{'s' if steps != 1 else ''}"
    return Ruler(start, end, text, tuple(hex_ring(grid, start, steps)), ())


def hex_ring(grid: Any, centre: Square, radius: int) -> list[Square]:
    """The cells on the board exactly ``radius`` hex steps from ``centre`` (a walk of ``6 *
    radius`` cube steps round it).

    >>> from game.core.hexgrid import HexGrid
    >>> g = HexGrid(9, 9)
    >>> sorted(hex_ring(g, (4, 4), 1)) == sorted(g.neighbours((4, 4))), len(hex_ring(g, (4, 4), 3))
    (True, 18)
    """
    if radius == 0:
        return [centre] if grid.in_bounds(centre) else []
    q, r, s = grid.cube(centre)
    dq, dr, ds = _CUBE_STEPS[4]
    cube = (q + dq * radius, r + dr * radius, s + ds * radius)
    found = []
    for step in _CUBE_STEPS:
        for _ in range(radius):
            cell = _cell_of(grid, cube)
            if cell is not None:
                found.append(cell)
            cube = (cube[0] + step[0], cube[1] + step[1], cube[2] + step[2])
    return found


def _cell_of(grid: Any, cube: tuple[int, int, int]) -> Square | None:
    """The cell of cube coordinates when it lies on the board."""
    cell: Square = grid.cell_of_cube(cube)
    return cell if grid.in_bounds(cell) else None


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
        found = measure.movement_stat(stats)
        return DEFAULT_STEPS if found is None else found

    def reach_from(self, board: Board, start: Square, side: str | None, mover: int | None,
                   stats: Mapping[str, object] | None) -> dict[Square, int]:
        """Every square reachable from ``start`` in :meth:`steps_for` steps, with its steps."""
        steps = self.steps_for(stats)
        key = (board.serial, board.version, start, steps, side, mover)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, measure.reach(board, start, steps, side, mover))
        return self._cache[1]
