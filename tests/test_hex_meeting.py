"""Where a blocked hex line meets its blocker (issue #21, the window's red part): the engine's own
:class:`~game.core.hex_result.HexMeeting` (exact ``t`` along the line, the lattice point there,
the corner and cells), checked by plain geometry written here from the lattice, never from the
engine's sentence: on the hex lessons (real .tmx boards, the map's rule, the lesson's figures)
and the specification's vectors H1–H6 under every preset, both ways; and in the window, the red
part of the drawn line starts at that point.
"""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pygame
import pytest
from support.hex_vectors import PRESETS, VECTORS
from support.window import Clock, click, move, near

from game.core import sight
from game.core.board import Board
from game.core.hex_los import view_of
from game.core.hex_result import HexLine, HexMeeting
from game.core.hex_rules import HEX_PRESETS
from game.core.hex_sight import hex_board, hex_input
from game.core.hexgrid import HexEdge, HexGrid
from game.play.lessons import Lesson, lesson_paths
from game.play.session import Session
from game.tiled import load_map
from game.ui import theme
from game.ui.app import App

REPO = Path(__file__).resolve().parent.parent
HEX_LESSONS = REPO / "maps" / "lessons" / "hex"

P = tuple[Fraction, Fraction]


def _meets(p: P, q: P, a: P, b: P) -> Fraction | None:
    """The smallest t in [0, 1] where segment p→q meets the closed segment a–b (exact)."""
    rx, ry = q[0] - p[0], q[1] - p[1]
    sx, sy = b[0] - a[0], b[1] - a[1]
    denom = rx * sy - ry * sx
    wx, wy = a[0] - p[0], a[1] - p[1]
    if denom == 0:
        if wx * ry - wy * rx != 0:
            return None  # parallel, apart
        length = rx * rx + ry * ry
        ts = [((e[0] - p[0]) * rx + (e[1] - p[1]) * ry) / length for e in (a, b)]
        lo, hi = max(Fraction(0), min(ts)), min(Fraction(1), max(ts))
        return lo if lo <= hi else None
    t = (wx * sy - wy * sx) / denom
    u = (wx * ry - wy * rx) / denom
    return t if 0 <= t <= 1 and 0 <= u <= 1 else None


def _frac(point: tuple[int, int]) -> P:
    return Fraction(point[0]), Fraction(point[1])


def check_meeting(board: Board, rule: object, viewer: str | None, line: HexLine) -> HexMeeting:
    """The line's meeting point lies on its blocker and is the first point of it along the line."""
    met = line.met
    assert met is not None, line
    p, q = line.start, line.end
    assert 0 <= met.t <= 1
    assert met.point == (p[0] + met.t * (q[0] - p[0]), p[1] + met.t * (q[1] - p[1]))
    grid = board.grid
    if met.corners:  # blocked at a lattice corner: the point is that corner
        assert met.point == _frac(met.corners[0])
    elif met.cells:  # entering (or running along) a blocking hex: its first boundary point
        ring = [_frac(c) for c in grid.corners(met.cells[0])]  # type: ignore[attr-defined]
        ts = [t for i in range(6) if (t := _meets(p, q, ring[i], ring[(i + 1) % 6])) is not None]
        assert ts and met.t == min(ts)
    else:  # a wall crossed or run along: the point is on a closed side, the first one met
        view = view_of(hex_input(board), rule, viewer)  # type: ignore[arg-type]
        walls = {edge for cell in grid.cells() for edge in _sides(grid, cell) if view.wall(edge)}
        ts = [t for edge in walls if (t := _meets(p, q, _frac(edge.a), _frac(edge.b))) is not None]
        assert met.t in ts
    return met


def _sides(grid: object, cell: tuple[int, int]) -> list[HexEdge]:
    ring = grid.corners(cell)  # type: ignore[attr-defined]
    return [HexEdge.of(ring[i], ring[(i + 1) % 6]) for i in range(6)]


def _blocked_lines(found: sight.Sight) -> list[HexLine]:
    lines = [line for line in found.lines if not line.clear]
    assert all(isinstance(line, HexLine) for line in lines)
    return lines  # type: ignore[return-value]


