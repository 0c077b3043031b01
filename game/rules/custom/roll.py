"""Resolving a ruleset file's attack once: its steps with real dice (seeded, or the faces of a
physical roll), each a :class:`~game.rules.base.Step` the log prints and the dice tray animates.

Dice are drawn in the order the steps list them; inside a step: the dice rolled first, then
rerolls and extra dice die by die (a die's reroll, then its extra dice), then explosions, each
explosion die right after the die it explodes from is done (as ``roll_pool`` numbers them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from game.core.dice import DieRoll, Face
from game.core.words import plural
from game.rules.base import FaceCounter
from game.rules.base import Step as LogStep
from game.rules.custom.expr import parse
from game.rules.custom.faces import rerolls, succeeds
from game.rules.custom.odds import Scope, opposed_wins, target_of
from game.rules.custom.spec import (
    BlockStep,
    CancelStep,
    ComputeStep,
    CountStep,
    KeepStep,
    OpposedStep,
    RollStep,
    RulesetSpec,
    Step,
    SuccessStep,
    TotalStep,
)

#: the most dice one pool may roll in a resolution (explosions included), a guard only
MAX_ROLLED = 1000
_NONE = parse(0)


@dataclass
class Rolling:
    """What a resolution has so far: the step values, the dice kept by keep steps, the log."""

    spec: RulesetSpec
    scope: Scope
    dice: FaceCounter
    names: Mapping[str, str]  # attacker / target → label
    values: dict[str, int] = field(default_factory=dict)
    kept: dict[str, list[int]] = field(default_factory=dict)
    log: list[LogStep] = field(default_factory=list)

    def roll(self, step: RollStep, reason: str = "rolled") -> DieRoll:
        """One die of the step's pool."""
        die = self.spec.dice[step.die].die
        face = self.dice.roll(die, self.spec.pools.index(step.pool))
        return DieRoll(step.pool, step.die, face, reason)

    def short(self) -> bool:
        """A physical roll ran out of faces (stop exploding: the resolution will be refused)."""
        return bool(self.dice.missing)

    def who(self, step: RollStep) -> str:
        """The label of the figure rolling the step's dice."""
        return self.names[step.roller]


def _faces(rolls: Sequence[DieRoll]) -> str:
    return ", ".join(str(r.face) for r in rolls) if rolls else "nothing"


def _dice_list(numbers: Sequence[int]) -> str:
    """``die 3`` / ``dice 1, 3``."""
    return ("die " if len(numbers) == 1 else "dice ") + ", ".join(map(str, numbers))


def _title(step: Step, name: str) -> str:
    return step.label or name.replace("_", " ")


def _base(state: Rolling, step: RollStep, n: int) -> list[DieRoll]:
    rolls = [state.roll(step) for _ in range(n)]
    state.log.append(LogStep(
        "roll", f"{state.who(step)} rolls {dice_words(n, step.die)} ({_title(step, step.into)}): "
        f"{_faces(rolls)}.", tuple(rolls), {"pool": step.pool, "count": n}))
    return rolls


def dice_words(n: int, die: str) -> str:
    """``5d6`` for a dN die, else ``3 attack dice``.

    >>> dice_words(5, "d6"), dice_words(1, "attack")
    ('5d6', '1 attack die')
    """
    if re.fullmatch(r"d\d+", die):
        return f"{n}{die}"
    return plural(n, f"{die} die", f"{die} dice")


def _explode(state: Rolling, step: RollStep, rolls: list[DieRoll], explodes: set[Face],
             again: set[Face] | None = None, target: object = None) -> list[DieRoll]:
    """Explosions after the rolled dice (and their rerolls): one more die per exploding face,
    recursively; with ``again`` (faces rerolled once), a new die is rerolled right away."""
    final = list(rolls)
    i = 0
    while i < len(final) and not state.short() and len(final) < MAX_ROLLED:
        if final[i].face in explodes:
            new = state.roll(step, f"explosion of die {i + 1}")
            extra = [new]
            if again is not None and new.face in again:
                extra.append(state.roll(step, f"reroll of die {len(final) + 1}"))
            state.log.append(LogStep("explode", f"{final[i].face} explodes: "
                                     f"{dice_words(1, step.die)} more: {_faces(extra)}.",
                                     tuple(extra), {"pool": step.pool}))
            final.append(extra[-1])
        i += 1
    return final


def _count(state: Rolling, step: CountStep) -> None:
    n = state.scope.dice(step, step.dice, state.values)
    rolls = _base(state, step, n)
    die = state.spec.dice[step.die]
    exploding = {f for f, s in zip(die.faces, die.symbols, strict=True) if set(s) & step.explode}
    final = _explode(state, step, rolls, exploding)
    counted = [(i, die.count(r.face, step.symbols)) for i, r in enumerate(final, 1)]
    total = sum(c for _, c in counted)
    which = [i for i, c in counted if c]
    state.values[step.into] = total
    state.log.append(LogStep(
        "tally", f"{_title(step, step.into)}: {total} ({', '.join(sorted(step.symbols))} count"
        + (f": {_dice_list(which)})." if which else ")."),
        (), {step.into: total, "dice": which}))


