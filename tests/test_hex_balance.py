"""``sightline balance`` on hex maps (issue #21, docs/balance.md "Hex boards").

**The five-by-two map, by hand.** Pointy-top hexes, odd rows pushed, 5 × 2 hexes, no tiles (every
hex on the board); Red deploys on (0,0) and (0,1), Blue on (4,0) and (4,1) (``deploy``
rectangles round their drawn centres); one wall on the side between (2,0) and (3,0). In
regular-hex geometry (hex width 1, rows 0.866 apart, row 1 pushed by 0.5) that side is the
vertical stretch x = 2.5, |y| ≤ 0.289. Under ``hexside`` a centre line is blocked only by it:

* (0,0)→(4,0) runs along y = 0 and crosses it: blocked; (0,0)→(4,1) passes x = 2.5 at
  y = 0.481, (0,1)→(4,0) at y = 0.371, (0,1)→(4,1) along y = 0.866: clear. So each zone sees
  both hexes of the other (exposure 2/2 each way) and the mean share is (1/2 + 2/2) / 2 = 3/4.
* (4,1) sees every hex but (2,0) (its line passes x = 2.5 at y = 0.173); (4,0) sees neither
  (0,0), (1,0) nor (2,0): Red's only safe hex is (2,0). (0,0) sees neither (3,0) nor (4,0),
  (0,1) not (3,0) (y = 0.173 again): Blue's only safe hex is (3,0).
* Vantage (outside both zones, seeing into both): (1,0), (1,1), (2,1), (3,1); (2,0) sees no
  Blue hex and (3,0) no Red one.
* First strike (no figures: "any figure", Close or sight at any range): turn 1 from the zone,
  Red from (0,0) (the first zone hex in row order that sees Blue) on (4,1), Blue from (4,0) on
  (0,1) (the nearest Blue hex, 4 hex steps, it sees: (0,0) is as near but hidden).
* Choke points (shortest paths in hex steps, the wall closing the step (2,0)–(3,0)): from
  (0,0) there are 9 shortest paths to Blue, 6 through (1,0); from (0,1) 3, all through (1,1);
  the other way 2 from (4,0) and 1 from (4,1). Averaged over start hexes and directions:
  (2,1) 1, (1,1) 11/12, (3,1) 17/24, (3,0) 7/24, (1,0) 1/6, (2,0) 1/12.
* Symmetry: of the twelve symmetries of the hex lattice only the half turn maps this map's
  hexes onto its hexes (two rows: the left-right mirror would put row 0 between columns), and it
  swaps the zones; the wall's image, the side between (1,1) and (2,1), has no wall: named, and
  the broken pairs are exactly those pairwise ``sight.line`` gives.

Real files through the real reader (and the real Tiled editor where installed), real rulesets,
real pygame under the dummy driver.
"""

from __future__ import annotations

import html
import json
import math
import os
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hex_balance_map import LAYOUT, balance_tmx

from game.cli import main
from game.core import sight
from game.core.board import Figure
from game.core.hex_sight import hex_board
from game.core.hexgrid import HexGrid, HexLayout
from game.designer.balance import balance
from game.designer.coverage import geometry_board, standable_mask
from game.designer.zones import hex_linear_maps, symmetries
from game.play.ruleset_file import load_with_rules
from game.resources import bundled_maps
from game.tiled import load_map

TILED = shutil.which("tiled")
RED, BLUE = [(0, 0), (0, 1)], [(4, 0), (4, 1)]
WALL = ((2, 0), (3, 0))
HEXSIDE = '<property name="los_rule" value="hexside"/>'


def five_by_two(tmp: Path, *, repaired: bool = False, name: str = "five.tmx") -> Path:
    """The map of the module's docstring (``repaired``: the wall's half-turn image added too)."""
    walls = [WALL] + ([((1, 1), (2, 1))] if repaired else [])
    return balance_tmx(tmp / name, HexGrid(5, 2), zones=[("Red", RED), ("Blue", BLUE)], walls=walls, props=HEXSIDE)


