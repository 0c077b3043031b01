"""Mage Knight abilities beyond the first twenty vectors: Summon, Vampiric, Cumbersome, Arcane
Immunity, city bonuses and Defend (vectors MK-21 … MK-29 of docs/mage-knight.md)."""

from __future__ import annotations

import pytest

from game.core.board import Board, Figure
from game.core.errors import UsageError
from game.rules.base import AttackRequest, NoDice, Resolution
from game.rules.mage_knight.ruleset import RULESET

HERO = 1


def combat(*enemies: tuple[str, dict[str, object]], props: dict[str, object] | None = None,
           units: tuple[tuple[str, dict[str, object]], ...] = ()) -> Board:
    """Tovak (id 1, armor 2, hand limit 5), the enemies (ids 2 ...), then his Units."""
    board = Board(8, 2, ruleset="mage_knight", properties=props or {})
    board.place_figure(Figure(HERO, "Tovak", "hero", (0, 0), {"armor": 2, "hand_limit": 5}))
    for i, (name, stats) in enumerate(enemies, start=2):
        board.place_figure(Figure(i, name, "enemies", (i, 0), dict(stats)))
    for j, (name, stats) in enumerate(units, start=20):
        board.place_figure(Figure(j, name, "hero", (j - 20, 1), {"unit": True, **stats}))
    return board


def play(board: Board, phase: str, text: str, *targets: int) -> Resolution:
    request = AttackRequest(board, HERO, list(targets or (2,)), None, {"phase": phase, "play": text})
    return RULESET.resolve(request, NoDice())


def texts(res: Resolution) -> list[str]:
    return [s.text for s in res.steps]


SUMMONER = {"attack": 4, "armor": 4, "fame": 4, "abilities": "summon"}
PILE = {"summon_pile": "Medusa:6::paralyze; Minotaur:5:physical:brutal"}


def test_mk21_summon_blocks_the_drawn_token_not_the_summoner() -> None:
    board = combat(("Orc Summoners", SUMMONER), props=PILE)
    verdict = RULESET.check(AttackRequest(board, HERO, [2], None, {"phase": "block", "play": "6"}))
    assert verdict.reason == "Tovak may block Medusa (summoned by Orc Summoners)."  # the window's sentence
    res = play(board, "block", "6")
    assert res.legal, res.reason
    assert res.outcome["blocked"] is True and res.outcome["needed"] == 6
    assert "Summon: Orc Summoners draws Medusa (a brown token)" in texts(res)[0]
    assert "The summoned Medusa (summoned by Orc Summoners) is blocked and discarded, with no Fame." in texts(res)
    (change,) = res.changes
    assert dict(change.stats) == {"summoned": "Medusa:6::paralyze", "summon_blocked": True}
    RULESET.apply(board, res)
    assert not play(board, "assign", "").legal  # a blocked summoned token deals no damage
    attack = play(board, "attack", "4")  # the summoner is back for the attack phase, Armor 4
    assert attack.outcome["defeated"] == ["Orc Summoners"] and attack.outcome["fame"] == 4


def test_mk22_an_unblocked_token_deals_its_damage_with_its_abilities() -> None:
    board = combat(("Orc Summoners", SUMMONER), props=PILE)
    RULESET.apply(board, play(board, "block", "5"))
    assert board.figure(2).stats["summoned"] == "Medusa:6::paralyze"
    res = play(board, "assign", "")
    assert res.outcome["hero_wounds"] == 3 and res.outcome["paralyzed"] is True
    # a second summoner draws the next token of the pile
    board.place_figure(Figure(3, "Orc Summoners 2", "enemies", (5, 0), dict(SUMMONER)))
    second = play(board, "block", "5", 3)
    assert second.outcome["needed"] == 5 and "Minotaur" in texts(second)[0]


def test_mk23_summon_without_a_token_is_refused_with_one_line() -> None:
    board = combat(("Orc Summoners", SUMMONER))
    verdict = RULESET.check(AttackRequest(board, HERO, [2], None, {"phase": "block", "play": "6"}))
    assert not verdict.legal
    assert verdict.reason.startswith("Summon: Orc Summoners summons a brown token in the block and assign phases")
    assert RULESET.check(AttackRequest(board, HERO, [2], None, {"phase": "attack", "play": "4"})).legal
    with pytest.raises(UsageError, match="summoned token 'Medusa' is not NAME:ATTACK"):
        RULESET.check(AttackRequest(combat(("O", SUMMONER), props={"summon_pile": "Medusa"}), HERO, [2], None,
                                    {"phase": "block", "play": "6"}))


def test_mk24_vampiric_gains_armor_for_each_unit_and_wound() -> None:
    vampire = {"attack": 5, "armor": 4, "fame": 5, "abilities": "vampiric"}
    board = combat(("Vampire", vampire), units=(("Peasants", {"armor": 1}),))
    res = play(board, "assign", "Peasants")
    # Peasants absorb 1 and are wounded (1), 4 damage to Tovak (Armor 2): 2 Wounds into the hand (2)
    assert res.outcome["hero_wounds"] == 2
    assert any(t.startswith("Vampiric: Vampire gains +3 Armor") for t in texts(res))
    RULESET.apply(board, res)
    assert board.figure(2).stats["vampiric_armor"] == 3
    attack = play(board, "attack", "6")
    assert attack.outcome["armor"] == 7 and attack.outcome["defeated"] == []
    assert "Vampiric: Vampire's Armor is +3 for the rest of the combat." in texts(attack)


