"""The window's line-of-sight rule drawn: the compare shading on the board, and a strip under the
board with the compare counts, the rule's badge and its parameter rows.

The choice itself (which rule, the rows, compare mode: ``K``, ``Shift+K``, ``J``, ``Shift+J``,
``I``/``U``/``H`` while the rows are shown, ``X``, ``Shift+X``) is the presenter's
:class:`~game.play.rule_choice.RuleChoice`; the frame (:class:`~game.play.frame.Frame`) says
what to show. The strip takes its own room below the board area (the window lays the board out
above it, :meth:`RulePanel.height`), so it covers no square, token or coordinate label; the ray's
sentence under any rule is the side panel's (the Line of sight box). The text is the panel's
typeface. This module remembers where each parameter row is, so that a click on a row flips it
(:meth:`RulePanel.row_at`). [INTERP] marks the values that are our reading of a game's rules,
with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pygame

from game.core.profiles import MEANING
from game.play.frame import Frame
from game.ui import classroom, theme
from game.ui.keys import chords
from game.ui.text import wrap
from game.ui.view import View

__all__ = ["RulePanel"]

_FIRST_ONLY = (80, 200, 255, 110)  # seen under the rule only
_SECOND_ONLY = (255, 120, 40, 110)  # seen under the compared rule only
_STRIP = (24, 28, 36)
_TEXT = (235, 235, 235)
_DIM = (170, 178, 192)
_MARK = (255, 200, 90)
_ROW_ON = (60, 70, 95)
#: a note's kind → its colour
_NOTE_COLOURS = {"text": _TEXT, "clear": theme.RULE_LINE_CLEAR, "blocked": theme.RULE_LINE_BLOCKED}
#: the parameter rows are laid out in this many columns
_COLUMNS = 3


def _font(scale: float) -> pygame.font.Font:
    """The panel's typeface at the strip's size (14 px at UI scale 1)."""
    return classroom.font(max(12, round(14 * scale)))


@dataclass
class RulePanel:
    """Draws the frame's rule: compare shading, and the strip of notes, badge and parameter rows."""

    rows: list[tuple[pygame.Rect, str]] = field(default_factory=list)

    def row_at(self, event: pygame.event.Event) -> str | None:
        """The parameter whose row a left click lands on (None: not a click on a row)."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, parameter in self.rows:
                if rect.collidepoint(event.pos):
                    return parameter
        return None

    def lines(self, frame: Frame, width: int, scale: float) -> list[tuple[str, tuple[int, ...], str]]:
        """The strip's text lines, wrapped to ``width``: (text, colour, what: note, hint, badge)."""
        font = _font(scale)
        room = max(40, width - 16)
        out: list[tuple[str, tuple[int, ...], str]] = []
        for text, kind in frame.notes:
            out += [(part, _NOTE_COLOURS.get(kind, _TEXT), "note") for part in wrap(font, text, room)]
        if frame.rule_rows:
            parameter, _, _, why = frame.rule_rows[frame.rule_row]
            hint = (f"{parameter}: {MEANING[parameter]}" + (f"  [INTERP] {why}" if why else "")
                    + f"   ({chords('rule_row_up')}/{chords('rule_row_down')} choose · {chords('rule_flip')} or a"
                    f" click flips · {chords('rule_parameters_hide')} hides)")
            out += [(part, _DIM, "hint") for part in wrap(font, hint, room)]
        if frame.rule_badge and frame.rule is not None:
            badge = (f"Rule: {frame.rule.spec()}   {chords('rule_next')} next · {chords('rule_of_map')} map's ·"
                     f" {chords('rule_parameters')} parameters · {chords('rule_compare')} compare ·"
                     f" {chords('rule_compare_with')} compare with · {chords('reader_ray')} exact")
            out += [(part, _TEXT, "badge") for part in wrap(font, badge, room)]
        return out

    def _row_lines(self, frame: Frame) -> int:
        return -(-len(frame.rule_rows) // _COLUMNS) if frame.rule_rows else 0

    def height(self, frame: Frame, width: int, scale: float) -> int:
        """The strip's height under the board for this frame (0: nothing to show)."""
        lines = len(self.lines(frame, width, scale)) + self._row_lines(frame)
        return lines * _font(scale).get_linesize() + 12 if lines else 0

    def draw(self, screen: pygame.Surface, view: View, frame: Frame, strip: pygame.Rect, scale: float = 1.0) -> None:
        """The compare shading over the board, then the strip (``strip``: under the board area):
        the compare counts, the parameter rows in columns with the chosen one's meaning, the badge."""
        if frame.compare is not None:
            clip = screen.get_clip()
            screen.set_clip(pygame.Rect(view.viewport))
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            for mask, tint in ((frame.compare[0], _FIRST_ONLY), (frame.compare[1], _SECOND_ONLY)):
                for y, x in zip(*np.nonzero(mask), strict=True):
                    shade.fill(tint, pygame.Rect(view.square_rect((int(x), int(y)))))
            screen.blit(shade, (0, 0))
            screen.set_clip(clip)
        self.rows = []
        if strip.h <= 0:
            return
        screen.fill(_STRIP, strip)
        font = _font(scale)
        pitch = font.get_linesize()
        x, y = strip.x + 8, strip.y + 6
        rows_drawn = False
        for text, colour, what in self.lines(frame, strip.w, scale):
            if what == "hint" and not rows_drawn:  # the rows stand above the chosen one's meaning
                y = self._draw_rows(screen, font, frame, pygame.Rect(x, y, strip.w - 16, pitch))
                rows_drawn = True
            screen.blit(font.render(text, True, colour), (x, y))
            y += pitch

    def _draw_rows(self, screen: pygame.Surface, font: pygame.font.Font, frame: Frame, first: pygame.Rect) -> int:
        """The parameter rows, column by column; returns the y under them."""
        per_column = self._row_lines(frame)
        width = first.w // _COLUMNS
        for i, (parameter, value, changed, why) in enumerate(frame.rule_rows):
            rect = pygame.Rect(first.x + (i // per_column) * width, first.y + (i % per_column) * first.h,
                               width - 6, first.h)
            if i == frame.rule_row:
                pygame.draw.rect(screen, _ROW_ON, rect)
            text = f"{'> ' if i == frame.rule_row else '  '}{parameter} = {value}{' (changed)' if changed else ''}"
            text += " *" if why else ""
            screen.blit(font.render(text, True, _MARK if why else _TEXT), (rect.x + 4, rect.y))
            self.rows.append((rect, parameter))
        return first.y + per_column * first.h

