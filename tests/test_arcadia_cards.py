"""Arcadia Quest rerolls and card effects on a CRIT: vectors R1–R4 and E1–E4 of docs/arcadia.md,
and the exact odds against a brute force over every way the dice fall."""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from support.brute import enumerate_exact

from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.core.errors import FacesError, UsageError
from game.core.odds import DEFAULT_TAIL
from game.rules.arcadia.cards import parse_attacks
from game.rules.arcadia.rolls import DieOdds, endings, roll_distribution
from game.rules.arcadia.ruleset import RULESET
from game.rules.base import AttackRequest, Resolution


def duel(attacker: dict[str, object], target: dict[str, object], props: dict[str, object] | None = None) -> Board:
    """Kisha (id 1, heroes) on (0,0) and the Demoness (id 2, monsters) two squares away."""
    board = Board.from_ascii(["...."], properties=props or {})
    board.place_figure(Figure(1, "Kisha", "heroes", (0, 0), {"life": 9, **attacker}))
    board.place_figure(Figure(2, "Demoness", "monsters", (1, 0), {"life": 9, **target}))
    return board


def scripted(board: Board, attack: str, faces: str, attacker: int = 1, target: int = 2) -> Resolution:
    dice = ScriptedDice(parse_faces(faces, pools=RULESET.pools, names=RULESET.face_names, rerolls=True),
                        RULESET.pools)
    return RULESET.resolve(AttackRequest(board, attacker, [target], attack, {}), dice)


# --- rerolls: the rulebook's example (Inferno p.31) and the FAQ's timing rule ----------------


def test_r1_kisha_rerolls_two_misses_then_the_crits_extra_die() -> None:
    board = duel({"attacks": "Short Bow:ranged:2", "reroll": 3}, {})
    res = scripted(board, "Short Bow", "sword>bow sword>crit sword>bow")
    assert res.outcome["hits"] == 3 and res.outcome["damage"] == 3
    rerolls = [s for s in res.steps if s.kind == "reroll"]
    assert [s.text for s in rerolls] == [
        "Reroll 1 of 3: attack die 1 (sword) → bow.",
        "Reroll 2 of 3: attack die 2 (sword) → crit.",
        "Reroll 3 of 3: attack die 5 (sword) → bow.",
    ]
    reasons = [r.reason for r in res.rolls() if r.pool == "attack"]
    assert reasons == ["rolled", "rolled", "reroll of die 1", "reroll of die 2", "explosion of die 4",
                       "reroll of die 5"]


def test_r2_defender_rerolls() -> None:
    board = duel({"attacks": "Short Bow:ranged:2", "defense": 4, "reroll": 3}, {"attacks": "Claws:melee:3"})
    res = RULESET.resolve(AttackRequest(board, 2, [1], "Claws", {}), ScriptedDice(
        parse_faces("sword sword bow | shield blank>shield blank>blank blank>blank", pools=RULESET.pools,
                    names=RULESET.face_names, rerolls=True), RULESET.pools))
    assert (res.outcome["hits"], res.outcome["saves"], res.outcome["damage"]) == (2, 2, 0)


def test_r3_a_crit_rerolled_adds_no_extra_die_faq() -> None:
    board = duel({"attacks": "Short Bow:ranged:2", "reroll": 1}, {})
    res = scripted(board, "Short Bow", "bow crit>sword")
    assert res.outcome["hits"] == 1 and not any(s.kind == "explode" for s in res.steps)
    with pytest.raises(FacesError, match="may be rerolled only before its extra die is rolled"):
        scripted(board, "Short Bow", "bow crit>sword bow")


def test_r4_more_rerolls_than_the_figure_has_is_refused() -> None:
    board = duel({"attacks": "Short Bow:ranged:2", "reroll": 1}, {})
    with pytest.raises(FacesError, match="Kisha has 1 reroll for this roll, but the attack pool writes more"):
        scripted(board, "Short Bow", "sword>sword>bow bow")
    with pytest.raises(FacesError, match="no rerolls"):
        parse_faces("blank>shield", pools=("defence",), names={"blank", "shield"})


