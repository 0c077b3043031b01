"""The threat numbers (game/designer/threats.py, danger.py) against the commands and brute force.

* every chance ``sightline threats`` shows equals ``sightline odds --attack NAME`` for the same
  pair, over every pair of every bundled map; every "can attack now" equals ``sightline attack``'s
  legality (run through ``game.cli.main``, the real commands);
* "next turn" equals a brute-force search: every square ``measure.reach`` (``sightline reach``)
  gives the attacker, the attacker moved there, the ruleset's ``check`` asked;
* the danger map equals the same brute force with the figure placed on each square;
* the attack reach learnt on probe boards, for Close, sight, ranges counted both ways, and an
  attack that needs neither (Mage Knight).
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from support.threats import _brute_danger

from game.cli import main
from game.core import measure
from game.core.board import Board, Figure
from game.designer.danger import danger_map, probe_chance
from game.designer.threats import (
    ANSWER_KINDS,
    Reach,
    ThreatSolver,
    best_chance,
    learn_reach,
    move_of,
)
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent
BUNDLED = ["demo.tmx", "conquest.tmx", "folklore.tmx", "mage_knight.tmx", "ford.tmx"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@cache
def _threats_doc(name: str) -> dict[str, object]:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["threats", str(REPO / "maps" / name), "--json"]) == 0
    return json.loads(buffer.getvalue())  # type: ignore[no-any-return]


def _odds_doc(path: Path, attacker: int, target: int, attack: str) -> dict[str, object]:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["odds", str(path), str(attacker), str(target), "--attack", attack, "--json"]) == 0
    return json.loads(buffer.getvalue())  # type: ignore[no-any-return]


def _attack_legal(path: Path, attacker: int, target: int) -> bool:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["attack", str(path), str(attacker), str(target), "--seed", "7", "--json"]) == 0
    return bool(json.loads(buffer.getvalue())["legal"])


# --- the commands agree ----------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_every_chance_shown_equals_sightline_odds_for_the_same_pair(name: str) -> None:
    path = REPO / "maps" / name
    doc = _threats_doc(name)
    shown = 0
    for threat in doc["threats"]:  # type: ignore[union-attr]
        for chance in threat["attacks"]:
            odds = _odds_doc(path, threat["attacker"], threat["target"], chance["attack"])
            assert odds["legal"] is True
            exact = odds["exact"]
            distribution = {int(k): Fraction(v) for k, v in exact["distribution"].items()}
            named = {k: Fraction(v) for k, v in exact["chances"].items()}
            hit = named.get("hit", sum((p for v, p in distribution.items() if v >= 1), Fraction(0)))
            assert Fraction(chance["exact"]["hit"]) == hit, (name, threat["attacker"], threat["target"])
            assert Fraction(chance["exact"]["expected"]) == Fraction(exact["expected"])
            take_out = chance["exact"]["take_out"]
            assert (None if take_out is None else Fraction(take_out)) == (
                None if exact["kill"] is None else Fraction(exact["kill"]))
            shown += 1
    assert shown > 0


@pytest.mark.parametrize("name", BUNDLED)
def test_every_can_attack_equals_sightline_attack_legality(name: str) -> None:
    path = REPO / "maps" / name
    doc = _threats_doc(name)
    pairs = 0
    for threat in doc["threats"]:  # type: ignore[union-attr]
        legal = _attack_legal(path, threat["attacker"], threat["target"])
        assert (threat["now"] is not None) == legal, (name, threat["attacker_name"], threat["target_name"])
        pairs += 1
    assert pairs >= 12


def test_the_best_attack_is_the_most_likely_to_take_the_target_out() -> None:
    board = Board.from_ascii(["....."], ruleset="arcadia")
    board.place_figure(Figure(1, "A", "red", (0, 0), {"life": 4, "attacks": "Sling:ranged:1; Axe:melee:4"}))
    board.place_figure(Figure(2, "B", "blue", (1, 0), {"life": 2}))
    chances = ThreatSolver().chances(board, 1, 2)
    assert [c.attack for c in chances] == ["Sling", "Axe"]
    best = best_chance(chances)
    assert best is not None and best.attack == "Axe"
    assert best.take_out is not None and best.take_out > chances[0].take_out  # type: ignore[operator]


def test_mage_knight_answers_are_not_threats() -> None:
    board = load_map(REPO / "maps" / "mage_knight.tmx").board
    hero = board.find_figure("Tovak").id
    solver = ThreatSolver()
    assert {o.kind for o in solver.usable(board, hero)}.isdisjoint(ANSWER_KINDS)
    assert all(c.attack in ("Ranged/Siege", "Attack") for t in solver.enemies(board, hero)
               for c in solver.chances(board, hero, t))


# --- next turn: brute force ----------------------------------------------------------------


def _brute_next_turn(board: Board, attacker: int, target: int) -> int | None:
    """The fewest steps after which ``check`` calls some usable attack legal (0: now), searching
    every square of ``measure.reach`` with the attacker moved there."""
    ruleset = get_ruleset(board.ruleset)
    a = board.figure(attacker)
    names = [o.name for o in ruleset.attacks(board, attacker) if o.usable and o.kind not in ANSWER_KINDS]
    found = measure.reach(board, a.square, move_of(a), a.side, a.id)
    best = None
    for square, steps in sorted(found.items(), key=lambda item: item[1]):
        if best is not None and steps > best:
            break
        if square != a.square and board.can_enter(attacker, square) is not None:
            continue
        moved = board.copy()
        moved.move_figure(attacker, square)
        if any(ruleset.check(AttackRequest(moved, attacker, [target], n)).legal for n in names):
            best = steps
    return best


@pytest.mark.parametrize("name", BUNDLED)
def test_next_turn_agrees_with_a_brute_force_search_of_reach(name: str) -> None:
    board = load_map(REPO / "maps" / name).board
    solver = ThreatSolver()
    checked = 0
    for attacker in sorted(board.figures):
        for target in solver.enemies(board, attacker):
            approach = solver.next_turn(board, attacker, target)
            expected = _brute_next_turn(board, attacker, target)
            assert (None if approach is None else approach.steps) == expected, (
                name, board.figure(attacker).name, board.figure(target).name)
            if approach is not None:
                path = approach.path
                assert path[0] == board.figure(attacker).square and path[-1] == approach.square
                assert len(path) == approach.steps + 1
                assert all(measure.orthogonal(p, q) == 1 for p, q in zip(path, path[1:], strict=False))
            checked += 1
    assert checked > 5


# --- the danger map: brute force -------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_the_danger_map_agrees_with_a_brute_force_search(name: str) -> None:
    board = load_map(REPO / "maps" / name).board
    solver = ThreatSolver()
    figures = sorted(board.figures)
    for figure in (figures[0], figures[-1]):
        found = danger_map(solver, board, figure)
        squares = [sq for sq in board.squares() if found.standable[sq[1], sq[0]]]
        for square in squares[:: max(1, len(squares) // 12)]:
            shown = found.at(square)
            assert shown is not None
            assert shown[:2] == _brute_danger(board, figure, square), (name, figure, square)


def test_the_danger_maps_damage_is_the_best_expected_damage_of_each_enemy_that_reaches() -> None:
    board = load_map(REPO / "maps" / "demo.tmx").board
    solver = ThreatSolver()
    ember = board.find_figure("Ember").id
    found = danger_map(solver, board, ember)
    ruleset = get_ruleset(board.ruleset)
    compared = 0
    for enemy_id, expected in found.enemies:
        enemy = board.figure(enemy_id)
        chances = []
        for option in solver.usable(board, enemy_id):
            reach = solver.reach(board, enemy, board.figure(ember), option.name)
            chance = probe_chance(solver, board, enemy, board.figure(ember), option, reach)
            if chance is not None:
                chances.append(chance)
        best = best_chance(chances)
        assert expected == (float(best.expected) if best is not None else 0.0)
        # the probe's odds are the real board's odds of the same pair where it is legal there (the
        # rulesets' odds do not depend on where the figures stand)
        request = AttackRequest(board, enemy_id, [ember], best.attack if best is not None else None)
        if best is not None and ruleset.check(request).legal:
            assert ruleset.odds(request).expected == best.expected
            compared += 1
    assert compared >= 1
    total = sum(e for _, e in found.enemies)
    assert float(found.damage.max()) <= total + 1e-9


def test_the_danger_map_does_not_depend_on_where_the_figure_stands() -> None:
    board = load_map(REPO / "maps" / "demo.tmx").board
    solver = ThreatSolver()
    ember = board.find_figure("Ember").id
    before = danger_map(solver, board, ember)
    board.move_figure(ember, (4, 6))
    after = danger_map(solver, board, ember)
    assert (before.next_turn == after.next_turn).all() and (before.damage == after.damage).all()


# --- reach learnt on probe boards --------------------------------------------------------------


def _pair(ruleset: str, a: dict[str, object], t: dict[str, object]) -> tuple[Board, Figure, Figure]:
    board = Board(30, 30, ruleset=ruleset)
    first, second = Figure(1, "A", "red", (0, 0), a), Figure(2, "T", "blue", (5, 5), t)
    board.place_figure(first)
    board.place_figure(second)
    return board, first, second


def test_reach_of_arcadia_melee_and_ranged() -> None:
    board, a, t = _pair("arcadia", {"life": 3, "attacks": "Bow:ranged:2; Knife:melee:1"}, {"life": 3})
    ruleset = get_ruleset("arcadia")
    assert learn_reach(ruleset, board, a, t, "Knife") == Reach(same=True, close=True)
    assert learn_reach(ruleset, board, a, t, "Bow") == Reach(same=True, close=True, sight=True, near=1, far=None)


def test_reach_of_a_conquest_volley_counts_its_range_with_diagonal_steps() -> None:
    stats = {"attacks": 2, "clash": 1, "barrage": 3, "volley": 2, "defence": 1, "evasion": 1,
             "wound_limit": 2, "resolve": 2, "range": 6}
    board, a, t = _pair("conquest", stats, dict(stats, range=0))
    reach = learn_reach(get_ruleset("conquest"), board, a, t, "Volley")
    assert reach.sight and reach.far == 6 and reach.diagonal
    assert reach.allows(board, (0, 0), (6, 6), True) and not reach.allows(board, (0, 0), (7, 0), True)
    assert not reach.allows(board, (0, 0), (6, 6), False)  # out of sight


def test_reach_of_a_ruleset_file_counts_its_range_in_orthogonal_steps() -> None:
    from game.rules.custom import load_ruleset

    text = (REPO / "examples" / "rulesets" / "conquest.toml").read_text(encoding="utf-8")
    manhattan = load_ruleset(text.replace('distance = "chebyshev"', 'distance = "manhattan"'), "conquest.toml")
    board = Board(30, 30)
    a = Figure(1, "A", "red", (0, 0), {"attacks": 2, "barrage": 3, "volley": 2, "range": 6})
    t = Figure(2, "T", "blue", (5, 5), {})
    board.place_figure(a)
    board.place_figure(t)
    ranged = next(o.name for o in manhattan.attacks(board, 1) if o.kind == "ranged")
    reach = learn_reach(manhattan, board, a, t, ranged)
    assert reach.sight and reach.far == 6 and not reach.diagonal
    assert reach.allows(board, (0, 0), (3, 3), True) and not reach.allows(board, (0, 0), (4, 3), True)


def test_a_mage_knight_attack_reaches_anywhere() -> None:
    board = load_map(REPO / "maps" / "mage_knight.tmx").board
    hero, enemy = board.find_figure("Tovak"), board.find_figure("Fire Mages")
    assert learn_reach(get_ruleset("mage_knight"), board, hero, enemy, "Attack").anywhere
    assert not learn_reach(get_ruleset("mage_knight"), board, enemy, hero, "Attack").reaches


# --- the chances against every roll of the dice ------------------------------------------------


class _Cut(Exception):
    """A roll beyond the enumeration's depth (an explosion chain longer than the cap)."""


