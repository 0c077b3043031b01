"""The usual wall's fast trace (``_plain_trace``) against the general trace it shortcuts
(``_general_trace``: snapping, clipping, merging and repeats): same result on every path it takes,
and it declines every path it cannot take whole."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from game.tiled.geometry import _general_trace, _plain_trace, trace_wall

corner = st.tuples(st.integers(-2, 7), st.integers(-2, 7))


def as_points(corners: list[tuple[int, int]], half: bool) -> list[tuple[Fraction, Fraction]]:
    """Corners as Tiled-read points; ``half`` puts the first off the grid (a path to decline)."""
    points = [(Fraction(x), Fraction(y)) for x, y in corners]
    if half and points:
        points[0] = (points[0][0] + Fraction(1, 2), points[0][1])
    return points


@settings(max_examples=400, deadline=None)
@given(
    st.lists(corner, min_size=0, max_size=6),
    st.booleans(),
    st.booleans(),
    st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))),
)
def test_fast_trace_is_the_general_trace(corners: list[tuple[int, int]], closed: bool, half: bool,
                                         board: tuple[int, int] | None) -> None:
    # axis-aligned steps most of the time, so the fast path is taken often
    path = as_points(corners, half)
    general = _general_trace([(path, closed)], board)
    plain = _plain_trace(path, closed, board)
    if plain is not None:
        assert plain == general
        assert not general.problems and not general.repeated and not general.outside
    assert trace_wall([(path, closed)], board) == general


def test_fast_trace_takes_the_usual_wall_and_declines_the_rest() -> None:
    F = Fraction
    usual = [(F(1), F(1)), (F(4), F(1)), (F(4), F(3))]
    assert _plain_trace(usual, False, (5, 5)) is not None
    assert [str(e) for e in _plain_trace(usual, False, (5, 5)).edges] == [  # type: ignore[union-attr]
        "H(1,1)", "H(2,1)", "H(3,1)", "V(4,1)", "V(4,2)"]
    assert _plain_trace([(F(0), F(0)), (F(2), F(2))], False, None) is None  # diagonal
    assert _plain_trace(usual, False, (3, 3)) is None  # runs past the board
    assert _plain_trace([(F(0), F(1)), (F(3), F(1)), (F(1), F(1))], False, None) is None  # doubles back
    assert _plain_trace([(F(1, 2), F(1)), (F(3), F(1))], False, None) is None  # off a corner
