"""Exact odds: 10 attack dice vs 6 defence dice (Arcadia Quest, fan faces), the README's speed table ≤ 5 ms.

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
        *more_benchmarks(),
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


# --- folklore: 6 hit dice against a dodge (issue #11: by convolution of sums) --------------------

FOLK_HIT, FOLK_DODGE, FOLK_BONUS, FOLK_ARMOUR = 4, 3, 2, 1


def _folklore_board() -> Board:
    board = Board.from_ascii(["...."], ruleset="folklore")
    board.place_figure(Figure(1, "Aya", "red", (1, 0), {
        "valour": FOLK_HIT, "hit_dice": 6, "weapons": f"Sword:valour:{FOLK_BONUS}:melee", "hp": 9}))
    board.place_figure(Figure(2, "Oni", "blue", (2, 0), {
        "senses": FOLK_DODGE, "armour": FOLK_ARMOUR, "hp": 12, "valour": 2}))
    return board


def _folklore_icepool() -> object:
    """The same rule in icepool: both checks as multisets (icepool.map expands pools into sorted
    tuples), the opposed rule on each pair, then the damage dice of each critical."""

    def key(hit: tuple[int, ...], dodge: tuple[int, ...]) -> int:
        if dodge.count(6) >= 2:
            return -1
        if all(f == 1 for f in hit):
            return -1
        if hit.count(6) >= 2:
            return hit.count(6)
        if all(f == 1 for f in dodge):
            return 0
        return 0 if sum(hit) + FOLK_HIT > sum(dodge) + FOLK_DODGE else -1

    outcome = icepool.map(key, icepool.d6.pool(6), icepool.d6.pool(2))
    return outcome.map(
        lambda k: 0 if k < 0 else ((1 + k) @ icepool.d6 + FOLK_BONUS - FOLK_ARMOUR).map(lambda x: max(0, x))
    )


# --- Conquest: 12 dice, keep 12, Relentless Blows against Parry, 12 Block dice --------------------

CQ_DICE = 12


class _BlockEvaluator(icepool.MultisetEvaluator):
    """Conquest's Hits against Block dice, read face by face from 1 up: Hits kept while fewer
    than C, Block dice pending until a Hit of their value or more comes (icepool's evaluator
    does the multinomial splitting)."""

    def initial_state(self, order, outcomes, *sizes):  # type: ignore[no-untyped-def, override]
        if order != icepool.order.Order.Ascending:
            raise icepool.order.UnsupportedOrder()
        return (0, 0, 0)

    def next_state(self, state, order, outcome, hits, blocks):  # type: ignore[no-untyped-def, override]
        kept, pending, matched = state
        if outcome == 6:
            return kept, pending, matched
        pending += blocks
        new = min(hits, CQ_DICE - kept)
        m = min(new, pending)
        return kept + new, pending - m, matched + m

    def final_outcome(self, final_state, order, outcomes, *sizes):  # type: ignore[no-untyped-def, override]
        kept, _, matched = final_state
        return kept - matched


def _conquest_icepool() -> object:
    """Relentless Blows + Parry in icepool: a = the primary 1s (each re-rolled and adding one
    die), so the pool is 12 − a dice of 2-6 and 2a d6; then the evaluator above."""
    evaluator = _BlockEvaluator()
    not_one = icepool.Die([2, 3, 4, 5, 6])
    ones = icepool.Die([1, 0, 0, 0, 0, 0])
    return icepool.map(
        lambda a: evaluator.evaluate(
            icepool.Pool([not_one] * (CQ_DICE - a) + [icepool.d6] * (2 * a)),
            icepool.d6.pool(CQ_DICE),
        ),
        CQ_DICE @ ones,
    )


def _conquest_board() -> Board:
    board = Board.from_ascii(["...."], ruleset="conquest")
    board.place_figure(Figure(1, "Knight", "red", (1, 0), {
        "attacks": CQ_DICE, "clash": CQ_DICE, "rules": "Relentless Blows"}))
    board.place_figure(Figure(2, "Guard", "blue", (2, 0), {
        "defence": CQ_DICE, "rules": "Parry", "wound_limit": 3, "resolve": 3}))
    return board


def more_benchmarks() -> list[Benchmark]:
    """``odds_folklore_6d6`` and ``odds_conquest_12_special`` with icepool peers."""
    from game.rules.conquest import dice as cd
    from game.rules.conquest.ruleset import RULESET as CONQUEST
    from game.rules.folklore import checks as fc
    from game.rules.folklore.ruleset import RULESET as FOLKLORE

    folk, cq = _folklore_board(), _conquest_board()

    def folklore() -> object:
        fc._cached_damage.cache_clear()
        fc._cached_on_hit.cache_clear()
        fc.sum_sixes_distribution.cache_clear()
        fc._spread.cache_clear()
        return FOLKLORE.odds(AttackRequest(folk, 1, [2], "Sword", {}))

    def conquest() -> object:
        cd._cached_wounds.cache_clear()
        return CONQUEST.odds(AttackRequest(cq, 1, [2], "Clash", {}))

    return [
        Benchmark("odds_folklore_6d6", folklore, _folklore_icepool, repeat=15, reference_repeat=3,
                  target_ms=500.0,
                  note="6 hit dice vs 2 dodge dice, damage incl. criticals, cold; reference: icepool "
                  "map over both checks as multisets"),
        Benchmark("odds_conquest_12_special", conquest, _conquest_icepool, repeat=7,
                  reference_repeat=1, target_ms=1000.0,
                  note="A 12, C 12, Relentless Blows vs Parry, 12 Block dice, cold; reference: "
                  "icepool MultisetEvaluator over the same pools"),
    ]
