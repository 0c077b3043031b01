"""The picture of ``sightline compare``: where two line-of-sight rules disagree.

Squares that only the first rule sees (from one square), or that are in more disagreeing pairs as
seen by the first rule, are tinted blue; the second rule's, orange; squares with both kinds,
purple. Counts are written on the squares in the all-pairs picture.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.core.board import Board, Square
from game.ui.render import save_png
from game.ui.report_images import HIGHLIGHT, TEXT, _font, _tint, _with_legend, board_surface

if TYPE_CHECKING:
    from game.tiled import MapArt

FIRST = (40, 110, 220)
SECOND = (235, 130, 20)
BOTH_RULES = (150, 60, 200)


def compare_png(
    board: Board,
    art: MapArt | None,
    first_only: np.ndarray,
    second_only: np.ndarray,
    out: str | Path,
    *,
    names: tuple[str, str],
    origin: Square | None = None,
    cell: int = 32,
    area: tuple[int, int, int, int] | None = None,
) -> Path:
    """Draw the board with per-square disagreement counts (``[y, x]`` int arrays) and a legend.

    ``first_only[y, x]``: how many pairs through that square only the first rule sees (from one
    square: 1 when only the first rule sees it); ``second_only`` the same for the second rule.
    ``area``: only the squares ``x0 <= x < x1``, ``y0 <= y < y1`` are drawn (default: all).
    """
    x0, y0, x1, y1 = area if area is not None else (0, 0, board.width, board.height)
    img = board_surface(board, art, cell, (x0, y0, x1, y1))
    font = _font(max(10, int(cell * 0.4)))
    crop_first, crop_second = first_only[y0:y1, x0:x1], second_only[y0:y1, x0:x1]
    for y, x in np.argwhere((crop_first != 0) | (crop_second != 0)):
        f, s = int(crop_first[y, x]), int(crop_second[y, x])
        colour = BOTH_RULES if f and s else FIRST if f else SECOND
        _tint(img, (int(x), int(y)), cell, colour, 170)
        if origin is None and cell >= 24:
            text = f"{f}" if f and not s else f"{s}" if s and not f else f"{f}/{s}"
            label = font.render(text, True, (255, 255, 255))
            img.blit(label, label.get_rect(center=(x * cell + cell // 2, y * cell + cell // 2)))
    if origin is not None:
        origin = (origin[0] - x0, origin[1] - y0)
    if origin is not None:
        pygame.draw.rect(img, HIGHLIGHT, (origin[0] * cell, origin[1] * cell, cell, cell), 3)
    out_img = _with_legend(img)
    if out_img.get_width() < 520:
        wider = pygame.Surface((520, out_img.get_height()))
        wider.fill(out_img.get_at((0, out_img.get_height() - 1)))
        wider.blit(out_img, (0, 0))
        out_img = wider
    small = _font(18)
    x = 10
    base = img.get_height() + 12
    for colour, text in ((FIRST, f"only {names[0]}"), (SECOND, f"only {names[1]}"), (BOTH_RULES, "both kinds")):
        pygame.draw.rect(out_img, colour, (x, base, 16, 16))
        label = small.render(text, True, TEXT)
        out_img.blit(label, (x + 22, base + 2))
        x += 22 + label.get_width() + 16
    return save_png(out_img, out)
