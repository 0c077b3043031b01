"""What must hold on hex boards (hex-los.md §4), as hypothesis properties over random boards and
every rule (each preset and each single-parameter override): a hex sees itself; neighbours across
an open edge see each other; symmetry without figures; more walls, blocking hexes or figures never
clear a line; the verdicts do not depend on the pixel sizes nor on drawing the board transposed;
and the fast walk agrees with the slow reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.hex_board import HexBoard, HexFigure, HexView
from game.core.hex_los import field, line_verdict
from game.core.hex_reference import reference
from game.core.hex_rules import HEX_PARAMETERS, HEX_PRESETS, HexProfile
from game.core.hexgrid import Cell, HexGrid, HexLayout


def all_rules() -> list[HexProfile]:
    """Every preset and every single-parameter override of it."""
    out = []
    for preset in HEX_PRESETS.values():
        out.append(preset)
        for parameter, values in HEX_PARAMETERS.items():
            out.extend(preset.with_value(parameter, v) for v in values if v != preset.get(parameter))
    return out


RULES = all_rules()


@st.composite
def boards(draw: st.DrawFn, max_side: int = 5, people: bool = True) -> HexBoard:
    """A random hex board: any stagger, walls (the map's edge included), doors, void, blocked
    terrain and figures of two sides."""
    grid = HexGrid(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)),
                   draw(st.sampled_from(["x", "y"])), draw(st.sampled_from(["odd", "even"])))
    cells = list(grid.cells())
    edges = sorted({e for c in cells for e in grid.edges_of(c)})
    walls = draw(st.sets(st.sampled_from(edges), max_size=len(edges) // 3))
    doors = draw(st.dictionaries(st.sampled_from(edges), st.sampled_from(["open", "closed", "locked"]), max_size=3))
    void = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 5))
    blocked = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 4))
    figures: dict[Cell, list[HexFigure]] = {}
    if people:
        for cell in draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3)):
            figures[cell] = [HexFigure(f"f{i}", draw(st.sampled_from(["red", "blue"]))) for i in range(draw(st.integers(1, 2)))]
    return HexBoard.build(grid, walls, doors, void, blocked, figures, capacity=draw(st.integers(1, 2)))


def _on(board: HexBoard) -> list[Cell]:
    return [c for c in board.grid.cells() if board.on_board(c)]


@given(boards(), st.sampled_from(RULES), st.data())
def test_a_hex_sees_itself(board: HexBoard, rule: HexProfile, data: st.DataObject) -> None:
    cells = _on(board)
    if cells:
        a = data.draw(st.sampled_from(cells))
        assert line_verdict(board, a, a, rule) and field(board, a, rule)[a[1], a[0]]


@given(boards(), st.sampled_from(list(HEX_PRESETS.values())), st.data())
def test_neighbours_across_an_open_edge_see_each_other_under_every_preset(board: HexBoard, rule: HexProfile, data: st.DataObject) -> None:
    cells = _on(board)
    if not cells:
        return
    a = data.draw(st.sampled_from(cells))
    for b in board.grid.around(a):
        if board.on_board(b) and board.sight_wall(board.grid.edge_between(a, b)) is None:
            assert line_verdict(board, a, b, rule, viewer=data.draw(st.sampled_from([None, "red"])))


@given(boards(people=False), st.sampled_from([r for r in RULES if r.from_ == r.to]), st.data())
def test_without_figures_sight_is_symmetric(board: HexBoard, rule: HexProfile, data: st.DataObject) -> None:
    cells = _on(board)
    if not cells:
        return
    a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
    assert line_verdict(board, a, b, rule) == line_verdict(board, b, a, rule)
    assert field(board, a, rule)[b[1], b[0]] == field(board, b, rule)[a[1], a[0]]


def _more(board: HexBoard, kind: str, where: int) -> HexBoard:
    """The board with one more obstacle: a wall, blocked terrain, a void hex or a figure."""
    grid = board.grid
    cells = list(grid.cells())
    edges = sorted({e for c in cells for e in grid.edges_of(c)})
    walls, blocked, void = set(board.walls), set(board.blocked), set(board.void)
    figures = {c: list(fs) for c, fs in board.figures}
    if kind == "wall":
        walls.add(edges[where % len(edges)])
    elif kind == "blocked":
        blocked.add(cells[where % len(cells)])
    elif kind == "void":
        void.add(cells[where % len(cells)])
    else:
        figures.setdefault(cells[where % len(cells)], []).append(HexFigure("new", "blue"))
    return HexBoard.build(grid, walls, board.door_map, void, blocked, figures, board.capacity)


@given(boards(), st.sampled_from(RULES), st.sampled_from(["wall", "blocked", "void", "figure"]), st.integers(0, 999), st.data())
def test_more_obstacles_never_clear_a_line(board: HexBoard, rule: HexProfile, kind: str, where: int, data: st.DataObject) -> None:
    more = _more(board, kind, where)
    cells = [c for c in _on(board) if more.on_board(c)]
    if not cells:
        return
    a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
    viewer = data.draw(st.sampled_from([None, "red"]))
    if line_verdict(more, a, b, rule, viewer):
        assert line_verdict(board, a, b, rule, viewer)
    assert not (field(more, a, rule, viewer) & ~field(board, a, rule, viewer)).any()


def _transposed(board: HexBoard) -> HexBoard:
    grid = board.grid
    t = grid.transposed()

    def edge(e):  # type: ignore[no-untyped-def]
        return type(e).of((e.a[1], e.a[0]), (e.b[1], e.b[0]))

    def cell(c: Cell) -> Cell:
        return (c[1], c[0])

    return HexBoard.build(
        t, [edge(e) for e in board.walls], {edge(e): s for e, s in board.doors}, [cell(c) for c in board.void],
        [cell(c) for c in board.blocked], {cell(c): fs for c, fs in board.figures}, board.capacity,
    )


@given(boards(max_side=6), st.sampled_from(RULES), st.data())
def test_the_board_drawn_transposed_gives_the_same_verdicts(board: HexBoard, rule: HexProfile, data: st.DataObject) -> None:
    """Pointy-top ↔ flat-top: cell (x, y) becomes (y, x), every lattice point (X, Y) becomes (Y, X)."""
    flipped = _transposed(board)
    cells = _on(board)
    if not cells:
        return
    a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
    viewer = data.draw(st.sampled_from([None, "red"]))
    assert line_verdict(board, a, b, rule, viewer) == line_verdict(flipped, (a[1], a[0]), (b[1], b[0]), rule, viewer)
    assert (field(board, a, rule, viewer) == field(flipped, (a[1], a[0]), rule, viewer).T).all()


layouts = st.builds(HexLayout, st.integers(8, 80), st.integers(8, 80), st.integers(1, 40))


@given(boards(max_side=4), st.sampled_from(RULES), layouts, layouts, st.data())
def test_the_pixel_sizes_change_nothing(board: HexBoard, rule: HexProfile, one: HexLayout, two: HexLayout, data: st.DataObject) -> None:
    """Walls drawn at Tiled's pixel corners of two different (squashed or stretched) tile sizes
    snap back to the same edges, so the same board and the same verdicts."""
    grid = board.grid

    def redrawn(layout: HexLayout) -> HexBoard:
        def snap(p):  # type: ignore[no-untyped-def]
            return grid.corner_at_px(*grid.point_px(p, layout), layout)

        walls = [type(e).of(snap(e.a), snap(e.b)) for e in board.walls]
        return HexBoard.build(grid, walls, board.door_map, board.void, board.blocked, dict(board.figures), board.capacity)

    first, second = redrawn(one), redrawn(two)
    assert first.walls == second.walls == board.walls
    cells = _on(board)
    if cells:
        a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
        assert line_verdict(first, a, b, rule) == line_verdict(second, a, b, rule) == line_verdict(board, a, b, rule)


@settings(max_examples=150)
@given(boards(max_side=4), st.sampled_from(RULES), st.data())
def test_the_fast_walk_agrees_with_the_reference(board: HexBoard, rule: HexProfile, data: st.DataObject) -> None:
    cells = _on(board)
    if not cells:
        return
    a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
    viewer = data.draw(st.sampled_from([None, "red"]))
    assert line_verdict(board, a, b, rule, viewer) == reference(HexView(board, rule, viewer), a, b).clear
