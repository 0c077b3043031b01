"""The red banner over the top of the board: notices that stay until dismissed (a corrupt autosave
set aside, a map that no longer reads), wrapped onto as many lines as they need."""

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

    def draw(self, screen: pygame.Surface, viewport: tuple[int, int, int, int], text: str | None,
             scale: float) -> None:
        """The banner over the top of ``viewport`` (nothing when ``text`` is None)."""
        self.rect = None
        if text is None:
            return
        x, y, w, _ = viewport
        font = self.font(scale)
        if self.band is None or self.band[:2] != (text, w):
            lines = wrap(font, text, max(40, w - 24))
            line_h = font.get_linesize()
            band = pygame.Surface((w, line_h * len(lines) + 14))
            band.fill(BANNER_BG)
            for n, line in enumerate(lines):
                band.blit(font.render(line, True, BANNER_TEXT), (12, 7 + n * line_h))
            self.band = (text, w, band)
        screen.blit(self.band[2], (x, y))
        self.rect = pygame.Rect(x, y, *self.band[2].get_size())
