"""The off-grid wall policy (game/tiled/offgrid.py): staircases of grid edges, decided exactly.

Checked against the one tracer of wall geometry (:func:`game.tiled.geometry.trace_wall`): what is
on the grid decides exactly as a Tiled wall; what is not becomes a connected staircase that never
opens a gap, the same whichever way it was drawn; and the real Dungeondraft file decides as
pinned here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core.errors import MapError
from game.tiled.geometry import trace_wall
from game.tiled.offgrid import (
    Budget,
    decide_path,
    deviation_message,
    nearest_corner,
    on_grid,
    staircase,
)
from game.tiled.uvtt import read_uvtt

DATA = Path(__file__).resolve().parent / "data"
coordinate = st.fractions(min_value=-6, max_value=18, max_denominator=64)
point = st.tuples(coordinate, coordinate)


def drawn_edges(points: Sequence[tuple[F, F]]) -> list[object]:
    """The unit edges of a path segment by segment through the one wall tracer, in drawing order
    with repeats kept (the tracer gives a whole shape's edges once each)."""
    return [edge for a, b in zip(points, points[1:], strict=False) for edge in trace_wall([([a, b], False)]).edges]


def traced(decision_corners: tuple[tuple[int, int], ...]) -> list[object]:
    """The unit edges of a decided path, through the one wall tracer (repeats kept)."""
    return drawn_edges([(F(x), F(y)) for x, y in decision_corners])


def test_nearest_corner_goes_right_and_down_when_half_way() -> None:
    assert nearest_corner((F(29, 2), F(31, 2))) == (15, 16)
    assert nearest_corner((F(-1, 2), F(-3, 2))) == (0, -1)
    assert nearest_corner((F(7, 16), F(9, 16))) == (0, 1)


def test_on_grid_needs_both_ends_near_corners_on_one_line() -> None:
    assert on_grid((F(1, 8), F(0)), (F(3), F(-1, 8)))  # within the Tiled snap
    assert not on_grid((F(3, 16), F(0)), (F(3), F(0)))  # one end 3/16 off a corner
    assert not on_grid((F(0), F(0)), (F(2), F(1)))  # diagonal


@given(point, point)
def test_staircase_is_unit_steps_between_the_nearest_corners(p: tuple[F, F], q: tuple[F, F]) -> None:
    corners = staircase(p, q)
    assert corners[0] == nearest_corner(p) and corners[-1] == nearest_corner(q)
    for (ax, ay), (bx, by) in zip(corners, corners[1:], strict=False):
        assert abs(ax - bx) + abs(ay - by) == 1
    (ax, ay), (bx, by) = corners[0], corners[-1]
    assert len(corners) - 1 == abs(ax - bx) + abs(ay - by)  # monotone: no step wasted


@given(point, point)
def test_staircase_is_the_same_drawn_either_way(p: tuple[F, F], q: tuple[F, F]) -> None:
    assert staircase(q, p) == staircase(p, q)[::-1]


@given(point, point)
def test_staircase_stays_near_the_drawn_segment(p: tuple[F, F], q: tuple[F, F]) -> None:
    decision = decide_path((p, q), closed=False)
    assert decision.worst2 <= F(1, 2) + F(1, 100)  # a corner never lies farther than ~0.71 square


@given(st.lists(st.tuples(st.integers(-3, 12), st.integers(-3, 12)), min_size=2, max_size=8),
       st.data())
def test_on_grid_paths_decide_as_the_tiled_tracer_does(corners: list[tuple[int, int]], data: st.DataObject) -> None:
    path = [corners[0]]
    for x, y in corners[1:]:  # make every segment axis-aligned
        path.append((x, path[-1][1]) if data.draw(st.booleans()) else (path[-1][0], y))
    jitter = st.fractions(min_value=F(-1, 8), max_value=F(1, 8), max_denominator=32)
    drawn = [(F(x) + data.draw(jitter), F(y) + data.draw(jitter)) for x, y in path]
    decision = decide_path(drawn, closed=False)
    assert decision.off_grid == 0 and decision.worst_at is None
    assert Counter(traced(decision.corners)) == Counter(drawn_edges(drawn))


@given(st.lists(point, min_size=3, max_size=12))
def test_a_closed_drawing_stays_closed(points: list[tuple[F, F]]) -> None:
    """Every corner of a closed staircase has an even number of edges: no gap is ever opened."""
    decision = decide_path(points, closed=True)
    degree: Counter[tuple[int, int]] = Counter()
    for edge in traced(decision.corners):
        for corner in edge.ends():  # type: ignore[attr-defined]
            degree[corner] += 1
    assert all(n % 2 == 0 for n in degree.values())
    if decision.corners:
        assert decision.corners[0] == decision.corners[-1] or len(set(decision.corners)) == 1


def test_joined_walls_and_doors_stay_joined() -> None:
    """A wall ending where a door starts (Dungeondraft stops walls at portals, often mid-edge)."""
    wall = decide_path(((F(12), F(16)), (F(12), F(31, 2))), closed=False)
    door = decide_path(((F(12), F(31, 2)), (F(12), F(29, 2))), closed=False)
    stub = decide_path(((F(12), F(29, 2)), (F(12), F(14))), closed=False)
    assert wall.corners == ((12, 16),) and wall.edges == 0  # half an edge: dropped
    assert door.corners == ((12, 16), (12, 15))
    assert stub.corners == ((12, 15), (12, 14))
    assert deviation_message("line_of_sight[1]", "wall", wall) == (
        "line_of_sight[1]: wall shorter than the grid (its ends go to one corner, (12,16)); dropped")
    assert deviation_message("line_of_sight[2]", "wall", stub) == (
        "line_of_sight[2]: wall with 1 of 1 segment off the grid, drawn as a staircase of 1 grid edge "
        "at most 0.50 squares from the drawing (the farthest at grid corner (12,15))")


def test_a_step_straight_back_between_off_grid_segments_is_dropped() -> None:
    """A wobbly line hugging x = 1/2 would step out to x = 1 and straight back: no spur is kept."""
    wobble = ((F(9, 20), F(0)), (F(11, 20), F(1, 3)), (F(9, 20), F(2, 3)), (F(11, 20), F(2)))
    decision = decide_path(wobble, closed=False)
    assert decision.corners == ((0, 0), (1, 0), (1, 2))  # not (0,0) (1,0) (1,1) (0,1) (1,1) (1,2)
    assert Counter(traced(decision.corners)).most_common(1)[0][1] == 1  # no edge twice
    drawn_back = ((F(0), F(0)), (F(1), F(0)), (F(0), F(0)))  # on the grid: drawn twice, kept twice
    assert Counter(traced(decide_path(drawn_back, closed=False).corners)).most_common(1)[0][1] == 2


def test_the_budget_bounds_the_work() -> None:
    budget = Budget(100)
    decide_path(((F(0), F(0)), (F(40), F(30))), closed=False, budget=budget)
    assert budget.left == 30
    with pytest.raises(MapError) as caught:
        decide_path(((F(0), F(0)), (F(40), F(0))), closed=False, budget=budget)
    assert "\n" not in str(caught.value) and "100 grid edges" in str(caught.value)


def test_the_real_dungeondraft_file_decides_as_pinned() -> None:
    """oganm/dd2vtt_importer's test.dd2vtt (MIT): rooms, a cave, three doors, two of them centred
    on a grid corner (so they move half a square down or right)."""
    scene = read_uvtt(DATA / "vtt" / "real" / "oganm-test.dd2vtt").scene()
    budget = Budget()
    walls = {edge for path in scene.paths
             for edge in traced(decide_path(path.points, path.closed, budget).corners)}
    doors = {str(edge) for door in scene.doors
             for edge in traced(decide_path((door.a, door.b), False, budget).corners)}
    assert doors == {"H(11,6)", "V(12,15)", "H(10,14)"}
    assert len(walls) == 92 and budget.limit - budget.left == 102
    messages = [deviation_message(p.source, p.role, decide_path(p.points, p.closed)) for p in scene.paths]
    assert [m is None for m in messages] == [False] * 5 + [True, True] + [False] * 2
    assert messages[7] is not None and messages[7].startswith(
        "line_of_sight[7]: wall with 134 of 134 segments off the grid, drawn as a staircase of 33 grid edges")