def _cells(mask: np.ndarray) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for y, x in np.argwhere(mask)}


# --- every number by hand --------------------------------------------------------------------


def test_every_number_of_the_five_by_two_map_is_the_hand_count(tmp_path: Path) -> None:
    loaded = load_map(five_by_two(tmp_path))
    report = balance(loaded.board, loaded.objects, rules=["hexside"])
    assert [(z.side, sorted(z.squares), z.source) for z in report.zones] == [
        ("Blue", BLUE, "objects"), ("Red", RED, "objects")]
    numbers = report.rules[0]
    red, blue = numbers.side("Red"), numbers.side("Blue")
    for s in (red, blue):
        assert (s.exposure.seen, s.exposure.size, s.exposure.mean) == (2, 2, Fraction(3, 4))
    assert (red.first_strike.turn, red.first_strike.steps, red.first_strike.square, red.first_strike.target) == \
        (1, 0, (0, 0), (4, 1))
    assert (blue.first_strike.turn, blue.first_strike.steps, blue.first_strike.square, blue.first_strike.target) == \
        (1, 0, (4, 0), (0, 1))
    assert _cells(red.safe) == {(2, 0)} and _cells(blue.safe) == {(3, 0)}
    assert _cells(numbers.vantage) == {(1, 0), (1, 1), (2, 1), (3, 1)}
    chokes = {sq: Fraction(v).limit_denominator(100) for sq, v in report.choke_points()
              if sq not in RED + BLUE}
    assert chokes == {(2, 1): 1, (1, 1): Fraction(11, 12), (3, 1): Fraction(17, 24), (3, 0): Fraction(7, 24),
                      (1, 0): Fraction(1, 6), (2, 0): Fraction(1, 12)}
    (check,) = numbers.symmetry
    assert check.transform == "half turn"
    assert check.geometry == ("wall between (2,0) and (3,0) has no wall between (1,1) and (2,1)",)
    assert check.broken > 0 and report.symmetry_note == ""
    assert any("sight does not" in f and "half turn" in f for f in report.findings)


def test_the_broken_pairs_are_the_pairs_sight_line_gives(tmp_path: Path) -> None:
    loaded = load_map(five_by_two(tmp_path))
    report = balance(loaded.board, loaded.objects, rules=["hexside"])
    (check,) = report.rules[0].symmetry
    bare = geometry_board(loaded.board)
    (half,) = symmetries(bare)
    cells = list(bare.grid.cells())
    broken = [(p, q) for p in RED + BLUE for q in cells
              if sight.line(bare, p, q, "hexside").clear != sight.line(bare, half.apply(p), half.apply(q), "hexside").clear]
    assert check.broken == len(broken) == 14
    assert {(p, q) for p, q, _ in check.examples} <= set(broken)


def test_the_repaired_map_keeps_its_half_turn(tmp_path: Path) -> None:
    loaded = load_map(five_by_two(tmp_path, repaired=True))
    report = balance(loaded.board, loaded.objects)  # every hex rule: hexside, gloomhaven, hex-strict
    assert [r.rule.spec() for r in report.rules] == ["hexside", "gloomhaven", "hex-strict"]
    for numbers in report.rules:
        (check,) = numbers.symmetry
        assert (check.transform, check.broken, check.geometry) == ("half turn", 0, ())
        red, blue = numbers.side("Red"), numbers.side("Blue")
        assert red.exposure == blue.exposure and red.first_strike.turn == blue.first_strike.turn
        assert int(red.safe.sum()) == int(blue.safe.sum())
    assert not any("mirror" in f for f in report.findings)


# --- the symmetries of the hex lattice --------------------------------------------------------


