"""The shadow caster (game/core/fov_cast.py) against the rule, engine by engine.

``visible_from(..., engine="cast")`` runs the caster alone (no budget), ``engine="octant"`` the
octant engine alone; both are compared with the one reference (game.core.sight.reference) on every wall / door / square
pattern of 2×2 boards, on every wall subset and square pattern of 3×3 boards (the reference
memoised by what a ray can look at, as in test_los_exhaustive.py), on random boards by
hypothesis, and with each other on big boards. The budget hand-over of ``engine="auto"`` is
checked too.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.los_boards import CELL_STATES, LocalReference, build, interior_edges, squares
from support.los_strategies import boards, viewers

from game.core import los_tables, sight
from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.fov_cast import cast, flag_grid, patch_flag_grid
from game.core.los import visible_from

ENGINES = ("cast", "octant")


def every_edge(w: int, h: int) -> list[Edge]:
    """Interior and rim edges (a wall on the rim must change nothing)."""
    return [Edge("V", x, y) for x in range(w + 1) for y in range(h)] + [
        Edge("H", x, y) for x in range(w) for y in range(h + 1)
    ]


def check_against(board: Board, viewer: str | None, expected, engines: tuple[str, ...] = ENGINES) -> None:
    """The engines' masks from every on-board origin equal ``expected(a, b)`` on every square."""
    on = [sq for sq in squares(board.width, board.height) if board.on_board(sq)]
    for a in on:
        masks = {engine: visible_from(board, a, viewer, engine=engine) for engine in engines}
        for b in squares(board.width, board.height):
            want = board.on_board(b) and expected(a, b)
            for engine, mask in masks.items():
                assert bool(mask[b[1], b[0]]) is want, (engine, a, b, viewer)


def reference(board: Board, viewer: str | None):
    return lambda a, b: sight.reference(board, a, b, "arcadia", viewer=viewer).clear


def test_2x2_every_edge_and_square_pattern() -> None:
    edges = every_edge(2, 2)
    cells = squares(2, 2)
    rng = random.Random(22)
    patterns = list(itertools.product(("open", "blocked", "enemies"), repeat=4))
    patterns += [p for p in itertools.product(("open", "void"), repeat=4) if "void" in p]
    count = 0
    for wall_bits in itertools.product((False, True), repeat=4):
        interior = [e for e, on in zip(interior_edges(2, 2), wall_bits, strict=True) if on]
        rim = [e for e in edges if e not in interior_edges(2, 2) and rng.random() < 0.5]
        for states in patterns:
            board = build(2, 2, interior + rim, cells=dict(zip(cells, states, strict=True)))
            check_against(board, "red", reference(board, "red"))
            count += 1
    assert count == 16 * (81 + 15)


def test_2x2_every_door_pattern() -> None:
    edges = interior_edges(2, 2)
    kinds = ("none", "closed", "locked", "open-over-wall")
    for pattern in itertools.product(kinds, repeat=len(edges)):
        walls = [e for e, k in zip(edges, pattern, strict=True) if k == "open-over-wall"]
        doors = [
            Door(e, DoorState("open" if k == "open-over-wall" else k))
            for e, k in zip(edges, pattern, strict=True)
            if k != "none"
        ]
        board = build(2, 2, walls, doors, cells={(1, 0): "mixed"})
        for viewer in (None, "red"):
            check_against(board, viewer, reference(board, viewer))


@pytest.fixture(scope="module")
def local3() -> LocalReference:
    return LocalReference(3, 3)


def local(board: Board, ref: LocalReference, viewer: str | None):
    return lambda a, b: ref.clear(board, a, b, viewer)


# on 3×3 boards the octant engine is already checked pattern by pattern through all_pairs
# (test_los_exhaustive.py); here the caster alone
CASTER = ("cast",)


@pytest.mark.slow
def test_3x3_every_wall_subset(local3: LocalReference) -> None:
    edges = interior_edges(3, 3)
    for bits in range(1 << len(edges)):
        board = Board(3, 3, walls=[e for i, e in enumerate(edges) if bits >> i & 1])
        check_against(board, None, local(board, local3, None), CASTER)


