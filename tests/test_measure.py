"""Distances and movement reach (game/core/measure.py) and ``sightline reach``.

The breadth-first reach is checked against a slow reference (relax every step until nothing
changes) on hypothesis-made boards with walls, doors, terrain and figures.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.core.board import Board, Door, DoorState, Edge, Figure, Square
from game.core.measure import can_step, orthogonal, reach, reach_rows, ring, with_diagonals

MAPS = Path(__file__).resolve().parent.parent / "maps"


def reference_reach(board: Board, start: Square, steps: int, side: str | None, mover: int | None) -> dict[Square, int]:
    """Bellman-Ford style: relax every square over and over until nothing improves."""
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for sq, dist in list(best.items()):
            if dist >= steps:
                continue
            x, y = sq
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if can_step(board, sq, nxt, side, mover) and best.get(nxt, 10**9) > dist + 1:
                    best[nxt] = dist + 1
                    changed = True
    return best


@st.composite
def boards(draw: st.DrawFn) -> tuple[Board, Square]:
    width, height = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    cells = [(x, y) for y in range(height) for x in range(width)]
    blocked = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    start = draw(st.sampled_from([c for c in cells if c not in blocked] or [(0, 0)]))
    blocked.discard(start)
    edges = [Edge("V", x, y) for y in range(height) for x in range(1, width)]
    edges += [Edge("H", x, y) for y in range(1, height) for x in range(width)]
    walls = draw(st.sets(st.sampled_from(edges), max_size=len(edges) // 3))
    doors = draw(st.dictionaries(st.sampled_from(edges), st.sampled_from(list(DoorState)), max_size=3))
    figures = [
        Figure(i + 1, f"F{i}", draw(st.sampled_from(["red", "blue"])), sq)
        for i, sq in enumerate(draw(st.sets(st.sampled_from(cells), max_size=4)))
        if sq not in blocked
    ]
    board = Board(
        width, height, blocked=blocked, walls=[w for w in walls if w not in doors],
        doors=[Door(e, s) for e, s in doors.items()], figures=figures,
    )
    return board, start


@settings(max_examples=150, deadline=None)
@given(boards(), st.integers(0, 12), st.sampled_from([None, "red", "blue"]))
def test_reach_agrees_with_the_slow_reference(case: tuple[Board, Square], steps: int, side: str | None) -> None:
    board, start = case
    assert reach(board, start, steps, side) == reference_reach(board, start, steps, side, None)


def test_walls_closed_doors_terrain_and_enemies_stop_a_move_friends_do_not() -> None:
    board = Board.from_ascii(["....", "..#.", "...."], walls=["V(1,0)"], doors={"H(0,1)": "closed"},
                             figures=[Figure(1, "Foe", "blue", (1, 2)), Figure(2, "Pal", "red", (2, 0))])
    assert reach(board, (0, 0), 5, "red") == {(0, 0): 0}  # the wall V(1,0) and the closed door H(0,1)
    board.set_door(Edge.parse("H(0,1)"), DoorState.OPEN)
    found = reach(board, (0, 0), 5, "red")
    assert found[(0, 1)] == 1 and found[(1, 0)] == 3  # round the wall's end
    assert (1, 2) not in found and (2, 1) not in found  # an enemy; blocked terrain
    board2 = Board.from_ascii(["...."], figures=[Figure(2, "Pal", "red", (1, 0))])
    assert reach(board2, (0, 0), 3, "red")[(3, 0)] == 3  # through a friend
    assert (3, 0) not in reach(board2, (0, 0), 3, None)  # no side: every figure stops it
    assert reach(board2, (1, 0), 1, "red", mover=2)[(2, 0)] == 1  # the mover never blocks itself
    with pytest.raises(ValueError):
        reach(board2, (0, 0), -1)


def test_distances_and_rings() -> None:
    assert orthogonal((0, 0), (2, 3)) == 5 and with_diagonals((0, 0), (2, 3)) == 3
    board = Board(9, 9)
    assert len(ring(board, (4, 4), 2)) == 8 and len(ring(board, (4, 4), 2, diagonal=True)) == 16
    assert all(orthogonal((4, 4), sq) == 3 for sq in ring(board, (4, 4), 3))


def test_sightline_reach_json_matches_the_module(capsys: pytest.CaptureFixture[str]) -> None:
    from game.tiled import load_map

    assert main(["reach", str(MAPS / "demo.tmx"), "4,3", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    board = load_map(MAPS / "demo.tmx").board
    ember = board.figures_at((4, 3))[0]
    expected = reach(board, (4, 3), 4, ember.side, ember.id)
    assert {(x, y): n for x, y, n in doc["reach"]} == expected
    assert doc["from"] == [4, 3] and doc["steps"] == 4 and doc["side"] == ember.side


def test_sightline_reach_text_map(capsys: pytest.CaptureFixture[str]) -> None:
    from game.tiled import load_map

    assert main(["reach", str(MAPS / "demo.tmx"), "4,3", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    board = load_map(MAPS / "demo.tmx").board
    ember = board.figures_at((4, 3))[0]
    rows = reach_rows(board, reach(board, (4, 3), 2, ember.side, ember.id), (4, 3))
    assert lines[1:1 + board.height] == rows and "@" in rows[3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["4,3", "-2"], "N must be 0 or more steps, not -2"),
        (["4,3", "two"], "N must be a whole number of steps, not 'two'"),
        (["99,3", "2"], "square (99,3) is outside the 15x15 board"),
        (["4,3", "2", "--side", "nobody"], "--viewer 'nobody' is not a side"),
    ],
)
def test_sightline_reach_bad_input_is_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["reach", str(MAPS / "demo.tmx"), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
