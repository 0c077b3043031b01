"""The fast paths equal the slow reference on EVERY wall and blocked-terrain pattern of the 3-hex
and 4-hex clusters (hex-los.md §4): every subset of the edges between the cluster's hexes as
walls, times every subset of its hexes as blocked terrain, every ordered pair of hexes, for the
three presets here and for every single-parameter override in the slow tier. The fast paths are
the exact walk of one line and the field of view (the shadow caster, with the origin's
neighbours walked)."""

from __future__ import annotations

import itertools

import pytest

from game.core.hex_board import HexBoard, HexView
from game.core.hex_los import field, line_verdict
from game.core.hex_reference import reference
from game.core.hex_rules import HEX_PARAMETERS, HEX_PRESETS, HexProfile
from game.core.hexgrid import Cell, HexGrid

#: name -> (grid, void cells): the row of 3, the triangle, the row of 4, the rhombus, the zigzag
#: and the arrow (a triangle and one more), pointy-top with odd rows pushed, plus two flat-top ones
CLUSTERS: dict[str, tuple[HexGrid, frozenset[Cell]]] = {
    "row3": (HexGrid(3, 1), frozenset()),
    "triangle": (HexGrid(2, 2), frozenset({(1, 1)})),
    "row4": (HexGrid(4, 1), frozenset()),
    "rhombus": (HexGrid(2, 2), frozenset()),
    "zigzag": (HexGrid(3, 2), frozenset({(2, 0), (0, 1)})),
    "arrow": (HexGrid(3, 2), frozenset({(0, 1), (2, 1)})),
    "flat-triangle": (HexGrid(2, 2, "x", "even"), frozenset({(0, 0)})),
    "flat-rhombus": (HexGrid(2, 2, "x", "odd"), frozenset()),
}


def _patterns(grid: HexGrid, void: frozenset[Cell]) -> list[HexBoard]:
    cells = [c for c in grid.cells() if c not in void]
    inner = sorted({grid.edge_between(a, b) for a in cells for b in grid.around(a) if b in cells})
    boards = []
    for walls in itertools.product((False, True), repeat=len(inner)):
        for blocked in itertools.product((False, True), repeat=len(cells)):
            boards.append(HexBoard.build(
                grid, [e for e, w in zip(inner, walls, strict=True) if w], void=void,
                blocked=[c for c, b in zip(cells, blocked, strict=True) if b],
            ))
    return boards


def _check(name: str, rule: HexProfile) -> int:
    """Check every pattern of a cluster; the reference runs once per pattern *it amounts to* under
    the rule (its walls and the hexes that block: blocked terrain is no obstacle under
    ``obstacles = clear``), the fast paths on every board."""
    grid, void = CLUSTERS[name]
    checked = 0
    known: dict[tuple[object, ...], bool] = {}
    for board in _patterns(grid, void):
        cells = [c for c in grid.cells() if board.on_board(c)]
        view = HexView(board, rule)
        amounts = (board.walls, frozenset(c for c in cells if view.cell(c)))
        for a in cells:
            row = field(board, a, rule, engine="cast")
            for b in cells:
                key = (amounts, a, b)
                if key not in known:
                    known[key] = reference(view, a, b).clear
                expected = known[key]
                assert line_verdict(board, a, b, rule) == expected, (name, rule.spec(), board, a, b)
                assert bool(row[b[1], b[0]]) == expected, (name, rule.spec(), board, a, b)
                checked += 1
    return checked


@pytest.mark.parametrize("preset", list(HEX_PRESETS))
@pytest.mark.parametrize("name", list(CLUSTERS))
def test_every_pattern_of_the_clusters_under_the_presets(name: str, preset: str) -> None:
    assert _check(name, HEX_PRESETS[preset]) > 0


OVERRIDES = [
    preset.with_value(parameter, value)
    for preset in HEX_PRESETS.values()
    for parameter, values in HEX_PARAMETERS.items()
    for value in values
    if value != preset.get(parameter)
]


@pytest.mark.slow
@pytest.mark.parametrize("rule", OVERRIDES, ids=[r.spec() for r in OVERRIDES])
@pytest.mark.parametrize("name", ["triangle", "rhombus", "arrow", "flat-rhombus"])
def test_every_pattern_of_the_clusters_under_every_override(name: str, rule: HexProfile) -> None:
    assert _check(name, rule) > 0


def test_a_wrong_verdict_planted_in_the_reference_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check fails when the reference says something else (a test that cannot fail proves nothing)."""
    import game.core.hex_reference as ref

    real = ref.check_line
    monkeypatch.setattr(ref, "check_line", lambda view, a, b, p, q: "planted" if a != b else real(view, a, b, p, q))
    monkeypatch.setattr("tests.test_hex_exhaustive.reference", ref.reference)
    with pytest.raises(AssertionError):
        _check("row3", HEX_PRESETS["hexside"])
