"""The one exact odds engine of every ruleset file: the resolution's steps over a
:class:`~game.rules.custom.factors.Joint`, then the outcome as an :class:`~game.rules.base.Odds`.

Each step kind knows its exact distribution given the values it reads (:mod:`kernels`,
:mod:`sweep`); a step whose inputs are known before any die starts an independent factor, one
that reads random values extends their factor state by state. Two shapes have fast paths that
never build a joint table: ``cancel`` of two independent counts (one big-integer product,
:func:`game.core.odds.difference`) and ``opposed`` totals (each attack total against the sorted
cumulative defence totals). Explosion chains are cut as the built-in rulesets cut them, and the
note says so in the same words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter

from game.core.errors import UsageError
from game.core.odds import IntPmf, clamped_difference, difference
from game.rules.base import Odds
from game.rules.custom import kernels, sweep
from game.rules.custom.expr import Block, EvalError, Expr, globals_of
from game.rules.custom.faces import Target, success_faces, symbol_faces
from game.rules.custom.factors import Dist, Factor, Joint, Kernel, point
from game.rules.custom.spec import (
    BlockStep,
    CancelStep,
    ComputeStep,
    CountStep,
    FaceEffect,
    KeepStep,
    OpposedStep,
    ResolutionSpec,
    RulesetSpec,
    Step,
    SuccessStep,
    TotalStep,
)

#: the most dice one step may roll (the exact odds stay quick)
MAX_POOL = 100
#: the most dice a keep or block step may roll (as the Conquest ruleset's limit)
MAX_KEPT = 30


class Scope:
    """The numbers of one attack (stats and attack values) and its expressions bound to them."""

    def __init__(self, numbers: Mapping[str, object], env: dict[str, object] | None = None) -> None:
        self.numbers = numbers
        self.env = globals_of(numbers) if env is None else env
        self._bound: dict[int, Callable[..., object]] = {}

    def add(self, key: str, value: object) -> None:
        """One more number (``"attack.dice"``), for the expressions bound from now on."""
        if isinstance(self.numbers, dict):
            self.numbers[key] = value
        self.env.update(globals_of({key: value}))

    def value(self, expr: Expr, values: Mapping[str, int]) -> object:
        """The expression's value with these step values."""
        constant = expr.constant
        if constant is not None:
            return constant
        fn = self._bound.get(id(expr))
        if fn is None:
            fn = self._bound[id(expr)] = expr.bind_globals(self.env)
        names = expr.names
        if not names:
            return fn()
        if len(names) == 1:
            return fn(values.get(names[0], 0))
        return fn(*[values.get(n, 0) for n in names])

    def run(self, code: Block, values: Mapping[str, int]) -> tuple[object, ...]:
        """A block's results with these step values."""
        return self.call(code, [values.get(n, 0) for n in code.params])

    def call(self, code: Block, args: Sequence[int]) -> tuple[object, ...]:
        """A block's results with the values of its params, in order."""
        fn = self._bound.get(id(code))
        if fn is None:
            fn = self._bound[id(code)] = code.bind_globals(self.env)
        return fn(*args)  # type: ignore[return-value]

    def number(self, expr: Expr | None, values: Mapping[str, int], default: int = 0) -> int:
        """A whole-number value (true counts 1)."""
        if expr is None:
            return default
        value = self.value(expr, values)
        if isinstance(value, str):
            raise EvalError(f"the expression {expr.text!r} gives text, not a number")
        return int(value)  # type: ignore[call-overload]

    def holds(self, expr: Expr | None, values: Mapping[str, int]) -> bool:
        """A condition (None holds)."""
        return expr is None or bool(self.value(expr, values))

    def dice(self, step: Step, expr: Expr, values: Mapping[str, int]) -> int:
        """A pool size: below 0 counts 0; more than :data:`MAX_POOL` (:data:`MAX_KEPT` for keep
        and block steps) is refused."""
        n = max(0, self.number(expr, values))
        most = MAX_KEPT if isinstance(step, KeepStep | BlockStep) else MAX_POOL
        if n > most:
            raise UsageError(f"step {step.index} would roll {n} dice: more than the {most} the "
                             "exact odds count (fix the stats or the file)")
        return n


