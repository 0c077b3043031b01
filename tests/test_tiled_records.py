"""Reading and deriving apart (game/tiled/records.py, read.py, derive.py): what a reader hands
over, and the one derivation every reader's records go through.

Real files for Tiled's reader (a hexagonal map the derivation refuses, whose records still carry
its grid), and records built the way a reader of another format (a virtual-tabletop scene) builds
them, derived by the same :func:`derive_map` as Tiled's.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.core.board import DoorState, Edge
from game.core.errors import MapError
from game.tiled import load_map
from game.tiled.conventions import Conventions
from game.tiled.derive import ORIENTATIONS, derive_map
from game.tiled.prepare import prepare
from game.tiled.read import read_tiled
from game.tiled.records import GridLayout, MapRecords, ObjectRecord
from game.tiled.settings import load_conventions

F = Fraction

HEX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="hexagonal" renderorder="right-down" width="3" height="2"
     tilewidth="14" tileheight="12" hexsidelength="6" staggeraxis="y" staggerindex="odd" infinite="0">
 <tileset firstgid="1" name="hex" tilewidth="14" tileheight="12" tilecount="2" columns="2">
  <tile id="1" type="rock"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">1,2,1,0,1,1</data></layer>
 <group id="3" name="outer" class="walls">
  <objectgroup id="2" name="marks" visible="0">
   <object id="4" name="scout" class="figure" x="21" y="18"><point/></object>
   <object id="5" x="14" y="0" rotation="45" width="14" height="12"/>
  </objectgroup>
 </group>
</map>
"""


def test_tiled_records_carry_a_hex_grid_the_hex_derivation_reads(tmp_path: Path) -> None:
    path = tmp_path / "hex.tmx"
    path.write_text(HEX, encoding="utf-8")
    assert load_map(path).board.grid.kind == "hex"  # issue #21 (tests/test_hex_maps.py)
    assert ORIENTATIONS == ("orthogonal", "isometric", "hexagonal")  # an isometric grid is a square grid
    records = read_tiled(prepare(path, ("orthogonal", "hexagonal")))
    assert records.grid == GridLayout("hexagonal", 14, 12, "y", "odd", 6)
    assert (records.width, records.height) == (3, 2)
    assert records.tile_layers[0].gids.tolist() == [[1, 2, 1], [0, 1, 1]]
    assert records.tiles[2].class_name == "rock" and records.tiles[2].properties == {"blocked": True}
    scout, box = records.objects
    assert (scout.name, scout.class_name, scout.shape) == ("scout", "figure", "point")
    assert scout.points == ((F(21, 14), F(18, 12)),)  # grid units: pixels over the tile size
    assert scout.layer == "marks" and scout.layer_labels == ("", "marks", "walls", "outer")
    assert scout.hidden and not scout.skewed
    assert box.skewed and box.class_name == "" and len(box.points) == 4
    assert [(r.kind, r.name, r.hidden) for r in records.layers] == [
        ("tile", "ground", False), ("object", "marks", True)
    ]
    assert derive_map(records, Conventions()).board.grid.kind == "hex"


def scene(tmp_path: Path) -> MapRecords:
    """A 4x3 scene as a virtual-tabletop reader would read it: no tile layers; walls, a window
    and doors as segments in grid units, a token, a blocked area; our role names as classes."""
    line = [(F(2), F(0)), (F(2), F(2))]
    objects = (
        ObjectRecord.from_points(1, "wall", "polyline", line),
        ObjectRecord.from_points(2, "door", "polyline", [(F(2), F(2)), (F(2), F(3))],
                                 properties={"state": "open"}),
        ObjectRecord.from_points(3, "window", "polyline", [(F(0), F(1)), (F(1), F(1))]),
        ObjectRecord.from_points(4, "figure", "point", [(F(1, 2), F(5, 2))], name="Ann",
                                 properties={"side": "red", "life": 3}),
        ObjectRecord.from_points(5, "blocked", "rectangle",
                                 [(F(3), F(0)), (F(4), F(0)), (F(4), F(1)), (F(3), F(1))]),
        ObjectRecord.from_points(6, "door", "polyline", [(F(0), F(0)), (F(0), F(2))]),
        ObjectRecord.from_points(7, "token", "point", [(F(1, 2), F(1, 2))]),
    )
    return MapRecords(tmp_path / "scene.dd2vtt", GridLayout("orthogonal", 100, 100), 4, 3,
                      properties={"ruleset": "folklore"}, objects=objects,
                      files=(tmp_path / "scene.dd2vtt",))


