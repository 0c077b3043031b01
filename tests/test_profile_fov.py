"""The corner rules' shadow-cast field of view (game/core/profile_fov.py) against the exact walk
on random boards with walls, doors, void, blocked terrain and figures of two sides, for every rule
with corner endpoints among the presets and their single-parameter overrides, every origin."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_profile_los import PROFILES

from game.core import profile_los as pl
from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.profiles import Profile

CORNER_RULES = [p for p in PROFILES if p.from_ == "corners" == p.to]


def random_board(seed: int) -> Board:
    rng = random.Random(seed)
    w, h = rng.randint(6, 11), rng.randint(6, 10)
    walls = {Edge("V", x, y) for x in range(w + 1) for y in range(h) if rng.random() < 0.15}
    walls |= {Edge("H", x, y) for x in range(w) for y in range(h + 1) if rng.random() < 0.15}
    doors = {e: rng.choice(["open", "closed", "locked"]) for e in rng.sample(sorted(walls, key=str), min(3, len(walls)))}
    cells = [(x, y) for x in range(w) for y in range(h)]
    blocked = set(rng.sample(cells, rng.randint(0, w * h // 8)))
    void = set(rng.sample([c for c in cells if c not in blocked], rng.randint(0, 3)))
    free = [c for c in cells if c not in blocked and c not in void]
    figures = [Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), sq) for i, sq in enumerate(rng.sample(free, 6))]
    figures += [Figure(7, "F6", "blue", figures[0].square)]  # two on a square: a full square for red
    door_list = [Door(edge, DoorState(state)) for edge, state in doors.items()]
    board = Board(w, h, walls=walls, doors=door_list, blocked=blocked, void=void, figures=figures)
    return board


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(CORNER_RULES), viewer=st.sampled_from([None, "red"]))
def test_fast_fov_is_the_walk(seed: int, profile: Profile, viewer: str | None) -> None:
    board = random_board(seed)
    assert board.width * board.height >= pl.FAST_FOV_SQUARES
    for a in board.squares():
        fast = pl.visible_from(board, a, profile, viewer)
        walk = np.zeros_like(fast)
        for b in board.squares():
            walk[b[1], b[0]] = pl._verdict(board, a, b, profile, viewer, complete=False)
        assert np.array_equal(fast, walk), (profile.spec(), a, np.argwhere(fast != walk).tolist())
