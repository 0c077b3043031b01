"""Measuring over the board: the ruler (``M``) and the movement reach (``W``, digits set N).

The counting is :mod:`game.core.measure`; this module only keeps what is switched on and draws
it over the painted board: reach squares tinted with the steps each takes, the ruler's line with
its distance in a label, and the range ring (every square as far away as the measured one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from game.core import measure
from game.core.board import Board, Square
from game.rules.registry import counts_diagonals
from game.ui import classroom
from game.ui.view import View

REACH_TINT = (70, 160, 255, 70)
REACH_EDGE = (120, 190, 255)
RING = (255, 214, 102)
RULER = (255, 240, 200)
LABEL_BG = (16, 18, 24, 225)
LABEL_TEXT = (240, 242, 248)
#: reach steps when the figure has no ``move`` / ``speed`` / ``movement`` stat
DEFAULT_STEPS = 4


@dataclass
class Measuring:
    """What measuring shows now."""

    ruler: bool = False
    reach: bool = False
    #: None: the figure's move stat, else DEFAULT_STEPS
    steps: int | None = None

    def steps_for(self, stats: Mapping[str, object] | None) -> int:
        """How many steps the reach shows: the chosen number, else the figure's move stat.

        >>> Measuring().steps_for({"move": 3}), Measuring(steps=6).steps_for({"move": 3})
        (3, 6)
        >>> Measuring().steps_for(None)
        4
        """
        if self.steps is not None:
            return self.steps
        for key in ("move", "speed", "movement"):
            value = (stats or {}).get(key)
            if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
                return int(value)
        return DEFAULT_STEPS


def draw_reach(surface: pygame.Surface, view: View, found: dict[Square, int], scale: float) -> None:
    """Tint every reached square and write its step count when the squares are big enough."""
    x0, y0, x1, y1 = view.visible_cells()
    tint = pygame.Surface((1, 1), pygame.SRCALPHA)
    tint.fill(REACH_TINT)
    size = max(11, round(view.cell * 0.32))
    face = classroom.font(size) if view.cell >= 22 else None
    for (x, y), steps in found.items():
        if not (x0 <= x <= x1 and y0 <= y <= y1) or steps == 0:
            continue
        rect = pygame.Rect(view.square_rect((x, y)))
        surface.blit(pygame.transform.scale(tint, rect.size), rect.topleft)
        pygame.draw.rect(surface, REACH_EDGE, rect, 1)
        if face is not None:
            label = face.render(str(steps), True, LABEL_TEXT)
            surface.blit(label, (rect.x + 3, rect.y + 1))


def draw_ruler(
    surface: pygame.Surface, view: View, board: Board, start: Square, end: Square, scale: float
) -> str:
    """The ruler from ``start`` to ``end``: line, range ring, and a label; returns its sentence."""
    diagonal = counts_diagonals(board.ruleset)
    text = measure.distance_words(board, start, end, diagonal)
    radius = measure.orthogonal(start, end)
    width = max(2, round(view.cell * 0.04))
    for sq in measure.ring(board, start, radius):
        pygame.draw.rect(surface, RING, pygame.Rect(view.square_rect(sq)), width)
    if diagonal:
        for sq in measure.ring(board, start, measure.with_diagonals(start, end), diagonal=True):
            rect = pygame.Rect(view.square_rect(sq)).inflate(-2 * width - 2, -2 * width - 2)
            pygame.draw.rect(surface, RULER, rect, 1)
    a, b = view.square_centre(start), view.square_centre(end)
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
    return text