def test_records_of_another_format_go_through_the_same_derivation(tmp_path: Path) -> None:
    loaded = derive_map(scene(tmp_path), load_conventions(tmp_path / "scene.dd2vtt"))
    board = loaded.board
    assert (board.width, board.height, board.ruleset) == (4, 3, "folklore")
    assert set(board.walls) == {Edge("V", 2, 0), Edge("V", 2, 1)}
    assert set(board.windows) == {Edge("H", 0, 1)}
    assert [(d.edge, d.state, d.object_id) for d in board.doors.values()] == [
        (Edge("V", 2, 2), DoorState.OPEN, 2)
    ]
    ann = board.figures[4]
    assert (ann.name, ann.side, ann.square, dict(ann.stats)) == ("Ann", "red", (0, 2), {"life": 3})
    assert board.blocked == frozenset({(3, 0)}) and board.void == frozenset()
    assert loaded.objects[1].edges == (Edge("V", 2, 0), Edge("V", 2, 1))
    assert loaded.objects[2].door_edge == Edge("V", 2, 2) and loaded.objects[4].square == (0, 2)
    assert [(f.code, f.object_id) for f in loaded.findings] == [
        ("door-too-long", 6), ("unknown-class", 7)
    ]
    assert loaded.art is None and loaded.dependencies == (tmp_path / "scene.dd2vtt",)
    assert (loaded.stats["walls"], loaded.stats["doors"], loaded.stats["layers"]) == (2, 1, 0)


def test_conventions_beside_a_scene_apply_to_its_records(tmp_path: Path) -> None:
    (tmp_path / "sightline.toml").write_text('[classes]\nwall = ["token"]\n', encoding="utf-8")
    loaded = derive_map(scene(tmp_path), load_conventions(tmp_path / "scene.dd2vtt"))
    assert loaded.objects[7].role == "wall"
    assert [f.code for f in loaded.findings] == ["door-too-long", "wall-shape"]
    assert loaded.dependencies[1] == (tmp_path / "sightline.toml").resolve()


def small_map(objects: str, tileset: str = "", layer: str = "") -> str:
    """A 4x4 map of 32 px squares with these objects (and a tileset and tile layer, if given)."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
        'width="4" height="4" tilewidth="32" tileheight="32" infinite="0">'
        f'{tileset}{layer}<objectgroup id="9" name="o">{objects}</objectgroup></map>'
    )


def test_a_repeated_id_is_renumbered_everywhere_it_is_named(tmp_path: Path) -> None:
    path = tmp_path / "twins.tmx"
    path.write_text(small_map(
        '<object id="5" class="fence" x="0" y="0"/><object id="5" class="fence" x="32" y="0"/>'
    ), encoding="utf-8")
    loaded = load_map(path)
    assert sorted(loaded.objects) == [5, 6]
    messages = [f.message for f in loaded.findings]
    assert messages[0] == "two objects have id 5; this one is numbered 6 here"
    assert "(2 objects: 5, 6)" in messages[1]


TILESET = (
    '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2">'
    '<tile id="0"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
    '<tile id="1"><objectgroup><object id="1" x="0" y="0"><polygon points="0,0 x,y"/></object>'
    "</objectgroup></tile></tileset>"
)


@pytest.mark.parametrize("painted, refused", [("1", False), ("2", True)])
def test_a_malformed_collision_shape_refuses_the_map_only_when_painted(
    tmp_path: Path, painted: str, refused: bool
) -> None:
    path = tmp_path / "shapes.tmx"
    cells = ",".join([painted] + ["1"] * 15)
    layer = f'<layer id="1" name="g" width="4" height="4"><data encoding="csv">{cells}</data></layer>'
    path.write_text(small_map("", TILESET, layer), encoding="utf-8")
    records = read_tiled(prepare(path))
    assert records.tiles[2].collision[0].points is None  # read, marked, not raised
    if refused:
        with pytest.raises(MapError, match="cannot read this map"):
            load_map(path)
    else:
        assert load_map(path).board.blocked == frozenset((x, y) for x in range(4) for y in range(4))
