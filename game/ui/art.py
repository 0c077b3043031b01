"""Tile art: the map's own tileset images, loaded once and cut, flipped and scaled per zoom.

The loader (``game.tiled``) hands over a plain :class:`~game.tiled.MapArt` (paths, source
rectangles, colour keys, gids with Tiled's flip bits); this module turns it into pygame surfaces
with pytmx's own image loader, :func:`pytmx.util_pygame.pygame_image_loader` (pytmx's one job in
Sightline, see docs/architecture.md): it opens each image file once, cuts a tile's rectangle,
applies Tiled's flip bits and the tileset's colour key and converts the surface for fast
blitting. Here a tile is then scaled on first use and cached per cell size (the last few zoom
levels are kept). pytmx's converter needs a pixel format: without a window (the PNG renderer) a
hidden 1x1 :class:`pygame.Window` provides one.

Any image that fails to load makes :attr:`TileArt.usable` false with a line in
:attr:`TileArt.warnings`; the painter then draws the vector style instead.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame
from pytmx.pytmx import TileFlags
from pytmx.util_pygame import pygame_image_loader

from game.tiled.files import system_words
from game.tiled.guard import MAX_IMAGE_PIXELS, image_size

if TYPE_CHECKING:
    from game.tiled import ArtLayer, MapArt

FLIP_H = 0x80000000  #: Tiled's horizontal flip bit
FLIP_V = 0x40000000  #: vertical flip bit
FLIP_D = 0x20000000  #: diagonal flip bit (swap x and y, applied first)
GID_MASK = 0x0FFFFFFF  #: the tile id without the flip bits and the hex rotation bit (0x10000000)
ZOOM_LEVELS_KEPT = 3

Placed = tuple[pygame.Surface, int, int]
#: pytmx's per-image loader: ``load(rect, flags) -> Surface``
Loader = Any
_FORMAT_WINDOW: list[pygame.Window] = []  # a hidden window that gives pytmx a pixel format


def pixel_budget_refusal(path: Path, budget: int = MAX_IMAGE_PIXELS) -> str | None:
    """Why an image is not decoded: its header says more than ``budget`` pixels (a small file
    can hold a 30000×30000 image; ``budget`` is what the map's images decoded before it left of
    :data:`MAX_IMAGE_PIXELS`); None when it may be loaded.

    (tests/test_files_robust.py builds such a PNG.)
    """
    size = image_size(path)
    if size is None:
        return None
    width, height = size
    if width * height <= budget:
        return None
    if budget < MAX_IMAGE_PIXELS:
        return (f"tileset image {path}: {width}×{height} pixels takes the map's images past the "
                f"{MAX_IMAGE_PIXELS // (1024 * 1024)}-megapixel budget they share; drawing the vector style "
                "(scale the images down or use fewer of them)")
    return (f"tileset image {path}: {width}×{height} pixels is over the {budget // (1024 * 1024)}-megapixel "
            "budget; drawing the vector style (scale the image down or split the tileset)")


def split_gid(raw: int) -> tuple[int, bool, bool, bool]:
    """A raw Tiled gid as ``(gid, flip_h, flip_v, flip_d)``.

    >>> split_gid(0x80000005)
    (5, True, False, False)
    """
    return raw & GID_MASK, bool(raw & FLIP_H), bool(raw & FLIP_V), bool(raw & FLIP_D)


def _ensure_pixel_format() -> None:
    """Give pytmx's surface converter a pixel format: the window's, or a hidden 1x1 window's."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return
    if not pygame.display.get_init():
        pygame.display.init()
    if not _FORMAT_WINDOW:
        window = pygame.Window(hidden=True, size=(1, 1))
        window.get_surface()
        _FORMAT_WINDOW.append(window)


