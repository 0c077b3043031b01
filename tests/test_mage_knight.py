"""Mage Knight combat: vectors MK-1 … MK-20 through the arithmetic and through the ruleset."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.commands.wording import cli_words
from game.core.board import Board, Figure
from game.core.errors import IllegalAttackError, UsageError
from game.rules.base import AttackRequest
from game.rules.mage_knight import combat as mk
from game.rules.mage_knight.figures import enemy_from
from game.rules.mage_knight.plays import parse_play
from game.rules.mage_knight.ruleset import RULESET
from game.rules.registry import get_ruleset

# Sample tokens of docs/mage-knight.md (MK-DATA): attack / element / armor / fame / abilities / resistances
TOKENS: dict[str, dict[str, object]] = {
    "Prowlers": {"attack": 4, "armor": 3, "fame": 2},
    "Diggers": {"attack": 3, "armor": 3, "fame": 2, "abilities": "fortified"},
    "Wolf Riders": {"attack": 3, "armor": 4, "fame": 3, "abilities": "swift"},
    "Ironclads": {
        "attack": 4,
        "armor": 3,
        "fame": 4,
        "abilities": "brutal",
        "resistances": "physical",
    },
    "Cursed Hags": {"attack": 3, "armor": 5, "fame": 3, "abilities": "poison"},
    "Guardsmen": {"attack": 3, "armor": 7, "fame": 3, "abilities": "fortified"},
    "Fire Mages": {"attack": 6, "element": "fire", "armor": 5, "fame": 5, "resistances": "fire"},
    "Ice Mages": {"attack": 5, "element": "ice", "armor": 6, "fame": 5, "resistances": "ice"},
    "Skeletal Warriors": {"attack": 3, "armor": 4, "fame": 1, "resistances": "fire"},
    "Fire Golems": {
        "attack": 3,
        "element": "fire",
        "armor": 4,
        "fame": 5,
        "abilities": "brutal",
        "resistances": "fire, physical",
    },
    "Freezers": {
        "attack": 3,
        "element": "ice",
        "armor": 7,
        "fame": 7,
        "abilities": "swift, paralyze",
        "resistances": "fire",
    },
    "Delphana Masters": {
        "attack": 5,
        "element": "coldfire",
        "armor": 8,
        "fame": 9,
        "abilities": "assassination, paralyze",
        "resistances": "fire,ice",
    },
    "High Dragon": {
        "attack": 6,
        "element": "cold fire",
        "armor": 9,
        "fame": 9,
        "abilities": "brutal",
        "resistances": "fire, ice",
    },
    "Medusa": {"attack": 6, "armor": 4, "fame": 5, "abilities": "paralyze"},
    "Shocktroops": {
        "attack": 5,
        "armor": 3,
        "elusive_armor": 6,
        "fame": 3,
        "abilities": "unfortified, elusive",
    },
}
HERO = 1


def board_with(
    *names: str,
    site: bool = False,
    hero: dict | None = None,
    units: dict[str, dict] | None = None,
    extra: dict[str, dict] | None = None,
) -> Board:
    """A board with the Hero (id 1), the named tokens (ids 10, 11, ...) and Units (ids 50, ...)."""
    figures = [Figure(HERO, "Tovak", "hero", (0, 0), {"armor": 2, "hand_limit": 5, **(hero or {})})]
    for i, name in enumerate(names):
        stats = dict(TOKENS[name])
        stats.update((extra or {}).get(name, {}))
        figures.append(Figure(10 + i, name, "enemies", (1 + i % 5, 1 + i // 5), stats))
    for i, (name, stats) in enumerate((units or {}).items()):
        figures.append(Figure(50 + i, name, "hero", (0, 1 + i), {"unit": True, **stats}))
    return Board(8, 8, figures=figures, ruleset="mage_knight", properties={"site_fortified": site})


def attack(board: Board, phase: str, play: str, *targets: int):
    return RULESET.resolve(AttackRequest(board, HERO, list(targets), None, {"phase": phase, "play": play}), None)


# --- MK-1 … MK-8: ranged, siege and melee attacks ------------------------------------------


def test_mk1_ranged_defeats_prowlers():
    res = attack(board_with("Prowlers"), "ranged", "ranged 3", 10)
    assert res.legal
    assert res.outcome["effective"] == 3 and res.outcome["armor"] == 3
    assert res.outcome["defeated"] == ["Prowlers"] and res.outcome["fame"] == 2
    assert {c.figure_id: dict(c.stats) for c in res.changes} == {
        10: {"defeated": True},
        HERO: {"fame": 2},
    }


def test_mk2_fortified_ability_needs_siege():
    board = board_with("Diggers")
    res = attack(board, "ranged", "ranged 5", 10)
    assert not res.legal and "fortified" in res.reason and "siege" in res.reason
    res = attack(board, "ranged", "siege 3", 10)
    assert res.legal and res.outcome["defeated"] == ["Diggers"]


def test_mk3_double_fortified_cannot_be_targeted_in_ranged_phase():
    board = board_with("Guardsmen", site=True)
    for play in ("siege 20", "ranged 20", ""):
        res = attack(board, "ranged", play, 10)
        assert not res.legal and "double-fortified" in res.reason
    # in the attack phase fortifications no longer apply
    assert attack(board, "attack", "7", 10).outcome["defeated"] == ["Guardsmen"]


def test_mk3_site_fortification_alone_is_single():
    board = board_with("Prowlers", site=True)
    assert not attack(board, "ranged", "ranged 3", 10).legal
    assert attack(board, "ranged", "siege 3", 10).outcome["defeated"] == ["Prowlers"]
    # a figure property overrides the map's
    board = board_with("Prowlers", site=True, extra={"Prowlers": {"site_fortified": False}})
    assert attack(board, "ranged", "ranged 3", 10).legal


def test_unfortified_ignores_site():
    board = board_with("Shocktroops", site=True)
    assert enemy_from(board, board.figure(10)).fortification() == 0
    assert attack(board, "ranged", "ranged 6", 10).outcome["defeated"] == ["Shocktroops"]


def test_mk4_mixed_group_siege_only():
    board = board_with("Prowlers", "Diggers")
    res = attack(board, "ranged", "siege 6", 10, 11)
    assert res.outcome["armor"] == 6 and sorted(res.outcome["defeated"]) == ["Diggers", "Prowlers"]
    assert res.outcome["fame"] == 4
    res = attack(board, "ranged", "ranged 3, siege 3", 10, 11)
    assert not res.legal and "ranged attacks cannot be used" in res.reason.lower()


def test_mk5_pool_inefficient_then_halve_once():
    res = attack(board_with("Fire Golems"), "attack", "3, 3 fire, 1 ice", 10)
    assert res.outcome["effective"] == 4 and res.outcome["defeated"] == ["Fire Golems"]
    # the per-element halving bug would give 1 + 1 + 1 = 3
    assert sum(v // 2 for v in (3, 3)) + 1 == 3


@pytest.mark.parametrize(
    ("play", "defeated"),
    [
        ("10 coldfire", True),  # no single target has both resistances
        ("10 fire", False),  # 5 < 10
        ("6 fire, 4 ice", False),  # floor(10 / 2) = 5
    ],
)
def test_mk6_cold_fire_needs_one_target_with_both(play, defeated):
    res = attack(board_with("Skeletal Warriors", "Ice Mages"), "attack", play, 10, 11)
    assert res.outcome["armor"] == 10
    assert bool(res.outcome["defeated"]) is defeated


@pytest.mark.parametrize(("value", "effective", "defeated"), [(5, 2, False), (6, 3, True)])
def test_mk7_physical_resistance(value, effective, defeated):
    res = attack(board_with("Ironclads"), "attack", f"attack {value}", 10)
    assert res.outcome["effective"] == effective
    assert bool(res.outcome["defeated"]) is defeated


def test_mk8_cold_fire_halved_by_fire_and_ice():
    board = board_with("High Dragon")
    res = attack(board, "attack", "9 coldfire", 10)
    assert res.outcome["effective"] == 4 and not res.outcome["defeated"]
    assert attack(board, "attack", "18 coldfire", 10).outcome["defeated"] == ["High Dragon"]
    assert attack(board, "attack", "9", 10).outcome["defeated"] == ["High Dragon"]
    assert res.changes == ()  # a failed attack has no effect


# --- MK-9 … MK-12: blocks ------------------------------------------------------------------


def block(board: Board, play: str, target: int = 10):
    return RULESET.resolve(AttackRequest(board, HERO, [target], None, {"phase": "block", "play": play}), None)


@pytest.mark.parametrize(
    ("play", "value", "blocked"),
    [
        ("6 ice", 6, True),
        ("6, 5 fire", 5, False),
        ("8, 2 ice", 6, True),
    ],
)
def test_mk9_block_fire_mages(play, value, blocked):
    res = block(board_with("Fire Mages"), play)
    assert res.outcome["block"] == value and res.outcome["needed"] == 6
    assert res.outcome["blocked"] is blocked
    assert res.outcome["damage"] == (0 if blocked else 6)


@pytest.mark.parametrize(
    ("play", "value", "blocked"),
    [
        ("10 ice", 5, True),
        ("5 ice, 4 fire", 4, False),
        ("3 coldfire, 4 ice", 5, True),
    ],
)
def test_mk10_block_cold_fire(play, value, blocked):
    res = block(board_with("Delphana Masters"), play)
    assert (res.outcome["block"], res.outcome["blocked"]) == (value, blocked)


@pytest.mark.parametrize(("play", "blocked", "damage"), [("5", False, 3), ("6", True, 0)])
def test_mk11_swift_doubles_the_requirement(play, blocked, damage):
    res = block(board_with("Wolf Riders"), play)
    assert res.outcome["needed"] == 6
    assert (res.outcome["blocked"], res.outcome["damage"]) == (blocked, damage)


@pytest.mark.parametrize(
    ("play", "value", "blocked"),
    [
        ("6 fire", 6, True),
        ("12", 6, True),
        ("11", 5, False),
    ],
)
def test_mk12_swift_with_efficiency(play, value, blocked):
    res = block(board_with("Freezers"), play)
    assert (res.outcome["block"], res.outcome["needed"], res.outcome["blocked"]) == (
        value,
        6,
        blocked,
    )


def test_block_records_blocked_and_several_targets_are_illegal():
    board = board_with("Prowlers", "Diggers")
    res = block(board, "4")
    assert res.changes[0].stats == {"blocked": True}
    res = RULESET.resolve(AttackRequest(board, HERO, [10, 11], None, {"phase": "block", "play": "9"}), None)
    assert not res.legal and "single enemy" in res.reason
    res = block(board, "ranged 4")
    assert not res.legal and "not a block" in res.reason


def test_brutal_doubles_damage_not_the_requirement():
    res = block(board_with("Ironclads"), "3")
    assert res.outcome["needed"] == 4 and res.outcome["damage"] == 8


# --- MK-13 … MK-18: damage assignment --------------------------------------------------------


def assign(board: Board, order: str, *targets: int):
    return RULESET.resolve(AttackRequest(board, HERO, list(targets), None, {"phase": "assign", "play": order}), None)


@pytest.mark.parametrize(("armor", "wounds"), [(2, 4), (3, 3)])
def test_mk13_brutal_on_the_hero(armor, wounds):
    res = assign(board_with("Ironclads", hero={"armor": armor}), "", 10)
    assert res.outcome["hero_wounds"] == wounds and not res.outcome["knocked_out"]


def test_mk14_poison_on_the_hero():
    res = assign(board_with("Cursed Hags"), "", 10)
    assert (res.outcome["hero_wounds"], res.outcome["wounds_discard"]) == (2, 2)


def test_mk15_paralyze_on_the_hero():
    res = assign(board_with("Medusa"), "", 10)
    assert res.outcome["hero_wounds"] == 3 and res.outcome["paralyzed"]
    assert any("discards every non-Wound card" in s.text for s in res.steps)


def test_mk16_unit_takes_damage_first():
    board = board_with(extra={}, units={"Peasants": {"armor": 3}})
    board.place_figure(Figure(10, "Orc", "enemies", (5, 5), {"attack": 5, "armor": 3}))
    res = assign(board, "Peasants", 10)
    assert res.outcome["units"] == {"Peasants": {"wounded": True, "wounds": 1}}
    assert res.outcome["hero_wounds"] == 1


def test_mk17_resistant_unit():
    a = mk.assign_damage(
        mk.Enemy("Fire Mages", 5, 6, "fire"),
        6,
        [mk.Unit("Guardian", 4, frozenset({"fire"}))],
        hero_armor=2,
        hand_limit=5,
    )
    assert a.units[0].wounds == 1 and a.hero is None
    board = board_with("Fire Mages", units={"Guardian": {"armor": 4, "resistances": "fire"}})
    board.place_figure(
        Figure(12, "Fire Sprite", "enemies", (6, 6), {"attack": 3, "element": "fire", "armor": 2})
    )
    res = assign(board, "Guardian", 12)
    assert (
        res.outcome["units"] == {"Guardian": {"absorbed": True}} and res.outcome["hero_wounds"] == 0
    )
    RULESET.apply(board, res)
    # it cannot be assigned damage again this combat: the Fire Mages' 6 all go to the Hero
    res = assign(board, "Guardian", 10)
    assert res.outcome["hero_wounds"] == 3
    assert any("cannot be assigned damage" in s.text for s in res.steps)


def test_mk18_knock_out_counts_the_whole_combat():
    board = board_with("Prowlers", "Cursed Hags", hero={"wounds": 2})
    res = assign(board, "", 10)  # 4 damage, Armor 2: 2 more Wounds → 4 < 5
    assert not res.outcome["knocked_out"]
    RULESET.apply(board, res)
    res = assign(board, "", 11)  # 2 more → 6 ≥ 5
    assert res.outcome["knocked_out"] and board.figure(HERO).stats["wounds"] == 4
    assert res.outcome["wounds_in_hand"] == 6
    # Poison's discard-pile Wounds do not count towards the knock-out
    h = mk.damage_to_hero(
        3,
        mk.Enemy("Hags", 5, 3, abilities=frozenset({"poison"})),
        armor=2,
        hand_limit=5,
        wounds_before=2,
    )
    assert h.wounds_this_combat == 4 and not h.knocked_out


def test_assassination_skips_units():
    board = board_with("Delphana Masters", units={"Peasants": {"armor": 3}})
    res = assign(board, "Peasants", 10)
    assert res.outcome["units"] == {} and res.outcome["hero_wounds"] == 3


def test_paralyze_destroys_a_unit():
    res = mk.assign_damage(
        mk.Enemy("Medusa", 4, 6, abilities=frozenset({"paralyze"})),
        6,
        [mk.Unit("Peasants", 3)],
        hero_armor=2,
        hand_limit=5,
    )
    assert res.units[0].destroyed and res.hero.wounds_in_hand == 2


# --- MK-19 Elusive, MK-20 PvP ----------------------------------------------------------------


def test_mk19_elusive():
    board = board_with("Shocktroops")
    assert not attack(board, "ranged", "ranged 5", 10).outcome["defeated"]
    assert not attack(board, "attack", "5", 10).outcome["defeated"]
    RULESET.apply(board, block(board, "5"))
    assert board.figure(10).stats["blocked"] is True
    res = attack(board, "attack", "3", 10)
    assert res.outcome["armor"] == 3 and res.outcome["defeated"] == ["Shocktroops"]


def test_mk20_pvp_partial_blocks():
    fire4 = [mk.Play("ranged", 4, "fire")]
    assert mk.pvp_remaining_attack(fire4, [mk.Play("block", 4, "ice")], phase="ranged") == 2
    assert mk.pvp_remaining_attack(fire4, [mk.Play("block", 7)], phase="ranged") == 3
    assert (
        mk.pvp_remaining_attack([mk.Play("attack", 4)], [mk.Play("block", 3)], phase="attack") == 1
    )


# --- the --play grammar, odds, registry -------------------------------------------------------


@pytest.mark.parametrize("text", ["ranged", "3 lightning", "throw 3", "3 fire ice x", "-2"])
def test_malformed_play_is_one_usage_error(text):
    with pytest.raises(UsageError) as err:
        parse_play(text, "attack")
    assert "\n" not in str(err.value)
    assert str(err.value).startswith("the play ")  # the rules' words
    assert cli_words(err.value).startswith("--play: ")  # the command line's


def test_play_defaults_and_aliases():
    assert parse_play(" Siege 2 Cold Fire ,4", "ranged") == [
        mk.Play("siege", 2, "coldfire"),
        mk.Play("attack", 4, "physical"),
    ]
    assert parse_play("", "attack") == []


def test_plain_attack_not_in_ranged_phase_and_block_not_in_attack_phase():
    board = board_with("Prowlers")
    assert not attack(board, "ranged", "attack 3", 10).legal
    assert not attack(board, "attack", "block 3", 10).legal


def test_defeated_enemy_cannot_be_targeted_again():
    board = board_with("Prowlers")
    RULESET.apply(board, attack(board, "attack", "3", 10))
    assert not RULESET.check(AttackRequest(board, HERO, [10], None, {"phase": "attack", "play": "3"})).legal


def test_odds_is_deterministic_and_consistent_with_resolve():
    board = board_with("Prowlers", "Diggers")
    odds = RULESET.odds(AttackRequest(board, HERO, [10, 11], None, {"phase": "ranged", "play": "siege 6"}))
    assert (
        odds.distribution == {2: Fraction(1)}
        and odds.kill == 1
        and odds.label == "enemies defeated"
    )
    odds = RULESET.odds(AttackRequest(board, HERO, [10], None, {"phase": "block", "play": "3"}))
    assert odds.distribution == {4: Fraction(1)}
    with pytest.raises(IllegalAttackError):
        RULESET.odds(AttackRequest(board, HERO, [11], None, {"phase": "ranged", "play": "ranged 3"}))


def test_registry_and_interface():
    assert get_ruleset("mage_knight") is RULESET
    assert RULESET.pools == () and "elusive_armor" in RULESET.known_properties
    board = board_with("Prowlers")
    assert [a.kind for a in RULESET.attacks(board, HERO)] == ["ranged", "block", "assign", "attack"]
    assert RULESET.attacks(board, 10) == []
    res = attack(board, "ranged", "ranged 3", 10)
    assert {s.kind for s in res.steps} <= {"tally", "compare", "status", "note"}
    assert res.as_json()["outcome"]["defeated"] == ["Prowlers"]


def test_elusive_blocked_state_is_per_figure_not_per_name():
    board = board_with("Shocktroops")
    board.place_figure(Figure(20, "Shocktroops", "enemies", (6, 6), dict(TOKENS["Shocktroops"])))
    RULESET.apply(board, block(board, "5"))  # blocks figure 10 only
    res = attack(board, "attack", "9", 10, 20)
    assert res.outcome["armor"] == 3 + 6 and len(res.outcome["defeated"]) == 2


def test_several_attacks_are_blocked_one_by_one():
    board = board_with("Prowlers", extra={"Prowlers": {"attack": "5+3"}})
    res = block(board, "5; 3 fire")
    assert res.outcome["blocked"] and res.outcome["block"] == [5, 3]
    res = block(board, "5")
    assert not res.outcome["blocked"] and res.outcome["damage"] == 3 and res.changes == ()
    res = assign(board, "", 10)
    assert res.outcome["hero_wounds"] == 3 + 2  # 5 → 3 Wounds, 3 → 2 Wounds, attack by attack


def test_only_the_hero_attacks():
    board = board_with("Prowlers", units={"Peasants": {"armor": 3}})
    for who in (10, 50):
        verdict = RULESET.check(AttackRequest(board, who, [HERO], None, {"phase": "attack", "play": "9"}))
        assert not verdict.legal and "not a Hero" in verdict.reason


def test_attack_name_chooses_the_phase():
    board = board_with("Wolf Riders")
    res = RULESET.resolve(AttackRequest(board, HERO, [10], "Block", {"play": "6"}), None)
    assert res.outcome["phase"] == "block" and res.outcome["blocked"]
    res = RULESET.resolve(AttackRequest(board, HERO, [10], "Ranged/Siege", {"play": "ranged 4"}), None)
    assert res.outcome["phase"] == "ranged" and res.outcome["defeated"] == ["Wolf Riders"]
    # an explicit phase wins; an unknown name is bad input
    assert RULESET.resolve(AttackRequest(board, HERO, [10], "Block", {"phase": "attack", "play": "4"}), None).legal
    with pytest.raises(UsageError):
        RULESET.check(AttackRequest(board, HERO, [10], "Fireball", {}))
