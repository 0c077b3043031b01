"""No map is read wrong in silence (issue #22): over every map of ``tests/data``, ``maps/`` and
``../shared/corpus`` (when present), a map that ``check --suggest`` would read differently has
at least one finding about how it was read, and boards that cannot be right have a sanity finding.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.core.errors import MapError
from game.designer.lint import lint
from game.tiled import is_map_file, load_map
from game.tiled.derive import derive_map
from game.tiled.reader import read_records
from game.tiled.sanity import SANITY_CODES
from game.tiled.suggest import conventions_of, suggest

REPO = Path(__file__).resolve().parents[1]
#: findings that say how a map was read (or that it cannot be right)
READING = frozenset({
    *SANITY_CODES, "unknown-class", "tile-unread", "layer-role", "collision-rectangle", "collision-shape",
    "map-isometric", "wall-off-grid", "wall-diagonal", "wall-shape", "area-shape", "door-not-on-edge",
    "tile-gid-unknown", "figure-in-void", "region-unreachable", "hidden-layer", "reserved-property",
})


def maps_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if is_map_file(p))


def assert_not_silent(path: Path) -> None:
    """The map is refused in one line, or reads as its suggestion does, or says how it was read."""
    try:
        loaded = load_map(path)
    except MapError as exc:
        assert "\n" not in str(exc)
        return
    said = {f.code for f in lint(loaded)}
    found = suggest(path)
    if not found.table:
        return
    records = read_records(path)
    default = derive_map(records, conventions_of({})).board
    better = derive_map(records, conventions_of(found.table)).board
    same = (default.walls, default.blocked, default.void, frozenset(default.figures)) == (
        better.walls, better.blocked, better.void, frozenset(better.figures))
    assert same or said & READING, f"{path}: read differently by {found.table}, but check says nothing of it"


@pytest.mark.parametrize("folder", ["tests/data", "maps"])
def test_no_map_of_the_repository_is_read_wrong_in_silence(folder: str) -> None:
    maps = maps_under(REPO / folder)
    assert len(maps) >= 20
    for path in maps:
        assert_not_silent(path)


def test_no_corpus_map_is_read_wrong_in_silence(corpus_dir: Path) -> None:
    maps = maps_under(corpus_dir)
    assert len(maps) >= 30
    for path in maps:
        assert_not_silent(path)


# --- hex boards: the sanity walks step between the grid's own neighbours ------------------------


def _zigzag() -> set[tuple[int, int]]:
    """A chain of cells from the top edge down a 5x7 board, each a hex neighbour of the next on a
    pointy-top grid with odd rows pushed, none an orthogonal neighbour of another, ending in a
    block of 3x2 cells well inside."""
    chain = {(2, 0), (1, 1), (2, 2), (1, 3)}  # (2,0)-(1,1): rows 0 and 1, (1,1) pushed right
    return chain | {(x, y) for x in (1, 2, 3) for y in (4, 5)}


def test_void_joined_to_the_edge_through_hex_neighbours_is_not_enclosed() -> None:
    from game.core.board import Board
    from game.core.hex_sight import hex_board
    from game.tiled.sanity import _enclosed

    void = frozenset(_zigzag())
    hexes = hex_board(5, 7, void=void)
    assert _enclosed(hexes, void) == set()  # every cell joins the top edge, hex step by hex step
    squares = Board(5, 7, void=void)
    assert _enclosed(squares, void) == void - {(2, 0)}  # on squares the chain is broken at once


def test_the_rim_of_the_void_on_hexes_is_its_six_neighbours() -> None:
    from game.core.board import Board
    from game.core.hex_sight import hex_board
    from game.tiled.sanity import _next_to

    mask = np.zeros((9, 9), dtype=bool)
    mask[4, 4] = True  # one void cell in the middle, on an even row of a pointy-top grid
    hexes = _next_to(hex_board(9, 9, void=[(4, 4)]), mask) & ~mask
    squares = _next_to(Board(9, 9, void=[(4, 4)]), mask) & ~mask
    around = {(3, 3), (4, 3), (3, 4), (5, 4), (3, 5), (4, 5)}  # HexGrid.around((4, 4))
    inner = {(x, y) for x in range(1, 8) for y in range(1, 8)}
    assert {(x, y) for x, y in inner if hexes[y, x]} == around
    assert {(x, y) for x, y in inner if squares[y, x]} == {(4, 3), (3, 4), (5, 4), (4, 5)}
    assert hexes[0].all() and hexes[:, 8].all()  # the map's edge is next to the outside