def _reads(*exprs: Expr | None) -> tuple[str, ...]:
    return tuple(sorted({n for e in exprs if e is not None for n in e.names}))


@dataclass(frozen=True)
class Plan:
    """What a step does to the joint distribution: the values it reads, the values it writes,
    and their distribution given the values read."""

    reads: tuple[str, ...]
    outputs: tuple[str, ...]
    kernel: Kernel
    #: for a deterministic step: its outputs straight from the values of ``reads``, in order
    direct: Callable[[tuple[int, ...]], tuple[int, ...]] | None = None


def _guarded(step: Step, scope: Scope, plan: Plan) -> Plan:
    """The plan with the step's ``when``: where it is false the outputs keep the values they
    had (a value nobody wrote is 0)."""
    when = step.when
    if when is None or always(step, scope):
        return plan
    outputs, kernel = plan.outputs, plan.kernel

    def guarded(values: Mapping[str, int]) -> Dist:
        if not scope.holds(when, values):
            return point(*(values.get(o, 0) for o in outputs))
        return kernel(values)

    return Plan(tuple(sorted({*plan.reads, *when.names, *outputs})), outputs, guarded, None)


def _apply(joint: Joint, scope: Scope, step: Step, reads: tuple[str, ...], kernel: Kernel,
           outputs: tuple[str, ...] | None = None) -> None:
    """Write the step's values from ``kernel`` (with its ``when``)."""
    plan = _guarded(step, scope, Plan(reads, step.writes() if outputs is None else outputs, kernel))
    joint.apply(plan.reads, plan.outputs, plan.kernel)


def fused(first: Plan, then: Plan) -> Plan:
    """A roll and the compute step right after it that alone reads the roll's values, as one
    plan: the roll's outcomes go through the compute at once, so the joint table never holds
    them (a death check's 21 totals become survives / dies)."""
    inner = set(first.outputs)
    reads = tuple(sorted(set(first.reads) | (set(then.reads) - inner)))
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    moved = [(j, first.outputs.index(n)) for j, n in enumerate(then.reads) if n in inner]

    def kernel(values: Mapping[str, int]) -> Dist:
        table, den, cut = first.kernel(values)
        out: dict[tuple[int, ...], int] = {}
        asked = [values.get(n, 0) for n in then.reads]
        for key, ways in table.items():
            for j, i in moved:
                asked[j] = key[i]
            fixed = tuple(asked)
            new = seen.get(fixed)
            if new is None:
                if then.direct is not None:
                    new = then.direct(fixed)
                else:
                    new = next(iter(then.kernel(dict(zip(then.reads, fixed, strict=True)))[0]))
                seen[fixed] = new
            out[new] = out.get(new, 0) + ways
        return out, den, cut

    return Plan(reads, then.outputs, kernel)


def always(step: Step, scope: Scope) -> bool:
    """The step has no ``when``, or one known true before any die."""
    return step.when is None or (not step.when.names and scope.holds(step.when, {}))


def _from_pmf(pmf: IntPmf, cut: Fraction | int) -> Dist:
    return ({(pmf.offset + i,): n for i, n in enumerate(pmf.numerators) if n},
            pmf.denominator, cut)


def _count(step: CountStep, scope: Scope, spec: RulesetSpec, live: frozenset[str]) -> Plan:
    faces = symbol_faces(spec.dice[step.die], step.symbols, step.explode)

    def kernel(values: Mapping[str, int]) -> Dist:
        pmf, cut = kernels.pool_pmf(faces, scope.dice(step, step.dice, values))
        return _from_pmf(pmf, cut)

    return Plan(_reads(step.dice), step.writes(), kernel)


def _successes(step: SuccessStep, scope: Scope, spec: RulesetSpec, live: frozenset[str]) -> Plan:
    die = spec.dice[step.die]

    def kernel(values: Mapping[str, int]) -> Dist:
        target = target_of(step, scope, values)
        faces = success_faces(die, target, step.reroll, step.explode, step.failures)
        pmf, cut = kernels.pool_pmf(faces, scope.dice(step, step.dice, values))
        return _from_pmf(pmf, cut)

    return Plan(_reads(step.dice, step.at_least, step.at_most), step.writes(), kernel)


