"""The rules-engine contract every ruleset implements (docs/rules.md).

A ruleset is a subclass of :class:`Ruleset` in a package ``game/rules/<name>/``. The package
exposes one instance as ``RULESET`` (the registry, :func:`game.rules.registry.get_ruleset`,
imports it lazily and takes ``RULESET``). The map property ``ruleset`` chooses it. Its
resolution is a sequence of small named steps (:mod:`game.rules.steps`).

Everything here is **pure**: a ruleset reads a :class:`~game.core.board.Board` and returns plain frozen
data. It never mutates the board except in :meth:`Ruleset.apply` and :meth:`Ruleset.perform`
(which only return or apply :class:`FigureChange` values), never reads files or the clock, and
gets randomness only from the :class:`~game.core.dice.DiceSource` passed in.

The flow for one attack, as the window and the ``attack`` / ``odds`` commands use it::

    options  = {"phase": "ranged", ...}                      # ruleset-specific inputs, may be {}
    menu     = ruleset.attacks(board, attacker_id)           # list[AttackOption] (usable + reason)
    verdict  = ruleset.check(AttackRequest(board, attacker_id, [target_id], "Short Bow", options))   # Legality
    odds     = ruleset.odds(AttackRequest(board, attacker_id, [target_id], "Short Bow", options))    # Odds (exact)
    result   = ruleset.resolve(AttackRequest(board, attacker_id, [target_id], "Short Bow", options), dice)
    ruleset.apply(board, result)                             # wounds, exhausted cards, killed ...

What a player interface needs beyond that is data too: :attr:`Ruleset.deterministic` (nothing is
rolled; the window commits a tally), each :class:`AttackOption`'s ``max_targets`` and ``entry``
(the text typed for it, ``options["play"]``), :meth:`Ruleset.choices` (extra choices such as the
stat that blocks, with labels), :meth:`Ruleset.comparison` (what a tally compares) and
:meth:`Ruleset.condition` (who is down).

* ``attack`` is the name of an attack (card, weapon, play) as :meth:`Ruleset.attacks` lists it, or
  None for the first usable attack that is legal on the targets (:meth:`Ruleset.first_legal_attack`).
* ``resolve`` of an illegal attack does not raise: it returns ``Resolution(legal=False, reason=...)``
  with no steps and no changes. Bad *input* (unknown attack name, malformed faces of a physical roll, too
  few of them, a play that cannot be read) raises a :class:`~game.core.errors.UsageError`
  subclass with fields (:class:`~game.core.errors.FacesError`, :class:`~game.core.errors.PlayError`
  ...): the command line and the window each phrase it in their own words.
* ``reason`` strings are full sentences a player reads ("no line of sight: wall V(3,2) between
  (2,2) and (3,2)", "Short Bow is exhausted").
* A resolution is a tuple of :class:`Step` values (kinds in :data:`STEP_KINDS`), each one log
  sentence plus the dice it rolled, and an ``outcome`` mapping (for Arcadia: hits, saves, damage,
  killed). The window animates the steps; tests assert them.
* ``odds`` are exact (``Fraction``), never sampled.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from game.core.board import Board, Figure, Square, Stat, is_enemy
from game.core.dice import DiceSource, Die, DieRoll, Face, NotEnoughFaces, ScriptedDice
from game.core.errors import SightlineError, UsageError
from game.core.grid import GridKind
from game.core.words import plural
from game.rules.figure_stats import (  # noqa: F401 (plug-ins import these from here)
    STAT_LIMIT,
    bool_problems,
    int_problems,
    parse_problem,
    stat_bool,
    stat_int,
    stat_list,
)

_R = TypeVar("_R", bound="Ruleset")
#: the signature of :meth:`Ruleset.resolve`, for :func:`counts_faces`
ResolveMethod = Callable[[_R, "AttackRequest", DiceSource], "Resolution"]

#: the kinds a :class:`Step` may have
STEP_KINDS = frozenset(
    {"roll", "reroll", "explode", "keep", "compare", "damage", "status", "tally", "note", "move"}
)

#: the stage of the log lines that name a rule that applies but is not modelled
#: (:func:`not_applied_steps`)
NOT_APPLIED = "not applied"

_EMPTY: Mapping[str, object] = MappingProxyType({})
_NO_STATS: Mapping[str, Stat | None] = MappingProxyType({})


#: how many figure values a ruleset remembers the value findings of (:meth:`Ruleset.nonsense_reason`)
VALUE_MEMO_SIZE = 512

#: the options key of the text a player types for an attack that takes one (``AttackOption.entry``)
PLAY_OPTION = "play"


@dataclass(frozen=True)
class AttackRequest:
    """One attack as asked of the rules: the argument of :meth:`Ruleset.check`,
    :meth:`Ruleset.resolve` and :meth:`Ruleset.odds`. The command line (``attack``, ``odds``) and
    the window (:class:`game.play.attack.AttackController`) build it the same way.

    ``attack`` is the name of an attack as :meth:`Ruleset.attacks` lists it, or None for the first
    usable one legal on the targets; ``options`` are the rules' inputs (the typed play, the picks of
    :meth:`Ruleset.choices`), keyed as the :class:`Choice` and :data:`PLAY_OPTION` say.

    >>> from game.core.board import Board
    >>> request = AttackRequest(Board(3, 3), 1, [2], "Short Bow")
    >>> request.targets, dict(request.options)
    ((2,), {})
    """

    board: Board
    attacker: int
    targets: Sequence[int]
    attack: str | None = None
    options: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", tuple(int(t) for t in self.targets))
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def parts(self) -> tuple[Board, int, tuple[int, ...], str | None, Mapping[str, object]]:
        """``(board, attacker, targets, attack, options)``, for a ruleset to unpack."""
        return self.board, self.attacker, tuple(self.targets), self.attack, self.options

    def with_attack(self, attack: str | None) -> AttackRequest:
        """The same request naming another attack."""
        return AttackRequest(self.board, self.attacker, self.targets, attack, self.options)

    def with_targets(self, targets: Sequence[int]) -> AttackRequest:
        """The same request on other targets."""
        return AttackRequest(self.board, self.attacker, targets, self.attack, self.options)

    def with_board(self, board: Board) -> AttackRequest:
        """The same request on another board (the board after the attack, for its reactions)."""
        return AttackRequest(board, self.attacker, self.targets, self.attack, self.options)


@dataclass(frozen=True)
class AttackOption:
    """One attack a figure has: name, kind (melee, ranged, ...), dice (None if not dice-based).

    ``usable`` is False with a ``reason`` when it cannot be used now (exhausted, killed ...).
    ``max_targets`` is how many targets it may have (None: any number). ``entry`` is a hint for
    the text the player types for it (Mage Knight's play, ``"e.g. 5, 3 ice"``; empty: nothing to
    type), passed as ``options["play"]`` (:data:`PLAY_OPTION`); ``entry_required`` when the
    attack cannot be made with that text empty. ``verb`` says what the attacker does to the
    targets, for titles and logs ("attacks", "blocks", "shoots at").

    >>> AttackOption("Block", "block", None, entry="e.g. 6 ice", entry_required=True).max_targets
    1
    """

    name: str
    kind: str
    dice: int | None
    usable: bool = True
    reason: str = ""
    max_targets: int | None = 1
    entry: str = ""
    entry_required: bool = False
    verb: str = "attacks"

    def as_json(self) -> dict[str, object]:
        """``{"name", "kind", "dice", "usable", "reason"}``."""
        return {"name": self.name, "kind": self.kind, "dice": self.dice, "usable": self.usable,
                "reason": self.reason}


@dataclass(frozen=True)
class Choice:
    """A choice the rules give for an attack beyond attacker, targets and attack, such as the
    stat a Conquest defender blocks with: ``options[key]`` is one of the ``values``.

    ``values`` are ``(value, label)`` pairs, ``None`` standing for "leave it to the rules"; the
    labels carry the numbers the rules would read (``"higher (Evasion 3)"``); ``default`` is the
    value used when the player picks none.
    """

    key: str
    label: str
    values: tuple[tuple[str | None, str], ...]
    default: str | None = None


@dataclass(frozen=True)
class Comparison:
    """What a deterministic resolution compares, for a bar chart: ``value`` against ``needed``
    with a ``caption`` ("attack 7 vs armour 5: defeats Orcs")."""

    value: int
    needed: int
    caption: str


@dataclass(frozen=True)
class Legality:
    """Whether an attack is legal; ``reason`` is always a full sentence (also when legal), in the
    rules' words; ``problem`` the structured error behind a refusal, when there is one (a play
    with too many blocks ...), for the command line and the window to phrase."""

    legal: bool
    reason: str
    problem: SightlineError | None = field(default=None, compare=False)

    def __bool__(self) -> bool:
        return self.legal


@dataclass(frozen=True)
class Step:
    """One step of a resolution: a log sentence and the dice it rolled (if any).

    >>> Step("note", "Goblin has no defence: no defence dice.").as_json()["kind"]
    'note'
    """

    kind: str
    text: str
    rolls: tuple[DieRoll, ...] = ()
    data: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)
    #: the name of the ruleset's step that wrote it ("hit", "dodge", "damage", "death check" …;
    #: :attr:`Ruleset.stages`, :mod:`game.rules.steps`); "" when none did. Not compared: two
    #: steps that say and roll the same are equal
    stage: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise ValueError(f"unknown step kind {self.kind!r} (one of {sorted(STEP_KINDS)})")

    def as_json(self) -> dict[str, object]:
        """``{"kind", "text", "rolls": [...], "data": {...}, "stage"}``."""
        return {
            "kind": self.kind,
            "text": self.text,
            "rolls": [r.as_json() for r in self.rolls],
            "data": _jsonable(self.data),
            "stage": self.stage,
        }


@dataclass(frozen=True)
class FigureChange:
    """New stat values for one figure; a value of None deletes the stat. ``square``, when set,
    is where the figure moves first (a monster's Payback walks before it attacks)."""

    figure_id: int
    stats: Mapping[str, Stat | None] = field(default_factory=lambda: _NO_STATS, hash=False)
    square: Square | None = None

    def as_json(self) -> dict[str, object]:
        """``{"figure_id", "stats"}``, plus ``"square"`` ``[x, y]`` for a move."""
        out: dict[str, object] = {"figure_id": self.figure_id, "stats": dict(self.stats)}
        if self.square is not None:
            out["square"] = list(self.square)
        return out

    def apply_to(self, board: Board) -> None:
        """Move the figure (when ``square`` is set), then set its stats."""
        if self.square is not None:
            board.move_figure(self.figure_id, self.square)
        board.update_figure(self.figure_id, **dict(self.stats))


@dataclass(frozen=True)
class RuleStatus:
    """One special rule or ability of a game and what Sightline does with it
    (:attr:`Ruleset.special_rules`): ``modelled`` (the engine applies it), ``refused`` (an attack
    it would change is refused, with the reason) or ``noted`` (it applies but is not modelled:
    a "Not applied: ..." line in ``attack``, ``odds`` and the window). ``why`` says how, or why
    not, in one sentence.

    >>> RuleStatus("Payback", "modelled", "the attacked monster walks and attacks back").status
    'modelled'
    """

    name: str
    status: str
    why: str

    def __post_init__(self) -> None:
        if self.status not in RULE_STATUSES:
            raise ValueError(f"unknown rule status {self.status!r} (one of {', '.join(RULE_STATUSES)})")


#: what a ruleset does with one of its games' special rules (:class:`RuleStatus`)
RULE_STATUSES = ("modelled", "refused", "noted")


def not_applied_steps(texts: Sequence[str], stage: str = NOT_APPLIED) -> list[Step]:
    """One note per rule that applies to an attack but is not modelled: ``Not applied: ...``
    (the same words ``odds`` notes and the window lists; :meth:`Ruleset.not_applied`).

    >>> [s.text for s in not_applied_steps(["Cleave 1 (Knight's special rule): no text"])]
    ["Not applied: Cleave 1 (Knight's special rule): no text."]
    """
    return [Step("note", not_applied_line(text), stage=stage) for text in texts]


def not_applied_line(text: str) -> str:
    """``Not applied: <text>.``: the one form of the policy's line.

    >>> not_applied_line("Death Curse of a killed Hero.")
    'Not applied: Death Curse of a killed Hero.'
    """
    return f"{not_applied_clause(text)}."


def not_applied_clause(text: str) -> str:
    """``Not applied: <text>`` without a full stop: the same words as a clause of a note that
    joins its clauses with ``;`` (the odds' note).

    >>> not_applied_clause("Death Curse of a killed Hero.")
    'Not applied: Death Curse of a killed Hero'
    """
    return f"Not applied: {text.rstrip('.')}"


@dataclass(frozen=True)
class Reaction:
    """A reaction the rules call for after an attack (Arcadia Quest's Payback and Guard): who
    reacts (``reactor``) against whom (``target``), with which attack, after walking ``path``
    (its squares from the start; empty: it does not move). ``options`` go into the reaction's
    :class:`AttackRequest` (:meth:`request`); ``why`` is the sentence that offers it
    ("Payback: Cinder walks (4,9) → (4,8) and attacks Ember with Fire Spit").
    """

    kind: str
    reactor: int
    target: int
    attack: str | None
    why: str
    path: tuple[Square, ...] = ()
    options: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)

    def request(self, board: Board) -> AttackRequest:
        """The reaction as an attack request on ``board``."""
        return AttackRequest(board, self.reactor, [self.target], self.attack, self.options)

    def as_json(self) -> dict[str, object]:
        """``{"kind", "reactor", "target", "attack", "why", "path"}``."""
        return {"kind": self.kind, "reactor": self.reactor, "target": self.target,
                "attack": self.attack, "why": self.why, "path": [list(sq) for sq in self.path]}


