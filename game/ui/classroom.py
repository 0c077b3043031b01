"""Classroom mode drawn (``sightline lessons --present``, ``F2`` in the window).

Made to be read from the back of a room on a 1920×1080 projector: the board fills most of the
window, the side panel shrinks to the lesson text in large type, and the verdict and the step
being explained are written on the board beside the ray. What is said comes from the presenter as
a :class:`~game.play.classroom.Lecture` (its state and words: ``game/play/classroom.py``);
:func:`draw_lecture` draws it with :func:`draw_column`, :func:`draw_callout` and :func:`draw_menu`,
each line's role a colour and its size a type size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from game.play.classroom import Lecture
from game.ui import theme
from game.ui.odds_chart import chart_font_path
from game.ui.text import wrap
from game.ui.view import View

#: the smallest type classroom mode draws, pixels (the verdict is larger)
MIN_TEXT = 28
COLUMN_BG = (24, 26, 32)
TEXT = (236, 238, 244)
MUTED = (170, 176, 190)
CLEAR = (110, 230, 130)
BLOCKED = (255, 110, 100)
PROMPT = (255, 214, 102)
NEUTRAL_RAY = (235, 235, 245)


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
    never covers a rectangle of ``avoid`` (the ray's squares first: the attacker's and the
    target's) when any place beside the anchor, or any corner or edge of the area, leaves them
    free (else it covers them the least, the first two weighing most). ``area`` is the board
    area less the coordinate labels: the card never covers a label.
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
        (area.centerx - width // 2, area.y), (area.centerx - width // 2, area.bottom - height),
        (area.x, area.centery - height // 2), (area.right - width, area.centery - height // 2),
    ]

    def placed(point: tuple[int, int]) -> pygame.Rect:
        x = max(area.x, min(point[0], area.right - width))
        y = max(area.y, min(point[1], area.bottom - height))
        return pygame.Rect(x, y, width, height)

    def covered(rect: pygame.Rect) -> int:
        return sum(rect.clip(other).w * rect.clip(other).h * (10 if i < 2 else 1) for i, other in enumerate(avoid))

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
    surface: pygame.Surface, names: Sequence[str], current: int, chosen: int, progress: str,
    results: Mapping[int, bool | None],
) -> None:
    """The lesson menu over the window: every board (its name and title) with its result mark,
    the chosen one lit; the type shrinks (not below 16 px) until the longest entry fits its column."""
    width, height = surface.get_size()
    shade = pygame.Surface((width, height), pygame.SRCALPHA)
    shade.fill((8, 10, 16, 235))
    surface.blit(shade, (0, 0))
    size = text_size(height)
    title = font(size + 8, bold=True)
    surface.blit(title.render("Lessons", True, PROMPT), (40, 24))
    hint = font(max(18, size * 2 // 3)).render(
        f"{progress}   ·   Up/Down, Enter opens, Esc closes", True, MUTED)
    surface.blit(hint, (40, 24 + title.get_linesize()))
    top = 40 + title.get_linesize() + hint.get_height()
    marks = {True: "  right", False: "  wrong", None: "  seen", "unseen": ""}
    texts = [f"{name}{marks[results.get(i, 'unseen')]}" + ("  (open)" if i == current else "")
             for i, name in enumerate(names)]
    for px in range(size, 15, -1):
        face = font(px)
        rows = max(1, (height - top - 20) // face.get_linesize())
        columns = max(1, -(-len(names) // rows))
        column_w = (width - 80) // columns
        if max((face.size(text)[0] for text in texts), default=0) <= column_w - 16:
            break
    for index, text in enumerate(texts):
        result = results.get(index, "unseen")
        colour = CLEAR if result is True else BLOCKED if result is False else TEXT
        label = face.render(text, True, colour)
        x = 40 + (index // rows) * column_w
        y = top + (index % rows) * face.get_linesize()
        if index == chosen:
            pygame.draw.rect(surface, (60, 70, 96), (x - 8, y, column_w - 8, face.get_linesize()))
        surface.blit(label, (x, y))


#: a line's role in a :class:`~game.play.classroom.Lecture` → its colour
ROLES = {"prompt": PROMPT, "muted": MUTED, "text": TEXT, "clear": CLEAR, "blocked": BLOCKED}


def _sized(lines: Sequence[tuple[str, str, str]], size: int) -> list[tuple[str, tuple[int, int, int], int]]:
    """A lecture's lines as (text, colour, pixels) at body size ``size``."""
    sizes = {"body": size, "small": max(20, size * 2 // 3), "big": size + 6, "bigger": size + 8}
    return [(text, ROLES[role], sizes[kind]) for text, role, kind in lines]


def draw_lecture(
    surface: pygame.Surface, view: View, column: pygame.Rect, lecture: Lecture, ray: Any,
    area: pygame.Rect | None = None,
) -> pygame.Rect | None:
    """Classroom mode: the neutral ray before the reveal, the card beside the ray, the lesson
    column on the right, the notice, the menu over all. Returns where the card was drawn.

    ``area`` is where cards may go: the board area less the coordinate labels (default: the
    whole board area)."""
    size = text_size(surface.get_height())
    area = pygame.Rect(view.viewport) if area is None else pygame.Rect(area)
    card = None
    if ray is not None:
        ends = [pygame.Rect(view.square_rect(square)) for square in (ray.origin, ray.target)]
        end = view.square_centre(ray.target)
        if lecture.neutral:
            pygame.draw.line(surface, NEUTRAL_RAY, view.square_centre(ray.origin), end, max(3, round(view.cell * 0.06)))
            card = draw_callout(surface, end, _sized(lecture.card, size), area, ends)
        else:
            anchor = end
            if lecture.anchor is not None:
                px, py = view.to_screen(*lecture.anchor)
                anchor = (round(px), round(py))
            avoid = [*ends, pygame.Rect(anchor[0] - 12, anchor[1] - 12, 24, 24)]
            card = draw_callout(surface, anchor, _sized(lecture.card, size), area, avoid)
    draw_column(surface, column, _sized(lecture.column, size))
    if lecture.notice is not None:
        draw_callout(surface, (area.x, area.bottom), [(lecture.notice, TEXT, size)], area)
    if lecture.menu:
        draw_menu(surface, lecture.menu, lecture.index, lecture.chosen, lecture.progress, dict(lecture.results))
    return card