def target_of(step: SuccessStep, scope: Scope, values: Mapping[str, int]) -> Target:
    """The success test of a step for these values."""
    if step.at_least is not None:
        return Target(scope.number(step.at_least, values), None, step.always_fail, step.always_succeed)
    return Target(None, scope.number(step.at_most, values), step.always_fail, step.always_succeed)


def _total(step: TotalStep, scope: Scope, spec: RulesetSpec, live: frozenset[str]) -> Plan:
    weights = kernels.weights_of(spec.dice[step.die].faces)
    names = step.writes()
    wanted = tuple(i for i, n in enumerate(names) if n in live)
    crit = kernels.Counted(step.critical.face, step.critical.at_least) if step.critical else None
    fumble = kernels.Counted(step.fumble.face, step.fumble.at_least) if step.fumble else None

    pick = itemgetter(*wanted) if len(wanted) > 1 else None
    made: dict[tuple[int, int], Dist] = {}

    def kernel(values: Mapping[str, int]) -> Dist:
        mod = scope.number(step.modifier, values)
        n = scope.dice(step, step.dice, values)
        found = made.get((n, mod))
        if found is not None:
            return found
        table, den = kernels.total_table(weights, n, crit, fumble)
        out: dict[tuple[int, ...], int] = {}
        for (s, c, f, k), ways in table.items():
            full = (s + mod, c, f, k, 1)
            key = pick(full) if pick is not None else (full[wanted[0]],) if wanted else ()
            out[key] = out.get(key, 0) + ways
        made[(n, mod)] = (out, den, 0)
        return out, den, 0

    return Plan(_reads(step.dice, step.modifier), tuple(names[i] for i in wanted), kernel)


def _keep_block(keep: KeepStep, block: BlockStep | None, joint: Joint, scope: Scope,
                spec: RulesetSpec) -> None:
    attack = kernels.weights_of(spec.dice[keep.die].faces)
    blocking = kernels.weights_of(spec.dice[block.die].faces) if block else attack
    mirror = keep.highest or (keep.keep is None and block is not None and block.cancels == "hit <= block")
    outputs = (keep.into,) + ((block.into,) if block else ())
    exprs = [keep.when, keep.dice, keep.keep, *(e.when for e in _effects(keep))]
    if block is not None:
        exprs += [block.when, block.dice]

    def kernel(values: Mapping[str, int]) -> Dist:
        effects: dict[int, tuple[bool, int]] = {}
        for effect in _effects(keep):
            if scope.holds(effect.when, values):
                for face in effect.faces:
                    again, extra = effects.get(face, (False, 0))
                    if effect is keep.reroll:
                        effects[face] = (True, extra)
                    else:
                        effects[face] = (again, extra + effect.dice)
        blocks = 0
        if block is not None and scope.holds(block.when, values):
            blocks = scope.dice(block, block.dice, values)
        count = None if keep.keep is None else max(0, scope.number(keep.keep, values))
        rolled = scope.dice(keep, keep.dice, values) if scope.holds(keep.when, values) else 0
        job = sweep.Sweep(attack, rolled,
                          tuple((f, r, e) for f, (r, e) in sorted(effects.items()) if r or e),
                          count, keep.never, blocking, blocks)
        table, den = sweep.sweep(job.mirrored() if mirror else job)
        if block is None:
            return {(k,): w for (k, _), w in table.items()}, den, 0
        return {key: w for key, w in table.items()}, den, 0

    joint.apply(_reads(*exprs), outputs, kernel)


def _effects(keep: KeepStep) -> tuple[FaceEffect, ...]:
    return ((keep.reroll,) if keep.reroll else ()) + keep.extra


