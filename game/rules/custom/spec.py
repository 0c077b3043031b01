"""The parts of a ruleset file once read and checked: stats, dice, attacks, steps, outcome.

Plain frozen data (``docs/rulesets.md`` is the reference of the file format). The loader
(:mod:`game.rules.custom.load`) builds these from the TOML text; the resolution
(:mod:`game.rules.custom.roll`) and the exact odds (:mod:`game.rules.custom.odds`) read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from game.core.dice import Die, Face
from game.rules.custom.expr import Block, Expr, block

_EMPTY: Mapping[str, Expr] = MappingProxyType({})


@dataclass(frozen=True)
class StatSpec:
    """One figure stat: its name, default (a whole number, or true/false), allowed range."""

    name: str
    default: int | bool
    low: int | None = None
    high: int | None = None
    about: str = ""

    @property
    def is_bool(self) -> bool:
        """A true/false stat."""
        return isinstance(self.default, bool)


@dataclass(frozen=True)
class DieSpec:
    """A die: its faces as rolled (symbol names like ``"hit+crit"`` or numbers) and, for symbol
    dice, how many of each symbol each face shows."""

    name: str
    faces: tuple[Face, ...]
    symbols: tuple[Mapping[str, int], ...]

    @property
    def numeric(self) -> bool:
        """Faces are numbers (``d6``, ``[1, 1, 2, 3]``)."""
        return isinstance(self.faces[0], int)

    @property
    def die(self) -> Die:
        """The die as the dice sources roll it."""
        return Die(self.name, self.faces)

    def all_symbols(self) -> frozenset[str]:
        """Every symbol some face shows."""
        return frozenset(s for face in self.symbols for s in face)

    def weights(self) -> dict[Face, int]:
        """Each distinct face and how many faces show it, in table order."""
        out: dict[Face, int] = {}
        for face in self.faces:
            out[face] = out.get(face, 0) + 1
        return out

    def count(self, face: Face, symbols: frozenset[str]) -> int:
        """How many of ``symbols`` ``face`` shows (``hit+hit+crit`` shows 3 of hit, crit)."""
        index = self.faces.index(face)
        return sum(n for s, n in self.symbols[index].items() if s in symbols)


@dataclass(frozen=True)
class AttackSpec:
    """An attack: name, kind (melee or ranged), its pool, range, who has it, its resolution and
    its own values (``attack.NAME`` in expressions)."""

    name: str
    kind: str
    dice: Expr | None
    range: Expr | None
    has: Expr | None
    resolution: str
    values: Mapping[str, Expr] = field(default_factory=lambda: _EMPTY)
    about: str = ""


@dataclass(frozen=True)
class Step:
    """A resolution step: ``index`` (from 1, as the file lists them), an optional ``label`` used
    in log sentences and an optional ``when`` (the step happens only when it is true; a step that
    does not happen leaves its values at 0)."""

    index: int
    label: str
    when: Expr | None

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step (for the names it reads)."""
        return (self.when,) if self.when is not None else ()

    def reads(self) -> frozenset[str]:
        """The step values its expressions read."""
        return frozenset(n for e in self.exprs() for n in e.names)

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return ()

    def pool_die(self) -> tuple[str, str] | None:
        """(pool, die) when the step rolls dice."""
        return None


@dataclass(frozen=True)
class RollStep(Step):
    """A step that rolls ``dice`` dice of ``die`` into the ``pool`` of a physical roll;
    ``roller`` (attacker or target) names who rolls them in the log."""

    pool: str
    die: str
    dice: Expr
    into: str
    roller: str

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step."""
        return (*super().exprs(), self.dice)

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return (self.into,)

    def pool_die(self) -> tuple[str, str] | None:
        """(pool, die)."""
        return self.pool, self.die


@dataclass(frozen=True)
class CountStep(RollStep):
    """Symbol dice: count ``symbols``; each face showing an ``explode`` symbol adds a die of the
    same kind, recursively."""

    symbols: frozenset[str] = frozenset()
    explode: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SuccessStep(RollStep):
    """Number dice against a target: a success at ``at_least`` or more (or ``at_most`` or less);
    ``always_fail`` / ``always_succeed`` faces override the target; ``reroll`` (``"failures"``,
    ``"ones"`` or faces) rerolls a die once; ``explode`` faces add a die, recursively;
    ``failures`` counts failures instead of successes."""

    at_least: Expr | None = None
    at_most: Expr | None = None
    reroll: str | frozenset[int] | None = None
    always_fail: frozenset[int] = frozenset()
    always_succeed: frozenset[int] = frozenset()
    explode: frozenset[int] = frozenset()
    failures: bool = False

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step."""
        return (*super().exprs(), *(e for e in (self.at_least, self.at_most) if e is not None))


