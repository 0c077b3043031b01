"""``report``, ``diff`` and ``play`` under a line-of-sight rule: ``--rule``, else the map's
``los_rule``; coverage, door effects and sight differences computed under that rule (checked
against pair-by-pair verdicts of the profile engine)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.commands.report import write_report
from game.core import sight
from game.core.board import Board, DoorState
from game.core.profiles import parse_rule
from game.designer.coverage import door_effects, standable_mask, visibility_table
from game.designer.mapdiff import diff_boards
from game.tiled import load_map

RULES = Path(__file__).resolve().parent.parent / "maps" / "lessons" / "rules"
P5 = RULES / "R05.tmx"  # 3×3, crates on (1,1); los_rule dnd5e


def pairwise(board: Board, rule_text: str) -> np.ndarray:
    """The visibility table the slow way: one exact verdict per pair of standable squares."""
    rule = parse_rule(rule_text)
    bare = board.copy()
    for fid in list(bare.figures):
        bare.remove_figure(fid)
    keep = standable_mask(board)
    w, n = board.width, board.width * board.height
    table = np.zeros((n, n), dtype=bool)
    for a in bare.squares():
        for b in bare.squares():
            if a != b and keep[a[1], a[0]] and keep[b[1], b[0]]:
                table[a[1] * w + a[0], b[1] * w + b[0]] = sight.line(bare, a, b, rule).clear
    return table


@pytest.mark.parametrize("rule", ["corners", "dnd5e", "any-point", "corners,figures=none,along_wall=clear"])
def test_visibility_table_under_a_rule_is_the_pairwise_verdicts(rule: str) -> None:
    board = Board.from_ascii(["....", ".#..", "..~."], walls=["V(2,0)", "H(1,2)"], doors={"V(3,1)": "closed"})
    assert np.array_equal(visibility_table(board, parse_rule(rule)), pairwise(board, rule))
    assert np.array_equal(visibility_table(board, parse_rule("arcadia")), visibility_table(board))


def test_door_effects_under_a_rule_toggle_each_door() -> None:
    board = Board.from_ascii(["...", "...", "..."], doors={"V(1,0)": "closed", "H(1,2)": "open"}, walls=["V(1,1)"])
    rule = parse_rule("corners")
    effects = door_effects(board, rule=rule)
    base = pairwise(board, "corners")
    for effect in effects:
        other = board.copy()
        other.set_door(effect.door.edge, DoorState.OPEN if effect.door.state.blocks else DoorState.CLOSED)
        changed = np.triu(base ^ pairwise(other, "corners"), 1)
        assert effect.pairs == int(changed.sum()) > 0


def test_report_uses_the_maps_los_rule_and_rule_overrides_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loaded = load_map(P5)
    dnd = write_report(loaded, tmp_path / "dnd", rule=parse_rule("dnd5e"))
    arc = write_report(loaded, tmp_path / "arc")
    assert dnd.coverage is not None and arc.coverage is not None
    # round the crates: every standable square sees (2,2) under dnd5e, fewer under arcadia
    assert dnd.coverage.seen_by[2, 2] == 7 > arc.coverage.seen_by[2, 2]
    want = pairwise(loaded.board, "dnd5e").sum(axis=0).reshape(3, 3)
    assert np.array_equal(dnd.coverage.seen_by, want)
    capsys.readouterr()
    assert main(["report", str(P5), "-o", str(tmp_path / "cli")]) == 0
    assert "rule dnd5e" in capsys.readouterr().out  # the map's los_rule
    assert main(["report", str(P5), "-o", str(tmp_path / "cli2"), "--rule", "arcadia"]) == 0
    assert "rule" not in capsys.readouterr().out


def test_diff_under_a_rule(capsys: pytest.CaptureFixture[str]) -> None:
    old = Board.from_ascii(["...", ".#.", "..."])
    new = Board.from_ascii(["...", "...", "..."])
    arcadia = diff_boards(old, new)
    dnd = diff_boards(old, new, lambda b: visibility_table(b, parse_rule("dnd5e")))
    assert ((0, 0), (2, 2)) in {(c.square, g) for c in arcadia.changes for g in c.gained}
    assert ((0, 0), (2, 2)) not in {(c.square, g) for c in dnd.changes for g in c.gained}  # dnd5e saw it already
    capsys.readouterr()
    assert main(["diff", str(P5), str(P5), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rule"]["spec"] == "dnd5e"
    assert main(["diff", str(P5), str(P5), "--rule", "corners,figures=none"]) == 0
    assert "(rule corners,figures=none)" in capsys.readouterr().out


def test_play_takes_the_rule_into_the_window(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    assert main(["play", str(P5), "--fresh", "--rule", "any-point", "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0