@pytest.mark.slow
@pytest.mark.parametrize("closed", ["blocked", "void", "enemies"])
def test_3x3_every_square_pattern(local3: LocalReference, closed: str) -> None:
    cells = squares(3, 3)
    for states in itertools.product(("open", closed), repeat=9):
        board = build(3, 3, (), cells=dict(zip(cells, states, strict=True)))
        check_against(board, "red", local(board, local3, "red"), CASTER)


@pytest.mark.slow
def test_3x3_random_mixed_boards(local3: LocalReference) -> None:
    rng = random.Random(3033)
    edges = every_edge(3, 3)
    cells = squares(3, 3)
    for _ in range(1500):
        walls = [e for e in edges if rng.random() < 0.3]
        doors = [Door(e, rng.choice(list(DoorState))) for e in edges if rng.random() < 0.15]
        states = {sq: rng.choice(CELL_STATES + ("open", "open")) for sq in cells}
        board = build(3, 3, walls, doors, cells=states)
        viewer = rng.choice((None, "red", "blue"))
        check_against(board, viewer, local(board, local3, viewer), CASTER)


@settings(max_examples=120, deadline=None)
@given(boards(max_size=12), viewers, st.data())
def test_cast_equals_reference_on_random_boards(board: Board, viewer: str | None, data: st.DataObject) -> None:
    on = list(board.squares())
    if not on:
        return
    a = data.draw(st.sampled_from(on))
    mask = visible_from(board, a, viewer, engine="cast")
    assert np.array_equal(mask, visible_from(board, a, viewer, engine="octant"))
    for b in data.draw(st.lists(st.sampled_from(on), min_size=1, max_size=12)):
        assert bool(mask[b[1], b[0]]) is sight.reference(board, a, b, "arcadia", viewer=viewer).clear, (a, b)


