"""The exact joint distribution of the values a resolution has written so far (pure).

A :class:`Joint` keeps the values known before any die (``static``) apart from the random ones,
and the random ones as independent :class:`Factor`\\ s: each a table of integer numerators over one
denominator. A step that reads values of one factor extends that factor; a step that reads
values of several merges them first (their product); a step that reads only static values starts
a new independent factor. Values no later step reads are summed out after each step, so the
tables stay small.

>>> joint = Joint({})
>>> joint.apply((), ("a",), lambda v: ({(0,): 1, (1,): 1}, 2, 0))
>>> joint.apply(("a",), ("b",), lambda v: ({(v["a"] * 10,): 1}, 1, 0))
>>> joint.forget({"b"})
>>> [(f.names, f.table, f.den) for f in joint.factors]
[(('b',), {(0,): 1, (10,): 1}, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from operator import itemgetter

#: a distribution over output tuples: (numerators, denominator, mass cut from explosions)
Dist = tuple[Mapping[tuple[int, ...], int], int, Fraction | int]
Kernel = Callable[[Mapping[str, int]], Dist]


@dataclass(eq=False)
class Factor:
    """Independent values and their exact joint table (numerators over ``den``)."""

    names: tuple[str, ...]
    table: dict[tuple[int, ...], int]
    den: int

    def product(self, other: Factor) -> Factor:
        """The joint table of two independent factors."""
        table = {ka + kb: va * vb for ka, va in self.table.items() for kb, vb in other.table.items()}
        return Factor(self.names + other.names, table, self.den * other.den)

    def keep(self, names: Collection[str]) -> Factor:
        """The factor with only ``names`` (the others summed out)."""
        idx = [i for i, n in enumerate(self.names) if n in names]
        if len(idx) == len(self.names):
            return self
        table: dict[tuple[int, ...], int] = {}
        pick = getter(idx)
        for key, value in self.table.items():
            sub = pick(key)
            table[sub] = table.get(sub, 0) + value
        return Factor(tuple(self.names[i] for i in idx), table, self.den)


class Joint:
    """Static values and independent factors of the random ones; ``cut`` is the probability
    mass moved by cutting explosion chains so far."""

    def __init__(self, static: Mapping[str, int]) -> None:
        self.static: dict[str, int] = dict(static)
        self.factors: list[Factor] = []
        self.cut: Fraction = Fraction(0)
        self._live: Collection[str] | None = None

    def factor_of(self, name: str) -> Factor | None:
        """The factor holding the random value ``name`` (None when it is static or unknown)."""
        for factor in self.factors:
            if name in factor.names:
                return factor
        return None

    def merged(self, names: Collection[str]) -> Factor | None:
        """One factor holding every random value of ``names`` (merging factors as needed)."""
        parts = [f for f in self.factors if any(n in f.names for n in names)]
        if not parts:
            return None
        merged = parts[0]
        for part in parts[1:]:
            merged = merged.product(part)
        self.factors = [f for f in self.factors if f not in parts] + [merged]
        return merged

    def drop(self, names: Collection[str]) -> None:
        """Forget these values (before they are written again)."""
        for name in names:
            self.static.pop(name, None)
        self.factors = [f.keep([n for n in f.names if n not in names]) for f in self.factors]
        self.factors = [f for f in self.factors if f.names]

    def forget(self, live: Collection[str]) -> None:
        """Sum out every value not in ``live``."""
        self.static = {k: v for k, v in self.static.items() if k in live}
        kept = [f.keep([n for n in f.names if n in live]) for f in self.factors]
        self.factors = [f for f in kept if f.names]

    def add(self, outputs: tuple[str, ...], dist: Dist) -> None:
        """New values independent of everything so far (a point mass becomes static)."""
        table, den, cut = dist
        self.cut += cut
        self.drop(outputs)
        if len(table) == 1:
            self.static.update(zip(outputs, next(iter(table)), strict=True))
            return
        self.factors.append(Factor(outputs, dict(table), den))

    def apply(self, reads: tuple[str, ...], outputs: tuple[str, ...], kernel: Kernel,
              live: Collection[str] | None = None) -> None:
        """Write ``outputs`` from ``kernel`` (their distribution given the values of ``reads``);
        with ``live``, the values of the factor it extends that are not in it are summed out on
        the way (as :meth:`forget` would)."""
        self._live = live
        random = [n for n in reads if self.factor_of(n) is not None]
        if not random:
            self.add(outputs, kernel({n: self.static.get(n, 0) for n in reads}))
            return
        factor = self.merged(random)
        assert factor is not None
        results: dict[tuple[int, ...], Dist] = {}
        order = tuple(i for i, n in enumerate(factor.names) if n in reads)
        pick = getter(order)
        read_names = tuple(factor.names[i] for i in order)
        base = {n: self.static.get(n, 0) for n in reads}
        for key in factor.table:
            sub = pick(key)
            if sub not in results:
                base.update(zip(read_names, sub, strict=True))
                results[sub] = kernel(base)
        if all(d == 1 and len(t) == 1 for t, d, _ in results.values()):
            self._map(factor, order, outputs, {k: next(iter(t)) for k, (t, _, _) in results.items()})
        else:
            self._extend(factor, order, outputs, results)

    def _kept(self, factor: Factor, outputs: tuple[str, ...]) -> list[int]:
        """The places of the factor's values that stay (not rewritten, still read)."""
        live = self._live
        return [i for i, n in enumerate(factor.names)
                if n not in outputs and (live is None or n in live)]

    def _map(self, factor: Factor, order: tuple[int, ...], outputs: tuple[str, ...],
             results: Mapping[tuple[int, ...], tuple[int, ...]]) -> None:
        """A deterministic step: each state gets its outputs, no new denominator."""
        keep = self._kept(factor, outputs)
        names = tuple(factor.names[i] for i in keep) + outputs
        table: dict[tuple[int, ...], int] = {}
        stay, pick = getter(keep), getter(order)
        for key, weight in factor.table.items():
            new = stay(key) + results[pick(key)]
            table[new] = table.get(new, 0) + weight
        self.factors = [f for f in self.factors if f is not factor]
        self.drop(outputs)
        self.factors.append(Factor(names, table, factor.den))

    def _extend(self, factor: Factor, order: tuple[int, ...], outputs: tuple[str, ...],
                results: Mapping[tuple[int, ...], Dist]) -> None:
        keep = self._kept(factor, outputs)
        names = tuple(factor.names[i] for i in keep) + outputs
        den_all = lcm(*(d for _, d, _ in results.values()))
        table: dict[tuple[int, ...], int] = {}
        cut = Fraction(0)
        stay, pick = getter(keep), getter(order)
        for key, weight in factor.table.items():
            sub_table, sub_den, sub_cut = results[pick(key)]
            scale = weight * (den_all // sub_den)
            base = stay(key)
            for out, ways in sub_table.items():
                new = base + out
                table[new] = table.get(new, 0) + ways * scale
            if sub_cut:
                cut += Fraction(weight, factor.den) * sub_cut
        self.cut += cut
        self.factors = [f for f in self.factors if f is not factor]
        self.drop(outputs)
        self.factors.append(Factor(names, table, factor.den * den_all))


def getter(places: Sequence[int]) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """A fast function picking these places of a tuple, as a tuple.

    >>> getter([2, 0])((5, 6, 7)), getter([1])((5, 6)), getter([])((5,))
    ((7, 5), (6,), ())
    """
    if len(places) > 1:
        return itemgetter(*places)
    if len(places) == 1:
        only = places[0]
        return lambda key: (key[only],)
    return lambda key: ()


def point(*values: int) -> Dist:
    """The distribution that is always ``values``."""
    return {tuple(int(v) for v in values): 1}, 1, 0