def test_mk25_cumbersome_move_points_lower_the_attack_for_the_turn() -> None:
    ogre = {"attack": 5, "armor": 5, "fame": 4, "abilities": "cumbersome, swift"}
    board = combat(("Ogre", ogre))
    blocked = play(board, "block", "move 2, block 6")
    assert blocked.outcome["needed"] == 6 and blocked.outcome["blocked"] is True  # Swift: 2 × (5 − 2)
    assert "Cumbersome: 2 Move points lower Ogre's attack 5 → 3 for the rest of the turn." in texts(blocked)
    assert "Block 6 against Ogre's Attack 3, needed 6 (Swift: twice the Attack): blocked." in texts(blocked)
    res = play(board, "block", "move 2, block 5")
    assert res.outcome["blocked"] is False and res.outcome["damage"] == 3
    RULESET.apply(board, res)
    assert board.figure(2).stats["cumbersome_reduction"] == "2"
    assign = play(board, "assign", "")
    assert assign.outcome["hero_wounds"] == 2  # 3 damage, Armor 2
    assert "(Cumbersome: lowered by 2 in the block phase)" in texts(assign)[0]
    assert play(combat(("Ogre", ogre)), "block", "move 5").outcome["blocked"] is True  # 0 counts as blocked
    no = RULESET.check(AttackRequest(combat(("Orcs", {"attack": 3, "armor": 3})), HERO, [2], None,
                                     {"phase": "block", "play": "move 1, block 2"}))
    assert not no.legal and "only a Cumbersome enemy's attack" in no.reason


def test_mk26_arcane_immunity_is_said_and_changes_no_tally() -> None:
    board = combat(("Sorcerers", {"attack": 6, "armor": 6, "fame": 7, "abilities": "arcane immunity"}))
    res = play(board, "attack", "6")
    assert res.outcome["defeated"] == ["Sorcerers"]
    assert texts(res)[0].startswith("Arcane Immunity: Sorcerers ignores non-Attack/Block effects")


@pytest.mark.parametrize(
    ("city", "enemy", "phase", "text", "check"),
    [
        ("white", {"attack": 3, "armor": 5}, "attack", "5", ("armor", 6)),
        ("blue", {"attack": 6, "armor": 5, "element": "fire"}, "block", "7 ice", ("needed", 8)),
        ("blue", {"attack": 5, "armor": 8, "element": "coldfire"}, "block", "6 coldfire", ("needed", 6)),
        ("red", {"attack": 4, "armor": 3}, "block", "3", ("damage", 8)),
        ("blue", {"attack": 4, "armor": 3}, "block", "3", ("damage", 4)),
    ],
)
def test_mk27_city_bonuses(city: str, enemy: dict[str, object], phase: str, text: str,
                           check: tuple[str, int]) -> None:
    board = combat(("Guards", enemy), props={"city": city})
    res = play(board, phase, text)
    key, value = check
    assert res.outcome[key] == value


def test_mk27_green_city_gives_poison_and_a_figure_may_opt_out() -> None:
    board = combat(("Guards", {"attack": 3, "armor": 3}), ("Drakes", {"attack": 3, "armor": 3, "city": "none"}),
                   props={"city": "green"})
    res = play(board, "assign", "", 2, 3)
    assert res.outcome["wounds_discard"] == 2  # Guards' 2 Wounds get Poison's copies; Drakes' do not
    assert "Guards defends a green city: its physical attack gains Poison." in texts(res)
    with pytest.raises(UsageError, match="unknown city 'purple'"):
        RULESET.check(AttackRequest(combat(("G", {"attack": 3, "armor": 3, "city": "purple"})), HERO, [2], None,
                                    {"phase": "attack", "play": "3"}))


def test_mk28_defend_refused_when_targeted_noted_when_beside() -> None:
    board = combat(("Guardians", {"attack": 3, "armor": 5, "abilities": "defend"}), ("Orcs", {"attack": 3, "armor": 3}))
    verdict = RULESET.check(AttackRequest(board, HERO, [2], None, {"phase": "attack", "play": "5"}))
    assert not verdict.legal and "has Defend" in verdict.reason and "the attack is refused" in verdict.reason
    res = play(board, "attack", "3", 3)
    assert res.legal and "Not applied: Defend of Guardians: it may protect Orcs" in " ".join(texts(res))
    assert RULESET.not_applied(AttackRequest(board, HERO, [3], None, {"phase": "attack", "play": "3"}))
    assert "Not applied: Defend of Guardians" in RULESET.odds(
        AttackRequest(board, HERO, [3], None, {"phase": "attack", "play": "3"})).note


def test_mk29_a_hero_target_is_pvp_and_refused() -> None:
    board = combat()
    board.place_figure(Figure(9, "Arythea", "rival", (4, 0), {"armor": 2, "hand_limit": 5}))
    verdict = RULESET.check(AttackRequest(board, HERO, [9], None, {"phase": "attack", "play": "5"}))
    assert not verdict.legal and "combat between players (PvP)" in verdict.reason
