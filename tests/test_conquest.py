"""Conquest: First Blood: vectors FB-1 … FB-9, special-rule hooks, reach, exact odds vs brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.core.errors import IllegalAttackError, UsageError
from game.rules.base import AttackRequest
from game.rules.conquest import dice as cd
from game.rules.conquest.ruleset import RULESET
from game.rules.conquest.special import SpecialRule
from game.rules.registry import get_ruleset

ATK, DEF = 1, 2


def warriors(attacker: dict, defender: dict, *, walls=(), at=((1, 1), (2, 1))) -> Board:
    """Attacker (id 1, Hundred Kingdoms) and defender (id 2, Spires), Close by default."""
    base = {"wound_limit": 3, "resolve": 3}
    return Board.from_ascii(
        ["......"] * 4,
        walls=list(walls),
        ruleset="conquest",
        figures=[
            Figure(ATK, "Knight", "Hundred Kingdoms", at[0], {**base, **attacker}),
            Figure(DEF, "Drone", "Spires", at[1], {**base, **defender}),
        ],
    )


def scripted(text: str) -> ScriptedDice:
    return ScriptedDice(parse_faces(text, pools=RULESET.pools, numeric=True), RULESET.pools)


def clash(board: Board, faces: str, **options):
    dice = scripted(faces)
    res = RULESET.resolve(AttackRequest(board, ATK, [DEF], "Clash", options), dice)
    dice.check_used()
    return res


# --- the arithmetic ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hits", "blocks", "wounds"),
    [
        ([2, 3], [3, 4, 6], 1),  # FB-1
        ([5], [5], 0),  # FB-3
        ([1, 4], [2, 3], 1),  # FB-4
        ([2, 5], [1, 5], 0),  # FB-5: greedy "highest hit first" would give 1
        ([1, 1, 2], [1, 2, 2, 4], 1),  # FB-6
    ],
)
def test_matching_vectors(hits, blocks, wounds):
    assert len(cd.unblocked_hits(hits, blocks)) == wounds


def test_matching_is_maximum_against_brute_force():
    from itertools import permutations

    for hits in product(range(1, 6), repeat=3):
        for blocks in product(range(1, 7), repeat=2):
            best = 0
            for perm in permutations(hits, len(blocks)):
                best = max(best, sum(1 for b, h in zip(blocks, perm, strict=True) if b <= h))
            assert len(cd.match_blocks(hits, blocks)) == best


def test_keep_lowest_never_a_six():
    assert cd.keep_hits([2, 3, 4, 5], 2) == [2, 3]
    assert cd.keep_hits([6, 6, 5], 3) == [5]
    assert cd.keep_hits([1, 1, 3, 6, 2], 3) == [1, 1, 2]


@pytest.mark.parametrize(
    ("wounds", "resolve", "roll", "slain", "after"),
    [
        (4, 3, 1, False, 1),  # FB-7 roll 1
        (4, 3, 2, True, 4),  # FB-7 roll 2
        (4, 2, None, True, 4),  # FB-8: modified Resolve 0, no roll
        (2, 3, 3, False, 1),  # FB-9
    ],
)
def test_resolve_vectors(wounds, resolve, roll, slain, after):
    r = cd.resolve_test(wounds=wounds, wound_limit=2, resolve=resolve, roll=roll)
    assert r.tested and r.slain is slain and r.wounds_after == after
    assert r.broken is (not slain) and r.driven_back is (not slain)


# --- FB-1 … FB-9 through the engine --------------------------------------------------------------


def test_fb1_through_engine():
    board = warriors({"attacks": 4, "clash": 2}, {"defence": 3, "evasion": 2})
    res = clash(board, "2 3 4 5 | 3 4 6")
    assert res.legal
    assert res.outcome["hits"] == [2, 3] and res.outcome["blocks"] == [3, 4, 6]
    assert res.outcome["block_stat"] == "defence"
    assert res.outcome["wounds"] == 1 and res.changes[0].stats == {"wounds": 1}
    assert [s.kind for s in res.steps] == ["roll", "keep", "roll", "compare", "damage"]


def test_fb2_relentless_blows_and_parry_together():
    board = warriors(
        {"attacks": 3, "clash": 2, "rules": "Relentless Blows"},
        {"defence": 3, "evasion": 2, "rules": "parry"},
    )
    # primary 1 2 4; the 1 is re-rolled (Parry) → 3, and adds one die (Relentless Blows) → 5
    res = clash(board, "1 2 4 3 5 | 3 4 6")
    assert res.outcome["dice"] == [2, 3, 4, 5] and res.outcome["hits"] == [2, 3]
    assert res.outcome["wounds"] == 1
    reroll = next(s for s in res.steps if s.kind == "reroll")
    assert [r.reason for r in reroll.rolls] == [
        "reroll of die 1 (parry)",
        "extra attack from die 1 (Relentless Blows)",
    ]


def test_relentless_blows_alone_keeps_the_one():
    board = warriors(
        {"attacks": 2, "clash": 3, "rules": "relentless blows"}, {"defence": 0, "wound_limit": 4}
    )
    res = clash(board, "1 4 2")
    assert res.outcome["dice"] == [1, 2, 4] and res.outcome["wounds"] == 3


def test_parry_applies_only_to_clash_and_only_to_the_defender():
    board = warriors({"attacks": 2, "clash": 2, "rules": "parry"}, {"defence": 0})
    assert clash(board, "1 1").outcome["hits"] == [1, 1]


def test_fb3_sixes_never_hit():
    board = warriors({"attacks": 3, "clash": 3}, {"defence": 1})
    res = clash(board, "6 6 5 | 5")
    assert res.outcome["hits"] == [5] and res.outcome["wounds"] == 0


def test_fb5_optimal_matching_in_engine():
    board = warriors({"attacks": 2, "clash": 2}, {"defence": 2})
    assert clash(board, "2 5 | 5 1").outcome["wounds"] == 0


def test_fb6_through_engine():
    board = warriors({"attacks": 5, "clash": 3}, {"defence": 4})
    assert clash(board, "1 1 3 6 2 | 1 2 2 4").outcome["wounds"] == 1


@pytest.mark.parametrize(("roll", "slain", "wounds"), [("1", False, 1), ("2", True, 4)])
def test_fb7_resolve_with_wounds_above_the_limit(roll, slain, wounds):
    board = warriors(
        {"attacks": 3, "clash": 3}, {"defence": 0, "wounds": 1, "wound_limit": 2, "resolve": 3}
    )
    res = clash(board, f"1 2 3 | | {roll}")
    assert res.outcome["wounds"] == 3 and res.outcome["resolve_test"]["modified"] == 1
    assert res.outcome["slain"] is slain
    stats = res.changes[0].stats
    assert stats["wounds"] == wounds
    assert stats.get("slain", False) is slain and stats.get("broken", False) is (not slain)
    assert res.outcome["driven_back"] is (not slain)


def test_fb8_automatic_failure_needs_no_die():
    board = warriors(
        {"attacks": 3, "clash": 3}, {"defence": 0, "wounds": 1, "wound_limit": 2, "resolve": 2}
    )
    res = clash(board, "1 2 3")  # no resolve face: none is needed
    assert res.outcome["slain"] and res.outcome["resolve_test"]["automatic_failure"]
    RULESET.apply(board, res)
    again = RULESET.check(AttackRequest(board, ATK, [DEF], "Clash", {}))
    assert not again.legal and "Slain" in again.reason


def test_fb9_exactly_at_the_limit():
    board = warriors(
        {"attacks": 1, "clash": 1}, {"defence": 0, "wounds": 1, "wound_limit": 2, "resolve": 3}
    )
    res = clash(board, "4 | | 3")
    assert res.outcome["resolve_test"] == {
        "modified": 3,
        "roll": 3,
        "passed": True,
        "automatic_failure": False,
    }
    assert res.changes[0].stats == {"wounds": 1, "broken": True}


def test_block_stat_choice():
    board = warriors({"attacks": 2, "clash": 2}, {"defence": 1, "evasion": 3})
    assert clash(board, "2 3 | 1 1 1").outcome["block_stat"] == "evasion"
    res = clash(board, "2 3 | 1", block_stat="defence")
    assert res.outcome["block_stat"] == "defence" and res.outcome["wounds"] == 1
    with pytest.raises(UsageError):
        clash(board, "2 3 | 1", block_stat="armour")


def test_too_few_faces_is_a_usage_error():
    board = warriors({"attacks": 3, "clash": 2}, {"defence": 2})
    with pytest.raises(UsageError, match="attack pool"):
        clash(board, "1 2")


def test_unknown_rules_are_noted_not_applied():
    board = warriors({"attacks": 2, "clash": 2, "rules": "Cleave 1, Flurry"}, {"defence": 0})
    res = clash(board, "2 3")
    notes = [s.text for s in res.steps if s.kind == "note"]
    assert len(notes) == 2 and notes[0].startswith("Not applied: Cleave 1 (Knight's special rule)")
    assert res.outcome["wounds"] == 2
    assert SpecialRule.parse("Cleave 1") == SpecialRule("cleave", 1, "Cleave 1")


# --- reach -------------------------------------------------------------------------------------


def test_clash_needs_close_and_volley_needs_sight_and_range():
    stats = {"attacks": 2, "clash": 1, "barrage": 2, "volley": 1, "range": 3}
    board = warriors(stats, {"defence": 1}, walls=["V(2,1)"])
    verdict = RULESET.check(AttackRequest(board, ATK, [DEF], "Clash", {}))
    assert not verdict.legal and "not Close" in verdict.reason
    verdict = RULESET.check(AttackRequest(board, ATK, [DEF], "Volley", {}))
    assert not verdict.legal and "line of sight" in verdict.reason and "V(2,1)" in verdict.reason
    far = warriors(stats, {"defence": 1}, at=((0, 0), (4, 3)))
    verdict = RULESET.check(AttackRequest(far, ATK, [DEF], "Volley", {}))
    assert not verdict.legal and "out of range" in verdict.reason
    near = warriors(stats, {"defence": 1}, at=((0, 0), (3, 3)))  # Chebyshev 3
    assert RULESET.check(AttackRequest(near, ATK, [DEF], "Volley", {})).legal
    assert RULESET.check(AttackRequest(near, ATK, [DEF], None, {})).reason.endswith("Volley Drone.")


def test_allies_and_several_targets_are_illegal():
    board = warriors({"attacks": 2, "clash": 1}, {"defence": 1})
    board.place_figure(Figure(3, "Squire", "Hundred Kingdoms", (1, 2), {"defence": 1}))
    assert "ally" in RULESET.check(AttackRequest(board, ATK, [3], "Clash", {})).reason
    assert not RULESET.check(AttackRequest(board, ATK, [DEF, 3], "Clash", {})).legal
    with pytest.raises(UsageError):
        RULESET.check(AttackRequest(board, ATK, [DEF], "Charge", {}))


def test_attack_menu():
    board = warriors(
        {"attacks": 4, "clash": 2, "barrage": 3, "volley": 2}, {"attacks": 2, "clash": 0}
    )
    assert [(a.name, a.kind, a.dice, a.usable) for a in RULESET.attacks(board, ATK)] == [
        ("Clash", "melee", 4, True),
        ("Volley", "ranged", 3, True),
    ]
    assert [a.usable for a in RULESET.attacks(board, DEF)] == [False]


def test_seeded_resolution_replays_and_is_consistent():
    board = warriors(
        {"attacks": 5, "clash": 3, "rules": "relentless blows"},
        {"defence": 3, "rules": "parry", "wound_limit": 2, "resolve": 3},
    )
    a = RULESET.resolve(AttackRequest(board, ATK, [DEF], "Clash", {}), SeededDice(11))
    b = RULESET.resolve(AttackRequest(board, ATK, [DEF], "Clash", {}), SeededDice(11))
    assert a == b and a.seed == 11
    assert a.outcome["hits"] == cd.keep_hits(a.outcome["dice"], 3)
    assert a.outcome["wounds"] == len(cd.unblocked_hits(a.outcome["hits"], a.outcome["blocks"]))


# --- exact odds ----------------------------------------------------------------------------------


def brute_wounds(dice: int, keep: int, blocks: int, reroll_ones: bool, extra_per_one: int):
    """Every sequence of faces, one by one: primary, then the secondary dice, then the blocks."""
    dist: dict[int, Fraction] = {}
    for primary in product(range(1, 7), repeat=dice):
        ones = primary.count(1)
        fresh = ones * (int(reroll_ones) + extra_per_one)
        base = [f for f in primary if not (reroll_ones and f == 1)]
        for more in product(range(1, 7), repeat=fresh):
            hits = cd.keep_hits(base + list(more), keep)
            for block in product(range(1, 7), repeat=blocks):
                w = len(cd.unblocked_hits(hits, block))
                p = Fraction(1, 6 ** (dice + fresh + blocks))
                dist[w] = dist.get(w, Fraction(0)) + p
    return dict(sorted(dist.items()))


@pytest.mark.parametrize(
    ("dice", "keep", "blocks", "reroll", "extra"),
    [
        (3, 2, 2, False, 0),
        (2, 2, 1, True, 1),
        (2, 1, 2, False, 1),
        (3, 3, 1, True, 0),
        (1, 1, 0, False, 0),
        (3, 3, 3, False, 0),
        (1, 2, 2, True, 2),
    ],
)
def test_exact_wounds_against_brute_force(dice, keep, blocks, reroll, extra):
    effects = cd.PrimaryEffects((reroll,) + (False,) * 5, (extra,) + (0,) * 5)
    assert cd.attack_wounds_distribution(dice, keep, blocks, effects) == brute_wounds(
        dice, keep, blocks, reroll, extra
    )


def test_odds_through_ruleset_includes_slain_chance():
    board = warriors(
        {"attacks": 2, "clash": 2, "rules": "relentless blows"},
        {"defence": 1, "rules": "parry", "wounds": 1, "wound_limit": 2, "resolve": 3},
    )
    odds = RULESET.odds(AttackRequest(board, ATK, [DEF], "Clash", {}))
    assert odds.distribution == brute_wounds(2, 2, 1, True, 1)
    assert sum(odds.distribution.values()) == 1
    # 1 Wound → exactly the limit → Resolve 3: slain on 4-6; 2 Wounds → Resolve 2: slain on 3-6
    p1, p2 = odds.distribution.get(1, 0), odds.distribution.get(2, 0)
    assert odds.kill == p1 * Fraction(1, 2) + p2 * Fraction(2, 3)
    assert odds.expected == p1 + 2 * p2 and odds.label == "wounds"


def test_odds_of_illegal_attack_raise():
    board = warriors({"attacks": 2, "clash": 2}, {"defence": 1}, at=((0, 0), (3, 3)))
    with pytest.raises(IllegalAttackError):
        RULESET.odds(AttackRequest(board, ATK, [DEF], "Clash", {}))


def test_registry():
    assert get_ruleset("conquest") is RULESET
    assert RULESET.pools == ("attack", "block", "resolve") and RULESET.face_names is None
    assert {"clash", "volley", "wound_limit", "rules"} <= RULESET.known_properties


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=60)
@given(st.integers(0, 6), st.integers(0, 4), st.integers(0, 4), st.booleans(), st.integers(0, 1))
def test_wounds_distribution_is_a_distribution(dice, keep, blocks, reroll, extra):
    effects = cd.PrimaryEffects((reroll,) + (False,) * 5, (extra,) + (0,) * 5)
    dist = cd.attack_wounds_distribution(dice, keep, blocks, effects)
    assert sum(dist.values()) == 1
    assert all(0 <= w <= keep and p > 0 for w, p in dist.items())


@settings(max_examples=200)
@given(st.lists(st.integers(1, 5), max_size=5), st.lists(st.integers(1, 6), max_size=5))
def test_hall_formula_equals_greedy_matching(hits, blocks):
    counts = tuple(hits.count(f) for f in range(1, 6))
    block_counts = tuple(blocks.count(f) for f in range(1, 7))
    dist = cd.wounds_distribution({counts: Fraction(1)}, 0) if not blocks else None
    if dist is not None:
        assert dist == {len(hits): Fraction(1)}
    at_least_b = cd._at_least(block_counts)
    at_least_h = cd._at_least(counts)
    deficiency = max(0, *(b - h for b, h in zip(at_least_b, at_least_h, strict=True)))
    assert len(blocks) - deficiency == len(cd.match_blocks(hits, blocks))
