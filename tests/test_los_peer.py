"""The benchmark's peer (benchmarks/peer_walk.py, a plain-Python integer walk) agrees with the
engine, so the speed ratios in benchmarks/run.py compare answers to the same question."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.los import all_pairs, visible_from

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from peer_walk import peer_fov  # noqa: E402


def random_board(rng: random.Random, biggest: int) -> Board:
    """Walls (rim included), doors in every state, void and blocked squares."""
    w, h = rng.randint(3, biggest), rng.randint(3, biggest)
    walls = {Edge("V", rng.randint(0, w), rng.randrange(h)) for _ in range(w * h // 4)}
    walls |= {Edge("H", rng.randrange(w), rng.randint(0, h)) for _ in range(w * h // 4)}
    doors = [Door(e, rng.choice(list(DoorState))) for e in sorted(walls)[:3]]
    cells = [(x, y) for x in range(w) for y in range(h)]
    return Board(w, h, walls=walls, doors=doors, void=rng.sample(cells, 3), blocked=rng.sample(cells, 3))


def test_peer_walk_agrees_with_the_engine() -> None:
    rng = random.Random(5)
    for _ in range(12):
        board = random_board(rng, 14)
        cells = [(x, y) for x in range(board.width) for y in range(board.height)]
        for i, sq in enumerate(rng.sample(cells, 6)):
            if board.can_enter(None, sq) is None:
                board.place_figure(Figure(i, f"f{i}", rng.choice(("red", "blue")), sq))
        for origin in rng.sample(list(board.squares()), 4):
            for viewer in (None, "red"):
                assert np.array_equal(np.array(peer_fov(board, origin, viewer)), visible_from(board, origin, viewer))


def test_the_compiled_peer_walks_the_same_rule() -> None:
    pytest.importorskip("numba")
    from peer_walk import numba_fov, numba_pairs

    rng = random.Random(11)
    for _ in range(8):
        board = random_board(rng, 12)
        w, h = board.width, board.height
        for origin in rng.sample(list(board.squares()), 4):
            assert np.array_equal(numba_fov(board, origin), visible_from(board, origin))
        keep = np.array([[(x + y) % 3 != 0 for x in range(w)] for y in range(h)])
        on = np.array([[board.on_board((x, y)) for x in range(w)] for y in range(h)])
        idx = np.flatnonzero(keep & on)
        want = all_pairs(board).reshape(w * h, w * h)[np.ix_(idx, idx)]
        np.fill_diagonal(want, False)
        assert np.array_equal(numba_pairs(board, keep), want)
