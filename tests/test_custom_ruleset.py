"""A ruleset file as a Ruleset: menus, legality (Close, line of sight, range), condition, stat
checks, faces of a physical roll, deterministic files, and a bundled map played by a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.core.board import Board, Figure
from game.core.dice import NotEnoughFaces, ScriptedDice, SeededDice, parse_faces
from game.core.errors import IllegalAttackError, UsageError
from game.play.ruleset_file import read_ruleset_file
from game.rules.base import AttackRequest
from game.rules.custom import load_ruleset
from game.rules.registry import get_ruleset

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "rulesets"


def ironclad():  # type: ignore[no-untyped-def]
    return read_ruleset_file(EXAMPLES / "ironclad.toml")


def field(*figures: Figure, walls: tuple[str, ...] = ()) -> Board:
    board = Board.from_ascii(["......"] * 3, walls=list(walls))
    for figure in figures:
        board.place_figure(figure)
    return board


KNIGHT = {"attacks": 3, "shots": 2, "range": 3, "skill": 3, "strength": 4}
OGRE = {"toughness": 4, "save": 5, "wounds": 3}


def test_menu_lists_the_attacks_a_figure_has() -> None:
    rules = ironclad()
    board = field(Figure(1, "Knight", "red", (1, 1), KNIGHT), Figure(2, "Ogre", "blue", (2, 1), OGRE),
                  Figure(3, "Page", "red", (0, 0), {"attacks": 1}))
    assert [(o.name, o.kind, o.dice, o.usable) for o in rules.attacks(board, 1)] == [
        ("Strike", "melee", 3, True), ("Shoot", "ranged", 2, True)]
    assert [o.name for o in rules.attacks(board, 3)] == ["Strike"]
    board.update_figure(1, out=True)
    assert [o.usable for o in rules.attacks(board, 1)] == [False, False]
    assert rules.targets(board, 3) == [2]


def test_legality_close_sight_range_and_sides() -> None:
    rules = ironclad()
    knight, ogre = Figure(1, "Knight", "red", (1, 1), KNIGHT), Figure(2, "Ogre", "blue", (2, 1), OGRE)
    board = field(knight, ogre)
    assert rules.check(AttackRequest(board, 1, [2], "Strike")).legal
    assert rules.check(AttackRequest(board, 1, [2], None)).reason.startswith("Knight can attack Ogre with Strike")
    walled = field(knight, ogre, walls=("V(2,1)",))
    verdict = rules.check(AttackRequest(walled, 1, [2], "Strike"))
    assert not verdict.legal and "melee" in verdict.reason and "wall" in verdict.reason
    assert not rules.check(AttackRequest(walled, 1, [2], "Shoot")).legal  # the wall blocks sight too
    far = field(knight, Figure(2, "Ogre", "blue", (5, 1), OGRE))
    assert rules.check(AttackRequest(far, 1, [2], "Shoot")).reason == (
        "Ogre is out of range: 4 squares away, the range of Shoot is 3.")
    near = field(knight, Figure(2, "Ogre", "blue", (4, 2), OGRE))
    assert rules.check(AttackRequest(near, 1, [2], "Shoot")).legal  # 3 squares, diagonals count one
    ally = field(knight, Figure(2, "Squire", "red", (2, 1), OGRE))
    assert "ally" in rules.check(AttackRequest(ally, 1, [2], "Strike")).reason
    assert "itself" in rules.check(AttackRequest(board, 1, [1], "Strike")).reason
    board.update_figure(2, out=True)
    assert rules.check(AttackRequest(board, 1, [2], "Strike")).reason == "Ogre is already down."
    with pytest.raises(IllegalAttackError):
        rules.odds(AttackRequest(board, 1, [2], "Strike"))
    assert not rules.resolve(AttackRequest(board, 1, [2], "Strike"), SeededDice(1)).legal
    with pytest.raises(UsageError, match="Knight has no attack 'Bite' \\(attacks: Strike, Shoot\\)"):
        rules.check(AttackRequest(field(knight, ogre), 1, [2], "Bite"))


def test_stats_out_of_range_or_not_numbers() -> None:
    rules = ironclad()
    odd = Figure(1, "Knight", "red", (1, 1), {**KNIGHT, "skill": 9, "blessed": "maybe"})
    assert rules.nonsense(odd) == ["property 'skill' is 9: more than the 6 these rules allow (use 6 or less)"]
    assert rules.figure_problems(odd) == ["property 'blessed' must be true or false, not 'maybe'"]
    board = field(Figure(1, "Knight", "red", (1, 1), {**KNIGHT, "skill": 9}), Figure(2, "Ogre", "blue", (2, 1), OGRE))
    assert "more than the 6" in rules.check(AttackRequest(board, 1, [2], "Strike")).reason
    assert {"skill", "toughness", "side"} <= rules.known_properties


def test_condition_and_changes() -> None:
    rules = ironclad()
    board = field(Figure(1, "Knight", "red", (1, 1), {**KNIGHT, "attacks": 12, "strength": 9, "skill": 2}),
                  Figure(2, "Ogre", "blue", (2, 1), {**OGRE, "save": 7, "taken": 1}))
    assert rules.condition(board.figure(2)).remaining == 2
    result = rules.resolve(AttackRequest(board, 1, [2], "Strike"), SeededDice(2))
    rules.apply(board, result)
    ogre = board.figure(2)
    assert ogre.stats["taken"] == 3 and ogre.stats["out"] is True and rules.condition(ogre).down
    assert result.sentence().startswith("Ogre: ") and result.sentence().endswith("taken out.")
    json.dumps(result.as_json())
    assert [s.kind for s in result.steps][-2:] == ["damage", "status"]


def test_odds_as_json_and_the_chain_target_speed_shape() -> None:
    rules = ironclad()
    board = field(Figure(1, "Knight", "red", (1, 1), {**KNIGHT, "attacks": 20}), Figure(2, "Ogre", "blue", (2, 1), OGRE))
    odds = rules.odds(AttackRequest(board, 1, [2], "Strike"))
    assert sum(odds.distribution.values()) == 1 and max(odds.distribution) == 3  # capped at wounds left
    doc = odds.as_json()
    assert doc["label"] == "damage" and doc["chances"]["taken out"] == pytest.approx(float(odds.kill))  # type: ignore[index]


def test_faces_by_symbol_and_short_faces() -> None:
    rules = read_ruleset_file(EXAMPLES / "arcadia.toml")
    board = field(Figure(1, "Mark", "red", (1, 1), {"melee": 2}), Figure(2, "Goblin", "blue", (2, 1), {"life": 3, "defense": 1}))
    faces = parse_faces("crit sword bow | shield", pools=rules.pools, names=rules.face_names)
    result = rules.resolve(AttackRequest(board, 1, [2], "Melee"), ScriptedDice(faces, rules.pools))
    assert [r.face for r in result.rolls()] == ["crit", "sword", "bow", "shield"]
    assert [r.reason for r in result.rolls()][2] == "explosion of die 1"
    assert result.outcome["damage"] == 1
    with pytest.raises(NotEnoughFaces, match="the attack pool needs 1 more face"):
        rules.resolve(AttackRequest(board, 1, [2], "Melee"),
                      ScriptedDice(parse_faces("crit crit", pools=rules.pools, names=rules.face_names), rules.pools))
    with pytest.raises(UsageError, match="unknown face 'swrod'"):
        parse_faces("swrod", pools=rules.pools, names=rules.face_names)


def test_symbols_and_numbers_in_one_ruleset_take_faces_as_typed() -> None:
    rules = load_ruleset('''
name = "mixed"
[dice]
rune = ["fire", "fire+fire", "blank"]
d6 = "d6"
[attacks.Cast]
kind = "ranged"
[[resolution.steps]]
step = "count"
die = "rune"
dice = 2
symbols = ["fire"]
into = "fire"
[[resolution.steps]]
step = "successes"
die = "d6"
dice = "fire"
at_least = 4
into = "burns"
[resolution.outcome]
value = "burns"
''', "mixed.toml")
    assert rules.face_names is not None and {"fire+fire", "blank", "4"} <= rules.face_names
    board = field(Figure(1, "Mage", "red", (0, 0)), Figure(2, "Orc", "blue", (4, 2)))
    faces = parse_faces("fire+fire blank | 4 1", pools=rules.pools, names=rules.face_names)
    result = rules.resolve(AttackRequest(board, 1, [2], None), ScriptedDice(faces, rules.pools))
    assert result.outcome["burns"] == 1 and [r.face for r in result.rolls()] == ["fire+fire", "blank", 4, 1]


def test_a_file_without_dice_is_deterministic() -> None:
    rules = read_ruleset_file(EXAMPLES / "siege.toml")
    assert rules.deterministic and rules.pools == ()
    board = field(Figure(1, "Hero", "red", (0, 0), {"ranged": 8, "attack": 3, "fame": 2}),
                  Figure(2, "Keep", "blue", (3, 0), {"armour": 3, "fortified": True, "worth": 4}))
    odds = rules.odds(AttackRequest(board, 1, [2], "Volley"))
    assert odds.distribution == {1: 1} and odds.kill == 1
    result = rules.resolve(AttackRequest(board, 1, [2], "Volley"), SeededDice(0))
    rules.apply(board, result)
    assert board.figure(1).stats["fame"] == 6 and rules.condition(board.figure(2)).down
    assert not rules.check(AttackRequest(board, 1, [2], "Assault")).legal


def test_a_bad_expression_at_play_time_is_one_line() -> None:
    rules = load_ruleset('''
name = "divide"
[stats]
n = 0
[attacks.Poke]
kind = "melee"
[[resolution.steps]]
step = "compute"
set = { x = "6 // target.n" }
[resolution.outcome]
value = "x"
''', "divide.toml")
    board = field(Figure(1, "A", "red", (0, 0)), Figure(2, "B", "blue", (1, 0)))
    with pytest.raises(UsageError, match=r"^divide.toml: the expression 'x = 6 // target.n' divides by zero"):
        rules.odds(AttackRequest(board, 1, [2], None))


def test_the_bundled_conquest_map_played_by_the_file_agrees_with_the_builtin() -> None:
    from game.tiled import load_map

    board = load_map(str(REPO / "maps" / "conquest.tmx")).board
    builtin, custom = get_ruleset("conquest"), read_ruleset_file(EXAMPLES / "conquest.toml")
    compared = 0
    plain = [f for f in board.figures.values() if not str(f.stats.get("rules", "")).strip()]
    for a in plain:
        menu = [o.name for o in custom.attacks(board, a.id)]
        assert menu == [o.name for o in builtin.attacks(board, a.id)]
        for t in plain:
            for attack in menu:
                request = AttackRequest(board, a.id, [t.id], attack)
                first, second = builtin.check(request), custom.check(request)
                assert first.legal == second.legal, (a.name, t.name, attack, first, second)
                if first.legal:
                    assert builtin.odds(request).distribution == custom.odds(request).distribution
                    compared += 1
    assert compared >= 3
