"""The designer's table among chosen squares (``los.pair_bits_among`` through
``sight.pair_bits_among``: upper half-plane casting, mirrored, compact bits) against the one
reference, exhaustively on 2×2 boards (every wall pattern, every blocked square pattern, every
choice of squares), and against ``all_pairs`` with hypothesis on random boards; the facade's
fallback for rules that are not decided by the centre line against their fields."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import los, sight
from game.core.board import Board, Edge

INNER = [Edge("V", 1, 0), Edge("V", 1, 1), Edge("H", 0, 1), Edge("H", 1, 1)]


def unpack(bits: np.ndarray, k: int) -> np.ndarray:
    return np.unpackbits(bits, axis=1, count=k).astype(bool)[:k]


def chosen_squares(board: Board, keep: np.ndarray) -> list[tuple[int, int]]:
    return [(x, y) for y in range(board.height) for x in range(board.width) if keep[y, x] and board.on_board((x, y))]


def test_every_2x2_pattern_and_choice_against_the_reference() -> None:
    for walls in itertools.chain.from_iterable(itertools.combinations(INNER, k) for k in range(5)):
        for blocked in itertools.chain.from_iterable(
            itertools.combinations([(0, 0), (1, 0), (0, 1), (1, 1)], k) for k in range(3)
        ):
            board = Board(2, 2, walls=walls, blocked=blocked)
            for mask in range(16):
                keep = np.array([[mask & 1, mask & 2], [mask & 4, mask & 8]], dtype=bool)
                squares = chosen_squares(board, keep)
                got = unpack(los.pair_bits_among(board, keep), len(squares))
                for (i, a), (j, b) in itertools.product(enumerate(squares), repeat=2):
                    want = a != b and sight.reference(board, a, b, "arcadia").clear
                    assert got[i, j] == want, (walls, blocked, a, b)


def random_board(seed: int, width: int, height: int) -> tuple[Board, np.ndarray]:
    rng = random.Random(seed)
    walls = set()
    for _ in range(rng.randrange(width * height + 1)):
        axis = rng.choice("VH")
        walls.add(Edge(axis, rng.randrange(width + (axis == "V")), rng.randrange(height + (axis == "H"))))
    squares = [(x, y) for y in range(height) for x in range(width)]
    void = rng.sample(squares, rng.randrange(min(3, len(squares))))
    blocked = rng.sample(squares, rng.randrange(min(4, len(squares))))
    board = Board(width, height, walls=walls, void=void, blocked=[s for s in blocked if s not in void])
    keep = np.array([[rng.random() < 0.7 for _ in range(width)] for _ in range(height)], dtype=bool)
    return board, keep


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 11), st.integers(1, 11))
def test_random_boards_against_all_pairs(seed: int, width: int, height: int) -> None:
    board, keep = random_board(seed, width, height)
    n = width * height
    on = np.array([[board.on_board((x, y)) for x in range(width)] for y in range(height)])
    idx = np.flatnonzero(keep & on)
    want = los.all_pairs(board).reshape(n, n)[np.ix_(idx, idx)]
    np.fill_diagonal(want, False)
    assert (unpack(sight.pair_bits_among(board, keep), idx.size) == want).all()


@pytest.mark.parametrize("rule", ["corners", "dnd5e", "any-point"])
@pytest.mark.parametrize("seed", range(4))
def test_the_fallback_for_other_rules_equals_their_fields(rule: str, seed: int) -> None:
    board, keep = random_board(seed, 5, 4)
    squares = chosen_squares(board, keep)
    got = unpack(sight.pair_bits_among(board, keep, rule), len(squares))
    for i, a in enumerate(squares):
        field = sight.field(board, a, rule)
        assert [bool(field[b[1], b[0]]) and a != b for b in squares] == got[i].tolist()
