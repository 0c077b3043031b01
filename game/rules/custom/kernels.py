"""Exact distributions of the dice steps, with integer numerators (no sampling, no floats).

* :func:`chain_pmf` — what one die counts when some faces add one more die, recursively (the
  generating function F = G / (1 − H), G the faces that stop, H the faces that explode), cut
  where the built-in rulesets cut (:func:`game.core.odds.exploding_pmf`: the first K with
  P(X > K) below 1e-12, the rest added to bucket K);
* :func:`pool_pmf` — the sum over n such dice (one big-integer power, :func:`game.core.odds.power`);
* :func:`total_table` — a sum of number dice with the count of a critical face and of a fumble
  face (several counters packed into one Kronecker power);
* :func:`opposed_ways` — the ways one total beats an independent other.

>>> pmf, cut = chain_pmf(((1, False, 3), (0, False, 2), (1, True, 1)))   # 3 sword, 2 bow, 1 crit
>>> [str(p) for p in pmf.fractions()[:3]], cut < Fraction(1, 10**12)
(['1/3', '5/9', '5/54'], True)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from game.core.odds import DEFAULT_TAIL, IntPmf, power

#: one face of a die as the odds see it: (what it counts, whether it explodes, how many faces)
FaceCount = tuple[int, bool, int]


@lru_cache(maxsize=1024)
def chain_pmf(faces: tuple[FaceCount, ...],
              tail: Fraction = DEFAULT_TAIL) -> tuple[IntPmf, Fraction]:
    """What one die counts, explosions followed to the first K with P(X > K) < ``tail``.

    >>> chain_pmf(((1, False, 1), (0, False, 5)))[0].numerators
    (5, 1)
    """
    stop: dict[int, int] = {}
    more: dict[int, int] = {}
    for count, explodes, weight in faces:
        bucket = more if explodes else stop
        bucket[count] = bucket.get(count, 0) + weight
    total = sum(w for _, _, w in faces)
    if not more:
        top = max(stop)
        return IntPmf(tuple(stop.get(k, 0) for k in range(top + 1)), 0, total), Fraction(0)
    d = total - more.get(0, 0)
    if d <= 0 or not stop:
        raise ValueError("a die whose every face explodes never stops rolling")
    a: list[int] = []
    k = 0
    while True:
        value = stop.get(k, 0) * d**k
        for i, h in more.items():
            if 1 <= i <= k:
                value += h * a[k - i] * d ** (i - 1)
        a.append(value)
        if k >= 1:
            den = d ** (k + 1)
            rest = den - sum(x * d ** (k - j) for j, x in enumerate(a))
            if rest * tail.denominator < den * tail.numerator:
                break
        k += 1
    nums = [x * d ** (k - j) for j, x in enumerate(a)]
    nums[-1] += rest
    return IntPmf(tuple(nums), 0, den), Fraction(rest, den)


def pool_pmf(faces: tuple[FaceCount, ...], dice: int,
             tail: Fraction = DEFAULT_TAIL) -> tuple[IntPmf, Fraction]:
    """What ``dice`` such dice count together, and the mass the cut moved (``dice`` × one die's).

    >>> pool_pmf(((1, False, 1), (0, False, 1)), 2)[0].numerators
    (1, 2, 1)
    """
    one, cut = chain_pmf(faces, tail)
    return power(one, max(dice, 0)), max(dice, 0) * cut


@dataclass(frozen=True)
class Counted:
    """A face whose dice a total counts: at least ``at_least`` of them, or all when None."""

    face: int
    at_least: int | None


@lru_cache(maxsize=512)
def total_table(
    weights: tuple[tuple[int, int], ...],
    dice: int,
    critical: Counted | None,
    fumble: Counted | None,
) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """The exact ways of each (sum, critical, fumble, dice on the critical face) of ``dice`` dice
    with faces ``weights`` ((value, weight) pairs), over ``total weight ** dice``.

    Sum and face counts are packed into one index (mixed radix) so the whole pool is one
    big-integer power. A fumble of "every die" on the lowest (or highest) face is read from the
    sum, so it needs no counter of its own.

    >>> table, den = total_table(((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)), 2,
    ...                          Counted(6, 2), Counted(1, None))
    >>> den, table[(12, 1, 0, 2)], table[(2, 0, 1, 0)], table[(7, 0, 0, 1)]
    (36, 1, 1, 2)
    """
    values = [v for v, _ in weights]
    low, high = min(values), max(values)
    n = max(dice, 0)
    span = n * (high - low) + 1
    by_sum = fumble is not None and fumble.at_least is None and fumble.face in (low, high)
    count_fumble = fumble is not None and not by_sum
    radix_c = span
    radix_f = span * ((n + 1) if critical is not None else 1)
    one = [0] * ((high - low) + 1 + (radix_c if critical is not None else 0)
                 + (radix_f if count_fumble else 0))
    for value, weight in weights:
        index = value - low
        if critical is not None and value == critical.face:
            index += radix_c
        if count_fumble and fumble is not None and value == fumble.face:
            index += radix_f
        one[index] += weight
    total_weight = sum(w for _, w in weights)
    pooled = power(IntPmf(tuple(one), 0, total_weight), n) if n else IntPmf((1,), 0, 1)
    out: dict[tuple[int, int, int, int], int] = {}
    for index, ways in enumerate(pooled.numerators):
        if not ways:
            continue
        s, rest = index % span + n * low, index // span
        crits = rest % (n + 1) if critical is not None else 0
        fumbles = rest // (n + 1) if critical is not None else rest
        crit = critical is not None and _reached(crits, critical, n)
        if by_sum:
            fum = n > 0 and s == n * (fumble.face if fumble is not None else 0)
        else:
            fum = fumble is not None and _reached(fumbles, fumble, n)
        key = (s, int(crit), int(fum), crits)
        out[key] = out.get(key, 0) + ways
    return out, pooled.denominator


def _reached(count: int, rule: Counted, dice: int) -> bool:
    if rule.at_least is None:
        return dice > 0 and count == dice
    return count >= rule.at_least


@dataclass(frozen=True)
class Defence:
    """An opposing total's distribution in ways (over its denominator), summarised for
    :func:`opposed_ways`: the ways it is a critical, not rolled, a fumble; its plain totals
    sorted with the cumulative ways below each."""

    critical: int
    absent: int
    fumble: int
    totals: tuple[int, ...]
    below: tuple[int, ...]  # below[i] = ways of a plain total below totals[i]
    plain: int
    all: int


def defence_summary(states: Iterable[tuple[tuple[int, int, int, int], int]]) -> Defence:
    """Summarise (total, critical, fumble, rolled) → ways pairs of the opposing total."""
    crit = absent = fumble = every = 0
    plain: dict[int, int] = {}
    for (total, critical, fumbled, rolled), ways in states:
        every += ways
        if not rolled:
            absent += ways
        elif critical:
            crit += ways
        elif fumbled:
            fumble += ways
        else:
            plain[total] = plain.get(total, 0) + ways
    totals = tuple(sorted(plain))
    below: list[int] = []
    running = 0
    for t in totals:
        below.append(running)
        running += plain[t]
    return Defence(crit, absent, fumble, totals, tuple(below), running, every)


def opposed_ways(total: int, critical: bool, fumble: bool, d: Defence, ties_attack: bool) -> int:
    """The ways (of the defence's) a total with its critical and fumble flags wins.

    >>> d = defence_summary([((7, 0, 0, 1), 1), ((9, 0, 0, 1), 1)])
    >>> opposed_ways(8, False, False, d, False), opposed_ways(9, False, False, d, False)
    (1, 1)
    >>> opposed_ways(9, False, False, d, True), opposed_ways(3, True, False, d, False)
    (2, 2)
    """
    if fumble:
        return 0
    if critical:
        return d.all - d.critical
    i = (bisect_right if ties_attack else bisect_left)(d.totals, total)
    below = 0 if i == 0 else d.plain if i == len(d.totals) else d.below[i]
    return d.absent + d.fumble + below


def weights_of(faces: Sequence[int | str]) -> tuple[tuple[int, int], ...]:
    """(value, weight) pairs of number faces, ascending.

    >>> weights_of([1, 1, 2])
    ((1, 2), (2, 1))
    """
    out: dict[int, int] = {}
    for face in faces:
        out[int(face)] = out.get(int(face), 0) + 1
    return tuple(sorted(out.items()))
