"""Exact distributions of dice pools with integer numerators (no sampling, no floats).

A distribution is an :class:`IntPmf`: integer numerators over one common integer denominator,
indexed from ``offset``. Sums of independent dice are convolutions; this module computes them by
**Kronecker substitution**: the numerators are packed into one big integer, ``B`` bits apart, so a
convolution is one big-integer product and an ``n``-fold sum is one ``pow`` (Python's big-integer
arithmetic does the work; every result is exact).

Exploding dice (a face that counts one success and rolls one more die, recursively, no cap) have an
infinite support: :func:`exploding_pmf` cuts the chain at the first length ``K`` whose remaining mass
is below ``tail`` (default 1e-12) and adds that mass to the last bucket, so each die's distribution
still sums to exactly 1; the cut mass is reported.

>>> pmf, cut = exploding_pmf(6, hit=3, explode=1, tail=Fraction(1, 10**12))
>>> [str(p) for p in pmf.fractions()[:3]], cut < Fraction(1, 10**12)
(['1/3', '5/9', '5/54'], True)
>>> two = power(pmf, 2)
>>> str(two.probability(0))
'1/9'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from game.core.errors import UsageError

#: default truncation of explosion chains: the mass left beyond the last bucket of one die
DEFAULT_TAIL = Fraction(1, 10**12)


@dataclass(frozen=True)
class IntPmf:
    """A distribution on ``offset, offset+1, ...``: ``numerators[i] / denominator`` each."""

    numerators: tuple[int, ...]
    offset: int
    denominator: int

    def probability(self, value: int) -> Fraction:
        """The exact probability of ``value``."""
        i = value - self.offset
        if 0 <= i < len(self.numerators):
            return Fraction(self.numerators[i], self.denominator)
        return Fraction(0)

    def fractions(self) -> list[Fraction]:
        """Every probability, from ``offset`` up."""
        return [Fraction(n, self.denominator) for n in self.numerators]

    @property
    def values(self) -> range:
        """The values covered, ``offset`` … ``offset + len - 1``."""
        return range(self.offset, self.offset + len(self.numerators))


def constant(value: int = 0) -> IntPmf:
    """The distribution that is always ``value``."""
    return IntPmf((1,), value, 1)


def exploding_pmf(
    sides: int, *, hit: int, explode: int, tail: Fraction = DEFAULT_TAIL
) -> tuple[IntPmf, Fraction]:
    """Successes of one die with ``hit`` plain success faces and ``explode`` exploding ones.

    An exploding face counts one success and adds one more die of the same kind, recursively.
    Exactly: P(0) = m, P(k) = c^(k-1)·h + c^k·m for k ≥ 1 (h, c, m = hit, explode, miss chances).
    Returns the distribution truncated as described in the module docstring, and the cut mass.

    >>> pmf, cut = exploding_pmf(6, hit=1, explode=0)
    >>> pmf.fractions(), cut
    ([Fraction(5, 6), Fraction(1, 6)], Fraction(0, 1))
    """
    miss = sides - hit - explode
    if sides < 1 or hit < 0 or explode < 0 or miss < 0:
        raise ValueError(f"bad die: {sides} sides, {hit} hit faces, {explode} exploding faces")
    if explode == sides:
        raise UsageError("a die whose every face explodes never stops rolling: give it a face that does not explode")
    if explode == 0:
        return IntPmf((miss, hit), 0, sides) if hit else IntPmf((sides,), 0, sides), Fraction(0)
    # smallest K with P(X > K) = (c^K)(h + c) < tail
    k = 1
    while Fraction(explode**k * (hit + explode), sides ** (k + 1)) >= tail:
        k += 1
    den = sides ** (k + 1)
    nums = [miss * sides**k]
    for j in range(1, k + 1):
        nums.append(explode ** (j - 1) * hit * sides ** (k + 1 - j) + explode**j * miss * sides ** (k - j))
    cut_num = explode**k * (hit + explode)
    nums[-1] += cut_num
    assert sum(nums) == den
    return IntPmf(tuple(nums), 0, den), Fraction(cut_num, den)


def _pack(nums: Sequence[int], width: int) -> int:
    nbytes = width // 8
    return int.from_bytes(b"".join(n.to_bytes(nbytes, "little") for n in nums), "little")


def _unpack(value: int, width: int, count: int) -> tuple[int, ...]:
    nbytes = width // 8
    raw = value.to_bytes(nbytes * count, "little")
    return tuple(int.from_bytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(count))


def _width(bound: int) -> int:
    """A byte-aligned bit width that holds any coefficient up to ``bound``."""
    bits = bound.bit_length() + 1
    return (bits + 7) // 8 * 8


def power(pmf: IntPmf, n: int) -> IntPmf:
    """The distribution of the sum of ``n`` independent copies (one big-integer ``pow``).

    >>> d2 = power(IntPmf((1, 1), 0, 2), 2)
    >>> d2.numerators, d2.denominator
    ((1, 2, 1), 4)
    """
    if n < 0:
        raise ValueError("n must be at least 0")
    if n == 0:
        return constant(0)
    if n == 1:
        return pmf
    den = pmf.denominator**n
    width = _width(den)
    count = (len(pmf.numerators) - 1) * n + 1
    product = pow(_pack(pmf.numerators, width), n)
    return IntPmf(_unpack(product, width, count), pmf.offset * n, den)


def difference(a: IntPmf, b: IntPmf) -> IntPmf:
    """The distribution of ``A − B`` for independent A and B (one big-integer product).

    >>> d = difference(IntPmf((1, 1), 0, 2), IntPmf((1, 1), 0, 2))
    >>> d.offset, d.numerators, d.denominator
    (-1, (1, 2, 1), 4)
    """
    den = a.denominator * b.denominator
    width = _width(den)
    count = len(a.numerators) + len(b.numerators) - 1
    product = _pack(a.numerators, width) * _pack(b.numerators[::-1], width)
    offset = a.offset - b.offset - (len(b.numerators) - 1)
    return IntPmf(_unpack(product, width, count), offset, den)


def clamp(pmf: IntPmf, low: int, high: int | None) -> dict[int, Fraction]:
    """``min(max(X, low), high)`` as value → probability (every value low…high listed).

    With ``high`` None, the top is the largest value with positive probability.

    >>> clamp(IntPmf((1, 2, 1), -1, 4), 0, 1)
    {0: Fraction(3, 4), 1: Fraction(1, 4)}
    """
    last = pmf.offset + len(pmf.numerators) - 1
    top = last if high is None else high
    top = max(top, low)
    buckets = [0] * (top - low + 1)
    for i, num in enumerate(pmf.numerators):
        value = min(max(pmf.offset + i, low), top)
        buckets[value - low] += num
    return {low + i: Fraction(num, pmf.denominator) for i, num in enumerate(buckets)}


def clamped_difference(a: IntPmf, b: IntPmf, low: int, high: int) -> dict[int, Fraction]:
    """``min(max(A − B, low), high)`` for independent A and B, without the whole difference.

    Only the buckets ``low+1 … high-1`` need dot products; the ``low`` bucket uses A's cumulative
    sums and the ``high`` bucket is what is left, so it costs ``len(B) × (high − low)`` products.

    >>> coin = IntPmf((1, 1), 0, 2)
    >>> clamped_difference(coin, coin, 0, 1) == clamp(difference(coin, coin), 0, 1)
    True
    """
    if high <= low:
        return {low: Fraction(1)}
    an = a.numerators
    last = len(an) - 1
    cdf = list(accumulate(an))
    den = a.denominator * b.denominator
    nums = [0] * (high - low + 1)
    for j, bj in enumerate(b.numerators):
        if not bj:
            continue
        shift = b.offset + j - a.offset  # A index of value v when B = b.offset + j: v + shift
        i = low + shift
        if i >= 0:
            nums[0] += bj * cdf[min(i, last)]
        start = max(low + 1, -shift)
        stop = min(high, last - shift + 1)
        for d in range(start, stop):
            nums[d - low] += bj * an[d + shift]
    nums[-1] = den - sum(nums[:-1])
    return {low + k: Fraction(x, den) for k, x in enumerate(nums)}


@lru_cache(maxsize=256)
def pool_powers(
    attack: tuple[int, int, int], n: int, defence: tuple[int, int, int], m: int, tail: Fraction = DEFAULT_TAIL
) -> tuple[IntPmf, IntPmf, Fraction]:
    """Successes of ``n`` attack dice and of ``m`` defence dice, and the truncated mass (cached).

    Each die is ``(sides, hit faces, exploding faces)``.
    """
    a_one, a_cut = exploding_pmf(attack[0], hit=attack[1], explode=attack[2], tail=tail)
    d_one, d_cut = exploding_pmf(defence[0], hit=defence[1], explode=defence[2], tail=tail)
    return power(a_one, n), power(d_one, m), n * a_cut + m * d_cut


def pool_difference(
    attack: tuple[int, int, int], n: int, defence: tuple[int, int, int], m: int, tail: Fraction = DEFAULT_TAIL
) -> tuple[IntPmf, Fraction]:
    """Successes of ``n`` attack dice minus successes of ``m`` defence dice, and the cut mass."""
    a, d, cut = pool_powers(attack, n, defence, m, tail)
    return difference(a, d), cut


@lru_cache(maxsize=1024)
def wounds_distribution(
    attack: tuple[int, int, int],
    n: int,
    defence: tuple[int, int, int],
    m: int,
    cap: int | None,
    tail: Fraction = DEFAULT_TAIL,
) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    """``max(0, hits − saves)``, capped at ``cap`` (None: no cap), as sorted (value, p) pairs (cached).

    >>> dist, cut = wounds_distribution((6, 3, 1), 1, (6, 1, 1), 0, 2)
    >>> [str(p) for _, p in dist]
    ['1/3', '5/9', '1/9']
    """
    a, d, cut = pool_powers(attack, n, defence, m, tail)
    if cap is None:
        dist = clamp(difference(a, d), 0, None)
        return tuple((k, v) for k, v in dist.items() if v), cut
    return tuple(clamped_difference(a, d, 0, cap).items()), cut


def clear_caches() -> None:
    """Forget every cached distribution (benchmarks measure cold computations)."""
    pool_powers.cache_clear()
    wounds_distribution.cache_clear()
