"""The octant engine's arrays follow a board's edits (game/core/los_tables.py): after figures are
placed, moved, removed or changed, the cached blocking squares and blocker arrays are *patched*
at the squares whose figures changed (``Board.figure_squares_since``), and equal what a fresh
build of the same board gives — for every viewer, through random edit sequences that mix in walls
and doors (geometry: rebuilt) and long runs (past what the board remembers: rebuilt)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import los_tables
from game.core.board import Board, DoorState, Edge, Figure
from game.core.fov import BlockerSet, corner_terms

VIEWERS = (None, "red", "blue")


def _fresh(board: Board, viewer: str | None) -> tuple[np.ndarray, BlockerSet]:
    """The blocking squares and blocker arrays of ``board`` built from nothing."""
    cache = los_tables._BoardCache()
    cache.refresh(board)
    cells = los_tables._cell_blocks(board, cache, viewer)
    return cells, BlockerSet.from_arrays(cells, *los_tables._edge_arrays(board, cache))


def _same(a: BlockerSet, b: BlockerSet) -> bool:
    pairs = [(a.cells, b.cells), (a.vertical, b.vertical), (a.horizontal, b.horizontal),
             (a.corner_pos, b.corner_pos), (a.corner_neg, b.corner_neg)]
    return all(np.array_equal(p[0], q[0]) and np.array_equal(p[1], q[1]) for p, q in pairs)


def _edit(board: Board, rng: random.Random, kind: str) -> None:
    """One edit of ``kind`` (a figure's move, place, remove, change; a wall; a door)."""
    w, h = board.width, board.height
    ids = sorted(board.figures)
    square = (rng.randrange(w), rng.randrange(h))
    if kind == "move" and ids:
        fid = rng.choice(ids)
        if board.can_enter(fid, square) is None:
            board.move_figure(fid, square)
    elif kind == "place":
        fid = max(ids, default=0) + 1
        if board.can_enter(fid, square) is None:
            board.place_figure(Figure(fid, f"F{fid}", rng.choice(["red", "blue"]), square))
    elif kind == "remove" and ids:
        board.remove_figure(rng.choice(ids))
    elif kind == "change" and ids:
        board.update_figure(rng.choice(ids), wounds=rng.randint(0, 3))
    elif kind == "wall":
        board.set_wall(Edge("V", rng.randint(1, max(1, w - 1)), rng.randrange(h)), rng.random() < 0.7)
    elif kind == "door" and board.doors:
        board.set_door(rng.choice(sorted(board.doors, key=str)), rng.choice(list(DoorState)))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    size=st.sampled_from([(1, 1), (4, 3), (7, 9), (12, 12)]),
    capacity=st.sampled_from([1, 2]),
    edits=st.lists(st.sampled_from(["move"] * 6 + ["place", "remove", "change", "wall", "door", "burst"]),
                   min_size=1, max_size=25),
)
def test_patched_arrays_are_the_ones_built_anew(
    seed: int, size: tuple[int, int], capacity: int, edits: list[str]
) -> None:
    rng = random.Random(seed)
    w, h = size
    cells = [(x, y) for x in range(w) for y in range(h)]
    board = Board(w, h, walls={Edge("H", rng.randrange(w), rng.randint(1, h)) for _ in range(w)},
                  blocked=rng.sample(cells, len(cells) // 8), capacity=capacity)
    free = [c for c in cells if c not in board.blocked]
    for i, square in enumerate(rng.sample(free, min(len(free), 6))):
        board.place_figure(Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), square))
    for step, kind in enumerate(edits):
        if kind == "burst":  # more updates than the board remembers: built anew, still right
            for _ in range(40):
                _edit(board, rng, "move")
        else:
            _edit(board, rng, kind)
        cache = los_tables._cache(board)
        for viewer in VIEWERS:
            got_cells = los_tables._cells(board, cache, viewer)
            got = los_tables._blockers(board, cache, viewer)
            want_cells, want = _fresh(board, viewer)
            assert np.array_equal(got_cells, want_cells), (step, kind, viewer)
            assert _same(got, want), (step, kind, viewer)


def test_a_move_patches_and_does_not_rebuild() -> None:
    """After a move the blocking squares are patched at once and the blocker arrays when asked for
    (the edges' arrays are the same objects), and a fresh build of the moved board agrees; the
    corner terms are those of the edges."""
    board = Board(6, 5, walls={Edge("V", 2, 1), Edge("H", 3, 2)}, capacity=1)
    board.place_figure(Figure(1, "A", "red", (1, 1)))
    board.place_figure(Figure(2, "B", "blue", (4, 3)))
    cache = los_tables._cache(board)
    before = los_tables._blockers(board, cache, "red")
    board.move_figure(2, (2, 2))
    cache = los_tables._cache(board)
    assert "red" in cache.cells and cache.spare["red"] is before  # kept, patched when asked for
    after = los_tables._blockers(board, cache, "red")
    assert after.vertical is before.vertical and "red" not in cache.spare  # the edges' arrays shared
    assert _same(after, _fresh(board, "red")[1])
    assert (2, 2) in {(int(x), int(y)) for y, x in zip(*after.cells, strict=True)}
    terms = corner_terms(*los_tables._edge_arrays(board, cache))
    assert all(np.array_equal(a, b) for a, b in zip(terms, los_tables._corner_terms(board, cache), strict=True))
