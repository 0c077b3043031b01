"""Property tests on random boards up to 8×8: fast == reference, symmetry, monotonicity."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.los_strategies import SIDES, boards, viewers  # noqa: F401

from game.core.board import Board, DoorState, Edge
from game.core.los import all_pairs, line_of_sight, visible_from
from game.core.sight import reference


def on_board(board: Board) -> list[tuple[int, int]]:
    return list(board.squares())




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
