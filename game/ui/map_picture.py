"""A virtual-tabletop map's picture under the board, and the drawing the off-grid policy moved over it.

A Universal VTT file carries its picture (base64, PNG/WebP/JPEG); a Foundry scene names a file
beside it. :class:`MapPicture` decodes it once (refusing, with a warning, a picture whose header
says more than the tile images' pixel budget; shrinking a very large one once), and the painter
asks it for the floor of a region of squares (:meth:`MapPicture.draw_floor`: the part of the
picture under the region, scaled to the cell size, muted like tile art) and for the drawn lines
on top (:meth:`MapPicture.draw_lines`: what the map maker drew where the board has it elsewhere,
magenta for walls, cyan for doors and windows; docs/vtt.md "Walls that are not on the grid").

The art comes from :func:`game.tiled.load_map` (:class:`~game.tiled.vtt_records.VttArt`); the
picture's box is in squares, so a picture that is shifted or not the board's size lies where the
tabletop draws it.

>>> from game.tiled.vtt_records import DrawnLine, VttArt
>>> art = VttArt(10, 10, (), {}, None, None, None, (DrawnLine("wall", ((0.5, 0.0), (1.5, 2.0))),))
>>> picture = MapPicture.of(art)
>>> picture is not None and picture.surface is None and len(picture.art.drawing)
1
"""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING

import pygame

from game.tiled.guard import header_size
from game.ui import theme
from game.ui.art import MAX_IMAGE_PIXELS, pixel_budget_refusal
from game.ui.view import View

if TYPE_CHECKING:
    from game.tiled import MapArt
    from game.tiled.vtt_records import VttArt

#: the drawing's colours: walls as drawn, and doors and windows as drawn
DRAWN_WALL = (230, 40, 200)
DRAWN_PORTAL = (40, 200, 230)
#: a decoded picture bigger than this many pixels is shrunk once (memory; the board is smaller)
KEEP_PIXELS = 16 * 1024 * 1024


class MapPicture:
    """The picture and drawing of one map (see the module docstring); ``warnings`` says why a
    picture is not drawn."""

    def __init__(self, art: VttArt) -> None:
        self.art = art
        self.warnings: list[str] = []
        self.surface: pygame.Surface | None = None
        self._decoded = False

    @staticmethod
    def of(art: MapArt | None) -> MapPicture | None:
        """The picture of a virtual-tabletop map's art; None for other art (or none). The VTT readers
        are not imported for it: art of theirs exists only once they are."""
        vtt = sys.modules.get("game.tiled.vtt_records")
        return MapPicture(art) if vtt is not None and isinstance(art, vtt.VttArt) else None

    def picture(self) -> pygame.Surface | None:
        """The decoded picture (once; None, with a warning, when it cannot be drawn)."""
        if not self._decoded:
            self._decoded = True
            try:
                self.surface = self._decode()
            except (pygame.error, OSError, ValueError, MemoryError) as exc:
                self.warnings.append(f"the map's picture cannot be drawn ({exc}); drawing the board without it")
        return self.surface

    def _decode(self) -> pygame.Surface | None:
        from game.tiled.vtt_scene import EmbeddedPicture, FilePicture

        source = self.art.picture
        if isinstance(source, FilePicture):
            if source.found is None:
                return None
            refusal = pixel_budget_refusal(source.found)
            if refusal:
                self.warnings.append(refusal.replace("tileset image", "picture"))
                return None
            image = pygame.image.load(str(source.found))
        elif isinstance(source, EmbeddedPicture):
            data = source.data()
            size = header_size(data[:64 * 1024]) or (source.width, source.height)
            if size[0] * size[1] > MAX_IMAGE_PIXELS:
                self.warnings.append(f"the map's picture is {size[0]}x{size[1]} pixels, over the "
                                     f"{MAX_IMAGE_PIXELS // 2**20}-megapixel budget; drawing the board without it")
                return None
            image = pygame.image.load(io.BytesIO(data), f"picture.{source.kind}")
        else:
            return None
        return _fit(image)

    def draw_floor(self, out: pygame.Surface, local: View, region: tuple[int, int, int, int]) -> bool:
        """Draw the picture under the squares of ``region`` (``out`` holds them, drawn through
        ``local``); False when there is no picture (the painter draws its own floor). The
        painter mutes it and darkens the void, as it does tile art."""
        image = self.picture()
        if image is None or self.art.picture_box is None:
            return False
        rx0, ry0, rx1, ry1 = region
        out.fill(theme.FLOOR_DARK)
        bx, by, bw, bh = self.art.picture_box
        x0, y0, x1, y1 = max(rx0, bx), max(ry0, by), min(rx1, bx + bw), min(ry1, by + bh)
        if x1 > x0 and y1 > y0 and bw > 0 and bh > 0:
            pw, ph = image.get_size()
            sx, sy = pw / bw, ph / bh
            src = pygame.Rect(round((x0 - bx) * sx), round((y0 - by) * sy), 0, 0)
            src.width = max(1, min(pw - src.x, round((x1 - bx) * sx) - src.x))
            src.height = max(1, min(ph - src.y, round((y1 - by) * sy) - src.y))
            left, top = local.pixel(x0, y0)
            right, bottom = local.pixel(x1, y1)
            size = (max(1, right - left), max(1, bottom - top))
            out.blit(_scaled(image.subsurface(src), size), (left, top))
        return True

    def draw_lines(self, out: pygame.Surface, local: View) -> None:
        """The drawn lines the board has elsewhere, over the decided walls (clipped by ``out``)."""
        width = max(1, round(local.cell / 16))
        dot = max(1, width)
        for line in self.art.drawing:
            colour = DRAWN_WALL if line.role == "wall" else DRAWN_PORTAL
            points = [local.pixel(x, y) for x, y in line.points]
            pygame.draw.lines(out, colour, False, points, width)
            if local.cell >= 24:  # the drawn vertices
                for point in points:
                    pygame.draw.circle(out, colour, point, dot + 1)


def _scaled(part: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """``part`` smoothly scaled to ``size``; a big reduction first drops pixels (nearest) to twice
    the size, which costs what the output costs instead of what the source costs (a 3000-pixel
    picture onto a 700-pixel board: about a quarter of the time), and looks the same.

    >>> _scaled(pygame.Surface((400, 300), 0, 32), (50, 40)).get_size()
    (50, 40)
    """
    w, h = part.get_size()
    if w > 3 * size[0] and h > 3 * size[1]:
        part = pygame.transform.scale(part, (2 * size[0], 2 * size[1]))
    return pygame.transform.smoothscale(part, size)


def _fit(image: pygame.Surface) -> pygame.Surface:
    """A decoded picture as a 32-bit surface smoothscale can read, shrunk once when huge."""
    if image.get_bitsize() not in (24, 32):
        full = pygame.Surface(image.get_size(), 0, 32)
        full.blit(image, (0, 0))
        image = full
    w, h = image.get_size()
    if w * h > KEEP_PIXELS:
        ratio = (KEEP_PIXELS / (w * h)) ** 0.5
        image = pygame.transform.smoothscale(image, (max(1, int(w * ratio)), max(1, int(h * ratio))))
    return image


__all__ = ["DRAWN_PORTAL", "DRAWN_WALL", "KEEP_PIXELS", "MapPicture"]
