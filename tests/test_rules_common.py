"""What every ruleset does alike, across the four games: typed plays, naming targets, who is down,
the default attack, summaries, wording, odds charts, and what the window asks of a ruleset.

Real rulesets on small boards built in the test, and the real command line on the bundled maps
(maps/demo.tmx, maps/folklore.tmx, maps/mage_knight.tmx, maps/conquest.tmx).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.commands.odds import bar_chart
from game.commands.wording import cli_reason
from game.core.board import Board, Figure
from game.core.dice import NotEnoughFaces, ScriptedDice, SeededDice
from game.core.errors import IllegalAttackError
from game.rules.base import AttackRequest, Odds
from game.rules.registry import get_ruleset

MAPS = Path(__file__).resolve().parent.parent / "maps"
DEMO, FOLKLORE, MK, CONQUEST = (str(MAPS / n) for n in
                                ("demo.tmx", "folklore.tmx", "mage_knight.tmx", "conquest.tmx"))


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def arcadia_board(target_stats: dict[str, object], attacker_attacks: str = "Blade:melee:3") -> Board:
    board = Board.from_ascii(["......"], ruleset="arcadia")
    board.place_figure(Figure(1, "Mark", "red", (1, 0), {"attacks": attacker_attacks, "life": 5}))
    board.place_figure(Figure(2, "Goblin", "monsters", (2, 0), target_stats))
    return board


# --- typed plays: grammar ----------------------------------------------------------------------


@pytest.mark.parametrize("play", ["ranged -3", "-3", "attack - 3 fire", "7, block -2"])
def test_negative_play_value_is_one_line_error(capsys: pytest.CaptureFixture[str], play: str) -> None:
    code, out, err = cli(capsys, "attack", MK, "Tovak", "Prowlers", "--phase", "attack", "--play", play)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "not negative" in err


def test_hyphenated_element_still_reads(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(cli(capsys, "attack", MK, "Tovak", "Prowlers", "--play", "7 cold-fire", "--json")[1])
    assert doc["outcome"]["plays"] == ["Attack 7 coldfire"]


# --- naming targets ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["attack", "odds"])
def test_repeated_target_is_refused(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = cli(capsys, command, MK, "Tovak", "Prowlers, prowlers", "--play", "7")
    assert code == 2 and out == ""
    assert err.strip().endswith("target Prowlers is named twice (name each target once)")


# --- who is down -------------------------------------------------------------------------------


def test_arcadia_wounds_equal_to_life_is_killed_without_the_flag() -> None:
    rules = get_ruleset("arcadia")
    board = arcadia_board({"life": 3, "wounds": 3})
    assert rules.condition(board.figure(2)).down
    verdict = rules.check(AttackRequest(board, 1, [2], None, {}))
    assert not verdict.legal and verdict.reason == "Goblin is already killed."
    with pytest.raises(IllegalAttackError, match="already killed"):
        rules.odds(AttackRequest(board, 1, [2], None, {}))
    assert not rules.resolve(AttackRequest(board, 1, [2], None, {}), SeededDice(1)).legal


def test_arcadia_down_attacker_cannot_attack() -> None:
    rules = get_ruleset("arcadia")
    board = arcadia_board({"life": 3})
    board.update_figure(1, wounds=5)
    assert [o.usable for o in rules.attacks(board, 1)] == [False]
    verdict = rules.check(AttackRequest(board, 1, [2], "Blade", {}))
    assert not verdict.legal and verdict.reason == "Mark is killed and cannot attack."


# --- the default attack: the first one legal on the target -------------------------------------


def test_arcadia_default_attack_is_first_legal(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(cli(capsys, "odds", DEMO, "Fathom", "Hex", "--json")[1])
    assert doc["legal"] is True and "with Harpoon" in doc["reason"]
    doc = json.loads(cli(capsys, "attack", DEMO, "Fathom", "Hex", "--seed", "4", "--json")[1])
    assert doc["legal"] is True and doc["outcome"]["attack"] == "Harpoon"


def test_arcadia_no_legal_attack_lists_the_reasons() -> None:
    rules = get_ruleset("arcadia")
    board = Board.from_ascii(["......"], ruleset="arcadia", walls=["V(2,0)"])
    board.place_figure(Figure(1, "Mark", "red", (1, 0), {"attacks": "Blade:melee:3; Knife:melee:1"}))
    board.place_figure(Figure(2, "Goblin", "monsters", (2, 0), {"life": 2}))
    verdict = rules.check(AttackRequest(board, 1, [2], None, {}))
    assert verdict.reason == "not Close: wall V(2,0) between (1,0) and (2,0)."  # same reason once
    board.place_figure(Figure(3, "Kisha", "red", (0, 0), {"attacks": "Blade:melee:3; Bow:ranged:2"}))
    verdict = rules.check(AttackRequest(board, 3, [2], None, {}))
    assert verdict.reason.startswith("No attack is legal: Blade: not Close: Goblin is 2 squares")
    assert "; Bow: no line of sight: " in verdict.reason


def test_folklore_default_weapon_is_first_legal() -> None:
    rules = get_ruleset("folklore")
    board = Board.from_ascii(["......"], ruleset="folklore")
    stats = {"hp": 10, "max_hp": 10, "wits": 3, "valour": 2,
             "weapons": "Knife:valour:1:melee; Bow:wits:1:ranged"}
    board.place_figure(Figure(1, "Kiku", "party", (0, 0), stats))
    board.place_figure(Figure(2, "Oni", "foes", (4, 0), {"hp": 30, "max_hp": 30, "senses": 1}))
    verdict = rules.check(AttackRequest(board, 1, [2], None, {}))
    assert verdict.legal and verdict.reason == "Kiku can attack Oni with Bow."
    result = rules.resolve(AttackRequest(board, 1, [2], None, {}), SeededDice(3))
    assert result.outcome["weapon"] == "Bow"
    assert rules.odds(AttackRequest(board, 1, [2], None, {})).expected > 0


def test_conquest_default_is_first_legal_of_clash_and_volley() -> None:
    rules = get_ruleset("conquest")
    board = Board.from_ascii(["......"], ruleset="conquest")
    profile = {"attacks": 4, "clash": 2, "barrage": 2, "volley": 2, "range": 8, "wound_limit": 3}
    board.place_figure(Figure(1, "Archer", "A", (0, 0), profile))
    board.place_figure(Figure(2, "Drone", "B", (1, 0), dict(profile)))
    board.place_figure(Figure(3, "Far", "B", (5, 0), dict(profile)))
    assert rules.check(AttackRequest(board, 1, [2], None, {})).reason == "Archer can Clash Drone."
    assert rules.check(AttackRequest(board, 1, [3], None, {})).reason == "Archer can Volley Far."
    board.update_figure(1, range=2)
    reason = rules.check(AttackRequest(board, 1, [3], None, {})).reason
    assert reason.startswith("No attack is legal: Clash: Archer cannot Clash with Far")
    assert "Volley: Far is out of range" in reason


def test_mage_knight_default_phase_is_the_first_legal_one(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(cli(capsys, "attack", MK, "Tovak", "Prowlers", "--play", "block 5", "--json")[1])
    assert doc["legal"] is True and doc["outcome"]["phase"] == "block"
    doc = json.loads(cli(capsys, "attack", MK, "Tovak", "Prowlers", "--play", "7", "--json")[1])
    assert doc["outcome"]["phase"] == "attack"  # the attack phase stays the default when legal


# --- summaries: one sentence that matches the steps -------------------------------------------


def test_folklore_summary_matches_the_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "attack", FOLKLORE, "Kiku", "Oni", "--faces", "6 6 | 1 2 | 3 4 5")
    assert code == 0
    assert "9 real damage" in out and "HP 30 → 21" in out
    assert out.splitlines()[-1] == "Kiku hits Oni with Bow: 9 real damage, HP 30 → 21."


def test_arcadia_summary_is_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "attack", DEMO, "Ember", "Cinder", "--attack", "Short Bow",
                       "--faces", "bow bow | blank")
    assert code == 0
    lines = out.splitlines()
    last = lines[-2]  # the attack's sentence; then its next step: the killed Cinder pays nothing back
    assert "True" not in last and "False" not in last
    assert last == "2 hits against 0 saves: Cinder takes 2 wounds and is killed."
    assert lines[-1] == "Next: No Payback: Cinder is killed."


def test_conquest_summary_counts_wounds_not_hit_faces() -> None:
    rules = get_ruleset("conquest")
    board = Board.from_ascii(["..."], ruleset="conquest")
    board.place_figure(Figure(1, "A", "a", (0, 0), {"attacks": 3, "clash": 2}))
    board.place_figure(Figure(2, "B", "b", (1, 0), {"defence": 1, "wound_limit": 3, "resolve": 2}))
    result = rules.resolve(AttackRequest(board, 1, [2], "Clash", {}), ScriptedDice([[1, 2, 5], [1]], rules.pools))
    assert result.summary == "2 Hits, 1 blocked: B takes 1 Wound (1 of 3)."


def test_mage_knight_summaries(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "attack", MK, "Tovak", "Prowlers", "--play", "7")[1]
    assert out.splitlines()[-1] == "Attack 7 against Armor 3: Prowlers is defeated; Tovak gains 2 Fame."
    out = cli(capsys, "attack", MK, "Tovak", "Prowlers", "--phase", "block", "--play", "1")[1]
    assert out.splitlines()[-1].startswith("Block 1 against ") and "is not blocked" in out


# --- wording: singular and plural; one form for too few faces ---------------------------------


def test_bar_chart_says_1_wound(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "odds", DEMO, "Ember", "Cinder")[1]
    assert "  1 wound " in out and "1 wounds" not in out and "  2 wounds" in out


@pytest.mark.parametrize(
    ("path", "attacker", "target", "faces", "message"),
    [
        (FOLKLORE, "Kiku", "Oni", "6 6 | 1", "--faces: the dodge pool needs 1 more face"),
        (FOLKLORE, "Kiku", "Oni", "", "--faces: the hit pool needs 2 more faces"),
        (CONQUEST, "Longbowman", "Brute Drone", "1 2", "--faces: the attack pool needs 1 more face"),
        (DEMO, "Ember", "Cinder", "bow", "--faces: the attack pool needs 1 more face (2 dice)"),
    ],
)
def test_faces_shortage_has_one_form(capsys: pytest.CaptureFixture[str], path: str, attacker: str,
                                     target: str, faces: str, message: str) -> None:
    code, _, err = cli(capsys, "attack", path, attacker, target, "--faces", faces)
    assert code == 2 and err.strip().endswith(message)


def test_face_counter_raises_not_enough_faces() -> None:
    rules = get_ruleset("folklore")
    board = Board.from_ascii(["..."], ruleset="folklore")
    board.place_figure(Figure(1, "K", "a", (0, 0), {"hp": 5, "weapons": "Knife:valour:1:melee"}))
    board.place_figure(Figure(2, "O", "b", (1, 0), {"hp": 5}))
    with pytest.raises(NotEnoughFaces, match="the hit pool needs 1 more face$"):
        rules.resolve(AttackRequest(board, 1, [2], None, {}), ScriptedDice([[3]], rules.pools))


def test_mage_knight_block_count_message_is_pluralised() -> None:
    rules = get_ruleset("mage_knight")
    board = Board.from_ascii(["..."], ruleset="mage_knight")
    board.place_figure(Figure(1, "Tovak", "hero", (0, 0), {"level": 1}))
    board.place_figure(Figure(2, "Orcs", "enemies", (1, 0), {"attack": 3, "armor": 3}))
    verdict = rules.check(AttackRequest(board, 1, [2], None, {"phase": "block", "play": "3; 2"}))
    assert verdict.reason == "Orcs has 1 attack but the play has 2 ';'-separated blocks."
    assert cli_reason(verdict.reason, verdict.problem) == \
        "Orcs has 1 attack but --play has 2 ';'-separated blocks."


# --- odds charts: impossible outcomes left out -------------------------------------------------


def test_zero_dice_attack_prints_one_row() -> None:
    rules = get_ruleset("arcadia")
    board = arcadia_board({"life": 50}, "Nothing:melee:0")
    odds = rules.odds(AttackRequest(board, 1, [2], None, {}))
    assert odds.distribution[0] == 1
    assert bar_chart(odds) == ["  0 wounds  100.0% " + "█" * 40]


def test_bar_chart_keeps_impossible_outcomes_below_the_maximum() -> None:
    odds = Odds({0: Fraction(1, 2), 1: Fraction(0), 2: Fraction(1, 2), 3: Fraction(0)},
                Fraction(1), None, "wounds")
    assert [line.split()[0] for line in bar_chart(odds, 4)] == ["0", "1", "2"]



def test_conquest_says_1_die_and_1_square() -> None:
    rules = get_ruleset("conquest")
    board = Board.from_ascii(["..."], ruleset="conquest")
    board.place_figure(Figure(1, "A", "a", (0, 0), {"attacks": 1, "clash": 1, "barrage": 1,
                                                    "volley": 1, "range": 0}))
    board.place_figure(Figure(2, "B", "b", (1, 0), {"defence": 1, "wound_limit": 3}))
    result = rules.resolve(AttackRequest(board, 1, [2], "Clash", {}), ScriptedDice([[1], [6]], rules.pools))
    assert result.steps[0].text == "A rolls 1 die for a Clash: 1."
    assert "B rolls 1 Block die (defence): 6." in [s.text for s in result.steps]
    assert rules.check(AttackRequest(board, 1, [2], "Volley", {})).reason.startswith(
        "B is out of range: 1 square away")


def test_arcadia_odds_leave_out_impossible_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    rules = get_ruleset("arcadia")
    odds = rules.odds(AttackRequest(arcadia_board({"life": 50}, "Nothing:melee:0"), 1, [2], None, {}))
    assert odds.distribution == {0: 1} and odds.kill == 0
    odds = rules.odds(AttackRequest(arcadia_board({"life": 2}, "Blade:melee:3"), 1, [2], None, {}))
    assert sorted(odds.distribution) == [0, 1, 2] and sum(odds.distribution.values()) == 1


# --- what the window asks of a ruleset: determinism, menus, choices, comparisons ----------------


def test_only_mage_knight_is_deterministic() -> None:
    flags = {name: get_ruleset(name).deterministic
             for name in ("arcadia", "mage_knight", "conquest", "folklore")}
    assert flags == {"arcadia": False, "mage_knight": True, "conquest": False, "folklore": False}


def mk_board() -> Board:
    board = Board.from_ascii(["...."], ruleset="mage_knight")
    board.place_figure(Figure(1, "Tovak", "hero", (0, 0), {"level": 1}))
    board.place_figure(Figure(2, "Orcs", "enemies", (1, 0), {"attack": 3, "armor": 3}))
    board.place_figure(Figure(3, "Wolves", "enemies", (2, 0), {"attack": 3, "armor": 4}))
    return board


def test_mage_knight_menu_says_targets_and_typed_play() -> None:
    menu = {o.name: o for o in get_ruleset("mage_knight").attacks(mk_board(), 1)}
    assert {n: o.max_targets for n, o in menu.items()} == {
        "Ranged/Siege": None, "Block": 1, "Assign damage": None, "Attack": None}
    assert {n: o.entry_required for n, o in menu.items()} == {
        "Ranged/Siege": True, "Block": True, "Assign damage": False, "Attack": True}
    assert menu["Block"].entry == "e.g. 6 ice, 2" and all(o.entry for o in menu.values())
    # dice rules take one target and nothing typed
    arcadia = get_ruleset("arcadia").attacks(arcadia_board({"life": 3}), 1)
    assert [(o.max_targets, o.entry, o.entry_required) for o in arcadia] == [(1, "", False)]


def test_mage_knight_comparison_of_a_tally() -> None:
    rules, board = get_ruleset("mage_knight"), mk_board()
    attack = rules.comparison(rules.resolve(AttackRequest(board, 1, [2, 3], "Attack", {"play": "5"}), None))
    assert attack is not None and (attack.value, attack.needed) == (5, 7)
    assert attack.caption == "attack 5 vs armour 7: not enough"
    block = rules.comparison(rules.resolve(AttackRequest(board, 1, [2], "Block", {"play": "3"}), None))
    assert block is not None and (block.value, block.needed) == (3, 3) and "blocked" in block.caption
    assert get_ruleset("arcadia").comparison(
        get_ruleset("arcadia").resolve(AttackRequest(arcadia_board({"life": 3}), 1, [2], None, {}), SeededDice(1))
    ) is None


def test_conquest_block_stat_is_a_choice_with_the_targets_numbers() -> None:
    rules = get_ruleset("conquest")
    board = Board.from_ascii(["..."], ruleset="conquest")
    board.place_figure(Figure(1, "A", "red", (0, 0), {"clash": 2}))
    board.place_figure(Figure(2, "B", "blue", (1, 0), {"defence": 1, "evasion": 2}))
    (choice,) = rules.choices(board, 1, [2])
    assert choice.key == "block_stat" and choice.label == "Block" and choice.default is None
    assert choice.values == ((None, "higher (Evasion 2)"), ("defence", "Defence 1"),
                             ("evasion", "Evasion 2"))
    # no single target: the same choice without numbers; other rules give none
    assert [label for _, label in rules.choices(board, 1, [])[0].values] == [
        "higher", "Defence", "Evasion"]
    assert get_ruleset("arcadia").choices(arcadia_board({"life": 3}), 1, [2]) == []


def test_mage_knight_one_target_names_no_sum() -> None:
    rules, board = get_ruleset("mage_knight"), mk_board()
    one = [s.text for s in rules.resolve(AttackRequest(board, 1, [2], "Attack", {"play": "5"}), None).steps]
    # (issue #12: "Armor Orcs 3" read like a stat called "Armor Orcs": the total comes first)
    assert "Attack 5 against Armor 3 (Orcs): every target is defeated." in one
    two = [s.text for s in rules.resolve(AttackRequest(board, 1, [2, 3], "Attack", {"play": "5"}), None).steps]
    assert "Attack 5 against Armor 7 (Orcs 3 + Wolves 4): not enough, no effect." in two


def test_no_line_of_sight_reason_has_one_full_stop() -> None:
    rules = get_ruleset("folklore")
    board = Board.from_ascii(["...."], walls=["V(1,0)", "V(2,0)"], ruleset="folklore")
    board.place_figure(Figure(1, "K", "a", (0, 0), {"hp": 5, "weapons": "Bow:wits:1:ranged"}))
    board.place_figure(Figure(2, "O", "b", (3, 0), {"hp": 5}))
    reason = rules.check(AttackRequest(board, 1, [2], None, {})).reason
    assert reason.endswith("between (0,0) and (1,0) (1 more blocker further on).")
    assert ".)" not in reason and ". (" not in reason
