"""The presenter on a hex board (issue #21, the window on hex maps), without pygame: the ray's
verdict is the sight facade's, ``K`` cycles the hex presets only, the ruler and the reach count
hex steps, the field of view is the facade's field, sight starts from any cell, figures move and
doors change through the grid seam, the play state of a hex map is saved and restored, the
threat view works on a hex board and the balance report refuses one in one line, and the Frame stays JSON.

Real map (``maps/hex-demo.tmx``, read by the real reader), real sessions, the real engines.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.core import measure, sight
from game.core.board import DoorState
from game.play.presenter import Presenter
from game.play.session import Session

REPO = Path(__file__).resolve().parent.parent
HEX_PRESETS = ("gloomhaven", "hexside", "hex-strict")


def hex_demo(tmp_path: Path) -> Path:
    """The bundled hex demo with its tileset, in tmp_path (its play state is written there)."""
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "tiles")
    target = tmp_path / "hex-demo.tmx"
    shutil.copy(REPO / "maps" / "hex-demo.tmx", target)
    return target


class Clock:
    """A clock moved by hand (notices expire by it)."""

    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def presenter(tmp_path: Path, clock: Clock) -> Presenter:
    p = Presenter(Session.open(hex_demo(tmp_path), fresh=True), clock=clock)
    p.start()
    return p


def figure_id(p: Presenter, name: str) -> int:
    assert p.board is not None
    return next(f.id for f in p.board.figures.values() if f.name == name)


def test_the_hover_ray_is_the_facades_verdict_under_every_hex_preset(presenter: Presenter, clock: Clock) -> None:
    board = presenter.board
    assert board is not None and board.grid.kind == "hex"
    presenter.select(figure_id(presenter, "Archer"))
    presenter.point_at((1, 2))  # Goblin: H5 (rubble on one side of the hexside the line runs along)
    seen = {}
    for _ in HEX_PRESETS:
        presenter.rule("next_rule")
        clock.now += 10  # the notice expires: the status line says the ray
        frame = presenter.frame()
        rule = frame.rule
        assert frame.ray is not None and rule is not None
        expected = sight.line(board, (1, 0), (1, 2), rule, viewer="blue")
        assert frame.ray.clear == expected.clear
        assert frame.status.startswith("Clear" if expected.clear else "Blocked")
        assert expected.explain().split(":")[0] in frame.status
        seen[rule.name] = expected.clear
    assert set(seen) == set(HEX_PRESETS)  # K walked the hex presets only, each once
    assert seen == {"gloomhaven": True, "hexside": True, "hex-strict": False}  # vector H5


def test_k_cycles_among_the_hex_presets_and_shift_k_goes_back(presenter: Presenter) -> None:
    board = presenter.board
    assert board is not None
    names = []
    for _ in range(6):
        presenter.rule("next_rule")
        names.append(presenter.rules.rule(board).name)
    assert names == ["hex-strict", "gloomhaven", "hexside", "hex-strict", "gloomhaven", "hexside"]
    presenter.rule("next_rule")
    presenter.rule("map_rule")
    assert presenter.rules.rule(board).spec() == "hexside"  # the map's los_rule
    presenter.rule("show")
    presenter.rule("row_down")
    presenter.rule("flip_selected")  # the second hex parameter row: to
    assert presenter.rules.rule(board).spec() == "hexside,to=corners"
    assert [row[0] for row in presenter.frame().rule_rows][:2] == ["from", "to"]
    presenter.select(figure_id(presenter, "Archer"))
    presenter.rule("toggle_compare")
    other = presenter.rules.compared(board)
    assert other.name in HEX_PRESETS and other != presenter.rules.rule(board)
    assert "hexes seen only under" in presenter.frame().notes[0][0]


def test_a_blocked_line_says_where_its_blocker_is(presenter: Presenter) -> None:
    presenter.select(figure_id(presenter, "Archer"))
    presenter.point_at((1, 2))
    presenter.rule("next_rule")  # hex-strict: the centre line touches the rubble hex (0,1) at a corner
    ray = presenter.frame().ray
    assert ray is not None and not ray.clear
    line = ray.lines[0]
    assert line.corners == ((2, 2),) and line.cells == ((0, 1),)
    assert line.block_t == pytest.approx(1 / 3)  # (2,2) is a third of the way from (2,0) to (2,6)
    document = json.loads(json.dumps(presenter.frame().as_json()))
    assert document["ray"]["lines"][0]["cells"] == [[0, 1]]
    assert "the corner (2,2) of (0,1), (1,0) and (1,1)" in document["status"]["text"]


def test_field_of_view_ruler_and_reach_count_on_the_hex_grid(presenter: Presenter) -> None:
    board = presenter.board
    assert board is not None
    scout = figure_id(presenter, "Scout")
    presenter.select(scout)
    presenter.point_at((12, 5))
    for name in ("fov", "ruler", "reach"):
        presenter.toggle(name)
    frame = presenter.frame()
    rule = presenter.rules.rule(board)
    assert frame.field_of_view is not None
    assert (frame.field_of_view == sight.field(board, (9, 5), rule, viewer="blue")).all()
    assert frame.ruler is not None and frame.ruler.text == "3 hex steps"
    ring = {cell for cell in board.grid.cells() if board.grid.distance((9, 5), cell) == 3}
    assert set(frame.ruler.ring) == ring
    assert frame.reach == measure.reach(board, (9, 5), 4, "blue", scout)
    assert all(board.grid.distance((9, 5), cell) <= steps for cell, steps in frame.reach.items())
    json.dumps(frame.as_json())


def test_sight_from_any_cell(presenter: Presenter) -> None:
    board = presenter.board
    assert board is not None
    presenter.click((7, 3), None, None)  # an empty cell: the ray starts there
    presenter.point_at((12, 5))
    frame = presenter.frame()
    assert frame.start == (7, 3) and frame.ray is not None and frame.ray.origin == (7, 3)
    assert frame.ray.clear == sight.line(board, (7, 3), (12, 5)).clear


def test_drag_undo_door_and_the_saved_play_state(tmp_path: Path, clock: Clock) -> None:
    path = hex_demo(tmp_path)
    p = Presenter(Session.open(path, fresh=True), clock=clock)
    p.start()
    board = p.board
    assert board is not None and p.session is not None
    archer = figure_id(p, "Archer")
    p.begin_drag(archer)
    p.drag_to((2, 0))
    p.drop((2, 0))
    assert board.figure(archer).square == (2, 0)
    p.begin_drag(archer)
    p.drag_to((0, 1))  # rubble: refused, the figure stays
    p.drop((0, 1))
    assert board.figure(archer).square == (2, 0) and "blocked terrain" in p.frame().status
    door = next(edge for edge, d in board.doors.items() if d.state is DoorState.CLOSED)
    p.click(None, door, None)
    assert board.doors[door].state is DoorState.OPEN
    p.undo()
    assert board.doors[door].state is DoorState.CLOSED
    p.undo()
    assert board.figure(archer).square == (1, 0)
    p.redo()
    p.click(None, door, None)  # Archer on (2,0) again, the door open: saved as the play state
    again = Session.open(path)
    assert again.messages == []
    assert again.board.figure(archer).square == (2, 0)
    assert again.board.doors[door].state is DoorState.OPEN


def test_the_threat_view_and_the_balance_overlay_work_on_a_hex_board(presenter: Presenter) -> None:
    presenter.select(figure_id(presenter, "Archer"))
    presenter.threat("danger")
    assert presenter.frame().status == "danger map: enemies that could attack the selected figure on each hex"
    frame = presenter.frame()
    assert frame.threats is not None and frame.balance is None
    assert json.loads(json.dumps(frame.as_json()))["threats"]["figure"] == figure_id(presenter, "Archer")
    presenter.threat("balance")  # Shift+B: the balance report on hexes (test_hex_balance checks its numbers)
    frame = presenter.frame()
    assert frame.balance is not None and frame.balance.zones and frame.status.startswith("balance report on")
