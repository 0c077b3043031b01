"""Exact odds of kept dice against block dice: keep the lowest K (never some faces), each block
die cancels one kept die of its value or more, matched for the most cancels (pure, exact).

A sweep over the face values from the lowest up instead of a walk over dice: at each value the
block dice showing it join the pending block dice, the attack dice showing it become kept dice
while fewer than K are kept, and pending block dice cancel kept dice of this value (a block die
cancels any kept die of its value or more, so cancelling the lowest kept dice first, as they
come, is optimal). The state is (attack dice unread, dice kept, block dice unread, block dice
pending), counted in ways with the unread dice's weights deferred. Faces that reroll a die
once or add fresh dice (which trigger nothing) fix how many dice end on those faces before the
sweep (:func:`pool_start`). Keeping the highest with blocks that cancel kept dice of their value
or less is the same sweep on the negated faces. This generalises the Conquest ruleset's sweep
(``game.rules.conquest.dice``) to any number dice, any never-faces, any face effects.

>>> d6 = tuple((v, 1) for v in range(1, 7))
>>> table, den = sweep(Sweep(d6, 1, (), 1, frozenset({6}), d6, 0))
>>> den, table
(6, {(0, 0): 1, (1, 1): 5})
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import comb, factorial

import numpy as np

Weights = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Sweep:
    """One kept-against-blocked roll: attack faces (value, weight) ascending, ``dice`` rolled,
    ``effects`` (value, reroll once, extra dice) on faces, ``keep`` (None: all), ``never`` faces,
    block faces (value, weight) ascending and ``blocks`` block dice."""

    attack: Weights
    dice: int
    effects: tuple[tuple[int, bool, int], ...]
    keep: int | None
    never: frozenset[int]
    block: Weights
    blocks: int

    def mirrored(self) -> Sweep:
        """The same roll on negated faces (keep the highest, cancel kept dice ≤ the block)."""
        return Sweep(_negate(self.attack), self.dice,
                     tuple((-v, r, e) for v, r, e in self.effects), self.keep,
                     frozenset(-v for v in self.never), _negate(self.block), self.blocks)


def _negate(weights: Weights) -> Weights:
    return tuple(sorted((-v, w) for v, w in weights))


def _compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, parts - 1):
            yield (first, *rest)


def _multinomial(counts: tuple[int, ...]) -> int:
    ways = factorial(sum(counts))
    for c in counts:
        ways //= factorial(c)
    return ways


def pool_start(spec: Sweep) -> tuple[tuple[int, ...], dict[tuple[tuple[int, ...], int], int], int]:
    """The final attack pool before any face is read: for each way, how many dice end on each
    effect face (``fixed``) and how many on the plain faces (``T``), with its ways; the plain
    dice's faces are left to the sweep. Returns (effect faces, {(fixed, T): ways}, exponent of
    the attack weight in the denominator)."""
    weight = dict(spec.attack)
    total = sum(weight.values())
    special = tuple(v for v, _, _ in spec.effects)
    fresh = [int(r) + e for _, r, e in spec.effects]
    kept = [not r for _, r, _ in spec.effects]
    most = spec.dice * max(fresh, default=0)
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for primary in _compositions(spec.dice, len(special) + 1):
        *on_special, on_plain = primary
        extra = sum(c * f for c, f in zip(on_special, fresh, strict=True))
        ways = _multinomial(primary)
        for face, count in zip(special, on_special, strict=True):
            ways *= weight[face] ** count
        for spread in _compositions(extra, len(special) + 1):
            *landed, plain_fresh = spread
            fixed = tuple(c * int(k) + u for c, k, u in zip(on_special, kept, landed, strict=True))
            w = ways * _multinomial(spread) * total ** (most - extra)
            for face, count in zip(special, landed, strict=True):
                w *= weight[face] ** count
            key = (fixed, on_plain + plain_fresh)
            out[key] = out.get(key, 0) + w
    return special, out, spec.dice + most


@lru_cache(maxsize=256)
def sweep(spec: Sweep) -> tuple[dict[tuple[int, int], int], int]:
    """The exact ways of each (dice kept, kept dice not cancelled), and the denominator."""
    special, start, exponent = pool_start(spec)
    attack = dict(spec.attack)
    block = dict(spec.block)
    values = sorted(set(attack) | set(block))
    m = max(spec.blocks, 0)
    r_dim = max(t for _, t in start) + 1
    most = max(t + sum(fixed) for fixed, t in start)
    keep = max(spec.keep if spec.keep is not None else most, 0)
    den = sum(attack.values()) ** exponent * sum(block.values()) ** m
    if keep == 0:
        return {(0, 0): den}, den
    groups: dict[tuple[int, ...], np.ndarray] = {}
    for (fixed, t), w in start.items():
        arr = groups.get(fixed)
        if arr is None:
            arr = groups[fixed] = np.zeros((r_dim, keep + 1, m + 1, m + 1), dtype=object)
        arr[t, 0, m, 0] += w
    done: dict[tuple[int, int], int] = {}
    for i, value in enumerate(values):
        later = values[i + 1:]
        plain_after = sum(attack[v] for v in later if v in attack and v not in special)
        block_after = sum(block.get(v, 0) for v in later)
        swept: dict[tuple[int, ...], np.ndarray] = {}
        for fixed, arr in groups.items():
            arr = _blocks_show(arr, block.get(value, 0), block_after > 0)
            if value in special:
                at = special.index(value)
                arr = _fixed_show(arr, fixed[at], keep, value in spec.never)
                key = fixed[:at] + (0,) + fixed[at + 1:]
            else:
                key = fixed
                if value in attack:
                    arr = _plain_show(arr, attack[value], plain_after > 0, keep,
                                      value in spec.never)
            last = not later
            _collapse(arr, done, keep, m, plain_after, block_after, every=last)
            swept[key] = swept[key] + arr if key in swept else arr
        groups = swept
    return {k: v for k, v in sorted(done.items()) if v}, den


def _blocks_show(arr: np.ndarray, weight: int, more_later: bool) -> np.ndarray:
    """Block dice showing this value join the pending ones."""
    if not weight:
        return arr
    new = np.zeros_like(arr)
    for b, p in np.argwhere(np.any(arr != 0, axis=(0, 1))):
        for beta in range(b + 1) if more_later else (b,):
            ways = comb(b, beta) * weight**beta if more_later else weight**b
            new[:, :, b - beta, p + beta] += arr[:, :, b, p] * ways
    return new


def _fixed_show(arr: np.ndarray, shown: int, keep: int, never: bool) -> np.ndarray:
    """A known number of attack dice shows this (effect) value."""
    if not shown or never:
        return arr
    new = np.zeros_like(arr)
    for k, p in np.argwhere(np.any(arr != 0, axis=(0, 2))):
        h = min(shown, keep - k)
        matched = min(h, p)
        new[:, k + h, :, p - matched] += arr[:, k, :, p]
    return new


def _plain_show(arr: np.ndarray, weight: int, more_later: bool, keep: int, never: bool) -> np.ndarray:
    """Some of the unread plain attack dice show this value (a binomial split; with no plain
    value after this one, all of them do)."""
    r_dim = arr.shape[0]
    new = np.zeros_like(arr)
    live = np.argwhere(np.any(arr != 0, axis=(0, 2)))
    for shown in range(r_dim):
        if more_later:
            ways = np.array([comb(r, shown) * weight**shown for r in range(shown, r_dim)],
                            dtype=object).reshape(-1, 1)
        for k, p in live:
            h = 0 if never else min(shown, keep - k)
            matched = min(h, p)
            if more_later:
                piece = arr[shown:, k, :, p]
                if piece.any():
                    new[: r_dim - shown, k + h, :, p - matched] += piece * ways
            elif arr[shown, k, :, p].any():
                new[0, k + h, :, p - matched] += arr[shown, k, :, p] * weight**shown
    return new


def _collapse(arr: np.ndarray, done: dict[tuple[int, int], int], keep: int, m: int,
              plain_after: int, block_after: int, every: bool) -> None:
    """Move finished states (``keep`` dice kept, or every value read) to ``done``: the unread
    dice can still fall on any later value."""
    r_dim = arr.shape[0]
    unread = np.array([plain_after**r for r in range(r_dim)], dtype=object)
    for k in range(keep + 1) if every else (keep,):
        for b in range(m + 1):
            for p in range(m + 1 - b):
                total = (arr[:, k, b, p] * unread).sum()
                if total:
                    left = k - (m - b - p)
                    done[(k, left)] = done.get((k, left), 0) + int(total) * block_after**b
        arr[:, k] = 0
