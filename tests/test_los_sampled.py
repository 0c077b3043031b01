"""The field-of-view engine against the rule on big boards: 200 sampled origins on random 400×400
boards (walls, doors in every state, void, blocked terrain, figures of three sides).

For each origin the whole mask comes from :func:`game.core.los.visible_from`, from each engine
alone (the shadow caster of :mod:`game.core.fov_cast`, no budget, and the octant engine of
:mod:`game.core.fov`) and from the default (the caster with its budget, handing over to the octant
engine): the three masks must be equal; targets are checked with :func:`game.core.los.verdict` (the integer walk,
itself equal to the Fraction reference on every exhaustive small board) — random targets and,
above all, the squares on the rim of a shadow, where a wrong slope would show — and a few of them
with the one reference :func:`game.core.sight.reference` itself.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.los import verdict, visible_from
from game.core.sight import reference

SIZE = 400
SIDES = ("red", "blue", "monsters")


def random_board(seed: int, walls: int, cells: int) -> Board:
    """A SIZE×SIZE board: ``walls`` wall edges (some carrying doors), ``cells`` each of void and
    blocked squares, figures of three sides (some squares full, so they block)."""
    rng = random.Random(seed)
    edges: set[Edge] = set()
    while len(edges) < walls:
        if rng.random() < 0.5:
            edges.add(Edge("V", rng.randint(0, SIZE), rng.randrange(SIZE)))
        else:
            edges.add(Edge("H", rng.randrange(SIZE), rng.randint(0, SIZE)))
    door_edges = rng.sample(sorted(edges), walls // 20)
    doors = [Door(e, rng.choice(list(DoorState))) for e in door_edges]
    void = {(rng.randrange(SIZE), rng.randrange(SIZE)) for _ in range(cells)}
    blocked = {(rng.randrange(SIZE), rng.randrange(SIZE)) for _ in range(cells)} - void
    board = Board(SIZE, SIZE, walls=edges, doors=doors, void=void, blocked=blocked)
    fid = 0
    for _ in range(cells):
        sq = (rng.randrange(SIZE), rng.randrange(SIZE))
        for _ in range(rng.choice((1, 2, 2))):
            if board.can_enter(None, sq) is None:
                fid += 1
                board.place_figure(Figure(fid, f"f{fid}", rng.choice(SIDES), sq))
    return board


def shadow_rims(mask: np.ndarray, on: np.ndarray) -> list[tuple[int, int]]:
    """On-board squares whose visibility differs from an orthogonal neighbour's."""
    rim = np.zeros_like(mask)
    rim[:, 1:] |= mask[:, 1:] != mask[:, :-1]
    rim[:, :-1] |= mask[:, 1:] != mask[:, :-1]
    rim[1:] |= mask[1:] != mask[:-1]
    rim[:-1] |= mask[1:] != mask[:-1]
    ys, xs = np.nonzero(rim & on)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "walls", "cells"), [(400, 12_000, 1_500), (401, 1_500, 150)], ids=["dense", "sparse"])
def test_sampled_origins_on_400x400(seed: int, walls: int, cells: int) -> None:
    board = random_board(seed, walls, cells)
    rng = random.Random(seed + 1)
    on = np.ones((SIZE, SIZE), dtype=bool)
    for x, y in board.void:
        on[y, x] = False
    squares = [(x, y) for y in range(SIZE) for x in range(SIZE) if on[y, x]]
    checked = seen = 0
    for _ in range(100):
        origin = rng.choice(squares)
        viewer = rng.choice((None, *SIDES))
        mask = visible_from(board, origin, viewer)
        for engine in ("cast", "octant"):
            assert np.array_equal(mask, visible_from(board, origin, viewer, engine=engine)), (engine, origin, viewer)
        assert not (mask & ~on).any()
        rims = shadow_rims(mask, on)
        targets = rng.sample(rims, min(60, len(rims))) + rng.sample(squares, 30)
        for target in targets:
            expected = verdict(board, origin, target, viewer).clear
            assert bool(mask[target[1], target[0]]) is expected, (origin, target, viewer)
            checked += 1
            seen += expected
        for target in targets[:4] + targets[-2:]:
            ref = reference(board, origin, target, "arcadia", viewer=viewer)
            assert bool(mask[target[1], target[0]]) is ref.clear, (origin, target, viewer, ref.explain())
    assert checked >= 100 * 60 and 0 < seen < checked  # both verdicts were exercised
