"""The walking regions as one array pass (``regions.movement_labels``, what ``walk_regions`` and the
window's region findings read) against a plain flood fill written straight from the movement
rule, exhaustively on tiny boards and with hypothesis on random ones; and the window's region
outline (``play.findings.finding_region``) found by a lookup, not a walk per finding."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board, Door, DoorState, Edge, Square
from game.designer.regions import movement_labels, walk_regions


def flood_regions(board: Board, doors_open: bool) -> list[list[Square]]:
    """The slow obvious walk: from every square, across every edge a figure may cross."""
    door_squares = board.door_squares

    def stops(sq: Square) -> bool:
        if board.is_impassable(sq):
            return True
        if sq in door_squares:
            return door_squares[sq].blocks and not doors_open
        return board.is_blocked_terrain(sq)

    seen: set[Square] = set()
    regions = []
    for start in board.squares():
        if start in seen or stops(start):
            continue
        region, stack = [start], [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in seen or not board.on_board(nxt) or stops(nxt):
                    continue
                edge = Edge.between((x, y), nxt)
                passable = (edge in board.doors and doors_open) or not board.edge_blocks_movement(edge)
                if passable:
                    seen.add(nxt)
                    region.append(nxt)
                    stack.append(nxt)
        region.sort(key=lambda s: (s[1], s[0]))
        regions.append(region)
    regions.sort(key=lambda r: (-len(r), r[0][1], r[0][0]))
    return regions


def random_board(seed: int, width: int, height: int) -> Board:
    """Walls, windows, doors in every state, door squares, void, blocked and impassable squares."""
    rng = random.Random(seed)

    def edge() -> Edge:
        axis = rng.choice("VH")
        return Edge(axis, rng.randrange(width + (axis == "V")), rng.randrange(height + (axis == "H")))

    def square() -> Square:
        return (rng.randrange(width), rng.randrange(height))

    doors = {}
    for i in range(rng.randrange(0, 5)):
        e = edge()
        doors[e] = Door(e, rng.choice(list(DoorState)), i)
    return Board(
        width, height, walls={edge() for _ in range(rng.randrange(width * height + 1))},
        windows={edge() for _ in range(rng.randrange(3))}, doors=doors.values(),
        blocked=[square() for _ in range(rng.randrange(3))], void=[square() for _ in range(rng.randrange(3))],
        impassable=[square() for _ in range(rng.randrange(3))],
        door_squares={square(): rng.choice(list(DoorState)) for _ in range(rng.randrange(3))},
    )


def assert_same(board: Board) -> None:
    for doors_open in (True, False):
        slow = flood_regions(board, doors_open)
        assert walk_regions(board, doors_open=doors_open) == slow
        labels = movement_labels(board, doors_open=doors_open)
        w = board.width
        for region in slow:
            flat = [y * w + x for x, y in region]
            assert set(labels[flat].tolist()) == {min(flat)}
        walked = {y * w + x for region in slow for x, y in region}
        assert all(labels[i] == -1 for i in range(board.width * board.height) if i not in walked)


@pytest.mark.parametrize("state", list(DoorState))
def test_every_wall_pattern_of_a_2x2_board_with_a_door(state: DoorState) -> None:
    edges = [Edge("V", 1, 0), Edge("V", 1, 1), Edge("H", 0, 1), Edge("H", 1, 1)]
    for door_edge in edges:
        rest = [e for e in edges if e != door_edge]
        for walls in itertools.chain.from_iterable(itertools.combinations(rest, k) for k in range(4)):
            board = Board(2, 2, walls=walls, doors=[Door(door_edge, state, 1)])
            assert_same(board)
            assert_same(Board(2, 2, walls=walls, windows=[door_edge]))


@pytest.mark.parametrize("seed", range(60))
def test_random_small_boards(seed: int) -> None:
    assert_same(random_board(seed, *random.Random(seed).choice([(1, 1), (2, 3), (4, 4), (6, 5)])))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 12), st.integers(1, 12))
def test_random_boards(seed: int, width: int, height: int) -> None:
    assert_same(random_board(seed, width, height))


def test_labels_are_minus_one_off_the_walkable_squares() -> None:
    board = Board.from_ascii([".#~", "..."])
    labels = movement_labels(board, doors_open=False)
    assert labels.tolist() == [0, -1, -1, 0, 0, 0]
    assert np.array_equal(labels, movement_labels(board, doors_open=True))