def _successes(state: Rolling, step: SuccessStep) -> None:
    n = state.scope.dice(step, step.dice, state.values)
    target = target_of(step, state.scope, state.values)
    rolls = _base(state, step, n)
    final = list(rolls)
    again_faces = {f for f in state.spec.dice[step.die].faces
                   if rerolls(int(f), target, step.reroll)}
    redone: list[DieRoll] = []
    said: list[str] = []
    for i, r in enumerate(rolls):
        if r.face in again_faces and not state.short():
            final[i] = state.roll(step, f"reroll of die {i + 1}")
            redone.append(final[i])
            said.append(f"die {i + 1} ({r.face}) → {final[i].face}")
    if redone:
        state.log.append(LogStep("reroll", f"Rerolled once: {', '.join(said)}.", tuple(redone),
                                 {"pool": step.pool}))
    final = _explode(state, step, final, set(step.explode), again_faces)
    good = [i for i, r in enumerate(final, 1) if succeeds(int(r.face), target) != step.failures]
    state.values[step.into] = len(good)
    need = (f"{target.at_least} or more" if target.at_least is not None
            else f"{target.at_most} or less")
    need = f"failures of {need}" if step.failures else need
    state.log.append(LogStep(
        "tally", f"{_title(step, step.into)}: {len(good)} ({need}"
        + (f": {_dice_list(good)})." if good else ")."),
        (), {step.into: len(good), "dice": good}))


def _total(state: Rolling, step: TotalStep) -> None:
    out = step.outputs()
    n = state.scope.dice(step, step.dice, state.values)
    rolls = [state.roll(step) for _ in range(n)]
    faces = [int(r.face) for r in rolls]
    mod = state.scope.number(step.modifier, state.values)
    total = sum(faces) + mod
    crit_dice = faces.count(step.critical.face) if step.critical else 0
    crit = step.critical is not None and _reached(crit_dice, step.critical.at_least, n)
    fum = step.fumble is not None and _reached(faces.count(step.fumble.face), step.fumble.at_least, n)
    values = {"total": total, "critical": int(crit), "fumble": int(fum),
              "critical_dice": crit_dice, "rolled": 1}
    for role, name in out.items():
        state.values[name] = values[role]
    flag = " (critical)" if crit else " (fumble)" if fum else ""
    state.log.append(LogStep(
        "roll", f"{state.who(step)}'s {_title(step, step.into)}: [{', '.join(map(str, faces))}]"
        f"{f' + {mod}' if mod > 0 else f' − {-mod}' if mod < 0 else ''} = {total}{flag}.",
        tuple(rolls), {"pool": step.pool, "total": total, "critical": crit, "fumble": fum}))


def _reached(count: int, at_least: int | None, dice: int) -> bool:
    return dice > 0 and count == dice if at_least is None else count >= at_least


def _keep(state: Rolling, step: KeepStep) -> None:
    n = state.scope.dice(step, step.dice, state.values)
    primary = _base(state, step, n)
    final = [int(r.face) for r in primary]
    effects = [e for e in ((step.reroll,) if step.reroll else ()) + step.extra
               if state.scope.holds(e.when, state.values)]
    new: list[DieRoll] = []
    texts: list[str] = []
    for i, r in enumerate(primary, 1):
        for effect in effects:
            if r.face not in effect.faces:
                continue
            by = f" ({effect.label})" if effect.label else ""
            if effect is step.reroll:
                again = state.roll(step, f"reroll of die {i}{by}")
                final[i - 1] = int(again.face)
                new.append(again)
                texts.append(f"die {i} ({r.face}) is rerolled{by}: {again.face}")
                continue
            for _ in range(effect.dice):
                extra = state.roll(step, f"extra die from die {i}{by}")
                final.append(int(extra.face))
                new.append(extra)
                texts.append(f"die {i} ({r.face}) adds a die{by}: {extra.face}")
    if new:
        state.log.append(LogStep("reroll", "Then: " + "; ".join(texts) + ".", tuple(new),
                                 {"pool": step.pool}))
    count = None if step.keep is None else max(0, state.scope.number(step.keep, state.values))
    candidates = sorted((f for f in final if f not in step.never), reverse=step.highest)
    kept = candidates if count is None else candidates[:count]
    state.kept[step.into] = kept
    state.values[step.into] = len(kept)
    never = sorted(f for f in final if f in step.never)
    which = "all" if count is None else f"the {'highest' if step.highest else 'lowest'} {count}"
    state.log.append(LogStep(
        "keep", f"Keep {which} of [{', '.join(map(str, sorted(final)))}]"
        + (f", never {', '.join(map(str, sorted(set(never))))} ({len(never)} left out)" if never else "")
        + f": {_title(step, step.into)} [{', '.join(map(str, kept))}].",
        (), {"dice": sorted(final), "kept": kept}))


