"""Line of sight: the Arcadia Quest rule's vectors L1–L30 and C1–C5, explanations, JSON, caches."""

from __future__ import annotations

import json
from fractions import Fraction
from math import gcd

import numpy as np
import pytest

from game.core import los
from game.core.board import Board, DoorState, Edge, Figure
from game.core.errors import PlacementError
from game.core.los import (
    all_pairs,
    is_close,
    line_of_sight,
    ray_template,
    visible_from,
)
from game.core.sight import reference

FIVE = ["....."] * 5


def make_board(
    rows: list[str] = FIVE,
    walls: tuple[str, ...] = (),
    doors: dict[str, str] | None = None,
    blk: tuple[tuple[int, int], ...] = (),
    figures: tuple[tuple[str, tuple[int, int]], ...] = (),
) -> Board:
    """A board from ASCII rows; ``blk`` squares become blocked terrain, ``figures`` are (side, square)."""
    grid = [list(row) for row in rows]
    for x, y in blk:
        grid[y][x] = "#"
    board = Board.from_ascii(["".join(r) for r in grid], walls=walls, doors=doors)
    for i, (side, sq) in enumerate(figures, start=1):
        board.place_figure(Figure(i, f"{side}{i}", side, sq))
    return board


def two(side: str, sq: tuple[int, int]) -> tuple[tuple[str, tuple[int, int]], ...]:
    return ((side, sq), (side, sq))


# (id, board, from, to, viewer, expected LOS)
VECTORS = [
    ("L1", make_board(), (0, 2), (4, 2), None, True),
    ("L2", make_board(walls=("V(2,2)",)), (0, 2), (4, 2), None, False),
    ("L3-closed", make_board(doors={"V(2,2)": "closed"}), (0, 2), (4, 2), None, False),
    ("L3-locked", make_board(doors={"V(2,2)": "locked"}), (0, 2), (4, 2), None, False),
    ("L3-open", make_board(doors={"V(2,2)": "open"}), (0, 2), (4, 2), None, True),
    ("L3-open-door-over-wall", make_board(walls=("V(2,2)",), doors={"V(2,2)": "open"}), (0, 2), (4, 2), None, True),
    ("L4-2-enemies", make_board(figures=two("blue", (2, 2))), (0, 2), (4, 2), "red", False),
    ("L4-1-enemy", make_board(figures=(("blue", (2, 2)),)), (0, 2), (4, 2), "red", True),
    ("L4-ally-enemy", make_board(figures=(("red", (2, 2)), ("blue", (2, 2)))), (0, 2), (4, 2), "red", True),
    ("L4-2-allies", make_board(figures=two("red", (2, 2))), (0, 2), (4, 2), "red", True),
    ("L4-no-viewer", make_board(figures=two("red", (2, 2))), (0, 2), (4, 2), None, False),
    ("L5", make_board(figures=two("blue", (4, 2))), (0, 2), (4, 2), "red", True),
    ("L5-origin", make_board(figures=two("blue", (0, 2))), (0, 2), (4, 2), "red", True),
    ("L6", make_board(blk=((2, 1),)), (1, 1), (2, 2), None, True),
    ("L7", make_board(blk=((2, 1), (1, 2))), (1, 1), (2, 2), None, False),
    ("L7-figures", make_board(figures=two("blue", (2, 1)) + two("blue", (1, 2))), (1, 1), (2, 2), "red", False),
    ("L8", make_board(walls=("V(2,1)",)), (1, 1), (2, 2), None, True),
    ("L9", make_board(walls=("V(2,1)", "H(1,2)")), (1, 1), (2, 2), None, False),
    ("L9-doors", make_board(doors={"V(2,1)": "closed", "H(1,2)": "locked"}), (1, 1), (2, 2), None, False),
    ("L9-one-open", make_board(walls=("V(2,1)",), doors={"H(1,2)": "open"}), (1, 1), (2, 2), None, True),
    ("L10", make_board(walls=("H(1,2)", "H(2,2)")), (1, 1), (2, 2), None, False),
    ("L11", make_board(walls=("H(2,2)",)), (1, 1), (2, 2), None, True),
    ("L12", make_board(blk=((2, 1),), walls=("V(2,2)",)), (1, 1), (2, 2), None, False),
    ("L13", make_board(blk=((2, 1),), walls=("H(2,2)",)), (1, 1), (2, 2), None, True),
    ("L14", make_board(blk=((1, 1),)), (0, 0), (1, 3), None, True),
    ("L15", make_board(blk=((1, 1), (0, 2))), (0, 0), (1, 3), None, False),
    ("L16", make_board(blk=((0, 1),)), (0, 0), (1, 3), None, False),
    ("L17", make_board(walls=("V(1,0)",)), (0, 0), (2, 1), None, False),
    ("L18", make_board(walls=("H(1,1)",)), (0, 0), (2, 1), None, False),
    ("L19-wall", make_board(walls=("H(0,1)",)), (0, 0), (2, 1), None, True),
    ("L19-blk", make_board(blk=((0, 1),)), (0, 0), (2, 1), None, True),
    ("L20", make_board(blk=((1, 1),)), (0, 0), (2, 1), None, False),
    ("L21", make_board(rows=[".....", ".~...", ".....", ".....", "....."]), (0, 0), (2, 1), None, False),
    ("L22", make_board(rows=[".~.", "...", "..."]), (0, 0), (1, 1), None, True),
    ("L23", make_board(rows=[".~.", "~..", "..."]), (0, 0), (1, 1), None, False),
    ("L24", make_board(rows=["."] * 10), (0, 0), (0, 9), None, True),
    ("L25", make_board(blk=((1, 1),)), (0, 0), (2, 2), None, False),
    ("L26", make_board(blk=((1, 0), (0, 1))), (0, 0), (2, 2), None, False),
    ("L27", make_board(blk=((1, 0), (2, 1))), (0, 0), (2, 2), None, True),
    ("L28", make_board(blk=((1, 0), (1, 2))), (0, 0), (2, 2), None, True),
    ("L29", make_board(figures=(("red", (2, 2)), ("blue", (2, 2)))), (2, 2), (2, 2), "red", True),
    ("L30-2-monsters", make_board(figures=two("monsters", (2, 2))), (0, 2), (4, 2), "monsters", True),
    ("L30-2-heroes", make_board(figures=two("red", (2, 2))), (0, 2), (4, 2), "monsters", False),
]


