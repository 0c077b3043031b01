"""Undo/redo stacks and the action log (game/play/history.py): pure, no window."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core.board import Board, Edge, Figure
from game.play.history import LOG_LIMIT, History


def test_undo_then_redo_walks_back_and_forth() -> None:
    history: History[int] = History()
    history.record("one", 0, 1)
    history.record("two", 1, 2)
    assert history.undo().before == 1
    assert history.undo().before == 0
    assert history.undo() is None
    assert history.redo().after == 1
    assert history.redo().after == 2
    assert history.redo() is None


def test_recording_after_undo_drops_the_redo_branch() -> None:
    history: History[str] = History()
    history.record("a", "s0", "s1")
    history.undo()
    assert history.can_redo
    history.record("b", "s0", "s2")
    assert not history.can_redo
    assert [a.label for a in history.undo_stack] == ["b"]


def test_limit_drops_the_oldest_actions_but_the_log_keeps_them() -> None:
    history: History[int] = History(limit=3)
    for n in range(5):
        history.record(f"step {n}", n, n + 1)
    assert [a.label for a in history.undo_stack] == ["step 2", "step 3", "step 4"]
    assert history.log == [f"step {n}" for n in range(5)]


def test_log_records_undo_redo_and_notes_and_is_capped() -> None:
    history: History[int] = History()
    history.record("move", 0, 1)
    history.undo()
    history.redo()
    history.note("map reloaded")
    assert history.log == ["move", "undid: move", "redid: move", "map reloaded"]
    assert history.serial == 4
    for n in range(LOG_LIMIT + 10):
        history.note(str(n))
    assert len(history.log) == LOG_LIMIT and history.log[-1] == str(LOG_LIMIT + 9)
    assert history.serial == 4 + LOG_LIMIT + 10


def test_clear_forgets_actions_not_the_log() -> None:
    history: History[int] = History(log=["earlier"])
    history.record("x", 0, 1)
    history.clear()
    assert not history.can_undo and not history.can_redo
    assert history.log == ["earlier", "x"]


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        History(limit=0)


def test_board_states_round_trip_through_undo() -> None:
    board = Board.from_ascii(["....", "...."], doors={"V(2,0)": "closed"})
    board.place_figure(Figure(1, "Rook", "red", (0, 0)))
    history = History()
    before = board.state()
    board.move_figure(1, (3, 1))
    board.cycle_door(Edge.parse("V(2,0)"))
    history.record("move and door", before, board.state())
    board.restore(history.undo().before)
    assert board.figure(1).square == (0, 0)
    assert board.doors[Edge.parse("V(2,0)")].state.value == "closed"
    board.restore(history.redo().after)
    assert board.figure(1).square == (3, 1)
    assert board.doors[Edge.parse("V(2,0)")].state.value == "open"


@given(st.lists(st.sampled_from(["do", "undo", "redo"]), max_size=40))
def test_undo_redo_behave_like_a_cursor_over_states(ops: list[str]) -> None:
    """A model: the states form a list and a cursor; undo/redo move the cursor."""
    history: History[int] = History()
    states, cursor, current, counter = [0], 0, 0, 0
    for op in ops:
        if op == "do":
            counter += 1
            history.record(f"to {counter}", current, counter)
            states = states[: cursor + 1] + [counter]
            cursor += 1
            current = counter
        elif op == "undo":
            action = history.undo()
            if cursor == 0:
                assert action is None
            else:
                cursor -= 1
                assert action is not None and action.before == states[cursor]
                current = action.before
        else:
            action = history.redo()
            if cursor == len(states) - 1:
                assert action is None
            else:
                cursor += 1
                assert action is not None and action.after == states[cursor]
                current = action.after
        assert current == states[cursor]
