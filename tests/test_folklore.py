"""The 2D6 TRPG of seed 002 (folklore): vectors T1 … T15, reach, exact damage odds vs brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.core.errors import IllegalAttackError, UsageError
from game.rules.base import AttackRequest
from game.rules.folklore import checks as fc
from game.rules.folklore.ruleset import RULESET, parse_weapons
from game.rules.registry import get_ruleset

ATK, DEF = 1, 2
HERO = {
    "valour": 4,
    "wits": 2,
    "senses": 3,
    "hp": 20,
    "max_hp": 20,
    "armour": 1,
    "weapons": "Sword:valour:2:melee; Spell:wits:1:ranged; Curse:wits:0:ranged:maxhp:+Poison",
}
FOE = {
    "valour": 3,
    "wits": 1,
    "senses": 3,
    "hp": 12,
    "max_hp": 12,
    "armour": 3,
    "weapons": "Claw:valour:1:melee",
}


def duel(
    attacker: dict | None = None, defender: dict | None = None, *, walls=(), at=((1, 1), (2, 1))
) -> Board:
    return Board.from_ascii(
        ["......"] * 4,
        walls=list(walls),
        ruleset="folklore",
        figures=[
            Figure(ATK, "Aya", "party", at[0], {**HERO, **(attacker or {})}),
            Figure(DEF, "Oni", "foes", at[1], {**FOE, **(defender or {})}),
        ],
    )


def hit(board: Board, faces: str, weapon: str | None = None):
    dice = ScriptedDice(parse_faces(faces, pools=RULESET.pools, numeric=True), RULESET.pools)
    res = RULESET.resolve(AttackRequest(board, ATK, [DEF], weapon, {}), dice)
    dice.check_used()
    return res


# --- T1, T2: the death check ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "valour", "survives"),
    [
        ([3, 4], 3, True),
        ([2, 4], 3, False),  # T1
        ([6, 6], 3, True),
        ([1, 1], 9, False),  # T2 (critical survives, fumble dies)
    ],
)
def test_t1_t2_death_check(dice, valour, survives):
    assert fc.death_check(dice, valour).survives is survives


# --- T3 … T8: hit, dodge and damage ------------------------------------------------------------


def test_t3_tie_goes_to_the_defender():
    res = hit(duel(defender={"senses": 3}), "3 5 | 4 5")
    assert res.outcome["hit_total"] == 12 and res.outcome["dodge_total"] == 12
    assert not res.outcome["hit"] and res.changes == ()
    assert "tie" in next(s.text for s in res.steps if s.kind == "compare")


def test_t4_critical_hit_damage():
    board = duel(attacker={"weapons": "Fist:valour:0:melee"}, defender={"hp": 20, "max_hp": 20})
    res = hit(board, "6 6 | 2 3 | 4 3 5")
    assert res.outcome["hit_total"] == 16 and res.outcome["critical"]
    assert res.outcome["damage"] == 12 and res.outcome["real_damage"] == 9
    assert res.changes[0].stats["hp"] == 11
    damage = next(s for s in res.steps if s.kind == "damage")
    assert [r.reason for r in damage.rolls] == ["rolled", "critical", "critical"]


def test_t5_defender_critical_beats_attacker_critical():
    res = hit(duel(), "6 6 | 6 6")
    assert res.outcome["critical"] and not res.outcome["hit"]


def test_t6_three_sixes_add_three_dice():
    board = duel(attacker={"hit_dice": 3, "weapons": "Fist:valour:0:melee"}, defender={"hp": 50})
    res = hit(board, "6 6 6 | 1 2 | 1 1 1 1")
    assert res.outcome["damage"] == 4  # 1D6 + 3D6, all ones, no bonus
    assert fc.check([6, 6, 6], 0).sixes == 3


def test_t7_fumble_misses_whatever_the_dodge():
    res = hit(duel(defender={"senses": -20}), "1 1 | 1 2")
    assert res.outcome["fumble"] and not res.outcome["hit"]


def test_t8_armour_above_damage():
    board = duel(attacker={"weapons": "Stick:valour:0:melee"}, defender={"armour": 6})
    res = hit(board, "5 5 | 1 2 | 5")
    assert res.outcome["hit"] and res.outcome["real_damage"] == 0
    assert res.changes[0].stats["hp"] == 12


def test_defender_fumble_is_hit_and_higher_total_needed():
    assert fc.opposed(fc.check([1, 2], 0), fc.check([1, 1], 9)).hit
    assert not fc.opposed(fc.check([2, 3], 0), fc.check([3, 3], 0)).hit


# --- T9, T10: incapacitation and death checks ---------------------------------------------------


def test_t9_hp_zero_incapacitates_and_calls_a_death_check():
    board = duel(attacker={"weapons": "Stick:valour:0:melee"}, defender={"hp": 4, "armour": 0})
    res = hit(board, "5 5 | 1 2 | 4 | 3 4")
    assert res.outcome["hp"] == 0 and res.outcome["incapacitated"]
    assert res.outcome["death_check"] == {"dice": [3, 4], "target": 7, "survives": True}
    assert res.changes[0].stats == {"hp": 0, "max_hp": 12, "incapacitated": True}


def test_t9_death_check_failure_kills():
    board = duel(attacker={"weapons": "Stick:valour:0:melee"}, defender={"hp": 4, "armour": 0})
    res = hit(board, "5 5 | 1 2 | 6 | 2 4")
    assert res.outcome["dead"] and res.changes[0].stats["dead"] is True
    RULESET.apply(board, res)
    verdict = RULESET.check(AttackRequest(board, ATK, [DEF], None, {}))
    assert not verdict.legal and "already dead" in verdict.reason


def test_t10_hit_on_incapacitated_calls_death_check_whatever_the_damage():
    board = duel(
        attacker={"weapons": "Stick:valour:0:melee"},
        defender={"hp": -1, "incapacitated": True, "armour": 9},
    )
    res = hit(board, "2 3 | | 1 | 6 6")  # no dodge faces: an incapacitated figure cannot dodge
    assert res.outcome["hit"] and res.outcome["real_damage"] == 0
    assert res.outcome["death_check"]["survives"]
    assert any("no dodge check" in s.text for s in res.steps)


def test_incapacitated_attacker_cannot_act():
    board = duel(attacker={"hp": 0})
    assert "incapacitated" in RULESET.check(AttackRequest(board, ATK, [DEF], None, {})).reason
    assert all(not a.usable for a in RULESET.attacks(board, ATK))


# --- T11 … T15: max-HP damage, healing, bad statuses --------------------------------------------


@pytest.mark.parametrize(
    ("hp", "max_hp", "amount", "expected"),
    [
        (25, 30, 10, fc.Health(20, 20)),  # T11
        (12, 30, 10, fc.Health(12, 20)),  # T12
        (8, 8, 8, fc.Health(0, 0, False, True)),  # T13
    ],
)
def test_t11_to_t13_max_hp_damage(hp, max_hp, amount, expected):
    assert fc.take_max_hp_damage(fc.Health(hp, max_hp), amount) == expected


def test_max_hp_weapon_through_engine_and_end_of_scene():
    board = duel(defender={"hp": 12, "max_hp": 12, "armour": 0})
    res = hit(board, "5 5 | 1 2 | 4", weapon="Curse")
    assert res.changes[0].stats == {
        "max_hp_base": 12,
        "hp": 8,
        "max_hp": 8,
        "statuses": "Poison",
        "incapacitated": None,
    }
    RULESET.apply(board, res)
    (change,) = RULESET.perform(board, "end scene", "party")
    assert change.stats == {"statuses": None, "max_hp": 12, "max_hp_base": None}


def test_t14_healing_is_capped():
    assert fc.heal(fc.Health(25, 30), 10).hp == 30


def test_t15_end_of_combat_clears_bad_statuses():
    board = duel(defender={"statuses": "Poison, Stun"})
    assert "end combat" in RULESET.actions(board, "party")
    changes = RULESET.perform(board, "end combat", "party")
    assert [(c.figure_id, dict(c.stats)) for c in changes] == [(DEF, {"statuses": None})]
    RULESET.apply_changes(board, changes)
    assert "statuses" not in board.figure(DEF).stats


# --- reach, weapons, interface -----------------------------------------------------------------


def test_melee_needs_close_and_ranged_needs_sight():
    board = duel(walls=["V(2,1)"])
    assert "not Close" in RULESET.check(AttackRequest(board, ATK, [DEF], "Sword", {})).reason
    verdict = RULESET.check(AttackRequest(board, ATK, [DEF], "Spell", {}))
    assert not verdict.legal and "V(2,1)" in verdict.reason
    far = duel(at=((0, 0), (5, 3)))
    assert RULESET.check(AttackRequest(far, ATK, [DEF], "Spell", {})).legal
    assert not RULESET.check(AttackRequest(far, ATK, [DEF], "Sword", {})).legal


def test_weapon_grammar_errors_are_one_line():
    with pytest.raises(UsageError, match="valour or wits"):
        parse_weapons("Bow:senses:1:ranged", "Kiku")
    with pytest.raises(UsageError, match="melee or ranged"):
        parse_weapons("Bow:wits:1:thrown")
    with pytest.raises(UsageError, match="needs"):
        parse_weapons("Bow")
    with pytest.raises(UsageError, match="no weapon 'Axe'"):
        RULESET.check(AttackRequest(duel(), ATK, [DEF], "Axe", {}))


def test_seeded_resolution_replays():
    board = duel(defender={"hp": 3, "armour": 0})
    results = {
        RULESET.resolve(AttackRequest(board, ATK, [DEF], "Sword", {}), SeededDice(s)).outcome["hit"]
        for s in range(12)
    }
    assert results == {True, False}
    a = RULESET.resolve(AttackRequest(board, ATK, [DEF], "Sword", {}), SeededDice(5))
    assert a == RULESET.resolve(AttackRequest(board, ATK, [DEF], "Sword", {}), SeededDice(5))


# --- exact odds ----------------------------------------------------------------------------------


def brute_damage(
    hit_mod: int, dodge_mod: int | None, bonus: int, armour: int
) -> dict[int, Fraction]:
    """Every hit roll, dodge roll, and the damage dice that would follow."""
    dist: dict[int, Fraction] = {}
    dodges = list(product(range(1, 7), repeat=2)) if dodge_mod is not None else [None]
    for h in product(range(1, 7), repeat=2):
        for d in dodges:
            p = Fraction(1, 36 * (36 if dodge_mod is not None else 1))
            attack = fc.check(h, hit_mod)
            dodge = None if d is None else fc.check(d, dodge_mod)
            if not fc.opposed(attack, dodge).hit:
                dist[0] = dist.get(0, Fraction(0)) + p
                continue
            n = 1 + (attack.sixes if attack.critical else 0)
            for dmg in product(range(1, 7), repeat=n):
                real = max(0, sum(dmg) + bonus - armour)
                dist[real] = dist.get(real, Fraction(0)) + p / 6**n
    return dict(sorted(dist.items()))


@pytest.mark.parametrize(
    ("hit_mod", "dodge_mod", "bonus", "armour"),
    [
        (4, 3, 2, 3),
        (0, 5, 0, 0),
        (2, None, 1, 6),
        (6, 1, 3, 1),
    ],
)
def test_exact_damage_against_brute_force(hit_mod, dodge_mod, bonus, armour):
    assert fc.damage_distribution(hit_mod, dodge_mod, bonus=bonus, armour=armour) == brute_damage(
        hit_mod, dodge_mod, bonus, armour
    )


def test_odds_through_ruleset():
    board = duel(defender={"hp": 3})
    odds = RULESET.odds(AttackRequest(board, ATK, [DEF], "Sword", {}))
    dist = brute_damage(4, 3, 2, 3)
    assert odds.distribution == dist and odds.label == "HP lost"
    assert odds.kill == sum(p for d, p in dist.items() if d >= 3)
    assert odds.expected == sum(d * p for d, p in dist.items())
    with pytest.raises(IllegalAttackError):
        RULESET.odds(AttackRequest(duel(at=((0, 0), (5, 3))), ATK, [DEF], "Sword", {}))


def test_death_chance_exact():
    assert fc.death_chance(3) == Fraction(15, 36)  # 2..6 fail except... by enumeration below
    fails = sum(1 for r in product(range(1, 7), repeat=2) if not fc.death_check(r, 3).survives)
    assert fc.death_chance(3) == Fraction(fails, 36)


def test_registry_and_assumptions():
    assert get_ruleset("folklore") is RULESET
    assert RULESET.pools == ("hit", "dodge", "damage", "death")
    assert any("critical" in a for a in RULESET.assumptions)