@pytest.mark.parametrize(("name", "board", "a", "b", "viewer", "expected"), VECTORS, ids=[v[0] for v in VECTORS])
def test_rules_vectors(name: str, board: Board, a, b, viewer, expected: bool) -> None:
    ref = reference(board, a, b, "arcadia", viewer=viewer)
    fast = line_of_sight(board, a, b, viewer)
    assert ref.clear is expected, ref.explain()
    assert fast.clear is ref.clear and fast.crossings == ref.crossings
    assert bool(visible_from(board, a, viewer)[b[1], b[0]]) is expected
    assert bool(all_pairs(board, viewer)[a[1], a[0], b[1], b[0]]) is expected
    # geometry and figure blocking do not depend on the direction, for one viewer
    assert reference(board, b, a, "arcadia", viewer=viewer).clear is expected


def test_window_blocks_movement_not_sight() -> None:
    board = Board(5, 1, windows=[Edge("V", 2, 0)])
    result = line_of_sight(board, (0, 0), (4, 0))
    assert result.clear
    assert result.crossings[2].reason == "window on V(2,0) (windows do not block sight)"
    assert not is_close(board, (1, 0), (2, 0))


CLOSE = [
    ("C1", (), None, (2, 2), (2, 2), True),
    ("C2", (), None, (2, 2), (3, 2), True),
    ("C3-wall", ("V(3,2)",), None, (2, 2), (3, 2), False),
    ("C3-closed", (), {"V(3,2)": "closed"}, (2, 2), (3, 2), False),
    ("C3-locked", (), {"V(3,2)": "locked"}, (2, 2), (3, 2), False),
    ("C3-open", (), {"V(3,2)": "open"}, (2, 2), (3, 2), True),
    ("C4", (), None, (2, 2), (3, 3), False),
    ("C5", (), None, (2, 2), (4, 2), False),
    ("C2-vertical", (), None, (2, 2), (2, 1), True),
    ("C3-vertical-wall", ("H(2,2)",), None, (2, 2), (2, 1), False),
]


@pytest.mark.parametrize(("name", "walls", "doors", "a", "b", "expected"), CLOSE, ids=[c[0] for c in CLOSE])
def test_close_vectors(name: str, walls, doors, a, b, expected: bool) -> None:
    board = make_board(walls=walls, doors=doors)
    assert is_close(board, a, b) is expected
    assert is_close(board, b, a) is expected


def test_close_off_board() -> None:
    board = make_board(rows=["..~"])
    assert not is_close(board, (1, 0), (2, 0))
    assert not is_close(board, (2, 0), (2, 0))


# --- crossings and explanations -----------------------------------------------------------


