"""The fast exact odds (issue #11 deliverable 5) against the slow oracles they replaced.

Folklore: hit chances by convolution of sums against every hit roll × every dodge roll.
Conquest: the face-by-face sweep against the die-by-die walk (itself checked against brute force
in test_conquest.py), over every small profile and several special-rule shapes.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.conquest import dice as cd
from game.rules.folklore import checks as fc

NO = (False,) * 6


@pytest.mark.parametrize("hit_dice", range(0, 5))
@pytest.mark.parametrize("dodge_dice", range(0, 4))
def test_folklore_hit_chances_equal_the_brute_force(hit_dice, dodge_dice):
    for hit_mod, dodge_mod in itertools.product((-4, 0, 3, 7, 15), (None, -3, 0, 4, 11)):
        assert fc.hit_chances(hit_mod, dodge_mod, hit_dice=hit_dice, dodge_dice=dodge_dice) == (
            fc.hit_chances_brute(hit_mod, dodge_mod, hit_dice=hit_dice, dodge_dice=dodge_dice)
        ), (hit_mod, dodge_mod)


def test_folklore_six_hit_dice_equal_the_brute_force():
    assert fc.hit_chances(4, 3, hit_dice=5) == fc.hit_chances_brute(4, 3, hit_dice=5)


EFFECTS = [
    cd.PrimaryEffects(),
    cd.PrimaryEffects((True,) + NO[1:], (0,) * 6),  # Parry
    cd.PrimaryEffects(NO, (1,) + (0,) * 5),  # Relentless Blows
    cd.PrimaryEffects((True,) + NO[1:], (1,) + (0,) * 5),  # both
    cd.PrimaryEffects((False, False, True, False, False, True), (0, 2, 0, 0, 1, 0)),
    cd.PrimaryEffects((True,) * 5 + (False,), (0,) * 6),
    cd.PrimaryEffects(NO[:5] + (True,), (0,) * 5 + (1,)),
]


@pytest.mark.parametrize("effects", EFFECTS, ids=range(len(EFFECTS)))
def test_conquest_sweep_equals_the_die_by_die_walk(effects):
    for dice, keep, blocks in itertools.product(range(0, 5), range(0, 5), range(0, 4)):
        oracle = {w: p for w, p in cd.wounds_distribution_dp(dice, keep, blocks, effects).items() if p}
        assert cd.attack_wounds_distribution(dice, keep, blocks, effects) == oracle, (dice, keep, blocks)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 6), st.integers(0, 6), st.integers(0, 5),
    st.lists(st.booleans(), min_size=6, max_size=6), st.lists(st.integers(0, 1), min_size=6, max_size=6),
)
def test_conquest_sweep_equals_the_walk_on_random_rules(dice, keep, blocks, reroll, extra):
    effects = cd.PrimaryEffects(tuple(reroll), tuple(extra))
    oracle = {w: p for w, p in cd.wounds_distribution_dp(dice, keep, blocks, effects).items() if p}
    assert cd.attack_wounds_distribution(dice, keep, blocks, effects) == oracle
