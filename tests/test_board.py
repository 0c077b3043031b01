"""The board model: edges, doors, capacity, versions, state round trips."""

from __future__ import annotations

import pytest

from game.core.board import (
    Board,
    BoardState,
    Door,
    DoorState,
    Edge,
    Figure,
    corner_edges,
    parse_square,
)
from game.core.errors import CapacityError, PlacementError, UsageError


def test_edge_between_and_squares_round_trip() -> None:
    for a, b in [((2, 2), (3, 2)), ((3, 2), (2, 2)), ((1, 1), (1, 2)), ((1, 2), (1, 1))]:
        edge = Edge.between(a, b)
        assert set(edge.squares()) == {a, b}
    with pytest.raises(ValueError):
        Edge.between((0, 0), (1, 1))


def test_corner_edges_meet_at_the_corner() -> None:
    for edge in corner_edges((3, 5)):
        assert (3, 5) in edge.ends()


def test_edge_parse_rejects_garbage() -> None:
    with pytest.raises(UsageError):
        Edge.parse("X(1,2)")


def test_door_decides_its_edge_whatever_wall_runs_there() -> None:
    edge = Edge("V", 2, 2)
    board = Board(5, 5, walls=[edge], doors=[Door(edge, DoorState.OPEN)])
    assert not board.edge_blocks_sight(edge)
    board.set_door(edge, DoorState.LOCKED)
    assert board.edge_blocks_sight(edge) and board.edge_blocks_movement(edge)


def test_window_blocks_movement_not_sight() -> None:
    edge = Edge("H", 1, 1)
    board = Board(3, 3, windows=[edge])
    assert not board.edge_blocks_sight(edge)
    assert board.edge_blocks_movement(edge)
    assert board.edge_kind(edge) == "window"


def test_capacity_is_enforced_with_a_precise_message() -> None:
    board = Board(3, 3, capacity=2)
    board.place_figure(Figure(1, "Rook", "red", (1, 1)))
    board.place_figure(Figure(2, "Goblin", "monsters", (1, 1)))
    board.place_figure(Figure(3, "Orc", "monsters", (0, 0)))
    with pytest.raises(CapacityError, match=r"\(1,1\) already holds 2 figures \(capacity 2\): Rook, Goblin"):
        board.move_figure(3, (1, 1))
    assert board.figure(3).square == (0, 0)


def test_placement_off_board_void_or_blocked_is_refused() -> None:
    board = Board.from_ascii([".~", "#."])
    board.place_figure(Figure(1, "A", "red", (0, 0)))
    for sq in [(1, 0), (0, 1), (5, 5), (-1, 0)]:
        with pytest.raises(PlacementError):
            board.move_figure(1, sq)


def test_every_update_bumps_the_version_and_geometry_only_when_geometry_changes() -> None:
    edge = Edge("V", 1, 0)
    board = Board(3, 3, doors=[Door(edge)])
    board.place_figure(Figure(1, "A", "red", (0, 0)))
    v, g = board.version, board.geometry_version
    board.move_figure(1, (2, 2))
    assert (board.version, board.geometry_version) == (v + 1, g)
    board.cycle_door(edge)
    assert (board.version, board.geometry_version) == (v + 2, g + 1)
    board.update_figure(1, wounds=2)
    assert board.figure(1).stats["wounds"] == 2 and board.version == v + 3


def test_state_restore_round_trip() -> None:
    edge = Edge("H", 1, 1)
    board = Board(3, 3, doors=[Door(edge)], figures=[Figure(1, "A", "red", (0, 0))])
    saved: BoardState = board.state()
    board.move_figure(1, (2, 2))
    board.cycle_door(edge)
    board.restore(saved)
    assert board.figure(1).square == (0, 0)
    assert board.doors[edge].state is DoorState.CLOSED
    assert [f.id for f in board.figures_at((0, 0))] == [1]


def test_square_block_reason_depends_on_the_viewer() -> None:
    board = Board(3, 1, figures=[Figure(1, "G1", "monsters", (1, 0)), Figure(2, "G2", "monsters", (1, 0))])
    assert board.square_blocks_sight((1, 0), "heroes")
    assert not board.square_blocks_sight((1, 0), "monsters")
    assert board.square_blocks_sight((1, 0), None)


def test_find_figure_by_name_or_id() -> None:
    board = Board(3, 1, figures=[Figure(7, "Kisha", "red", (0, 0)), Figure(8, "Goblin", "m", (1, 0))])
    assert board.find_figure("kisha").id == 7
    assert board.find_figure("8").name == "Goblin"
    with pytest.raises(UsageError, match="no figure named 'Zed'"):
        board.find_figure("Zed")


def test_parse_square_errors_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        parse_square("3;4")


def test_a_name_that_is_also_an_id_is_ambiguous_and_hash_means_the_id() -> None:
    board = Board(3, 1, figures=[Figure(3, "Ann", "red", (0, 0)), Figure(6, "3", "red", (1, 0))])
    with pytest.raises(UsageError, match="names several figures"):
        board.find_figure("3")
    assert board.find_figure("#3").name == "Ann"
    assert board.find_figure("#6").name == "3"


def test_stats_are_read_only_and_updates_leave_snapshots_alone() -> None:
    """#9.5: a stat changes only through the API, which bumps the version; earlier snapshots
    (a BoardState, the undo history's before/after states) keep the old value."""
    from game.play.history import History

    board = Board(3, 1, figures=[Figure(1, "Rook", "red", (0, 0), {"life": 3})], properties={"caption": "c"})
    before = board.state()
    figure = board.figure(1)
    with pytest.raises(TypeError):
        figure.stats["life"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        board.properties["caption"] = "changed"  # type: ignore[index]
    with pytest.raises(AttributeError):
        figure.stats._data = {}  # type: ignore[attr-defined]
    version = board.version
    board.update_figure(1, life=1)
    assert board.version == version + 1
    after = board.state()
    history: History[object] = History()
    history.record("hit", before, after)
    board.update_figure(1, life=0, armor=2)
    assert before.figures[0].stats == {"life": 3}
    assert after.figures[0].stats == {"life": 1}
    assert history.undo_stack[-1].before.figures[0].stats["life"] == 3  # type: ignore[attr-defined]
    assert history.undo_stack[-1].after.figures[0].stats == {"life": 1}  # type: ignore[attr-defined]
    assert board.figure(1).stats == {"life": 0, "armor": 2}
    board.restore(before)
    assert board.figure(1).stats == {"life": 3}


def test_serial_tells_boards_and_copies_apart() -> None:
    """Caches key on (serial, version): a copy or a new board never shares a key, even when
    Python reuses an id() of a board that is gone."""
    board = Board(2, 2)
    copy = board.copy()
    assert copy.serial != board.serial and copy.version == board.version
    serials = set()
    for _ in range(50):
        serials.add(Board(1, 1).serial)  # each dies at once; its id() may be reused
    assert len(serials) == 50
