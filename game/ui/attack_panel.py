"""Attacks in the window: the attack controller and its side-panel section.

:class:`AttackController` holds what the person is building (attacker = the selected figure, the
target or targets, the attack, the typed play, the picks of the rules' choices) and asks the
ruleset of the map (``get_ruleset(board.ruleset)``) everything: the menu of attacks with usable /
reason, how many targets each takes and whether it takes a typed play (:class:`AttackOption`), the
extra choices (:meth:`Ruleset.choices`), whether dice are rolled (``Ruleset.deterministic``), the
legality sentence, the exact odds, a deterministic tally's preview (:meth:`Ruleset.comparison`)
and who is down (:meth:`Ruleset.condition`). The window never decides a rule.

Rolling computes the :class:`~game.rules.base.Resolution` first, with a fresh
:class:`~game.core.dice.SeededDice` whose seed comes from the session's seed stream
(:mod:`game.play.roll_log`), then hands it to the :class:`~game.ui.dice_tray.DiceTray`. When the
tray lands the wounds, the changes, the roll-log entry and the seed stream's advance are
recorded as ONE history entry: Ctrl+Z takes the whole attack back.

:class:`AttackSection` is the pygame_gui section of the side panel: who attacks whom, an attack
drop-down, the play entry (for an attack that takes a typed play), the legality sentence, the
odds chart (deterministic rules: the tally's comparison), Roll (Commit), the ruleset's actions
(Rest ...), the tray speed and the roll log. A ruleset's first choice (Conquest: the defender's Block stat)
gets a drop-down in the play entry's row; the rules' default is the first entry.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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

from game.core.board import Board, Square, is_enemy
from game.core.dice import SeededDice
from game.core.errors import IllegalAttackError, SightlineError, UsageError
from game.play.roll_log import dice_state, make_entry, next_attack_seed, plain_text, roll_line
from game.rules.base import (
    PLAY_OPTION,
    AttackOption,
    Choice,
    Comparison,
    Legality,
    Odds,
    Resolution,
    Ruleset,
)
from game.rules.registry import get_ruleset
from game.ui.dice_tray import SPEED_NAMES, DiceTray
from game.ui.odds_chart import OddsChart
from game.ui.panel import fit_text, label_room

_PLAY_GRAMMAR_RE = re.compile(r"^--play: ('.*?'|\".*?\") is not \[TYPE\] VALUE \[ELEMENT\]")


def window_wording(text: str) -> str:
    """A rules sentence in the window's words: the command line's ``--play`` is the play typed
    in the panel's entry.

    >>> window_wording("--play: 'ranged fire' is not [TYPE] VALUE [ELEMENT] (e.g. \\"ranged 3\\")")
    "Play 'ranged fire' is not understood: write [ranged|siege|attack|block] VALUE [element], \
e.g. ranged 3 fire, siege 2"
    >>> window_wording("--play: 'ranged -3': values are whole numbers of 0 or more, not negative")
    "Play 'ranged -3': values are whole numbers of 0 or more, not negative"
    >>> window_wording("Wolf Riders has 1 attack but --play has 2 ';'-separated blocks")
    "Wolf Riders has 1 attack but the play has 2 ';'-separated blocks"
    """
    match = _PLAY_GRAMMAR_RE.match(text)
    if match:
        return (f"Play {match.group(1)} is not understood: write [ranged|siege|attack|block] VALUE "
                "[element], e.g. ranged 3 fire, siege 2")
    if text.startswith("--play: "):
        text = "Play " + text.removeprefix("--play: ")
    return text.replace("--play", "the play")


def tray_title(
    attacker: str,
    targets: Sequence[str],
    attack: str | None,
    play: str = "",
    verb: str = "attacks",
    named: bool = True,
) -> str:
    """The tray's title: who does what to whom, in the rules' own verb for the attack.

    A typed play (Mage Knight) follows a colon; a named attack (a card, a weapon) goes in brackets;
    a phase with nothing typed (``named=False``) stands alone.

    >>> tray_title("Tovak", ["Wolf Riders"], "Block", "block 5", verb="blocks")
    'Tovak blocks Wolf Riders: block 5'
    >>> tray_title("Tovak", ["Prowlers", "Diggers"], "Attack", "5, 3 ice")
    'Tovak attacks Prowlers, Diggers: 5, 3 ice'
    >>> tray_title("Ember", ["Cinder"], "Short Bow")
    'Ember attacks Cinder (Short Bow)'
    >>> tray_title("Tovak", ["Ironclads"], "Assign damage", verb="takes the damage of", named=False)
    'Tovak takes the damage of Ironclads'
    """
    title = f"{attacker} {verb} {', '.join(targets)}"
    if play:
        return f"{title}: {play}"
    return f"{title} ({attack or 'attack'})" if named else title


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


class _NoDice:
    """Deterministic rules roll nothing: a dice source that says so if asked."""

    def roll(self, die: object, pool: int) -> int:
        raise UsageError("these rules roll no dice")


@dataclass(frozen=True)
class Pending:
    """A resolution being revealed, with what is needed to record it when it lands."""

    resolution: Resolution
    session: Any
    ruleset: Ruleset
    attacker: int
    targets: tuple[int, ...]
    attack: str | None
    options: Mapping[str, object]
    dice_after: Mapping[str, int] | None
    label: str


class AttackController:
    """The attack being built in the window, and the one being revealed by the tray.

    ``session`` returns the session shown now (it changes in lesson mode); ``seed_source``
    draws the master seed the first time a map rolls (tests pin it); ``on_message`` receives
    notices for the status line.
    """

    def __init__(
        self,
        session: Callable[[], Any],
        *,
        tray: DiceTray | None = None,
        seed_source: Callable[[], int] = lambda: secrets.randbelow(2**31),
        on_message: Callable[[str, str], None] | None = None,
    ) -> None:
        self._session = session
        self.tray = tray if tray is not None else DiceTray()
        self.tray.on_land = self._landed
        self.seed_source = seed_source
        self.on_message = on_message
        self.targets: list[int] = []
        self.attack: str | None = None
        self.play = ""
        #: the values picked for the rules' choices (``Choice.key`` → value; absent: the default)
        self.picks: dict[str, str | None] = {}
        self.pending: Pending | None = None
        self.last: Resolution | None = None
        self._attacker_seen: int | None = None
        #: the last :meth:`attack_name` answer and what it depended on (asked many times a frame)
        self._name_seen: tuple[tuple[object, ...], str | None] | None = None
        #: the board the targets belong to (held, not its id: a new board may reuse an old id)
        self._board_seen: Board | None = None
        #: the attack the typed play was written for (another attack: the play is cleared)
        self._play_for: str | None = None

    # --- what is shown -------------------------------------------------------------------

    @property
    def session(self) -> Any:
        """The session shown now, or None."""
        return self._session()

    @property
    def board(self) -> Board | None:
        """The board shown now."""
        session = self.session
        return session.board if session is not None else None

    @property
    def attacker(self) -> int | None:
        """The selected figure, which is the attacker."""
        session = self.session
        if session is None or session.selected not in session.board.figures:
            return None
        return int(session.selected)

    @property
    def ruleset(self) -> Ruleset | None:
        """The map's ruleset (None when the map names an unknown one)."""
        board = self.board
        if board is None:
            return None
        try:
            return get_ruleset(board.ruleset)
        except UsageError:
            return None

    @property
    def deterministic(self) -> bool:
        """Whether the rules roll no dice (``Ruleset.deterministic``: a tally is committed)."""
        ruleset = self.ruleset
        return ruleset is not None and ruleset.deterministic

    def current_option(self) -> AttackOption | None:
        """The menu entry of the attack being built (None: no attacks)."""
        name = self.attack_name()
        return next((o for o in self.menu() if o.name == name), None)

    @property
    def max_targets(self) -> int | None:
        """How many targets the attack being built may have (None: any number)."""
        option = self.current_option()
        return 1 if option is None else option.max_targets

    @property
    def multi_target(self) -> bool:
        """Whether the attack being built may have several targets."""
        return self.max_targets != 1

    @property
    def play_hint(self) -> str:
        """The hint for the text typed for the attack being built ("": it takes none)."""
        option = self.current_option()
        return option.entry if option is not None else ""

    @property
    def play_required(self) -> bool:
        """Whether the attack being built needs a typed play before it can be made."""
        option = self.current_option()
        return option is not None and option.entry_required

    def sync(self) -> None:
        """Forget targets and attack when the attacker or the board changes, and targets that
        left the board (called before anything asks the engine about the targets)."""
        board, attacker = self.board, self.attacker
        if board is not self._board_seen:
            self._board_seen = board
            self.targets, self.attack, self.play = [], None, ""
            self.picks = {}
        if attacker != self._attacker_seen:
            self._attacker_seen = attacker
            self.attack, self.play = None, ""
            self.targets = [t for t in self.targets if t != attacker]
        if board is None:
            self.targets = []
        elif any(t not in board.figures for t in self.targets):
            self.targets = [t for t in self.targets if t in board.figures]

    def options(self) -> dict[str, object]:
        """The ruleset inputs: the typed play (when the attack takes one) and the picks of the
        rules' choices (a choice left at its default is not passed)."""
        self.sync()
        out: dict[str, object] = {}
        if self.play_hint:
            out[PLAY_OPTION] = self.play
        for choice in self.choices():
            value = self.picks.get(choice.key)
            if value is not None and value != choice.default:
                out[choice.key] = value
        return out

    def choices(self) -> list[Choice]:
        """The rules' extra choices for the attack being built (Conquest: the Block stat)."""
        self.sync()
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None or attacker is None:
            return []
        targets = [t for t in self.targets if t in board.figures]
        try:
            return ruleset.choices(board, attacker, targets)
        except SightlineError:
            return []

    def pick(self, key: str, value: str | None) -> None:
        """Pick ``value`` for the choice ``key`` (None: the rules' default); unknown values are
        ignored."""
        for choice in self.choices():
            if choice.key == key and value in dict(choice.values):
                self.picks[key] = value

    def choice_labels(self) -> list[tuple[str | None, str]]:
        """The first choice's drop-down: ``(value, "Label: value label")`` (``Block: Defence 2``),
        [] when the rules give no choice."""
        choices = self.choices()
        if not choices:
            return []
        choice = choices[0]
        return [(value, f"{choice.label}: {label}") for value, label in choice.values]

    def picked(self) -> str | None:
        """The value picked for the first choice (its default when none was picked)."""
        choices = self.choices()
        if not choices:
            return None
        return self.picks.get(choices[0].key, choices[0].default)

    def menu(self) -> list[AttackOption]:
        """The attacker's attacks, each usable or not with the reason."""
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None or attacker is None:
            return []
        try:
            return ruleset.attacks(board, attacker)
        except SightlineError:
            return []

    def attack_name(self) -> str | None:
        """The attack chosen, else the first usable one (None: the figure has none).

        With dice rules and several usable attacks not chosen yet, the first one legal on the
        target (melee when Close, else ranged); a deterministic tally is the player's pick.
        """
        self.sync()
        board = self.board
        key = (board.serial if board is not None else None, board.version if board is not None else None, self.attacker,
               self.attack, tuple(self.targets))
        if self._name_seen is not None and self._name_seen[0] == key:
            return self._name_seen[1]
        name = self._attack_name()
        self._name_seen = (key, name)
        if name != self._play_for:
            # another attack (a Mage Knight phase): the play typed for the last one goes
            if self._play_for is not None:
                self.play = ""
            self._play_for = name
        return name

    def _attack_name(self) -> str | None:
        menu = self.menu()
        names = {o.name.casefold(): o.name for o in menu}
        if self.attack is not None and self.attack.casefold() in names:
            return names[self.attack.casefold()]
        usable = [o.name for o in menu if o.usable]
        if len(usable) > 1 and self.targets and not self.deterministic:
            ruleset, board, attacker = self.ruleset, self.board, self.attacker
            assert ruleset is not None and board is not None and attacker is not None
            for name in usable:
                try:
                    if ruleset.check(board, attacker, self.targets, name, {}).legal:
                        return name
                except SightlineError:
                    continue
        return usable[0] if usable else (menu[0].name if menu else None)

    def set_attack(self, name: str) -> None:
        """Choose an attack by name; targets beyond what it takes are dropped (the first stay).

        Another attack clears the typed play (its hint shows instead)."""
        self.sync()
        for option in self.menu():
            if option.name.casefold() == name.casefold():
                if option.name != self.attack_name():
                    self.play = ""
                self.attack = option.name
                limit = option.max_targets
                if limit is not None and len(self.targets) > limit:
                    self.targets = self.targets[:limit]
                return

    def cycle_attack(self, step: int = 1) -> None:
        """The next (or previous) attack of the menu."""
        menu = self.menu()
        if not menu:
            return
        names = [o.name for o in menu]
        current = self.current_menu_name()
        index = names.index(current) if current in names else -1
        self.set_attack(names[(index + step) % len(names)])

    def current_menu_name(self) -> str | None:
        """The menu entry shown as chosen."""
        return self.attack_name()

    # --- targets -------------------------------------------------------------------------

    def candidates(self) -> list[int]:
        """Figures that may be targeted: every enemy of the attacker's side, by id."""
        board, attacker = self.board, self.attacker
        if board is None or attacker is None:
            return []
        side = board.figure(attacker).side
        return sorted(f.id for f in board.figures.values() if is_enemy(f, side))

    def set_target(self, figure_id: int | None) -> None:
        """The target gesture on a figure: choose it (again: drop it); several rules add it."""
        self.sync()
        if figure_id is None or figure_id == self.attacker:
            if figure_id is None:
                self.targets = []
            return
        limit = self.max_targets
        if figure_id in self.targets:
            self.targets.remove(figure_id)
        elif limit is None or len(self.targets) < limit:
            self.targets.append(figure_id)
        else:
            self.targets = [*self.targets[: limit - 1], figure_id]

    def target_square(self, square: Square | None) -> None:
        """A right-click on a square: target the figure there (the first not the attacker)."""
        self.sync()
        board = self.board
        if board is None or square is None:
            return
        figures = [f.id for f in board.figures_at(square) if f.id != self.attacker]
        if not figures:
            return
        already = [f for f in figures if f in self.targets]
        if already and len(figures) > 1 and not self.multi_target:
            # a stack: a second right-click moves on to the next figure there
            nxt = figures[(figures.index(already[0]) + 1) % len(figures)]
            self.targets = [nxt]
            return
        self.set_target(already[0] if already else figures[0])

    def cycle_target(self, step: int = 1) -> None:
        """``T``: the next enemy as the (only) target; legal ones come first."""
        self.sync()
        candidates = self.candidates()
        if not candidates:
            return
        legal = [c for c in candidates if self._legal_on([c])]
        order = legal + [c for c in candidates if c not in legal]
        current = self.targets[-1] if self.targets else None
        index = order.index(current) if current in order else -1 if step > 0 else 0
        self.targets = [order[(index + step) % len(order)]]

    def _legal_on(self, targets: Sequence[int]) -> bool:
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None or attacker is None:
            return False
        try:
            return ruleset.check(board, attacker, targets, self.attack_name(), self.options()).legal
        except SightlineError:
            return False

    # --- verdict, odds, preview ----------------------------------------------------------

    def verdict(self) -> Legality | None:
        """The engine's sentence on the attack being built (None until attacker and target), in
        the window's words (:func:`window_wording`)."""
        self.sync()
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None or attacker is None or not self.targets:
            return None
        try:
            verdict = ruleset.check(board, attacker, self.targets, self.attack_name(), self.options())
        except SightlineError as exc:
            return Legality(False, window_wording(str(exc)))
        if verdict.legal:
            return verdict
        return Legality(False, window_wording(verdict.reason))

    def odds(self) -> Odds | None:
        """The exact odds of the attack being built (None when illegal or not built)."""
        verdict = self.verdict()
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if verdict is None or not verdict.legal or ruleset is None or board is None or attacker is None:
            return None
        try:
            return ruleset.odds(board, attacker, self.targets, self.attack_name(), self.options())
        except (IllegalAttackError, SightlineError):
            return None

    def preview(self) -> Resolution | None:
        """Deterministic rules: the resolution the play would give, before committing."""
        verdict = self.verdict()
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if not self.deterministic or verdict is None or not verdict.legal:
            return None
        assert ruleset is not None and board is not None and attacker is not None
        try:
            return ruleset.resolve(
                board, attacker, self.targets, self.attack_name(), _NoDice(), self.options()
            )
        except SightlineError:
            return None

    # --- rolling -------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether the tray is revealing an attack that has not landed yet."""
        return self.pending is not None

    def roll(self) -> Resolution | None:
        """Resolve the attack being built (first!), then start the tray; None if not possible.

        While the tray is busy, Roll finishes the reveal instead.
        """
        if self.pending is not None or self.tray.busy:
            self.skip()
            return None
        session, ruleset, board, attacker = self.session, self.ruleset, self.board, self.attacker
        if session is None or ruleset is None or board is None:
            return None
        if attacker is None:
            self._say("Select the attacker first (click a figure or Tab).", "error")
            return None
        verdict = self.verdict()
        if verdict is None:
            self._say("Choose a target: right-click a figure or press T.", "error")
            return None
        if self.play_required and not self.play.strip():
            self._say(f"Type what you play first ({self.play_hint}).", "error")
            return None
        if not verdict.legal:
            self._say(verdict.reason, "blocked")
            return None
        attack, options = self.attack_name(), self.options()
        dice_after: dict[str, int] | None = None
        try:
            if not ruleset.deterministic:
                if session.dice_seed is None:
                    session.dice_seed = int(self.seed_source())
                seed, dice_after = next_attack_seed(dice_state(session.dice_seed, session.roll_log))
                resolution = ruleset.resolve(board, attacker, self.targets, attack, SeededDice(seed), options)
            else:
                resolution = ruleset.resolve(board, attacker, self.targets, attack, _NoDice(), options)
        except SightlineError as exc:
            self._say(str(exc), "error")
            return None
        if not resolution.legal:
            self._say(resolution.reason, "blocked")
            return None
        option = self.current_option()
        label = tray_title(board.figure(attacker).label, [board.figure(t).label for t in self.targets],
                           attack, self.play.strip() if self.play_hint else "",
                           option.verb if option is not None else "attacks",
                           named=option is None or not option.entry)
        if resolution.seed is not None:
            label += f", seed {resolution.seed}"
        self.pending = Pending(resolution, session, ruleset, attacker, tuple(self.targets), attack,
                               dict(options), dice_after, label)
        self.last = resolution
        self.tray.start(resolution, title=label, target=self.targets[0] if self.targets else None)
        return resolution

    def landing_figure(self) -> int | None:
        """The figure the tray's damage badge lands on: the first figure the resolution shown
        changes (who takes the damage), None when it changes nobody (a failed block: the
        damage is assigned later)."""
        board, figure = self.board, self.tray.damaged_figure()
        return figure if board is not None and figure in board.figures else None

    def _landed(self, resolution: Resolution) -> None:
        """The tray landed the wounds: record the whole attack as one history entry."""
        pending, self.pending = self.pending, None
        if pending is None or pending.resolution is not resolution:
            return
        session = pending.session  # the session rolled on, even if another one is shown now
        board = session.board
        if any(c.figure_id not in board.figures for c in resolution.changes):
            self._say("The attack was dropped: its figures left the board while the dice rolled.", "error")
            return
        entry = make_entry(
            resolution,
            number=len(session.roll_log) + 1,
            ruleset=pending.ruleset.name,
            pools=pending.ruleset.pools,
            attacker=(pending.attacker, board.figure(pending.attacker).label),
            targets=[(t, board.figure(t).label) for t in pending.targets if t in board.figures],
            attack=pending.attack,
            options=pending.options,
            dice=pending.dice_after,
        )
        session.record_attack(pending.label, lambda b: pending.ruleset.apply(b, resolution), entry,
                              roll_line(entry))
        self._say(entry["summary"] or pending.label, "info")

    def skip(self) -> None:
        """Space: jump to the end of the reveal (the attack lands now)."""
        if self.tray.active:
            self.tray.skip()

    def dismiss(self) -> bool:
        """Esc: hide a finished tray (True), or finish a running one first."""
        if not self.tray.active:
            return False
        if self.tray.busy:
            self.tray.skip()
        self.tray.clear()
        return True

    def update(self, dt: float) -> None:
        """Advance the tray's clock (the window calls this every frame)."""
        self.tray.advance(dt)

    # --- actions (rest ...) --------------------------------------------------------------

    def actions(self) -> list[str]:
        """The ruleset's extra actions for the attacker's side (``rest`` ...)."""
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None:
            return []
        side = board.figure(attacker).side if attacker is not None else ""
        return ruleset.actions(board, side)

    def perform(self, action: str | None = None) -> bool:
        """Take an extra action for the attacker's side (one undoable change); False if nothing
        changed. ``None`` = the ruleset's first action."""
        ruleset, board, attacker, session = self.ruleset, self.board, self.attacker, self.session
        if ruleset is None or board is None or session is None:
            return False
        actions = self.actions()
        if not actions:
            self._say(f"The {ruleset.title} rules have no extra actions.", "error")
            return False
        action = action or actions[0]
        if attacker is None:
            self._say(f"Select a figure of the side that should {action}.", "error")
            return False
        side = board.figure(attacker).side
        try:
            changes = ruleset.perform(board, action, side)
        except SightlineError as exc:
            self._say(str(exc), "error")
            return False
        if not changes:
            self._say(f"{action}: nothing to change for {side}.", "info")
            return False
        session.change(f"{action} ({side})", lambda b: ruleset.apply_changes(b, changes))
        self._say(f"{action.capitalize()}: {side}.", "info")
        return True

    def _say(self, text: str, kind: str) -> None:
        if self.on_message is not None:
            self.on_message(window_wording(text), kind)

    # --- text for the panel --------------------------------------------------------------

    def who_text(self) -> str:
        """``Ember on Snarl``: who attacks whom (the section's heading shows it)."""
        self.sync()
        board, attacker = self.board, self.attacker
        if board is None or attacker is None:
            return ""
        name = board.figure(attacker).label
        if not self.targets:
            return f"{name} on ?"
        ruleset = self.ruleset
        targets = []
        for t in self.targets:
            fig = board.figure(t)
            try:
                down = ruleset is not None and ruleset.condition(fig).down
            except SightlineError:  # malformed stats: the verdict says so
                down = False
            targets.append(fig.label + (" (down)" if down else ""))
        return f"{name} on {', '.join(targets)}"

    def preview_numbers(self) -> Comparison | None:
        """Deterministic rules: what the preview compares (value, needed, caption)."""
        preview, ruleset = self.preview(), self.ruleset
        if preview is None or ruleset is None:
            return None
        return ruleset.comparison(preview)


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
        self.speed_menu = UIDropDownMenu(list(SPEED_NAMES), self.controller.tray.speed,
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
        self.roll_button = UIButton(pygame.Rect(x, y, 96, ROW), "Roll (R)", manager,
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
        # everything below depends only on this: nothing is asked of the rules on other frames
        state = (board.serial if board is not None else None, version, c.attacker, tuple(c.targets), c.attack, c.play,
                 tuple(c.picks.items()), deterministic)
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
        self._refresh_verdict()
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
            self.attack_menu = UIDropDownMenu(names, chosen, self._menu_rect, self.manager,
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

    def _refresh_verdict(self) -> None:
        c = self.controller
        assert self.verdict_box is not None and self.chart_image is not None
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
            text = ("Legal: " if verdict.legal else "Illegal: ") + verdict.reason
            markup = f"<font color='{colour}'>{_escape(text)}</font>"
        self.shown["verdict"] = text
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
            label = "Commit (R)" if c.deterministic else "Roll (R)"
            if self.roll_button.text != label:
                self.roll_button.set_text(label)
            ready = not c.play_required or bool(c.play.strip())
            if verdict is not None and verdict.legal and ready:
                self.roll_button.enable()
            else:
                self.roll_button.disable()

    def _refresh_actions(self) -> None:
        c = self.controller
        actions = c.actions()
        if not self._changed("actions", tuple(actions)) or self.manager is None:
            return
        for button, _ in self.action_buttons:
            button.kill()
        self.action_buttons = []
        x = self.rect.x + 100
        width = (self.rect.w - 100) // max(1, len(actions)) - 4 if actions else 0
        for i, action in enumerate(actions):
            text = action.capitalize() + (" (Shift+R)" if i == 0 and len(actions) == 1 else "")
            button = UIButton(pygame.Rect(x, self._buttons_y, width, ROW), text, self.manager,
                              container=self.container)
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
                if element is button:
                    c.perform(action)
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            text = str(getattr(event, "text", ""))
            if element is self.speed_menu and text in SPEED_NAMES:
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
        return None


def _escape(text: str) -> str:
    import html

    return html.escape(plain_text(text), quote=False)
