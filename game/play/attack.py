"""The attack flow of play, without a window: pick, verdict, odds, preview, roll, apply, undo.

:class:`AttackController` holds what the person is building (attacker = the session's selected
figure, the target or targets, the attack, the typed play, the picks of the rules' choices) and
asks the map's ruleset (``get_ruleset(board.ruleset)``) everything, through one
:class:`~game.rules.base.AttackRequest` (:meth:`AttackController.request`), the same type the
``attack`` and ``odds`` commands build: the menu of attacks with usable / reason, how many
targets each takes and whether it takes a typed play (:class:`~game.rules.base.AttackOption`),
who may be targeted (:meth:`Ruleset.targets`), the extra choices (:meth:`Ruleset.choices`),
whether dice are rolled, the legality, the exact odds, a deterministic tally's preview
(:meth:`Ruleset.comparison`) and who is down (:meth:`Ruleset.condition`).

After an attack lands, the rules may call for **reactions** (:meth:`Ruleset.reactions
<game.rules.base.Ruleset.reactions>`: Arcadia Quest's Guard and Payback): the controller queues
them and offers the first as the next step (:meth:`AttackController.next_reaction`); Roll rolls
it (its own dice, its own reveal and its own undo step), :meth:`AttackController.skip_reaction`
drops it, and any other change of the board ends the offer. The rules that apply but are not
modelled come as ``Not applied: ...`` lines (:meth:`AttackController.not_applied`).

Rolling computes the :class:`~game.rules.base.Resolution` first, with dice seeded from the
session's dice-seed stream (:meth:`game.play.session.Session.next_dice`), then hands it to a
:class:`Reveal` (the window's dice tray; :class:`InstantReveal` without a window). When the reveal
lands, the changes, the roll-log entry and the stream's advance are recorded as ONE history entry:
undo takes the whole attack back, and rolling again repeats its dice unless the player asks for
fresh ones (:meth:`AttackController.fresh_dice`).

Sentences from the rules reach the person through ``on_message``; structured errors
(:class:`~game.core.errors.SightlineError` subclasses with fields) are phrased by ``phrase``
(the window passes its own wording; by default the error's own sentence).

No pygame here.

>>> from game.core.board import Board, Figure
>>> from game.play.session import Session
>>> class Loaded:  # what the map reader gives: a path and a board
...     path = "demo.tmx"
...     board = Board(3, 1, figures=[Figure(1, "Ember", "heroes", (0, 0), {"attacks": "Bow:ranged:2"}),
...                                  Figure(2, "Cinder", "monsters", (2, 0), {"life": 3})])
>>> session = Session(Loaded(), autosave=False)
>>> session.selected, session.seed_source = 1, lambda: 7
>>> flow = AttackController(lambda: session)
>>> flow.candidates()
[2]
>>> flow.set_target(2)
>>> flow.verdict().legal, flow.request().attack
(True, 'Bow')
>>> [stage for stage in flow.stages() if stage in ("attack roll", "hits")]
['attack roll', 'hits']
>>> result = flow.roll()          # the instant reveal lands at once
>>> len(session.roll_log), session.roll_log[0]["summary"] == result.sentence()
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.core.board import Board, Square
from game.core.errors import IllegalAttackError, SightlineError, UsageError
from game.play.reveal import InstantReveal, Reveal
from game.play.roll_log import make_entry, roll_line
from game.rules.base import (
    PLAY_OPTION,
    AttackOption,
    AttackRequest,
    Choice,
    Comparison,
    Legality,
    NoDice,
    Odds,
    Reaction,
    Resolution,
    Ruleset,
    not_applied_line,
)
from game.rules.registry import get_ruleset


def default_phrase(error: SightlineError) -> str:
    """An error's own sentence."""
    return str(error)