@dataclass(frozen=True)
class FaceRule:
    """How many dice show ``face`` (``at_least`` of them, or every die when None)."""

    face: int
    at_least: int | None


@dataclass(frozen=True)
class TotalStep(RollStep):
    """The sum of the dice plus ``modifier``, with a critical and a fumble (each a
    :class:`FaceRule`). Writes ``into`` (the total), ``into_critical``, ``into_fumble`` (0/1),
    ``into_critical_dice`` (dice showing the critical face) and ``into_rolled`` (1 if rolled)."""

    modifier: Expr | None = None
    critical: FaceRule | None = None
    fumble: FaceRule | None = None

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step."""
        return (*super().exprs(), *((self.modifier,) if self.modifier is not None else ()))

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return tuple(self.outputs().values())

    def outputs(self) -> dict[str, str]:
        """Output role → value name."""
        return {role: self.into if role == "total" else f"{self.into}_{role}"
                for role in ("total", "critical", "fumble", "critical_dice", "rolled")}


@dataclass(frozen=True)
class FaceEffect:
    """What a kept-dice roll does to a die showing one of ``faces``: reroll it once, or add
    ``dice`` extra dice (fresh dice trigger nothing), when ``when`` holds."""

    faces: frozenset[int]
    dice: int
    when: Expr | None
    label: str


@dataclass(frozen=True)
class KeepStep(RollStep):
    """Number dice of which the lowest (or highest) ``keep`` count, ``never`` faces excluded:
    writes the number kept and the kept dice for a :class:`BlockStep`."""

    keep: Expr | None = None
    highest: bool = False
    never: frozenset[int] = frozenset()
    reroll: FaceEffect | None = None
    extra: tuple[FaceEffect, ...] = ()

    def exprs(self) -> tuple[Expr, ...]:
        effects = (*((self.reroll,) if self.reroll else ()), *self.extra)
        return (*super().exprs(), *((self.keep,) if self.keep is not None else ()),
                *(e.when for e in effects if e.when is not None))


@dataclass(frozen=True)
class BlockStep(RollStep):
    """Block dice against the dice a :class:`KeepStep` kept (``hits``): each block die cancels
    one hit it can (``hit >= block`` or ``hit <= block``), matched for the most cancels; writes
    the hits left."""

    hits: str = ""
    cancels: str = "hit >= block"

    def reads(self) -> frozenset[str]:
        """The step values it reads."""
        return super().reads() | {self.hits}


@dataclass(frozen=True)
class OpposedStep(Step):
    """Two totals against each other: writes 1 when the ``attack`` total wins. Order: the
    defence's critical wins, the attack's fumble loses, the attack's critical wins, no defence
    roll loses, the defence's fumble loses, else the higher total; ``ties`` go to
    ``"defence"`` or ``"attack"``."""

    attack: str = ""
    defence: str = ""
    ties: str = "defence"
    into: str = ""

    def reads(self) -> frozenset[str]:
        own = {self.attack, f"{self.attack}_critical", f"{self.attack}_fumble",
               self.defence, f"{self.defence}_critical", f"{self.defence}_fumble",
               f"{self.defence}_rolled"}
        return super().reads() | own

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return (self.into,)


@dataclass(frozen=True)
class CancelStep(Step):
    """``max(0, value − by − armour)``: hits minus saves minus armour."""

    value: Expr | None = None
    by: Expr | None = None
    armour: Expr | None = None
    into: str = ""

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step."""
        return (*super().exprs(), *(e for e in (self.value, self.by, self.armour) if e is not None))

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return (self.into,)


