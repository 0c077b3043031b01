"""The side panel (pygame_gui): stacked sections, each refreshed from one :class:`PanelInfo`.

Sections, top to bottom: the map, the selected figure, the status line (the ray's explanation,
lesson steps, errors), the attack panel (``game/ui/attack_panel.py``, added by the window), the
linter's findings (click one to centre the board on it) and the log.
A later panel (attacks, dice tray) is one more :class:`Section`: write a class with ``build``,
``refresh`` and ``process_event`` and pass it to :meth:`SidePanel.add_section`.

Sections only touch pygame_gui when their text changes, so hovering square after square costs
one text-box update per change and nothing on frames where nothing changed.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UISelectionList, UITextBox

from game.findings import Finding

PANEL_WIDTH = 320
HEADING_HEIGHT = 22
PADDING = 6

#: status kinds → colour of the status text
STATUS_COLOURS = {
    "info": "#E6E6EA",
    "clear": "#7BE39A",
    "blocked": "#FF8A80",
    "error": "#FF6E6E",
    "lesson": "#8FE3FF",
}


@dataclass
class PanelInfo:
    """Everything the panel shows, gathered by the window once per frame (cheap values)."""

    title: str = ""
    subtitle: str = ""
    figure: Sequence[str] = ()
    status: str = ""
    status_kind: str = "info"
    findings: Sequence[Finding] = ()
    log: Sequence[str] = ()
    log_serial: int = 0  #: grows with every log line: the log box redraws only when it changes
    extra: dict[str, Any] = field(default_factory=dict)  #: for sections added later


@dataclass(frozen=True)
class CentreOn:
    """A panel request: centre the board on this finding's square."""

    finding: Finding


class Section(Protocol):
    """One block of the side panel."""

    title: str
    #: fixed height in pixels, or None to share the remaining height by ``flex``
    fixed_height: int | None
    flex: int

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """Create the section's elements inside ``rect`` (container coordinates)."""

    def refresh(self, info: PanelInfo) -> bool:
        """Show ``info`` (only touch the elements when the text changed); True if it did."""

    def process_event(self, event: pygame.event.Event) -> object | None:
        """A pygame_gui event: return a request for the window (e.g. :class:`CentreOn`) or None."""


def escape(text: str) -> str:
    """Text made safe for a pygame_gui text box (which reads a little HTML).

    >>> escape("move Rook (1,1) -> (2,2) & <b>")
    'move Rook (1,1) -&gt; (2,2) &amp; &lt;b&gt;'
    """
    return html.escape(text, quote=False)


class _TextSection:
    """A heading and a wrapping text box."""

    def __init__(self, title: str, fixed_height: int | None, flex: int = 0) -> None:
        self.title = title
        self.fixed_height = fixed_height
        self.flex = flex
        self.box: UITextBox | None = None
        self._shown: str | None = None

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """A heading label over a text box filling the rest of ``rect``."""
        UILabel(
            pygame.Rect(rect.x, rect.y, rect.w, HEADING_HEIGHT),
            self.title,
            manager,
            container=container,
            object_id="#section_heading",
        )
        self.box = UITextBox(
            "",
            pygame.Rect(rect.x, rect.y + HEADING_HEIGHT, rect.w, rect.h - HEADING_HEIGHT),
            manager,
            container=container,
        )
        self._shown = None

    def show(self, markup: str) -> bool:
        """Set the box's text if it changed; True when it did."""
        if self.box is not None and markup != self._shown:
            self._shown = markup
            self.box.set_text(markup)
            return True
        return False

    @property
    def text(self) -> str:
        """The markup shown now (tests read it)."""
        return self._shown or ""

    def process_event(self, event: pygame.event.Event) -> object | None:
        """Text sections ask nothing of the window."""
        return None


class MapSection(_TextSection):
    """The map's name, ruleset and lesson caption."""

    def __init__(self) -> None:
        super().__init__("Map", 80)

    def refresh(self, info: PanelInfo) -> bool:
        """Title in bold, the subtitle under it."""
        markup = f"<b>{escape(info.title)}</b>"
        if info.subtitle:
            markup += "<br>" + "<br>".join(escape(line) for line in info.subtitle.split("\n"))
        return self.show(markup)


class FigureSection(_TextSection):
    """The selected figure: name, side, square and stats."""

    def __init__(self) -> None:
        super().__init__("Selected figure", 100)

    def refresh(self, info: PanelInfo) -> bool:
        """One line per entry; a hint when nothing is selected."""
        if info.figure:
            first, *rest = info.figure
            markup = f"<b>{escape(first)}</b>" + "".join(f"<br>{escape(line)}" for line in rest)
        else:
            markup = "<i>none: click a figure or press Tab</i>"
        return self.show(markup)


class StatusSection(_TextSection):
    """The status line: why the ray is clear or blocked, lesson steps, refusals, errors."""

    def __init__(self) -> None:
        super().__init__("Line of sight", None, flex=2)

    def refresh(self, info: PanelInfo) -> bool:
        """The status text in the colour of its kind."""
        colour = STATUS_COLOURS.get(info.status_kind, STATUS_COLOURS["info"])
        lines = escape(info.status).split("\n")
        return self.show(f"<font color='{colour}'>" + "<br>".join(lines) + "</font>")


class LogSection(_TextSection):
    """The action log, newest first."""

    def __init__(self, lines: int = 60) -> None:
        super().__init__("Log", None, flex=2)
        self.lines = lines
        self._serial: int | None = None

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """As every text section; the next refresh fills it."""
        super().build(manager, container, rect)
        self._serial = None

    def refresh(self, info: PanelInfo) -> bool:
        """The last lines of the log, newest at the top."""
        if info.log_serial == self._serial and info.log_serial:
            return False
        self._serial = info.log_serial
        recent = list(info.log)[-self.lines :][::-1]
        return self.show("<br>".join(escape(line) for line in recent) or "<i>nothing yet</i>")


