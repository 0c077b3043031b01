"""Maps as people really draw them (issue #22): one real public map, or a map written to the
same shape, per habit, read right with no flags or with exactly what ``check --suggest``
proposes; a map no mapping reads right is never "clean".

The maps are in ``tests/data/habits/`` (sources and licences in ``tests/data/SOURCES.md``).
Each test here fails on the reader before issue #22 (main at bf5dd9c): it read walls drawn as a
tile layer as open floor, a maze drawn as walls only inside out, objects told apart by name as
nothing, collision rectangles as off-grid wall errors, a Phaser preset as blocking every painted
square, and refused isometric maps.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import DoorState, Edge
from game.core.findings import Severity
from game.core.los import line_of_sight
from game.designer.lint import lint
from game.tiled import load_map

HABITS = Path(__file__).resolve().parent / "data" / "habits"


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def grid(rows: list[str], mark: str = "1") -> set[tuple[int, int]]:
    """The squares of an ASCII picture holding ``mark``."""
    return {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == mark}


def suggested(tmp_path: Path, habit: str, name: str, capsys: pytest.CaptureFixture[str]) -> Path:
    """A copy of a habit's folder with the ``sightline.toml`` that ``check --suggest --write``
    writes beside the map; the map's path in the copy."""
    folder = tmp_path / habit
    shutil.copytree(HABITS / habit, folder)
    code, out, err = check(capsys, "--suggest", "--write", str(folder / name))
    assert code == 0, err
    assert "# written to" in out and (folder / "sightline.toml").is_file()
    tomllib.loads((folder / "sightline.toml").read_text(encoding="utf-8"))  # valid TOML
    return folder / name


# --- walls are a tile layer: a raycaster's level (pygame / pytmx) -------------------------------

LEVEL = [
    "1111111111111111",
    "1000010000100001",
    "1000010000100001",
    "1000000000100001",
    "1000010000000001",
    "1101110000100001",
    "1000010000100001",
    "1000010000100001",
    "1111111111111111",
]


def test_a_walls_tile_layer_is_read_as_walls_with_no_flags() -> None:
    loaded = load_map(HABITS / "walls_layer" / "level.tmx")
    board = loaded.board
    doorways = {(5, 3), (10, 4), (2, 5)}
    assert board.blocked - set(board.door_squares) == grid(LEVEL)  # tile layer "walls": its cells
    assert board.door_squares == dict.fromkeys(doorways, DoorState.CLOSED)  # layer "doors"
    assert {f.square for f in board.figures.values()} == {(7, 2), (13, 6), (3, 7)}  # layer "npcs"
    assert not line_of_sight(board, (1, 1), (7, 1)).clear  # the wall between two rooms
    assert line_of_sight(board, (1, 1), (4, 4)).clear
    notes = {f.message.split(":")[0] for f in loaded.findings if f.severity is Severity.NOTE}
    assert notes >= {"tile layer 'walls'", "object layer 'doors'", "object layer 'npcs'"}  # never silently
    assert not [f for f in lint(loaded) if f.severity is Severity.ERROR]


def test_a_maze_drawn_as_walls_only_reads_its_empty_cells_as_floor(capsys: pytest.CaptureFixture[str]) -> None:
    path = HABITS / "maze" / "maze.tmx"
    board = load_map(path).board
    rows = [
        "111111111111",
        "100000100001",
        "101110101101",
        "101000001001",
        "101011111011",
        "100010000001",
        "111010111101",
        "100000100001",
        "111111111111",
    ]
    assert board.blocked == grid(rows) and not board.void  # not inside out
    assert line_of_sight(board, (1, 1), (1, 5)).clear  # down the left corridor
    assert not line_of_sight(board, (1, 1), (3, 3)).clear  # through the wall square (2,2)
    code, out, _ = check(capsys, str(path))
    assert code == 0 and out.strip().endswith("clean (2 notes)")
    assert main(["reach", str(path), "1,1", "2", "--layers", "empty=floor", "--json"]) == 0  # every command
    assert json.loads(capsys.readouterr().out)
    # the same map told its empty cells are off the board says it looks wrong
    code, out, _ = check(capsys, "--layers", "empty=void", str(path))
    assert "board-no-standable" in out or "no square" in out


# --- Phaser: collides on every tile, the game collides one layer --------------------------------


