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

from collections.abc import Callable, Mapping
from fractions import Fraction

from game.core.errors import UsageError
from game.core.odds import IntPmf, difference
from game.rules.base import Odds
from game.rules.custom import kernels, sweep
from game.rules.custom.expr import EvalError, Expr
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

    def __init__(self, numbers: Mapping[str, object]) -> None:
        self.numbers = numbers
        self._bound: dict[int, Callable[..., object]] = {}

    def value(self, expr: Expr, values: Mapping[str, int]) -> object:
        """The expression's value with these step values."""
        if expr.constant is not None:
            return expr.constant
        fn = self._bound.get(id(expr))
        if fn is None:
            fn = self._bound[id(expr)] = expr.bind(self.numbers)
        return fn(*(values.get(n, 0) for n in expr.names))

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


def _apply(joint: Joint, scope: Scope, step: Step, reads: tuple[str, ...], kernel: Kernel,
           outputs: tuple[str, ...] | None = None) -> None:
    """Write the step's values from ``kernel``; where its ``when`` is false they keep the values
    they had (a value nobody wrote is 0)."""
    outputs = step.writes() if outputs is None else outputs
    when = step.when
    if when is None or always(step, scope):
        joint.apply(reads, outputs, kernel)
        return

    def guarded(values: Mapping[str, int]) -> Dist:
        if not scope.holds(when, values):
            return point(*(values.get(o, 0) for o in outputs))
        return kernel(values)

    joint.apply(tuple(sorted({*reads, *when.names, *outputs})), outputs, guarded)


def always(step: Step, scope: Scope) -> bool:
    """The step has no ``when``, or one known true before any die."""
    return step.when is None or (not step.when.names and scope.holds(step.when, {}))


def _from_pmf(pmf: IntPmf, cut: Fraction | int) -> Dist:
    return ({(pmf.offset + i,): n for i, n in enumerate(pmf.numerators) if n},
            pmf.denominator, cut)


def _count(step: CountStep, joint: Joint, scope: Scope, spec: RulesetSpec) -> None:
    faces = symbol_faces(spec.dice[step.die], step.symbols, step.explode)

    def kernel(values: Mapping[str, int]) -> Dist:
        pmf, cut = kernels.pool_pmf(faces, scope.dice(step, step.dice, values))
        return _from_pmf(pmf, cut)

    _apply(joint, scope, step, _reads(step.dice), kernel)


def _successes(step: SuccessStep, joint: Joint, scope: Scope, spec: RulesetSpec) -> None:
    die = spec.dice[step.die]

    def kernel(values: Mapping[str, int]) -> Dist:
        target = target_of(step, scope, values)
        faces = success_faces(die, target, step.reroll, step.explode, step.failures)
        pmf, cut = kernels.pool_pmf(faces, scope.dice(step, step.dice, values))
        return _from_pmf(pmf, cut)

    _apply(joint, scope, step, _reads(step.dice, step.at_least, step.at_most), kernel)


def target_of(step: SuccessStep, scope: Scope, values: Mapping[str, int]) -> Target:
    """The success test of a step for these values."""
    if step.at_least is not None:
        return Target(scope.number(step.at_least, values), None, step.always_fail, step.always_succeed)
    return Target(None, scope.number(step.at_most, values), step.always_fail, step.always_succeed)