@dataclass(frozen=True)
class Resolution:
    """The result of resolving an attack: legality, steps, outcome and the changes to apply."""

    legal: bool
    reason: str
    steps: tuple[Step, ...] = ()
    outcome: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)
    changes: tuple[FigureChange, ...] = ()
    seed: int | None = None
    #: one sentence a person would write about the result ("Goblin takes 2 wounds and is killed.")
    summary: str = ""
    #: the structured error behind an illegal attack (see :attr:`Legality.problem`)
    problem: SightlineError | None = field(default=None, compare=False)

    @classmethod
    def illegal(
        cls, reason: str, *, seed: int | None = None, problem: SightlineError | None = None
    ) -> Resolution:
        """An illegal attack: no steps, no changes."""
        return cls(False, reason, (), _EMPTY, (), seed, problem=problem)

    @classmethod
    def refused(cls, verdict: Legality, *, seed: int | None = None) -> Resolution:
        """The illegal resolution of a refused ``verdict`` (its reason and problem)."""
        return cls.illegal(verdict.reason, seed=seed, problem=verdict.problem)

    def sentence(self) -> str:
        """The result in one sentence, the same in the command line, the window's status line and
        the roll log: the ruleset's :attr:`summary`, else the compare, damage and status steps
        (else the last step); an illegal attack's reason.

        >>> Resolution(True, "ok", (Step("roll", "2 dice."), Step("damage", "Goblin takes 1 wound.")),
        ...            ).sentence()
        'Goblin takes 1 wound.'
        >>> Resolution(True, "ok", (), summary="Goblin is killed.").sentence()
        'Goblin is killed.'
        """
        if not self.legal:
            return self.reason
        if self.summary:
            return self.summary
        parts = [s.text for s in self.steps if s.kind in ("compare", "damage", "status")]
        if not parts and self.steps:
            parts = [self.steps[-1].text]
        return " ".join(parts)

    def rolls(self) -> tuple[DieRoll, ...]:
        """Every die rolled, in order, across all steps."""
        return tuple(r for step in self.steps for r in step.rolls)

    def as_json(self) -> dict[str, object]:
        """``{"legal", "reason", "steps", "outcome"}`` (docs/commands.md), plus ``seed`` when seeded."""
        out: dict[str, object] = {
            "legal": self.legal,
            "reason": self.reason,
            "steps": [s.as_json() for s in self.steps],
            "outcome": _jsonable(self.outcome),
        }
        if self.seed is not None:
            out["seed"] = self.seed
        return out


