"""Measuring drawn over the board: the ruler (``M``) and the movement reach (``W``).

What is measured comes from the presenter (``game/play/measuring.py``, counting by
:mod:`game.core.measure`); this module draws it over the painted board: reach squares tinted with
the steps each takes, the ruler's line with its distance in a label, and the range ring (every
square as far away as the measured one).
"""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from game.core.board import Square
from game.play.measuring import Ruler
from game.ui import classroom
from game.ui.view import View

REACH_TINT = (70, 160, 255, 70)
REACH_EDGE = (120, 190, 255)
RING = (255, 214, 102)
RULER = (255, 240, 200)
LABEL_BG = (16, 18, 24, 225)
LABEL_TEXT = (240, 242, 248)


def draw_reach(surface: pygame.Surface, view: View, found: Mapping[Square, int], scale: float) -> None:
    """Tint every reached square and write its step count when the squares are big enough."""
    x0, y0, x1, y1 = view.visible_cells()
    tint = pygame.Surface((1, 1), pygame.SRCALPHA)
    tint.fill(REACH_TINT)
    size = max(11, round(view.cell * 0.32))
    face = classroom.font(size) if view.cell >= 22 else None
    if view.hexes is not None:
        _draw_hex_reach(surface, view, found, face)
        return
    for (x, y), steps in found.items():
        if not (x0 <= x <= x1 and y0 <= y <= y1) or steps == 0:
            continue
        rect = pygame.Rect(view.square_rect((x, y)))
        surface.blit(pygame.transform.scale(tint, rect.size), rect.topleft)
        pygame.draw.rect(surface, REACH_EDGE, rect, 1)
        if face is not None:
            label = face.render(str(steps), True, LABEL_TEXT)
            surface.blit(label, (rect.x + 3, rect.y + 1))


def _draw_hex_reach(surface: pygame.Surface, view: View, found: Mapping[Square, int],
                    face: pygame.font.Font | None) -> None:
    """The reach on a hex board: every reached hex tinted and outlined, its steps in its middle."""
    x, y, w, h = view.viewport
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    for cell, steps in found.items():
        if steps == 0:
            continue
        outline = [(px - x, py - y) for px, py in view.cell_polygon(cell)]
        pygame.draw.polygon(layer, REACH_TINT, outline)
        pygame.draw.polygon(layer, REACH_EDGE, outline, 1)
    surface.blit(layer, (x, y))
    if face is not None:
        for cell, steps in found.items():
            if steps:
                label = face.render(str(steps), True, LABEL_TEXT)
                surface.blit(label, label.get_rect(center=view.square_centre(cell)))


def draw_ruler(surface: pygame.Surface, view: View, ruler: Ruler, scale: float) -> None:
    """The ruler: its line, the range rings and a label with its sentence."""
    width = max(2, round(view.cell * 0.04))
    for sq in ruler.ring:
        if view.hexes is not None:
            pygame.draw.polygon(surface, RING, view.cell_polygon(sq), width)
            continue
        pygame.draw.rect(surface, RING, pygame.Rect(view.square_rect(sq)), width)
    for sq in ruler.diagonal_ring:
        rect = pygame.Rect(view.square_rect(sq)).inflate(-2 * width - 2, -2 * width - 2)
        pygame.draw.rect(surface, RULER, rect, 1)
    text = ruler.text
    a, b = view.square_centre(ruler.start), view.square_centre(ruler.end)
    pygame.draw.line(surface, RULER, a, b, width)
    for point in (a, b):
        pygame.draw.circle(surface, RULER, point, width + 2)
    face = classroom.font(max(14, round(15 * scale)))
    label = face.render(text, True, LABEL_TEXT)
    box = label.get_rect()
    box.inflate_ip(14, 8)
    box.topleft = (b[0] + 14, b[1] + 14)
    area = pygame.Rect(view.viewport)
    box.clamp_ip(area)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill(LABEL_BG)
    surface.blit(shade, box.topleft)
    surface.blit(label, (box.x + 7, box.y + 4))
