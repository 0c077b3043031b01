"""Hex boards behind the sight facade: a :class:`~game.core.board.Board` on a
:class:`~game.core.hexgrid.HexGrid`, and the hex engines answering with the one result type.

Pure: no pygame, no files. Callers never import this module: they build a hex board with
:func:`hex_board` (the reader does) and ask :mod:`game.core.sight`, whose engine table holds
``("hex", family)`` entries made of :func:`line`, :func:`field`, :func:`pairs` and
:func:`table`, and whose rule book ``"hex"`` holds the presets of :mod:`game.core.hex_rules`.

Inside, the exact hex engine (:mod:`game.core.hex_los`: the walk for one pair, the shadow caster
for a field) and the slow reference (:mod:`game.core.hex_reference`) read a frozen
:class:`~game.core.hex_board.HexBoard`: :func:`hex_input` derives it from the board once per
board version. A hex answer is a :class:`~game.core.sight_result.Sight` whose source is a
:class:`HexSource`: the same words and JSON shape as the square rules decided by candidate
lines (``{"clear", "from", "to", "viewer", "lines", "checked", "rule", "explanation"}``, plus
``"grid": "hex"``; a line's points are lattice points, docs/hex.md "The lattice").

>>> from game.core import sight
>>> b = hex_board(3, 3, blocked=[(0, 1)])
>>> sight.line(b, (1, 0), (1, 2)).clear, sight.line(b, (1, 0), (1, 2), "hex-strict").clear
(True, False)
>>> sight.rule_of(b).spec(), int(sight.field(b, (1, 0), "gloomhaven").sum())
('hexside', 9)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import cast

import numpy as np

from game.core import hex_fov, hex_los
from game.core.board import DEFAULT_CAPACITY, Board, Door, DoorState, Edge, Figure, Stat
from game.core.grid import Grid
from game.core.hex_board import HexBoard, HexFigure, HexView
from game.core.hex_reference import reference as slow_reference
from game.core.hex_result import HexSightResult
from game.core.hex_rules import HEX_FAMILIES, HexProfile
from game.core.hexgrid import Cell, HexEdge, HexGrid, StaggerAxis, StaggerIndex
from game.core.profiles import Profile
from game.core.sight_result import Crossing, DrawStep, LineCheck, Sight

__all__ = [
    "FAMILIES", "HexSource", "clear_caches", "field", "grid_of", "hex_board", "hex_input", "line", "pairs", "reference", "table",
]

#: the families of hex rules (:attr:`HexProfile.family`), one engine entry each
FAMILIES = HEX_FAMILIES


def hex_board(
    width: int,
    height: int,
    *,
    staggeraxis: StaggerAxis = "y",
    staggerindex: StaggerIndex = "odd",
    walls: Iterable[HexEdge] = (),
    windows: Iterable[HexEdge] = (),
    doors: Mapping[HexEdge, DoorState | str] | None = None,
    void: Iterable[Cell] = (),
    blocked: Iterable[Cell] = (),
    impassable: Iterable[Cell] = (),
    figures: Iterable[Figure] = (),
    capacity: int = DEFAULT_CAPACITY,
    properties: Mapping[str, Stat] | None = None,
    ruleset: str = "",
    name: str = "",
) -> Board:
    """A board on a ``width`` × ``height`` hex grid (pointy-top, odd rows pushed unless told),
    walls, windows and doors on hex edges. The board keeps a grid's edges without looking inside
    them; its annotations name the square :class:`~game.core.grid.Edge`, so the hex edges go in
    through the one cast here."""
    grid: Grid[HexEdge] = HexGrid(width, height, staggeraxis, staggerindex)  # mypy checks the seam here
    door_list = [Door(cast(Edge, edge), DoorState(state)) for edge, state in (doors or {}).items()]
    return Board(
        width, height, grid=cast("Grid[Edge]", grid), walls=cast("Iterable[Edge]", walls),
        windows=cast("Iterable[Edge]", windows), doors=door_list, void=void, blocked=blocked,
        impassable=impassable, figures=figures, capacity=capacity, properties=properties,
        ruleset=ruleset, name=name,
    )


def grid_of(board: Board) -> HexGrid:
    """The hex grid of a hex board (TypeError for another grid)."""
    grid = board.grid
    if not isinstance(grid, HexGrid):
        raise TypeError(f"not a hex board: its grid is {grid.kind}")
    return grid


_INPUTS: dict[int, tuple[int, HexBoard]] = {}


def clear_caches() -> None:
    """Forget every board derived for the hex engines and the engines' per-board caches."""
    _INPUTS.clear()
    hex_fov.clear_caches()
    hex_los.view_of.cache_clear()


def hex_input(board: Board) -> HexBoard:
    """What the hex engines read of a board (walls and shut doors, void, blocked cells, figures,
    capacity), derived once per board version."""
    found = _INPUTS.get(board.serial)
    if found is not None and found[0] == board.version:
        return found[1]
    people: dict[Cell, list[HexFigure]] = {}
    for figure in board.figures.values():
        people.setdefault(figure.square, []).append(HexFigure(figure.name, figure.side or None))
    walls = cast("frozenset[HexEdge]", board.walls)
    doors = {cast(HexEdge, edge): door.state.value for edge, door in board.doors.items()}
    grid = grid_of(board)
    made = HexBoard.build(
        grid, walls=walls, doors=doors, void=board.void, blocked=board.blocked,
        figures=people, capacity=board.capacity, sides=_sides(grid, board.sight_edge_array()),
    )
    if len(_INPUTS) > 64:
        _INPUTS.clear()
    _INPUTS[board.serial] = (board.version, made)
    return made


