"""What the odds show, and nonsense stats (issue #15 items 1-6): regression tests."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from game.commands.odds import bar_chart, summary_line
from game.core.board import Board, Figure
from game.core.dice import ScriptedDice
from game.designer.lint import lint_board
from game.rules.base import AttackRequest, Odds
from game.rules.registry import get_ruleset

FOLK = get_ruleset("folklore")


def duel(ruleset: str, attacker: dict[str, object], target: dict[str, object]) -> Board:
    board = Board.from_ascii(["...."], ruleset=ruleset)
    board.place_figure(Figure(1, "A", "red", (1, 0), attacker))
    board.place_figure(Figure(2, "B", "blue", (2, 0), target))
    return board


def exact_death_by_resolve(board: Board) -> Fraction:
    """The chance of death by resolving every scripted roll (hit 2D6, damage 1D6 + criticals,
    death 2D6; the target is incapacitated, so no dodge)."""
    dead = Fraction(0)
    for hit in itertools.product(range(1, 7), repeat=2):
        extra = hit.count(6) if hit.count(6) >= 2 else 0
        for damage in itertools.product(range(1, 7), repeat=1 + extra):
            for death in itertools.product(range(1, 7), repeat=2):
                dice = ScriptedDice([list(hit), [], list(damage), list(death)], FOLK.pools)
                result = FOLK.resolve(AttackRequest(board, 1, [2], None, {}), dice)
                if result.outcome["dead"]:
                    dead += Fraction(1, 36 * 6 ** (1 + extra) * 36)
    return dead


def test_max_hp_damage_on_an_incapacitated_target_makes_the_death_check_as_attack_does():
    board = duel("folklore", {"valour": 3, "hp": 9, "weapons": "Curse:valour:2:melee:maxhp"},
                 {"hp": 0, "max_hp": 9, "armour": 1, "valour": 3, "incapacitated": True})
    odds = FOLK.odds(AttackRequest(board, 1, [2], None, {}))
    death = dict(odds.chances)["killed (death)"]
    assert death == exact_death_by_resolve(board)
    assert odds.kill == death and death > Fraction(1, 3)  # was the max-HP-0 chance alone


def test_folklore_odds_show_hit_incapacitated_and_death():
    board = duel("folklore", {"valour": 4, "hp": 9, "weapons": "Sword:valour:2:melee"},
                 {"hp": 5, "max_hp": 5, "senses": 3, "armour": 1, "valour": 2})
    odds = FOLK.odds(AttackRequest(board, 1, [2], None, {}))
    chances = dict(odds.chances)
    assert list(chances) == ["hit", "incapacitated", "killed (death)"]
    assert chances["hit"] < 1 and chances["incapacitated"] == odds.kill
    assert chances["killed (death)"] == chances["incapacitated"] * Fraction(21, 36)  # 2D6 < 8
    assert "misses and hits armour soaks" in odds.note


def test_conquest_odds_show_broken_and_slain():
    rules = get_ruleset("conquest")
    board = duel("conquest", {"attacks": 4, "clash": 3}, {"defence": 1, "wound_limit": 2, "resolve": 3})
    odds = rules.odds(AttackRequest(board, 1, [2], "Clash", {}))
    chances = dict(odds.chances)
    tested = sum(p for w, p in odds.distribution.items() if w >= 2)
    assert chances["Slain"] == odds.kill
    assert chances["Broken! and Driven Back"] + chances["Slain"] == tested
    assert "before the Resolve test" in odds.note


def test_mage_knight_assign_says_knock_out_not_kill():
    rules = get_ruleset("mage_knight")
    board = duel("mage_knight", {"armor": 2, "hand_limit": 5, "level": 1},
                 {"enemy": True, "attack": 4, "armor": 3, "fame": 2})
    odds = rules.odds(AttackRequest(board, 1, [2], None, {"phase": "assign"}))
    assert odds.shown_chances()[0][0] == "knocked out" and odds.kill_label == "knock-out"
    assert "kill" not in summary_line(odds)


def test_odds_text_prints_the_note_and_chances(capsys):
    from game.cli import main

    assert main(["odds", "maps/folklore.tmx", "Kiku", "Oni"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("note: ") and "hit " in out[-2] and "killed (death)" in out[-2]


def test_a_long_zero_tail_is_folded():
    dist = {k: Fraction(1, 2**k) for k in range(1, 700)}
    dist[0] = 1 - sum(dist.values(), Fraction(0))
    lines = bar_chart(Odds(dist, Fraction(1), None, "wounds"))
    assert len(lines) < 20 and "or more" in lines[-1]


def test_every_exhausted_card_gives_its_reason():
    rules = get_ruleset("arcadia")
    board = duel("arcadia", {"attacks": "Short Bow:ranged:2; Dagger:melee:2", "exhausted": "Short Bow, Dagger"},
                 {"life": 3})
    reason = rules.check(AttackRequest(board, 1, [2], None, {})).reason
    assert "Short Bow is exhausted" in reason and "Dagger is exhausted" in reason


@pytest.mark.parametrize(
    ("ruleset", "attacker", "target", "words"),
    [
        ("arcadia", {"attacks": "Dagger:melee:2"}, {"life": 0}, "'life' is 0"),
        ("mage_knight", {"armor": 2, "hand_limit": 5}, {"enemy": True, "attack": 3, "armor": 3,
                                                         "abilities": "Elusive"}, "elusive_armor is missing"),
        ("conquest", {"attacks": 3, "clash": 0}, {"defence": 1}, "'clash' is 0"),
        ("folklore", {"valour": 3, "hit_dice": 0, "weapons": "Sword:valour:1:melee"}, {"hp": 5}, "'hit_dice' is 0"),
    ],
)
def test_nonsense_stats_get_a_finding_and_the_same_refusal(ruleset, attacker, target, words):
    board = duel(ruleset, {"hp": 9, **attacker} if ruleset == "folklore" else attacker, target)
    rules = get_ruleset(ruleset)
    findings = [f for f in lint_board(board) if f.code == "property-nonsense"]
    assert findings and words in findings[0].message
    options = {"phase": "attack", "play": "5"} if ruleset == "mage_knight" else {}
    verdict = rules.check(AttackRequest(board, 1, [2], None, options))
    assert not verdict.legal and words in verdict.reason


def test_non_finite_and_absurd_numbers_are_property_value_findings():
    for value in (float("nan"), float("inf"), 10**30, "1e999"):
        board = duel("arcadia", {"attacks": "Dagger:melee:2"}, {"life": value})
        codes = [f.code for f in lint_board(board) if f.object_id == 2]
        assert "property-value" in codes, value