def tray_title(
    attacker: str,
    targets: Sequence[str],
    attack: str | None,
    play: str = "",
    verb: str = "attacks",
    named: bool = True,
) -> str:
    """The tray's title: who does what to whom, in the rules' own verb for the attack.

    A typed play (``AttackOption.entry``) follows a colon; a named attack (a card, a weapon) goes in brackets;
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
    #: the roll repeats an undone attack's seed (the same dice again)
    repeated: bool = False
    #: the reaction this roll makes (None: the attack being built)
    reaction: Reaction | None = None


#: the flow's prompts, keyed; a window passes its own wording (its gestures: game/play/wording.py)
PROMPTS: dict[str, str] = {
    "no_attacker": "Select the attacker first.",
    "no_target": "Choose a target first.",
    "no_play": "Type what you play first ({hint}).",
    "no_actor": "Select a figure of the side that should {action}.",
}


class AttackController:
    """The attack being built in the window, and the one being revealed by the tray.

    ``session`` returns the session shown now (it changes in lesson mode); ``tray`` reveals each
    resolution (:class:`Reveal`); ``seed_source`` draws the master seed the first time a map
    rolls (tests pin it); ``on_message`` receives notices for the status line (text, kind);
    ``phrase`` words a structured error for the person; ``prompts`` words what is missing
    (:data:`PROMPTS` keys; the window's wording names its clicks and keys).
    """

    def __init__(
        self,
        session: Callable[[], Any],
        *,
        tray: Reveal | None = None,
        seed_source: Callable[[], int] | None = None,
        on_message: Callable[[str, str], None] | None = None,
        phrase: Callable[[SightlineError], str] = default_phrase,
        prompts: dict[str, str] | None = None,
    ) -> None:
        self._session = session
        self.tray: Reveal = tray if tray is not None else InstantReveal()
        self.tray.on_land = self._landed
        #: draws a session's master seed the first time its map rolls (None: the session's own)
        self.seed_source = seed_source
        self.on_message = on_message
        self.phrase = phrase
        self.prompts = {**PROMPTS, **(prompts or {})}
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
        #: the reactions the last attack called for, still to be rolled (the first is offered)
        self.reactions: list[Reaction] = []
        #: the board and its version the reactions were queued on (another: the offer ends)
        self._reactions_on: tuple[Board, int] | None = None

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

    def stages(self) -> tuple[str, ...]:
        """The named steps of the map's rules, in order (``Ruleset.stages``): each step of a
        resolution names the one that wrote it (``Step.stage``), for the tray and the log to
        label or group their lines by; () without a board or rules."""
        ruleset = self.ruleset
        return ruleset.stages if ruleset is not None else ()

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
        """The rules' extra choices for the attack being built (such as the stat a defender blocks
        with)."""
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
            # another attack (a phase of a tally game): the play typed for the last one goes
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
                    if ruleset.check(AttackRequest(board, attacker, self.targets, name)).legal:
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
        """Figures that may be targeted, by id: the rules decide (:meth:`Ruleset.targets`)."""
        ruleset, board, attacker = self.ruleset, self.board, self.attacker
        if ruleset is None or board is None or attacker is None:
            return []
        try:
            return ruleset.targets(board, attacker)
        except SightlineError:
            return []

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
        ruleset, request = self.ruleset, self.request()
        if ruleset is None or request is None:
            return False
        try:
            return ruleset.check(request.with_targets(targets)).legal
        except SightlineError:
            return False

    # --- verdict, odds, preview ----------------------------------------------------------

    def request(self) -> AttackRequest | None:
        """The attack being built as the rules are asked about it (None: no attacker or board)."""
        self.sync()
        board, attacker = self.board, self.attacker
        if board is None or attacker is None:
            return None
        return AttackRequest(board, attacker, self.targets, self.attack_name(), self.options())

    def verdict(self) -> Legality | None:
        """The engine's sentence on the attack being built (None until attacker and target); an
        error the rules raise (a play that cannot be read ...) is phrased by ``phrase``."""
        self.sync()
        ruleset, request = self.ruleset, self.request()
        if ruleset is None or request is None or not self.targets:
            return None
        off_grid = ruleset.grid_refusal(request.board.grid.kind)  # rules that need squares, on hexes
        if off_grid is not None:
            return Legality(False, f"{off_grid[:1].upper()}{off_grid[1:]}.")
        try:
            return ruleset.check(request)
        except SightlineError as exc:
            return Legality(False, self.phrase(exc))

    def reason_of(self, verdict: Legality) -> str:
        """A verdict's sentence for the person: the rules' reason, or the structured problem
        behind a refusal phrased by ``phrase`` (as a sentence, like the reason)."""
        if verdict.problem is None:
            return verdict.reason
        text = self.phrase(verdict.problem)
        return text + "." if verdict.reason.endswith(".") and not text.endswith(".") else text

    def odds(self) -> Odds | None:
        """The exact odds of the attack being built (None when illegal or not built)."""
        verdict = self.verdict()
        ruleset, request = self.ruleset, self.request()
        if verdict is None or not verdict.legal or ruleset is None or request is None:
            return None
        try:
            return ruleset.odds(request)
        except (IllegalAttackError, SightlineError):
            return None

    def preview(self) -> Resolution | None:
        """Deterministic rules: the resolution the play would give, before committing."""
        verdict = self.verdict()
        ruleset, request = self.ruleset, self.request()
        if not self.deterministic or verdict is None or not verdict.legal:
            return None
        assert ruleset is not None and request is not None
        try:
            return ruleset.resolve(request, NoDice())
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
        reaction = self.next_reaction()
        if reaction is not None:
            return self._roll_reaction(reaction)
        session, ruleset, board, attacker = self.session, self.ruleset, self.board, self.attacker
        if session is None or ruleset is None or board is None:
            return None
        if attacker is None:
            self._say(self.prompts["no_attacker"], "error")
            return None
        verdict = self.verdict()
        if verdict is None:
            self._say(self.prompts["no_target"], "error")
            return None
        if self.play_required and not self.play.strip():
            self._say(self.prompts["no_play"].format(hint=self.play_hint), "error")
            return None
        if not verdict.legal:
            self._say(self.reason_of(verdict), "blocked")
            return None
        request = self.request()
        assert request is not None
        attack, options = request.attack, request.options
        dice_after: dict[str, int] | None = None
        try:
            if not ruleset.deterministic:
                if self.seed_source is not None:
                    session.seed_source = self.seed_source
                dice, dice_after = session.next_dice()
                resolution = ruleset.resolve(request, dice)
            else:
                resolution = ruleset.resolve(request, NoDice())
        except SightlineError as exc:
            self._say(self.phrase(exc), "error")
            return None
        if not resolution.legal:
            self._say(self.reason_of(Legality(False, resolution.reason, resolution.problem)), "blocked")
            return None
        option = self.current_option()
        title = tray_title(board.figure(attacker).label, [board.figure(t).label for t in self.targets],
                           attack, self.play.strip() if self.play_hint else "",
                           option.verb if option is not None else "attacks",
                           named=option is None or not option.entry)
        # the seed is for the history and the roll log (it replays the attack), not the tray
        label = title if resolution.seed is None else f"{title}, seed {resolution.seed}"
        self.pending = Pending(resolution, session, ruleset, attacker, tuple(self.targets), attack,
                               dict(options), dice_after, label,
                               resolution.seed is not None and resolution.seed in session.undone_seeds)
        self.last = resolution
        self.tray.start(resolution, title=title, target=self.targets[0] if self.targets else None)
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
        if session is self.session:  # the play is spent, and a target taken out is no target any more
            self.play = ""
            self.targets = [t for t in self.targets
                            if t in board.figures and not pending.ruleset.condition(board.figure(t)).down]
        line = resolution.sentence() or pending.label
        if pending.repeated:
            line += " (the same dice as before the undo; D rolls fresh ones next time)"
        line += self._queue_reactions(pending, resolution)
        self._say(line, "info")

    # --- reactions (Guard, Payback ...) ------------------------------------------------

    def next_reaction(self) -> Reaction | None:
        """The reaction offered as the next step (None: none, or the board changed since)."""
        board = self.board
        if not self.reactions or board is None:
            return None
        if self._reactions_on is None or self._reactions_on[0] is not board \
                or self._reactions_on[1] != board.version:
            self.reactions = []
            return None
        return self.reactions[0]

    def reaction_key(self) -> tuple[object, ...] | None:
        """What the offer shows (for the panel to know when to refresh)."""
        reaction = self.next_reaction()
        return None if reaction is None else (reaction.kind, reaction.reactor, len(self.reactions))

    def skip_reaction(self) -> bool:
        """Drop the reaction offered (the players decide not to play it); False when none is."""
        reaction = self.next_reaction()
        if reaction is None:
            return False
        self.reactions.pop(0)
        self._say(f"{reaction.kind} skipped." + self._next_words(), "info")
        return True

    def _queue_reactions(self, pending: Pending, resolution: Resolution) -> str:
        """After an attack or a reaction lands: the reactions still to come, as a sentence to
        add to the status line ("" when none)."""
        board = pending.session.board
        if pending.reaction is not None:
            if self.reactions and self.reactions[0] is pending.reaction:
                self.reactions.pop(0)
        else:
            request = AttackRequest(board, pending.attacker, pending.targets, pending.attack, pending.options)
            try:
                found = pending.ruleset.reactions(board, request, resolution)
            except SightlineError as exc:
                return f" Reactions: {self.phrase(exc)}"
            said = [r.why for r in found if r.attack is None]
            self.reactions = [r for r in found if r.attack is not None]
            if said:
                return " " + " ".join(said) + self._next_words(board)
        return self._next_words(board)

    def _next_words(self, board: Board | None = None) -> str:
        board = board if board is not None else self.board
        if not self.reactions or board is None:
            return ""
        self._reactions_on = (board, board.version)
        return f" Next: {self.reactions[0].why}"

    def _roll_reaction(self, reaction: Reaction) -> Resolution | None:
        """Roll the reaction offered: its own dice from the session's stream, its own reveal and
        its own undo step."""
        session, ruleset, board = self.session, self.ruleset, self.board
        if session is None or ruleset is None or board is None:
            return None
        try:
            if self.seed_source is not None:
                session.seed_source = self.seed_source
            dice, dice_after = session.next_dice()
            resolution = ruleset.resolve(reaction.request(board), dice)
        except SightlineError as exc:
            self._say(self.phrase(exc), "error")
            return None
        if not resolution.legal:
            self.reactions.pop(0)
            self._say(f"No {reaction.kind}: {resolution.reason}" + self._next_words(), "blocked")
            return None
        who, whom = board.figure(reaction.reactor).label, board.figure(reaction.target).label
        title = f"{reaction.kind}: {who} attacks {whom} ({reaction.attack})"
        label = title if resolution.seed is None else f"{title}, seed {resolution.seed}"
        self.pending = Pending(resolution, session, ruleset, reaction.reactor, (reaction.target,),
                               reaction.attack, dict(reaction.options), dice_after, label,
                               resolution.seed is not None and resolution.seed in session.undone_seeds,
                               reaction)
        self.last = resolution
        self.tray.start(resolution, title=title, target=reaction.target)
        return resolution

    def not_applied(self) -> list[str]:
        """The rules that apply to the attack being built but are not modelled, each a
        ``Not applied: ...`` line ([] when the attack is not legal)."""
        verdict = self.verdict()
        ruleset, request = self.ruleset, self.request()
        if verdict is None or not verdict.legal or ruleset is None or request is None:
            return []
        try:
            return [not_applied_line(text) for text in ruleset.not_applied(request)]
        except SightlineError:
            return []

    def reaction_odds(self) -> Odds | None:
        """The exact odds of the reaction offered, on the board as it stands (None: none)."""
        reaction, ruleset, board = self.next_reaction(), self.ruleset, self.board
        if reaction is None or ruleset is None or board is None:
            return None
        try:
            return ruleset.odds(reaction.request(board))
        except (IllegalAttackError, SightlineError):
            return None

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
            self._say(self.prompts["no_actor"].format(action=action), "error")
            return False
        side = board.figure(attacker).side
        try:
            changes = ruleset.perform(board, action, side)
        except SightlineError as exc:
            self._say(self.phrase(exc), "error")
            return False
        if not changes:
            self._say(f"{action}: nothing to change for {side}.", "info")
            return False
        session.change(f"{action} ({side})", lambda b: ruleset.apply_changes(b, changes))
        self._say(f"{action.capitalize()}: {side}.", "info")
        return True

    def _say(self, text: str, kind: str) -> None:
        if self.on_message is not None:
            self.on_message(text, kind)

    # --- fresh dice --------------------------------------------------------------------

    @property
    def repeats_undone(self) -> bool:
        """Whether the next roll would repeat the dice of an undone attack (dice rules only)."""
        session = self.session
        return session is not None and not self.deterministic and bool(session.repeats_undone)

    def fresh_dice(self) -> bool:
        """Set the stream's next seed aside so the next attack rolls new dice (logged); False
        when there is nothing to refresh (no roll yet, deterministic rules)."""
        session = self.session
        if session is None or self.deterministic or self.busy:
            return False
        seed = session.fresh_dice()
        if seed is None:
            self._say("No dice rolled yet: the first roll is fresh anyway.", "info")
            return False
        self._say(f"Fresh dice: the next attack rolls new dice (seed {seed} set aside).", "info")
        return True

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


