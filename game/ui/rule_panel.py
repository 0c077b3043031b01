"""The window's line-of-sight rule drawn: the compare shading, the sentences on the board, the
rule's badge and the parameter rows.

The choice itself (which rule, the rows, compare mode: ``K``, ``Shift+K``, ``J``, ``Shift+J``,
``I``/``U``/``H`` while the rows are shown, ``X``, ``Shift+X``) is the presenter's
:class:`~game.play.rule_choice.RuleChoice`; the frame (:class:`~game.play.frame.Frame`) says
what to show. This module draws it inside the board area and remembers where each parameter
row is, so that a click on a row flips it (:meth:`RulePanel.row_at`). [INTERP] marks the values
that are our reading of a game's rules, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pygame

from game.core.profiles import MEANING, PARAMETERS
from game.play.frame import Frame
from game.ui import theme
from game.ui.keys import chords
from game.ui.text import wrap
from game.ui.view import View

__all__ = ["RulePanel"]

_FIRST_ONLY = (80, 200, 255, 110)  # seen under the rule only
_SECOND_ONLY = (255, 120, 40, 110)  # seen under the compared rule only
_BOX = (24, 28, 36, 225)
_TEXT = (235, 235, 235)
_DIM = (160, 170, 185)
_MARK = (255, 200, 90)
#: a note's kind → its colour
_NOTE_COLOURS = {"text": _TEXT, "clear": theme.RULE_LINE_CLEAR, "blocked": theme.RULE_LINE_BLOCKED}


@dataclass
class RulePanel:
    """Draws the frame's rule: compare shading, notes, badge, parameter rows (their rectangles)."""

    rows: list[tuple[pygame.Rect, str]] = field(default_factory=list)

    def row_at(self, event: pygame.event.Event) -> str | None:
        """The parameter whose row a left click lands on (None: not a click on a row)."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, parameter in self.rows:
                if rect.collidepoint(event.pos):
                    return parameter
        return None

    def draw(self, screen: pygame.Surface, view: View, frame: Frame, scale: float = 1.0) -> None:
        """The compare shading, the notes (compare counts, a rule's sentence), the one-line rule
        badge and, when shown, the parameter rows; all inside the board area."""
        viewport = pygame.Rect(view.viewport)
        clip = screen.get_clip()
        screen.set_clip(viewport)
        try:
            if frame.compare is not None:
                shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
                for mask, colour in ((frame.compare[0], _FIRST_ONLY), (frame.compare[1], _SECOND_ONLY)):
                    for y, x in zip(*np.nonzero(mask), strict=True):
                        shade.fill(colour, pygame.Rect(view.square_rect((int(x), int(y)))))
                screen.blit(shade, (0, 0))
            font = pygame.font.Font(None, max(14, round(20 * scale)))
            lines = [(text, _NOTE_COLOURS[kind]) for text, kind in frame.notes if text]
            if lines:  # the compare count and the rule's sentence, on top
                _text_box(screen, font, lines, viewport.x + 6, viewport.y + 6, viewport.w - 12)
            self.rows = []
            bottom = viewport.bottom - 6
            if frame.rule_badge and frame.rule is not None:
                # the badge sits at the bottom of the board area, clear of the column numbers along
                # its top; with the default rule and nothing open it is not drawn (F1 lists the keys)
                badge = (f"Rule: {frame.rule.spec()}   {chords('rule_next')} next · {chords('rule_of_map')} map's ·"
                         f" {chords('rule_parameters')} parameters · {chords('rule_compare')} compare ·"
                         f" {chords('rule_compare_with')} compare with")
                bottom = _text_box(screen, font, [(badge, _TEXT)], viewport.x + 6, bottom, viewport.w - 12,
                                   above=True)
            if frame.rule_rows:  # the parameter rows stand on the badge
                self._draw_rows(screen, font, frame, viewport.x + 6, viewport.y + 6, bottom - 4)
        finally:
            screen.set_clip(clip)

    def _draw_rows(self, screen: pygame.Surface, font: pygame.font.Font, frame: Frame, x: int, top: int,
                   bottom: int) -> None:
        rows: list[tuple[str, str, tuple[int, int, int]]] = []
        for i, (parameter, value, changed, why) in enumerate(frame.rule_rows):
            mark = f"  [INTERP] {why}" if why else ""
            prefix = "> " if i == frame.rule_row else "  "
            text = f"{prefix}{parameter} = {value}{'  (changed)' if changed else ''}{mark}"
            rows.append((parameter, text, _MARK if why else _TEXT))
        line_h = font.get_linesize()
        hint = (f"{chords('rule_row_up')}/{chords('rule_row_down')} choose · {chords('rule_flip')} or a click"
                f" flips · {chords('rule_parameters_hide')} hides · " + MEANING[list(PARAMETERS)[frame.rule_row]])
        width = max(font.size(t)[0] for _, t, _ in rows)
        width = max(width, font.size(hint)[0]) + 16
        height = line_h * (len(rows) + 1) + 12
        y = max(top, bottom - height)
        box = pygame.Rect(x, y, width, height)
        surface = pygame.Surface(box.size, pygame.SRCALPHA)
        surface.fill(_BOX)
        screen.blit(surface, box.topleft)
        for i, (parameter, text, colour) in enumerate(rows):
            rect = pygame.Rect(x, y + 6 + i * line_h, width, line_h)
            if i == frame.rule_row:
                pygame.draw.rect(screen, (60, 70, 95), rect)
            screen.blit(font.render(text, True, colour), (x + 8, rect.y))
            self.rows.append((rect, parameter))
        screen.blit(font.render(hint, True, _DIM), (x + 8, y + 6 + len(rows) * line_h))


def _text_box(
    screen: pygame.Surface, font: pygame.font.Font, lines: list[tuple[str, tuple[int, int, int]]],
    x: int, y: int, max_width: int, above: bool = False,
) -> int:
    """Lines on a dark box at (x, y), each wrapped to ``max_width``; returns the y below the box
    (``above``: the box ends at ``y`` and the y above it is returned)."""
    wrapped = [(part, colour) for text, colour in lines if text for part in wrap(font, text, max_width - 16)]
    line_h = font.get_linesize()
    width = min(max_width, max(font.size(t)[0] for t, _ in wrapped) + 16)
    box = pygame.Surface((width, line_h * len(wrapped) + 8), pygame.SRCALPHA)
    box.fill(_BOX)
    if above:
        y -= box.get_height()
    screen.blit(box, (x, y))
    for i, (text, colour) in enumerate(wrapped):
        screen.blit(font.render(text, True, colour), (x + 8, y + 4 + i * line_h))
    return y if above else y + box.get_height()
