"""Maps as designers write them (issue #10): tile roles, collision shapes, presets, and no silent
mistakes. One hand-written map per case in tests/data/tiled/cases/, plus real public maps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Board, DoorState, Edge
from game.core.errors import MapError, UsageError
from game.core.los import line_of_sight
from game.designer.lint import lint
from game.designer.regions import walk_regions
from game.tiled import LoadedMap, load_map
from game.tiled.settings import parse_tiles_option

TILED = Path(__file__).resolve().parent / "data" / "tiled"
CASES = TILED / "cases"
PYWEEK = TILED / "pyweek27" / "levels"
RS = TILED / "rs-tiled"


def codes(loaded: LoadedMap) -> list[str]:
    return sorted(f.code for f in loaded.findings)


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    main(["check", "--json", *argv])
    doc = json.loads(capsys.readouterr().out)
    return doc["maps"][0] if "maps" in doc else doc


# --- tile roles ------------------------------------------------------------------------------


def test_roguelike_preset_reads_wall_and_door_tiles_and_water() -> None:
    loaded = load_map(CASES / "roguelike.tmx", preset="roguelike")
    board = loaded.board
    ring = {(x, y) for x in range(7) for y in range(4) if x in (0, 6) or y in (0, 3)}
    assert board.blocked == ring | {(3, 1)}  # wall tiles, and the closed door square
    assert board.door_squares == {(3, 1): DoorState.CLOSED, (3, 2): DoorState.OPEN}
    assert board.impassable == {(5, 1)}  # passable=false, transparent=true
    assert "tile-unread" not in codes(loaded)


def test_without_the_preset_the_tiles_are_reported_and_the_preset_suggested() -> None:
    loaded = load_map(CASES / "roguelike.tmx")
    unread = [f for f in loaded.findings if f.code == "tile-unread"]
    assert {f.message.split(" is painted")[0] for f in unread} >= {
        "tile class 'wall'", "tile class 'door'", "tile property 'passable=false'"
    }
    assert all("--preset roguelike" in (f.hint or "") for f in unread)
    assert not loaded.board.blocked  # read as nothing, but never in silence


def test_door_squares_block_sight_when_shut_and_cycle_like_doors() -> None:
    board = load_map(CASES / "roguelike.tmx", preset="roguelike").board
    assert not line_of_sight(board, (2, 1), (4, 1)).clear  # through the closed door square
    assert line_of_sight(board, (2, 2), (4, 2)).clear  # through the open one
    assert board.square_block_reason((3, 1), None) == "closed door square"
    assert board.can_enter(None, (3, 1)) == "square (3,1) is a closed door square"
    version = board.geometry_version
    assert board.cycle_door_square((3, 1)) is DoorState.OPEN
    assert board.geometry_version == version + 1
    assert (3, 1) not in board.blocked and board.can_enter(None, (3, 1)) is None
    assert line_of_sight(board, (2, 1), (4, 1)).clear
    assert board.cycle_door_square((3, 1)) is DoorState.LOCKED
    assert board.square_block_reason((3, 1), None) == "locked door square"


def test_impassable_squares_block_movement_not_sight() -> None:
    board = Board(5, 1, impassable=[(2, 0)])
    assert line_of_sight(board, (0, 0), (4, 0)).clear
    assert board.can_enter(None, (2, 0)) == "square (2,0) is impassable terrain"
    assert [len(r) for r in walk_regions(board, doors_open=True)] == [2, 2]


def test_door_squares_open_the_regions_only_when_doors_open() -> None:
    board = Board(3, 1, door_squares={(1, 0): DoorState.LOCKED})
    assert [len(r) for r in walk_regions(board, doors_open=True)] == [3]
    assert [len(r) for r in walk_regions(board, doors_open=False)] == [1, 1]


def test_pyweek27_level_with_a_tiles_mapping_has_its_walls_and_door(capsys: pytest.CaptureFixture[str]) -> None:
    level = PYWEEK / "key1.tmx"
    plain = check_json(capsys, str(level))
    assert plain["stats"]["blocked"] == 0  # type: ignore[index]
    assert {w["message"].split(" is painted")[0] for w in plain["warnings"]} >= {  # type: ignore[union-attr]
        "tile property 'type=wall'", "tile property 'type=door'"
    }
    mapped = check_json(capsys, "--tiles", "blocked=type=wall;door=type=door", str(level))
    # nine wall tiles, and the closed door square, which blocks like them
    assert mapped["stats"]["blocked"] == 10 and mapped["stats"]["door_squares"] == 1  # type: ignore[index]
    board = load_map(level, tiles={"blocked": ["type=wall"], "door": ["type=door"]}).board
    assert board.door_squares == {(4, 2): DoorState.CLOSED}
    assert board.blocked - {(4, 2)} == {(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (3, 2), (2, 3)}


def test_tiles_mapping_in_sightline_toml(tmp_path: Path) -> None:
    shutil.copytree(TILED / "pyweek27", tmp_path / "pyweek27")
    (tmp_path / "pyweek27" / "levels" / "sightline.toml").write_text(
        '[tiles]\nblocked = ["type=wall"]\ndoor = "type=door"\n'
    )
    board = load_map(tmp_path / "pyweek27" / "levels" / "key1.tmx").board
    assert len(board.blocked) == 10 and list(board.door_squares) == [(4, 2)]


def test_wall_may_be_mapped_onto_tiles() -> None:
    # "wall" is reserved for objects, but a tile class wall may be given a cell role
    board = load_map(CASES / "roguelike.tmx", tiles={"blocked": ["wall"]}).board
    assert (0, 0) in board.blocked


@pytest.mark.parametrize("text, words", [
    ("wall", "role=spec pairs"),
    ("floor=wall", "role=spec pairs"),
    ("blocked=", "names no tile"),
])
def test_bad_tiles_options_are_one_line(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_tiles_option(text)


def test_bad_tiles_table_is_one_line(tmp_path: Path) -> None:
    shutil.copy(CASES / "tactics.tmx", tmp_path / "m.tmx")
    (tmp_path / "sightline.toml").write_text('[tiles]\nlava = ["hot"]\n')
    with pytest.raises(MapError, match="unknown role 'lava' in \\[tiles\\]"):
        load_map(tmp_path / "m.tmx")


# --- figure property names ---------------------------------------------------------------------


def test_spawn_points_with_team_become_figures_with_sides(capsys: pytest.CaptureFixture[str]) -> None:
    plain = load_map(CASES / "tactics.tmx")
    assert not plain.board.figures and "unknown-class" in codes(plain)
    loaded = load_map(CASES / "tactics.tmx", classes={"figure": ["spawn"]}, properties={"side": "team"})
    sides = {f.name: f.side for f in loaded.board.figures.values()}
    assert sides == {"A1": "blue", "A2": "blue", "B1": "red"}
    assert all("team" not in f.stats for f in loaded.board.figures.values())
    doc = check_json(capsys, "--classes", "figure=spawn", "--property", "side=team", str(CASES / "tactics.tmx"))
    assert doc["stats"]["figures"] == 3  # type: ignore[index]


def test_property_option_refuses_names_sightline_does_not_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--property", "life=hp", str(CASES / "tactics.tmx")]) == 2
    err = capsys.readouterr().err.strip()
    assert "rulesets read their own stats" in err and len(err.splitlines()) == 1


# --- collision shapes ------------------------------------------------------------------------


def test_collision_shapes_give_blocked_cells_walls_and_findings() -> None:
    loaded = load_map(CASES / "collision.tmx", tiles={"impassable": ["water"]})
    board = loaded.board
    # tile 1: a full rectangle -> blocked (1,1) (4,3); tile 2: a thin rectangle along the top
    # -> N wall of (2,1); tile 3: a polyline on the left edge -> W wall of (3,1); tile 6: a full
    # shape of class "water", mapped to impassable -> (0,3) (1,3)
    assert board.blocked == {(1, 1), (4, 3)}
    assert board.walls == {Edge("H", 2, 1), Edge("V", 3, 1)}
    assert board.impassable == {(0, 3), (1, 3)}
    found = [f for f in loaded.findings if f.code == "collision-shape"]
    assert sorted(f.message.split(" of tileset")[0] for f in found) == [
        "collision shape 1 of tile 4", "collision shape 1 of tile 5"
    ]
    assert (loaded.stats["collision_cells"], loaded.stats["collision_edges"]) == (4, 2)


def test_collision_shapes_can_be_switched_off(tmp_path: Path) -> None:
    for name in ("collision.tmx", "collision.tsx"):
        shutil.copy(CASES / name, tmp_path / name)
    (tmp_path / "sightline.toml").write_text('[tiles]\ncollision = "ignore"\n')
    loaded = load_map(tmp_path / "collision.tmx")
    assert not loaded.board.blocked and not loaded.board.walls
    assert loaded.stats["collision_cells"] == 0
    assert load_map(CASES / "collision.tmx", collision=False).stats["collision_edges"] == 0


def test_rs_tiled_collision_tiles_are_walls_now() -> None:
    loaded = load_map(RS / "templates" / "example.tmx")
    assert len(loaded.board.blocked) > 0 and loaded.stats["collision_cells"] == len(loaded.board.blocked)
    assert any(f.code == "collision-shape" and "wang_tileset" in f.message for f in loaded.findings)


# --- presets -----------------------------------------------------------------------------------


def test_tuxemon_preset_collisions_lines_ledges_and_events() -> None:
    plain = load_map(CASES / "tuxemon.tmx")
    assert all("--preset tuxemon" in (f.hint or "") for f in plain.findings if f.code == "unknown-class")
    board = load_map(CASES / "tuxemon.tmx", preset="tuxemon").board
    assert board.blocked == {(0, 0), (1, 0)}
    assert board.walls == {Edge("V", 3, 0), Edge("V", 3, 1), Edge("V", 3, 2)}
    assert board.impassable == {(0, 2), (1, 2)}  # the one-way ledge: movement only
    assert line_of_sight(board, (0, 3), (0, 1)).clear
    assert load_map(CASES / "tuxemon.tmx", preset="tuxemon").findings == []  # event: ignored


def test_phaser_preset_reads_collides(tmp_path: Path) -> None:
    text = (CASES / "offset.tmx").read_text().replace('name="blocked"', 'name="collides"')
    (tmp_path / "m.tmx").write_text(text.replace("../tiles.png", str(TILED / "tiles.png")))
    assert not load_map(tmp_path / "m.tmx").board.blocked
    assert load_map(tmp_path / "m.tmx", preset="phaser").board.blocked == {(1, 1)}


def test_preset_in_sightline_toml_and_unknown_presets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(CASES / "tuxemon.tmx", tmp_path / "m.tmx")
    (tmp_path / "sightline.toml").write_text('preset = "tuxemon"\n')
    assert load_map(tmp_path / "m.tmx").board.blocked == {(0, 0), (1, 0)}
    assert main(["check", "--preset", "zelda", str(tmp_path / "m.tmx")]) == 2
    assert "unknown preset 'zelda'" in capsys.readouterr().err


# --- no silent mistakes ----------------------------------------------------------------------


def test_objectalignment_places_tile_objects() -> None:
    board = load_map(CASES / "alignment.tmx").board
    assert board.find_figure("Token").square == (1, 1)  # centre-anchored at (48,48) px


def test_tile_layer_offsets_move_tile_logic() -> None:
    loaded = load_map(CASES / "offset.tmx")
    assert loaded.board.blocked == {(1, 1)}  # painted at (0,0), layer offset one square right/down
    assert "layer-offset" in codes(loaded)  # the 5 px layer


def test_hidden_floor_and_hidden_objects_count_and_are_reported() -> None:
    loaded = load_map(CASES / "hidden.tmx")
    assert not loaded.board.void  # the hidden floor still counts
    assert loaded.board.find_figure("Ghost").square == (3, 3)
    messages = [f.message for f in loaded.findings]
    assert "tile layer 'Ground' is hidden but counts: without it 16 squares would be void" in messages
    assert "figure Ghost is hidden in Tiled but counts" in messages


def test_int_enum_door_state_is_a_finding_and_string_enums_are_read() -> None:
    loaded = load_map(CASES / "enums.tmx")
    doors = {door.object_id: door.state for door in loaded.board.doors.values()}
    assert doors == {1: DoorState.CLOSED, 2: DoorState.OPEN}
    assert "door-state-number" in codes(loaded)


def test_class_typed_properties_are_flattened() -> None:
    loaded = load_map(CASES / "classprop.tmx")
    archer = loaded.board.find_figure("Archer")
    assert archer.stats == {"stats.life": 4, "stats.attacks": "Bow:ranged:2"}
    hints = [f.hint for f in lint(loaded) if f.code == "property-unknown"]
    assert "did you mean attacks?" in hints