def _euclid_symmetries(grid: HexGrid) -> list[tuple[str, int]]:
    """The isometries of the plane (turns by 60°·k, mirrors on lines at 30°·k) about the centroid
    of the cells' drawn centres (regular hexes, y up, floats) that map the centres onto the
    centres: ("turn", degrees anticlockwise) or ("mirror", axis degrees from the x-axis)."""
    pts = []
    for x, y in grid.cells():
        col, row = (x, y) if grid.pointy else (y, x)
        fx, fy = math.sqrt(3) * (col + 0.5 * grid.pushed(row)), -1.5 * row
        pts.append((fx, fy) if grid.pointy else (-fy, -fx))
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    have = {(round(x - cx, 6), round(y - cy, 6)) for x, y in pts}
    found = []
    for kind, k in [("turn", k) for k in range(1, 6)] + [("mirror", k) for k in range(6)]:
        a = math.radians(60 * k if kind == "turn" else 60 * k)  # mirror: 2θ with θ = 30°·k
        c, s = math.cos(a), math.sin(a)
        m = ((c, -s), (s, c)) if kind == "turn" else ((c, s), (s, -c))
        image = {(round(m[0][0] * x + m[0][1] * y, 6) + 0.0, round(m[1][0] * x + m[1][1] * y, 6) + 0.0) for x, y in have}
        if image == {(x + 0.0, y + 0.0) for x, y in have}:
            found.append((kind, 60 * k if kind == "turn" else 30 * k))
    return found


def _named(name: str) -> tuple[str, int]:
    if name == "half turn":
        return ("turn", 180)
    if name.startswith("turn by"):
        deg = int(name.split()[2].rstrip("°"))
        return ("turn", deg if name.endswith("anticlockwise") else 360 - deg)
    axis = {"mirror top-bottom": 0, "mirror left-right": 90}.get(name)
    if axis is None:
        deg = int(name.split()[-1].rstrip("°"))
        axis = deg if "rising" in name else 180 - deg
    return ("mirror", axis)


@pytest.mark.parametrize("axis", ["y", "x"])
@pytest.mark.parametrize("index", ["odd", "even"])
@pytest.mark.parametrize("size", [(1, 1), (2, 2), (3, 1), (1, 3), (5, 2), (5, 3), (4, 4), (3, 3), (6, 5)])
def test_the_symmetries_kept_are_the_plane_isometries_of_the_drawn_centres(axis: str, index: str, size: tuple[int, int]) -> None:
    grid = HexGrid(*size, axis, index)  # type: ignore[arg-type]
    found = symmetries(hex_board(*size, staggeraxis=axis, staggerindex=index))  # type: ignore[arg-type]
    assert sorted(_named(t.name) for t in found) == sorted(_euclid_symmetries(grid))
    cells = set(grid.cells())
    for t in found:
        assert {t.apply(c) for c in cells} == cells
        assert all(grid.distance(t.apply(a), t.apply(b)) == grid.distance(a, b) for a in cells for b in cells)
    assert len(hex_linear_maps()) == 12


