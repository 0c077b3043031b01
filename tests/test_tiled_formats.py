"""Every format Tiled writes: JSON twins made by the real Tiled editor (tests/data/tiled/make_twins.sh)
give the identical board, findings, art and sight lines; zstd and infinite maps are read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.core.board import Board
from game.core.errors import MapError
from game.core.los import visible_from
from game.designer.lint import lint
from game.tiled import LoadedMap, is_map_file, load_map

TILED = Path(__file__).resolve().parent / "data" / "tiled"
RS = TILED / "rs-tiled"

#: TMX map -> its twins (Tiled 1.8 exports, hand-written 1.9+ ``class`` files)
TWINS = {
    "walls.tmx": ["walls.tmj", "walls_class.tmj"],
    "doors.tmx": ["doors.tmj"],
    "figures.tmx": ["figures.tmj", "figures_class.tmj"],
    "nonsquare.tmx": ["nonsquare.tmj"],
    "encoding_zlib.tmx": ["encoding_zlib.tmj"],
    "external.tmx": ["external.tmj"],  # external .tsx vs external .tsj
    "templates.tmx": ["templates.tmj"],  # .tx templates vs .tj templates (with a .tsj tileset)
}
PAIRS = [(tmx, twin) for tmx, twins in TWINS.items() for twin in twins]


def board_signature(board: Board) -> tuple[object, ...]:
    """Everything a board holds, comparable."""
    figures = sorted(
        (f.id, f.name, f.side, f.square, sorted(f.stats.items())) for f in board.figures.values()
    )
    doors = sorted((str(e), d.state.value, d.object_id, d.name) for e, d in board.doors.items())
    return (
        board.width, board.height, board.capacity, board.ruleset, sorted(board.properties.items()),
        sorted(board.void), sorted(board.blocked), sorted(map(str, board.walls)),
        sorted(map(str, board.windows)), doors, figures,
    )


def art_signature(loaded: LoadedMap) -> object:
    if loaded.art is None:
        return None
    art = loaded.art
    return (
        art.tile_width, art.tile_height,
        [(layer.name, layer.opacity, layer.offset, layer.gids.tolist()) for layer in art.layers],
        sorted((g, t.image.name, t.rect, t.offset, t.colorkey) for g, t in art.tiles.items()),
    )


def findings_signature(loaded: LoadedMap) -> list[tuple[object, ...]]:
    return [(f.code, f.severity.value, f.object_id, f.square, f.message, f.hint) for f in lint(loaded)]


@pytest.mark.parametrize(("tmx", "twin"), PAIRS)
def test_json_twin_gives_the_identical_board_findings_and_art(tmx: str, twin: str) -> None:
    a, b = load_map(TILED / tmx), load_map(TILED / twin)
    assert board_signature(a.board) == board_signature(b.board)
    assert a.stats == b.stats
    assert findings_signature(a) == findings_signature(b)
    assert art_signature(a) == art_signature(b)
    assert a.board.walls or a.board.doors or a.board.figures  # the map carries something to compare


@pytest.mark.parametrize(("tmx", "twin"), PAIRS)
def test_json_twin_gives_the_same_sight_lines(tmx: str, twin: str) -> None:
    a, b = load_map(TILED / tmx).board, load_map(TILED / twin).board
    for square in a.squares():
        assert np.array_equal(visible_from(a, square), visible_from(b, square)), square


@pytest.mark.parametrize(("tmx", "twin"), PAIRS)
def test_check_json_stats_are_identical(tmx: str, twin: str, capsys: pytest.CaptureFixture[str]) -> None:
    docs = []
    for name in (tmx, twin):
        main(["check", "--json", str(TILED / name)])
        doc = json.loads(capsys.readouterr().out)
        docs.append(doc["maps"][0] if "maps" in doc else doc)
    assert docs[0]["stats"] == docs[1]["stats"]
    assert [w["code"] for w in docs[0]["warnings"]] == [w["code"] for w in docs[1]["warnings"]]
    assert [e["code"] for e in docs[0]["errors"]] == [e["code"] for e in docs[1]["errors"]]


def test_the_json_twins_are_tiled_exports_and_class_files() -> None:
    """Guard against a twin quietly becoming a copy of the other format."""
    assert json.loads((TILED / "walls.tmj").read_text())["tiledversion"] == "1.8.2"
    assert '"class"' in (TILED / "walls_class.tmj").read_text()
    assert (TILED / "external.tmj").read_text().count("outdoor.tsj") == 1
    assert "hero.tj" in (TILED / "templates.tmj").read_text()


def test_zstd_layers_equal_the_csv_map() -> None:
    zstd, csv = load_map(RS / "tiled_base64_zstandard.tmx"), load_map(RS / "tiled_csv.tmx")
    assert board_signature(zstd.board) == board_signature(csv.board)
    assert art_signature(zstd) == art_signature(csv)
    assert len(zstd.board.void) == 100 * 100 - 161  # 161 painted cells


def test_gzip_layers_equal_the_csv_map() -> None:
    gzip, csv = load_map(RS / "tiled_base64_gzip.tmx"), load_map(RS / "tiled_csv.tmx")
    assert board_signature(gzip.board) == board_signature(csv.board)


def test_infinite_map_is_cropped_to_its_painted_chunks_with_negative_origin() -> None:
    loaded = load_map(RS / "tiled_base64_zlib_infinite.tmx")
    assert (loaded.stats["origin_x"], loaded.stats["origin_y"]) == (-16, 0)
    assert (loaded.board.width, loaded.board.height) == (48, 48)
    assert [f.code for f in loaded.findings if f.code == "map-infinite"] == ["map-infinite"]
    ground = next(layer for layer in loaded.art.layers if layer.name == "Background")
    assert ground.gids.shape == (48, 48) and int((ground.gids != 0).sum()) > 0


def test_infinite_map_objects_move_with_the_origin(tmp_path: Path) -> None:
    # a chunk at (-16,-16) with one painted tile at Tiled cell (-3,-2); a figure drawn on it
    chunk = ["0"] * 256
    chunk[14 * 16 + 13] = "1"
    (tmp_path / "inf.tmx").write_text(
        '<map orientation="orthogonal" width="1" height="1" tilewidth="10" tileheight="10" infinite="1">'
        '<tileset firstgid="1" name="t" tilewidth="10" tileheight="10" tilecount="1"/>'
        f'<layer name="g" width="1" height="1"><data encoding="csv"><chunk x="-16" y="-16" width="16" height="16">{",".join(chunk)}</chunk>'
        '<chunk x="0" y="0" width="16" height="16">' + ",".join(["1"] + ["0"] * 255) + "</chunk></data></layer>"
        '<objectgroup name="o"><object id="1" name="Ann" class="figure" x="-25" y="-15"><point/></object></objectgroup></map>'
    )
    loaded = load_map(tmp_path / "inf.tmx")
    assert (loaded.board.width, loaded.board.height) == (4, 3)  # cells -3..0 by -2..0
    assert loaded.board.find_figure("Ann").square == (0, 0)  # Tiled cell (-3,-2)
    assert loaded.board.void == frozenset({(x, y) for x in range(4) for y in range(3)} - {(0, 0), (3, 2)})


def test_check_a_folder_finds_every_map_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("walls.tmx", "walls.tmj", "outdoor.tsj", "outdoor.tsx", "tiles.png"):
        shutil.copy(TILED / name, tmp_path / name)
    shutil.copy(TILED / "walls.tmj", tmp_path / "walls-copy.json")
    (tmp_path / "notes.json").write_text('{"hello": "world"}')
    main(["check", "--json", str(tmp_path)])
    doc = json.loads(capsys.readouterr().out)
    assert sorted(Path(m["path"]).name for m in doc["maps"]) == ["walls-copy.json", "walls.tmj", "walls.tmx"]
    assert not is_map_file(tmp_path / "outdoor.tsj") and not is_map_file(tmp_path / "notes.json")


@pytest.mark.parametrize(("text", "words"), [
    ('{"type": "map", "orientation": "orthogonal", ', "not valid JSON"),
    ('[1, 2]', "not a Tiled JSON file"),
    ('{"type": "tileset", "tilewidth": 8}', "not a Tiled map"),
])
def test_bad_json_maps_are_one_line(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.tmj"
    path.write_text(text)
    with pytest.raises(MapError) as info:
        load_map(path)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_missing_json_tileset_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(TILED / "external.tmj", tmp_path / "external.tmj")
    assert main(["check", str(tmp_path / "external.tmj")]) == 2
    err = capsys.readouterr().err.strip()
    assert "outdoor.tsj not found" in err and len(err.splitlines()) == 1
