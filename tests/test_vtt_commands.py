"""Every command on virtual-tabletop maps, through the real command line and the one derivation.

A board exported from Tiled (Universal VTT ``.dd2vtt``/``.uvtt``/``.df2vtt``, Foundry ``.json``)
gives the same answers as the Tiled map on every command; the hand-made Dungeondraft room gives
the same line of sight as its Tiled twin from every square; ``render`` draws the picture under
the board and the drawing over it; ``check`` finds VTT maps in folders and names their objects by
their place in the file; a Tiled ``.json`` map still reads as Tiled.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pygame
import pytest

from game.cli import MAP_SUFFIXES, main
from game.core.board import Board
from game.tiled import MAP_SUFFIXES as READER_SUFFIXES
from game.tiled import is_map_file, load_map
from game.tiled.uvtt import UVTT_SUFFIXES
from game.tiled.vtt_records import VttArt
from game.ui.map_picture import DRAWN_PORTAL, DRAWN_WALL
from game.ui.render import margin

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "demo.tmx"
VTT = REPO / "tests" / "data" / "vtt"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo map exported to every format (and the Universal VTT file under each ending)."""
    folder = tmp_path_factory.mktemp("exported")
    out = {"foundry": folder / "demo.json", "dd2vtt": folder / "demo.dd2vtt"}
    assert main(["export", str(DEMO), "--to", "uvtt", str(out["dd2vtt"]), "--scale", "20"]) == 0
    assert main(["export", str(DEMO), "--to", "foundry", str(out["foundry"]), "--scale", "20"]) == 0
    for ending in ("uvtt", "df2vtt"):
        out[ending] = shutil.copy(out["dd2vtt"], folder / f"demo.{ending}")
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


COMMANDS = [
    ("los", "M", "3,3", "--json"),
    ("los", "M", "3,3", "9,9", "--json"),
    ("los", "M", "4,3", "12,5", "--viewer", "Red Guild", "--rule", "dnd5e", "--json"),
    ("reach", "M", "3,3", "4", "--json"),
    ("odds", "M", "Ember", "Sable", "--json"),
    ("attack", "M", "Ember", "Sable", "--seed", "3", "--json"),
    ("compare", "M", "--rules", "arcadia,dnd5e", "--json"),
]


