"""The side panel (pygame_gui): stacked sections, each refreshed from one
:class:`~game.play.frame.PanelInfo` (the presenter's panel content of the frame).

Sections, top to bottom: the map, the selected figure, the status line (the ray's explanation,
lesson steps, errors), the attack panel (``game/ui/attack_panel.py``, added by the window), the
linter's findings (click one to centre the board on it) and the log.
A later panel (attacks, dice tray) is one more :class:`Section`: write a class with ``build``,
``refresh`` and ``process_event`` and pass it to :meth:`SidePanel.add_section`.

Heights come from the content within the window's height (:func:`plan_heights`): the map and the
selected figure are as tall as their wrapped text, the attack panel as tall as its rows; the
status line, the findings and the log share what is left. When the window is short, the log
(folded into its heading) and the findings give up room first, then the status line, then the
attack panel's chart, and only then the map and figure texts (which then scroll). Once the
status box has grown for a longer sentence (a hex ray's verdict, up to :data:`STATUS_MAX_LINES`),
it keeps its room until the attack panel is down to two lines of verdict and the map's text has
given up room too (that text then scrolls, but it does not change while the mouse moves; a status
box that scrolls builds a new scroll bar for every sentence). In the lessons the attack panel
takes no room at all.

Sections only touch pygame_gui when their text changes, so hovering square after square costs
one text-box update per change and nothing on frames where nothing changed.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UISelectionList, UITextBox

from game.core.findings import Finding
from game.core.words import plural
from game.play.frame import PanelInfo
from game.play.wording import log_entries, plain
from game.ui.text import RowWrapper

PANEL_WIDTH = 320
HEADING_HEIGHT = 22
PADDING = 5
#: the smallest useful height of a section without its own ``min_height``: heading and one row
MIN_SECTION_HEIGHT = HEADING_HEIGHT + 30
#: the map check's list: the height of a row and of the list's border and shadow (pygame_gui's)
LIST_ROW = 20
LIST_CHROME = 6
#: the tallest a text box measured by :class:`TextMeasure` can be
MEASURE_LIMIT = 1000

#: the lines the status box (Line of sight) shows on a map; the log takes what is left
STATUS_LINES = 4
#: the most lines the status box grows to for a longer sentence (a hex ray's verdict); beyond
#: that the box scrolls
STATUS_MAX_LINES = 8
#: the status box's ``keep`` once it has grown past :data:`STATUS_LINES`: above the attack
#: panel's (2) and the map's (3), below the selected figure's (4)
GROWN_KEEP = 3.5
#: the lesson text's size (the lessons give the status box the whole panel's spare room)
LESSON_TEXT_PX = 17

#: status kinds → colour of the status text
STATUS_COLOURS = {
    "info": "#E6E6EA",
    "clear": "#7BE39A",
    "blocked": "#FF8A80",
    "error": "#FF6E6E",
    "lesson": "#E8F6FF",
    "finding": "#FFD666",
}


def fit_text(font: Any, text: str, width: int) -> str:
    """``text`` cut to ``width`` pixels in ``font`` (anything with ``size(text)``), ending
    in "…" when cut; the whole text when it fits.

    >>> class Mono:
    ...     def size(self, text): return (len(text) * 10, 20)
    >>> fit_text(Mono(), "Log: seed 9288693", 100)
    'Log: seed…'
    >>> fit_text(Mono(), "Log", 100)
    'Log'
    """
    if width <= 0 or font.size(text)[0] <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if font.size(text[:middle].rstrip() + "…")[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def label_room(label: UILabel) -> int:
    """The pixels a label has for its text (its width less a little padding)."""
    return label.rect.w - 8


@dataclass(frozen=True)
class CentreOn:
    """A panel request: centre the board on this finding's square."""

    finding: Finding


@dataclass(frozen=True)
class OpenReader:
    """A panel request: show this ("log", "findings" or "ray") large, in the reader."""

    kind: str


#: the width of a heading's "enlarge" button, in UI units
ENLARGE_WIDTH = 30