@dataclass(frozen=True)
class Odds:
    """An exact outcome distribution: damage (or another integer outcome) → probability.

    ``kill`` is the chance the (first) target is killed, None where it does not apply;
    ``truncated`` the probability mass cut off from explosions (already folded into the largest
    bucket: the distribution sums to exactly 1); ``label`` says what is counted ("wounds").

    >>> o = Odds({0: Fraction(1, 4), 1: Fraction(3, 4)}, Fraction(3, 4), Fraction(3, 4), "wounds")
    >>> o.as_json()["distribution"], o.as_json()["expected"]
    ({'0': 0.25, '1': 0.75}, 0.75)
    """

    distribution: Mapping[int, Fraction]
    expected: Fraction
    kill: Fraction | None
    label: str
    truncated: Fraction = Fraction(0)
    note: str = ""
    #: the chances a player of this game asks for, in order, each (label, p): folklore
    #: ``hit`` / ``incapacitated`` / ``killed (death)``, Conquest ``Broken! and Driven Back`` /
    #: ``Slain``, Mage Knight ``knocked out`` ...; empty: ``kill`` alone (labelled ``kill_label``)
    chances: tuple[tuple[str, Fraction], ...] = ()
    #: what ``kill`` means in these rules' words ("kill", "knock-out", "down")
    kill_label: str = "kill"

    def shown_chances(self) -> tuple[tuple[str, Fraction], ...]:
        """The chances to show: ``chances``, else ``kill`` under its label (none when None).

        >>> Odds({0: Fraction(1)}, Fraction(0), Fraction(0), "wounds").shown_chances()
        (('kill', Fraction(0, 1)),)
        """
        if self.chances:
            return self.chances
        return () if self.kill is None else ((self.kill_label, self.kill),)

    def as_json(self) -> dict[str, object]:
        """``{"distribution": {"0": p0, ...}, "expected": e, "kill": k, "label", ...}`` as floats,
        plus ``exact`` with the same numbers as fraction strings; ``chances`` as label → p."""
        return {
            "chances": {label: float(p) for label, p in self.shown_chances()},
            "distribution": {str(k): float(v) for k, v in sorted(self.distribution.items())},
            "expected": float(self.expected),
            "kill": None if self.kill is None else float(self.kill),
            "label": self.label,
            "truncated": float(self.truncated),
            "note": self.note,
            "exact": {
                "distribution": {str(k): str(v) for k, v in sorted(self.distribution.items())},
                "expected": str(self.expected),
                "kill": None if self.kill is None else str(self.kill),
                "chances": {label: str(p) for label, p in self.shown_chances()},
            },
        }


