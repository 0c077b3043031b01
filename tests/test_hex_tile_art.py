"""Tile art on hex maps (issue #21, the window and ``render``): a hex map's tile layers are drawn at
Tiled's hex pixel layout (each tile's bottom-left on its cell's tile box, as Tiled's hexagonal
renderer does), under the same wash as a square map's art; a hex map without tile images keeps
the role colours. Real maps (the bundled hex demo and its tileset image), the real reader, real
pygame under the dummy driver; the expected colours come from the tileset PNG itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.core.hexgrid import HexLayout
from game.play.session import Session
from game.tiled import load_map
from game.ui import theme
from game.ui.app import App
from game.ui.render import margin, render_png

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "maps" / "hex-demo.tmx"
SIZES = [(1000, 650), (1280, 800), (2400, 1400)]


def _copy_demo(folder: Path) -> Path:
    (folder / "maps").mkdir()
    shutil.copytree(REPO / "maps" / "tiles", folder / "maps" / "tiles")
    shutil.copytree(REPO / "assets" / "tiles", folder / "assets" / "tiles")
    return Path(shutil.copy(DEMO, folder / "maps" / DEMO.name))


def _washed(colour: tuple[int, ...]) -> tuple[int, int, int]:
    """A colour under the art wash (theme.ART_WASH blended over it)."""
    a = theme.ART_WASH[3] / 255
    return tuple(round(c * (1 - a) + w * a) for c, w in zip(colour[:3], theme.ART_WASH[:3], strict=True))  # type: ignore[return-value]


def _tile_pixel(path: Path, cell: tuple[int, int], rel: tuple[float, float]) -> tuple[int, ...]:
    """The tileset image's pixel drawn at ``rel`` (map pixels from the tile box's top-left) of
    ``cell``'s tile."""
    loaded = load_map(path)
    art = loaded.art
    assert art is not None
    gid = int(art.layers[0].gids[cell[1]][cell[0]])
    info = art.tiles[gid]
    image = pygame.image.load(str(info.image))
    x, y, w, h = info.rect
    top = art.tile_height - h  # bottom-aligned in the tile box
    return tuple(image.get_at((x + int(rel[0]), y + int(rel[1] - top))))


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int) -> bool:
    return all(abs(int(p) - int(q)) <= tolerance for p, q in zip(a[:3], b[:3], strict=True))


#: (cell, a point of its tile box in map pixels, away from tokens, crosses and outlines):
#: rubble (gid 3), and the two floors (gids 1 and 2)
SAMPLES = [((0, 1), (14.0, 24.0)), ((2, 1), (14.0, 26.0)), ((0, 0), (14.0, 26.0)), ((10, 0), (40.0, 40.0))]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_window_draws_the_maps_hex_tiles_where_tiled_does(tmp_path: Path, size: tuple[int, int]) -> None:
    path = _copy_demo(tmp_path)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    app = App(Session.open(path, fresh=True), screen=screen, watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    assert app.painter.tiles is not None  # type: ignore[union-attr]
    lay = app.view.layout()
    box = HexLayout(round(lay.cell_w), round(lay.cell_h), round(lay.side))
    scale = lay.cell_w / 56  # the demo's tiles are 56 x 64
    grid = app.board.grid  # type: ignore[union-attr]
    colours = set()
    for cell, rel in SAMPLES:
        ox, oy = grid.cell_origin_px(cell, box)  # type: ignore[attr-defined]
        point = (round(lay.x0 + ox + rel[0] * scale), round(lay.y0 + oy + rel[1] * scale))
        assert app.view.square_at(*point) == cell
        want = _washed(_tile_pixel(path, cell, rel))
        got = tuple(app.screen.get_at(point))
        assert _near(got, want, 14), (cell, got, want)
        colours.add(want)
    assert len(colours) == 3  # rubble, and both floors, told apart as the tileset draws them


def test_render_draws_the_hex_tiles_pixel_for_pixel_at_the_maps_own_size(tmp_path: Path) -> None:
    path = _copy_demo(tmp_path)
    loaded = load_map(path)
    out = tmp_path / "demo.png"
    warnings = render_png(loaded.board, loaded.art, out, scale=56)  # one hex = one tile, unscaled
    assert not warnings
    picture = pygame.image.load(str(out))
    grid = loaded.board.grid
    m = margin(56)
    for cell, rel in SAMPLES:
        ox, oy = grid.cell_origin_px(cell, HexLayout(56, 64, 32))  # type: ignore[attr-defined]
        got = tuple(picture.get_at((m + ox + int(rel[0]), m + oy + int(rel[1]))))
        assert _near(got, _washed(_tile_pixel(path, cell, rel)), 2), cell


def test_a_hex_map_without_tile_images_keeps_its_role_colours(tmp_path: Path, screen: pygame.Surface) -> None:
    target = tmp_path / "roles.tmx"
    target.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="hexagonal" renderorder="right-down" '
        'width="3" height="2" tilewidth="56" tileheight="64" hexsidelength="32" staggeraxis="y" staggerindex="odd" '
        'infinite="0"><tileset firstgid="1" name="roles" tilewidth="56" tileheight="64" tilecount="2" columns="2">'
        '<tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile></tileset>'
        '<layer id="1" name="ground" width="3" height="2"><data encoding="csv">\n1,2,1,\n1,1,1\n</data></layer></map>\n',
        encoding="utf-8",
    )
    app = App(Session.open(target, fresh=True), screen=screen, watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    assert app.painter.tiles is None  # type: ignore[union-attr]
    assert app.board is not None and app.board.is_blocked_terrain((1, 0))
    cx, cy = app.view.square_centre((1, 0))
    _, _, _, h = app.view.square_rect((1, 0))
    assert _near(tuple(app.screen.get_at((cx, cy - h // 3))), theme.BLOCKED_FILL, 8)
