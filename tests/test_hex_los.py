"""Hex line of sight: the vectors H1–H6 of hex-los.md §5 under every preset, through the slow
reference, the fast walk of one line and the field of view; the answer's words and JSON."""

from __future__ import annotations

import json

import pytest
from support.hex_vectors import PRESETS, VECTORS

from game.core.errors import PlacementError
from game.core.hex_board import HexBoard, HexFigure, HexView
from game.core.hex_los import field, field_by_lines, line, line_verdict, pairs
from game.core.hex_reference import reference
from game.core.hex_rules import HEX_PRESETS, parse_hex_rule
from game.core.hexgrid import HexGrid


def _board(width: int, height: int, walls: list, blocked: list, grid: HexGrid | None = None) -> HexBoard:
    g = grid or HexGrid(width, height)  # pointy-top, odd rows pushed, as the vectors say
    return HexBoard.build(g, walls=[g.edge_between(*w) for w in walls], blocked=blocked)


CASES = [(v, i) for v in VECTORS for i in range(3)]


@pytest.mark.parametrize(("vector", "rule"), CASES, ids=[f"{v[0]}-{PRESETS[i]}" for v, i in CASES])
def test_the_spec_s_vectors(vector: tuple, rule: int) -> None:
    name, w, h, a, b, walls, blocked, expected = vector
    board = _board(w, h, walls, blocked)
    profile = HEX_PRESETS[PRESETS[rule]]
    assert reference(HexView(board, profile), a, b).clear is expected[rule]
    assert line(board, a, b, profile).clear is expected[rule]
    assert bool(field(board, a, profile)[b[1], b[0]]) is expected[rule]
    assert line(board, b, a, profile).clear is expected[rule]  # no figures: symmetric


def test_the_lattice_points_the_vectors_name() -> None:
    """H1's example line (1,1)→(3,1) runs through (1,0) and is clear (with H2's wall it is cut where
    the wall meets the board's edge); H5's centre line x = 2 runs along the edge (2,2)–(2,4)
    between (0,1) and (1,1)."""
    from game.core.hex_reference import check_line

    g = HexGrid(3, 3)
    assert (1, 1) in g.corners((0, 0)) and (3, 1) in g.corners((2, 0))
    h1, h2 = _board(3, 1, [], []), _board(3, 1, [((0, 0), (1, 0))], [])
    gloom = HEX_PRESETS["gloomhaven"]
    assert check_line(HexView(h1, gloom), (0, 0), (2, 0), (1, 1), (3, 1)) is None
    assert "the corner (1,1)" in (check_line(HexView(h2, gloom), (0, 0), (2, 0), (1, 1), (3, 1)) or "")
    assert g.edge_cells(g.edge_between((0, 1), (1, 1))) == ((0, 1), (1, 1))
    assert [g.centre(c) for c in ((1, 0), (1, 2))] == [(2, 0), (2, 6)]


def test_the_words_say_which_wall_corner_hexside_and_hex() -> None:
    h2 = _board(3, 1, [((0, 0), (1, 0))], [])
    assert line(h2, (0, 0), (2, 0), HEX_PRESETS["hexside"]).explain() == (
        "Blocked under hexside: the line from the centre of (0,0) to the centre of (2,0) "
        "crosses wall (1,-1)-(1,1) between (0,0) and (1,0).")
    h3 = _board(3, 1, [], [(1, 0)])
    assert "passes through hex (1,0), blocked terrain" in line(h3, (0, 0), (2, 0), HEX_PRESETS["hex-strict"]).explain()
    h5 = _board(3, 3, [], [(0, 1)])
    strict = line(h5, (1, 0), (1, 2), HEX_PRESETS["hex-strict"]).explain()
    assert "touches blocked terrain at (0,1) at the corner (2,2) of (0,1), (1,0) and (1,1) (touch=blocks)" in strict
    h6 = _board(3, 3, [], [(0, 1), (1, 1)])
    assert "has both sides closed at the corner (2,2)" in line(h6, (1, 0), (1, 2), HEX_PRESETS["hexside"]).explain()
    along = line(h5, (1, 0), (1, 2), HEX_PRESETS["hex-strict"].with_value("touch", "clear"))
    assert along.clear and "the centre of (1,0) to the centre of (1,2) is clear" in along.explain()
    h1 = line(_board(3, 1, [], []), (0, 0), (2, 0), HEX_PRESETS["gloomhaven"])
    assert h1.clear and h1.deciding[0].start_kind == "corner"