def _total(step: TotalStep, joint: Joint, scope: Scope, spec: RulesetSpec) -> None:
    weights = kernels.weights_of(spec.dice[step.die].faces)
    crit = kernels.Counted(step.critical.face, step.critical.at_least) if step.critical else None
    fumble = kernels.Counted(step.fumble.face, step.fumble.at_least) if step.fumble else None

    def kernel(values: Mapping[str, int]) -> Dist:
        mod = scope.number(step.modifier, values)
        table, den = kernels.total_table(weights, scope.dice(step, step.dice, values), crit, fumble)
        out: dict[tuple[int, ...], int] = {}
        for (s, c, f, n), ways in table.items():
            key = (s + mod, c, f, n, 1)
            out[key] = out.get(key, 0) + ways
        return out, den, 0

    _apply(joint, scope, step, _reads(step.dice, step.modifier), kernel)


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
        win = kernels.opposed_chance(total, bool(crit), bool(fumble), summary, ties)
        wins = win.numerator * (d_den // win.denominator)
        if wins:
            table[key + (1,)] = table.get(key + (1,), 0) + weight * wins
        if d_den - wins:
            table[key + (0,)] = table.get(key + (0,), 0) + weight * (d_den - wins)
    joint.factors = [f for f in joint.factors if f is not a_factor]
    joint.drop((step.into,))
    joint.factors.append(Factor(a_factor.names + (step.into,), table, a_factor.den * d_den))


def _defence(factor: Factor | None, names: tuple[str, ...], joint: Joint) -> tuple[kernels.Defence, int]:
    if factor is None:
        key = tuple(joint.static.get(n, 0) for n in names)
        return kernels.defence_summary([(key, Fraction(1))]), 1  # type: ignore[list-item]
    order = [factor.names.index(n) if n in factor.names else -1 for n in names]
    states = [(tuple(key[i] if i >= 0 else joint.static.get(n, 0) for i, n in zip(order, names, strict=True)),
               Fraction(w, factor.den)) for key, w in factor.table.items()]
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


def _cancel(step: CancelStep, joint: Joint, scope: Scope, live: frozenset[str]) -> None:
    assert step.value is not None
    fast = (always(step, scope) and step.value.names == (step.value.text.strip(),)
            and step.by is not None and step.by.names == (step.by.text.strip(),)
            and (step.armour is None or not step.armour.names))
    if fast:
        a, b = joint.factor_of(step.value.names[0]), joint.factor_of(step.by.names[0])  # type: ignore[union-attr]
        if (a is not None and b is not None and a is not b and len(a.names) == 1
                and len(b.names) == 1 and a.names[0] not in live and b.names[0] not in live):
            armour = scope.number(step.armour, {})
            diff = difference(_to_pmf(a), _to_pmf(b))
            table: dict[tuple[int, ...], int] = {}
            for i, ways in enumerate(diff.numerators):
                if ways:
                    key = (max(0, diff.offset + i - armour),)
                    table[key] = table.get(key, 0) + ways
            joint.factors = [f for f in joint.factors if f is not a and f is not b]
            joint.add((step.into,), (table, diff.denominator, 0))
            return

    def kernel(values: Mapping[str, int]) -> Dist:
        hits = scope.number(step.value, values)
        return point(max(0, hits - scope.number(step.by, values) - scope.number(step.armour, values)))

    _apply(joint, scope, step, _reads(step.value, step.by, step.armour), kernel)


def _to_pmf(factor: Factor) -> IntPmf:
    low = min(k[0] for k in factor.table)
    high = max(k[0] for k in factor.table)
    return IntPmf(tuple(factor.table.get((v,), 0) for v in range(low, high + 1)), low, factor.den)


def _compute(step: ComputeStep, joint: Joint, scope: Scope) -> None:
    for name, expr in step.values:
        def kernel(values: Mapping[str, int], expr: Expr = expr) -> Dist:
            return point(scope.number(expr, values))

        _apply(joint, scope, step, _reads(expr), kernel, (name,))


def run_steps(spec: RulesetSpec, res: ResolutionSpec, scope: Scope) -> Joint:
    """Every step's exact distribution, in order; values no later step reads summed out."""
    joint = Joint({})
    steps = res.steps
    for i, step in enumerate(steps):
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        static_when = step.when is not None and not step.when.names
        if static_when and not isinstance(step, KeepStep | BlockStep) and not scope.holds(step.when, {}):
            joint.forget(res.live[i])
            continue  # a step that does not happen writes nothing
        if isinstance(step, KeepStep):
            if isinstance(nxt, BlockStep) and nxt.hits == step.into:
                continue  # the block step sweeps both
            _keep_block(step, None, joint, scope, spec)
        elif isinstance(step, BlockStep):
            keep = steps[i - 1]
            assert isinstance(keep, KeepStep)
            _keep_block(keep, step, joint, scope, spec)
        elif isinstance(step, CountStep):
            _count(step, joint, scope, spec)
        elif isinstance(step, SuccessStep):
            _successes(step, joint, scope, spec)
        elif isinstance(step, TotalStep):
            _total(step, joint, scope, spec)
        elif isinstance(step, OpposedStep):
            _opposed(step, joint, scope, res.live[i])
        elif isinstance(step, CancelStep):
            _cancel(step, joint, scope, res.live[i])
        elif isinstance(step, ComputeStep):
            _compute(step, joint, scope)
        joint.forget(res.live[i] | (_keep_outputs(step, nxt)))
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
    counts = [0] * len(shown)
    for key, ways in states:
        values = joint.values_of(factor, key, reads)
        value = scope.number(out.value, values)
        if cap is not None:
            value = min(value, cap)
        dist[value] = dist.get(value, 0) + ways
        if down is not None and scope.holds(down, values):
            kill += ways
        for i, chance in enumerate(shown):
            if scope.holds(chance.when, values):
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
