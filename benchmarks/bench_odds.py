"""Exact odds: 10 attack dice vs 6 defence dice (Arcadia Quest, fan faces), DESIGN.md §8 ≤ 5 ms.

``run`` is the full ``RULESET.odds`` call with the per-(dice table, n, m) cache cleared first, so
every sample is a cold computation (truncated explosions, big-integer convolutions, the clamped
Fraction distribution). The reference is an independent exact computation with icepool's own
exploding dice (``Die.explode``), also to 1e-12 truncation depth, on the same attack.
"""

from __future__ import annotations

import icepool
from harness import Benchmark

from game.core.board import Board, Figure
from game.core.odds import clear_caches
from game.rules.arcadia.ruleset import RULESET
from game.rules.base import AttackRequest

LIFE = 8


def _board() -> Board:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "Hero", "red", (1, 0), {"attacks": "Big Axe:melee:10"}))
    board.place_figure(Figure(2, "Dragon", "monsters", (2, 0), {"life": LIFE, "defense": 6}))
    return board


def benchmarks() -> list[Benchmark]:
    """``odds_arcadia_10v6``."""
    board = _board()

    def run() -> object:
        clear_caches()
        return RULESET.odds(AttackRequest(board, 1, [2], "Big Axe", {}))

    def reference() -> object:
        attack = icepool.Die([1, 1, 1, 0, 0, 1001]).explode([1001], depth=16).map(lambda x: x % 1000)
        defence = icepool.Die([1, 1001, 0, 0, 0, 0]).explode([1001], depth=16).map(lambda x: x % 1000)
        wounds = (10 @ attack - 6 @ defence).map(lambda x: max(0, min(x, LIFE)))
        return {k: wounds.probability(k) for k in range(LIFE + 1)}

    return [
        Benchmark(
            "odds_arcadia_10v6",
            run,
            reference,
            repeat=50,
            reference_repeat=3,
            target_ms=5.0,
            note="cold (cache cleared); reference: icepool exploding dice",
        )
    ]
