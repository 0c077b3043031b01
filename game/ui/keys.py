"""Every key and mouse action of the window, in ONE table.

The window's event handling looks keys up here (:func:`binding_for`) and the F1 overlay
(``game/ui/help.py``) lists this same table, so the help can never drift from what the keys do.
Each :class:`Binding` names an action and the method that does it, as a path from the window
(:func:`handler`): ``presenter.cycle_selection`` is the presenter's
(:class:`~game.play.presenter.Presenter`, no pygame), ``reader.toggle`` the large reader's,
``zoom`` the window's own (view, layout, files and pictures); with the binding's ``args``, the
chord pressed (``passes="chord"``) or the key code (``passes="key"``). ``idle`` keys wait while
a mouse button is held (nothing is rolled or undone in the middle of a drag). A test checks that
every binding's method is there on a real window.

Key chords are written as people read them: ``Ctrl+Z``, ``Shift+Tab``, ``F1``, ``PageDown``,
``]``. Modifiers must match exactly (Caps Lock and Num Lock are ignored), so ``Tab`` and
``Shift+Tab`` are different chords.

A few keys mean something else while part of the window is shown: a binding with ``when`` set
(a name in :data:`CONTEXTS`) applies only in that state and then wins over the binding of the same
chord without ``when``; in a :data:`MODAL` state (the lesson menu) only its own keys work. The
window says which states hold (``App.key_states``); the help lists the contextual rows with the
state's words, and the plain rows they shadow say so.

>>> import pygame
>>> action_for(pygame.K_z, pygame.KMOD_LCTRL)
'undo'
>>> action_for(pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT), action_for(pygame.K_TAB, 0)
('redo', 'select_next')
>>> action_for(pygame.K_z, 0) is None
True
>>> action_for(pygame.K_i, 0), action_for(pygame.K_i, 0, {"rule_parameters"})
('reader_findings', 'rule_row_up')
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class Binding:
    """An action bound to one or more key chords, with the sentence the help overlay shows."""

    action: str
    keys: tuple[str, ...]
    text: str
    group: str
    #: the state in which the binding applies (a key of :data:`CONTEXTS`); "" for always
    when: str = ""
    #: the method that does it, as attributes from the window (``presenter.toggle``)
    call: str = ""
    #: what it is called with: these arguments, then the chord (``passes="chord"``) or the key
    #: code (``passes="key"``)
    args: tuple[object, ...] = ()
    passes: str = ""
    #: not while a mouse button is held
    idle: bool = False

    def arguments(self, chord: str, key: int) -> tuple[object, ...]:
        """What :attr:`call` is called with for a press of ``chord`` (key code ``key``).

        >>> binding("cursor_left").arguments("Ctrl+Left", 0), binding("reach_steps").arguments("3", 51)
        ((-1, 0), ('3',))
        """
        extra: tuple[object, ...] = {"chord": (chord,), "key": (key,)}.get(self.passes, ())
        return (*self.args, *extra)


@dataclass(frozen=True)
class MouseAction:
    """A mouse gesture and what it does (handled by the window; listed by the help overlay)."""

    gesture: str
    text: str
    group: str


#: the groups, in the order the help overlay shows them
GROUPS: tuple[str, ...] = (
    "Figures and sight", "Measuring", "Attacks", "Doors", "Board view", "Line-of-sight rule", "History",
    "Lessons", "Window",
)

#: states in which some keys mean something else → the words the help says them with
#: ("while …: does this" on the contextual row, "(not while …)" on the row it shadows)
CONTEXTS: dict[str, str] = {
    "lesson_menu": "the lesson menu is open",
    "reader": "the large reader is open",
    "rule_parameters": "J shows the rule's parameters",
}
#: states in which only their own keys work: every other key does nothing
MODAL: frozenset[str] = frozenset({"lesson_menu"})

KEY_BINDINGS: tuple[Binding, ...] = (
    Binding("select_next", ("Tab",), "select the next figure", "Figures and sight",
            call="presenter.cycle_selection", args=(1,)),
    Binding("select_prev", ("Shift+Tab",), "select the previous figure", "Figures and sight",
            call="presenter.cycle_selection", args=(-1,)),
    Binding("toggle_fov", ("F",), "shade every square the ray's start cannot see (figure or"
            " square)", "Figures and sight",
            call="presenter.toggle", args=("fov",)),
    Binding("sight_start", ("S",), "start the ray at the cursor square (no figure needed; again:"
            " clear it)", "Figures and sight",
            call="presenter.sight_start_at_cursor"),
    Binding("sight_end", ("E",), "pin the ray's end at the cursor square (again: unpin)", "Figures and sight",
            call="presenter.sight_end_at_cursor"),
    Binding("viewer_next", ("V",), "viewer side: auto, each side on the map, no side (every"
            " figure blocks)", "Figures and sight",
            call="presenter.next_viewer"),
    Binding("cursor_left", ("Ctrl+Left",), "move the square cursor left", "Figures and sight",
            call="presenter.move_cursor", args=(-1, 0)),
    Binding("cursor_right", ("Ctrl+Right",), "move the square cursor right", "Figures and sight",
            call="presenter.move_cursor", args=(1, 0)),
    Binding("cursor_up", ("Ctrl+Up",), "move the square cursor up", "Figures and sight",
            call="presenter.move_cursor", args=(0, -1)),
    Binding("cursor_down", ("Ctrl+Down",), "move the square cursor down", "Figures and sight",
            call="presenter.move_cursor", args=(0, 1)),
    Binding("ruler", ("M",), "ruler: distance from the ray's start to the cursor, with its range"
            " ring", "Measuring",
            call="presenter.toggle", args=("ruler",)),
    Binding("reach", ("W",), "movement reach from the ray's start (walls, doors, terrain, enemies"
            " stop it)", "Measuring",
            call="presenter.toggle", args=("reach",)),
    Binding("reach_steps", tuple(str(n) for n in range(1, 10)), "reach: that many steps (W"
            " shows it)", "Measuring",
            call="presenter.set_reach_steps", passes="chord"),
    Binding("target_next", ("T",), "target the next enemy (the ones the attack can reach first)", "Attacks",
            call="presenter.cycle_target", args=(1,)),
    Binding("target_prev", ("Shift+T",), "target the previous enemy", "Attacks",
            call="presenter.cycle_target", args=(-1,)),
    Binding("attack_next", ("A",), "the attacker's next attack (Mage Knight: the next phase)", "Attacks",
            call="presenter.attack_action", args=("cycle_attack",)),
    Binding("roll", ("R",), "roll the attack (Mage Knight: commit it); while the dice roll,"
            " finish", "Attacks",
            call="presenter.attack_action", args=("roll",), idle=True),
    Binding("skip_dice", ("Space",), "skip the dice tray to the end", "Attacks",
            call="presenter.attack.skip"),
    Binding("play_entry", ("Enter",), "type the play (Mage Knight); Enter again commits it"
            " (classroom: reveal the answer)", "Attacks",
            call="play_entry"),
    Binding("fresh_dice", ("D",), "new dice: the next attack does not repeat an undone attack's"
            " dice", "Attacks",
            call="presenter.attack_action", args=("fresh_dice",)),
    Binding("rest", ("Shift+R",), "rest: the rules' extra action for the attacker's side", "Attacks",
            call="presenter.attack_action", args=("perform",), idle=True),
    Binding("close_doors", ("C",), "close every open door (locked doors stay locked)", "Doors",
            call="presenter.close_doors"),
    Binding("zoom_in", ("+", "="), "zoom in around the board's centre", "Board view",
            call="zoom", args=(1,)),
    Binding("zoom_out", ("-",), "zoom out", "Board view",
            call="zoom", args=(-1,)),
    Binding("pan_left", ("Left",), "pan left", "Board view",
            call="pan_by", args=(1, 0)),
    Binding("pan_right", ("Right",), "pan right", "Board view",
            call="pan_by", args=(-1, 0)),
    Binding("pan_up", ("Up",), "pan up", "Board view",
            call="pan_by", args=(0, 1)),
    Binding("pan_down", ("Down",), "pan down", "Board view",
            call="pan_by", args=(0, -1)),
    Binding("fit", ("Home",), "fit the whole board in the window", "Board view",
            call="fit"),
    Binding("coordinates", ("G",), "coordinate labels on the board's edges: x along the top, y"
            " down the left", "Board view",
            call="presenter.toggle", args=("coordinates",)),
    Binding("coverage", ("H",), "coverage heat map: how many squares see each square (designers)", "Board view",
            call="presenter.toggle", args=("heat",)),
    Binding("reader_findings", ("I",), "the map check's findings in a large list: filters, every"
            " finding whole", "Board view",
            call="reader.toggle", args=("findings",)),
    Binding("finding_next", ("F3",), "the next finding: centred on the board, outlined, explained", "Board view",
            call="step_finding", args=(1,)),
    Binding("finding_prev", ("Shift+F3",), "the previous finding", "Board view",
            call="step_finding", args=(-1,)),
    Binding("finding_filter", ("F4",), "which findings are listed: all, errors only, warnings"
            " only", "Board view",
            call="finding_filter"),
    Binding("rule_next", ("K",), "the next line-of-sight rule: arcadia, corners, dnd5e, pf2e,"
            " any-point (sight, FOV and the drawn line follow it; attacks keep the map's rule)", "Line-of-sight rule",
            call="presenter.rule", args=("next_rule",)),
    Binding("rule_of_map", ("Shift+K",), "back to the map's own rule (its los_rule; a lesson"
            " board's in the lessons)", "Line-of-sight rule",
            call="presenter.rule", args=("map_rule",)),
    Binding("rule_parameters", ("J",), "show the rule's parameters, [INTERP] marking our readings"
            " of a game's rules", "Line-of-sight rule",
            call="presenter.rule", args=("show",)),
    Binding("rule_parameters_hide", ("Shift+J",), "hide the rule's parameters", "Line-of-sight rule",
            call="presenter.rule", args=("hide",)),
    Binding("rule_row_up", ("I",), "select the parameter above", "Line-of-sight rule", when="rule_parameters",
            call="presenter.rule", args=("row_up",)),
    Binding("rule_row_down", ("U",), "select the parameter below", "Line-of-sight rule", when="rule_parameters",
            call="presenter.rule", args=("row_down",)),
    Binding("rule_flip", ("H",), "flip the selected parameter to its next value", "Line-of-sight rule", when="rule_parameters",
            call="presenter.rule", args=("flip_selected",)),
    Binding("rule_compare", ("X",), "compare mode: shade where the rule and the compared rule"
            " disagree from the ray's start (again: off)", "Line-of-sight rule",
            call="presenter.rule", args=("toggle_compare",)),
    Binding("rule_compare_with", ("Shift+X",), "compare with the next rule (compare mode on)", "Line-of-sight rule",
            call="presenter.rule", args=("compare_next",)),
    Binding("reader_ray", ("Shift+E",), "the ray's whole reasoning with exact values in a large reader"
            " (every line the rule tried; the panel rounds them)", "Line-of-sight rule",
            call="reader.toggle", args=("ray",)),
    Binding("reader_log", ("Shift+L",), "the whole log in a large, scrollable reader (drag its"
            " top edge)", "History",
            call="reader.toggle", args=("log",)),
    Binding("reader_scroll", ("Up", "Down", "PageUp", "PageDown", "Home", "End"), "scroll it: a"
            " line, a page, to the top, to the end", "History", when="reader",
            call="reader.key", passes="key"),
    Binding("undo", ("Ctrl+Z",), "undo the last move, door change or whole attack", "History",
            call="presenter.undo", idle=True),
    Binding("redo", ("Ctrl+Y", "Ctrl+Shift+Z"), "redo what was undone", "History",
            call="presenter.redo", idle=True),
    Binding("reload", ("F5",), "reload the map from disk now (it also reloads by itself)", "History",
            call="reload"),
    Binding("lessons", ("L",), "start or leave the line-of-sight lessons", "Lessons",
            call="presenter.toggle_lessons"),
    Binding("step_next", ("N",), "lessons: next crossing of the ray, with what the rule says", "Lessons",
            call="presenter.step", args=(1,)),
    Binding("step_prev", ("P",), "lessons: previous crossing", "Lessons",
            call="presenter.step", args=(-1,)),
    Binding("lesson_next", ("PageDown", "]"), "lessons: next board", "Lessons",
            call="presenter.next_lesson", args=(1,)),
    Binding("lesson_prev", ("PageUp", "["), "lessons: previous board", "Lessons",
            call="presenter.next_lesson", args=(-1,)),
    Binding("present", ("F2",), "classroom mode: large type, the verdict on the board, predict"
            " then reveal", "Lessons",
            call="present"),
    Binding("predict_clear", ("Y",), "classroom: the class predicts clear", "Lessons",
            call="presenter.predict", args=("clear",)),
    Binding("predict_blocked", ("B",), "classroom: the class predicts blocked", "Lessons",
            call="presenter.predict", args=("blocked",)),
    Binding("lesson_menu", ("O",), "classroom: the lesson menu with the progress", "Lessons",
            call="presenter.toggle_lesson_menu"),
    Binding("menu_choose", ("Up", "Down", "Left", "Right"), "choose a lesson", "Lessons", when="lesson_menu",
            call="presenter.menu_step", passes="chord"),
    Binding("menu_open", ("Enter",), "open the chosen lesson", "Lessons", when="lesson_menu",
            call="presenter.menu_open"),
    Binding("menu_close", ("Esc", "O"), "close the menu (every other key waits until it is"
            " closed)", "Lessons", when="lesson_menu",
            call="presenter.menu_close"),
    Binding("export_view", ("Ctrl+S",), "save the window as a PNG in the current folder", "Window",
            call="export_view"),
    Binding("export_steps", ("Ctrl+Shift+S",), "lessons: save the board and each step of the ray"
            " as PNGs", "Lessons",
            call="export_steps"),
    Binding("export_log", ("Ctrl+L",), "save the whole log, every entry in full, as a text file", "History",
            call="presenter.export_log"),
    Binding("copy_log", ("Ctrl+C",), "copy the whole log, every entry in full, to the clipboard", "History",
            call="copy_log"),
    Binding("help", ("F1",), "show or hide this help", "Window",
            call="toggle_help"),
    Binding("escape", ("Esc",), "close the help, the rules window or the dice tray, unpin and"
            " drop the target, or deselect (and clear the message)", "Window",
            call="escape"),
    Binding("quit", ("Q",), "quit (play state is already saved)", "Window",
            call="quit"),
)

MOUSE_ACTIONS: tuple[MouseAction, ...] = (
    MouseAction("Click a figure", "select it (click again on a stack for the next one)", "Figures and sight"),
    MouseAction("Click an empty square", "start the ray there (no figure needed; again: clear it)", "Figures and sight"),
    MouseAction("Hover a square", "draw the ray from the selected figure or start square, explained", "Figures and sight"),
    MouseAction("Drag the start or the pinned end", "move that end of the ray", "Figures and sight"),
    MouseAction("Drag a figure", "move it; a full or off-board square refuses it and it returns", "Figures and sight"),
    MouseAction("Hover a figure", "its card: name, side, stats, condition (no need to select it)",
                "Figures and sight"),
    MouseAction("Right-click a square", "pin the ray's target there (again to unpin)", "Figures and sight"),
    MouseAction("Right-click a figure", "target it for an attack (again: drop it; Mage Knight: several)", "Attacks"),
    MouseAction("Attack panel (right)", "choose the attack, see the verdict and exact odds, Roll", "Attacks"),
    MouseAction("Click a door", "cycle it closed, open, locked", "Doors"),
    MouseAction("Wheel", "zoom around the cursor", "Board view"),
    MouseAction("Right-drag or middle-drag", "pan the board", "Board view"),
    MouseAction("Click a finding", "centre the board on it (panel, right)", "Board view"),
    MouseAction("Click a rule parameter", "flip it to its next value (J shows them)", "Line-of-sight rule"),
)

_NAMED_KEYS: dict[str, int] = {
    "tab": pygame.K_TAB,
    "esc": pygame.K_ESCAPE,
    "enter": pygame.K_RETURN,
    "home": pygame.K_HOME,
    "left": pygame.K_LEFT,
    "right": pygame.K_RIGHT,
    "up": pygame.K_UP,
    "down": pygame.K_DOWN,
    "pagedown": pygame.K_PAGEDOWN,
    "pageup": pygame.K_PAGEUP,
    "+": pygame.K_PLUS,
    "=": pygame.K_EQUALS,
    "-": pygame.K_MINUS,
    "[": pygame.K_LEFTBRACKET,
    "]": pygame.K_RIGHTBRACKET,
    "end": pygame.K_END,
}
#: keypad twins of some keys
_KEYPAD: dict[int, int] = {
    pygame.K_KP_PLUS: pygame.K_PLUS,
    pygame.K_KP_MINUS: pygame.K_MINUS,
    pygame.K_KP_ENTER: pygame.K_RETURN,
}
_MODS = {"ctrl": pygame.KMOD_CTRL, "shift": pygame.KMOD_SHIFT, "alt": pygame.KMOD_ALT}


def parse_chord(chord: str) -> tuple[int, frozenset[str]]:
    """A chord as written in the table → (pygame key code, modifier names).

    >>> parse_chord("Ctrl+Shift+Z") == (pygame.K_z, frozenset({"ctrl", "shift"}))
    True
    >>> parse_chord("+") == (pygame.K_PLUS, frozenset())
    True
    """
    parts = chord.split("+") if chord != "+" else ["+"]
    if parts[-1] == "" and len(parts) > 1:  # "Ctrl++"
        parts = [*parts[:-2], "+"]
    *mods, key = parts
    names = frozenset(m.strip().lower() for m in mods)
    unknown = names - _MODS.keys()
    if unknown:
        raise ValueError(f"unknown modifier in key chord {chord!r}: {sorted(unknown)}")
    name = key.strip().lower()
    if name in _NAMED_KEYS:
        return _NAMED_KEYS[name], names
    if len(name) == 1 and (name.isalnum()):
        return ord(name), names
    code = getattr(pygame, f"K_{key.strip().upper()}", None)
    if code is None:
        raise ValueError(f"unknown key in chord {chord!r}")
    return int(code), names


def _held(mod: int) -> frozenset[str]:
    return frozenset(name for name, bits in _MODS.items() if mod & bits)


_TABLE: dict[tuple[int, frozenset[str], str], tuple[Binding, str]] = {}
for _binding in KEY_BINDINGS:
    if _binding.when and _binding.when not in CONTEXTS:
        raise ValueError(f"binding {_binding.action} names an unknown state {_binding.when!r}")
    if _binding.passes not in ("", "chord", "key"):
        raise ValueError(f"binding {_binding.action} passes {_binding.passes!r}: say chord or key")
    for _chord in _binding.keys:
        _key = (*parse_chord(_chord), _binding.when)
        if _key in _TABLE:
            raise ValueError(f"key chord {_chord} is bound twice")
        _TABLE[_key] = (_binding, _chord)


def action_for(key: int, mod: int, states: Collection[str] = ()) -> str | None:
    """The action bound to a key press (``event.key``, ``event.mod``), or None (see
    :func:`binding_for`)."""
    found = binding_for(key, mod, states)
    return found[0].action if found is not None else None


def binding_for(key: int, mod: int, states: Collection[str] = ()) -> tuple[Binding, str] | None:
    """The binding of a key press (``event.key``, ``event.mod``) and the chord it matched, or None.

    ``states`` are the :data:`CONTEXTS` that hold now; a binding of one of them wins over the
    plain binding of the same chord, and in a :data:`MODAL` state only that state's bindings
    count. ``+`` also matches Shift+= (where ``+`` is typed with
    Shift) and the keypad's plus.
    """
    key = _KEYPAD.get(key, key)
    held = _held(mod)
    candidates = [held]
    if "shift" in held and key < 128 and not chr(key).isalnum() and key != pygame.K_TAB:
        candidates.append(held - {"shift"})  # punctuation typed with Shift ("+" is Shift+= on many layouts)
    active = [s for s in CONTEXTS if s in states]
    modal = [s for s in active if s in MODAL][:1]
    whens = modal or [*active, ""]
    for mods in candidates:
        for when in whens:
            found = _TABLE.get((key, mods, when))
            if found is not None:
                return found
    return None


def handler(window: object, entry: Binding) -> Callable[..., object]:
    """The method a binding runs, found from ``window`` along :attr:`Binding.call`."""
    found: object = window
    for name in entry.call.split("."):
        found = getattr(found, name)
    if not callable(found):
        raise TypeError(f"binding {entry.action}: {entry.call} is not a method")
    return found


def shadowed_by(entry: Binding) -> list[str]:
    """The states, not modal ones, in which another binding takes one of ``entry``'s chords (the
    help says so on ``entry``'s row; a modal state's own rows say that it takes every key).

    >>> shadowed_by(binding("coverage")), shadowed_by(binding("pan_up")), shadowed_by(binding("undo"))
    (['rule_parameters'], ['reader'], [])
    """
    if entry.when:
        return []
    chords = {parse_chord(chord) for chord in entry.keys}
    return [when for when in CONTEXTS
            if when not in MODAL and any((*chord, when) in _TABLE for chord in chords)]


def chords(action: str) -> str:
    """The chords of an action as the help writes them (``"Ctrl+Y / Ctrl+Shift+Z"``)."""
    return " / ".join(binding(action).keys)


def binding(action: str) -> Binding:
    """The binding of an action (KeyError if there is none)."""
    for entry in KEY_BINDINGS:
        if entry.action == action:
            return entry
    raise KeyError(action)
