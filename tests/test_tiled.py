"""The Tiled loader on small hand-written maps: every map convention of docs/maps.md."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import DoorState, Edge
from game.core.errors import MapError, UsageError
from game.core.findings import Severity
from game.tiled import LoadedMap, load_map, parse_class_mapping

MAPS = Path(__file__).resolve().parent / "data" / "maps"


def edges(*names: str) -> set[Edge]:
    return {Edge.parse(n) for n in names}


def codes(loaded: LoadedMap) -> dict[int | None, list[str]]:
    out: dict[int | None, list[str]] = {}
    for f in loaded.findings:
        out.setdefault(f.object_id, []).append(f.code)
    return out


# --- walls and windows ---------------------------------------------------------------------


WALLS = edges(
    # object 1: polyline (1,1)-(3,1)-(3,3)
    "H(1,1)", "H(2,1)", "V(3,1)", "V(3,2)",
    # object 2: thin rectangle (8 px of 32) -> its long centre line y=2
    "H(0,2)", "H(1,2)", "H(2,2)",
    # object 4: vertex 3 px off the corner (0,1) -> snapped
    "V(0,0)",
    # object 10: 1x2 rectangle mostly below the map: only its top edge is on the map
    "H(4,4)",
    # object 3 (layer "Walls", no class): a 2x2 rectangle walls its outline
    "H(4,0)", "H(5,0)", "V(6,0)", "V(6,1)", "H(4,2)", "H(5,2)", "V(4,0)", "V(4,1)",
    # object 9 (layer "Walls"): a polygon around square (1,3)
    "H(1,3)", "V(2,3)", "H(1,4)", "V(1,3)",
)  # fmt: skip


def test_walls_from_polylines_rectangles_polygons_and_the_walls_layer() -> None:
    loaded = load_map(MAPS / "walls.tmx")
    board = loaded.board
    assert (board.width, board.height) == (6, 4)
    assert board.void == frozenset()  # no tile layers: every square is on the board
    assert set(board.walls) == WALLS
    assert set(board.windows) == edges("H(5,3)")
    assert board.edge_blocks_movement(Edge.parse("H(5,3)"))
    assert not board.edge_blocks_sight(Edge.parse("H(5,3)"))
    assert loaded.stats["snapped_vertices"] == 1
    assert loaded.stats["walls"] == len(WALLS)
    assert loaded.stats["windows"] == 1


def test_off_grid_and_diagonal_walls_are_errors_naming_the_object() -> None:
    found = codes(load_map(MAPS / "walls.tmx"))
    assert found[5] == ["wall-diagonal"]
    assert found[6] == ["wall-off-grid"]
    assert found[10] == ["object-outside-map"]
    errors = [f for f in load_map(MAPS / "walls.tmx").findings if f.severity is Severity.ERROR]
    assert {f.object_id for f in errors} == {5, 6}
    assert all(f.hint for f in errors)


def test_unknown_classes_are_warnings_and_never_matched_by_substring() -> None:
    loaded = load_map(MAPS / "walls.tmx")
    found = codes(loaded)
    assert found[8] == ["unknown-class"]  # collision-line is not ours without a mapping
    assert found[11] == ["unknown-class"]  # "Wall-Decoration" contains "wall" but is not a wall
    assert loaded.objects[11].role == "other"
    assert Edge.parse("V(3,3)") not in loaded.board.walls


def test_classes_argument_maps_a_designer_class_onto_wall() -> None:
    loaded = load_map(MAPS / "walls.tmx", classes={"wall": ["collision-line"]})
    assert set(loaded.board.walls) == WALLS | edges("V(3,3)")
    assert 8 not in codes(loaded)
    assert loaded.objects[8].role == "wall"


def test_sightline_toml_beside_the_map_maps_classes() -> None:
    loaded = load_map(MAPS / "mapped" / "platformer.tmx")
    board = loaded.board
    assert set(board.walls) == edges("V(1,0)", "V(1,1)", "H(2,3)", "H(3,3)")  # 16 px tiles
    assert board.blocked == {(3, 0), (4, 0)}  # class "collision" -> blocked, cells by centre
    guard = board.find_figure("Guard")  # class "npc" -> figure
    assert (guard.square, guard.side) == ((0, 2), "monsters")
    found = codes(loaded)
    assert found[4] == ["unknown-class"]  # "collisions" is not "collision"
    assert found[6] == ["unknown-class"]
    assert (MAPS / "mapped" / "sightline.toml").resolve() in loaded.dependencies


def test_properties_pytmx_reserves_are_read_with_a_warning() -> None:
    loaded = load_map(MAPS / "mapped" / "platformer.tmx")
    guard = loaded.board.find_figure("Guard")
    assert guard.stats == {"id": 77, "type": "orc"}
    reserved = [f for f in loaded.findings if f.code == "reserved-property"]
    assert {f.object_id for f in reserved} == {5}
    assert len(reserved) == 2 and all(f.severity is Severity.WARNING for f in reserved)


def test_non_square_tiles_and_rotated_rectangles_in_grid_units() -> None:
    loaded = load_map(MAPS / "nonsquare.tmx")
    # 32x16 px cells; the 2 px rectangle rotated 90 degrees lies along x=2
    assert set(loaded.board.walls) == edges("V(1,1)", "V(1,2)", "V(2,0)", "V(2,1)")
    assert loaded.board.find_figure("Scout").square == (2, 3)
    rect = loaded.objects[2]
    assert (rect.x, rect.y, rect.width, rect.height) == (Fraction(31, 16), 0, Fraction(1, 16), 2)


# --- doors ------------------------------------------------------------------------------------


def test_doors_lines_and_shapes_with_their_states() -> None:
    loaded = load_map(MAPS / "doors.tmx")
    doors = {str(edge): door.state for edge, door in loaded.board.doors.items()}
    assert doors == {
        "V(2,0)": DoorState.OPEN,  # a two-point line, state=open
        "V(2,1)": DoorState.OPEN,  # a rectangle centred on the edge, bool open=true
        "V(2,2)": DoorState.LOCKED,  # an ellipse, state=locked
        "H(0,2)": DoorState.CLOSED,  # a point, no state: closed
        "H(1,1)": DoorState.CLOSED,  # state "ajar": closed, with a warning
        "H(2,3)": DoorState.CLOSED,  # on the map's bottom edge
    }
    board = loaded.board
    assert not board.edge_blocks_sight(Edge.parse("V(2,0)"))  # the open door decides its edge
    assert board.edge_blocks_sight(Edge.parse("V(2,2)"))
    assert board.doors[Edge.parse("V(2,0)")].name == "North door"
    assert board.doors[Edge.parse("V(2,0)")].object_id == 2


def test_door_findings() -> None:
    found = codes(load_map(MAPS / "doors.tmx"))
    assert found[6] == ["door-state-unknown"]
    assert found[7] == ["door-not-on-edge"]  # centred on a square, not an edge
    assert found[8] == ["door-too-long"]
    assert found[9] == ["door-not-on-edge"]  # diagonal line
    assert set(found) == {6, 7, 8, 9}


# --- tile layers: void, blocked, tile walls; figures; map properties ---------------------------


def test_void_blocked_and_tile_walls_from_tile_layers() -> None:
    loaded = load_map(MAPS / "figures.tmx")
    board = loaded.board
    # empty in every layer: (4,1) (0,4); void tile: (3,3); void ellipse: (0,0). Issue #10's one rule
    # for hidden content (it counts like visible content) puts (4,0), painted only in the HIDDEN
    # layer "Logic", on the board as blocked terrain (before: void, as empty in every visible layer)
    assert board.void == {(4, 1), (0, 4), (3, 3), (0, 0)}
    assert [f.code for f in loaded.findings if f.code == "hidden-layer"] == ["hidden-layer"]
    # blocked tile (2,2); blocked tiles in the HIDDEN layer (4,4) (4,0); blocked rectangle (4,3)
    assert board.blocked == {(2, 2), (4, 4), (4, 3), (4, 0)}
    # walls=N,E on (1,1); the same tile flipped horizontally on (2,4) walls N and W
    assert set(board.walls) == edges("H(1,1)", "V(2,1)", "H(2,4)", "V(2,4)")
    assert board.doors == {}  # tileset "outdoor" and name=castle-door are not doors


def test_figures_from_points_rectangles_ellipses_and_tile_objects() -> None:
    loaded = load_map(MAPS / "figures.tmx")
    figures = {f.id: f for f in loaded.board.figures.values()}
    alice = figures[1]
    assert (alice.name, alice.side, alice.square) == ("Alice", "red", (1, 0))
    assert alice.stats == {
        "attacks": "Blade:melee:3",
        "defense": 1.5,
        "exhausted": False,
        "life": 5,
    }
    assert isinstance(alice.stats["life"], int) and isinstance(alice.stats["exhausted"], bool)
    assert (figures[2].name, figures[2].side, figures[2].square) == ("Bob", "blue", (2, 2))
    assert (figures[3].name, figures[3].side, figures[3].square) == ("", "neutral", (3, 0))
    # tile objects are anchored bottom-left in Tiled: y=96 is the bottom of row 2
    assert figures[4].square == (0, 2)
    tile_object = loaded.objects[4]
    assert (tile_object.shape, tile_object.y, tile_object.height) == ("tile", 2, 1)
    assert 5 not in figures and codes(loaded)[5] == ["figure-outside-board"]


def test_map_properties() -> None:
    board = load_map(MAPS / "figures.tmx").board
    assert (board.ruleset, board.capacity) == ("conquest", 3)
    assert board.properties == {"caption": "Figures, void and blocked squares"}
    assert board.name == "figures"
    default = load_map(MAPS / "walls.tmx").board
    assert (default.ruleset, default.capacity) == ("arcadia", 2)


def test_art_keeps_flip_bits_and_skips_hidden_layers() -> None:
    art = load_map(MAPS / "figures.tmx").art
    assert art is not None
    assert [layer.name for layer in art.layers] == ["Ground"]
    gids = art.layers[0].gids
    assert gids.dtype == np.uint32 and gids.shape == (5, 5)
    assert int(gids[4, 2]) == 0x80000004
    assert art.tiles[4].image == MAPS / "tiles.png"
    assert art.tiles[4].rect == (96, 0, 32, 32)
    assert art.background == "#203040"
    assert (art.tile_width, art.tile_height) == (32, 32)


def test_objects_are_reported_in_grid_units() -> None:
    objects = load_map(MAPS / "walls.tmx").objects
    assert len(objects) == 11
    wall = objects[1]
    assert (wall.role, wall.class_name, wall.layer, wall.shape) == (
        "wall",
        "wall",
        "Objects",
        "polyline",
    )
    assert wall.points == ((1, 1), (3, 1), (3, 3))
    assert objects[4].points[1] == (0, Fraction(35, 32))  # raw, before snapping
    assert objects[3].role == "wall" and objects[3].class_name == ""


# --- templates, external tilesets, encodings --------------------------------------------------


def test_templates_with_their_own_tileset_and_overrides() -> None:
    loaded = load_map(MAPS / "templates.tmx")
    board = loaded.board
    hero = board.figure(1)
    assert (hero.name, hero.side, hero.square, hero.stats) == (
        "hero",
        "heroes",
        (1, 1),
        {"life": 6},
    )
    zed = board.figure(2)
    assert (zed.name, zed.square, zed.stats) == ("Zed", (3, 3), {"life": 9})
    doors = {str(e): d.state for e, d in board.doors.items()}
    assert doors == {"H(1,1)": DoorState.OPEN, "H(2,3)": DoorState.LOCKED}
    deps = {p.name for p in loaded.dependencies}
    assert {"templates.tmx", "hero.tx", "door.tx", "outdoor.tsx", "tiles.png"} <= deps


ENCODINGS = ["csv", "base64", "zlib", "gzip", "xml", "csv_external"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_gives_the_same_board(encoding: str) -> None:
    loaded = load_map(MAPS / f"encoding_{encoding}.tmx")
    board = loaded.board
    assert board.void == {(3, 0), (1, 1), (0, 2)}
    assert board.blocked == {(2, 1)}
    assert set(board.walls) == edges("H(3,2)", "H(3,3)")  # walls=S, also when flipped
    pawn = board.find_figure("Pawn")  # class "figure" inherited from its tile
    assert (pawn.square, pawn.stats) == ((0, 0), {"life": 2})
    assert loaded.art is not None
    assert loaded.art.layers[0].gids.tolist() == [[1, 1, 1, 0], [1, 2, 3, 4], [0, 1, 1, 0x80000004]]
    assert loaded.art.tiles[2].offset == (0, 4)
    if encoding == "csv_external":
        assert (MAPS / "outdoor.tsx").resolve() in loaded.dependencies


def test_unreadable_tileset_image_falls_back_to_the_vector_style() -> None:
    loaded = load_map(MAPS / "badimage.tmx")
    assert loaded.art is None
    assert [f.code for f in loaded.findings] == ["tileset-image-unreadable"]
    assert loaded.board.void == {(0, 1)}


# --- the class mapping text -----------------------------------------------------------------


def test_parse_class_mapping() -> None:
    assert parse_class_mapping("wall=collision-line,blocked=collision") == {
        "wall": ["collision-line"],
        "blocked": ["collision"],
    }
    assert parse_class_mapping("") == {}
    with pytest.raises(UsageError):
        parse_class_mapping("wall")
    with pytest.raises(UsageError):
        parse_class_mapping("tree=oak")


def test_bad_sightline_toml_is_a_map_error(tmp_path: Path) -> None:
    (tmp_path / "m.tmx").write_text((MAPS / "walls.tmx").read_text())
    (tmp_path / "sightline.toml").write_text('[classes]\nwal = "x"\n')
    with pytest.raises(MapError, match="unknown role 'wal'"):
        load_map(tmp_path / "m.tmx")
    (tmp_path / "sightline.toml").write_text("[classes\n")
    with pytest.raises(MapError, match="TOML"):
        load_map(tmp_path / "m.tmx")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("void=Location,wall=Location", "class 'Location' to two roles: void and wall"),
        ("wall=fence|hedge; blocked=HEDGE", "class 'hedge' to two roles: wall and blocked"),
        ("blocked=wall", "class 'wall' to two roles: wall and blocked"),
    ],
)
def test_a_class_given_two_roles_in_classes_is_a_usage_error(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=re.escape(words)):
        parse_class_mapping(text)
    assert parse_class_mapping("wall=fence,wall=Fence,wall=wall") == {"wall": ["fence", "wall"]}


def test_a_class_given_two_roles_in_sightline_toml_is_a_map_error(tmp_path: Path) -> None:
    (tmp_path / "m.tmx").write_text((MAPS / "walls.tmx").read_text())
    (tmp_path / "sightline.toml").write_text('[classes]\nwall = ["Location"]\nvoid = "location"\n')
    with pytest.raises(MapError, match=re.escape("class 'Location' to two roles: wall and void")) as info:
        load_map(tmp_path / "m.tmx")
    assert "sightline.toml" in str(info.value)


def test_classes_override_sightline_toml_for_the_classes_they_name() -> None:
    mapped = MAPS / "mapped" / "platformer.tmx"
    assert load_map(mapped).board.blocked == {(3, 0), (4, 0)}  # toml: collision -> blocked
    for classes in ({"wall": ["collision"]}, {"void": ["Collision"]}):
        board = load_map(mapped, classes=classes).board
        assert board.blocked == set(), classes  # --classes wins over the file, whatever the role


def test_shape_errors_say_an_ellipse(tmp_path: Path) -> None:
    (tmp_path / "e.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
        'width="4" height="4" tilewidth="32" tileheight="32" infinite="0">\n'
        ' <objectgroup id="1" name="o"><object id="1" class="wall" x="32" y="32" width="64" '
        'height="32"><ellipse/></object></objectgroup>\n</map>\n'
    )
    messages = [f.message for f in load_map(tmp_path / "e.tmx").findings if f.object_id == 1]
    assert any("not an ellipse" in m for m in messages) and not any("a ellipse" in m for m in messages)


# --- snapping, as a property -------------------------------------------------------------------

_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="8" height="8" tilewidth="32" tileheight="32" infinite="0">
 <objectgroup id="1" name="walls">
  <object id="1" x="0" y="0"><polyline points="{points}"/></object>
 </objectgroup>
</map>
"""

