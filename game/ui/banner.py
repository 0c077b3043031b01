"""The red banner above the board: notices that stay until dismissed (a corrupt autosave set aside,
a map that no longer reads), wrapped onto as many lines as they need. The window lays the board
out below it (:meth:`Banner.height`), so it covers nothing."""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.odds_chart import chart_font_path
from game.ui.text import wrap

BANNER_BG = (120, 24, 24)
BANNER_TEXT = (255, 236, 236)


class Banner:
    """Draws the banner's text at a UI scale; keeps the band drawn last (text, width, surface)."""

    def __init__(self) -> None:
        self.band: tuple[str, int, pygame.Surface] | None = None
        #: where the banner was drawn last (None: no banner), for a click that dismisses it
        self.rect: pygame.Rect | None = None
        self._font: tuple[float, pygame.font.Font] | None = None

    def font(self, scale: float | None = None) -> pygame.font.Font:
        """The panel's typeface at a UI scale (None: the one drawn last; pygame's default font
        spaces the banner unevenly)."""
        if scale is None:
            scale = self._font[0] if self._font is not None else 1.0
        if self._font is None or self._font[0] != scale:
            path = chart_font_path()
            size = round(13 * scale) if path is not None else round(17 * scale)
            self._font = (scale, pygame.font.Font(path or theme.FONT_NAME, size))
            self.band = None
        return self._font[1]

    def _band(self, text: str, width: int, scale: float) -> pygame.Surface:
        """The banner's band for ``text`` at ``width`` pixels (made once per text and width)."""
        font = self.font(scale)
        if self.band is None or self.band[:2] != (text, width):
            lines = wrap(font, text, max(40, width - 24))
            line_h = font.get_linesize()
            band = pygame.Surface((width, line_h * len(lines) + 14))
            band.fill(BANNER_BG)
            for n, line in enumerate(lines):
                band.blit(font.render(line, True, BANNER_TEXT), (12, 7 + n * line_h))
            self.band = (text, width, band)
        return self.band[2]

    def height(self, text: str | None, width: int, scale: float) -> int:
        """How tall the banner is for ``text`` (0: no banner): the window keeps that much room
        above the board, so the banner covers no square and no coordinate label."""
        return 0 if text is None else self._band(text, max(1, width), scale).get_height()

    def draw(self, screen: pygame.Surface, area: tuple[int, int, int, int], text: str | None,
             scale: float) -> None:
        """The banner at the top left of ``area`` (the band above the board), as wide as it
        (nothing when ``text`` is None)."""
        self.rect = None
        if text is None:
            return
        x, y, w, _ = area
        band = self._band(text, max(1, w), scale)
        screen.blit(band, (x, y))
        self.rect = pygame.Rect(x, y, *band.get_size())