def test_a_stagger_that_rules_out_the_mirror_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Five rows, odd ones pushed: the zones on the west and east edges would mirror left to
    right on paper, but the stagger makes no left-right mirror exact; only top-bottom is."""
    path = balance_tmx(tmp_path / "rows.tmx", HexGrid(5, 5), zones=[("Red", [(0, 2)]), ("Blue", [(4, 2)])],
                       props=HEXSIDE)
    report = balance(load_map(path).board, load_map(path).objects, rules=["hexside"])
    assert report.rules[0].symmetry == ()
    assert report.symmetry_note.startswith("No reflection or rotation maps the zones onto each other; the map's "
                                           "cells allow only mirror top-bottom")
    assert "rows are staggered (odd ones pushed, 5 of them)" in report.symmetry_note
    assert main(["balance", str(path), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert report.symmetry_note in out
    doc = json.loads((tmp_path / "out" / "balance.json").read_text(encoding="utf-8"))
    assert doc["symmetry_note"] == report.symmetry_note and doc["rules"][0]["symmetry"] == []
    assert html.escape(report.symmetry_note) in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


# --- exposure against pairwise sight.line, on random boards ------------------------------------


@st.composite
def _boards(draw: st.DrawFn) -> tuple[Any, str]:
    w, h = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    axis, index = draw(st.sampled_from(["x", "y"])), draw(st.sampled_from(["odd", "even"]))
    grid = HexGrid(w, h, axis, index)  # type: ignore[arg-type]
    cells = list(grid.cells())
    edges = sorted({grid.edge_between(a, b) for a in cells for b in grid.neighbours(a)}, key=str)
    walls = draw(st.lists(st.sampled_from(edges), max_size=4, unique=True)) if edges else []
    blocked = draw(st.lists(st.sampled_from(cells), max_size=2, unique=True))
    free = [c for c in cells if c not in blocked]
    picked = draw(st.lists(st.sampled_from(free), min_size=2, max_size=min(6, len(free)), unique=True)) \
        if len(free) >= 2 else []
    split = draw(st.integers(1, max(1, len(picked) - 1)))
    figures = [Figure(i, f"f{i}", "a" if i <= split else "b", c) for i, c in enumerate(picked, 1)]
    rule = draw(st.sampled_from(["hexside", "gloomhaven", "hex-strict"]))
    board = hex_board(w, h, staggeraxis=axis, staggerindex=index, walls=walls, blocked=blocked,  # type: ignore[arg-type]
                      figures=figures)
    return board, rule


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_boards())
def test_exposure_vantage_and_safe_hexes_are_pairwise_sight_line(case: tuple[Any, str]) -> None:
    board, rule = case
    if len({f.side for f in board.figures.values()}) < 2:
        return
    report = balance(board, {}, rules=[rule])
    bare = geometry_board(board)
    standable = standable_mask(bare)
    zones = {z.side: z.squares for z in report.zones}
    sees = {(p, q): sight.line(bare, p, q, rule).clear for p in bare.grid.cells() for q in bare.grid.cells()
            if standable[p[1], p[0]] and standable[q[1], q[0]]}
    numbers = report.rules[0]
    for s in numbers.sides:
        mine, theirs = zones[s.side], zones[s.other]
        seen = {t for t in theirs if any(sees[(p, t)] for p in mine)}
        assert s.exposure.seen == len(seen) and _cells(s.seen) == seen
        assert s.exposure.mean == sum((Fraction(sum(sees[(p, t)] for t in theirs), len(theirs)) for p in mine),
                                      Fraction(0)) / len(mine)
        safe = {q for q in bare.grid.cells() if standable[q[1], q[0]] and q not in theirs
                and not any(sees[(t, q)] for t in theirs)}
        assert _cells(s.safe) == safe
    first, second = report.zones[0].squares, report.zones[1].squares
    vantage = {q for q in bare.grid.cells() if standable[q[1], q[0]] and q not in first | second
               and any(sees[(p, q)] for p in first) and any(sees[(p, q)] for p in second)}
    assert _cells(numbers.vantage) == vantage


# --- the command: the same text and JSON as on squares ------------------------------------------


def _same_shape(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two JSON documents differ in shape: keys, and the types of values (lists by their
    first elements; an empty list fits any list, null fits anything)."""
    if a is None or b is None:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{where}: keys {sorted(set(a) ^ set(b))}"]
        return [d for k in a for d in _same_shape(a[k], b[k], f"{where}/{k}")]
    if isinstance(a, list) and isinstance(b, list):
        return _same_shape(a[0], b[0], f"{where}[0]") if a and b else []
    same = type(a) is type(b) or {type(a), type(b)} <= {int, float}
    return [] if same else [f"{where}: {type(a).__name__} vs {type(b).__name__}"]


