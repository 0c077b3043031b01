"""The F1 overlay: every key and mouse action, generated from ``game/ui/keys.py``.

The lines come from :data:`game.ui.keys.KEY_BINDINGS` and :data:`game.ui.keys.MOUSE_ACTIONS`,
the very table the window's event handling uses, so the overlay cannot list a key that does
nothing or miss one that does something.

>>> rows = help_rows()
>>> ("Ctrl+Y / Ctrl+Shift+Z", "redo what was undone") in rows["History"]
True

A key that means something else in a state of the window (:data:`game.ui.keys.CONTEXTS`) is
listed twice: its contextual row says when, the plain one says when not.

>>> ("I", "while J shows the rule's parameters: select the parameter above") in rows["Line-of-sight rule"]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.core.words import in_cells
from game.ui import theme
from game.ui.keys import CONTEXTS, GROUPS, KEY_BINDINGS, MOUSE_ACTIONS, Binding, shadowed_by
from game.ui.odds_chart import chart_font_path
from game.ui.text import wrap

TITLE = "Sightline: keys and mouse"
FOOTER = "F1 or Esc closes this help"
BACKDROP = (8, 10, 16, 200)
CARD = (34, 37, 45)
CARD_BORDER = (90, 96, 110)
HEADING = (255, 214, 102)
KEY_TEXT = (150, 210, 255)
BODY_TEXT = (230, 230, 236)
MUTED_TEXT = (150, 152, 160)


def help_rows(noun: str = "square") -> dict[str, list[tuple[str, str]]]:
    """Group name → ``(keys or gesture, what it does)`` rows, in the table's order, said of the
    map's cells (``noun``: ``square`` or ``hex``; the table is written about squares).

    >>> ("Hover a hex", "draw the ray from the selected figure or start hex, explained") in help_rows("hex")["Figures and sight"]
    True
    """
    rows: dict[str, list[tuple[str, str]]] = {group: [] for group in GROUPS}
    for mouse in MOUSE_ACTIONS:
        rows.setdefault(mouse.group, []).append((in_cells(mouse.gesture, noun), in_cells(mouse.text, noun)))
    for binding in KEY_BINDINGS:
        rows.setdefault(binding.group, []).append((" / ".join(binding.keys), in_cells(row_text(binding), noun)))
    return {group: entries for group, entries in rows.items() if entries}


def row_text(binding: Binding) -> str:
    """What the help says a binding does, with the state it needs or the states it yields in."""
    if binding.when:
        return f"while {CONTEXTS[binding.when]}: {binding.text}"
    states = shadowed_by(binding)
    if states:
        return f"{binding.text} (not while {' or '.join(CONTEXTS[s] for s in states)})"
    return binding.text


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
    """Draws the help card centred over the window; the picture is cached per window size, page
    and :attr:`noun`. ``cell_noun`` says what the map's cells are called (the window's board:
    ``square`` or ``hex``), asked at each draw."""

    def __init__(self, cell_noun: Callable[[], str] = lambda: "square") -> None:
        self._cache: tuple[tuple[tuple[int, int], int, str], pygame.Surface] | None = None
        self._cell_noun = cell_noun
        self.noun = cell_noun()
        #: the page shown (a short window splits the card into pages; F1 turns them)
        self.page = 0
        self.pages = 1

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the window and draw the card of keys over it (the current page of it)."""
        size = surface.get_size()
        self.noun = self._cell_noun()
        if self._cache is None or self._cache[0] != (size, self.page, self.noun):
            self._cache = ((size, self.page, self.noun), self._render(size))
        surface.blit(self._cache[1], (0, 0))

    def next_page(self) -> bool:
        """Turn to the next page; False when this was the last one (F1 then closes the help)."""
        if self.page + 1 < self.pages:
            self.page += 1
            return True
        self.page = 0
        return False

    def _choose(self, width: int, height: int) -> tuple[_Plan, int]:
        """The largest type whose columns fit the window; when none do, 13-px type on pages.
        Returns the plan and how many columns a page shows."""
        groups = list(help_rows(self.noun).items())
        for font_size in (19, 18, 17, 16, 15, 14, 13):
            for columns in (2, 3, 4) if width >= 900 else (1, 2):
                plan = _plan(groups, font_size, columns, width, height)
                if plan.card_h <= height - 60 and plan.full_w <= width - 60:
                    return plan, columns
        columns = 3 if width >= 900 else 2
        return _plan(groups, 13, columns, width, height, pages=True), columns

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        width, height = size
        out = pygame.Surface(size, pygame.SRCALPHA)
        out.fill(BACKDROP)
        plan, columns = self._choose(width, height)
        self.pages = max(1, -(-len(plan.per_column) // columns))
        self.page = min(self.page, self.pages - 1)
        shown = plan.per_column[self.page * columns:(self.page + 1) * columns]
        body, bold, title_font, line_h = plan.body, plan.bold, plan.title_font, plan.line_h
        card_w = min(width - 60, len(shown) * plan.col_w + (len(shown) + 1) * 24)
        card_w = max(card_w, min(width - 60, columns * plan.col_w + (columns + 1) * 24)) if self.pages > 1 else card_w
        card = pygame.Rect(0, 0, card_w, min(height - 60, plan.card_h))
        card.center = (width // 2, height // 2)
        pygame.draw.rect(out, CARD, card, border_radius=10)
        pygame.draw.rect(out, CARD_BORDER, card, width=2, border_radius=10)
        title = title_font.render(TITLE, True, BODY_TEXT)
        out.blit(title, (card.x + 24, card.y + 18))
        words = FOOTER if self.pages == 1 else (
            f"page {self.page + 1} of {self.pages}: F1 turns the page, Esc closes")
        footer = body.render(words, True, MUTED_TEXT)
        out.blit(footer, (card.right - footer.get_width() - 24, card.y + 26))
        for col, entries_of_col in enumerate(shown):
            x = card.x + 24 + col * (plan.col_w + 24)
            y = card.y + 70
            for group, rows in entries_of_col:
                out.blit(bold.render(group, True, HEADING), (x, y))
                y += line_h + 4
                for keys, lines in rows:
                    for n, part in enumerate(keys):
                        out.blit(body.render(part, True, KEY_TEXT), (x, y + n * line_h))
                    for n, line in enumerate(lines):
                        out.blit(body.render(line, True, BODY_TEXT), (x + plan.key_w, y + n * line_h))
                    y += max(len(keys), len(lines)) * line_h
                y += line_h // 2
        return out


class _Plan:
    """One layout of the help card: fonts, columns and the wrapped rows."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)
        self.body: pygame.font.Font
        self.bold: pygame.font.Font
        self.title_font: pygame.font.Font
        self.line_h: int
        self.card_w: int
        self.card_h: int
        self.full_w: int
        self.col_w: int
        self.key_w: int
        self.per_column: list[list[tuple[str, list[tuple[list[str], list[str]]]]]]


def _face(size: int) -> pygame.font.Font:
    """Noto Sans, the panel's typeface (pygame's default font spaces letters unevenly: "at tack")."""
    return pygame.font.Font(chart_font_path() or theme.FONT_NAME, size)


def _plan(
    groups: list[tuple[str, list[tuple[str, str]]]], font_size: int, columns: int, width: int,
    height: int = 10_000,
    pages: bool = False,
) -> _Plan:
    """Lay the rows out in ``columns`` columns filled top to bottom (a group may continue in the
    next column, its heading repeated); ``card_h`` says how tall the card must be."""
    body = _face(font_size)
    bold = _face(font_size + 2)
    bold.set_bold(True)
    title_font = _face(font_size + 10)
    line_h = body.get_linesize() + 2
    key_cap = body.size("Ctrl+Shift+Z  ")[0]  # longer gestures wrap inside the key column
    key_w = min(key_cap, max(body.size(k)[0] for _, entries in groups for k, _ in entries)) + 16
    widest = max(body.size(t)[0] for _, entries in groups for _, t in entries)
    room = (width - 60 - (columns + 1) * 24) // columns - key_w  # what the window leaves
    text_w = max(100, min(420, widest, room))
    col_w = key_w + text_w
    limit = max(line_h * 4, height - 60 - 82)  # the card's room below its title
    per_column: list[list[tuple[str, list[tuple[list[str], list[str]]]]]] = [[]]
    used = [0]
    for group, entries in groups:
        rows = [(wrap(body, keys, key_w - 12), wrap(body, text, text_w)) for keys, text in entries]
        heading_h = line_h + 4
        current: list[tuple[list[str], list[str]]] = []
        for row in rows:
            row_h = max(len(row[0]), len(row[1])) * line_h
            extra = row_h + (heading_h if not current else 0)
            if used[-1] + extra > limit and (used[-1] > 0):
                if current:
                    per_column[-1].append((group, current))
                per_column.append([])
                used.append(0)
                current = []
                extra = row_h + heading_h
            current.append(row)
            used[-1] += extra
        if current:
            per_column[-1].append((group, current))
            used[-1] += line_h // 2
    needed = max(used)
    count = len(per_column)
    return _Plan(
        body=body, bold=bold, title_font=title_font, line_h=line_h,
        card_w=min(width - 60, count * col_w + (count + 1) * 24),
        card_h=70 + needed + 12 if count <= columns or pages else 10**6,
        full_w=count * col_w + (count + 1) * 24, col_w=col_w, key_w=key_w, per_column=per_column,
    )


