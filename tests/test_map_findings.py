"""Quieter, truer findings (issue #22): what was silent is a finding, repeats are grouped, hints
are valid TOML, "did you mean" only for near misses, unread tiles counted in board squares."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from game.cli import main
from game.core.findings import Severity
from game.designer.lint import lint, near_miss
from game.tiled import is_map_file, load_map

DATA = Path(__file__).resolve().parent / "data"
TSX = '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="4"/>'


def tmx(body: str, *, width: int = 4, height: int = 3, tileset: str = TSX) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            f'width="{width}" height="{height}" tilewidth="32" tileheight="32" nextobjectid="99">\n'
            f"{tileset}\n{body}\n</map>\n")


def layer(name: str, cells: list[int], width: int = 4, height: int = 3) -> str:
    data = ",".join(str(c) for c in cells)
    return f'<layer name="{name}" width="{width}" height="{height}"><data encoding="csv">{data}</data></layer>'


def codes(path: Path) -> list[str]:
    return [f.code for f in load_map(path).findings]


# --- silent before, findings now --------------------------------------------------------------


def test_a_gid_no_tileset_holds_is_a_finding(tmp_path: Path) -> None:
    path = tmp_path / "m.tmx"
    path.write_text(tmx(layer("Ground", [1] * 10 + [99999, 99999])
                        + '<objectgroup name="o"><object id="3" gid="4000" x="0" y="32" width="32" height="32"/>'
                        "</objectgroup>"))
    found = [f for f in load_map(path).findings if f.code == "tile-gid-unknown"]
    assert [(f.object_id, "gid 4000" in f.message) for f in found if f.object_id] == [(3, True)]
    layer_finding = next(f for f in found if f.object_id is None)
    assert "tile layer 'Ground' paints 2 squares" in layer_finding.message and "99999" in layer_finding.message


def test_a_property_without_a_name_is_a_finding_in_tmx_and_json(tmp_path: Path) -> None:
    path = tmp_path / "m.tmx"
    path.write_text(tmx('<objectgroup name="o"><object id="5" type="figure" x="16" y="16"><properties>'
                        '<property value="7"/></properties><point/></object></objectgroup>'))
    finding = next(f for f in load_map(path).findings if f.code == "property-nameless")
    assert finding.object_id == 5 and finding.severity is Severity.WARNING
    doc = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32,
           "tileheight": 32, "tilesets": [], "layers": [], "properties": [{"type": "int", "value": 3}]}
    (tmp_path / "j.tmj").write_text(json.dumps(doc))
    assert "property-nameless" in codes(tmp_path / "j.tmj")


def test_template_cycles_and_nested_templates_are_findings(tmp_path: Path) -> None:
    template = '<?xml version="1.0"?>\n<template><object name="{}" template="{}" width="32" height="32"/></template>'
    (tmp_path / "a.tx").write_text(template.format("A", "b.tx"))
    (tmp_path / "b.tx").write_text(template.format("B", "a.tx"))
    (tmp_path / "c.tx").write_text(template.format("C", "d.tx"))
    (tmp_path / "d.tx").write_text('<?xml version="1.0"?>\n<template><object name="D" width="32" height="32"/></template>')
    (tmp_path / "m.tmx").write_text(tmx('<objectgroup name="o"><object id="1" template="a.tx" x="0" y="0"/>'
                                        '<object id="2" template="c.tx" x="32" y="0"/></objectgroup>'))
    found = {f.code: f for f in load_map(tmp_path / "m.tmx").findings}
    assert "a cycle" in found["template-cycle"].message and found["template-cycle"].object_id == 1
    assert "c.tx uses template d.tx" in found["template-nested"].message


# --- near misses, TOML hints, counts -----------------------------------------------------------


def test_did_you_mean_only_for_near_misses() -> None:
    names = ["side", "life", "attacks", "defense"]
    assert near_miss("inside", names) is None
    assert near_miss("lfe", names) == "life" and near_miss("attakcs", names) == "attacks"
    assert near_miss("defence", names) == "defense" and near_miss("stats.attacks", names) == "attacks"
    assert near_miss("ac", names) is None and near_miss("id", names) is None


def toml_of(hint: str | None) -> str | None:
    """The TOML a hint gives after ``sightline.toml:`` (up to the end), if any."""
    match = re.search(r"sightline\.toml: (.*)$", hint or "")
    return match.group(1).replace(" and ", "\n") if match else None


def test_every_hint_with_toml_in_it_parses(tmp_path: Path) -> None:
    odd = tmp_path / "odd.tmx"
    odd.write_text(tmx(layer("Walls", [1] * 12) + '<objectgroup name="o"><object id="4" type="say &quot;hi&quot; \\ there" '
                       'x="0" y="0" width="32" height="32"/></objectgroup>',
                       tileset=TSX.replace("/>", '><tile id="0" type="Wa&quot;ter"/></tileset>')))
    maps = [odd, *sorted(p for p in DATA.rglob("*") if is_map_file(p))]
    parsed = 0
    for path in maps:
        try:
            findings = lint(load_map(path))
        except Exception:  # noqa: BLE001 - refused maps have no hints to parse
            continue
        for finding in findings:
            text = toml_of(finding.hint)
            if text is not None:
                tomllib.loads(text)
                parsed += 1
    assert parsed >= 20
    hint = next(f.hint for f in load_map(odd).findings if f.code == "unknown-class")
    assert tomllib.loads(toml_of(hint) or "") == {"classes": {"wall": ['say "hi" \\ there']}}


def test_unread_tiles_are_counted_in_board_squares_and_bools_named_as_bools(tmp_path: Path) -> None:
    tileset = TSX.replace("/>", '><tile id="0"><properties><property name="collides" type="bool" value="true"/>'
                          '</properties></tile></tileset>')
    path = tmp_path / "m.tmx"
    path.write_text(tmx(layer("A", [1] * 12) + layer("B", [1] * 6 + [0] * 6), tileset=tileset))
    finding = next(f for f in load_map(path).findings if f.code == "tile-unread")
    assert finding.message.startswith("bool tile property 'collides' (true) is painted on 12 squares of the board")
    assert toml_of(finding.hint) == 'tiles.blocked = ["collides"]'


# --- repeats grouped ---------------------------------------------------------------------------


def test_repeated_findings_are_one_line_with_a_count_and_json_keeps_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = "".join(f'<object id="{i}" name="F{i}" type="figure" x="{16 + 32 * (i % 4)}" y="16"><properties>'
                      f'<property name="ac" type="int" value="{i}"/><property name="side" value="s{i % 2}"/>'
                      "</properties><point/></object>" for i in range(1, 6))
    path = tmp_path / "m.tmx"
    path.write_text(tmx(f'<objectgroup name="o">{figures}</objectgroup>', width=4, height=1))
    main(["check", str(path)])
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "'ac'" in line]
    assert len(lines) == 1 and "[property-unknown: 5 like it; also objects 2, 3, 4, 5]" in lines[0]
    main(["check", "--format", "github", str(path)])
    assert len([line for line in capsys.readouterr().out.splitlines() if "property-unknown" in line]) == 1
    main(["check", "--json", str(path)])
    doc = json.loads(capsys.readouterr().out)["maps"][0]
    assert len([f for f in doc["warnings"] if f["code"] == "property-unknown"]) == 5
    assert "notes" in doc


# --- the command line says what is true --------------------------------------------------------


def test_check_help_names_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ".tmx, .tmj or .json" in text and "infinite maps and zstd layers too" in text
    assert "--suggest" in text and "--layers" in text and "--names" in text


def test_write_needs_suggest_and_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--write", str(DATA / "habits" / "maze" / "maze.tmx")]) == 2
    assert "add --suggest" in capsys.readouterr().err
    shutil.copy(DATA / "habits" / "maze" / "maze.tmx", tmp_path / "maze.tmx")
    (tmp_path / "sightline.toml").write_text("# mine\n")
    assert main(["check", "--suggest", "--write", str(tmp_path / "maze.tmx")]) == 2
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "sightline.toml").read_text() == "# mine\n"


def test_bad_layer_and_name_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    maze = str(DATA / "habits" / "maze" / "maze.tmx")
    assert main(["check", "--layers", "wal=walls", maze]) == 2
    assert "unknown role 'wal' in --layers" in capsys.readouterr().err
    assert main(["check", "--layers", "empty=walls", maze]) == 2
    assert "empty is void or floor" in capsys.readouterr().err
    assert main(["check", "--names", "figure", maze]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
