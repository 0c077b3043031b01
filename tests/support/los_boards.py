"""Helpers of test_los_exhaustive.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

from game.core.board import Board, Edge, Figure
from game.core.sight import reference


def interior_edges(w: int, h: int) -> list[Edge]:
    return [Edge("V", x, y) for x in range(1, w) for y in range(h)] + [
        Edge("H", x, y) for x in range(w) for y in range(1, h)
    ]


def squares(w: int, h: int) -> list[tuple[int, int]]:
    return [(x, y) for y in range(h) for x in range(w)]


# cell states on 2×2: open, blocked terrain, void, two enemies of red, an ally and an enemy
CELL_STATES = ("open", "blocked", "void", "enemies", "mixed")


def build(w: int, h: int, walls, doors=(), cells=None) -> Board:
    cells = cells or {}
    board = Board(
        w,
        h,
        walls=walls,
        doors=doors,
        void=[sq for sq, s in cells.items() if s == "void"],
        blocked=[sq for sq, s in cells.items() if s == "blocked"],
    )
    fid = 0
    for sq, state in cells.items():
        sides = {"enemies": ("blue", "blue"), "mixed": ("red", "blue")}.get(state, ())
        for side in sides:
            fid += 1
            board.place_figure(Figure(fid, f"f{fid}", side, sq))
    return board


class LocalReference:
    """The reference verdict of a ray, memoised by everything the ray can look at on a board."""

    def __init__(self, w: int, h: int) -> None:
        empty = Board(w, h)
        self.local: dict[tuple, tuple[tuple[Edge, ...], tuple[tuple[int, int], ...]]] = {}
        self.memo: dict[tuple, bool] = {}
        self.calls = 0
        for a in squares(w, h):
            for b in squares(w, h):
                edges: set[Edge] = set()
                cells: set[tuple[int, int]] = set()
                for c in reference(empty, a, b, "arcadia").crossings:
                    if c.edge is not None:
                        edges.add(c.edge)
                    if c.square is not None:
                        cells.add(c.square)
                    for side in c.sides or ():
                        edges.update(side.arms)
                        cells.add(side.square)
                self.local[(a, b)] = (tuple(sorted(edges)), tuple(sorted(cells)))

    def clear(self, board: Board, a, b, viewer: str | None) -> bool:
        edges, cells = self.local[(a, b)]
        key = (
            a,
            b,
            tuple(board.edge_blocks_sight(e) for e in edges),
            tuple(board.square_block_reason(c, viewer) is not None for c in cells),
        )
        found = self.memo.get(key)
        if found is None:
            self.calls += 1
            found = self.memo[key] = reference(board, a, b, "arcadia", viewer=viewer).clear
        return found
