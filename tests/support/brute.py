"""Exact brute force for the tests: every way the dice can fall, each resolved by the engine.

``enumerate_exact(run)`` calls ``run(dice)`` with a dice source that plays a fixed prefix of
face indices and, when the rules ask for one more die, branches on each of its faces (each face
of the die's list equally likely). So the chance of every outcome of ``run`` is summed exactly
over every sequence of faces the rules can ask for, with no formula shared with the odds code.
Processes that can go on forever (exploding dice) stop at ``limit`` dice: the chance left
unexplored is returned beside the outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

from game.core.dice import Die, Face

T = TypeVar("T", bound=Hashable)


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class PrefixDice:
    """Plays the faces at ``prefix`` (indices into each die's faces), then asks for a branch."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.used = 0

    def roll(self, die: Die, pool: int) -> Face:
        if self.used < len(self.prefix):
            index = self.prefix[self.used]
            self.used += 1
            return die.faces[index]
        raise _Branch(die.sides)


def enumerate_exact(run: Callable[[PrefixDice], T], limit: int = 14) -> tuple[dict[T, Fraction], Fraction]:
    """Every outcome of ``run`` with its exact chance, and the chance left past ``limit`` dice."""
    out: dict[T, Fraction] = {}
    unknown = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            value = run(PrefixDice(prefix))
        except _Branch as branch:
            if len(prefix) >= limit:
                unknown += weight
                continue
            for k in range(branch.sides):
                stack.append(((*prefix, k), weight / branch.sides))
            continue
        out[value] = out.get(value, Fraction(0)) + weight
    return out, unknown
