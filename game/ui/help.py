"""The F1 overlay: every key and mouse action, generated from ``game/ui/keys.py``.

The lines come from :data:`game.ui.keys.KEY_BINDINGS` and :data:`game.ui.keys.MOUSE_ACTIONS`,
the very table the window's event handling uses, so the overlay cannot list a key that does
nothing or miss one that does something.

>>> rows = help_rows()
>>> ("Ctrl+Y / Ctrl+Shift+Z", "redo what was undone") in rows["History"]
True
"""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.keys import GROUPS, KEY_BINDINGS, MOUSE_ACTIONS

TITLE = "Sightline: keys and mouse"
FOOTER = "F1 or Esc closes this help"
BACKDROP = (8, 10, 16, 200)
CARD = (34, 37, 45)
CARD_BORDER = (90, 96, 110)
HEADING = (255, 214, 102)
KEY_TEXT = (150, 210, 255)
BODY_TEXT = (230, 230, 236)
MUTED_TEXT = (150, 152, 160)


def help_rows() -> dict[str, list[tuple[str, str]]]:
    """Group name → ``(keys or gesture, what it does)`` rows, in the table's order."""
    rows: dict[str, list[tuple[str, str]]] = {group: [] for group in GROUPS}
    for mouse in MOUSE_ACTIONS:
        rows.setdefault(mouse.group, []).append((mouse.gesture, mouse.text))
    for binding in KEY_BINDINGS:
        rows.setdefault(binding.group, []).append((" / ".join(binding.keys), binding.text))
    return {group: entries for group, entries in rows.items() if entries}


def help_text() -> str:
    """The overlay as plain text (for ``docs/window.md`` and tests).

    >>> "F1" in help_text() and "Drag a figure" in help_text()
    True
    """
    lines = [TITLE, ""]
    for group, entries in help_rows().items():
        lines.append(group)
        lines.extend(f"  {keys:24s} {text}" for keys, text in entries)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


class HelpOverlay:
    """Draws the help card centred over the window; the picture is cached per window size."""

    def __init__(self) -> None:
        self._cache: tuple[tuple[int, int], pygame.Surface] | None = None

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the window and draw the card of keys over it."""
        size = surface.get_size()
        if self._cache is None or self._cache[0] != size:
            self._cache = (size, self._render(size))
        surface.blit(self._cache[1], (0, 0))

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        width, height = size
        out = pygame.Surface(size, pygame.SRCALPHA)
        out.fill(BACKDROP)
        rows = help_rows()
        groups = list(rows.items())
        font_size = 19 if height >= 760 else 17 if height >= 640 else 14
        body = pygame.font.Font(theme.FONT_NAME, font_size)
        bold = pygame.font.Font(theme.FONT_NAME, font_size + 2)
        bold.set_bold(True)
        title_font = pygame.font.Font(theme.FONT_NAME, font_size + 10)
        line_h = body.get_linesize() + 2
        columns = 2 if width >= 900 else 1
        per_column: list[list[tuple[str, list[tuple[str, str]]]]] = [[] for _ in range(columns)]
        counts = [0] * columns
        for group, entries in groups:
            col = counts.index(min(counts))
            per_column[col].append((group, entries))
            counts[col] += len(entries) + 2
        key_w = max(body.size(k)[0] for _, entries in groups for k, _ in entries) + 16
        widest = max(body.size(t)[0] for _, entries in groups for _, t in entries)
        room = (width - 20 - (columns + 1) * 24) // columns - key_w  # what the window leaves
        text_w = max(120, min(420, widest, room))
        col_w = key_w + text_w
        card_w = min(width - 20, columns * col_w + (columns + 1) * 24)
        wrapped = {
            group: [(keys, _wrap(body, text, text_w)) for keys, text in entries]
            for group, entries in groups
        }
        needed = max(
            sum(
                line_h + 4 + sum(len(lines) for _, lines in wrapped[group]) * line_h + line_h // 2
                for group, _ in column
            )
            for column in per_column
        )
        card_h = min(height - 20, 70 + needed + 12)
        card = pygame.Rect(0, 0, card_w, card_h)
        card.center = (width // 2, height // 2)
        pygame.draw.rect(out, CARD, card, border_radius=10)
        pygame.draw.rect(out, CARD_BORDER, card, width=2, border_radius=10)
        title = title_font.render(TITLE, True, BODY_TEXT)
        out.blit(title, (card.x + 24, card.y + 18))
        footer = body.render(FOOTER, True, MUTED_TEXT)
        out.blit(footer, (card.right - footer.get_width() - 24, card.y + 26))
        for col, entries_of_col in enumerate(per_column):
            x = card.x + 24 + col * (col_w + 24)
            y = card.y + 70
            for group, _ in entries_of_col:
                out.blit(bold.render(group, True, HEADING), (x, y))
                y += line_h + 4
                for keys, lines in wrapped[group]:
                    out.blit(body.render(keys, True, KEY_TEXT), (x, y))
                    for line in lines:
                        out.blit(body.render(line, True, BODY_TEXT), (x + key_w, y))
                        y += line_h
                y += line_h // 2
        return out


def _wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` pixels (a word longer than that is cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if font.size(candidate)[0] <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return lines
