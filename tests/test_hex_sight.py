"""Hex boards through the grid seam and the one sight facade: a Board on a HexGrid, the hex rule
book, the hex engines of the engine table answering with Sight (same words and JSON shape as the
square rules decided by candidate lines), the reference, and the refusals of rules of the other
grid."""

from __future__ import annotations

import json

import numpy as np
import pytest
from support.hex_vectors import PRESETS, VECTORS

from game.core import sight
from game.core.board import Board, DoorState, Figure
from game.core.errors import PlacementError, UsageError
from game.core.grid import Layout
from game.core.hex_rules import HEX_PRESETS
from game.core.hex_sight import hex_board
from game.core.hexgrid import HexGrid, HexLayout
from game.core.sight_result import Sight


def _board(w: int, h: int, walls: list, blocked: list, **kw: object) -> Board:
    g = HexGrid(w, h)
    return hex_board(w, h, walls=[g.edge_between(*pair) for pair in walls], blocked=blocked, **kw)  # type: ignore[arg-type]


CASES = [(v, i) for v in VECTORS for i in range(3)]


@pytest.mark.parametrize(("vector", "rule"), CASES, ids=[f"{v[0]}-{PRESETS[i]}" for v, i in CASES])
def test_the_vectors_through_the_facade(vector: tuple, rule: int) -> None:
    name, w, h, a, b, walls, blocked, expected = vector
    board = _board(w, h, walls, blocked)
    preset = PRESETS[rule]
    found = sight.line(board, a, b, preset)
    assert isinstance(found, Sight) and found.clear is expected[rule]
    assert sight.reference(board, a, b, preset).clear is expected[rule]
    assert bool(sight.field(board, a, preset)[b[1], b[0]]) is expected[rule]
    assert bool(sight.pairs(board, preset)[a[1], a[0], b[1], b[0]]) is expected[rule]
    assert bool(sight.pairs(board, preset, origins=[a])[0, b[1], b[0]]) is expected[rule]
    bits = sight.pair_bits(board, preset)
    n = b[1] * w + b[0]
    assert bool(bits[a[1] * w + a[0], n // 8] >> (7 - n % 8) & 1) is expected[rule]
    assert found == sight.reference(board, a, b, preset) or found.lines != ()  # same verdict, reasons may be shorter


def test_the_map_s_rule_and_overrides() -> None:
    board = _board(3, 3, [], [(0, 1)], properties={"los_rule": "hexside,touch=blocks"})
    assert sight.rule_of(board).spec() == "hexside,touch=blocks"
    assert not sight.line(board, (1, 0), (1, 2)).clear  # touch=blocks: H5 blocked
    assert sight.line(board, (1, 0), (1, 2), "hexside").clear
    assert sight.rule_of(_board(2, 2, [], [])).name == "hexside"  # the hex default
    assert sight.default_rule("hex").name == "hexside"
    assert sight.by_centre_line(HEX_PRESETS["hexside"], "hex") is False


def test_rules_of_the_other_grid_are_refused_in_one_line() -> None:
    hexes = _board(3, 1, [], [])
    with pytest.raises(UsageError) as error:
        sight.line(hexes, (0, 0), (2, 0), "arcadia")
    assert str(error.value).endswith("line-of-sight rule 'arcadia' is for square boards; on a hex board use: "
                                     "gloomhaven, hexside, hex-strict")
    with pytest.raises(UsageError, match="'gloomhaven' is for hex boards; on a square board use: arcadia"):
        sight.line(Board(3, 1), (0, 0), (2, 0), "gloomhaven")
    with pytest.raises(UsageError, match="map property los_rule: .*'corners' is for square boards"):
        sight.rule_of(_board(2, 2, [], [], properties={"los_rule": "corners"}))
    with pytest.raises(UsageError, match="unknown hex rule parameter 'cover'"):
        sight.line(hexes, (0, 0), (2, 0), "hexside,cover=dnd5e")
    with pytest.raises(UsageError, match="for square boards"):
        sight.line(hexes, (0, 0), (2, 0), sight.parse_rule("arcadia"))  # a square Profile object


def test_the_answer_has_the_square_lines_rules_shape() -> None:
    hexes = _board(3, 1, [((0, 0), (1, 0))], [])
    squares = Board.from_ascii(["..."], walls=["V(1,0)"])
    h = sight.line(hexes, (0, 0), (2, 0), "gloomhaven").as_json()
    s = sight.line(squares, (0, 0), (2, 0), "corners").as_json()
    assert set(h) == set(s) | {"grid"} and h["grid"] == "hex"
    assert set(h["lines"][0]) == set(s["lines"][0])  # type: ignore[index]
    assert set(h["rule"]) == set(s["rule"])  # type: ignore[arg-type]
    json.dumps(h)
    found = sight.line(hexes, (0, 0), (2, 0), "hexside")
    assert found.explain().startswith("Blocked under hexside: the line from the centre of (0,0) to the centre of (2,0) crosses wall")
    assert found.first_blocker is not None and "crosses wall" in found.first_blocker.reason
    assert found.segments() == [((0.0, 0.0), (4.0, 0.0), False)]  # lattice points, for drawing
    assert found.drawing() == [] and found.block_t is None and found.crossings == ()


def test_doors_figures_and_viewers() -> None:
    g = HexGrid(3, 1)
    door = g.edge_between((0, 0), (1, 0))
    board = hex_board(3, 1, doors={door: "closed"})
    assert not sight.line(board, (0, 0), (2, 0)).clear
    board.set_door(door, DoorState.OPEN)  # type: ignore[arg-type]
    assert sight.line(board, (0, 0), (2, 0)).clear  # the board's version changed: derived again
    crowd = hex_board(3, 1, figures=[Figure(1, "Orc", "red", (1, 0)), Figure(2, "Imp", "red", (1, 0))])
    assert not sight.line(crowd, (0, 0), (2, 0), "hexside").clear  # two enemies at capacity
    assert sight.line(crowd, (0, 0), (2, 0), "hexside", viewer="red").clear  # friends
    assert sight.line(crowd, (0, 0), (2, 0), "gloomhaven").clear  # figures do not block


def test_placement_errors_name_the_hex() -> None:
    board = _board(2, 2, [], [])
    with pytest.raises(PlacementError, match=r"hex \(5,0\) is outside the map; the map is 2x2"):
        sight.line(board, (0, 0), (5, 0))
    with pytest.raises(PlacementError):
        sight.reference(board, (0, 0), (5, 0))
    assert not sight.field(board, (7, 7)).any()


@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize("index", ["odd", "even"])
def test_the_hex_grid_is_a_grid_of_the_seam(axis: str, index: str) -> None:
    g = HexGrid(4, 3, axis, index)  # type: ignore[arg-type]
    assert g.kind == "hex"
    numbers: dict[int, object] = {}
    for cell in g.cells():
        assert set(g.neighbours(cell)) == {c for c in g.around(cell) if g.in_bounds(c)}
        for edge in g.edges_of(cell):
            i = g.edge_index(edge)
            assert i is not None and 0 <= i < g.edge_count
            assert numbers.setdefault(i, edge) == edge  # one number per edge
            assert set(g.edge_ends(edge)) <= set(g.corners(cell))
    far = g.edges_of((9, 9))[0]
    assert g.edge_index(far) is None
    lay, hexes = Layout(32, 37, 10.0, 5.0, side=18), HexLayout(32, 37, 18)
    for cell in g.cells():
        for corner in g.corners(cell):
            x, y = g.point_px(corner, hexes)
            assert g.lattice_px(corner, lay) == (x + 10, y + 5)
        cx, cy = g.centre_px(cell, hexes)
        assert g.cell_at_px(cx + 10, cy + 5, lay) == cell
        assert g.cell_polygon_px(cell, lay)[0] == (g.cell_polygon_px(cell, hexes)[0][0] + 10, g.cell_polygon_px(cell, hexes)[0][1] + 5)


def test_a_hex_board_keeps_square_boards_as_they_were() -> None:
    board = Board.from_ascii(["...", ".#.", "..."])
    assert board.grid.kind == "square"
    assert sight.rule_of(board).spec() == "arcadia"
    assert int(sight.field(board, (0, 0)).sum()) == 6
    assert np.array_equal(sight.field(board, (0, 0), "corners"), sight.field(board, (0, 0), "corners"))


@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize("index", ["odd", "even"])
def test_the_engines_sides_decoded_from_the_board_s_edge_numbers_are_the_derived_ones(axis: str, index: str) -> None:
    """hex_input decodes sight_sides from Board.sight_edge_array (walls, shut doors; an open door
    clears its side; the rim's sides included): the same sides HexBoard derives from the edges."""
    import random

    from game.core.hex_board import HexBoard
    from game.core.hex_sight import hex_input

    rng = random.Random(7)
    g = HexGrid(6, 5, axis, index)  # type: ignore[arg-type]
    edges = sorted({e for c in g.cells() for e in g.edges_of(c)})
    walls = [e for e in edges if rng.random() < 0.3]
    doors = {e: rng.choice(["open", "closed", "locked"]) for e in edges if rng.random() < 0.1}
    board = hex_board(6, 5, staggeraxis=axis, staggerindex=index, walls=walls, doors=doors)  # type: ignore[arg-type]
    made = hex_input(board)
    derived = HexBoard.build(made.grid, walls=made.walls, doors=made.door_map)
    assert sorted(zip(*(a.tolist() for a in made.sight_sides), strict=True)) == sorted(
        zip(*(a.tolist() for a in derived.sight_sides), strict=True))
    assert len(made.sight_sides[0]) > 0