class _TreeDice:
    """Plays one branch of the tree of every roll: the faces ``path`` chooses (then the first
    face), recording how many faces each die had and the branch's probability."""

    def __init__(self, path: list[int], cap: int) -> None:
        self.path, self.cap = path, cap
        self.sizes: list[int] = []
        self.weight = Fraction(1)

    def roll(self, die: object, pool: int = 0) -> object:
        faces = die.faces  # type: ignore[attr-defined]
        i = len(self.sizes)
        if i >= self.cap:
            raise _Cut
        self.sizes.append(len(faces))
        self.weight /= len(faces)
        return faces[self.path[i] if i < len(self.path) else 0]


def _every_roll(board: Board, attacker: int, target: int, attack: str, cap: int) -> tuple[dict[str, Fraction], Fraction]:
    """Arcadia's ``resolve`` run once per branch of every roll of the dice (depth-first, each
    face of each die in turn): the probability of a wound or more (``hit``), the mean and the
    chance of a kill, counting the wounds the target actually takes; and the probability mass
    of the branches cut at ``cap`` dice (explosion chains), not counted."""
    ruleset = get_ruleset(board.ruleset)
    before = int(board.figure(target).stats.get("wounds", 0) or 0)
    hit, mean, kill, cut = Fraction(0), Fraction(0), Fraction(0), Fraction(0)
    path: list[int] = []
    while True:
        dice = _TreeDice(path, cap)
        try:
            done = ruleset.resolve(AttackRequest(board, attacker, [target], attack), dice)  # type: ignore[arg-type]
        except _Cut:
            cut += dice.weight
        else:
            assert done.legal
            taken = int(done.outcome["wounds"]) - before  # type: ignore[call-overload]
            hit += dice.weight if taken >= 1 else 0
            mean += dice.weight * taken
            kill += dice.weight if done.outcome["killed"] else 0
        path = path + [0] * (len(dice.sizes) - len(path))
        while path and path[-1] == dice.sizes[len(path) - 1] - 1:
            path.pop()
        if not path:
            return {"hit": hit, "expected": mean, "take_out": kill}, cut
        path[-1] += 1


