"""The balance report drawn over the board (``Shift+B``): zones, exposure, first strikes, legend.

It draws a :class:`~game.play.balance_view.BalanceShown` (the presenter's; it decides nothing):
each deployment zone outlined in its side's colour (:func:`game.ui.theme.side_colour`, as the
figures are), the zone squares seen from the other zone tinted orange with the number of
squares that see them (the report's exposure picture, :data:`game.ui.balance_images.SEEN`), each
side's first strike as a line in its colour from the square it attacks from to the square it
attacks, and the legend at the bottom of the board area. On a hex board the hexes are tinted
and the zones outlined along their hex sides (:mod:`game.ui.hex_balance`).
"""

from __future__ import annotations

import pygame

from game.play.balance_view import BalanceShown
from game.ui import classroom, theme
from game.ui.balance_images import SEEN
from game.ui.threat_overlay import draw_plate
from game.ui.view import View

TINT_ALPHA = 140


class BalanceOverlay:
    """Draws the balance overlay; remembers the legend as drawn (tests read it)."""

    def __init__(self) -> None:
        self.legend = ""
        self.legend_height = 0

    def draw_under(self, surface: pygame.Surface, view: View, shown: BalanceShown | None) -> None:
        """The exposed squares' tint and numbers, under the figures (the painter calls it)."""
        if shown is None:
            return
        old_clip = surface.get_clip()
        surface.set_clip(pygame.Rect(view.viewport))
        if view.hexes is not None:
            from game.ui.hex_balance import draw_hex_under

            draw_hex_under(surface, view, shown.watched, SEEN, TINT_ALPHA, classroom.font)
            surface.set_clip(old_clip)
            return
        tint = pygame.Surface((max(1, round(view.cell)), max(1, round(view.cell))), pygame.SRCALPHA)
        tint.fill((*SEEN, TINT_ALPHA))
        face = classroom.font(max(10, min(16, round(view.cell * 0.3))))
        for y, x in zip(*shown.watched.nonzero(), strict=True):
            rx, ry, rw, rh = view.square_rect((int(x), int(y)))
            surface.blit(pygame.transform.scale(tint, (rw, rh)), (rx, ry))
            if view.cell >= 24:
                label = face.render(str(int(shown.watched[y, x])), True, (255, 255, 255))
                spot = label.get_rect(bottomright=(rx + rw - 2, ry + rh - 1))
                surface.blit(face.render(str(int(shown.watched[y, x])), True, (0, 0, 0)), spot.move(1, 1))
                surface.blit(label, spot)
        surface.set_clip(old_clip)

    def draw_over(self, surface: pygame.Surface, view: View, shown: BalanceShown | None, scale: float) -> None:
        """The zones' outlines and the first-strike lines, over the figures."""
        if shown is None:
            return
        old_clip = surface.get_clip()
        surface.set_clip(pygame.Rect(view.viewport))
        sides = [side for side, _ in shown.zones]
        width = max(2, round(3 * scale))
        if view.hexes is not None:
            from game.ui.hex_balance import draw_hex_zones

            draw_hex_zones(surface, view, [(theme.side_colour(side, sides), cells) for side, cells in shown.zones], width)
        for side, squares in shown.zones if view.hexes is None else ():
            colour = theme.side_colour(side, sides)
            for x, y in squares:
                rx, ry, rw, rh = view.square_rect((x, y))
                for (dx, dy), (a, b) in (((0, -1), ((rx, ry), (rx + rw, ry))), ((0, 1), ((rx, ry + rh), (rx + rw, ry + rh))),
                                         ((-1, 0), ((rx, ry), (rx, ry + rh))), ((1, 0), ((rx + rw, ry), (rx + rw, ry + rh)))):
                    if (x + dx, y + dy) not in squares:
                        pygame.draw.line(surface, colour, a, b, width)
        for side, start, end in shown.strikes:
            colour = theme.side_colour(side, sides)
            a, b = view.square_centre(start), view.square_centre(end)
            pygame.draw.line(surface, colour, a, b, width)
            pygame.draw.circle(surface, colour, a, max(4, round(view.cell * 0.18)), width)
            pygame.draw.circle(surface, colour, b, max(3, round(view.cell * 0.1)))
        surface.set_clip(old_clip)

    def draw_legend(self, surface: pygame.Surface, view: View, shown: BalanceShown | None, scale: float,
                    above: int = 0) -> None:
        """The legend at the bottom left of the board area, ``above`` pixels up."""
        self.legend, self.legend_height = "", 0
        if shown is None:
            return
        self.legend_height = draw_plate(surface, view, [shown.legend], scale, above)
        self.legend = shown.legend
