"""Helpers of test_los_properties.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

from hypothesis import strategies as st

from game.core.board import Board, Door, DoorState, Edge, Figure

SIDES = ("red", "blue", "monsters")


@st.composite
def boards(draw: st.DrawFn, figures: bool = True, max_size: int = 8) -> Board:
    w = draw(st.integers(1, max_size))
    h = draw(st.integers(1, max_size))
    edges = [Edge("V", x, y) for x in range(w + 1) for y in range(h)]
    edges += [Edge("H", x, y) for x in range(w) for y in range(h + 1)]
    density = draw(st.sampled_from((0.05, 0.15, 0.3)))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(edges), max_size=len(edges)))
    walls = [e for e, f in zip(edges, flags, strict=True) if f < density]
    door_edges = draw(st.lists(st.sampled_from(edges), max_size=4, unique=True))
    doors = [Door(e, draw(st.sampled_from(list(DoorState)))) for e in door_edges]
    cells = [(x, y) for y in range(h) for x in range(w)]
    void = draw(st.lists(st.sampled_from(cells), max_size=max(1, len(cells) // 6), unique=True))
    blocked = draw(st.lists(st.sampled_from(cells), max_size=max(1, len(cells) // 6), unique=True))
    board = Board(w, h, void=void, blocked=[c for c in blocked if c not in void], walls=walls, doors=doors)
    if figures:
        spots = [c for c in cells if board.can_enter(None, c) is None]
        n = draw(st.integers(0, min(12, 2 * len(spots))))
        for i in range(n):
            sq = draw(st.sampled_from(spots))
            if board.can_enter(None, sq) is None:
                board.place_figure(Figure(i + 1, f"f{i + 1}", draw(st.sampled_from(SIDES)), sq))
    return board


viewers = st.sampled_from((None, *SIDES))