@dataclass(frozen=True)
class Condition:
    """How a figure is doing, as the board draws it: ``wounds`` of ``life`` (0 = no pips), ``down``
    when it is out of the fight (killed, Slain, defeated, dead), and a short ``note`` ("Broken!").

    >>> Condition(life=5, wounds=2).remaining
    3
    """

    life: int = 0
    wounds: int = 0
    down: bool = False
    note: str = ""

    @property
    def remaining(self) -> int:
        """Life left (never below zero)."""
        return max(0, self.life - self.wounds)


@dataclass(frozen=True)
class DieLook:
    """How a die looks, for the dice tray: its faces as rolled (table order, a face repeated as
    often as the die has it) and, per face, the symbols it shows (a symbol repeated as often as
    it counts: ``("hit", "hit")`` for ``hit+hit``; ``()`` for a number face).

    >>> look = DieLook("strike", ("blank", "hit+crit"), ((), ("hit", "crit")))
    >>> look.symbols_of("hit+crit"), look.symbols_of("sword")
    (('hit', 'crit'), None)
    """

    name: str
    faces: tuple[Face, ...]
    symbols: tuple[tuple[str, ...], ...]

    def symbols_of(self, face: Face) -> tuple[str, ...] | None:
        """The symbols ``face`` shows; None when the die has no such face."""
        try:
            return self.symbols[self.faces.index(face)]
        except ValueError:
            return None


