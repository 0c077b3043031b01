"""The balance report (game/designer/balance.py, zones.py; ``sightline balance``).

Exposure and first strike are checked against a brute-force computation from the sight
facade's slow exact reference (one ray at a time) and ``sightline reach`` (one start at a time); the
bundled scenario ``maps/ford.tmx`` must be found unfair in the way it was built to be, and fair
once repaired; the command writes what it says, and refuses bad input in one line.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.cli import main
from game.core import los, measure, sight
from game.core.board import Board, Edge, Figure, Square
from game.core.profiles import PRESETS, Profile
from game.designer.balance import Balance, Reach, balance, choke_shares
from game.designer.coverage import geometry_board, standable_mask
from game.designer.zones import Zone, swaps, zones_from
from game.tiled import LoadedMap, load_map

REPO = Path(__file__).resolve().parent.parent
FORD = REPO / "maps" / "ford.tmx"


@cache
def _loaded(name: str) -> LoadedMap:
    return load_map(REPO / "maps" / name)


@cache
def _report(name: str) -> Balance:
    loaded = _loaded(name)
    return balance(loaded.board, loaded.objects)


def _clear(bare: Board, a: Square, b: Square, rule: Profile) -> bool:
    """One ray, by the sight facade's one slow exact reference (what every fast path is tested
    against; ``sightline los`` gives the same verdict). Under any-point the reference tries every
    pair of grid points (minutes for the Old Ford's zones), so that rule asks ``sight.line`` for the
    one pair — still a ray at a time, never the field the report is built from."""
    if a == b:
        return True
    if rule.family == "any":
        return bool(sight.line(bare, a, b, rule).clear)
    return bool(sight.reference(bare, a, b, rule).clear)


# --- zones -------------------------------------------------------------------------------------


def test_zones_come_from_deploy_objects_else_from_the_figures() -> None:
    ford = _loaded("ford.tmx")
    zones = zones_from(ford.board, ford.objects)
    assert [(z.side, z.source, len(z.squares)) for z in zones] == [("Blue", "objects", 21), ("Red", "objects", 21)]
    assert min(z.squares for z in zones if z.side == "Red") and all(x <= 2 for x, _ in zones[1].squares)
    demo = _loaded("demo.tmx")
    by_figures = zones_from(demo.board, demo.objects)
    assert [z.side for z in by_figures] == ["Blue Guild", "Red Guild", "monsters"]
    assert all(z.source == "figures" for z in by_figures)
    assert by_figures[1].squares == {f.square for f in demo.board.figures.values() if f.side == "Red Guild"}


def test_a_map_with_one_side_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = Board(4, 4)
    board.place_figure(Figure(1, "A", "red", (0, 0)))
    with pytest.raises(Exception, match="needs two sides"):
        zones_from(board, {})
    text = FORD.read_text(encoding="utf-8").replace('value="Blue"', 'value="Red"')
    lonely = tmp_path / "lonely.tmx"
    lonely.write_text(text.replace('source="tiles/street.tsx"', f'source="{REPO}/maps/tiles/street.tsx"'),
                      encoding="utf-8")
    assert main(["balance", str(lonely), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "needs two sides" in err and "Traceback" not in err


# --- exposure and first strike against brute force --------------------------------------------


def _brute_exposure(bare: Board, zone: Zone, other: Zone, rule: Profile) -> tuple[int, Fraction]:
    seen = set()
    total = Fraction(0)
    for a in zone.squares:
        mine = {b for b in other.squares if _clear(bare, a, b, rule)}
        seen |= mine
        total += Fraction(len(mine), len(other.squares))
    return len(seen), total / len(zone.squares)


@pytest.mark.parametrize("spec", [pytest.param(s, marks=pytest.mark.slow) if s == "any-point" else s for s in PRESETS])
def test_exposure_agrees_with_brute_force_from_los(spec: str) -> None:
    report = _report("ford.tmx")
    bare = geometry_board(_loaded("ford.tmx").board)
    numbers = next(r for r in report.rules if r.rule.spec() == spec)
    zones = {z.side: z for z in report.zones}
    for side in numbers.sides:
        seen, mean = _brute_exposure(bare, zones[side.side], zones[side.other], numbers.rule)
        assert (side.exposure.seen, side.exposure.mean) == (seen, mean), (spec, side.side)


def _allows(bare: Board, rule: Profile, reach: Reach, s: Square, b: Square) -> bool:
    """The attack's reach from ``s`` on ``b``, with sight by one ray (``sightline los``)."""
    if reach.anywhere:
        return True
    if s == b:
        return reach.same
    if los.is_close(bare, s, b):
        return reach.close
    if not reach.sight:
        return False
    d = max(abs(s[0] - b[0]), abs(s[1] - b[1])) if reach.diagonal else abs(s[0] - b[0]) + abs(s[1] - b[1])
    return reach.near <= d and (reach.far is None or d <= reach.far) and _clear(bare, s, b, rule)


def _brute_first_strike(bare: Board, report: Balance, side: str, other: str, rule: Profile) -> tuple[int, int] | None:
    """(turn, steps) of the side's first strike: every square each start square reaches
    (``measure.reach`` from one square at a time), every striker, every target square."""
    zones = {z.side: z for z in report.zones}
    best: tuple[int, int] | None = None
    far = bare.width * bare.height
    fewest: dict[Square, int] = {}
    for start in zones[side].squares:
        for sq, n in measure.reach(bare, start, far).items():
            fewest[sq] = min(n, fewest.get(sq, n))
    for striker in report.strikers[side]:
        for sq, n in fewest.items():
            turn = max(1, math.ceil(n / striker.move))
            if best is not None and (turn, n) >= best:
                continue
            if any(_allows(bare, rule, r, sq, b) for r in striker.reaches for b in zones[other].squares):
                best = (turn, n)
    return best


@pytest.mark.parametrize(("name", "spec"), [("ford.tmx", "arcadia"), ("ford.tmx", "corners"),
                                            ("conquest.tmx", "arcadia"), ("folklore.tmx", "any-point")])
def test_first_strike_agrees_with_brute_force_from_los_and_reach(name: str, spec: str) -> None:
    report = _report(name)
    bare = geometry_board(_loaded(name).board)
    numbers = next(r for r in report.rules if r.rule.spec() == spec)
    for side in numbers.sides:
        strike = side.first_strike
        expected = _brute_first_strike(bare, report, side.side, side.other, numbers.rule)
        assert (None if strike.turn is None else (strike.turn, strike.steps)) == expected, (name, spec, side.side)
        if strike.square is not None and strike.target is not None:
            assert strike.path[0] in {z for z in report.zones if z.side == side.side}.pop().squares
            assert strike.path[-1] == strike.square and len(strike.path) == strike.steps + 1


def test_safe_squares_are_those_no_square_of_the_other_zone_sees() -> None:
    report = _report("ford.tmx")
    bare = geometry_board(_loaded("ford.tmx").board)
    standable = standable_mask(bare)
    zones = {z.side: z for z in report.zones}
    numbers = report.rules[0]
    for side in numbers.sides:
        other = zones[side.other].squares
        for y, x in zip(*np.nonzero(standable), strict=True):
            sq = (int(x), int(y))
            expected = sq not in other and not any(_clear(bare, b, sq, numbers.rule) for b in other)
            assert bool(side.safe[y, x]) == expected, (side.side, sq)
        assert side.safe_turns is not None and not (side.safe_turns & ~side.safe).any()
    assert all(s.safe_turns is None for r in report.rules[1:] for s in r.sides)


# --- the scenario's deliberate unfairness ------------------------------------------------------


def test_the_report_finds_the_fords_breach() -> None:
    report = _report("ford.tmx")
    exposure = [f for f in report.findings if "sees more of" in f]
    assert exposure and exposure[0].startswith("Red sees more of Blue's zone than Blue sees of Red's (arcadia 43% vs 14%")
    symmetry = [f for f in report.findings if f.startswith("The zones mirror each other")]
    assert symmetry and "mirror left-right" in symmetry[0] and "V(18,5)" in symmetry[0]
    arcadia = report.rules[0]
    assert arcadia.rule.spec() == "arcadia" and [c.transform for c in arcadia.symmetry] == ["mirror left-right", "half turn"]
    assert all(c.broken > 0 for r in report.rules for c in r.symmetry)


def test_the_repaired_ford_is_fair() -> None:
    loaded = _loaded("ford.tmx")
    board = loaded.board.copy()
    for y in (5, 7):
        board.set_wall(Edge("V", 18, y))  # the breach closed; the slit (an open edge) stays
    report = balance(board, loaded.objects)
    assert report.findings == ()
    for numbers in report.rules:
        red, blue = numbers.side("Red"), numbers.side("Blue")
        assert red.exposure == blue.exposure and red.first_strike.turn == blue.first_strike.turn
        assert all(c.broken == 0 for c in numbers.symmetry)


def test_symmetries_that_swap_the_zones() -> None:
    board = Board(5, 5)
    west = Zone("w", frozenset({(0, 1), (0, 2)}), "objects")
    north = Zone("n", frozenset({(1, 0), (2, 0)}), "objects")
    assert [s.name for s in swaps(board, west, north)] == ["mirror on the main diagonal"]
    east = Zone("e", frozenset({(4, 1), (4, 2)}), "objects")
    assert [s.name for s in swaps(board, west, east)] == ["mirror left-right"]


def test_choke_points_a_single_door_carries_every_path() -> None:
    board = Board.from_ascii(["......."] * 3, walls=["V(3,0)", "V(3,2)"])
    west, east = Zone("w", frozenset({(0, 0), (0, 1), (0, 2)}), "figures"), Zone("e", frozenset({(6, 1)}), "figures")
    shares = choke_shares(board, west, east)
    assert shares[1, 3] == pytest.approx(1.0)  # the gap at (3,1): every shortest path goes through it
    assert shares[0, 3] == 0 and shares[2, 3] == 0


def test_damage_per_turn_is_the_same_for_mirrored_figures() -> None:
    report = _report("ford.tmx")
    assert report.damage["Red"] == report.damage["Blue"]
    assert report.damage["Red"][1] > report.damage["Red"][2] > 0  # Close adds the melee attacks


# --- the command ---------------------------------------------------------------------------------


def test_sightline_balance_writes_html_pictures_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    assert main(["balance", str(FORD), "-o", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((out / "balance.json").read_text(encoding="utf-8"))
    assert [r["rule"] for r in printed["rules"]] == list(PRESETS)
    assert printed["findings"] and printed["zones"][0]["side"] == "Blue"
    html = (out / "index.html").read_text(encoding="utf-8")
    for name in ("zones.png", "exposure-1.png", "strikes-1.png", "safe-1-1.png", "chokes.png", "symmetry-1.png"):
        assert f'src="{name}"' in html and (out / name).is_file()
        pygame.image.load(str(out / name))
    assert "Red sees more of Blue" in html and "<script" not in html and "http" not in html
    zones = pygame.image.load(str(out / "zones.png"))
    cell = zones.get_width() // 21
    inside, outside = zones.get_at((cell // 2, 5 * cell + 2)), zones.get_at((10 * cell + 2, 12 * cell + cell // 2))
    assert inside.r > inside.b + 40  # Red's zone tinted red
    assert not outside.r > outside.b + 40


def test_sightline_balance_text_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(FORD), "-o", str(tmp_path / "r"), "--rules", "arcadia,corners", "--turns", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"wrote {tmp_path / 'r' / 'index.html'} and balance.json")
    assert "2 rules" in out[0] and any("Red sees more of Blue" in line for line in out[1:])
    doc = json.loads((tmp_path / "r" / "balance.json").read_text(encoding="utf-8"))
    assert doc["turns"] == 2 and [r["rule"] for r in doc["rules"]] == ["arcadia", "corners"]


@pytest.mark.parametrize("args", [["--turns", "x"], ["--move", "-1"], ["--rules", "chess"], ["--range", "1e9"]])
def test_sightline_balance_refuses_bad_options_in_one_line(args: list[str], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(FORD), "-o", str(tmp_path / "r"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err and err


def test_sightline_balance_refuses_a_file_as_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "taken"
    target.write_text("x", encoding="utf-8")
    assert main(["balance", str(FORD), "-o", str(target)]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_sightline_threats_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["threats", str(FORD)]) == 0
    text = capsys.readouterr().out
    assert "attacks ↓ / is attacked →" in text and "Blue Archer (18,6): Long Bow: hit 75.2%" in text
    assert main(["threats", str(FORD), "--side", "red", "--json", "--move", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["side"] == "Red" and doc["move"] == 2
    assert all("Red" in (t["attacker_name"] + t["target_name"]) for t in doc["threats"])
    assert main(["threats", str(FORD), "--side", "green"]) == 2
    assert "--side 'green' is not a side on this map" in capsys.readouterr().err


def test_threats_and_balance_load_no_pygame_for_the_numbers() -> None:
    import subprocess
    import sys

    code = (f"import sys; from game.cli import main; main(['threats', {str(FORD)!r}, '--json']); "
            "print('pygame' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_a_square_playing_area_framed_by_void_has_its_own_symmetries() -> None:
    """A 4×3 area in the top-left of a 5×4 map (the last column and row void): the rectangle has
    no left-right mirror that keeps it, the area does, about x = 1.5 (x ↦ 3 − x), with the
    top-bottom mirror (y ↦ 2 − y) and the half turn; an oblong area has no quarter turn."""
    from game.core.board import Board
    from game.designer.zones import symmetries

    void = [(4, y) for y in range(4)] + [(x, 3) for x in range(4)]
    found = {t.name: t for t in symmetries(Board(5, 4, void=void))}
    assert sorted(found) == ["half turn", "mirror left-right", "mirror top-bottom"]
    assert found["mirror left-right"].apply((0, 2)) == (3, 2) and found["half turn"].apply((0, 0)) == (3, 2)
    assert sorted(t.name for t in symmetries(Board(5, 4))) == ["half turn", "mirror left-right", "mirror top-bottom"]
    assert len(symmetries(Board(4, 4))) == 7 and len(symmetries(Board(5, 4, void=void[:4]))) == 7  # a 4×4 area
