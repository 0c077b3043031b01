"""A hex board as plain data, and what one sight rule sees of it.

Pure: no pygame, no files. :class:`HexBoard` is the input of the hex sight engine
(:mod:`game.core.hex_los`): the grid, the edges that carry walls and doors, void and blocked cells,
the figures on each cell and the capacity — a frozen value the sight facade builds from a map's
board. :class:`HexView` is what one rule (:class:`game.core.hex_rules.HexProfile`) and one viewer
see of it: which edges are walls for sight and which cells block, each with the reason in words.
Both the reference (:mod:`game.core.hex_reference`) and the fast paths read obstacles only here.

>>> from game.core.hexgrid import HexGrid
>>> from game.core.hex_rules import parse_hex_rule
>>> g = HexGrid(3, 1)
>>> b = HexBoard.build(g, walls=[g.edge_between((0, 0), (1, 0))], blocked=[(2, 0)])
>>> v = HexView(b, parse_hex_rule("hexside"))
>>> v.wall(g.edge_between((0, 0), (1, 0))), v.cell((2, 0)), v.cell((5, 0))
('wall (1,-1)-(1,1) between (0,0) and (1,0)', 'blocked terrain', 'off the board')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from game.core.hex_rules import HexProfile
from game.core.hexgrid import Cell, HexEdge, HexGrid, fmt_point

__all__ = ["DOOR_STATES", "HexBoard", "HexFigure", "HexView"]

DOOR_STATES = ("closed", "open", "locked")


@dataclass(frozen=True)
class HexFigure:
    """A figure as sight sees it: its label (name) and its side (None: no side)."""

    label: str
    side: str | None = None


@dataclass(frozen=True)
class HexBoard:
    """Everything sight needs of a hex board, hashable (build it with :meth:`build`).

    ``walls``: edges carrying a sight-blocking wall (windows are not walls for sight);
    ``doors``: ``(edge, state)`` pairs, a door deciding its edge whatever wall runs there;
    ``void``: cells off the board though inside its rectangle; ``blocked``: blocked terrain;
    ``figures``: ``(cell, figures)`` pairs; ``capacity``: figures per cell.
    """

    grid: HexGrid
    walls: frozenset[HexEdge] = frozenset()
    doors: tuple[tuple[HexEdge, str], ...] = ()
    void: frozenset[Cell] = frozenset()
    blocked: frozenset[Cell] = frozenset()
    figures: tuple[tuple[Cell, tuple[HexFigure, ...]], ...] = ()
    capacity: int = 2

    @staticmethod
    def build(
        grid: HexGrid,
        walls: Iterable[HexEdge] = (),
        doors: Mapping[HexEdge, str] | None = None,
        void: Iterable[Cell] = (),
        blocked: Iterable[Cell] = (),
        figures: Mapping[Cell, Iterable[HexFigure]] | None = None,
        capacity: int = 2,
        sides: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> HexBoard:
        """A board in canonical form (sorted tuples); ValueError for a bad door state or capacity.
        ``sides``: :attr:`sight_sides` when the caller has them already (the facade decodes them
        from the board's edge numbers), else derived here."""
        for state in (doors or {}).values():
            if state not in DOOR_STATES:
                raise ValueError(f"door state must be one of {', '.join(DOOR_STATES)}, not {state!r}")
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, not {capacity}")
        people = tuple(sorted(
            (cell, tuple(sorted(fs, key=lambda f: (f.label, f.side or "")))) for cell, fs in (figures or {}).items() if fs
        ))
        board = HexBoard(
            grid, frozenset(walls), tuple(sorted((doors or {}).items())), frozenset(void),
            frozenset(blocked), people, capacity,
        )
        if sides is not None:
            board.__dict__["sight_sides"] = sides  # the cached property, given
        _ = board.sight_sides  # derived once, with the board (the fast field reads it)
        return board

    @cached_property
    def sight_sides(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The edges that block sight by themselves (walls and closed or locked doors; an open
        door clears its edge) as ``(column, row, side)`` int arrays in the pointy frame: side 0, 1
        or 2 (north-east, east, south-east) of that cell, each edge named once."""
        doors = self.door_map
        edges = [e for e in self.walls if e not in doors] + [e for e, s in doors.items() if s != "open"]
        if not edges:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        t = self.grid.pointy_frame
        ends = np.array([(*t(e.a), *t(e.b)) for e in edges], dtype=np.int64).reshape(-1, 4)
        a = np.where((ends[:, 0:1] < ends[:, 2:3]) | ((ends[:, 0:1] == ends[:, 2:3]) & (ends[:, 1:2] < ends[:, 3:4])), ends[:, 0:2], ends[:, 2:4])
        b = ends[:, 0:2] + ends[:, 2:4] - a
        d = b - a
        side = np.where(d[:, 0] == 0, 1, np.where(d[:, 1] > 0, 0, 2))
        cx = np.where(side == 1, a[:, 0] - 1, a[:, 0])
        cy = np.where(side == 0, a[:, 1] + 2, np.where(side == 2, a[:, 1] - 2, a[:, 1] + 1))
        row = cy // 3
        col = (cx - (row & 1 ^ self.grid.parity)) // 2
        return col, row, side

    @cached_property
    def door_map(self) -> dict[HexEdge, str]:
        """Door state by edge."""
        return dict(self.doors)

    @cached_property
    def figure_map(self) -> dict[Cell, tuple[HexFigure, ...]]:
        """Figures by cell."""
        return dict(self.figures)

    def figures_at(self, cell: Cell) -> tuple[HexFigure, ...]:
        """The figures standing on ``cell``."""
        return self.figure_map.get(cell, ())

    def on_board(self, cell: Cell) -> bool:
        """In the map's rectangle and not void."""
        return self.grid.in_bounds(cell) and cell not in self.void

    def sight_wall(self, edge: HexEdge) -> str | None:
        """What makes an edge block sight by itself (a wall, a closed or locked door), or None."""
        state = self.door_map.get(edge)
        if state is not None:
            return None if state == "open" else f"{state} door on {self.edge_words(edge)}"
        return f"wall {self.edge_words(edge)}" if edge in self.walls else None

    def edge_words(self, edge: HexEdge) -> str:
        """``(1,-1)-(1,1) between (0,0) and (1,0)``."""
        a, b = self.grid.edge_cells(edge)
        return f"{edge} between {fmt_point(a)} and {fmt_point(b)}"


@dataclass
class HexView:
    """What one rule and one viewer see of a board: walls for sight and blocking cells, cached.

    ``viewer`` is a side: figures of other sides are its enemies (None: every figure counts).
    ``figures`` overrides the rule's own ``figures`` parameter when given.
    """

    board: HexBoard
    profile: HexProfile
    viewer: str | None = None
    figures: str | None = None
    _walls: dict[HexEdge, str | None] = field(default_factory=dict, repr=False)
    _cells: dict[Cell, str | None] = field(default_factory=dict, repr=False)

    @property
    def grid(self) -> HexGrid:
        """The board's grid."""
        return self.board.grid

    def wall(self, edge: HexEdge) -> str | None:
        """Why an edge is a wall for sight under this rule, or None: a wall or a closed door, or with
        ``boundary = closed`` every edge with a void or off-map cell on either side."""
        if edge in self._walls:
            return self._walls[edge]
        reason = self.board.sight_wall(edge)
        if reason is None and self.profile.boundary == "closed":
            a, b = self.grid.edge_cells(edge)
            if not (self.grid.in_bounds(a) and self.grid.in_bounds(b)):
                reason = f"the board's edge {self.board.edge_words(edge)}"
            elif not (self.board.on_board(a) and self.board.on_board(b)):
                reason = f"the edge {self.board.edge_words(edge)} of a void hex"
        self._walls[edge] = reason
        return reason

    def cell(self, cell: Cell) -> str | None:
        """Why a cell blocks sight by its interior, or None (never asked for the two end cells):
        off the board and void always; blocked terrain when ``obstacles = blocks``; figures as
        ``figures`` says."""
        if cell in self._cells:
            return self._cells[cell]
        board = self.board
        reason: str | None = None
        if not board.grid.in_bounds(cell):
            reason = "off the board"
        elif cell in board.void:
            reason = "void"
        elif cell in board.blocked and self.profile.obstacles == "blocks":
            reason = "blocked terrain"
        else:
            reason = self._figure_reason(cell)
        self._cells[cell] = reason
        return reason

    def _figure_reason(self, cell: Cell) -> str | None:
        rule = self.figures or self.profile.figures
        here = self.board.figures_at(cell)
        if rule == "none" or not here:
            return None
        if rule == "any":
            return "figure " + " and ".join(f.label for f in here)
        enemies = [f for f in here if self.viewer is None or f.side != self.viewer]
        if len(enemies) < self.board.capacity:
            return None
        who = " and ".join(f.label for f in enemies)
        whose = f"enemies of {self.viewer}" if self.viewer is not None else "figures"
        return f"{len(enemies)} {whose} ({who})"