def test_the_command_on_a_hex_map_prints_and_writes_what_it_does_on_squares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    hexes = five_by_two(tmp_path)
    assert main(["balance", str(hexes), "-o", str(tmp_path / "hex"), "--rules", "hexside"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"wrote {tmp_path / 'hex' / 'index.html'} and balance.json (8 images; 1 rule, 1 finding)"
    assert text[1].startswith("  The zones mirror each other (half turn), but sight does not: pairs of hexes "
                              "that do not see each other as their images do (hexside 14 pairs); the geometry "
                              "differs: wall between (2,0) and (3,0)")
    assert main(["balance", str(hexes), "-o", str(tmp_path / "hex2"), "--json", "--rules", "hexside"]) == 0
    hex_doc = json.loads(capsys.readouterr().out)
    assert main(["balance", str(bundled_maps() / "ford.tmx"), "-o", str(tmp_path / "sq"), "--json",
                 "--rules", "arcadia"]) == 0
    square_doc = json.loads(capsys.readouterr().out)
    assert _same_shape(hex_doc, square_doc) == []
    assert _same_shape(hex_doc["rules"][0], {**square_doc["rules"][0], "sides": [{}]}) != []  # the check can fail
    assert hex_doc["rules"][0]["sides"][1]["first_strike"] == {
        "turn": 1, "striker": "any figure", "steps": 0, "square": [0, 0], "target": [4, 1], "path": [[0, 0]]}
    pictures = sorted(p.name for p in (tmp_path / "hex").glob("*.png"))
    assert pictures == ["chokes.png", "exposure-1.png", "safe-1-1.png", "safe-1-2.png", "strikes-1.png",
                        "symmetry-1.png", "vantage-1.png", "zones.png"]


@pytest.mark.skipif(TILED is None, reason="the Tiled editor is not installed")
def test_real_tiled_exports_the_map_to_the_same_report(tmp_path: Path) -> None:
    path = five_by_two(tmp_path)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run([TILED, "--export-map", "json", str(path), str(tmp_path / "five.tmj")],  # type: ignore[list-item]
                   env=env, check=True, timeout=60, capture_output=True)
    reports = []
    for p in (path, tmp_path / "five.tmj"):
        loaded = load_map(p)
        reports.append(balance(loaded.board, loaded.objects, rules=["hexside"]).as_json())
    assert reports[0] == reports[1]
    assert [z["squares"] for z in reports[1]["zones"]] == [[[4, 0], [4, 1]], [[0, 0], [0, 1]]]


# --- the rulesets that play on hexes, and the one that does not ---------------------------------

FIGURES = {
    "arcadia": ('<property name="life" type="int" value="5"/>'
                '<property name="attacks" value="Short Bow:ranged:2; Dagger:melee:1"/>'),
    "folklore": ('<property name="valour" type="int" value="3"/><property name="wits" type="int" value="2"/>'
                 '<property name="senses" type="int" value="2"/><property name="hp" type="int" value="12"/>'
                 '<property name="max_hp" type="int" value="12"/><property name="armour" type="int" value="1"/>'
                 '<property name="weapons" value="Sword:valour:2:melee; Bow:valour:1:ranged"/>'),
}


@pytest.mark.parametrize("ruleset", ["arcadia", "folklore", "mage_knight", "file"])
def test_every_ruleset_that_plays_on_hexes_strikes_in_hex_steps(tmp_path: Path, ruleset: str) -> None:
    """Seven hexes in a row, a figure of each side at either end: who strikes first, how far."""
    grid = HexGrid(7, 1)
    props = HEXSIDE
    if ruleset == "mage_knight":
        figures = [("Tovak", "hero", (0, 0), '<property name="armor" type="int" value="2"/>'),
                   ("Prowlers", "enemies", (6, 0), '<property name="attack" type="int" value="4"/>'
                    '<property name="armor" type="int" value="3"/><property name="fame" type="int" value="2"/>')]
    elif ruleset == "file":
        text = (bundled_maps() / "skirmish.toml").read_text(encoding="utf-8")
        (tmp_path / "steps.toml").write_text(text.replace('title = "Lantern Skirmish"',
                                                          'title = "Lantern Skirmish"\ndistance = "steps"'), "utf-8")
        stats = ('<property name="shots" type="int" value="2"/><property name="range" type="int" value="3"/>'
                 '<property name="melee" type="int" value="1"/><property name="move" type="int" value="2"/>')
        figures = [("Ann", "red", (0, 0), stats), ("Bob", "blue", (6, 0), stats)]
        props += '<property name="ruleset" value="file:steps.toml"/>'
    else:
        figures = [("Ann", "red", (0, 0), FIGURES[ruleset] + '<property name="move" type="int" value="2"/>'),
                   ("Bob", "blue", (6, 0), FIGURES[ruleset] + '<property name="move" type="int" value="2"/>')]
    if ruleset != "file":
        props += f'<property name="ruleset" value="{ruleset}"/>'
    path = balance_tmx(tmp_path / "row.tmx", grid, zones=[], figures=figures, props=props)
    loaded = load_with_rules(path)  # with the ruleset file beside it, as the command reads it
    report = balance(loaded.board, loaded.objects, rules=["hexside"])
    strikes = {s.side: s.first_strike for s in report.rules[0].sides}
    if ruleset == "mage_knight":  # abstract combat: the Hero attacks anywhere, at once; enemies only answer
        assert (strikes["hero"].turn, strikes["hero"].steps) == (1, 0) and strikes["enemies"].turn is None
    elif ruleset == "file":  # shots within 3 hex steps: 3 steps of move 2 = turn 2
        for strike in strikes.values():
            assert strike.turn == 2 and strike.steps == 3 and strike.square is not None and strike.target is not None
            assert loaded.board.grid.distance(strike.square, strike.target) == 3
    else:  # a ranged attack needs only sight: at once, from where it stands
        assert {(s.turn, s.steps) for s in strikes.values()} == {(1, 0)}
    assert all(by[1] > 0 for by in report.damage.values()) or ruleset == "mage_knight"


@pytest.mark.parametrize(("ruleset", "why"), [
    ("conquest", "is a hex map: the Conquest: First Blood rules play on square boards only"),
    ("file:skirmish.toml", "is a hex map: "),  # its Shot range counts a diagonal step as one
])
def test_a_ruleset_that_needs_squares_refuses_a_hex_map_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str, why: str,
) -> None:
    shutil.copyfile(bundled_maps() / "skirmish.toml", tmp_path / "skirmish.toml")
    path = balance_tmx(tmp_path / "c.tmx", HexGrid(5, 2), zones=[("Red", RED), ("Blue", BLUE)],
                       props=f'<property name="ruleset" value="{ruleset}"/>')
    assert main(["balance", str(path), "-o", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    assert why in line and ("diagonal" in line or "Conquest" in line)
    assert captured.out == "" and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("map_name", "rule", "grid"), [("hex-skirmish.tmx", "arcadia", "hex"),
                                                        ("ford.tmx", "gloomhaven", "square")])
def test_a_rule_of_the_other_grid_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], map_name: str, rule: str, grid: str,
) -> None:
    assert main(["balance", str(bundled_maps() / map_name), "-o", str(tmp_path / "out"), "--rules", rule]) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    assert line.startswith(f"sightline balance: --rules: line-of-sight rule {rule!r} is for") and f"on a {grid} board use" in line
    assert captured.out == "" and not (tmp_path / "out").exists()