def test_seeded_dice_reroll_misses_only() -> None:
    board = duel({"attacks": "Dusty Blade:melee:6", "reroll": 2}, {})
    for seed in range(40):
        res = RULESET.resolve(AttackRequest(board, 1, [2], "Dusty Blade", {}), SeededDice(seed))
        rolls = [r for r in res.rolls() if r.pool == "attack"]
        for r in rolls:
            if r.reason.startswith("reroll"):
                replaced = rolls[int(r.reason.rsplit(" ", 1)[1]) - 1]
                assert replaced.face in ("bow", "blank"), seed  # a miss in melee, never a success
        assert sum(r.reason.startswith("reroll") for r in rolls) <= 2


def test_card_reroll_adds_to_the_figures() -> None:
    card = parse_attacks(Figure(1, "K", "h", (0, 0), {"attacks": "Fancy Blade:melee:1:reroll=1"}))[0]
    assert card.reroll == 1
    board = duel({"attacks": "Fancy Blade:melee:1:reroll=1", "reroll": 1}, {})
    res = scripted(board, "Fancy Blade", "bow>bow>sword")
    assert res.outcome["hits"] == 1


# --- card effects on a CRIT --------------------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "card", "faces", "expected"),
    [
        ("E1", "Fire Bow:ranged:2:on_crit=+1 wound", "crit bow sword | shield", (2, 1, 2)),
        ("E2", "Fire Bow:ranged:2:on_crit=+1 hit each", "crit crit bow sword | shield", (5, 1, 4)),
        ("E3", "Fire Bow:ranged:2:on_crit=+2 wounds", "sword sword | shield", (0, 1, 0)),
    ],
)
def test_crit_effects(vector: str, card: str, faces: str, expected: tuple[int, int, int]) -> None:
    board = duel({"attacks": card}, {"defense": 1})
    res = scripted(board, "Fire Bow", faces)
    assert (res.outcome["hits"], res.outcome["saves"], res.outcome["damage"]) == expected, vector


def test_e4_daze_on_a_crit() -> None:
    board = duel({"attacks": "Mace:melee:1:on_crit=daze; Club:melee:1"}, {"defense": 1})
    res = scripted(board, "Mace", "crit sword | blank")
    change = next(c for c in res.changes if c.figure_id == 2)
    assert change.stats.get("dazed") is True
    assert any("Demoness is Dazed" in s.text for s in res.steps)
    RULESET.apply(board, res)
    again = scripted(board, "Club", "sword")
    assert again.outcome["defence_dice"] == 0  # a Dazed figure rolls no defence


def test_unknown_crit_effects_are_refused_with_one_line() -> None:
    board = duel({"attacks": "Nova Bolt:ranged:2:on_crit=second target"}, {})
    with pytest.raises(UsageError, match="on_crit 'second target' is not modelled"):
        RULESET.check(AttackRequest(board, 1, [2], "Nova Bolt", {}))
    with pytest.raises(UsageError, match="unknown field 'rerolls=2'"):
        parse_attacks(Figure(1, "K", "h", (0, 0), {"attacks": "Bow:ranged:2:rerolls=2"}))


# --- exact odds against the brute force ---------------------------------------------------


def test_endings_sum_to_one_and_match_the_no_reroll_binomial() -> None:
    die = DieOdds(6, 3, 0)
    for n in range(0, 5):
        for r in range(0, 4):
            assert sum(endings(die, n, r).values()) == 1
        plain = endings(die, n, 0)
        assert all(e == n for _, e in plain)