def open_board(size: int) -> Board:
    rng = random.Random(size)
    walls = {Edge("V", rng.randint(1, size - 1), rng.randrange(size)) for _ in range(size // 2)}
    return Board(size, size, walls=walls)


def test_the_budget_hands_over_to_the_octant_engine() -> None:
    board = open_board(60)
    cache = los_tables._cache(board)
    flags, near = los_tables._flags(board, cache, None)
    assert cast(flags, near, 60, 60, (30, 30), 100) is None  # an open board: far past a small budget
    assert cast(flags, near, 60, 60, (30, 30), 1 << 62) is not None
    auto = visible_from(board, (30, 30))
    assert np.array_equal(auto, visible_from(board, (30, 30), engine="octant"))
    assert np.array_equal(auto, visible_from(board, (30, 30), engine="cast"))


def test_flag_grid_marks_the_rim_and_the_corners() -> None:
    cells = np.zeros((2, 2), dtype=bool)
    vertical = np.zeros((2, 3), dtype=bool)
    horizontal = np.zeros((3, 2), dtype=bool)
    vertical[0, 1] = horizontal[1, 0] = True  # V(1,0) and H(0,1): two arms of the corner (1,1)...
    cells[1, 0] = True  # ...and the square (0,1) on the other side closes it for a ray going SE
    flags, near = flag_grid(cells, vertical, horizontal)
    grid = np.frombuffer(flags, dtype=np.uint8).reshape(4, 4)
    assert np.frombuffer(near, dtype=np.uint8).reshape(4, 4)[1:3, 1:3].tolist() == [[1, 1], [1, 1]]
    assert (grid[0] & 1).all() and (grid[-1] & 1).all() and (grid[:, 0] & 1).all() and (grid[:, -1] & 1).all()
    assert grid[1, 1] & 8 and not grid[1, 1] & 16  # corner (1,1) is the south-east one of (0,0)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [7, 8])
def test_cast_equals_octant_on_big_boards(seed: int) -> None:
    rng = random.Random(seed)
    size = 90
    edges = every_edge(size, size)
    walls = rng.sample(edges, 1500 if seed == 7 else 200)
    doors = [Door(e, rng.choice(list(DoorState))) for e in rng.sample(walls, 40)]
    cells = squares(size, size)
    board = Board(
        size, size, walls=walls, doors=doors,
        void=rng.sample(cells, 150), blocked=rng.sample(cells, 300),
    )
    on = list(board.squares())
    for origin in rng.sample(on, 40):
        assert np.array_equal(
            visible_from(board, origin, engine="cast"), visible_from(board, origin, engine="octant")
        ), origin


def test_sight_edge_codes_follow_every_update() -> None:
    """The board's integer sight edges equal edge_blocks_sight on every edge after each update."""
    w, h = 4, 3
    edges = every_edge(w, h)
    rng = random.Random(44)
    board = Board(w, h, walls=rng.sample(edges, 8) + [Edge("V", 7, 7)], doors=[Door(e, DoorState.OPEN) for e in edges[:5]])

    def expected() -> frozenset[int]:
        codes = set()
        for e in edges:
            if board.edge_blocks_sight(e):
                codes.add(e.y * (w + 1) + e.x if e.axis == "V" else h * (w + 1) + e.y * w + e.x)
        return frozenset(codes)

    saved = board.state()
    for step in range(200):
        action = rng.randrange(5)
        if action == 0:
            board.set_wall(rng.choice(edges), rng.random() < 0.5)
        elif action == 1:
            board.set_door(rng.choice(edges[:5]), rng.choice(list(DoorState)))
        elif action == 2:
            board.close_all_doors()
        elif action == 3:
            board.restore(saved)
        else:
            saved = board.state()
            board = board.copy()
        assert board.sight_edge_codes == expected(), step
        mask = visible_from(board, (1, 1))
        assert np.array_equal(mask, visible_from(board, (1, 1), engine="octant"))
        for b in squares(w, h):
            assert bool(mask[b[1], b[0]]) is sight.reference(board, (1, 1), b, "arcadia").clear


@pytest.mark.parametrize("size", [(1, 1), (3, 1), (1, 4), (4, 5), (7, 6)])
def test_a_patched_flag_grid_is_the_one_built_anew(size: tuple[int, int]) -> None:
    # every row changed alone (the top and bottom rows reach the ring), then random sets of rows
    w, h = size
    rng = np.random.default_rng(w * 10 + h)
    vertical = rng.random((h, w + 1)) < 0.3
    horizontal = rng.random((h + 1, w)) < 0.3
    before = rng.random((h, w)) < 0.3
    flags = flag_grid(before, vertical, horizontal)
    trials = [[y] for y in range(h)] + [sorted(rng.choice(h, rng.integers(1, h + 1), replace=False).tolist())
                                        for _ in range(20)]
    for rows in trials:
        after = before.copy()
        for y in rows:
            after[y] = rng.random(w) < 0.5
        assert patch_flag_grid(flags, after, vertical, horizontal, rows) == flag_grid(after, vertical, horizontal)


def test_figure_moves_patch_the_casters_grids_and_sight_follows() -> None:
    rng = random.Random(28)
    board = Board(12, 9, walls={Edge("V", rng.randint(1, 11), rng.randrange(9)) for _ in range(20)},
                  blocked=[(3, 4)], capacity=1)
    figures = [Figure(i, f"f{i}", ("red", "blue")[i % 2], (i, i % 9)) for i in range(6)]
    for figure in figures:
        board.place_figure(figure)
    for step in range(40):
        figure = rng.choice(figures)
        target = (rng.randrange(12), rng.randrange(9))
        if board.can_enter(figure.id, target) is None:
            board.move_figure(figure.id, target)
        for viewer in (None, "red", "blue"):
            origin = (rng.randrange(12), rng.randrange(9))
            got = visible_from(board, origin, viewer)
            cache = los_tables._cache(board)
            fresh = flag_grid(los_tables._cell_blocks(board, cache, viewer), *los_tables._edge_arrays(board, cache))
            assert cache.flags[viewer] == fresh, step
            assert np.array_equal(got, visible_from(board, origin, viewer, engine="octant")), (step, viewer)