def _sides(grid: HexGrid, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's sight-blocking edge numbers (:meth:`HexGrid.edge_index`, kept by the board;
    :meth:`Board.sight_edge_array`) as :attr:`HexBoard.sight_sides`: ``(column, row, side)`` in the
    pointy frame, decoded at once."""
    wide = (grid.width if grid.pointy else grid.height) + 2
    cell = codes // 3
    return cell % wide - 1, cell // wide - 1, codes % 3


def _rule(rule: Profile) -> HexProfile:
    if not isinstance(rule, HexProfile):  # the facade fits rules to grids first
        raise TypeError(f"{rule.spec()} is not a hex rule")
    return rule


class HexSource:
    """A hex verdict as a :class:`~game.core.sight_result.SightSource`: the candidate lines that
    decided it (lattice points), their blockers in words, no centre-line crossings."""

    def __init__(self, found: HexSightResult) -> None:
        self._found = found

    @property
    def checked(self) -> int:
        """How many candidate lines were checked."""
        return self._found.checked

    def lines(self) -> tuple[LineCheck, ...]:
        """The deciding lines, their ends as exact lattice points."""
        return tuple(check.line() for check in self._found.deciding)

    def crossings(self) -> tuple[Crossing, ...]:
        """``()``: a hex verdict is explained line by line."""
        return ()

    def blockers(self) -> tuple[Crossing, ...]:
        """Each blocked deciding line's blocker (``line`` names the line, ``reason`` what blocks):
        where the line first meets it (:class:`~game.core.hex_result.HexMeeting`: exact ``t``
        and point, the corner or cell), else at the line's start."""
        out = []
        for check in self._found.deciding:
            if check.blocker is None:
                continue
            found = check.line().meeting()
            if found is None:
                start = (Fraction(check.start[0]), Fraction(check.start[1]))
                found = Crossing("edge", Fraction(0), start, True, check.blocker)
            out.append(replace(found, line=check.describe()))
        return tuple(out)

    def drawing(self) -> list[DrawStep]:
        """``[]``: the painter draws a hex verdict's lines (:meth:`Sight.segments`)."""
        return []

    def block_t(self) -> float | None:
        """None: a hex rule is not decided by one centre line's crossings."""
        return None

    def explain(self) -> str:
        """The verdict in one sentence (:meth:`HexSightResult.explain`)."""
        return self._found.explain()

    def summary(self) -> str:
        """The verdict with its first deciding line only."""
        found = self._found
        if found.clear or found.checked <= 1:
            return found.explain()
        first = found.deciding[0]
        return f"Blocked under {found.profile.spec()}: {found.checked} lines checked, e.g. {first.describe()} {first.blocker}."

    def as_json(self) -> dict[str, object]:
        """The square lines rules' shape plus ``"grid": "hex"`` (rule and words added by Sight)."""
        out = self._found.as_json()
        del out["rule"], out["explanation"]
        return out

    def fingerprint(self) -> tuple[object, ...]:
        """The verdict and its deciding lines."""
        return (self._found.clear, self._found.deciding)


def _sight(a: Cell, b: Cell, viewer: str | None, rule: HexProfile, found: HexSightResult) -> Sight:
    return Sight(a, b, viewer, rule, found.clear, HexSource(found))


def line(board: Board, a: Cell, b: Cell, rule: Profile, viewer: str | None) -> Sight:
    """One pair by the exact walk (PlacementError for an end off the board or void)."""
    hex_rule = _rule(rule)
    return _sight(a, b, viewer, hex_rule, hex_los.line(hex_input(board), a, b, hex_rule, viewer))


def field(board: Board, a: Cell, rule: Profile, viewer: str | None) -> np.ndarray:
    """One origin by the shadow caster: bool ``[y, x]``."""
    return hex_los.field(hex_input(board), a, _rule(rule), viewer)


def pairs(board: Board, rule: Profile, viewer: str | None) -> np.ndarray:
    """Every pair: bool ``(H, W, H, W)``."""
    return hex_los.pairs(hex_input(board), _rule(rule), viewer)


def table(board: Board, origins: list[Cell], targets: np.ndarray, rule: Profile, viewer: str | None) -> np.ndarray:
    """Chosen origins: one field each, masked by ``targets``."""
    out = np.zeros((len(origins), board.height, board.width), dtype=bool)
    for i, origin in enumerate(origins):
        out[i] = field(board, origin, rule, viewer) & targets
    return out


def reference(board: Board, a: Cell, b: Cell, rule: Profile, viewer: str | None) -> Sight:
    """The slow exact answer (:func:`game.core.hex_reference.reference`), every fast path's judge."""
    hex_rule = _rule(rule)
    made = hex_input(board)
    hex_los.check_placement(made, a)
    hex_los.check_placement(made, b)
    return _sight(a, b, viewer, hex_rule, slow_reference(HexView(made, hex_rule, viewer), a, b))