def enlarge_button(
    manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect, label: UILabel, key: str,
    caption: str = "all", tip: str = "the whole list, large", width: int = ENLARGE_WIDTH,
) -> UIButton:
    """A small button (``all``) at the right end of a section's heading that opens its content
    large in the reader (the heading's label gives up that width)."""
    label.set_dimensions((max(10, rect.w - width - 4), HEADING_HEIGHT))
    return UIButton(
        pygame.Rect(rect.right - width, rect.y + 1, width, HEADING_HEIGHT - 2),
        caption,
        manager,
        container=container,
        tool_tip_text=f"{tip} ({key})",
        object_id="#enlarge",
    )


class Section(Protocol):
    """One block of the side panel.

    Optional extras, looked up with ``getattr``: ``min_height`` (the smallest readable height,
    default :data:`MIN_SECTION_HEIGHT`), ``keep`` (when the window is short, sections with a
    lower ``keep`` give up height first; default 1) and ``wanted_height(info, width, measure)``
    (the height its content needs, for sections that size to their text).
    """

    title: str
    flex: int

    @property
    def fixed_height(self) -> int | None:
        """Preferred height in pixels, or None to share the remaining height by ``flex``."""

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """Create the section's elements inside ``rect`` (container coordinates)."""

    def refresh(self, info: PanelInfo) -> bool | None:
        """Show ``info`` (only touch the elements when the text changed); True if it did (None
        counts as not: a section that redraws itself cheaply)."""

    def process_event(self, event: pygame.event.Event) -> object | None:
        """A pygame_gui event: return a request for the window (e.g. :class:`CentreOn`) or None."""


class TextMeasure:
    """Heights of text-box markup at a width, measured once by a hidden pygame_gui text box.

    The hidden box wraps the text exactly as the visible ones do (same theme, same width), so a
    section sized by it shows its text without a scroll bar. Results are cached per markup.
    """

    def __init__(self, manager: pygame_gui.UIManager) -> None:
        self.manager = manager
        self._boxes: dict[int, UITextBox] = {}
        self._heights: dict[tuple[str, int], int] = {}

    def box_height(self, markup: str, width: int) -> int:
        """The height a text box ``width`` pixels wide needs to show ``markup`` whole."""
        key = (markup, width)
        height = self._heights.get(key)
        if height is not None:
            return height
        box = self._boxes.get(width)
        if box is None:
            for old in self._boxes.values():  # the panel changed width: one box is enough
                old.kill()
            self._boxes.clear()
            box = UITextBox("", pygame.Rect(-4 * width, 0, width, MEASURE_LIMIT), self.manager,
                            visible=0)
            self._boxes[width] = box
        box.set_text(markup)
        layout = box.text_box_layout
        rows = layout.layout_rows if layout is not None else []
        content = rows[-1].bottom if rows else 0
        chrome = box.rect.height - box.text_wrap_rect[3]
        height = min(MEASURE_LIMIT, content + chrome)
        if len(self._heights) > 256:
            self._heights.clear()
        self._heights[key] = height
        return height


