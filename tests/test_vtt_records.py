"""A described virtual-tabletop map as the reader's records (game/tiled/vtt_records.py), and the
board the one derivation makes of them."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path
from typing import Any

from game.core.board import DoorState, Edge
from game.tiled import load_map
from game.tiled.conventions import Conventions
from game.tiled.derive import derive_map
from game.tiled.uvtt import parse_uvtt
from game.tiled.vtt_records import CELL_TILES, VttArt, scene_records


def uvtt(**changes: Any) -> bytes:
    doc: dict[str, Any] = {"format": 0.3, "resolution": {"map_size": {"x": 6, "y": 4}, "pixels_per_grid": 10},
                           "line_of_sight": [], "portals": []}
    doc.update(changes)
    return json.dumps(doc).encode()


def derived(data: bytes) -> Any:
    conventions = Conventions()
    conventions.add_tiles(CELL_TILES)
    return derive_map(scene_records(parse_uvtt(data, "m.dd2vtt").scene()), conventions)


def test_a_wall_on_the_grid_is_one_polyline_as_drawn_with_no_finding() -> None:
    records = scene_records(parse_uvtt(uvtt(line_of_sight=[[{"x": 1, "y": 0}, {"x": 1, "y": 3}, {"x": 4.05, "y": 3}]]),
                                       "m.dd2vtt").scene())
    (wall,) = records.objects
    assert (wall.id, wall.class_name, wall.shape, wall.name) == (1, "wall", "polyline", "line_of_sight[0]")
    assert wall.points == ((F(1), F(0)), (F(1), F(3)), (F(4), F(3)))
    assert records.findings == [] and isinstance(records.art, VttArt) and records.art.drawing == ()


def test_a_door_across_two_edges_is_a_door_on_each_with_its_state() -> None:
    portal = {"bounds": [{"x": 1, "y": 1.3}, {"x": 3, "y": 0.7}], "closed": True,
              "sightline": {"kind": "door", "state": "locked"}}
    loaded = derived(uvtt(portals=[portal]))
    assert {e: d.state for e, d in loaded.board.doors.items()} == {
        Edge("H", 1, 1): DoorState.LOCKED, Edge("H", 2, 1): DoorState.LOCKED}
    (finding,) = [f for f in loaded.findings if f.code.startswith("vtt-")]
    assert finding.code == "vtt-off-grid" and finding.message.startswith("portals[0]: door with 1 of 1 segment off")
    assert finding.object_id == 1 and loaded.objects[1].door_edge == Edge("H", 1, 1)
    assert [line.role for line in loaded.art.drawing] == ["door"]


def test_a_wall_too_short_for_the_grid_is_dropped_and_said_so() -> None:
    loaded = derived(uvtt(line_of_sight=[[{"x": 1.6, "y": 1.6}, {"x": 1.8, "y": 1.8}]]))
    assert loaded.objects == {} and loaded.board.walls == frozenset()
    (finding,) = loaded.findings
    assert finding.code == "vtt-too-short" and finding.object_id is None
    assert finding.message == ("line_of_sight[0]: wall shorter than the grid (its ends go to one corner, (2,2)); "
                               "dropped")


def test_figures_come_first_and_the_exports_squares_are_one_layer(tmp_path: Path) -> None:
    """The ids of figures do not depend on the walls (the autosave keys figures by id); void,
    blocked, impassable and door squares come back through the squares' tile layer."""
    extension = {"version": 1, "void": [[0, 0]], "impassable": [[5, 3]],
                 "door_squares": [{"square": [2, 2], "state": "open"}], "properties": {"ruleset": "arcadia"},
                 "figures": [{"name": "Ann", "side": "red", "centre": {"x": 3.5, "y": 1.5}, "stats": {"life": 3}}]}
    path = tmp_path / "m.dd2vtt"
    path.write_bytes(uvtt(line_of_sight=[[{"x": 1, "y": 0}, {"x": 1, "y": 4}]], sightline=extension))
    loaded = load_map(path)
    board = loaded.board
    assert [(f.id, f.name, f.side, f.square, dict(f.stats)) for f in board.figures.values()] == [
        (1, "Ann", "red", (3, 1), {"life": 3})]
    assert loaded.objects[2].role == "wall"
    assert board.void == {(0, 0)} and board.impassable == {(5, 3)}
    assert board.door_squares == {(2, 2): DoorState.OPEN}
    assert loaded.stats["tile_layers"] == 1 and not loaded.findings


def test_an_outline_blocks_the_squares_whose_centres_it_holds() -> None:
    outline = [{"x": 0.9, "y": 0.9}, {"x": 3.2, "y": 0.9}, {"x": 3.2, "y": 2.2}, {"x": 0.9, "y": 2.2}]
    loaded = derived(uvtt(objects_line_of_sight=[outline]))
    assert loaded.board.blocked == {(1, 1), (2, 1)}
    assert loaded.objects[1].role == "blocked" and loaded.objects[1].name == "objects_line_of_sight[0]"
