"""Headless rendering: a board and its overlays into an off-screen Surface or a PNG file.

Uses the window's own :class:`~game.ui.painter.BoardPainter`; needs no display (pygame surfaces,
fonts and PNG saving all work without a window). The picture is the board at ``scale`` pixels per
square with a small margin, and optionally a legend strip below it (title, the ray's explanation,
a colour key).

>>> from game.core.board import Board
>>> surface = render_surface(Board.from_ascii(["...", "..."]), scale=20)
>>> surface.get_size() == image_size(3, 2, 20)
True
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.core.board import Board
from game.core.errors import UsageError
from game.play.atomic import atomic_file, cannot_write
from game.ui import theme
from game.ui.map_picture import DRAWN_PORTAL, DRAWN_WALL
from game.ui.painter import BoardPainter, Overlay
from game.ui.text import wrap
from game.ui.view import View

if TYPE_CHECKING:
    from game.tiled import MapArt

#: the largest picture ``render`` writes, in pixels
MAX_PIXELS = 40_000_000
#: with a legend the picture is at least this wide (the board is centred above it)
LEGEND_MIN_WIDTH = 560

#: the colour key of the legend strip: (group, colour, words); groups are "ray", "fov" and
#: "drawing" (a virtual-tabletop map's walls the grid has elsewhere, game/ui/map_picture.py)
LEGEND_KEY: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("ray", theme.RAY_CLEAR, "clear ray"),
    ("ray", theme.RAY_BLOCKED, "blocked from here on"),
    ("ray", theme.CORNER_ONE_SIDE, "corner, one side closed"),
    ("ray", theme.CORNER_BOTH, "corner, both sides closed"),
    ("fov", theme.FOV_HIDDEN_SHADE, "not visible"),
    ("drawing", DRAWN_WALL, "wall as the file draws it"),
    ("drawing", DRAWN_PORTAL, "door or window as the file draws it"),
)


def margin(scale: int) -> int:
    """The frame around the board, in pixels, at a scale (walls on the border stay whole).

    >>> margin(48), margin(8)
    (12, 4)
    """
    return max(4, scale // 4)


def image_size(width: int, height: int, scale: int, legend_height: int = 0) -> tuple[int, int]:
    """The picture size of a ``width`` × ``height`` board at ``scale`` (plus a legend strip)."""
    m = margin(scale)
    return width * scale + 2 * m, height * scale + 2 * m + legend_height


def render_surface(
    board: Board,
    art: MapArt | None = None,
    *,
    scale: int = round(theme.CELL_DEFAULT),
    overlay: Overlay | None = None,
    legend: Sequence[str] = (),
    key: bool | Collection[str] = False,
    painter: BoardPainter | None = None,
) -> pygame.Surface:
    """The board drawn at ``scale`` px per square, with ``legend`` lines and a colour key below.

    Without a legend the picture is exactly :func:`image_size`; with one it is at least
    :data:`LEGEND_MIN_WIDTH` wide, the board centred horizontally above the strip.

    ``key`` is True for the whole colour key, or the groups to show (``{"ray", "fov"}``).
    """
    if not theme.CELL_MIN <= scale <= theme.CELL_MAX:
        raise UsageError(
            f"--scale must be between {theme.CELL_MIN:g} and {theme.CELL_MAX:g} pixels, not {scale}"
        )
    painter = painter or BoardPainter(art)
    if board.grid.kind == "hex":
        return _hex_surface(board, scale, overlay or Overlay(), legend, key, painter)
    board_w, board_h = image_size(board.width, board.height, scale)
    if board_w * board_h > MAX_PIXELS:
        raise UsageError(
            f"a {board.width}x{board.height} board at --scale {scale} is too big a picture "
            f"({board_w}x{board_h}); use a smaller --scale"
        )
    width = max(board_w, LEGEND_MIN_WIDTH) if (legend or key) else board_w
    strip = _legend_strip(painter, width, legend, key) if (legend or key) else None
    height = board_h + (strip.get_height() if strip is not None else 0)
    surface = pygame.Surface((width, height))
    surface.fill(theme.BACKGROUND)
    m = margin(scale)
    left = (width - board_w) // 2  # a small board sits centred above a wider legend
    view = View(
        cell=float(scale),
        origin=(float(left + m), float(m)),
        viewport=(left, 0, board_w, board_h),
        board_size=(board.width, board.height),
    )
    painter.draw(surface, board, view, overlay or Overlay())
    if strip is not None:
        surface.blit(strip, (0, board_h))
    return surface


def _hex_surface(
    board: Board, scale: int, overlay: Overlay, legend: Sequence[str], key: bool | Collection[str],
    painter: BoardPainter,
) -> pygame.Surface:
    """A hex board drawn with Tiled's pixel layout, one hex ``scale`` pixels wide
    (:mod:`game.ui.hex_painter`), the legend strip under it."""
    from game.core.hexgrid import HexGrid
    from game.ui.hex_painter import HexPicture, hex_layout

    assert isinstance(board.grid, HexGrid)
    m = margin(scale)
    picture = HexPicture(board, hex_layout(board.grid, scale, m), painter.tokens, painter.tiles)
    right, bottom = picture.size()
    board_w, board_h = right + m, bottom + m
    if board_w * board_h > MAX_PIXELS:
        raise UsageError(f"a {board.width}x{board.height} hex board at --scale {scale} is too big a picture "
                         f"({board_w}x{board_h}); use a smaller --scale")
    width = max(board_w, LEGEND_MIN_WIDTH) if (legend or key) else board_w
    strip = _legend_strip(painter, width, legend, key) if (legend or key) else None
    surface = pygame.Surface((width, board_h + (strip.get_height() if strip is not None else 0)))
    surface.fill(theme.BACKGROUND)
    board_surface = pygame.Surface((board_w, board_h))
    board_surface.fill(theme.BACKGROUND)
    picture.draw(board_surface, overlay)
    surface.blit(board_surface, ((width - board_w) // 2, 0))
    if strip is not None:
        surface.blit(strip, (0, board_h))
    return surface


def render_png(
    board: Board,
    art: MapArt | None,
    out_path: str | os.PathLike[str],
    *,
    scale: int = round(theme.CELL_DEFAULT),
    overlay: Overlay | None = None,
    legend: Sequence[str] = (),
    key: bool | Collection[str] = False,
) -> list[str]:
    """Draw the board into a PNG at ``out_path`` (written atomically); returns the painter's warnings."""
    painter = BoardPainter(art)
    surface = render_surface(
        board, art, scale=scale, overlay=overlay, legend=legend, key=key, painter=painter
    )
    save_png(surface, out_path)
    return list(painter.warnings)


