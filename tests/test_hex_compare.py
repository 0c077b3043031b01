"""``sightline compare`` on hex maps (game/commands/hex_compare.py, game/ui/hex_pictures.py): hex
presets side by side on the bundled demo and on real flat-top .tmx files, every listed
disagreement checked against the sight facade pair by pair, the PNG drawn with Tiled's hex layout,
bad input in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from support.hex_maps import hex_tmx

from game.cli import main
from game.core import sight
from game.core.hexgrid import HexGrid, HexLayout
from game.tiled import load_map

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "hex-demo.tmx"
PRESETS = ["gloomhaven", "hexside", "hex-strict"]


def _png_size(path: Path) -> tuple[int, int]:
    import pygame

    image = pygame.image.load(str(path))
    return image.get_width(), image.get_height()


def test_three_presets_on_the_demo_list_exactly_the_pairs_the_facade_disagrees_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cmp.png"
    assert main(["compare", str(DEMO), "--rules", ",".join(PRESETS), "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["grid"] == "hex" and [r["name"] for r in doc["rules"]] == PRESETS
    board = load_map(DEMO).board
    tables = [sight.pairs(board, rule) for rule in PRESETS]
    differ = np.logical_or(tables[0] != tables[1], tables[0] != tables[2])
    listed = {(tuple(d["from"]), tuple(d["to"])) for d in doc["disagreements"]}
    assert doc["count"] == len(listed) > 100
    for ay, ax, by, bx in zip(*np.nonzero(differ), strict=True):  # every disagreeing pair, once
        assert ((ax, ay), (bx, by)) in listed or ((bx, by), (ax, ay)) in listed
    for d in doc["disagreements"][::37]:  # the verdicts are the facade's, pair by pair
        a, b = tuple(d["from"]), tuple(d["to"])
        assert [d[rule] for rule in PRESETS] == [sight.line(board, a, b, rule).clear for rule in PRESETS]
        assert len({d[rule] for rule in PRESETS}) == 2
    width, height = _png_size(out)
    assert width > 3 * board.width * 32 and height > board.height * 20  # three panels side by side


def test_from_one_hex_the_h5_vector_is_a_disagreement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """H5: rubble beside the centre line: hexside sees (1,2) from (1,0), hex-strict does not."""
    path = hex_tmx(tmp_path, HexGrid(3, 3), HexLayout(32, 37, 18), blocked=[(0, 1)])
    out = tmp_path / "h5.png"
    assert main(["compare", str(path), "--rules", "hexside,hex-strict", "--from", "1,0", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "(1,0) -> (1,2): hexside yes, hex-strict no" in text
    assert text.splitlines()[0].startswith("1 hexes seen from (1,0)") and out.stat().st_size > 0


def test_a_flat_top_map_compares_and_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid, layout = HexGrid(7, 5, "x", "even"), HexLayout(40, 34, 20)
    path = hex_tmx(tmp_path, grid, layout, blocked=[(3, 2)], walls=[((1, 1), (2, 1)), ((4, 2), (5, 2))],
                   figures=[("Ann", "red", (0, 2))])
    out = tmp_path / "flat.png"
    assert main(["compare", str(path), "--rules", "gloomhaven,hex-strict", "--from", "0,2", "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    board = load_map(path).board
    g, s = (sight.field(board, (0, 2), rule, viewer="red") for rule in ("gloomhaven", "hex-strict"))
    assert {tuple(d["to"]) for d in doc["disagreements"]} == {(int(x), int(y)) for y, x in zip(*np.nonzero(g != s), strict=True)}
    assert doc["count"] > 0 and _png_size(out)[0] >= 2 * 7 * 24


@pytest.mark.parametrize(("argv", "words"), [
    (["--rules", "hexside"], "--rules needs 2 to 6 rules on a hex map, not 1"),
    (["--rules", "arcadia,corners"], "--rules: line-of-sight rule 'arcadia' is for square boards; on a hex board use"),
    (["--rules", "hexside,gloomhaven", "--from", "40,1"], "--from (40,1) is outside the 14x10 hex map"),
    (["--rules", "hexside,gloomhaven", "--scale", "900"], "--scale must be 4 to 64 pixels per hex"),
])
def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(["compare", str(DEMO), *argv, "-o", str(tmp_path / "x.png")]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and captured.out == "", lines


def test_hex_rules_on_a_square_map_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    square = REPO / "maps" / "demo.tmx"
    if not square.exists():
        pytest.skip("no square demo map")
    assert main(["compare", str(square), "--rules", "hexside,gloomhaven", "-o", str(tmp_path / "x.png")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "square map" in lines[0]