class TileArt:
    """The pygame side of a map's art: source images, and tiles scaled for a cell size."""

    def __init__(self, art: MapArt) -> None:
        self.art = art
        self.warnings: list[str] = []
        self._images: dict[tuple[Path, str | None], Loader] = {}
        self._scaled: OrderedDict[float | tuple[float, float], dict[tuple[int, float], Placed | None]] = OrderedDict()
        self.usable = self._load_images()

    def _load_images(self) -> bool:
        keys = {(Path(tile.image), tile.colorkey) for tile in self.art.tiles.values()}
        if not keys or not self.art.layers:
            self.warnings.append("the map has no tile images; drawing the vector style")
            return False
        _ensure_pixel_format()
        spent = 0  # one budget for all the map's images (game.tiled.guard counts it first)
        for path, colorkey in sorted(keys, key=lambda k: (str(k[0]), k[1] or "")):
            refusal = pixel_budget_refusal(path, MAX_IMAGE_PIXELS - spent)
            if refusal:
                self.warnings.append(refusal)
                break
            size = image_size(path)
            spent += size[0] * size[1] if size else 0
            try:
                self._images[(path, colorkey)] = pygame_image_loader(str(path), colorkey)
            except OSError as exc:
                self.warnings.append(
                    f"tileset image {path} cannot be drawn ({system_words(exc)}); drawing the vector style"
                )
            except (pygame.error, ValueError):  # their texts ("Unsupported image format") say little
                self.warnings.append(
                    f"tileset image {path} cannot be drawn (it is damaged, or an image kind pygame "
                    "does not decode); drawing the vector style (save it again as PNG)"
                )
        return len(self._images) == len(keys)

    @property
    def background(self) -> tuple[int, int, int] | None:
        """The map's background colour, if it sets one."""
        text = getattr(self.art, "background", None)
        if not text:
            return None
        text = str(text).lstrip("#")
        if len(text) == 8:  # Tiled writes #AARRGGBB
            text = text[2:]
        try:
            value = int(text, 16)
        except ValueError:
            return None
        return (value >> 16) & 255, (value >> 8) & 255, value & 255

    def tile(self, raw_gid: int, cell: float, opacity: float = 1.0, height: float | None = None) -> Placed | None:
        """The tile for a raw gid at this cell size: ``(surface, dx, dy)``.

        ``dx, dy`` place the surface relative to the top-left pixel of the grid cell it sits in
        (tiles taller than a cell rise above it, as in Tiled; tileset offsets included).
        ``height``: the cell's height in pixels when it is not ``cell`` (a hex map's tile box,
        ``cell`` wide: the map's tile scales to that box, its bottom on the box's bottom).
        """
        level_key = cell if height is None else (cell, height)
        level = self._scaled.get(level_key)
        if level is None:
            level = self._scaled[level_key] = {}
            while len(self._scaled) > ZOOM_LEVELS_KEPT:
                self._scaled.popitem(last=False)
        key = (raw_gid, round(opacity, 3))
        if key not in level:
            level[key] = self._make(raw_gid, cell, opacity, cell if height is None else height)
        return level[key]

    def _make(self, raw_gid: int, cell: float, opacity: float, height: float) -> Placed | None:
        gid, flip_h, flip_v, flip_d = split_gid(raw_gid)
        info = self.art.tiles.get(gid)
        if info is None:
            return None
        load = self._images.get((Path(info.image), info.colorkey))
        if load is None:
            return None
        try:  # the reader clipped the rectangle to the image; pytmx cuts, flips and converts
            image = load(info.rect, TileFlags(flip_h, flip_v, flip_d))
        except (pygame.error, ValueError):
            return None
        sx = cell / max(1, self.art.tile_width)
        sy = height / max(1, self.art.tile_height)
        size = (max(1, math.ceil(image.get_width() * sx)), max(1, math.ceil(image.get_height() * sy)))
        image = _as_32bit(image)
        if size != image.get_size():
            if sx < 1 or sy < 1:
                image = pygame.transform.smoothscale(image, size)
            else:
                image = pygame.transform.scale(image, size)
        if opacity < 1:
            image.set_alpha(max(0, min(255, round(opacity * 255))))
        ox, oy = getattr(info, "offset", (0, 0)) or (0, 0)
        dx = round(ox * sx)
        dy = round(height + oy * sy) - image.get_height()
        return image, dx, dy

    def layers(self) -> Iterator[ArtLayer]:
        """The visible tile layers in draw order."""
        yield from self.art.layers

    def covered(self, width: int, height: int) -> np.ndarray:
        """Bool ``[y, x]``: cells holding a tile in at least one layer."""
        mask = np.zeros((height, width), dtype=bool)
        for layer in self.art.layers:
            gids = np.asarray(layer.gids)
            h, w = min(height, gids.shape[0]), min(width, gids.shape[1])
            mask[:h, :w] |= (gids[:h, :w] & GID_MASK) != 0
        return mask


def usable_tiles(art: MapArt | None, warnings: list[str]) -> TileArt | None:
    """The map's tile art when every image loads (None without art, or when one fails: the
    painters then draw the vector style); why not goes to ``warnings``."""
    if art is None:
        return None
    tiles = TileArt(art)
    warnings.extend(tiles.warnings)
    return tiles if tiles.usable else None


def _as_32bit(image: pygame.Surface) -> pygame.Surface:
    """A fresh 32-bit per-pixel-alpha copy (paletted and 24-bit PNGs included, no display needed)."""
    copy = pygame.Surface(image.get_size(), pygame.SRCALPHA, 32)
    copy.blit(image, (0, 0))
    return copy


def layer_offset(layer: Any) -> tuple[float, float]:
    """A layer's pixel offset (``offsetx``, ``offsety``) in map pixels."""
    offset = getattr(layer, "offset", (0, 0)) or (0, 0)
    return float(offset[0]), float(offset[1])
