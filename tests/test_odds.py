"""Exact odds: the integer-numerator convolutions against independent computations.

References: a plain Fraction convolution (written here, no packing tricks) and icepool's own
exploding dice (``Die.explode``), which shares no code with ``game.core.odds``.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.commands.odds import COUNTED_NOUNS, bar_chart, label_for
from game.core.board import Board, Figure
from game.core.odds import (
    IntPmf,
    clamp,
    clamped_difference,
    clear_caches,
    constant,
    difference,
    exploding_pmf,
    pool_difference,
    pool_powers,
    power,
    wounds_distribution,
)
from game.core.words import plural
from game.rules.arcadia.ruleset import RULESET
from game.rules.base import AttackRequest, Odds

TOL = 1e-9


def naive_convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def as_dict(pmf: IntPmf) -> dict[int, Fraction]:
    return {v: p for v, p in zip(pmf.values, pmf.fractions(), strict=True) if p}


pmfs = st.lists(st.integers(0, 50), min_size=1, max_size=6).filter(any).map(
    lambda nums: IntPmf(tuple(nums), 0, sum(nums))
)


@settings(max_examples=60)
@given(pmfs, st.integers(0, 5))
def test_power_matches_naive_convolution(pmf: IntPmf, n: int) -> None:
    expected = {0: Fraction(1)}
    for _ in range(n):
        expected = naive_convolve(expected, as_dict(pmf))
    assert as_dict(power(pmf, n)) == {k: v for k, v in expected.items() if v}


@settings(max_examples=60)
@given(pmfs, pmfs)
def test_difference_matches_naive(a: IntPmf, b: IntPmf) -> None:
    negated = {-k: v for k, v in as_dict(b).items()}
    assert as_dict(difference(a, b)) == {k: v for k, v in naive_convolve(as_dict(a), negated).items() if v}


def test_exploding_one_die_distributions_of_the_rules_file() -> None:
    melee, _ = exploding_pmf(6, hit=3, explode=1)
    ranged, _ = exploding_pmf(6, hit=2, explode=1)
    defence, _ = exploding_pmf(6, hit=1, explode=1)
    assert melee.fractions()[:5] == [Fraction(1, 3), Fraction(5, 9), Fraction(5, 54), Fraction(5, 324),
                                     Fraction(5, 1944)]
    assert ranged.fractions()[:4] == [Fraction(1, 2), Fraction(5, 12), Fraction(5, 72), Fraction(5, 432)]
    assert defence.fractions()[:4] == [Fraction(2, 3), Fraction(5, 18), Fraction(5, 108), Fraction(5, 648)]
    for pmf, mean in ((melee, Fraction(4, 5)), (ranged, Fraction(3, 5)), (defence, Fraction(2, 5))):
        assert sum(pmf.fractions()) == 1
        got = sum(k * p for k, p in zip(pmf.values, pmf.fractions(), strict=True))
        assert abs(got - mean) < Fraction(1, 10**10)


def test_truncation_is_below_the_tail_and_reported() -> None:
    pmf, cut = exploding_pmf(6, hit=3, explode=1)
    assert 0 < cut < Fraction(1, 10**12)
    # the exact mass beyond the last bucket: P(X > K) = c^K (h + c)
    k = len(pmf.numerators) - 1
    assert cut == Fraction(1, 6) ** k * Fraction(4, 6)
    # the previous cut point would have left too much
    assert Fraction(1, 6) ** (k - 1) * Fraction(4, 6) >= Fraction(1, 10**12)


def test_degenerate_dice() -> None:
    assert exploding_pmf(6, hit=0, explode=0)[0].fractions() == [1]
    assert power(constant(2), 3).probability(6) == 1
    with pytest.raises(Exception, match="never stops"):
        exploding_pmf(6, hit=0, explode=6)
    assert clamp(IntPmf((1, 1), 3, 2), 0, None) == {0: 0, 1: 0, 2: 0, 3: Fraction(1, 2), 4: Fraction(1, 2)}


def icepool_wounds(n: int, m: int, hit: int, life: int) -> dict[int, float]:
    """Independent reference: icepool exploding dice; crit = 1001 so it is told apart from a hit."""
    attack = icepool.Die([1] * hit + [0] * (5 - hit) + [1001]).explode([1001], depth=20).map(lambda x: x % 1000)
    defence = icepool.Die([1, 0, 0, 0, 0, 1001]).explode([1001], depth=20).map(lambda x: x % 1000)
    total = n @ attack - m @ defence if m else n @ attack
    wounds = total.map(lambda x: max(0, min(x, life)))
    return {k: float(wounds.probability(k)) for k in range(life + 1)}


@pytest.mark.parametrize(("n", "m", "kind", "life"), [(1, 0, "melee", 4), (3, 2, "melee", 5), (2, 3, "ranged", 3),
                                                       (10, 6, "melee", 6), (10, 6, "ranged", 12)])
def test_ruleset_odds_match_icepool(n: int, m: int, kind: str, life: int) -> None:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "A", "red", (1, 0), {"attacks": f"Card:{kind}:{n}"}))
    board.place_figure(Figure(2, "T", "monsters", (2, 0), {"life": life, "defense": m}))
    odds = RULESET.odds(AttackRequest(board, 1, [2], "Card", {}))
    reference = icepool_wounds(n, m, 3 if kind == "melee" else 2, life)
    assert set(odds.distribution) == set(reference)
    for k, p in reference.items():
        assert abs(float(odds.distribution[k]) - p) < TOL, k
    assert sum(odds.distribution.values()) == 1
    assert abs(float(odds.kill) - reference[life]) < TOL  # type: ignore[arg-type]
    assert abs(float(odds.expected) - sum(k * p for k, p in reference.items())) < TOL


def test_distributions_are_cached() -> None:
    clear_caches()
    first = wounds_distribution((6, 3, 1), 4, (6, 1, 1), 2, 5)
    assert wounds_distribution((6, 3, 1), 4, (6, 1, 1), 2, 5) is first
    assert wounds_distribution.cache_info().hits == 1
    wounds_distribution((6, 3, 1), 4, (6, 1, 1), 2, 6)  # another cap: the pools are reused
    assert pool_powers.cache_info().hits == 1
    diff, cut = pool_difference((6, 3, 1), 4, (6, 1, 1), 2)
    assert clamp(diff, 0, 5) == dict(first[0]) and cut == first[1]


@settings(max_examples=60)
@given(pmfs, pmfs, st.integers(-3, 3), st.integers(0, 8))
def test_clamped_difference_matches_clamp(a: IntPmf, b: IntPmf, low: int, span: int) -> None:
    a = IntPmf(a.numerators, -1, a.denominator)
    assert clamped_difference(a, b, low, low + span) == clamp(difference(a, b), low, low + span)


def test_odds_json_sums_to_one() -> None:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "A", "red", (1, 0), {"attacks": "Card:melee:10"}))
    board.place_figure(Figure(2, "T", "monsters", (2, 0), {"life": 7, "defense": 6}))
    doc = RULESET.odds(AttackRequest(board, 1, [2], None, {})).as_json()
    assert abs(sum(doc["distribution"].values()) - 1) < 1e-12  # type: ignore[union-attr]
    assert list(doc["distribution"]) == [str(k) for k in range(8)]  # type: ignore[arg-type]


def test_outcome_labels_are_singular_for_exactly_one() -> None:
    assert [label_for("enemies defeated", n) for n in (0, 1, 2)] == [
        "enemies defeated", "enemy defeated", "enemies defeated"]
    assert label_for("hero wounds", 1) == "hero wound" and label_for("HP lost", 1) == "HP lost"
    for noun in COUNTED_NOUNS:  # the plural spelling comes from game.core.words.plural
        assert label_for(plural(2, noun).split(" ", 1)[1], 1) == noun
    odds = Odds({0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}, Fraction(3, 4), None, "hits")
    assert [line.split()[:2] for line in bar_chart(odds, 4)] == [["0", "hits"], ["1", "hit"], ["2", "hits"]]
