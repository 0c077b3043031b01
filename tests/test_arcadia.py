"""Arcadia Quest combat through the engine: vectors D1–D11 and C1–C5 of docs/arcadia.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.core.board import Board, Edge, Figure
from game.core.dice import NotEnoughFaces, ScriptedDice, SeededDice, parse_faces
from game.core.errors import IllegalAttackError, UsageError
from game.rules.arcadia.ruleset import RULESET, close_reason, parse_attacks
from game.rules.base import AttackRequest, Resolution
from game.rules.registry import get_ruleset

HERO = {"attacks": "Dusty Blade:melee:3; Long Bow:ranged:3; Short Bow:ranged:2; Dagger:melee:1", "life": 5}


def board_with(
    target_stats: dict[str, object] | None = None,
    *,
    target_square: tuple[int, int] = (3, 2),
    target_side: str = "monsters",
    walls: tuple[str, ...] = (),
    doors: dict[str, str] | None = None,
    attacker_stats: dict[str, object] | None = None,
    properties: dict[str, object] | None = None,
) -> Board:
    """A 6×5 open board: Mark (id 1, red) on (2,2), the target (id 2) on ``target_square``."""
    board = Board.from_ascii(["......"] * 5, walls=walls, doors=doors, properties=properties or {})
    board.place_figure(Figure(1, "Mark", "red", (2, 2), {**HERO, **(attacker_stats or {})}))
    board.place_figure(Figure(2, "Goblin", target_side, target_square, dict(target_stats or {"life": 3})))
    return board


def resolve(board: Board, attack: str, faces: str, target: int = 2) -> Resolution:
    dice = ScriptedDice(parse_faces(faces, pools=RULESET.pools, names=RULESET.face_names), RULESET.pools)
    return RULESET.resolve(AttackRequest(board, 1, [target], attack, {}), dice)


def outcome(res: Resolution) -> tuple[int, int, int]:
    return res.outcome["hits"], res.outcome["saves"], res.outcome["damage"]  # type: ignore[return-value]


# --- D: dice resolution -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "attack", "defence", "faces", "expected"),
    [
        ("D1", "Dusty Blade", 1, "sword sword bow | shield", (2, 1, 1)),
        ("D2", "Long Bow", 1, "sword sword bow | shield", (1, 1, 0)),
        ("D3", "Dusty Blade", 0, "crit bow bow sword", (2, 0, 2)),
        ("D4", "Short Bow", 0, "bow crit crit sword", (3, 0, 3)),
        ("D6", "Dagger", 0, "crit crit crit bow", (3, 0, 3)),
        ("D7", "Dusty Blade", 3, "sword sword sword | shield shield crit shield", (3, 4, 0)),
        ("D9", "Dusty Blade", 0, "sword bow crit bow", (2, 0, 2)),
    ],
)
def test_dice_vectors(vector: str, attack: str, defence: int, faces: str, expected: tuple[int, int, int]) -> None:
    stats: dict[str, object] = {"life": 9}
    if defence:
        stats["defense"] = defence
    res = resolve(board_with(stats), attack, faces)
    assert res.legal, res.reason
    assert outcome(res) == expected, vector


def test_d5_defence_explosion_jaimie() -> None:
    board = board_with({"life": 9, "defense": 2, "defense_bonus": 1})
    res = resolve(board, "Dagger", "sword | shield crit blank blank")
    assert res.outcome["defence_dice"] == 3
    assert outcome(res) == (1, 2, 0)
    explode = [s for s in res.steps if s.kind == "explode"]
    assert [(r.pool, r.face, r.reason) for s in explode for r in s.rolls] == [("defence", "blank", "explosion of die 2")]


def test_d8_dazed_target_rolls_no_defence() -> None:
    board = board_with({"life": 9, "defense": 2, "dazed": True})
    res = resolve(board, "Short Bow", "bow bow")
    assert outcome(res) == (2, 0, 2)
    assert res.outcome["defence_dice"] == 0
    assert any(s.kind == "note" and "dazed" in s.text for s in res.steps)
    # giving defence faces for a dazed target is an error: nobody rolls them
    with pytest.raises(UsageError, match="defence pool has 1 extra face"):
        resolve(board, "Short Bow", "bow bow | shield")


def test_d9_monster_without_defence_rolls_nothing() -> None:
    res = resolve(board_with({"life": 9}), "Dusty Blade", "sword bow crit bow")
    assert res.outcome["defence_dice"] == 0
    assert any(s.kind == "note" and "no defence" in s.text for s in res.steps)


def test_d10_bonus_dice_make_the_pools() -> None:
    board = board_with({"life": 9, "defense": 2, "defense_bonus": 1}, attacker_stats={"attack_bonus": 1})
    res = resolve(board, "Dusty Blade", "sword sword sword sword | blank blank blank")
    assert res.outcome["attack_dice"] == 4 and res.outcome["defence_dice"] == 3
    assert outcome(res) == (4, 0, 4)
    with pytest.raises(NotEnoughFaces, match="the attack pool needs 1 more face \\(4 dice\\)"):
        resolve(board, "Dusty Blade", "sword sword sword | blank blank blank")
    with pytest.raises(NotEnoughFaces, match="the defence pool needs 2 more faces \\(3 dice \\+ 1 explosion\\)"):
        resolve(board, "Dusty Blade", "sword sword sword sword | crit blank")
    # options add dice too (the window's bonus spinner)
    dice = ScriptedDice([["sword"] * 5, ["blank"] * 3], RULESET.pools)
    res = RULESET.resolve(AttackRequest(board, 1, [2], "Dusty Blade", {"attack_bonus": 1}), dice)
    assert res.outcome["attack_dice"] == 5


def test_d11_wounds_reaching_life_kill() -> None:
    board = board_with({"life": 5, "wounds": 3}, target_side="blue")
    res = resolve(board, "Dagger", "crit sword")
    assert outcome(res) == (2, 0, 2)
    assert res.outcome["killed"] is True and res.outcome["wounds"] == 5
    RULESET.apply(board, res)
    goblin = board.figure(2)
    assert goblin.stats["wounds"] == 5 and goblin.stats["killed"] is True
    assert goblin.square == (3, 2)  # marked, not removed
    assert board.figure(1).stats["exhausted"] == "Dagger"


def test_overkill_caps_wounds_at_life_but_reports_damage() -> None:
    board = board_with({"life": 2, "wounds": 1})
    res = resolve(board, "Dusty Blade", "sword sword sword")
    assert res.outcome["damage"] == 3 and res.outcome["wounds"] == 2 and res.outcome["killed"] is True


def test_steps_are_ordered_and_complete() -> None:
    board = board_with({"life": 3, "defense": 1})
    res = resolve(board, "Dusty Blade", "crit bow bow sword | crit blank")
    kinds = [s.kind for s in res.steps]
    assert kinds == ["roll", "explode", "tally", "roll", "explode", "tally", "compare", "damage", "status"]
    assert [r.face for r in res.rolls()] == ["crit", "bow", "bow", "sword", "crit", "blank"]
    assert res.steps[0].text == "Mark rolls 3 attack dice (Dusty Blade, melee): crit, bow, bow."
    assert res.steps[6].text == "2 hits − 1 save: 1 wound."
    doc = res.as_json()
    assert set(doc) == {"legal", "reason", "steps", "outcome"}
    assert doc["outcome"]["hits"] == 2 and doc["steps"][0]["rolls"][0] == {  # type: ignore[index]
        "pool": "attack", "die": "attack", "face": "crit", "reason": "rolled"
    }


def test_resolve_is_pure_and_apply_changes_the_board() -> None:
    board = board_with({"life": 3})
    version = board.version
    res = resolve(board, "Dusty Blade", "sword sword bow")
    assert board.version == version and "wounds" not in board.figure(2).stats
    RULESET.apply(board, res)
    assert board.figure(2).stats["wounds"] == 2 and "killed" not in board.figure(2).stats
    assert board.figure(1).stats["exhausted"] == "Dusty Blade"
    # the card is now exhausted
    again = resolve(board, "Dusty Blade", "sword")
    assert not again.legal and again.reason == "Dusty Blade is exhausted."
    assert again.steps == () and again.changes == ()


def test_seeded_resolution_replays_and_pins() -> None:
    board = board_with({"life": 9, "defense": 2})
    first = RULESET.resolve(AttackRequest(board, 1, [2], "Dusty Blade", {}), SeededDice(11))
    second = RULESET.resolve(AttackRequest(board, 1, [2], "Dusty Blade", {}), SeededDice(11))
    assert first == second and first.seed == 11 and first.as_json()["seed"] == 11
    assert [r.face for r in first.rolls()] == PINNED_SEED_11


PINNED_SEED_11 = ["sword", "bow", "crit", "sword", "blank", "blank"]


def test_map_property_overrides_the_face_tables() -> None:
    board = board_with({"life": 9}, properties={"attack_die": "sword,sword,sword,sword,sword,crit"})
    odds = RULESET.odds(AttackRequest(board, 1, [2], "Long Bow", {}))
    assert odds.distribution[0] == Fraction(125, 216)  # no bow face: only the crit hits in ranged
    with pytest.raises(UsageError, match="not a face of the attack die"):
        resolve(board, "Dusty Blade", "bow bow bow")
    bad = board_with({"life": 9}, properties={"defense_die": "shield,axe"})
    with pytest.raises(UsageError, match="unknown faces axe"):
        RULESET.odds(AttackRequest(bad, 1, [2], "Dusty Blade", {}))


# --- C: Close / melee reach ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "square", "walls", "doors", "legal", "reason"),
    [
        ("C1", (2, 2), (), None, True, "Goblin is in the same Space."),
        ("C2", (3, 2), (), None, True, "Goblin is Close."),
        ("C3 wall", (3, 2), ("V(3,2)",), None, False, "not Close: wall V(3,2) between (2,2) and (3,2)."),
        ("C3 closed door", (3, 2), (), {"V(3,2)": "closed"}, False,
         "not Close: closed door V(3,2) between (2,2) and (3,2)."),
        ("C3 locked door", (3, 2), (), {"V(3,2)": "locked"}, False,
         "not Close: locked door V(3,2) between (2,2) and (3,2)."),
        ("C3 open door", (3, 2), (), {"V(3,2)": "open"}, True, "Goblin is Close."),
        ("C4", (3, 3), (), None, False, "not Close: Goblin is diagonal to Mark (diagonal Spaces are never Close)."),
        ("C5", (4, 2), (), None, False, "not Close: Goblin is 2 squares away."),
    ],
)
def test_close_vectors(vector: str, square: tuple[int, int], walls: tuple[str, ...],
                       doors: dict[str, str] | None, legal: bool, reason: str) -> None:
    board = board_with({"life": 3}, target_square=square, walls=walls, doors=doors)
    verdict = RULESET.check(AttackRequest(board, 1, [2], "Dusty Blade", {}))
    assert verdict.legal is legal, vector
    assert verdict.reason.endswith(reason), (vector, verdict.reason)


def test_c5_ranged_needs_line_of_sight_not_close() -> None:
    board = board_with({"life": 3}, target_square=(4, 2))
    assert RULESET.check(AttackRequest(board, 1, [2], "Long Bow", {})).legal
    walled = board_with({"life": 3}, target_square=(4, 2), walls=("V(4,2)",))
    verdict = RULESET.check(AttackRequest(walled, 1, [2], "Long Bow", {}))
    assert not verdict.legal
    assert verdict.reason == "no line of sight: wall V(4,2) between (3,2) and (4,2)."


def test_ranged_blocked_by_two_enemies_of_the_attacker_only() -> None:
    board = board_with({"life": 3}, target_square=(5, 2))
    board.place_figure(Figure(3, "Imp", "monsters", (3, 2)))
    board.place_figure(Figure(4, "Rat", "monsters", (3, 2)))
    verdict = RULESET.check(AttackRequest(board, 1, [2], "Long Bow", {}))
    assert not verdict.legal and verdict.reason.startswith("no line of sight:")
    assert "Imp" in verdict.reason
    # two allies of the attacker do not block
    ally = board_with({"life": 3}, target_square=(5, 2))
    ally.place_figure(Figure(3, "Kisha", "red", (3, 2)))
    ally.place_figure(Figure(4, "Jaimie", "red", (3, 2)))
    assert RULESET.check(AttackRequest(ally, 1, [2], "Long Bow", {})).legal


def test_close_reason_agrees_with_the_los_module() -> None:
    from game.core.los import is_close

    board = Board.from_ascii(["....", "....", "...."], walls=["V(2,1)"], doors={"H(1,1)": "open", "H(2,2)": "closed"},
                             windows=[Edge.parse("H(3,1)")])
    squares = [(x, y) for y in range(3) for x in range(4)]
    for a in squares:
        for b in squares:
            fa, fb = Figure(1, "A", "x", a), Figure(2, "B", "y", b)
            assert (close_reason(board, fa, fb) is None) == is_close(board, a, b), (a, b)


# --- other legality -----------------------------------------------------------------------


def test_targets_must_be_enemies_alive_and_single() -> None:
    assert RULESET.check(AttackRequest(board_with({"life": 3}, target_side="red"), 1, [2], "Dusty Blade", {})).reason == \
        "Goblin is an ally."
    dead = board_with({"life": 3, "wounds": 3, "killed": True})
    assert RULESET.check(AttackRequest(dead, 1, [2], "Dusty Blade", {})).reason == "Goblin is already killed."
    board = board_with({"life": 3})
    assert "exactly one target" in RULESET.check(AttackRequest(board, 1, [2, 2], "Dusty Blade", {})).reason
    assert RULESET.check(AttackRequest(board, 1, [1], "Dusty Blade", {})).reason == "Mark cannot attack itself."
    with pytest.raises(UsageError, match="Mark has no attack 'Axe' \\(attacks: Dusty Blade"):
        RULESET.check(AttackRequest(board, 1, [2], "Axe", {}))
    assert RULESET.check(AttackRequest(board, 2, [1], None, {})).reason == "Goblin has no attack cards (figure property attacks)."
    dead_attacker = board_with({"life": 3}, attacker_stats={"killed": True})
    assert RULESET.check(AttackRequest(dead_attacker, 1, [2], None, {})).reason == "Mark is killed and cannot attack."


def test_attack_menu_and_default_attack() -> None:
    board = board_with({"life": 3}, attacker_stats={"exhausted": "Dusty Blade"})
    menu = RULESET.attacks(board, 1)
    assert [(o.name, o.kind, o.dice, o.usable) for o in menu] == [
        ("Dusty Blade", "melee", 3, False), ("Long Bow", "ranged", 3, True),
        ("Short Bow", "ranged", 2, True), ("Dagger", "melee", 1, True),
    ]
    assert menu[0].reason == "Dusty Blade is exhausted."
    assert "Long Bow" in RULESET.check(AttackRequest(board, 1, [2], None, {})).reason  # first usable card


def test_attacks_property_errors() -> None:
    with pytest.raises(UsageError, match="is not NAME:melee\\|ranged:DICE"):
        parse_attacks(Figure(1, "Mark", "red", (0, 0), {"attacks": "Dusty Blade:magic:3"}))
    with pytest.raises(UsageError, match="'life' must be a number"):
        RULESET.odds(AttackRequest(board_with({"life": "lots"}), 1, [2], "Dusty Blade", {}))


def test_rest_unexhausts_a_sides_cards() -> None:
    board = board_with({"life": 3, "exhausted": "Claws"}, attacker_stats={"exhausted": "Dusty Blade, Dagger"})
    board.place_figure(Figure(3, "Jaimie", "red", (0, 0), {"exhausted": "Axe", "wounds": 4, "life": 4,
                                                            "killed": True}))
    assert RULESET.actions(board, "red") == ["rest"]
    changes = RULESET.perform(board, "rest", "red")
    assert {c.figure_id for c in changes} == {1, 3}
    RULESET.apply_changes(board, changes)
    assert "exhausted" not in board.figure(1).stats
    assert "killed" not in board.figure(3).stats and "wounds" not in board.figure(3).stats
    assert board.figure(2).stats["exhausted"] == "Claws"  # the other side keeps its tokens
    with pytest.raises(UsageError, match="no action 'dance'"):
        RULESET.perform(board, "dance", "red")


# --- odds through the ruleset -------------------------------------------------------------


def test_one_die_odds_match_the_rules_file() -> None:
    board = board_with({"life": 100})
    melee = RULESET.odds(AttackRequest(board, 1, [2], "Dagger", {}))
    assert [melee.distribution[k] for k in range(4)] == [Fraction(1, 3), Fraction(5, 9), Fraction(5, 54),
                                                         Fraction(5, 324)]
    assert abs(melee.distribution[4] - Fraction(5, 1944)) < Fraction(1, 10**12)
    assert abs(melee.expected - Fraction(4, 5)) < Fraction(1, 10**10)
    assert melee.truncated < Fraction(1, 10**12)
    capped = RULESET.odds(AttackRequest(board_with({"life": 2}), 1, [2], "Dagger", {}))
    assert capped.distribution == {0: Fraction(1, 3), 1: Fraction(5, 9), 2: Fraction(1, 9)}
    assert capped.kill == Fraction(1, 9)
    assert sum(melee.distribution.values()) == 1


def test_odds_illegal_attack_raises() -> None:
    with pytest.raises(IllegalAttackError, match="not Close"):
        RULESET.odds(AttackRequest(board_with({"life": 3}, target_square=(5, 4)), 1, [2], "Dusty Blade", {}))


def test_odds_kill_and_life_left() -> None:
    board = board_with({"life": 3, "wounds": 2})
    odds = RULESET.odds(AttackRequest(board, 1, [2], "Dagger", {}))
    assert set(odds.distribution) == {0, 1}
    assert odds.kill == Fraction(2, 3) and odds.expected == Fraction(2, 3)
    no_life = RULESET.odds(AttackRequest(board_with({"defense": 0}), 1, [2], "Dagger", {}))
    assert no_life.kill is None and sum(no_life.distribution.values()) == 1


def test_registry() -> None:
    assert get_ruleset("arcadia") is RULESET and get_ruleset("Arcadia") is RULESET
    with pytest.raises(UsageError, match="unknown ruleset 'chess'"):
        get_ruleset("chess")