def test_phaser_preset_collides_only_on_the_layer_the_game_collides_with(capsys: pytest.CaptureFixture[str]) -> None:
    path = HABITS / "phaser_world" / "town.tmx"
    board = load_map(path, preset="phaser").board
    world = {(x, y) for x in range(14) for y in (0, 9)} | {(x, y) for x in (0, 13) for y in range(10)}
    world |= {(4, 3), (5, 3), (6, 3), (4, 4), (6, 4), (9, 6), (10, 6), (9, 7)}
    assert board.blocked == world  # not the 140 squares of "Below Player"
    code, out, _ = check(capsys, "--preset", "phaser", str(path))
    assert code == 0 and "the phaser preset reads its tile properties on tile layer 'World' only" in out
    # a spec limited by hand reads the other layers when asked
    every = load_map(path, tiles={"blocked": ["collides@Below Player"]}).board
    assert len(every.blocked) == 140


def test_a_preset_that_blocks_every_square_is_a_sanity_finding(capsys: pytest.CaptureFixture[str]) -> None:
    """mikewesthad's platformer map (MIT): 336 of its 374 tiles collide; with the phaser preset
    nothing is left to stand on. Before issue #22: exit 0 and no word about it."""
    path = HABITS / "phaser" / "simple-map.tmx"
    loaded = load_map(path, preset="phaser")
    sanity = [f for f in loaded.findings if f.code == "board-no-standable"]
    assert sanity and "phaser preset" in (sanity[0].hint or "")
    code, out, _ = check(capsys, "--preset", "phaser", str(path))
    assert "clean" not in out.splitlines()[-1]


# --- objects told apart by name, collision rectangles (pygame tutorial, MIT) --------------------


def test_objects_told_apart_by_name_read_right_with_the_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = load_map(HABITS / "names" / "level1.tmx")
    note = next(f for f in plain.findings if f.code == "layer-role" and "Obstacles" in f.message)
    assert "zombie 30" in note.message and "player 1" in note.message  # what the layer's name decided
    path = suggested(tmp_path, "names", "level1.tmx", capsys)
    table = tomllib.loads((path.parent / "sightline.toml").read_text(encoding="utf-8"))
    assert table["names"]["figure"] == ["player", "zombie"]
    assert set(table["names"]["blocked"]) == {"wall", "breakable"}
    loaded = load_map(path)
    figures = loaded.board.figures.values()
    assert len(figures) == 31 and sum(f.name == "player" for f in figures) == 1
    boxes = [o for o in loaded.objects.values() if o.name == "wall"]
    assert len(boxes) == 58 and all(o.role == "blocked" for o in boxes)
    assert (7, 5) in loaded.board.blocked  # wall 2: a 320x64 box at (448,320): squares (7..11, 5)
    assert not [o for o in loaded.objects.values() if o.name in ("health", "shotgun") and o.role != "ignored"]


def test_names_on_the_command_line(tmp_path: Path) -> None:
    path = HABITS / "names" / "level1.tmx"
    board = load_map(path, names={"figure": ["zombie"], "ignore": ["player", "health", "shotgun"],
                                  "blocked": ["wall"]}).board
    assert len(board.figures) == 30
    with_match = load_map(path, names={"ignore": ["zombie", "player"]}, layers={"ignore": ["Obstacles"]})
    assert not with_match.board.figures


# --- collision rectangles in a walls object layer -----------------------------------------------


def test_collision_rectangles_in_a_walls_layer_are_walls_and_blocked_squares() -> None:
    loaded = load_map(HABITS / "walls_rects" / "rooms.tmx")
    board = loaded.board
    border = {Edge("H", x, 0) for x in range(8)} | {Edge("H", x, 6) for x in range(8)}
    border |= {Edge("V", 0, y) for y in range(6)} | {Edge("V", 8, y) for y in range(6)}
    inner = {Edge("V", 4, y) for y in (0, 1, 3, 4, 5)}
    assert board.walls == border | inner  # the 1/3-tile strips: walls along the grid lines they hug
    assert board.blocked == {(1, 4), (2, 1), (6, 4)}  # the 16x16 pillars over squares' centres
    codes = [f.code for f in loaded.findings if f.severity is not Severity.NOTE]
    assert "wall-off-grid" not in codes
    missed = [f for f in loaded.findings if f.code == "collision-rectangle" and f.severity is Severity.WARNING]
    assert len(missed) == 1 and missed[0].object_id == 10  # one grouped finding, not an error each
    boxes = next(f for f in loaded.findings if f.code == "collision-rectangle" and f.severity is Severity.NOTE)
    assert boxes.message.startswith("9 wall rectangles off the grid")


# --- isometric tactics boards: .tmj, tilesets, a Tiled project with spawn classes ---------------


