"""The corner rules' all-pairs table by grid rows (game/core/profile_pairs.py): each grid point cast
once for the 4 squares around it, the squares touching it put back per origin.

* ``row_candidates`` is, origin by origin, the one-origin caster (``corner_candidates`` with
  ``after=True``, itself proved against the exact walk in tests/test_profile_fov.py) on the squares
  after the origin — exactly, on random boards dense with blocked terrain and figures (the squares
  the shared cast leaves out and puts back), of every shape, for every corner rule and viewer;
* the table (``all_pairs``) is every origin's whole field (``corner_field``), on the same boards.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profile_cases import PROFILES

from game.core import profile_fov as pf
from game.core import profile_los as pl
from game.core import profile_pairs as pp
from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.profiles import Profile, parse_rule
from game.core.segment import view

CORNER_RULES = [p for p in PROFILES if p.from_ == "corners" == p.to]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """3×3 to 13×9 boards (either way round) with walls, doors, blocked terrain (up to a third of
    the squares: a square touching a corner is often blocking), void and figures of two sides."""
    w, h = draw(st.sampled_from([(3, 3), (6, 6), (5, 8), (8, 5), (13, 9), (9, 13)]))
    rng = random.Random(draw(st.integers(0, 10**9)))
    wall_rate = draw(st.sampled_from([0.0, 0.1, 0.3]))
    walls = {Edge("V", x, y) for x in range(w + 1) for y in range(h) if rng.random() < wall_rate}
    walls |= {Edge("H", x, y) for x in range(w) for y in range(h + 1) if rng.random() < wall_rate}
    doors = [Door(e, DoorState(rng.choice(["open", "closed", "locked"]))) for e in sorted(walls, key=str)[:3]]
    cells = [(x, y) for x in range(w) for y in range(h)]
    rng.shuffle(cells)
    blocked = set(cells[: draw(st.integers(0, w * h // 3))])
    rest = cells[len(blocked) :]
    void = set(rest[: draw(st.integers(0, 3))])
    free = rest[len(void) :]
    figures = [Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), sq) for i, sq in enumerate(free[: rng.randint(0, 6)])]
    return Board(w, h, walls=walls, doors=doors, blocked=blocked, void=void, figures=figures)


def _rows_are_the_one_origin_caster(board: Board, profile: Profile, viewer: str | None) -> None:
    geo = view(board, profile, viewer)
    w = board.width
    lower = pp.point_planes(geo, 0)
    for ay in range(board.height):
        upper, lower = lower, pp.point_planes(geo, ay + 1)
        found = pp.row_candidates(geo, ay, upper, lower)
        for ax in range(w):
            if not board.on_board((ax, ay)):
                continue
            one = pf.corner_candidates(geo, (ax, ay), after=True)
            i = ay * w + ax
            got, want = found[ax].reshape(-1)[i:], one.reshape(-1)[i:]
            assert np.array_equal(got, want), (profile.spec(), viewer, (ax, ay), (np.flatnonzero(got != want) + i).tolist())


@settings(max_examples=40, deadline=None)
@given(board=boards(), profile=st.sampled_from(CORNER_RULES), viewer=st.sampled_from([None, "red"]))
def test_row_candidates_are_the_one_origin_caster(board: Board, profile: Profile, viewer: str | None) -> None:
    _rows_are_the_one_origin_caster(board, profile, viewer)


@settings(max_examples=15, deadline=None)
@given(board=boards(), profile=st.sampled_from(CORNER_RULES))
def test_the_table_is_every_origins_field(board: Board, profile: Profile) -> None:
    table = pl.all_pairs(board, profile)
    for a in board.squares():
        assert np.array_equal(table[a[1], a[0]], pl.corner_field(board, a, profile)), (profile.spec(), a)


def test_a_board_of_blocked_squares_around_every_corner() -> None:
    """Every other square blocked (a checkerboard): at every corner of every origin a square
    touching it blocks, and is put back as the origin's own square or as a wall of its quadrant."""
    w = h = 8
    blocked = {(x, y) for x in range(w) for y in range(h) if (x + y) % 2}
    board = Board(w, h, blocked=blocked, walls={Edge("V", 4, 2), Edge("H", 3, 5)})
    for spec in ("corners", "dnd5e", "pf2e"):
        _rows_are_the_one_origin_caster(board, parse_rule(spec), None)
    table = pl.all_pairs(board, parse_rule("corners"))
    assert 0 < table.sum() < (w * h) ** 2


FAST_ARRAYS = ("vw", "hw", "blocking", "padded", "sig")


def _same_fast(a: pf._Fast, b: pf._Fast) -> bool:
    pairs = [(getattr(a, name), getattr(b, name)) for name in FAST_ARRAYS]
    pairs += list(zip(a.v_edges + a.h_edges + a.squares, b.v_edges + b.h_edges + b.squares, strict=True))
    pairs += [(a.through[s][i], b.through[s][i]) for s in (1, -1) for i in (0, 1)]
    return all(np.array_equal(p, q) for p, q in pairs)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(CORNER_RULES + [parse_rule("corners,figures=any")]),
       viewer=st.sampled_from([None, "red", "blue"]), moves=st.integers(1, 12))
def test_corner_arrays_after_moves_are_the_ones_built_anew(seed: int, profile: Profile, viewer: str | None, moves: int) -> None:
    """The corner caster's arrays after figures moved, were placed, removed or changed are
    patched from the version before (the edges' arrays shared) and equal a fresh build; a wall
    (the geometry) builds them anew."""
    rng = random.Random(seed)
    w, h = 9, 7
    cells = [(x, y) for x in range(w) for y in range(h)]
    board = Board(w, h, walls={Edge("V", rng.randint(1, w - 1), rng.randrange(h)) for _ in range(12)},
                  blocked=rng.sample(cells, 6), void=rng.sample(cells, 2), capacity=rng.choice([1, 2]))
    free = [c for c in cells if board.can_enter(0, c) is None]
    for i, sq in enumerate(rng.sample(free, 6)):
        board.place_figure(Figure(i + 1, f"F{i}", rng.choice(["red", "blue"]), sq))
    before = pf._fast(view(board, profile, viewer))
    for step in range(moves):
        fid = rng.choice(sorted(board.figures))
        target = rng.choice(cells)
        kind = rng.choice(["move", "move", "move", "remove", "change", "wall"])
        if kind == "move" and board.can_enter(fid, target) is None:
            board.move_figure(fid, target)
        elif kind == "remove" and len(board.figures) > 1:
            board.remove_figure(fid)
        elif kind == "change":
            board.update_figure(fid, wounds=step)
        elif kind == "wall":
            board.set_wall(Edge("H", rng.randrange(w), rng.randint(1, h - 1)))
        geo = view(board, profile, viewer)
        got = pf._fast(geo)
        assert (got.vw is before.vw) is (got.geometry == before.geometry), (step, kind)  # shared unless walls changed
        fresh = pf._Fast(geo)
        assert _same_fast(got, fresh), (step, kind, profile.spec(), viewer)
        before = got
    assert np.array_equal(pl.corner_field(board, (0, 0), profile, viewer), pl.walk_field(board, (0, 0), profile, viewer))