def test_crossings_in_order_with_exact_points() -> None:
    board = make_board(walls=("H(1,1)",))
    result = line_of_sight(board, (0, 0), (2, 1))
    assert [(c.kind, str(c.edge) if c.edge else c.square) for c in result.crossings] == [
        ("edge", "V(1,0)"),
        ("square", (1, 0)),
        ("edge", "H(1,1)"),
        ("square", (1, 1)),
        ("edge", "V(2,1)"),
    ]
    assert result.crossings[0].point == (Fraction(1), Fraction(3, 4))
    assert result.crossings[2].point == (Fraction(3, 2), Fraction(1))
    assert [c.t for c in result.crossings if c.kind == "edge"] == [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]
    assert result.first_blocker is result.crossings[2]
    assert result.blockers == (result.crossings[2],)
    assert all(isinstance(v, Fraction) for c in result.crossings for v in (c.t, *c.point))


def test_explain_edge_blocked() -> None:
    result = line_of_sight(make_board(walls=("V(2,2)",)), (0, 2), (4, 2))
    assert result.explain() == "Blocked: wall V(2,2) between (1,2) and (2,2)."


def test_explain_door_states() -> None:
    closed = line_of_sight(make_board(doors={"V(2,2)": "locked"}), (0, 2), (4, 2))
    assert closed.explain() == "Blocked: locked door on V(2,2) between (1,2) and (2,2)."
    opened = line_of_sight(make_board(doors={"V(2,2)": "open"}), (0, 2), (4, 2))
    assert opened.crossings[2].explain() == "Crosses the open door on V(2,2) between (1,2) and (2,2)."


def test_explain_square_figures_and_more_blockers() -> None:
    board = make_board(figures=two("blue", (2, 2)), walls=("V(4,2)",))
    result = line_of_sight(board, (0, 2), (4, 2), viewer="red")
    assert result.explain() == (
        "Blocked: square (2,2) holds 2 enemies of red (blue1 and blue2). (1 more blocker further on.)"
    )


def test_explain_corner_both_sides() -> None:
    result = line_of_sight(make_board(blk=((2, 1),), walls=("V(2,2)",)), (1, 1), (2, 2))
    assert result.explain() == (
        "Blocked at the corner (2,2) between (1,1) and (2,2): blocked terrain at (2,1) on the "
        "north-east side, wall V(2,2) on the south-west side."
    )
    corner = result.crossings[0]
    assert corner.kind == "corner" and corner.corner == (2, 2)
    assert [(s.name, s.square, s.closed) for s in corner.sides] == [
        ("north-east", (2, 1), True),
        ("south-west", (1, 2), True),
    ]
    assert corner.sides[0].arms == (Edge("V", 2, 1), Edge("H", 2, 2))


def test_explain_corner_skim_and_open() -> None:
    result = line_of_sight(make_board(walls=("V(2,1)",)), (1, 1), (2, 2))
    assert result.explain() == "Clear: the ray skims the corner (2,2) where only the north-east side is closed."
    assert result.crossings[0].explain() == (
        "Skims the corner (2,2) between (1,1) and (2,2): only the north-east side is closed "
        "(wall V(2,1)), so it does not block."
    )
    open_corner = line_of_sight(make_board(), (2, 1), (1, 2)).crossings[0]
    assert [s.name for s in open_corner.sides] == ["north-west", "south-east"]
    assert open_corner.explain() == "Passes through the corner (2,2) between (2,1) and (1,2); both sides are open."


def test_explain_off_board_corner_side() -> None:
    result = line_of_sight(make_board(rows=[".~.", "~..", "..."]), (0, 0), (1, 1))
    assert "off the board at (1,0) on the north-east side" in result.explain()


def test_json_shape() -> None:
    board = make_board(walls=("V(2,1)", "H(1,2)"), figures=two("blue", (1, 1)))
    result = line_of_sight(board, (1, 1), (2, 2), viewer="red")
    data = json.loads(json.dumps(result.as_json()))
    assert data["clear"] is False
    assert data["from"] == [1, 1] and data["to"] == [2, 2] and data["viewer"] == "red"
    assert data["blockers"] == data["crossings"]
    corner = data["crossings"][0]
    assert corner["kind"] == "corner" and corner["corner"] == [2, 2] and corner["point"] == ["2", "2"]
    assert corner["t"] == "1/2" and corner["between"] == [[1, 1], [2, 2]]
    assert corner["sides"][0] == {
        "name": "north-east",
        "square": [2, 1],
        "arms": ["V(2,1)", "H(2,2)"],
        "closed": True,
        "why": "wall V(2,1)",
    }
    assert data["explanation"].startswith("Blocked at the corner (2,2)")