def test_an_isometric_tactics_map_reads_with_the_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = suggested(tmp_path, "isometric", "arena.tmj", capsys)
    loaded = load_map(path)
    board = loaded.board
    where = {f.name: (f.side, f.square) for f in board.figures.values()}
    assert where == {"Ayla": ("heroes", (1, 1)), "Bram": ("heroes", (1, 2)),
                     "Grub": ("monsters", (6, 5)), "Skarn": ("monsters", (6, 1))}
    assert board.blocked == {(2, 3), (3, 3), (5, 2), (5, 5)}
    assert board.impassable == {(3, 6), (4, 6), (4, 7)}
    assert loaded.art is None  # drawn as squares, in the vector style
    assert any(f.code == "map-isometric" for f in loaded.findings)
    for args in (["los", str(path), "1,1", "6,5", "--json"], ["reach", str(path), "1,1", "3", "--json"],
                 ["odds", str(path), "Ayla", "Skarn", "--json"],
                 ["attack", str(path), "Ayla", "Skarn", "--seed", "3", "--json"],
                 ["render", str(path), "-o", str(tmp_path / "arena.png"), "--from", "1,1", "--fov"],
                 ["report", str(path), "-o", str(tmp_path / "report")]):
        code = main(args)
        out, err = capsys.readouterr()
        assert code == 0, (args, err)
        if "--json" in args:
            json.loads(out)
        if args[0] == "render":
            assert "note: an isometric map" in err
    assert (tmp_path / "arena.png").is_file() and (tmp_path / "report" / "index.html").is_file()


def test_a_staggered_map_stays_refused_with_its_reason(tmp_path: Path) -> None:
    text = (HABITS / "maze" / "maze.tmx").read_text().replace(
        'orientation="orthogonal"', 'orientation="staggered" staggeraxis="y" staggerindex="odd"')
    (tmp_path / "s.tmx").write_text(text)
    with pytest.raises(Exception, match=r"staggered maps are not supported \(its rows are shifted"):
        load_map(tmp_path / "s.tmx")


# --- a map no mapping reads right says so ------------------------------------------------------


def test_walls_drawn_as_tiles_nothing_reads_are_a_sanity_finding(capsys: pytest.CaptureFixture[str]) -> None:
    """mikewesthad's dungeon map (MIT): its walls are plain tiles the game collides by index."""
    path = HABITS / "sanity" / "dungeon.tmx"
    code, out, _ = check(capsys, str(path))
    assert "nothing on the 40x40 board blocks sight or movement but the void around it" in out
    assert "tiles 58, 79, 114, 115 of tileset 'buch-tileset-48px-extruded'" in out
    assert "clean" not in out.splitlines()[-1]
    code, out, _ = check(capsys, "--suggest", str(path))
    assert "how sure:" in out


def test_match_name_and_layers_in_sightline_toml(tmp_path: Path) -> None:
    """``[objects] match = "name"`` reads names like classes; ``[layers]`` gives layers roles."""
    shutil.copy(HABITS / "names" / "level1.tmx", tmp_path / "level1.tmx")
    (tmp_path / "sightline.toml").write_text(
        '[objects]\nmatch = "name"\n[classes]\nfigure = ["zombie", "player"]\n'
        '[layers]\nfloor = ["walls", "items"]\nignore = ["Obstacles"]\n', encoding="utf-8")
    loaded = load_map(tmp_path / "level1.tmx")
    assert len(loaded.board.figures) == 31  # names read through [classes]
    walls = [o for o in loaded.objects.values() if o.name == "wall"]
    assert {o.role for o in walls} == {"wall"}  # the name "wall" is our role: walls (boxes and outlines)
    assert not any(f.code == "layer-role" for f in loaded.findings)  # nothing left to a name's guess
    (tmp_path / "sightline.toml").write_text('[objects]\nmatch = "names"\n', encoding="utf-8")
    with pytest.raises(Exception, match=r'\[objects\] match must be "class" or "name"'):
        load_map(tmp_path / "level1.tmx")


def test_collision_shapes_of_isometric_tiles_are_not_read_and_say_so(tmp_path: Path) -> None:
    shutil.copytree(HABITS / "isometric", tmp_path / "iso")
    terrain = json.loads((tmp_path / "iso" / "terrain.tsj").read_text())
    terrain["tiles"][1]["objectgroup"] = {"type": "objectgroup", "name": "", "objects": [
        {"id": 1, "x": 0, "y": 0, "width": 64, "height": 32, "rotation": 0, "visible": True}]}
    (tmp_path / "iso" / "terrain.tsj").write_text(json.dumps(terrain))
    loaded = load_map(tmp_path / "iso" / "arena.tmj")
    assert not loaded.board.blocked
    assert [f.code for f in loaded.findings if "isometric map's tiles" in f.message] == ["collision-shape"]
