"""The any-point field of view (game/core/any_fov.py) against the exact per-pair search.

* Every wall/blocked pattern of the 2×2 board from square (0, 0) against the walk (each square of a
  2×2 board is a corner, and the rules commute with the symmetries of the square — checked on the
  oracle in tests/test_profile_exhaustive.py — so from (0, 0) covers every origin); the same
  patterns against the independent oracle run through ``all_pairs`` in test_profile_exhaustive.py.
* Random boards with walls, blocked squares, void and figures under every profile the caster
  answers (figures ``none`` / ``any`` / ``enemies-at-capacity`` with a viewer, boundary open):
  the caster equals the walk square by square (hypothesis).
* Relations on boards too big for the walk: symmetry (the rule reads the board the same both ways,
  and figures ``none`` does not depend on the viewer), monotone in obstacles (a wall or a blocking
  square added never clears a square), and the caster sees every square the centre-to-centre line
  under the same closed obstacles reaches (the centre is an interior point): a cheap, independent
  lower bound by the arcadia engine is not available (it lets lines touch corners), so the check is
  against ``any-point,from=centre,to=centre`` by the walk on sampled pairs.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profile_cases import edges_of

from game.core import profile_los as pl
from game.core import sight
from game.core.any_fov import applies, visible_any
from game.core.board import Board, Edge, Figure
from game.core.profile_fov import sight_arrays
from game.core.profiles import PRESETS, Profile, parse_rule
from game.core.segment import view

ANY = PRESETS["any-point"]
CAST = [ANY, parse_rule("any-point,figures=any"), parse_rule("any-point,figures=enemies-at-capacity"),
        parse_rule("any-point,boundary=open")]


def walk_fov(board: Board, a: tuple[int, int], profile: Profile, viewer: str | None = None) -> np.ndarray:
    """The per-square exact search (what visible_from did before the caster)."""
    out = np.zeros((board.height, board.width), dtype=bool)
    for b in board.squares():
        out[b[1], b[0]] = pl._verdict(board, a, b, profile, viewer, complete=False)
    return out


def test_applies_to_the_closed_obstacle_rules_only() -> None:
    assert all(applies(p) for p in CAST)
    assert not applies(parse_rule("any-point,corner_touch=clear"))
    assert not applies(parse_rule("any-point,along_wall=clear"))
    assert not applies(parse_rule("any-point,from=centre"))
    assert not applies(PRESETS["corners"])


def test_every_2x2_pattern_from_a_corner_against_the_walk() -> None:
    edges = edges_of(2, 2)
    cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
    differ = 0
    for wall_mask, block_mask in itertools.product(range(16), range(16)):
        board = Board(2, 2, walls=[e for i, e in enumerate(edges) if wall_mask >> i & 1],
                      blocked=[c for i, c in enumerate(cells) if block_mask >> i & 1])
        fast = pl.visible_from(board, (0, 0), ANY)
        walk = walk_fov(board, (0, 0), ANY)
        assert np.array_equal(fast, walk), (sorted(map(str, board.walls)), sorted(board.blocked), fast, walk)
        differ += int(not walk.all())
    assert differ > 100  # the patterns do block: the test compares more than all-visible masks


def _random_board(rng: random.Random, w: int, h: int) -> Board:
    edges = edges_of(w, h)
    cells = [(x, y) for y in range(h) for x in range(w)]
    walls = rng.sample(edges, rng.randint(0, len(edges) // 3))
    blocked = rng.sample(cells, rng.randint(0, (len(cells) - 1) // 6))
    rest = [c for c in cells if c not in blocked]
    void = rng.sample(rest, rng.randint(0, 1 if len(rest) > 1 else 0))
    free = [c for c in rest if c not in void]
    figures = [Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), sq)
               for i, sq in enumerate(rng.sample(free, min(len(free), rng.randint(0, 3))))]
    return Board(w, h, walls=walls, blocked=blocked, void=void, figures=figures, capacity=1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(CAST))
def test_random_boards_equal_the_walk(seed: int, profile: Profile) -> None:
    rng = random.Random(seed)
    board = _random_board(rng, rng.randint(1, 5), rng.randint(1, 4))
    squares = list(board.squares())
    a = rng.choice(squares)
    viewer = rng.choice([None, "red"])
    fast = pl.visible_from(board, a, profile, viewer)
    assert np.array_equal(fast, walk_fov(board, a, profile, viewer)), (profile.spec(), a, viewer)


def _open_board(rng: random.Random, n: int) -> Board:
    edges = {Edge("V", x, y) for x in range(1, n) for y in range(n) if rng.random() < 0.12}
    edges |= {Edge("H", x, y) for x in range(n) for y in range(1, n) if rng.random() < 0.12}
    blocked = {(x, y) for x in range(n) for y in range(n) if rng.random() < 0.04}
    return Board(n, n, walls=edges, blocked=blocked)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_symmetric_on_bigger_boards(seed: int) -> None:
    rng = random.Random(seed)
    board = _open_board(rng, rng.randint(8, 20))
    table = pl.all_pairs(board, ANY)
    assert np.array_equal(table, table.transpose(2, 3, 0, 1))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_obstacle_added_never_clears(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(6, 24)
    board = _open_board(rng, n)
    a = (rng.randrange(n), rng.randrange(n))
    before = visible_any(*_arrays(board), a)
    walls, blocked = set(board.walls), set(board.blocked)
    if rng.random() < 0.5:
        walls.add(rng.choice([Edge("V", rng.randint(1, n - 1), rng.randrange(n)),
                              Edge("H", rng.randrange(n), rng.randint(1, n - 1))]))
    else:
        blocked.add((rng.randrange(n), rng.randrange(n)))
    board = Board(n, n, walls=walls, blocked=blocked)
    after = visible_any(*_arrays(board), a)
    assert not (after & ~before).any()


def _arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return sight_arrays(view(board, ANY, None))


def test_sees_what_the_centre_line_sees_and_what_only_an_off_centre_line_sees() -> None:
    rng = random.Random(5)
    board = _open_board(rng, 10)
    centre = parse_rule("any-point,from=centre,to=centre")
    seen = pl.visible_from(board, (4, 4), ANY)
    pairs = [((4, 4), (rng.randrange(10), rng.randrange(10))) for _ in range(12)]
    for a, b in pairs:
        if sight.line(board, a, b, centre).clear:
            assert seen[b[1], b[0]], b
    # the centre line touches the blocked square's corner (1,1); a line from higher in A passes
    board = Board.from_ascii([".#.", "..."])
    assert not sight.line(board, (0, 0), (2, 1), centre).clear
    assert pl.visible_from(board, (0, 0), ANY)[1, 2]
    assert not pl.visible_from(board, (0, 0), ANY)[0, 2]
