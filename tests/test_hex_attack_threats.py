"""Threats on hex boards (issue #21): ``sightline threats`` works on a hex map whose rules play on
hexes, and its answers are the rules' own. The solver's shortcuts (the reach it learns on probe
boards of the map's grid, the candidate cells it tries) are checked against brute force: every
cell the attacker can walk to, the real ruleset's ``check`` asked with the attacker moved there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.core import measure
from game.core.board import Board, Figure
from game.core.hex_sight import hex_board
from game.core.hexgrid import HexGrid
from game.designer.threats import Reach, ThreatSolver, learn_reach, move_of
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent
SKIRMISH = REPO / "maps" / "hex-skirmish.tmx"


def _brute_next_turn(board: Board, attacker: int, target: int) -> int | None:
    """The fewest steps after which some attack of ``attacker`` on ``target`` is legal: every
    reachable cell tried with the ruleset's own check (None: no cell within its move)."""
    ruleset = get_ruleset(board.ruleset)
    a = board.figure(attacker)
    found = measure.reach(board, a.square, move_of(a), a.side, a.id)
    names = [o.name for o in ruleset.attacks(board, attacker) if o.usable]
    best = None
    for cell, steps in sorted(found.items(), key=lambda kv: kv[1]):
        if cell != a.square and board.can_enter(a.id, cell) is not None:
            continue
        moved = board.copy()
        moved.move_figure(a.id, cell)
        if any(ruleset.check(AttackRequest(moved, a.id, [target], n)).legal for n in names):
            best = steps
            break
    return best


def test_next_turn_on_the_hex_skirmish_is_what_brute_force_finds() -> None:
    board = load_map(SKIRMISH).board
    solver = ThreatSolver()
    pairs = 0
    for a in board.figures.values():
        for t in solver.enemies(board, a.id):
            approach = solver.next_turn(board, a.id, t)
            expected = _brute_next_turn(board, a.id, t)
            assert (None if approach is None else approach.steps) == expected, (a.name, board.figure(t).name)
            if approach is not None:
                path = approach.path
                assert path[0] == a.square and path[-1] == approach.square and len(path) == approach.steps + 1
                assert all(b in board.grid.neighbours(c) for c, b in zip(path, path[1:], strict=False))
            pairs += 1
    assert pairs == 16  # 2 heroes x 4 monsters, each way


def test_the_reach_is_learned_on_hex_probe_boards() -> None:
    """A melee attack reaches Close only, a ranged one any distance in sight; a ranged file
    attack's range is found in hex steps (never as a diagonal count)."""
    figures = [Figure(1, "Ann", "red", (1, 1), {"attacks": "Bow:ranged:2; Knife:melee:1", "life": 3}),
               Figure(2, "Bob", "blue", (3, 1), {"life": 3})]
    board = hex_board(7, 5, figures=figures, ruleset="arcadia")
    arcadia = get_ruleset("arcadia")
    a, t = board.figure(1), board.figure(2)
    assert learn_reach(arcadia, board, a, t, "Knife") == Reach(same=True, close=True)
    assert learn_reach(arcadia, board, a, t, "Bow") == Reach(same=True, close=True, sight=True, near=1, far=None)
    from game.rules.custom import load_ruleset

    text = (REPO / "maps" / "skirmish.toml").read_text(encoding="utf-8")
    steps = load_ruleset(text.replace('title = "Lantern Skirmish"', 'title = "Lantern Skirmish"\ndistance = "steps"'))
    shooter = Figure(1, "Lin", "watch", (1, 1), {"shots": 2, "range": 3})
    reach = learn_reach(steps, board, shooter, Figure(2, "Bob", "raiders", (3, 1), {}), "Shot")
    assert reach.far == 3 and not reach.diagonal
    grid = HexGrid(7, 5)
    assert reach.allows(board, (0, 0), (2, 3), True) is (grid.distance((0, 0), (2, 3)) <= 3)  # 4 hex steps: no


def test_threats_command_on_a_hex_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["threats", str(SKIRMISH), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ruleset"] == "arcadia" and doc["rule"] == "hexside"
    names = {f["id"]: f["name"] for f in doc["figures"]}
    knight_orc = next(t for t in doc["threats"] if names[t["attacker"]] == "Knight" and names[t["target"]] == "Orc")
    assert knight_orc["now"] is None and knight_orc["next_turn"]["steps"] == 2  # round the wall
    assert knight_orc["next_turn"]["path"] == [[2, 3], [3, 3], [3, 2]]
    assert main(["threats", str(SKIRMISH)]) == 0
    out = capsys.readouterr().out
    assert "next turn: Orc (2,2): from (3,2) after 2 steps with Sword" in out


def test_threats_and_balance_refuse_rules_that_need_squares_on_hex_maps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    text = SKIRMISH.read_text(encoding="utf-8").replace('name="ruleset" value="arcadia"', 'name="ruleset" value="conquest"')
    path = tmp_path / "conquest-hex.tmx"
    path.write_text(text.replace("tiles/hex.tsx", str(REPO / "maps" / "tiles" / "hex.tsx")), encoding="utf-8")
    assert main(["threats", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "Conquest: First Blood rules play on square boards only" in line
    assert main(["balance", str(path), "-o", str(tmp_path / "out")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "is a hex map: the Conquest: First Blood rules play on square boards only" in line
    assert not (tmp_path / "out").exists()
