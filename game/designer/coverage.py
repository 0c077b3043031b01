"""Line-of-sight coverage numbers for map reports and diffs (pure: numpy arrays in and out).

Coverage is about the map's *geometry*: walls, windows, doors, void and blocked terrain. Figures
move during play, so they are taken off a copy of the board before the tables are built (no
figure ever blocks a ray here), and every pair is symmetric.

Only squares a figure can stand on (on the board, not blocked terrain) are counted, as viewers and
as targets. A square does not count itself.

Every table is asked of the sight facade (:mod:`game.core.sight`) under a rule (default: the
grid's default rule). A rule decided by its centre line (:func:`game.core.sight.by_centre_line`)
lets the board split into the regions rays can join and the doors' effects be found from the rays
that touch them (:func:`region_table`, :func:`door_effects`); any other rule is answered field by
field and door by door (:func:`door_effects_reference`).

>>> from game.core.board import Board
>>> board = Board.from_ascii(["...", "..."], walls=["V(1,0)"])
>>> cov = coverage(board)
>>> cov.seen_by.tolist()
[[2, 4, 4], [5, 5, 4]]
>>> cov.most_hidden(1), cov.most_exposed(1)
([((0, 0), 2)], [((0, 1), 5)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from game.core import sight
from game.core.board import Board, Door, DoorState, Edge, Square
from game.core.profiles import Profile


def geometry_board(board: Board) -> Board:
    """A copy of ``board`` with no figures (doors keep their states)."""
    bare = board.copy()
    for figure_id in list(bare.figures):
        bare.remove_figure(figure_id)
    return bare


def standable_mask(board: Board) -> np.ndarray:
    """Bool ``[y, x]``: squares a figure can stand on (on the board, not blocked terrain)."""
    mask = np.zeros((board.height, board.width), dtype=bool)
    for x, y in board.squares():
        if not board.is_blocked_terrain((x, y)):
            mask[y, x] = True
    return mask


def _sight_arrays(board: Board, doors: str = "drawn") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sight geometry as bool arrays: squares a ray may cross ``[y, x]`` (on the board, not blocked
    terrain), blocking V edges ``[y, x]`` (H, W+1) and blocking H edges (H+1, W).

    ``doors``: ``"drawn"`` (as the board says), ``"open"`` (every door open) or ``"shut"``.
    """
    w, h = board.width, board.height
    v = np.zeros((h, w + 1), dtype=bool)
    hh = np.zeros((h + 1, w), dtype=bool)
    door_edges = board.doors
    for edge in board.walls | frozenset(door_edges):
        door = door_edges.get(edge)
        if door is None:
            blocks = True
        elif doors == "drawn":
            blocks = door.state.blocks
        else:
            blocks = doors == "shut"
        if not blocks:
            continue
        if edge.axis == "V" and 0 <= edge.x <= w and 0 <= edge.y < h:
            v[edge.y, edge.x] = True
        elif edge.axis == "H" and 0 <= edge.x < w and 0 <= edge.y <= h:
            hh[edge.y, edge.x] = True
    return standable_mask(board), v, hh


