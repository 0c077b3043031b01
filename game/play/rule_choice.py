"""The line-of-sight rule the window draws by: the switcher, the parameter rows, the compare mode.

``K`` steps through the presets of the board's grid (squares: arcadia, corners, dnd5e, pf2e,
any-point; hexes: gloomhaven, hexside, hex-strict) and ``Shift+K`` goes back to the map's rule;
``J`` shows the rule's parameters, ``I``/``U`` choose a row and ``H`` (or a click) flips it;
``X`` shades where the rule and a compared rule disagree, ``Shift+X`` compares with the next
preset. The choice is a *what-if view*: the field of view and the drawn ray follow
it, attacks keep judging sight by the map's rule (``game/play/sight_calls.map_rule``) and the
presenter says so next to the attack when the two differ.

No pygame: the state and the sentences the window says; ``game/ui/rule_panel.py`` draws.

>>> from game.core.board import Board
>>> choice = RuleChoice()
>>> board = Board.from_ascii(["..."])
>>> choice.act("next_rule", board), choice.rule(board).spec()
('Line-of-sight rule: corners', 'corners')
>>> choice.act("map_rule", board)
"Line-of-sight rule: arcadia (the map's)"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from game.core.board import Board, Square
from game.core.profiles import PARAMETERS, PRESETS, Profile
from game.core.sight import RULE_BOOKS
from game.play.sight_calls import cast_field, map_rule

PRESET_NAMES = tuple(PRESETS)


def presets_of(board: Board) -> dict[str, Profile]:
    """The presets of the board's grid (the sight facade's rule book), in ``K``'s order."""
    return dict(RULE_BOOKS[board.grid.kind].presets)


def parameters_of(board: Board) -> dict[str, tuple[str, ...]]:
    """The rule parameters of the board's grid and their values, in the rows' order."""
    if board.grid.kind == "hex":
        from game.core.hex_rules import HEX_PARAMETERS

        return HEX_PARAMETERS
    return PARAMETERS


