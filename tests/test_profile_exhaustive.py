"""Every wall/blocked pattern of the 2×2 board against the independent oracle, every ordered pair,
for every preset and every single-parameter override (60 rules, tests/test_profile_los.py
``PROFILES``), with every figure pattern for the 40 rules without ``any`` endpoints and each figure
pattern of the squares once for the 20 with them; every blocked pattern and sampled wall patterns
of the 3×3 board for the corner rules' fast field of view against the exact walk.

How the count stays inside CI time, and why nothing is left out:

* **Figures.** On these boards a square holds at most one figure, of side ``monsters``, viewer
  none, capacity 2: under ``figures = any`` a figure square blocks exactly like blocked terrain,
  under ``enemies-at-capacity`` (1 < 2) and ``none`` it is an open square; end squares never block
  whatever they hold, and cover is not asked here. So each of the 3^4 × 2^4 = 1,296 patterns has an
  *effective* wall/blocked pattern (one of 2^4 × 2^4 = 256). The engine is run on the 256 and
  checked against the oracle, every pair; on each figure board it must equal itself on the
  board's effective pattern. The 40 rules without ``any`` endpoints take all 1,040 figure boards.
  The 20 with ``any`` endpoints take 65 (``FIGURES_SAMPLE``: each open/blocked/figure pattern of
  the four squares once, the walls turning through the 16 subsets): their engine costs about
  30 ms a 2×2 board here, so all 1,040 would add some 10 minutes of CI for what the 40 rules
  already prove of the figure rule (which of the engine's squares block), leaving the ``any``
  search itself, which only sees the effective pattern, checked in full on the 256.
* **Pair classes.** The rules are stated geometrically, so they commute with the 8 symmetries of
  the square (the sector rule, touching, running along, the endpoint sets and the boundary all map
  onto themselves): verdict_{g(B)}(g(a), g(b)) = verdict_B(a, b); and the oracle never reads what
  the end squares hold (``Oracle.blocks`` answers no for them before looking). So the oracle is run
  once per class of (ordered pair, pattern without the end squares' contents) — 100 classes
  (``PAIR_CLASSES_2X2``) instead of 256 × 12 pair runs — and ``PairOracle`` carries each verdict
  to the rest of its class; the engine is run on every pattern. Verdicts are shared between rules
  with the same sight parameters (pf2e's are dnd5e's; the oracle reads no ``cover``).
  ``test_the_pair_classes_on_the_oracle_itself`` checks both premises on the oracle for every rule
  (sampled patterns, every pair, without the classes), ``test_the_oracle_commutes_with_the_symmetries``
  the symmetry on a 3×3 board for every preset, and ``test_a_wrong_verdict_fails_the_check`` that a
  planted wrong verdict or figure rule fails the check.
* **The oracle's cost.** The oracle (tests/test_profile_oracle.py) memoises what does not depend
  on the board: its candidate lines per pair and endpoint sets (deduplicated: of the 1,324 of a
  2×2 board's 12 pairs under any-point, 708 differ) and each candidate segment's geometry (the squares,
  edges and grid points it meets, ``Segment``); the board's walls and blocking squares are then
  judged by the same clauses as before. With the classes, the oracle's share of a rule is about
  0.1–1 s; the engine's all_pairs on the boards is the rest.
* **The one reference.** The code's reference (``game.core.sight.reference``, what the arcadia
  engines' exhaustive tests compare with) is checked against the oracle on every one of the 100
  pair classes, for every rule (``test_the_one_reference_is_the_oracle_on_every_pair_class``), and
  for the centre-line rules its Fraction crossings against its verdict.
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
from support.profile_cases import PROFILES, WITH_ANY, boards_2x2, edges_of
from support.profile_oracle import Oracle

from game.core import profile_los as pl
from game.core import sight
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


def _sight(profile: Profile) -> tuple[str, ...]:
    """The parameters the oracle reads (all but ``cover``, which grades and never decides sight)."""
    return tuple(v for p, v in profile.values().items() if p != "cover")


#: (a, b, walls, blocked) -> the canonical (g(a), g(b), walls, blocked without a and b) of its class
_CANON: dict[tuple[object, ...], tuple[Square, Square, frozenset[Edge], frozenset[Square]]] = {}
#: (sight parameters, canonical pair and pattern) -> the oracle's verdict, shared by the tests
_VERDICTS: dict[tuple[object, ...], bool] = {}


def _canonical(n: int, walls: frozenset[Edge], blocked: frozenset[Square], a: Square, b: Square
               ) -> tuple[Square, Square, frozenset[Edge], frozenset[Square]]:
    """The representative of (a, b, walls, blocked) under the 8 symmetries, the end squares emptied."""
    key = (n, a, b, walls, blocked)
    found = _CANON.get(key)
    if found is None:
        images = []
        for g in _symmetries(n):
            ga, gb = _map_square(g, a), _map_square(g, b)
            w = frozenset(_map_edge(g, e) for e in walls)
            s = frozenset(_map_square(g, sq) for sq in blocked) - {ga, gb}
            images.append(((ga, gb, _key(w, s)), (ga, gb, w, s)))
        found = _CANON[key] = min(images, key=lambda t: t[0])[1]
    return found


class PairOracle:
    """The oracle's verdict for one rule on one pair of one wall/blocked pattern, run once per class
    of (pair, pattern) under the symmetries and the contents of the end squares (module docstring)."""

    def __init__(self, profile: Profile, n: int, verdicts: dict[tuple[object, ...], bool] | None = None) -> None:
        self.profile = profile
        self.n = n
        self.verdicts = _VERDICTS if verdicts is None else verdicts
        self.asked: set[tuple[object, ...]] = set()  # the classes this rule needed

    def visible(self, board: Board, a: Square, b: Square) -> bool:
        """The oracle's verdict for a → b on ``board`` (walls and blocked squares only)."""
        assert not board.figures and not board.void and not board.doors, "walls and blocked squares only"
        if a == b:
            return True
        ga, gb, walls, blocked = _canonical(self.n, frozenset(board.walls), frozenset(board.blocked), a, b)
        key = (_sight(self.profile), ga, gb, _key(walls, blocked))
        self.asked.add(key)
        found = self.verdicts.get(key)
        if found is None:
            canon = Board(self.n, self.n, walls=walls, blocked=blocked)
            found = self.verdicts[key] = Oracle(canon, self.profile, None).visible(ga, gb)
        return found


