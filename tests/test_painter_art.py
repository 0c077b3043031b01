"""Tile art under the painter: tileset images, flips, opacity, tall tiles, broken images.

The ``MapArt`` here is the loader's real data type, built by hand so each case is exact; the
map-file route (``load_map`` → ``render``) is covered in ``tests/test_render.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame

from game.core.board import Board
from game.tiled import ArtLayer, MapArt, TileImage
from game.ui import theme
from game.ui.art import FLIP_D, FLIP_H, FLIP_V, TileArt
from game.ui.painter import BoardPainter, Overlay
from game.ui.view import View

DATA = Path(__file__).resolve().parent / "data" / "render"
TWO_TILES = DATA / "two-tiles.png"  # 32x16: tile 1 = red|blue halves, tile 2 = green|yellow
RED, BLUE, GREEN, YELLOW = (220, 30, 30), (30, 30, 220), (30, 200, 30), (230, 220, 30)


def muted(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour under the theme's art wash."""
    r, g, b, a = theme.ART_WASH
    k = a / 255
    return tuple(round(c * (1 - k) + w * k) for c, w in zip(colour, (r, g, b), strict=True))  # type: ignore[return-value]


def near(actual: pygame.Color, expected: tuple[int, int, int], tolerance: int = 4) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual[:3], expected, strict=True))


def two_tile_art(*layers: list[list[int]], opacity: float = 1.0, image: Path = TWO_TILES) -> MapArt:
    tiles = {1: TileImage(image, (0, 0, 16, 16)), 2: TileImage(image, (16, 0, 16, 16))}
    art_layers = tuple(
        ArtLayer(f"layer{i}", opacity if i else 1.0, (0.0, 0.0), np.array(gids, dtype=np.uint32))
        for i, gids in enumerate(layers)
    )
    return MapArt(16, 16, art_layers, tiles)


def paint(board: Board, art: MapArt, cell: float = 40) -> tuple[pygame.Surface, View, BoardPainter]:
    w, h = round(board.width * cell), round(board.height * cell)
    surface = pygame.Surface((w, h))
    view = View(cell=cell, origin=(0.0, 0.0), viewport=(0, 0, w, h))
    painter = BoardPainter(art)
    painter.draw(surface, board, view, Overlay())
    return surface, view, painter


def left_right(surface: pygame.Surface, view: View, sq: tuple[int, int]) -> tuple[pygame.Color, pygame.Color]:
    return (
        surface.get_at(view.pixel(sq[0] + 0.2, sq[1] + 0.3)),
        surface.get_at(view.pixel(sq[0] + 0.8, sq[1] + 0.3)),
    )


def test_tiles_come_from_the_tileset_image_muted_under_the_overlays() -> None:
    art = two_tile_art([[1, 2]])
    surface, view, painter = paint(Board(2, 1), art)
    assert painter.warnings == [] and painter.tiles is not None
    left, right = left_right(surface, view, (0, 0))
    assert near(left, muted(RED)) and near(right, muted(BLUE))
    left, right = left_right(surface, view, (1, 0))
    assert near(left, muted(GREEN)) and near(right, muted(YELLOW))


def test_flip_bits_mirror_and_transpose_tiles() -> None:
    art = two_tile_art([[1 | FLIP_H, 1 | FLIP_V, 1 | FLIP_D]])
    surface, view, _ = paint(Board(3, 1), art)
    left, right = left_right(surface, view, (0, 0))
    assert near(left, muted(BLUE)) and near(right, muted(RED))  # mirrored left-right
    left, right = left_right(surface, view, (1, 0))
    assert near(left, muted(RED)) and near(right, muted(BLUE))  # halves are left/right: unchanged
    top = surface.get_at(view.pixel(2.5, 0.2))
    bottom = surface.get_at(view.pixel(2.5, 0.8))
    assert near(top, muted(RED)) and near(bottom, muted(BLUE))  # transposed: halves on top/bottom


def test_layer_order_and_opacity() -> None:
    art = two_tile_art([[1, 1]], [[2, 0]], opacity=0.5)
    surface, view, _ = paint(Board(2, 1), art)
    left, _ = left_right(surface, view, (0, 0))
    half = tuple(round((r + g) / 2) for r, g in zip(RED, GREEN, strict=True))
    assert near(left, muted(half), tolerance=8)  # tile 2 at half opacity over tile 1
    left, _ = left_right(surface, view, (1, 0))
    assert near(left, muted(RED))


def test_void_squares_stay_dark_under_art() -> None:
    board = Board(2, 1, void=[(1, 0)])
    surface, view, _ = paint(board, two_tile_art([[1, 0]]))
    assert surface.get_at(view.square_centre((1, 0)))[:3] == theme.VOID


def test_a_tile_taller_than_a_cell_rises_above_it(tmp_path: Path) -> None:
    image = pygame.Surface((16, 32))
    image.fill(GREEN)
    image.fill(RED, (0, 0, 16, 16))  # the top half reaches into the cell above
    path = tmp_path / "tall.png"
    pygame.image.save(image, str(path))
    art = MapArt(16, 16, (ArtLayer("trees", 1.0, (0.0, 0.0), np.array([[0], [1]], np.uint32)),),
                 {1: TileImage(path, None)})
    surface, view, _ = paint(Board(1, 2), art)
    assert near(surface.get_at(view.square_centre((0, 0))), muted(RED))
    assert near(surface.get_at(view.square_centre((0, 1))), muted(GREEN))


def test_an_image_that_is_not_an_image_falls_back_to_the_vector_style_with_a_warning() -> None:
    art = two_tile_art([[1, 2]], image=DATA / "not-an-image.png")
    surface, view, painter = paint(Board(2, 1), art)
    assert painter.tiles is None
    assert len(painter.warnings) == 1 and "not-an-image.png" in painter.warnings[0]
    assert surface.get_at(view.square_centre((0, 0)))[:3] == theme.FLOOR_LIGHT


def test_scaled_tiles_are_cached_for_the_last_few_zoom_levels() -> None:
    tiles = TileArt(two_tile_art([[1]]))
    first = tiles.tile(1, 40.0)
    assert first is not None and tiles.tile(1, 40.0) is first
    assert first[0].get_size() == (40, 40)
    for cell in (10.0, 20.0, 30.0, 50.0):
        tiles.tile(1, cell)
    assert tiles.tile(1, 40.0) is not first  # evicted, rebuilt
