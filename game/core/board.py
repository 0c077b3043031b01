"""The board as plain data: squares, edges, doors and figures.

Pure: no pygame, no pytmx, no files. Coordinates follow Tiled: a square is ``(x, y)``, column and
row from the top-left, 0-based. The board holds its grid (:attr:`Board.grid`, the seam of
:mod:`game.core.grid`: cells, edges, corners, integer lattice, pixels); a square grid unless
another is given. On squares, grid corners are ``(x, y)`` too, at the top-left of square
``(x, y)``, and edges use the notation of docs/line-of-sight.md (:class:`~game.core.grid.Edge`):

* ``V(x,y)``: the vertical segment ``(x,y)-(x,y+1)`` between squares ``(x-1,y)`` and ``(x,y)``;
* ``H(x,y)``: the horizontal segment ``(x,y)-(x+1,y)`` between squares ``(x,y-1)`` and ``(x,y)``.

The board keeps walls, windows and doors as sets of the grid's edges and never looks inside one:
only the grid numbers them (:meth:`~game.core.grid.Grid.edge_index`).

Every update (move a figure, set a door, add a wall) bumps :attr:`Board.version`; updates that
change sight-blocking geometry (walls, doors, void, terrain) also bump
:attr:`Board.geometry_version`, so caches know what to refresh.

>>> board = Board.from_ascii(["...", ".#.", "..."], walls=["V(1,0)"])
>>> board.is_blocked_terrain((1, 1)), board.edge_blocks_sight(Edge.parse("V(1,0)"))
(True, True)
>>> board.place_figure(Figure(1, "Rook", "red", (0, 0)))
>>> board.figures_at((0, 0))[0].name
'Rook'
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np

from game.core.errors import CapacityError, PlacementError, UsageError
from game.core.grid import Corner, Edge, Grid, SquareGrid, corner_edges

__all__ = [
    "DEFAULT_CAPACITY", "Board", "BoardState", "Corner", "Door", "DoorState", "Edge", "Figure", "FrozenMap",
    "Square", "Stat", "corner_edges", "fmt_square", "is_enemy", "parse_square",
]

#: a cell of the board, ``(x, y)`` as Tiled names it (a square on the square grid)
Square = tuple[int, int]
Stat = str | int | float | bool

DEFAULT_CAPACITY = 2
#: every Board gets the next number (copies too): caches key on (serial, version), never on id()
_SERIALS = itertools.count(1)


class DoorState(StrEnum):
    """A door's state; closed and locked doors are walls, open doors are not."""

    CLOSED = "closed"
    OPEN = "open"
    LOCKED = "locked"

    @property
    def blocks(self) -> bool:
        """True when the door acts as a wall (closed or locked)."""
        return self is not DoorState.OPEN

    def next(self) -> DoorState:
        """The state a click cycles to: closed → open → locked → closed.

        >>> DoorState.CLOSED.next(), DoorState.LOCKED.next()
        (<DoorState.OPEN: 'open'>, <DoorState.CLOSED: 'closed'>)
        """
        order = (DoorState.CLOSED, DoorState.OPEN, DoorState.LOCKED)
        return order[(order.index(self) + 1) % len(order)]


@dataclass(frozen=True)
class Door:
    """A door on one edge; it decides that edge whatever wall runs there."""

    edge: Edge
    state: DoorState = DoorState.CLOSED
    object_id: int | None = None
    name: str = ""