def brute_roll(hit: int, crit: int, sides: int, n: int, rerolls: int, depth: int = 40
               ) -> tuple[dict[tuple[int, int], Fraction], Fraction]:
    """Die by die, every face: (successes, CRITs) of ``n`` dice whose misses are re-rolled while
    ``rerolls`` last; the chance past ``depth`` dice is returned apart."""

    @functools.cache
    def go(pending: int, left: int, budget: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        if pending == 0:
            return (((0, 0), Fraction(1)),)
        if budget == 0:
            return (((-1, -1), Fraction(1)),)
        out: dict[tuple[int, int], Fraction] = {}
        branches = [(hit, 1, 0, pending - 1, left), (crit, 1, 1, pending, left)]
        miss = sides - hit - crit
        branches.append((miss, 0, 0, pending, left - 1) if left else (miss, 0, 0, pending - 1, left))
        for ways, s, k, nxt, nleft in branches:
            if not ways:
                continue
            for (s2, k2), p in go(nxt, nleft, budget - 1):
                key = (-1, -1) if s2 < 0 else (s + s2, k + k2)
                out[key] = out.get(key, Fraction(0)) + p * Fraction(ways, sides)
        return tuple(out.items())

    got = dict(go(n, rerolls, depth))
    unknown = got.pop((-1, -1), Fraction(0))
    return got, unknown


@pytest.mark.parametrize(
    ("n", "rerolls", "m", "d_rerolls", "effects", "life"),
    [
        (2, 1, 1, 0, {}, None),
        (3, 2, 2, 1, {}, None),
        (2, 0, 1, 0, {"wounds_once": 1}, None),
        (2, 1, 1, 0, {"hits_each": 1}, None),
        (2, 0, 1, 0, {"wounds_each": 2}, 4),
        (4, 3, 3, 2, {"hits_once": 1, "wounds_once": 1}, 3),
    ],
)
def test_odds_match_a_die_by_die_brute_force(n: int, rerolls: int, m: int, d_rerolls: int,
                                             effects: dict[str, int], life: int | None) -> None:
    """The closed form (chain endings and negative binomial CRIT counts) against a die-by-die
    walk over every face, on 3-faced dice with a CRIT (deep chains are likely)."""
    attack = roll_distribution(DieOdds(3, 1, 1), n, rerolls, DEFAULT_TAIL, **effects)
    saves = roll_distribution(DieOdds(3, 1, 1), m, d_rerolls, DEFAULT_TAIL).successes()
    from game.rules.arcadia.rolls import wounds_after_saves

    ours = wounds_after_saves(attack, saves, life)
    a_brute, a_left = brute_roll(1, 1, 3, n, rerolls)
    d_brute, d_left = brute_roll(1, 1, 3, m, d_rerolls)
    want: dict[int, Fraction] = {}
    for (s, k), p in a_brute.items():
        s += effects.get("hits_each", 0) * k + effects.get("hits_once", 0) * (k > 0)
        w = effects.get("wounds_each", 0) * k + effects.get("wounds_once", 0) * (k > 0)
        for (d, _), q in d_brute.items():
            v = max(0, s - d) + w
            v = v if life is None else min(v, life)
            want[v] = want.get(v, Fraction(0)) + p * q
    slack = a_left + d_left + attack.cut + Fraction(1, 10**9)
    assert sum(ours.values()) == 1
    for value in set(ours) | set(want):
        assert abs(ours.get(value, Fraction(0)) - want.get(value, Fraction(0))) <= slack, value


def test_odds_without_crits_are_equal_to_the_brute_force() -> None:
    """A die with no CRIT: every chain ends, so the brute force is complete and equality is exact."""
    board = duel({"attacks": "Blade:melee:2:on_crit=+1 wound", "reroll": 2}, {"defense": 2, "reroll": 1},
                 {"attack_die": "sword,bow,bow", "defense_die": "shield,blank"})
    request = AttackRequest(board, 1, [2], None, {})
    brute, unknown = enumerate_exact(lambda d: int(RULESET.resolve(request, d).outcome["damage"]), limit=40)
    assert unknown == 0
    odds = RULESET.odds(request)
    assert {k: p for k, p in odds.distribution.items() if p} == brute


def test_rerolls_odds_agree_with_the_plain_pool_when_there_are_none() -> None:
    die = DieOdds(6, 3, 1)
    for n in range(0, 6):
        ours = roll_distribution(die, n, 0, DEFAULT_TAIL).successes()
        from game.core.odds import exploding_pmf, power

        one, _ = exploding_pmf(6, hit=3, explode=1, tail=DEFAULT_TAIL)
        plain = power(one, n)
        for k in range(0, 6):
            assert abs(ours.get(k, Fraction(0)) - plain.probability(k)) < Fraction(1, 10**10)


def test_r5_and_e5_exact_vectors_of_the_docs() -> None:
    one_reroll = roll_distribution(DieOdds(6, 3, 1), 1, 1, DEFAULT_TAIL).successes()
    assert [one_reroll[k] for k in range(4)] == [Fraction(1, 9), Fraction(19, 27), Fraction(4, 27),
                                                 Fraction(29, 972)]
    board = duel({"attacks": "Blade:melee:1:on_crit=+1 wound"}, {})
    odds = RULESET.odds(AttackRequest(board, 1, [2], "Blade", {}))
    assert [odds.distribution[k] for k in range(5)] == [Fraction(1, 3), Fraction(1, 2), Fraction(1, 18),
                                                        Fraction(5, 54), Fraction(5, 324)]
