"""The board's picture for a virtual tabletop: the floor as ``render`` draws it, without figures.

``sightline export`` embeds it in a Universal VTT file or writes it beside a Foundry scene. It is
exactly ``width × scale`` by ``height × scale`` pixels (no frame), so the tabletop's grid of
``scale`` pixels per square lies on the board's squares; figures are left out (tabletops draw
their own tokens). A virtual-tabletop map's picture stays under the board, without the drawn
lines ``render`` shows over it.

>>> from game.core.board import Board
>>> png = board_picture_png(Board.from_ascii(["..#", "..."]), None, 10)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", picture_size(png)
(True, (30, 20))
"""

from __future__ import annotations

import dataclasses
import io
import os
import struct
import sys
from typing import TYPE_CHECKING

import pygame

from game.core.board import Board
from game.tiled.vtt_records import VttArt
from game.ui.render import margin, render_surface

if TYPE_CHECKING:
    from game.tiled import MapArt


def board_picture_png(board: Board, art: MapArt | None, scale: int) -> bytes:
    """The board without its figures at ``scale`` pixels per square, as PNG bytes."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    bare = board.copy()
    for figure_id in list(bare.figures):
        bare.remove_figure(figure_id)
    if isinstance(art, VttArt):  # a virtual-tabletop map's own picture, without the drawing
        art = dataclasses.replace(art, drawing=())
    surface = render_surface(bare, art, scale=scale)
    m = margin(scale)
    floor = surface.subsurface((m, m, board.width * scale, board.height * scale))
    buffer = io.BytesIO()
    pygame.image.save(floor, buffer, "picture.png")
    return buffer.getvalue()


def picture_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


__all__ = ["board_picture_png", "picture_size"]