def plan_heights(
    wants: Sequence[int | None],
    minimums: Sequence[int],
    flexes: Sequence[int],
    keeps: Sequence[float],
    available: int,
    comforts: Sequence[int] | None = None,
) -> list[int]:
    """The height of each section: content sections get what they want, flexible ones (want
    None) share the rest by ``flex``; when short, lower ``keep`` gives up height first, each
    section first down to its ``comforts`` height (default: its minimum), and only when every
    section is there, down to its minimum (again lower ``keep`` first).

    >>> wants, mins, flex, keep = [80, None, 100, None], [50, 60, 60, 40], [0, 2, 0, 1], [3, 1, 2, 0]
    >>> plan_heights(wants, mins, flex, keep, 400)  # room to spare: the flexible ones share it
    [80, 140, 100, 80]
    >>> plan_heights(wants, mins, flex, keep, 250)  # short: keep 0, 1, 2 give up height first
    [80, 60, 70, 40]
    >>> plan_heights(wants, mins, flex, keep, 250, comforts=[50, 60, 80, 40])  # keep 3 before 2's last 10
    [70, 60, 80, 40]
    """
    heights = [min_h if want is None else max(want, 0) for want, min_h in zip(wants, minimums, strict=True)]
    over = sum(heights) - available
    if over > 0:
        order = sorted(range(len(heights)), key=lambda i: keeps[i])
        floors = [max(m, c) for m, c in zip(minimums, comforts or minimums, strict=True)]
        for least in (floors, minimums):
            for i in order:
                cut = min(over, max(0, heights[i] - least[i]))
                heights[i] -= cut
                over -= cut
            if over <= 0:
                break
        return heights
    spare = -over
    flexible = [i for i, want in enumerate(wants) if want is None]
    weights = sum(flexes[i] for i in flexible)
    if flexible and weights:
        given = 0
        for i in flexible:
            share = spare * flexes[i] // weights
            heights[i] += share
            given += share
        heights[flexible[0]] += spare - given  # rounding: the first flexible section
    return heights


def escape(text: str) -> str:
    """Text made safe for a pygame_gui text box (which reads a little HTML).

    >>> escape("move Rook (1,1) -> (2,2) & <b>")
    'move Rook (1,1) -&gt; (2,2) &amp; &lt;b&gt;'
    """
    return html.escape(text, quote=False)


