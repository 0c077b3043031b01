"""Property tests on random boards up to 8×8: fast == reference, symmetry, monotonicity."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.los import all_pairs, line_of_sight, visible_from
from game.core.sight import reference

SIDES = ("red", "blue", "monsters")


@st.composite
def boards(draw: st.DrawFn, figures: bool = True, max_size: int = 8) -> Board:
    w = draw(st.integers(1, max_size))
    h = draw(st.integers(1, max_size))
    edges = [Edge("V", x, y) for x in range(w + 1) for y in range(h)]
    edges += [Edge("H", x, y) for x in range(w) for y in range(h + 1)]
    density = draw(st.sampled_from((0.05, 0.15, 0.3)))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(edges), max_size=len(edges)))
    walls = [e for e, f in zip(edges, flags, strict=True) if f < density]
    door_edges = draw(st.lists(st.sampled_from(edges), max_size=4, unique=True))
    doors = [Door(e, draw(st.sampled_from(list(DoorState)))) for e in door_edges]
    cells = [(x, y) for y in range(h) for x in range(w)]
    void = draw(st.lists(st.sampled_from(cells), max_size=max(1, len(cells) // 6), unique=True))
    blocked = draw(st.lists(st.sampled_from(cells), max_size=max(1, len(cells) // 6), unique=True))
    board = Board(w, h, void=void, blocked=[c for c in blocked if c not in void], walls=walls, doors=doors)
    if figures:
        spots = [c for c in cells if board.can_enter(None, c) is None]
        n = draw(st.integers(0, min(12, 2 * len(spots))))
        for i in range(n):
            sq = draw(st.sampled_from(spots))
            if board.can_enter(None, sq) is None:
                board.place_figure(Figure(i + 1, f"f{i + 1}", draw(st.sampled_from(SIDES)), sq))
    return board


def on_board(board: Board) -> list[tuple[int, int]]:
    return list(board.squares())


viewers = st.sampled_from((None, *SIDES))


@settings(max_examples=150)
@given(boards(), viewers, st.data())
def test_fast_equals_reference(board: Board, viewer: str | None, data: st.DataObject) -> None:
    squares = on_board(board)
    if not squares:
        return
    a = data.draw(st.sampled_from(squares))
    mask = visible_from(board, a, viewer)
    for b in squares:
        ref = reference(board, a, b, "arcadia", viewer=viewer)
        assert ref.clear is not any(c.blocks for c in ref.crossings)  # the Fraction walk is the preset
        fast = line_of_sight(board, a, b, viewer)
        assert fast.clear is ref.clear and fast.crossings == ref.crossings
        assert bool(mask[b[1], b[0]]) is ref.clear, (a, b, ref.explain())
    off = np.array([[not board.on_board((x, y)) for x in range(board.width)] for y in range(board.height)])
    assert not mask[off].any()


@settings(max_examples=40)
@given(boards(), viewers)
def test_all_pairs_equals_visible_from_and_is_symmetric(board: Board, viewer: str | None) -> None:
    table = all_pairs(board, viewer)
    n = board.width * board.height
    flat = table.reshape(n, n)
    assert np.array_equal(flat, flat.T)
    for x, y in on_board(board):
        assert np.array_equal(table[y, x], visible_from(board, (x, y), viewer))


@settings(max_examples=60)
@given(boards(figures=False), st.data())
def test_symmetric_without_figures(board: Board, data: st.DataObject) -> None:
    squares = on_board(board)
    if not squares:
        return
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    forward = reference(board, a, b, "arcadia")
    backward = reference(board, b, a, "arcadia")
    assert forward.clear is backward.clear
    assert len(forward.crossings) == len(backward.crossings)
    fast = line_of_sight(board, b, a)
    assert fast.clear is backward.clear and fast.crossings == backward.crossings


@settings(max_examples=60)
@given(boards(), viewers, st.data())
def test_adding_a_wall_never_clears(board: Board, viewer: str | None, data: st.DataObject) -> None:
    squares = on_board(board)
    if not squares:
        return
    a = data.draw(st.sampled_from(squares))
    before = visible_from(board, a, viewer).copy()
    axis = data.draw(st.sampled_from(("V", "H")))
    if axis == "V":
        edge = Edge("V", data.draw(st.integers(0, board.width)), data.draw(st.integers(0, board.height - 1)))
    else:
        edge = Edge("H", data.draw(st.integers(0, board.width - 1)), data.draw(st.integers(0, board.height)))
    board.set_wall(edge)
    after = visible_from(board, a, viewer)
    assert not (after & ~before).any()
    b = data.draw(st.sampled_from(squares))
    assert bool(after[b[1], b[0]]) is reference(board, a, b, "arcadia", viewer=viewer).clear


@settings(max_examples=60)
@given(boards(), viewers, st.data())
def test_opening_a_door_never_blocks(board: Board, viewer: str | None, data: st.DataObject) -> None:
    squares = on_board(board)
    if not squares or not board.doors:
        return
    a = data.draw(st.sampled_from(squares))
    before = visible_from(board, a, viewer).copy()
    edge = data.draw(st.sampled_from(sorted(board.doors)))
    board.set_door(edge, DoorState.OPEN)
    after = visible_from(board, a, viewer)
    assert not (before & ~after).any()
