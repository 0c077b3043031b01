"""Reading one ``[[resolution.steps]]`` table into its :mod:`~game.rules.custom.spec` step.

The kinds (``docs/rulesets.md``): ``count`` (symbol dice, explosions), ``successes`` (number dice
against a target, rerolls), ``total`` (a sum with criticals and fumbles), ``keep`` (lowest or
highest N, never some faces, rerolls and extra dice on faces), ``block`` (block dice cancelling
kept dice), ``opposed`` (two totals), ``cancel`` (hits − saves − armour) and ``compute``
(named expressions).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict

from game.rules.custom.expr import FUNCTIONS, SCOPES, Expr
from game.rules.custom.spec import (
    BlockStep,
    CancelStep,
    ComputeStep,
    CountStep,
    DieSpec,
    FaceEffect,
    FaceRule,
    KeepStep,
    OpposedStep,
    Step,
    SuccessStep,
    TotalStep,
)
from game.rules.custom.table import Table, mapping_items, suggest

if TYPE_CHECKING:
    from game.rules.custom.names import Names

_VALUE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
_SCOPES = ("attacker", "target", "attack")
_COMMON = ("step", "label", "when")
_ROLL = (*_COMMON, "pool", "die", "dice", "into", "roller")
_Reader = Callable[[Table, int, dict[str, DieSpec], "Names", Sequence[Step]], Step]


def read_step(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
              before: Sequence[Step]) -> Step:
    """The step of ``table`` (its ``step`` key says which kind)."""
    kind = table.text("step")
    reader = READERS.get(kind)
    if reader is None:
        table.fail("step", f"step {index} has an unknown kind {kind!r}", suggest(kind, READERS))
    table.what = f"step {index} ({kind})"
    return reader(table, index, dice, names, before)


def _value_name(table: Table, key: str) -> str:
    name = table.text(key)
    if not _VALUE.match(name) or name in SCOPES or name in FUNCTIONS or name in ("true", "false"):
        table.fail(key, f"{key} = {name!r} in {table.what} is not a plain lower-case name",
                   "use letters, digits and single _ (e.g. hits)")
    return name


class _Common(TypedDict):
    index: int
    label: str
    when: Expr | None


class _Roll(TypedDict):
    pool: str
    die: str
    dice: Expr
    into: str
    roller: str


def _common(table: Table, index: int, names: Names) -> _Common:
    when = table.expr("when")
    names.check(table, "when", when, _SCOPES)
    return {"index": index, "label": table.text("label", ""), "when": when}


def _roll_parts(table: Table, dice: dict[str, DieSpec], names: Names, *, numeric: bool
                ) -> tuple[_Roll, DieSpec]:
    die_name = table.text("die")
    die = dice.get(die_name)
    if die is None:
        table.fail("die", f"{table.what} rolls the die {die_name!r}, which [dice] does not define",
                   suggest(die_name, dice))
    if numeric and not die.numeric:
        table.fail("die", f"{table.what} needs a die with numbers, and {die_name!r} has symbols",
                   'use a die like d6 = "d6"')
    if not numeric and die.numeric:
        table.fail("die", f"{table.what} counts symbols, and the {die_name!r} die has numbers",
                   "use a successes step for number dice")
    pool = table.text("pool", die_name)
    count = table.expr("dice", required=True)
    names.check(table, "dice", count, _SCOPES)
    assert count is not None
    scopes = {scope for scope, _ in count.stats}
    guess = "target" if scopes == {"target"} else "attacker"
    roller = table.text("roller", guess, choices=("attacker", "target"))
    return {"pool": pool, "die": die_name, "dice": count, "into": _value_name(table, "into"),
            "roller": roller}, die


def _faces(table: Table, key: str, die: DieSpec) -> frozenset[int]:
    faces = table.numbers(key) or ()
    bad = [f for f in faces if f not in die.faces]
    if bad:
        table.fail(key, f"{key} in {table.what}: the {die.name} die has no face {bad[0]}",
                   f"its faces are {', '.join(str(f) for f in die.faces)}")
    return frozenset(faces)


def _symbols(table: Table, key: str, die: DieSpec, required: bool) -> frozenset[str]:
    words = table.words(key)
    if words is None:
        if required:
            table.fail(None, f"{table.what} needs {key}", f'e.g. {key} = ["hit", "crit"]')
        return frozenset()
    known = die.all_symbols()
    for word in words:
        if word.lower() not in known:
            table.fail(key, f"{key} in {table.what}: no face of the {die.name} die shows {word!r}",
                       suggest(word.lower(), known))
    return frozenset(w.lower() for w in words)


def _count(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
           before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    parts, die = _roll_parts(table, dice, names, numeric=False)
    symbols = _symbols(table, "symbols", die, True)
    explode = _symbols(table, "explode", die, False)
    _never_stops(table, die, [i for i, f in enumerate(die.faces)
                              if set(die.symbols[i]) & explode])
    table.finish((*_ROLL, "symbols", "explode"))
    return CountStep(**common, **parts, symbols=symbols, explode=explode)


def _never_stops(table: Table, die: DieSpec, exploding: list[int]) -> None:
    if len(exploding) == len(die.faces):
        table.fail("explode", f"every face of the {die.name} die explodes: it never stops rolling",
                   "leave at least one face that does not explode")


def _successes(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
               before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    parts, die = _roll_parts(table, dice, names, numeric=True)
    at_least, at_most = table.expr("at_least"), table.expr("at_most")
    if (at_least is None) == (at_most is None):
        table.fail(None, f"{table.what} needs one of at_least or at_most (the target number)",
                   "e.g. at_least = 4")
    names.check(table, "at_least", at_least, _SCOPES)
    names.check(table, "at_most", at_most, _SCOPES)
    reroll_raw = table.raw("reroll")
    reroll: str | frozenset[int] | None
    if reroll_raw is None or reroll_raw in ("failures", "ones"):
        reroll = reroll_raw
    elif isinstance(reroll_raw, str):
        table.fail("reroll", f"reroll = {reroll_raw!r} in {table.what} is not failures, ones or a "
                   "list of faces", suggest(reroll_raw, ("failures", "ones")))
    else:
        reroll = _faces(table, "reroll", die)
    explode = _faces(table, "explode", die)
    _never_stops(table, die, [i for i, f in enumerate(die.faces) if f in explode])
    step = SuccessStep(**common, **parts, at_least=at_least, at_most=at_most, reroll=reroll,
                       always_fail=_faces(table, "always_fail", die),
                       always_succeed=_faces(table, "always_succeed", die), explode=explode,
                       failures=table.text("count", "successes",
                                           choices=("successes", "failures")) == "failures")
    table.finish((*_ROLL, "at_least", "at_most", "reroll", "always_fail", "always_succeed",
                  "explode", "count"))
    return step


def _face_rule(table: Table, key: str, die: DieSpec) -> FaceRule | None:
    sub = table.table(key, f"the {key} of {table.what}")
    if sub is None:
        return None
    face = sub.integer("face")
    if face is None or face not in die.faces:
        sub.fail("face" if face is not None else None,
                 f"the {key} of {table.what} needs the face it counts"
                 + (f" ({face} is not a face of the {die.name} die)" if face is not None else ""),
                 f"e.g. {key} = {{ face = 6, at_least = 2 }}")
    every = sub.flag("all")
    at_least = sub.integer("at_least", None if every else 1)
    if every and at_least is not None:
        sub.fail("all", f"the {key} of {table.what} gives both all and at_least", "keep one")
    if at_least is not None and at_least < 1:
        sub.fail("at_least", f"the {key} of {table.what} needs at_least 1 or more")
    sub.finish(("face", "at_least", "all"))
    return FaceRule(face, at_least)


def _total(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
           before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    parts, die = _roll_parts(table, dice, names, numeric=True)
    modifier = table.expr("modifier")
    names.check(table, "modifier", modifier, _SCOPES)
    step = TotalStep(**common, **parts, modifier=modifier,
                     critical=_face_rule(table, "critical", die),
                     fumble=_face_rule(table, "fumble", die))
    table.finish((*_ROLL, "modifier", "critical", "fumble"))
    return step


def _effects(table: Table, key: str, die: DieSpec, names: Names, reroll: bool) -> list[FaceEffect]:
    raw = table.raw(key)
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, item in enumerate(items):
        path = (key, i) if isinstance(raw, list) else (key,)
        sub = Table(table.source, table.path + path, item, f"the {key} of {table.what}")
        faces = _faces(sub, "faces", die)
        if not faces:
            sub.fail("faces", f"the {key} of {table.what} needs faces", "e.g. faces = [1]")
        count = 1 if reroll else sub.integer("dice", 1)
        assert count is not None
        if count < 0 or count > 10:
            sub.fail("dice", f"the {key} of {table.what} adds {count} dice", "give 0 to 10")
        when = sub.expr("when")
        names.check(sub, "when", when, _SCOPES)
        label = sub.text("label", "")
        sub.finish(("faces", "when", "label") + (() if reroll else ("dice",)))
        out.append(FaceEffect(faces, count, when, label))
    return out


def _keep(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
          before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    parts, die = _roll_parts(table, dice, names, numeric=True)
    lowest, highest = table.expr("lowest"), table.expr("highest")
    if lowest is not None and highest is not None:
        table.fail("highest", f"{table.what} keeps both the lowest and the highest", "keep one")
    names.check(table, "lowest", lowest, _SCOPES)
    names.check(table, "highest", highest, _SCOPES)
    rerolls = _effects(table, "reroll", die, names, True)
    if len(rerolls) > 1:
        table.fail("reroll", f"{table.what} has several rerolls", "give one reroll = { faces = [...] }")
    step = KeepStep(**common, **parts, keep=lowest if lowest is not None else highest,
                    highest=highest is not None, never=_faces(table, "never", die),
                    reroll=rerolls[0] if rerolls else None,
                    extra=tuple(_effects(table, "extra", die, names, False)))
    table.finish((*_ROLL, "lowest", "highest", "never", "reroll", "extra"))
    return step


def _block(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
           before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    parts, _ = _roll_parts(table, dice, names, numeric=True)
    hits = table.text("hits")
    kept = before[-1] if before else None
    if not isinstance(kept, KeepStep) or kept.into != hits:
        table.fail("hits", f"hits = {hits!r} in {table.what} must name the dice the step just "
                   "before kept", "put a keep step with into = \"" + hits + "\" right before it")
    cancels = table.text("cancels", "hit >= block", choices=("hit >= block", "hit <= block"))
    if kept.keep is not None and kept.highest == (cancels == "hit >= block"):
        table.fail("cancels", f"{table.what}: keeping the {'highest' if kept.highest else 'lowest'} "
                   f"dice with blocks that cancel when {cancels} is not supported",
                   "keep the lowest with hit >= block, or the highest with hit <= block")
    step = BlockStep(**common, **parts, hits=hits, cancels=cancels)
    table.finish((*_ROLL, "hits", "cancels"))
    return step


def _opposed(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
             before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    totals = {s.into for s in before if isinstance(s, TotalStep)}
    sides = {}
    for key in ("attack", "defence"):
        sides[key] = table.text(key)
        if sides[key] not in totals:
            table.fail(key, f"{key} = {sides[key]!r} in {table.what} must name an earlier total step",
                       suggest(sides[key], totals) if totals else "add a total step first")
    ties = table.text("ties", "defence", choices=("defence", "attack"))
    step = OpposedStep(**common, attack=sides["attack"], defence=sides["defence"], ties=ties,
                       into=_value_name(table, "into"))
    table.finish((*_COMMON, "attack", "defence", "ties", "into"))
    return step


def _cancel(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
            before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    exprs = {}
    for key in ("value", "by", "armour"):
        exprs[key] = table.expr(key, required=key == "value")
        names.check(table, key, exprs[key], _SCOPES)
    step = CancelStep(**common, value=exprs["value"], by=exprs["by"], armour=exprs["armour"],
                      into=_value_name(table, "into"))
    table.finish((*_COMMON, "value", "by", "armour", "into"))
    return step


def _compute(table: Table, index: int, dice: dict[str, DieSpec], names: Names,
             before: Sequence[Step]) -> Step:
    common = _common(table, index, names)
    sub = table.table("set", f"the set of {table.what}")
    if sub is None:
        table.fail(None, f"{table.what} needs set = {{ name = \"expression\", ... }}")
    values: list[tuple[str, Expr]] = []
    saved = set(names.values)
    for key, _ in mapping_items(sub):
        if not _VALUE.match(key) or key in SCOPES or key in FUNCTIONS:
            sub.fail(key, f"{key!r} in {table.what} is not a plain lower-case name",
                     "use letters, digits and single _")
        expr = sub.expr(key, required=True)
        names.check(sub, key, expr, _SCOPES)
        assert expr is not None
        values.append((key, expr))
        names.values.add(key)
    names.values = saved
    table.finish((*_COMMON, "set"))
    return ComputeStep(**common, values=tuple(values))


READERS: dict[str, _Reader] = {
    "count": _count,
    "successes": _successes,
    "total": _total,
    "keep": _keep,
    "block": _block,
    "opposed": _opposed,
    "cancel": _cancel,
    "compute": _compute,
}