def _duel(attack_die: str | None, defence_die: str | None, attacks: str = "Bow:ranged:3; Axe:melee:2",
          defense: int = 2) -> Board:
    properties = {"attack_die": attack_die, "defense_die": defence_die}
    board = Board.from_ascii(["....", "...."], ruleset="arcadia",
                             properties={k: v for k, v in properties.items() if v})
    board.place_figure(Figure(1, "Archer", "red", (0, 0), {"life": 3, "attacks": attacks}))
    board.place_figure(Figure(2, "Orc", "blue", (1, 0), {"life": 3, "wounds": 1, "defense": defense}))
    return board


@pytest.mark.parametrize("attack", ["Bow", "Axe"])
def test_every_chance_equals_the_dice_rolled_every_way_without_explosions(attack: str) -> None:
    """Dice without crits (map properties): 6**5 rolls, nothing cut, equal exactly."""
    board = _duel("sword, sword, bow, bow, blank, blank", "shield, shield, blank, blank, blank, blank")
    chance = next(c for c in ThreatSolver().chances(board, 1, 2) if c.attack == attack)
    brute, cut = _every_roll(board, 1, 2, attack, cap=16)
    assert cut == 0
    assert (chance.hit, chance.expected, chance.take_out) == (brute["hit"], brute["expected"], brute["take_out"])
    assert 0 < chance.take_out < chance.hit < 1  # type: ignore[operator]


def test_every_chance_matches_the_dice_rolled_every_way_with_exploding_crits() -> None:
    """The bundled dice (a crit rolls one more die): the branches up to 8 dice enumerated; the
    exact numbers lie between what they count and that plus the mass cut off (times the most a
    cut branch could add), widened by the odds' own stated cut."""
    board = _duel(None, None, "Sling:ranged:1; Club:melee:2", 1)
    for chance in ThreatSolver().chances(board, 1, 2):
        odds = get_ruleset("arcadia").odds(AttackRequest(board, 1, [2], chance.attack))
        brute, cut = _every_roll(board, 1, 2, chance.attack, cap=8)
        slack = odds.truncated
        assert 0 < cut < Fraction(1, 1000)
        for key, most in (("hit", 1), ("expected", 2), ("take_out", 1)):
            value = getattr(chance, key)
            assert brute[key] - slack <= value <= brute[key] + most * cut + slack, (chance.attack, key)
