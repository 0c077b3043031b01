"""The ruleset registry (game/rules/registry.py) and the named steps of a resolution
(game/rules/steps.py): a fifth game is its package plus one registry line; every step a ruleset
logs names the stage that wrote it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Board
from game.core.dice import SeededDice
from game.core.errors import UsageError
from game.core.measure import distance_words
from game.rules.base import AttackRequest
from game.rules.registry import (
    DEFAULT_RULESET,
    RULESETS,
    counts_diagonals,
    forget_ruleset,
    get_ruleset,
    register_ruleset,
    ruleset_key,
)
from game.tiled import load_map

MAPS = Path(__file__).resolve().parent.parent / "maps"
TOY = Path(__file__).resolve().parent  # tests/toygame: the toy game's package

DUEL_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="3"
     tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="3">
 <properties>
  <property name="ruleset" value="Duel"/>
 </properties>
 <objectgroup id="1" name="Figures">
  <object id="1" name="Aya" type="figure" x="16" y="16">
   <properties>
    <property name="side" value="red"/>
    <property name="might" type="int" value="2"/>
    <property name="reach" type="int" value="2"/>
    {aya_extra}
   </properties>
   <point/>
  </object>
  <object id="2" name="Bo" type="figure" x="80" y="80">
   <properties>
    <property name="side" value="blue"/>
    <property name="guard" type="int" value="5"/>
    <property name="hp" type="int" value="1"/>
   </properties>
   <point/>
  </object>
 </objectgroup>
</map>
"""


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy game of ``tests/toygame`` registered as ``duel`` (one line), then taken out."""
    monkeypatch.syspath_prepend(str(TOY))
    register_ruleset("duel", "toygame")
    yield "duel"
    forget_ruleset("duel")


def _duel_map(tmp_path: Path, aya_extra: str = "") -> str:
    path = tmp_path / "duel.tmx"
    path.write_text(DUEL_MAP.format(aya_extra=aya_extra), encoding="utf-8")
    return str(path)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> dict[str, object]:
    assert main(argv) == code
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert isinstance(doc, dict)
    return doc


def test_a_fifth_game_plays_through_odds_attack_and_check(
    duel: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _duel_map(tmp_path)
    assert load_map(path).board.ruleset == "duel"  # the map names it (in its own case)
    # odds: 1D6 + 2 beats guard 5 on a 4, 5 or 6; Bo has 1 HP, so a hit knocks it out
    odds = _json(capsys, ["odds", path, "Aya", "Bo", "--json"])
    assert odds["exact"] == {"distribution": {"0": "1/2", "1": "1/2"}, "expected": "1/2",
                             "kill": "1/2", "chances": {"kill": "1/2"}}
    # attack: the toy's three named steps, in order, each naming its stage
    doc = _json(capsys, ["attack", path, "Aya", "Bo", "--faces", "4", "--json"])
    assert doc["legal"] is True
    assert [(s["stage"], s["kind"]) for s in doc["steps"]] == [  # type: ignore[union-attr, index]
        ("roll", "roll"), ("compare", "compare"), ("damage", "damage")]
    # check: the toy's properties are known (no finding), the map is clean
    report = _json(capsys, ["check", path, "--json"])
    (found,) = report["maps"]  # type: ignore[misc]
    assert found["errors"] == [] and found["warnings"] == []


def test_the_linter_reads_the_fifth_games_properties(
    duel: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _duel_map(tmp_path, '<property name="mihgt" type="int" value="1"/>'
                                '<property name="guard" value="lots"/>')
    report = _json(capsys, ["check", path, "--json"], code=1)
    (found,) = report["maps"]  # type: ignore[misc]
    warnings = {(f["code"], f["hint"]) for f in found["warnings"]}
    assert ("property-unknown", "did you mean might?") in warnings
    (error,) = found["errors"]
    assert error["code"] == "property-value" and "'guard' must be a number" in error["message"]
    assert error["hint"] == "fix the value to one the duel rules read"  # the toy has no doc page


def test_the_fifth_game_declares_diagonal_counting(duel: str) -> None:
    assert counts_diagonals("duel") and counts_diagonals("DUEL")
    board = Board(6, 6, ruleset="duel")
    assert distance_words(board, (0, 0), (3, 2), counts_diagonals(board.ruleset)) == (
        "5 orthogonal steps; 3 squares counting a diagonal step as one (duel)")
    assert not counts_diagonals("arcadia") and not counts_diagonals("no such game")


def test_a_forgotten_game_is_unknown_again(duel: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = _duel_map(tmp_path)
    forget_ruleset("duel")
    assert "duel" not in RULESETS
    with pytest.raises(UsageError, match="unknown ruleset 'duel'"):
        get_ruleset("duel")
    report = _json(capsys, ["check", path, "--json"], code=1)
    (error,) = report["maps"][0]["errors"]  # type: ignore[index]
    assert error["code"] == "ruleset-unknown"
    assert error["hint"] == "set ruleset to arcadia, mage_knight, conquest or folklore"


def test_a_board_that_names_no_ruleset_plays_the_registrys_default() -> None:
    board = Board(3, 1)
    assert board.ruleset == ""  # core names no game: the map's value, or nothing
    assert get_ruleset(board.ruleset).name == DEFAULT_RULESET == ruleset_key("")
    assert ruleset_key(" Mage-Knight ") == "mage_knight"
    # a map without the property plays it too
    assert get_ruleset(load_map(MAPS / "lessons" / "L01.tmx").board.ruleset).name == DEFAULT_RULESET


# --- the named steps ---------------------------------------------------------------------------


def _first_legal(path: Path) -> tuple[Board, AttackRequest]:
    board = load_map(path).board
    rules = get_ruleset(board.ruleset)
    for a in sorted(board.figures):
        for t in sorted(board.figures):
            if a == t:
                continue
            request = AttackRequest(board, a, [t])
            if rules.check(request).legal:
                return board, request
    raise AssertionError(f"no legal attack on {path}")


@pytest.mark.parametrize("name", ["demo", "conquest", "folklore"])
def test_every_step_of_a_resolution_names_a_stage_of_its_ruleset(name: str) -> None:
    board, request = _first_legal(MAPS / f"{name}.tmx")
    rules = get_ruleset(board.ruleset)
    assert rules.stages and len(set(rules.stages)) == len(rules.stages)
    seen: set[str] = set()
    for seed in range(40):
        result = rules.resolve(request, SeededDice(seed))
        assert result.legal and result.steps
        stages = [s.stage for s in result.steps]
        assert set(stages) <= set(rules.stages), stages
        # the stages run in the ruleset's order (each may log several lines, or none)
        order = [rules.stages.index(s) for s in stages]
        assert order == sorted(order)
        assert all(s.as_json()["stage"] == s.stage for s in result.steps)
        seen.update(stages)
    assert len(seen) >= 4  # forty seeds reach most of the steps


def test_mage_knight_names_each_phase_step() -> None:
    board = load_map(MAPS / "mage_knight.tmx").board
    rules = get_ruleset(board.ruleset)
    hero = board.find_figure("Tovak").id
    enemies = [f.id for f in board.figures.values() if f.side != board.figure(hero).side
               and not f.stats.get("unit")]
    attack = rules.resolve(AttackRequest(board, hero, enemies[:1], None,
                                         {"phase": "attack", "play": "12"}), SeededDice(1))
    assert attack.legal
    assert [s.stage for s in attack.steps][:2] == ["attack", "against armor"]
    assign = rules.resolve(AttackRequest(board, hero, enemies[:1], None, {"phase": "assign"}),
                           SeededDice(1))
    assert assign.legal and assign.steps[0].stage == "enemy attack"
    assert {s.stage for s in attack.steps + assign.steps} <= set(rules.stages)


def test_a_steps_stage_is_not_part_of_its_equality() -> None:
    from game.rules.base import Step

    assert Step("note", "x", stage="hit") == Step("note", "x")
    assert Step("note", "x", stage="hit").as_json()["stage"] == "hit"


@pytest.mark.parametrize(("name", "page"), [("arcadia", "arcadia.md"), ("conquest", "conquest.md"),
                                            ("folklore", "folklore.md")])
def test_each_games_page_lists_its_steps_in_order(name: str, page: str) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / page).read_text(encoding="utf-8")
    rules = get_ruleset(name)
    assert rules.doc_page == f"docs/{page}"
    assert " → ".join(rules.stages) + "." in text