def _opposed(step: OpposedStep, joint: Joint, scope: Scope, live: frozenset[str]) -> None:
    a, d = step.attack, step.defence
    a_names = (a, f"{a}_critical", f"{a}_fumble")
    d_names = (d, f"{d}_critical", f"{d}_fumble", f"{d}_rolled")
    a_factor = joint.merged([n for n in a_names if joint.factor_of(n) is not None])
    d_factors = {id(joint.factor_of(n)) for n in d_names} - {id(None)}
    fast = (always(step, scope) and a_factor is not None and id(a_factor) not in d_factors
            and len(d_factors) <= 1 and not live.intersection(d_names))
    if not fast:
        _apply(joint, scope, step, tuple(sorted(step.reads())),
               lambda v: point(_opposed_value(step, v)))
        return
    assert a_factor is not None
    d_factor = joint.merged([n for n in d_names if joint.factor_of(n) is not None])
    summary, d_den = _defence(d_factor, d_names, joint)
    ties = step.ties == "attack"
    order = [a_factor.names.index(n) if n in a_factor.names else -1 for n in a_names]
    table: dict[tuple[int, ...], int] = {}
    for key, weight in a_factor.table.items():
        total, crit, fumble = (key[i] if i >= 0 else joint.static.get(n, 0)
                               for i, n in zip(order, a_names, strict=True))
        wins = kernels.opposed_ways(total, bool(crit), bool(fumble), summary, ties)
        if wins:
            table[key + (1,)] = table.get(key + (1,), 0) + weight * wins
        if d_den - wins:
            table[key + (0,)] = table.get(key + (0,), 0) + weight * (d_den - wins)
    joint.factors = [f for f in joint.factors if f is not a_factor]
    joint.drop((step.into,))
    joint.factors.append(Factor(a_factor.names + (step.into,), table, a_factor.den * d_den))


def _defence(factor: Factor | None, names: tuple[str, ...], joint: Joint) -> tuple[kernels.Defence, int]:
    """The opposing total's (total, critical, fumble, rolled) ways, summarised."""
    if factor is None:
        key = tuple(joint.static.get(n, 0) for n in names)
        return kernels.defence_summary([(key, 1)]), 1  # type: ignore[list-item]
    order = [factor.names.index(n) if n in factor.names else -1 for n in names]
    states = [(tuple(key[i] if i >= 0 else joint.static.get(n, 0) for i, n in zip(order, names, strict=True)),
               w) for key, w in factor.table.items()]
    return kernels.defence_summary(states), factor.den  # type: ignore[arg-type]


def _opposed_value(step: OpposedStep, v: Mapping[str, int]) -> int:
    a, d = step.attack, step.defence
    return int(opposed_wins(v[a], v[f"{a}_critical"], v[f"{a}_fumble"], v[d], v[f"{d}_critical"],
                            v[f"{d}_fumble"], v[f"{d}_rolled"], step.ties == "attack"))


def opposed_wins(total: int, crit: int, fumble: int, d_total: int, d_crit: int, d_fumble: int,
                 d_rolled: int, ties_attack: bool) -> bool:
    """The opposed rule on one pair of totals (the order of :class:`OpposedStep`).

    >>> opposed_wins(12, 0, 0, 12, 0, 0, 1, False), opposed_wins(5, 1, 0, 20, 0, 0, 1, False)
    (False, True)
    """
    if d_rolled and d_crit:
        return False
    if fumble:
        return False
    if crit or not d_rolled or d_fumble:
        return True
    return total > d_total or (ties_attack and total == d_total)


def _cancel(step: CancelStep, joint: Joint, scope: Scope, res: ResolutionSpec, i: int) -> None:
    """``max(0, value − by − armour)``; two independent counts take one big-integer product
    (:func:`_difference`), else state by state."""
    assert step.value is not None
    if always(step, scope) and _bare(step.value) and (step.by is None or _bare(step.by)) and (
            step.armour is None or not step.armour.names):
        a = joint.factor_of(step.value.names[0])
        b = joint.factor_of(step.by.names[0]) if step.by is not None else None
        live = res.live[i]
        if (a is not None and len(a.names) == 1 and a.names[0] not in live and
                (step.by is None or (b is not None and b is not a and len(b.names) == 1
                                     and b.names[0] not in live))):
            _difference(step, joint, scope, res, i, a, b)
            return

    def kernel(values: Mapping[str, int]) -> Dist:
        hits = scope.number(step.value, values)
        return point(max(0, hits - scope.number(step.by, values) - scope.number(step.armour, values)))

    _apply(joint, scope, step, _reads(step.value, step.by, step.armour), kernel)


