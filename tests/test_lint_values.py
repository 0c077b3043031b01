"""The linter on figure property values: what each ruleset cannot use is a ``property-value`` finding.

Real rulesets on small boards built in the test, and ``sightline check`` on a copy of the demo map.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Board, Figure
from game.designer.lint import check_figure_values, lint_board
from game.rules.registry import get_ruleset
from game.tiled import load_map

MAPS = Path(__file__).resolve().parent.parent / "maps"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_lint_reports_bad_arcadia_values() -> None:
    board = Board.from_ascii(["..."], ruleset="arcadia")
    board.place_figure(Figure(7, "Ann", "red", (1, 0),
                              {"attacks": "Sword-melee-3", "life": "lots", "defense": "-2"}))
    found = [f for f in lint_board(board) if f.code == "property-value"]
    assert [(f.object_id, f.square, f.severity.value) for f in found] == [(7, (1, 0), "error")] * 3
    assert found[0].message == (
        "figure Ann: attack 'Sword-melee-3' is not NAME:melee|ranged:DICE (e.g. \"Dusty Blade:melee:3\")"
    )
    assert {f.message for f in found[1:]} == {
        "figure Ann: property 'life' must be a number, not 'lots'",
        "figure Ann: property 'defense' must be 0 or more, not -2",
    }
    assert all("docs/arcadia.md" in f.hint for f in found)


@pytest.mark.parametrize(
    ("ruleset", "stats", "expected"),
    [
        ("folklore", {"weapons": "Sword:strength:2:melee", "armour": -1},
         ["weapon 'Sword:strength:2:melee': the hit check uses valour or wits, not 'strength'",
          "property 'armour' must be 0 or more, not -1"]),
        ("conquest", {"clash": "two", "slain": "perhaps"},
         ["property 'clash' must be a number, not 'two'",
          "property 'slain' must be true or false, not 'perhaps'"]),
        ("mage_knight", {"attack": "4", "armor": 3, "element": "lava", "resistances": "fire, mud",
                         "abilities": "swift, swfit, summon"},
         ["element: unknown element 'lava' (physical, fire, ice or coldfire)",
          "resistances: unknown element 'mud' (physical, fire, ice or coldfire)"]),
    ],
)
def test_figure_problems_per_ruleset(ruleset: str, stats: dict[str, object], expected: list[str]) -> None:
    problems = get_ruleset(ruleset).figure_problems(Figure(1, "F", "s", (0, 0), stats))
    assert problems[: len(expected)] == expected
    if ruleset == "mage_knight":
        assert len(problems) == 3 and problems[2].startswith("abilities: unknown ability 'swfit'")


def test_good_figures_have_no_problems() -> None:
    for name in ("demo.tmx", "folklore.tmx", "mage_knight.tmx", "conquest.tmx"):

        assert check_figure_values(load_map(MAPS / name).board) == [], name


def test_check_command_reports_property_value(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (MAPS / "demo.tmx").read_text(encoding="utf-8")
    bad = text.replace('value="Hex Bolt:ranged:3; Claws:melee:1"', 'value="Hex Bolt-ranged-3"', 1)
    assert bad != text
    path = tmp_path / "bad.tmx"
    path.write_text(bad, encoding="utf-8")
    shutil.copytree(MAPS / "tiles", tmp_path / "tiles")
    code, out, _ = cli(capsys, "check", str(path), "--json")
    doc = json.loads(out)
    codes = [e["code"] for e in doc["maps"][0]["errors"]]
    assert "property-value" in codes and code != 0


