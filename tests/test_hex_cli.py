"""Hex maps through the command line: the vectors H1–H6 by ``sightline los`` on real .tmx files,
``check`` on the bundled hex demo and on a wall cutting across a hex, ``render`` drawing hexes
with Tiled's pixel layout (the ray, the field of view) into real PNGs, one-line refusals."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.hex_maps import hex_tmx
from support.hex_vectors import PRESETS, VECTORS

from game.cli import main
from game.core.hexgrid import HexGrid, HexLayout

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "hex-demo.tmx"
CASES = [(v, i) for v in VECTORS for i in range(3)]


@pytest.mark.parametrize(("vector", "rule"), CASES, ids=[f"{v[0]}-{PRESETS[i]}" for v, i in CASES])
def test_the_vectors_through_sightline_los(tmp_path: Path, capsys: pytest.CaptureFixture[str], vector: tuple, rule: int) -> None:
    name, w, h, a, b, walls, blocked, expected = vector
    path = hex_tmx(tmp_path, HexGrid(w, h), HexLayout(32, 37, 18), blocked=blocked, walls=walls)
    assert main(["los", str(path), f"{a[0]},{a[1]}", f"{b[0]},{b[1]}", "--rule", PRESETS[rule], "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["clear"] is expected[rule], answer["explanation"]
    assert answer["grid"] == "hex" and answer["rule"]["name"] == PRESETS[rule]


def test_square_rules_on_a_hex_map_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", str(DEMO), "1,0", "1,2", "--rule", "arcadia"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["sightline los: --rule: line-of-sight rule 'arcadia' is for square boards; on a hex board use: "
                   "gloomhaven, hexside, hex-strict"]


def test_the_demo_shows_the_famous_cases(capsys: pytest.CaptureFixture[str]) -> None:
    """Archer->Goblin is H5, Knight->Orc is H6 on the bundled demo."""
    verdicts = {}
    for pair in (("1,0", "1,2"), ("5,0", "5,2")):
        for rule in PRESETS:
            assert main(["los", str(DEMO), *pair, "--rule", rule, "--json"]) == 0
            verdicts[(pair[0], rule)] = json.loads(capsys.readouterr().out)["clear"]
    assert verdicts == {
        ("1,0", "gloomhaven"): True, ("1,0", "hexside"): True, ("1,0", "hex-strict"): False,
        ("5,0", "gloomhaven"): True, ("5,0", "hexside"): False, ("5,0", "hex-strict"): False,
    }


def test_check_the_demo_is_clean_and_a_wall_across_a_hex_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DEMO)]) == 0
    assert "clean" in capsys.readouterr().out
    grid, layout = HexGrid(4, 3), HexLayout(32, 28, 16)
    extra = '<object id="50" type="wall" x="16" y="0"><polyline points="0,0 16,22"/></object>'
    path = hex_tmx(tmp_path, grid, layout, extra=extra)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error: wall from (16,0) to (32,22) cuts across a hex" in out


def test_render_draws_hexes_the_ray_and_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    out = tmp_path / "demo.png"
    assert main(["render", str(DEMO), "-o", str(out), "--from", "9,5", "--fov", "--rule", "gloomhaven", "--no-legend",
                 "--scale", "56"]) == 0
    picture = pygame.image.load(str(out))
    grid = HexGrid(14, 10, pixels=HexLayout(56, 64, 32))
    m = 56 // 4
    assert picture.get_size() == (grid.size_px(HexLayout(56, 64, 32))[0] + 2 * m, grid.size_px(HexLayout(56, 64, 32))[1] + 2 * m)

    def at(p: tuple[float, float]) -> tuple[int, int, int]:
        x, y = grid.point_px(p, HexLayout(56, 64, 32))  # type: ignore[arg-type]
        return tuple(picture.get_at((round(x) + m, round(y) + m)))[:3]  # type: ignore[return-value]

    seen = at(grid.centre((8, 5)))  # the corridor's open end
    hidden = at(grid.centre((0, 4)))  # behind the room's walls
    assert sum(hidden) < sum(seen) - 150
    wall = grid.edge_between((9, 5), (9, 4))
    mid = ((wall.a[0] + wall.b[0]) / 2, (wall.a[1] + wall.b[1]) / 2)
    assert sum(at(mid)) < 150  # the corridor's wall, drawn dark on the hex side
    ray = tmp_path / "ray.png"
    assert main(["render", str(DEMO), "-o", str(ray), "--from", "1,0", "--to", "1,2"]) == 0
    assert "Clear under hexside" in capsys.readouterr().out or ray.exists()


def test_reach_counts_hex_steps_around_walls(capsys: pytest.CaptureFixture[str]) -> None:
    """The Scout in the one-hex corridor: the corridor's walls make (9,4), its neighbour across the
    north-west side, two steps away (round by the corridor's open end)."""
    assert main(["reach", str(DEMO), "9,5", "3", "--json"]) == 0
    found = {(x, y): n for x, y, n in json.loads(capsys.readouterr().out)["reach"]}
    assert found[(9, 5)] == 0 and found[(10, 5)] == 1 and found[(8, 5)] == 1
    assert found[(9, 4)] == 2 and (10, 4) in found and (10, 6) not in found
    assert main(["reach", str(DEMO), "9,5", "1"]) == 0
    assert capsys.readouterr().out.startswith("2 hexes within 1 hex steps of Scout on (9,5)")


# attack, odds, threats: test_hex_attack*; report, compare: test_hex_report, test_hex_compare; play: test_window_hex;
# balance: test_hex_balance
def test_balance_on_a_hex_map_into_a_folder_it_cannot_make_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(DEMO), "-o", "/nonexistent-balance-dir/sub"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "nonexistent-balance-dir" in lines[0] and captured.out == ""


def test_los_prints_a_field_as_hex_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", str(DEMO), "9,5", "--rule", "gloomhaven"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("95 hexes visible from (9,5)")
    assert lines[1].startswith("o o") and lines[2].startswith(" o o")  # odd rows pushed by half a hex
    assert "@" in lines[1 + 5]


def test_los_prints_a_flat_top_field_with_its_pushed_columns_half_a_row_lower(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = HexGrid(4, 2, staggeraxis="x")
    path = hex_tmx(tmp_path, grid, HexLayout(32, 28, 16), walls=[((0, 0), (1, 0))])
    assert main(["los", str(path), "0,0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # each map row on two lines, the pushed (odd) columns on the lower one, as Tiled draws them;
    # the marks are the --json answer's (the wall hides (1,0), (2,0), (3,0) and (2,1), (3,1))
    assert lines[1:5] == ["@   .", "  .   .", "o   .", "  o   ."]
    assert main(["los", str(path), "0,0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["visible"] == [[0, 0], [0, 1], [1, 1]]


def test_diff_compares_hex_maps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid, layout = HexGrid(4, 3), HexLayout(32, 28, 16)
    before = hex_tmx(tmp_path, grid, layout)
    (tmp_path / "before.tmx").write_text(before.read_text())
    after = hex_tmx(tmp_path, grid, layout, walls=[((1, 1), (2, 1))])
    assert main(["diff", str(tmp_path / "before.tmx"), str(after)]) == 0
    out = capsys.readouterr().out
    assert "pairs lost" in out and " 0 pairs lost" not in out
    assert " hexes changed: " in out.splitlines()[0] and "square" not in out  # the grid's own word
