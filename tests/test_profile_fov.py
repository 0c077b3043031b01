"""The corner rules' shadow-cast field of view (game/core/profile_fov.py) against the exact walk
on random boards with walls, doors, void, blocked terrain and figures of two sides, for every rule
with corner endpoints among the presets and their single-parameter overrides, every origin; and
its integer building blocks (the slope searches, the sparse-table paint) against brute force."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profile_cases import PROFILES

from game.core import profile_fov as pf
from game.core import profile_los as pl
from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.profiles import Profile, parse_rule

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


def walk_fov(board: Board, a: tuple[int, int], profile: Profile, viewer: str | None) -> np.ndarray:
    """The field of view square by square with the exact walk."""
    walk = np.zeros((board.height, board.width), dtype=bool)
    for b in board.squares():
        walk[b[1], b[0]] = pl._verdict(board, a, b, profile, viewer, complete=False)
    return walk


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(CORNER_RULES), viewer=st.sampled_from([None, "red"]))
def test_fast_fov_is_the_walk(seed: int, profile: Profile, viewer: str | None) -> None:
    board = random_board(seed)
    assert board.width * board.height >= pl.FAST_FOV_SQUARES
    for a in board.squares():
        fast = pl.visible_from(board, a, profile, viewer)
        walk = walk_fov(board, a, profile, viewer)
        assert np.array_equal(fast, walk), (profile.spec(), a, np.argwhere(fast != walk).tolist())


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """5×7 to 12×12 boards (either way round) with walls, blocked terrain, void and figures."""
    w, h = draw(st.sampled_from([(5, 7), (7, 5), (8, 8), (12, 9), (9, 12), (12, 12)]))
    rng = random.Random(draw(st.integers(0, 10**9)))
    wall_rate = draw(st.sampled_from([0.0, 0.1, 0.3]))
    walls = {Edge("V", x, y) for x in range(w + 1) for y in range(h) if rng.random() < wall_rate}
    walls |= {Edge("H", x, y) for x in range(w) for y in range(h + 1) if rng.random() < wall_rate}
    cells = [(x, y) for x in range(w) for y in range(h)]
    rng.shuffle(cells)
    blocked = set(cells[: draw(st.integers(0, w * h // 6))])
    rest = cells[len(blocked) :]
    void = set(rest[: draw(st.integers(0, 3))])
    free = rest[len(void) :]
    figures = [Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), sq) for i, sq in enumerate(free[: rng.randint(0, 6)])]
    return Board(w, h, walls=walls, blocked=blocked, void=void, figures=figures)


@settings(max_examples=25, deadline=None)
@given(board=boards(), profile=st.sampled_from(CORNER_RULES), data=st.data())
def test_fast_fov_is_the_walk_on_oblong_boards(board: Board, profile: Profile, data: st.DataObject) -> None:
    """Origins at the rim, in the corners and inside, boards wider than tall and taller than wide
    (the octants' extents differ from corner to corner of A, the slope tables go by the longer side)."""
    w, h = board.width, board.height
    picks = [(0, 0), (w - 1, h - 1), (w - 1, 0), (0, h // 2), (w // 2, h // 2)]
    picks.append(data.draw(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))))
    for a in picks:
        if not board.on_board(a):
            continue
        fast = pl.visible_from(board, a, profile)
        walk = walk_fov(board, a, profile, None)
        assert np.array_equal(fast, walk), (profile.spec(), a, np.argwhere(fast != walk).tolist())


def test_slope_searches_count_fractions() -> None:
    """``_slopes``: the keys are the distinct fractions ``v/u`` in order, ``den`` their smallest column,
    ``below``/``upto`` count them below / up to ``p/q``, ``ranks`` names ``min/max`` — all by Fraction."""
    n = 9
    keys, den, ranks, below, upto = pf._slopes(n)
    fractions = sorted({Fraction(v, u) for u in range(1, n + 1) for v in range(1, u + 1)})
    assert keys.size == len(fractions) == den.size
    assert den.tolist() == [f.denominator for f in fractions]
    assert list(keys) == sorted(keys) and len(set(keys.tolist())) == keys.size
    for q in range(1, n + 2):
        for p in range(n + 3):
            x = Fraction(p, q)
            assert below[q, p] == sum(f < x for f in fractions), (p, q)
            assert upto[q, p] == sum(f <= x for f in fractions), (p, q)
    for j in range(1, n + 1):
        for i in range(1, n + 1):
            assert fractions[ranks[j, i]] == Fraction(min(i, j), max(i, j))


def test_fast_fov_is_the_walk_on_a_long_board() -> None:
    """A board longer than 253 squares (the paint's keys need 16 bits, see ``_small``), both ways
    round: every square within 40 columns of the origin (sight ends about 26 out) and a seeded
    sample of the rest."""
    rng = random.Random(256)
    w, h = 256, 2
    walls = {Edge("V", x, y) for x in range(1, w) for y in range(h) if rng.random() < 0.02}
    walls |= {Edge("H", x, 1) for x in range(w) if rng.random() < 0.05}
    blocked = {(x, y) for x in range(w) for y in range(h) if rng.random() < 0.01} - {(0, 0), (255, 1)}
    flipped = {Edge("H" if e.axis == "V" else "V", e.y, e.x) for e in walls}
    profile = parse_rule("corners")
    for board, a in ((Board(w, h, walls=walls, blocked=blocked), (0, 0)),
                     (Board(h, w, walls=flipped, blocked={(y, x) for x, y in blocked}), (1, 255))):
        assert pf._small(max(board.width, board.height)) is np.uint16
        fast = pl.visible_from(board, a, profile)
        squares = list(board.squares())
        near = [b for b in squares if max(abs(b[0] - a[0]), abs(b[1] - a[1])) <= 40]
        assert 0 < sum(fast[b[1], b[0]] for b in near) < len(near)
        for b in near + rng.sample(squares, 30):
            assert fast[b[1], b[0]] == pl._verdict(board, a, b, profile, None, complete=False), (a, b)