class _TextSection:
    """A heading and a wrapping text box."""

    #: sizes to its text (``wanted_height``) rather than sharing the rest
    fits_content = False

    def __init__(self, title: str, fixed_height: int | None, flex: int = 0, *,
                 min_height: int = MIN_SECTION_HEIGHT, keep: int = 1) -> None:
        self.title = title
        self.fixed_height = fixed_height
        self.flex = flex
        self.min_height = min_height
        self._keep = keep
        self.box: UITextBox | None = None
        self.label: UILabel | None = None
        self._shown: str | None = None
        self._heading: str | None = None
        #: the height of a text box showing one line, and the pitch of each further line
        #: (the panel measures them; flexible boxes are sized to whole lines)
        self.line_metrics: tuple[int, int] = (30, 20)

    @property
    def keep(self) -> float:
        """How late it gives up height in a short window (:func:`plan_heights`: lower first)."""
        return self._keep

    def whole_lines(self, height: int) -> int:
        """The tallest section height ≤ ``height`` whose box shows whole lines only (never
        less than the heading plus one line; the heading alone when even that does not fit)."""
        first, pitch = self.line_metrics
        room = height - HEADING_HEIGHT - first
        if room < 0:
            return height
        return HEADING_HEIGHT + first + (room // pitch) * pitch

    def markup(self, info: PanelInfo) -> str:
        """The text-box markup for ``info``."""
        raise NotImplementedError

    def heading(self, info: PanelInfo) -> str:
        """The heading over the box (the title; sections may add a name to it)."""
        return self.title

    def refresh(self, info: PanelInfo) -> bool:
        """Show ``info``; True when the text changed."""
        heading = self.heading(info)
        if self.label is not None and heading != self._heading:
            self._heading = heading
            self.label.set_text(fit_text(self.label.font, heading, label_room(self.label)))
        return self.show(self.markup(info))

    def wanted_height(self, info: PanelInfo, width: int, measure: TextMeasure) -> int | None:
        """Heading plus the text box the markup needs at ``width`` (None: flexible section)."""
        if not self.fits_content:
            return None
        return HEADING_HEIGHT + measure.box_height(self.markup(info), width)

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """A heading label over a text box filling the rest of ``rect``."""
        self._heading = None
        self.label = UILabel(
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
    """The map's name (in the heading), size, ruleset and caption (as tall as its text)."""

    fits_content = True

    def __init__(self) -> None:
        super().__init__("Map", 80, min_height=HEADING_HEIGHT + 40, keep=3)

    def heading(self, info: PanelInfo) -> str:
        """``Map: demo``."""
        return f"{self.title}: {info.title}" if info.title else self.title

    def markup(self, info: PanelInfo) -> str:
        """The subtitle, one line per line (long ones wrap)."""
        lines = info.subtitle.split("\n") if info.subtitle else []
        return "<br>".join(escape(line) for line in lines) or "<i>no map</i>"


class FigureSection(_TextSection):
    """The selected figure: name (in the heading), side, square and stats (as tall as its text)."""

    fits_content = True

    def __init__(self) -> None:
        super().__init__("Selected figure", 100, min_height=HEADING_HEIGHT + 60, keep=4)

    def heading(self, info: PanelInfo) -> str:
        """``Selected figure: Ember``."""
        return f"{self.title}: {info.figure[0]}" if info.figure else self.title

    def markup(self, info: PanelInfo) -> str:
        """One line per entry after the name (long ones wrap); a hint when nothing is selected."""
        if info.figure:
            return "<br>".join(escape(line) for line in info.figure[1:])
        return "<i>none: click a figure or press Tab</i>"


class StatusSection(_TextSection):
    """The status line: why the ray is clear or blocked (under any rule, in words, numbers
    rounded), lesson steps, refusals, errors. Its heading's "exact" button (``Shift+E``) opens
    the ray's whole reasoning with exact values in the reader."""

    def __init__(self) -> None:
        # three lines at least: a rule's verdict (corners, any-point) stays whole in a short window
        super().__init__("Line of sight", None, flex=2, min_height=HEADING_HEIGHT + 90, keep=1)
        self.exact: UIButton | None = None
        #: the tallest status that did not fit its box (measured by the panel's next plan)
        self._overflow: str | None = None
        #: the box height the tallest status so far needs: the box keeps it, so hovering from
        #: ray to ray re-lays the panel once, not a scroll bar every frame
        self._tallest = 0
        #: the height of the usual four lines (:meth:`wanted_height` measures it)
        self._usual = 0

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """A heading with its "exact" button over the text box."""
        super().build(manager, container, rect)
        assert self.label is not None
        self.exact = enlarge_button(manager, container, rect, self.label, "Shift+E", "exact",
                                    "the ray's whole reasoning, exact values", ENLARGE_WIDTH + 16)

    def wanted_height(self, info: PanelInfo, width: int, measure: TextMeasure) -> int | None:
        """Four lines on a map (a ray's sentence under any rule; the log gets the rest); in the
        lessons, where there is no log, all the room there is."""
        if info.extra.get("lessons"):
            return None
        lines = measure.box_height("<br>".join("X" * STATUS_LINES), width)
        if self._overflow is not None:
            most = measure.box_height("<br>".join("X" * STATUS_MAX_LINES), width)
            self._tallest = max(self._tallest, min(most, measure.box_height(self._overflow, width)))
            self._overflow = None
        self._usual = lines
        return HEADING_HEIGHT + max(lines, self._tallest)

    @property
    def grown(self) -> bool:
        """Whether the box has grown past the usual four lines for a longer sentence."""
        return self._tallest > self._usual

    @property
    def keep(self) -> float:
        """How late it gives up height in a short window: right after the log and the findings
        while it shows the usual four lines; once it has grown (:attr:`grown`), after the attack
        panel and the map's text, before the selected figure."""
        return GROWN_KEEP if self.grown else self._keep

    def show(self, markup: str) -> bool:
        """Set the box's text if it changed; a text that needs a scroll bar is noted, so the
        panel's next plan grows the box to it (up to :data:`STATUS_MAX_LINES`): a text box
        rebuilds its scroll bar on every new text, the most costly part of a hover frame."""
        changed = super().show(markup)
        box = self.box
        # only while the box has what it last asked for (within a line): a panel too short to
        # give more is not asked again (a text measured for nothing costs as much as one shown)
        if changed and box is not None and box.scroll_bar is not None and box.rect.h + self.line_metrics[1] > self._tallest:
            self._overflow = markup
        return changed

    def process_event(self, event: pygame.event.Event) -> object | None:
        """Its "exact" button → :class:`OpenReader` the ray."""
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED
        if pressed and self.exact is not None and getattr(event, "ui_element", None) is self.exact:
            return OpenReader("ray")
        return None

    def markup(self, info: PanelInfo) -> str:
        """The status text in the colour of its kind."""
        colour = STATUS_COLOURS.get(info.status_kind, STATUS_COLOURS["info"])
        lines = escape(info.status).split("\n")
        size = f" pixel_size={LESSON_TEXT_PX}" if info.status_kind == "lesson" else ""
        return f"<font color='{colour}'{size}>" + "<br>".join(lines) + "</font>"


class LogSection(_TextSection):
    """The action log, newest entry first (a roll's dice stay under it). In a short window it folds into its heading, which then
    shows the newest line (``Log: move Rook (1,1) -> (2,2)``). The lessons log nothing: there
    it takes no room."""

    lesson_hidden = True

    def __init__(self, lines: int = 60) -> None:
        super().__init__("Log", None, flex=2, min_height=HEADING_HEIGHT, keep=0)
        self.lines = lines
        self._serial: int | None = None
        self.folded = False
        #: the heading's button that opens the whole log in the reader (Shift+L)
        self.enlarge: UIButton | None = None

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """As every text section (the box hidden when there is no room for one whole line)."""
        self.folded = rect.h < HEADING_HEIGHT + self.line_metrics[0]
        room = rect if not self.folded else pygame.Rect(rect.x, rect.y, rect.w, HEADING_HEIGHT + 24)
        super().build(manager, container, room)
        if self.folded and self.box is not None:
            self.box.hide()
        assert self.label is not None
        self.enlarge = enlarge_button(manager, container, rect, self.label, "Shift+L")
        self._serial = None

    def process_event(self, event: pygame.event.Event) -> object | None:
        """Its "enlarge" button → :class:`OpenReader` the log."""
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED
        if pressed and self.enlarge is not None and getattr(event, "ui_element", None) is self.enlarge:
            return OpenReader("log")
        return None

    def heading(self, info: PanelInfo) -> str:
        """``Log``, or folded: ``Log: the newest line``."""
        if self.folded and info.log:
            return f"{self.title}: {plain(log_entries(list(info.log)[-8:])[-1].splitlines()[0])}"
        return self.title

    def refresh(self, info: PanelInfo) -> bool:
        """The last lines of the log, newest at the top."""
        if info.log_serial == self._serial and info.log_serial:
            return False
        self._serial = info.log_serial
        heading = self.heading(info)
        if self.label is not None and heading != self._heading:
            self._heading = heading
            self.label.set_text(fit_text(self.label.font, heading, label_room(self.label)))
        recent = [line for entry in reversed(log_entries(list(info.log)[-self.lines :])) for line in entry.split("\n")]
        return self.show("<br>".join(escape(plain(line)) for line in recent) or "<i>nothing yet</i>")


class FindingsSection:
    """The linter's findings; clicking one asks the window to centre the board on it."""

    title = "Map check"
    #: the lessons check no map: no room there
    lesson_hidden = True
    fixed_height: int | None = None
    flex = 1
    min_height = HEADING_HEIGHT + 30
    keep = 0

    def __init__(self) -> None:
        self.label: UILabel | None = None
        self.list: UISelectionList | None = None
        #: the heading's button that opens every finding in the reader (I)
        self.enlarge: UIButton | None = None
        self._items: list[str] = []
        self._findings: list[Finding] = []
        #: the findings the filter keeps, each with its number, and the finding of each row
        self._shown: list[tuple[int, Finding]] = []
        self._row_finding: list[int] = []
        self._key: tuple[Any, ...] | None = None
        self._wrapper = RowWrapper()

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
            pygame.Rect(rect.x, rect.y + HEADING_HEIGHT, rect.w, max(24, rect.h - HEADING_HEIGHT)),
            [],
            manager,
            container=container,
        )
        if rect.h <= HEADING_HEIGHT:  # a clean map: the heading says it all
            self.list.hide()
        self.enlarge = enlarge_button(manager, container, rect, self.label, "I")
        self._key = None

    def wanted_height(self, info: PanelInfo, width: int, measure: TextMeasure) -> int | None:
        """Just the heading (``Map check: clean``) when there is nothing to list; else flexible."""
        return None if info.findings else HEADING_HEIGHT

    @staticmethod
    def whole_lines(height: int) -> int:
        """The tallest height ≤ ``height`` whose list shows whole rows only (the last row is
        never cut in half); the heading alone when not even one row fits.

        >>> FindingsSection.whole_lines(22 + 6 + 50), FindingsSection.whole_lines(30)
        (68, 22)
        """
        rows = (height - HEADING_HEIGHT - LIST_CHROME) // LIST_ROW
        return HEADING_HEIGHT + LIST_CHROME + rows * LIST_ROW if rows > 0 else HEADING_HEIGHT

    @staticmethod
    def item_text(number: int, finding: Finding) -> str:
        """One list row: number, severity, square, message (unique thanks to the number).

        >>> from game.core.findings import Severity
        >>> FindingsSection.item_text(2, Finding("x", Severity.ERROR, "wall is diagonal", 4, (3, 1)))
        '2. error (3,1): wall is diagonal'
        """
        where = f" ({finding.square[0]},{finding.square[1]})" if finding.square else ""
        if not where and finding.object_id is not None:
            where = f" object {finding.object_id}"
        severity = getattr(finding.severity, "value", finding.severity)
        return f"{number}. {severity}{where}: {finding.message}"

    @staticmethod
    def counts(findings: Sequence[Finding]) -> str:
        """``1 error, 2 warnings`` with each noun agreeing with its number.

        >>> from game.core.findings import Severity
        >>> FindingsSection.counts([Finding("x", Severity.WARNING, "odd", None, None)])
        '1 warning'
        >>> FindingsSection.counts([Finding("y", Severity.NOTE, "read so", None, None)])
        '1 note'
        >>> FindingsSection.counts([])
        '0 errors, 0 warnings'
        """
        kinds = [str(getattr(f.severity, "value", f.severity)) for f in findings]
        counted = ((kinds.count("error"), "error"), (kinds.count("warning"), "warning"),
                   (kinds.count("note"), "note"))
        parts = [plural(n, noun) for n, noun in counted if n]
        return ", ".join(parts) or "0 errors, 0 warnings"

    def refresh(self, info: PanelInfo) -> bool:
        """Rebuild the rows when the findings (or the severity filter) changed; True when it did."""
        state = info.extra.get("map_check")
        severity = info.extra.get("finding_filter", "all")
        key = (*info.findings, state, severity)
        if key == self._key or self.list is None or self.label is None:
            return False
        self._key = key
        self._findings = list(info.findings)
        shown = [(n, f) for n, f in enumerate(self._findings, 1)
                 if severity == "all" or getattr(f.severity, "value", f.severity) == severity]
        self._shown = shown
        self._items = [self.item_text(n, f) for n, f in shown]
        self._row_finding = list(range(len(shown)))
        suffix = f" {state}" if state else ""
        if self._findings:
            counts = self.counts(self._findings)
            if severity != "all":  # F4: say how many of them the list shows
                counts = f"{len(shown)} of {len(self._findings)} ({severity}s)"
            self.label.set_text(fit_text(self.label.font, f"{self.title}: {counts}{suffix}", label_room(self.label)))
            self._wrap_rows()
        else:
            words = "clean" if not state else state.lstrip("· ")
            self.label.set_text(fit_text(self.label.font, f"{self.title}: {words}", label_room(self.label)))
            self.list.set_item_list([])
        return True

    def _wrap_rows(self) -> None:
        """A finding too long for one row goes on as many rows as it needs (never cut with
        "…"); a click on any of its rows picks it. Rows are told apart by trailing spaces.

        The rows are wrapped once for the width the list's buttons will have (with a scroll
        bar when even one row per finding overflows the list) and handed to the list once;
        the buttons made are then checked and, if their width differs, wrapped again. Each
        finding's rows are cached per width (:class:`RowWrapper`), so a re-layout or the
        severity filter re-wraps nothing."""
        assert self.list is not None
        texts = list(self._items)
        rooms = self._rooms()
        if rooms is None:  # no button measured yet: one probe row tells the widths
            probe: list[str | tuple[str, str]] = [*texts[:1]]
            self.list.set_item_list(probe)
            rooms = self._rooms()
            if rooms is None:
                return
        bare, scrolled = rooms
        visible = (self.list.rect.h - LIST_CHROME) // LIST_ROW  # rows the list shows without scrolling
        room = scrolled if len(texts) > visible else bare
        for _ in range(3):
            rows, owners = self._wrapper.rows(texts, room)
            if len(rows) > visible:
                room = min(room, scrolled)
                rows, owners = self._wrapper.rows(texts, room)
            self._row_finding = owners
            if rows != [item["text"] for item in self.list.item_list]:
                self.list.set_item_list(list(rows))
            self._items = rows
            measured = self._rooms()
            if measured is None:
                return
            now = measured[1] if self.list.current_scroll_bar_width else measured[0]
            if now == room:
                return
            room = now

    def _rooms(self) -> tuple[int, int] | None:
        """The pixels a row's text has without and with the list's scroll bar, read off a row
        button the list has made (None when it has none)."""
        assert self.list is not None
        button = next((item["button_element"] for item in self.list.item_list if item.get("button_element")), None)
        if button is None:
            return None
        self._wrapper.face = button.font
        room = button.rect.w - 2 * button.text_horiz_alignment_padding - 8
        bare = room + self.list.current_scroll_bar_width
        return bare, bare - self.list.scroll_bar_width

    def rows_of(self, number: int) -> list[Any]:
        """The list's row buttons of the finding numbered ``number`` (from 1) (tests click them)."""
        assert self.list is not None
        wanted = [i for i, owner in enumerate(self._row_finding) if self._shown[owner][0] == number]
        return [self.list.item_list[i].get("button_element") for i in wanted]

    @staticmethod
    def full_text(finding: Finding, number: int | None = None) -> str:
        """The whole finding for the Line of sight box (or, numbered, for the reader), hint included.

        >>> from game.core.findings import Severity
        >>> print(FindingsSection.full_text(Finding("x", Severity.ERROR, "diagonal", 4, None, "redraw")))
        Map check, error at object 4: diagonal
        Hint: redraw
        >>> print(FindingsSection.full_text(Finding("x", Severity.WARNING, "odd", None, (3, 1)), 2))
        2. warning at (3,1): odd
        """
        severity = getattr(finding.severity, "value", finding.severity)
        where = ""
        if finding.square is not None:
            where = f" at ({finding.square[0]},{finding.square[1]})"
        elif finding.object_id is not None:
            where = f" at object {finding.object_id}"
        hint = f"\nHint: {finding.hint}" if finding.hint else ""
        lead = f"{number}." if number is not None else "Map check,"
        return f"{lead} {severity}{where}: {finding.message}{hint}"

    def process_event(self, event: pygame.event.Event) -> object | None:
        """A click on a row → :class:`CentreOn` that finding; "enlarge" → :class:`OpenReader`."""
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED
        if pressed and self.enlarge is not None and getattr(event, "ui_element", None) is self.enlarge:
            return OpenReader("findings")
        if event.type not in (
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION,
        ):
            return None
        if getattr(event, "ui_element", None) is not self.list:
            return None
        text = getattr(event, "text", None)
        if text in self._items:
            return CentreOn(self._shown[self._row_finding[self._items.index(text)]][1])
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
        self.measure = TextMeasure(manager)
        self._last_info: PanelInfo | None = None
        self._turn = 0
        #: the height of each section as laid out now (tests read it)
        self.heights: list[int] = []
        self.layout(rect)

    def rebind(self, manager: pygame_gui.UIManager) -> None:
        """Move the panel onto another GUI manager (a new UI scale); lay it out on the next
        :meth:`layout` call."""
        self.manager = manager
        self.measure = TextMeasure(manager)
        self.panel = None

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

    @property
    def inner_width(self) -> int:
        """The width of every section inside the panel."""
        return self.rect.w - 2 * PADDING - 6

    def plan(self, info: PanelInfo | None) -> list[int]:
        """Each section's height for this content within the panel's height (:func:`plan_heights`)."""
        width = self.inner_width
        wants: list[int | None] = []
        for section in self.sections:
            want = None
            wanted = getattr(section, "wanted_height", None)
            if wanted is not None and info is not None:
                want = wanted(info, width, self.measure)
            if want is None:
                want = section.fixed_height
            wants.append(want)
        minimums = [getattr(s, "min_height", MIN_SECTION_HEIGHT) for s in self.sections]
        hidden = {index for index, section in enumerate(self.sections)
                  if info is not None and info.extra.get("lessons") and getattr(section, "lesson_hidden", False)}
        for index in hidden:  # the lessons have no map check and no log: no room for them
            wants[index], minimums[index] = 0, 0
        available = self.rect.h - 6 - PADDING * (len(self.sections) + 1)
        heights = plan_heights(wants, minimums, [s.flex for s in self.sections],
                               [getattr(s, "keep", 1) for s in self.sections], available,
                               [getattr(s, "comfort_height", m) for s, m in zip(self.sections, minimums, strict=True)])
        # flexible text boxes show whole lines, and so do the others when they get less than
        # their text needs (they scroll); what a box cannot use goes to the next one
        first = self.measure.box_height("X", width)
        metrics = (first, max(1, self.measure.box_height("X<br>X", width) - first))
        spare = 0
        for index, section in enumerate(self.sections):
            if isinstance(section, _TextSection) and index not in hidden:
                section.line_metrics = metrics
                if not section.fits_content:
                    height = heights[index] + spare
                    heights[index] = section.whole_lines(height)
                    spare = height - heights[index]
                elif heights[index] < (wants[index] or 0):
                    height = heights[index]
                    heights[index] = section.whole_lines(height)
                    spare += height - heights[index]
            elif isinstance(section, FindingsSection) and index not in hidden and heights[index] > HEADING_HEIGHT:
                height = heights[index] + spare
                heights[index] = section.whole_lines(height)
                spare = height - heights[index]
        return heights

    def layout(self, rect: pygame.Rect) -> None:
        """(Re)build every element for this rectangle (window resized, section added, a
        section's content needs another height)."""
        self.rect = pygame.Rect(rect)
        if self.panel is not None:
            self.panel.kill()
        self.panel = UIPanel(self.rect, manager=self.manager, object_id="#side_panel")
        self.heights = self.plan(self._last_info)
        y = PADDING
        for section, height in zip(self.sections, self.heights, strict=True):
            if height <= 0 and getattr(section, "lesson_hidden", False):  # the lessons' map check, log
                for part in ("label", "box", "list", "enlarge", "exact"):
                    if hasattr(section, part):
                        setattr(section, part, None)
                continue
            section.build(self.manager, self.panel, pygame.Rect(PADDING, y, self.inner_width, height))
            y += height + PADDING
        if self._last_info is not None:
            self._refresh_sections(self._last_info, None)

    def refresh(self, info: PanelInfo, budget: int | None = None) -> None:
        """Show ``info`` in every section.

        With a ``budget``, at most that many sections re-lay out their text this time (the
        others keep their old text until the next call): a drag spreads the panel's cost over
        frames. Sections take turns, so none starves.
        """
        self._last_info = info
        if self.plan(info) != self.heights:  # a section's content needs another height
            self.layout(self.rect)
            return
        self._refresh_sections(info, budget)

    def _refresh_sections(self, info: PanelInfo, budget: int | None) -> None:
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