def _block(state: Rolling, step: BlockStep) -> None:
    n = state.scope.dice(step, step.dice, state.values)
    rolls = _base(state, step, n)
    hits = state.kept.get(step.hits, [])
    blocks = [int(r.face) for r in rolls]
    pairs = match(hits, blocks, step.cancels == "hit <= block")
    left = list(hits)
    for _, hit in pairs:
        left.remove(hit)
    state.values[step.into] = len(left)
    said = ", ".join(f"{b} cancels {h}" for b, h in pairs) or "nothing is cancelled"
    state.log.append(LogStep(
        "compare", f"{said[0].upper()}{said[1:]}; left: [{', '.join(map(str, left))}].", (),
        {"pairs": [list(p) for p in pairs], "left": left}))


def match(hits: Sequence[int], blocks: Sequence[int], lower: bool = False) -> list[tuple[int, int]]:
    """The most (block, hit) pairs where a block cancels a hit of its value or more (or less,
    ``lower``): both ascending, each block taking the smallest hit it can (optimal).

    >>> match([2, 5], [1, 5]), match([2, 5], [6, 3], lower=True)
    ([(1, 2), (5, 5)], [(6, 5), (3, 2)])
    """
    sign = -1 if lower else 1
    hs = sorted(hits, key=lambda v: sign * v)
    bs = sorted(blocks, key=lambda v: sign * v)
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(bs) and j < len(hs):
        if sign * bs[i] <= sign * hs[j]:
            pairs.append((bs[i], hs[j]))
            i += 1
        j += 1
    return pairs


def _opposed(state: Rolling, step: OpposedStep) -> None:
    v, a, d = state.values, step.attack, step.defence
    won = opposed_wins(v.get(a, 0), v.get(f"{a}_critical", 0), v.get(f"{a}_fumble", 0), v.get(d, 0),
                       v.get(f"{d}_critical", 0), v.get(f"{d}_fumble", 0), v.get(f"{d}_rolled", 0),
                       step.ties == "attack")
    state.values[step.into] = int(won)
    if v.get(f"{d}_rolled", 0) and v.get(f"{d}_critical", 0):
        why = f"the {d.replace('_', ' ')}'s critical wins"
    elif v.get(f"{a}_fumble", 0):
        why = f"the {a.replace('_', ' ')} is a fumble"
    elif v.get(f"{a}_critical", 0):
        why = f"the {a.replace('_', ' ')} is a critical"
    elif not v.get(f"{d}_rolled", 0):
        why = f"no {d.replace('_', ' ')} roll"
    elif v.get(f"{d}_fumble", 0):
        why = f"the {d.replace('_', ' ')} is a fumble"
    else:
        why = f"{v[a]} against {v[d]}" + (f", ties go to the {step.ties}" if v[a] == v[d] else "")
    state.log.append(LogStep("compare", f"{_title(step, step.into).capitalize()}: "
                             f"{'yes' if won else 'no'} ({why}).", (), {step.into: int(won)}))


def _cancel(state: Rolling, step: CancelStep) -> None:
    s, v = state.scope, state.values
    hits, by, armour = s.number(step.value, v), s.number(step.by, v), s.number(step.armour, v)
    result = max(0, hits - by - armour)
    state.values[step.into] = result
    parts = [str(hits)] + ([f"{by}"] if step.by is not None else []) + (
        [f"armour {armour}"] if step.armour is not None else [])
    state.log.append(LogStep("compare", f"{' − '.join(parts)}: {result} {_title(step, step.into)}.",
                             (), {step.into: result}))


def _compute(state: Rolling, step: ComputeStep) -> None:
    for name, expr in step.values:
        value = state.scope.value(expr, state.values)
        state.values[name] = int(value)  # type: ignore[call-overload]
    if step.label:
        shown = ", ".join(f"{n} {state.values[n]}" for n, _ in step.values)
        state.log.append(LogStep("note", f"{step.label}: {shown}."))


_RUN = {CountStep: _count, SuccessStep: _successes, TotalStep: _total, KeepStep: _keep,
        BlockStep: _block, OpposedStep: _opposed, CancelStep: _cancel, ComputeStep: _compute}


def run(state: Rolling, steps: Sequence[Step]) -> None:
    """Every step in order. A step whose ``when`` is false writes nothing (its values keep what
    they had; a value nobody wrote reads 0), except keep and block steps, which then roll no
    dice."""
    for step in steps:
        if not state.scope.holds(step.when, state.values):
            if isinstance(step, KeepStep | BlockStep):
                _RUN[type(step)](state, replace(step, dice=_NONE))  # type: ignore[operator]
            continue
        _RUN[type(step)](state, step)  # type: ignore[operator]
