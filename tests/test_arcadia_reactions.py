"""Arcadia Quest reactions: Guard and Payback after a Hero's attack (vectors P1–P8 of
docs/arcadia.md), the monster's walk, and the whole exchange's exact odds against every way the
dice fall."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from support.brute import enumerate_exact

from game.cli import main
from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.core.errors import UsageError
from game.rules.arcadia.reactions import walks
from game.rules.arcadia.ruleset import RULESET
from game.rules.base import AttackRequest, Resolution
from game.rules.exchange import play_exchange

HERO = {"attacks": "Long Bow:ranged:2; Sword:melee:2", "life": 5, "defense": 1}
GOBLIN = {"attacks": "Claws:melee:2", "life": 3, "movement": 2}


def arena(*monsters: tuple[str, tuple[int, int], dict[str, object]], walls: tuple[str, ...] = (),
          hero_at: tuple[int, int] = (0, 2), props: dict[str, object] | None = None) -> Board:
    """A 7×5 open board: Mark (id 1, red) and the monsters (ids 2, 3 ...)."""
    board = Board.from_ascii(["......."] * 5, walls=walls, properties=props or {})
    board.place_figure(Figure(1, "Mark", "red", hero_at, dict(HERO)))
    for i, (name, square, stats) in enumerate(monsters, start=2):
        board.place_figure(Figure(i, name, "monsters", square, dict(stats)))
    return board


def reactions_after(board: Board, target: int, attack: str) -> list[str]:
    request = AttackRequest(board, 1, [target], attack, {})
    return [r.why for r in RULESET.reactions(board, request, Resolution(True, ""))]


def test_p1_payback_from_where_it_stands() -> None:
    board = arena(("Goblin", (1, 2), GOBLIN))
    assert reactions_after(board, 2, "Sword") == [
        "Payback: Goblin attacks Mark with Claws from where it stands."]


def test_p2_payback_walks_the_fewest_steps_to_a_close_space() -> None:
    board = arena(("Goblin", (3, 2), GOBLIN))
    assert reactions_after(board, 2, "Long Bow") == [
        "Payback: Goblin walks (3,2) → (2,2) → (1,2) and attacks Mark with Claws."]


def test_p3_payback_out_of_reach() -> None:
    board = arena(("Goblin", (4, 2), GOBLIN))
    assert reactions_after(board, 2, "Long Bow") == [
        "No Payback: Goblin cannot attack Mark within 2 steps (Claws: not Close: Mark is 4 squares away)."]
    no_move = arena(("Goblin", (4, 2), {"attacks": "Claws:melee:2", "life": 3}))
    why = reactions_after(no_move, 2, "Long Bow")[0]
    assert why.endswith("Not applied: Goblin has no movement property, so it does not walk.")


def test_p4_the_walk_goes_round_a_wall_and_asks_the_same_legality() -> None:
    # a wall between (1,2) and (2,2): the goblin must come round by row 1 or 3
    board = arena(("Goblin", (2, 2), {**GOBLIN, "movement": 3}), walls=("V(1,2)",))
    assert reactions_after(board, 2, "Long Bow") == [
        "Payback: Goblin walks (2,2) → (2,1) → (1,1) → (0,1) and attacks Mark with Claws."]
    # a ranged monster needs line of sight, not Close: it walks until it sees Mark
    archer = arena(("Archer", (4, 1), {"attacks": "Bow:ranged:1", "life": 3, "movement": 2}),
                   walls=("V(3,0)", "V(3,1)", "V(3,2)"))
    assert reactions_after(archer, 2, "Long Bow") == [
        "Payback: Archer walks (4,1) → (4,2) → (4,3) and attacks Mark with Bow."]


def test_p5_guard_by_every_close_monster_then_the_payback() -> None:
    board = arena(("Goblin", (1, 2), GOBLIN), ("Imp", (0, 1), GOBLIN), ("Troll", (5, 2), GOBLIN))
    assert reactions_after(board, 4, "Long Bow") == [
        "Guard: Goblin is Close to Mark and attacks with Claws.",
        "Guard: Imp is Close to Mark and attacks with Claws.",
        "No Payback: Troll cannot attack Mark within 2 steps (Claws: not Close: Mark is 5 squares away).",
    ]


def test_p6_no_guard_when_the_attack_targets_a_close_monster() -> None:
    board = arena(("Goblin", (1, 2), GOBLIN), ("Imp", (0, 1), GOBLIN))
    assert reactions_after(board, 2, "Sword") == [
        "Payback: Goblin attacks Mark with Claws from where it stands."]


def test_p7_guard_in_pvp_and_none_after_a_monsters_attack() -> None:
    board = arena(("Goblin", (1, 2), GOBLIN))
    board.place_figure(Figure(9, "Rook", "blue", (5, 2), dict(HERO)))
    assert reactions_after(board, 9, "Long Bow") == ["Guard: Goblin is Close to Mark and attacks with Claws."]
    request = AttackRequest(board, 2, [1], "Claws", {})
    assert RULESET.reactions(board, request, RULESET.resolve(request, SeededDice(1))) == []


def test_p8_a_killed_target_pays_nothing_back() -> None:
    board = arena(("Goblin", (1, 2), {**GOBLIN, "life": 1}))
    dice = ScriptedDice(parse_faces("sword sword", pools=RULESET.pools, names=RULESET.face_names), RULESET.pools)
    done = play_exchange(RULESET, AttackRequest(board, 1, [2], "Sword", {}), dice)
    assert done.attack.outcome["killed"] is True
    assert [(r.kind, r.attack, res.reason if res else None) for r, res in done.reactions] == [
        ("Payback", None, "No Payback: Goblin is killed.")]


def test_the_walk_never_enters_a_blocked_space_nor_stops_on_a_full_one() -> None:
    board = Board.from_ascii(["....."])
    board.place_figure(Figure(1, "Ogre", "monsters", (0, 0), {"movement": 4}))
    board.place_figure(Figure(2, "A", "red", (1, 0)))
    board.place_figure(Figure(3, "B", "red", (1, 0)))  # two enemies of the ogre: Blocked
    assert [sq for sq, _ in walks(board, board.figure(1), 4)] == [(0, 0)]
    board.remove_figure(3)
    board.place_figure(Figure(3, "Imp", "monsters", (1, 0)))  # an ally beside: Full, pass through
    assert [sq for sq, _ in walks(board, board.figure(1), 4)] == [(0, 0), (2, 0), (3, 0), (4, 0)]


def test_a_payback_request_with_a_bad_walk_is_refused() -> None:
    board = arena(("Goblin", (3, 2), GOBLIN))
    bad = {"reaction": "Payback", "path": [[3, 2], [1, 2]]}
    with pytest.raises(UsageError, match="cannot step from"):
        RULESET.check(AttackRequest(board, 2, [1], "Claws", bad))
    far = {"reaction": "Payback", "path": [[3, 2], [2, 2], [1, 2], [1, 1]]}
    with pytest.raises(UsageError, match="more than its movement 2"):
        RULESET.check(AttackRequest(board, 2, [1], "Claws", far))


def test_the_payback_resolution_moves_the_monster_and_exhausts_nothing() -> None:
    board = arena(("Goblin", (3, 2), {**GOBLIN, "exhausted": "Claws"}))
    dice = ScriptedDice(parse_faces("bow bow | | sword sword | shield", pools=RULESET.pools,
                                    names=RULESET.face_names), RULESET.pools)
    done = play_exchange(RULESET, AttackRequest(board, 1, [2], "Long Bow", {}), dice)
    (reaction, result), = done.reactions
    assert result is not None and result.legal, result
    assert [s.stage for s in result.steps][:2] == ["move", "attack roll"]
    assert result.steps[0].text == "Goblin walks (3,2) → (2,2) → (1,2) (2 steps of its Movement 2)."
    assert (result.outcome["hits"], result.outcome["saves"], result.outcome["damage"]) == (2, 1, 1)
    assert done.board.figure(2).square == (1, 2) and done.board.figure(1).stats["wounds"] == 1
    assert board.figure(2).square == (3, 2)  # the map's board is not changed
    assert not any(s.text.endswith("is exhausted.") for s in result.steps)


@pytest.mark.parametrize("life", [5, 2])
def test_exchange_odds_equal_every_way_the_dice_fall(life: int) -> None:
    """Guard by one goblin, the Payback by the target unless it is killed: the exchange's exact
    odds against play_exchange over every sequence of faces (dice without CRITs, so it ends)."""
    props = {"attack_die": "sword,bow,bow", "defense_die": "shield,blank,blank"}
    board = arena(("Goblin", (0, 1), {"attacks": "Claws:melee:1", "life": 3}),
                  ("Troll", (3, 2), {"attacks": "Club:melee:2", "life": 1, "movement": 2}), props=props)
    board.update_figure(1, life=life)
    odds = RULESET.exchange_odds(AttackRequest(board, 1, [3], "Long Bow", {}))
    assert odds is not None
    request = AttackRequest(board, 1, [3], "Long Bow", {})

    def run(dice: object) -> int:
        done = play_exchange(RULESET, request, dice)  # type: ignore[arg-type]
        return int(done.board.figure(1).stats.get("wounds", 0))  # type: ignore[call-overload]

    brute, unknown = enumerate_exact(run, limit=40)
    assert unknown == 0
    assert {k: p for k, p in odds.distribution.items() if p} == brute
    assert odds.kill == brute.get(life, Fraction(0))


def test_exchange_odds_none_without_reactions() -> None:
    board = arena()
    board.place_figure(Figure(9, "Rook", "blue", (5, 2), dict(HERO)))
    assert RULESET.exchange_odds(AttackRequest(board, 1, [9], "Long Bow", {})) is None


# --- the command line ----------------------------------------------------------------------


DEMO = str(Path(__file__).resolve().parent.parent / "maps" / "demo.tmx")


def test_cli_attack_prints_the_payback_as_its_next_step(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", DEMO, "Lark", "Mossback", "--faces",
                 "bow sword sword | blank | sword sword sword sword | blank blank"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("Next: Payback: Mossback walks (9,12) → (10,12) → (11,12) and attacks Lark with Club.")
    assert out[at + 1] == "  Mossback walks (9,12) → (10,12) → (11,12) (2 steps of its Movement 2)."
    assert out[-1] == "Payback: 4 hits against 0 saves: Lark takes 4 wounds and is killed." or \
        out[-1].startswith("Payback: 4 hits against")


def test_cli_attack_json_lists_the_reactions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", DEMO, "Ember", "Cinder", "--seed", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (reaction,) = doc["reactions"]
    assert reaction["reaction"]["kind"] == "Payback" and reaction["reaction"]["reactor"] > 0
    assert {"legal", "steps", "outcome"} <= set(reaction)


def test_cli_faces_without_reaction_pools_leave_the_reaction_unrolled(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", DEMO, "Ember", "Cinder", "--faces", "bow sword | blank"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "Next: Payback: Cinder attacks Ember with Fire Spit from where it stands."
    assert out[-1].startswith("  (not rolled: give its faces as the reaction pools of --faces")


def test_cli_odds_gives_the_whole_exchange_beside_the_attack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", DEMO, "Ember", "Cinder", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exchange"]["label"] == "wounds to Ember"
    assert abs(sum(doc["exchange"]["distribution"].values()) - 1) < 1e-9
    assert "Payback" in doc["exchange"]["note"]
    assert main(["odds", DEMO, "Ember", "Cinder"]) == 0
    out = capsys.readouterr().out
    assert "The whole exchange, wounds to Ember:" in out


def test_x1_the_whole_exchange_vector_of_the_docs() -> None:
    """One ranged die kills the goblin (life 1) half the time; else its Payback, one melee die,
    hits a Mark with no defence."""
    board = arena(("Goblin", (1, 2), {"attacks": "Claws:melee:1", "life": 1}))
    board.update_figure(1, defense=0, life=9, attacks="Bow:ranged:1; Sword:melee:2")
    odds = RULESET.exchange_odds(AttackRequest(board, 1, [2], "Bow", {}))
    assert odds is not None
    assert [odds.distribution[k] for k in range(4)] == [Fraction(2, 3), Fraction(5, 18), Fraction(5, 108),
                                                        Fraction(5, 648)]
