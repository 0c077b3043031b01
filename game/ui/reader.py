"""The reader: a large, scrollable, resizable panel over the board for what the side panel has
no room for: the whole log (``Shift+L``), the map check's findings (``I``) and the ray's whole
reasoning with exact values (``Shift+E``).

It docks along the bottom of the board area; drag its top edge to make it taller or shorter (up
to the whole board area). Every entry is shown whole, wrapped onto as many lines as it needs
(never cut with "…"). The wheel, ``Up``/``Down``, ``PageUp``/``PageDown``, ``Home``/``End``
scroll it; ``Esc`` (or its "close" button) closes it. The findings reader has severity filters
(``F4`` or its buttons: all, errors, warnings), and a click on a finding centres the board on it
(``F3`` / ``Shift+F3``: the next / previous finding). The log reader's "save" button (or
``Ctrl+L``) writes the whole log to a text file.

Pure drawing and hit-testing over plain data (entries of text and colour); what a click means
is the window's business (``game/ui/app.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.play.wording import plain
from game.ui.odds_chart import PanelFonts
from game.ui.panel import FindingsSection
from game.ui.text import wrap

BG = (20, 22, 28, 242)
BORDER = (120, 126, 140)
TITLE = (255, 214, 102)
TEXT = (230, 232, 240)
MUTED = (160, 166, 180)
SELECTED_BG = (60, 66, 84)
CHIP_ON = (92, 100, 128)
CHIP_OFF = (44, 48, 60)
#: severity → colour of a finding's text
SEVERITY_COLOURS = {"error": (255, 138, 128), "warning": (255, 214, 102)}
#: the severity filters, in the order F4 cycles them
FILTERS = ("all", "error", "warning")
#: the reader's height as a share of the board area: when opened, and its limits
DEFAULT_SHARE = 0.5
MIN_SHARE = 0.2
MAX_SHARE = 1.0
#: the band at the reader's top edge that can be dragged, in pixels at UI scale 1
HANDLE = 10


@dataclass(frozen=True)
class Entry:
    """One entry of the reader: its whole text, its colour and what a click on it means."""

    text: str
    colour: tuple[int, int, int] = TEXT
    payload: Any = None


@dataclass
class Reader:
    """State of the reader (which list, scroll, height, filter) and its last drawing's hit areas."""

    #: "log", "findings", "ray", or None (closed)
    kind: str | None = None
    #: the first line shown (0: the top)
    scroll: int = 0
    #: the reader's height as a share of the board area
    share: float = DEFAULT_SHARE
    #: the findings' severity filter (one of :data:`FILTERS`)
    severity: str = "all"
    #: the rectangle drawn last (None: not drawn), and what its parts are
    rect: pygame.Rect | None = None
    rows: list[tuple[pygame.Rect, int]] = field(default_factory=list)
    buttons: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    resizing: bool = False
    #: the title drawn last (tests read it)
    title: str = ""
    #: how many lines the last drawing had, and how many fit
    total_lines: int = 0
    page_lines: int = 1
    _fonts: PanelFonts = field(default_factory=PanelFonts)
    _lines: dict[tuple[int, str, tuple[int, int, int]], pygame.Surface] = field(default_factory=dict)
    _layout: tuple[Any, list[tuple[int, list[str]]]] | None = None

    @property
    def open(self) -> bool:
        """True while the reader is shown."""
        return self.kind is not None

    def toggle(self, kind: str) -> None:
        """Open the reader on ``kind`` (from the top), or close it when it already shows it."""
        if self.kind == kind:
            self.close()
            return
        self.kind = kind
        self.scroll = 0
        self._layout = None

    def close(self) -> None:
        """Close the reader."""
        self.kind = None
        self.rect = None
        self.rows = []
        self.buttons = []
        self.resizing = False

    def next_filter(self) -> str:
        """The next severity filter (all → errors → warnings → all); returns it."""
        self.severity = FILTERS[(FILTERS.index(self.severity) + 1) % len(FILTERS)]
        self.scroll = 0
        return self.severity

    def scroll_by(self, lines: int) -> None:
        """Scroll by ``lines`` (negative: up), kept within the text."""
        top = max(0, self.total_lines - self.page_lines)
        self.scroll = max(0, min(top, self.scroll + lines))

    def key(self, key: int) -> bool:
        """A key while the reader is open: True when it scrolled the reader (the window
        then does nothing else with it)."""
        page = max(1, self.page_lines - 1)
        moves = {
            pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -page, pygame.K_PAGEDOWN: page,
            pygame.K_HOME: -10**9, pygame.K_END: 10**9,
        }
        if key not in moves:
            return False
        self.scroll_by(moves[key])
        return True

    def show_entry(self, index: int) -> None:
        """Scroll so that entry ``index`` (as laid out last) is on the page."""
        if self._layout is None:
            return
        first = sum(len(lines) for i, lines in self._layout[1] if i < index)
        if first < self.scroll or first >= self.scroll + self.page_lines:
            self.scroll = first
            self.scroll_by(0)

    def area(self, board_area: pygame.Rect) -> pygame.Rect:
        """The reader's rectangle: the bottom ``share`` of the board area."""
        height = max(60, round(board_area.h * self.share))
        return pygame.Rect(board_area.x, board_area.bottom - height, board_area.w, height)

    def handle_at(self, pos: tuple[int, int]) -> bool:
        """True when ``pos`` is on the reader's top edge (drag it to resize)."""
        if self.rect is None:
            return False
        band = pygame.Rect(self.rect.x, self.rect.y - 4, self.rect.w, HANDLE + 4)
        return band.collidepoint(pos)

    def drag_to(self, y: int, board_area: pygame.Rect) -> None:
        """Resizing: the reader's top edge follows the mouse."""
        share = (board_area.bottom - y) / max(1, board_area.h)
        self.share = max(MIN_SHARE, min(MAX_SHARE, share))

    def click(self, pos: tuple[int, int]) -> tuple[str, Any] | None:
        """What a click at ``pos`` asks for: ("button", name), ("entry", index), ("inside", None)
        or None (outside the reader)."""
        if self.rect is None or not self.rect.collidepoint(pos):
            return None
        for rect, name in self.buttons:
            if rect.collidepoint(pos):
                return "button", name
        for rect, index in self.rows:
            if rect.collidepoint(pos):
                return "entry", index
        return "inside", None

    def font(self, size: int) -> pygame.font.Font:
        """The panel's typeface at ``size`` pixels (cached)."""
        return self._fonts(size)

    def draw(
        self,
        surface: pygame.Surface,
        board_area: pygame.Rect,
        scale: float,
        title: str,
        entries: Sequence[Entry],
        buttons: Sequence[tuple[str, str, bool]],
        selected: int | None = None,
        empty: str = "nothing to show",
    ) -> pygame.Rect:
        """Draw the reader over the bottom of ``board_area``: a title row with ``buttons``
        (name, caption, on), then every entry wrapped whole, scrolled (``empty`` when there is
        none). Returns its rectangle."""
        rect = self.area(board_area)
        self.rect = rect
        self.title = title
        size = max(12, round(15 * scale))
        font, small = self.font(size), self.font(max(11, round(13 * scale)))
        pad = max(8, round(10 * scale))
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        layer.fill(BG)
        pygame.draw.rect(layer, BORDER, layer.get_rect(), max(1, round(scale)))
        grip = pygame.Rect(rect.w // 2 - round(30 * scale), 3, round(60 * scale), max(3, round(4 * scale)))
        pygame.draw.rect(layer, MUTED, grip, border_radius=2)
        heading = font.render(title, True, TITLE)
        top = pad + grip.h
        layer.blit(heading, (pad, top))
        # buttons, right to left along the title row
        self.buttons = []
        x = rect.w - pad
        for name, caption, on in reversed(list(buttons)):
            label = small.render(caption, True, TEXT)
            chip = pygame.Rect(0, 0, label.get_width() + 2 * pad, max(label.get_height(), heading.get_height()) + 4)
            chip.topright = (x, top - 2)
            pygame.draw.rect(layer, CHIP_ON if on else CHIP_OFF, chip, border_radius=4)
            layer.blit(label, label.get_rect(center=chip.center))
            self.buttons.append((chip.move(rect.x, rect.y), name))
            x = chip.left - pad // 2
        body = pygame.Rect(pad, top + heading.get_height() + pad, rect.w - 2 * pad, 0)
        body.h = max(0, rect.h - body.y - pad)
        # the wrapped entries (cached per text and width)
        key = (tuple(entries), body.w, size)
        if self._layout is None or self._layout[0] != key:
            indent = font.size("    ")[0]
            laid = []
            for index, entry in enumerate(entries):
                lines = wrap(font, entry.text, body.w - indent)
                laid.append((index, [lines[0], *("    " + line for line in lines[1:])]))
            self._layout = (key, laid)
        laid_out = self._layout[1]
        pitch = font.get_linesize()
        self.page_lines = max(1, body.h // pitch)
        self.total_lines = sum(len(lines) for _, lines in laid_out)
        self.scroll_by(0)
        self.rows = []
        line = 0
        y = body.y
        for index, lines in laid_out:
            for text in lines:
                shown = line - self.scroll
                line += 1
                if shown < 0 or shown >= self.page_lines:
                    continue
                row = pygame.Rect(body.x, y, body.w, pitch)
                if index == selected:
                    pygame.draw.rect(layer, SELECTED_BG, row)
                layer.blit(self._line(font, size, text, entries[index].colour), (body.x, y))
                self.rows.append((row.move(rect.x, rect.y), index))
                y += pitch
        if not entries:
            layer.blit(font.render(empty, True, MUTED), (body.x, body.y))
        if self.total_lines > self.page_lines:  # a scroll bar: where the page is in the text
            track = pygame.Rect(rect.w - max(4, round(5 * scale)) - 2, body.y, max(4, round(5 * scale)), body.h)
            thumb_h = max(12, track.h * self.page_lines // self.total_lines)
            thumb_y = track.y + (track.h - thumb_h) * self.scroll // max(1, self.total_lines - self.page_lines)
            pygame.draw.rect(layer, CHIP_OFF, track, border_radius=2)
            pygame.draw.rect(layer, MUTED, (track.x, thumb_y, track.w, thumb_h), border_radius=2)
        surface.blit(layer, rect.topleft)
        return rect

    def _line(self, font: pygame.font.Font, size: int, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
        """One rendered line (cached: scrolling and redrawing never render a line twice)."""
        key = (size, text, colour)
        line = self._lines.get(key)
        if line is None:
            if len(self._lines) > 2000:
                self._lines.clear()
            line = self._lines[key] = font.render(text, True, colour)
        return line

    def visible_text(self) -> list[str]:
        """The lines shown by the last drawing, top to bottom (tests read it)."""
        if self._layout is None:
            return []
        lines = [text for _, block in self._layout[1] for text in block]
        return lines[self.scroll : self.scroll + self.page_lines]

    def entry_lines(self) -> list[list[str]]:
        """Each entry's wrapped lines as laid out last (tests read it)."""
        return [] if self._layout is None else [block for _, block in self._layout[1]]

    def draw_log(self, surface: pygame.Surface, area: pygame.Rect, scale: float, title: str,
                 lines: Sequence[str]) -> None:
        """The whole log (``lines``, newest first) with its Copy, Save and Close buttons."""
        buttons = [("copy", "Copy (Ctrl+C)", False), ("save", "Save to file (Ctrl+L)", False),
                   ("close", "Close (Esc)", False)]
        self.draw(surface, area, scale, title, [Entry(line) for line in lines], buttons,
                  empty="Nothing has happened yet.")

    def draw_ray(self, surface: pygame.Surface, area: pygame.Rect, scale: float, title: str,
                 lines: Sequence[str], cell: str = "square") -> None:
        """The ray's whole reasoning with exact values (``Shift+E``): its sentence, then every
        line the rule decided by (or every crossing of the centre line), each exactly; ``cell``:
        what one cell of the board is called (with no ray: what to click)."""
        self.draw(surface, area, scale, title, [Entry(line) for line in lines], [("close", "Close (Esc)", False)],
                  empty=f"No ray: select a figure or click a {cell}, then hover the ray's end.")

    def draw_findings(self, surface: pygame.Surface, area: pygame.Rect, scale: float, findings: Sequence[Any],
                      shown: Sequence[tuple[int, Any]], state: str | None, focused: Any) -> None:
        """The map check's findings the filter keeps (``shown``, numbered), the counts and the
        check's state in the title, the severity filters as buttons, the focused one lit."""
        entries = [Entry(plain(FindingsSection.full_text(f, n)), SEVERITY_COLOURS.get(severity_of(f), (230, 232, 240)))
                   for n, f in shown]
        counts = {sev: sum(1 for f in findings if severity_of(f) == sev) for sev in ("error", "warning")}
        words = FindingsSection.counts(findings) if findings else ("clean" if not state else "")
        title = f"Map check: {words}{' ' + state if state else ''}".replace(": ·", ":")
        buttons = [
            ("all", f"All ({len(findings)})", self.severity == "all"),
            ("error", f"Errors ({counts['error']})", self.severity == "error"),
            ("warning", f"Warnings ({counts['warning']})", self.severity == "warning"),
            ("close", "Close (Esc)", False),
        ]
        selected = next((i for i, (_, f) in enumerate(shown) if f == focused), None)
        empty = "No findings." if self.severity == "all" else f"No {self.severity}s (F4: the others)."
        self.draw(surface, area, scale, title, entries, buttons, selected, empty=empty)


def severity_of(finding: Any) -> str:
    """``error`` or ``warning`` (the value of a finding's severity)."""
    return str(getattr(finding.severity, "value", finding.severity))


def filtered(findings: Sequence[Any], severity: str) -> list[tuple[int, Any]]:
    """The findings kept by a severity filter, each with its number in the whole list (from 1)."""
    return [(n, f) for n, f in enumerate(findings, 1) if severity == "all" or severity_of(f) == severity]
