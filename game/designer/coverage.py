"""Line-of-sight coverage numbers for map reports and diffs (pure: numpy arrays in and out).

Coverage is about the map's *geometry*: walls, windows, doors, void and blocked terrain. Figures
move during play, so they are taken off a copy of the board before the tables are built (no
figure ever blocks a ray here), and every pair is symmetric.

Only squares a figure can stand on (on the board, not blocked terrain) are counted, as viewers and
as targets. A square does not count itself.

>>> from game.core.board import Board
>>> board = Board.from_ascii(["...", "..."], walls=["V(1,0)"])
>>> cov = coverage(board)
>>> cov.seen_by.tolist()
[[2, 4, 4], [5, 5, 4]]
>>> cov.most_hidden(1), cov.most_exposed(1)
([((0, 0), 2)], [((0, 1), 5)])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.core.board import Board, Door, DoorState, Edge, Square


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


def visibility_table(board: Board) -> np.ndarray:
    """Bool ``(N, N)`` with ``N = width * height``, index ``y * width + x``: who sees whom.

    Geometry only (figures removed), restricted to standable squares, never a square with itself.
    Built from :func:`game.core.los.pair_table`: only rays between standable squares are cast
    (rays from and to blocked terrain or void are never computed), written straight into the one
    ``N × N`` byte table (no 4-D copy, no transposed copy).
    """
    from game.core.los import pair_table

    bare = geometry_board(board) if board.figures else board
    w, n = board.width, board.width * board.height
    keep = standable_mask(board)
    ys, xs = np.nonzero(keep)
    origins = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
    table = np.zeros((n, n), dtype=bool)
    if origins:
        table[ys * w + xs] = pair_table(bare, origins, keep).reshape(len(origins), n)
    np.fill_diagonal(table, False)
    return table


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


def coverage(board: Board, table: np.ndarray | None = None) -> Coverage:
    """The coverage of a board (pass ``table`` from :func:`visibility_table` to reuse it)."""
    if table is None:
        table = visibility_table(board)
    counts = table.sum(axis=0).reshape(board.height, board.width).astype(np.int64)
    return Coverage(board.width, board.height, counts, standable_mask(board))


@dataclass(frozen=True)
class DoorEffect:
    """What opening one door changes: the pairs of squares that see each other only then."""

    door: Door
    pairs: int  # unordered pairs whose visibility differs between the door open and shut
    per_square: np.ndarray  # int (H, W): changed pairs each square takes part in
    examples: tuple[tuple[Square, Square], ...]  # a few of those pairs, for the report


def door_effects(board: Board, table: np.ndarray | None = None, *, examples: int = 5) -> list[DoorEffect]:
    """For each door, the pairs whose visibility changes when it opens (other doors as drawn).

    ``table`` is :func:`visibility_table` of ``board`` as drawn, if already computed. Equal to
    :func:`door_effects_reference`, but with two extra all-pairs tables in total instead of one
    per door: a pair can only change if it is visible with every door open and hidden with every
    door shut, and only through a door its ray touches (crossing the door's edge or passing
    through one of its end corners, where the door is one of the corner's arms). When that is
    the only door the ray touches, the pair changes; otherwise its row is recomputed exactly.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,1)"], doors={"V(1,0)": "closed"})
    >>> [(str(e.door.edge), e.pairs, e.examples[0]) for e in door_effects(b)]
    [('V(1,0)', 3, ((0, 0), (1, 0)))]
    """
    from game.core.los import visible_from

    bare = geometry_board(board) if board.figures else board.copy()
    if table is None:
        table = visibility_table(bare)
    doors = sorted(bare.doors.items())
    if not doors:
        return []
    w, h = board.width, board.height
    every_open = _with_doors(bare, DoorState.OPEN)
    every_shut = _with_doors(bare, DoorState.CLOSED)
    candidates = np.triu(visibility_table(every_open) & ~visibility_table(every_shut), 1)
    first, second = np.nonzero(candidates)
    touches = np.array([_rays_touch(edge, first, second, w) for edge, _ in doors], dtype=bool)
    touches = touches.reshape(len(doors), first.size)
    how_many = touches.sum(axis=0)
    out: list[DoorEffect] = []
    for k, (edge, door) in enumerate(doors):
        changed = touches[k] & (how_many == 1)
        shared = np.nonzero(touches[k] & (how_many > 1))[0]
        if shared.size:
            bare.set_door(edge, DoorState.CLOSED if door.state is DoorState.OPEN else DoorState.OPEN)
            try:
                rows: dict[int, np.ndarray] = {}
                for idx in shared:
                    a, b = int(first[idx]), int(second[idx])
                    if a not in rows:
                        rows[a] = visible_from(bare, (a % w, a // w)).reshape(-1)
                    changed[idx] = bool(rows[a][b]) != bool(table[a, b])
            finally:
                bare.set_door(edge, door.state)
        a_idx, b_idx = first[changed], second[changed]
        per_square = (np.bincount(a_idx, minlength=w * h) + np.bincount(b_idx, minlength=w * h))
        shown = tuple(
            ((int(a % w), int(a // w)), (int(b % w), int(b // w)))
            for a, b in zip(a_idx[:examples], b_idx[:examples], strict=True)
        )
        out.append(DoorEffect(door, int(changed.sum()), per_square.reshape(h, w).astype(np.int64), shown))
    return out


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


def door_effects_reference(board: Board, *, examples: int = 5) -> list[DoorEffect]:
    """The plain way: one all-pairs table per door, toggled (the oracle for :func:`door_effects`)."""
    bare = geometry_board(board) if board.figures else board.copy()
    table = visibility_table(bare)
    w = board.width
    out: list[DoorEffect] = []
    for edge, door in sorted(bare.doors.items()):
        original = door.state
        bare.set_door(edge, DoorState.CLOSED if original is DoorState.OPEN else DoorState.OPEN)
        other = visibility_table(bare)
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