def _links(cells: np.ndarray, v: np.ndarray, hh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of flat square indices a ray can pass between: orthogonal neighbours a figure could
    stand on across an edge that does not block sight. Every clear ray's squares are joined by
    these links: where it crosses an edge, the edge does not block; where it passes through a
    corner, one side of the corner is open (else the corner blocks), and an open side is a square
    linked to both squares the ray passes between (its two arms at the corner are the edges to
    them, and neither blocks)."""
    h, w = cells.shape
    flat = np.arange(h * w, dtype=np.int64).reshape(h, w)
    across = cells[:, :-1] & cells[:, 1:] & ~v[:, 1:w]  # (x, y) - (x+1, y)
    down = cells[:-1, :] & cells[1:, :] & ~hh[1:h, :]  # (x, y) - (x, y+1)
    return (np.concatenate((flat[:, :-1][across], flat[:-1, :][down])),
            np.concatenate((flat[:, 1:][across], flat[1:, :][down])))


def connected_components(n: int, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """Connected components of ``n`` nodes with links ``us[i] - vs[i]``: each node's label is the
    smallest node of its component (hooking and pointer jumping, all in numpy)."""
    parent = np.arange(n, dtype=np.int64)
    while True:
        pu, pv = parent[us], parent[vs]
        moved = pu != pv
        if not moved.any():
            return parent
        lo, hi = np.minimum(pu[moved], pv[moved]), np.maximum(pu[moved], pv[moved])
        np.minimum.at(parent, hi, lo)
        while True:
            jumped = parent[parent]
            if (jumped == parent).all():
                break
            parent = jumped


@dataclass(frozen=True)
class _Geometry:
    """A board's sight geometry as arrays, for cropping sub-boards and walking regions."""

    width: int
    height: int
    cells: np.ndarray  # bool [y, x]: a ray may cross it (on the board, not blocked terrain)
    on: np.ndarray  # bool [y, x]: on the board (not void)
    v: np.ndarray
    hh: np.ndarray

    @classmethod
    def of(cls, board: Board, doors: str = "drawn") -> _Geometry:
        cells, v, hh = _sight_arrays(board, doors)
        on = np.ones((board.height, board.width), dtype=bool)
        for x, y in board.void:
            on[y, x] = False
        return cls(board.width, board.height, cells, on, v, hh)

    def with_edge(self, edge: Edge, blocks: bool) -> _Geometry:
        """A copy with one edge made sight-blocking (``blocks``) or not."""
        v, hh = self.v.copy(), self.hh.copy()
        if edge.axis == "V" and 0 <= edge.x <= self.width and 0 <= edge.y < self.height:
            v[edge.y, edge.x] = blocks
        elif edge.axis == "H" and 0 <= edge.x < self.width and 0 <= edge.y <= self.height:
            hh[edge.y, edge.x] = blocks
        return _Geometry(self.width, self.height, self.cells, self.on, v, hh)

    def regions(self) -> np.ndarray:
        """Flat labels of the squares rays can join (:func:`_links`); -1 for squares a figure
        cannot stand on. A clear ray's two ends always share a label."""
        w, h = self.width, self.height
        labels = connected_components(w * h, *_links(self.cells, self.v, self.hh))
        return np.where(self.cells.reshape(-1), labels, -1)

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> Board:
        """The board of squares ``x0..x1`` × ``y0..y1`` with the same sight geometry (sight-blocking
        edges as walls, void, blocked terrain; no figures, no doors): a ray between two of its
        squares never leaves it, so every verdict there is the full board's."""
        on = self.on[y0 : y1 + 1, x0 : x1 + 1]
        blocked = ~self.cells[y0 : y1 + 1, x0 : x1 + 1] & on
        vy, vx = np.nonzero(self.v[y0 : y1 + 1, x0 : x1 + 2])
        hy, hx = np.nonzero(self.hh[y0 : y1 + 2, x0 : x1 + 1])
        walls = [Edge("V", int(x), int(y)) for x, y in zip(vx, vy, strict=True)]
        walls += [Edge("H", int(x), int(y)) for x, y in zip(hx, hy, strict=True)]
        void_y, void_x = np.nonzero(~on)
        blocked_y, blocked_x = np.nonzero(blocked)
        return Board(
            x1 - x0 + 1, y1 - y0 + 1, walls=walls,
            void=[(int(x), int(y)) for x, y in zip(void_x, void_y, strict=True)],
            blocked=[(int(x), int(y)) for x, y in zip(blocked_x, blocked_y, strict=True)],
        )

    def sub_bits(self, squares: np.ndarray, rule: Profile) -> np.ndarray:
        """Visibility among the flat squares ``squares`` (sorted, standable) under a centre-line
        ``rule``, cast on the smallest crop holding them: compact bits ``(k, ceil(k / 8))``, row
        ``i`` bit ``j`` for ``squares[i]`` seeing ``squares[j]`` (never itself), each origin casting
        only its upper half-plane (:func:`game.core.sight.pair_bits_among`)."""
        w = self.width
        xs, ys = squares % w, squares // w
        x0, y0, x1, y1 = int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())
        sub = self.crop(x0, y0, x1, y1)
        keep = np.zeros((sub.height, sub.width), dtype=bool)
        keep[ys - y0, xs - x0] = True
        return sight.pair_bits_among(sub, keep, rule)


_CHUNK = 2048  # rows of a bit table unpacked at once (2048 × 20,000 squares: 41 MB)


def _bit_rows(bits: np.ndarray, rows: np.ndarray | slice, k: int) -> np.ndarray:
    """Bool ``(len(rows), k)``: the rows ``rows`` of a compact bit table of ``k`` columns."""
    return np.unpackbits(bits[rows], axis=1, count=k).view(bool)


