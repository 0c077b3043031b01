"""The window's line-of-sight rule: a switcher, a panel of the rule's parameters, a compare mode.

Keys (bound in the window's one table, ``game/ui/keys.py``, group "Line-of-sight rule", and run
here through :meth:`RulePanel.act`; the board's top line and the panel's last line name them):

* ``K`` — next preset (arcadia, corners, dnd5e, pf2e, any-point); ``Shift+K`` — back to the map's
  ``los_rule`` (a lesson board's rule in the lessons);
* ``J`` / ``Shift+J`` — show the parameter panel / hide it; in it ``I`` and ``U`` move the selection
  up and down (the arrow keys pan the board) and ``H`` flips the selected parameter to its next
  value (these three are the table's bindings for the state ``rule_parameters``: while the panel
  is shown they win over ``I`` findings and ``H`` heat map); a click on a row flips that row. [INTERP] marks the values that are our reading of a
  game's rules, with the reason;
* ``X`` — compare mode: shade the squares where the rule and the compared rule disagree from the
  ray's start; ``Shift+X`` — the next rule to compare with.

The FOV (``F``) and the drawn line follow the chosen rule; the attack rules keep the map's rule for
legality (they never ask this panel). Deciding is the sight facade's (:mod:`game.core.sight`);
this module only keeps the choice and draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pygame

from game.core.board import Board, Square
from game.core.errors import UsageError
from game.core.profiles import MEANING, PARAMETERS, PRESETS, Profile
from game.ui.keys import chords
from game.ui.wording import plain

__all__ = ["RulePanel"]

_PRESET_NAMES = tuple(PRESETS)
_FIRST_ONLY = (80, 200, 255, 110)  # seen under the rule only
_SECOND_ONLY = (255, 120, 40, 110)  # seen under the compared rule only
_BOX = (24, 28, 36, 225)
_TEXT = (235, 235, 235)
_DIM = (160, 170, 185)
_MARK = (255, 200, 90)
_CLEAR = (90, 220, 120)
_BLOCKED = (235, 80, 80)


@dataclass
class RulePanel:
    """The rule the window uses per board, the panel's state and the compare mode."""

    #: the rule asked for on the command line for the main map (None: the map's ``los_rule``)
    default: Profile | None = None
    #: rules chosen in the window, per board serial
    chosen: dict[int, Profile] = field(default_factory=dict)
    shown: bool = False
    row: int = 0
    comparing: bool = False
    compare_with: str = "arcadia"
    rows: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    _cache: dict[tuple[object, ...], np.ndarray] = field(default_factory=dict)

    # --- the rule --------------------------------------------------------------------------

    def rule(self, board: Board, lesson: bool = False) -> Profile:
        """The rule for ``board``: chosen here, else (main map) the command line's, else ``los_rule``."""
        found = self.chosen.get(board.serial)
        if found is not None:
            return found
        if self.default is not None and not lesson:
            return self.default
        from game.core import sight

        try:
            return sight.rule_of(board)
        except UsageError:  # a wrong los_rule (the map was edited in Tiled): the window shows the default
            return sight.default_rule(board.grid.kind)

    def compared(self, board: Board, lesson: bool = False) -> Profile:
        """The rule compare mode sets against :meth:`rule` (never the same one)."""
        other = PRESETS[self.compare_with]
        if other == self.rule(board, lesson):
            other = PRESETS[_PRESET_NAMES[(_PRESET_NAMES.index(self.compare_with) + 1) % len(_PRESET_NAMES)]]
        return other

    def visible_from(self, board: Board, origin: Square, viewer: str | None, rule: Profile) -> np.ndarray:
        """The field of view under ``rule`` (cached per board version)."""
        from game.core import sight

        key = (board.serial, board.version, origin, viewer, rule)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 32:
                self._cache.clear()
            found = self._cache[key] = sight.field(board, origin, rule, viewer=viewer)
        return found

    # --- keys and clicks -----------------------------------------------------------------

    #: the window's actions (game/ui/keys.py) this panel answers → the method that does it
    ACTIONS: ClassVar[dict[str, str]] = {
        "rule_next": "next_rule", "rule_of_map": "map_rule", "rule_parameters": "show",
        "rule_parameters_hide": "hide", "rule_row_up": "row_up", "rule_row_down": "row_down",
        "rule_flip": "flip_selected", "rule_compare": "toggle_compare", "rule_compare_with": "compare_next",
    }

    def act(self, action: str, board: Board, lesson: bool = False) -> str:
        """Run one of :data:`ACTIONS` (the keys are looked up in the window's key table);
        returns the message for the window."""
        method = getattr(self, self.ACTIONS[action])
        return str(method(board, lesson))

    def handle_event(self, event: pygame.event.Event, board: Board | None, lesson: bool = False) -> str | None:
        """A click on a parameter row flips it; returns a message for the window, or None when
        the event is not ours (keys come through :meth:`act`)."""
        if board is None:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.shown:
            for rect, parameter in self.rows:
                if rect.collidepoint(event.pos):
                    return self._flip(board, lesson, parameter)
        return None

    def next_rule(self, board: Board, lesson: bool = False) -> str:
        """The next preset after the board's current rule."""
        current = self.rule(board, lesson)
        name = _PRESET_NAMES[(_PRESET_NAMES.index(current.name) + 1) % len(_PRESET_NAMES)]
        self.chosen[board.serial] = PRESETS[name]
        return f"Line-of-sight rule: {name}"

    def map_rule(self, board: Board, lesson: bool = False) -> str:
        """Back to the map's rule (the command line's for the main map, else ``los_rule``)."""
        self.chosen.pop(board.serial, None)
        return f"Line-of-sight rule: {self.rule(board, lesson).spec()} (the map's)"

    def show(self, board: Board, lesson: bool = False) -> str:
        """Show the parameter panel."""
        self.shown = True
        return (f"Rule parameters shown: {chords('rule_row_up')}/{chords('rule_row_down')} choose,"
                f" {chords('rule_flip')} flips")

    def hide(self, board: Board, lesson: bool = False) -> str:
        """Hide the parameter panel."""
        self.shown = False
        return "Rule parameters hidden"

    def row_up(self, board: Board, lesson: bool = False) -> str:
        """Select the parameter above (wrapping round)."""
        names = list(PARAMETERS)
        self.row = (self.row - 1) % len(names)
        return f"Rule parameter: {names[self.row]}"

    def row_down(self, board: Board, lesson: bool = False) -> str:
        """Select the parameter below (wrapping round)."""
        names = list(PARAMETERS)
        self.row = (self.row + 1) % len(names)
        return f"Rule parameter: {names[self.row]}"

    def flip_selected(self, board: Board, lesson: bool = False) -> str:
        """Flip the selected parameter to its next value."""
        return self._flip(board, lesson, list(PARAMETERS)[self.row])

    def toggle_compare(self, board: Board, lesson: bool = False) -> str:
        """Compare mode on or off."""
        self.comparing = not self.comparing
        return self._compare_message(board, lesson)

    def compare_next(self, board: Board, lesson: bool = False) -> str:
        """Compare with the next preset (and compare mode on)."""
        i = (_PRESET_NAMES.index(self.compare_with) + 1) % len(_PRESET_NAMES)
        self.compare_with = _PRESET_NAMES[i]
        self.comparing = True
        return self._compare_message(board, lesson)

    def _compare_message(self, board: Board, lesson: bool) -> str:
        if not self.comparing:
            return "Compare mode off"
        return f"Compare: {self.rule(board, lesson).spec()} against {self.compared(board, lesson).spec()}"

    def _flip(self, board: Board, lesson: bool, parameter: str) -> str:
        current = self.rule(board, lesson)
        values = PARAMETERS[parameter]
        value = values[(values.index(current.get(parameter)) + 1) % len(values)]
        self.chosen[board.serial] = current.with_value(parameter, value)
        self.row = list(PARAMETERS).index(parameter)
        return f"Line-of-sight rule: {self.chosen[board.serial].spec()}"

    # --- drawing -----------------------------------------------------------------------------

    def disagreement(
        self, board: Board, origin: Square, viewer: str | None, lesson: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Bool masks ``[y, x]``: seen under the rule only, and under the compared rule only."""
        first = self.visible_from(board, origin, viewer, self.rule(board, lesson))
        second = self.visible_from(board, origin, viewer, self.compared(board, lesson))
        return first & ~second, second & ~first

    def draw(
        self, screen: pygame.Surface, view: object, board: Board, start: tuple[Square, str | None] | None,
        ends: tuple[Square, Square, str | None] | None, scale: float = 1.0, lesson: bool = False,
    ) -> None:
        """The compare shading, the rule's line for the ray (when the rule is not arcadia), the
        one-line rule badge and, when shown, the parameter panel; all inside the board area."""
        viewport = pygame.Rect(view.viewport)  # type: ignore[attr-defined]
        rule = self.rule(board, lesson)
        clip = screen.get_clip()
        screen.set_clip(viewport)
        try:
            lines: list[tuple[str, tuple[int, int, int]]] = []
            if self.comparing and start is not None and board.on_board(start[0]):
                first, second = self.disagreement(board, start[0], start[1], lesson)
                shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
                for mask, colour in ((first, _FIRST_ONLY), (second, _SECOND_ONLY)):
                    for y, x in zip(*np.nonzero(mask), strict=True):
                        shade.fill(colour, pygame.Rect(view.square_rect((int(x), int(y)))))  # type: ignore[attr-defined]
                screen.blit(shade, (0, 0))
                other = self.compared(board, lesson).spec()
                lines.append((f"compare {rule.spec()} vs {other}: {int(first.sum())} only under {rule.spec()} (blue),"
                              f" {int(second.sum())} only under {other} (orange)", _TEXT))
            from game.core import sight

            if ends is not None and not sight.by_centre_line(rule, board.grid.kind):
                lines.append(self._draw_line(screen, view, board, ends, rule, scale))
            font = pygame.font.Font(None, max(14, round(20 * scale)))
            if any(text for text, _ in lines):  # the compare count and the rule's sentence, on top
                _text_box(screen, font, lines, viewport.x + 6, viewport.y + 6, viewport.w - 12)
            self.rows = []
            bottom = viewport.bottom - 6
            if self.shown or self.comparing or rule != sight.default_rule(board.grid.kind):
                # the badge sits at the bottom of the board area, clear of the column numbers along
                # its top; with the default rule and nothing open it is not drawn (F1 lists the keys)
                badge = (f"Rule: {rule.spec()}   {chords('rule_next')} next · {chords('rule_of_map')} map's ·"
                         f" {chords('rule_parameters')} parameters · {chords('rule_compare')} compare ·"
                         f" {chords('rule_compare_with')} compare with")
                bottom = _text_box(screen, font, [(badge, _TEXT)], viewport.x + 6, bottom, viewport.w - 12,
                                   above=True)
            if self.shown:  # the parameter panel stands on the badge
                self._draw_panel(screen, font, rule, viewport.x + 6, viewport.y + 6, bottom - 4)
        finally:
            screen.set_clip(clip)

    def _draw_line(
        self, screen: pygame.Surface, view: object, board: Board, ends: tuple[Square, Square, str | None],
        rule: Profile, scale: float,
    ) -> tuple[str, tuple[int, int, int]]:
        from game.core import sight

        a, b, viewer = ends
        if not (board.on_board(a) and board.on_board(b)):
            return ("", _TEXT)
        result = sight.line(board, a, b, rule, viewer=viewer)
        width = max(2, round(3 * scale))
        for line in result.lines[:4]:
            p = view.to_screen(float(line.start[0]), float(line.start[1]))  # type: ignore[attr-defined]
            q = view.to_screen(float(line.end[0]), float(line.end[1]))  # type: ignore[attr-defined]
            pygame.draw.line(screen, _CLEAR if line.clear else _BLOCKED, p, q, width)
        text = plain(result.explain())  # places named by squares, as everywhere in the window
        if len(text) > 420:  # the board stays visible; the whole sentence is one `sightline los --rule` away
            cut = text.rfind(";", 0, 400)
            text = text[: cut + 1 if cut > 0 else text.rfind(" ", 0, 400)] + " (more: sightline los --rule)"
        return (text, _CLEAR if result.clear else _BLOCKED)

    def _draw_panel(
        self, screen: pygame.Surface, font: pygame.font.Font, rule: Profile, x: int, top: int, bottom: int
    ) -> None:
        rows: list[tuple[str, str, tuple[int, int, int]]] = []
        for i, (parameter, value) in enumerate(rule.values().items()):
            why = rule.interp(parameter)
            mark = f"  [INTERP] {why}" if why else ""
            changed = "  (changed)" if parameter in rule.overrides() else ""
            prefix = "> " if i == self.row else "  "
            text = f"{prefix}{parameter} = {value}{changed}{mark}"
            rows.append((parameter, text, _MARK if why else _TEXT))
        line_h = font.get_linesize()
        hint = (f"{chords('rule_row_up')}/{chords('rule_row_down')} choose · {chords('rule_flip')} or a click"
                f" flips · {chords('rule_parameters_hide')} hides · " + MEANING[list(PARAMETERS)[self.row]])
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
            if i == self.row:
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
    lines = [(t, c) for t, c in lines if t]
    wrapped: list[tuple[str, tuple[int, int, int]]] = []
    for text, colour in lines:
        words = text.split(" ")
        current = ""
        for word in words:
            trial = f"{current} {word}".strip()
            if current and font.size(trial)[0] > max_width - 16:
                wrapped.append((current, colour))
                current = word
            else:
                current = trial
        wrapped.append((current, colour))
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