def test_the_json_has_the_square_profiles_shape() -> None:
    result = line(_board(3, 1, [((0, 0), (1, 0))], []), (0, 0), (2, 0), HEX_PRESETS["gloomhaven"])
    doc = json.loads(json.dumps(result.as_json()))
    assert set(doc) == {"clear", "from", "to", "viewer", "lines", "checked", "grid", "rule", "explanation"}
    assert doc["clear"] is False and doc["checked"] == 36 and len(doc["lines"]) == 16
    assert doc["grid"] == "hex" and doc["rule"]["name"] == "gloomhaven" and doc["from"] == [0, 0]
    assert set(doc["lines"][0]) == {"from", "to", "from_kind", "to_kind", "clear", "blocker"}
    assert doc["lines"][0]["from"] == ["0", "-2"]  # lattice points as text
    assert "and 32 more lines blocked" in doc["explanation"]


def test_a_hex_sees_itself_and_the_ends_must_be_on_the_board() -> None:
    board = HexBoard.build(HexGrid(3, 2), void=[(2, 1)])
    for profile in HEX_PRESETS.values():
        assert line(board, (1, 1), (1, 1), profile).clear
        assert field(board, (1, 1), profile)[1, 1]
        assert not field(board, (1, 1), profile)[1, 2]  # void is never seen
        assert not field(board, (2, 1), profile).any()  # a void origin sees nothing
    with pytest.raises(PlacementError, match=r"hex \(2,1\) is void \(off the board\); the map is 3x2"):
        line(board, (0, 0), (2, 1), HEX_PRESETS["hexside"])
    with pytest.raises(PlacementError, match=r"hex \(5,0\) is outside the map"):
        line(board, (5, 0), (0, 0), HEX_PRESETS["hexside"])


def test_doors_decide_their_edge_and_figures_block_as_the_rule_says() -> None:
    g = HexGrid(3, 1)
    shared = g.edge_between((0, 0), (1, 0))
    for state, clear in (("open", True), ("closed", False), ("locked", False)):
        board = HexBoard.build(g, walls=[shared], doors={shared: state})
        assert line(board, (0, 0), (2, 0), HEX_PRESETS["hexside"]).clear is clear
    assert "closed door on (1,-1)-(1,1)" in line(HexBoard.build(g, doors={shared: "closed"}), (0, 0), (2, 0),
                                                  HEX_PRESETS["hexside"]).explain()
    people = {(1, 0): [HexFigure("Orc", "monsters"), HexFigure("Goblin", "monsters")]}
    board = HexBoard.build(g, figures=people)
    assert not line(board, (0, 0), (2, 0), HEX_PRESETS["hexside"], viewer="heroes").clear  # 2 enemies
    assert line(board, (0, 0), (2, 0), HEX_PRESETS["hexside"], viewer="monsters").clear  # friends
    one = HexBoard.build(g, figures={(1, 0): [HexFigure("Orc", "monsters")]})
    assert line(one, (0, 0), (2, 0), HEX_PRESETS["hexside"], viewer="heroes").clear  # 1 < capacity 2
    assert "figure Orc" in line(one, (0, 0), (2, 0), HEX_PRESETS["hex-strict"]).explain()
    assert line(one, (0, 0), (2, 0), HEX_PRESETS["gloomhaven"]).clear


def test_field_and_pairs_agree_with_the_walk_on_a_small_board() -> None:
    g = HexGrid(4, 3, "x", "even")
    board = HexBoard.build(g, walls=[g.edge_between((1, 1), (2, 1)), g.edge_between((0, 0), (0, 1))],
                           blocked=[(2, 2)], void=[(3, 0)])
    for profile in (*HEX_PRESETS.values(), parse_hex_rule("hexside,from=corners,to=corners")):
        table = pairs(board, profile)
        for a in g.cells():
            assert (table[a[1], a[0]] == field_by_lines(board, a, profile)).all()
            for b in g.cells():
                if board.on_board(a) and board.on_board(b):
                    assert table[a[1], a[0], b[1], b[0]] == line_verdict(board, a, b, profile)
