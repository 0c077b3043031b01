"""The hex lessons of ``maps/lessons/hex/`` (issue #21): real .tmx boards read by the real reader,
each lesson's ``expected`` verdict against the sight facade, its slow reference and, where the
lesson restates one, the specification's vector H1–H6; the lessons' data and ``sightline
lessons --list`` in the same words on hex and square boards."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from support.hex_vectors import PRESETS, VECTORS

from game.cli import main
from game.core import sight
from game.core.board import Board
from game.core.hexgrid import HexGrid
from game.play.lessons import Lesson, LessonTour, check_lesson, lesson_paths
from game.tiled import LoadedMap, load_map

REPO = Path(__file__).resolve().parent.parent
HEX_LESSONS = REPO / "maps" / "lessons" / "hex"
PATHS = lesson_paths(HEX_LESSONS)


@cache
def _loaded(path: Path) -> LoadedMap:
    return load_map(path)


def _board(path: Path) -> Board:
    return _loaded(path).board


def test_at_least_eight_hex_lessons_cover_the_issues_cases() -> None:
    assert len(PATHS) >= 8
    titles = " | ".join(str(_board(p).properties["title"]) for p in PATHS).lower()
    for topic in ("corner rule of gloomhaven", "touching the end of a wall", "one blocking hex",
                  "between two blocking hexes", "one-hex corridor", "closed door on a hexside", "open door on a hexside"):
        assert topic in titles, topic
    rules = {str(_board(p).properties["los_rule"]) for p in PATHS}
    assert rules == {"gloomhaven", "hexside", "hex-strict"}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_each_lesson_is_a_hex_board_with_its_figures_and_question(path: Path) -> None:
    loaded = _loaded(path)
    board = loaded.board
    assert board.grid.kind == "hex"
    assert [f.as_json() for f in loaded.findings if f.severity.name == "ERROR"] == []
    lesson = Lesson.from_board(path, board)
    assert lesson.origin is not None and lesson.target is not None and lesson.expected in ("clear", "blocked")
    assert [f.name for f in board.figures_at(lesson.origin)] == ["Archer"]
    assert "Goblin" in [f.name for f in board.figures_at(lesson.target)]
    assert lesson.question and lesson.caption and lesson.title
    assert str(lesson.expected) not in lesson.question.lower()  # the question gives no answer away


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_each_lesson_verdict_is_the_facades_and_the_references(path: Path) -> None:
    board = _board(path)
    lesson = Lesson.from_board(path, board)
    assert lesson.origin is not None and lesson.target is not None
    rule = sight.rule_of(board)
    fast = sight.line(board, lesson.origin, lesson.target, rule, viewer="heroes")
    slow = sight.reference(board, lesson.origin, lesson.target, rule, viewer="heroes")
    assert ("clear" if fast.clear else "blocked") == lesson.expected == ("clear" if slow.clear else "blocked")
    assert check_lesson(path, board).agrees


def _vector_setup(board: Board) -> tuple[int, int, list[tuple[tuple[int, int], tuple[int, int]]], list[tuple[int, int]]]:
    grid = board.grid
    walls = sorted(tuple(sorted(grid.edge_cells(e))) for e in board.walls)  # type: ignore[misc]
    return board.width, board.height, walls, sorted(board.blocked)  # type: ignore[return-value]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_lessons_that_restate_a_vector_have_its_board_and_its_verdict(path: Path) -> None:
    board = _board(path)
    name = str(board.properties["vector"])
    vector = next((v for v in VECTORS if v[0] == name), None)
    if vector is None:
        assert name == path.stem  # a lesson of its own, checked against the engines above
        return
    _, w, h, a, b, walls, blocked, expected = vector
    lesson = Lesson.from_board(path, board)
    assert (lesson.origin, lesson.target) == (a, b)
    assert _vector_setup(board) == (w, h, sorted(tuple(sorted(p)) for p in walls), sorted(blocked))
    rule = str(board.properties["los_rule"])
    assert lesson.expected == ("clear" if expected[PRESETS.index(rule)] else "blocked")


def test_the_vector_lessons_are_there() -> None:
    vectors = {str(_board(p).properties["vector"]) for p in PATHS}
    assert {"H2", "H4", "H5", "H6"} <= vectors


def test_a_lesson_question_names_hexes_on_a_hex_board() -> None:
    board = _board(HEX_LESSONS / "H05.tmx")
    assert Lesson(Path("X.tmx"), "", (2, 2), (2, 1), "clear", None).ask(board) == "Can the hex (2,2) see the hex (2,1)?"
    assert Lesson(Path("X.tmx"), "", (1, 0), (1, 2), "clear", None).ask(board) == "Can Archer on (1,0) see Goblin on (1,2)?"


def test_the_lesson_tour_explains_a_hex_lesson_as_a_square_one() -> None:
    """The tour the window drives: its heading, verdict and explanation on a hex board."""

    class Session:
        def __init__(self, path: Path) -> None:
            self.board = load_map(path).board

    tour = LessonTour(PATHS, Session)
    tour.open(PATHS.index(HEX_LESSONS / "H06.tmx"))
    board = tour.session.board
    result = sight.line(board, (1, 0), (1, 2), sight.rule_of(board), viewer="heroes")
    text = tour.explain(result).splitlines()
    assert text[0] == f"Lesson 6 of {len(PATHS)}: H06 · A hexside between two blocking hexes: (1,0) to (1,2) is blocked, as expected"
    assert text[-1].startswith("Blocked under hexside: the line from the centre of (1,0) to the centre of (1,2) has both sides closed")
    tour.next_step(len(result.crossings))
    assert tour.step is None  # a hex verdict is explained by its lines, not stepped crossing by crossing


def test_sightline_lessons_list_on_hex_and_square_folders(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", str(HEX_LESSONS), "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(PATHS) + 1 and out[-1] == f"{len(PATHS)} boards: every verdict as its lesson expects"
    assert out[1] == ("H02 · The corner rule of Gloomhaven: (0,1) to (3,1) on hexes under gloomhaven is clear, "
                      "as expected")
    assert main(["lessons", str(REPO / "maps" / "lessons" / "rules"), "--list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is True and {d["grid"] for d in doc["lessons"]} == {"square"}


def test_sightline_lessons_list_json_and_a_wrong_lesson(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", str(HEX_LESSONS), "--list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    h10 = next(d for d in doc["lessons"] if d["name"] == "H10")
    assert h10 == {"name": "H10", "title": "A one-hex corridor", "grid": "hex", "rule": "gloomhaven",
                   "from": [1, 1], "to": [4, 1], "expected": "clear", "verdict": "clear", "agrees": True,
                   "explanation": "Clear under gloomhaven: the line from the north-east corner of (1,1) to the "
                                  "south-east corner of (4,1) is clear.", "error": ""}
    for name in ("H05.tmx", "H06.tmx"):
        text = (HEX_LESSONS / name).read_text(encoding="utf-8").replace("../../tiles/hex.tsx", str(REPO / "maps" / "tiles" / "hex.tsx"))
        (tmp_path / name).write_text(text.replace('name="los_rule" value="hexside"', 'name="los_rule" value="hex-strict"'), encoding="utf-8")
    (tmp_path / "H99.tmx").write_text("<map", encoding="utf-8")
    assert main(["lessons", str(tmp_path), "--list"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("(1,0) to (1,2) on hexes under hex-strict is blocked, but the lesson expects clear!")
    assert out[1].endswith("under hex-strict is blocked, as expected")
    assert out[2].startswith("H99: ") and out[-1] == "3 boards: 2 not as the lesson expects"


def test_json_without_list_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", str(HEX_LESSONS), "--json"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["sightline lessons: --json goes with --list (the window has no JSON)"]


@pytest.mark.parametrize("name", ["H02", "H05", "H11"])
def test_sightline_los_agrees_with_the_lesson(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = HEX_LESSONS / f"{name}.tmx"
    lesson = Lesson.from_board(path, _board(path))
    assert lesson.origin is not None and lesson.target is not None
    a, b = (f"{c[0]},{c[1]}" for c in (lesson.origin, lesson.target))
    assert main(["los", str(path), a, b, "--viewer", "heroes", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["clear"] is (lesson.expected == "clear") and doc["grid"] == "hex"


def test_the_corridor_lesson_is_walled_on_both_sides() -> None:
    board = _board(HEX_LESSONS / "H10.tmx")
    grid = board.grid
    assert isinstance(grid, HexGrid)
    for cell in [(1, 1), (2, 1), (3, 1), (4, 1)]:
        open_sides = [n for n in grid.neighbours(cell) if not board.edge_blocks_movement(grid.edge_between(cell, n))]
        assert all(n[1] == 1 for n in open_sides), cell  # only along the corridor


def test_lessons_list_opens_no_window() -> None:
    """``--list`` is headless: neither pygame nor pytmx is loaded (a fresh interpreter)."""
    import subprocess
    import sys

    code = (f"import sys; from game.cli import main; rc = main(['lessons', {str(HEX_LESSONS)!r}, '--list']); "
            "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pytmx')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"
