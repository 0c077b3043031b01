"""Read a ruleset file's TOML text into a checked :class:`~game.rules.custom.spec.RulesetSpec`.

Pure: the text comes in as a string with the name to show in errors (reading the file is the
caller's job). Every problem is one :class:`~game.rules.custom.errors.RulesetFileError`: the
file, the line, what is wrong and how to fix it; never a traceback.

>>> spec = load_spec('''
... name = "duel"
... [stats]
... life = 3
... [dice]
... d6 = "d6"
... [attacks.Punch]
... kind = "melee"
... dice = 2
... [[resolution.steps]]
... step = "successes"
... die = "d6"
... dice = "attack.dice"
... at_least = 5
... into = "hits"
... [resolution.outcome]
... value = "hits"
... down = "hits >= target.life"
... ''', "duel.toml")
>>> spec.name, [s.into for s in spec.resolutions["default"].steps], spec.pools
('duel', ['hits'], ('d6',))
>>> load_spec('name = "x"\\n[stats]\\nlife = 3\\n[dice]\\nd6 = "d6"\\n[attacks.A]\\nkind = "melee"\\n'
...           'dice = "attacker.lfe"\\n', "x.toml")
Traceback (most recent call last):
...
game.rules.custom.errors.RulesetFileError: x.toml:8: dice in attack 'A': no stat 'lfe' (did you mean 'life'?)
"""

from __future__ import annotations

import re
import tomllib

from game.rules.custom import steps as step_readers
from game.rules.custom.errors import RulesetFileError
from game.rules.custom.expr import Expr
from game.rules.custom.names import Names
from game.rules.custom.spec import (
    AttackSpec,
    Chance,
    Change,
    ConditionSpec,
    DieSpec,
    Outcome,
    ResolutionSpec,
    RulesetSpec,
    StatSpec,
    Step,
)
from game.rules.custom.table import Source, Table, as_mapping, mapping_items, suggest, type_word

_ID = re.compile(r"^[a-z][a-z0-9_-]*$")
_STAT = re.compile(r"^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$")
_SYMBOL = re.compile(r"^[a-z][a-z0-9_]*$")
#: the values every attack has (``attack.dice`` ...), besides its own ``values``
ATTACK_BUILTINS = ("dice", "kind", "range", "name")
#: the most faces a die may have
MAX_SIDES = 1000
TOP_KEYS = ("name", "title", "about", "pools", "distance", "assumptions", "stats", "dice",
            "attacks", "resolution", "resolutions", "condition")


