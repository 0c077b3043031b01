"""The 2D6 TRPG's skills and bad-status effects (vectors T16 … T23 of docs/folklore.md), and the
exact odds with them against every way the dice fall."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from support.brute import enumerate_exact

from game.cli import main
from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, parse_faces
from game.core.errors import UsageError
from game.rules.base import AttackRequest, Resolution
from game.rules.folklore.ruleset import RULESET
from game.rules.folklore.skills import parse_skills, parse_status_effects

ATK, DEF = 1, 2
HERO = {"valour": 4, "wits": 2, "senses": 3, "hp": 20, "armour": 1,
        "weapons": "Sword:valour:2:melee; Bow:wits:0:ranged",
        "skills": "Power Strike:attack:Sword:+2 damage, +1D damage; Aimed Shot:attack:Bow:+2 hit, "
                  "+1 hit dice; Rend:attack:Sword:after 4: +Bleeding, after 4: lose 2 hp"}
FOE = {"valour": 3, "senses": 3, "hp": 12, "armour": 3, "weapons": "Claw:valour:1:melee",
       "skills": "Sidestep:reaction:+2 dodge; Blur:reaction:+1 dodge dice"}


def duel(attacker: dict[str, object] | None = None, defender: dict[str, object] | None = None,
         props: dict[str, object] | None = None) -> Board:
    return Board.from_ascii(["......"] * 3, ruleset="folklore", properties=props or {}, figures=[
        Figure(ATK, "Aya", "party", (1, 1), {**HERO, **(attacker or {})}),
        Figure(DEF, "Oni", "foes", (2, 1), {**FOE, **(defender or {})}),
    ])


def hit(board: Board, attack: str | None, faces: str, **options: object) -> Resolution:
    dice = ScriptedDice(parse_faces(faces, pools=RULESET.pools, numeric=True), RULESET.pools)
    res = RULESET.resolve(AttackRequest(board, ATK, [DEF], attack, options), dice)
    dice.check_used()
    return res


def test_t16_an_attack_skill_adds_damage_and_a_damage_die() -> None:
    # hit 4+[5,5]=14 vs dodge 3+2 (Sidestep, the first reaction skill)+[3,3]=11; damage 2D6 [4,3] + 2 + 2 = 11 − 3
    res = hit(duel(), "Power Strike", "5 5 | 3 3 | 4 3")
    assert res.outcome["hit"] is True and res.outcome["damage"] == 11 and res.outcome["real_damage"] == 8
    assert res.steps[0].text == "Aya's hit check (Sword, Power Strike) (+2 damage, +1D damage): [5, 5] + valour 4 = 14."
    assert "Oni's dodge check with Sidestep (reaction) (+2 dodge): [3, 3] + senses 3 + 2 = 11." in [s.text for s in res.steps]


def test_t17_extra_hit_dice_and_a_hit_bonus() -> None:
    # Aimed Shot: 3 hit dice + wits 2 + 2; a critical needs two 6s of the three
    res = hit(duel(), "Aimed Shot", "6 1 6 | 1 2 | 3 2 5", dodge_skill="none")
    assert res.outcome["critical"] is True and res.outcome["hit_total"] == 17
    assert res.outcome["damage"] == 10 and res.outcome["real_damage"] == 7  # 1D6 + 2D6 for two 6s


def test_t18_the_dodge_skill_can_be_chosen_or_refused() -> None:
    tie = hit(duel(), "Sword", "3 3 | 3 4", dodge_skill="none")  # 4+6 = 10 vs 3+7 = 10: a tie
    assert tie.outcome["hit"] is False
    blur = hit(duel(), "Sword", "5 5 | 1 1 1 | 4", dodge_skill="Blur")  # three dice, all 1: a fumble
    assert blur.outcome["hit"] is True and blur.outcome["dodge_total"] == 6
    with pytest.raises(UsageError, match="no reaction skill 'Parry'"):
        RULESET.odds(AttackRequest(duel(), ATK, [DEF], "Sword", {"dodge_skill": "Parry"}))


def test_t19_after_n_damage_inflicts_a_status_and_costs_more() -> None:
    res = hit(duel(), "Rend", "5 5 | 1 2 | 5", dodge_skill="none")  # 5 + 2 − 3 = 4 real: Rend triggers
    assert res.outcome["real_damage"] == 6 and res.outcome["hp"] == 6
    assert "Oni suffers Bleeding." in [s.text for s in res.steps]
    low = hit(duel(), "Rend", "5 5 | 1 2 | 4", dodge_skill="none")  # 3 real: nothing more
    assert low.outcome["real_damage"] == 3 and not any("suffers Bleeding" in s.text for s in low.steps)


def test_t20_bad_statuses_change_rolls_when_the_map_states_them() -> None:
    props = {"status_effects": "Poison: -1 hit, -1 damage; Blind: -2 dodge; Cracked: -2 armour"}
    board = duel({"statuses": "Poison"}, {"statuses": "Blind, Cracked", "skills": ""}, props)
    res = hit(board, "Sword", "4 4 | 4 4 | 3")  # 4-1+8 = 11 vs 3-2+8 = 9; 3 + 2 - 1 = 4 vs armour 1
    assert res.outcome["hit_total"] == 11 and res.outcome["dodge_total"] == 9 and res.outcome["real_damage"] == 3
    texts = [s.text for s in res.steps]
    # each status at work is named with what it does in this attack (Blind and Cracked: the defender's)
    assert texts[:3] == ["Bad status 'Poison' of Aya: -1 hit, -1 damage.", "Bad status 'Blind' of Oni: -2 dodge.",
                         "Bad status 'Cracked' of Oni: -2 armour."]
    assert texts[3].endswith("[4, 4] + valour 4 - 1 = 11.") and texts[4].endswith("[4, 4] + senses 3 - 2 = 9.")
    note = RULESET.odds(AttackRequest(board, ATK, [DEF], "Sword", {})).note
    assert "bad status 'Poison' of Aya: -1 hit, -1 damage; bad status 'Blind' of Oni: -2 dodge" in note


def test_t21_a_status_without_a_stated_effect_is_noted_not_applied() -> None:
    board = duel({"statuses": "Cursed"}, {"skills": ""})
    res = hit(board, "Sword", "4 4 | 4 4 | 3")
    assert res.steps[0].text == ("Not applied: bad status 'Cursed' of Aya: no effect stated (map property "
                                 "status_effects).")
    assert "Not applied: bad status 'Cursed'" in RULESET.odds(AttackRequest(board, ATK, [DEF], "Sword", {})).note


def test_t22_unknown_skill_effects_are_refused_with_one_line() -> None:
    with pytest.raises(UsageError, match="effect 'teleport' is not modelled"):
        parse_skills("Blink:reaction:teleport", "Oni")
    with pytest.raises(UsageError, match="is not NAME:attack:WEAPON:EFFECTS"):
        parse_skills("Smash:attack:+2 damage", "Aya")
    with pytest.raises(UsageError, match="a bad status changes hit, dodge, damage or armour"):
        parse_status_effects("Slow: +1 hit dice")
    board = duel({"skills": "Smash:attack:Axe:+2 damage"})
    with pytest.raises(UsageError, match="Aya: attack skill 'Smash' uses no weapon of Aya's: 'Axe'"):
        RULESET.check(AttackRequest(board, ATK, [DEF], "Sword", {}))


def test_t23_the_menu_lists_attack_skills_and_the_window_gets_the_dodge_choice() -> None:
    board = duel()
    assert [o.name for o in RULESET.attacks(board, ATK)] == ["Sword", "Bow", "Power Strike", "Aimed Shot", "Rend"]
    (choice,) = RULESET.choices(board, ATK, [DEF])
    assert choice.key == "dodge_skill" and [v for v, _ in choice.values] == [None, "none", "Sidestep", "Blur"]


def brute_lost(hit_dice: int, hit_mod: int, dodge_dice: int, dodge_mod: int, damage_dice: int, bonus: int,
               armour: int, after: tuple[int, int] = (0, 0)) -> dict[int, Fraction]:
    """Every hit roll against every dodge roll, then every damage roll that follows a hit: the
    HP lost (the rules' own check, opposed and real-damage functions; no convolution)."""
    from itertools import product

    from game.rules.folklore import checks as fc

    out: dict[int, Fraction] = {}
    weight = Fraction(1, 6 ** (hit_dice + dodge_dice))
    dodges = [fc.check(d, dodge_mod) for d in product(range(1, 7), repeat=dodge_dice)]
    for h in product(range(1, 7), repeat=hit_dice):
        attack = fc.check(h, hit_mod)
        wins = sum(1 for d in dodges if fc.opposed(attack, d).hit)
        if len(dodges) - wins:
            out[0] = out.get(0, Fraction(0)) + weight * (len(dodges) - wins)
        if not wins:
            continue
        n = damage_dice + (attack.sixes if attack.critical else 0)
        for dmg in product(range(1, 7), repeat=n):
            real = max(0, sum(dmg) + bonus - armour)
            if after[0] and real >= after[0]:
                real += after[1]
            out[real] = out.get(real, Fraction(0)) + weight * wins / 6**n
    return {k: p for k, p in sorted(out.items()) if p}


@pytest.mark.parametrize(
    ("attack", "attacker", "defender", "props", "options", "numbers"),
    [
        # Power Strike: 2 hit dice, valour 4; Sidestep: senses 3 + 2; 2D6 + 2 + 2 vs armour 3
        ("Power Strike", {}, {}, {}, {}, (2, 4, 2, 5, 2, 4, 3, (0, 0))),
        # Aimed Shot: 3 hit dice, wits 2 + 2; Blur: 3 dodge dice, senses 3; 1D6 + 0 vs armour 3
        ("Aimed Shot", {}, {}, {}, {"dodge_skill": "Blur"}, (3, 4, 3, 3, 1, 0, 3, (0, 0))),
        # Rend: no dodge skill; 1D6 + 2 vs armour 3, after 4 real: 2 more
        ("Rend", {}, {}, {}, {"dodge_skill": "none"}, (2, 4, 2, 3, 1, 2, 3, (4, 2))),
        # statuses: Aya poisoned (-1 hit, +1 damage), Oni blind (-2 dodge) and cracked (-1 armour)
        ("Sword", {"statuses": "Poison"}, {"statuses": "Blind, Cracked", "skills": ""},
         {"status_effects": "Poison: -1 hit, +1 damage; Blind: -2 dodge; Cracked: -1 armour"}, {},
         (2, 3, 2, 1, 1, 3, 2, (0, 0))),
    ],
)
def test_odds_with_skills_and_statuses_equal_the_brute_force(
        attack: str, attacker: dict[str, object], defender: dict[str, object], props: dict[str, object],
        options: dict[str, object], numbers: tuple[int, int, int, int, int, int, int, tuple[int, int]]) -> None:
    board = duel(attacker, {"hp": 99, **defender}, props)
    odds = RULESET.odds(AttackRequest(board, ATK, [DEF], attack, options))
    assert {k: p for k, p in odds.distribution.items() if p} == brute_lost(*numbers)


def test_a_resolution_with_skills_follows_the_same_numbers_as_the_odds() -> None:
    """Every way the dice fall through the engine, on a small case (Rend with one hit die, which
    cannot be critical, against Oni's Sidestep: four dice in all)."""
    board = duel({"hit_dice": 1}, {"hp": 99})
    request = AttackRequest(board, ATK, [DEF], "Rend", {})

    def run(dice: object) -> int:
        return int(RULESET.resolve(request, dice).outcome["real_damage"])  # type: ignore[arg-type, call-overload]

    brute, unknown = enumerate_exact(run, limit=8)
    assert unknown == 0
    assert {k: p for k, p in RULESET.odds(request).distribution.items() if p} == brute


def test_cli_dodge_skill_flag(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    folklore = str(Path(__file__).resolve().parent.parent / "maps" / "folklore.tmx")
    assert main(["odds", folklore, "Aya", "Oni", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["odds", folklore, "Aya", "Oni", "--dodge-skill", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expected"] == plain["expected"]  # Oni has no skill