@dataclass
class RuleChoice:
    """The rule the window uses per board, the parameter rows' state and the compare mode."""

    #: the rule asked for on the command line for the main map (None: the map's ``los_rule``)
    default: Profile | None = None
    #: an action's key chords in words (the window passes its key table's), for the sentences
    chords: Callable[[str], str] = field(default=lambda action: action, repr=False)
    #: rules chosen in the window, per board serial
    chosen: dict[int, Profile] = field(default_factory=dict)
    shown: bool = False
    row: int = 0
    comparing: bool = False
    compare_with: str = PRESET_NAMES[0]
    _fields: dict[tuple[object, ...], np.ndarray] = field(default_factory=dict, repr=False)

    # --- the rule -----------------------------------------------------------------------------

    def rule(self, board: Board, lesson: bool = False) -> Profile:
        """The rule for ``board``: chosen here, else (main map) the command line's, else ``los_rule``."""
        found = self.chosen.get(board.serial)
        if found is not None:
            return found
        if self.default is not None and not lesson:
            return self.default
        return map_rule(board)

    def compared(self, board: Board, lesson: bool = False) -> Profile:
        """The rule compare mode sets against :meth:`rule` (never the same one), among the
        presets of the board's grid."""
        presets = presets_of(board)
        names = tuple(presets)
        name = self.compare_with if self.compare_with in presets else names[0]
        other = presets[name]
        if other == self.rule(board, lesson):
            other = presets[names[(names.index(name) + 1) % len(names)]]
        return other

    def visible_from(self, board: Board, origin: Square, viewer: str | None, rule: Profile) -> np.ndarray:
        """The field of view under ``rule`` (cached per board version)."""
        key = (board.serial, board.version, origin, viewer, rule)
        found = self._fields.get(key)
        if found is None:
            if len(self._fields) > 64:
                self._fields.clear()
            found = self._fields[key] = cast_field(board, origin, rule, viewer)
        return found

    def disagreement(
        self, board: Board, origin: Square, viewer: str | None, lesson: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Bool masks ``[y, x]``: seen under the rule only, and under the compared rule only."""
        first = self.visible_from(board, origin, viewer, self.rule(board, lesson))
        second = self.visible_from(board, origin, viewer, self.compared(board, lesson))
        return first & ~second, second & ~first

    def forget(self) -> None:
        """Drop the cached fields of view (the board was reloaded, or caches are off)."""
        self._fields.clear()

    # --- what the keys do (each returns the sentence the window says) ------------------------

    def act(self, action: str, board: Board, lesson: bool = False) -> str:
        """Run the method ``action`` (one of the rule keys' methods below) on ``board``."""
        method: Callable[[Board, bool], str] = getattr(self, action)
        return method(board, lesson)

    def next_rule(self, board: Board, lesson: bool = False) -> str:
        """The next preset after the board's current rule."""
        current = self.rule(board, lesson)
        presets = presets_of(board)
        names = tuple(presets)
        name = names[(names.index(current.name) + 1) % len(names)] if current.name in presets else names[0]
        self.chosen[board.serial] = presets[name]
        return f"Line-of-sight rule: {name}"

    def map_rule(self, board: Board, lesson: bool = False) -> str:
        """Back to the map's rule (the command line's for the main map, else ``los_rule``)."""
        self.chosen.pop(board.serial, None)
        return f"Line-of-sight rule: {self.rule(board, lesson).spec()} (the map's)"

    def show(self, board: Board, lesson: bool = False) -> str:
        """Show the parameter rows."""
        self.shown = True
        return (f"Rule parameters shown: {self.chords('rule_row_up')}/{self.chords('rule_row_down')} choose,"
                f" {self.chords('rule_flip')} flips")

    def hide(self, board: Board, lesson: bool = False) -> str:
        """Hide the parameter rows."""
        self.shown = False
        return "Rule parameters hidden"

    def row_up(self, board: Board, lesson: bool = False) -> str:
        """Select the parameter above (wrapping round)."""
        names = list(parameters_of(board))
        self.row = (self.row - 1) % len(names)
        return f"Rule parameter: {names[self.row]}"

    def row_down(self, board: Board, lesson: bool = False) -> str:
        """Select the parameter below (wrapping round)."""
        names = list(parameters_of(board))
        self.row = (self.row + 1) % len(names)
        return f"Rule parameter: {names[self.row]}"

    def flip_selected(self, board: Board, lesson: bool = False) -> str:
        """Flip the selected parameter to its next value."""
        names = list(parameters_of(board))
        return self.flip(board, lesson, names[self.row % len(names)])

    def toggle_compare(self, board: Board, lesson: bool = False) -> str:
        """Compare mode on or off."""
        self.comparing = not self.comparing
        return self._compare_message(board, lesson)

    def compare_next(self, board: Board, lesson: bool = False) -> str:
        """Compare with the next preset (and compare mode on)."""
        names = tuple(presets_of(board))
        i = (names.index(self.compare_with) + 1) % len(names) if self.compare_with in names else 0
        self.compare_with = names[i]
        self.comparing = True
        return self._compare_message(board, lesson)

    def _compare_message(self, board: Board, lesson: bool) -> str:
        if not self.comparing:
            return "Compare mode off"
        return f"Compare: {self.rule(board, lesson).spec()} against {self.compared(board, lesson).spec()}"

    def flip(self, board: Board, lesson: bool, parameter: str) -> str:
        """Flip ``parameter`` of the board's rule to its next value (a click on its row)."""
        current = self.rule(board, lesson)
        table = parameters_of(board)
        values = table[parameter]
        value = values[(values.index(current.get(parameter)) + 1) % len(values)]
        self.chosen[board.serial] = current.with_value(parameter, value)
        self.row = list(table).index(parameter)
        return f"Line-of-sight rule: {self.chosen[board.serial].spec()}"