BOARDS = boards_2x2()  # 16 interior wall subsets × 81 open / blocked / figure patterns = 1,296
PLAIN = [b for b in BOARDS if not b.figures]  # the 256 wall/blocked patterns
FAST = [p for p in PROFILES if "any" not in (p.from_, p.to)]
#: for the ``any`` rules, each of the 65 figure patterns of the squares once, the walls turning
#: through the 16 subsets (module docstring)
FIGURES_SAMPLE = [b for i, b in enumerate(BOARDS) if b.figures and i // 81 == i % 81 % 16]
#: classes of (ordered pair of distinct squares, wall/blocked pattern without the end squares) of
#: the 2×2 board: 8 side-by-side pairs × 2^6 patterns, no symmetry fixing one (64), and 4 diagonal
#: pairs, the mirror in their diagonal fixing each ((4 × 64 + 2 × 2 × 8) / 8 = 36)
PAIR_CLASSES_2X2 = 100


def _check_every_2x2_pattern(profile: Profile, figure_boards: list[Board], oracle: PairOracle | None = None,
                             figures_as: str | None = None) -> None:
    """The engine against the oracle on the 256 wall/blocked patterns, every pair, and the engine
    on each figure board against itself on the board's effective pattern (``oracle`` and
    ``figures_as`` plant errors: test_a_wrong_verdict_fails_the_check)."""
    oracle = oracle or PairOracle(profile, 2)
    tables: dict[tuple[object, ...], np.ndarray] = {}
    squares = list(PLAIN[0].squares())
    for board in PLAIN:
        table = tables[_key(board.walls, board.blocked)] = pl.all_pairs(board, profile)
        for a in squares:
            for b in squares:
                want = oracle.visible(board, a, b)
                got = bool(table[a[1], a[0], b[1], b[0]])
                assert got is want, (profile.spec(), sorted(map(str, board.walls)), sorted(board.blocked), a, b,
                                     want, sight.line(board, a, b, profile).explain())
    for board in figure_boards:
        plain = effective(board, profile.with_value("figures", figures_as) if figures_as else profile)
        got = pl.all_pairs(board, profile)
        assert np.array_equal(got, tables[_key(plain.walls, plain.blocked)]), (
            profile.spec(), sorted(map(str, board.walls)), sorted(board.blocked),
            sorted(f.square for f in board.figures.values()))
    assert len(tables) == 256 and len(oracle.asked) == PAIR_CLASSES_2X2, (len(tables), len(oracle.asked))


@pytest.mark.parametrize("profile", FAST, ids=[p.spec() for p in FAST])
def test_every_2x2_pattern(profile: Profile) -> None:
    _check_every_2x2_pattern(profile, [b for b in BOARDS if b.figures])


@pytest.mark.slow
@pytest.mark.parametrize("profile", WITH_ANY, ids=[p.spec() for p in WITH_ANY])
def test_every_2x2_wall_and_blocked_pattern_any_endpoints(profile: Profile) -> None:
    _check_every_2x2_pattern(profile, FIGURES_SAMPLE)


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


@pytest.mark.parametrize("profile", PROFILES, ids=[p.spec() for p in PROFILES])
def test_the_pair_classes_on_the_oracle_itself(profile: Profile) -> None:
    # the premises of PairOracle, on the oracle: on sampled patterns (the end squares blocked or
    # not) every pair's own verdict equals the one its class carries (the symmetry, and nothing
    # read of the end squares)
    oracle = PairOracle(profile, 2)
    for board in random.Random(profile.spec()).sample(PLAIN, 3):
        direct = Oracle(board, profile, None)
        for a in board.squares():
            for b in board.squares():
                assert direct.visible(a, b) is oracle.visible(board, a, b), (profile.spec(), board.walls, board.blocked, a, b)


def test_a_wrong_verdict_fails_the_check() -> None:
    # the check can fail: one planted wrong oracle verdict (the rule whose engine is quickest, so
    # that this costs little), then one planted wrong figure rule
    profile = PRESETS["arcadia"].with_value("figures", "none")
    board = Board(2, 2, walls=[Edge("V", 1, 0)], blocked=[(1, 1)])
    planted = PairOracle(profile, 2, verdicts={})
    truth = planted.visible(board, (0, 0), (1, 0))
    planted.verdicts.update({key: not truth for key in planted.asked})
    with pytest.raises(AssertionError, match="arcadia,figures=none"):
        _check_every_2x2_pattern(profile, [], planted)
    # and the figure boards: under figures=any a figure is not an open square
    with pytest.raises(AssertionError, match="figures=any"):
        _check_every_2x2_pattern(PRESETS["arcadia"].with_value("figures", "any"), FIGURES_SAMPLE,
                                 figures_as="none")


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
        walk = pl.all_pairs(board, profile)  # 9 squares: below FAST_FOV_SQUARES, the exact walk
        for a in itertools.product(range(3), range(3)):
            fast = pl._corner_cast(board, a, profile, None)
            assert np.array_equal(fast, walk[a[1], a[0]]), (profile.spec(), sorted(map(str, board.walls)),
                                                              sorted(board.blocked), a)


def _check_the_reference_on_every_pair_class(profile: Profile) -> None:
    """The code's one reference (game.core.sight.reference) against the independent oracle on every
    class of pair and 2×2 wall/blocked pattern (the classes of PairOracle: 100)."""
    oracle = PairOracle(profile, 2)
    checked: set[tuple[object, ...]] = set()
    for board in PLAIN:
        for a in board.squares():
            for b in board.squares():
                if a == b:
                    continue
                ga, gb, walls, blocked = _canonical(2, frozenset(board.walls), frozenset(board.blocked), a, b)
                key = (ga, gb, _key(walls, blocked))
                if key in checked:
                    continue
                checked.add(key)
                canon = Board(2, 2, walls=walls, blocked=blocked)
                want = oracle.visible(canon, ga, gb)
                ref = sight.reference(canon, ga, gb, profile)
                assert ref.clear is want, (profile.spec(), sorted(map(str, walls)), sorted(blocked), ga, gb, ref.explain())
                if sight.by_centre_line(profile):  # the Fraction crossings are the same preset
                    assert ref.clear is not any(c.blocks for c in ref.crossings)
    assert len(checked) == PAIR_CLASSES_2X2


@pytest.mark.parametrize("profile", FAST, ids=[p.spec() for p in FAST])
def test_the_one_reference_is_the_oracle_on_every_pair_class(profile: Profile) -> None:
    _check_the_reference_on_every_pair_class(profile)


@pytest.mark.slow
@pytest.mark.parametrize("profile", WITH_ANY, ids=[p.spec() for p in WITH_ANY])
def test_the_one_reference_is_the_oracle_on_every_pair_class_any_endpoints(profile: Profile) -> None:
    _check_the_reference_on_every_pair_class(profile)
