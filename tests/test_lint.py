"""The map linter: one hand-written map per defect kind (tests/data/lint/), clean maps stay clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.board import Board, Edge, Figure
from game.core.findings import Finding, Severity
from game.designer.lint import (
    check_doors,
    check_figures,
    check_properties,
    check_targets,
    finish,
    known_properties,
    lint,
    lint_board,
    sort_key,
    unit_edges,
)
from game.designer.regions import check_regions, walk_regions
from game.play.ruleset_file import load_with_rules
from game.rules.registry import RULESETS, get_ruleset
from game.tiled import load_map

LINT = Path(__file__).resolve().parent / "data" / "lint"
MAPS = Path(__file__).resolve().parent.parent / "maps"


def lint_file(name: str, **kwargs: bool) -> list[Finding]:
    return lint(load_map(LINT / name), **kwargs)


def where(findings: list[Finding], code: str) -> list[tuple[int | None, tuple[int, int] | None]]:
    return [(f.object_id, f.square) for f in findings if f.code == code]


# --- one map per defect ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["clean.tmx", "empty_board.tmx"])
def test_clean_maps_have_no_findings(name: str) -> None:
    assert lint_file(name) == []
    assert lint_file(name, strict=True) == []


def test_figures_in_void_on_blocked_and_past_capacity() -> None:
    found = lint_file("figures.tmx")
    assert where(found, "figure-in-void") == [(3, (0, 0))]
    assert where(found, "figure-on-blocked") == [(4, (5, 0))]
    assert where(found, "figure-over-capacity") == [(7, (2, 2))]
    crowded = next(f for f in found if f.code == "figure-over-capacity")
    for name in ("First", "Second", "Third"):
        assert name in crowded.message
    assert all(f.severity is Severity.ERROR for f in found)


def test_doors_alone_on_the_border_and_doubled() -> None:
    found = lint_file("doors.tmx")
    assert where(found, "door-not-in-wall") == [(1, (2, 2))]
    assert where(found, "door-on-border") == [(2, (1, 0))]
    assert where(found, "door-duplicate") == [(5, (4, 1))]
    duplicate = next(f for f in found if f.code == "door-duplicate")
    assert "4" in duplicate.message and "5" in duplicate.message
    assert duplicate.severity is Severity.ERROR
    # door 4/5 sits in the line of wall 3: not reported as standing alone
    assert (4, (4, 1)) not in where(found, "door-not-in-wall")


def test_wall_duplicates_overlaps_and_gaps() -> None:
    found = lint_file("walls.tmx")
    assert where(found, "wall-duplicate") == [(4, (4, 0))]
    assert sorted(where(found, "wall-overlap")) == [(6, (2, 3)), (8, (5, 0))]
    assert where(found, "wall-gap") == [(1, (2, 2))]
    gap = next(f for f in found if f.code == "wall-gap")
    assert "wall 2" in gap.message and "(3,2)" in (gap.hint or "")
    duplicate = next(f for f in found if f.code == "wall-duplicate")
    assert "3" in duplicate.message and "4" in duplicate.message
    window = next(f for f in found if f.code == "wall-overlap" and f.object_id == 8)
    assert "window 7" in window.message
    # the loader's own finding about the off-grid vertex comes through the linter too
    assert (1, None) in where(found, "wall-off-grid")


def test_unreachable_and_sealed_regions() -> None:
    found = lint_file("regions.tmx")
    assert where(found, "region-unreachable") == [(None, (5, 3))]
    assert where(found, "region-sealed-by-doors") == [(3, (0, 0))]
    unreachable = next(f for f in found if f.code == "region-unreachable")
    assert unreachable.severity is Severity.WARNING  # no figure stands there (issue #22)
    sealed = next(f for f in found if f.code == "region-sealed-by-doors")
    assert sealed.severity is Severity.WARNING and "V(2,0)" in sealed.message


def test_figures_with_no_target() -> None:
    found = lint_file("sight.tmx")
    assert where(found, "figure-no-target") == [(2, (0, 0)), (3, (0, 3))]
    assert all(f.severity is Severity.WARNING for f in found)


def test_unknown_properties_suggest_the_nearest_name() -> None:
    found = lint_file("properties.tmx")
    unknown = [f for f in found if f.code == "property-unknown" and f.object_id == 1]
    assert [(f.square, f.hint) for f in unknown] == [((1, 1), "did you mean life?")]
    misspelt = [f for f in found if f.code == "map-property-misspelt"]
    assert [f.hint for f in misspelt] == ["did you mean capacity?"]
    # the loader's reserved-property finding passes through
    assert (2, None) in where(found, "reserved-property")


def test_strict_turns_warnings_into_errors() -> None:
    relaxed = lint_file("sight.tmx")
    strict = lint_file("sight.tmx", strict=True)
    assert [f.code for f in relaxed] == [f.code for f in strict]
    assert {f.severity for f in relaxed} == {Severity.WARNING}
    assert {f.severity for f in strict} == {Severity.ERROR}


def test_findings_are_sorted_errors_first_then_object_then_square() -> None:
    found = lint_file("walls.tmx")
    assert found == sorted(found, key=sort_key)
    assert found[0].severity is Severity.ERROR
    severities = [f.severity for f in found]
    assert severities == sorted(severities, key=lambda s: s is not Severity.ERROR)


def test_every_finding_has_a_message_and_a_hint() -> None:
    for name in ("figures.tmx", "doors.tmx", "walls.tmx", "regions.tmx", "sight.tmx", "properties.tmx"):
        for finding in lint_file(name):
            assert finding.message and finding.hint, (name, finding)
            assert finding.code == finding.code.lower() and " " not in finding.code


def test_bundled_maps_have_no_errors() -> None:
    maps = sorted(MAPS.rglob("*.tmx"))
    if not maps:
        pytest.skip("no bundled maps yet")
    errors = [(m.name, f.code, f.object_id, f.square) for m in maps for f in lint(load_with_rules(m))
              if f.severity is Severity.ERROR]
    assert errors == []


# --- the checks on boards built in code ---------------------------------------------------------


def test_door_anchored_by_void_blocked_or_another_door_is_in_a_wall_line() -> None:
    # V(1,1) continues into V(1,0) between (0,0) void and (1,0): a board edge anchors it
    board = Board.from_ascii(["~..", "...", "..."], doors={"V(1,1)": "open"})
    assert check_doors(board) == []
    # blocked terrain beside the continuation anchors it too
    board = Board.from_ascii(["#..", "...", "..."], doors={"V(1,1)": "open"})
    assert check_doors(board) == []
    # a double door between walls: each leaf is continued by the other and a wall
    board = Board.from_ascii(["....", "....", "....", "...."],
                             walls=["V(2,0)", "V(2,3)"], doors={"V(2,1)": "open", "V(2,2)": "open"})
    assert check_doors(board) == []
    board = Board.from_ascii(["...", "...", "..."], doors={"H(1,1)": "open"})
    assert [f.code for f in check_doors(board)] == ["door-not-in-wall"]


def test_walk_regions_windows_block_and_doors_open_only_when_asked() -> None:
    board = Board.from_ascii(["..."], walls=["V(1,0)"], doors={"V(2,0)": "locked"})
    assert [len(r) for r in walk_regions(board, doors_open=True)] == [2, 1]
    assert [len(r) for r in walk_regions(board, doors_open=False)] == [1, 1, 1]
    windowed = Board(3, 1, windows=[Edge("V", 1, 0)])
    assert [len(r) for r in walk_regions(windowed, doors_open=True)] == [2, 1]


def test_regions_ignore_blocked_terrain_and_void() -> None:
    board = Board.from_ascii(["..#..", "~~#.."])
    codes = [f.code for f in check_regions(board)]
    assert codes == ["region-unreachable"]
    # a region holding a figure names it
    board = Board.from_ascii(["..#.."], figures=[Figure(9, "Hermit", "red", (4, 0))])
    found = check_regions(board)
    assert [(f.object_id, f.square) for f in found] == [(9, (3, 0))]
    assert found[0].severity is Severity.ERROR  # a figure stranded there: an error
    assert check_regions(Board.from_ascii(["..#.."]))[0].severity is Severity.WARNING


def test_no_target_counts_sight_either_way_and_skips_single_side_maps() -> None:
    # two red figures stand between Ann and the orc: they block the orc's view of Ann (enemies
    # of the orc) but not Ann's view of the orc (her allies), and the orc sees them: no finding
    blockers = [Figure(2, "B", "red", (1, 0)), Figure(3, "C", "red", (1, 0))]
    board = Board.from_ascii(["..."], figures=[Figure(1, "Ann", "red", (0, 0)), *blockers,
                                              Figure(4, "Orc", "monsters", (2, 0))])
    assert check_targets(board) == []
    walled = Board.from_ascii(["..."], walls=["V(1,0)"],
                              figures=[Figure(1, "Ann", "red", (0, 0)), Figure(4, "Orc", "monsters", (2, 0))])
    assert [f.object_id for f in check_targets(walled)] == [1, 4]
    lonely = Board.from_ascii(["..."], walls=["V(1,0)"],
                              figures=[Figure(1, "Ann", "red", (0, 0)), Figure(2, "Bo", "red", (2, 0))])
    assert check_targets(lonely) == []


def test_properties_without_a_close_name_list_what_the_ruleset_reads() -> None:
    board = Board.from_ascii([".."], figures=[Figure(4, "Ann", "red", (0, 0), {"colour": "red", "side": "red"})])
    found = check_properties(board)
    assert [f.code for f in found] == ["property-unknown"]
    assert "life" in (found[0].hint or "")


def test_unknown_ruleset_is_an_error() -> None:
    board = Board(2, 2, ruleset="chess")
    found = check_properties(board)
    assert [(f.code, f.severity) for f in found] == [("ruleset-unknown", Severity.ERROR)]


def test_known_properties_are_each_registered_rulesets_own() -> None:
    for name in RULESETS:
        known = known_properties(name)
        assert known.names == get_ruleset(name).known_properties and known.problem is None
    assert "life" in (known_properties("Arcadia").names or ())


def test_unknown_ruleset_problem_names_the_registered_ones() -> None:
    known = known_properties("chess")
    assert known.names is None
    assert known.problem == f"unknown ruleset 'chess' (known: {', '.join(RULESETS)})"
    found = check_properties(Board(2, 2, ruleset="chess"))
    assert known.problem in found[0].message


def test_unit_edges_snap_and_refuse_diagonals() -> None:
    from fractions import Fraction as F

    assert unit_edges((F(1, 16), F(0)), (F(0), F(2))) == [Edge("V", 0, 0), Edge("V", 0, 1)]
    assert unit_edges((F(0), F(0)), (F(2), F(2))) == []
    assert unit_edges((F(0), F(0)), (F(1, 2), F(0))) == []


def test_finish_removes_repeats_and_applies_strict() -> None:
    a = Finding("x", Severity.WARNING, "m", 2, (1, 1), "h")
    b = Finding("y", Severity.ERROR, "m", 5, None, "h")
    assert finish([a, a, b]) == [b, a]
    assert [f.severity for f in finish([a], strict=True)] == [Severity.ERROR]


def test_lint_board_without_objects_runs_board_checks() -> None:
    board = Board.from_ascii(["...", ".~."], figures=[Figure(1, "Rook", "red", (1, 1))])
    assert [f.code for f in lint_board(board)] == ["figure-in-void"]


def test_lint_ignore_map_property_silences_codes() -> None:
    board = Board.from_ascii(["..#.."], properties={"lint_ignore": "region-unreachable"})
    assert lint_board(board) == []
    board = Board.from_ascii(["..#.."], properties={"lint_ignore": "figure-no-target"})
    assert [f.code for f in lint_board(board)] == ["region-unreachable"]


def test_findings_on_a_hex_board_say_hex() -> None:
    """The figure and region findings name the board's cells as the grid calls them."""
    from game.core.hex_sight import hex_board

    board = hex_board(
        5, 3, void=[(2, 0), (2, 1), (2, 2)], blocked=[(4, 2)],
        figures=[Figure(1, "A", "red", (2, 1)), Figure(2, "B", "blue", (4, 2))],
    )
    by_code = {f.code: f for f in check_figures(board) + check_regions(board)}
    assert by_code["figure-in-void"].message.endswith("a void (off-board) hex")
    assert by_code["figure-in-void"].hint == "move it onto a painted hex, or paint a tile under it"
    assert by_code["figure-on-blocked"].message.endswith("a blocked terrain hex")
    assert by_code["region-unreachable"].message.startswith("5 hexes ")
    assert "mark those hexes as blocked terrain" in (by_code["region-unreachable"].hint or "")