@dataclass(frozen=True)
class Unreachable:
    """An attack of the rules that no figure on a board can make, or can make on nobody: a
    sentence (without "warning") and the figure it is about (None: the rules as a whole)."""

    message: str
    figure_id: int | None = None
    hint: str = ""


class Ruleset(ABC):
    """One game's combat rules. Subclasses set the class attributes and the four abstract methods."""

    #: registry key, as the map property ``ruleset`` writes it
    name: str = ""
    #: human title ("Arcadia Quest")
    title: str = ""
    #: the pools of a physical roll, in order, e.g. ``("attack", "defence")``; () for deterministic rules
    pools: tuple[str, ...] = ()
    #: allowed face names of a physical roll (None = numbers)
    face_names: frozenset[str] | None = None
    #: figure and map properties this ruleset reads (the map linter uses it)
    known_properties: frozenset[str] = frozenset()
    #: where the sources are silent: shown in the UI and the docs
    assumptions: tuple[str, ...] = ()
    #: True when the rules roll no dice: a resolution is a tally the player commits
    deterministic: bool = False
    #: the names of the steps of a resolution, in order ("hit", "dodge", "damage" …): each
    #: :class:`Step` of a resolution names the one that wrote it (:mod:`game.rules.steps`)
    stages: tuple[str, ...] = ()
    #: distances count a diagonal step as one (Chebyshev), as a volley's range does; else
    #: orthogonal steps only (the window's ruler, :func:`game.rules.registry.counts_diagonals`)
    diagonal_distance: bool = False
    #: the page documenting these rules' figure properties, for the map linter's hints
    #: (``"docs/arcadia.md"``); "" when there is none
    doc_page: str = ""
    #: every special rule and ability of the game, each modelled, refused or noted
    #: (:class:`RuleStatus`; a test walks them all)
    special_rules: tuple[RuleStatus, ...] = ()
    #: ``--faces`` may write a re-rolled die as ``old>new`` (Arcadia Quest's rerolls)
    face_rerolls: bool = False
    #: the grid kinds (``board.grid.kind``) these rules play on. A ruleset that says nothing
    #: plays on squares only; one whose rules do not depend on squares (Close is a neighbour
    #: across an open edge, ranges count steps across edges) adds ``"hex"`` (:meth:`grid_refusal`)
    grids: tuple[GridKind, ...] = ("square",)
    #: why the rules need squares, when they do (a clause: "Volley range counts a diagonal step
    #: as one"); the refusal on another grid says it
    squares_because: str = ""

    def grid_refusal(self, kind: GridKind) -> str | None:
        """None when these rules play on a ``kind`` grid; else why not, one sentence in the rules'
        words (without a full stop), for the command line and the window to refuse the map with.

        >>> from game.rules.registry import get_ruleset
        >>> get_ruleset("arcadia").grid_refusal("hex") is None
        True
        >>> get_ruleset("conquest").grid_refusal("hex")
        'the Conquest: First Blood rules play on square boards only: Volley range counts a diagonal step as one (Chebyshev distance), and a hex board has no diagonals'
        """
        if kind in self.grids:
            return None
        why = self.squares_because or "they do not say that they play on other boards"
        boards = " and ".join(self.grids)
        return f"the {self.title or self.name} rules play on {boards} boards only: {why}"

    @abstractmethod
    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """Every attack the figure has, each marked usable or not (with the reason)."""

    @abstractmethod
    def check(self, request: AttackRequest) -> Legality:
        """Whether the request's attacker may make its attack on its targets now, and why (a full
        sentence)."""

    @abstractmethod
    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Resolve the requested attack with ``dice``; pure (never mutates the board)."""

    @abstractmethod
    def odds(self, request: AttackRequest) -> Odds:
        """The exact outcome distribution of the requested attack (raises IllegalAttackError if
        illegal)."""

    def targets(self, board: Board, attacker: int) -> list[int]:
        """The figures ``attacker`` may pick as targets, by id: by default every enemy of its side
        (:func:`~game.core.board.is_enemy`). Whether an attack on one is legal now is
        :meth:`check`'s answer; this is who may be asked about at all."""
        if attacker not in board.figures:
            return []
        side = board.figure(attacker).side
        return sorted(f.id for f in board.figures.values() if f.id != attacker and is_enemy(f, side))

    def apply(self, board: Board, resolution: Resolution) -> None:
        """Apply a resolution's changes to the board (the default: ``update_figure`` per change)."""
        for change in resolution.changes:
            change.apply_to(board)

    def actions(self, board: Board, side: str) -> list[str]:
        """Extra actions a side may take (``"rest"`` ...); default none."""
        return []

    def perform(self, board: Board, action: str, side: str) -> tuple[FigureChange, ...]:
        """The changes of an extra action (pure: apply them with :meth:`apply_changes`)."""
        raise UsageError(f"the {self.title or self.name} rules have no action {action!r}")

    @staticmethod
    def apply_changes(board: Board, changes: Sequence[FigureChange]) -> None:
        """Apply figure changes to the board."""
        for change in changes:
            change.apply_to(board)

    def condition(self, figure: Figure) -> Condition:
        """How the figure is doing, for its token: the default reads ``life``, ``wounds``, ``killed``.

        >>> from game.rules.registry import get_ruleset
        >>> get_ruleset("arcadia").condition(Figure(1, "A", "red", (0, 0), {"life": 3, "wounds": 3}))
        Condition(life=3, wounds=3, down=True, note='')
        """
        life = max(0, stat_int(figure, "life"))
        wounds = max(0, stat_int(figure, "wounds"))
        down = stat_bool(figure, "killed") or (life > 0 and wounds >= life)
        return Condition(life, wounds, down)

    def first_legal_attack(
        self,
        board: Board,
        attacker: int,
        targets: Sequence[int],
        options: Mapping[str, object],
    ) -> tuple[str | None, str]:
        """The attack to use when none is named: the first usable one legal on ``targets``.

        Returns ``(name, "")``; when no usable attack is legal, ``(None, why)`` with the reason of
        the only usable attack, or each usable attack's reason; ``(None, "")`` when none is usable.
        """
        reasons: list[tuple[str, str]] = []
        for option in self.attacks(board, attacker):
            if not option.usable:
                continue
            verdict = self.check(AttackRequest(board, attacker, targets, option.name, options))
            if verdict.legal:
                return option.name, ""
            reasons.append((option.name, verdict.reason))
        if not reasons:
            return None, ""
        grouped: dict[str, list[str]] = {}
        for name, why in reasons:
            grouped.setdefault(why, []).append(name)
        if len(grouped) == 1:
            return None, reasons[0][1]
        listed = "; ".join(f"{', '.join(names)}: {why.rstrip('.')}" for why, names in grouped.items())
        return None, f"No attack is legal: {listed}."

    def named_attack(
        self,
        board: Board,
        attacker: int,
        targets: Sequence[int],
        attack: str | None,
        options: Mapping[str, object],
    ) -> str | None:
        """``attack``, or when it is None the first usable attack legal on ``targets`` (else None)."""
        if attack is not None:
            return attack
        return self.first_legal_attack(board, attacker, targets, options)[0]

    def figure_problems(self, figure: Figure) -> list[str]:
        """What is wrong with the figure's property VALUES for these rules (the map linter's
        ``property-value``): one sentence each, without the figure's name; default none."""
        return []

    def not_applied(self, request: AttackRequest) -> tuple[str, ...]:
        """The rules that apply to this attack but are not modelled, one sentence each (without
        the ``Not applied:`` of :func:`not_applied_line`): ``resolve`` logs them as notes, ``odds``
        adds them to its note and the window lists them. Default none."""
        return ()

    def reactions(self, board: Board, request: AttackRequest, resolution: Resolution) -> list[Reaction]:
        """The reactions ``resolution`` calls for, in order, on ``board`` as it stands after the
        attack was applied (Arcadia Quest's Guard and Payback). Each is resolved as an attack
        (:meth:`Reaction.request`) on the board as it stands then. Default none."""
        return []

    def exchange_odds(self, request: AttackRequest) -> Odds | None:
        """The exact odds of what the reactions to this attack do (the whole exchange: to the
        attacker), or None when no reaction follows. Default None."""
        return None

    def nonsense(self, figure: Figure) -> list[str]:
        """Stat values that read as numbers but make no sense for these rules (life 0, a Clash
        that keeps no dice, more dice than the exact odds count ...): one sentence each, without
        the figure's name; the linter reports them (``property-nonsense``) and :meth:`check`
        refuses an attack by or on such a figure with the same sentence. Default none."""
        return []

    def nonsense_reason(self, board: Board, figures: Sequence[int]) -> str | None:
        """The first :meth:`nonsense` of these figures as an illegal-attack reason, else None.

        A value :meth:`figure_problems` rejects (``sightline check``'s ``property-value``: a stat
        that is not a number, a negative defence, an unknown ability) raises UsageError with the
        same sentence: bad input, refused alike by ``attack``, ``odds`` and the window.
        """
        for figure_id in figures:
            if figure_id not in board.figures:
                continue
            figure = board.figure(figure_id)
            bad, problems = self._value_findings(figure)
            if bad:
                raise UsageError(f"{figure.label}: {bad[0]}")
            if problems:
                return f"{figure.label}: {problems[0].rstrip('.')} (fix the map)."
        return None

    def _value_findings(self, figure: Figure) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """:meth:`figure_problems` and :meth:`nonsense` of ``figure``, remembered per figure value
        (a Figure is frozen and compares by its stats too): a legality check asks them of the same
        figures many times, and an attack without problems should cost no more than before."""
        memo: dict[Figure, tuple[tuple[str, ...], tuple[str, ...]]] = self.__dict__.setdefault("_value_memo", {})
        try:
            found = memo.get(figure)
        except TypeError:  # a stat value that cannot be compared: ask every time
            return tuple(self.figure_problems(figure)), tuple(self.nonsense(figure))
        if found is None:
            if len(memo) >= VALUE_MEMO_SIZE:
                memo.clear()
            found = memo[figure] = (tuple(self.figure_problems(figure)), tuple(self.nonsense(figure)))
        return found

    def unreachable_attacks(self, board: Board) -> list[Unreachable]:
        """Attacks of these rules that cannot happen on ``board`` whatever the figures do: one
        no figure has, one whose reach is nothing (a range of 0), one that rolls no dice. The
        map linter reports them (``attack-unreachable``). Default none."""
        return []

    def die_look(self, die: str) -> DieLook | None:
        """How the die called ``die`` (a :class:`~game.core.dice.DieRoll`'s ``die``) looks, for
        the dice tray to draw and tumble it; None: the tray draws faces by their names."""
        return None

    def choices(self, board: Board, attacker: int, targets: Sequence[int]) -> list[Choice]:
        """The choices these rules give for an attack of ``attacker`` on ``targets`` (each an
        ``options`` key with its values and their labels); default none."""
        return []

    def comparison(self, resolution: Resolution) -> Comparison | None:
        """Deterministic rules: what ``resolution`` compares (value, needed, caption), for the
        window's chart before committing; default None."""
        return None