def _bare(expr: Expr) -> bool:
    """The expression is one step value's name."""
    return expr.names == (expr.text.strip(),)


def _difference(step: CancelStep, joint: Joint, scope: Scope, res: ResolutionSpec, i: int,
                a: Factor, b: Factor | None) -> None:
    """``max(0, A − B − armour)`` of independent counts: clamped at the outcome's cap when
    nothing but the outcome reads the result and its conditions cannot tell the values above
    the cap apart (:func:`_fold_at`), so only cap + 1 buckets are computed
    (:func:`game.core.odds.clamped_difference`)."""
    armour = scope.number(step.armour, {})
    first = _to_pmf(a)
    second = _to_pmf(b) if b is not None else IntPmf((1,), 0, 1)
    top = first.offset + len(first.numerators) - 1 - second.offset - armour
    fold = _fold_at(step.into, res, scope, top) if step.into not in res.later[i] else None
    table: dict[tuple[int, ...], int] = {}
    if fold is not None:
        clamped = clamped_difference(first, second, armour, armour + fold)
        den = first.denominator * second.denominator
        for value, p in clamped.items():
            if p:
                table[(value - armour,)] = p.numerator * (den // p.denominator)
    else:
        diff = difference(first, second)
        den = diff.denominator
        for k, ways in enumerate(diff.numerators):
            if ways:
                key = (max(0, diff.offset + k - armour),)
                table[key] = table.get(key, 0) + ways
    joint.factors = [f for f in joint.factors if f is not a and f is not b]
    joint.add((step.into,), (table, den, 0))


def _fold_at(name: str, res: ResolutionSpec, scope: Scope, top: int) -> int | None:
    """The value from which the outcome cannot tell ``name``'s values apart, or None: the
    outcome counts ``name`` itself with a cap, and each condition reading it is monotone in it
    (:meth:`Expr.truth_monotone`) with the same truth at the cap and at ``top``, the largest
    value possible (so the same truth everywhere between)."""
    out = res.outcome
    if out.cap is None or not _bare(out.value) or out.value.names[0] != name:
        return None
    if not scope.holds(out.tracked, {}):
        return None
    cap = scope.number(out.cap, {})
    if cap < 0 or top <= cap:
        return None
    conditions = [out.down, *(c.when for c in out.chances if scope.holds(c.shown, {}))]
    for expr in conditions:
        if expr is None or name not in expr.names:
            continue
        if set(expr.names) != {name} or expr.truth_monotone(name) is None:
            return None
        if scope.holds(expr, {name: cap}) != scope.holds(expr, {name: top}):
            return None
    return cap


def _to_pmf(factor: Factor) -> IntPmf:
    low = min(k[0] for k in factor.table)
    high = max(k[0] for k in factor.table)
    return IntPmf(tuple(factor.table.get((v,), 0) for v in range(low, high + 1)), low, factor.den)


def _compute(step: ComputeStep, scope: Scope, spec: RulesetSpec, live: frozenset[str]) -> Plan:
    """Every value of the step in one pass (its compiled block); only the values read later
    are kept."""
    outputs = tuple(n for n in step.writes() if n in live)
    code = step.code_for(outputs)

    def kernel(values: Mapping[str, int]) -> Dist:
        return point(*(whole(v, code) for v in scope.run(code, values)))

    def direct(asked: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(whole(v, code) for v in scope.call(code, asked))

    return Plan(code.params, outputs, kernel, direct)


def whole(value: object, code: Block) -> int:
    """A block's result as a whole number (true counts 1); text is refused."""
    if isinstance(value, int):
        return int(value)
    raise EvalError(f"the expressions {code.text!r} give text, not a number")


_PLANNERS: dict[type, Callable[..., Plan]] = {
    CountStep: _count, SuccessStep: _successes, TotalStep: _total, ComputeStep: _compute,
}


def run_steps(spec: RulesetSpec, res: ResolutionSpec, scope: Scope) -> Joint:
    """Every step's exact distribution, in order; values no later step reads summed out."""
    joint = Joint({})
    steps = res.steps
    skip = False
    for i, step in enumerate(steps):
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        live = res.live[i]
        if skip:
            skip = False
            joint.forget(live)
            continue
        static_when = step.when is not None and not step.when.names
        feeds = isinstance(step, KeepStep) and isinstance(nxt, BlockStep)
        unread = not feeds and not any(w in live for w in step.writes())
        if unread or (static_when and not isinstance(step, KeepStep | BlockStep)
                      and not scope.holds(step.when, {})):
            joint.forget(live)
            continue  # nothing reads its values, or it does not happen (it writes nothing)
        planner = _PLANNERS.get(type(step))
        if planner is not None:
            plan = _guarded(step, scope, planner(step, scope, spec, live))
            if (isinstance(nxt, ComputeStep) and not isinstance(step, ComputeStep)
                    and not set(plan.outputs) & res.live[i + 1]
                    and (nxt.when is None or always(nxt, scope))):
                then = _guarded(nxt, scope, _compute(nxt, scope, spec, res.live[i + 1]))
                plan, skip = fused(plan, then), True
            joint.apply(plan.reads, plan.outputs, plan.kernel, res.live[i + 1] if skip else live)
        elif isinstance(step, KeepStep):
            if not feeds:
                _keep_block(step, None, joint, scope, spec)
        elif isinstance(step, BlockStep):
            keep = steps[i - 1]
            assert isinstance(keep, KeepStep)
            _keep_block(keep, step, joint, scope, spec)
        elif isinstance(step, OpposedStep):
            _opposed(step, joint, scope, live)
        elif isinstance(step, CancelStep):
            _cancel(step, joint, scope, res, i)
        joint.forget(live | (_keep_outputs(step, nxt)))
    return joint


def _keep_outputs(step: Step, nxt: Step | None) -> frozenset[str]:
    if isinstance(step, KeepStep) and isinstance(nxt, BlockStep):
        return frozenset({step.into})
    return frozenset()


def exact_odds(spec: RulesetSpec, res: ResolutionSpec, scope: Scope) -> Odds:
    """The exact :class:`Odds` of one attack."""
    joint = run_steps(spec, res, scope)
    out = res.outcome
    tracked = scope.holds(out.tracked, {})
    cap = scope.number(out.cap, {}) if out.cap is not None and tracked else None
    down = out.down if tracked else None
    shown = [c for c in out.chances if scope.holds(c.shown, {})]
    exprs = [out.value, down, *(c.when for c in shown)]
    reads = _reads(*exprs)
    factor = joint.merged([n for n in reads if joint.factor_of(n) is not None])
    states: list[tuple[tuple[int, ...], int]] = [((), 1)] if factor is None else list(factor.table.items())
    den = 1 if factor is None else factor.den
    dist: dict[int, int] = {}
    kill = 0
    code = out.code
    assert code is not None
    chance_at = [1 + out.chances.index(c) for c in shown]
    counts = [0] * len(shown)
    args = [joint.static.get(n, 0) for n in code.params]
    places = [(j, factor.names.index(n)) for j, n in enumerate(code.params)
              if factor is not None and n in factor.names]
    for key, ways in states:
        for j, i in places:
            args[j] = key[i]
        result = scope.call(code, args)
        value = whole(result[0], code)
        if cap is not None:
            value = min(value, cap)
        dist[value] = dist.get(value, 0) + ways
        if down is not None and result[-1]:
            kill += ways
        for i, at in enumerate(chance_at):
            if result[at]:
                counts[i] += ways
    distribution = {v: Fraction(w, den) for v, w in sorted(dist.items()) if w}
    expected = Fraction(sum(v * w for v, w in dist.items()), den)
    notes = [out.note] if out.note else []
    if joint.cut:
        notes.append(f"explosion chains cut below 1e-12 per die (mass moved ≤ {float(joint.cut):.1e})")
    return Odds(distribution, expected, None if down is None else Fraction(kill, den), out.label,
                joint.cut, "; ".join(notes),
                tuple((c.label, Fraction(n, den)) for c, n in zip(shown, counts, strict=True)),
                out.down_label)


def clear_caches() -> None:
    """Forget every cached distribution (benchmarks measure cold computations)."""
    kernels.chain_pmf.cache_clear()
    kernels.total_table.cache_clear()
    sweep.sweep.cache_clear()