def save_png(surface: pygame.Surface, out_path: str | os.PathLike[str]) -> Path:
    """Save a Surface as PNG atomically (:func:`game.play.atomic.atomic_file`); returns the path.

    The folder must exist. Anything that stops the write is one
    :class:`~game.play.atomic.OutputError` line (``cannot write PATH: reason``).
    """
    path = Path(out_path)
    with atomic_file(path) as handle:
        try:
            pygame.image.save(surface, handle, "image.png")
        except pygame.error as exc:
            raise cannot_write(path, str(exc)) from exc
    return path


def _legend_strip(
    painter: BoardPainter, width: int, legend: Sequence[str], key: bool | Collection[str]
) -> pygame.Surface:
    pad = theme.LEGEND_PADDING
    font = painter.tokens.font(theme.LEGEND_FONT_SIZE)
    small = painter.tokens.font(max(10, theme.LEGEND_FONT_SIZE - 4))
    rendered: list[pygame.Surface] = []
    for i, text in enumerate(legend):
        colour = theme.LEGEND_TEXT if i == 0 else theme.LEGEND_MUTED
        for line in wrap(font, text, width - 2 * pad):
            rendered.append(font.render(line, True, colour))
    key_rows: list[list[tuple[tuple[int, ...], pygame.Surface]]] = []
    if key:
        row: list[tuple[tuple[int, ...], pygame.Surface]] = []
        used = pad
        groups = {group for group, _, _ in LEGEND_KEY} if key is True else set(key or ())
        for group, swatch_colour, words in LEGEND_KEY:
            if group not in groups:
                continue
            label = small.render(words, True, theme.LEGEND_MUTED)
            need = 14 + 6 + label.get_width() + 16
            if row and used + need > width - pad:
                key_rows.append(row)
                row, used = [], pad
            row.append((swatch_colour, label))
            used += need
        if row:
            key_rows.append(row)
    line_h = font.get_linesize()
    key_h = small.get_linesize() + 4
    height = pad + len(rendered) * line_h + len(key_rows) * key_h + pad
    strip = pygame.Surface((width, height))
    strip.fill(theme.LEGEND_BACKGROUND)
    y = pad
    for surface in rendered:
        strip.blit(surface, (pad, y))
        y += line_h
    for row in key_rows:
        x = pad
        for swatch_colour, label in row:
            swatch = pygame.Rect(x, y + (key_h - 14) // 2, 14, 14)
            if len(swatch_colour) == 4:  # a translucent shade: show it over the floor colour
                strip.fill(theme.FLOOR_LIGHT, swatch)
                shade = pygame.Surface(swatch.size, pygame.SRCALPHA)
                shade.fill(swatch_colour)
                strip.blit(shade, swatch)
            else:
                strip.fill(swatch_colour[:3], swatch)
            strip.blit(label, (swatch.right + 6, y + (key_h - label.get_height()) // 2))
            x = swatch.right + 6 + label.get_width() + 16
        y += key_h
    return strip
