"""The hex field of view's paint (game/core/hex_paint.py, driven by game/core/hex_fov.py) against
the slow reference (game/core/hex_reference.py): every origin of small boards of every stagger
under every preset (and every override in the slow tier), sampled origins from corners, random boards with hypothesis, a bug
planted in the paint caught; and the lattice facts the paint rests on, by enumeration: the
half-open frames partition the plane, an edge's cone meets only the frames of its ends, the rank
tables count exactly, a corner on a ray between sextants does the same seen from either side.
(The exhaustive cluster patterns of tests/test_hex_exhaustive.py also run the paint.)"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.hex_boards import RULES, random_board

from game.core import hex_cast, hex_fov, hex_paint
from game.core.hex_board import HexBoard, HexView
from game.core.hex_los import field
from game.core.hex_reference import reference
from game.core.hex_rules import HEX_PRESETS, HexProfile


def _against_reference(board: HexBoard, rule: HexProfile, viewer: str | None, origins: list[tuple[int, int]]) -> int:
    """The field of each origin by each caster (the lazy one where the rule fits, and the paint)
    equals the reference's verdict for every target; how many pairs were compared."""
    view = HexView(board, rule, viewer)
    cells = [c for c in board.grid.cells() if board.on_board(c)]
    compared = 0
    engines = ("lazy", "paint") if hex_cast.fits(rule) else ("paint",)
    for a in origins:
        fields = {engine: field(board, a, rule, viewer, engine=engine) for engine in engines}
        for b in cells:
            expected = reference(view, a, b).clear
            for engine, cast in fields.items():
                assert bool(cast[b[1], b[0]]) == expected, (engine, rule.spec(), viewer, board.grid, a, b, expected)
            compared += 1
    return compared


def _fixed_boards() -> list[HexBoard]:
    """One 5×5 board per stagger (walls, a shut door, void, blocked terrain, figures), seeded."""
    rng = random.Random(6)
    return [random_board(rng, 5, 5, 0.15) for _ in range(6)]


def _origins(board: HexBoard, count: int) -> list[tuple[int, int]]:
    """``count`` origins of a board, seeded (all of them when it has fewer cells)."""
    cells = [c for c in board.grid.cells() if board.on_board(c)]
    return random.Random(len(cells)).sample(cells, min(count, len(cells)))


@pytest.mark.parametrize("preset", list(HEX_PRESETS))
def test_origins_of_small_boards_under_the_presets(preset: str) -> None:
    rule = HEX_PRESETS[preset]
    count = 4 if rule.from_ == "corners" else 25  # the reference tries 36 lines a pair from corners
    for board in _fixed_boards()[:3]:
        assert _against_reference(board, rule, "red", _origins(board, count)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=[r.spec() for r in RULES])
def test_origins_of_small_boards_under_every_rule(rule: HexProfile) -> None:
    for board in _fixed_boards():
        assert _against_reference(board, rule, None, _origins(board, 6)) > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULES), st.sampled_from([0.0, 0.05, 0.15, 0.3]))
def test_the_paint_equals_the_reference_on_random_boards(seed: int, rule: HexProfile, density: float) -> None:
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(1, 8), rng.randint(1, 8), density)
    cells = [c for c in board.grid.cells() if board.on_board(c)]
    if cells:
        _against_reference(board, rule, rng.choice([None, "red"]), [rng.choice(cells)])