def load_spec(text: str, source: str = "ruleset.toml") -> RulesetSpec:
    """Read and check a ruleset file's text; ``source`` is the name errors show."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else max(1, text.count("\n"))
        problem = message[: match.start()].strip() if match else message
        column = f" at column {match.group(2)}" if match else ""
        raise RulesetFileError(f"not valid TOML: {problem[:1].lower()}{problem[1:]}",
                               source=source, line=line,
                               fix=f"fix the syntax{column}") from None
    src = Source(text, source)
    top = Table(src, (), data, "the file")
    name = top.text("name")
    if not _ID.match(name):
        top.fail("name", f"name {name!r} must be lower-case letters, digits, - or _",
                 f'e.g. name = "{re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "skirmish"}"')
    title = top.text("title", name)
    top.text("about", "")
    distance = top.text("distance", "chebyshev", choices=("chebyshev", "manhattan", "steps"))
    assumptions = top.words("assumptions") or ()
    stats = _stats(top.table("stats", "[stats]"))
    dice = _dice(top.table("dice", "[dice]"))
    names = Names(stats, set(ATTACK_BUILTINS))
    attacks = _attacks(top.table("attacks", "[attacks]"), names)
    resolutions = _resolutions(top, dice, names)
    for attack in attacks:
        if attack.resolution not in resolutions:
            src.fail(("attacks", attack.name, "resolution"),
                     f"attack {attack.name!r} uses resolution {attack.resolution!r}, which the file "
                     "does not define", suggest(attack.resolution, resolutions))
    condition = _condition(top.table("condition", "[condition]"), names)
    pool_dice, order = _pool_dice(src, resolutions)
    pools = _pools(top, order, pool_dice)
    top.finish(TOP_KEYS)
    return RulesetSpec(name, title, source, pools, distance, stats, dice, tuple(attacks),
                       resolutions, condition, tuple(assumptions), pool_dice)


def _stats(table: Table | None) -> dict[str, StatSpec]:
    if table is None:
        return {}
    out: dict[str, StatSpec] = {}
    for name, value in mapping_items(table):
        path = table.path + (name,)
        if not _STAT.match(name):
            table.source.fail(path, f"stat {name!r} is not a plain name",
                              "use letters, digits and single _ (e.g. attack_bonus)")
        if isinstance(value, bool | int):
            out[name] = StatSpec(name, value)
            continue
        if not isinstance(value, dict):
            table.source.fail(path, f"stat {name!r} needs a default: a whole number or true/false, "
                              f"not {type_word(value)}", f"e.g. {name} = 0 or {name} = {{ default = 0, min = 0 }}")
        sub = Table(table.source, path, value, f"stat {name!r}")
        default = sub.raw("default")
        if not isinstance(default, bool | int):
            sub.fail("default" if sub.has("default") else None,
                     f"stat {name!r} needs a default: a whole number or true/false"
                     + ("" if default is None else f", not {type_word(default)}"),
                     f"e.g. {name} = {{ default = 0, min = 0 }}")
        low, high = sub.integer("min"), sub.integer("max")
        if isinstance(default, bool) and (low is not None or high is not None):
            sub.fail("min" if low is not None else "max",
                     f"stat {name!r} is true/false: it has no min or max", "remove them")
        if low is not None and high is not None and low > high:
            sub.fail("max", f"stat {name!r}: max {high} is below min {low}", "swap them")
        about = sub.text("about", "")
        sub.finish(("default", "min", "max", "about"))
        out[name] = StatSpec(name, default, low, high, about)
    return out


def _dice(table: Table | None) -> dict[str, DieSpec]:
    if table is None:
        return {}
    return {name: _die(table, name, value) for name, value in mapping_items(table)}


def _die(table: Table, name: str, value: object) -> DieSpec:
    path = table.path + (name,)
    fail = table.source.fail
    if not _SYMBOL.match(name):
        fail(path, f"die {name!r} is not a plain name", "use lower-case letters, digits and _")
    if isinstance(value, str):
        match = re.fullmatch(r"[dD](\d+)", value.strip())
        if not match or not 1 <= int(match.group(1)) <= MAX_SIDES:
            fail(path, f"die {name!r} = {value!r} is not dN",
                 f'write "d6", "d10" ... (up to d{MAX_SIDES}) or a list of faces')
        sides = int(match.group(1))
        return DieSpec(name, tuple(range(1, sides + 1)), tuple({} for _ in range(sides)))
    mapping = as_mapping(value)
    items: list[object]
    if mapping is not None:
        items = []
        for face, count in mapping.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                fail(path + (face,), f"die {name!r}: face {face!r} needs a count of 1 or more",
                     f'e.g. {name} = {{ hit = 3, blank = 3 }}')
            items.extend([face] * count)
    elif isinstance(value, list):
        items = list(value)
    else:
        fail(path, f"die {name!r} must be dN, a list of faces or a table face = count, "
             f"not {type_word(value)}", f'e.g. {name} = ["hit", "hit", "blank"]')
    if not items or len(items) > MAX_SIDES:
        fail(path, f"die {name!r} has {len(items)} faces", f"give it 1 to {MAX_SIDES} faces")
    if all(isinstance(f, int) and not isinstance(f, bool) for f in items):
        return DieSpec(name, tuple(int(f) for f in items), tuple({} for _ in items))  # type: ignore[call-overload]
    faces: list[str] = []
    symbols: list[dict[str, int]] = []
    for item in items:
        if not isinstance(item, str):
            fail(path, f"die {name!r} mixes numbers and symbols ({item!r})",
                 "give every face as symbols in quotes, or every face as a number")
        parts = [p.strip().lower() for p in item.split("+")]
        bad = [p for p in parts if not _SYMBOL.match(p)]
        if bad:
            fail(path, f"die {name!r}: face {item!r} has a symbol that is not a plain word ({bad[0]!r})",
                 'write symbols like "hit", "hit+crit" or "blank"')
        counted: dict[str, int] = {}
        for part in parts:
            counted[part] = counted.get(part, 0) + 1
        faces.append("+".join(parts))
        symbols.append(counted)
    return DieSpec(name, tuple(faces), tuple(symbols))


def _attacks(table: Table | None, names: Names) -> list[AttackSpec]:
    if table is None:
        return []
    items = mapping_items(table)
    for _, value in items:
        table_value = as_mapping(value)
        declared = as_mapping(table_value.get("values")) if table_value is not None else None
        names.attack_values.update(declared or {})
    out = []
    for name, value in items:
        sub = Table(table.source, table.path + (name,), value, f"attack {name!r}")
        kind = sub.text("kind", choices=("melee", "ranged"))
        exprs: dict[str, Expr | None] = {}
        for key in ("dice", "range", "has"):
            exprs[key] = sub.expr(key)
            names.check(sub, key, exprs[key], ("attacker",) if key == "has" else ("attacker", "target"),
                        values=False)
        if exprs["range"] is not None and kind == "melee":
            sub.fail("range", f"attack {name!r} is melee: range is for ranged attacks",
                     "remove range, or make it kind = \"ranged\"")
        values_table = sub.table("values", f"the values of attack {name!r}")
        values: dict[str, Expr] = {}
        if values_table is not None:
            for key, _ in mapping_items(values_table):
                expr = values_table.expr(key, required=True)
                names.check(values_table, key, expr, ("attacker", "target"), values=False)
                if key in ATTACK_BUILTINS:
                    values_table.fail(key, f"attack value {key!r} is built in", "give it another name")
                assert expr is not None
                values[key] = expr
        resolution = sub.text("resolution", "default")
        about = sub.text("about", "")
        sub.finish(("kind", "dice", "range", "has", "values", "resolution", "about"))
        out.append(AttackSpec(name, kind, exprs["dice"], exprs["range"], exprs["has"], resolution,
                              values, about))
    return out


def _resolutions(top: Table, dice: dict[str, DieSpec], names: Names) -> dict[str, ResolutionSpec]:
    out: dict[str, ResolutionSpec] = {}
    single = top.table("resolution", "[resolution]")
    if single is not None:
        out["default"] = _resolution(single, "default", dice, names)
    several = top.table("resolutions", "[resolutions]")
    if several is not None:
        for name, value in mapping_items(several):
            if name in out:
                several.fail(name, "two resolutions are called 'default'",
                             "rename one or drop [resolution]")
            sub = Table(top.source, several.path + (name,), value, f"resolution {name!r}")
            out[name] = _resolution(sub, name, dice, names)
    return out


def _resolution(table: Table, name: str, dice: dict[str, DieSpec], names: Names) -> ResolutionSpec:
    names.values = set()
    raw_steps = table.raw("steps")
    if raw_steps is None:
        raw_steps = []
    if not isinstance(raw_steps, list):
        table.fail("steps", f"steps of resolution {name!r} must be an array of tables",
                   "write each step as [[resolution.steps]]")
    steps: list[Step] = []
    for i, raw in enumerate(raw_steps):
        sub = Table(table.source, table.path + ("steps", i), raw, f"step {i + 1}")
        step = step_readers.read_step(sub, i + 1, dice, names, steps)
        steps.append(step)
        names.values.update(step.writes())
    outcome_table = table.table("outcome", f"the outcome of resolution {name!r}")
    if outcome_table is None:
        table.fail(None, f"resolution {name!r} has no outcome",
                   "add [resolution.outcome] with value = \"...\" (what the odds count)")
    outcome = _outcome(outcome_table, names)
    changes = _changes(table.table("changes", f"the changes of resolution {name!r}"), names)
    table.finish(("steps", "outcome", "changes"))
    live: list[frozenset[str]] = []
    later: list[frozenset[str]] = []
    needed = {n for e in outcome.exprs() for n in e.names}
    by_steps: set[str] = set()
    for step in reversed(steps):
        live.append(frozenset(needed))
        later.append(frozenset(by_steps))
        needed |= step.reads()
        by_steps |= step.reads()
    return ResolutionSpec(name, tuple(steps), outcome, changes, tuple(reversed(live)),
                          tuple(reversed(later)))


def _outcome(table: Table, names: Names) -> Outcome:
    scopes = ("attacker", "target", "attack")
    exprs: dict[str, Expr | None] = {}
    for key in ("value", "cap", "tracked", "down"):
        exprs[key] = table.expr(key, required=key == "value")
        names.check(table, key, exprs[key], scopes, values=key in ("value", "down"))
    chances: list[Chance] = []
    raw = table.raw("chances")
    if raw is not None:
        if not isinstance(raw, list):
            table.fail("chances", "chances must be a list of { label = ..., when = ... }",
                       'e.g. chances = [{ label = "wounded", when = "damage > 0" }]')
        for i, item in enumerate(raw):
            sub = Table(table.source, table.path + ("chances", i), item, f"chance {i + 1}")
            label = sub.text("label")
            when = sub.expr("when", required=True)
            shown = sub.expr("shown")
            names.check(sub, "when", when, scopes)
            names.check(sub, "shown", shown, scopes, values=False)
            sub.finish(("label", "when", "shown"))
            assert when is not None
            chances.append(Chance(label, when, shown))
    value = exprs["value"]
    assert value is not None
    outcome = Outcome(value, table.text("label", "damage"), exprs["cap"], exprs["tracked"],
                      exprs["down"], table.text("down_label", "kill"), tuple(chances),
                      table.text("note", ""))
    table.finish(("value", "label", "cap", "tracked", "down", "down_label", "chances", "note"))
    return outcome


def _changes(table: Table | None, names: Names) -> tuple[Change, ...]:
    if table is None:
        return ()
    out = []
    for key, _ in mapping_items(table):
        scope, _, stat = key.partition(".")
        if scope not in ("attacker", "target") or not stat:
            table.fail(key, f"change {key!r} must name attacker.STAT or target.STAT",
                       'e.g. "target.wounds" = "target.wounds + damage"')
        if stat not in names.stats:
            table.fail(key, f"change {key!r}: no stat {stat!r}", suggest(stat, names.stats))
        expr = table.expr(key, required=True)
        names.check(table, key, expr, ("attacker", "target", "attack"))
        assert expr is not None
        out.append(Change(scope, stat, expr))
    return tuple(out)


def _condition(table: Table | None, names: Names) -> ConditionSpec:
    if table is None:
        return ConditionSpec()
    exprs: dict[str, Expr | None] = {}
    for key in ("life", "wounds", "down", "can_attack", "can_be_attacked"):
        exprs[key] = table.expr(key)
        names.check(table, key, exprs[key], ("figure",), values=False)
    notes = []
    raw = table.raw("notes")
    for i, item in enumerate(raw if isinstance(raw, list) else ([] if raw is None else [raw])):
        sub = Table(table.source, table.path + ("notes", i), item, f"note {i + 1}")
        text = sub.text("text")
        when = sub.expr("when", required=True)
        names.check(sub, "when", when, ("figure",), values=False)
        sub.finish(("text", "when"))
        assert when is not None
        notes.append((text, when))
    table.finish(("life", "wounds", "down", "notes", "can_attack", "can_be_attacked"))
    return ConditionSpec(exprs["life"], exprs["wounds"], exprs["down"], tuple(notes),
                         exprs["can_attack"], exprs["can_be_attacked"])


def _pool_dice(src: Source, resolutions: dict[str, ResolutionSpec]) -> tuple[dict[str, str], list[str]]:
    pool_dice: dict[str, str] = {}
    order: list[str] = []
    for res in resolutions.values():
        for i, step in enumerate(res.steps):
            pair = step.pool_die()
            if pair is None:
                continue
            pool, die = pair
            if pool_dice.setdefault(pool, die) != die:
                path = ("resolutions", res.name) if res.name != "default" else ("resolution",)
                src.fail(path + ("steps", i, "pool"),
                         f"pool {pool!r} rolls the {pool_dice[pool]} die in one step and the {die} "
                         "die in another", f"give step {step.index} its own pool name")
            if pool not in order:
                order.append(pool)
    return pool_dice, order


def _pools(top: Table, order: list[str], pool_dice: dict[str, str]) -> tuple[str, ...]:
    declared = top.words("pools")
    if declared is None:
        return tuple(order)
    missing = [p for p in order if p not in declared]
    if missing:
        top.fail("pools", f"pools does not list the {missing[0]!r} pool a step rolls",
                 f"add it: pools = {list(declared) + missing}")
    unused = [p for p in declared if p not in pool_dice]
    if unused:
        top.fail("pools", f"pools lists {unused[0]!r}, which no step rolls", suggest(unused[0], pool_dice))
    return tuple(declared)