class NoDice:
    """The dice of rules that roll none (a deterministic tally): asked for a face, it says so.

    >>> NoDice().roll(Die("d6", (1, 2, 3, 4, 5, 6)), 0)
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: these rules roll no dice
    """

    def roll(self, die: Die, pool: int) -> Face:
        """Never a face: deterministic rules roll nothing."""
        raise UsageError("these rules roll no dice")


class FaceCounter:
    """Dice that count a shortage of physical faces over a whole resolution and report it once.

    Rulesets that roll die by die wrap their dice in it: when a scripted pool runs out, the roll
    goes on with the die's first face and :meth:`raise_shortage` then says, in the one form every
    ruleset uses, how many faces the first short pool needs
    (``the dodge pool needs 2 more faces``).

    >>> from game.core.dice import D6
    >>> dice = FaceCounter(ScriptedDice([[4]], ["hit"]))
    >>> dice.roll(D6, 0), dice.roll(D6, 0), dice.roll(D6, 0)
    (4, 1, 1)
    >>> dice.raise_shortage()
    Traceback (most recent call last):
    ...
    game.core.dice.NotEnoughFaces: the hit pool needs 2 more faces
    """

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.seed: int | None = getattr(dice, "seed", None)
        self.missing: dict[str, list[int]] = {}

    def roll(self, die: Die, pool: int) -> Face:
        """The next face; a scripted pool that ran out is counted, not raised."""
        try:
            return self.dice.roll(die, pool)
        except NotEnoughFaces as exc:
            if not isinstance(self.dice, ScriptedDice):
                raise
            counted = self.missing.setdefault(str(exc.pool), [exc.given, 0])
            counted[1] += 1
            return die.faces[0]

    def raise_shortage(self) -> None:
        """Raise NotEnoughFaces for the first pool that ran out (nothing when none did)."""
        for pool, (given, missing) in self.missing.items():
            raise NotEnoughFaces(
                pool, given, f"the {pool} pool needs {plural(missing, 'more face')}"
            )


def counts_faces(resolve: ResolveMethod[_R]) -> ResolveMethod[_R]:
    """Decorate a ruleset's ``resolve`` so its dice go through a :class:`FaceCounter`.

    A shortage of physical faces is then reported once, after the whole resolution, in the common
    form.
    """

    @functools.wraps(resolve)
    def counted(self: _R, request: AttackRequest, dice: DiceSource) -> Resolution:
        counter = FaceCounter(dice)
        result = resolve(self, request, counter)
        counter.raise_shortage()
        return result

    return counted


def _jsonable(value: object) -> object:
    """Mappings, tuples, Fractions → JSON-friendly values (Fractions as floats)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, DieRoll):
        return value.as_json()
    return value
