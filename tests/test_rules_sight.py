"""Attacks judge line of sight with the map's rule (its ``los_rule``), through the sight facade,
and say which rule when it is not the default: the rulesets' reasons, ``attack`` and ``odds``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Board, Figure
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset

#: 3×3, blocked terrain in the middle: the centre line (0,0)→(2,2) crosses it, the corner line
#: (1,0)→(3,2) runs past it (docs/line-of-sight.md, vector P5)
ROWS = ["...", ".#.", "..."]


def arcadia(rule: str | None) -> Board:
    board = Board.from_ascii(ROWS, ruleset="arcadia", properties={"los_rule": rule} if rule else {})
    board.place_figure(Figure(1, "Mark", "red", (0, 0), {"attacks": "Long Bow:ranged:3", "life": 5}))
    board.place_figure(Figure(2, "Goblin", "monsters", (2, 2), {"life": 3}))
    return board


def test_arcadia_ranged_attacks_use_the_maps_rule() -> None:
    rules = get_ruleset("arcadia")
    plain = rules.check(AttackRequest(arcadia(None), 1, [2], "Long Bow", {}))
    assert not plain.legal and plain.reason == "no line of sight: square (1,1) is blocked terrain."
    corners = rules.check(AttackRequest(arcadia("corners"), 1, [2], "Long Bow", {}))
    assert corners.legal and corners.reason.endswith("Goblin is in line of sight under corners.")
    strict = rules.check(AttackRequest(arcadia("any-point"), 1, [2], "Long Bow", {}))
    assert not strict.legal
    assert strict.reason.startswith("no line of sight: blocked under any-point: every permitted line is blocked, e.g. ")


def test_conquest_and_folklore_volleys_use_the_maps_rule() -> None:
    for name, stats, attack in (
        ("conquest", {"attacks": 4, "clash": 2, "barrage": 2, "volley": 2, "range": 8, "wound_limit": 3}, None),
        ("folklore", {"hp": 10, "max_hp": 10, "wits": 3, "valour": 2, "senses": 1,
                      "weapons": "Bow:wits:1:ranged"}, None),
    ):
        rules = get_ruleset(name)
        reasons = {}
        for rule in (None, "dnd5e"):
            board = Board.from_ascii(ROWS, ruleset=name, properties={"los_rule": rule} if rule else {})
            board.place_figure(Figure(1, "Archer", "A", (0, 0), dict(stats)))
            board.place_figure(Figure(2, "Target", "B", (2, 2), dict(stats)))
            verdict = rules.check(AttackRequest(board, 1, [2], attack, {}))
            reasons[rule] = verdict
        assert not reasons[None].legal and "line of sight from Archer (0,0) to Target (2,2): Blocked: square (1,1)" in reasons[None].reason
        assert reasons["dnd5e"].legal, (name, reasons["dnd5e"].reason)


MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="3" height="3" tilewidth="32"
     tileheight="32" infinite="0" nextlayerid="3" nextobjectid="10">
 <properties>
  <property name="ruleset" value="arcadia"/>{rule}
 </properties>
 <objectgroup id="2" name="objects">
  <object id="1" name="Mark" type="figure" x="16" y="16">
   <properties>
    <property name="side" value="red"/>
    <property name="attacks" value="Long Bow:ranged:3"/>
    <property name="life" type="int" value="5"/>
   </properties>
   <point/>
  </object>
  <object id="2" name="Goblin" type="figure" x="80" y="80">
   <properties>
    <property name="side" value="monsters"/>
    <property name="life" type="int" value="3"/>
   </properties>
   <point/>
  </object>
  <object id="3" type="blocked" x="33" y="33" width="30" height="30"/>
 </objectgroup>
</map>
"""


def write_map(tmp_path: Path, rule: str | None) -> str:
    extra = f'\n  <property name="los_rule" value="{rule}"/>' if rule else ""
    path = tmp_path / f"arena-{rule or 'default'}.tmx"
    path.write_text(MAP.format(rule=extra), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_attack_and_odds_name_the_rule_they_judged_by(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain, corners = write_map(tmp_path, None), write_map(tmp_path, "corners")
    for command in ("attack", "odds"):
        extra = ["--seed", "3"] if command == "attack" else []
        doc = json.loads(run(capsys, command, plain, "Mark", "Goblin", *extra, "--json"))
        assert doc["legal"] is False and doc["los_rule"] == "arcadia"
        assert "square (1,1) is blocked terrain" in doc["reason"]
        doc = json.loads(run(capsys, command, corners, "Mark", "Goblin", *extra, "--json"))
        assert doc["legal"] is True and doc["los_rule"] == "corners"
        assert doc["reason"].endswith("in line of sight under corners.")
        text = run(capsys, command, corners, "Mark", "Goblin", *extra).splitlines()
        assert "line of sight by the map's rule: corners" in text[:2], text
        assert not any("map's rule" in line for line in run(capsys, command, plain, "Mark", "Goblin", *extra).splitlines())


def test_a_bad_los_rule_stops_an_attack_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write_map(tmp_path, "cornerz")
    assert main(["odds", bad, "Mark", "Goblin"]) == 2
    err = capsys.readouterr().err
    assert "map property los_rule: unknown line-of-sight rule 'cornerz'" in err and err.count("\n") == 1