# --- the pictures and the window ---------------------------------------------------------------


def test_the_report_pictures_draw_hexes(tmp_path: Path) -> None:
    from game.commands.balance import write_balance
    from game.ui.hex_balance import HexBalancePictures

    loaded = load_map(five_by_two(tmp_path))
    written = write_balance(loaded, tmp_path / "out", rules=["hexside"])
    zones = pygame.image.load(str(tmp_path / "out" / "zones.png"))
    pictures = HexBalancePictures(loaded.board, None, HexBalancePictures.scale_for(loaded.board.grid),  # type: ignore[arg-type]
                                  written.report.zones)
    red, empty = pictures.centre((0, 1)), pictures.centre((2, 1))
    colour, floor = zones.get_at(red), zones.get_at(empty)
    tint = pictures.colours["Red"]
    assert abs(colour.r - floor.r) + abs(colour.g - floor.g) + abs(colour.b - floor.b) > 60  # tinted
    assert sum(abs(a - b) for a, b in zip(colour[:3], tint, strict=True)) < \
        sum(abs(a - b) for a, b in zip(floor[:3], tint, strict=True))  # towards Red's colour
    assert 'src="symmetry-1.png"' in written.index.read_text(encoding="utf-8")


@pytest.mark.parametrize("size", [(1000, 650), (1280, 800), (2400, 1400)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_shift_b_draws_the_report_on_the_hex_board(tmp_path: Path, size: tuple[int, int]) -> None:
    from game.play.session import Session
    from game.ui.app import App
    from game.ui.balance_images import SEEN

    pygame.display.init()
    pygame.font.init()
    app = App(Session.open(five_by_two(tmp_path), autosave=False, fresh=True),
              screen=pygame.display.set_mode(size), watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    spot = app.view.square_centre((4, 1))
    spot = (spot[0], spot[1] - round(app.view.cell * 0.25))  # above the number written on it
    before = app.screen.get_at(spot)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b, mod=pygame.KMOD_LSHIFT, unicode="", scancode=0))
    app.frame()
    shown = app.last_frame.balance
    assert shown is not None and {s: sorted(q) for s, q in shown.zones} == {"Blue": BLUE, "Red": RED}
    assert {(int(x), int(y)): int(shown.watched[y, x]) for y, x in np.argwhere(shown.watched)} == \
        {(0, 0): 1, (0, 1): 2, (4, 0): 1, (4, 1): 2}
    after = app.screen.get_at(spot)
    assert after != before and after.r > after.b and abs(after.r - SEEN[0]) < 60  # tinted orange
    legend = app.overlays.balance.legend
    assert "Red sees 100% of Blue" in legend and "half turn" in legend
    edge = app.view.hexes.edge_between((0, 1), (1, 1))  # type: ignore[union-attr]
    a, b = app.view.lattice_point(edge.a), app.view.lattice_point(edge.b)
    rim = app.screen.get_at((round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
    assert rim[:3] != before[:3]  # Red's zone outlined along its hex side



def _facts(report: Any, cell: Any) -> dict[str, Any]:
    """A report's numbers with every cell passed through ``cell`` (sets where the order is the
    board's row order)."""
    numbers = report.rules[0]
    out: dict[str, Any] = {"zones": {z.side: {cell(c) for c in z.squares} for z in report.zones},
                           "vantage": {cell(c) for c in _cells(numbers.vantage)},
                           "symmetry": [(c.transform, c.broken) for c in numbers.symmetry],
                           "chokes": {cell((int(x), int(y))): round(float(report.chokes[y, x]), 9)
                                      for y, x in np.argwhere(report.chokes > 0)}}
    for s in numbers.sides:
        f = s.first_strike
        out[s.side] = (s.exposure, f.turn, f.steps, cell(f.square), cell(f.target), {cell(c) for c in _cells(s.safe)},
                       {cell(c) for c in _cells(s.safe_turns)})
    return out


@pytest.mark.parametrize("index", ["odd", "even"])
def test_the_same_map_drawn_flat_top_gives_the_same_report_transposed(tmp_path: Path, index: str) -> None:
    """The five-by-two map drawn with the other stagger axis (two columns of five flat-top hexes,
    each cell (x, y) at (y, x)) under both stagger indexes: the same numbers at the transposed
    cells and the same symmetry."""
    pointy, flat = HexGrid(5, 2, "y", index), HexGrid(2, 5, "x", index)  # type: ignore[arg-type]
    same = lambda c: c  # noqa: E731
    swap = lambda c: (c[1], c[0])  # noqa: E731
    reports = []
    for grid, cells in ((pointy, same), (flat, swap)):
        path = balance_tmx(tmp_path / f"{grid.staggeraxis}.tmx", grid,
                           zones=[("Red", [cells(c) for c in RED]), ("Blue", [cells(c) for c in BLUE])],
                           walls=[(cells(WALL[0]), cells(WALL[1]))], props=HEXSIDE,
                           layout=LAYOUT if grid.pointy else HexLayout(37, 32, 18))
        loaded = load_map(path)
        reports.append(balance(loaded.board, loaded.objects, rules=["hexside"]))
    assert _facts(reports[0], same) == _facts(reports[1], swap)
    assert _facts(reports[0], same)["symmetry"][0][0] == "half turn"


# --- a playing area made symmetric by void around it -------------------------------------------

#: Pointy-top, odd rows pushed, 4 × 3 hexes; only the seven-hex flower around (1,1) has tiles:
#: (1,1) and its six neighbours (1,0) NW, (2,0) NE, (0,1) W, (2,1) E, (1,2) SW, (2,2) SE. The
#: rectangle's cells allow only the top-bottom mirror (three rows, odd ones pushed); the flower
#: has all twelve symmetries of the hex lattice. Red deploys on W, Blue on E: the symmetries
#: swapping W and E about (1,1) are the half turn (W ↦ E) and the left-right mirror (the vertical
#: axis through (1,1)); a reflection on the axis at θ sends the direction φ to 2θ − φ, and W (180°)
#: to E (0°) only for θ = 90°.
FLOWER = [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]


def _flower(tmp: Path, walls: list[tuple[tuple[int, int], tuple[int, int]]]) -> Path:
    from support.hex_maps import hex_tmx

    grid = HexGrid(4, 3)
    deploy = []
    for oid, (side, cell) in enumerate((("Red", (0, 1)), ("Blue", (2, 1))), 90):
        cx, cy = grid.centre_px(cell, LAYOUT)
        deploy.append(f'<object id="{oid}" type="deploy" x="{cx - 4:g}" y="{cy - 4:g}" width="8" height="8">'
                      f'<properties><property name="side" value="{side}"/></properties></object>')
    void = [c for c in grid.cells() if c not in FLOWER]
    return hex_tmx(tmp, grid, LAYOUT, void=void, walls=walls, extra="".join(deploy), props=HEXSIDE)


def test_a_playing_area_made_symmetric_by_void_keeps_its_symmetry(tmp_path: Path) -> None:
    loaded = load_map(_flower(tmp_path, []))
    board = loaded.board
    assert sorted(board.void) == [(0, 0), (0, 2), (3, 0), (3, 1), (3, 2)]
    assert len(symmetries(board)) == 11  # every symmetry of the hex lattice but the identity
    report = balance(board, loaded.objects, rules=["hexside"])
    assert report.symmetry_note == ""  # was: "... the map's cells allow only mirror top-bottom ..."
    checks = report.rules[0].symmetry
    assert sorted(c.transform for c in checks) == ["half turn", "mirror left-right"]
    assert all((c.broken, c.geometry) == (0, ()) for c in checks)
    red, blue = report.rules[0].side("Red"), report.rules[0].side("Blue")
    assert red.exposure == blue.exposure


def test_a_wall_breaks_the_void_framed_symmetry_by_hand(tmp_path: Path) -> None:
    """A wall on the W side of the centre, (0,1)–(1,1): the mirror and the half turn both send it
    to the E side, (1,1)–(2,1), which has none. Red's (0,1) no longer sees (1,1) (the wall is
    between them) while Blue's (2,1) sees it: broken; the broken pairs are those ``sight.line``
    gives pair by pair."""
    loaded = load_map(_flower(tmp_path, [((0, 1), (1, 1))]))
    report = balance(loaded.board, loaded.objects, rules=["hexside"])
    checks = {c.transform: c for c in report.rules[0].symmetry}
    assert sorted(checks) == ["half turn", "mirror left-right"]
    for check in checks.values():
        assert check.geometry == ("wall between (0,1) and (1,1) has no wall between (1,1) and (2,1)",)
        assert ((0, 1), (1, 1), False) in check.examples or check.broken > len(check.examples)
    bare = geometry_board(loaded.board)
    cells = list(bare.squares())
    for name, check in checks.items():
        (t,) = [s for s in symmetries(bare) if s.name == name]
        broken = [(p, q) for p in [(0, 1), (2, 1)] for q in cells
                  if sight.line(bare, p, q, "hexside").clear != sight.line(bare, t.apply(p), t.apply(q), "hexside").clear]
        assert check.broken == len(broken) > 0, name
