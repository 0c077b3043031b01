"""The sight facade (game/core/sight.py): one entry for every rule, one result type, one reference,
the map's rule read once and refused in one line when wrong, and the engine table."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from game.core import los, los_tables, profile_los, segment, sight
from game.core.board import Board, Edge, Figure
from game.core.errors import UsageError
from game.core.profiles import PRESETS, parse_rule
from game.core.sight_result import Crossing, LineCheck, Sight

BOARD = ["....", ".#..", "...~", "...."]
WALLS = ["V(2,0)", "H(1,2)", "V(3,3)"]


def board_with(rule: str | None = None) -> Board:
    properties = {"los_rule": rule} if rule is not None else {}
    return Board.from_ascii(BOARD, walls=WALLS, properties=properties,
                            figures=[Figure(1, "A", "red", (0, 0)), Figure(2, "B", "blue", (2, 3))])


def test_rule_none_is_the_maps_los_rule_and_text_is_read() -> None:
    plain, corners = board_with(), board_with("corners,figures=none")
    assert sight.rule_of(plain) == PRESETS["arcadia"] == sight.default_rule("square")
    assert sight.rule_of(corners).spec() == "corners,figures=none"
    assert sight.line(corners, (0, 0), (3, 0)).rule.spec() == "corners,figures=none"
    assert sight.line(corners, (0, 0), (3, 0), "dnd5e").rule.name == "dnd5e"
    assert sight.line(plain, (0, 0), (3, 0), PRESETS["pf2e"]).rule.name == "pf2e"


@pytest.mark.parametrize("value", ["chess", "corners,figures=some", "corners,colour=red"])
def test_a_bad_los_rule_is_one_usage_line(value: str) -> None:
    board = board_with(value)
    for ask in (lambda: sight.rule_of(board), lambda: sight.line(board, (0, 0), (1, 0)),
                lambda: sight.field(board, (0, 0))):
        with pytest.raises(UsageError, match=r"^map property los_rule: ") as caught:
            ask()
        assert "\n" not in str(caught.value)


def test_presets_of_another_grid_are_refused_naming_the_ones_that_fit() -> None:
    """A rule book per grid kind (the hex one is game/core/hex_rules.py's); a preset of one grid
    on another is one line naming the presets that fit; a grid kind without a book is refused."""
    hex_preset = sight.RULE_BOOKS["hex"].presets["gloomhaven"]
    with pytest.raises(UsageError, match=r"'corners' is for square boards; on a hex board use: gloomhaven, hexside, hex-strict$"):
        sight.parse_rule("corners", "hex")
    with pytest.raises(UsageError, match=r"'gloomhaven' is for hex boards; on a square board use: arcadia, corners"):
        sight.parse_rule("gloomhaven", "square")
    with pytest.raises(UsageError, match="on a square board use"):
        sight.resolve(Board(2, 2), hex_preset)
    book = sight.RULE_BOOKS.pop("hex")
    try:
        with pytest.raises(UsageError, match="no line-of-sight rules for hex boards"):
            sight.parse_rule("gloomhaven", "hex")
    finally:
        sight.RULE_BOOKS["hex"] = book


def test_every_rule_answers_with_one_result_type() -> None:
    board = board_with()
    for rule in ("arcadia", "corners", "dnd5e", "pf2e", "any-point", "arcadia,figures=none", "corners,from=centre"):
        for a, b in itertools.product(board.squares(), repeat=2):
            found = sight.line(board, a, b, rule, viewer="red")
            assert isinstance(found, Sight) and found.rule == parse_rule(rule)
            assert found.clear is bool(sight.field(board, a, rule, viewer="red")[b[1], b[0]])
            assert all(isinstance(line, LineCheck) for line in found.lines) and found.lines or a == b
            if found.clear:
                assert found.first_blocker is None and not found.blockers
            else:
                assert isinstance(found.first_blocker, Crossing) and found.first_blocker.blocks
                assert found.first_blocker == found.blockers[0]
                assert found.first_blocker.explain().startswith("Blocked")
            for kind, where, point, blocks, _closed in found.drawing():
                assert kind in ("edge", "corner", "square") and isinstance(point[0], float)
                assert isinstance(where, Edge) is (kind == "edge")
                assert blocks or found.crossings  # the other rules draw only their blockers
            assert found.explain() and json.dumps(found.as_json())
            assert all(isinstance(v, float) for seg in found.segments() for v in (*seg[0], *seg[1]))


def test_centre_line_rules_list_every_crossing_and_the_others_their_lines() -> None:
    board = board_with()
    arc = sight.line(board, (0, 0), (3, 0), "arcadia")
    assert arc.crossings and arc.block_t is not None and arc.checked == 1
    assert len(arc.lines) == 1 and arc.lines[0].start_kind == arc.lines[0].end_kind == "centre"
    assert arc.lines[0].blocker == "crosses wall V(2,0)" and arc.lines[0].blocked_at == ("edge", Edge("V", 2, 0))
    assert {"crossings", "blockers"} <= set(arc.as_json()) and "rule" not in arc.as_json()
    assert arc.as_json(with_rule=True)["rule"]["name"] == "arcadia"
    corners = sight.line(board, (0, 0), (3, 0), "corners")
    assert corners.crossings == () and corners.block_t is None and not corners.clear
    assert corners.checked == 16 and len(corners.blockers) == len(corners.lines) == 16
    doc = corners.as_json()
    assert {"lines", "checked", "rule", "explanation"} <= set(doc) and "crossings" not in doc
    # each blocker sits on its line, where that line first touches the thing named
    for line, blocker in zip(corners.lines, corners.blockers, strict=True):
        assert blocker.line == line.describe() and blocker.reason == line.blocker
        (px, py), (qx, qy) = line.start, line.end
        assert blocker.point == (px + blocker.t * (qx - px), py + blocker.t * (qy - py))
        assert 0 <= blocker.t <= 1


def test_summary_is_short_and_names_the_rule() -> None:
    board = board_with()
    corners = sight.line(board, (0, 0), (3, 0), "corners")
    assert corners.summary().startswith("Blocked under corners: every permitted line is blocked, e.g. corner")
    assert corners.summary().endswith("(15 more lines blocked).") and len(corners.summary()) < len(corners.explain())
    arc = sight.line(board, (0, 0), (3, 0))
    assert arc.summary() == arc.explain() == "Blocked: wall V(2,0) between (1,0) and (2,0)."
    covered = sight.line(board, (0, 0), (3, 0), "arcadia,cover=dnd5e")
    assert covered.explain().startswith("Blocked: wall V(2,0) between (1,0) and (2,0) (rule arcadia,cover=dnd5e).")
    assert covered.cover is not None and " Cover (dnd5e): " in covered.explain()


def test_pairs_and_bits_agree_with_fields_for_every_family() -> None:
    board = board_with()
    for rule in ("arcadia", "corners", "any-point", "corners,from=centre"):
        table = sight.pairs(board, rule, viewer="red")
        bits = np.unpackbits(sight.pair_bits(board, rule, viewer="red"), axis=1, count=16).astype(bool)
        assert np.array_equal(bits, table.reshape(16, 16))
        origins = [(0, 0), (2, 1), (3, 3)]
        targets = np.zeros((4, 4), dtype=bool)
        targets[::2] = True
        chosen = sight.pairs(board, rule, viewer="red", origins=origins, targets=targets)
        for i, (x, y) in enumerate(origins):
            assert np.array_equal(table[y, x], sight.field(board, (x, y), rule, viewer="red"))
            assert np.array_equal(chosen[i], table[y, x] & targets)


def test_the_engine_table_by_grid_and_family() -> None:
    assert {key for key in sight.ENGINES} == {("square", f) for f in ("centre", "corners", "any", "lines")} | {
        ("hex", f) for f in ("centre", "corners", "lines")
    }
    assert [PRESETS[name].family for name in PRESETS] == ["centre", "corners", "corners", "corners", "any"]
    assert sight.by_centre_line(PRESETS["arcadia"]) and not sight.by_centre_line(PRESETS["corners"])
    assert parse_rule("arcadia,boundary=open").family == "centre"  # a centre line never runs along an edge
    assert parse_rule("arcadia,corner_touch=clear").family == "lines"
    assert parse_rule("any-point,along_wall=clear").family == "lines"


@pytest.mark.parametrize("rule", ["arcadia", "arcadia,boundary=open,along_wall=clear", "corners", "dnd5e",
                                  "any-point", "corners,from=centre", "arcadia,corner_touch=blocks"])
def test_every_family_equals_the_one_reference(rule: str) -> None:
    board = board_with()
    for viewer in (None, "red"):
        for a, b in itertools.product(board.squares(), repeat=2):
            ref = sight.reference(board, a, b, rule, viewer=viewer)
            fast = sight.line(board, a, b, rule, viewer=viewer)
            assert fast.clear is ref.clear, (rule, a, b, viewer, ref.explain())
            if sight.by_centre_line(ref.rule):
                assert fast == ref and fast.crossings == ref.crossings and fast.explain() == ref.explain()
            if ref.rule.cover != "none":
                assert fast.cover == ref.cover


def test_the_reference_is_the_generic_engine_and_explains_a_centre_line_by_its_crossings() -> None:
    board = board_with()
    ref = sight.reference(board, (0, 0), (3, 0), "arcadia")
    clear, _lines, _checked = profile_los.decide(board, (0, 0), (3, 0), PRESETS["arcadia"], None, complete=True)
    assert ref.clear is clear is False
    assert ref.crossings == los.exact_crossings(board, (0, 0), (3, 0)) == los.crossings(board, (0, 0), (3, 0))


def test_a_sight_refuses_to_explain_a_board_changed_under_it() -> None:
    board = board_with()
    ray = sight.line(board, (0, 0), (3, 0))
    board.place_figure(Figure(3, "C", "red", (3, 3)))
    assert sight.line(board, (0, 0), (3, 0)) == ray  # equal answers, compared without the old board
    board.set_wall(Edge("V", 1, 0))
    with pytest.raises(RuntimeError, match="board changed"):
        _ = ray.crossings
    assert sight.line(board, (0, 0), (3, 0)).first_blocker.edge == Edge("V", 1, 0)  # type: ignore[union-attr]


def test_clear_caches_forgets_every_engines_boards() -> None:
    board = board_with("corners")
    sight.field(board, (0, 0))
    sight.field(board, (0, 0), "arcadia")
    sight.clear_caches()
    assert not los_tables._CACHES and not segment._VIEWS
