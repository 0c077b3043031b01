"""Classroom mode for the lessons (``sightline lessons --present``, ``F2`` in the window).

Made to be read from the back of a room on a 1920×1080 projector: the board fills most of the
window, the side panel shrinks to the lesson text in large type, and the verdict and the step
being explained are written on the board beside the ray. Each board starts with *predict, then
reveal*: the ray is drawn in a neutral colour, the class says "clear" or "blocked" (``Y`` /
``B`` record it), ``Enter`` reveals the engine's answer (``N`` / ``P`` reveal too, then step
along the ray). ``O`` opens the lesson menu with the progress so far.

The state (:class:`Classroom`) is plain data; :func:`draw_column`, :func:`draw_callout` and
:func:`draw_menu` draw it.

>>> room = Classroom(on=True)
>>> room.predict("clear"); room.reveal(0, "blocked"); room.results
{0: False}
>>> room.progress(3)
'1 of 3 boards revealed · the class was right on 0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from game.ui import theme
from game.ui.odds_chart import chart_font_path

#: the smallest type classroom mode draws, pixels (the verdict is larger)
MIN_TEXT = 28
COLUMN_BG = (24, 26, 32)
TEXT = (236, 238, 244)
MUTED = (170, 176, 190)
CLEAR = (110, 230, 130)
BLOCKED = (255, 110, 100)
PROMPT = (255, 214, 102)
NEUTRAL_RAY = (235, 235, 245)


@dataclass
class Classroom:
    """Whether classroom mode is on, the current board's prediction and every board's result."""

    on: bool = False
    revealed: bool = False
    prediction: str | None = None
    #: lesson index -> whether the class predicted right (revealed boards only)
    results: dict[int, bool | None] = field(default_factory=dict)
    menu: bool = False
    menu_index: int = 0

    def new_board(self) -> None:
        """Another board: hide its answer until revealed again."""
        self.revealed = False
        self.prediction = None

    def predict(self, verdict: str) -> None:
        """The class says ``clear`` or ``blocked`` (before the reveal; again to change it)."""
        if not self.revealed:
            self.prediction = verdict

    def reveal(self, index: int, actual: str) -> None:
        """Show the answer and remember how the class did on board ``index``."""
        if not self.revealed:
            self.revealed = True
            self.results[index] = None if self.prediction is None else self.prediction == actual

    def progress(self, total: int) -> str:
        """``5 of 37 boards revealed · the class was right on 4``."""
        right = sum(1 for ok in self.results.values() if ok)
        return f"{len(self.results)} of {total} boards revealed · the class was right on {right}"


def text_size(screen_height: int) -> int:
    """The body type size for a screen: 30 px at 1080 rows, never under :data:`MIN_TEXT`.

    >>> text_size(1080), text_size(720), text_size(2160)
    (30, 28, 60)
    """
    return max(MIN_TEXT, round(30 * screen_height / 1080))


_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """Noto Sans (the panel's face) at ``size`` px, cached."""
    key = (size, bold)
    found = _FONTS.get(key)
    if found is None:
        found = pygame.font.Font(chart_font_path() or theme.FONT_NAME, size)
        found.set_bold(bold)
        _FONTS[key] = found
    return found


def wrap(face: pygame.font.Font, text: str, width: int) -> list[str]:
    """Words wrapped to ``width`` pixels (a word longer than the width stands alone)."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and face.size(trial)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def draw_column(
    surface: pygame.Surface, rect: pygame.Rect, blocks: Sequence[tuple[str, tuple[int, int, int], int]]
) -> int:
    """The lesson text column: ``blocks`` of (text, colour, size), wrapped, top to bottom.

    Returns the height used (the rest stays empty). Text that does not fit is not drawn
    half-cut: the column stops at the last whole line.
    """
    surface.fill(COLUMN_BG, rect)
    pad = max(16, rect.w // 24)
    y = rect.y + pad
    for text, colour, size in blocks:
        face = font(size, bold=size > text_size(surface.get_height()))
        for line in wrap(face, text, rect.w - 2 * pad):
            height = face.get_linesize()
            if y + height > rect.bottom - pad:
                return y - rect.y
            surface.blit(face.render(line, True, colour), (rect.x + pad, y))
            y += height
        y += size // 2
    return y - rect.y


def draw_callout(
    surface: pygame.Surface,
    anchor: tuple[int, int],
    lines: Sequence[tuple[str, tuple[int, int, int], int]],
    area: pygame.Rect,
    avoid: Sequence[pygame.Rect] = (),
) -> pygame.Rect:
    """A dark card with ``lines`` beside ``anchor`` (a point on the board), kept inside ``area``.

    The card sits to the right of and below the anchor when there is room, else it flips; it
    never covers a rectangle of ``avoid`` (the ray's squares) when any place beside the anchor,
    or any corner of the area, leaves them free (else it covers them the least).
    """
    max_width = max(200, area.w * 2 // 5)
    rendered: list[pygame.Surface] = []
    for text, colour, size in lines:
        face = font(size, bold=size > text_size(surface.get_height()))
        for line in wrap(face, text, max_width):
            rendered.append(face.render(line, True, colour))
    pad = 12
    width = max((r.get_width() for r in rendered), default=0) + 2 * pad
    height = sum(r.get_height() for r in rendered) + 2 * pad
    ax, ay = anchor
    places = [
        (ax + 24, ay + 24), (ax - 24 - width, ay + 24), (ax + 24, ay - 24 - height),
        (ax - 24 - width, ay - 24 - height),
        (area.x, area.y), (area.right - width, area.y), (area.x, area.bottom - height),
        (area.right - width, area.bottom - height),
    ]

    def placed(point: tuple[int, int]) -> pygame.Rect:
        x = max(area.x, min(point[0], area.right - width))
        y = max(area.y, min(point[1], area.bottom - height))
        return pygame.Rect(x, y, width, height)

    def covered(rect: pygame.Rect) -> int:
        return sum(rect.clip(other).w * rect.clip(other).h for other in avoid)

    candidates = [placed(point) for point in places]
    card = next((c for c in candidates if covered(c) == 0), min(candidates, key=covered))
    x, y = card.topleft
    shade = pygame.Surface(card.size, pygame.SRCALPHA)
    shade.fill((12, 14, 20, 225))
    surface.blit(shade, card.topleft)
    pygame.draw.rect(surface, MUTED, card, 2)
    yy = y + pad
    for label in rendered:
        surface.blit(label, (x + pad, yy))
        yy += label.get_height()
    return card


def draw_menu(
    surface: pygame.Surface, names: Sequence[str], current: int, chosen: int, room: Classroom
) -> None:
    """The lesson menu over the window: every board with its result mark, the chosen one lit."""
    width, height = surface.get_size()
    shade = pygame.Surface((width, height), pygame.SRCALPHA)
    shade.fill((8, 10, 16, 235))
    surface.blit(shade, (0, 0))
    size = text_size(height)
    title = font(size + 8, bold=True)
    surface.blit(title.render("Lessons", True, PROMPT), (40, 24))
    hint = font(max(18, size * 2 // 3)).render(
        f"{room.progress(len(names))}   ·   Up/Down, Enter opens, Esc closes", True, MUTED)
    surface.blit(hint, (40, 24 + title.get_linesize()))
    face = font(size)
    top = 40 + title.get_linesize() + hint.get_height()
    rows = max(1, (height - top - 20) // face.get_linesize())
    columns = max(1, -(-len(names) // rows))
    column_w = (width - 80) // columns
    for index, name in enumerate(names):
        result = room.results.get(index, "unseen")
        mark = {True: "  right", False: "  wrong", None: "  seen", "unseen": ""}[result]
        colour = CLEAR if result is True else BLOCKED if result is False else TEXT
        text = f"{name}{mark}" + ("  (open)" if index == current else "")
        label = face.render(text, True, colour)
        x = 40 + (index // rows) * column_w
        y = top + (index % rows) * face.get_linesize()
        if index == chosen:
            pygame.draw.rect(surface, (60, 70, 96), (x - 8, y, column_w - 8, face.get_linesize()))
        surface.blit(label, (x, y))