CASES = [(v, i) for v in VECTORS for i in range(3)]


@pytest.mark.parametrize(("vector", "rule"), CASES, ids=[f"{v[0]}-{PRESETS[i]}" for v, i in CASES])
def test_every_blocked_line_of_the_vectors_meets_its_blocker_where_the_engine_says(vector: tuple, rule: int) -> None:
    name, w, h, a, b, walls, blocked, _ = vector
    grid = HexGrid(w, h)
    board = hex_board(w, h, blocked=blocked, walls=[grid.edge_between(*pair) for pair in walls])
    profile = HEX_PRESETS[PRESETS[rule]]
    for x, y in ((a, b), (b, a)):
        found = sight.line(board, x, y, profile)
        lines = _blocked_lines(found)
        assert found.clear or lines
        for line in lines:
            check_meeting(board, profile, None, line)
        crossing = found.first_blocker
        assert found.clear or (crossing is not None and crossing.t == lines[0].met.t)  # type: ignore[union-attr]


@pytest.mark.parametrize("path", lesson_paths(HEX_LESSONS), ids=lambda p: p.stem)
def test_every_blocked_line_of_the_hex_lessons_meets_its_blocker_where_the_engine_says(path: Path) -> None:
    board = load_map(path).board
    lesson = Lesson.from_board(path, board)
    assert lesson.origin is not None and lesson.target is not None
    rule = sight.rule_of(board)
    here = board.figures_at(lesson.origin)
    viewer = here[0].side if here else None
    found = sight.line(board, lesson.origin, lesson.target, rule, viewer=viewer)
    for line in _blocked_lines(found):
        check_meeting(board, rule, viewer, line)


def test_a_wall_crossed_between_two_centres_meets_it_halfway() -> None:
    board = hex_board(3, 1, walls=[HexGrid(3, 1).edge_between((0, 0), (1, 0))])  # H2's wall
    found = sight.line(board, (0, 0), (2, 0), HEX_PRESETS["hexside"])
    (line,) = _blocked_lines(found)
    assert line.met is not None and line.met.t == Fraction(1, 4) and line.met.kind == "edge"
    assert found.first_blocker is not None and found.first_blocker.point == (1, 0)


def test_in_the_window_the_red_part_starts_at_the_blocker(tmp_path: Path, screen: pygame.Surface) -> None:
    """H3 drawn big (a rock in the middle, hexside): green up to where the centre line enters the
    rock's hex, red after it, on the real window's pixels."""
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "tiles")
    shutil.copytree(REPO / "assets" / "tiles", tmp_path.parent / "assets" / "tiles", dirs_exist_ok=True)
    target = tmp_path / "h3.tmx"
    target.write_text(  # the hex demo's tileset: gid 3 is rubble (blocked)
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="hexagonal" renderorder="right-down" '
        'width="3" height="1" tilewidth="56" tileheight="64" hexsidelength="32" staggeraxis="y" staggerindex="odd" '
        'infinite="0"><properties><property name="los_rule" value="hexside"/></properties>'
        '<tileset firstgid="1" source="tiles/hex.tsx"/>'
        '<layer id="1" name="ground" width="3" height="1"><data encoding="csv">\n1,3,1\n</data></layer></map>\n',
        encoding="utf-8",
    )
    app = App(Session.open(target, fresh=True), screen=screen, time_source=Clock(), watch=False)
    pygame.event.clear()
    app.frame()
    click(app, app.view.square_centre((0, 0)))
    move(app, app.view.square_centre((2, 0)))
    ray = app.presenter.frame().ray
    assert ray is not None and not ray.clear
    (line,) = ray.lines
    assert line.block_t == pytest.approx(1 / 4) and line.cells == ((1, 0),)
    a, b = app.view.lattice_point(line.start), app.view.lattice_point(line.end)
    shot = pygame.display.get_surface()

    def colour_at(t: float) -> tuple[int, int, int]:
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        return tuple(shot.get_at((round(x), round(y))))[:3]  # type: ignore[return-value]

    assert near(colour_at(0.19), theme.RAY_CLEAR) and near(colour_at(0.31), theme.RAY_BLOCKED)
    assert near(colour_at(0.6), theme.RAY_BLOCKED)
