"""Foundry scene exports (game/tiled/foundry.py): both eras of the format, every field checked.

``hall-v12.json`` has Foundry 12's shape (grid object, sight/light/sound/move, background object,
tokens); ``keep-v9.json`` Foundry 9's (plain grid number, ``sense``, ``img``, walls traced round a
painted tower off the grid, like the commercial scene packs measured in docs/vtt.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from game.core.board import DoorState
from game.tiled.foundry import LIMITED, NONE, NORMAL, looks_like_scene, parse_foundry, read_foundry

DATA = Path(__file__).resolve().parent / "data" / "vtt" / "foundry"


def scene(**changes: Any) -> dict[str, Any]:
    """A small valid v12 scene, with top-level keys replaced by ``changes``."""
    doc: dict[str, Any] = {
        "name": "S", "width": 400, "height": 300, "padding": 0, "grid": {"type": 1, "size": 100},
        "walls": [{"c": [100, 0, 100, 300], "move": 20, "sight": 20, "door": 0, "ds": 0, "dir": 0}],
        "tokens": [],
    }
    doc.update(changes)
    return doc


def test_a_foundry_12_scene_is_read_field_by_field() -> None:
    hall = read_foundry(DATA / "hall-v12.json")
    assert (hall.name, hall.grid, hall.board, hall.offset, hall.padding) == ("Hall", 100, (8, 6), (200, 200), F(1, 4))
    assert hall.background == "worlds/test/hall.webp" and hall.shift == (0, 0)
    kinds = [(w.move, w.sight, w.door, w.ds, w.dir) for w in hall.walls]
    assert kinds[4] == (NORMAL, NORMAL, 1, 1, 0) and kinds[7] == (NORMAL, NONE, 0, 0, 0)
    assert kinds[9] == (NORMAL, LIMITED, 0, 0, 0) and kinds[11] == (NORMAL, NORMAL, 2, 0, 0)
    ann, grub = hall.tokens
    assert (ann.name, ann.side, ann.x, ann.width) == ("Ann", "friendly", 300, 1)
    assert (grub.side, grub.hidden, grub.width) == ("hostile", True, 2)


def test_the_foundry_12_scene_in_grid_units() -> None:
    hall = read_foundry(DATA / "hall-v12.json").scene()
    assert [(p.source, p.role) for p in hall.paths] == [
        ("walls[0..3]", "wall"), ("walls[5]", "wall"), ("walls[7]", "window"), ("walls[8]", "wall"),
        ("walls[9]", "window"), ("walls[10]", "wall")]
    assert hall.paths[0].points == ((1, 1), (7, 1), (7, 5), (1, 5), (1, 3))
    assert [(d.source, d.a, d.b, d.state) for d in hall.doors] == [
        ("walls[4]", (1, 3), (1, 2), DoorState.OPEN), ("walls[6]", (4, 1), (4, 2), DoorState.LOCKED),
        ("walls[11]", (2, 4), (3, 4), DoorState.CLOSED)]
    assert [(f.name, f.side, f.centre) for f in hall.figures] == [
        ("Ann", "friendly", (F(3, 2), F(3, 2))), ("Grub", "hostile", (7, 5))]
    assert [f.code for f in hall.findings] == [
        "vtt-unread", "vtt-one-way-wall", "vtt-limited-wall", "vtt-sight-only-wall", "vtt-secret-door",
        "vtt-picture-missing"]
    assert hall.findings[1].message == "one-way walls: 1, read as two-way (Sightline has no one-way walls yet)"


def test_a_foundry_9_scene_reads_the_old_values() -> None:
    """``sense`` 1 is a normal wall and 2 a limited one (the mapping Foundry's own migration uses);
    ``move`` 1 blocks; the grid is a plain number; padding rounds up to whole squares."""
    keep = read_foundry(DATA / "keep-v9.json")
    assert (keep.grid, keep.board, keep.offset, keep.background) == (140, (24, 20), (840, 700),
                                                                     "modules/made-up/maps/keep.webp")
    assert {(w.move, w.sight) for w in keep.walls} == {(NORMAL, NORMAL), (NORMAL, LIMITED), (NORMAL, NONE)}
    described = keep.scene()
    assert [d.source for d in described.doors] == ["walls[4]"]
    assert described.findings[0].message == (
        "limited (terrain) sight walls: 4, read as see-through (Foundry blocks sight behind two of them)")
    assert described.paths[1].source == "walls[1..3]" and len(described.paths[1].points) == 4


def test_a_background_beside_the_scene_is_found(tmp_path: Path) -> None:
    (tmp_path / "hall.webp").write_bytes(b"RIFF")
    (tmp_path / "hall.json").write_text(json.dumps(scene(background={"src": "worlds/w/hall.webp"})))
    picture = read_foundry(tmp_path / "hall.json").scene().picture
    assert picture is not None and picture.found == tmp_path / "hall.webp"


def test_a_scene_is_told_from_a_tiled_map() -> None:
    assert looks_like_scene(scene()) and not looks_like_scene({"type": "map", "layers": [], "width": 2})


@pytest.mark.parametrize(("doc", "expected"), [
    ({"type": "map", "layers": []}, "not a Foundry scene (no grid, width and height)"),
    (scene(grid={"type": 0, "size": 100}), "the scene is gridless; Sightline needs a square grid"),
    (scene(grid={"type": 2, "size": 100}), "the scene's grid is hexagonal; Sightline reads square grids"),
    (scene(grid={"type": 1}), "expected a whole number at grid.size, found null"),
    (scene(grid=100, gridType=4), "the scene's grid is hexagonal"),
    (scene(grid=1), "the grid size is 1 pixels; it must be between 2 and 4096"),
    (scene(width="400"), 'expected a number at width, found "400"'),
    (scene(width=10**9, height=10**9), "over the limit of 250,000 squares"),
    (scene(padding=3), "padding is 3; Foundry's padding is between 0 and 0.5"),
    (scene(walls=[{"c": [0, 0, 100]}]), "walls[0].c has 3 numbers; a wall is [x0, y0, x1, y1]"),
    (scene(walls=[{"c": [0, 0, 100, "x"]}]), 'expected a number at walls[0].c[3], found "x"'),
    (scene(walls=[{"c": [0, 0, 1e300, 0]}]), "walls[0].c has the point (1e+300, 0), far outside the 400x300 pixel scene"),
    (scene(walls=[{"c": [0, 0, 100, 0], "ds": 3}]), "walls[0].ds is 3; it must be 0, 1 or 2"),
    (scene(walls=[{"c": [0, 0, 100, 0], "sight": 15}]), "walls[0].sight is 15; Foundry's values are 0, 10, 20, 30, 40"),
    (scene(walls=[{"c": [0, 0, 100, 0], "sense": 7}]), "walls[0].sense is 7"),
    (scene(walls=[{"c": [0, 0, 100, 0], "move": 10}]), "walls[0].move is 10; Foundry's values are 0, 20"),
    (scene(walls=[{"c": [0, 0, 100, 0], "door": True}]), "expected a whole number at walls[0].door, found true"),
    (scene(tokens=[{"x": 0, "y": 0, "disposition": 5}]), "tokens[0].disposition is 5; Foundry's are -2, -1, 0 and 1"),
    (scene(tokens=[{"x": 0}]), "expected a number at tokens[0].y, found null"),
    (scene(tokens=[{"x": 0, "y": 0, "width": 0}]), "tokens[0] is 0x1 squares; a token is 0 to 64 squares"),
    (scene(flags={"sightline": {"blocked": [[1]]}}), "flags.sightline.blocked[0] must be a square [x, y]"),
    (b'{"grid": 100, "width": NaN, "height": 1}', "line 1, column 24: NaN is not a number JSON has"),
])
def test_bad_input_is_one_line_naming_the_field(doc: dict[str, Any] | bytes, expected: str,
                                                vtt_refusal: Callable[..., str]) -> None:
    assert expected in vtt_refusal(parse_foundry, doc)


def test_too_many_walls_is_one_line(vtt_refusal: Callable[..., str]) -> None:
    walls = [{"c": [0, 0, 100, 0]}] * 100_001
    assert "the scene has 100,001 walls, over Sightline's limit of 100,000" in vtt_refusal(parse_foundry, scene(walls=walls))
