"""Every wall/blocked/figure pattern of the 2×2 board against the independent oracle, for every
preset and every single-parameter override without ``any`` endpoints (40 rules), and every
wall/blocked pattern for the any-point preset; every blocked pattern and sampled wall patterns of the
3×3 board for the corner rules' fast field of view against the exact walk.

How the count stays inside CI time, and why nothing is left out:

* **Figures.** On these boards a square holds at most one figure, of side ``monsters``, viewer
  none, capacity 2: under ``figures = any`` a figure square blocks exactly like blocked terrain,
  under ``enemies-at-capacity`` (1 < 2) and ``none`` it is an open square; end squares never block
  whatever they hold, and cover is not asked here. So each of the 3^4 × 2^4 = 1,296 patterns has an
  *effective* wall/blocked pattern (one of 2^4 × 2^4 = 256). The engine is run on all 1,296 and must
  equal itself on the effective pattern; the effective patterns are checked against the oracle.
* **Symmetry.** The rules are stated geometrically, so they commute with the 8 symmetries of the
  square (the sector rule, touching, running along, the endpoint sets and the boundary all map
  onto themselves): verdict_{g(B)}(g(a), g(b)) = verdict_B(a, b). The oracle is run once per orbit
  (51 of the 256 patterns) and its verdicts carried to the other patterns of the orbit by g; the
  engine is run on every pattern. ``test_the_oracle_commutes_with_the_symmetries`` checks the
  premise on the oracle itself for every preset.
* **3×3.** The oracle is too slow for 3×3's 2^12 × 2^9 patterns; there the fast field of view of
  the corner rules (game/core/profile_fov.py) is checked against the exact walk (checked against
  the oracle above and on random 3×3 boards in test_profile_los.py) on every blocked pattern
  without walls (512) and 150 of the 4,095 interior wall patterns without blocked squares (seeded
  per rule), every origin; tests/test_profile_fov.py does the same on random larger boards.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np
import pytest
from test_profile_los import PROFILES, boards_2x2, edges_of
from test_profile_oracle import Oracle

from game.core import profile_los as pl
from game.core.board import Board, Edge, Square
from game.core.profiles import PRESETS, Profile

Point = tuple[int, int]

#: the 8 symmetries of the n×n square, on grid points (0..n)
def _symmetries(n: int) -> list[Callable[[Point], Point]]:
    return [
        lambda p: (p[0], p[1]), lambda p: (n - p[0], p[1]), lambda p: (p[0], n - p[1]),
        lambda p: (n - p[0], n - p[1]), lambda p: (p[1], p[0]), lambda p: (n - p[1], p[0]),
        lambda p: (p[1], n - p[0]), lambda p: (n - p[1], n - p[0]),
    ]


def _map_square(g: Callable[[Point], Point], sq: Square) -> Square:
    (x0, y0), (x1, y1) = g(sq), g((sq[0] + 1, sq[1] + 1))
    return min(x0, x1), min(y0, y1)


def _map_edge(g: Callable[[Point], Point], e: Edge) -> Edge:
    (x0, y0), (x1, y1) = (g(c) for c in e.ends())
    return Edge("V", x0, min(y0, y1)) if x0 == x1 else Edge("H", min(x0, x1), y0)


def _key(walls: frozenset[Edge], blocked: frozenset[Square]) -> tuple[object, ...]:
    return (tuple(sorted(str(e) for e in walls)), tuple(sorted(blocked)))


def effective(board: Board, profile: Profile) -> Board:
    """The wall/blocked pattern a profile sees on a one-figure-per-square board (module docstring)."""
    blocked = set(board.blocked)
    if profile.figures == "any":
        blocked |= {f.square for f in board.figures.values()}
    return Board(board.width, board.height, walls=board.walls, blocked=blocked)


class OrbitOracle:
    """Oracle verdicts per symmetry orbit, carried to every pattern of the orbit."""

    def __init__(self, profile: Profile, n: int) -> None:
        self.profile = profile
        self.n = n
        self.syms = _symmetries(n)
        self.known: dict[tuple[object, ...], dict[tuple[Square, Square], bool]] = {}
        self.oracle_runs = 0

    def table(self, board: Board) -> dict[tuple[Square, Square], bool]:
        images = []
        for g in self.syms:
            walls = frozenset(_map_edge(g, e) for e in board.walls)
            blocked = frozenset(_map_square(g, s) for s in board.blocked)
            images.append((_key(walls, blocked), g, walls, blocked))
        key, g, walls, blocked = min(images, key=lambda t: t[0])
        found = self.known.get(key)
        if found is None:
            self.oracle_runs += 1
            canon = Board(self.n, self.n, walls=walls, blocked=blocked)
            oracle = Oracle(canon, self.profile, None)
            found = self.known[key] = {(a, b): oracle.visible(a, b) for a in canon.squares() for b in canon.squares()}
        return {(a, b): found[(_map_square(g, a), _map_square(g, b))] for a in board.squares() for b in board.squares()}


BOARDS = boards_2x2()  # 16 interior wall subsets × 81 open / blocked / figure patterns = 1,296
FAST = [p for p in PROFILES if "any" not in (p.from_, p.to)]


def _check_every_2x2_pattern(profile: Profile, figures: bool = True) -> None:
    orbits = OrbitOracle(profile, 2)
    seen: dict[tuple[object, ...], np.ndarray] = {}
    for board in BOARDS if figures else [b for b in BOARDS if not b.figures]:
        table = pl.all_pairs(board, profile)
        plain = effective(board, profile)
        key = _key(plain.walls, plain.blocked)
        if key in seen:
            assert np.array_equal(seen[key], table), (profile.spec(), board.walls, board.blocked)
            continue
        if board.figures:  # figures as their effective pattern
            assert np.array_equal(pl.all_pairs(plain, profile), table)
        seen[key] = table
        for (a, b), want in orbits.table(plain).items():
            got = bool(table[a[1], a[0], b[1], b[0]])
            assert got is want, (profile.spec(), sorted(map(str, plain.walls)), sorted(plain.blocked), a, b, want,
                                 pl.line_of_sight(plain, a, b, profile).explain())
    assert len(seen) == 256 and orbits.oracle_runs == 51


@pytest.mark.parametrize("profile", FAST, ids=[p.spec() for p in FAST])
def test_every_2x2_pattern(profile: Profile) -> None:
    _check_every_2x2_pattern(profile)


@pytest.mark.slow
def test_every_2x2_wall_and_blocked_pattern_any_point() -> None:
    # ``any`` endpoints: the oracle tries every line through two grid points and its turns (about
    # 0.75 s a board here), so the any-point preset is exhaustive on the 256 wall/blocked patterns
    # (its figures = none makes every figure square open) and the 19 other single-parameter
    # overrides with ``any`` endpoints are sampled in test_profile_los.py
    _check_every_2x2_pattern(PRESETS["any-point"], figures=False)


@pytest.mark.parametrize("profile", PRESETS.values(), ids=list(PRESETS))
def test_the_oracle_commutes_with_the_symmetries(profile: Profile) -> None:
    board = Board(3, 3, walls=[Edge("V", 1, 0), Edge("H", 1, 2), Edge("V", 2, 2)], blocked=[(1, 1)])
    ref = Oracle(board, profile, None)
    pairs = [((0, 0), (2, 2)), ((0, 0), (2, 1)), ((2, 0), (0, 2)), ((0, 1), (2, 1)), ((1, 0), (1, 2))]
    for g in _symmetries(3)[1:]:
        image = Board(3, 3, walls=[_map_edge(g, e) for e in board.walls], blocked=[_map_square(g, s) for s in board.blocked])
        oracle = Oracle(image, profile, None)
        for a, b in pairs:
            assert oracle.visible(_map_square(g, a), _map_square(g, b)) is ref.visible(a, b)


#: the corner presets by what their field of view reads (pf2e's sight parameters are dnd5e's; only
#: the cover differs, and a field of view grades no cover)
CORNER_RULES = [PRESETS["corners"], PRESETS["dnd5e"]]


@pytest.mark.slow
@pytest.mark.parametrize("profile", CORNER_RULES, ids=[p.spec() for p in CORNER_RULES])
def test_3x3_fast_fov_every_blocked_pattern_and_sampled_wall_patterns(profile: Profile) -> None:
    cells = [(x, y) for y in range(3) for x in range(3)]
    edges = edges_of(3, 3)
    boards = [Board(3, 3, blocked=[c for i, c in enumerate(cells) if m >> i & 1]) for m in range(1 << 9)]
    masks = random.Random(profile.spec()).sample(range(1, 1 << 12), 150)
    boards += [Board(3, 3, walls=[e for i, e in enumerate(edges) if m >> i & 1]) for m in masks]
    for board in boards:
        geo = pl._geo(board, profile, None)
        walk = pl.all_pairs(board, profile)  # 9 squares: below FAST_FOV_SQUARES, the exact walk
        for a in itertools.product(range(3), range(3)):
            fast = pl._corner_fov(board, geo, a, profile, None)
            assert np.array_equal(fast, walk[a[1], a[0]]), (profile.spec(), sorted(map(str, board.walls)),
                                                              sorted(board.blocked), a)