@pytest.mark.parametrize("fmt", ["dd2vtt", "uvtt", "df2vtt", "foundry"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:1] + c[2:4]))
def test_every_answer_on_an_exported_map_is_the_tiled_maps(exported: dict[str, Path], fmt: str,
                                                           command: tuple[str, ...],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    tiled = run(capsys, *(str(DEMO) if a == "M" else a for a in command))
    vtt = run(capsys, *(str(exported[fmt]) if a == "M" else a for a in command))
    assert tiled[0] == 0 and tiled[1]
    assert vtt == tiled


@pytest.mark.parametrize("fmt", ["dd2vtt", "foundry"])
def test_check_diff_render_report_and_play_on_an_exported_map(exported: dict[str, Path], fmt: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = str(exported[fmt])
    code, out, _ = run(capsys, "check", path, "--json")
    doc = json.loads(out)["maps"][0]
    assert code == 0 and doc["errors"] == [] and doc["warnings"] == [] and doc["stats"]["doors"] == 10
    code, out, _ = run(capsys, "diff", str(DEMO), path)
    assert code == 0 and "0 squares changed: 0 pairs gained, 0 pairs lost" in out
    code, out, err = run(capsys, "render", path, "-o", str(tmp_path / "board.png"), "--from", "4,3", "--fov")
    assert code == 0 and err == "" and pygame.image.load(str(tmp_path / "board.png")).get_width() > 15 * 48
    code, out, _ = run(capsys, "report", path, "-o", str(tmp_path / "report"))
    assert code == 0 and (tmp_path / "report" / "index.html").is_file()
    shot = tmp_path / "shot.png"
    code, _, err = run(capsys, path, "--frames", "2", "--screenshot", str(shot), "--fresh", "--size", "1000x650")
    assert code == 0, err
    assert pygame.image.load(str(shot)).get_size() == (1000, 650)


def test_los_on_the_axis_aligned_room_is_its_tiled_twins_from_every_square(
        capsys: pytest.CaptureFixture[str]) -> None:
    """room.dd2vtt (written the way Dungeondraft writes: walls stopping at the portals, a window,
    a pillar outline) and room.tmx (the same board drawn in Tiled): every field of view and every
    ray from the corner squares, through ``sightline los``, are the same."""
    uvtt, tiled = VTT / "uvtt" / "room.dd2vtt", VTT / "uvtt" / "room.tmx"
    board = load_map(tiled).board
    squares = [sq for sq in board.squares() if board.on_board(sq)]
    for x, y in squares:
        a = run(capsys, "los", str(uvtt), f"{x},{y}", "--json")
        b = run(capsys, "los", str(tiled), f"{x},{y}", "--json")
        assert a == b and a[0] == 0
    for x, y in [(0, 0), (2, 2), (6, 4)]:
        for tx, ty in squares:
            a = run(capsys, "los", str(uvtt), f"{x},{y}", f"{tx},{ty}", "--json")
            assert a == run(capsys, "los", str(tiled), f"{x},{y}", f"{tx},{ty}", "--json")


def _colour_near(surface: pygame.Surface, at: tuple[int, int], colour: tuple[int, int, int]) -> bool:
    """Whether a pixel within 2 of ``at`` has exactly ``colour``."""
    return any(tuple(surface.get_at((at[0] + dx, at[1] + dy)))[:3] == colour
               for dx in range(-2, 3) for dy in range(-2, 3))


def test_render_draws_the_picture_under_the_board_and_the_moved_drawing_over_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real Dungeondraft file: the picture shows on the floor (not the checker), the cave's
    drawn outline in magenta where the board has a staircase, the doors' drawn lines in cyan."""
    path = VTT / "real" / "oganm-test.dd2vtt"
    scale = 40
    code, _, err = run(capsys, "render", str(path), "-o", str(tmp_path / "real.png"), "--scale", str(scale),
                       "--no-legend")
    assert code == 0 and err == ""
    image = pygame.image.load(str(tmp_path / "real.png"))
    art = load_map(path).art
    assert isinstance(art, VttArt) and art.drawing
    m = margin(scale)

    def pixel(x: float, y: float) -> tuple[int, int]:
        return round(m + x * scale), round(m + y * scale)

    walls = [line for line in art.drawing if line.role == "wall"]
    doors = [line for line in art.drawing if line.role == "door"]
    assert walls and doors
    for line in walls:
        mid = ((line.points[0][0] + line.points[1][0]) / 2, (line.points[0][1] + line.points[1][1]) / 2)
        assert _colour_near(image, pixel(*mid), DRAWN_WALL)
    assert any(_colour_near(image, pixel(*line.points[0]), DRAWN_PORTAL) for line in doors)
    floor = {tuple(image.get_at(pixel(x + 0.5, y + 0.5)))[:3] for x in range(20) for y in range(20)}
    assert len(floor) > 50  # the painted picture, not a two-tone checker


def test_render_without_the_picture_when_the_scene_does_not_have_it_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "render", str(VTT / "foundry" / "keep-v9.json"), "-o", str(tmp_path / "k.png"))
    assert code == 0 and err == ""


def test_a_foundry_picture_beside_the_scene_is_drawn_where_the_scene_shifts_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 2x1-square scene at 50 pixels with a red picture shifted half a square right: the left
    half of square (0,0) shows the floor, its right half and square (1,0) the (washed) red."""
    picture = pygame.Surface((100, 50))
    picture.fill((220, 0, 0))
    pygame.image.save(picture, str(tmp_path / "red.png"))
    scene = {"name": "Red", "width": 100, "height": 50, "padding": 0, "grid": {"type": 1, "size": 50},
             "background": {"src": "worlds/w/red.png", "offsetX": 25, "offsetY": 0}, "walls": [], "tokens": []}
    (tmp_path / "red.json").write_text(json.dumps(scene))
    code, _, err = run(capsys, "render", str(tmp_path / "red.json"), "-o", str(tmp_path / "r.png"),
                       "--scale", "40", "--no-legend")
    assert code == 0 and err == ""
    image = pygame.image.load(str(tmp_path / "r.png"))
    m = margin(40)
    left, right = image.get_at((m + 8, m + 20)), image.get_at((m + 32, m + 20))
    assert right.r > right.g + 60 and abs(left.r - left.g) < 40


def test_check_finds_vtt_maps_in_a_folder_and_names_objects_by_their_place(
        tmp_path: Path, exported: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    for path in [*exported.values(), VTT / "uvtt" / "cave.uvtt", REPO / "tests" / "data" / "tiled" / "doors.tmj"]:
        shutil.copy(path, tmp_path / path.name)
    shutil.copy(REPO / "tests" / "data" / "tiled" / "doors.tmj", tmp_path / "doors-tiled.json")
    shutil.copy(REPO / "tests" / "data" / "tiled" / "outdoor.tsj", tmp_path / "tileset.json")
    (tmp_path / "demo.sightline.json").write_text('{"format": "sightline-play-state", "version": 1}')
    found = sorted(p.name for p in tmp_path.iterdir() if is_map_file(p))
    assert found == ["cave.uvtt", "demo.dd2vtt", "demo.df2vtt", "demo.json", "demo.uvtt", "doors-tiled.json",
                     "doors.tmj"]
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 1 and out.splitlines()[-1].startswith("checked 7 maps:")
    assert (f"{tmp_path / 'cave.uvtt'}:object 1 [line_of_sight[0]]: warning: wall with 22 of 24 segments off "
            "the grid, drawn as a staircase of 34 grid edges at most 0.62 squares from the drawing") in out
    tiled_json = load_map(tmp_path / "doors-tiled.json")  # a Tiled map saved as .json stays a Tiled map
    assert not isinstance(tiled_json.art, VttArt)
    assert same_doors(tiled_json.board) == same_doors(load_map(tmp_path / "doors.tmj").board)


def same_doors(board: Board) -> dict[object, object]:
    return {edge: door.state for edge, door in board.doors.items()}


def test_the_map_endings_are_one_list() -> None:
    assert MAP_SUFFIXES == READER_SUFFIXES
    assert set(UVTT_SUFFIXES) < set(READER_SUFFIXES)


def test_a_vtt_board_is_the_same_board_every_load() -> None:
    """Ids and squares do not depend on anything but the file (autosave keys figures by id)."""
    path = VTT / "foundry" / "hall-v12.json"
    first, again = load_map(path), load_map(path)
    assert [(f.id, f.name, f.square) for f in first.board.figures.values()] == [
        (f.id, f.name, f.square) for f in again.board.figures.values()]
    assert [f.id for f in first.board.figures.values()] == [1, 2]  # figures first: walls do not renumber them
    assert isinstance(first.board, Board) and first.dependencies[0] == path.resolve()


def test_the_legend_names_the_drawn_colours_only_when_the_map_has_a_drawing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def legend_colours(map_path: Path) -> set[tuple[int, int, int]]:
        out = tmp_path / f"{map_path.stem}.png"
        assert run(capsys, "render", str(map_path), "-o", str(out), "--scale", "20")[0] == 0
        image = pygame.image.load(str(out))
        board_h = load_map(map_path).board.height * 20 + 2 * margin(20)
        return {tuple(image.get_at((x, y)))[:3] for x in range(0, image.get_width(), 2)
                for y in range(board_h, image.get_height(), 2)}

    assert {DRAWN_WALL, DRAWN_PORTAL} <= legend_colours(VTT / "uvtt" / "cave.uvtt")
    assert not {DRAWN_WALL, DRAWN_PORTAL} & legend_colours(VTT / "uvtt" / "room.tmx")