class FindingsSection:
    """The linter's findings; clicking one asks the window to centre the board on it."""

    title = "Map check"
    fixed_height: int | None = None
    flex = 1

    def __init__(self) -> None:
        self.label: UILabel | None = None
        self.list: UISelectionList | None = None
        self._items: list[str] = []
        self._findings: list[Finding] = []
        self._key: tuple[Finding, ...] | None = None

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """A heading and a selection list."""
        self.label = UILabel(
            pygame.Rect(rect.x, rect.y, rect.w, HEADING_HEIGHT),
            self.title,
            manager,
            container=container,
            object_id="#section_heading",
        )
        self.list = UISelectionList(
            pygame.Rect(rect.x, rect.y + HEADING_HEIGHT, rect.w, rect.h - HEADING_HEIGHT),
            [],
            manager,
            container=container,
        )
        self._key = None

    @staticmethod
    def item_text(number: int, finding: Finding) -> str:
        """One list row: number, severity, square, message (unique thanks to the number).

        >>> from game.findings import Severity
        >>> FindingsSection.item_text(2, Finding("x", Severity.ERROR, "wall is diagonal", 4, (3, 1)))
        '2. error (3,1): wall is diagonal'
        """
        where = f" ({finding.square[0]},{finding.square[1]})" if finding.square else ""
        if not where and finding.object_id is not None:
            where = f" object {finding.object_id}"
        severity = getattr(finding.severity, "value", finding.severity)
        return f"{number}. {severity}{where}: {finding.message}"

    def refresh(self, info: PanelInfo) -> bool:
        """Rebuild the rows when the findings changed; True when it did."""
        key = tuple(info.findings)
        if key == self._key or self.list is None or self.label is None:
            return False
        self._key = key
        self._findings = list(info.findings)
        self._items = [self.item_text(i + 1, f) for i, f in enumerate(self._findings)]
        errors = sum(1 for f in self._findings if getattr(f.severity, "value", f.severity) == "error")
        warnings = len(self._findings) - errors
        if self._findings:
            self.label.set_text(f"{self.title}: {errors} errors, {warnings} warnings")
            self.list.set_item_list(self._items)
        else:
            self.label.set_text(f"{self.title}: clean")
            self.list.set_item_list(["no findings"])
        return True

    def process_event(self, event: pygame.event.Event) -> object | None:
        """A click on a row → :class:`CentreOn` that finding."""
        if event.type not in (
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION,
        ):
            return None
        if getattr(event, "ui_element", None) is not self.list:
            return None
        text = getattr(event, "text", None)
        if text in self._items:
            return CentreOn(self._findings[self._items.index(text)])
        return None


def default_sections() -> list[Section]:
    """Map, selected figure, line of sight, map check, log."""
    return [MapSection(), FigureSection(), StatusSection(), FindingsSection(), LogSection()]


class SidePanel:
    """A pygame_gui panel holding sections stacked top to bottom."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        rect: pygame.Rect,
        sections: Sequence[Section] | None = None,
    ) -> None:
        self.manager = manager
        self.sections: list[Section] = list(sections) if sections is not None else default_sections()
        self.panel: UIPanel | None = None
        self.rect = pygame.Rect(rect)
        self._last_info: PanelInfo | None = None
        self._turn = 0
        self.layout(rect)

    def section(self, kind: type) -> Any:
        """The first section of this class (e.g. ``panel.section(StatusSection)``)."""
        for section in self.sections:
            if isinstance(section, kind):
                return section
        raise KeyError(kind.__name__)

    def add_section(self, section: Section, index: int | None = None) -> None:
        """Insert a section (at the end by default) and lay the panel out again."""
        self.sections.insert(len(self.sections) if index is None else index, section)
        self.layout(self.rect)

    def layout(self, rect: pygame.Rect) -> None:
        """(Re)build every element for this rectangle (window resized, section added)."""
        self.rect = pygame.Rect(rect)
        if self.panel is not None:
            self.panel.kill()
        self.panel = UIPanel(self.rect, manager=self.manager, object_id="#side_panel")
        inner_w = self.rect.w - 2 * PADDING - 6
        fixed = sum(s.fixed_height or 0 for s in self.sections)
        gaps = PADDING * (len(self.sections) + 1)
        flexible = max(0, self.rect.h - 6 - fixed - gaps)
        weights = sum(s.flex for s in self.sections if s.fixed_height is None) or 1
        y = PADDING
        for section in self.sections:
            if section.fixed_height is not None:
                height = section.fixed_height
            else:
                height = max(HEADING_HEIGHT + 40, flexible * section.flex // weights)
            section.build(self.manager, self.panel, pygame.Rect(PADDING, y, inner_w, height))
            y += height + PADDING
        if self._last_info is not None:
            self.refresh(self._last_info)

    def refresh(self, info: PanelInfo, budget: int | None = None) -> None:
        """Show ``info`` in every section.

        With a ``budget``, at most that many sections re-lay out their text this time (the
        others keep their old text until the next call): a drag spreads the panel's cost over
        frames. Sections take turns, so none starves.
        """
        self._last_info = info
        count = len(self.sections)
        start = self._turn % count if budget is not None else 0
        spent = 0
        for offset in range(count):
            section = self.sections[(start + offset) % count]
            if section.refresh(info):
                spent += 1
                if budget is not None and spent >= budget:
                    self._turn = start + offset + 1
                    return

    def process_event(self, event: pygame.event.Event) -> object | None:
        """Let each section look at a pygame_gui event; the first request wins."""
        for section in self.sections:
            request = section.process_event(event)
            if request is not None:
                return request
        return None
