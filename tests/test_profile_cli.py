"""The rule profiles from the command line: P1–P9 through ``sightline los --rule … --json`` for
every preset (on the rule lessons maps/lessons/rules/R01–R09), the map property ``los_rule``, the
rule lessons' verdicts and parameter flips, ``--rule`` errors, and ``sightline compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from support.profile_cases import EXPECTED_COVER
from support.profile_oracle import VECTORS

from game.cli import main
from game.core.profiles import PRESETS
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "maps" / "lessons" / "rules"
RULE_LESSONS = sorted(RULES.glob("*.tmx"))
P_MAPS = {f"P{i}": RULES / f"R0{i}.tmx" for i in range(1, 10)}


def los_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(["los", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def ends(path: Path) -> tuple[str, str]:
    props = load_map(path).board.properties
    return str(props["from"]), str(props["to"])


@pytest.mark.parametrize("name", sorted(P_MAPS))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_vectors_through_los_rule_json(capsys: pytest.CaptureFixture[str], name: str, preset: str) -> None:
    path = P_MAPS[name]
    doc = los_json(capsys, str(path), *ends(path), "--rule", preset)
    assert doc["clear"] is VECTORS[name][3][preset], doc["explanation"]
    assert doc["rule"]["name"] == preset and doc["rule"]["spec"] == preset
    if preset in ("dnd5e", "pf2e"):
        want = EXPECTED_COVER[name][0 if preset == "dnd5e" else 1]
        assert doc["cover"]["grade"] == want, doc["cover"]
    else:
        assert "cover" not in doc


@pytest.mark.parametrize("path", RULE_LESSONS, ids=lambda p: p.stem)
def test_rule_lessons_teach_their_verdict_under_their_los_rule(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    board = load_map(path).board
    rule = str(board.properties["los_rule"])
    doc = los_json(capsys, str(path), *ends(path))  # the map's own rule
    assert doc["rule"]["spec"] == rule
    assert doc["clear"] is (board.properties["expected"] == "clear"), doc["explanation"]
    assert "rule" in str(board.properties["caption"]).casefold() or "parameter" in str(board.properties["caption"]).casefold()


def test_every_parameter_has_a_lesson_pair_that_flips() -> None:
    pairs: dict[str, list[Path]] = {}
    for path in RULE_LESSONS:
        if path.stem[-1] in "ab":
            pairs.setdefault(path.stem[:-1], []).append(path)
    taught = set()
    for paths in pairs.values():
        a, b = (load_map(p).board for p in paths)
        assert a.properties["expected"] != b.properties["expected"]
        assert (a.walls, a.blocked, a.properties["from"]) == (b.walls, b.blocked, b.properties["from"])
        taught.add(str(a.properties["vector"]))
    assert {"from/to", "figures", "corner_touch", "along_wall", "along_square", "boundary"} <= taught


def test_rule_lessons_pass_check() -> None:
    assert main(["check", str(RULES)]) == 0


def test_bad_rules_are_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(P_MAPS["P1"])
    for bad, words in (("chess", "unknown line-of-sight rule 'chess'"), ("corners,figures=some", "cannot be 'some'"),
                       ("corners,colour=red", "unknown rule parameter 'colour'"), ("corners,figures", "parameter=value")):
        assert main(["los", path, "0,0", "2,0", "--rule", bad]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err and err.count("\n") == 1
    bad_map = tmp_path / "bad.tmx"
    text = P_MAPS["P1"].read_text().replace('name="los_rule" value="corners"', 'name="los_rule" value="cornerz"')
    bad_map.write_text(text.replace('source="../../tiles/', f'source="{REPO / "maps" / "tiles"}/'))
    capsys.readouterr()
    assert main(["check", str(bad_map)]) == 1
    assert "los_rule" in capsys.readouterr().out


def test_override_and_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(P_MAPS["P2"])
    doc = los_json(capsys, path, "0,0", "2,0", "--rule", "corners,figures=none")
    assert doc["clear"] is True and doc["rule"]["spec"] == "corners,figures=none"
    assert main(["los", path, "0,0", "2,0", "--rule", "corners"]) == 0
    out = capsys.readouterr().out
    assert "Blocked under corners" in out and out.count("  x corner") == 16
    assert main(["los", path, "0,0", "--rule", "corners"]) == 0
    assert "@o." in capsys.readouterr().out


def test_arcadia_json_unchanged_without_a_rule(capsys: pytest.CaptureFixture[str]) -> None:
    demo = str(REPO / "maps" / "demo.tmx")
    doc = los_json(capsys, demo, "2,2", "4,4")
    assert "rule" not in doc
    ruled = los_json(capsys, demo, "2,2", "4,4", "--rule", "arcadia")
    assert ruled.pop("rule")["name"] == "arcadia" and ruled == doc


def test_compare_lists_disagreements_and_writes_the_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "cmp.png"
    capsys.readouterr()
    assert main(["compare", str(P_MAPS["P4"]), "--rules", "arcadia,corners", "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    pairs = {(tuple(d["from"]), tuple(d["to"])) for d in doc["disagreements"]}
    assert ((0, 0), (2, 2)) in pairs and doc["count"] == len(pairs)
    image = pygame.image.load(str(out))
    assert image.get_width() >= 3 * 32
    assert main(["compare", str(P_MAPS["P4"]), "--rules", "arcadia,corners", "--from", "0,0", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "(0,0) -> (2,2): arcadia no, corners yes" in text
    assert main(["compare", str(P_MAPS["P4"]), "--rules", "arcadia", "-o", str(out)]) == 2
    assert "exactly two rules" in capsys.readouterr().err
