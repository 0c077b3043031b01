"""Templates used by a tileset's collision shapes resolve next to the TILESET, as Tiled writes
them (a template path is relative to the file holding the object), not next to the map.

Real files under ``tests/data/tiled/tileset_templates/``: ``maps/room.tmx`` (and its JSON twin
``room.tmj``, exported by Tiled) uses ``../tilesets/walls.tsx`` (``walls.tsj``, exported by Tiled
from the .tsx), whose tile 0 has a collision object from ``shapes/solid.tx`` (the whole tile:
blocked) and tile 1 one from ``shapes/top_wall.tx`` (a thin shape along the top: a wall), both in
``tilesets/shapes/``. A decoy ``maps/shapes/solid.tx`` (a 4×4 speck) sits where the map's folder
would put it, so reading the template relative to the map gives another board.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.core.board import Edge
from game.core.errors import MapError
from game.tiled import load_map

DATA = Path(__file__).resolve().parent / "data" / "tiled" / "tileset_templates"


@pytest.mark.parametrize("name", ["room.tmx", "room.tmj"])
def test_collision_templates_resolve_next_to_the_tileset(name: str) -> None:
    loaded = load_map(DATA / "maps" / name)
    assert loaded.board.blocked == {(0, 0)}  # solid.tx of tilesets/shapes, not the map's decoy
    assert loaded.board.walls == {Edge.parse("H(2,1)")}  # top_wall.tx: the top edge of (2,1)
    assert loaded.findings == []  # the decoy would be a collision-shape warning
    deps = set(loaded.dependencies)
    assert (DATA / "tilesets" / "shapes" / "solid.tx").resolve() in deps
    assert (DATA / "maps" / "shapes" / "solid.tx").resolve() not in deps


def test_the_cli_reads_the_tilesets_templates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", str(DATA / "maps" / "room.tmx"), "2,1", "2,0", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["clear"] is False  # the wall the tileset's top_wall.tx draws above (2,1)
    assert main(["los", str(DATA / "maps" / "room.tmx"), "1,1", "1,0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["clear"] is True  # beside it: nothing


def test_a_missing_tileset_template_names_where_it_was_looked_for(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    shutil.copy(DATA.parent / "tiles.png", tmp_path / "tiles.png")
    (copy / "tilesets" / "shapes" / "top_wall.tx").unlink()
    with pytest.raises(MapError) as caught:
        load_map(copy / "maps" / "room.tmx")
    text = str(caught.value)
    assert f"template file {(copy / 'tilesets' / 'shapes' / 'top_wall.tx').resolve()} not found" in text
    assert "relative to the map or tileset that uses it" in text and "\n" not in text
