"""The presenter (game/play/presenter.py): the window's play logic without pygame.

Real maps read by the real loader (the demo map, the lessons, a rule lesson whose ``los_rule`` is
dnd5e), the presenter's own methods (the ones the key table binds), and the frame it hands a
front end: its ray under every rule through the one sight seam (game/play/sight_calls.py), its
masks, markers, status, panel content, the rule notice next to the attack, and its JSON. One
test runs a frame in a fresh interpreter and checks that pygame was never imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.core import los, profile_los, sight
from game.core.profiles import PRESETS, parse_rule
from game.play.frame import Frame
from game.play.lessons import LESSONS_DIR, lesson_paths
from game.play.presenter import REFUSED_FLASH, Presenter
from game.play.session import Session
from game.play.sight_calls import cast_field, cast_ray, map_rule
from game.play.status import SELF_SIGHT

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "demo.tmx"
R05 = REPO / "maps" / "lessons" / "rules" / "R05.tmx"  # 3×3, los_rule dnd5e: Archer (0,0), Goblin (2,2)
ARCHER, GOBLIN = 1, 2


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def presenter(path: Path = DEMO, clock: Clock | None = None, **kwargs: object) -> Presenter:
    p = Presenter(Session.open(path, autosave=False), clock=clock or Clock(), **kwargs)  # type: ignore[arg-type]
    p.start()
    return p


def figure_named(p: Presenter, name: str) -> int:
    assert p.board is not None
    return next(f.id for f in p.board.figures.values() if f.name == name)


def test_a_frame_without_pygame_in_a_fresh_interpreter() -> None:
    code = (
        "import sys, json\n"
        "from game.play.presenter import Presenter\n"
        "from game.play.session import Session\n"
        f"p = Presenter(Session.open({str(DEMO)!r}, autosave=False), clock=lambda: 0.0)\n"
        "p.start(); p.cycle_selection(1); p.hover = (12, 5); p.toggle('fov'); p.rule('toggle_compare')\n"
        "json.dumps(p.frame().as_json())\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'pytmx')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.strip() == "[]"


def test_the_frame_follows_the_selection_the_hover_and_the_pin() -> None:
    p = presenter()
    assert p.frame().ray is None and p.frame().status.startswith("Click a figure or press Tab")
    ember = figure_named(p, "Ember")
    p.select(ember)
    p.point_at((12, 5))
    frame = p.frame()
    assert frame.selected == ember and frame.hover == (12, 5)
    assert frame.ray is not None and (frame.ray.origin, frame.ray.target) == ((4, 3), (12, 5))
    assert frame.ray.clear == los.line_of_sight(p.board, (4, 3), (12, 5), "Red Guild").clear  # type: ignore[arg-type]
    assert frame.status_kind == ("clear" if frame.ray.clear else "blocked")
    p.right_click((6, 3))  # pinned: the hover no longer moves the ray's end
    p.point_at((0, 0))
    assert p.frame().ray.target == (6, 3)  # type: ignore[union-attr]
    p.escape()  # the pin goes first, then the selection
    assert p.pinned is None and p.selected == ember
    p.escape()
    assert p.selected is None


def test_the_ray_is_one_record_under_every_rule_and_the_seam_asks_the_engine() -> None:
    p = presenter()
    board = p.board
    assert board is not None
    p.select(figure_named(p, "Rook"))
    p.point_at((12, 5))
    seen = set()
    for _ in PRESETS:
        p.rule("next_rule")
        rule = p.rules.rule(board)
        ray = p.frame().ray
        assert ray is not None and ray.rule == rule
        assert ray.clear == profile_los.line_of_sight(board, ray.origin, ray.target, rule, ray.viewer).clear
        assert ray.centre_line == sight.by_centre_line(rule, board.grid.kind)  # Arcadia: the centre line
        assert bool(ray.lines) != ray.centre_line
        seen.add(rule.name)
    assert seen == set(PRESETS)
    corners = cast_ray(board, (4, 5), (12, 5), PRESETS["corners"], "Red Guild")
    frame_json = json.loads(json.dumps(corners.as_json()))
    assert frame_json["rule"] == "corners" and frame_json["points"] == [] and frame_json["lines"]
    assert np.array_equal(cast_field(board, (4, 5), PRESETS["dnd5e"], None),
                          profile_los.visible_from(board, (4, 5), PRESETS["dnd5e"], None))


def test_f_and_x_give_the_masks_of_the_rule_shown() -> None:
    p = presenter(R05)
    p.select(ARCHER)
    p.toggle("fov")
    board = p.board
    assert board is not None and p.rules.rule(board).spec() == "dnd5e"  # the map's los_rule
    frame = p.frame()
    assert frame.field_of_view is not None and frame.field_of_view[2, 2]  # dnd5e sees round the crates
    p.rule("toggle_compare")
    frame = p.frame()
    assert frame.compare is not None
    only_dnd, only_other = frame.compare
    assert only_dnd[2, 2] and not only_other.any()
    assert frame.notes[0][0].startswith("Compare dnd5e with arcadia: 3 squares seen only under dnd5e (blue), 0 ")


def test_the_rule_notice_says_when_the_ray_is_drawn_under_another_rule_than_the_attacks() -> None:
    p = presenter(R05)
    board = p.board
    assert board is not None and map_rule(board).spec() == "dnd5e"
    assert p.frame().panel.rule_notice == ""  # nothing selected: no attack being built
    p.select(ARCHER)
    p.right_click((2, 2))
    assert p.attack.targets == [GOBLIN] and p.frame().panel.rule_notice == ""  # the same rule
    p.rule("next_rule")
    drawn = p.rules.rule(board).spec()
    assert drawn != "dnd5e"
    assert p.frame().panel.rule_notice == (
        f"Ray drawn under {drawn}; this attack is judged under dnd5e (the map's rule).")
    p.rule("map_rule")
    assert p.frame().panel.rule_notice == ""
    # a rule asked for on the command line is a what-if view too
    forced = presenter(R05, rule=parse_rule("corners"))
    forced.select(ARCHER)
    assert "judged under dnd5e" in forced.frame().panel.rule_notice


def test_a_drag_refused_flashes_and_a_legal_drop_is_one_undoable_move() -> None:
    clock = Clock()
    p = presenter(clock=clock)
    board = p.board
    assert board is not None
    rook = figure_named(p, "Rook")
    start = board.figure(rook).square
    p.begin_drag(rook)
    p.drop(None)
    assert board.figure(rook).square == start and p.refused == (None, clock.now + REFUSED_FLASH)
    assert p.frame().status.startswith("Refused: dropped outside the board")
    clock.now += REFUSED_FLASH + 5
    p.tick(0.1)
    assert p.refused is None and p.notice is None
    p.begin_drag(rook)
    p.drag_to((start[0], start[1] + 1))
    p.drop((start[0], start[1] + 1))
    assert board.figure(rook).square == (start[0], start[1] + 1) and p.selected == rook
    p.undo()
    assert board.figure(rook).square == start


def test_the_lessons_and_classroom_mode() -> None:
    paths = lesson_paths(LESSONS_DIR)[:3]
    p = Presenter(None, lessons=paths, clock=Clock())
    p.start()
    assert p.lesson_mode and p.tour is not None and p.selected is not None and p.pinned is not None
    assert p.frame().status_kind == "lesson"
    assert p.toggle_classroom() and p.presenting
    lecture = p.frame().lecture
    assert lecture is not None and lecture.neutral and p.frame().verdict_hidden
    assert lecture.card == (("Clear or blocked?", "prompt", "big"),)
    p.predict("clear")
    p.reveal()
    frame = p.frame()
    assert not frame.verdict_hidden and frame.lecture is not None and not frame.lecture.neutral
    assert frame.lecture.card[0][0].endswith(": CLEAR") and p.classroom.results == {0: True}
    p.toggle_lesson_menu()
    p.menu_step("Down")
    p.menu_open()
    assert p.tour.index == 1 and not p.classroom.revealed
    p.toggle_lessons()  # no map to go back to
    assert p.lesson_mode and "no board to go back to" in p.frame().status


def test_self_sight_and_the_viewer_words() -> None:
    p = presenter()
    rook = figure_named(p, "Rook")
    p.select(rook)
    p.pinned = p.board.figure(rook).square  # type: ignore[union-attr]
    assert p.frame().status_line == (SELF_SIGHT, "blocked")
    p.pinned = None
    p.escape()
    p.escape()
    p.start_sight_at((1, 3))
    p.point_at((3, 3))
    assert p.frame().status.startswith(
        "From (1,3), viewer no side (the start square is empty: every figure counts as an enemy). Blocked: ")
    p.next_viewer()
    assert p.viewpoint.choice != "auto"


def test_the_frame_as_json_is_plain_data() -> None:
    p = presenter(R05)
    p.select(ARCHER)
    p.right_click((2, 2))
    for name in ("fov", "ruler", "reach"):
        p.toggle(name)
    p.rule("toggle_compare")
    p.rule("show")
    frame = p.frame()
    doc = json.loads(json.dumps(frame.as_json()))
    assert doc["selected"] == ARCHER and doc["pinned"] == [2, 2] and doc["targets"] == [GOBLIN]
    assert doc["ray"]["from"] == [0, 0] and doc["ray"]["to"] == [2, 2] and doc["ray"]["rule"] == "dnd5e"
    assert [2, 2] in doc["field_of_view"] and doc["ruler"]["to"] == [2, 2] and doc["reach"]
    assert doc["rule"]["spec"] == "dnd5e" and doc["rule"]["badge"] and len(doc["rule"]["rows"]) == 9
    assert doc["status"]["kind"] in ("info", "clear", "blocked") and doc["panel"]["title"]
    assert Frame().as_json()["ray"] is None


@pytest.mark.parametrize("name", ["Ember", "Sable"])
def test_the_target_keys_pin_the_ray_on_the_target(name: str) -> None:
    p = presenter()
    p.select(figure_named(p, name))
    p.cycle_target(1)
    assert p.attack.targets and p.pinned == p.board.figure(p.attack.targets[-1]).square  # type: ignore[union-attr]