class FrozenMap(Mapping[str, Stat]):
    """A read-only mapping (figure stats, board properties): nothing can change it in place, so a
    snapshot that holds one (undo history, autosave baseline) never changes behind its back.
    Change a figure's stats through :meth:`Board.update_figure`, which bumps the version.

    >>> stats = FrozenMap({"life": 3})
    >>> stats["life"], stats == {"life": 3}, dict(stats)
    (3, True, {'life': 3})
    >>> stats["life"] = 4
    Traceback (most recent call last):
    TypeError: 'FrozenMap' object does not support item assignment
    """

    __slots__ = ("_data",)
    _data: dict[str, Stat]

    def __init__(self, data: Mapping[str, Stat] | Iterable[tuple[str, Stat]] = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: str) -> Stat:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a FrozenMap cannot be changed")

    def __repr__(self) -> str:
        return repr(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenMap:
        return self  # immutable: a copy is the same value

    def __copy__(self) -> FrozenMap:
        return self

    def __reduce__(self) -> tuple[type[FrozenMap], tuple[dict[str, Stat]]]:
        return (FrozenMap, (dict(self._data),))


@dataclass(frozen=True)
class Figure:
    """A figure on the board: its stats are the ruleset's (life, attacks, armor ...).

    ``stats`` is read-only (a :class:`FrozenMap`, whatever mapping it was built from): change
    them with :meth:`Board.update_figure`.

    >>> f = Figure(1, "Rook", "red", (0, 0), {"life": 3})
    >>> f.stats["life"] = 2
    Traceback (most recent call last):
    TypeError: 'FrozenMap' object does not support item assignment
    """

    id: int
    name: str
    side: str
    square: Square
    stats: Mapping[str, Stat] = field(default_factory=FrozenMap, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.stats, FrozenMap):
            object.__setattr__(self, "stats", FrozenMap(self.stats))

    @property
    def label(self) -> str:
        """The name, or ``#id`` for a nameless figure."""
        return self.name or f"#{self.id}"


@dataclass(frozen=True)
class BoardState:
    """What play changes: figures and door states. Used for undo, autosave and reload."""

    figures: tuple[Figure, ...]
    doors: tuple[Door, ...]
    door_squares: tuple[tuple[Square, DoorState], ...] = ()


def is_enemy(figure: Figure, viewer: str | None) -> bool:
    """Whether ``figure`` is an enemy of side ``viewer``; with no viewer, every figure counts.

    >>> f = Figure(1, "Goblin", "monsters", (0, 0))
    >>> is_enemy(f, "monsters"), is_enemy(f, "red"), is_enemy(f, None)
    (False, True, True)
    """
    return viewer is None or figure.side != viewer


class Board:
    """A square-grid board with void and blocked squares, walls, windows, doors and figures.

    Two more cell roles come from tiles: ``impassable`` squares (water, pits) block movement but
    not sight; ``door_squares`` (a roguelike's door tiles) block movement and sight like blocked
    terrain while closed or locked, and nothing while open. :attr:`blocked` holds the blocked
    terrain and the shut door squares, so the sight rule needs nothing else.

    >>> b = Board(3, 1, impassable=[(0, 0)], door_squares={(1, 0): DoorState.CLOSED})
    >>> sorted(b.blocked), b.can_enter(None, (0, 0)), b.square_block_reason((0, 0), None)
    ([(1, 0)], 'square (0,0) is impassable terrain', None)
    >>> b.cycle_door_square((1, 0)), sorted(b.blocked), b.geometry_version
    (<DoorState.OPEN: 'open'>, [], 1)
    """

    def __init__(
        self,
        width: int,
        height: int,
        *,
        void: Iterable[Square] = (),
        blocked: Iterable[Square] = (),
        walls: Iterable[Edge] = (),
        windows: Iterable[Edge] = (),
        doors: Iterable[Door] = (),
        figures: Iterable[Figure] = (),
        capacity: int = DEFAULT_CAPACITY,
        ruleset: str = "",
        properties: Mapping[str, Stat] | None = None,
        name: str = "",
        impassable: Iterable[Square] = (),
        door_squares: Mapping[Square, DoorState] | None = None,
        grid: Grid[Edge] | None = None,
    ) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"a board needs at least one square, not {width}x{height}")
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, not {capacity}")
        if grid is not None and (grid.width, grid.height) != (width, height):
            raise ValueError(f"a {grid.width}x{grid.height} grid cannot hold a {width}x{height} board")
        self.width = width
        self.height = height
        #: the board's topology (cells, edges, corners, lattice, pixels): square unless given
        self.grid: Grid[Edge] = grid if grid is not None else SquareGrid(width, height)
        self.capacity = capacity
        #: the map's ``ruleset`` property; "" when it names none (the rules' registry then
        #: decides which game the board plays: ``game.rules.registry.get_ruleset``)
        self.ruleset = ruleset
        self._properties = FrozenMap(properties or {})
        self.name = name
        self._void = {sq for sq in void if self.in_bounds(sq)}
        self._blocked = {sq for sq in blocked if self.in_bounds(sq)}
        self._impassable = {sq for sq in impassable if self.in_bounds(sq)} - self._blocked
        self._door_squares: dict[Square, DoorState] = {
            sq: DoorState(state) for sq, state in (door_squares or {}).items() if self.in_bounds(sq)
        }
        self._walls = set(walls)
        self._frozen_walls: frozenset[Edge] | None = None  # :attr:`walls`, until a wall changes
        self._windows = set(windows)
        self._doors: dict[Edge, Door] = {door.edge: door for door in doors}
        self._sight_edges = self._encode_sight_edges()
        self._figures: dict[int, Figure] = {}
        self._at: dict[Square, list[int]] = {}
        for figure in figures:
            self._add(figure)
        self.version = 0
        self.geometry_version = 0
        #: the last updates: (version, the squares whose figures changed, None for any other update)
        self._changes: deque[tuple[int, tuple[Square, ...] | None]] = deque(maxlen=32)
        #: unique per board object, copies included; with :attr:`version` a safe cache key
        self.serial = next(_SERIALS)

    @property
    def properties(self) -> Mapping[str, Stat]:
        """The map's custom properties, read-only (a :class:`FrozenMap`)."""
        return self._properties

    # --- construction helpers -------------------------------------------------------------

    @classmethod
    def from_ascii(
        cls,
        rows: Iterable[str],
        *,
        walls: Iterable[str | Edge] = (),
        doors: Mapping[str, str] | None = None,
        **kwargs: object,
    ) -> Board:
        """A board from rows of characters: ``.`` on-board, ``#`` blocked terrain, `` `` or ``~`` void.

        ``walls`` are edges (``"V(2,2)"``); ``doors`` maps edges to states.

        >>> b = Board.from_ascii(["~..", "..#"])
        >>> b.width, b.height, b.is_void((0, 0)), b.is_blocked_terrain((2, 1))
        (3, 2, True, True)
        """
        grid = [row for row in rows]
        height = len(grid)
        width = max((len(row) for row in grid), default=0)
        void, blocked = [], []
        for y, row in enumerate(grid):
            for x in range(width):
                ch = row[x] if x < len(row) else " "
                if ch in " ~":
                    void.append((x, y))
                elif ch == "#":
                    blocked.append((x, y))
                elif ch != ".":
                    raise ValueError(f"unknown board character {ch!r} at ({x},{y})")
        wall_edges = [w if isinstance(w, Edge) else Edge.parse(w) for w in walls]
        door_list = [Door(Edge.parse(e), DoorState(s)) for e, s in (doors or {}).items()]
        return cls(
            width, height, void=void, blocked=blocked, walls=wall_edges, doors=door_list, **kwargs  # type: ignore[arg-type]
        )

    def copy(self) -> Board:
        """An independent copy (same versions, a new :attr:`serial`)."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        new.serial = next(_SERIALS)
        return new

    # --- squares -------------------------------------------------------------------------

    def in_bounds(self, sq: Square) -> bool:
        """Whether ``sq`` lies inside the map's width × height (cells are named as Tiled names
        them on every grid, so the bounds are this rectangle; :meth:`Grid.in_bounds` agrees)."""
        x, y = sq
        return 0 <= x < self.width and 0 <= y < self.height

    def is_void(self, sq: Square) -> bool:
        """Off-board: outside the map or a void square."""
        return not self.in_bounds(sq) or sq in self._void

    def on_board(self, sq: Square) -> bool:
        """In bounds and not void (blocked terrain is on-board)."""
        return not self.is_void(sq)

    def is_blocked_terrain(self, sq: Square) -> bool:
        """A blocked terrain square (or a shut door square): on-board, impassable, blocks sight."""
        if sq in self._blocked:
            return True
        state = self._door_squares.get(sq)
        return state is not None and state.blocks

    def is_impassable(self, sq: Square) -> bool:
        """An impassable square: figures cannot enter it, sight crosses it."""
        return sq in self._impassable

    def squares(self) -> Iterator[Square]:
        """Every on-board square, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                if (x, y) not in self._void:
                    yield (x, y)

    @property
    def void(self) -> frozenset[Square]:
        """The void squares inside the map bounds."""
        return frozenset(self._void)

    @property
    def blocked(self) -> frozenset[Square]:
        """The squares that block sight like terrain: blocked terrain and shut door squares."""
        shut = {sq for sq, state in self._door_squares.items() if state.blocks}
        return frozenset(self._blocked | shut) if shut else frozenset(self._blocked)

    @property
    def impassable(self) -> frozenset[Square]:
        """The impassable squares (movement only)."""
        return frozenset(self._impassable)

    @property
    def door_squares(self) -> Mapping[Square, DoorState]:
        """Door squares by square, with their states."""
        return dict(self._door_squares)

    # --- edges ---------------------------------------------------------------------------

    @property
    def walls(self) -> frozenset[Edge]:
        """Wall edges (a door on the same edge overrides the wall): one frozen set, taken at the
        first read after a wall changed (a map's thousands of walls are not copied per read).

        >>> b = Board(2, 1, walls=[Edge("V", 1, 0)])
        >>> b.walls is b.walls, len(b.walls)
        (True, 1)
        >>> b.set_wall(Edge("H", 0, 1)); len(b.walls)
        2
        """
        if self._frozen_walls is None:
            self._frozen_walls = frozenset(self._walls)
        return self._frozen_walls

    @property
    def windows(self) -> frozenset[Edge]:
        """Window edges: they block movement, not sight."""
        return frozenset(self._windows)

    @property
    def doors(self) -> Mapping[Edge, Door]:
        """Doors by edge."""
        return dict(self._doors)

    def edge_blocks_sight(self, edge: Edge) -> bool:
        """A wall, or a closed or locked door (a door decides its edge)."""
        door = self._doors.get(edge)
        if door is not None:
            return door.state.blocks
        return edge in self._walls

    @property
    def sight_edge_codes(self) -> frozenset[int]:
        """The sight-blocking edges on or inside the board's rim as integers (the grid's
        :meth:`~game.core.grid.Grid.edge_index`), kept up to date by every update (the LOS engine
        reads them into arrays without a pass over Edge objects); on squares ``V(x, y)`` is
        ``y * (W + 1) + x`` and ``H(x, y)`` is ``H * (W + 1) + y * W + x``.

        >>> Board(2, 1, walls=[Edge("V", 1, 0), Edge("H", 0, 1), Edge("V", 9, 9)]).sight_edge_codes
        frozenset({1, 5})
        """
        return frozenset(self._sight_edges)

    def sight_edge_array(self) -> np.ndarray:
        """:attr:`sight_edge_codes` as an int array in no particular order, read straight from the
        board's own set (no frozen copy: the engines scatter it into their grids at once).

        >>> sorted(Board(2, 1, walls=[Edge("V", 1, 0), Edge("H", 0, 1)]).sight_edge_array().tolist())
        [1, 5]
        """
        return np.fromiter(self._sight_edges, dtype=np.intp, count=len(self._sight_edges))

    def _encode_sight_edges(self) -> set[int]:
        index = self.grid.edge_index
        codes = {code for code in map(index, self._walls) if code is not None}
        for edge, door in self._doors.items():
            code = index(edge)
            if code is not None:
                (codes.add if door.state.blocks else codes.discard)(code)
        return codes

    def _sync_sight_edge(self, edge: Edge) -> None:
        code = self.grid.edge_index(edge)
        if code is not None:
            (self._sight_edges.add if self.edge_blocks_sight(edge) else self._sight_edges.discard)(code)

    def edge_blocks_movement(self, edge: Edge) -> bool:
        """Sight-blocking edges plus windows; an open door lets figures through."""
        door = self._doors.get(edge)
        if door is not None:
            return door.state.blocks
        return edge in self._walls or edge in self._windows

    def edge_kind(self, edge: Edge) -> str | None:
        """``"door"``, ``"wall"``, ``"window"`` or None for an open edge."""
        if edge in self._doors:
            return "door"
        if edge in self._walls:
            return "wall"
        if edge in self._windows:
            return "window"
        return None

    # --- figures -------------------------------------------------------------------------

    @property
    def figures(self) -> Mapping[int, Figure]:
        """Figures by id."""
        return dict(self._figures)

    def figure(self, figure_id: int) -> Figure:
        """The figure with this id (KeyError if none)."""
        return self._figures[figure_id]

    def find_figure(self, name_or_id: str) -> Figure:
        """A figure by name (case-insensitive) or object id, as the command line names them.

        ``#12`` always means the id. Raises :class:`UsageError` listing the figures when nothing
        matches, or when the text names several figures (say, one named ``3`` and the one with id 3).

        >>> board = Board(3, 1, figures=[Figure(3, "Ann", "red", (0, 0)), Figure(4, "3", "red", (1, 0))])
        >>> board.find_figure("#3").name, board.find_figure("ann").id
        ('Ann', 3)
        """
        text = name_or_id.strip()
        if text.startswith("#") and text[1:].isdigit():
            if int(text[1:]) in self._figures:
                return self._figures[int(text[1:])]
            matches: list[Figure] = []
        else:
            matches = [f for f in self._figures.values() if f.name.casefold() == text.casefold()]
            if text.isdigit() and int(text) in self._figures:
                by_id = self._figures[int(text)]
                matches = [by_id, *(f for f in matches if f.id != by_id.id)]
        if len(matches) == 1:
            return matches[0]
        known = ", ".join(f"{f.label} (id {f.id})" for f in self._figures.values()) or "none"
        if matches:
            which = ", ".join(f"{f.label} (id {f.id})" for f in matches)
            raise UsageError(f"{text!r} names several figures: {which}; write #ID for an id")
        raise UsageError(f"no figure named {text!r} on this map (figures: {known})")

    def figures_at(self, sq: Square) -> tuple[Figure, ...]:
        """The figures standing on a square, in the order they arrived."""
        return tuple(self._figures[i] for i in self._at.get(sq, ()))

    def sides(self) -> list[str]:
        """Every side present, sorted."""
        return sorted({f.side for f in self._figures.values()})

    def enemy_count(self, sq: Square, viewer: str | None) -> int:
        """How many figures on ``sq`` are enemies of ``viewer`` (all of them with no viewer)."""
        return sum(1 for f in self.figures_at(sq) if is_enemy(f, viewer))

    def square_blocks_sight(self, sq: Square, viewer: str | None) -> bool:
        """Void, blocked terrain, or at least ``capacity`` enemies of the viewer."""
        return self.square_block_reason(sq, viewer) is not None

    def square_block_reason(self, sq: Square, viewer: str | None) -> str | None:
        """Why a crossed square blocks sight, in words, or None if it does not.

        >>> b = Board.from_ascii(["..~"])
        >>> b.square_block_reason((2, 0), None), b.square_block_reason((0, 0), None)
        ('off the board', None)
        """
        if self.is_void(sq):
            return "off the board"
        if sq in self._blocked:
            return "blocked terrain"
        door = self._door_squares.get(sq)
        if door is not None and door.blocks:
            return f"{door.value} door square"
        enemies = [f for f in self.figures_at(sq) if is_enemy(f, viewer)]
        if len(enemies) >= self.capacity:
            who = " and ".join(f.label for f in enemies)
            whose = f"enemies of {viewer}" if viewer is not None else "figures"
            return f"{len(enemies)} {whose} ({who})"
        return None

    def can_enter(self, figure_id: int | None, sq: Square) -> str | None:
        """Why a figure may not stand on ``sq`` (None when it may): void, terrain, capacity; the
        cell named as the grid calls it (square, or hex on a hex board)."""
        cell = self.grid.noun
        if not self.in_bounds(sq):
            return f"{cell} {fmt_square(sq)} is outside the {self.width}x{self.height} board"
        if sq in self._void:
            return f"{cell} {fmt_square(sq)} is off the board (void)"
        if sq in self._blocked:
            return f"{cell} {fmt_square(sq)} is blocked terrain"
        if sq in self._impassable:
            return f"{cell} {fmt_square(sq)} is impassable terrain"
        door = self._door_squares.get(sq)
        if door is not None and door.blocks:
            return f"{cell} {fmt_square(sq)} is a {door.value} door {cell}"
        others = [f for f in self.figures_at(sq) if f.id != figure_id]
        if len(others) >= self.capacity:
            names = ", ".join(f.label for f in others)
            return f"{cell} {fmt_square(sq)} already holds {len(others)} figures (capacity {self.capacity}): {names}"
        return None

    # --- updates (each bumps the version) ------------------------------------------------

    def _bump(self, geometry: bool = False, squares: tuple[Square, ...] | None = None) -> None:
        self.version += 1
        if geometry:
            self.geometry_version += 1
        self._changes.append((self.version, None if geometry else squares))

    def figure_squares_since(self, version: int) -> frozenset[Square] | None:
        """The squares whose figures changed since ``version`` when every update since then placed,
        moved, removed or changed figures (the last 32 updates are remembered), else None: a cache
        of that version may patch those squares instead of rebuilding.

        >>> b = Board(3, 1); b.place_figure(Figure(1, "A", "red", (0, 0))); v = b.version
        >>> b.move_figure(1, (2, 0)); sorted(b.figure_squares_since(v)), sorted(b.figure_squares_since(v - 1))
        ([(0, 0), (2, 0)], [(0, 0), (2, 0)])
        >>> b.set_wall(Edge("V", 1, 0)); b.figure_squares_since(v) is None
        True
        """
        changes = [squares for at, squares in self._changes if at > version]
        if len(changes) != self.version - version or any(squares is None for squares in changes):
            return None
        return frozenset(sq for squares in changes if squares is not None for sq in squares)

    def _add(self, figure: Figure) -> None:
        if figure.id in self._figures:
            raise ValueError(f"figure id {figure.id} is already on the board")
        self._figures[figure.id] = figure
        self._at.setdefault(figure.square, []).append(figure.id)

    def _remove(self, figure_id: int) -> Figure:
        figure = self._figures.pop(figure_id)
        ids = self._at[figure.square]
        ids.remove(figure_id)
        if not ids:
            del self._at[figure.square]
        return figure

    def place_figure(self, figure: Figure) -> None:
        """Add a figure, checking its square (PlacementError / CapacityError)."""
        self._check_entry(figure.id, figure.square)
        self._add(figure)
        self._bump(squares=(figure.square,))

    def move_figure(self, figure_id: int, sq: Square) -> None:
        """Move a figure to ``sq``; raises CapacityError past capacity, PlacementError off-board."""
        figure = self._figures[figure_id]
        if figure.square == sq:
            return
        self._check_entry(figure_id, sq)
        self._remove(figure_id)
        self._add(replace(figure, square=sq))
        self._bump(squares=(figure.square, sq))

    def _check_entry(self, figure_id: int, sq: Square) -> None:
        reason = self.can_enter(figure_id, sq)
        if reason is None:
            return
        if "capacity" in reason:
            raise CapacityError(reason)
        raise PlacementError(reason)

    def remove_figure(self, figure_id: int) -> Figure:
        """Take a figure off the board and return it."""
        figure = self._remove(figure_id)
        self._bump(squares=(figure.square,))
        return figure

    def update_figure(self, figure_id: int, **stats: Stat | None) -> Figure:
        """Set (or, with None, delete) stats of a figure, e.g. ``wounds=2``; returns the new figure."""
        figure = self._figures[figure_id]
        new_stats = dict(figure.stats)
        for key, value in stats.items():
            if value is None:
                new_stats.pop(key, None)
            else:
                new_stats[key] = value
        new = replace(figure, stats=new_stats)
        self._figures[figure_id] = new
        self._bump(squares=(figure.square,))
        return new

    def set_door(self, edge: Edge, state: DoorState) -> None:
        """Set the state of the door on ``edge`` (KeyError if there is none)."""
        door = self._doors[edge]
        if door.state is not state:
            self._doors[edge] = replace(door, state=state)
            self._sync_sight_edge(edge)
            self._bump(geometry=True)

    def cycle_door(self, edge: Edge) -> DoorState:
        """Advance a door closed → open → locked → closed; returns the new state."""
        state = self._doors[edge].state.next()
        self.set_door(edge, state)
        return state

    def set_door_square(self, sq: Square, state: DoorState) -> None:
        """Set the state of the door square ``sq`` (KeyError if there is none)."""
        if self._door_squares[sq] is not state:
            self._door_squares[sq] = state
            self._bump(geometry=True)

    def cycle_door_square(self, sq: Square) -> DoorState:
        """Advance a door square closed → open → locked → closed; returns the new state."""
        state = self._door_squares[sq].next()
        self.set_door_square(sq, state)
        return state

    def close_all_doors(self) -> None:
        """Close every door and door square that is open (locked ones stay locked)."""
        changed = False
        for edge, door in self._doors.items():
            if door.state is DoorState.OPEN:
                self._doors[edge] = replace(door, state=DoorState.CLOSED)
                self._sync_sight_edge(edge)
                changed = True
        for sq, state in self._door_squares.items():
            if state is DoorState.OPEN:
                self._door_squares[sq] = DoorState.CLOSED
                changed = True
        if changed:
            self._bump(geometry=True)

    def set_wall(self, edge: Edge, present: bool = True) -> None:
        """Add or remove a wall on an edge."""
        if present != (edge in self._walls):
            (self._walls.add if present else self._walls.discard)(edge)
            self._frozen_walls = None
            self._sync_sight_edge(edge)
            self._bump(geometry=True)

    # --- state for undo, autosave and reload ---------------------------------------------

    def state(self) -> BoardState:
        """Figures and door states, as an immutable value."""
        return BoardState(
            tuple(self._figures.values()),
            tuple(self._doors.values()),
            tuple(sorted(self._door_squares.items())),
        )

    def restore(self, state: BoardState) -> None:
        """Put back figures and door states from :meth:`state` (doors not on this board are skipped)."""
        self._figures.clear()
        self._at.clear()
        for figure in state.figures:
            self._add(figure)
        for door in state.doors:
            if door.edge in self._doors:
                self._doors[door.edge] = replace(self._doors[door.edge], state=door.state)
                self._sync_sight_edge(door.edge)
        for sq, sq_state in state.door_squares:
            if sq in self._door_squares:
                self._door_squares[sq] = sq_state
        self._bump(geometry=True)

    def __repr__(self) -> str:
        return (
            f"Board({self.width}x{self.height}, {len(self._walls)} walls, {len(self._doors)} doors, "
            f"{len(self._figures)} figures, ruleset={self.ruleset!r})"
        )


def fmt_square(sq: Square) -> str:
    """A square as people write it: ``(3,4)``.

    >>> fmt_square((3, 4))
    '(3,4)'
    """
    return f"({sq[0]},{sq[1]})"


def parse_square(text: str) -> Square:
    """Read ``X,Y`` (as the command line takes squares); raises UsageError otherwise.

    >>> parse_square("3,4"), parse_square("(0, 2)")
    ((3, 4), (0, 2))
    """
    cleaned = text.strip().strip("()")
    parts = [p.strip() for p in cleaned.split(",")]
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise UsageError(f"not a square: {text!r} (write X,Y, e.g. 3,4)")
    return int(parts[0]), int(parts[1])