@pytest.mark.parametrize("engine", ["paint", "lazy"])
def test_a_bug_planted_in_a_caster_is_caught(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Corners passed straight through never blocking (a wrong status table) is caught, in the
    paint and in the lazy caster, each broken alone."""
    nothing = np.zeros(6 * 2 * 2 * 64, dtype=bool)
    monkeypatch.setattr(hex_fov if engine == "paint" else hex_cast, "status_table", lambda touch: nothing)
    hex_cast._status_bytes.cache_clear()
    try:
        with pytest.raises(AssertionError, match=engine):
            for board in _fixed_boards():
                _against_reference(board, HEX_PRESETS["hex-strict"], None, _origins(board, 25))
    finally:
        hex_cast._status_bytes.cache_clear()


# --- the lattice facts ---------------------------------------------------------------------------

_N = ((2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3))


def _cross(u: tuple[int, int], v: tuple[int, int]) -> int:
    return u[0] * v[1] - u[1] * v[0]


_AROUND = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


def _lattice(reach: int, source: tuple[int, int]) -> list[tuple[int, int]]:
    """Offsets from a source (the centre (0, 0) of a cell or one of its corners) to the centres
    and corners of the cells around it (odd rows pushed right, pointy frame)."""
    points = set()
    for r in range(-reach, reach + 1):
        for c in range(-reach, reach + 1):
            centre = (2 * c + (r & 1), 3 * r)
            points.add(centre)
            points.update((centre[0] + dx, centre[1] + dy) for dx, dy in _AROUND)
    return sorted((x - source[0], y - source[1]) for x, y in points)


def _solve(s: int, v: tuple[int, int]) -> tuple[Fraction, Fraction]:
    """``(level, row)`` with ``3v = level * n_s + row * (n_{s+1} - n_s)``, exactly."""
    a, b = _N[s], _N[(s + 1) % 6]
    d = (b[0] - a[0], b[1] - a[1])
    det = _cross(a, d)
    return Fraction(_cross((3 * v[0], 3 * v[1]), d), det), Fraction(_cross(a, (3 * v[0], 3 * v[1])), det)


@pytest.mark.parametrize("source", [(0, 0), (0, -2), (0, 2)], ids=["centre", "top corner", "bottom corner"])
def test_the_half_open_frames_partition_the_plane(source: tuple[int, int]) -> None:
    """Every lattice offset but the source lies in exactly one sextant with ``0 <= row < level``
    (``3v = level * n_k + row * (n_{k+1} - n_k)``), the level being the hex norm; ``frames``
    finds it."""
    points = _lattice(8, source)
    xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    k, level, row = hex_paint.frames(xs, ys)
    norm = hex_paint.hex_norm(xs, ys)
    for i, v in enumerate(points):
        if v == (0, 0):
            assert k[i] == -1
            continue
        inside = [s for s in range(6) if 0 <= _solve(s, v)[1] < _solve(s, v)[0]]
        assert inside == [int(k[i])], (source, v, inside)
        assert _solve(int(k[i]), v) == (level[i], row[i]) and level[i] == norm[i], (source, v)


@pytest.mark.parametrize("source", [(0, 0), (0, -2), (0, 2)], ids=["centre", "top corner", "bottom corner"])
def test_an_edge_s_cone_meets_only_the_frames_of_its_ends(source: tuple[int, int]) -> None:
    """An edge not through the source is placed in the frames of its two ends: when a ray between
    two sextants runs strictly inside its cone, those two sextants are its ends' frames. (From a
    corner the rays pass through corners: no edge straddles one.)"""
    points = set(_lattice(8, source))
    split = 0
    for u in points:
        if (u[1] + source[1]) % 3 != 1:  # each edge once, from its top corner
            continue
        for arm in ((0, -2), (1, 1), (-1, 1)):
            v = (u[0] + arm[0], u[1] + arm[1])
            turn = _cross(u, v)
            if turn == 0 or v not in points:
                continue  # an edge through the source runs along a bisector: the walk's
            ends = {int(hex_paint.frames(np.array([p[0]]), np.array([p[1]]))[0][0]) for p in (u, v)}
            for s, ray in enumerate(_N):
                if turn * _cross(u, ray) > 0 and turn * _cross(ray, v) > 0:
                    assert ends == {s, (s - 1) % 6}, (source, u, v, s)
                    split += 1
    assert (split > 0) == (source == (0, 0))


def test_the_rank_tables_count_exactly() -> None:
    """``below_at`` / ``upto_at`` of every slope the paint looks up equal a count of the leaf
    slopes with Fractions."""
    for centres in (True, False):
        t = hex_paint.slope_tables(hex_paint.box_top(7, 11), centres)
        leaves = sorted({Fraction(j, q) for q in range(1, t.top + 1) for j in range(q)
                         if (q - 2 * j) % 3 == 0 and (not centres or (q % 3 == 0 and j % 3 == 0))})
        assert len(leaves) == t.keys.size
        for q in range(1, t.top + 1):
            for p in range(-3, q + 4):
                at = q * t.span + p + 3
                assert t.below_at[at] == sum(x < Fraction(p, q) for x in leaves), (centres, p, q)
                assert t.upto_at[at] == sum(x <= Fraction(p, q) for x in leaves), (centres, p, q)


@pytest.mark.parametrize(("stride", "rows"), [(2, 3), (7, 11), (9, 7), (30, 5)])
def test_the_box_s_top_is_its_largest_level_plus_two(stride: int, rows: int) -> None:
    """``box_top``: the largest level between two points of the box (every offset framed), plus 2."""
    dx = np.arange(1 - stride, stride, dtype=np.int64)[None, :]
    dy = np.arange(1 - rows, rows, dtype=np.int64)[:, None]
    x, y = np.broadcast_arrays(dx, dy)
    _, level, _ = hex_paint.frames(x.ravel(), y.ravel())
    assert hex_paint.box_top(stride, rows) == int(level.max()) + 2


@pytest.mark.parametrize("touch", ["blocks", "clear", "both-sides"])
def test_a_corner_on_a_ray_does_the_same_from_either_sextant(touch: str) -> None:
    """A corner passed straight through blocks or not by its position's two wedges only: the upper
    half of sextant ``k`` and the lower half of ``k + 1`` (which meet on the ray ``n_{k+1}``) agree,
    so each half-open frame decides its own points on the rays."""
    status = hex_fov.status_table(touch).reshape(6, 2, 2, 64)
    for k in range(6):
        assert (status[k, :, 1] == status[(k + 1) % 6, :, 0]).all(), (touch, k)


@pytest.mark.parametrize("chunk", [1, 7, 50, 1 << 19])
def test_the_slopes_ranked_in_bands_are_the_slopes_ranked_at_once(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``slope_tables`` ranks a big board's slopes a band at a time (its temporaries bounded):
    band edges anywhere, the same tables as ranking every slope at once."""
    expected = hex_paint.slope_tables(40, False)
    monkeypatch.setattr(hex_paint, "_CHUNK", chunk)
    hex_paint.slope_tables.cache_clear()
    try:
        found = hex_paint.slope_tables(40, False)
    finally:
        hex_paint.slope_tables.cache_clear()
    for a, b in ((found.below_at, expected.below_at), (found.upto_at, expected.upto_at)):
        assert a.dtype == np.int32 and (a == b).all()
