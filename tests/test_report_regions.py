"""The fast coverage numbers against the slow ones: the region-cropped all-pairs table against the
reference rule and the uncropped table, and both fast door-effects methods against one all-pairs
table per door (``door_effects_reference``), exhaustively on tiny boards and on random ones."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board, Door, DoorState, Edge
from game.core.los import pair_table
from game.core.profiles import PRESETS as _PRESETS
from game.core.sight import reference
from game.designer import coverage as cov
from game.designer.coverage import (
    coverage,
    coverage_and_door_effects,
    door_effects,
    door_effects_reference,
    region_table,
    standable_mask,
    visibility_table,
)

ARCADIA = _PRESETS["arcadia"]


def rooms_board(seed: int, width: int, height: int) -> Board:
    """Random walls (dense enough to cut rooms), doors in every state, void and blocked terrain."""
    rng = random.Random(seed)
    walls = set()
    for _ in range(rng.randrange(0, width * height + 1)):
        axis = rng.choice("VH")
        x = rng.randrange(0, width + (axis == "V"))
        y = rng.randrange(0, height + (axis == "H"))
        walls.add(Edge(axis, x, y))
    doors = {}
    for i in range(rng.randrange(1, 7)):
        axis = rng.choice("VH")
        edge = Edge(axis, rng.randrange(0, width + (axis == "V")), rng.randrange(0, height + (axis == "H")))
        doors[edge] = Door(edge, rng.choice(list(DoorState)), i)
    blocked = [(rng.randrange(width), rng.randrange(height)) for _ in range(rng.randrange(0, 4))]
    void = [(rng.randrange(width), rng.randrange(height)) for _ in range(rng.randrange(0, 3))]
    return Board(width, height, walls=walls, doors=doors.values(), blocked=blocked, void=void,
                 windows=[Edge("H", 0, 1)] if height > 1 else ())


def walled_rooms(rooms: int, size: int, states: list[DoorState]) -> Board:
    """``rooms`` rooms of ``size``×``size`` in a row, a wall between each two with a door in it."""
    width = rooms * size
    walls = [Edge("V", k * size, y) for k in range(1, rooms) for y in range(size)]
    doors = [Door(Edge("V", k * size, size // 2), states[k - 1], k) for k in range(1, rooms)]
    return Board(width, size, walls=[w for w in walls if w not in {d.edge for d in doors}], doors=doors)


def plain_table(board: Board) -> np.ndarray:
    """The all-pairs table without regions or crops: every standable origin on the whole board."""
    w, n = board.width, board.width * board.height
    keep = standable_mask(board)
    ys, xs = np.nonzero(keep)
    table = np.zeros((n, n), dtype=bool)
    if xs.size:
        rows = pair_table(board, [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)], keep)
        table[ys * w + xs] = rows.reshape(xs.size, n)
    np.fill_diagonal(table, False)
    return table


def assert_same_effects(board: Board, method: str | None) -> None:
    slow = door_effects_reference(board)
    # the drawn board's table given both ways: as regions (the report's) and as one dense table
    for table in (None, region_table(board), visibility_table(board)):
        fast = door_effects(board, table, method=method)
        assert [e.door for e in fast] == [e.door for e in slow]
        for a, b in zip(fast, slow, strict=True):
            assert (a.pairs, a.examples) == (b.pairs, b.examples), a.door
            assert (a.per_square == b.per_square).all(), a.door


def assert_same_report(board: Board, method: str | None) -> None:
    """The report's numbers in one go (the table as drawn never cast by the candidates way)
    equal the coverage of the drawn table and one all-pairs table per door."""
    counts, effects = coverage_and_door_effects(board, method=method)
    assert (counts.seen_by == coverage(board, visibility_table(board)).seen_by).all()
    assert (counts.standable == standable_mask(board)).all()
    slow = door_effects_reference(board)
    assert [e.door for e in effects] == [e.door for e in slow]
    for a, b in zip(effects, slow, strict=True):
        assert (a.pairs, a.examples) == (b.pairs, b.examples), a.door
        assert (a.per_square == b.per_square).all(), a.door


@pytest.mark.parametrize("method", ["regions", "candidates", None])
@pytest.mark.parametrize("seed", range(30))
def test_the_report_numbers_in_one_go_equal_the_plain_ones(seed: int, method: str | None) -> None:
    size = random.Random(seed).choice([(2, 2), (3, 3), (6, 5), (8, 7)])
    assert_same_report(rooms_board(seed, *size), method)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(6, 6), (10, 7)]), st.sampled_from(["regions", "candidates"]))
def test_the_report_numbers_on_random_boards(seed: int, size: tuple[int, int], method: str) -> None:
    assert_same_report(rooms_board(seed, *size), method)


def test_the_report_numbers_of_doors_into_one_open_space() -> None:
    rng = random.Random(5)
    doors = {Edge(rng.choice("VH"), rng.randrange(1, 14), rng.randrange(1, 14)) for _ in range(12)}
    states = list(DoorState)
    board = Board(14, 14, walls=[Edge("V", 7, y) for y in range(3, 11)],
                  doors=[Door(edge, states[k % len(states)], k) for k, edge in enumerate(sorted(doors))])
    reach = cov._door_reach(board, cov._Geometry.of(board), sorted(board.doors.items()))
    assert cov._cheaper_method(board, reach) == "candidates"
    assert_same_report(board, None)
    with pytest.raises(ValueError, match="unknown door-effects method"):
        coverage_and_door_effects(walled_rooms(3, 4, [DoorState.OPEN] * 2), method="nope")


@pytest.mark.parametrize("seed", range(40))
def test_the_region_table_follows_the_rule_on_tiny_boards(seed: int) -> None:
    board = rooms_board(seed, *random.Random(seed).choice([(2, 2), (3, 3), (4, 3)]))
    table = visibility_table(board)
    w = board.width
    standable = [s for s in board.squares() if not board.is_blocked_terrain(s)]
    expected = np.zeros_like(table)
    for a, b in combinations(standable, 2):
        if reference(board, a, b, "arcadia").clear:
            expected[a[1] * w + a[0], b[1] * w + b[0]] = expected[b[1] * w + b[0], a[1] * w + a[0]] = True
    assert (table == expected).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(5, 4), (8, 6), (12, 9)]))
def test_the_region_table_equals_the_uncropped_table(seed: int, size: tuple[int, int]) -> None:
    board = rooms_board(seed, *size)
    plain = plain_table(board)
    regions = region_table(board)
    assert (regions.dense() == plain).all() and (visibility_table(board) == plain).all()
    assert (coverage(board, regions).seen_by == coverage(board, plain).seen_by).all()
    rng = np.random.default_rng(seed)
    n = board.width * board.height
    rows, columns = np.sort(rng.choice(n, n // 2, replace=False)), np.sort(rng.choice(n, n // 3, replace=False))
    assert (regions.among(rows, columns) == plain[np.ix_(rows, columns)]).all()
    first, second = rng.integers(0, n, 200), rng.integers(0, n, 200)
    assert (regions.pairs(first, second) == plain[first, second]).all()


@pytest.mark.parametrize("method", ["regions", "candidates", None])
@pytest.mark.parametrize("seed", range(30))
def test_both_door_effect_methods_equal_one_table_per_door(seed: int, method: str | None) -> None:
    size = random.Random(seed).choice([(2, 2), (3, 3), (6, 5), (8, 7)])
    assert_same_effects(rooms_board(seed, *size), method)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(6, 6), (10, 7)]), st.sampled_from(["regions", "candidates"]))
def test_door_effects_on_random_boards(seed: int, size: tuple[int, int], method: str) -> None:
    assert_same_effects(rooms_board(seed, *size), method)


def test_sealed_rooms_are_cast_on_their_own_and_a_door_reaches_only_its_rooms() -> None:
    # five 6x6 rooms in a row: open, closed, locked, open doors between them
    board = walled_rooms(5, 6, [DoorState.OPEN, DoorState.CLOSED, DoorState.LOCKED, DoorState.OPEN])
    geometry = cov._Geometry.of(board)
    groups = cov.label_groups(geometry.regions())
    # doors as drawn: rooms 1+2 joined by the open door, 3 alone, 4+5 joined
    assert sorted(g.size for g in groups) == [36, 72, 72]
    reach = cov._door_reach(board, geometry, sorted(board.doors.items()))
    # the open door 1|2 reaches rooms 1, 2 (door 2|3 is shut); the closed door 2|3 joins 1+2 to 3
    assert [r.size for r in reach] == [72, 108, 108, 72]
    assert_same_effects(board, "regions")
    assert (visibility_table(board) == plain_table(board)).all()


def test_the_cheaper_method_is_picked() -> None:
    # sealed rooms: door by door; doors into one open space: the two tables
    rooms = walled_rooms(6, 5, [DoorState.CLOSED] * 5)
    reach = cov._door_reach(rooms, cov._Geometry.of(rooms), sorted(rooms.doors.items()))
    assert [r.size for r in reach] == [50] * 5
    assert cov._cheaper_method(rooms, reach) == "regions"
    rng = random.Random(3)
    doors = {Edge("V", rng.randrange(1, 30), rng.randrange(30)) for _ in range(20)}
    open_space = Board(30, 30, doors=[Door(edge, DoorState.CLOSED, k) for k, edge in enumerate(doors)])
    reach = cov._door_reach(open_space, cov._Geometry.of(open_space), sorted(open_space.doors.items()))
    assert all(r.size == 900 for r in reach)  # every door sees the whole board
    assert cov._cheaper_method(open_space, reach) == "candidates"
    with pytest.raises(ValueError, match="unknown door-effects method"):
        door_effects(rooms, method="nope")
