"""What a face means to a step, shared by the resolution and the odds: does it succeed against a
target, is it rerolled, what does it count, does it explode (pure).

>>> from game.rules.custom.spec import DieSpec
>>> d6 = DieSpec("d6", (1, 2, 3, 4, 5, 6), ({},) * 6)
>>> target = Target(at_least=4)
>>> [succeeds(f, target) for f in (1, 4, 6)]
[False, True, True]
>>> success_faces(d6, target, "failures", frozenset(), False)    # 3/6 + 3/6 · 3/6 = 3/4
((0, False, 9), (1, False, 27))
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from game.rules.custom.kernels import FaceCount
from game.rules.custom.spec import DieSpec


@dataclass(frozen=True)
class Target:
    """A success test: ``at_least`` or ``at_most`` (one of them), and the faces that always fail
    or always succeed whatever the target."""

    at_least: int | None = None
    at_most: int | None = None
    always_fail: frozenset[int] = frozenset()
    always_succeed: frozenset[int] = frozenset()


def succeeds(face: int, target: Target) -> bool:
    """Whether ``face`` is a success."""
    if face in target.always_fail:
        return False
    if face in target.always_succeed:
        return True
    if target.at_least is not None:
        return face >= target.at_least
    return target.at_most is not None and face <= target.at_most


def rerolls(face: int, target: Target, reroll: str | Collection[int] | None) -> bool:
    """Whether a die showing ``face`` is rerolled (once): ``failures``, ``ones`` or faces."""
    if reroll is None:
        return False
    if reroll == "failures":
        return not succeeds(face, target)
    if reroll == "ones":
        return face == 1
    return face in reroll


def success_faces(die: DieSpec, target: Target, reroll: str | Collection[int] | None,
                  explode: Collection[int], failures: bool) -> tuple[FaceCount, ...]:
    """Each final face as (1 if it counts, explodes, weight), rerolls folded in: a rerolled
    die's second face replaces the first, so face f ends with weight w_f·(W − w_R) + w_R·w_f
    over W² (w_R: the weight of the faces rerolled)."""
    weights = die.weights()
    total = sum(weights.values())
    again = sum(w for f, w in weights.items() if rerolls(int(f), target, reroll))
    out: dict[tuple[int, bool], int] = {}
    for face, weight in weights.items():
        value = int(face)
        final = weight * again if again else weight
        if again and not rerolls(value, target, reroll):
            final += weight * total
        counted = int(succeeds(value, target) != failures)
        key = (counted, value in explode)
        out[key] = out.get(key, 0) + final
    return tuple((c, e, w) for (c, e), w in sorted(out.items()) if w)


def symbol_faces(die: DieSpec, symbols: frozenset[str], explode: frozenset[str]) -> tuple[FaceCount, ...]:
    """Each face as (symbols of ``symbols`` it shows, whether it explodes, weight)."""
    out: dict[tuple[int, bool], int] = {}
    for counts in die.symbols:
        key = (sum(n for s, n in counts.items() if s in symbols), bool(set(counts) & explode))
        out[key] = out.get(key, 0) + 1
    return tuple((c, e, w) for (c, e), w in sorted(out.items()))
