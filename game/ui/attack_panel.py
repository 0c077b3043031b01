"""Attacks in the window: the side-panel section of the attack flow.

The flow itself (what is being built, the rules' answers, rolling, recording) is
:class:`game.play.attack.AttackController`, which has no pygame; the window drives it and the
:class:`~game.ui.dice_tray.DiceTray` reveals its resolutions (the tray is its
:class:`~game.play.attack.Reveal`).

:class:`AttackSection` is the pygame_gui section of the side panel: who attacks whom, an attack
drop-down, the play entry (for an attack that takes a typed play), the legality sentence, the
odds chart (deterministic rules: the tally's comparison), Roll (Commit), the ruleset's actions
(Rest ...), the tray speed and the roll log. Above the legality sentence, in amber, the rules'
"Not applied" lines, each as its first clause; first of all, in amber, the frame's rule notice when
the ray is drawn under another rule than the one the attack is judged by (the rule switch ``K`` is
a what-if view; attacks keep the map's rule). After an attack that calls for a reaction (Guard,
Payback), the verdict box offers it as the next step, Roll is named after it and a Skip button
drops it. A ruleset's first choice (Conquest: the defender's
Block stat) gets a drop-down in the play entry's row; the rules' default is the first entry.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIImage,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIMessageWindow

from game.core.errors import FacesError, PlayError, SightlineError
from game.play.attack import AttackController
from game.play.roll_log import plain_text
from game.play.wording import verdict_words
from game.ui.dice_tray import SPEED_NAMES, DiceTray
from game.ui.odds_chart import OddsChart
from game.ui.panel import fit_text, label_room

#: the action entry of the "New dice" button (not a rules action)
FRESH_DICE = "new dice"
#: the action entry of the button that skips the reaction offered (Guard, Payback)
SKIP_REACTION = "skip reaction"
#: the colour of the reaction offered, of the "Not applied" lines and of the notice that the ray
#: is drawn under another rule than the attack's (amber)
NOTE_COLOUR = RULE_NOTICE_COLOUR = "#FFC34D"
#: the Roll / Commit button's width: room for "Commit (Enter)"
ROLL_W = 116


def window_words(error: SightlineError) -> str:
    """A rules error in the window's words: the play is what is typed in the panel's entry.

    >>> window_words(PlayError("ranged fire"))
    "Play 'ranged fire' is not understood: write [ranged|siege|attack|block] VALUE [element], \
e.g. ranged 3 fire, siege 2"
    >>> window_words(PlayError("ranged -3", "values are whole numbers of 0 or more, not negative"))
    "Play 'ranged -3': values are whole numbers of 0 or more, not negative"
    >>> from game.core.errors import PlayBlocksError
    >>> window_words(PlayBlocksError("Wolf Riders", 1, 2))
    "Wolf Riders has 1 attack but the play has 2 ';'-separated blocks"
    """
    if isinstance(error, PlayError):
        if error.problem is None:
            return (f"Play {error.item!r} is not understood: write [ranged|siege|attack|block] VALUE "
                    f"[element], e.g. {PlayError.EXAMPLE}")
        return f"Play {error.item!r}: {error.problem}"
    if isinstance(error, FacesError):
        return f"Dice faces: {error.problem}"
    text = str(error)
    return text[:1].upper() + text[1:]


class _PlayEntry(UITextEntryLine):
    """The play entry; unfocusing it (Enter, Esc) also clears the manager's focus, so that a
    later click on it focuses it again (pygame_gui ignores a click on the element it still
    counts as focused)."""

    _releasing = False

    def unfocus(self) -> None:
        """No longer the keyboard's: here and in the manager's focus set."""
        super().unfocus()
        if self._releasing:
            return
        focus = self.ui_manager.get_focus_set()
        if focus is not None and self in focus:
            self._releasing = True
            try:
                self.ui_manager.set_focus_set(None)
            finally:
                self._releasing = False


# --- the side-panel section ----------------------------------------------------------------

HEADING = 22
ROW = 28
GAP = 5
CHART_H = 80
VERDICT_H = 84
#: the smallest verdict box (one line, or two when there is room) and chart (its caption only)
VERDICT_MIN = 48
VERDICT_TWO = 62
CHART_MIN = 24
#: the section's height: heading, menus, play entry / block stat, verdict, chart, buttons
SECTION_HEIGHT = HEADING + GAP + ROW + GAP + ROW + GAP + VERDICT_H + GAP + CHART_H + GAP + ROW
#: the least it is laid out in (a short window): verdict and chart shrink
SECTION_MIN = HEADING + GAP + ROW + GAP + ROW + GAP + VERDICT_MIN + GAP + CHART_MIN + GAP + ROW


class AttackSection:
    """The attack panel: a :class:`~game.ui.panel.Section` of the side panel (flexible height)."""

    title = "Attack"
    flex = 0
    keep = 2

    def __init__(self, controller: AttackController) -> None:
        self.controller = controller
        controller.phrase = window_words  # the rules' errors, in the window's words
        self.chart = OddsChart()
        self.manager: pygame_gui.UIManager | None = None
        self.container: UIPanel | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.heading: UILabel | None = None
        self.attack_menu: UIDropDownMenu | None = None
        self.speed_menu: UIDropDownMenu | None = None
        self.play_entry: UITextEntryLine | None = None
        #: the drop-down of the rules' first choice (Conquest: the Block stat)
        self.choice_menu: UIDropDownMenu | None = None
        self._choice_values: dict[str, str | None] = {}
        self._mode_seen: tuple[tuple[object, ...], str] | None = None
        self.verdict_box: UITextBox | None = None
        self.chart_image: UIImage | None = None
        self.roll_button: UIButton | None = None
        self.action_buttons: list[tuple[UIButton, str]] = []
        self.rules_button: UIButton | None = None
        self.rules_window: UIMessageWindow | None = None
        self._keys: dict[str, object] = {}
        #: laid out with no room (the lessons): no elements at all
        self.hidden = False
        #: the texts shown now (tests read them)
        self.shown: dict[str, str] = {}

    @property
    def fixed_height(self) -> int:
        """The height it asks for: no second row when the rules need none."""
        return SECTION_HEIGHT if self._mode() != "none" else SECTION_HEIGHT - ROW - GAP

    @property
    def min_height(self) -> int:
        """The least height it is laid out in (a short window): verdict and chart shrink."""
        return SECTION_MIN if self._mode() != "none" else SECTION_MIN - ROW - GAP

    @property
    def comfort_height(self) -> int:
        """The least it gives up room to while a section that keeps more still has some to give
        (:func:`~game.ui.panel.plan_heights`): two lines of verdict."""
        return self.min_height + VERDICT_TWO - VERDICT_MIN

    @property
    def tray_speed(self) -> str:
        """The dice tray's speed (``normal`` when the flow reveals with something else)."""
        tray = self.controller.tray
        return tray.speed if isinstance(tray, DiceTray) else "normal"

    # --- building ------------------------------------------------------------------------

    def wanted_height(self, info: Any, width: int, measure: Any) -> int | None:
        """Nothing in the lessons (the window's attack keys rest there too); else its rows."""
        if info is not None and getattr(info, "extra", {}).get("lessons"):
            return 0
        return None

    def build(self, manager: pygame_gui.UIManager, container: UIPanel, rect: pygame.Rect) -> None:
        """Create the elements inside ``rect``; the menus are rebuilt when their options change.

        With no room (the lessons) it creates nothing and stays empty until the next layout.
        """
        self.manager, self.container, self.rect = manager, container, pygame.Rect(rect)
        self._keys = {}
        self.action_buttons = []
        self.hidden = rect.h < HEADING
        if self.hidden:
            self.heading = self.attack_menu = self.speed_menu = self.choice_menu = None
            self.play_entry = self.verdict_box = self.chart_image = None
            self.roll_button = self.rules_button = None
            return
        x, y, w = rect.x, rect.y, rect.w
        self.heading = UILabel(pygame.Rect(x, y, w, HEADING), self.title, manager,
                               container=container, object_id="#section_heading")
        y += HEADING
        y += GAP
        self._menu_rect = pygame.Rect(x, y, w - 124, ROW)
        self._speed_rect = pygame.Rect(x + w - 120, y, 88, ROW)
        self.rules_button = UIButton(pygame.Rect(x + w - 28, y, 28, ROW), "?", manager,
                                     container=container,
                                     tool_tip_text="the rules' assumptions where the sources are silent")
        self.attack_menu = None
        self.speed_menu = UIDropDownMenu(list(SPEED_NAMES), self.tray_speed,
                                         self._speed_rect, manager, container=container)
        y += ROW + GAP
        self._play_rect = pygame.Rect(x, y, w, ROW)
        self.play_entry = _PlayEntry(self._play_rect, manager, container=container,
                                     placeholder_text=self.controller.play_hint)
        self.play_entry.set_text(self.controller.play)
        self.choice_menu = None
        self._below_play = y + ROW + GAP
        self._below_menu = y
        self.verdict_box = UITextBox("", pygame.Rect(x, y, w, VERDICT_H), manager, container=container)
        self.chart_image = UIImage(pygame.Rect(x, y, w, CHART_H), pygame.Surface((w, CHART_H)),
                                   manager, container=container)
        self.roll_button = UIButton(pygame.Rect(x, y, ROLL_W, ROW), "Roll (R)", manager,
                                    container=container)
        self._place(self._mode())

    def _mode(self) -> str:
        """What the second row holds: ``play`` (the attack takes a typed play), ``choice`` (the
        rules give a choice) or ``none``; asked of the rules only when the attack changes."""
        c = self.controller
        board = c.board
        key = (board.serial if board is not None else None, board.version if board is not None else None, c.attacker, c.attack,
               tuple(c.targets))
        if self._mode_seen is not None and self._mode_seen[0] == key:
            return self._mode_seen[1]
        mode = "play" if c.play_hint else ("choice" if c.choices() else "none")
        self._mode_seen = (key, mode)
        return mode

    def _place(self, mode: str) -> None:
        """Lay the rows out: the second row (play entry or block stat) only when the rules
        need it; the verdict and the chart share what is left above the buttons."""
        assert self.play_entry is not None and self.verdict_box is not None
        assert self.chart_image is not None and self.roll_button is not None
        x = self.rect.x
        if mode == "play":
            self.play_entry.show()
        else:
            self.play_entry.hide()
        if mode != "choice" and self.choice_menu is not None:
            self.choice_menu.kill()
            self.choice_menu = None
            self._keys.pop("choice", None)
        y = self._below_menu if mode == "none" else self._below_play
        room = self.rect.bottom - ROW - GAP - y  # verdict, a gap, the chart
        # the verdict first (two lines), then the chart, then the verdict's third and fourth line
        verdict_h = max(VERDICT_TWO, min(VERDICT_H, room - GAP - CHART_H))
        verdict_h = max(VERDICT_MIN, min(verdict_h, room - GAP - CHART_MIN))
        self._verdict_top, self._verdict_base, self._room = y, verdict_h, room
        self._size_verdict(verdict_h)
        self._buttons_y = self.rect.bottom - ROW
        self.roll_button.set_relative_position((x, self._buttons_y))
        self._keys.pop("actions", None)
        self._keys.pop("state", None)

    def _size_verdict(self, height: int) -> None:
        """The verdict box this tall, the chart under it taking the rest above the buttons."""
        assert self.verdict_box is not None and self.chart_image is not None
        x, w, y = self.rect.x, self.rect.w, self._verdict_top
        if self.verdict_box.relative_rect.topleft != (x, y):
            self.verdict_box.set_relative_position((x, y))
        if self.verdict_box.relative_rect.size != (w, height):
            self.verdict_box.set_dimensions((w, height))
        y += height + GAP
        self._chart_size = (w, max(CHART_MIN, self.rect.bottom - ROW - GAP - y))
        self.chart_image.set_relative_position((x, y))
        self.chart_image.set_dimensions(self._chart_size)

    def _fit_verdict(self) -> None:
        """A verdict longer than its box takes height from the chart (down to the chart's caption),
        so a short window shows the whole sentence; a short verdict keeps the usual layout."""
        box = self.verdict_box
        assert box is not None
        if box.text_box_layout is None:
            return
        rows = box.text_box_layout.layout_rows
        needed = (rows[-1].bottom if rows else 0) + box.rect.height - box.text_wrap_rect[3]
        height = min(max(needed, self._verdict_base), self._room - GAP - CHART_MIN)
        self._size_verdict(max(VERDICT_MIN, height))

    # --- refreshing ----------------------------------------------------------------------

    def _changed(self, key: str, value: object) -> bool:
        if self._keys.get(key, object()) == value:
            return False
        self._keys[key] = value
        return True

    def refresh(self, info: Any = None) -> None:
        """Show the controller's state; each element is touched only when its text changed."""
        c = self.controller
        c.sync()
        if self.manager is None or self.container is None or self.hidden:
            return
        deterministic = c.deterministic
        mode = self._mode()
        if self._changed("layout", mode):
            self._place(mode)
        board = c.board
        version = board.version if board is not None else None
        notice = getattr(info, "rule_notice", "")
        # everything below depends only on this: nothing is asked of the rules on other frames
        state = (board.serial if board is not None else None, version, c.attacker, tuple(c.targets), c.attack, c.play,
                 tuple(c.picks.items()), deterministic, self.typing, c.repeats_undone, c.reaction_key(),
                 notice)
        if not self._changed("state", state):
            return
        who = c.who_text()
        if self.heading is not None and self._changed("who", who):
            heading = f"{self.title}: {who}" if who else self.title
            self.heading.set_text(fit_text(self.heading.font, heading, label_room(self.heading)))
            self.shown["who"] = who
        self._refresh_menu()
        if mode == "choice":
            self._refresh_choice()
        hint = c.play_hint
        entry = self.play_entry
        if mode == "play" and entry is not None:
            if entry.get_text() != c.play and not entry.is_focused:
                entry.set_text(c.play)  # another attack (phase) cleared the play: its hint shows
            if self._changed("hint", hint):
                entry.set_text(c.play)
                entry.placeholder_text = hint
                entry.rebuild()
        self._refresh_verdict(notice)
        self._refresh_actions()

    def _refresh_menu(self) -> None:
        c = self.controller
        menu = c.menu()
        names = [o.name + ("" if o.usable else " (unusable)") for o in menu] or ["(no attacks)"]
        current = c.current_menu_name()
        chosen = next((n for n, o in zip(names, menu, strict=False) if o.name == current), names[0])
        if self._changed("menu", (tuple(names), chosen)):
            if self.attack_menu is not None:
                self.attack_menu.kill()
            options: list[str | tuple[str, str]] = list(names)
            self.attack_menu = UIDropDownMenu(options, chosen, self._menu_rect, self.manager,
                                              container=self.container)
            self.shown["menu"] = chosen

    def _refresh_choice(self) -> None:
        """The drop-down of the rules' first choice, rebuilt when its labels change."""
        c = self.controller
        labels = c.choice_labels()
        if not labels:
            return
        self._choice_values = {label: value for value, label in labels}
        picked = c.picked()
        chosen = next((label for value, label in labels if value == picked), labels[0][1])
        if self._changed("choice", (tuple(labels), chosen)) and self.manager is not None:
            if self.choice_menu is not None:
                self.choice_menu.kill()
            self.choice_menu = UIDropDownMenu([label for _, label in labels], chosen,
                                              self._play_rect, self.manager,
                                              container=self.container)
            self.shown["choice"] = chosen

    def _refresh_verdict(self, notice: str = "") -> None:
        c = self.controller
        assert self.verdict_box is not None and self.chart_image is not None
        self.shown["rule_notice"] = notice
        if self._show_reaction():
            return
        verdict = c.verdict()
        unusable = next((o for o in c.menu() if o.name == c.current_menu_name() and not o.usable), None)
        if verdict is None:
            text = unusable.reason if unusable is not None else ""
            if not text:
                text = ("Select the attacker: click a figure or press Tab." if c.attacker is None
                        else "Right-click a figure (or press T) to target it.")
            markup = f"<font color='#B0B2BA'>{_escape(text)}</font>"
        else:
            colour = "#7BE39A" if verdict.legal else "#FF8A80"
            text = verdict_words(verdict.legal, c.reason_of(verdict))
            markup = f"<font color='{colour}'>{_escape(text)}</font>"
            # the rules not applied come first, each as its short clause: always in sight
            notes = [short_note(line) for line in (c.not_applied() if verdict.legal else [])]
            if notes:
                text = "\n".join([*notes, text])
                markup = "".join(f"<font color='{NOTE_COLOUR}'>{_escape(n)}</font><br>" for n in notes) + markup
        self.shown["verdict"] = text
        if notice:  # the drawn rule is a what-if: the attack is judged by the map's rule (first, so
            # that a long verdict never scrolls it out of the box)
            markup = f"<font color='{RULE_NOTICE_COLOUR}'>{_escape(notice)}</font><br>" + markup
        self.verdict_box.set_text(markup)
        self._fit_verdict()
        size = self._chart_size
        if c.deterministic:
            numbers = c.preview_numbers()
            if numbers is None:
                surface = self.chart.draw(None, size, "Type the play, then see the total before committing.")
                self.shown["chart"] = ""
            else:
                surface = self.chart.draw_comparison(numbers.value, numbers.needed, numbers.caption,
                                                     size)
                self.shown["chart"] = numbers.caption
        else:
            odds = c.odds()
            surface = self.chart.draw(odds, size, "Odds appear when the attack is legal.")
            self.shown["chart"] = "" if odds is None else f"{odds.label}"
        self.chart_image.set_image(surface)
        if self.roll_button is not None:
            # an attack that takes a typed play is committed with Enter (Enter, type, Enter); while
            # it is typed R is a letter
            key = "Enter" if self.typing or c.play_hint else "R"
            label = f"Commit ({key})" if c.deterministic else f"Roll ({key})"
            if self.roll_button.text != label:
                self.roll_button.set_text(label)
            ready = not c.play_required or bool(c.play.strip())
            if verdict is not None and verdict.legal and ready:
                self.roll_button.enable()
            else:
                self.roll_button.disable()

    def _show_reaction(self) -> bool:
        """A reaction offered as the next step (Guard, Payback): its sentence in the verdict box,
        Roll named after it; True when one is offered."""
        c = self.controller
        reaction = c.next_reaction()
        if reaction is None or self.verdict_box is None:
            return False
        text = f"Next step: {reaction.why}"
        self.shown["verdict"] = text
        self.verdict_box.set_text(f"<font color='{NOTE_COLOUR}'>{_escape(text)}</font>")
        self._fit_verdict()
        assert self.chart_image is not None
        odds = c.reaction_odds()  # the reaction's own exact odds: the wounds it may deal
        self.chart_image.set_image(self.chart.draw(odds, self._chart_size,
                                                   f"{reaction.kind}: roll it (R) or skip it."))
        self.shown["chart"] = "" if odds is None else odds.label
        if self.roll_button is not None:
            label = f"{reaction.kind} (R)"
            if self.roll_button.text != label:
                self.roll_button.set_text(label)
            self.roll_button.enable()
        return True

    def _refresh_actions(self) -> None:
        c = self.controller
        actions = c.actions()
        if c.next_reaction() is not None:  # the reaction offered: roll it or skip it
            actions = [SKIP_REACTION]
        if c.repeats_undone:  # an undone attack's dice come next: offer fresh ones
            actions = [*actions, FRESH_DICE]
        if not self._changed("actions", tuple(actions)) or self.manager is None:
            return
        for button, _ in self.action_buttons:
            button.kill()
        self.action_buttons = []
        x = self.rect.x + ROLL_W + 4
        width = (self.rect.w - ROLL_W - 4) // max(1, len(actions)) - 4 if actions else 0
        for i, action in enumerate(actions):
            # the key in the label when the button has the row to itself, else in its tool tip
            name, chord = ("New dice", "D") if action == FRESH_DICE else (action.capitalize(), "Shift+R")
            if action == SKIP_REACTION:
                name, chord = "Skip", ""
            if action != FRESH_DICE and i > 0:
                chord = ""
            text = f"{name} ({chord})" if chord and len(actions) == 1 else name
            button = UIButton(pygame.Rect(x, self._buttons_y, width, ROW), text, self.manager,
                              container=self.container,
                              tool_tip_text=f"{name} ({chord})" if chord else None)
            self.action_buttons.append((button, action))
            x += width + 4

    def rules_text(self) -> str:
        """The ruleset's title and its assumptions (where the sources are silent), as markup."""
        ruleset = self.controller.ruleset
        if ruleset is None:
            return "No rules: the map names an unknown ruleset."
        items = "".join(f"<br>- {_escape(a)}" for a in ruleset.assumptions) or "<br>none"
        return f"<b>{_escape(ruleset.title)}</b><br>Assumptions where the sources are silent:{items}"

    @property
    def rules_open(self) -> bool:
        """Whether the assumptions window is shown."""
        return self.rules_window is not None and self.rules_window.alive()

    def close_rules(self) -> bool:
        """Esc: close the assumptions window (True), or nothing to close (False)."""
        if not self.rules_open:
            return False
        assert self.rules_window is not None
        self.rules_window.kill()
        self.rules_window = None
        return True

    def toggle_rules(self) -> None:
        """The ``?`` button: open the assumptions window, or close it when it is open."""
        if not self.close_rules():
            self.show_rules()

    def show_rules(self) -> None:
        """A window listing the rules' assumptions (shown afresh)."""
        if self.manager is None:
            return
        self.close_rules()
        width, height = self.manager.window_resolution
        rect = pygame.Rect(0, 0, min(560, width - 40), min(420, height - 40))
        rect.center = (width // 2, height // 2)
        ruleset = self.controller.ruleset
        title = f"{ruleset.title}: assumptions" if ruleset is not None else "Rules"
        self.rules_window = UIMessageWindow(rect, self.rules_text(), self.manager, window_title=title)
        self.shown["rules"] = self.rules_text()

    # --- events --------------------------------------------------------------------------

    def focus_play(self) -> bool:
        """Enter: give the keyboard to the play entry when the attack takes a typed play (True)."""
        entry = self.play_entry
        if entry is None or not entry.visible or self.manager is None or not self.controller.play_hint:
            return False
        self.manager.set_focus_set(entry)
        entry.edit_position = len(entry.get_text())  # the cursor after what was typed
        return True

    @property
    def typing(self) -> bool:
        """Whether the play entry has the keyboard (the window's hotkeys wait)."""
        return self.play_entry is not None and self.play_entry.visible and self.play_entry.is_focused

    def process_event(self, event: pygame.event.Event) -> object | None:
        """Buttons, menus and the play entry act on the controller; nothing for the window."""
        c = self.controller
        element = getattr(event, "ui_element", None)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if element is self.roll_button and element is not None:
                c.roll()
            if element is self.rules_button and element is not None:
                self.toggle_rules()
            for button, action in self.action_buttons:
                if element is button and action == SKIP_REACTION:
                    c.skip_reaction()
                elif element is button and action == FRESH_DICE:
                    c.fresh_dice()
                elif element is button:
                    c.perform(action)
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            text = str(getattr(event, "text", ""))
            if element is self.speed_menu and text in SPEED_NAMES:
                if isinstance(c.tray, DiceTray):
                    c.tray.speed = text
            elif element is self.attack_menu:
                c.set_attack(text.removesuffix(" (unusable)"))
            elif element is self.choice_menu and element is not None and text in self._choice_values:
                choices = c.choices()
                if choices:
                    c.pick(choices[0].key, self._choice_values[text])
        elif (
            event.type in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED)
            and element is self.play_entry
            and self.play_entry is not None
        ):
            c.play = str(getattr(event, "text", self.play_entry.get_text()))
            c.attack_name()  # the play belongs to the attack shown now
            if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
                self.play_entry.unfocus()  # and out of the manager's focus set: a click refocuses
                if c.play.strip():
                    # Enter commits the play (the keyboard path: Enter, type, Enter); a play that
                    # cannot be committed is said why, and Enter again goes back to mend it
                    c.roll()
        return None


def short_note(line: str) -> str:
    """A ``Not applied: ...`` line as the panel shows it: its first clause (the rule and whose),
    the whole sentence being in ``attack``'s log and ``odds``' note.

    >>> short_note("Not applied: Cinder is Huge: it fills a Space alone and counts as two characters.")
    'Not applied: Cinder is Huge.'
    >>> short_note("Not applied: Defend of Guardians: it may protect Orcs (its text is unknown).")
    'Not applied: Defend of Guardians.'
    """
    head, sep, rest = line.partition(": ")
    clause = rest.split(": ", 1)[0].rstrip(".") if sep else line
    return f"{head}{sep}{clause}."


def _escape(text: str) -> str:
    import html

    return html.escape(plain_text(text), quote=False)