corners = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=2, max_size=6)
jitter = st.integers(-4, 4)  # pixels of 32: at most 1/8 of a cell


@settings(max_examples=40)
@given(corners=corners, data=st.data())
def test_vertices_within_an_eighth_snap_to_the_same_walls(tmp_path_factory, corners, data) -> None:
    # make every segment axis-aligned: alternate horizontal and vertical moves
    path = [corners[0]]
    for i, (x, y) in enumerate(corners[1:]):
        px, py = path[-1]
        path.append((x, py) if i % 2 == 0 else (px, y))
    folder = tmp_path_factory.mktemp("snap")
    exact = " ".join(f"{x * 32},{y * 32}" for x, y in path)
    shaken = " ".join(f"{x * 32 + data.draw(jitter)},{y * 32 + data.draw(jitter)}" for x, y in path)
    (folder / "exact.tmx").write_text(_MAP.format(points=exact))
    (folder / "shaken.tmx").write_text(_MAP.format(points=shaken))
    a, b = load_map(folder / "exact.tmx"), load_map(folder / "shaken.tmx")
    assert a.board.walls == b.board.walls
    assert a.findings == b.findings == []
    expected = 0
    for (x1, y1), (x2, y2) in zip(path, path[1:], strict=False):
        expected += abs(x1 - x2) + abs(y1 - y2)
    assert len(a.board.walls) <= expected


def test_layer_offsets_move_objects_and_hidden_layers_still_count(tmp_path: Path) -> None:
    # a hidden walls layer, offset by one square inside a group offset by another
    (tmp_path / "offset.tmx").write_text(
        _MAP.format(points="0,0 64,0")
        .replace(
            '<objectgroup id="1" name="walls">',
            '<group name="g" offsetx="32"><objectgroup id="1" name="walls" offsety="32" visible="0">',
        )
        .replace("</objectgroup>", "</objectgroup></group>")
    )
    loaded = load_map(tmp_path / "offset.tmx")
    assert set(loaded.board.walls) == edges("H(1,1)", "H(2,1)")
    assert loaded.objects[1].points == ((1, 1), (3, 1))
