"""Every wall / door / blocked-square pattern on tiny boards: fast engines vs the one reference.

The reference is :func:`game.core.sight.reference` under ``arcadia``: its verdict is the generic
candidate-line engine's with every grid point (the one exact reference of every rule), its
crossings the Fraction walk straight from the rule; every check here also asserts that the two
agree (the Arcadia walk *is* the reference's ``arcadia`` preset).

2×2 boards are enumerated completely (walls × square patterns, doors) and every ray is checked
against the reference. On 3×3 boards all 4,096 subsets of the 12 interior edges and all 2^9
patterns of blocked (terrain, void, two enemies) squares are enumerated, plus random mixed boards; to keep that fast, the reference verdict of a ray is memoised by the part
of the board it can look at (the edges, corner arms and squares it meets on the empty board —
the reference reads nothing else), so it runs once per distinct local situation.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from support.los_boards import CELL_STATES, LocalReference, build, interior_edges, squares  # noqa: F401

from game.core import sight
from game.core.board import Board, Door, DoorState
from game.core.los import (
    all_pairs,
    line_of_sight,
    verdict,
    visible_from,
)
from game.core.sight import reference


def check_board_fully(board: Board, viewer: str | None) -> None:
    """Reference vs line_of_sight vs visible_from vs all_pairs for every pair of a small board."""
    on = [sq for sq in squares(board.width, board.height) if board.on_board(sq)]
    table = all_pairs(board, viewer)
    for a in on:
        mask = visible_from(board, a, viewer)
        assert np.array_equal(mask, table[a[1], a[0]])
        for b in on:
            ref = reference(board, a, b, "arcadia", viewer=viewer)
            assert ref.clear is not any(c.blocks for c in ref.crossings)  # the Fraction walk is the preset
            assert line_of_sight(board, a, b, viewer).crossings == ref.crossings
            assert bool(mask[b[1], b[0]]) is ref.clear, (a, b, ref.explain())
            check_hover_path(board, a, b, viewer, ref)
    for sq in squares(board.width, board.height):
        if not board.on_board(sq):
            assert not table[sq[1], sq[0]].any() and not table[..., sq[1], sq[0]].any()


def check_hover_path(board: Board, a, b, viewer: str | None, ref) -> None:
    """The integer verdict and the quick ray agree with the reference: verdict, first blocker,
    sentence, drawing steps (points compared to 1e-9: they are floats for drawing only)."""
    fast = verdict(board, a, b, viewer)
    assert fast.clear is ref.clear
    first = ref.first_blocker
    if first is None:
        assert fast.kind is None and fast.step == -1
    else:
        assert (fast.kind, fast.edge, fast.corner, fast.square) == (first.kind, first.edge, first.corner, first.square)
        assert ref.crossings[fast.step] == first
    ray = sight.line(board, a, b, "arcadia", viewer=viewer)  # the hover path
    assert ray.clear is ref.clear and ray.explain() == ref.explain() and ray.block_t == ref.block_t

    def rounded(steps):
        return [(k, w, (round(p[0], 9), round(p[1], 9)), bl, c) for k, w, p, bl, c in steps]

    assert rounded(ray.drawing()) == rounded(ref.drawing())
    assert ray.crossings == ref.crossings






@pytest.mark.slow
def test_2x2_every_wall_and_square_pattern() -> None:
    edges = interior_edges(2, 2)
    cells = squares(2, 2)
    count = 0
    patterns = list(itertools.product(("open", "blocked", "enemies"), repeat=4))
    patterns += [p for p in itertools.product(("open", "void"), repeat=4) if "void" in p]
    for wall_bits in itertools.product((False, True), repeat=len(edges)):
        walls = [e for e, on in zip(edges, wall_bits, strict=True) if on]
        for states in patterns:
            board = build(2, 2, walls, cells=dict(zip(cells, states, strict=True)))
            check_board_fully(board, "red")
            count += 1
    assert count == 16 * (81 + 15)


def test_2x2_every_door_pattern_with_viewers() -> None:
    edges = interior_edges(2, 2)
    kinds = ("none", "closed", "locked", "open-over-wall")
    for pattern in itertools.product(kinds, repeat=len(edges)):
        walls = [e for e, k in zip(edges, pattern, strict=True) if k in ("wall", "open-over-wall")]
        doors = [
            Door(e, DoorState("open" if k == "open-over-wall" else k))
            for e, k in zip(edges, pattern, strict=True)
            if k in ("closed", "open", "locked", "open-over-wall")
        ]
        board = build(2, 2, walls, doors, cells={(1, 0): "mixed"})
        for viewer in (None, "red"):
            on = squares(2, 2)
            table = all_pairs(board, viewer)
            for a in on:
                for b in on:
                    ref = reference(board, a, b, "arcadia", viewer=viewer)
                    assert bool(table[a[1], a[0], b[1], b[0]]) is ref.clear
                    check_hover_path(board, a, b, viewer, ref)




@pytest.fixture(scope="module")
def local3() -> LocalReference:
    return LocalReference(3, 3)


def compare_all_pairs(board: Board, ref: LocalReference, viewer: str | None = None) -> None:
    table = all_pairs(board, viewer)
    on = [sq for sq in squares(board.width, board.height) if board.on_board(sq)]
    for a in on:
        for b in on:
            expected = ref.clear(board, a, b, viewer)
            assert bool(table[a[1], a[0], b[1], b[0]]) is expected, (a, b)
            assert verdict(board, a, b, viewer).clear is expected, (a, b)


@pytest.mark.slow
def test_3x3_every_wall_subset(local3: LocalReference) -> None:
    edges = interior_edges(3, 3)
    assert len(edges) == 12
    for bits in range(1 << len(edges)):
        walls = [e for i, e in enumerate(edges) if bits >> i & 1]
        compare_all_pairs(Board(3, 3, walls=walls), local3)
    assert local3.calls < 20_000


@pytest.mark.slow
@pytest.mark.parametrize("closed", ["blocked", "void", "enemies"])
def test_3x3_every_square_pattern(local3: LocalReference, closed: str) -> None:
    cells = squares(3, 3)
    for states in itertools.product(("open", closed), repeat=9):
        board = build(3, 3, (), cells=dict(zip(cells, states, strict=True)))
        compare_all_pairs(board, local3, "red")


@pytest.mark.slow
def test_3x3_random_mixed_boards(local3: LocalReference) -> None:
    rng = random.Random(2024)
    edges = interior_edges(3, 3)
    cells = squares(3, 3)
    for _ in range(1500):
        walls = [e for e in edges if rng.random() < 0.3]
        doors = [Door(e, rng.choice(list(DoorState))) for e in edges if rng.random() < 0.15]
        states = {sq: rng.choice(CELL_STATES + ("open", "open")) for sq in cells}
        board = build(3, 3, walls, doors, cells=states)
        compare_all_pairs(board, local3, rng.choice((None, "red", "blue")))
