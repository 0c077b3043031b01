"""A ray as the painters draw it: the drawing instructions of a presenter's
:class:`~game.play.sight_calls.Ray` or a facade :class:`~game.core.sight_result.Sight` in grid
units (floats: drawing only; the verdict is the facade's), the key its drawing is cached by, and
outlines of square regions as grid-line runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core import sight
from game.core.board import Board, Edge, Square
from game.core.sight_result import Sight
from game.play.sight_calls import DRAWN_LINES, Ray, RayLine
from game.ui import theme

__all__ = ["GridPoint", "RayShape", "drawn_lines", "ray_key", "region_boundary"]

GridPoint = tuple[float, float]


@dataclass
class RayShape:
    """What the painter needs from a ray, in grid units (floats are fine for drawing)."""

    origin: Square
    target: Square
    start: GridPoint
    end: GridPoint
    block_t: float | None
    edge_ticks: list[tuple[GridPoint, bool, str]]
    corner_dots: list[tuple[tuple[int, int], int]]
    corner_sides: list[tuple[Square, int]]
    blocking_squares: list[Square]
    steps: list[tuple[str, Any]]
    step_points: list[GridPoint | None]
    #: the centre line is drawn (else only ``lines``: the lines a rule decided by)
    centre: bool = True
    lines: tuple[RayLine, ...] = ()

    def side_shades(self) -> list[tuple[Square, tuple[int, int, int, int]]]:
        """Closed corner sides with their faint shade (red if that corner is blocked)."""
        return [
            (sq, theme.CORNER_SIDE_SHADE_BOTH if n >= 2 else theme.CORNER_SIDE_SHADE_ONE)
            for sq, n in self.corner_sides
        ]

    @classmethod
    def of(cls, ray: Ray | Sight, board: Board) -> RayShape:
        """The drawing instructions of a ray (the presenter's :class:`~game.play.sight_calls.Ray`,
        or a :class:`~game.core.sight_result.Sight`): every
        crossing's point as floats from ``ray.drawing()``, the blocked part from the first
        blocker on, and the checked lines of a ray drawn by them."""
        origin, target = ray.origin, ray.target
        start = (origin[0] + 0.5, origin[1] + 0.5)
        end = (target[0] + 0.5, target[1] + 0.5)
        centre, lines = drawn_lines(ray, board)
        shape = cls(origin, target, start, end, ray.block_t, [], [], [], [], [], [], centre, lines)
        for kind, where, point, blocks, closed_sides in ray.drawing():
            if kind == "edge":
                assert isinstance(where, Edge)
                shape.edge_ticks.append((point, blocks, where.axis))
                shape.steps.append(("edge", where))
            elif kind == "corner":
                closed = len(closed_sides)
                shape.corner_dots.append((where, closed))  # type: ignore[arg-type]
                for side in closed_sides:
                    if board.on_board(side):
                        shape.corner_sides.append((side, closed))
                shape.steps.append(("corner", where))
            else:
                if blocks:
                    shape.blocking_squares.append(where)  # type: ignore[arg-type]
                shape.steps.append(("square", where))
            shape.step_points.append(point)
        return shape


def ray_key(ray: Ray | Sight, board: Board) -> tuple[Any, ...]:
    """What a ray's drawing depends on, cheap to compute.

    For one board geometry the crossings of a segment are fixed by its ends; only which of them
    block (figures come and go) and which corner sides are closed change; a ray drawn by its
    checked lines is those lines.
    """
    flags = tuple((step[3], step[4]) for step in ray.drawing())
    return (board.serial, board.geometry_version, ray.origin, ray.target, flags, drawn_lines(ray, board))


def drawn_lines(ray: Ray | Sight, board: Board) -> tuple[bool, tuple[RayLine, ...]]:
    """Whether ``ray`` is drawn as its centre line, and else the lines its rule checked (at most
    :data:`~game.play.sight_calls.DRAWN_LINES`, floats): the presenter's :class:`Ray` says so
    itself; a facade :class:`Sight` by its rule (``sight.by_centre_line``)."""
    if isinstance(ray, Ray):
        return ray.centre_line, ray.lines

    if sight.by_centre_line(ray.rule, board.grid.kind):
        return True, ()
    return False, tuple(
        RayLine((float(line.start[0]), float(line.start[1])), (float(line.end[0]), float(line.end[1])), line.clear)
        for line in ray.lines[:DRAWN_LINES]
    )


def region_boundary(region: frozenset[Square]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The outline of a set of squares as grid-line runs ``((x0, y0), (x1, y1))``: every edge
    between a square of the region and one outside it, neighbours on one line merged.

    >>> sorted(region_boundary(frozenset({(0, 0), (1, 0)})))
    [((0, 0), (0, 1)), ((0, 0), (2, 0)), ((0, 1), (2, 1)), ((2, 0), (2, 1))]
    """
    horizontal: dict[int, list[int]] = {}
    vertical: dict[int, list[int]] = {}
    for x, y in region:
        if (x, y - 1) not in region:
            horizontal.setdefault(y, []).append(x)
        if (x, y + 1) not in region:
            horizontal.setdefault(y + 1, []).append(x)
        if (x - 1, y) not in region:
            vertical.setdefault(x, []).append(y)
        if (x + 1, y) not in region:
            vertical.setdefault(x + 1, []).append(y)
    runs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for line, starts in horizontal.items():
        for first, last in _runs(starts):
            runs.append(((first, line), (last + 1, line)))
    for line, starts in vertical.items():
        for first, last in _runs(starts):
            runs.append(((line, first), (line, last + 1)))
    return runs


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """Consecutive integers grouped: [1, 2, 3, 7] → [(1, 3), (7, 7)]."""
    out: list[tuple[int, int]] = []
    for value in sorted(set(values)):
        if out and value == out[-1][1] + 1:
            out[-1] = (out[-1][0], value)
        else:
            out.append((value, value))
    return out