def test_off_board_endpoint_raises() -> None:
    board = make_board(rows=["..~"])
    for fn in (line_of_sight, reference):
        with pytest.raises(PlacementError, match="void"):
            fn(board, (0, 0), (2, 0))
        with pytest.raises(PlacementError, match="outside"):
            fn(board, (0, 0), (5, 0))


# --- templates, masks and caches --------------------------------------------------------------


def test_template_corners_lengths_and_order() -> None:
    for dx in range(-7, 8):
        for dy in range(-7, 8):
            steps = ray_template(dx, dy)
            corners = sum(1 for s in steps if s[0] == "C")
            g = gcd(dx, dy)
            odd = g and (dx // g) % 2 and (dy // g) % 2
            assert corners == (g if odd else 0), (dx, dy)
            assert len(steps) == abs(dx) + abs(dy) - corners
            if steps:
                assert steps[-1][6:] == (dx, dy)
                assert [s[3] for s in steps] == sorted(s[3] for s in steps)


def test_visible_from_void_and_origin() -> None:
    board = make_board(rows=["..~", ".#.", "..."])
    mask = visible_from(board, (0, 0))
    assert mask.dtype == bool and mask.shape == (3, 3)
    assert not mask[0, 2]  # void: never visible
    assert mask[0, 0]  # the origin square itself
    assert mask[1, 1]  # blocked terrain can be seen (it only blocks what lies behind it)
    assert not mask[2, 2]
    assert not visible_from(board, (2, 0)).any()  # a void origin sees nothing
    assert not visible_from(board, (7, 7)).any()
    with pytest.raises(ValueError):
        mask[0, 0] = False  # cached masks are read-only


def test_masks_follow_board_changes() -> None:
    board = make_board(doors={"V(2,2)": "closed"})
    assert not visible_from(board, (0, 2))[2, 4]
    board.set_door(Edge("V", 2, 2), DoorState.OPEN)
    assert visible_from(board, (0, 2))[2, 4]
    board.place_figure(Figure(1, "a", "blue", (2, 2)))
    board.place_figure(Figure(2, "b", "blue", (2, 2)))
    assert not visible_from(board, (0, 2), "red")[2, 4]
    assert visible_from(board, (0, 2), "blue")[2, 4]
    board.move_figure(2, (3, 3))
    assert visible_from(board, (0, 2), "red")[2, 4]
    board.set_wall(Edge("V", 4, 2))
    assert not visible_from(board, (0, 2), "red")[2, 4]
    los.clear_caches()
    assert not visible_from(board, (0, 2), "red")[2, 4]


def test_all_pairs_shape_symmetry_and_rows() -> None:
    board = make_board(rows=["....~", "..#..", ".....", "~...."], walls=("V(2,0)", "H(3,2)"))
    table = all_pairs(board)
    assert table.shape == (4, 5, 4, 5)
    flat = table.reshape(20, 20)
    assert np.array_equal(flat, flat.T)
    for y in range(4):
        for x in range(5):
            assert np.array_equal(table[y, x], visible_from(board, (x, y)))


def test_one_square_board() -> None:
    board = Board(1, 1)
    assert visible_from(board, (0, 0)).tolist() == [[True]]
    assert all_pairs(board).tolist() == [[[[True]]]]
    assert line_of_sight(board, (0, 0), (0, 0)).clear


def test_pair_bits_and_pair_table_equal_all_pairs() -> None:
    import random

    from game.core.los import pair_bits, pair_table

    rng = random.Random(7)
    rows = ["".join(rng.choice("....#~") for _ in range(9)) for _ in range(7)]
    walls = [f"V({rng.randint(1, 8)},{rng.randrange(7)})" for _ in range(12)]
    board = Board.from_ascii(rows, walls=walls)
    board.place_figure(Figure(1, "a", "red", next(iter(board.squares()))))
    for viewer in (None, "red", "blue"):
        full = all_pairs(board, viewer).reshape(63, 63)
        bits = np.unpackbits(pair_bits(board, viewer), axis=1, count=63).astype(bool)
        assert np.array_equal(full, bits)
        origins = list(board.squares())[::3]
        targets = np.zeros((7, 9), dtype=bool)
        targets[::2] = True
        part = pair_table(board, origins, targets, viewer)
        for (x, y), row in zip(origins, part, strict=True):
            assert np.array_equal(row, all_pairs(board, viewer)[y, x] & targets)
        # origins = the targets' on-board squares, row-major: the symmetric (half-plane) path
        among = [(x, y) for y in range(7) for x in range(9) if targets[y, x] and board.on_board((x, y))]
        part = pair_table(board, among, targets, viewer)
        for (x, y), row in zip(among, part, strict=True):
            assert np.array_equal(row, all_pairs(board, viewer)[y, x] & targets)