def _row_counts(bits: np.ndarray) -> np.ndarray:
    """How many bits each row of a bit table holds (int64)."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(bits).sum(axis=1, dtype=np.int64)
    return np.unpackbits(bits, axis=1).sum(axis=1, dtype=np.int64)


@dataclass(frozen=True)
class RegionTable:
    """Who sees whom, one block per region of the board (the squares rays can join): a square
    sees nothing outside its region, so the pairs between regions are not stored.

    ``blocks[g]`` is ``(squares, bits)``: the region's flat squares ``y * width + x`` (sorted)
    and its compact bit table, uint8 ``(k, ceil(k / 8))``: bit ``j`` of row ``i`` for square
    ``i`` of the region seeing square ``j`` (never itself; symmetric). ``region[n]`` is the block
    of square ``n`` (-1: none, it cannot hold a figure) and ``position[n]`` its index in that block.
    A map of sealed 10×10 rooms takes 1,250 bytes a room instead of the ``N × N`` of the whole
    board; one open region of 20,000 squares takes 50 MB.
    """

    width: int
    height: int
    region: np.ndarray
    position: np.ndarray
    blocks: tuple[tuple[np.ndarray, np.ndarray], ...]

    def dense(self) -> np.ndarray:
        """The whole ``N × N`` bool table (as :func:`visibility_table`)."""
        n = self.width * self.height
        table = np.zeros((n, n), dtype=bool)
        for squares, bits in self.blocks:
            for start in range(0, squares.size, _CHUNK):
                rows = slice(start, start + _CHUNK)
                table[np.ix_(squares[rows], squares)] = _bit_rows(bits, rows, squares.size)
        return table

    def seen_by(self) -> np.ndarray:
        """How many squares see each square, int ``[y, x]`` (the table is symmetric: row counts)."""
        counts = np.zeros(self.width * self.height, dtype=np.int64)
        for squares, bits in self.blocks:
            counts[squares] = _row_counts(bits)
        return counts.reshape(self.height, self.width)

    def among(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Bool ``(len(rows), len(columns))``: flat square ``rows[i]`` sees ``columns[j]``."""
        out = np.zeros((rows.size, columns.size), dtype=bool)
        row_region, column_region = self.region[rows], self.region[columns]
        for g in np.intersect1d(row_region[row_region >= 0], column_region):
            ri, ci = np.nonzero(row_region == g)[0], np.nonzero(column_region == g)[0]
            squares, bits = self.blocks[int(g)]
            seen = _bit_rows(bits, self.position[rows[ri]], squares.size)
            out[np.ix_(ri, ci)] = seen[:, self.position[columns[ci]]]
        return out

    def pairs(self, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """Bool per pair: flat square ``first[i]`` sees ``second[i]``."""
        out = np.zeros(first.size, dtype=bool)
        region = self.region[first]
        same = np.nonzero((region >= 0) & (region == self.region[second]))[0]
        for g in np.unique(region[same]):
            idx = same[region[same] == g]
            bits = self.blocks[int(g)][1]
            i, j = self.position[first[idx]], self.position[second[idx]]
            out[idx] = (bits[i, j >> 3] >> (7 - (j & 7)).astype(np.uint8)) & 1 == 1
        return out


def _centre_rule(board: Board, rule: Profile | None) -> Profile:
    """``rule`` (default: the grid's default), which must be decided by its centre line."""
    found = sight.default_rule(board.grid.kind) if rule is None else rule
    if not sight.by_centre_line(found, board.grid.kind):
        raise ValueError(f"rule {found.spec()} is not decided by the centre line: no regions")
    return found


def region_table(board: Board, rule: Profile | None = None) -> RegionTable:
    """The :class:`RegionTable` of a board under a rule decided by its centre line (default: the
    grid's default rule): geometry only (figures removed), standable squares only, never a
    square with itself.

    The board is split into the regions rays can join (squares linked across edges that do not
    block, :func:`_links`); each region's pairs are cast by the facade
    (:func:`game.core.sight.pair_bits_among`) on the smallest crop of the board holding it (a
    sealed 10×10 room costs a 10×10 board per origin, not the whole map). Only rays between
    standable squares are cast (never from or to blocked terrain or void), each origin's upper
    half-plane only (the rule is symmetric), one bit per pair, mirrored block by block.
    """
    rule = _centre_rule(board, rule)
    bare = geometry_board(board) if board.figures else board
    n = board.width * board.height
    geometry = _Geometry.of(bare)
    region = np.full(n, -1, dtype=np.int64)
    position = np.zeros(n, dtype=np.int64)
    blocks: list[tuple[np.ndarray, np.ndarray]] = []
    for squares in label_groups(geometry.regions()):
        bits = geometry.sub_bits(squares, rule)
        region[squares] = len(blocks)
        position[squares] = np.arange(squares.size)
        blocks.append((squares, bits))
    return RegionTable(board.width, board.height, region, position, tuple(blocks))


def visibility_table(board: Board, rule: Profile | None = None) -> np.ndarray:
    """Bool ``(N, N)`` with ``N = width * height``, index ``y * width + x``: who sees whom under
    ``rule`` (default: the grid's default rule).

    Geometry only (figures removed), restricted to standable squares, never a square with itself:
    :func:`region_table` written out whole (one ``N × N`` byte table, no transposed copy) for a
    rule decided by its centre line, else the rule's field of view from every standable square.

    >>> board = Board.from_ascii(["...", ".#.", "..."])
    >>> int(visibility_table(board)[0, 8]), int(visibility_table(board, sight.parse_rule("corners"))[0, 8])
    (0, 1)
    """
    if rule is None or sight.by_centre_line(rule, board.grid.kind):
        return region_table(board, rule).dense()
    bare = geometry_board(board) if board.figures else board
    w, n = board.width, board.width * board.height
    keep = standable_mask(board)
    flat = keep.reshape(-1)
    table = np.zeros((n, n), dtype=bool)
    for y, x in zip(*np.nonzero(keep), strict=True):
        table[y * w + x] = sight.field(bare, (int(x), int(y)), rule).reshape(-1) & flat
    np.fill_diagonal(table, False)
    return table


def coverage_table(board: Board, rule: Profile | None = None) -> Table:
    """The table :func:`coverage` and :func:`door_effects` read under ``rule``: a
    :class:`RegionTable` for a rule decided by its centre line, else :func:`visibility_table`."""
    if rule is None or sight.by_centre_line(rule, board.grid.kind):
        return region_table(board, rule)
    return visibility_table(board, rule)


Table: TypeAlias = np.ndarray | RegionTable  #: a dense :func:`visibility_table` or a :class:`RegionTable`


def _among(table: Table, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    return table.among(rows, columns) if isinstance(table, RegionTable) else table[np.ix_(rows, columns)]


def _pairs(table: Table, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return table.pairs(first, second) if isinstance(table, RegionTable) else table[first, second]


def label_groups(labels: np.ndarray) -> list[np.ndarray]:
    """The flat indices of each label ``>= 0``, each group sorted ascending, groups in the order
    of their labels."""
    order = np.argsort(labels, kind="stable")
    order = order[labels[order] >= 0]
    if not order.size:
        return []
    cuts = np.nonzero(np.diff(labels[order]))[0] + 1
    return np.split(order, cuts)


@dataclass(frozen=True)
class Coverage:
    """How many squares see each square (``seen_by[y, x]``), over the standable squares."""

    width: int
    height: int
    seen_by: np.ndarray  # int (H, W)
    standable: np.ndarray  # bool (H, W)

    def ranked(self) -> list[tuple[Square, int]]:
        """Every standable square with its count, most exposed first (ties: row, then column)."""
        ys, xs = np.nonzero(self.standable)
        rows = [((int(x), int(y)), int(self.seen_by[y, x])) for y, x in zip(ys, xs, strict=True)]
        rows.sort(key=lambda r: (-r[1], r[0][1], r[0][0]))
        return rows

    def most_exposed(self, n: int = 10) -> list[tuple[Square, int]]:
        """The ``n`` squares seen by the most squares."""
        return self.ranked()[:n]

    def most_hidden(self, n: int = 10) -> list[tuple[Square, int]]:
        """The ``n`` squares seen by the fewest squares (ties: row, then column)."""
        rows = self.ranked()
        rows.sort(key=lambda r: (r[1], r[0][1], r[0][0]))
        return rows[:n]

    @property
    def maximum(self) -> int:
        """The largest count (0 on a board with no standable squares)."""
        return int(self.seen_by.max()) if self.seen_by.size else 0


def coverage(board: Board, table: Table | None = None) -> Coverage:
    """The coverage of a board (pass ``table`` from :func:`region_table` or
    :func:`visibility_table` to reuse it)."""
    if table is None:
        table = region_table(board)
    if isinstance(table, RegionTable):
        counts = table.seen_by()
    else:
        counts = table.sum(axis=0).reshape(board.height, board.width).astype(np.int64)
    return Coverage(board.width, board.height, counts, standable_mask(board))


@dataclass(frozen=True)
class DoorEffect:
    """What opening one door changes: the pairs of squares that see each other only then."""

    door: Door
    pairs: int  # unordered pairs whose visibility differs between the door open and shut
    per_square: np.ndarray  # int (H, W): changed pairs each square takes part in
    examples: tuple[tuple[Square, Square], ...]  # a few of those pairs, for the report


def door_effects(
    board: Board, table: Table | None = None, *, examples: int = 5, method: str | None = None,
    rule: Profile | None = None,
) -> list[DoorEffect]:
    """For each door, the pairs whose visibility changes when it opens (other doors as drawn),
    under ``rule`` (default: the grid's default rule; a rule not decided by its centre line is
    :func:`door_effects_reference`).

    ``table`` is :func:`region_table` (or :func:`visibility_table`) of ``board`` as drawn, if
    already computed. Equal to
    :func:`door_effects_reference` (one all-pairs table per door, toggled), but only the rays that
    can cross a door are cast again. A ray whose verdict a door decides passes through one of the
    two squares beside it (it crosses the door, or passes through an end corner whose side on the
    door opens or shuts with it), and its squares are joined by links that do not block
    (:func:`_links`). So with every door shut the board falls into regions, each door joins two
    regions when it opens, and the pairs door ``D`` can change lie among the squares of the
    regions joined to ``D``'s squares by ``D`` and the doors drawn open: only those squares are
    cast again, ``D`` toggled, on the smallest crop of the board that holds them.

    When those squares cover most of the board for many doors (a cave where every door leads
    into the same open space), casting them door by door would cost more than two all-pairs
    tables, and the pairs are found the other way (``method="candidates"``: every door open
    against every door shut, then only the rays that touch each door). ``method`` forces one
    way (``"regions"`` or ``"candidates"``; tests use it), None picks the cheaper.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,1)"], doors={"V(1,0)": "closed"})
    >>> [(str(e.door.edge), e.pairs, e.examples[0]) for e in door_effects(b)]
    [('V(1,0)', 3, ((0, 0), (1, 0)))]
    """
    if rule is not None and not sight.by_centre_line(rule, board.grid.kind):
        return door_effects_reference(board, rule, table=table, examples=examples)
    rule = _centre_rule(board, rule)
    bare = geometry_board(board) if board.figures else board.copy()
    if table is None:
        table = region_table(bare, rule)
    doors = sorted(bare.doors.items())
    if not doors:
        return []
    drawn = _Geometry.of(bare)
    reach = _door_reach(bare, drawn, doors)
    if method is None:
        method = _cheaper_method(bare, reach)
    if method == "candidates":
        return _door_effects_by_candidates(bare, table, examples, rule)
    if method != "regions":
        raise ValueError(f"unknown door-effects method {method!r}")
    return _door_effects_by_regions(bare, table, drawn, reach, examples, rule)


def coverage_and_door_effects(
    board: Board, rule: Profile | None = None, *, examples: int = 5, method: str | None = None
) -> tuple[Coverage, list[DoorEffect]]:
    """``coverage(board, table)`` and ``door_effects(board, table)`` of the board's table under
    ``rule`` (the report's numbers), building no more tables than needed.

    When the doors' effects are found from every door open against every door shut (see
    :func:`door_effects`), the table as drawn is never cast: opening doors only removes blockers,
    so a pair seen with every door shut is seen as drawn and a pair hidden with every door open is
    hidden as drawn; a pair in between whose ray touches one door only is seen as drawn exactly
    when that door is drawn open, and the few pairs whose rays touch several doors are cast as
    drawn. The counts of :class:`Coverage` come from those verdicts: two tables instead of three.
    ``method`` forces the door effects' way, as in :func:`door_effects`.
    """
    if rule is not None and not sight.by_centre_line(rule, board.grid.kind):
        table = coverage_table(board, rule)
        return coverage(board, table), door_effects(board, table, rule=rule, examples=examples)
    rule = _centre_rule(board, rule)
    bare = geometry_board(board) if board.figures else board.copy()
    doors = sorted(bare.doors.items())
    if doors:
        drawn = _Geometry.of(bare)
        reach = _door_reach(bare, drawn, doors)
        if (method or _cheaper_method(bare, reach)) == "candidates":
            counts = np.zeros(board.width * board.height, dtype=np.int64)
            effects = _door_effects_by_candidates(bare, None, examples, rule, counts)
            seen_by = counts.reshape(board.height, board.width)
            return Coverage(board.width, board.height, seen_by, standable_mask(board)), effects
    table = region_table(bare, rule)
    if not doors:
        return coverage(board, table), []
    if method not in (None, "regions"):
        raise ValueError(f"unknown door-effects method {method!r}")
    return coverage(board, table), _door_effects_by_regions(bare, table, drawn, reach, examples, rule)


def _door_effects_by_regions(
    bare: Board, table: Table, drawn: _Geometry, reach: list[np.ndarray], examples: int, rule: Profile
) -> list[DoorEffect]:
    """:func:`door_effects` door by door: the squares each door's regions join (``reach``) cast
    again with the door toggled, compared with ``table`` (as drawn)."""
    w, h = bare.width, bare.height
    out: list[DoorEffect] = []
    for (edge, door), squares in zip(sorted(bare.doors.items()), reach, strict=True):
        changes = _Changes(w * h, examples)
        if squares.size > 1:
            toggled = drawn.with_edge(edge, not door.state.blocks).sub_bits(squares, rule)
            upper = np.arange(squares.size)
            for start in range(0, squares.size, _CHUNK):
                rows = slice(start, start + _CHUNK)
                changed = _bit_rows(toggled, rows, squares.size) ^ _among(table, squares[rows], squares)
                changed &= upper[None, :] > upper[rows, None]
                i, j = np.nonzero(changed)
                changes.add(squares[i + start], squares[j])
        out.append(changes.effect(door, w, h))
    return out


class _Changes:
    """The pairs one door changes, gathered chunk by chunk: their count, how many each square
    takes part in, and the first few in row-major order of (first, second)."""

    def __init__(self, n: int, examples: int) -> None:
        self.n, self.examples = n, examples
        self.count = 0
        self.per_square = np.zeros(n, dtype=np.int64)
        self.first_keys = np.zeros(0, dtype=np.int64)

    def add(self, first: np.ndarray, second: np.ndarray) -> None:
        """Count the unordered pairs ``first[i] < second[i]`` (flat squares)."""
        self.count += int(first.size)
        self.per_square += np.bincount(first, minlength=self.n) + np.bincount(second, minlength=self.n)
        keys = np.concatenate((self.first_keys, first.astype(np.int64) * self.n + second))
        self.first_keys = np.sort(keys)[: self.examples]

    def effect(self, door: Door, w: int, h: int) -> DoorEffect:
        """The :class:`DoorEffect` of what was added."""
        shown = tuple(
            ((int(a % w), int(a // w)), (int(b % w), int(b // w)))
            for a, b in zip(self.first_keys // self.n, self.first_keys % self.n, strict=True)
        )
        return DoorEffect(door, self.count, self.per_square.reshape(h, w), shown)


def _cheaper_method(bare: Board, reach: list[np.ndarray]) -> str:
    """``"regions"`` or ``"candidates"``, whichever costs less on this board: casts (origins × crop
    area) plus the passes over each result (squares²)."""
    per_door = sum(_cast_cost(squares, bare.width) + squares.size**2 for squares in reach)
    tables = 4 * (bare.width * bare.height) ** 2 + sum(
        _cast_cost(squares, bare.width) for doors_as in ("open", "shut")
        for squares in label_groups(_Geometry.of(bare, doors_as).regions())
    )
    return "regions" if per_door <= tables else "candidates"


def _cast_cost(squares: np.ndarray, width: int) -> int:
    """About what casting every ray among ``squares`` costs: origins × the area of their crop."""
    xs, ys = squares % width, squares // width
    side = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) + 1 if squares.size else 0
    return int(squares.size) * side * side


def _door_reach(bare: Board, drawn: _Geometry, doors: list[tuple[Edge, Door]]) -> list[np.ndarray]:
    """For each door, the sorted flat squares among which toggling it can change a verdict."""
    w, h = bare.width, bare.height
    shut = _Geometry.of(bare, "shut")
    regions = shut.regions()
    opened = _Geometry.of(bare, "open")
    us, vs = _links(opened.cells, opened.v, opened.hh)
    cross = regions[us] != regions[vs]  # links only some open door makes
    index = {edge: k for k, (edge, _door) in enumerate(doors)}
    joins: list[tuple[int, int, int]] = []
    for u, v in zip(us[cross].tolist(), vs[cross].tolist(), strict=True):  # across a door
        edge = Edge.between((u % w, u // w), (v % w, v // w))
        joins.append((int(regions[u]), int(regions[v]), index[edge]))
    drawn_open = {k for k, (_edge, door) in enumerate(doors) if not door.state.blocks}
    labels = np.unique(regions[regions >= 0])
    out = []
    for k, (edge, _door) in enumerate(doors):
        parent: dict[int, int] = {}
        for a, b, door_index in joins:
            if door_index == k or door_index in drawn_open:
                ra, rb = _find(parent, a), _find(parent, b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
        seeds = {_find(parent, int(regions[y * w + x])) for x, y in edge.squares()
                 if 0 <= x < w and 0 <= y < h and regions[y * w + x] >= 0}
        roots = np.array([_find(parent, int(r)) for r in labels], dtype=np.int64)
        wanted = labels[np.isin(roots, list(seeds))]
        out.append(np.nonzero(np.isin(regions, wanted))[0])
    return out


def _find(parent: dict[int, int], x: int) -> int:
    """The root of ``x`` in a union-find forest kept as a dict (absent: its own root)."""
    root = x
    while parent.get(root, root) != root:
        root = parent[root]
    while x != root:
        parent[x], x = root, parent[x]
    return root


def _door_effects_by_candidates(
    bare: Board, table: Table | None, examples: int, rule: Profile, counts: np.ndarray | None = None
) -> list[DoorEffect]:
    """:func:`door_effects` with two extra all-pairs tables in total: a pair can only change if it
    is visible with every door open and hidden with every door shut, and only through a door its
    ray touches (crossing the door's edge or passing through one of its end corners, where the
    door is one of the corner's arms). When that is the only door the ray touches, the pair
    changes; otherwise its row is recomputed exactly. (The fallback when the doors' regions
    cover most of the board: see :func:`door_effects`.)

    ``table`` None: the board's table as drawn is not at hand; the verdicts as drawn that are
    needed (pairs whose rays touch several doors) are cast, and ``counts`` (flat, when given)
    gains how many squares see each square as drawn (see :func:`coverage_and_door_effects`).
    """
    doors = sorted(bare.doors.items())
    w, h = bare.width, bare.height
    n = w * h
    every_open = region_table(_with_doors(bare, DoorState.OPEN), rule)
    every_shut = region_table(_with_doors(bare, DoorState.CLOSED), rule)
    drawn_open = np.array([not door.state.blocks for _edge, door in doors], dtype=bool)
    if counts is not None:
        counts += every_shut.seen_by().reshape(-1)
    changes = [_Changes(n, examples) for _ in doors]
    shared: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in doors]
    unsure: list[tuple[np.ndarray, np.ndarray]] = []  # touching several doors: cast as drawn
    for first, second in _candidates(every_open, every_shut):
        touches = np.array([_rays_touch(edge, first, second, w) for edge, _ in doors], dtype=bool)
        touches = touches.reshape(len(doors), first.size)
        how_many = touches.sum(axis=0)
        for k in range(len(doors)):
            alone = touches[k] & (how_many == 1)
            changes[k].add(first[alone], second[alone])
            several = touches[k] & (how_many > 1)
            if several.any():
                shared[k].append((first[several], second[several]))
        if counts is not None:  # one door touched: seen as drawn iff that door is drawn open
            seen = (how_many == 1) & drawn_open[np.argmax(touches, axis=0)]
            _count(counts, first[seen], second[seen])
        if table is None and (how_many > 1).any():
            unsure.append((first[how_many > 1], second[how_many > 1]))
    keys, verdicts = _drawn_verdicts(bare, rule, unsure, counts)
    for k, (edge, door) in enumerate(doors):
        if not shared[k]:
            continue
        a_all = np.concatenate([pair[0] for pair in shared[k]])
        b_all = np.concatenate([pair[1] for pair in shared[k]])
        bare.set_door(edge, DoorState.CLOSED if door.state is DoorState.OPEN else DoorState.OPEN)
        try:  # the rows of those origins, door toggled
            seen = _cast_pairs(bare, rule, a_all, b_all)
        finally:
            bare.set_door(edge, door.state)
        if table is None:
            as_drawn = verdicts[np.searchsorted(keys, a_all * n + b_all)]
        else:
            as_drawn = _pairs(table, a_all, b_all)
        differ = seen != as_drawn
        changes[k].add(a_all[differ], b_all[differ])
    return [c.effect(door, w, h) for c, (_edge, door) in zip(changes, doors, strict=True)]


def _count(counts: np.ndarray, first: np.ndarray, second: np.ndarray) -> None:
    """Add each pair ``first[i]`` - ``second[i]`` to the counts of both its squares."""
    if first.size:
        counts += np.bincount(first, minlength=counts.size) + np.bincount(second, minlength=counts.size)


def _drawn_verdicts(
    bare: Board, rule: Profile, pairs: list[tuple[np.ndarray, np.ndarray]], counts: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The verdicts as drawn of ``pairs`` (cast), keyed ``first * N + second`` sorted; each pair
    seen adds to ``counts``."""
    if not pairs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    first = np.concatenate([pair[0] for pair in pairs])
    second = np.concatenate([pair[1] for pair in pairs])
    verdicts = _cast_pairs(bare, rule, first, second)
    if counts is not None:
        _count(counts, first[verdicts], second[verdicts])
    keys = first.astype(np.int64) * (bare.width * bare.height) + second
    order = np.argsort(keys, kind="stable")
    return keys[order], verdicts[order]


def _cast_pairs(bare: Board, rule: Profile, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Bool per pair: flat square ``first[i]`` sees ``second[i]`` on ``bare`` as it is now, the
    rows of the distinct origins cast 256 at a time."""
    w = bare.width
    seen = np.zeros(first.size, dtype=bool)
    origins, which = np.unique(first, return_inverse=True)
    which = which.reshape(-1)
    for start in range(0, origins.size, 256):
        batch = origins[start : start + 256]
        rows = sight.pairs(bare, rule, origins=[(int(a % w), int(a // w)) for a in batch])
        mine = (which >= start) & (which < start + batch.size)
        seen[mine] = rows.reshape(batch.size, -1)[which[mine] - start, second[mine]]
    return seen


def _candidates(every_open: RegionTable, every_shut: RegionTable) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Chunks of the pairs ``first < second`` (flat squares) seen with every door open and hidden
    with every door shut, read from the two bit tables row chunk by row chunk."""
    for squares, bits in every_open.blocks:
        upper = np.arange(squares.size)
        for start in range(0, squares.size, _CHUNK):
            rows = slice(start, start + _CHUNK)
            seen = _bit_rows(bits, rows, squares.size) & ~every_shut.among(squares[rows], squares)
            seen &= upper[None, :] > upper[rows, None]
            i, j = np.nonzero(seen)
            if i.size:
                yield squares[i + start], squares[j]


def _with_doors(board: Board, state: DoorState) -> Board:
    """A copy of ``board`` with every door set to ``state``."""
    copy = board.copy()
    for edge in copy.doors:
        copy.set_door(edge, state)
    return copy


def _rays_touch(edge: Edge, first: np.ndarray, second: np.ndarray, width: int) -> np.ndarray:
    """For pairs of flat square indices: does the centre-to-centre ray touch ``edge`` (closed)?

    In doubled coordinates (centres odd, grid lines even) the ray can never run along a grid
    line, so a closed-segment intersection test with orientation signs is exact.
    """
    ax, ay = 2 * (first % width) + 1, 2 * (first // width) + 1
    bx, by = 2 * (second % width) + 1, 2 * (second // width) + 1
    (px, py), (qx, qy) = ((2 * x, 2 * y) for x, y in edge.ends())

    def orient(ox: object, oy: object, ux: object, uy: object, vx: object, vy: object) -> np.ndarray:
        return np.sign((ux - ox) * (vy - oy) - (uy - oy) * (vx - ox))  # type: ignore[operator]

    d1 = orient(ax, ay, bx, by, px, py)
    d2 = orient(ax, ay, bx, by, qx, qy)
    d3 = orient(px, py, qx, qy, ax, ay)
    d4 = orient(px, py, qx, qy, bx, by)
    return (d1 * d2 <= 0) & (d3 * d4 < 0)


#: how a bit table among the cells of a mask is computed: ``(board, keep, rule) -> bits``, by
#: default :func:`game.core.sight.pair_bits_among` in this process (the report may hand its rows
#: to worker processes: :class:`game.play.workers.Workers`)
Pairs: TypeAlias = Callable[[Board, np.ndarray, Profile], np.ndarray]


def standable_bits(board: Board, rule: Profile, pairs: Pairs | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(squares, bits)``: the flat standable squares of ``board`` (sorted) and the compact bit
    table among them under ``rule`` (uint8 ``(k, ceil(k / 8))``, row ``i`` bit ``j`` for
    ``squares[i]`` seeing ``squares[j]``, never itself), asked of the facade
    (:func:`game.core.sight.pair_bits_among`, a batch of origins at a time; ``pairs``: another
    way to get the same table): ``k² / 8`` bytes whatever the rule, the way a
    :class:`RegionTable` holds one region. Figures as on ``board`` (pass :func:`geometry_board`
    for geometry only)."""
    keep = standable_mask(board)
    return np.flatnonzero(keep), (pairs or sight.pair_bits_among)(board, keep, rule)


def column_counts(bits: np.ndarray, k: int) -> np.ndarray:
    """How many rows of a bit table of ``k`` columns hold each column (int64 ``k``): how many
    squares see each square, whether or not the rule is symmetric."""
    counts = np.zeros(k, dtype=np.int64)
    for start in range(0, bits.shape[0], _CHUNK):
        counts += _bit_rows(bits, slice(start, start + _CHUNK), k).sum(axis=0, dtype=np.int64)
    return counts


def bit_count(bits: np.ndarray) -> int:
    """How many bits a bit table holds."""
    return int(_row_counts(bits).sum()) if bits.size else 0


def _packed_transpose(bits: np.ndarray, k: int) -> np.ndarray:
    """The transpose of a square bit table of ``k`` rows and columns, still packed (``_CHUNK``
    rows unpacked at a time, a multiple of 8, so every chunk fills whole bytes of the result)."""
    out = np.zeros_like(bits)
    for start in range(0, k, _CHUNK):
        rows = _bit_rows(bits, slice(start, start + _CHUNK), k)
        out[:, start // 8 : (start + rows.shape[0] + 7) // 8] = np.packbits(rows.T, axis=1)
    return out


def _first_pairs(changed: np.ndarray, squares: np.ndarray, examples: int) -> list[tuple[int, int]]:
    """The first ``examples`` pairs ``i < j`` of a symmetric bit table in row-major order, as flat
    squares (rows read a chunk at a time, only until enough are found)."""
    k, found = squares.size, []
    for start in range(0, k, 256):
        rows = _bit_rows(changed, slice(start, start + 256), k)
        rows &= np.arange(k)[None, :] > np.arange(start, start + rows.shape[0])[:, None]
        for i, j in zip(*np.nonzero(rows), strict=True):
            found.append((int(squares[start + i]), int(squares[j])))
            if len(found) == examples:
                return found
    return found


def door_effects_by_bits(
    board: Board, rule: Profile, squares: np.ndarray, bits: np.ndarray, *, examples: int = 5, pairs: Pairs | None = None,
) -> list[DoorEffect]:
    """:func:`door_effects_reference` in bits, for any rule (the hex report's way): for each door,
    the bit table among ``squares`` cast again with that door toggled (:func:`standable_bits`),
    XORed with ``bits`` (the table as drawn) and with its transpose (a pair changes when either
    way does): memory two bit tables, not one ``N × N`` table per door. ``board`` without figures;
    ``pairs`` as :func:`standable_bits`."""
    bare = board.copy()
    w, h, k = board.width, board.height, squares.size
    out: list[DoorEffect] = []
    for edge, door in sorted(bare.doors.items()):
        bare.set_door(edge, DoorState.CLOSED if door.state is DoorState.OPEN else DoorState.OPEN)
        try:
            changed = bits ^ standable_bits(bare, rule, pairs)[1]
        finally:
            bare.set_door(edge, door.state)
        changed |= _packed_transpose(changed, k)
        per_square = np.zeros(w * h, dtype=np.int64)
        per_square[squares] = _row_counts(changed) if k else 0
        shown = tuple(((a % w, a // w), (b % w, b // w)) for a, b in _first_pairs(changed, squares, examples))
        out.append(DoorEffect(door, int(per_square.sum()) // 2, per_square.reshape(h, w), shown))
    return out


def door_effects_reference(
    board: Board, rule: Profile | None = None, *, table: Table | None = None, examples: int = 5
) -> list[DoorEffect]:
    """The plain way: one all-pairs table per door, toggled (the oracle for :func:`door_effects`,
    and the way for a rule not decided by its centre line). ``table``: the board's table as
    drawn, if already computed."""
    bare = geometry_board(board) if board.figures else board.copy()
    table = visibility_table(bare, rule) if table is None else table
    if isinstance(table, RegionTable):
        table = table.dense()
    w = board.width
    out: list[DoorEffect] = []
    for edge, door in sorted(bare.doors.items()):
        original = door.state
        bare.set_door(edge, DoorState.CLOSED if original is DoorState.OPEN else DoorState.OPEN)
        other = visibility_table(bare, rule)
        bare.set_door(edge, original)
        changed = table ^ other
        changed |= changed.T
        upper = np.triu(changed, 1)
        pairs = int(upper.sum())
        per_square = changed.sum(axis=0).reshape(board.height, w).astype(np.int64)
        idx = np.argwhere(upper)[:examples]
        shown = tuple(
            ((int(a % w), int(a // w)), (int(b % w), int(b // w))) for a, b in idx
        )
        out.append(DoorEffect(door, pairs, per_square, shown))
    return out