@dataclass(frozen=True)
class ComputeStep(Step):
    """Named values from expressions, in order (each may read the ones before); ``code`` runs
    them all as one function returning :meth:`writes` (compiled once, when built)."""

    values: tuple[tuple[str, Expr], ...] = ()
    code: Block | None = field(default=None, compare=False, repr=False)
    _pruned: dict[tuple[str, ...], Block] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.code is None:
            object.__setattr__(self, "code", block(list(self.values), list(self.writes())))

    def code_for(self, outputs: tuple[str, ...]) -> Block:
        """A block computing only ``outputs`` (and what they read), compiled once per set.

        >>> from game.rules.custom.expr import parse
        >>> step = ComputeStep(1, "", None, (("a", parse("x + 1")), ("b", parse("y")), ("c", parse("a * 2"))))
        >>> step.code_for(("c",)).params, step.code_for(("c",)).text
        (('x',), 'a = x + 1; c = a * 2')
        """
        found = self._pruned.get(outputs)
        if found is None:
            needed = set(outputs)
            kept: list[tuple[str, Expr]] = []
            for name, expr in reversed(self.values):
                if name in needed:
                    kept.append((name, expr))
                    needed = (needed - {name}) | set(expr.names)
            found = self._pruned[outputs] = block(kept[::-1], list(outputs))
        return found

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression of the step."""
        return (*super().exprs(), *(e for _, e in self.values))

    def writes(self) -> tuple[str, ...]:
        """The step values it writes."""
        return tuple(dict.fromkeys(n for n, _ in self.values))


@dataclass(frozen=True)
class Chance:
    """A chance the odds report: its label, the condition, and when it is shown at all."""

    label: str
    when: Expr
    shown: Expr | None = None


@dataclass(frozen=True)
class Outcome:
    """What the odds count (``value``), its label, a cap, whether the target has a take-out
    track at all (``tracked``), when it is taken out (``down``) and the other chances."""

    value: Expr
    label: str = "damage"
    cap: Expr | None = None
    tracked: Expr | None = None
    down: Expr | None = None
    down_label: str = "kill"
    chances: tuple[Chance, ...] = ()
    note: str = ""
    #: the value, each chance's condition and the take-out condition (last, when there is one)
    #: as one function, compiled when built
    code: Block | None = field(default=None, compare=False, repr=False)

    def exprs(self) -> tuple[Expr, ...]:
        """Every expression the odds read."""
        chance_exprs = [c.when for c in self.chances] + [c.shown for c in self.chances if c.shown]
        own = (self.value, self.cap, self.tracked, self.down)
        return (*(e for e in own if e is not None), *chance_exprs)

    def __post_init__(self) -> None:
        if self.code is None:
            results: list[Expr | str] = [self.value, *(c.when for c in self.chances)]
            if self.down is not None:
                results.append(self.down)
            object.__setattr__(self, "code", block([], results))


@dataclass(frozen=True)
class Change:
    """A stat a resolution sets: ``scope`` (attacker or target), the stat, its new value."""

    scope: str
    stat: str
    value: Expr


@dataclass(frozen=True)
class ResolutionSpec:
    """A named resolution: steps, outcome, changes; ``live[i]``: values read after step i (by
    later steps or the outcome), ``later[i]``: values read by later steps."""

    name: str
    steps: tuple[Step, ...]
    outcome: Outcome
    changes: tuple[Change, ...]
    live: tuple[frozenset[str], ...]
    later: tuple[frozenset[str], ...] = ()

    def rolls_dice(self) -> bool:
        """Whether any step rolls dice."""
        return any(s.pool_die() is not None for s in self.steps)


@dataclass(frozen=True)
class ConditionSpec:
    """How a figure is doing: life, wounds, down, notes (each with its condition), and whether
    it may attack and be attacked (by default: while not down)."""

    life: Expr | None = None
    wounds: Expr | None = None
    down: Expr | None = None
    notes: tuple[tuple[str, Expr], ...] = ()
    can_attack: Expr | None = None
    can_be_attacked: Expr | None = None


@dataclass(frozen=True)
class RulesetSpec:
    """A whole ruleset file, read and checked."""

    name: str
    title: str
    source: str
    pools: tuple[str, ...]
    distance: str
    stats: Mapping[str, StatSpec]
    dice: Mapping[str, DieSpec]
    attacks: tuple[AttackSpec, ...]
    resolutions: Mapping[str, ResolutionSpec]
    condition: ConditionSpec
    assumptions: tuple[str, ...] = ()
    pool_dice: Mapping[str, str] = field(default_factory=dict)
