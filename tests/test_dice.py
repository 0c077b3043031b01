"""Dice as data, seeded and scripted sources, the --faces grammar, exploding pools, chi-square."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.commands.wording import cli_words
from game.core.dice import (
    D6,
    Die,
    DieRoll,
    NotEnoughFaces,
    ScriptedDice,
    SeededDice,
    parse_faces,
    roll_pool,
)
from game.core.errors import UsageError
from game.rules.arcadia.ruleset import DEFAULT_ATTACK_DIE, DEFAULT_DEFENCE_DIE

NAMES = {"sword", "bow", "crit", "shield", "blank"}
POOLS = ("attack", "defence")


def is_crit(face: object) -> bool:
    return face == "crit"


# --- dice as data -------------------------------------------------------------------------


def test_default_face_tables_are_the_rules_file_fan_tables() -> None:
    assert Counter(DEFAULT_ATTACK_DIE.faces) == {"sword": 3, "bow": 2, "crit": 1}
    assert Counter(DEFAULT_DEFENCE_DIE.faces) == {"shield": 1, "crit": 1, "blank": 4}


def test_die_parse_and_probabilities() -> None:
    die = Die.parse("defence", "Shield, crit, blank,blank,blank,blank", allowed={"shield", "crit", "blank"})
    assert die.faces[0] == "shield" and die.sides == 6
    assert die.probability("blank") == Fraction(2, 3)
    assert die.probability("sword") == 0
    with pytest.raises(UsageError, match="unknown faces axe"):
        Die.parse("attack", "sword,axe", allowed={"sword"})
    with pytest.raises(UsageError, match="no faces"):
        Die.parse("attack", " , ")
    with pytest.raises(ValueError):
        Die("empty", ())


# --- seeded dice: pinned sequences, replay ------------------------------------------------


def test_pinned_sequences_for_fixed_seeds() -> None:
    # pinned: a change of generator or draw mapping breaks every saved game's replay
    d = SeededDice(0)
    assert [d.roll(D6, 0) for _ in range(10)] == [6, 5, 3, 2, 4, 3, 5, 2, 3, 4]
    d = SeededDice(42)
    assert [d.roll(DEFAULT_ATTACK_DIE, 0) for _ in range(8)] == [
        "bow", "sword", "sword", "sword", "bow", "bow", "crit", "sword"
    ]
    d = SeededDice(2026)
    assert [d.roll(DEFAULT_DEFENCE_DIE, 1) for _ in range(8)] == [
        "shield", "blank", "blank", "blank", "shield", "crit", "blank", "blank"
    ]


def test_state_round_trip_replays_exactly() -> None:
    d = SeededDice(99)
    first = [d.roll(D6, 0) for _ in range(7)]
    state = d.state()
    assert state == {"seed": 99, "draws": 7}
    rest = [d.roll(DEFAULT_ATTACK_DIE, 0) for _ in range(20)]
    again = SeededDice.from_state(state)
    assert [again.roll(DEFAULT_ATTACK_DIE, 0) for _ in range(20)] == rest
    fresh = SeededDice(99)
    assert [fresh.roll(D6, 0) for _ in range(7)] == first
    with pytest.raises(UsageError, match="not a dice state"):
        SeededDice.from_state({"draws": 3})


def test_roll_many_is_the_same_stream_as_roll() -> None:
    a, b = SeededDice(5), SeededDice(5)
    assert a.roll_many(DEFAULT_ATTACK_DIE, 50) == [b.roll(DEFAULT_ATTACK_DIE, 0) for _ in range(50)]
    assert a.state() == b.state()


def test_different_seeds_differ() -> None:
    assert SeededDice(1).roll_many(D6, 30) != SeededDice(2).roll_many(D6, 30)


# --- scripted dice ------------------------------------------------------------------------


def test_scripted_dice_play_back_per_pool() -> None:
    s = ScriptedDice([["crit", "sword"], ["shield"]], POOLS)
    assert s.roll(DEFAULT_DEFENCE_DIE, 1) == "shield"
    assert s.roll(DEFAULT_ATTACK_DIE, 0) == "crit"
    assert s.roll(DEFAULT_ATTACK_DIE, 0) == "sword"
    s.check_used()
    with pytest.raises(NotEnoughFaces, match="attack pool"):
        s.roll(DEFAULT_ATTACK_DIE, 0)


def test_scripted_face_must_belong_to_the_die() -> None:
    s = ScriptedDice([["blank"]], POOLS)
    with pytest.raises(UsageError, match="'blank' is not a face of the attack die"):
        s.roll(DEFAULT_ATTACK_DIE, 0)


def test_check_used_names_the_pool_with_extra_faces() -> None:
    s = ScriptedDice([["sword"], ["shield", "crit", "blank"]], POOLS)
    s.roll(DEFAULT_ATTACK_DIE, 0)
    s.roll(DEFAULT_DEFENCE_DIE, 1)
    with pytest.raises(UsageError, match=r"the defence pool has 2 extra faces \(crit blank\)"):
        s.check_used()


def test_scripted_too_many_pools() -> None:
    with pytest.raises(UsageError, match="3 pools given"):
        ScriptedDice([[1], [2], [3]], POOLS)


# --- the --faces grammar ------------------------------------------------------------------


def test_parse_faces_grammar() -> None:
    assert parse_faces("crit bow,bow ,  sword|shield", pools=POOLS, names=NAMES) == [
        ["crit", "bow", "bow", "sword"], ["shield"]
    ]
    assert parse_faces("SWORD", pools=POOLS, names=NAMES) == [["sword"], []]
    assert parse_faces("| shield", pools=POOLS, names=NAMES) == [[], ["shield"]]
    assert parse_faces("", pools=POOLS, names=NAMES) == [[], []]
    assert parse_faces("6,6 1|2", pools=POOLS, numeric=True) == [[6, 6, 1], [2]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sword | shield | crit", "3 pools given, but this ruleset rolls 2"),
        ("sword swrod", "unknown face 'swrod' in the attack pool"),
        ("sword | sheild", "unknown face 'sheild' in the defence pool"),
    ],
)
def test_parse_faces_errors(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_faces(text, pools=POOLS, names=NAMES)


def test_parse_faces_numeric_error() -> None:
    with pytest.raises(UsageError, match="'six' in the attack pool is not a number"):
        parse_faces("six", pools=POOLS, numeric=True)


@given(st.lists(st.lists(st.sampled_from(sorted(NAMES)), max_size=6), min_size=1, max_size=2))
def test_parse_faces_round_trip(pools: list[list[str]]) -> None:
    text = " | ".join(", ".join(p) for p in pools)
    parsed = parse_faces(text, pools=POOLS, names=NAMES)
    assert parsed[: len(pools)] == pools
    assert all(p == [] for p in parsed[len(pools):])


# --- exploding pools ----------------------------------------------------------------------


def test_roll_pool_appends_explosions_in_order() -> None:
    s = ScriptedDice([["crit", "bow", "crit", "sword", "crit", "blank"]], ["attack"])
    die = Die("attack", ("sword", "bow", "crit", "blank"))
    rolls = roll_pool(s, die, 3, pool=0, pool_name="attack", explodes=is_crit)
    assert [(r.face, r.reason) for r in rolls] == [
        ("crit", "rolled"),
        ("bow", "rolled"),
        ("crit", "rolled"),
        ("sword", "explosion of die 1"),
        ("crit", "explosion of die 3"),
        ("blank", "explosion of die 5"),
    ]
    assert all(isinstance(r, DieRoll) and r.pool == "attack" for r in rolls)


@pytest.mark.parametrize(
    ("faces", "count", "message"),
    [
        (["crit", "sword"], 3, "the attack pool needs 2 more faces (3 dice + 1 explosion)"),
        ([], 2, "the attack pool needs 2 more faces (2 dice)"),
        (["crit", "crit"], 1, "the attack pool needs 1 more face (1 die + 2 explosions)"),
    ],
)
def test_roll_pool_says_how_many_faces_are_missing(faces: list[str], count: int, message: str) -> None:
    s = ScriptedDice([faces], ["attack"])
    with pytest.raises(NotEnoughFaces) as info:
        roll_pool(s, DEFAULT_ATTACK_DIE, count, pool=0, pool_name="attack", explodes=is_crit)
    assert str(info.value) == message  # the rules' words
    assert cli_words(info.value) == f"--faces: {message}"  # the command line's


# --- chi-square: 100,000 seeded exploding rolls against the exact distribution ------------

#: chi-square critical value, 4 degrees of freedom, p = 0.001
CHI2_4DF_999 = 18.467


def _chi_square(counts: Counter[int], probs: list[Fraction], n: int) -> float:
    """Buckets 0..len(probs)-2 and a last bucket '≥ len(probs)-1'."""
    last = len(probs) - 1
    observed = [counts.get(k, 0) for k in range(last)] + [sum(v for k, v in counts.items() if k >= last)]
    expected = [float(p) * n for p in probs[:last]] + [float(1 - sum(probs[:last])) * n]
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def _successes(seed: int, die: Die, n: int, success: set[str]) -> Counter[int]:
    """``n`` one-die exploding rolls (crit: success + another die), counted by successes."""
    dice = SeededDice(seed)
    counts: Counter[int] = Counter()
    faces = dice.roll_many(die, 3 * n)  # plenty: mean chain length is 1.2
    i = 0
    for _ in range(n):
        total = 0
        while True:
            if i == len(faces):
                faces.extend(dice.roll_many(die, 1000))
            face = faces[i]
            i += 1
            if face == "crit":
                total += 1
                continue
            total += face in success
            break
        counts[total] += 1
    return counts


MELEE = [Fraction(1, 3), Fraction(5, 9), Fraction(5, 54), Fraction(5, 324), Fraction(1, 1)]
DEFENCE = [Fraction(2, 3), Fraction(5, 18), Fraction(5, 108), Fraction(5, 648), Fraction(1, 1)]


def test_chi_square_melee_100k_seeded_rolls() -> None:
    counts = _successes(20261129, DEFAULT_ATTACK_DIE, 100_000, {"sword"})
    assert sum(counts.values()) == 100_000
    assert _chi_square(counts, MELEE, 100_000) < CHI2_4DF_999
    # the test can fail: the same rolls are far from the ranged distribution
    ranged = [Fraction(1, 2), Fraction(5, 12), Fraction(5, 72), Fraction(5, 432), Fraction(1, 1)]
    assert _chi_square(counts, ranged, 100_000) > 100 * CHI2_4DF_999


def test_chi_square_defence_100k_seeded_rolls() -> None:
    counts = _successes(7, DEFAULT_DEFENCE_DIE, 100_000, {"shield"})
    assert _chi_square(counts, DEFENCE, 100_000) < CHI2_4DF_999
